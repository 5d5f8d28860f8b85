"""The card and Event interpreter (our Hegemony rules page §2.2, §3.13, §11.1): card data is
data, and the interpreter is the code that runs it.  This module is its core: the node table,
the agenda codes and scratch keys, the dispatch.

Every effect node of every action card and every Event task is indexed once per game into one
flat table (``build_nodes`` -> ``CardTable``, held by the game's rules object as
``st.game.rules.cards``), so an agenda item ``(code, seat, node_id)`` names the node it works on
and a saved game stays a list of int triples.  ``RUN`` runs one node for a seat: composition
(``seq``, ``choice``, ``optional``, ``if``) pushes more items, a primitive acts on the state at
once or pushes the small decisions it needs (a company, a class, a quantity ...), each drawn
from the shared catalogue blocks of ``actions.py``.

Playability (``playable``) follows the vocabulary's conventions (``cards_vocabulary``): a card is
playable when its requirement holds and every effect it must carry out can be carried out now;
a precondition may fail inside ``optional``, in the untaken branch of ``if`` or in an unchosen
``choice`` option.  Costs are optional spending, never a loan; the State's forced payments may
take loans.  A node that cannot be done any more when its turn comes (an earlier effect of the
same card used what it needed) is skipped, so a played card always completes.

The primitives come in families, each a module above this one whose ``PRIMITIVES`` table gives
each of its primitives as a ``core.rules.Primitive`` (its check, its effect and its declared
cost) and whose ``CODES`` plug its decisions into ``turn`` as a phase module does:
``effects_basic`` (a class's basic action under a card's modifiers, and the modifiers the phase
modules read), ``effects_resources`` (gain, pay, VP, cubes and the voting bag, workers),
``effects_companies`` (companies, extra production, machinery, storage tiles, Prosperity),
``effects_state`` (Legitimacy, policy shifts, Event peeks, ``provide``) and ``effects_events``
(sales to the State and the State's Event Action).  What they all read (amounts, filters,
requirements, what a class holds) sits below, in ``effects_terms``.  The core never imports a
family: the game's rules object (``rules.py``) joins their tables, checks that every primitive
has one (``check_primitives``) and hands them to every state (``st.game.rules.primitives``);
nothing is registered by importing a module.  The agenda codes and scratch keys of every family
are named here, in one table of the ``codes.EFFECTS`` range.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.core.rules import Primitive
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
Node = Mapping[str, Any]
Extra = tuple[str, Any]  # ("node", a hand-made effect node) or ("event", a hand-made C.Event)


@dataclass(frozen=True, slots=True)
class CardTable:
    """Every effect node of every action card and Event task, indexed once into flat tables
    (built by ``build_nodes`` for the game's rules object, ``HegemonyGame.build_rules``), so an
    agenda item ``(code, seat, node_id)`` names the node it works on.  Frozen: a test's
    hand-made card makes a new table (``add_node``, ``add_event``)."""

    nodes: tuple[Node, ...]
    children: tuple[tuple[int, ...], ...]  # seq effects, choice options, optional, if then/else
    mods: tuple[Node, ...]  # a basic node's modifiers (empty for other nodes)
    card_nodes: tuple[tuple[tuple[int, ...], ...], ...]  # [cls][design] -> top-level nodes
    event_node: tuple[int, ...]  # [event] -> its task node
    events: tuple[C.Event, ...]  # cards.EVENTS, then any Event added by ``add_event``
    effect_loss: tuple[tuple[bool, ...], ...]  # [cls][design]: an Extra Tax in its effect
    build_for_node: Mapping[int, int]  # min_cost -> the synthetic build_for node
    propose_for_node: int  # the synthetic propose_for node
    costs_money: tuple[bool, ...]  # [node]: whether its ``_cost`` can be other than 0
    mods_key: tuple[Any, ...]  # [node]: (action, modifiers) of a basic node, else None
    widens: tuple[bool, ...]  # [node]: a basic node's modifiers only widen its action
    primitives: Mapping[str, Primitive]  # what the table was built with (``extended``)
    widening: Callable[[Node, Node], bool]
    extras: tuple[Extra, ...] = ()

    def extended(self, extra: Extra) -> CardTable:
        """This table with one hand-made node or Event more (its ids follow every other)."""
        return build_nodes(self.primitives, self.widening, (*self.extras, extra))


def build_nodes(primitives: Mapping[str, Primitive], widening: Callable[[Node, Node], bool],
                extras: tuple[Extra, ...] = ()) -> CardTable:
    """Index every node of the decks (and of ``extras``, in order, after them): the card
    table of the game's rules object.  ``primitives`` declare which nodes may cost money;
    ``widening(node, mods)`` says whether a basic node's modifiers only widen its action
    (``effects_basic.widens``)."""
    nodes: list[Node] = []
    children: list[tuple[int, ...]] = []
    mods: list[Node] = []

    def index(node: Node) -> int:
        nid = len(nodes)
        nodes.append(node)
        children.append(())
        mods.append(EMPTY)
        op = node["op"]
        if op in ("seq", "choice"):
            kids = tuple(index(child) for child in node["effects" if op == "seq" else "options"])
        elif op == "optional":
            kids = (index(node["effect"]),)
        elif op == "if":
            kids = (index(node["then"]), index(node["else"]) if "else" in node else -1)
        else:
            kids = ()
        children[nid] = kids
        if op == "basic":
            mods[nid] = MappingProxyType({k: v for k, v in node.items()
                                          if k not in ("op", "action")})
        return nid

    def extra_tax_inside(nid: int) -> bool:
        node = nodes[nid]
        return (node["op"] == "basic" and node["action"] == "extra_tax") or any(
            extra_tax_inside(k) for k in children[nid] if k >= 0)

    build_for: dict[int, int] = {}
    events: list[C.Event] = []
    event_node: list[int] = []

    def add_event(event: C.Event) -> None:
        events.append(event)
        event_node.append(index(event.task))
        if event.task["op"] == "build_for" and event.task["min_cost"] not in build_for:
            build_for[event.task["min_cost"]] = index(MappingProxyType(
                {"op": "basic", "action": "build_company", "payer": "state",
                 "min_cost": event.task["min_cost"], "state_cash_only": True}))

    # Synthetic basic nodes for the Event tasks that run another class's basic action: the
    # proposer's bill with the State deciding the immediate vote (node 0); the builder's Build
    # Company paid by the State from what it holds, at a least cost (``min_cost``,
    # ``state_cash_only``: modifiers only these nodes carry), one per least cost.
    propose_for = index(MappingProxyType({"op": "basic", "action": "propose_bill",
                                          "immediate_decider": ST}))
    card_nodes = []
    effect_loss = []
    for role in ROLES:
        designs = tuple(tuple(index(node) for node in card.effects)
                        for card in C.ACTION_CARDS[role])
        card_nodes.append(designs)
        effect_loss.append(tuple(any(extra_tax_inside(nid) for nid in nids) for nids in designs))
    for event in C.EVENTS:
        add_event(event)
    for kind, extra in extras:
        if kind == "event":
            add_event(extra)
        else:
            index(extra)

    costs_money: list[bool] = []
    for node in nodes:  # a seq's children follow it: filled in below, from the leaves up
        op = node["op"]
        primitive = primitives.get(op)
        costs_money.append(primitive is not None and primitive.costs(node))
    for nid in range(len(nodes) - 1, -1, -1):
        if nodes[nid]["op"] == "seq":
            costs_money[nid] = any(costs_money[k] for k in children[nid])
    basic = [node["op"] == "basic" for node in nodes]
    return CardTable(
        nodes=tuple(nodes), children=tuple(children), mods=tuple(mods),
        card_nodes=tuple(card_nodes), event_node=tuple(event_node), events=tuple(events),
        effect_loss=tuple(effect_loss), build_for_node=MappingProxyType(build_for),
        propose_for_node=propose_for, costs_money=tuple(costs_money),
        mods_key=tuple((node["action"], repr(sorted(mods[nid].items()))) if basic[nid] else None
                       for nid, node in enumerate(nodes)),
        widens=tuple(basic[nid] and widening(node, mods[nid]) for nid, node in enumerate(nodes)),
        primitives=primitives, widening=widening, extras=extras)


def add_node(st: HegemonyState, node: Node, role: str) -> int:
    """A test's hand-made effect node: checked against the vocabulary
    (``cards_check.validate_effect``) and indexed in a copy of ``st``'s game whose card table
    has it (``Game.with_rules``; the state plays on that copy from now on); its id, for
    ``(RUN, seat, id)`` items."""
    validate_effect(node, role, "node")
    nid = len(st.game.rules.cards.nodes)
    _extend(st, ("node", node))
    return nid


def add_event(st: HegemonyState, event: C.Event) -> int:
    """A test's hand-made Event, indexed as ``add_node`` does; its index of ``cards.events``."""
    index = len(st.game.rules.cards.events)
    _extend(st, ("event", event))
    return index


def _extend(st: HegemonyState, extra: Extra) -> None:
    rules = st.game.rules
    st.game = st.game.with_rules(replace(rules, cards=rules.cards.extended(extra)))


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
    return _all_can(st, cls, st.game.rules.cards.card_nodes[cls][design])


def symbols_fit(st: HegemonyState, cls: int, design: int) -> bool:
    """Decision #54 (§2.2, #23): a State card whose Legitimacy symbols would take a track below
    1 is illegal, never clamped (the other classes' symbols are imposed on the State: they
    clamp).  The symbols apply after the effect, so a loss the effect itself may cause first
    (an Extra Tax inside the card, ``CardTable.effect_loss``) is counted as the worst case:
    the card is offered only if the track stays at 1 or more however the effect goes."""
    if len(st.vp) != 4:  # the symbols apply at 4 players only
        return True
    card = C.ACTION_CARDS[ROLES[cls]][design]
    loss = st.game.rules.cards.effect_loss[cls][design]
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
    items = [(RUN, cls, nid) for nid in st.game.rules.cards.card_nodes[cls][design]]
    if card.legitimacy:
        items.append((LEGITIMACY, cls, design))
    st.push(*items)


def _all_can(st: HegemonyState, cls: int, nids: tuple[int, ...]) -> bool:
    """Every node can be done in order: each is checked with the money the fixed costs before
    it (``_cost``) will have taken set aside, so a cost cannot use what a later effect needs.
    (A check puts back any money it sets aside, so the class's cash is read once.)"""
    cash = money.cash(st, cls)
    costs_money = st.game.rules.cards.costs_money  # by node: whether ``_cost`` can be other than 0
    spent = 0
    for nid in nids:
        if spent > cash:
            return False
        if not (_can_after(st, cls, nid, spent) if spent else can(st, cls, nid)):
            return False
        if costs_money[nid]:
            spent += _cost(st, cls, nid)
    return spent <= cash


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
    """The money a node surely costs ``cls`` as optional spending (for the sum check): a leaf's
    is its primitive's declared cost (``Primitive.cost``), a ``seq``'s the sum of its effects'."""
    rules = st.game.rules
    op = rules.cards.nodes[nid]["op"]
    if op == "seq":
        return sum(_cost(st, cls, k) for k in rules.cards.children[nid])
    primitive = rules.primitives.get(op)
    return 0 if primitive is None else primitive.cost(st, cls, nid)


def can(st: HegemonyState, cls: int, nid: int) -> bool:
    """Whether node ``nid`` can be carried out now by ``cls``."""
    rules = st.game.rules
    node = rules.cards.nodes[nid]
    op = node["op"]
    primitive = rules.primitives.get(op)  # a leaf effect (the usual case); composition follows
    if primitive is not None:
        return primitive.can(st, cls, nid)
    children = rules.cards.children
    if op == "seq":
        return _all_can(st, cls, children[nid])
    if op == "choice":
        return any(can(st, cls, k) for k in children[nid])
    if op == "optional":
        return True
    if op == "if":
        then, other = children[nid]
        if requirement(st, cls, node["cond"]):
            return can(st, cls, then)
        return other < 0 or can(st, cls, other)
    raise KeyError(f"no primitive {op!r} in the game's rules")


def _run(st: HegemonyState, item: Item) -> None:
    cls, nid = item[1], item[2]
    rules = st.game.rules
    node = rules.cards.nodes[nid]
    op = node["op"]
    if op == "seq":
        st.push(*[(RUN, cls, k) for k in rules.cards.children[nid]])
    elif op == "choice":
        st.push((CHOOSE, cls, nid))
    elif op == "optional":
        st.push((OPTIONAL, cls, nid))
    elif op == "if":
        then, other = rules.cards.children[nid]
        branch = then if requirement(st, cls, node["cond"]) else other
        if branch >= 0:
            st.push((RUN, cls, branch))
    else:
        primitive = rules.primitives[op]
        if primitive.can(st, cls, nid):  # skipped if an earlier effect made it impossible
            primitive.do(st, cls, nid)


def _legal_choose(st: HegemonyState, item: Item) -> list[int]:
    option = blocks(item[1]).option
    children = st.game.rules.cards.children[item[2]]
    return [option + k for k, child in enumerate(children) if can(st, item[1], child)]


def _apply_choose(st: HegemonyState, item: Item, action: int) -> None:
    st.agenda.pop()
    option = action - blocks(item[1]).option
    st.push((RUN, item[1], st.game.rules.cards.children[item[2]][option]))


def _legal_optional(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    effect = st.game.rules.cards.children[item[2]][0]
    return [b.YES, b.NO] if can(st, item[1], effect) else [b.NO]


def _apply_optional(st: HegemonyState, item: Item, action: int) -> None:
    st.agenda.pop()
    if action == blocks(item[1]).YES:
        st.push((RUN, item[1], st.game.rules.cards.children[item[2]][0]))


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


# -- the primitives' kinds -------------------------------------------------------------------
COMPOSITION = ("seq", "choice", "optional", "if")
Can = Callable[["HegemonyState", int, int], bool]  # can class ``cls`` do node ``nid`` now
Do = Callable[["HegemonyState", int, int], None]  # do it (at once, or by pushing decisions)


def check_primitives(primitives: Mapping[str, Primitive]) -> None:
    """Every leaf primitive of the vocabulary has exactly one ``Primitive`` (its check, its
    effect and its declared cost), and nothing else has one."""
    leaves = set(PRIMITIVES) - set(COMPOSITION)
    unknown = sorted(set(primitives) - leaves)
    if unknown:
        raise ValueError(f"{unknown} are not leaf primitives of the vocabulary (cards_vocabulary)")
    missing = sorted(leaves - set(primitives))
    if missing:
        raise LookupError(f"primitives without a handler: {missing}")
    for op, primitive in primitives.items():
        if not isinstance(primitive, Primitive):
            raise TypeError(f"primitive {op!r} is {primitive!r}, not a core.rules.Primitive")


CODES: dict[int, Decision | Step] = {
    RUN: Step("effects_run", _run),
    CHOOSE: Decision("effects_choice", _legal_choose, _apply_choose),
    OPTIONAL: Decision("effects_optional", _legal_optional, _apply_optional),
    LEGITIMACY: Step("effects_legitimacy_symbols", _legitimacy_symbols),
}
