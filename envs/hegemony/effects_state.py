"""Card primitives, the State's family: Legitimacy changes and tokens, policy shifts, Event
peeks, and ``provide`` (a bundle the State gives a class, from a card or an Event's
``provide_to``), with the ``CLASS`` decision they share (§11.1, §3.13).

Choices the vocabulary leaves open, decided here:
- ``provide`` / ``provide_to``: the State gives its own goods first and buys only what it
  lacks, one unit at a time from a source it picks (``source`` block: CC or MC Storage at their
  price, the Foreign Market at base price for food and lux); a source is offered only if the
  rest stays affordable.  Influence comes from Public Services' Media Influence (the option
  is illegal when it holds less, decision #48), cubes from the class's supply (capped); money
  waits off the table until received.  Replaced contents are discarded, cubes going home.
  Units for a per-unit reward are the non-money units given.
- ``event_peek``: the peeked card is named by ``qty:n`` (n-th from the top); ``place`` needs
  a free ``event`` index (``EVENT_SLOTS``).

It sits above the interpreter's core (``effects``) and below the Event Action
(``effects_events``), which provides through ``begin_provide``; a policy change is a phase rule
of ``politics``, reached through the game's rules object (``st.game.rules.phase``, built by
``rules.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.core.rules import spends_nothing
from meeplezoo.envs.hegemony import board, money
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, ST, blocks, catalogue
from meeplezoo.envs.hegemony.cards_vocabulary import CLASSES
from meeplezoo.envs.hegemony.effects import (
    BENEFITS_ADDED,
    BUNDLE,
    CLASS,
    NEED,
    PEEK,
    PEEK_SWAP,
    PEEKED,
    PROVIDE,
    PROVIDE_BUY,
    PROVIDE_PUT,
    SHIFT,
    UNITS,
    change_legitimacy,
)
from meeplezoo.envs.hegemony.effects_terms import (
    BENEFIT_SLOT,
    CLASS_OF,
    amount,
    stock,
    take,
    take_storage,
)

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

SRC_CC, SRC_MC, SRC_STATE, SRC_FOREIGN = range(4)  # offsets in the ``source`` block
# Face-up Events the State's ``event`` block can name (an Event beyond them cannot be chosen,
# so event_peek places an extra Event only while one of these is free).
EVENT_SLOTS = len(catalogue("state").blocks()["event"])


# -- State: legitimacy, Events, policies -----------------------------------------------------------
def _legitimacy_classes(st: HegemonyState, nid: int) -> list[int]:
    node = st.game.rules.cards.nodes[nid]
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
    if st.game.rules.cards.nodes[nid]["class"] == "chosen":
        st.push((CLASS, cls, nid))
    else:
        _legitimacy_to(st, nid, CLASS_OF[st.game.rules.cards.nodes[nid]["class"]])


def _legitimacy_to(st: HegemonyState, nid: int, target: int) -> None:
    node = st.game.rules.cards.nodes[nid]
    if node["op"] == "legitimacy_token":
        st.legit_tokens[target] += 1
        change_legitimacy(st, target, 1)  # a token gives +1 when gained (§8)
    else:
        change_legitimacy(st, target, node["n"])


def _legal_class(st: HegemonyState, item: Item) -> list[int]:
    first = getattr(blocks(item[1]), "class")
    node = st.game.rules.cards.nodes[item[2]]
    if node["op"] == "provide":
        return [first + c for c in _provide_targets(st, item[2])]
    return [first + c for c in _legitimacy_classes(st, item[2])]


def _apply_class(st: HegemonyState, item: Item, action: int) -> None:
    target = action - getattr(blocks(item[1]), "class")
    st.agenda.pop()
    if st.game.rules.cards.nodes[item[2]]["op"] == "provide":
        begin_provide(st, target, item[2])
    else:
        _legitimacy_to(st, item[2], target)


def _shift_targets(st: HegemonyState, nid: int) -> list[tuple[int, int]]:
    node = st.game.rules.cards.nodes[nid]
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
    if not st.game.rules.cards.nodes[item[2]]["no_vp"]:
        board.score(st, item[1], D.BILL_PASS_VP, "bills")
    st.game.rules.phase["change_policy"](st, policy, section, by_vote=False)


def _can_peek(st: HegemonyState, cls: int, nid: int) -> bool:
    if not st.event_deck:
        return False
    if st.game.rules.cards.nodes[nid]["place_or_replace"] == "place":
        return len(st.events) < EVENT_SLOTS  # each face-up Event needs an ``event`` index
    return bool(st.events)


def _do_peek(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((PEEK, cls, nid))


def _legal_peek(st: HegemonyState, item: Item) -> list[int]:
    qty = blocks(item[1]).qty
    k = st.game.rules.cards.nodes[item[2]]["k"]
    return [qty + n for n in range(1, min(k, len(st.event_deck)) + 1)]


def _apply_peek(st: HegemonyState, item: Item, action: int) -> None:
    """Take the n-th card from the top; the others keep their order."""
    index = len(st.event_deck) - (action - blocks(item[1]).qty)
    st.agenda.pop()
    if st.game.rules.cards.nodes[item[2]]["place_or_replace"] == "place":
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


# -- provide (cards and Events) --------------------------------------------------------------------
def _bundle(st: HegemonyState, target: int, nid: int) -> list[int]:
    """The bundle's amounts for ``target``, in ``BENEFIT_SLOT`` order (formulas read for it)."""
    out = [0] * len(BENEFIT_SLOT)
    for res, value in st.game.rules.cards.nodes[nid]["bundle"].items():
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


def provide_ok(st: HegemonyState, target: int, nid: int) -> bool:
    """The State can pay for the bundle, and its influence comes from Media Influence, which
    the State cannot buy (decision #48)."""
    bundle = _bundle(st, target, nid)
    if bundle[5] > st.public_services[2]:
        return False
    return money.cash(st, ST) >= _provide_cost(st, bundle)


def _provide_classes(st: HegemonyState, nid: int) -> tuple[int, ...]:
    """The classes a provide node may choose (every class for an Event's provide_to)."""
    node = st.game.rules.cards.nodes[nid]
    names = node["target_class_choice"] if node["op"] == "provide" else CLASSES
    return tuple(CLASS_OF[n] for n in names)


def _provide_targets(st: HegemonyState, nid: int) -> list[int]:
    return [cls for cls in _provide_classes(st, nid) if provide_ok(st, cls, nid)]


def _can_provide(st: HegemonyState, cls: int, nid: int) -> bool:
    """``_provide_targets`` is not empty (stops at the first class)."""
    return any(provide_ok(st, target, nid) for target in _provide_classes(st, nid))


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
            take(st, ST, D.GOODS[g], own)
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
        take_storage(st, seller, good, 1)
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


# -- the tables ------------------------------------------------------------------------------
# each primitive: its check, its effect and its declared cost (core.rules.Primitive;
# ``spends_nothing``: it declares no cost)
PRIMITIVES = {
    "provide": spends_nothing(_can_provide, _do_provide),
    "legitimacy": spends_nothing(_can_legitimacy, _do_legitimacy),
    "legitimacy_token": spends_nothing(_can_legitimacy, _do_legitimacy),
    "event_peek": spends_nothing(_can_peek, _do_peek),
    "shift_policy": spends_nothing(_can_shift, _do_shift),
}
CODES: dict[int, Decision | Step] = {
    CLASS: Decision("effects_class", _legal_class, _apply_class),
    SHIFT: Decision("effects_shift_policy", _legal_shift, _apply_shift),
    PEEK: Decision("effects_event_peek", _legal_peek, _apply_peek),
    PEEK_SWAP: Decision("effects_event_swap", _legal_peek_swap, _apply_peek_swap),
    PROVIDE_BUY: Decision("effects_provide_source", _legal_provide_buy, _apply_provide_buy),
    PROVIDE_PUT: Step("effects_provide_put", _provide_put),
}
