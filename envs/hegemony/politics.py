"""Politics: bills, elections, policy changes and the State's own basic actions.

Implements our Hegemony rules page:
- §3.1 Propose Bill (with the optional immediate vote), §3.2 Apply Political Pressure
  (§12 #18), §3.14 Meet with Party MPs (§12 #40), §3.15 Extra Tax, §3.16 Campaign;
- §7 Elections: skipped without bills (§12 #20), the §7.1 refill and the State's influence,
  then one §7.2 election per pending bill in policy order (§12 #41 discards a bill whose
  target is no longer adjacent; the short bag refills twice, §12 #19; unanimous
  declarations collect no bids, §12 #31; a proposer without influence still takes part,
  §12 #43);
- §10 policy changes (``change_policy``) with their follow-ups: p1 opens or closes public
  companies (§5.8), p2 raises wages to the new minimum and lets the owners lower (§5.4),
  p4 / p5 / p6 let MC and CC re-price (§5.11, order MC, CC by §12 #30; under the variant
  ``price_high_requires_policy`` a High price made illegal drops to Mid first), p3 and p7 store
  nothing (the tax multiplier and the Immigration draw read the policies).

An election is a chain of agenda items, all of them its deciding seat's (§2.3):
``ELECTION`` (checks the bill, lists the participants) -> one ``DECLARE`` per participant
in turn order -> ``DRAW`` (5 cubes with ``st.rng``) -> one sealed ``BID`` per participant
(skipped when everybody declared For) -> ``RESOLVE``.  The bids wait in ``st.ctx`` under
``SECRET_BIDS`` until ``RESOLVE`` reveals them together; the bidders' influence is only
spent then, so nothing public leaks a bid before the reveal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step, count_down
from meeplezoo.envs.hegemony import (
    board,
    economy_free,
    storage,
    workers,
    workers_build,
)
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, PUBLIC_SEATS, ST, WC, blocks
from meeplezoo.envs.hegemony.money import gain, pay

if TYPE_CHECKING:
    import numpy as np

    from meeplezoo.envs.hegemony.state import HegemonyState

# -- agenda codes (70-99, codes.py) ----------------------------------------------------------
ELECTIONS_PHASE = K.ELECTIONS_PHASE  # 70 step: the Elections phase (§7)
PROPOSE = 71          # decision: which bill (policy x section), arg = card modifiers
IMMEDIATE = 72        # decision: vote now? arg = policy | FREE_VOTE | PREVIEW
ELECTION = 73         # step: start the election of the bill on policy ``arg``
DECLARE = 74          # decision: For / Against, arg = policy
DRAW = 75             # step: draw the cubes, then collect the bids, arg = policy
BID = 76              # decision: a sealed influence bid, arg = policy
RESOLVE = 77          # step: reveal, count, score, return cubes and marker, apply, arg = policy
MEET_MPS = 78         # decision: the class that receives 2 Personal Influence
EXTRA_TAX_LOSS = 79   # decision: a class that loses 1 Legitimacy, arg = how many are left
CAMPAIGN = 80         # decision: how much Media Influence to move (1-3)
P1_OPEN = 81          # decision: the next face-down public company to reveal
P1_WAGE = 82          # decision: the wage of a revealed public company, arg = seat
P1_STAFF = 83         # decision: the revealed company that unemployed workers fill next
P1_STAFF_CLASS = 84   # decision: which class fills it (both can), arg = seat
P1_CLOSE = 85         # decision: the next face-up public company to turn face down
RECHECK = 86          # step: the §3.6 / §5.10 re-checks once a policy change has settled

SEATS_IN_TURN_ORDER = (WC, MC, CC, ST)
CUBE_CLASSES = (WC, MC, CC)
ANY_CLASS = (WC, MC, CC)

# -- scratch keys (st.ctx) ------------------------------------------------------------------
SIDE_FOR = "politics_for"           # bit s: seat s declared For
PARTICIPANTS = "politics_part"      # bit s: seat s takes part in the election
BIDS_IN = "politics_bids_in"        # bit s: seat s has sealed its bid
DRAWN = tuple(f"politics_drawn_{c}" for c in CUBE_CLASSES)  # drawn cubes, off the bag
SECRET_BIDS = {f"politics_bid_{s}": s for s in SEATS_IN_TURN_ORDER}  # key -> bidder (hidden)
BID_KEYS = tuple(SECRET_BIDS)
REVEALED = "politics_revealed"      # bit (seat - 20): public company revealed by this p1 change
TAX_PICKED = "politics_tax_picked"  # bit c: class c already lost 1 Legitimacy to Extra Tax
PREVIEWED = "politics_previewed"    # 1 while a preview_cubes card's cubes wait in ``DRAWN``
ELECTION_KEYS = (SIDE_FOR, PARTICIPANTS, BIDS_IN, *DRAWN, *BID_KEYS)
CTX: dict[str, int] = {key: 0 for key in (*ELECTION_KEYS, REVEALED, TAX_PICKED, PREVIEWED)}

POLICY_FOR, POLICY_AGAINST = 0, 1  # offsets in the ``vote`` block


def _class_block(cls: int) -> int:
    return getattr(blocks(cls), "class")


# -- small queries --------------------------------------------------------------------------
def bill_owner(st: HegemonyState, policy: int) -> int:
    return st.bills[policy] // 3


def bill_section(st: HegemonyState, policy: int) -> int:
    return st.bills[policy] % 3


def pending_bills(st: HegemonyState) -> int:
    return sum(1 for b in st.bills if b >= 0)


def adjacent_sections(section: int) -> tuple[int, ...]:
    """The sections a bill may target from ``section`` (A<->B, B<->C; §3.1)."""
    return tuple(s for s in (section - 1, section + 1) if 0 <= s <= 2)


def bill_is_stale(st: HegemonyState, policy: int) -> bool:
    """§12 #41: the bill's target is no longer adjacent to the policy's section.  A two-step
    target is kept: only an ``any_section`` card proposes one, and the saved bill does not
    record that, but a policy never moves under a pending bill (a card may not shift it,
    §12 #33, and the IMF discards every bill first), so a two-step bill is always such a
    card's.  A bill onto the current section is always stale."""
    return bill_section(st, policy) == st.policies[policy]


def cubes_out_of_bag(st: HegemonyState) -> list[int]:
    """Cubes drawn for the election under way (neither in the bag nor in supply)."""
    return [st.ctx.get(key, 0) for key in DRAWN]


def _return_marker(st: HegemonyState, policy: int) -> None:
    st.markers_used[bill_owner(st, policy)] -= 1
    st.bills[policy] = -1


# -- §3.1 Propose Bill ------------------------------------------------------------------------
# A PROPOSE item's arg carries the card modifiers of §11.1 (a plain basic action has none):
ALL_POLICIES = (1 << D.POLICIES) - 1  # bits 0-6: the policies the bill may target
ANY_SECTION = 1 << 7                  # any other section (A<->C too); no immediate vote
FREE_VOTE = 1 << 8                    # the immediate vote costs no influence
MORE_BILLS_SHIFT = 9                  # bits 9-10: bills still to propose after this one
DECIDER_SHIFT = 11                    # bits 11-13: 1 + the seat deciding the immediate vote
PREVIEW = 1 << 14                     # the cubes were drawn before the choice (preview_cubes)


def can_propose(st: HegemonyState, cls: int, policies: int = ALL_POLICIES) -> bool:
    """An unused marker and a policy (among ``policies``) without a bill (§3.1)."""
    return st.markers_used[cls] < D.BILL_MARKERS and any(
        st.bills[p] < 0 for p in range(D.POLICIES) if policies >> p & 1)


def start_propose(st: HegemonyState, cls: int) -> None:
    st.push((PROPOSE, cls, ALL_POLICIES))


def push_propose(st: HegemonyState, proposer: int, *, policies: int = ALL_POLICIES,
                 any_section: bool = False, free_vote: bool = False, n_bills: int = 1,
                 preview: bool = False, vote_decider: int | None = None) -> None:
    """Propose Bill with the card modifiers of §11.1: ``policies`` (a bit mask: policy_filter),
    ``any_section``, ``free_vote`` (free_immediate_vote), ``n_bills`` (each on a different
    policy, while markers last), ``preview`` (preview_cubes: 5 cubes are drawn, face up, before
    the choice; an immediate vote uses them, otherwise they go back) and ``vote_decider``
    (propose_for: another seat decides, and pays for, the immediate vote [P FAQ])."""
    arg = policies | (ANY_SECTION if any_section else 0) | (FREE_VOTE if free_vote else 0)
    arg |= (n_bills - 1) << MORE_BILLS_SHIFT
    if vote_decider is not None:
        arg |= (vote_decider + 1) << DECIDER_SHIFT
    if preview and not any_section:
        for key in DRAWN:
            st.ctx[key] = 0
        draw_cubes(st)
        st.ctx[PREVIEWED] = 1
        arg |= PREVIEW
    st.push((PROPOSE, proposer, arg))


def _targets(st: HegemonyState, cls: int, arg: int) -> list[tuple[int, int]]:
    """(policy, section) pairs ``cls`` may propose under the item's modifiers."""
    if st.markers_used[cls] >= D.BILL_MARKERS:
        return []
    return [(p, s) for p in range(D.POLICIES) if arg >> p & 1 and st.bills[p] < 0
            for s in (range(3) if arg & ANY_SECTION else adjacent_sections(st.policies[p]))
            if s != st.policies[p]]


def _legal_propose(st: HegemonyState, item: Item) -> list[int]:
    bill = blocks(item[1]).bill
    return [bill + 3 * p + s for p, s in _targets(st, item[1], item[2])]


def _apply_propose(st: HegemonyState, item: Item, action: int) -> None:
    """The marker goes on the bill; then the immediate vote question (none under
    ``any_section``), then the next bill of an ``n_bills`` card."""
    cls, arg = item[1], item[2]
    policy, section = divmod(action - blocks(cls).bill, 3)
    st.bills[policy] = cls * 3 + section
    st.markers_used[cls] += 1
    st.agenda.pop()
    follow: list[Item] = []
    if not arg & ANY_SECTION:
        decider = (arg >> DECIDER_SHIFT & 7) - 1
        follow.append((IMMEDIATE, cls if decider < 0 else decider,
                       policy | (arg & (FREE_VOTE | PREVIEW))))
    more = arg >> MORE_BILLS_SHIFT & 3
    if more:
        rest = arg & ~ALL_POLICIES & ~PREVIEW & ~(3 << MORE_BILLS_SHIFT)
        follow.append((PROPOSE, cls, rest | (arg & ALL_POLICIES & ~(1 << policy))
                       | (more - 1) << MORE_BILLS_SHIFT))
    st.push(*follow)


def _immediate_cost(arg: int) -> int:
    return 0 if arg & FREE_VOTE else D.IMMEDIATE_VOTE_COST


def _legal_immediate(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    if st.influence[item[1]] >= _immediate_cost(item[2]):
        return [b.YES, b.NO]
    return [b.NO]


def _apply_immediate(st: HegemonyState, item: Item, action: int) -> None:
    """An immediate vote (§3.1): one §7.2 election now, no §7.1 refill, no State influence;
    the decider pays (back to the supply).  Previewed cubes not voted on go back."""
    st.agenda.pop()
    policy = item[2] & 7
    if action == blocks(item[1]).YES:
        st.influence[item[1]] -= _immediate_cost(item[2])
        st.push((ELECTION, item[1], policy))
    elif st.ctx[PREVIEWED]:
        for cls in CUBE_CLASSES:
            st.bag[cls] += st.ctx[DRAWN[cls]]
            st.ctx[DRAWN[cls]] = 0
        st.ctx[PREVIEWED] = 0


# -- §7 Elections ---------------------------------------------------------------------------
def refill_amounts(st: HegemonyState) -> list[int]:
    """§7.1: the cubes each class (WC, MC, CC) adds to the bag, capped by its supply."""
    pop_wc, pop_mc = board.population(st, WC), board.population(st, MC)
    wanted = (
        (pop_wc + 1) // 2,
        max((pop_mc + 1) // 2, (len(board.operational_companies(st, MC)) + 1) // 2),
        (len(board.operational_companies(st, CC)) + 1) // 2,
    )
    return [min(wanted[cls], st.cube_supply[cls]) for cls in CUBE_CLASSES]


def refill_bag(st: HegemonyState) -> None:
    """§7.1: each class adds cubes from its supply (capped by it); the State adds none."""
    for cls, moved in zip(CUBE_CLASSES, refill_amounts(st)):
        st.cube_supply[cls] -= moved
        st.bag[cls] += moved


def _elections_phase(st: HegemonyState, item: Item) -> None:
    """§7: nothing without bills (§12 #20); else refill, State influence, one election each."""
    pending = [p for p in range(D.POLICIES) if st.bills[p] >= 0]
    if not pending:
        return
    refill_bag(st)
    board.gain_influence(st, ST, D.STATE_INFLUENCE[min(st.legitimacy)])
    st.push(*[(ELECTION, ST, p) for p in pending])


def _election(st: HegemonyState, item: Item) -> None:
    """§7.2 start: discard a stale bill (§12 #41), else ask the declarations."""
    policy = item[2]
    if st.bills[policy] < 0:
        return
    if bill_is_stale(st, policy):
        _return_marker(st, policy)
        return
    proposer = bill_owner(st, policy)
    part = 0
    for seat in SEATS_IN_TURN_ORDER:
        if seat != ST or st.influence[ST] > 0 or proposer == ST:
            part |= 1 << seat
    ctx = st.ctx
    for key in ELECTION_KEYS:
        if key not in DRAWN or not ctx[PREVIEWED]:
            ctx[key] = 0
    ctx[PARTICIPANTS] = part
    ctx[SIDE_FOR] = 1 << proposer
    st.push(*[(DECLARE, seat, policy) for seat in SEATS_IN_TURN_ORDER
              if part >> seat & 1 and seat != proposer], (DRAW, ST, policy))


def _legal_declare(st: HegemonyState, item: Item) -> list[int]:
    vote = blocks(item[1]).vote
    return [vote + POLICY_FOR, vote + POLICY_AGAINST]


def _apply_declare(st: HegemonyState, item: Item, action: int) -> None:
    if action == blocks(item[1]).vote + POLICY_FOR:
        st.ctx[SIDE_FOR] |= 1 << item[1]
    st.agenda.pop()


def draw_cubes(st: HegemonyState) -> None:
    """Draw 5 cubes at random into ``DRAWN``; a short bag first refills twice (§12 #19)."""
    if sum(st.bag) < D.ELECTION_DRAW:
        refill_bag(st)
        refill_bag(st)
    for _ in range(min(D.ELECTION_DRAW, sum(st.bag))):
        r = int(st.rng.integers(sum(st.bag)))
        cls = 0
        while r >= st.bag[cls]:
            r -= st.bag[cls]
            cls += 1
        st.bag[cls] -= 1
        st.ctx[DRAWN[cls]] += 1


def _draw(st: HegemonyState, item: Item) -> None:
    if st.ctx[PREVIEWED]:  # the cubes a preview_cubes card drew are this vote's
        st.ctx[PREVIEWED] = 0
    else:
        draw_cubes(st)
    part = st.ctx[PARTICIPANTS]
    if st.ctx[SIDE_FOR] == part:  # unanimous: no bids (§12 #31)
        st.push((RESOLVE, ST, item[2]))
        return
    st.push(*[(BID, seat, item[2]) for seat in SEATS_IN_TURN_ORDER if part >> seat & 1],
            (RESOLVE, ST, item[2]))


def _legal_bid(st: HegemonyState, item: Item) -> list[int]:
    bid = blocks(item[1]).bid
    return list(range(bid, bid + min(st.influence[item[1]], D.INFLUENCE_CUBES) + 1))


def _apply_bid(st: HegemonyState, item: Item, action: int) -> None:
    seat = item[1]
    st.ctx[BID_KEYS[seat]] = action - blocks(seat).bid
    st.ctx[BIDS_IN] |= 1 << seat
    st.agenda.pop()


def resample_bids(st: HegemonyState, viewer: int, rng: np.random.Generator) -> None:
    """Re-draw the sealed bids ``viewer`` cannot see (each 0..the bidder's influence)."""
    ctx = st.ctx
    if not ctx.get(BIDS_IN, 0):
        return
    for key, seat in SECRET_BIDS.items():
        if seat != viewer and ctx[BIDS_IN] >> seat & 1:
            ctx[key] = int(rng.integers(st.influence[seat] + 1))


def _resolve(st: HegemonyState, item: Item) -> None:
    """§7.2 steps 3-6: reveal the bids, count, score, return the cubes, apply, return marker."""
    policy = item[2]
    ctx = st.ctx
    side_for = ctx[SIDE_FOR]
    votes = [0, 0]  # For, Against
    contributed = [False] * 4
    for seat in SEATS_IN_TURN_ORDER:
        if not ctx[PARTICIPANTS] >> seat & 1:
            continue
        bid = ctx[BID_KEYS[seat]]
        st.influence[seat] -= bid  # spent whatever the result
        drawn = ctx[DRAWN[seat]] if seat != ST else 0
        votes[0 if side_for >> seat & 1 else 1] += bid + drawn
        contributed[seat] = bid + drawn > 0
    passed = votes[0] >= votes[1]  # ties pass
    proposer, section = bill_owner(st, policy), bill_section(st, policy)
    if passed:
        board.score(st, proposer, D.BILL_PASS_VP, "bills")
        for seat in SEATS_IN_TURN_ORDER:
            if seat != proposer and side_for >> seat & 1 and contributed[seat]:
                board.score(st, seat, D.BILL_SUPPORT_VP, "bills")
    for cls in CUBE_CLASSES:
        won = bool(side_for >> cls & 1) == passed
        if won:
            st.cube_supply[cls] += ctx[DRAWN[cls]]
        else:
            st.bag[cls] += ctx[DRAWN[cls]]
    for key in ELECTION_KEYS:
        ctx[key] = 0
    _return_marker(st, policy)
    if passed:
        change_policy(st, policy, section, by_vote=True)


# -- §10 policy changes --------------------------------------------------------------------------
def change_policy(st: HegemonyState, policy: int, section: int, *, by_vote: bool) -> None:
    """Move ``policy`` (0-6) to ``section`` (0-2) and push its follow-ups (§10), then a
    re-check step (§3.6 memo rule, §5.10).  ``by_vote`` says a passed bill caused it (the
    election scores its VP); card and IMF changes pass False and score nothing (§10).  The
    effects are the same either way."""
    del by_vote  # the effects do not depend on it; bill VP is scored by ``_resolve``
    st.policies[policy] = section
    follow: list[Item] = []
    if policy == 0:
        st.ctx[REVEALED] = 0
        size = D.PUBLIC_SECTOR_SIZE[section]
        if public_face_up(st) < size:
            follow = [(P1_OPEN, ST, 0), (P1_STAFF, ST, 0)]
        elif public_face_up(st) > size:
            follow = [(P1_CLOSE, ST, 0)]
    elif policy == 1:
        raise_to_minimum(st)
        follow = [(K.ADJUST_WAGES, cls, 1) for cls in (MC, CC, ST)]  # §12 #30 order
    elif policy in (3, 4, 5):
        economy_free.drop_illegal_high_prices(st)  # only under ``price_high_requires_policy``
        follow = [(K.ADJUST_PRICES, cls, 1) for cls in (MC, CC)]  # §12 #30 order
    st.push(*follow, (RECHECK, ST, 0))


def _recheck(st: HegemonyState, item: Item) -> None:
    workers.recheck(st)


def raise_to_minimum(st: HegemonyState) -> None:
    """§5.4: every wage below the p2 minimum rises to it at once, committing nobody."""
    least = D.MIN_WAGE_LEVEL[st.policies[1]]
    for seat in range(len(st.seat_card)):
        company = board.card(st, seat)
        if (company is not None and company.wages is not None and st.seat_face_up[seat]
                and st.seat_wage[seat] < least):
            st.seat_wage[seat] = least


def public_face_up(st: HegemonyState) -> int:
    return sum(1 for s in PUBLIC_SEATS if board.is_present(st, s))


def _face_down_choices(st: HegemonyState) -> list[int]:
    """Face-down public seats, one per design (identical cards give identical outcomes)."""
    seen: set[int] = set()
    seats = []
    for s in PUBLIC_SEATS:
        index = st.seat_card[s]
        if index >= 0 and not st.seat_face_up[s] and index not in seen:
            seen.add(index)
            seats.append(s)
    return seats


def _legal_p1_open(st: HegemonyState, item: Item) -> list[int]:
    if public_face_up(st) >= D.PUBLIC_SECTOR_SIZE[st.policies[0]]:
        return []
    company = blocks(ST).company
    return [company + s for s in _face_down_choices(st)]


def _apply_p1_open(st: HegemonyState, item: Item, action: int) -> None:
    """§5.8 growing: reveal, pay its cost from the Treasury (loans if forced), set its wage."""
    seat = action - blocks(ST).company
    st.seat_face_up[seat] = 1
    pay(st, ST, board.card(st, seat).cost, forced=True)  # type: ignore[union-attr]
    st.ctx[REVEALED] |= 1 << (seat - PUBLIC_SEATS[0])
    st.push((P1_WAGE, ST, seat))


def _legal_p1_wage(st: HegemonyState, item: Item) -> list[int]:
    wage = blocks(ST).wage
    return [wage + level for level in range(D.MIN_WAGE_LEVEL[st.policies[1]], 3)]


def _apply_p1_wage(st: HegemonyState, item: Item, action: int) -> None:
    st.seat_wage[item[2]] = action - blocks(ST).wage
    st.agenda.pop()


def _staffing_classes(st: HegemonyState, seat: int) -> list[int]:
    return [cls for cls in (WC, MC) if workers_build.can_staff(st, seat, cls)]


def _staffable_revealed(st: HegemonyState) -> list[int]:
    revealed = st.ctx[REVEALED]
    return [s for s in PUBLIC_SEATS
            if revealed >> (s - PUBLIC_SEATS[0]) & 1 and board.staff_class(st, s) < 0
            and _staffing_classes(st, s)]


def _legal_p1_staff(st: HegemonyState, item: Item) -> list[int]:
    company = blocks(ST).company
    return [company + s for s in _staffable_revealed(st)]


def _apply_p1_staff(st: HegemonyState, item: Item, action: int) -> None:
    """§5.8: a revealed company that one class's unemployed can fill is filled (ST chooses
    which company, then which class); asked again until none is left."""
    seat = action - blocks(ST).company
    classes = _staffing_classes(st, seat)
    if len(classes) == 1:
        workers_build.push_staffing(st, ST, seat, classes[0])
    else:
        st.push((P1_STAFF_CLASS, ST, seat))


def _legal_p1_staff_class(st: HegemonyState, item: Item) -> list[int]:
    cls_block = _class_block(ST)
    return [cls_block + cls for cls in _staffing_classes(st, item[2])]


def _apply_p1_staff_class(st: HegemonyState, item: Item, action: int) -> None:
    st.agenda.pop()
    workers_build.push_staffing(st, ST, item[2], action - _class_block(ST))


def _legal_p1_close(st: HegemonyState, item: Item) -> list[int]:
    if public_face_up(st) <= D.PUBLIC_SECTOR_SIZE[st.policies[0]]:
        return []
    company = blocks(ST).company
    return [company + s for s in PUBLIC_SEATS if board.is_present(st, s)]


def _apply_p1_close(st: HegemonyState, item: Item, action: int) -> None:
    """§5.8 shrinking: face down, the State gains its cost, its workers are unemployed even
    if committed, and Public Services above the new caps are discarded."""
    seat = action - blocks(ST).company
    gain(st, ST, board.card(st, seat).cost)  # type: ignore[union-attr]
    board.clear_company(st, seat)
    st.seat_face_up[seat] = 0
    storage.discard_state_excess(st)


# -- §3.2 Apply Political Pressure ------------------------------------------------------------
def can_pressure(st: HegemonyState, cls: int) -> bool:
    return st.cube_supply[cls] > 0  # §12 #18


def start_pressure(st: HegemonyState, cls: int) -> None:
    moved = min(D.POLITICAL_PRESSURE_CUBES, st.cube_supply[cls])
    st.cube_supply[cls] -= moved
    st.bag[cls] += moved


# -- §3.14 Meet with Party MPs ----------------------------------------------------------------
def _mps_targets(st: HegemonyState) -> list[int]:
    return [cls for cls in ANY_CLASS if st.legitimacy[cls] < D.LEGITIMACY_MAX]  # §12 #40


def can_meet_mps(st: HegemonyState, cls: int) -> bool:
    return st.influence[ST] >= D.MEET_MPS_INFLUENCE and bool(_mps_targets(st))


def start_meet_mps(st: HegemonyState, cls: int) -> None:
    st.push((MEET_MPS, ST, 0))


def _legal_meet_mps(st: HegemonyState, item: Item) -> list[int]:
    cls_block = _class_block(ST)
    return [cls_block + cls for cls in _mps_targets(st)]


def _apply_meet_mps(st: HegemonyState, item: Item, action: int) -> None:
    cls = action - _class_block(ST)
    st.influence[ST] -= D.MEET_MPS_INFLUENCE
    st.influence[cls] += D.MEET_MPS_INFLUENCE
    st.legitimacy[cls] += 1
    st.agenda.pop()


# -- §3.15 Extra Tax ----------------------------------------------------------------------------
def can_extra_tax(st: HegemonyState, cls: int) -> bool:
    return min(st.legitimacy) >= D.LEGITIMACY_MIN + 1  # §12 #23: there must be some to lose


def start_extra_tax(st: HegemonyState, cls: int) -> None:
    """WC, MC, CC each pay 10 to the Treasury (loans if forced); then the two lowest tracks
    lose 1 each, ties broken by the State (``EXTRA_TAX_LOSS``)."""
    for payer in ANY_CLASS:
        pay(st, payer, D.EXTRA_TAX, ST, forced=True)
    st.ctx[TAX_PICKED] = 0
    st.push((EXTRA_TAX_LOSS, ST, 2))


def _legal_tax_loss(st: HegemonyState, item: Item) -> list[int]:
    picked = st.ctx[TAX_PICKED]
    before = {c: st.legitimacy[c] + (picked >> c & 1) for c in ANY_CLASS if not picked >> c & 1}
    lowest = min(before.values())
    cls_block = _class_block(ST)
    return [cls_block + c for c, v in before.items() if v == lowest]


def _apply_tax_loss(st: HegemonyState, item: Item, action: int) -> None:
    cls = action - _class_block(ST)
    st.legitimacy[cls] -= 1
    st.ctx[TAX_PICKED] |= 1 << cls
    count_down(st.agenda, item)


# -- §3.16 Campaign -------------------------------------------------------------------------------
def can_campaign(st: HegemonyState, cls: int) -> bool:
    return st.public_services[2] > 0


def start_campaign(st: HegemonyState, cls: int) -> None:
    st.push((CAMPAIGN, ST, 0))


def _legal_campaign(st: HegemonyState, item: Item) -> list[int]:
    qty = blocks(ST).qty
    return [qty + n for n in range(1, min(D.CAMPAIGN_MAX, st.public_services[2]) + 1)]


def _apply_campaign(st: HegemonyState, item: Item, action: int) -> None:
    n = action - blocks(ST).qty
    st.public_services[2] -= n
    st.influence[ST] += n
    st.agenda.pop()


BASIC = {
    "propose_bill": (can_propose, start_propose),
    "political_pressure": (can_pressure, start_pressure),
    "meet_mps": (can_meet_mps, start_meet_mps),
    "extra_tax": (can_extra_tax, start_extra_tax),
    "campaign": (can_campaign, start_campaign),
}
FREE: dict = {}

CODES: dict[int, Decision | Step] = {
    ELECTIONS_PHASE: Step("elections_phase", _elections_phase),
    PROPOSE: Decision("propose_bill", _legal_propose, _apply_propose),
    IMMEDIATE: Decision("immediate_vote", _legal_immediate, _apply_immediate),
    ELECTION: Step("election", _election),
    DECLARE: Decision("declare", _legal_declare, _apply_declare),
    DRAW: Step("draw_cubes", _draw),
    BID: Decision("sealed_bid", _legal_bid, _apply_bid),
    RESOLVE: Step("election_result", _resolve),
    MEET_MPS: Decision("meet_mps", _legal_meet_mps, _apply_meet_mps),
    EXTRA_TAX_LOSS: Decision("extra_tax_legitimacy", _legal_tax_loss, _apply_tax_loss),
    CAMPAIGN: Decision("campaign", _legal_campaign, _apply_campaign),
    P1_OPEN: Decision("p1_reveal_company", _legal_p1_open, _apply_p1_open),
    P1_WAGE: Decision("p1_wage", _legal_p1_wage, _apply_p1_wage),
    P1_STAFF: Decision("p1_staff_company", _legal_p1_staff, _apply_p1_staff),
    P1_STAFF_CLASS: Decision("p1_staff_class", _legal_p1_staff_class, _apply_p1_staff_class),
    P1_CLOSE: Decision("p1_close_company", _legal_p1_close, _apply_p1_close),
    RECHECK: Step("policy_recheck", _recheck),
}

