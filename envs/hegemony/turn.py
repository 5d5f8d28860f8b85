"""Round structure (§2): set-up choices, Preparation, the action phase's turns, and the
agenda table that joins every phase module.

A turn (§2.2) is one ``DECIDE_TURN`` decision that stays on the agenda until the player
ends it: it offers the main actions while none was taken, the free actions while none
was taken, and ``end_turn`` once the main action is done.  A basic action first asks
which card pays for it (``DISCARD``), then runs the phase module's ``start`` for it,
whose decisions sit above an ``AFTER_ACTION`` step that makes the re-checks every
action needs.

Phase modules plug in through four names each: ``CODES`` (their agenda codes, in the
range ``codes.py`` gives them), ``BASIC`` and ``FREE`` (action name -> ``(can, start)``
where ``can(st, cls) -> bool`` says the action is legal now and ``start(st, cls)`` begins
it, pushing its decisions), and ``CTX`` (their scratch keys in ``st.ctx``, with the
value each is reset to); a name a module lacks counts as empty.  The card interpreter's
family modules (``effects_*``) plug in the same way; their primitives (``PRIMITIVES``) join
the game's rules object in ``rules.py``, which also holds this module's agenda table
(``build_agenda``).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType

from meeplezoo.envs.core.agenda import AgendaRules, Decision, Item, Step
from meeplezoo.envs.hegemony import (
    board,
    economy,
    economy_free,
    economy_trade,
    effects,
    effects_basic,
    effects_companies,
    effects_events,
    effects_resources,
    effects_state,
    politics,
    production,
    workers,
    workers_build,
    workers_free,
)
from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import data as D
from meeplezoo.envs.hegemony.actions import (
    BASIC_ACTIONS,
    CC,
    FREE_ACTIONS,
    MC,
    ST,
    WC,
    blocks,
)
from meeplezoo.envs.hegemony.money import pay_capital_first
from meeplezoo.envs.hegemony.state import KINDS, HegemonyState

Action = tuple[Callable[["HegemonyState", int], bool], Callable[["HegemonyState", int], None]]
PHASE_MODULES = (workers, workers_build, workers_free, economy_trade, economy_free, economy,
                 politics, production, effects, effects_basic, effects_resources,
                 effects_companies, effects_state, effects_events)
TURNS_PER_ROUND = 5 * 4  # 5 passes of WC, MC, CC, ST (§2.2)


def _join(name: str) -> dict[str, Action]:
    joined: dict[str, Action] = {}
    for module in PHASE_MODULES:
        for action, pair in getattr(module, name, {}).items():
            if action in joined:
                raise ValueError(f"{name} action {action!r} is defined twice")
            joined[action] = pair
    return joined


BASIC: dict[str, Action] = _join("BASIC")
FREE: dict[str, Action] = _join("FREE")
CTX = {"market_done": 0}  # bit k: market card k is being discarded
CTX_DEFAULTS: dict[str, int] = dict(CTX)
for _module in PHASE_MODULES:
    CTX_DEFAULTS.update(getattr(_module, "CTX", {}))


# each basic and free action's position in its list (the agenda item's argument)
BASIC_NUMBER = {name: k for k, (name, _) in enumerate(BASIC_ACTIONS)}
FREE_NUMBER = {name: k for k, (name, _) in enumerate(FREE_ACTIONS)}


# -- the turn ---------------------------------------------------------------------------
class _Menu:
    """One class's turn menu, read once from ``BASIC``, ``FREE`` and its catalogue (built for
    every turn decision): each basic action's index, check and ``HegemonyState.turn_memo`` key
    (an action no module defines is never legal), and each free action's index and check."""

    def __init__(self, cls: int) -> None:
        b = blocks(cls)
        self.basic = tuple((index, BASIC[name][0], (cls, name, "[]"))
                           for name, index in b.basic_index.items() if name in BASIC)
        self.undefined = {(cls, name, "[]"): False for name in b.basic_index if name not in BASIC}
        self.buy_keys = ((cls, "buy_goods", "[]"), (cls, "buy", "[]"))
        self.free = tuple((index, FREE[name][0]) for name, index in b.free_index.items()
                          if name in FREE)
        self.play, self.PASS, self.END_TURN = b.play, b.PASS, b.END_TURN
        self.quick_basic = tuple(BASIC[name][0] for name in QUICK_ORDER
                                 if name in BASIC and name in b.basic_index)
        self.quick_free = tuple(FREE[name][0] for name in QUICK_ORDER
                                if name in FREE and name in b.free_index)


# The turn menu's cheap checks (a few µs each, as measured in bots' games), cheapest first:
# the ones ``_sure_choice`` tries.  The costly ones (assign, buy, build, sell a company, swap)
# are left to the listing, so a position whose menu is read anyway (random play, training)
# pays little for the test.  It changes no result, only how soon two legal actions are found.
QUICK_ORDER = ("political_pressure", "campaign", "meet_mps", "extra_tax", "lobby",
               "propose_bill", "business_deal", "demonstration", "extra_shift", "event_action",
               "strike", "sell_foreign",
               "receive_benefits", "pay_off_loan", "use_luxury", "use_education",
               "buy_storage", "use_health", "give_bonus", "adjust_wages", "adjust_prices")


@functools.cache  # a menu is read-only and a pure function of the class: safe in threads
def _menu(cls: int) -> _Menu:
    return _Menu(cls)


def main_actions_legal(st: HegemonyState, cls: int) -> list[int]:
    """The basic actions (each paid by discarding a card) and card plays legal now."""
    hand = st.hands[cls]
    if not hand:
        return []
    menu = _menu(cls)
    memo: dict[tuple, bool] = dict(menu.undefined)
    legal = []
    for index, check, key in menu.basic:
        if check(st, cls):
            legal.append(index)
            memo[key] = True
        else:
            memo[key] = False
    buy_goods, buy = menu.buy_keys
    memo[buy_goods] = memo.get(buy, False)
    st.turn_memo = memo  # a card's basic action under the same modifiers: computed once
    try:
        play = menu.play
        legal += [play + design for design in sorted(set(hand))
                  if effects.playable(st, cls, design)]
    finally:
        st.turn_memo = None
    return legal


def _legal_turn(st: HegemonyState, item: Item) -> list[int]:
    cls = item[1]
    menu = _menu(cls)
    legal: list[int] = []
    if not st.main_done:
        legal = main_actions_legal(st, cls)
        if not legal and st.hands[cls]:
            legal = [menu.PASS]  # §12 #17: a pass only when nothing else is legal
    if not st.free_used:
        legal += [index for index, check in menu.free if check(st, cls)]
    if st.main_done:
        legal.append(menu.END_TURN)
    return legal


def _sure_choice(st: HegemonyState, item: Item) -> bool:
    """True when the turn surely offers two or more actions (``Decision.choice``): two of its
    checks hold, counting the main part as one whenever cards are in hand (a basic action, a
    card play or the pass, ``_legal_turn``) and ``end_turn`` once the main action is done.
    Mostly two cheap checks answer, so a position the look-ahead only values never lists its
    menu."""
    cls = item[1]
    menu = _menu(cls)
    found = 0
    if st.main_done:
        found = 1  # end_turn
    elif st.hands[cls]:
        for check in menu.quick_basic:
            if check(st, cls):
                if found:
                    return True
                found = 1
        found = 1  # the main part is never empty with cards in hand
    if not st.free_used:
        for check in menu.quick_free:
            if check(st, cls):
                if found:
                    return True
                found = 1
    return False


def _apply_turn(st: HegemonyState, item: Item, action: int) -> None:
    cls = item[1]
    b = blocks(cls)
    if action == b.END_TURN:
        st.agenda.pop()
    elif action == b.PASS:
        st.main_done = 1
        st.push((K.DISCARD, cls, -1), (K.AFTER_ACTION, cls, 0))
    elif action in b.basic_name:
        st.main_done = 1
        which = BASIC_NUMBER[b.basic_name[action]]
        st.push((K.DISCARD, cls, which), (K.START_BASIC, cls, which), (K.AFTER_ACTION, cls, 0))
    elif b.play <= action < b.play + len(b.designs):
        st.main_done = 1
        design = action - b.play
        st.hands[cls].remove(design)
        st.action_discard[cls].append(design)
        st.push((K.AFTER_ACTION, cls, 0))
        effects.start_card(st, cls, design)  # pushes the card's effect above AFTER_ACTION
    elif action in b.free_name:
        st.free_used = 1
        which = FREE_NUMBER[b.free_name[action]]
        st.push((K.START_FREE, cls, which), (K.AFTER_ACTION, cls, 0))
    else:
        raise AssertionError(f"action {action} is not a turn action")


def _legal_discard(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    return [b.discard + design for design in sorted(set(st.hands[item[1]]))]


def _apply_discard(st: HegemonyState, item: Item, action: int) -> None:
    cls = item[1]
    design = action - blocks(cls).discard
    st.hands[cls].remove(design)
    st.action_discard[cls].append(design)
    st.agenda.pop()


def _start_basic(st: HegemonyState, item: Item) -> None:
    BASIC[BASIC_ACTIONS[item[2]][0]][1](st, item[1])


def _start_free(st: HegemonyState, item: Item) -> None:
    FREE[FREE_ACTIONS[item[2]][0]][1](st, item[1])


AFTER_ACTION_HOOKS = tuple(module.after_action for module in PHASE_MODULES
                           if hasattr(module, "after_action"))


def _after_action(st: HegemonyState, item: Item) -> None:
    for hook in AFTER_ACTION_HOOKS:
        hook(st)
    reset_ctx(st)


def reset_ctx(st: HegemonyState) -> None:
    st.ctx.update(CTX_DEFAULTS)


def _turn(st: HegemonyState, item: Item) -> None:
    k = item[2]
    st.turn_pass, st.main_done, st.free_used = k // 4, 0, 0
    reset_ctx(st)
    if k + 1 < TURNS_PER_ROUND:
        st.push((K.DECIDE_TURN, k % 4, 0), (K.TURN, (k + 1) % 4, k + 1))
    else:
        st.push((K.DECIDE_TURN, k % 4, 0))


# -- rounds and Preparation (§2.1) ---------------------------------------------------------
def _round(st: HegemonyState, item: Item) -> None:
    rnd = item[2]
    st.round = rnd
    after = [(K.TURN, WC, 0), (K.PRODUCTION_PHASE, ST, 0), (K.ELECTIONS_PHASE, ST, 0),
             (K.SCORING_PHASE, ST, 0)]
    after.append((K.ROUND, WC, rnd + 1) if rnd < D.ROUNDS else (K.GAME_END, ST, 0))
    if rnd == 1:
        st.push(*after)
        return
    # §2.1 in order: steps 2-5, the markets (step 6), then steps 7-9 (v1: v0 asked the
    # market discards after steps 7-9, so CC and MC saw the new Deals, Export card and workers)
    prep = [(K.PREP, ST, 0), (K.MARKET_DISCARD, CC, 0), (K.MARKET_DISCARD, MC, 0),
            (K.PREP_ARRIVALS, ST, 0)]
    if st.game.config["mc_prep_arrivals"] == "published":
        prep.append((K.PREP_SKILL, MC, 0))
    st.push(*prep, *after)


def _prep(st: HegemonyState, item: Item) -> None:
    """§2.1 steps 2-5; step 6, the markets, is the MARKET_DISCARD decisions that follow."""
    for cls in (WC, MC, CC, ST):  # 2. interest, a loan if forced
        if st.loans[cls]:
            pay_capital_first(st, cls, D.LOAN_INTEREST * st.loans[cls], forced=True)
    for cls in (WC, MC):  # 3.
        st.prosperity[cls] = max(0, st.prosperity[cls] - D.PROSPERITY_DECAY[cls])
    reveal_events(st, 2)  # 4.
    st.agenda_card = st.agenda_deck.pop() if st.agenda_deck else -1
    for cls in (WC, MC, CC, ST):  # 5.
        draw_actions(st, cls, D.DRAW_PER_ROUND)


def _prep_arrivals(st: HegemonyState, item: Item) -> None:
    """§2.1 steps 7-9, after the market discards: CC's Deals and Export card, new workers."""
    st.deals = []  # 7. CC's deals and export card
    for _ in range(D.DEALS_PER_ROUND[st.policies[5]]):
        if st.deal_deck:
            st.deals.append(st.deal_deck.pop())
    st.export = st.export_deck.pop() if st.export_deck else -1
    st.unemployed[WC][0] += D.PREP_NEW_UNSKILLED[WC]  # 8. WC new workers
    arrivals = D.IMMIGRATION_PER_ROUND[st.policies[6]]
    immigrate(st, WC, arrivals)
    st.unemployed[MC][0] += D.PREP_NEW_UNSKILLED[MC]  # 9. MC new workers (memo: +1 unskilled)
    immigrate(st, MC, arrivals)


def immigrate(st: HegemonyState, cls: int, cards: int) -> None:
    """Draw ``cards`` Immigration cards for ``cls``: each adds the class's worker shown on it
    to the Unemployed area, and goes to the bottom of the deck (the deck cycles, §1.4)."""
    for _ in range(cards):
        card = st.immigration.pop()
        skill = D.IMMIGRATION_DECK[card][0 if cls == WC else 1]
        st.unemployed[cls][0 if skill is None else 1 + skill] += 1
        st.immigration.insert(0, card)
        st.immigration_seen = min(st.immigration_seen + 1, len(st.immigration))


def draw_actions(st: HegemonyState, cls: int, n: int) -> None:
    for _ in range(n):
        if st.action_decks[cls]:
            st.hands[cls].append(st.action_decks[cls].pop())
    st.hands[cls].sort()


def reveal_events(st: HegemonyState, n: int) -> None:
    for _ in range(n):
        if st.event_deck:
            st.events.append(st.event_deck.pop())


def _legal_market_discard(st: HegemonyState, item: Item) -> list[int]:
    cls = item[1]
    b = blocks(cls)
    market = st.cc_market if cls == CC else st.mc_market
    done_mask = st.ctx["market_done"]
    return [b.market + k for k in range(len(market)) if not done_mask >> k & 1] + [b.DONE]


def _apply_market_discard(st: HegemonyState, item: Item, action: int) -> None:
    """Discard one market card (each at most once, §2.2), or ``done``: refill the market."""
    cls = item[1]
    b = blocks(cls)
    market = st.cc_market if cls == CC else st.mc_market
    if action == b.DONE:
        kept = [c for k, c in enumerate(market) if not st.ctx["market_done"] >> k & 1]
        st.company_discard.extend(
            c for k, c in enumerate(market) if st.ctx["market_done"] >> k & 1)
        deck = st.cc_deck if cls == CC else st.mc_deck
        size = D.MARKET_SIZE["cc"] if cls == CC else D.MARKET_SIZE["mc"]
        while len(kept) < size and deck:
            kept.append(deck.pop())
        market[:] = kept
        st.ctx["market_done"] = 0
        st.agenda.pop()
    else:
        st.ctx["market_done"] = st.ctx["market_done"] | 1 << (action - b.market)


def _legal_skill(st: HegemonyState, item: Item) -> list[int]:
    b = blocks(item[1])
    return [b.industry + i for i in range(len(D.INDUSTRIES))]


def _apply_skill(st: HegemonyState, item: Item, action: int) -> None:
    """MC's skilled worker of its chosen industry joins the Unemployed area."""
    st.unemployed[MC][1 + action - blocks(MC).industry] += 1
    st.agenda.pop()


CODES: dict[int, Decision | Step] = {
    K.SETUP_SKILL: Decision("setup_skilled_worker", _legal_skill, _apply_skill),
    K.ROUND: Step("round", _round),
    K.TURN: Step("start_turn", _turn),
    K.DECIDE_TURN: Decision("turn", _legal_turn, _apply_turn, choice=_sure_choice),
    K.DISCARD: Decision("discard_card", _legal_discard, _apply_discard),
    K.START_BASIC: Step("start_basic_action", _start_basic),
    K.START_FREE: Step("start_free_action", _start_free),
    K.AFTER_ACTION: Step("after_action", _after_action),
    K.MARKET_DISCARD: Decision("market_discard", _legal_market_discard, _apply_market_discard),
    K.PREP_SKILL: Decision("prep_skilled_worker", _legal_skill, _apply_skill),
    K.PREP: Step("preparation", _prep),
    K.PREP_ARRIVALS: Step("preparation_arrivals", _prep_arrivals),
}


def _all_codes() -> dict[int, Decision | Step]:
    """Every module's codes; each decision's legal actions computed with the query memo on
    (``board.legality_memo``)."""
    table: dict[int, Decision | Step] = {}
    for module in (sys.modules[__name__], *PHASE_MODULES):
        for code, kind in module.CODES.items():
            if code in table:
                raise ValueError(f"agenda code {code} ({kind.name}) is defined twice")
            if isinstance(kind, Decision):
                kind = replace(kind, legal=board.legality_memo(kind.legal),
                               choice=kind.choice and board.legality_memo(kind.choice))
            table[code] = kind
    return table


# every agenda code's name, and the decisions' codes in order (the observation's one-hot and the
# saved schema read them; the table itself is the game's: ``build_agenda``)
AGENDA_NAMES: Mapping[int, str] = MappingProxyType(
    {code: kind.name for code, kind in _all_codes().items()})
DECISION_CODES = tuple(sorted(code for code, kind in _all_codes().items()
                              if isinstance(kind, Decision)))  # (each call builds the same)


def build_agenda() -> AgendaRules:
    """The agenda table that joins every phase module: the game's rules object holds it
    (``rules.build_rules``) and every state reads it there."""
    return AgendaRules(_all_codes())


assert 1 + len(D.INDUSTRIES) == KINDS
