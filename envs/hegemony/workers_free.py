"""Workers, the free actions: Use Education's worker replacement (§4.2) with the Prosperity
gain every Use action scores (§4), and Swap Workers (§4.4).

It sits above ``workers`` (the seats' slot requirements) and below the economy's free actions
(``economy_free``: Use Health and Use Luxury gain Prosperity here) and ``production``; a card's
``upgrade_worker`` and ``prosperity`` reach its rules as the game's phase rules
(``rules.py``).
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import board
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import MAX_SLOTS, WC, blocks
from meeplezoo.envs.hegemony.state import KINDS, worker
from meeplezoo.envs.hegemony.workers import ALL_SEATS, INDUSTRY_COUNT, NO, SLOT_REQS

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# Agenda codes (codes.WORKERS is 20-39)
EDU_WORKER = 28      # decision: which worker Use Education replaces
EDU_INDUSTRY = 29    # decision: the replacing worker's industry (arg: the source, see _source)
SWAP = 30            # decision: a slot to swap, or done
SWAP_IN = 31         # decision (swap_target = "any"): the incoming unemployed kind (arg: slot)

# Scratch keys (each a 31-bit seat mask, as saved.py bounds ctx values).
SWAPPED = ("workers_swapped_1", "workers_swapped_2", "workers_swapped_3")  # per slot k: seats
#   whose slot k was swapped already in this Swap Workers action
CTX: dict[str, int] = dict.fromkeys(SWAPPED, 0)


# -- Use Education, the worker part (§4.2), and the Prosperity gain (§4) -------------------------
def gain_prosperity(st: HegemonyState, cls: int) -> None:
    """Prosperity +1 and the VP printed on the new space; at the top the marker stays and
    scores that space again."""
    table = D.WC_PROSPERITY_VP if cls == WC else D.MC_PROSPERITY_VP
    st.prosperity[cls] = min(len(table) - 1, st.prosperity[cls] + 1)
    board.score(st, cls, table[st.prosperity[cls]], "prosperity")


def retrain_sources(st: HegemonyState, cls: int) -> list[int]:
    """Workers Use Education (and a card's ``upgrade_worker``) can replace by a skilled worker it
    changes: any unemployed one, and any in a slot except a skilled worker in a skilled slot
    (or a union, never offered)."""
    b = blocks(cls)
    legal = [b.from_unemployed + kind for kind in range(KINDS) if st.unemployed[cls][kind]]
    for seat in ALL_SEATS:
        c = st.seat_card[seat]
        if c < 0:
            continue
        card = D.COMPANIES[c]
        for k, w in enumerate(st.seat_workers[seat]):
            if w != NO and w // KINDS == cls and (w % KINDS == 0 or card.slots[k].skill is None):
                legal.append(b.from_slot + seat * MAX_SLOTS + k)
    return legal


def _can_use_education(st: HegemonyState, cls: int) -> bool:
    """Education enough for the Population, and a worker to replace (any unemployed one is)."""
    return st.goods[cls][3] >= board.population(st, cls) and (
        any(st.unemployed[cls][:KINDS]) or bool(retrain_sources(st, cls)))


def _start_use_education(st: HegemonyState, cls: int) -> None:
    st.goods[cls][3] -= board.population(st, cls)
    gain_prosperity(st, cls)
    st.push((EDU_WORKER, cls, 0))


def _legal_edu_worker(st: HegemonyState, item: Item) -> list[int]:
    return retrain_sources(st, item[1])


def _apply_edu_worker(st: HegemonyState, item: Item, action: int) -> None:
    cls = item[1]
    st.agenda.pop()
    st.push((EDU_INDUSTRY, cls, action - blocks(cls).from_unemployed))


def _edu_kind(st: HegemonyState, cls: int, arg: int) -> int:
    """The kind of the worker chosen: ``arg`` < 6 is an unemployed kind, else 6 + slot."""
    if arg < KINDS:
        return arg
    seat, k = divmod(arg - KINDS, MAX_SLOTS)
    return st.seat_workers[seat][k] % KINDS


def legal_retrain_industry(st: HegemonyState, item: Item) -> list[int]:
    current = _edu_kind(st, item[1], item[2])
    first = blocks(item[1]).industry
    return [first + i for i in range(INDUSTRY_COUNT) if 1 + i != current]


def apply_retrain(st: HegemonyState, item: Item, action: int) -> None:
    """The new skilled worker takes the old one's place and committed state (Use Education,
    and the cards' ``upgrade_worker``: item arg = the worker's kind if unemployed, else 6 +
    its slot)."""
    cls, arg = item[1], item[2]
    kind = 1 + action - blocks(cls).industry
    if arg < KINDS:
        st.unemployed[cls][arg] -= 1
        st.unemployed[cls][kind] += 1
    else:
        seat, k = divmod(arg - KINDS, MAX_SLOTS)
        st.seat_workers[seat][k] = worker(cls, kind)
    st.agenda.pop()


# -- Swap Workers (§4.4) --------------------------------------------------------------------------
def _incoming_kinds(st: HegemonyState, cls: int, out_kind: int) -> list[int]:
    """Unemployed kinds that may come in for a worker of ``out_kind``: unskilled [M], or under
    ``swap_target = "any"`` any other kind [P]."""
    unemployed = st.unemployed[cls]
    if st.game.config["swap_target"] == "any":
        return [kind for kind in range(KINDS) if kind != out_kind and unemployed[kind]]
    return [0] if unemployed[0] else []


def _swap_slots(st: HegemonyState, cls: int) -> list[int]:
    """Slots (seat*3+slot) holding an own skilled worker in a U slot, not swapped yet in this
    action, with a worker to swap in."""
    any_kind = st.game.config["swap_target"] == "any"
    unemployed = st.unemployed[cls]
    if not any_kind and not unemployed[0]:
        return []  # nobody to swap in (``_incoming_kinds``)
    done = [st.ctx[key] for key in SWAPPED]
    low = cls * KINDS  # the class's unskilled worker; its skilled ones follow
    rows = st.seat_workers
    flat = list(chain.from_iterable(rows))
    if len(flat) == len(rows) * MAX_SLOTS:  # one list of MAX_SLOTS per seat: scanned flat
        places = [divmod(at, MAX_SLOTS) for at, w in enumerate(flat) if low < w < low + KINDS]
    else:
        places = [(seat, k) for seat, workers in enumerate(rows) for k, w in enumerate(workers)
                  if low < w < low + KINDS]
    out = []
    cards = st.seat_card
    for seat, k in places:  # own skilled workers, seat by seat and slot by slot
        c = cards[seat]
        if c < 0 or SLOT_REQS[c][k] is not None or done[k] >> seat & 1:
            continue
        if not any_kind or _incoming_kinds(st, cls, rows[seat][k] - low):
            out.append(seat * MAX_SLOTS + k)
    return out


def _can_swap(st: HegemonyState, cls: int) -> bool:
    return bool(_swap_slots(st, cls))


def _start_swap(st: HegemonyState, cls: int) -> None:
    for key in SWAPPED:
        st.ctx[key] = 0
    st.push((SWAP, cls, 0))


def _legal_swap(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    legal = [b.from_slot + index for index in _swap_slots(st, item[1])]
    if any(st.ctx[key] for key in SWAPPED):
        legal.append(b.DONE)
    return legal


def _swap(st: HegemonyState, cls: int, index: int, kind_in: int) -> None:
    """The incoming worker takes the slot and its committed state; the outgoing one is
    unemployed and not committed."""
    seat, k = divmod(index, MAX_SLOTS)
    st.unemployed[cls][st.seat_workers[seat][k] % KINDS] += 1
    st.unemployed[cls][kind_in] -= 1
    st.seat_workers[seat][k] = worker(cls, kind_in)


def _apply_swap(st: HegemonyState, item: Item, action: int) -> None:
    cls = item[1]
    b = blocks(cls)
    if action == b.DONE:
        st.agenda.pop()
        return
    index = action - b.from_slot
    seat, k = divmod(index, MAX_SLOTS)
    st.ctx[SWAPPED[k]] |= 1 << seat
    if st.game.config["swap_target"] == "any":
        st.push((SWAP_IN, cls, index))
    else:
        _swap(st, cls, index, 0)


def _legal_swap_in(st: HegemonyState, item: Item) -> list[int]:
    cls, index = item[1], item[2]
    seat, k = divmod(index, MAX_SLOTS)
    first = blocks(cls).from_unemployed
    return [first + kind
            for kind in _incoming_kinds(st, cls, st.seat_workers[seat][k] % KINDS)]


def _apply_swap_in(st: HegemonyState, item: Item, action: int) -> None:
    _swap(st, item[1], item[2], action - blocks(item[1]).from_unemployed)
    st.agenda.pop()


# -- the plug-in tables (turn.py) ---------------------------------------------------------------
CODES: dict[int, Decision | Step] = {
    EDU_WORKER: Decision("education_worker", _legal_edu_worker, _apply_edu_worker),
    EDU_INDUSTRY: Decision("education_industry", legal_retrain_industry, apply_retrain),
    SWAP: Decision("swap_slot", _legal_swap, _apply_swap),
    SWAP_IN: Decision("swap_incoming", _legal_swap_in, _apply_swap_in),
}
assert all(code in K.WORKERS for code in CODES)

FREE = {
    "use_education": (_can_use_education, _start_use_education),
    "swap_workers": (_can_swap, _start_swap),
}

