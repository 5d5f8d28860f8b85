"""Economy actions (our Hegemony rules page §3.5-§3.12): the basic actions on companies and
deals, Strike (§3.5), Sell Company (§3.8), Extra Shift (§3.10), Make Business Deal (§3.11)
and Lobby (§3.12).  The economy's other actions sit in two modules beside it:
``economy_trade`` (Buy Goods & Services §3.4, Sell to Foreign Market §3.9) and
``economy_free`` (the free actions of §4 and the policy follow-ups, with the names and worker
queries all three share).

Every compound choice is a chain of small decisions (§14) whose masks offer only what can be
completed; the "any number" actions (§2.2, §12 #32) offer each target at most once, tracked
as bits in ``st.ctx``, and end with ``done``.  Optional costs are offered only when affordable
(no loan).

Choices the page leaves open, decided here:
- Business Deal: the units sent to regular Storage are offered up to its free room (goods
  beyond it would be lost, §12 #44), the rest go to the FTZ (overflow lost).
- A public company CC sold goes face down into the first empty public seat, its wage at the
  p2 minimum until a p1 reveal sets it.

Card modifiers (§11.1; the node under way is read with ``effects_basic.mod``), as the vocabulary
in ``cards_vocabulary.py`` states them; where it leaves a choice open:
- Strike ``extra_strike_tokens``: the limit grows by one per WC union; the strike tokens of the
  supply still bound it.
- Extra Shift ``scope: public``: the public company's workers must all be MC's and free; its
  output goes where a public company's production goes (``effects_companies.deliver``).
"""


from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import (
    board,
    effects_basic,
    effects_companies,
    money,
    storage,
)
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, PUBLIC_SEATS, ST, WC, blocks
from meeplezoo.envs.hegemony.board import min_wage_level
from meeplezoo.envs.hegemony.economy_free import (
    FOOD,
    HAS_WAGES,
    INFLUENCE,
    L3,
    LUX,
    commit_all,
)
from meeplezoo.envs.hegemony.effects_terms import INDUSTRY_OF
from meeplezoo.envs.hegemony.state import NO_WORKER

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# agenda codes (economy owns 40-69)
STRIKE = 46  # arg = companies already struck in this action
SELL_COMPANY = 47
EXTRA_SHIFT = 49
DEAL = 50
DEAL_SPLIT = 51  # arg = the good (0 food, 1 lux): units to regular storage

CTX: dict[str, int] = {
    "economy_deal": -1,  # design index of the Business Deal being taken
}


# -- §3.5 Strike -------------------------------------------------------------------------------
def strike_eligible(st: HegemonyState, seat: int) -> bool:
    """§3.5: operational, employs WC workers, none committed, wage below L3, no token."""
    index = st.seat_card[seat]
    if index < 0 or not HAS_WAGES[index] or st.seat_strike[seat]:
        return False
    if not board.is_operational(st, seat) or st.seat_wage[seat] >= L3:
        return False
    if board.any_committed(st, seat):
        return False
    if D.COMPANIES[index].sector == "mc":
        k = board.employee_slot(st, seat)
        return k >= 0 and st.seat_workers[seat][k] != NO_WORKER
    return board.staff_class(st, seat) == WC


def _strike_targets(st: HegemonyState) -> list[int]:
    """Eligible companies while a strike token is left; a card's ``industry_filter`` keeps
    only those industries."""
    return list(_strike_seats(st))


def _strike_seats(st: HegemonyState) -> Iterator[int]:
    """``_strike_targets`` one by one (the turn menu's check stops at the first)."""
    if board.strike_tokens_left(st) <= 0:
        return
    industries = effects_basic.mod(st, "industry_filter")
    allowed = None if industries is None else {INDUSTRY_OF[name] for name in industries}
    for seat in range(len(st.seat_card)):
        if strike_eligible(st, seat) and (
                allowed is None or D.COMPANIES[st.seat_card[seat]].industry in allowed):
            yield seat


def _strike_limit(st: HegemonyState) -> int:
    """Companies one Strike may reach: 2, plus one per WC union under a card's
    ``extra_strike_tokens: per_union``."""
    extra = sum(st.unions) if effects_basic.mod(st, "extra_strike_tokens") else 0
    return D.STRIKE_MAX_COMPANIES + extra


def _can_strike(st: HegemonyState, cls: int) -> bool:
    """``_strike_targets`` is not empty (stops at the first: asked every turn)."""
    return next(_strike_seats(st), None) is not None


def _start_strike(st: HegemonyState, cls: int) -> None:
    st.push((STRIKE, cls, 0))


def _legal_strike(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    legal = [b.company + seat for seat in _strike_targets(st)]
    if item[2] > 0:
        legal.append(b.DONE)
    return legal


def _apply_strike(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(item[1])
    if action == b.DONE:
        st.agenda.pop()
        return
    st.seat_strike[action - b.company] = 1
    if item[2] + 1 < _strike_limit(st):
        st.agenda[-1] = (STRIKE, item[1], item[2] + 1)
    else:
        st.agenda.pop()


# -- §3.8 Sell Company -------------------------------------------------------------------------
def _sellable(st: HegemonyState, cls: int) -> list[int]:
    return [seat for seat in board.companies_of(st, cls) if not board.any_committed(st, seat)]


def _can_sell(st: HegemonyState, cls: int) -> bool:
    """``_sellable`` is not empty (stops at the first: asked every turn)."""
    return any(not board.any_committed(st, seat) for seat in board.companies_of(st, cls))


def _start_sell(st: HegemonyState, cls: int) -> None:
    st.push((SELL_COMPANY, cls, 0))


def _legal_sell(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    return [b.company + seat for seat in _sellable(st, item[1])]


def _apply_sell(st: HegemonyState, item: Item, action: int) -> None:
    sell_company(st, item[1], action - blocks(item[1]).company)
    st.agenda.pop()


def sell_company(st: HegemonyState, owner: int, seat: int) -> None:
    """§3.8: workers to the Unemployed area, tokens back, the owner gains the cost; the card
    goes to the discard pile, or, for a public company CC owns, face down back to the public
    sector [P FAQ]."""
    company = board.card(st, seat)
    assert company is not None
    board.clear_company(st, seat)
    st.seat_card[seat], st.seat_wage[seat], st.seat_face_up[seat] = -1, -1, 0
    money.gain(st, owner, company.cost)
    storage.discard_state_excess(st)  # #47, if the State's cap counted the company
    if company.sector == "public":
        empty = [s for s in PUBLIC_SEATS if st.seat_card[s] < 0]
        if empty:
            st.seat_card[empty[0]] = company.index
            st.seat_wage[empty[0]] = min_wage_level(st)
            st.seat_face_up[empty[0]] = 0
            return
    st.company_discard.append(company.index)


# -- §3.10 Extra Shift -------------------------------------------------------------------------
def _shift_ok(st: HegemonyState, seat: int) -> bool:
    """An operational MC company whose MC workers are free, and whose free, unstruck
    employee's wage MC can pay (§3.10)."""
    if not board.is_operational(st, seat):
        return False
    company = board.card(st, seat)
    assert company is not None
    for k, slot in enumerate(company.slots):
        if not slot.employee and st.seat_committed[seat][k]:
            return False
    if _employee_works(st, seat):
        return money.can_pay(st, MC, board.wage_amount(st, seat))
    return True


def _employee_works(st: HegemonyState, seat: int) -> bool:
    k = board.employee_slot(st, seat)
    return (k >= 0 and st.seat_workers[seat][k] != NO_WORKER
            and not st.seat_committed[seat][k] and not st.seat_strike[seat])


def _public_shift_ok(st: HegemonyState, seat: int) -> bool:
    """``scope: public``: a face-up, operational public company staffed by MC workers, none
    of them committed (the State pays the wage, so no money is needed)."""
    if not (st.seat_face_up[seat] and board.is_operational(st, seat)):
        return False
    if board.staff_class(st, seat) != MC:
        return False
    return not board.any_committed(st, seat)


def _shift_seats(st: HegemonyState) -> list[int]:
    """Companies an Extra Shift may run; a card may restrict them to industries
    (``industry_filter``) or to public companies staffed by MC (``scope: public``)."""
    mods = effects_basic.active_mods(st)
    if not mods:
        return [seat for seat in board.companies_of(st, MC) if _shift_ok(st, seat)]
    if mods.get("scope") == "public":
        seats = [seat for seat in PUBLIC_SEATS
                 if board.is_present(st, seat) and _public_shift_ok(st, seat)]
    else:
        seats = [seat for seat in board.companies_of(st, MC) if _shift_ok(st, seat)]
    industries = mods.get("industry_filter")
    if industries is not None:
        allowed = {INDUSTRY_OF[name] for name in industries}
        seats = [seat for seat in seats if D.COMPANIES[st.seat_card[seat]].industry in allowed]
    return seats


def _can_shift(st: HegemonyState, cls: int) -> bool:
    return bool(_shift_seats(st))


def _start_shift(st: HegemonyState, cls: int) -> None:
    st.push((EXTRA_SHIFT, cls, 0))


def _legal_shift(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(MC)
    return [b.company + seat for seat in _shift_seats(st)]


def _apply_shift(st: HegemonyState, item: Item, action: int) -> None:
    extra_shift(st, action - blocks(MC).company)
    st.agenda.pop()


def extra_shift(st: HegemonyState, seat: int) -> None:
    """§3.10: commit everyone; base output now; a free unstruck employee is paid and adds
    the bonus.  A public company (``scope: public``): the State pays MC the wage (forced) and
    the output goes to Public Services."""
    company = board.card(st, seat)
    assert company is not None
    if company.sector == "public":
        money.pay(st, ST, board.wage_amount(st, seat), MC, forced=True)
        commit_all(st, seat)
        effects_companies.deliver(st, ST, company.industry, company.production)
        return
    output = company.production

    if _employee_works(st, seat):
        money.pay(st, MC, board.wage_amount(st, seat), WC)
        output += company.bonus
    commit_all(st, seat)
    if company.industry == INFLUENCE:
        board.gain_influence(st, MC, output)
    else:
        storage.store(st, MC, company.industry, output)


# -- §3.11 Make Business Deal ------------------------------------------------------------------
def _deal_slots(st: HegemonyState) -> list[int]:
    """Deals CC can pay for (a card's cost and price modifiers applied)."""
    return [k for k, deal in enumerate(st.deals)
            if effects_basic.can_afford_purchase(st, CC, D.DEALS[deal].cost)]


def _deal_tariff(st: HegemonyState) -> int:
    """The tariff per unit stored in regular Storage under p6; none under ``no_tariff``."""
    return 0 if effects_basic.mod(st, "no_tariff") else D.DEAL_TARIFF_PER_GOOD[st.policies[5]]


def _can_deal(st: HegemonyState, cls: int) -> bool:
    return bool(_deal_slots(st))


def _start_deal(st: HegemonyState, cls: int) -> None:
    st.push((DEAL, cls, 0))


def _legal_deal(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(CC)
    return [b.deal + k for k in _deal_slots(st)]


def _apply_deal(st: HegemonyState, item: Item, action: int) -> None:
    design = st.deals.pop(action - blocks(CC).deal)
    deal = D.DEALS[design]
    effects_basic.pay_purchase(st, CC, deal.cost)
    st.ctx["economy_deal"] = design
    st.agenda.pop()
    st.push(*[(DEAL_SPLIT, CC, good) for good, n in ((FOOD, deal.food), (LUX, deal.lux)) if n])


def _deal_amount(st: HegemonyState, good: int) -> int:
    deal = D.DEALS[st.ctx["economy_deal"]]
    return deal.food if good == FOOD else deal.lux


def _legal_deal_split(st: HegemonyState, item: Item) -> list[int]:
    good = item[2]
    tariff = _deal_tariff(st)
    most = min(_deal_amount(st, good), storage.room(st, CC, good))
    if tariff:
        most = min(most, money.cash(st, CC) // tariff)
    return [blocks(CC).qty + n for n in range(most + 1)]


def _apply_deal_split(st: HegemonyState, item: Item, action: int) -> None:
    """``n`` units to regular storage (tariff per unit stored), the rest to the FTZ (§3.11,
    §12 #28, #36, #44); what fits nowhere is lost."""
    good = item[2]
    n = action - blocks(CC).qty
    amount = _deal_amount(st, good)
    stored = storage.store(st, CC, good, n)
    money.pay(st, CC, _deal_tariff(st) * stored, ST)
    st.ftz[good] += min(amount - n, storage.ftz_room(st, good))
    st.agenda.pop()


# -- §3.12 Lobby -------------------------------------------------------------------------------
def _lobby_cost(st: HegemonyState) -> int:
    """30, plus a card's ``cost_delta`` (never below 0)."""
    return max(0, D.LOBBY_COST + effects_basic.mod(st, "cost_delta", 0))


def _can_lobby(st: HegemonyState, cls: int) -> bool:
    return money.can_pay(st, CC, _lobby_cost(st)) and board.influence_supply(st) > 0


def _start_lobby(st: HegemonyState, cls: int) -> None:
    money.pay_capital_first(st, CC, _lobby_cost(st))

    board.gain_influence(st, CC, D.LOBBY_INFLUENCE)


# -- the tables turn.py joins ------------------------------------------------------------------
CODES: dict[int, Decision | Step] = {
    STRIKE: Decision("strike", _legal_strike, _apply_strike),
    SELL_COMPANY: Decision("sell_company", _legal_sell, _apply_sell),
    EXTRA_SHIFT: Decision("extra_shift", _legal_shift, _apply_shift),
    DEAL: Decision("business_deal", _legal_deal, _apply_deal),
    DEAL_SPLIT: Decision("business_deal_split", _legal_deal_split, _apply_deal_split),
}

BASIC = {
    "strike": (_can_strike, _start_strike),
    "sell_company": (_can_sell, _start_sell),
    "extra_shift": (_can_shift, _start_shift),
    "business_deal": (_can_deal, _start_deal),
    "lobby": (_can_lobby, _start_lobby),
}

