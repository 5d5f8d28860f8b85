"""The agenda kit (envs/core/agenda.py) on a tiny worker-placement game.

Seats place workers on four spots.  ``PLACE`` is a compound decision (place up
to ``arg`` workers one at a time, or stop); placing on the market spot
interrupts: every other seat decides now whether to follow (``FOLLOW``).
"""

from __future__ import annotations

import json

import pytest

from meeplezoo.envs.core.agenda import (
    AgendaRules,
    AgendaState,
    Decision,
    Item,
    Step,
    agenda_from_json,
    agenda_to_json,
    count_down,
    interrupt,
    push,
)
from meeplezoo.envs.core.game import TERMINAL

SPOTS, MARKET, STOP = 4, 0, 4  # actions: a spot index, or STOP
YES, NO = 5, 6
PLACE, FOLLOW, PAY, ROUND_END, LOG = 0, 1, 2, 10, 11  # agenda codes
SEAT_BOARD, TABLE_SPOTS, TABLE_ROUND = 1, 1, 2  # observation-cache marks


class Tiny(AgendaState):
    """A bare agenda-driven state (no GameState: the kit needs only the agenda fields)."""

    def __init__(self, seats: int = 3, coins: int = 0) -> None:
        self.agenda: list[Item] = []
        self._legal: list[int] = []
        self._dirty = [0] * seats
        self._tdirty = 0
        self.seats = seats
        self.spot_owner = [-1] * SPOTS
        self.coins = [coins] * seats
        self.followers: list[int] = []
        self.log: list[str] = []
        self.over = False

    def _agenda_over(self) -> None:
        self.over = True


def _place_legal(st: Tiny, item: Item) -> list[int]:
    free = [s for s in range(SPOTS) if st.spot_owner[s] < 0]
    return [*free, STOP] if free else []


def _place(st: Tiny, item: Item, action: int) -> None:
    if action == STOP:
        st.agenda.pop()
        return
    st.spot_owner[action] = item[1]
    st.log.append(f"seat {item[1]} places on {action}")
    count_down(st.agenda, item)  # leaves the item (with one fewer) under any interrupt
    if action == MARKET:
        others = [(item[1] + k) % st.seats for k in range(1, st.seats)]
        interrupt(st.agenda, FOLLOW, others)


def _follow(st: Tiny, item: Item, action: int) -> None:
    st.agenda.pop()
    st.log.append(f"seat {item[1]} {'follows' if action == YES else 'declines'}")
    if action == YES:
        st.followers.append(item[1])


def _pay_legal(st: Tiny, item: Item) -> list[int]:
    """Pay with a coin (YES) if the seat has one; with nothing to pay with, nothing to ask."""
    return [YES] if st.coins[item[1]] else []


def _pay(st: Tiny, item: Item, action: int) -> None:
    st.agenda.pop()
    st.coins[item[1]] -= 1
    st.log.append(f"seat {item[1]} pays")


def _pay_nothing(st: Tiny, item: Item) -> None:
    st.log.append(f"seat {item[1]} owes")


def _log_step(st: Tiny, item: Item) -> None:
    st.log.append(f"step {item[2]}")


def _round_end(st: Tiny, item: Item) -> None:
    st.log.append("round end")


class TinyGame(Tiny):
    agenda_rules = AgendaRules({
        PLACE: Decision("place", _place_legal, _place, marks=(SEAT_BOARD, TABLE_SPOTS)),
        FOLLOW: Decision("follow", lambda st, item: [YES, NO], _follow),
        PAY: Decision("pay", _pay_legal, _pay, _pay_nothing, marks=(SEAT_BOARD, 0)),
        ROUND_END: Step("round_end", _round_end, marks=(0, TABLE_ROUND)),
        LOG: Step("log", _log_step),
    })


def test_pushed_items_run_in_the_order_given_and_an_empty_agenda_ends_the_game():
    st = TinyGame()
    st.push((LOG, 0, 1), (LOG, 0, 2), (LOG, 0, 3))
    push(st.agenda, (LOG, 0, 4))
    st._run()
    assert st.log == ["step 4", "step 1", "step 2", "step 3"]
    assert st._legal == [] and st.over and st.is_terminal()
    assert st.current_player() == TERMINAL


def test_the_loop_stops_at_a_real_choice_and_takes_a_single_option_itself():
    st = TinyGame(coins=1)
    st.push((PAY, 1, 0), (FOLLOW, 2, 0), (LOG, 0, 9))
    st._run()  # seat 1's payment has one option: taken without asking
    assert st.log == ["seat 1 pays"]
    assert st.coins[1] == 0 and st.current_player() == 2
    assert st._legal == [YES, NO] == st.pending_legal()
    st._apply(NO)
    assert st.log[1:] == ["seat 2 declines", "step 9"] and st.over


def test_a_decision_with_nothing_to_ask_is_finished_and_popped():
    st = TinyGame(coins=0)
    st.spot_owner = [0] * SPOTS  # no free spot: place has nothing to ask (and no finish)
    st.push((PAY, 2, 0), (PLACE, 1, 3), (LOG, 0, 1))
    st._run()
    assert st.log == ["seat 2 owes", "step 1"]
    assert st.agenda == [] and st.over
    assert st._dirty == [0, 0, SEAT_BOARD]  # the finished payment marked; the bare pop did not


def test_marks_of_each_item_reach_its_seat_and_the_table():
    st = TinyGame()
    st.push((ROUND_END, 0, 0), (PLACE, 2, 1))
    st._run()
    assert st._dirty == [0, 0, 0] and st._tdirty == TABLE_ROUND
    st._apply(3)
    assert st._dirty == [0, 0, SEAT_BOARD] and st._tdirty == TABLE_ROUND | TABLE_SPOTS
    assert st.over


def test_compound_decision_asks_again_with_the_count_left():
    st = TinyGame()
    st.push((PLACE, 0, 3), (ROUND_END, 0, 0))
    st._run()
    assert st.agenda[-1] == (PLACE, 0, 3) and st._legal == [0, 1, 2, 3, STOP]
    st._apply(2)
    assert st.agenda[-1] == (PLACE, 0, 2) and st._legal == [0, 1, 3, STOP]
    st._apply(3)
    assert st.agenda[-1] == (PLACE, 0, 1)
    st._apply(1)  # the last of three: the decision leaves the agenda
    assert st.log[-1] == "round end" and st.over
    assert st.spot_owner == [-1, 0, 0, 0]


def test_compound_decision_may_stop_early():
    st = TinyGame()
    st.push((PLACE, 0, 3), (LOG, 0, 7))
    st._run()
    st._apply(1)
    st._apply(STOP)
    assert st.log == ["seat 0 places on 1", "step 7"] and st.over


def test_interrupt_lets_other_seats_decide_in_order_then_the_compound_decision_resumes():
    st = TinyGame(seats=3)
    st.push((PLACE, 1, 2))
    st._run()
    st._apply(MARKET)
    assert st.current_player() == 2 and st.agenda[-1][0] == FOLLOW
    st._apply(YES)
    assert st.current_player() == 0 and st.agenda[-1][0] == FOLLOW
    st._apply(NO)
    assert st.agenda == [(PLACE, 1, 1)] and st._legal == [1, 2, 3, STOP]
    assert st.log == ["seat 1 places on 0", "seat 2 follows", "seat 0 declines"]
    assert st.followers == [2]


def test_the_table_refuses_codes_it_cannot_run():
    step = Step("a", _log_step)
    with pytest.raises(ValueError, match="share the name"):
        AgendaRules({0: step, 1: Step("a", _round_end)})
    with pytest.raises(ValueError, match="non-negative"):
        AgendaRules({-1: step})
    with pytest.raises(TypeError, match="neither"):
        AgendaRules({0: _log_step})  # type: ignore[dict-item]
    rules = TinyGame.agenda_rules
    assert rules.is_decision(PLACE) and not rules.is_decision(LOG) and not rules.is_decision(3)
    assert rules.name(ROUND_END) == "round_end"


def test_the_saved_agenda_is_a_json_list_of_triples():
    agenda: list[Item] = [(ROUND_END, 0, 0), (PLACE, 1, 2), (FOLLOW, 2, 0)]
    text = json.dumps(agenda_to_json(agenda))
    assert json.loads(text) == [[ROUND_END, 0, 0], [PLACE, 1, 2], [FOLLOW, 2, 0]]
    assert agenda_from_json(json.loads(text)) == agenda


def test_a_sure_choice_stops_the_loop_and_the_legal_actions_are_listed_when_asked():
    asked: list[Item] = []

    def listed(st: Tiny, item: Item) -> list[int]:
        asked.append(item)
        return [YES, NO]

    class Lazy(Tiny):
        agenda_rules = AgendaRules({
            FOLLOW: Decision("follow", listed, _follow, choice=lambda st, item: item[2] > 0),
            LOG: Step("log", _log_step),
        })

    st = Lazy()
    st.push((FOLLOW, 1, 1), (FOLLOW, 2, 0), (LOG, 0, 5))
    st._run()  # seat 1's choice is sure: nothing listed yet
    assert st._legal is None and asked == [] and st.current_player() == 1
    assert st.pending() == [YES, NO] and asked == [(FOLLOW, 1, 1)]
    assert st.pending() == [YES, NO] and len(asked) == 1  # listed once
    st._apply(YES)  # seat 2's choice is not sure: listed by the loop, as without the hook
    assert st._legal == [YES, NO] and asked[-1] == (FOLLOW, 2, 0)
    st._apply(NO)
    assert st.log == ["seat 1 follows", "seat 2 declines", "step 5"] and st.over
