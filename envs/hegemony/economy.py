"""Economy actions (our Hegemony rules page §3.4-§3.12 and §4): buying, selling, strikes,
deals, wages and prices.

Basic actions: Buy Goods & Services (§3.4), Strike (§3.5), Sell Company (§3.8), Sell to
Foreign Market (§3.9), Extra Shift (§3.10), Make Business Deal (§3.11), Lobby (§3.12).
Free actions: Use Health (§4.1), Use Luxury (§4.3), Receive Benefits (§4.5), Pay Off Loan
(§4.6), Adjust Prices (§4.7), Adjust Wages (§4.8), Give Bonus (§4.9), Buy Storage (§4.10).
Policy follow-ups pushed by politics: ``ADJUST_WAGES`` arg 1 (after a p2 change: lowering
only, nobody committed, §5.4) and ``ADJUST_PRICES`` arg 1 (re-pricing after p4/p5/p6 or the
IMF, §5.11).

Every compound choice is a chain of small decisions (§14) whose masks offer only what can be
completed: Buy is resource -> source -> quantity -> a second source or ``done`` -> quantity;
the "any number" actions (§2.2, §12 #32) offer each target at most once, tracked as bits in
``st.ctx``, and end with ``done``.  Optional costs are offered only when affordable (no loan).

Choices the page leaves open, decided here:
- Prices are stored as ``st.prices[0]`` for MC and ``st.prices[1]`` for CC (``cls - 1``).
- A CC Foreign Market sale takes FTZ goods before regular Storage (FTZ goods can only be
  exported, so this is weakly dominant).
- The free Adjust Prices / Adjust Wages must change at least one target (``done`` is offered
  after the first change); the policy follow-ups may end at once.
- The re-pricing follow-up offers every good, as §5.11 states it (§10's table names only
  Health for p4 and Edu for p5).
- Business Deal: the units sent to regular Storage are offered up to its free room (goods
  beyond it would be lost, §12 #44), the rest go to the FTZ (overflow lost).
- A public company CC sold goes face down into the first empty public seat, its wage at the
  p2 minimum until a p1 reveal sets it.
- Money waiting in a Benefits area is off the table (as ``invariants`` counts it), so taking
  it is a gain from the bank.

Card modifiers (§11.1; the node under way is read with ``effects_basic.mod``), as the vocabulary
in ``cards.py`` states them; where it leaves a choice open:
- Buy at a ``price_factor`` from the Foreign Market: the buyer's share pays the State's tariff
  first, the rest goes to the bank; with ``state_pays_rest`` the treasury pays the bank the part
  of the base price the buyer did not (never itself: a State seller gets only the buyer's share).
- Strike ``extra_strike_tokens``: the limit grows by one per WC union; the strike tokens of the
  supply still bound it.
- Sell to Foreign Market: ``extra_offers`` are offers 8 and 9 (``extra_offer`` block) of the
  same sale, each a transaction (VP, ``txn_bonus_from_state``); ``peek_exports`` asks first for
  the card (``export_card`` k: 0 the current one, k the k-th to be revealed) and offers only
  cards with an offer the seller can fill; nothing moves.  The State selling gets no bonus
  from itself.
- Extra Shift ``scope: public``: the public company's workers must all be MC's and free; its
  output goes where a public company's production goes (``effects_companies.deliver``).
"""


from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import (
    board,
    effects_basic,
    effects_companies,
    money,
    phase_rules,
    storage,
)
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    CC,
    CC_SEATS,
    MAX_EXTRA_OFFERS,
    MC,
    PUBLIC_SEATS,
    QUANTITIES,
    ST,
    WC,
    blocks,
)
from meeplezoo.envs.hegemony.board import min_wage_level, price  # the queries, kept here too
from meeplezoo.envs.hegemony.effects_terms import GOOD_OF, INDUSTRY_OF
from meeplezoo.envs.hegemony.state import NO_WORKER
from meeplezoo.envs.hegemony.workers import gain_prosperity

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# agenda codes (economy owns 40-69; 40 and 41 are fixed in codes.py)
ADJUST_WAGES = K.ADJUST_WAGES  # company (or done); arg 0 free action, 1 after a p2 change
ADJUST_PRICES = K.ADJUST_PRICES  # good x step (or done); arg 0 free action, 1 re-pricing
WAGE_LEVEL = 42  # the new level of the company just chosen; arg = mode * 64 + seat
BUY_RESOURCE = 43
BUY_SOURCE = 44  # arg = sources already bought from
BUY_QTY = 45  # arg = the source + SRC_STRIDE x units already bought from it (qty_cap)
STRIKE = 46  # arg = companies already struck in this action
SELL_COMPANY = 47
SELL_FOREIGN = 48  # arg = transactions made so far in this action
EXTRA_SHIFT = 49
DEAL = 50
DEAL_SPLIT = 51  # arg = the good (0 food, 1 lux): units to regular storage
GIVE_BONUS = 52
BUY_STORAGE = 53
EXPORT_CARD = 54  # peek_exports: the Export card this sale uses (``export_card`` block)

FREE_MODE, FOLLOW_UP = 0, 1
SRC_CC, SRC_MC, SRC_STATE, SRC_FOREIGN = range(4)
SRC_STRIDE = 4
QTY_MAX = max(QUANTITIES)  # the ``qty`` block's largest amount in one decision
UNLIMITED = 99  # the Foreign Market's stock (§3.4)
FOOD, LUX, HEALTH, EDU, INFLUENCE = range(5)
L3 = 2
HIGH = 2
_SEAT_BITS = 64

CTX: dict[str, int] = {
    "economy_buy_res": -1,  # the resource being bought
    "economy_buy_used": 0,  # bit per source already used in this purchase
    "economy_export": 0,  # bit per Export offer taken in this action (extra offers from 8)
    "economy_export_card": -1,  # peek_exports: the C.EXPORTS card sold to (-1: the current)
    "economy_prices": 0,  # bit per good already re-priced in this action
    "economy_wages": 0,  # bit per seat whose wage was already changed in this action
    "economy_deal": -1,  # design index of the Business Deal being taken
}


# -- shared small queries ----------------------------------------------------------------------
def _any_committed(st: HegemonyState, seat: int) -> bool:
    return any(st.seat_committed[seat][k] for k, w in enumerate(st.seat_workers[seat])
               if w != NO_WORKER)


def _commit_all(st: HegemonyState, seat: int) -> None:
    for k, w in enumerate(st.seat_workers[seat]):
        if w != NO_WORKER:
            st.seat_committed[seat][k] = 1


def _owned_seats(cls: int) -> range:
    return board.SEATS_OF[cls]


# Per company card: the slots whose workers its wage pays (MC: only the employee's).
_PAID_SLOTS = tuple(tuple(k for k, slot in enumerate(c.slots) if c.sector != "mc" or slot.employee)
                    for c in D.COMPANIES)
_HAS_WAGES = tuple(c.wages is not None for c in D.COMPANIES)


def _gain_legitimacy(st: HegemonyState, cls: int, amount: int) -> None:
    st.legitimacy[cls] = min(D.LEGITIMACY_MAX, st.legitimacy[cls] + amount)


# -- §3.4 Buy Goods & Services -----------------------------------------------------------------
def source_terms(st: HegemonyState, buyer: int, res: int, src: int) -> tuple[int, int]:
    """(units the source holds for ``buyer``, unit price) of one source (§3.4 table);
    (0, 0) where the source does not sell that resource.  The Foreign Market's stock is
    unlimited (``UNLIMITED``)."""
    if src == SRC_CC:
        if res < INFLUENCE:
            return st.cc_storage[res], price(st, CC, res)
    elif src == SRC_MC:
        if res < INFLUENCE:
            return st.mc_storage[res], (0 if buyer == MC else price(st, MC, res))
    elif src == SRC_STATE:
        if res in (FOOD, LUX):
            return st.state_goods[res], D.STATE_GOODS_PRICE[res]
        if res in (HEALTH, EDU):
            section = st.policies[3 if res == HEALTH else 4]
            return st.public_services[res - HEALTH], D.PUBLIC_SERVICE_PRICE[section]
        return st.public_services[2], D.MEDIA_INFLUENCE_PRICE
    elif res in (FOOD, LUX):
        return UNLIMITED, D.FOREIGN_BASE[res] + _tariff(st, res)
    return 0, 0


def _tariff(st: HegemonyState, res: int) -> int:
    """The Foreign Market's tariff per unit under p6; none under a card's ``no_tariff``."""
    if effects_basic.mod(st, "no_tariff"):
        return 0
    return D.FOREIGN_TARIFF[st.policies[5]][res]


def max_buy(st: HegemonyState, buyer: int, res: int, src: int, pop: int = 0,
            bought: int = 0) -> int:
    """The most units ``buyer`` may buy from one source now: Population (``pop`` if the
    caller has it; times a card's ``qty_cap``; less the ``bought`` units already taken from
    it in this purchase), stock, money (a card's price modifiers applied by
    ``effects_basic.can_afford_purchase``)."""
    stock, unit = source_terms(st, buyer, res, src)
    mods = effects_basic.active_mods(st)
    most = min(stock, (pop or board.population(st, buyer)) * mods.get("qty_cap", 1) - bought)
    if unit > 0:
        if not mods:
            most = min(most, money.cash(st, buyer) // unit)
        else:
            while most > 0 and not effects_basic.can_afford_purchase(st, buyer, unit * most):
                most -= 1
    return max(0, most)


def can_buy_from(st: HegemonyState, buyer: int, res: int, src: int, pop: int = 0) -> bool:
    """``max_buy(st, buyer, res, src, pop) > 0``, without counting down: under a card's price
    modifiers a purchase that is affordable stays affordable for fewer units (the buyer's
    share and the State's rest never grow as the price falls), so one unit decides, unless
    a ``min_cost`` makes small purchases fail where larger ones pass."""
    stock, unit = source_terms(st, buyer, res, src)
    mods = effects_basic.active_mods(st)
    if min(stock, (pop or board.population(st, buyer)) * mods.get("qty_cap", 1)) <= 0:
        return False
    if unit <= 0:
        return True
    if not mods:
        return money.cash(st, buyer) >= unit
    if "min_cost" in mods:
        return max_buy(st, buyer, res, src, pop) > 0
    return effects_basic.can_afford_purchase(st, buyer, unit)


SOURCE_OF = {"CC": SRC_CC, "MC": SRC_MC, "ST": SRC_STATE, "foreign": SRC_FOREIGN}
ALL_SOURCES = range(4)
ALL_RESOURCES = range(5)


def _allowed_sources(st: HegemonyState) -> range | tuple[int, ...]:
    """Every source, or only a card's ``sources``."""
    names = effects_basic.mod(st, "sources")
    return ALL_SOURCES if names is None else tuple(SOURCE_OF[name] for name in names)


def _allowed_resources(st: HegemonyState) -> range | tuple[int, ...]:
    """Every resource, or only the products of a card's ``industry_filter`` (a resource's index
    is its industry's: agri -> food ... media -> influence)."""
    names = effects_basic.mod(st, "industry_filter")
    return ALL_RESOURCES if names is None else tuple(INDUSTRY_OF[n] for n in names)


def _buyable_sources(st: HegemonyState, buyer: int, res: int) -> list[int]:
    used, pop = st.ctx["economy_buy_used"], board.population(st, buyer)
    return [src for src in _allowed_sources(st)
            if not used >> src & 1 and can_buy_from(st, buyer, res, src, pop)]


def _buyable_resources(st: HegemonyState, buyer: int) -> list[int]:
    pop = board.population(st, buyer)
    sources = _allowed_sources(st)
    return [res for res in _allowed_resources(st)
            if any(can_buy_from(st, buyer, res, src, pop) for src in sources)]


def _can_buy(st: HegemonyState, cls: int) -> bool:
    """Some resource can be bought from some source (stops at the first: asked every turn)."""
    pop = board.population(st, cls)
    sources = _allowed_sources(st)
    return any(can_buy_from(st, cls, res, src, pop)
               for res in _allowed_resources(st) for src in sources)


def _start_buy(st: HegemonyState, cls: int) -> None:
    st.ctx["economy_buy_res"], st.ctx["economy_buy_used"] = -1, 0
    st.push((BUY_RESOURCE, cls, 0))


def _legal_buy_resource(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    return [b.resource + res for res in _buyable_resources(st, item[1])]


def _apply_buy_resource(st: HegemonyState, item: Item, action: int) -> None:
    st.ctx["economy_buy_res"] = action - blocks(item[1]).resource
    st.agenda[-1] = (BUY_SOURCE, item[1], 0)


def _legal_buy_source(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    legal = [b.source + src for src in _buyable_sources(st, item[1], st.ctx["economy_buy_res"])]
    if item[2] > 0:
        legal.append(b.DONE)
    return legal


def _apply_buy_source(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(item[1])
    if action == b.DONE:
        _end_buy(st)
        return
    src = action - b.source
    st.ctx["economy_buy_used"] |= 1 << src
    st.agenda[-1] = (BUY_QTY, item[1], src)


def _end_buy(st: HegemonyState) -> None:
    st.ctx["economy_buy_res"], st.ctx["economy_buy_used"] = -1, 0
    st.agenda.pop()


def _legal_buy_qty(st: HegemonyState, item: Item) -> list[int]:
    """1..most units; in a continuation (a ``qty_cap`` card allows more than the ``qty``
    block's 12 from one source) 0 (no more) .. what is left."""
    b = blocks(item[1])
    src, bought = item[2] % SRC_STRIDE, item[2] // SRC_STRIDE
    most = min(QTY_MAX, max_buy(st, item[1], st.ctx["economy_buy_res"], src, bought=bought))
    return [b.qty + q for q in range(0 if bought else 1, most + 1)]


def _apply_buy_qty(st: HegemonyState, item: Item, action: int) -> None:
    """Buy; after a full 12 from a source that may sell more (``qty_cap``), ask again for the
    same source (arg = source + 4 x units bought from it)."""
    buyer, src, bought = item[1], item[2] % SRC_STRIDE, item[2] // SRC_STRIDE
    qty = action - blocks(buyer).qty
    res = st.ctx["economy_buy_res"]
    if qty:
        buy(st, buyer, res, src, qty, first=not bought)
    if qty == QTY_MAX and max_buy(st, buyer, res, src, bought=bought + qty) > 0:
        st.agenda[-1] = (BUY_QTY, buyer, src + SRC_STRIDE * (bought + qty))
        return
    if bin(st.ctx["economy_buy_used"]).count("1") < D.BUY_MAX_SOURCES:
        st.agenda[-1] = (BUY_SOURCE, buyer, 1)
    else:
        _end_buy(st)


def buy(st: HegemonyState, buyer: int, res: int, src: int, qty: int, *,
        first: bool = True) -> None:
    """Move ``qty`` units of ``res`` from one source to ``buyer`` and pay for them (§3.4),
    with the State bonuses of that source (``first``: not a continuation of the same
    purchase, which scores no second B-price VP)."""
    _, unit = source_terms(st, buyer, res, src)
    if src == SRC_CC:
        st.cc_storage[res] -= qty
        effects_basic.pay_purchase(st, buyer, unit * qty, CC)
    elif src == SRC_MC:
        st.mc_storage[res] -= qty
        effects_basic.pay_purchase(st, buyer, unit * qty, MC)
    elif src == SRC_STATE:
        if res in (FOOD, LUX):
            st.state_goods[res] -= qty
        else:
            st.public_services[res - HEALTH] -= qty
        effects_basic.pay_purchase(st, buyer, unit * qty, ST)
        if res in (HEALTH, EDU):
            _state_service_bonus(st, buyer, res, qty, first)
    else:
        _pay_foreign(st, buyer, unit * qty, _tariff(st, res) * qty)
    if res == INFLUENCE:
        board.gain_influence(st, buyer, qty)
    else:
        st.goods[buyer][res] += qty


def _pay_foreign(st: HegemonyState, buyer: int, full: int, tariff: int) -> None:
    """Pay a Foreign Market purchase: the tariff to the State, the rest to the bank.  Under a
    card's ``price_factor`` the buyer's share pays the tariff first; with ``state_pays_rest``
    the treasury pays the bank the part of the base price the buyer did not."""
    own = effects_basic.purchase_price(st, full)
    to_state = min(own, tariff)
    money.pay(st, buyer, to_state, ST)
    money.pay(st, buyer, own - to_state)
    if own < full and effects_basic.mod(st, "state_pays_rest"):
        money.pay(st, ST, (full - tariff) - (own - to_state), forced=True)


def _state_service_bonus(st: HegemonyState, buyer: int, res: int, qty: int,
                         first: bool = True) -> None:
    """§3.4 State bonuses: +1 VP for a purchase at the B price; +1 Legitimacy with the
    buyer per full 3 units bought free (section A; a continuation after 12 units counts on,
    as 12 is a multiple of 3)."""
    section = st.policies[3 if res == HEALTH else 4]
    if section == 1 and first:
        board.score(st, ST, 1, "public_services")
    elif section == 0:
        _gain_legitimacy(st, buyer, qty // D.FREE_SERVICE_UNITS_PER_LEGITIMACY)


# -- §3.5 Strike -------------------------------------------------------------------------------
def strike_eligible(st: HegemonyState, seat: int) -> bool:
    """§3.5: operational, employs WC workers, none committed, wage below L3, no token."""
    index = st.seat_card[seat]
    if index < 0 or not _HAS_WAGES[index] or st.seat_strike[seat]:
        return False
    if not board.is_operational(st, seat) or st.seat_wage[seat] >= L3:
        return False
    if _any_committed(st, seat):
        return False
    if D.COMPANIES[index].sector == "mc":
        k = board.employee_slot(st, seat)
        return k >= 0 and st.seat_workers[seat][k] != NO_WORKER
    return board.staff_class(st, seat) == WC


def _strike_targets(st: HegemonyState) -> list[int]:
    """Eligible companies while a strike token is left; a card's ``industry_filter`` keeps
    only those industries."""
    if board.strike_tokens_left(st) <= 0:
        return []
    industries = effects_basic.mod(st, "industry_filter")
    if industries is not None:
        allowed = {INDUSTRY_OF[name] for name in industries}
        return [seat for seat in range(len(st.seat_card)) if strike_eligible(st, seat)
                and D.COMPANIES[st.seat_card[seat]].industry in allowed]
    return [seat for seat in range(len(st.seat_card)) if strike_eligible(st, seat)]


def _strike_limit(st: HegemonyState) -> int:
    """Companies one Strike may reach: 2, plus one per WC union under a card's
    ``extra_strike_tokens: per_union``."""
    extra = sum(st.unions) if effects_basic.mod(st, "extra_strike_tokens") else 0
    return D.STRIKE_MAX_COMPANIES + extra


def _can_strike(st: HegemonyState, cls: int) -> bool:
    return bool(_strike_targets(st))


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
    return [seat for seat in board.companies_of(st, cls) if not _any_committed(st, seat)]


def _can_sell(st: HegemonyState, cls: int) -> bool:
    """``_sellable`` is not empty (stops at the first: asked every turn)."""
    return any(not _any_committed(st, seat) for seat in board.companies_of(st, cls))


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


# -- §3.9 Sell to Foreign Market ---------------------------------------------------------------
CARD_OFFERS = 2 * len(D.GOODS)  # offers 0-7 are the Export card's; a card's extra ones follow
_NO_OFFER = (0, UNLIMITED + 1, 0)  # stands in for a card offer when no Export card is out


def export_offers(st: HegemonyState, card: int = -1) -> list[tuple[int, int, int]]:
    """An Export card's 8 offers as (good, quantity, money), offer index order: the current
    card, or ``card`` (a ``C.EXPORTS`` index)."""
    if card < 0:
        card = st.export
    if not 0 <= card < len(C.EXPORTS):
        return []
    offers = C.EXPORTS[card].offers
    return [(g, *offers[name][size]) for g, name in enumerate(D.GOODS) for size in range(2)]


def _sale_offers(st: HegemonyState) -> list[tuple[int, int, int]]:
    """The offers of this sale: the Export card chosen (``peek_exports``) or the current one,
    then a card's ``extra_offers`` (offer ``CARD_OFFERS + j``)."""
    offers = export_offers(st, st.ctx["economy_export_card"])
    extra = effects_basic.mod(st, "extra_offers")
    if extra:
        assert len(extra) <= MAX_EXTRA_OFFERS, "more extra offers than the extra_offer block"
        offers = offers or [_NO_OFFER] * CARD_OFFERS  # keeps the extra offers at 8 and 9
        offers = offers + [(GOOD_OF[res], qty, paid) for res, qty, paid in extra]
    return offers


def _peek_cards(st: HegemonyState) -> list[int]:
    """``peek_exports``: the current Export card (0), then the k cards under it (1..k, the
    next to be revealed first), as ``C.EXPORTS`` indexes."""
    deck = st.export_deck
    k = min(effects_basic.mod(st, "peek_exports", 0), len(deck))
    return [st.export] + [deck[-j] for j in range(1, k + 1)]


def _export_stock(st: HegemonyState, cls: int, good: int) -> int:
    """What ``cls`` may sell of ``good``: MC and CC Storage (CC also its FTZ), ST only the
    Food and Lux it holds; never a Goods & Services area."""
    if cls == MC:
        return st.mc_storage[good]
    if cls == CC:
        return st.cc_storage[good] + (st.ftz[good] if good < 2 else 0)
    return st.state_goods[good] if good < 2 else 0


def _export_choices(st: HegemonyState, cls: int, done: int) -> list[int]:
    """Offers of this sale not yet taken in this action that ``cls`` holds enough goods for."""
    return [k for k, (good, qty, _) in enumerate(_sale_offers(st))
            if not done >> k & 1 and _export_stock(st, cls, good) >= qty]


def _peek_choices(st: HegemonyState, cls: int) -> list[int]:
    """Positions (0 = the current card) of the peeked Export cards with an offer ``cls`` can
    fill, the card's extra offers included."""
    legal = []
    for j, card in enumerate(_peek_cards(st)):
        st.ctx["economy_export_card"] = card
        if _export_choices(st, cls, 0):
            legal.append(j)
    st.ctx["economy_export_card"] = -1
    return legal


def _can_export(st: HegemonyState, cls: int) -> bool:
    """A sale to the face-up Export card is possible (``_export_choices`` is not empty).  Under
    ``peek_exports`` too: whether a card under it would take a sale is hidden until the peek,
    so it cannot decide whether the card may be played (the current card stays among the
    choices)."""
    return any(_export_stock(st, cls, good) >= qty for good, qty, _ in _sale_offers(st))


def _start_export(st: HegemonyState, cls: int) -> None:
    st.ctx["economy_export"], st.ctx["economy_export_card"] = 0, -1
    st.push((EXPORT_CARD if effects_basic.mod(st, "peek_exports") else SELL_FOREIGN, cls, 0))


def _legal_export_card(st: HegemonyState, item: Item) -> list[int]:
    first = blocks(item[1]).export_card
    return [first + j for j in _peek_choices(st, item[1])]


def _apply_export_card(st: HegemonyState, item: Item, action: int) -> None:
    """Sell to the chosen card's offers; every peeked card stays where it was."""
    st.ctx["economy_export_card"] = _peek_cards(st)[action - blocks(item[1]).export_card]
    st.agenda[-1] = (SELL_FOREIGN, item[1], 0)


def _legal_export(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    legal = [b.offer + k if k < CARD_OFFERS else b.extra_offer + k - CARD_OFFERS
             for k in _export_choices(st, item[1], st.ctx["economy_export"])]
    if item[2] > 0:
        legal.append(b.DONE)
    return legal


def _apply_export(st: HegemonyState, item: Item, action: int) -> None:
    """One transaction: the goods go, the money comes from the bank, MC (and CC under
    ``cc_export_vp``) scores; a card's ``txn_bonus_from_state`` is paid by the treasury."""
    cls = item[1]
    b = blocks(cls)
    if action == b.DONE:
        st.ctx["economy_export"], st.ctx["economy_export_card"] = 0, -1
        st.agenda.pop()
        return
    k = action - b.offer if action < b.offer + CARD_OFFERS else \
        CARD_OFFERS + action - b.extra_offer

    good, qty, paid = _sale_offers(st)[k]
    _take_for_export(st, cls, good, qty)
    money.gain(st, cls, paid)
    if cls == MC or (cls == CC and st.game.config["cc_export_vp"]):
        board.score(st, cls, D.MC_EXPORT_VP, "exports")
    bonus = effects_basic.mod(st, "txn_bonus_from_state", 0)
    if bonus and cls != ST:
        money.pay(st, ST, bonus, cls, forced=True)
    st.ctx["economy_export"] |= 1 << k
    st.agenda[-1] = (SELL_FOREIGN, cls, item[2] + 1)


def _take_for_export(st: HegemonyState, cls: int, good: int, qty: int) -> None:
    if cls == MC:
        st.mc_storage[good] -= qty
    elif cls == ST:
        st.state_goods[good] -= qty
    else:
        from_ftz = min(qty, st.ftz[good]) if good < 2 else 0
        if from_ftz:
            st.ftz[good] -= from_ftz
        st.cc_storage[good] -= qty - from_ftz


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
    return not _any_committed(st, seat)


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
        _commit_all(st, seat)
        effects_companies.deliver(st, ST, company.industry, company.production)
        return
    output = company.production

    if _employee_works(st, seat):
        money.pay(st, MC, board.wage_amount(st, seat), WC)
        output += company.bonus
    _commit_all(st, seat)
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


# -- §4.1 Use Health, §4.3 Use Luxury ----------------------------------------------------------
def _can_use(good: int):
    def can(st: HegemonyState, cls: int) -> bool:
        return st.goods[cls][good] >= board.population(st, cls)
    return can


def _start_use_health(st: HegemonyState, cls: int) -> None:
    st.goods[cls][HEALTH] -= board.population(st, cls)  # before the new worker arrives
    gain_prosperity(st, cls)
    board.score(st, cls, D.USE_HEALTH_VP, "prosperity")
    st.unemployed[cls][0] += 1


def _start_use_luxury(st: HegemonyState, cls: int) -> None:
    st.goods[cls][LUX] -= board.population(st, cls)
    gain_prosperity(st, cls)


# -- §4.5 Receive Benefits ---------------------------------------------------------------------
def _can_benefits(st: HegemonyState, cls: int) -> bool:
    return any(st.benefits[cls])


def _start_benefits(st: HegemonyState, cls: int) -> None:
    """Take the whole Benefits area: money (off the table while it waits there, as the
    invariants count it, so it comes from the bank now), resources (CC: into Storage, overflow
    lost), influence (already out of the supply) and voting cubes (already out of the class's
    supply) straight into the bag; ST +1 VP."""
    area = st.benefits[cls]
    cash_, *goods, influence, cubes = area
    if cash_:
        money.gain(st, cls, cash_)
    for good, n in enumerate(goods):
        if not n:
            continue
        if cls == CC:
            storage.store(st, CC, good, n)
        else:
            st.goods[cls][good] += n
    st.influence[cls] += influence
    st.bag[cls] += cubes
    st.benefits[cls] = [0] * len(area)
    board.score(st, ST, D.BENEFITS_VP, "benefits")


# -- §4.6 Pay Off Loan -------------------------------------------------------------------------
def _can_pay_off(st: HegemonyState, cls: int) -> bool:
    return st.loans[cls] > 0 and money.can_pay(st, cls, D.LOAN_REPAY)


def _start_pay_off(st: HegemonyState, cls: int) -> None:
    money.repay_loan(st, cls)


# -- §4.7 Adjust Prices ------------------------------------------------------------------------
def price_step_allowed(st: HegemonyState, good: int, step: int) -> bool:
    """§5.11, §12 #10: every step, unless ``price_high_requires_policy`` gates High to 6A
    (Food, Lux), 4C (Health) or 5C (Edu)."""
    if step < HIGH or not st.game.config["price_high_requires_policy"]:
        return True
    if good in (FOOD, LUX):
        return st.policies[5] == 0
    return st.policies[3 if good == HEALTH else 4] == 2


def drop_illegal_high_prices(st: HegemonyState) -> None:
    """Under ``price_high_requires_policy``, a High price the policies no longer allow drops to
    Mid at once (§5.11); politics calls this after p4/p5/p6 changes."""
    for row in st.prices:
        for good, step in enumerate(row):
            if not price_step_allowed(st, good, step):
                row[good] = 1


def _price_choices(st: HegemonyState, cls: int, done: int) -> list[int]:
    """(good * 3 + step) for each good not yet re-priced in this action and each allowed
    step other than its current one."""
    row = st.prices[cls - 1]
    return [good * 3 + step for good in range(4) if not done >> good & 1
            for step in range(3) if step != row[good] and price_step_allowed(st, good, step)]


def _can_adjust_prices(st: HegemonyState, cls: int) -> bool:
    return bool(_price_choices(st, cls, 0))


def _start_adjust_prices(st: HegemonyState, cls: int) -> None:
    st.ctx["economy_prices"] = 0
    st.push((ADJUST_PRICES, cls, FREE_MODE))


def _legal_prices(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    legal = [b.price + k for k in _price_choices(st, item[1], st.ctx["economy_prices"])]
    if item[2] == FOLLOW_UP or st.ctx["economy_prices"]:
        legal.append(b.DONE)
    return legal


def _apply_prices(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(item[1])
    if action == b.DONE:
        st.ctx["economy_prices"] = 0
        st.agenda.pop()
        return
    good, step = divmod(action - b.price, 3)
    st.prices[item[1] - 1][good] = step
    st.ctx["economy_prices"] |= 1 << good


# -- §4.8 Adjust Wages (and the p2 follow-up of §5.4) ------------------------------------------
def _paid_committed(st: HegemonyState, seat: int) -> bool:
    """A worker paid by the company's wage is committed (MC: only the employee is paid)."""
    index = st.seat_card[seat]
    assert index >= 0
    committed, workers = st.seat_committed[seat], st.seat_workers[seat]
    return any(committed[k] and workers[k] != NO_WORKER for k in _PAID_SLOTS[index])


def wage_levels(st: HegemonyState, seat: int, mode: int) -> list[int]:
    """The levels the owner may move ``seat``'s wage to (§4.8 free action; §5.4 follow-up:
    lower only, never in a company with committed workers)."""
    index, current = st.seat_card[seat], st.seat_wage[seat]
    if index < 0 or not _HAS_WAGES[index] or current < 0:
        return []
    low = min_wage_level(st)
    if mode == FOLLOW_UP:
        if _any_committed(st, seat):
            return []
        return list(range(low, current))
    lowest = current if _paid_committed(st, seat) else low
    return [level for level in range(lowest, 3) if level != current]


def _wage_seats(st: HegemonyState, cls: int, mode: int, done: int) -> list[int]:
    """Own companies not yet changed in this action whose wage may move."""
    return [seat for seat in _owned_seats(cls) if board.is_present(st, seat)
            and not done >> seat & 1 and wage_levels(st, seat, mode)]


def _can_adjust_wages(st: HegemonyState, cls: int) -> bool:
    """Some own company's wage may move (stops at the first: asked every turn).  A wage below
    L3 always may (``wage_levels`` then offers the next level up), so only a company at L3 or
    above is worked out."""
    cards, face_up, wages = st.seat_card, st.seat_face_up, st.seat_wage
    for seat in _owned_seats(cls):
        index = cards[seat]
        if index < 0 or not face_up[seat] or not _HAS_WAGES[index] or wages[seat] < 0:
            continue  # not present, or no wage (``wage_levels`` is empty)
        if wages[seat] < L3 or wage_levels(st, seat, FREE_MODE):
            return True
    return False


def _start_adjust_wages(st: HegemonyState, cls: int) -> None:
    st.ctx["economy_wages"] = 0
    st.push((ADJUST_WAGES, cls, FREE_MODE))


def _legal_wages(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    legal = [b.company + seat
             for seat in _wage_seats(st, item[1], item[2], st.ctx["economy_wages"])]
    if item[2] == FOLLOW_UP or st.ctx["economy_wages"]:
        legal.append(b.DONE)
    return legal


def _apply_wages(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(item[1])
    if action == b.DONE:
        st.ctx["economy_wages"] = 0
        st.agenda.pop()
        return
    seat = action - b.company
    st.push((WAGE_LEVEL, item[1], item[2] * _SEAT_BITS + seat))


def _legal_wage_level(st: HegemonyState, item: Item) -> list[int]:
    mode, seat = divmod(item[2], _SEAT_BITS)
    b = blocks(item[1])
    return [b.wage + level for level in wage_levels(st, seat, mode)]


def _apply_wage_level(st: HegemonyState, item: Item, action: int) -> None:
    """Set the level; a raise by the free action commits every worker there (§4.8, §5.3)."""
    mode, seat = divmod(item[2], _SEAT_BITS)
    level = action - blocks(item[1]).wage
    if mode == FREE_MODE and level > st.seat_wage[seat]:
        _commit_all(st, seat)
    st.seat_wage[seat] = level
    st.ctx["economy_wages"] |= 1 << seat
    st.agenda.pop()


# -- §4.9 Give Bonus ---------------------------------------------------------------------------
def _bonus_seats(st: HegemonyState, first: bool = False) -> list[int]:
    """CC's operational companies with a worker not committed (``first``: stop at one)."""
    if not money.can_pay(st, CC, D.GIVE_BONUS):
        return []
    seats = []
    for seat in CC_SEATS:
        if board.is_operational(st, seat) and any(
                w != NO_WORKER and not st.seat_committed[seat][k]
                for k, w in enumerate(st.seat_workers[seat])):
            seats.append(seat)
            if first:
                break
    return seats


def _can_bonus(st: HegemonyState, cls: int) -> bool:
    return bool(_bonus_seats(st, first=True))


def _start_bonus(st: HegemonyState, cls: int) -> None:
    st.push((GIVE_BONUS, CC, 0))


def _legal_bonus(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(CC)
    return [b.company + seat for seat in _bonus_seats(st)]


def _apply_bonus(st: HegemonyState, item: Item, action: int) -> None:
    """Pay 5 to the class of the company's workers, then commit them (§4.9)."""
    seat = action - blocks(CC).company
    money.pay(st, CC, D.GIVE_BONUS, board.staff_class(st, seat))
    _commit_all(st, seat)
    st.agenda.pop()


# -- §4.10 Buy Storage -------------------------------------------------------------------------
def _storage_goods(st: HegemonyState) -> list[int]:
    if sum(st.storage_tiles) >= D.STORAGE_TILES or not money.can_pay(st, CC,
                                                                    D.STORAGE_TILE_COST):
        return []
    return [good for good in range(4) if not st.storage_tiles[good]]


def _can_storage(st: HegemonyState, cls: int) -> bool:
    return bool(_storage_goods(st))


def _start_storage(st: HegemonyState, cls: int) -> None:
    st.push((BUY_STORAGE, CC, 0))


def _legal_storage(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(CC)
    return [b.resource + good for good in _storage_goods(st)]


def _apply_storage(st: HegemonyState, item: Item, action: int) -> None:
    money.pay(st, CC, D.STORAGE_TILE_COST)
    st.storage_tiles[action - blocks(CC).resource] = 1
    st.agenda.pop()


# -- the tables turn.py joins ------------------------------------------------------------------
CODES: dict[int, Decision | Step] = {
    ADJUST_WAGES: Decision("adjust_wages", _legal_wages, _apply_wages),
    ADJUST_PRICES: Decision("adjust_prices", _legal_prices, _apply_prices),
    WAGE_LEVEL: Decision("adjust_wages_level", _legal_wage_level, _apply_wage_level),
    BUY_RESOURCE: Decision("buy_resource", _legal_buy_resource, _apply_buy_resource),
    BUY_SOURCE: Decision("buy_source", _legal_buy_source, _apply_buy_source),
    BUY_QTY: Decision("buy_quantity", _legal_buy_qty, _apply_buy_qty),
    STRIKE: Decision("strike", _legal_strike, _apply_strike),
    SELL_COMPANY: Decision("sell_company", _legal_sell, _apply_sell),
    SELL_FOREIGN: Decision("sell_foreign", _legal_export, _apply_export),
    EXPORT_CARD: Decision("sell_foreign_card", _legal_export_card, _apply_export_card),

    EXTRA_SHIFT: Decision("extra_shift", _legal_shift, _apply_shift),
    DEAL: Decision("business_deal", _legal_deal, _apply_deal),
    DEAL_SPLIT: Decision("business_deal_split", _legal_deal_split, _apply_deal_split),
    GIVE_BONUS: Decision("give_bonus", _legal_bonus, _apply_bonus),
    BUY_STORAGE: Decision("buy_storage", _legal_storage, _apply_storage),
}

BASIC = {
    "buy": (_can_buy, _start_buy),
    "strike": (_can_strike, _start_strike),
    "sell_company": (_can_sell, _start_sell),
    "sell_foreign": (_can_export, _start_export),
    "extra_shift": (_can_shift, _start_shift),
    "business_deal": (_can_deal, _start_deal),
    "lobby": (_can_lobby, _start_lobby),
}

FREE = {
    "use_health": (_can_use(HEALTH), _start_use_health),
    "use_luxury": (_can_use(LUX), _start_use_luxury),
    "receive_benefits": (_can_benefits, _start_benefits),
    "pay_off_loan": (_can_pay_off, _start_pay_off),
    "adjust_prices": (_can_adjust_prices, _start_adjust_prices),
    "adjust_wages": (_can_adjust_wages, _start_adjust_wages),
    "give_bonus": (_can_bonus, _start_bonus),
    "buy_storage": (_can_storage, _start_storage),
}


# the rule a card's effect runs (effects_companies reaches it through ``phase_rules``)
phase_rules.provide(sell_company=sell_company)
