"""Economy, the markets (our Hegemony rules page §3.4, §3.9): the basic actions Buy Goods &
Services and Sell to Foreign Market.

Every compound choice is a chain of small decisions (§14) whose masks offer only what can be
completed: Buy is resource -> source -> quantity -> a second source or ``done`` -> quantity;
a sale offers each Export offer at most once, tracked as bits in ``st.ctx``, and ends with
``done``.  Optional costs are offered only when affordable (no loan).

Choices the page leaves open, decided here: a CC Foreign Market sale takes FTZ goods before
regular Storage (FTZ goods can only be exported, so this is weakly dominant).

Card modifiers (§11.1; the node under way is read with ``effects_basic.mod``), as the vocabulary
in ``cards_vocabulary.py`` states them; where it leaves a choice open:
- Buy at a ``price_factor`` from the Foreign Market: the buyer's share pays the State's tariff
  first, the rest goes to the bank; with ``state_pays_rest`` the treasury pays the bank the part
  of the base price the buyer did not (never itself: a State seller gets only the buyer's share).
- Sell to Foreign Market: ``extra_offers`` are offers 8 and 9 (``extra_offer`` block) of the
  same sale, each a transaction (VP, ``txn_bonus_from_state``); ``peek_exports`` asks first for
  the card (``export_card`` k: 0 the current one, k the k-th to be revealed) and offers only
  cards with an offer the seller can fill; nothing moves.  The State selling gets no bonus
  from itself.

It sits above ``economy_free``, whose goods' indexes it reads, and beside ``economy``: neither
of the two imports the other (``turn`` joins both); the observation reads its Export card
decisions.
"""


from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import board, effects_basic, money
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MAX_EXTRA_OFFERS, MC, QUANTITIES, ST, blocks
from meeplezoo.envs.hegemony.board import price
from meeplezoo.envs.hegemony.economy_free import EDU, FOOD, HEALTH, INFLUENCE, LUX
from meeplezoo.envs.hegemony.effects_terms import GOOD_OF, INDUSTRY_OF

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# agenda codes (economy owns 40-69)
BUY_RESOURCE = 43
BUY_SOURCE = 44  # arg = sources already bought from
BUY_QTY = 45  # arg = the source + SRC_STRIDE x units already bought from it (qty_cap)
SELL_FOREIGN = 48  # arg = transactions made so far in this action
EXPORT_CARD = 54  # peek_exports: the Export card this sale uses (``export_card`` block)

SRC_CC, SRC_MC, SRC_STATE, SRC_FOREIGN = range(4)
SRC_STRIDE = 4
QTY_MAX = max(QUANTITIES)  # the ``qty`` block's largest amount in one decision
UNLIMITED = 99  # the Foreign Market's stock (§3.4)

CTX: dict[str, int] = {
    "economy_buy_res": -1,  # the resource being bought
    "economy_buy_used": 0,  # bit per source already used in this purchase
    "economy_export": 0,  # bit per Export offer taken in this action (extra offers from 8)
    "economy_export_card": -1,  # peek_exports: the C.EXPORTS card sold to (-1: the current)
}


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


# -- the tables turn.py joins ------------------------------------------------------------------
CODES: dict[int, Decision | Step] = {
    BUY_RESOURCE: Decision("buy_resource", _legal_buy_resource, _apply_buy_resource),
    BUY_SOURCE: Decision("buy_source", _legal_buy_source, _apply_buy_source),
    BUY_QTY: Decision("buy_quantity", _legal_buy_qty, _apply_buy_qty),
    SELL_FOREIGN: Decision("sell_foreign", _legal_export, _apply_export),
    EXPORT_CARD: Decision("sell_foreign_card", _legal_export_card, _apply_export_card),
}

BASIC = {
    "buy": (_can_buy, _start_buy),
    "sell_foreign": (_can_export, _start_export),
}
