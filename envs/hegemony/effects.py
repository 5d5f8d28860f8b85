"""The card and Event interpreter (our Hegemony rules page §2.2, §3.13, §11.1): card data is
data, and the interpreter is the code that runs it.  This module is its core: the node table,
the agenda codes and scratch keys, the dispatch, and the registries the families fill.

Every effect node of every action card and every Event task is indexed once, at import, into
one flat table (``NODES``), so an agenda item ``(code, seat, node_id)`` names the node it works
on and a saved game stays a list of int triples.  ``RUN`` runs one node for a seat: composition
(``seq``, ``choice``, ``optional``, ``if``) pushes more items, a primitive acts on the state at
once or pushes the small decisions it needs (a company, a class, a quantity ...), each drawn
from the shared catalogue blocks of ``actions.py``.

Playability (``playable``) follows the vocabulary's conventions (``cards_vocabulary``): a card is
playable when its requirement holds and every effect it must carry out can be carried out now;
a precondition may fail inside ``optional``, in the untaken branch of ``if`` or in an unchosen
``choice`` option.  Costs are optional spending, never a loan; the State's forced payments may
take loans.  A node that cannot be done any more when its turn comes (an earlier effect of the
same card used what it needed) is skipped, so a played card always completes.

The primitives come in families, each a module above this one that registers a
``(can, do)`` pair per primitive (``register``) and plugs its decisions into ``turn`` as a
phase module does (``CODES``): ``effects_basic`` (a class's basic action under a card's
modifiers, and the modifiers the phase modules read), ``effects_resources`` (gain, pay, VP,
cubes and the voting bag, workers), ``effects_companies`` (companies, extra production,
machinery, storage tiles, Prosperity), ``effects_state`` (Legitimacy, policy shifts, Event
peeks, ``provide``) and ``effects_events`` (sales to the State and the State's Event Action).
What they all read (amounts, filters, requirements, what a class holds) sits below, in
``effects_terms``.  The core never imports a family: ``turn`` imports every one of them
(``PHASE_MODULES``) and checks that every primitive has its pair (``check_registered``) before
any state exists.  The agenda codes and scratch keys of every family are named here, in one
table of the ``codes.EFFECTS`` range.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.hegemony import cards as C
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony import money
from meeplezoo.envs.hegemony.actions import CC, MC, ST, WC, blocks
from meeplezoo.envs.hegemony.cards_check import validate_effect
from meeplezoo.envs.hegemony.cards_vocabulary import PRIMITIVES, ROLES
from meeplezoo.envs.hegemony.effects_terms import (
    BENEFIT_SLOT,
    CLASS_OF,
    EMPTY,
    amount,
    requirement,
)

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

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
    for cls, role in enumerate(ROLES):
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
        build_for_node(event.task["min_cost"])
    return len(EVENTS) - 1


def add_node(node: Mapping[str, Any], role: str) -> int:
    """Check a hand-made effect node against the vocabulary (``cards_check.validate_effect``) and
    index it; its id, for ``(RUN, seat, id)`` items."""
    validate_effect(node, role, "node")
    return _index(node)


# Synthetic basic nodes for the Event tasks that run another class's basic action: the builder's
# Build Company paid by the State from what it holds, at a least cost (``min_cost``,
# ``state_cash_only``: modifiers only these nodes carry); the proposer's bill with the State
# deciding the immediate vote.
BUILD_FOR_NODE: dict[int, int] = {}
PROPOSE_FOR_NODE = _index(MappingProxyType({"op": "basic", "action": "propose_bill",
                                            "immediate_decider": ST}))


def build_for_node(min_cost: int) -> int:
    if min_cost not in BUILD_FOR_NODE:
        BUILD_FOR_NODE[min_cost] = _index(MappingProxyType(
            {"op": "basic", "action": "build_company", "payer": "state", "min_cost": min_cost,
             "state_cash_only": True}))
    return BUILD_FOR_NODE[min_cost]


_build_table()


# -- composition and dispatch -------------------------------------------------------------------
def playable(st: HegemonyState, cls: int, design: int) -> bool:
    """The card's requirement holds and its effect can be carried out now."""
    card = C.ACTION_CARDS[ROLES[cls]][design]
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
    card = C.ACTION_CARDS[ROLES[cls]][design]
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
    card = C.ACTION_CARDS[ROLES[cls]][design]
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


# by node id; the node table is fixed once imported, so a value is a pure function of its key
# and threads that race only store equal values (a dict assignment is atomic under the GIL)
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
    Capital, as it pays).  The turn menu's memo (``HegemonyState.turn_memo``) is set aside
    with it: its answers are for the position with the money in place."""
    from_money = min(spent, st.money[cls])
    from_capital = spent - from_money if cls == CC else 0
    st.money[cls] -= from_money
    st.capital -= from_capital
    memo, st.turn_memo = st.turn_memo, None
    try:
        return can(st, cls, nid)
    finally:
        st.turn_memo = memo
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
    card = C.ACTION_CARDS[ROLES[item[1]]][item[2]]
    for name, n in card.legitimacy.items():
        change_legitimacy(st, CLASS_OF[name], n)


def change_legitimacy(st: HegemonyState, cls: int, n: int) -> None:
    st.legitimacy[cls] = max(D.LEGITIMACY_MIN, min(D.LEGITIMACY_MAX, st.legitimacy[cls] + n))


# -- the registries the families fill -----------------------------------------------------------
COMPOSITION = ("seq", "choice", "optional", "if")
Can = Callable[["HegemonyState", int, int], bool]  # can class ``cls`` do node ``nid`` now
Do = Callable[["HegemonyState", int, int], None]  # do it (at once, or by pushing decisions)
CAN: dict[str, Can] = {}  # leaf op -> its check
DO: dict[str, Do] = {}  # leaf op -> its action


def register(primitives: Mapping[str, tuple[Can, Do]]) -> None:
    """A family module's leaf primitives, ``op -> (can, do)``, each op once."""
    for op, (check, do) in primitives.items():
        if op not in PRIMITIVES or op in COMPOSITION:
            raise ValueError(f"{op!r} is not a leaf primitive of the vocabulary (cards_vocabulary)")
        if op in CAN:
            raise ValueError(f"primitive {op!r} is registered twice")
        CAN[op], DO[op] = check, do


def check_registered() -> None:
    """Every leaf primitive of the vocabulary has its pair (``turn`` checks it once it has
    imported every family)."""
    missing = sorted(set(PRIMITIVES) - set(COMPOSITION) - set(CAN))
    if missing:
        raise LookupError(f"primitives without a handler: {missing} (import their family)")


CODES: dict[int, Decision | Step] = {
    RUN: Step("effects_run", _run),
    CHOOSE: Decision("effects_choice", _legal_choose, _apply_choose),
    OPTIONAL: Decision("effects_optional", _legal_optional, _apply_optional),
    LEGITIMACY: Step("effects_legitimacy_symbols", _legitimacy_symbols),
}
