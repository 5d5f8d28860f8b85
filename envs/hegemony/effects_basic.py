"""Card primitives, the ``basic`` family: a class's basic action run from a card, under the
card's modifiers (§11.1), and the modifiers as the phase modules read them.

``basic`` runs a module's basic action through ``turn.BASIC`` (the game's rules object's
phase rule ``basic_actions``) without discarding a card; its card node stays active in
``st.ctx`` while the action runs, and modules read its modifiers with ``active_mods(st)`` /
``mod(st, name, default)``.  Money modifiers of purchases are applied by ``purchase_price`` and
``pay_purchase``, which the purchasing modules call; Propose Bill's modifiers go to
``politics.push_propose`` as its arguments.  ``count`` repeats the action, ``market_refill``
and ``search_deck``'s shuffle happen when the action ends (here).

It sits just above the interpreter's core (``effects``: the node table it reads modifiers
from) and below the phase modules (``workers``, ``economy``), which
read the modifiers while they run an action; the Event Action (``effects_events``) runs other
classes' basic actions through it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from meeplezoo.envs.core.agenda import Decision, Item, Step
from meeplezoo.envs.core.rules import spends_nothing
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony import money
from meeplezoo.envs.hegemony.actions import CC, ST
from meeplezoo.envs.hegemony.effects import ACTIVE, AGAIN, END_BASIC
from meeplezoo.envs.hegemony.effects_terms import EMPTY

if TYPE_CHECKING:
    from meeplezoo.envs.hegemony.state import HegemonyState

BASIC_NAME = {"buy_goods": "buy"}  # the vocabulary's names that the catalogue spells otherwise


# -- modifiers, read by the modules -------------------------------------------------------------
def active_mods(st: HegemonyState) -> Mapping[str, Any]:
    """The modifiers of the card's basic action under way (empty outside one)."""
    nid = st.ctx.get(ACTIVE, -1)
    return st.game.rules.cards.mods[nid] if nid >= 0 else EMPTY


def mod(st: HegemonyState, name: str, default: Any = None) -> Any:
    """One modifier of the basic action under way, or ``default``."""
    nid = st.ctx.get(ACTIVE, -1)
    return st.game.rules.cards.mods[nid].get(name, default) if nid >= 0 else default


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


# -- basic ---------------------------------------------------------------------------------------
def _basic_pair(st: HegemonyState, nid: int):
    action = st.game.rules.cards.nodes[nid]["action"]
    return st.game.rules.phase["basic_actions"].get(BASIC_NAME.get(action, action))


def with_active(st: HegemonyState, nid: int, check: Callable[[], bool]) -> bool:
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
def widens(node: Mapping[str, Any], mods: Mapping[str, Any]) -> bool:
    """Every modifier of a basic node is one of ``WIDENING``'s for its action (read once per
    node, into the card table: ``CardTable.widens``)."""
    allowed = WIDENING.get(node["action"], {})
    return all(name in allowed and allowed[name](value) for name, value in mods.items())


def can_basic_as(st: HegemonyState, cls: int, nid: int) -> bool:
    """The basic action of node ``nid`` is legal for ``cls`` under its modifiers (read from
    the state's turn menu memo while the menu is built: ``HegemonyState.turn_memo``)."""
    cards = st.game.rules.cards
    memo = st.turn_memo
    if memo is not None:
        key = (cls, *cards.mods_key[nid])
        if key in memo:
            return memo[key]
        if memo.get((cls, key[1], "[]")) and cards.widens[nid]:  # the plain action is legal
            memo[key] = True
            return True
    if cards.nodes[nid]["action"] == "propose_bill":
        result = st.game.rules.phase["can_propose"](
            st, cls, _propose_args(cards.mods[nid])["policies"])
    else:
        pair = _basic_pair(st, nid)
        result = pair is not None and with_active(st, nid, lambda: pair[0](st, cls))
    if memo is not None:
        memo[key] = result
    return result


def start_basic_as(st: HegemonyState, cls: int, nid: int) -> None:
    """Run the basic action of node ``nid`` for ``cls`` (no card discarded), its node active."""
    cards = st.game.rules.cards
    st.push((END_BASIC, cls, st.ctx.get(ACTIVE, -1)))
    st.ctx[ACTIVE] = nid
    mods = cards.mods[nid]
    if cards.nodes[nid]["action"] == "propose_bill":  # politics takes the modifiers as arguments
        st.game.rules.phase["push_propose"](st, cls, **_propose_args(mods))
        return
    pair = _basic_pair(st, nid)
    assert pair is not None
    if mods.get("count", 1) > 1:
        st.push((AGAIN, cls, mods["count"] - 1))
    pair[1](st, cls)


def _can_basic(st: HegemonyState, cls: int, nid: int) -> bool:
    return can_basic_as(st, cls, nid)


def _do_basic(st: HegemonyState, cls: int, nid: int) -> None:
    start_basic_as(st, cls, nid)


def _again(st: HegemonyState, item: Item) -> None:
    """``count`` / ``n_bills``: the action once more, if it is still legal."""
    pair = _basic_pair(st, st.ctx[ACTIVE])
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


# -- the tables ------------------------------------------------------------------------------
PRIMITIVES = {"basic": spends_nothing(_can_basic, _do_basic)}
CODES: dict[int, Decision | Step] = {
    END_BASIC: Step("effects_end_basic", _end_basic),
    AGAIN: Step("effects_basic_again", _again),
}
