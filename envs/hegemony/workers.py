"""Workers and companies: Assign Workers (§3.3), Build Company (§3.7), Demonstration (§3.6),
Use Education's worker replacement (§4.2), Swap Workers (§4.4), Trade Unions (§5.10), and the
staffing and commitment helpers other modules call (§5.1-§5.3).

Every compound choice is a chain of small decisions (rules page §14, §12 #39), each offered
only if the rest of the chain can still be completed, so every mask is exact:

- Assign Workers: a destination (``company`` seat, ``union``, or ``done`` after a first one),
  offered only if the placements left (3 per action) can fill all its empty slots; then, for
  each of those slots, the worker's source (``from_unemployed`` kind or ``from_slot``).  The
  all-or-nothing check, the commitment exception [P FAQ] and the strike-token removal run when
  the action ends (``ASSIGN_END``).
- Build Company: a ``market`` card, a ``wage`` level (when the company has one), then the staff:
  MC's own MC workers (sources as in Assign Workers) and an optional WC employee; CC a
  ``class`` (or ``no``) whose unemployed fill every slot, then ``STAFF``.
- ``STAFF`` (pushed by ``push_staffing``, also for p1 reveals and cards): skilled slots and, while
  any are unemployed, unskilled workers in U slots are placed by force [P FAQ]; a U slot with no
  unskilled worker left asks the decider for a skilled ``industry``.

Card modifiers (§11.1, read with ``effects_basic.mod``): ``max_workers`` (``any``: no limit),
``source: unemployed_only``, ``scope: public`` (public destinations only, no union) and
``allow_reassign``, read here as: an own non-committed worker standing in a destination company
may be placed back where it stands (a ``from_slot`` action of the destination decision, one
placement, it becomes committed).  Build Company: price modifiers through
``effects_basic.can_afford_purchase`` / ``pay_purchase``, ``industry_filter``, and
``search_deck`` (a ``deck_card`` of the own deck instead of a market card; ``effects_basic``
shuffles the deck after).

A company's non-employee workers are always one class (§12 #21).
  Committed workers and union
members never move; a worker whose move would strand a committed worker of its company (MC's
worker under a committed WC employee) is no source.  Union members are permanently committed:
``stand_up`` (called by Production) leaves them alone, since they sit in ``st.unions``.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import board, effects_basic, phase_rules
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
from meeplezoo.envs.hegemony.effects_terms import INDUSTRY_OF
from meeplezoo.envs.hegemony.state import KINDS, NO_WORKER, worker

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# Agenda codes (codes.WORKERS is 20-39; STAFF = 20 is fixed in codes.py).
ASSIGN = 21          # decision: a destination, or done (arg: placements left)
ASSIGN_SLOT = 22     # decision: the source of the worker for one slot (arg: seat*3+slot, or
#                      UNION_ARG + industry for a union)
ASSIGN_END = 23      # step: all-or-nothing check, commitment exception, strike tokens
BUILD_CARD = 24      # decision: which market card to build
BUILD_WAGE = 25      # decision: the new company's wage level (arg: seat)
BUILD_EMPLOYEE = 26  # decision: MC's optional WC employee (arg: seat)
BUILD_CLASS = 27     # decision: which class staffs CC's new company, or none (arg: seat)
EDU_WORKER = 28      # decision: which worker Use Education replaces
EDU_INDUSTRY = 29    # decision: the replacing worker's industry (arg: the source, see _source)
SWAP = 30            # decision: a slot to swap, or done
SWAP_IN = 31         # decision (swap_target = "any"): the incoming unemployed kind (arg: slot)

UNION_ARG = 100
STAFF_CLASS_STRIDE = 64  # STAFF arg = cls * 64 + seat
NO = NO_WORKER
ALL_SEATS = range(NUM_SEATS)
DESTINATION_SEATS = {
    WC: (*CC_SEATS, *PUBLIC_SEATS, *MC_SEATS, *COOP_SEATS),
    MC: (*CC_SEATS, *PUBLIC_SEATS, *MC_SEATS),
}
OWN_SEATS = {MC: MC_SEATS, CC: CC_SEATS}
INDUSTRY_COUNT = len(D.INDUSTRIES)

# Scratch keys (each a 31-bit seat mask or a flag, as saved.py bounds ctx values).
VACATED = ("workers_vacated_1", "workers_vacated_2", "workers_vacated_3")  # per slot k: seats
#   whose slot k a worker left during the action
SWAPPED = ("workers_swapped_1", "workers_swapped_2", "workers_swapped_3")  # per slot k: seats
#   whose slot k was swapped already in this Swap Workers action
CTX: dict[str, int] = {
    "workers_op_before": 0,  # seat bits: operational when the action began
    **dict.fromkeys(VACATED, 0),
    "workers_built_wc": 0,   # a company was built and staffed with WC workers (§3.6 variant)
    **dict.fromkeys(SWAPPED, 0),
}


# -- slot requirements and matching -------------------------------------------------------------
def _req(slot: D.Slot) -> int | None:
    """The worker kind a slot needs (1 + industry), or None for a U slot (any worker)."""
    return None if slot.skill is None else 1 + slot.skill


def _fits(req: int | None, kind: int) -> bool:
    return req is None or req == kind


def _can_fill(reqs: list[int | None], counts: list[int]) -> bool:
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


def _class_slots(card: D.CompanyCard, cls: int) -> list[int]:
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
SLOT_REQS = tuple(tuple(_req(s) for s in c.slots) for c in D.COMPANIES)
CLASS_SLOTS = {cls: tuple(tuple(_class_slots(c, cls)) for c in D.COMPANIES)
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
    if board.MEMO_STATE is st:
        key = (st, "sources", cls, exclude)
        kept = board.QUERY_MEMO.get(key)
        if kept is None:
            kept = board.QUERY_MEMO[key] = _find_slot_sources(st, cls, exclude)
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


def _counts(st: HegemonyState, cls: int, exclude: int = -1) -> list[int]:
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


def _place(st: HegemonyState, seat: int, k: int, w: int) -> None:
    """A worker is placed (committed, §5.3)."""
    st.seat_workers[seat][k] = w
    st.seat_committed[seat][k] = 1


def _begin(st: HegemonyState) -> None:
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
        for k in _class_slots(card, cls):
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
        if _can_fill([reqs[k] for k in need], counts):
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
        if _can_fill([reqs[k] for k in need], unemployed):
            return True
        undecided = True
    if not undecided and not (cls == WC and not public and not all(st.unions)):
        return False  # no seat to complete, no union to join
    return bool(_destinations(st, cls, left, first=True))


def _start_assign(st: HegemonyState, cls: int) -> None:
    _begin(st)
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
    req = _req(card.slots[j])
    rest = [_req(card.slots[k]) for k in _needed(st, seat, cls) if k != j]
    unemployed = st.unemployed[cls]
    sources = _movable_sources(st, cls, seat)

    counts = list(unemployed)
    for _s, _k, kind in sources:
        counts[kind] += 1
    ok = [False] * KINDS
    for kind in range(KINDS):
        if counts[kind] and _fits(req, kind):
            counts[kind] -= 1
            ok[kind] = _can_fill(rest, counts)
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
        _place(st, seat, j, worker(cls, kind))
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


# -- staffing from the unemployed (STAFF) ---------------------------------------------------------
def _staff_plan(st: HegemonyState, seat: int, cls: int,
                ) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """(forced placements (slot, kind), U slots still to choose, unemployed counts left):
    skilled slots take their kind, U slots unskilled workers while any are left [P FAQ]."""
    card = D.COMPANIES[st.seat_card[seat]]
    counts = list(st.unemployed[cls])
    forced: list[tuple[int, int]] = []
    open_slots: list[int] = []
    empty = [k for k in _class_slots(card, cls) if st.seat_workers[seat][k] == NO]
    for k in empty:
        req = _req(card.slots[k])
        if req is not None:
            forced.append((k, req))
            counts[req] -= 1
    for k in empty:
        if _req(card.slots[k]) is None:
            if counts[0] > 0:
                forced.append((k, 0))
                counts[0] -= 1
            else:
                open_slots.append(k)
    return forced, open_slots, counts


def can_staff(st: HegemonyState, seat: int, cls: int) -> bool:
    """Whether ``cls``'s unemployed workers can fill every slot of the (empty) company in
    ``seat`` that the class may work in."""
    card = board.card(st, seat)
    if card is None or cls not in (WC, MC):
        return False
    slots = _class_slots(card, cls)
    if not slots or any(st.seat_workers[seat][k] != NO for k in slots):
        return False
    return _can_fill([_req(card.slots[k]) for k in slots], st.unemployed[cls])


def push_staffing(st: HegemonyState, decider: int, seat: int, cls: int, *,
                  built: bool = False) -> None:
    """Push the STAFF decision that fills every slot of ``seat`` from ``cls``'s unemployed
    workers (committed); ``decider`` picks the skilled workers for U slots when no unskilled
    one is left.  ``built``: the company was just built (the §3.6 published variant then
    re-checks the Demonstration token after a WC staffing).  The caller checked ``can_staff``."""
    if built and cls == WC:
        st.ctx["workers_built_wc"] = 1
    st.push((K.STAFF, decider, cls * STAFF_CLASS_STRIDE + seat))


def _place_forced(st: HegemonyState, seat: int, cls: int,
                  forced: list[tuple[int, int]]) -> None:
    for k, kind in forced:
        st.unemployed[cls][kind] -= 1
        _place(st, seat, k, worker(cls, kind))


def _legal_staff(st: HegemonyState, item: Item) -> list[int]:
    cls, seat = divmod(item[2], STAFF_CLASS_STRIDE)
    _forced, open_slots, counts = _staff_plan(st, seat, cls)
    if not open_slots:
        return []  # nothing to choose: ``finish`` places the forced workers
    first = blocks(item[1]).industry
    return [first + i for i in range(INDUSTRY_COUNT) if counts[1 + i] > 0]


def _apply_staff(st: HegemonyState, item: Item, action: int) -> None:
    cls, seat = divmod(item[2], STAFF_CLASS_STRIDE)
    forced, open_slots, _counts_left = _staff_plan(st, seat, cls)
    _place_forced(st, seat, cls, forced)
    kind = 1 + action - blocks(item[1]).industry
    st.unemployed[cls][kind] -= 1
    _place(st, seat, open_slots[0], worker(cls, kind))
    if len(open_slots) == 1:
        st.agenda.pop()


def _finish_staff(st: HegemonyState, item: Item) -> None:
    cls, seat = divmod(item[2], STAFF_CLASS_STRIDE)
    forced, _open, _counts_left = _staff_plan(st, seat, cls)
    _place_forced(st, seat, cls, forced)


# -- Build Company (§3.7) ------------------------------------------------------------------------
def min_wage(st: HegemonyState) -> int:
    """The lowest legal wage level under p2 (§5.4)."""
    return D.MIN_WAGE_LEVEL[st.policies[1]]


def _market(st: HegemonyState, cls: int) -> list[int]:
    return st.mc_market if cls == MC else st.cc_market


def free_seat(st: HegemonyState, cls: int) -> int:
    """The first empty company space of the class (-1 at its limit: MC 8, CC 12)."""
    for seat in OWN_SEATS[cls]:
        if st.seat_card[seat] < 0:
            return seat
    return -1


# ``search_deck``: the ``deck_card`` block lists the sector's companies in ``D.COMPANIES`` order.
DECK_CARDS = {cls: tuple(c.index for c in D.COMPANIES if c.sector == sector)
              for cls, sector in ((MC, "mc"), (CC, "cc"))}
DECK_OFFSET = {cls: {index: k for k, index in enumerate(cards)}
               for cls, cards in DECK_CARDS.items()}


def _deck(st: HegemonyState, cls: int) -> list[int]:
    return st.mc_deck if cls == MC else st.cc_deck


def _buildable(st: HegemonyState, cls: int, first: bool = False) -> list[int]:
    """Market positions the class can build now: affordable without a loan and, for MC, with
    its required MC workers available (unemployed or movable).  Under a card: its price
    modifiers (``effects_basic.can_afford_purchase``), its ``industry_filter``, and with
    ``search_deck`` the ``deck_card`` offsets of the own deck's companies instead.  ``first``:
    one is enough (the order then is not the offered one)."""
    if free_seat(st, cls) < 0:
        return []
    mods = effects_basic.active_mods(st)
    industries = mods.get("industry_filter")
    allowed = None if industries is None else {INDUSTRY_OF[n] for n in industries}
    movable: list[list[int]] = []  # MC's workers by kind, movable ones too: found when needed

    def ok(index: int) -> bool:
        card = D.COMPANIES[index]
        if allowed is not None and card.industry not in allowed:
            return False
        if not effects_basic.can_afford_purchase(st, cls, card.cost):
            return False
        if cls != MC:
            return True
        reqs = [_req(s) for s in card.slots if s.mc]
        if _can_fill(reqs, st.unemployed[MC]):  # the movable workers only add to them
            return True
        if not movable:
            movable.append(_counts(st, MC))
        return _can_fill(reqs, movable[0])

    if mods.get("search_deck"):
        indexes = set(_deck(st, cls))
        if first:
            return [0] if any(ok(index) for index in indexes) else []
        return sorted({DECK_OFFSET[cls][index] for index in indexes if ok(index)})
    if first:
        return [0] if any(ok(index) for index in _market(st, cls)) else []
    return [k for k, index in enumerate(_market(st, cls)) if ok(index)]


def _can_build(st: HegemonyState, cls: int) -> bool:
    return bool(_buildable(st, cls, first=True))


def _start_build(st: HegemonyState, cls: int) -> None:
    _begin(st)
    st.push((BUILD_CARD, cls, 0), (ASSIGN_END, cls, 0))


def _legal_build_card(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    first = b.deck_card if effects_basic.mod(st, "search_deck") else b.market
    return [first + k for k in _buildable(st, item[1])]


def place_company(st: HegemonyState, seat: int, index: int) -> None:
    """Put a company card, empty and face up, in ``seat`` (its wage is set afterwards)."""
    st.seat_card[seat] = index
    st.seat_face_up[seat] = 1
    st.seat_wage[seat] = -1
    st.seat_workers[seat] = [NO] * MAX_SLOTS
    st.seat_committed[seat] = [0] * MAX_SLOTS
    st.seat_machinery[seat] = 0
    st.seat_strike[seat] = 0


def _apply_build_card(st: HegemonyState, item: Item, action: int) -> None:
    """Pay (CC: Revenue, then Capital; never a loan), place the card in the first empty seat
    and ask for the wage, then the staff.  The market is not refilled until Preparation."""
    cls = item[1]
    if effects_basic.mod(st, "search_deck"):  # one copy out of the deck (shuffled when it ends)
        index = DECK_CARDS[cls][action - blocks(cls).deck_card]
        _deck(st, cls).remove(index)
    else:
        index = _market(st, cls).pop(action - blocks(cls).market)
    card = D.COMPANIES[index]
    effects_basic.pay_purchase(st, cls, card.cost)
    seat = free_seat(st, cls)

    place_company(st, seat, index)
    st.agenda.pop()
    follow: list[Item] = []
    if card.wages is not None:
        follow.append((BUILD_WAGE, cls, seat))
    if cls == MC:
        follow += [(ASSIGN_SLOT, MC, seat * MAX_SLOTS + k)
                   for k, s in enumerate(card.slots) if s.mc]
        if any(s.employee for s in card.slots):
            follow.append((BUILD_EMPLOYEE, MC, seat))
    elif not card.automated:
        follow.append((BUILD_CLASS, CC, seat))
    if follow:
        st.push(*follow)


def _legal_build_wage(st: HegemonyState, item: Item) -> list[int]:
    first = blocks(item[1]).wage
    return [first + level for level in range(min_wage(st), len(D.WAGE_LEVELS))]


def _apply_build_wage(st: HegemonyState, item: Item, action: int) -> None:
    st.seat_wage[item[2]] = action - blocks(item[1]).wage
    st.agenda.pop()


def _employee_kinds(st: HegemonyState, seat: int) -> list[int]:
    """WC kinds MC may hire for the employee slot: the industry for a skilled slot; for a U
    slot an unskilled worker if one is unemployed, else any skilled one."""
    k = board.employee_slot(st, seat)
    req = _req(board.slots(st, seat)[k])
    unemployed = st.unemployed[WC]
    if req is not None:
        return [req] if unemployed[req] else []
    if unemployed[0]:
        return [0]
    return [kind for kind in range(1, KINDS) if unemployed[kind]]


def _legal_build_employee(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(MC)
    return [b.from_unemployed + kind for kind in _employee_kinds(st, item[2])] + [b.NO]


def _apply_build_employee(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(MC)
    seat = item[2]
    if action != b.NO:
        kind = action - b.from_unemployed
        st.unemployed[WC][kind] -= 1
        _place(st, seat, board.employee_slot(st, seat), worker(WC, kind))
        st.ctx["workers_built_wc"] = 1
    st.agenda.pop()


def _class_action(cls: int) -> int:
    return getattr(blocks(cls), "class")


def _legal_build_class(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(CC)
    first = _class_action(CC)
    return [first + c for c in (WC, MC) if can_staff(st, item[2], c)] + [b.NO]


def _apply_build_class(st: HegemonyState, item: Item, action: int) -> None:
    st.agenda.pop()
    if action != blocks(CC).NO:
        push_staffing(st, CC, item[2], action - _class_action(CC), built=True)


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
    K.STAFF: Decision("staff_company", _legal_staff, _apply_staff, _finish_staff),
    ASSIGN: Decision("assign_destination", _legal_assign, _apply_assign),
    ASSIGN_SLOT: Decision("assign_source", _legal_slot, _apply_slot),
    ASSIGN_END: Step("assign_end", _finish_action),
    BUILD_CARD: Decision("build_card", _legal_build_card, _apply_build_card),
    BUILD_WAGE: Decision("build_wage", _legal_build_wage, _apply_build_wage),
    BUILD_EMPLOYEE: Decision("build_employee", _legal_build_employee, _apply_build_employee),
    BUILD_CLASS: Decision("build_staff_class", _legal_build_class, _apply_build_class),
    EDU_WORKER: Decision("education_worker", _legal_edu_worker, _apply_edu_worker),
    EDU_INDUSTRY: Decision("education_industry", legal_retrain_industry, apply_retrain),
    SWAP: Decision("swap_slot", _legal_swap, _apply_swap),
    SWAP_IN: Decision("swap_incoming", _legal_swap_in, _apply_swap_in),
}
assert all(code in K.WORKERS for code in CODES)

BASIC = {
    "assign_workers": (_can_assign, _start_assign),
    "demonstration": (_can_demonstrate, _start_demonstration),
    "build_company": (_can_build, _start_build),
}
FREE = {
    "use_education": (_can_use_education, _start_use_education),
    "swap_workers": (_can_swap, _start_swap),
}


# the rules a card's effect runs (the effects_* modules reach them through ``phase_rules``)
phase_rules.provide(gain_prosperity=gain_prosperity, retrain_sources=retrain_sources,
                    legal_retrain_industry=legal_retrain_industry, apply_retrain=apply_retrain)
