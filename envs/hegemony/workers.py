"""Workers: Assign Workers (§3.3), Demonstration (§3.6), Trade Unions (§5.10), and the slot
matching and commitment helpers other modules call (§5.1-§5.3).  The other worker actions sit
in two modules above it: ``workers_build`` (Build Company §3.7, and staffing a company from
the unemployed) and ``workers_free`` (Use Education's worker replacement §4.2, with the
Prosperity gain, and Swap Workers §4.4).

Every compound choice is a chain of small decisions (rules page §14, §12 #39), each offered
only if the rest of the chain can still be completed, so every mask is exact.  Assign Workers:
a destination (``company`` seat, ``union``, or ``done`` after a first one), offered only if
the placements left (3 per action) can fill all its empty slots; then, for each of those
slots, the worker's source (``from_unemployed`` kind or ``from_slot``).  The all-or-nothing
check, the commitment exception [P FAQ] and the strike-token removal run when the action ends
(``ASSIGN_END``, after a Build Company too).

Card modifiers (§11.1, read with ``effects_basic.mod``): ``max_workers`` (``any``: no limit),
``source: unemployed_only``, ``scope: public`` (public destinations only, no union) and
``allow_reassign``, read here as: an own non-committed worker standing in a destination company
may be placed back where it stands (a ``from_slot`` action of the destination decision, one
placement, it becomes committed).

A company's non-employee workers are always one class (§12 #21).  Committed workers and union
members never move; a worker whose move would strand a committed worker of its company (MC's
worker under a committed WC employee) is no source.  Union members are permanently committed:
``stand_up`` (called by Production) leaves them alone, since they sit in ``st.unions``.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import board, effects_basic
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    CC,
    CC_SEATS,
    COOP_SEATS,
    MAX_SLOTS,
    MC,
    MC_SEATS,
    NUM_SEATS,
    PUBLIC_SEATS,
    ST,
    WC,
    blocks,
)
from meeplezoo.envs.hegemony.state import KINDS, NO_WORKER, worker

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# Agenda codes (codes.WORKERS is 20-39; STAFF = 20 is fixed in codes.py, the rest of the range
# is named in workers_build and workers_free).
ASSIGN = 21          # decision: a destination, or done (arg: placements left)
ASSIGN_SLOT = 22     # decision: the source of the worker for one slot (arg: seat*3+slot, or
#                      UNION_ARG + industry for a union)
ASSIGN_END = 23      # step: all-or-nothing check, commitment exception, strike tokens

UNION_ARG = 100
NO = NO_WORKER
ALL_SEATS = range(NUM_SEATS)
DESTINATION_SEATS = {
    WC: (*CC_SEATS, *PUBLIC_SEATS, *MC_SEATS, *COOP_SEATS),
    MC: (*CC_SEATS, *PUBLIC_SEATS, *MC_SEATS),
}
INDUSTRY_COUNT = len(D.INDUSTRIES)

# Scratch keys (each a 31-bit seat mask or a flag, as saved.py bounds ctx values).
VACATED = ("workers_vacated_1", "workers_vacated_2", "workers_vacated_3")  # per slot k: seats
#   whose slot k a worker left during the action
CTX: dict[str, int] = {
    "workers_op_before": 0,  # seat bits: operational when the action began
    **dict.fromkeys(VACATED, 0),
    "workers_built_wc": 0,   # a company was built and staffed with WC workers (§3.6 variant)
}


# -- slot requirements and matching -------------------------------------------------------------
def slot_req(slot: D.Slot) -> int | None:
    """The worker kind a slot needs (1 + industry), or None for a U slot (any worker)."""
    return None if slot.skill is None else 1 + slot.skill


def _fits(req: int | None, kind: int) -> bool:
    return req is None or req == kind


def can_fill(reqs: list[int | None], counts: list[int]) -> bool:
    """Whether workers counted by kind can fill slots with these requirements: skilled slots
    need their kind, U slots take whatever is left."""
    need = [0] * KINDS
    unskilled_slots = 0
    for req in reqs:
        if req is None:
            unskilled_slots += 1
        else:
            need[req] += 1
    spare = 0
    for kind in range(KINDS):
        if need[kind] > counts[kind]:
            return False
        spare += counts[kind] - need[kind]
    return spare >= unskilled_slots


def class_slots(card: D.CompanyCard, cls: int) -> list[int]:
    """The slots of a company that a worker of ``cls`` may take (§3.3 legal destinations)."""
    if card.automated:
        return []
    if card.sector == "mc":
        if cls == MC:
            return [k for k, s in enumerate(card.slots) if s.mc]
        return [k for k, s in enumerate(card.slots) if s.employee] if cls == WC else []
    if card.sector == "coop":
        return list(range(len(card.slots))) if cls == WC else []
    return list(range(len(card.slots)))


# Per company card, read once (the placement checks run for every seat of every turn menu):
# its sector, each slot's requirement, and per class the slots its workers may take.
SECTOR = tuple(c.sector for c in D.COMPANIES)
SLOT_REQS = tuple(tuple(slot_req(s) for s in c.slots) for c in D.COMPANIES)
CLASS_SLOTS = {cls: tuple(tuple(class_slots(c, cls)) for c in D.COMPANIES)
               for cls in (WC, MC, CC, ST)}


def _needed(st: HegemonyState, seat: int, cls: int) -> list[int]:
    """The empty slots ``cls`` must fill to complete ``seat`` as an Assign Workers destination:
    [] when it is no destination for ``cls`` (other class's staff, MC workers absent for an
    employee, nothing empty)."""
    index = st.seat_card[seat]
    if index < 0 or not st.seat_face_up[seat]:
        return []
    sector = SECTOR[index]
    if sector == "mc":
        if cls == WC and not board.is_operational(st, seat):
            return []  # the employee slot needs the MC worker(s) present
    elif sector != "coop" and board.staff_class(st, seat) not in (-1, cls):
        return []  # §12 #21: one class per company (CC and public companies)
    workers = st.seat_workers[seat]
    return [k for k in CLASS_SLOTS[cls][index] if workers[k] == NO]


def _slot_sources(st: HegemonyState, cls: int, exclude: int = -1) -> list[tuple[int, int, int]]:
    """(seat, slot, kind) of every own worker that may move, outside seat ``exclude``: not a
    committed one, nor one whose company keeps a committed worker it would strand (an
    employee's slot never strands anyone).  Several actions of a turn menu ask it, so it is
    kept while a legality check runs (``board.legality_memo``); callers only read the list."""
    memo = st.query_memo
    if memo is not None:
        key = ("sources", cls, exclude)
        kept = memo.get(key)
        if kept is None:
            kept = memo[key] = _find_slot_sources(st, cls, exclude)
        return kept
    return _find_slot_sources(st, cls, exclude)


def _find_slot_sources(st: HegemonyState, cls: int, exclude: int,
                       ) -> list[tuple[int, int, int]]:
    rows = st.seat_workers
    low, high = cls * KINDS, cls * KINDS + KINDS  # the class's worker codes
    flat = list(chain.from_iterable(rows))
    if len(flat) == len(rows) * MAX_SLOTS:  # one list of MAX_SLOTS per seat: scanned flat
        places = [divmod(at, MAX_SLOTS) for at, w in enumerate(flat) if low <= w < high]
    else:
        places = [(seat, k) for seat, workers in enumerate(rows) for k in range(MAX_SLOTS)
                  if low <= workers[k] < high]
    out = []
    cards, committed_rows = st.seat_card, st.seat_committed
    for seat, k in places:
        committed = committed_rows[seat]
        if seat == exclude or committed[k] or cards[seat] < 0:
            continue
        workers = rows[seat]
        if board.EMPLOYEE_SLOT[cards[seat]] != k and any(
                committed[j] and workers[j] != NO for j in range(MAX_SLOTS) if j != k):
            continue  # it would strand a committed worker of its company
        out.append((seat, k, workers[k] % KINDS))
    return out


def worker_counts(st: HegemonyState, cls: int, exclude: int = -1) -> list[int]:
    """Workers available to place, by kind: unemployed plus movable ones outside ``exclude``."""
    counts = list(st.unemployed[cls])
    for _seat, _k, kind in _slot_sources(st, cls, exclude):
        counts[kind] += 1
    return counts


def _take(st: HegemonyState, cls: int, action: int) -> int:
    """Remove the worker a source action names (unemployed kind or slot); returns its kind.
    A worker leaving a slot marks the seat vacated, and a strike token goes if the company
    stops being operational (§3.3, §5.5).  A union whose count this lowers is checked once
    the whole action is done (decision #49, the ``after_action`` re-check), not here."""
    b = blocks(cls)
    if action < b.from_slot:
        kind = action - b.from_unemployed
        st.unemployed[cls][kind] -= 1
        return kind
    seat, k = divmod(action - b.from_slot, MAX_SLOTS)
    w = st.seat_workers[seat][k]
    st.seat_workers[seat][k] = NO
    st.seat_committed[seat][k] = 0
    st.ctx[VACATED[k]] |= 1 << seat
    if st.seat_strike[seat] and not board.is_operational(st, seat):
        st.seat_strike[seat] = 0
    return w % KINDS


def place(st: HegemonyState, seat: int, k: int, w: int) -> None:
    """A worker is placed (committed, §5.3)."""
    st.seat_workers[seat][k] = w
    st.seat_committed[seat][k] = 1


def begin_action(st: HegemonyState) -> None:
    """Remember which companies are operational as the action begins (commitment exception)."""
    bits = 0
    for seat in ALL_SEATS:
        if st.seat_card[seat] >= 0 and board.is_operational(st, seat):
            bits |= 1 << seat
    st.ctx["workers_op_before"] = bits
    for key in VACATED:
        st.ctx[key] = 0


# -- trade unions (§5.10) -------------------------------------------------------------------------
def union_counts(st: HegemonyState) -> list[int]:
    """By industry: WC workers working in (face-up) companies of that industry, any owner's,
    the Cooperative Farm included for Agriculture (WC workers are the ints 0..5)."""
    counts = [0] * INDUSTRY_COUNT
    for seat in ALL_SEATS:
        c = st.seat_card[seat]
        if c >= 0 and st.seat_face_up[seat]:
            counts[D.COMPANIES[c].industry] += sum(
                1 for w in st.seat_workers[seat] if w != NO and w < KINDS)
    return counts


def union_count(st: HegemonyState, industry: int) -> int:
    return union_counts(st)[industry]


def recheck_unions(st: HegemonyState) -> None:
    """A union whose count dropped below 4 loses its worker to the Unemployed area: after each
    whole action (decision #49: a worker moved within one industry in one action keeps the
    union) and after each policy change."""
    if not any(st.unions):
        return
    counts = union_counts(st)
    for industry in range(INDUSTRY_COUNT):
        if st.unions[industry] and counts[industry] < D.UNION_MIN_WORKERS:
            st.unions[industry] = 0
            st.unemployed[WC][1 + industry] += 1


def _union_sources(st: HegemonyState, industry: int,
                   sources: list[tuple[int, int, int]] | None = None,
                   counts: list[int] | None = None) -> list[int]:
    """Sources of a WC worker skilled in ``industry`` that could join its empty union: at least
    4 OTHER WC workers must stay in companies of that industry.  ``sources`` and ``counts``
    (WC's movable workers, ``union_counts``) may be passed in when already computed."""
    if st.unions[industry]:
        return []
    b = blocks(WC)
    kind = 1 + industry
    count = (counts or union_counts(st))[industry]
    legal = []
    if st.unemployed[WC][kind] and count >= D.UNION_MIN_WORKERS:
        legal.append(b.from_unemployed + kind)
    for seat, k, w_kind in (_slot_sources(st, WC) if sources is None else sources):
        if w_kind == kind:
            here = D.COMPANIES[st.seat_card[seat]].industry == industry
            if count - here >= D.UNION_MIN_WORKERS:
                legal.append(b.from_slot + seat * MAX_SLOTS + k)
    return legal


# -- Demonstration (§3.6) ------------------------------------------------------------------
def open_wc_slots(st: HegemonyState) -> int:
    """Empty slots a WC worker could legally take (§3.6's exact definition): every slot of a
    non-operational, non-automated CC company or face-up public company, the empty employee
    slot of an MC company whose MC worker(s) are present, and the slots of an empty WC
    Cooperative Farm."""
    n = 0
    for seat in (*CC_SEATS, *PUBLIC_SEATS):
        card = board.card(st, seat)
        if card is None or not st.seat_face_up[seat] or card.automated:
            continue
        if not board.is_operational(st, seat) and board.staff_class(st, seat) in (-1, WC):
            n += sum(1 for k in range(len(card.slots)) if st.seat_workers[seat][k] == NO)
    for seat in MC_SEATS:
        k = board.employee_slot(st, seat)
        if k >= 0 and board.is_operational(st, seat) and st.seat_workers[seat][k] == NO:
            n += 1
    for seat in COOP_SEATS:
        card = board.card(st, seat)
        if card is not None and st.seat_face_up[seat] \
                and all(w == NO for w in st.seat_workers[seat]):
            n += len(card.slots)
    return n


def _demonstration_holds(st: HegemonyState) -> bool:
    unemployed = board.unemployed_total(st, WC)
    if unemployed < D.DEMONSTRATION_MARGIN:
        return False  # whatever the open slots (never fewer than none)
    return unemployed >= open_wc_slots(st) + D.DEMONSTRATION_MARGIN


def _can_demonstrate(st: HegemonyState, cls: int) -> bool:
    return not st.demonstration and _demonstration_holds(st)


def _start_demonstration(st: HegemonyState, cls: int) -> None:
    st.demonstration = 1


def recheck(st: HegemonyState) -> None:
    """The re-checks after every action and policy change: unions first (a lost union worker
    becomes unemployed), then the Demonstration token [M]; under
    ``demonstration_discard = "published"`` the token goes only after an action that built a
    company and staffed it with WC workers."""
    recheck_unions(st)
    if not st.demonstration:
        return
    if st.game.config["demonstration_discard"] == "published" \
            and not st.ctx.get("workers_built_wc", 0):
        return
    if not _demonstration_holds(st):
        st.demonstration = 0


def after_action(st: HegemonyState) -> None:
    recheck(st)


# -- commitment (§5.3) ---------------------------------------------------------------------
def stand_up(st: HegemonyState) -> None:
    """End of the Production step: every worker in a company stands up (union members, who
    sit in ``st.unions``, stay permanently committed)."""
    for row in st.seat_committed:
        for k in range(MAX_SLOTS):
            row[k] = 0


# -- Assign Workers (§3.3) -----------------------------------------------------------------
ANY_WORKERS = 99  # ``max_workers: any``: more placements than there are workers


def _assign_max(st: HegemonyState) -> int:
    """Placements per Assign Workers: 3, or a card's ``max_workers``."""
    most = effects_basic.mod(st, "max_workers", D.ASSIGN_MAX_WORKERS)
    return ANY_WORKERS if most == "any" else most


def _movable_sources(st: HegemonyState, cls: int, exclude: int = -1,
                     ) -> list[tuple[int, int, int]]:
    """``_slot_sources``, or none under a card's ``source: unemployed_only``."""
    if effects_basic.mod(st, "source") == "unemployed_only":
        return []
    return _slot_sources(st, cls, exclude)


def _recommit_slots(st: HegemonyState, cls: int, seats: tuple[int, ...]) -> list[int]:
    """``allow_reassign``: own non-committed workers that may be placed back where they stand
    (seat * 3 + slot), in the destination seats."""
    out = []
    for seat in seats:
        card = board.card(st, seat)
        if card is None or not st.seat_face_up[seat]:
            continue
        workers, committed = st.seat_workers[seat], st.seat_committed[seat]
        for k in class_slots(card, cls):
            w = workers[k]
            if w != NO and w // KINDS == cls and not committed[k]:
                out.append(seat * MAX_SLOTS + k)
    return out


def _destinations(st: HegemonyState, cls: int, left: int, first: bool = False) -> list[int]:
    """Company seats and unions the placements left can complete (``first``: stop at one).
    A card may restrict the sources to the Unemployed area (``source``) and the destinations to
    face-up public companies (``scope: public``), and offer own non-committed workers to be
    placed back where they stand (``allow_reassign``: ``from_slot`` actions, one placement
    each)."""
    b = blocks(cls)
    mods = effects_basic.active_mods(st)
    sources = _movable_sources(st, cls)
    public = mods.get("scope") == "public"
    seats = PUBLIC_SEATS if public else DESTINATION_SEATS[cls]
    total = list(st.unemployed[cls])
    for _seat, _k, kind in sources:
        total[kind] += 1
    legal = []
    if mods.get("allow_reassign"):
        legal += [b.from_slot + index for index in _recommit_slots(st, cls, seats)]
        if first and legal:
            return legal
    available = sum(total)  # no seat needing more workers than this can be filled
    source_seats = {s for s, _k, _kind in sources}
    cards, rows = st.seat_card, st.seat_workers
    for seat in seats:
        if cards[seat] < 0 or NO not in rows[seat]:
            continue  # no company, or no empty slot (``_needed`` would be empty)
        need = _needed(st, seat, cls)
        if not need or len(need) > left or len(need) > available:
            continue
        counts = total
        if seat in source_seats:
            counts = list(total)
            for s, _k, kind in sources:
                if s == seat:
                    counts[kind] -= 1  # never re-assigned to the company it is in
        reqs = SLOT_REQS[st.seat_card[seat]]
        if can_fill([reqs[k] for k in need], counts):
            legal.append(b.company + seat)
            if first:
                return legal
    if cls == WC and not public and not all(st.unions):
        union = union_counts(st)
        legal += [b.union + i for i in range(INDUSTRY_COUNT)
                  if _union_sources(st, i, sources, union)]
    return legal


def _can_assign(st: HegemonyState, cls: int) -> bool:
    """``_destinations`` is not empty.  Asked every turn, so first the seats the unemployed
    workers alone can complete: the movable ones only add to them (``_can_fill`` holds with more
    workers), and finding them is the costly part."""
    left = _assign_max(st)
    mods = effects_basic.active_mods(st)
    public = mods.get("scope") == "public"
    seats = PUBLIC_SEATS if public else DESTINATION_SEATS[cls]
    if mods.get("allow_reassign") and _recommit_slots(st, cls, seats):
        return True
    unemployed = st.unemployed[cls]
    undecided = False
    cards, rows = st.seat_card, st.seat_workers
    for seat in seats:
        if cards[seat] < 0 or NO not in rows[seat]:
            continue  # no company, or no empty slot (``_needed`` would be empty)
        need = _needed(st, seat, cls)
        if not need or len(need) > left:
            continue
        reqs = SLOT_REQS[st.seat_card[seat]]
        if can_fill([reqs[k] for k in need], unemployed):
            return True
        undecided = True
    if not undecided and not (cls == WC and not public and not all(st.unions)):
        return False  # no seat to complete, no union to join
    return bool(_destinations(st, cls, left, first=True))


def _start_assign(st: HegemonyState, cls: int) -> None:
    begin_action(st)
    st.push((ASSIGN, cls, _assign_max(st)), (ASSIGN_END, cls, 0))


def _legal_assign(st: HegemonyState, item: Item) -> list[int]:
    cls, left = item[1], item[2]
    legal = _destinations(st, cls, left)
    if left < _assign_max(st):
        legal.append(blocks(cls).DONE)
    return legal


def _apply_assign(st: HegemonyState, item: Item, action: int) -> None:
    cls, left = item[1], item[2]
    b = blocks(cls)
    if action == b.DONE:
        st.agenda.pop()
        return
    if action >= b.from_slot:  # allow_reassign: placed back where it stands, so committed
        seat, k = divmod(action - b.from_slot, MAX_SLOTS)
        st.seat_committed[seat][k] = 1
        if left > 1:
            st.agenda[-1] = (ASSIGN, cls, left - 1)
        else:
            st.agenda.pop()
        return
    if b.union <= action < b.union + INDUSTRY_COUNT:
        args = [UNION_ARG + action - b.union]
    else:
        seat = action - b.company
        args = [seat * MAX_SLOTS + k for k in _needed(st, seat, cls)]
    left -= len(args)
    if left > 0:
        st.agenda[-1] = (ASSIGN, cls, left)
    else:
        st.agenda.pop()
    st.push(*[(ASSIGN_SLOT, cls, arg) for arg in args])


def _legal_slot(st: HegemonyState, item: Item) -> list[int]:
    """Sources for one slot: a worker that fits it and leaves enough to fill the rest of the
    destination's empty slots."""
    cls, arg = item[1], item[2]
    if arg >= UNION_ARG:
        return _union_sources(st, arg - UNION_ARG, _movable_sources(st, WC))
    b = blocks(cls)
    seat, j = divmod(arg, MAX_SLOTS)
    card = D.COMPANIES[st.seat_card[seat]]
    req = slot_req(card.slots[j])
    rest = [slot_req(card.slots[k]) for k in _needed(st, seat, cls) if k != j]
    unemployed = st.unemployed[cls]
    sources = _movable_sources(st, cls, seat)

    counts = list(unemployed)
    for _s, _k, kind in sources:
        counts[kind] += 1
    ok = [False] * KINDS
    for kind in range(KINDS):
        if counts[kind] and _fits(req, kind):
            counts[kind] -= 1
            ok[kind] = can_fill(rest, counts)
            counts[kind] += 1
    legal = [b.from_unemployed + kind for kind in range(KINDS) if ok[kind] and unemployed[kind]]
    legal += [b.from_slot + s * MAX_SLOTS + k for s, k, kind in sources if ok[kind]]
    return legal


def _apply_slot(st: HegemonyState, item: Item, action: int) -> None:
    cls, arg = item[1], item[2]
    kind = _take(st, cls, action)
    if arg >= UNION_ARG:
        st.unions[arg - UNION_ARG] = 1  # employed and permanently committed
    else:
        seat, j = divmod(arg, MAX_SLOTS)
        place(st, seat, j, worker(cls, kind))
    st.agenda.pop()


def _finish_action(st: HegemonyState, item: Item) -> None:
    """After the whole action (§3.3): companies left partly staffed (an MC company without its
    MC worker(s), employee included) send their workers to the Unemployed area and lose any
    strike token; a company operational before and after the action, refilled in it, ends
    with its placed workers non-committed [P FAQ]."""
    ctx = st.ctx
    by_slot = [ctx[key] for key in VACATED]
    vacated = by_slot[0] | by_slot[1] | by_slot[2]
    for seat in ALL_SEATS:
        if not vacated >> seat & 1:
            continue
        if board.is_operational(st, seat):
            if ctx["workers_op_before"] >> seat & 1:
                # the workers placed here are exactly those in the slots vacated in the action
                # (it was operational, and nobody is re-assigned to their own company)
                for k in range(MAX_SLOTS):
                    if by_slot[k] >> seat & 1 and st.seat_workers[seat][k] != NO:
                        st.seat_committed[seat][k] = 0
        else:
            board.unemploy_workers(st, seat)
            st.seat_strike[seat] = 0


# -- the plug-in tables (turn.py) ---------------------------------------------------------------
CODES: dict[int, Decision | Step] = {
    ASSIGN: Decision("assign_destination", _legal_assign, _apply_assign),
    ASSIGN_SLOT: Decision("assign_source", _legal_slot, _apply_slot),
    ASSIGN_END: Step("assign_end", _finish_action),
}
assert all(code in K.WORKERS for code in CODES)

BASIC = {
    "assign_workers": (_can_assign, _start_assign),
    "demonstration": (_can_demonstrate, _start_demonstration),
}
