"""Card primitives, the State's trades and the Event Action (§3.13): a class's sale to the
State (``sell_to_state``), the Event Action, a card's ``event_action`` that repeats it, and the
Event tasks (``provide_to``, ``spend``, ``spend_money``, ``buy_from_players``, ``build_for``,
``propose_for``), with the ``QTY`` decision the sales and the spending share.

The State's basic Event Action (§3.13) is ``BASIC["event_action"]``: an Event (``event`` block),
an option (``option`` block) whose task can be done in full, the task, the reward, the discard.

Choices the vocabulary leaves open, decided here:
- ``build_for``: the class builds as its Build Company (it picks the card, wage and staff);
  the State pays a card of at least ``min_cost`` from what it holds, never a loan.
- ``sell_to_state`` and ``buy_from_players`` use regular Storage only (never the FTZ or MC's
  Goods & Services).

It sits at the top of the interpreter's families: a task runs a basic action
(``effects_basic``), needs a free company seat (``effects_companies``) or provides a bundle
(``effects_state``); ``turn`` joins its Event Action with the phases' basic actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.core.rules import spends_nothing
from meeplezoo.envs.hegemony import board, money
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import CC, MC, ST, blocks
from meeplezoo.envs.hegemony.cards_vocabulary import EVENT_TASKS
from meeplezoo.envs.hegemony.effects import (
    EVENT,
    EVENT_AGAIN,
    EVENT_CARD,
    EVENT_CHOICE,
    EVENT_END,
    EVENT_OPTION,
    PROVIDE,
    QTY,
    UNITS,
    change_legitimacy,
)
from meeplezoo.envs.hegemony.effects_basic import (
    can_afford_purchase,
    can_basic_as,
    start_basic_as,
    with_active,
)
from meeplezoo.envs.hegemony.effects_companies import first_free_seat
from meeplezoo.envs.hegemony.effects_state import EVENT_SLOTS, begin_provide, provide_ok
from meeplezoo.envs.hegemony.effects_terms import (
    CLASS_OF,
    GOOD_OF,
    amount,
    receive_good,
    state_room,
    stock,
    take,
    take_storage,
)

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

# -- sell to the State ---------------------------------------------------------------------------
def _sell_max(st: HegemonyState, cls: int, nid: int) -> int:
    node = st.game.rules.cards.nodes[nid]
    g = GOOD_OF[node["res"]]
    held = st.mc_storage[g] if cls == MC else st.cc_storage[g]
    return min(node["max_n"], held, state_room(st, g))


def _can_sell_to_state(st: HegemonyState, cls: int, nid: int) -> bool:
    return _sell_max(st, cls, nid) >= 1


def _do_sell_to_state(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((QTY, cls, nid))


def _qty_range(st: HegemonyState, cls: int, nid: int) -> tuple[int, int]:
    """The quantities a QTY decision offers for its node."""
    node = st.game.rules.cards.nodes[nid]
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
    node = st.game.rules.cards.nodes[nid]
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
        take(st, ST, node["res"], n)
        st.ctx[UNITS] += n
    else:  # buy_from_players
        seller = st.ctx[PROVIDE]
        g = GOOD_OF[node["res"]]
        money.pay(st, ST, n * board.price(st, seller, g), seller)
        take_storage(st, seller, g, n)
        receive_good(st, ST, g, n)
        st.ctx[UNITS] += n


def _can_event_action_times(st: HegemonyState, cls: int, nid: int) -> bool:
    return can_event_action(st, cls)


def _do_event_action_times(st: HegemonyState, cls: int, nid: int) -> None:
    st.push((EVENT_AGAIN, ST, st.game.rules.cards.nodes[nid]["times"] - 1))
    start_event_action(st, ST)


def _event_again(st: HegemonyState, item: Item) -> None:
    if item[2] > 0 and can_event_action(st, ST):
        st.push((EVENT_AGAIN, ST, item[2] - 1))
        start_event_action(st, ST)


# -- the Event Action (§3.13) ----------------------------------------------------------------------
def _buy_from_players_max(st: HegemonyState, seller: int, nid: int) -> int:
    """Units the State can buy from ``seller`` (at its price, from its Storage)."""
    if seller not in (MC, CC):
        return 0
    node = st.game.rules.cards.nodes[nid]
    g = GOOD_OF[node["res"]]
    held = st.mc_storage[g] if seller == MC else st.cc_storage[g]
    unit = board.price(st, seller, g)
    return max(0, min(amount(st, seller, node["up_to"]), held, money.cash(st, ST) // unit))


def _build_for_ok(st: HegemonyState, target: int, min_cost: int) -> bool:
    if target not in (MC, CC):
        return False
    market = st.cc_market if target == CC else st.mc_market
    if first_free_seat(st, board.SEATS_OF[target]) < 0:
        return False
    nid = st.game.rules.cards.build_for_node[min_cost]
    if not with_active(st, nid, lambda: any(can_afford_purchase(st, target, D.COMPANIES[c].cost)
                                             for c in market)):
        return False
    return can_basic_as(st, target, nid)


def option_ok(st: HegemonyState, event: int, k: int) -> bool:
    """Option ``k`` of Event ``event`` can be carried out in full now."""
    ev = st.game.rules.cards.events[event]
    task = ev.task
    op = task["op"]
    option = ev.options[k]
    target = CLASS_OF[option.cls] if option.cls is not None else -1
    nid = st.game.rules.cards.event_node[event]
    if op == "provide_to":
        return provide_ok(st, target, nid)
    if op == "spend":
        return stock(st, ST, task["res"]) >= 1
    if op == "spend_money":
        return money.cash(st, ST) >= task["tiers"][option.tier - 1]
    if op == "buy_from_players":
        return _buy_from_players_max(st, target, nid) >= 1
    if op == "build_for":
        return _build_for_ok(st, target, task["min_cost"])
    return can_basic_as(st, target, st.game.rules.cards.propose_for_node)  # propose_for


def _event_slots(st: HegemonyState, first: bool = False) -> list[int]:
    """Face-up Events (by place) with an option that can be carried out (``first``: stop at
    one)."""
    slots = []
    events = st.game.rules.cards.events
    for k in range(min(EVENT_SLOTS, len(st.events))):
        if any(option_ok(st, st.events[k], j) for j in range(len(events[st.events[k]].options))):
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
    options = st.game.rules.cards.events[event].options
    return [option + j for j in range(len(options)) if option_ok(st, event, j)]


def _apply_event_option(st: HegemonyState, item: Item, action: int) -> None:
    """Carry out the task for the chosen option; the reward and discard come after it."""
    slot = item[2]
    event = st.events[slot]
    j = action - blocks(ST).option
    st.agenda.pop()
    st.ctx[EVENT_CARD], st.ctx[EVENT_CHOICE], st.ctx[UNITS] = event, j, 0
    st.push((EVENT_END, ST, slot))
    ev = st.game.rules.cards.events[event]
    task = ev.task
    op = task["op"]
    option = ev.options[j]
    target = CLASS_OF[option.cls] if option.cls is not None else -1
    st.ctx[PROVIDE] = target
    nid = st.game.rules.cards.event_node[event]
    if op == "provide_to":
        begin_provide(st, target, nid)
    elif op == "spend":
        st.push((QTY, ST, nid))
    elif op == "spend_money":
        money.pay(st, ST, task["tiers"][option.tier - 1])
    elif op == "buy_from_players":
        st.push((QTY, ST, nid))
    elif op == "build_for":
        start_basic_as(st, target, st.game.rules.cards.build_for_node[task["min_cost"]])
    else:
        start_basic_as(st, target, st.game.rules.cards.propose_for_node)


def _event_end(st: HegemonyState, item: Item) -> None:
    """Gain the option's reward, then discard the Event (§3.13)."""
    event, j = st.ctx[EVENT_CARD], st.ctx[EVENT_CHOICE]
    option = st.game.rules.cards.events[event].options[j]
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


# -- the tables ------------------------------------------------------------------------------
# each primitive: its check, its effect and its declared cost (core.rules.Primitive;
# ``spends_nothing``: it declares no cost)
PRIMITIVES = {
    "sell_to_state": spends_nothing(_can_sell_to_state, _do_sell_to_state),
    "event_action": spends_nothing(_can_event_action_times, _do_event_action_times),
}
EVENT_TASK_HANDLERS = ("provide_to", "spend", "spend_money", "buy_from_players", "build_for",
                       "propose_for")
CODES: dict[int, Decision | Step] = {
    QTY: Decision("effects_quantity", _legal_qty, _apply_qty),
    EVENT: Decision("event_action_event", _legal_event, _apply_event),
    EVENT_OPTION: Decision("event_action_option", _legal_event_option, _apply_event_option),
    EVENT_END: Step("event_action_end", _event_end),
    EVENT_AGAIN: Step("effects_event_action_again", _event_again),
}
BASIC = {"event_action": (can_event_action, start_event_action)}

assert set(EVENT_TASK_HANDLERS) == set(EVENT_TASKS)
