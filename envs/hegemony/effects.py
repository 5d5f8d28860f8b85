"""The card and Event interpreter (our Hegemony rules page §2.2, §3.13, §11.1): card data is
data, this module is the code that runs it.

Every effect node of every action card and every Event task is indexed once, at import, into
one flat table (``NODES``), so an agenda item ``(code, seat, node_id)`` names the node it works
on and a saved game stays a list of int triples.  ``RUN`` runs one node for a seat: composition
(``seq``, ``choice``, ``optional``, ``if``) pushes more items, a primitive acts on the state at
once or pushes the small decisions it needs (a company, a class, a quantity ...), each drawn
from the shared catalogue blocks of ``actions.py``.

Playability (``playable``) follows the vocabulary's conventions (``cards.py``): a card is
playable when its requirement holds and every effect it must carry out can be carried out now;
a precondition may fail inside ``optional``, in the untaken branch of ``if`` or in an unchosen
``choice`` option.  Costs are optional spending, never a loan; the State's forced payments may
take loans.  A node that cannot be done any more when its turn comes (an earlier effect of the
same card used what it needed) is skipped, so a played card always completes.

``basic`` runs a module's basic action through ``turn.BASIC`` without discarding a card; its
card node stays active in ``st.ctx`` while the action runs, and modules read its modifiers with
``active_mods(st)`` / ``mod(st, name, default)``.  Money modifiers of purchases are applied by
``purchase_price`` and ``pay_purchase``, which the purchasing modules call; Propose Bill's
modifiers go to ``politics.push_propose`` as its arguments.  ``count`` repeats the action,
``market_refill`` and ``search_deck``'s shuffle happen when the action ends (here).

The State's basic Event Action (§3.13) is ``BASIC["event_action"]``: an Event (``event`` block),
an option (``option`` block) whose task can be done in full, the task, the reward, the discard.

Choices the page and the vocabulary leave open, decided here:
- ``set_wage`` needs a company whose wage would change (``_all``: at least one; the others
  that may change do).
- ``produce``: an owner's wage is mandatory (forced loan) for CC and public companies; an MC
  owner pays its employee only if it can, and only then adds the bonus (as Extra Shift).
- ``provide`` / ``provide_to``: the State gives its own goods first and buys only what it
  lacks, one unit at a time from a source it picks (``source`` block: CC or MC Storage at their
  price, the Foreign Market at base price for food and lux); a source is offered only if the
  rest stays affordable.  Influence comes from Public Services' Media Influence (the option
  is illegal when it holds less, decision #48), cubes from the class's supply (capped); money
  waits off the table until received.  Replaced contents are discarded, cubes going home.
  Units for a per-unit reward are the non-money units given.
- ``build_for``: the class builds as its Build Company (it picks the card, wage and staff);
  the State pays a card of at least ``min_cost`` from what it holds, never a loan.
- ``transfer_company`` cc_to_public: the company takes an empty public space, else the space
  of a face-down public company, whose card then leaves the game (all nine spaces hold public
  cards from set-up on).
- ``event_peek``: the peeked card is named by ``qty:n`` (n-th from the top); ``place`` needs
  a free ``event`` index (``EVENT_SLOTS``).
- ``bag_purge`` offers only drawn cubes of other classes; ``bag_replace`` sets own cubes drawn
  aside and puts the replacing cubes in after the draws.
- ``sell_to_state`` and ``buy_from_players`` use regular Storage only (never the FTZ or MC's
  Goods & Services); ``remove_unemployed`` removes one worker at a time, ``done`` after the
  first.  For a class, ``media_influence`` is its influence; ``pay`` of cubes takes own cubes
  out of the bag.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import board, money, phase_rules, storage
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    CC,
    CC_SEATS,
    COOP_SEATS,
    MAX_SLOTS,
    MC,
    PUBLIC_SEATS,
    ST,
    WC,
    blocks,
    catalogue,
)
from meeplezoo.envs.hegemony.state import KINDS, NO_WORKER, worker_class

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

CLASS_OF = {"WC": WC, "MC": MC, "CC": CC, "ST": ST}
OWNER_OF = {"WC": WC, "MC": MC, "CC": CC, "public": ST}
GOOD_OF = {"food": 0, "lux": 1, "health": 2, "edu": 3}
INDUSTRY_OF = {name: i for i, name in enumerate(D.INDUSTRIES)}
LEVEL_OF = {"L1": 0, "L2": 1, "L3": 2}
BENEFIT_SLOT = {"money": 0, "food": 1, "lux": 2, "health": 3, "edu": 4, "influence": 5,
                "cubes": 6}
MEDIA = 4  # the media industry; it produces influence
SRC_CC, SRC_MC, SRC_STATE, SRC_FOREIGN = range(4)  # offsets in the ``source`` block
BASIC_NAME = {"buy_goods": "buy"}  # the vocabulary's names that the catalogue spells otherwise
EMPTY: Mapping[str, Any] = MappingProxyType({})
# Face-up Events the State's ``event`` block can name (an Event beyond them cannot be chosen,
# so event_peek places an extra Event only while one of these is free).
EVENT_SLOTS = len(catalogue("state").blocks()["event"])

# -- agenda codes (codes.EFFECTS: 120-159) -------------------------------------------------------
RUN = 120             # step: run node ``arg`` for the seat
CHOOSE = 121          # decision: a ``choice`` option (``option`` block), arg = node
OPTIONAL = 122        # decision: do an ``optional`` effect (yes / no), arg = node
END_BASIC = 123       # step: a card's basic action is over; arg = the node active before it
LEGITIMACY = 124      # step: the legitimacy symbols of card design ``arg`` (§2.2)
COMPANY = 125         # decision: the company a primitive acts on (``company`` block), arg = node
CLASS = 126           # decision: a class (``class`` block), arg = node
QTY = 127             # decision: how many units (``qty`` block), arg = node
SKILL = 128           # decision: the industry of a new skilled worker; seat = its class, arg = left
REMOVE = 129          # decision: an unemployed worker to remove (or done), arg = node
UPGRADE = 130         # decision: the worker to upgrade, arg = node
UPGRADE_TO = 131      # decision: its new industry, arg = where it is (see ``_upgrade_source``)
STORAGE_TILE = 132    # decision: the storage tile's resource, arg = node
PURGE = 133           # decision: a drawn opponent cube to return to its supply (or done)
SHIFT = 134           # decision: policy x section of a ``shift_policy``, arg = node
PEEK = 135            # decision: which peeked Event (``qty`` block, 1 = top), arg = node
PEEK_SWAP = 136       # decision: the face-up Event it replaces (``event`` block)
EVENT = 137           # decision: the Event of an Event Action (``event`` block)
EVENT_OPTION = 138    # decision: its option (``option`` block), arg = event slot
EVENT_END = 139       # step: the reward and the discard, arg = event slot
PROVIDE_BUY = 140     # decision: the source of one unit the State lacks, arg = good
PROVIDE_PUT = 141     # step: the bundle goes to the Benefits area of class ``seat``, arg = node
AGAIN = 142           # step: repeat the active basic action ``arg`` more times if it can
EVENT_AGAIN = 143     # step: the Event Action ``arg`` more times if it can
MACHINERY = 144       # decision: the company that takes a machinery token, arg = node

# -- scratch keys ------------------------------------------------------------------------------
ACTIVE = "effects_node"          # the card node of the basic action under way (-1: none)
COUNT = "effects_count"          # tokens left / workers removed / cubes returned
BENEFITS_ADDED = "effects_benefits"  # bit c: class c's Benefits were filled in this turn
EVENT_CARD = "effects_event"     # the cards.EVENTS index of the Event being done
EVENT_CHOICE = "effects_option"  # its option
UNITS = "effects_units"          # units spent, provided or bought (per-unit rewards)
PROVIDE = "effects_provide"      # the class receiving a bundle
DRAWN = tuple(f"effects_drawn_{c}" for c in range(3))  # bag_purge: drawn, still undecided
NEED = tuple(f"effects_need_{g}" for g in range(4))    # units of good g the State must buy
BUNDLE = tuple(f"effects_bundle_{k}" for k in range(len(BENEFIT_SLOT)))  # the bundle to put
PEEKED = "effects_peeked"        # deck index of the Event chosen by event_peek: replace
CTX: dict[str, int] = {ACTIVE: -1, COUNT: 0, BENEFITS_ADDED: 0, EVENT_CARD: -1,
                       EVENT_CHOICE: -1, UNITS: 0, PROVIDE: -1, PEEKED: -1,
                       **{k: 0 for k in (*DRAWN, *NEED, *BUNDLE)}}


# -- the node table ------------------------------------------------------------------------------
NODES: list[Mapping[str, Any]] = []
CHILDREN: list[tuple[int, ...]] = []  # seq effects, choice options, optional effect, if then/else
MODS: list[Mapping[str, Any]] = []    # a basic node's modifiers (empty for other nodes)
CARD_NODES: list[list[tuple[int, ...]]] = [[], [], [], []]  # [cls][design] -> top-level nodes
EVENT_NODE: list[int] = []            # [event] -> its task node
_EFFECT_LOSS: list[list[bool]] = [[], [], [], []]  # [cls][design]: an Extra Tax in its effect
EVENTS: list[C.Event] = []            # cards.EVENTS, then any Event added by ``add_event``


def _index(node: Mapping[str, Any]) -> int:
    """Add ``node`` and its sub-nodes to the table; its id."""
    nid = len(NODES)
    NODES.append(node)
    CHILDREN.append(())
    MODS.append(EMPTY)
    op = node["op"]
    if op in ("seq", "choice"):
        kids = tuple(_index(child) for child in node["effects" if op == "seq" else "options"])
    elif op == "optional":
        kids = (_index(node["effect"]),)
    elif op == "if":
        kids = (_index(node["then"]), _index(node["else"]) if "else" in node else -1)
    else:
        kids = ()
    CHILDREN[nid] = kids
    if op == "basic":
        MODS[nid] = MappingProxyType({k: v for k, v in node.items() if k not in ("op", "action")})
    return nid


def _build_table() -> None:
    for cls, role in enumerate(C.ROLES):
        CARD_NODES[cls] = [tuple(_index(node) for node in card.effects)
                           for card in C.ACTION_CARDS[role]]
        _EFFECT_LOSS[cls] = [any(_extra_tax_inside(nid) for nid in nids)
                             for nids in CARD_NODES[cls]]
    for event in C.EVENTS:
        add_event(event)


def _extra_tax_inside(nid: int) -> bool:
    """Whether node ``nid`` may run an Extra Tax, the one effect of a card that lowers
    Legitimacy tracks the State does not choose (``symbols_fit``)."""
    node = NODES[nid]
    return (node["op"] == "basic" and node["action"] == "extra_tax") or any(
        _extra_tax_inside(k) for k in CHILDREN[nid] if k >= 0)


def add_event(event: C.Event) -> int:
    """Index an Event's task (the decks' at import; a test's hand-made one); its index."""
    EVENTS.append(event)
    EVENT_NODE.append(_index(event.task))
    if event.task["op"] == "build_for":
        _build_for_node(event.task["min_cost"])
    return len(EVENTS) - 1


def add_node(node: Mapping[str, Any], role: str) -> int:
    """Check a hand-made effect node against the vocabulary (``cards.validate_effect``) and
    index it; its id, for ``(RUN, seat, id)`` items."""
    C.validate_effect(node, role, "node")
    return _index(node)


# Synthetic basic nodes for the Event tasks that run another class's basic action: the builder's
# Build Company paid by the State from what it holds, at a least cost (``min_cost``,
# ``state_cash_only``: modifiers only these nodes carry); the proposer's bill with the State
# deciding the immediate vote.
BUILD_FOR_NODE: dict[int, int] = {}
PROPOSE_FOR_NODE = _index(MappingProxyType({"op": "basic", "action": "propose_bill",
                                            "immediate_decider": ST}))


def _build_for_node(min_cost: int) -> int:
    if min_cost not in BUILD_FOR_NODE:
        BUILD_FOR_NODE[min_cost] = _index(MappingProxyType(
            {"op": "basic", "action": "build_company", "payer": "state", "min_cost": min_cost,
             "state_cash_only": True}))
    return BUILD_FOR_NODE[min_cost]


_build_table()


# -- modifiers, read by the modules -------------------------------------------------------------
def active_mods(st: HegemonyState) -> Mapping[str, Any]:
    """The modifiers of the card's basic action under way (empty outside one)."""
    nid = st.ctx.get(ACTIVE, -1)
    return MODS[nid] if nid >= 0 else EMPTY


def mod(st: HegemonyState, name: str, default: Any = None) -> Any:
    """One modifier of the basic action under way, or ``default``."""
    nid = st.ctx.get(ACTIVE, -1)
    return MODS[nid].get(name, default) if nid >= 0 else default


def purchase_price(st: HegemonyState, full: int) -> int:
    """What the buyer itself pays for a purchase whose full price is ``full`` under the active
    modifiers: ``cost_delta`` (never below 0), ``price_factor`` (rounded up), ``payer: state``
    (nothing)."""
    mods = active_mods(st)
    if not mods:
        return full
    full = max(0, full + mods.get("cost_delta", 0))
    if mods.get("payer") == "state":
        return 0
    factor = mods.get("price_factor")
    return full if factor is None else math.ceil(Fraction(str(factor)) * full)


def can_afford_purchase(st: HegemonyState, buyer: int, full: int) -> bool:
    """Whether ``buyer`` may make a purchase of full price ``full`` under the active modifiers:
    it is at least ``min_cost`` (an Event's build_for), the buyer can pay its own share without
    a loan, and for an Event the State can pay its share from what it holds."""
    mods = active_mods(st)
    if not mods:
        return money.can_pay(st, buyer, full)
    if full < mods.get("min_cost", 0):
        return False
    own = purchase_price(st, full)
    if not money.can_pay(st, buyer, own):
        return False
    rest = max(0, full + mods.get("cost_delta", 0)) - own
    return not mods.get("state_cash_only") or money.can_pay(st, ST, rest)


def pay_purchase(st: HegemonyState, buyer: int, full: int, to: int = money.SUPPLY) -> None:
    """Pay for a purchase of full price ``full`` to ``to`` under the active modifiers: the buyer
    pays ``purchase_price`` (optional: the caller checked it can); the treasury pays the rest when
    ``state_pays_rest`` or ``payer: state`` (forced); otherwise the seller receives only what the
    buyer paid.  A State seller paying itself the rest moves nothing (and takes no loan)."""
    mods = active_mods(st)
    own = purchase_price(st, full)
    money.pay(st, buyer, own, to)
    rest = max(0, full + mods.get("cost_delta", 0)) - own
    if rest > 0 and to != ST and (mods.get("state_pays_rest") or mods.get("payer") == "state"):
        money.pay(st, ST, rest, to, forced=True)


# -- amounts, filters and requirements (pure functions of the state) ----------------------------
def companies(st: HegemonyState, cls: int, flt: Mapping[str, Any] | None) -> list[int]:
    """Seats of the present companies matching a company filter (default owner: ``cls``)."""
    flt = flt or EMPTY
    owners = [OWNER_OF[o] for o in flt["owner"]] if "owner" in flt else [cls]
    seats = [s for owner in owners for s in board.companies_of(st, owner)]
    if "industry" in flt:
        wanted = {INDUSTRY_OF[i] for i in flt["industry"]}
        seats = [s for s in seats if D.COMPANIES[st.seat_card[s]].industry in wanted]
    if "operational" in flt:
        seats = [s for s in seats if board.is_operational(st, s) == flt["operational"]]
    if "with_wc_employee" in flt:
        seats = [s for s in seats if board.has_employee(st, s) == flt["with_wc_employee"]]
    return seats


def _unemployed(st: HegemonyState, cls: int) -> int:
    if cls == ST:
        return sum(st.unemployed[WC]) + sum(st.unemployed[MC])
    return sum(st.unemployed[cls]) if cls in (WC, MC) else 0


def _agenda_matches(st: HegemonyState) -> int:
    if not 0 <= st.agenda_card < len(C.AGENDAS):
        return 0
    target = C.AGENDAS[st.agenda_card].target
    return sum(1 for p in range(5) if target[f"p{p + 1}"] == "ABC"[st.policies[p]])


def term(st: HegemonyState, cls: int, name: str, flt: Mapping[str, Any] | None = None) -> int:
    """One ``FORMULA_TERMS`` count, for class ``cls``."""
    if name == "population":
        return board.population(st, cls) if cls in (WC, MC) else 0
    if name == "employed":
        if cls not in (WC, MC):
            return 0
        owners = {OWNER_OF[o] for o in flt["owner"]} if flt and "owner" in flt else None
        return sum(1 for seat, row in enumerate(st.seat_workers)
                   if owners is None or board.seat_owner(seat) in owners
                   for w in row if w != NO_WORKER and worker_class(w) == cls)
    if name == "unemployed":
        return _unemployed(st, cls)
    if name == "companies":
        return len(companies(st, cls, flt))
    if name == "union":
        return sum(st.unions)
    if name == "agenda_match":
        return _agenda_matches(st)
    if name == "loan":
        return st.loans[cls]
    if name == "public_company":
        return len(board.companies_of(st, ST))
    raise AssertionError(f"unknown formula term {name}")


def _rounded(value: Fraction, how: str | None) -> int:
    return math.ceil(value) if how == "up" else math.floor(value)


def amount(st: HegemonyState, cls: int, value: Any, seat: int = -1) -> int:
    """An amount (int or formula) for class ``cls``; ``seat``: the company a cost share is of."""
    if isinstance(value, int):
        return value
    if "per" in value:
        x = _rounded(Fraction(value.get("times", 1) * term(st, cls, value["per"],
                                                             value.get("filter")),
                              value.get("divide", 1)), value.get("round"))
        if "min" in value:
            x = max(x, value["min"])
        if "max" in value:
            x = min(x, value["max"])
        return x
    if "lookup" in value:
        return value["values"][st.policies[int(value["lookup"][1:]) - 1]]
    cost = D.COMPANIES[st.seat_card[seat]].cost if seat >= 0 else 0
    return _rounded(Fraction(str(value["fraction_of_cost"])) * cost, value.get("round"))


def requirement(st: HegemonyState, cls: int, req: Mapping[str, Any]) -> bool:
    """Whether one ``REQUIREMENTS`` entry holds for class ``cls``."""
    (name, arg), = req.items()
    if name == "policy_in":
        return any(st.policies[int(s[0]) - 1] == "ABC".index(s[1]) for s in arg)
    if name == "round_at_least":
        return st.round >= arg
    if name == "unemployed_at_least":
        return _unemployed(st, cls) >= arg
    if name == "pending_bills_at_least":
        return sum(1 for b in st.bills if b >= 0) >= arg
    if name == "has_loan":
        return (st.loans[cls] > 0) == arg
    if name == "companies_at_least":
        return len(companies(st, cls, arg)) >= arg["n"]
    raise AssertionError(f"unknown requirement {name}")


# -- what a class holds, gains and gives -----------------------------------------------------------
def stock(st: HegemonyState, cls: int, res: str) -> int:
    """What ``cls`` holds of ``res`` that it could pay or give (money: cash)."""
    if res == "money":
        return money.cash(st, cls)
    if res in GOOD_OF:
        g = GOOD_OF[res]
        if cls == WC:
            return st.goods[WC][g]
        if cls == MC:
            return st.goods[MC][g] + st.mc_storage[g]
        if cls == CC:
            return st.cc_storage[g]
        return st.state_goods[g] if g < 2 else st.public_services[g - 2]
    if res == "influence" or (res == "media_influence" and cls != ST):
        return st.influence[cls]
    if res == "media_influence":
        return st.public_services[2]
    return st.bag[cls] if cls < 3 else 0  # cubes


def _take(st: HegemonyState, cls: int, res: str, n: int) -> None:
    """Remove ``n`` (held) of a non-money ``res`` from ``cls``."""
    if res in GOOD_OF:
        g = GOOD_OF[res]
        if cls == MC:
            from_goods = min(n, st.goods[MC][g])
            st.goods[MC][g] -= from_goods
            st.mc_storage[g] -= n - from_goods
        elif cls == WC:
            st.goods[WC][g] -= n
        elif cls == CC:
            st.cc_storage[g] -= n
        elif g < 2:
            st.state_goods[g] -= n
        else:
            st.public_services[g - 2] -= n
    elif res == "influence" or (res == "media_influence" and cls != ST):
        st.influence[cls] -= n
    elif res == "media_influence":
        st.public_services[2] -= n
    else:  # own cubes out of the bag, back to the supply
        st.bag[cls] -= n
        st.cube_supply[cls] += n


def _state_room(st: HegemonyState, good: int) -> int:
    """Room on the State board (food, lux) or in Public Services (health, edu, media 4)."""
    if good < 2:
        return max(0, storage.state_goods_cap(st, good) - st.state_goods[good])
    service = good - 2
    room = storage.public_service_cap(st, service) - st.public_services[service]
    if service == 2:
        room = min(room, board.influence_supply(st))
    return max(0, room)


def receive_good(st: HegemonyState, cls: int, good: int, n: int) -> None:
    """Goods a class gains: WC / MC Goods & Services, CC Storage then FTZ, the State's board
    or Public Services (capped); overflow is lost."""
    if n <= 0:
        return
    if cls in (WC, MC):
        st.goods[cls][good] += n
    elif cls == CC:
        storage.store(st, CC, good, n, ftz=True)
    elif good < 2:
        st.state_goods[good] += min(n, _state_room(st, good))
    else:
        st.public_services[good - 2] += min(n, _state_room(st, good))


def _receive(st: HegemonyState, cls: int, res: str, n: int) -> None:
    """``cls`` gains ``n`` of a non-money ``res`` (influence and cubes capped by the supply)."""
    if res in GOOD_OF:
        receive_good(st, cls, GOOD_OF[res], n)
    elif res == "influence" or (res == "media_influence" and cls != ST):
        board.gain_influence(st, cls, n)
    elif res == "media_influence":
        st.public_services[2] += min(n, _media_room(st))
    elif cls < 3:
        moved = max(0, min(n, st.cube_supply[cls]))
        st.cube_supply[cls] -= moved
        st.bag[cls] += moved


def _media_room(st: HegemonyState) -> int:
    return _state_room(st, 4)


# -- composition and dispatch -------------------------------------------------------------------
def playable(st: HegemonyState, cls: int, design: int) -> bool:
    """The card's requirement holds and its effect can be carried out now."""
    card = C.ACTION_CARDS[C.ROLES[cls]][design]
    if st.round < card.min_round:
        return False
    if card.requirement is not None and not requirement(st, cls, card.requirement):
        return False
    if cls == ST and card.legitimacy and not symbols_fit(st, cls, design):
        return False
    return _all_can(st, cls, CARD_NODES[cls][design])


def symbols_fit(st: HegemonyState, cls: int, design: int) -> bool:
    """Decision #54 (§2.2, #23): a State card whose Legitimacy symbols would take a track below
    1 is illegal, never clamped (the other classes' symbols are imposed on the State: they
    clamp).  The symbols apply after the effect, so a loss the effect itself
    may cause first (an Extra Tax inside the card, ``_EFFECT_LOSS``) is counted as the worst
    case: the card is offered only if the track stays at 1 or more however the effect goes."""
    if len(st.vp) != 4:  # the symbols apply at 4 players only
        return True
    card = C.ACTION_CARDS[C.ROLES[cls]][design]
    loss = _EFFECT_LOSS[cls][design]
    for name, n in card.legitimacy.items():
        target = CLASS_OF[name]
        worst = n - (1 if loss and _may_lose_extra_tax(st, target) else 0)
        if worst < 0 and st.legitimacy[target] + worst < D.LEGITIMACY_MIN:
            return False
    return True


def _may_lose_extra_tax(st: HegemonyState, target: int) -> bool:
    """An Extra Tax takes 1 from the two lowest tracks, the State breaking ties (§3.15): it may
    take ``target``'s unless two other classes stand lower."""
    lower = sum(1 for c in (WC, MC, CC) if c != target and st.legitimacy[c] < st.legitimacy[target])
    return lower < 2


def start_card(st: HegemonyState, cls: int, design: int) -> None:
    """Push the card's effects, then its legitimacy symbols (after the effect, §2.2)."""
    card = C.ACTION_CARDS[C.ROLES[cls]][design]
    items = [(RUN, cls, nid) for nid in CARD_NODES[cls][design]]
    if card.legitimacy:
        items.append((LEGITIMACY, cls, design))
    st.push(*items)


def _all_can(st: HegemonyState, cls: int, nids: tuple[int, ...]) -> bool:
    """Every node can be done in order: each is checked with the money the fixed costs before
    it (``_cost``) will have taken set aside, so a cost cannot use what a later effect needs.
    (A check puts back any money it sets aside, so the class's cash is read once.)"""
    cash = money.cash(st, cls)
    spent = 0
    for nid in nids:
        if spent > cash:
            return False
        if not (_can_after(st, cls, nid, spent) if spent else can(st, cls, nid)):
            return False
        if _costs_money(nid):
            spent += _cost(st, cls, nid)
    return spent <= cash


_COSTS_MONEY: dict[int, bool] = {}


def _costs_money(nid: int) -> bool:
    """Whether ``_cost`` of node ``nid`` can be other than 0 (read once per node: its data
    never changes)."""
    costs = _COSTS_MONEY.get(nid)
    if costs is None:
        node = NODES[nid]
        op = node["op"]
        if op == "seq":
            costs = any(_costs_money(k) for k in CHILDREN[nid])
        else:
            costs = ((op == "pay" and node["res"] == "money")
                     or (op in ("machinery", "prosperity") and "cost" in node)
                     or (op == "storage" and node.get("cost", 0) != 0))
        _COSTS_MONEY[nid] = costs
    return costs


def _can_after(st: HegemonyState, cls: int, nid: int, spent: int) -> bool:
    """``can`` with ``spent`` of the class's money set aside for a moment (CC: Revenue, then
    Capital, as it pays)."""
    global TURN_MEMO
    from_money = min(spent, st.money[cls])
    from_capital = spent - from_money if cls == CC else 0
    st.money[cls] -= from_money
    st.capital -= from_capital
    memo, TURN_MEMO = TURN_MEMO, None  # the position differs while the money is aside
    try:
        return can(st, cls, nid)
    finally:
        TURN_MEMO = memo
        st.money[cls] += from_money
        st.capital += from_capital


def _cost(st: HegemonyState, cls: int, nid: int) -> int:
    """The money a node surely costs ``cls`` as optional spending (for the sum check)."""
    node = NODES[nid]
    op = node["op"]
    if op == "pay" and node["res"] == "money":
        return amount(st, cls, node["amt"])
    if op in ("machinery", "prosperity") and "cost" in node:
        return amount(st, cls, node["cost"])
    if op == "storage":
        return node.get("cost", 0)
    if op == "seq":
        return sum(_cost(st, cls, k) for k in CHILDREN[nid])
    return 0


def can(st: HegemonyState, cls: int, nid: int) -> bool:
    """Whether node ``nid`` can be carried out now by ``cls``."""
    node = NODES[nid]
    op = node["op"]
    check = CAN.get(op)  # a leaf effect (the usual case); the composition ops follow
    if check is not None:
        return check(st, cls, nid)
    if op == "seq":
        return _all_can(st, cls, CHILDREN[nid])
    if op == "choice":
        return any(can(st, cls, k) for k in CHILDREN[nid])
    if op == "optional":
        return True
    if op == "if":
        then, other = CHILDREN[nid]
        if requirement(st, cls, node["cond"]):
            return can(st, cls, then)
        return other < 0 or can(st, cls, other)
    return CAN[op](st, cls, nid)


def _run(st: HegemonyState, item: Item) -> None:
    cls, nid = item[1], item[2]
    node = NODES[nid]
    op = node["op"]
    if op == "seq":
        st.push(*[(RUN, cls, k) for k in CHILDREN[nid]])
    elif op == "choice":
        st.push((CHOOSE, cls, nid))
    elif op == "optional":
        st.push((OPTIONAL, cls, nid))
    elif op == "if":
        then, other = CHILDREN[nid]
        branch = then if requirement(st, cls, node["cond"]) else other
        if branch >= 0:
            st.push((RUN, cls, branch))
    elif CAN[op](st, cls, nid):  # skipped if an earlier effect made it impossible
        DO[op](st, cls, nid)


def _legal_choose(st: HegemonyState, item: Item) -> list[int]:
    option = blocks(item[1]).option
    return [option + k for k, child in enumerate(CHILDREN[item[2]]) if can(st, item[1], child)]


def _apply_choose(st: HegemonyState, item: Item, action: int) -> None:
    st.agenda.pop()
    st.push((RUN, item[1], CHILDREN[item[2]][action - blocks(item[1]).option]))


def _legal_optional(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    return [b.YES, b.NO] if can(st, item[1], CHILDREN[item[2]][0]) else [b.NO]


def _apply_optional(st: HegemonyState, item: Item, action: int) -> None:
    st.agenda.pop()
    if action == blocks(item[1]).YES:
        st.push((RUN, item[1], CHILDREN[item[2]][0]))


def _legitimacy_symbols(st: HegemonyState, item: Item) -> None:
    """§2.2: the card's symbols, after its effect (4 players only).  Another class's symbols
    clamp to the track; the State's own never need to (``symbols_fit`` made the card legal
    only if they fit)."""
    if len(st.vp) != 4:
        return
    card = C.ACTION_CARDS[C.ROLES[item[1]]][item[2]]
    for name, n in card.legitimacy.items():
        change_legitimacy(st, CLASS_OF[name], n)


def change_legitimacy(st: HegemonyState, cls: int, n: int) -> None:
    st.legitimacy[cls] = max(D.LEGITIMACY_MIN, min(D.LEGITIMACY_MAX, st.legitimacy[cls] + n))


# -- basic ---------------------------------------------------------------------------------------
def _basic_pair(nid: int):
    action = NODES[nid]["action"]
    return phase_rules.rule("basic_actions").get(BASIC_NAME.get(action, action))


def _with_active(st: HegemonyState, nid: int, check: Callable[[], bool]) -> bool:
    before = st.ctx.get(ACTIVE, -1)
    st.ctx[ACTIVE] = nid
    try:
        return check()
    finally:
        st.ctx[ACTIVE] = before


def _propose_args(mods: Mapping[str, Any]) -> dict[str, Any]:
    """``politics.push_propose``'s keywords for a propose_bill node's modifiers."""
    policies = sum(1 << int(p[1:]) - 1 for p in mods["policy_filter"]) \
        if "policy_filter" in mods else (1 << D.POLICIES) - 1
    return {"policies": policies, "any_section": bool(mods.get("any_section")),
            "free_vote": bool(mods.get("free_immediate_vote")),
            "n_bills": mods.get("n_bills", 1), "preview": "preview_cubes" in mods,
            "vote_decider": mods.get("immediate_decider")}


# While the turn menu is built (``turn.main_actions_legal``), the position does not change, so a
# basic action's legality under the same modifiers is computed once: ``TURN_MEMO`` maps
# (class, action, modifiers) to it, and is None outside the menu and while money is set aside.
TURN_MEMO: dict[tuple, bool] | None = None


_MODS_KEYS: dict[int, tuple] = {}


def _mods_key(nid: int) -> tuple:
    """(action, modifiers) of a basic node, made once per node (its data never changes)."""
    key = _MODS_KEYS.get(nid)
    if key is None:
        key = _MODS_KEYS[nid] = (NODES[nid]["action"], repr(sorted(MODS[nid].items())))
    return key


def _any_value(value: Any) -> bool:
    return True


# Modifiers that only widen a basic action or leave its legality alone, so the action under
# them is legal whenever the plain one is (each read by the module's ``can`` as stated, or only
# when the action runs): more placements or a worker placed back (Assign Workers), a lower price
# (Build Company, Lobby), more offers (Sell to the Foreign Market), and what only the running
# action reads (repeats, the market refill, strike tokens per union, a bonus per sale, and how a
# proposed bill is voted or placed: ``politics.can_propose`` reads only a ``policy_filter``).
WIDENING: dict[str, dict[str, Callable[[Any], bool]]] = {
    "assign_workers": {"max_workers": lambda v: v == "any" or v >= D.ASSIGN_MAX_WORKERS,
                       "allow_reassign": _any_value},
    "build_company": {"cost_delta": lambda v: v <= 0, "count": _any_value,
                      "market_refill": _any_value},
    "lobby": {"cost_delta": lambda v: v <= 0},
    "strike": {"extra_strike_tokens": _any_value},
    "sell_foreign": {"extra_offers": _any_value, "txn_bonus_from_state": _any_value},
    "extra_shift": {"count": _any_value},
    "propose_bill": {"free_immediate_vote": _any_value, "preview_cubes": _any_value,
                     "n_bills": _any_value, "immediate_decider": _any_value,
                     "any_section": _any_value},
}
_WIDENS: dict[int, bool] = {}


def _widens(nid: int) -> bool:
    """Every modifier of basic node ``nid`` is one of ``WIDENING``'s for its action."""
    widens = _WIDENS.get(nid)
    if widens is None:
        allowed = WIDENING.get(NODES[nid]["action"], {})
        widens = _WIDENS[nid] = all(name in allowed and allowed[name](value)
                                    for name, value in MODS[nid].items())
    return widens


def can_basic_as(st: HegemonyState, cls: int, nid: int) -> bool:
    """The basic action of node ``nid`` is legal for ``cls`` under its modifiers."""
    memo = TURN_MEMO
    if memo is not None:
        key = (cls, *_mods_key(nid))
        if key in memo:
            return memo[key]
        if memo.get((cls, key[1], "[]")) and _widens(nid):  # the plain action is legal
            memo[key] = True
            return True
    if NODES[nid]["action"] == "propose_bill":
        result = phase_rules.rule("can_propose")(st, cls, _propose_args(MODS[nid])["policies"])
    else:
        pair = _basic_pair(nid)
        result = pair is not None and _with_active(st, nid, lambda: pair[0](st, cls))
    if memo is not None:
        memo[key] = result
    return result


def start_basic_as(st: HegemonyState, cls: int, nid: int) -> None:
    """Run the basic action of node ``nid`` for ``cls`` (no card discarded), its node active."""
    st.push((END_BASIC, cls, st.ctx.get(ACTIVE, -1)))
    st.ctx[ACTIVE] = nid
    if NODES[nid]["action"] == "propose_bill":  # politics takes the modifiers as arguments
        phase_rules.rule("push_propose")(st, cls, **_propose_args(MODS[nid]))
        return
    pair = _basic_pair(nid)
    assert pair is not None
    if MODS[nid].get("count", 1) > 1:
        st.push((AGAIN, cls, MODS[nid]["count"] - 1))
    pair[1](st, cls)


def _can_basic(st: HegemonyState, cls: int, nid: int) -> bool:
    return can_basic_as(st, cls, nid)


def _do_basic(st: HegemonyState, cls: int, nid: int) -> None:
    start_basic_as(st, cls, nid)


def _again(st: HegemonyState, item: Item) -> None:
    """``count`` / ``n_bills``: the action once more, if it is still legal."""
    pair = _basic_pair(st.ctx[ACTIVE])
    if pair is not None and pair[0](st, item[1]):
        if item[2] > 1:
            st.push((AGAIN, item[1], item[2] - 1))
        pair[1](st, item[1])


def _end_basic(st: HegemonyState, item: Item) -> None:
    """After the action: the market refill / the deck shuffle, then the node before it."""
    mods = active_mods(st)
    cls = item[1]
    if mods.get("market_refill") or mods.get("search_deck"):
        deck, market = (st.cc_deck, st.cc_market) if cls == CC else (st.mc_deck, st.mc_market)
        if mods.get("search_deck"):
            st.rng.shuffle(deck)
        if mods.get("market_refill"):
            size = D.MARKET_SIZE["cc" if cls == CC else "mc"]
            while len(market) < size and deck:
                market.append(deck.pop())
    st.ctx[ACTIVE] = item[2]


# -- gain, pay, state payout, vp -------------------------------------------------------------------
def _party(name: str) -> int:
    return money.SUPPLY if name == "supply" else ST if name == "treasury" else CLASS_OF[name]


def _always(st: HegemonyState, cls: int, nid: int) -> bool:
    return True


def _can_gain(st: HegemonyState, cls: int, nid: int) -> bool:
    return not (NODES[nid]["res"] == "cubes" and cls == ST)


def _do_gain(st: HegemonyState, cls: int, nid: int) -> None:
    node = NODES[nid]
    res, n, source = node["res"], amount(st, cls, node["amt"]), _party(node["from"])
    if n <= 0 or source == cls:
        return
    if res == "money":
        if source == money.SUPPLY:
            money.gain(st, cls, n)
        else:
            money.pay(st, source, n, cls, forced=True)
        return
    if source != money.SUPPLY and res != "cubes":
        n = min(n, stock(st, source, res))
        _take(st, source, res, n)
    _receive(st, cls, res, n)


def _can_pay(st: HegemonyState, cls: int, nid: int) -> bool:
    node = NODES[nid]
    return stock(st, cls, node["res"]) >= amount(st, cls, node["amt"])


def _do_pay(st: HegemonyState, cls: int, nid: int) -> None:
    node = NODES[nid]
    res, n, to = node["res"], amount(st, cls, node["amt"]), _party(node["to"])
    if n <= 0:
        return
    if res == "money":
        money.pay(st, cls, n, to)
        return
    _take(st, cls, res, n)
    if to != money.SUPPLY and res != "cubes":
        _receive(st, to, res, n)


def _do_state_payout(st: HegemonyState, cls: int, nid: int) -> None:
    n = amount(st, cls, NODES[nid]["amt"])
    if n > 0:
        money.pay(st, ST, n, cls, forced=True)


def _do_vp(st: HegemonyState, cls: int, nid: int) -> None:
    board.score(st, cls, amount(st, cls, NODES[nid]["n"]), "cards")


def _do_add_cubes(st: HegemonyState, cls: int, nid: int) -> None:
    _receive(st, cls, "cubes", amount(st, cls, NODES[nid]["amt"]))


def _do_revenue_to_capital(st: HegemonyState, cls: int, nid: int) -> None:
    node = NODES[nid]
    moved = _rounded(Fraction(str(node["fraction"])) * st.money[CC], node["round"])
    st.money[CC] -= moved
    st.capital += moved


# -- sell to the State ---------------------------------------------------------------------------
def _sell_max(st: HegemonyState, cls: int, nid: int) -> int:
    node = NODES[nid]
    g = GOOD_OF[node["res"]]
    held = st.mc_storage[g] if cls == MC else st.cc_storage[g]
    return min(node["max_n"], held, _state_room(st, g))


def _can_sell_to_state(st: HegemonyState, cls: int, nid: int) -> bool:
    return _sell_max(st, cls, nid) >= 1


def _do_sell_to_state(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((QTY, cls, nid))


def _qty_range(st: HegemonyState, cls: int, nid: int) -> tuple[int, int]:
    """The quantities a QTY decision offers for its node."""
    node = NODES[nid]
    op = node["op"]
    if op == "sell_to_state":
        return 1, _sell_max(st, cls, nid)
    if op == "spend":
        return 1, min(node["up_to"], stock(st, ST, node["res"]))
    return 1, _buy_from_players_max(st, st.ctx[PROVIDE], nid)  # buy_from_players


def _legal_qty(st: HegemonyState, item: Item) -> list[int]:
    low, high = _qty_range(st, item[1], item[2])
    qty = blocks(item[1]).qty
    return [qty + n for n in range(low, min(high, 12) + 1)]


def _apply_qty(st: HegemonyState, item: Item, action: int) -> None:
    cls, nid = item[1], item[2]
    n = action - blocks(cls).qty
    node = NODES[nid]
    op = node["op"]
    st.agenda.pop()
    if op == "sell_to_state":
        g = GOOD_OF[node["res"]]
        if cls == MC:
            st.mc_storage[g] -= n
        else:
            st.cc_storage[g] -= n
        receive_good(st, ST, g, n)
        money.pay(st, ST, n * node["unit_price"], cls, forced=True)
    elif op == "spend":
        _take(st, ST, node["res"], n)
        st.ctx[UNITS] += n
    else:  # buy_from_players
        seller = st.ctx[PROVIDE]
        g = GOOD_OF[node["res"]]
        money.pay(st, ST, n * board.price(st, seller, g), seller)
        _take_storage(st, seller, g, n)
        receive_good(st, ST, g, n)
        st.ctx[UNITS] += n


def _take_storage(st: HegemonyState, cls: int, good: int, n: int) -> None:
    if cls == MC:
        st.mc_storage[good] -= n
    else:
        st.cc_storage[good] -= n


# -- workers -------------------------------------------------------------------------------------
def _do_add_worker(st: HegemonyState, cls: int, nid: int) -> None:
    node = NODES[nid]
    owner, kind, n = CLASS_OF[node["class"]], node["kind"], node["n"]
    if kind == "skilled_choice":
        st.push((SKILL, owner, n))  # the owner chooses each industry
        return
    st.unemployed[owner][0 if kind == "unskilled" else 1 + INDUSTRY_OF[kind[8:]]] += n


def _legal_skill(st: HegemonyState, item: Item) -> list[int]:
    industry = blocks(item[1]).industry
    return [industry + i for i in range(len(D.INDUSTRIES))]


def _apply_skill(st: HegemonyState, item: Item, action: int) -> None:
    st.unemployed[item[1]][1 + action - blocks(item[1]).industry] += 1
    if item[2] > 1:
        st.agenda[-1] = (SKILL, item[1], item[2] - 1)
    else:
        st.agenda.pop()


def _can_remove_unemployed(st: HegemonyState, cls: int, nid: int) -> bool:
    return sum(st.unemployed[cls]) >= max(1, NODES[nid]["min_unemployed"])


def _do_remove_unemployed(st: HegemonyState, cls: int, nid: int) -> None:
    st.ctx[COUNT] = 0
    st.push((REMOVE, cls, nid))


def _legal_remove(st: HegemonyState, item: Item) -> list[int]:
    cls = item[1]
    b = blocks(cls)
    done = st.ctx[COUNT]
    legal = []
    if done < NODES[item[2]]["n"]:
        legal = [b.from_unemployed + k for k in range(KINDS) if st.unemployed[cls][k]]
    if done >= 1 or not legal:
        legal.append(b.DONE)
    return legal


def _apply_remove(st: HegemonyState, item: Item, action: int) -> None:
    cls = item[1]
    b = blocks(cls)
    if action == b.DONE:
        st.ctx[COUNT] = 0
        st.agenda.pop()
        return
    kind = action - b.from_unemployed
    node = NODES[item[2]]
    st.unemployed[cls][kind] -= 1
    money.gain(st, cls, node["pay_unskilled"] if kind == 0 else node["pay_skilled"])
    st.ctx[COUNT] += 1


def _can_upgrade(st: HegemonyState, cls: int, nid: int) -> bool:
    return bool(phase_rules.rule("retrain_sources")(st, cls))


def _do_upgrade(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((UPGRADE, cls, nid))


def _legal_upgrade(st: HegemonyState, item: Item) -> list[int]:
    """The workers Use Education could replace (§4.2)."""
    return phase_rules.rule("retrain_sources")(st, item[1])


def _apply_upgrade(st: HegemonyState, item: Item, action: int) -> None:
    """Remember where the worker is: arg = kind (unemployed) or KINDS + slot index."""
    b = blocks(item[1])
    source = action - b.from_unemployed if action < b.from_slot else \
        KINDS + action - b.from_slot
    st.agenda[-1] = (UPGRADE_TO, item[1], source)


def _legal_upgrade_to(st: HegemonyState, item: Item) -> list[int]:
    return phase_rules.rule("legal_retrain_industry")(st, item)


def _apply_upgrade_to(st: HegemonyState, item: Item, action: int) -> None:
    """As Use Education's replacement (§4.2), without its cost or Prosperity."""
    phase_rules.rule("apply_retrain")(st, item, action)


def _can_coop(st: HegemonyState, cls: int, nid: int) -> bool:
    return any(st.seat_card[s] < 0 for s in COOP_SEATS)


def _do_coop(st: HegemonyState, cls: int, nid: int) -> None:
    seat = next(s for s in COOP_SEATS if st.seat_card[s] < 0)
    st.seat_card[seat], st.seat_face_up[seat], st.seat_wage[seat] = D.COOP_FARM, 1, -1


# -- companies -------------------------------------------------------------------------------------
def _any_committed(st: HegemonyState, seat: int) -> bool:
    return any(st.seat_committed[seat][k] for k, w in enumerate(st.seat_workers[seat])
               if w != NO_WORKER)


def _free_seat(st: HegemonyState, seats: range) -> int:
    return next((s for s in seats if st.seat_card[s] < 0), -1)


def _public_seat(st: HegemonyState) -> int:
    """Where a nationalised company goes: an empty public space, else the space of a face-down
    public company (all 9 spaces hold public cards from set-up on; our reading, see the
    report), else -1."""
    free = _free_seat(st, PUBLIC_SEATS)
    if free >= 0:
        return free
    return next((s for s in PUBLIC_SEATS if not st.seat_face_up[s]), -1)


def _wage_target(st: HegemonyState, seat: int, level: str) -> int:
    """The level a set_wage would give ``seat``, or -1 if it cannot or would not change."""
    company = board.card(st, seat)
    if company is None or company.wages is None or not st.seat_face_up[seat]:
        return -1
    if company.sector == "mc" and board.employee_slot(st, seat) < 0:
        return -1
    least = board.min_wage_level(st)
    new = least if level == "min" else max(least, LEVEL_OF[level])
    current = st.seat_wage[seat]
    if new == current:
        return -1
    if new < current and _paid_committed(st, seat):
        return -1
    return new


def _paid_committed(st: HegemonyState, seat: int) -> bool:
    """A worker paid by the seat's wage is committed (MC: its employee)."""
    k = board.employee_slot(st, seat)
    if k >= 0:
        return bool(st.seat_workers[seat][k] != NO_WORKER and st.seat_committed[seat][k])
    return _any_committed(st, seat)


def _wage_seats(st: HegemonyState, cls: int, nid: int) -> list[int]:
    node = NODES[nid]
    which, level = node["company"], node["level"]
    if which.startswith("own"):
        seats = board.companies_of(st, cls)
    elif which.startswith("public"):
        seats = board.companies_of(st, ST)
    else:  # employer_one
        seats = [s for s in range(len(st.seat_card)) if board.is_present(st, s)
                 and any(w != NO_WORKER and worker_class(w) == cls
                         for w in st.seat_workers[s])]
    return [s for s in seats if _wage_target(st, s, level) >= 0]


def _producers(st: HegemonyState, cls: int, nid: int) -> list[int]:
    return [s for s in companies(st, cls, NODES[nid]["company_filter"])
            if board.is_operational(st, s) and not st.seat_strike[s]]


def _machinery_seats(st: HegemonyState) -> list[int]:
    return [s for s in board.companies_of(st, CC)
            if D.COMPANIES[st.seat_card[s]].machinery and not st.seat_machinery[s]]


def company_targets(st: HegemonyState, cls: int, nid: int) -> list[int]:
    """The seats a COMPANY decision of node ``nid`` offers."""
    node = NODES[nid]
    op = node["op"]
    if op == "sell_company":
        return [s for s in companies(st, cls, node.get("filter"))
                if board.seat_owner(s) == cls and not _any_committed(st, s)]
    if op == "transfer_company":
        if node["direction"] == "public_to_cc":
            if _free_seat(st, CC_SEATS) < 0:
                return []
            return [s for s in board.companies_of(st, ST)
                    if money.can_pay(st, CC, amount(st, cls, node["price"], s))]
        if _public_seat(st) < 0:
            return []
        return [s for s in board.companies_of(st, CC)
                if money.can_pay(st, ST, amount(st, cls, node["price"], s))]
    if op == "produce":
        return _producers(st, cls, nid)
    if op == "set_wage":
        return _wage_seats(st, cls, nid)
    raise AssertionError(f"no company targets for {op}")


def _can_company(st: HegemonyState, cls: int, nid: int) -> bool:
    return bool(company_targets(st, cls, nid))


def _do_company(st: HegemonyState, cls: int, nid: int) -> None:
    node = NODES[nid]
    if node["op"] == "set_wage" and node["company"].endswith("_all"):
        for seat in _wage_seats(st, cls, nid):
            st.seat_wage[seat] = _wage_target(st, seat, node["level"])
        return
    st.push((COMPANY, cls, nid))


def _legal_company(st: HegemonyState, item: Item) -> list[int]:
    company = blocks(item[1]).company
    return [company + s for s in company_targets(st, item[1], item[2])]


def _apply_company(st: HegemonyState, item: Item, action: int) -> None:
    cls, nid = item[1], item[2]
    seat = action - blocks(cls).company
    node = NODES[nid]
    op = node["op"]
    st.agenda.pop()
    if op == "sell_company":
        cost = D.COMPANIES[st.seat_card[seat]].cost
        phase_rules.rule("sell_company")(st, cls, seat)
        price = math.floor(Fraction(str(node["price_factor"])) * cost)
        if price < cost:
            money.pay(st, cls, cost - price)
        elif price > cost:
            money.gain(st, cls, price - cost)
    elif op == "transfer_company":
        price = amount(st, cls, node["price"], seat)
        if node["direction"] == "public_to_cc":
            money.pay(st, CC, price, ST)
            move_company(st, seat, _free_seat(st, CC_SEATS))
            storage.discard_state_excess(st)  # #47: the State's cap lost the company
        else:
            money.pay(st, ST, price, CC)
            st.seat_machinery[seat] = 0
            to = _public_seat(st)
            if st.seat_card[to] >= 0:  # a face-down public card makes room: it leaves the game
                st.company_discard.append(st.seat_card[to])
                st.seat_card[to] = -1
            move_company(st, seat, to)
    elif op == "produce":
        produce(st, seat, node["wage_payer"])
    else:  # set_wage, one company
        st.seat_wage[seat] = _wage_target(st, seat, node["level"])


def move_company(st: HegemonyState, seat: int, to: int) -> None:
    """Move a company with its workers, commitment, wage and tokens to an empty seat."""
    for field in ("seat_card", "seat_wage", "seat_machinery", "seat_strike", "seat_face_up"):
        values = getattr(st, field)
        values[to] = values[seat]
    st.seat_workers[to] = st.seat_workers[seat]
    st.seat_committed[to] = st.seat_committed[seat]
    st.seat_workers[seat] = [NO_WORKER] * MAX_SLOTS
    st.seat_committed[seat] = [0] * MAX_SLOTS
    st.seat_card[seat], st.seat_wage[seat], st.seat_face_up[seat] = -1, -1, 0
    st.seat_machinery[seat] = st.seat_strike[seat] = 0
    st.seat_face_up[to] = 1


def produce(st: HegemonyState, seat: int, wage_payer: str) -> None:
    """One extra production of an operational company, delivered as at Production (§6.1)."""
    company = board.card(st, seat)
    assert company is not None
    owner = board.seat_owner(seat)
    output = company.production
    wage = board.wage_amount(st, seat)
    if company.sector == "cc" and st.seat_machinery[seat]:
        output += company.machinery
    if company.sector == "mc":
        if board.has_employee(st, seat) and wage_payer != "none":
            if wage_payer == "state":
                money.pay(st, ST, wage, WC, forced=True)
                output += company.bonus
            elif money.can_pay(st, MC, wage):  # as Extra Shift: the bonus only if paid
                money.pay(st, MC, wage, WC)
                output += company.bonus
    elif wage_payer != "none" and wage > 0:
        staff = board.staff_class(st, seat)
        payer = ST if wage_payer == "state" else owner
        if staff >= 0 and staff != payer:
            money.pay(st, payer, wage, staff, forced=True)
    deliver(st, owner, company.industry, output)


def deliver(st: HegemonyState, owner: int, industry: int, output: int) -> None:
    """Output of a company of ``owner`` goes where Production puts it (§6.1)."""
    if owner == ST:
        if industry == MEDIA:
            st.public_services[2] += min(output, _media_room(st))
        else:
            receive_good(st, ST, industry, output)
    elif industry == MEDIA:
        board.gain_influence(st, owner, output)
    elif owner == WC:
        st.goods[WC][industry] += output
    else:
        storage.store(st, owner, industry, output, ftz=owner == CC)


def _can_machinery(st: HegemonyState, cls: int, nid: int) -> bool:
    return money.can_pay(st, cls, amount(st, cls, NODES[nid]["cost"]))


def _do_machinery(st: HegemonyState, cls: int, nid: int) -> None:
    node = NODES[nid]
    money.pay(st, cls, amount(st, cls, node["cost"]))
    st.ctx[COUNT] = min(node["n"], board.machinery_left(st))
    if st.ctx[COUNT]:
        st.push((MACHINERY, cls, nid))


def _legal_machinery(st: HegemonyState, item: Item) -> list[int]:
    company = blocks(item[1]).company
    return [company + s for s in _machinery_seats(st)]  # none: the tokens are lost (§5.6)


def _apply_machinery(st: HegemonyState, item: Item, action: int) -> None:
    st.seat_machinery[action - blocks(item[1]).company] = 1
    st.ctx[COUNT] -= 1
    if st.ctx[COUNT] <= 0:
        st.agenda.pop()


def _tile_goods(st: HegemonyState, nid: int) -> list[int]:
    if sum(st.storage_tiles) >= D.STORAGE_TILES:
        return []
    res = NODES[nid]["resource"]
    goods = range(4) if res == "choice" else (GOOD_OF[res],)
    return [g for g in goods if not st.storage_tiles[g]]


def _can_storage(st: HegemonyState, cls: int, nid: int) -> bool:
    return bool(_tile_goods(st, nid)) and money.can_pay(st, cls, NODES[nid].get("cost", 0))


def _do_storage(st: HegemonyState, cls: int, nid: int) -> None:
    money.pay(st, cls, NODES[nid].get("cost", 0))
    st.push((STORAGE_TILE, cls, nid))


def _legal_storage_tile(st: HegemonyState, item: Item) -> list[int]:
    resource = blocks(item[1]).resource
    return [resource + g for g in _tile_goods(st, item[2])]


def _apply_storage_tile(st: HegemonyState, item: Item, action: int) -> None:
    st.storage_tiles[action - blocks(item[1]).resource] = 1
    st.agenda.pop()


def _can_prosperity(st: HegemonyState, cls: int, nid: int) -> bool:
    node = NODES[nid]
    return money.can_pay(st, cls, amount(st, cls, node.get("cost", 0)))


def _do_prosperity(st: HegemonyState, cls: int, nid: int) -> None:
    node = NODES[nid]
    money.pay(st, cls, amount(st, cls, node.get("cost", 0)))
    for _ in range(node["steps"]):
        phase_rules.rule("gain_prosperity")(st, cls)


# -- the voting bag --------------------------------------------------------------------------------
def _draw_one(st: HegemonyState, counts: list[int]) -> int:
    """Draw one cube from ``counts`` (per class) at random; its class."""
    r = int(st.rng.integers(sum(counts)))
    for c, n in enumerate(counts):
        if r < n:
            counts[c] -= 1
            return c
        r -= n
    raise AssertionError("empty bag")


def _do_bag_purge(st: HegemonyState, cls: int, nid: int) -> None:
    """Draw; the drawn cubes stay counted in the bag until one is returned or all go back."""
    left = list(st.bag)
    drawn = [0, 0, 0]
    for _ in range(NODES[nid]["draw"]):
        if not sum(left):
            break
        drawn[_draw_one(st, left)] += 1
    for c in range(3):
        st.ctx[DRAWN[c]] = drawn[c] if c != cls else 0
    st.ctx[COUNT] = 0
    st.push((PURGE, cls, nid))


def _legal_purge(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    if st.ctx[COUNT] >= NODES[item[2]]["remove_up_to"]:
        return [b.DONE]
    return [*(getattr(b, "class") + c for c in range(3) if st.ctx[DRAWN[c]]), b.DONE]


def _apply_purge(st: HegemonyState, item: Item, action: int) -> None:
    b = blocks(item[1])
    if action == b.DONE:
        for key in DRAWN:
            st.ctx[key] = 0
        st.ctx[COUNT] = 0
        st.agenda.pop()
        return
    c = action - getattr(b, "class")
    st.ctx[DRAWN[c]] -= 1
    st.bag[c] -= 1
    st.cube_supply[c] += 1
    st.ctx[COUNT] += 1


def _do_bag_replace(st: HegemonyState, cls: int, nid: int) -> None:
    """Draw until k opponent cubes are out; each goes home and an own cube replaces it."""
    left = list(st.bag)
    out = 0
    while out < NODES[nid]["reveal_until_k_opponent_cubes"] and sum(left):
        c = _draw_one(st, left)
        if c == cls:
            continue  # set aside, back into the bag at the end
        out += 1
        st.bag[c] -= 1
        st.cube_supply[c] += 1
        if st.cube_supply[cls]:
            st.cube_supply[cls] -= 1
            st.bag[cls] += 1


# -- State: legitimacy, Events, policies -----------------------------------------------------------
def _legitimacy_classes(st: HegemonyState, nid: int) -> list[int]:
    node = NODES[nid]
    if node["op"] == "legitimacy_token":
        if sum(st.legit_tokens) >= D.LEGITIMACY_TOKENS:
            return []
        classes = range(3) if node["class"] == "chosen" else (CLASS_OF[node["class"]],)
        return list(classes)
    classes = range(3) if node["class"] == "chosen" else (CLASS_OF[node["class"]],)
    return [c for c in classes if st.legitimacy[c] + node["n"] >= D.LEGITIMACY_MIN]  # §12 #23


def _can_legitimacy(st: HegemonyState, cls: int, nid: int) -> bool:
    return bool(_legitimacy_classes(st, nid))


def _do_legitimacy(st: HegemonyState, cls: int, nid: int) -> None:
    if NODES[nid]["class"] == "chosen":
        st.push((CLASS, cls, nid))
    else:
        _legitimacy_to(st, nid, CLASS_OF[NODES[nid]["class"]])


def _legitimacy_to(st: HegemonyState, nid: int, target: int) -> None:
    node = NODES[nid]
    if node["op"] == "legitimacy_token":
        st.legit_tokens[target] += 1
        change_legitimacy(st, target, 1)  # a token gives +1 when gained (§8)
    else:
        change_legitimacy(st, target, node["n"])


def _legal_class(st: HegemonyState, item: Item) -> list[int]:
    first = getattr(blocks(item[1]), "class")
    node = NODES[item[2]]
    if node["op"] == "provide":
        return [first + c for c in _provide_targets(st, item[2])]
    return [first + c for c in _legitimacy_classes(st, item[2])]


def _apply_class(st: HegemonyState, item: Item, action: int) -> None:
    target = action - getattr(blocks(item[1]), "class")
    st.agenda.pop()
    if NODES[item[2]]["op"] == "provide":
        begin_provide(st, target, item[2])
    else:
        _legitimacy_to(st, item[2], target)


def _shift_targets(st: HegemonyState, nid: int) -> list[tuple[int, int]]:
    node = NODES[nid]
    found = []
    for sec in node["condition"]:
        p, s = int(sec[0]) - 1, "ABC".index(sec[1])
        current = st.policies[p]
        if st.bills[p] >= 0 or s == current:  # §12 #33: not a policy with a pending bill
            continue
        if node["adjacent"] and abs(s - current) != 1:
            continue
        found.append((p, s))
    return found


def _can_shift(st: HegemonyState, cls: int, nid: int) -> bool:
    return bool(_shift_targets(st, nid))


def _do_shift(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((SHIFT, cls, nid))


def _legal_shift(st: HegemonyState, item: Item) -> list[int]:
    bill = blocks(item[1]).bill
    return [bill + 3 * p + s for p, s in _shift_targets(st, item[2])]


def _apply_shift(st: HegemonyState, item: Item, action: int) -> None:
    policy, section = divmod(action - blocks(item[1]).bill, 3)
    st.agenda.pop()
    if not NODES[item[2]]["no_vp"]:
        board.score(st, item[1], D.BILL_PASS_VP, "bills")
    phase_rules.rule("change_policy")(st, policy, section, by_vote=False)


def _can_peek(st: HegemonyState, cls: int, nid: int) -> bool:
    if not st.event_deck:
        return False
    if NODES[nid]["place_or_replace"] == "place":
        return len(st.events) < EVENT_SLOTS  # each face-up Event needs an ``event`` index
    return bool(st.events)


def _do_peek(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((PEEK, cls, nid))


def _legal_peek(st: HegemonyState, item: Item) -> list[int]:
    qty = blocks(item[1]).qty
    return [qty + n for n in range(1, min(NODES[item[2]]["k"], len(st.event_deck)) + 1)]


def _apply_peek(st: HegemonyState, item: Item, action: int) -> None:
    """Take the n-th card from the top; the others keep their order."""
    index = len(st.event_deck) - (action - blocks(item[1]).qty)
    st.agenda.pop()
    if NODES[item[2]]["place_or_replace"] == "place":
        st.events.append(st.event_deck.pop(index))
    else:
        st.ctx[PEEKED] = index
        st.push((PEEK_SWAP, item[1], 0))


def _legal_peek_swap(st: HegemonyState, item: Item) -> list[int]:
    event = blocks(item[1]).event
    return [event + k for k in range(min(EVENT_SLOTS, len(st.events)))]


def _apply_peek_swap(st: HegemonyState, item: Item, action: int) -> None:
    """The peeked Event goes face up in place of the chosen one, which goes under the deck."""
    k = action - blocks(item[1]).event
    chosen = st.event_deck.pop(st.ctx[PEEKED])
    st.event_deck.insert(0, st.events[k])
    st.events[k] = chosen
    st.ctx[PEEKED] = -1
    st.agenda.pop()


def _can_event_action_times(st: HegemonyState, cls: int, nid: int) -> bool:
    return can_event_action(st, cls)


def _do_event_action_times(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((EVENT_AGAIN, ST, NODES[nid]["times"] - 1))
    start_event_action(st, ST)


def _event_again(st: HegemonyState, item: Item) -> None:
    if item[2] > 0 and can_event_action(st, ST):
        st.push((EVENT_AGAIN, ST, item[2] - 1))
        start_event_action(st, ST)


# -- provide (cards and Events) --------------------------------------------------------------------
def _bundle(st: HegemonyState, target: int, nid: int) -> list[int]:
    """The bundle's amounts for ``target``, in ``BENEFIT_SLOT`` order (formulas read for it)."""
    out = [0] * len(BENEFIT_SLOT)
    for res, value in NODES[nid]["bundle"].items():
        out[BENEFIT_SLOT[res]] = max(0, amount(st, target, value))
    return out


def _unit_offers(st: HegemonyState, good: int) -> list[tuple[int, int, int]]:
    """(source, unit price, units available) where the State may buy ``good`` (§3.13)."""
    offers = []
    if st.cc_storage[good]:
        offers.append((SRC_CC, board.price(st, CC, good), st.cc_storage[good]))
    if st.mc_storage[good]:
        offers.append((SRC_MC, board.price(st, MC, good), st.mc_storage[good]))
    if good < 2:
        offers.append((SRC_FOREIGN, D.FOREIGN_BASE[good], 1 << 30))
    return offers


def _cheapest(st: HegemonyState, good: int, n: int) -> int:
    """The least the State pays for ``n`` units of ``good`` (a large number if impossible)."""
    total = 0
    for _, unit, units in sorted(_unit_offers(st, good), key=lambda o: o[1]):
        take = min(n, units)
        total += take * unit
        n -= take
        if not n:
            return total
    return 1 << 40 if n else total


def _shortfall(st: HegemonyState, bundle: list[int]) -> list[int]:
    return [max(0, bundle[1 + g] - stock(st, ST, D.GOODS[g])) for g in range(4)]


def _provide_cost(st: HegemonyState, bundle: list[int]) -> int:
    need = _shortfall(st, bundle)
    return bundle[0] + sum(_cheapest(st, g, need[g]) for g in range(4) if need[g])


def _provide_ok(st: HegemonyState, target: int, nid: int) -> bool:
    """The State can pay for the bundle, and its influence comes from Media Influence, which
    the State cannot buy (decision #48)."""
    bundle = _bundle(st, target, nid)
    if bundle[5] > st.public_services[2]:
        return False
    return money.cash(st, ST) >= _provide_cost(st, bundle)


def _provide_classes(nid: int) -> tuple[int, ...]:
    """The classes a provide node may choose (every class for an Event's provide_to)."""
    node = NODES[nid]
    names = node["target_class_choice"] if node["op"] == "provide" else C.CLASSES
    return tuple(CLASS_OF[n] for n in names)


def _provide_targets(st: HegemonyState, nid: int) -> list[int]:
    return [cls for cls in _provide_classes(nid) if _provide_ok(st, cls, nid)]


def _can_provide(st: HegemonyState, cls: int, nid: int) -> bool:
    """``_provide_targets`` is not empty (stops at the first class)."""
    return any(_provide_ok(st, target, nid) for target in _provide_classes(nid))


def _do_provide(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((CLASS, ST, nid))


def begin_provide(st: HegemonyState, target: int, nid: int) -> None:
    """Use the State's own goods first, then buy the rest unit by unit, then put it all."""
    bundle = _bundle(st, target, nid)
    need = _shortfall(st, bundle)
    for k, n in enumerate(bundle):
        st.ctx[BUNDLE[k]] = n
    for g in range(4):
        own = bundle[1 + g] - need[g]
        if own:
            _take(st, ST, D.GOODS[g], own)
        st.ctx[NEED[g]] = need[g]
    st.ctx[PROVIDE] = target
    st.push(*[(PROVIDE_BUY, ST, g) for g in range(4) if need[g]], (PROVIDE_PUT, target, nid))


def _legal_provide_buy(st: HegemonyState, item: Item) -> list[int]:
    """Sources whose unit leaves what is still needed affordable (exact: cheapest-first)."""
    good = item[2]
    source = blocks(ST).source
    rest = st.ctx[BUNDLE[0]] + sum(_cheapest(st, g, st.ctx[NEED[g]])
                                   for g in range(4) if g != good)
    legal = []
    for src, unit, _ in _unit_offers(st, good):
        after = _after_unit(st, good, src)
        if money.cash(st, ST) >= rest + unit + after:
            legal.append(source + src)
    return legal


def _after_unit(st: HegemonyState, good: int, src: int) -> int:
    """The cheapest cost of the good's other needed units once one came from ``src``."""
    held = st.cc_storage if src == SRC_CC else st.mc_storage if src == SRC_MC else None
    if held is not None:
        held[good] -= 1
    try:
        return _cheapest(st, good, st.ctx[NEED[good]] - 1)
    finally:
        if held is not None:
            held[good] += 1


def _apply_provide_buy(st: HegemonyState, item: Item, action: int) -> None:
    good = item[2]
    src = action - blocks(ST).source
    if src == SRC_FOREIGN:
        money.pay(st, ST, D.FOREIGN_BASE[good])
    else:
        seller = CC if src == SRC_CC else MC
        money.pay(st, ST, board.price(st, seller, good), seller)
        _take_storage(st, seller, good, 1)
    st.ctx[NEED[good]] -= 1
    if not st.ctx[NEED[good]]:
        st.agenda.pop()


def _provide_put(st: HegemonyState, item: Item) -> None:
    """Into the Benefits area: it replaces what was there unless added in the same turn."""
    target = item[1]
    bundle = [st.ctx[key] for key in BUNDLE]
    area = st.benefits[target]
    if not st.ctx[BENEFITS_ADDED] >> target & 1:
        st.cube_supply[target] += area[6]  # replaced cubes go home; the rest is discarded
        area[:] = [0] * len(area)
    money.pay(st, ST, bundle[0])  # out of play until the class receives it (then minted)
    area[0] += bundle[0]
    for g in range(4):
        area[1 + g] += bundle[1 + g]
    influence = min(bundle[5], st.public_services[2])  # #48: from Media Influence
    st.public_services[2] -= influence
    area[5] += influence
    cubes = min(bundle[6], st.cube_supply[target])
    st.cube_supply[target] -= cubes
    area[6] += cubes
    st.ctx[BENEFITS_ADDED] |= 1 << target
    st.ctx[UNITS] += sum(bundle[1:5]) + influence + cubes
    for key in (*BUNDLE, *NEED):
        st.ctx[key] = 0


# -- the Event Action (§3.13) ----------------------------------------------------------------------
def _buy_from_players_max(st: HegemonyState, seller: int, nid: int) -> int:
    """Units the State can buy from ``seller`` (at its price, from its Storage)."""
    if seller not in (MC, CC):
        return 0
    node = NODES[nid]
    g = GOOD_OF[node["res"]]
    held = st.mc_storage[g] if seller == MC else st.cc_storage[g]
    unit = board.price(st, seller, g)
    return max(0, min(amount(st, seller, node["up_to"]), held, money.cash(st, ST) // unit))


def _build_for_ok(st: HegemonyState, target: int, min_cost: int) -> bool:
    if target not in (MC, CC):
        return False
    market = st.cc_market if target == CC else st.mc_market
    if _free_seat(st, board.SEATS_OF[target]) < 0:
        return False
    nid = _build_for_node(min_cost)
    if not _with_active(st, nid, lambda: any(can_afford_purchase(st, target, D.COMPANIES[c].cost)
                                             for c in market)):
        return False
    return can_basic_as(st, target, nid)


def option_ok(st: HegemonyState, event: int, k: int) -> bool:
    """Option ``k`` of Event ``event`` can be carried out in full now."""
    ev = EVENTS[event]
    task = ev.task
    op = task["op"]
    option = ev.options[k]
    target = CLASS_OF[option.cls] if option.cls is not None else -1
    nid = EVENT_NODE[event]
    if op == "provide_to":
        return _provide_ok(st, target, nid)
    if op == "spend":
        return stock(st, ST, task["res"]) >= 1
    if op == "spend_money":
        return money.cash(st, ST) >= task["tiers"][option.tier - 1]
    if op == "buy_from_players":
        return _buy_from_players_max(st, target, nid) >= 1
    if op == "build_for":
        return _build_for_ok(st, target, task["min_cost"])
    return can_basic_as(st, target, PROPOSE_FOR_NODE)  # propose_for


def _event_slots(st: HegemonyState, first: bool = False) -> list[int]:
    """Face-up Events (by place) with an option that can be carried out (``first``: stop at
    one)."""
    slots = []
    for k in range(min(EVENT_SLOTS, len(st.events))):
        if any(option_ok(st, st.events[k], j) for j in range(len(EVENTS[st.events[k]].options))):
            slots.append(k)
            if first:
                break
    return slots


def can_event_action(st: HegemonyState, cls: int) -> bool:
    return bool(_event_slots(st, first=True))


def start_event_action(st: HegemonyState, cls: int) -> None:
    st.push((EVENT, ST, 0))


def _legal_event(st: HegemonyState, item: Item) -> list[int]:
    event = blocks(ST).event
    return [event + k for k in _event_slots(st)]


def _apply_event(st: HegemonyState, item: Item, action: int) -> None:
    st.agenda[-1] = (EVENT_OPTION, ST, action - blocks(ST).event)


def _legal_event_option(st: HegemonyState, item: Item) -> list[int]:
    event = st.events[item[2]]
    option = blocks(ST).option
    return [option + j for j in range(len(EVENTS[event].options)) if option_ok(st, event, j)]


def _apply_event_option(st: HegemonyState, item: Item, action: int) -> None:
    """Carry out the task for the chosen option; the reward and discard come after it."""
    slot = item[2]
    event = st.events[slot]
    j = action - blocks(ST).option
    st.agenda.pop()
    st.ctx[EVENT_CARD], st.ctx[EVENT_CHOICE], st.ctx[UNITS] = event, j, 0
    st.push((EVENT_END, ST, slot))
    ev = EVENTS[event]
    task = ev.task
    op = task["op"]
    option = ev.options[j]
    target = CLASS_OF[option.cls] if option.cls is not None else -1
    st.ctx[PROVIDE] = target
    nid = EVENT_NODE[event]
    if op == "provide_to":
        begin_provide(st, target, nid)
    elif op == "spend":
        st.push((QTY, ST, nid))
    elif op == "spend_money":
        money.pay(st, ST, task["tiers"][option.tier - 1])
    elif op == "buy_from_players":
        st.push((QTY, ST, nid))
    elif op == "build_for":
        start_basic_as(st, target, _build_for_node(task["min_cost"]))
    else:
        start_basic_as(st, target, PROPOSE_FOR_NODE)


def _event_end(st: HegemonyState, item: Item) -> None:
    """Gain the option's reward, then discard the Event (§3.13)."""
    event, j = st.ctx[EVENT_CARD], st.ctx[EVENT_CHOICE]
    option = EVENTS[event].options[j]
    (name, value), = option.reward.items()
    target = CLASS_OF[option.cls] if option.cls is not None else -1
    units = st.ctx[UNITS]
    if name == "legitimacy" and target >= 0:
        change_legitimacy(st, target, value)
    elif name == "legitimacy_per_units" and target >= 0:
        change_legitimacy(st, target, units // value)
    elif name == "vp":
        board.score(st, ST, value, "events")
    elif name == "vp_per_unit":
        board.score(st, ST, value * units, "events")
    st.events.remove(event)
    st.ctx[EVENT_CARD] = st.ctx[EVENT_CHOICE] = st.ctx[PROVIDE] = -1
    st.ctx[UNITS] = 0


# -- tables ----------------------------------------------------------------------------------
CAN: dict[str, Callable[[HegemonyState, int, int], bool]] = {
    "basic": _can_basic,
    "gain": _can_gain,
    "pay": _can_pay,
    "sell_to_state": _can_sell_to_state,
    "provide": _can_provide,
    "add_cubes": _always,
    "bag_purge": _always,
    "bag_replace": _always,
    "add_worker": _always,
    "remove_unemployed": _can_remove_unemployed,
    "upgrade_worker": _can_upgrade,
    "build_coop_farm": _can_coop,
    "sell_company": _can_company,
    "transfer_company": _can_company,
    "produce": _can_company,
    "set_wage": _can_company,
    "machinery": _can_machinery,
    "storage": _can_storage,
    "revenue_to_capital": _always,
    "prosperity": _can_prosperity,
    "vp": _always,
    "legitimacy": _can_legitimacy,
    "legitimacy_token": _can_legitimacy,
    "event_action": _can_event_action_times,
    "event_peek": _can_peek,
    "shift_policy": _can_shift,
    "state_payout": _always,
}
DO: dict[str, Callable[[HegemonyState, int, int], None]] = {
    "basic": _do_basic,
    "gain": _do_gain,
    "pay": _do_pay,
    "sell_to_state": _do_sell_to_state,
    "provide": _do_provide,
    "add_cubes": _do_add_cubes,
    "bag_purge": _do_bag_purge,
    "bag_replace": _do_bag_replace,
    "add_worker": _do_add_worker,
    "remove_unemployed": _do_remove_unemployed,
    "upgrade_worker": _do_upgrade,
    "build_coop_farm": _do_coop,
    "sell_company": _do_company,
    "transfer_company": _do_company,
    "produce": _do_company,
    "set_wage": _do_company,
    "machinery": _do_machinery,
    "storage": _do_storage,
    "revenue_to_capital": _do_revenue_to_capital,
    "prosperity": _do_prosperity,
    "vp": _do_vp,
    "legitimacy": _do_legitimacy,
    "legitimacy_token": _do_legitimacy,
    "event_action": _do_event_action_times,
    "event_peek": _do_peek,
    "shift_policy": _do_shift,
    "state_payout": _do_state_payout,
}
COMPOSITION = ("seq", "choice", "optional", "if")
EVENT_TASK_HANDLERS = ("provide_to", "spend", "spend_money", "buy_from_players", "build_for",
                       "propose_for")

CODES: dict[int, Decision | Step] = {
    RUN: Step("effects_run", _run),
    CHOOSE: Decision("effects_choice", _legal_choose, _apply_choose),
    OPTIONAL: Decision("effects_optional", _legal_optional, _apply_optional),
    END_BASIC: Step("effects_end_basic", _end_basic),
    LEGITIMACY: Step("effects_legitimacy_symbols", _legitimacy_symbols),
    COMPANY: Decision("effects_company", _legal_company, _apply_company),
    CLASS: Decision("effects_class", _legal_class, _apply_class),
    QTY: Decision("effects_quantity", _legal_qty, _apply_qty),
    SKILL: Decision("effects_new_worker_industry", _legal_skill, _apply_skill),
    REMOVE: Decision("effects_remove_unemployed", _legal_remove, _apply_remove),
    UPGRADE: Decision("effects_upgrade_worker", _legal_upgrade, _apply_upgrade),
    UPGRADE_TO: Decision("effects_upgrade_industry", _legal_upgrade_to, _apply_upgrade_to),
    STORAGE_TILE: Decision("effects_storage_tile", _legal_storage_tile, _apply_storage_tile),
    PURGE: Decision("effects_bag_purge", _legal_purge, _apply_purge),
    SHIFT: Decision("effects_shift_policy", _legal_shift, _apply_shift),
    PEEK: Decision("effects_event_peek", _legal_peek, _apply_peek),
    PEEK_SWAP: Decision("effects_event_swap", _legal_peek_swap, _apply_peek_swap),
    EVENT: Decision("event_action_event", _legal_event, _apply_event),
    EVENT_OPTION: Decision("event_action_option", _legal_event_option, _apply_event_option),
    EVENT_END: Step("event_action_end", _event_end),
    PROVIDE_BUY: Decision("effects_provide_source", _legal_provide_buy, _apply_provide_buy),
    PROVIDE_PUT: Step("effects_provide_put", _provide_put),
    AGAIN: Step("effects_basic_again", _again),
    EVENT_AGAIN: Step("effects_event_action_again", _event_again),
    MACHINERY: Decision("effects_machinery", _legal_machinery, _apply_machinery),
}
BASIC = {"event_action": (can_event_action, start_event_action)}
FREE: dict = {}

assert set(CAN) == set(DO) == set(C.PRIMITIVES) - set(COMPOSITION)
assert set(EVENT_TASK_HANDLERS) == set(C.EVENT_TASKS)
