"""The class heuristic (``bot.HegemonyBot``): legal, deterministic for a seed, blind to what
its seat cannot see, and better than random play."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs.core.agents import RandomBot, StateBot, play_game, teacher_choice
from envs.hegemony import bot as B
from envs.hegemony.actions import CC, MC, ST, WC
from envs.hegemony.state import HegemonyState


def new_state(seed: int) -> HegemonyState:
    return envs.make_game("hegemony_v0").new_initial_state(seed)


def positions(seed: int, every: int, count: int) -> list[HegemonyState]:
    """Copies of a random game's positions where the seat to move has a real choice."""
    st, rng, out, k = new_state(seed), np.random.default_rng(seed), [], 0
    while not st.is_terminal() and len(out) < count:
        legal = st.legal_actions()
        if len(legal) > 1:
            k += 1
            if k % every == 0:
                out.append(st.clone())
        st.apply(int(legal[rng.integers(len(legal))]))
    return out


def test_every_action_is_legal_and_in_its_own_best_set() -> None:
    st = new_state(3)
    bots = [B.HegemonyBot(10 + s) for s in range(4)]
    steps = 0
    while not st.is_terminal() and steps < 600:
        action, best = teacher_choice(bots[st.current_player()], st)
        assert action in st.legal_actions()
        assert set(best) <= set(st.legal_actions())
        st.apply(action)
        steps += 1
    assert steps == 600 or st.is_terminal()


def test_same_seed_same_game() -> None:
    def history(seed: int) -> list[int]:
        st = new_state(21)
        bots: list[StateBot] = [B.HegemonyBot(seed) if s == MC else RandomBot(s)
                                for s in range(4)]
        return play_game(st, bots).history

    assert history(5) == history(5)


@pytest.mark.parametrize("seed", [1, 2])
def test_decisions_ignore_what_the_seat_cannot_see(seed: int) -> None:
    """The same decision whatever the other hands, the deck orders, the sealed bids and
    the position's own chance generator hold: the bot re-draws them all itself."""
    checked = 0
    for st in positions(seed, every=7, count=12):
        seat = st.current_player()
        other = st.resample_hidden(seat, np.random.default_rng(99))
        other.rng = np.random.default_rng(12345)
        if set(other.legal_actions()) != set(st.legal_actions()):
            continue  # legality that hangs on a hidden card: the engine's question, not ours
        assert B.HegemonyBot(7).decide(st) == B.HegemonyBot(7).decide(other)
        checked += 1
    assert checked >= 8


def test_hidden_cards_really_differ_in_the_redraw() -> None:
    """The previous test is not vacuous: the re-drawn positions change other hands."""
    st = positions(1, every=7, count=1)[0]
    seat = st.current_player()
    other = st.resample_hidden(seat, np.random.default_rng(99))
    assert any(other.hands[c] != st.hands[c] for c in range(4) if c != seat)
    assert other.hands[seat] == st.hands[seat]


def test_pass_chance_follows_the_bag() -> None:
    st = new_state(4)
    st.bills[2] = WC * 3 + 1  # a WC bill on policy 3
    st.bag = [20, 0, 0]
    high = B.pass_chance(st, 2)
    st.bag = [0, 20, 20]
    low = B.pass_chance(st, 2)
    assert 0.0 < low < high < 1.0


def test_imf_risk_is_high_only_when_the_state_cannot_repay() -> None:
    st = new_state(4)
    st.loans[ST], st.money[ST] = 0, 200
    assert B.imf_risk(st) < 0.2
    st.loans[ST], st.money[ST] = 3, 0
    assert B.imf_risk(st) > 0.5


@pytest.mark.parametrize("cls", [WC, MC, CC, ST])
def test_each_class_beats_three_random_classes(cls: int) -> None:
    """Small statistical smoke test: over 6 seeded games the bot wins at least 4 (the
    1000-game report measures the real rate; a full game takes a second or two)."""
    wins = 0
    for g in range(6):
        bots: list[StateBot] = [B.HegemonyBot(100 + g) if s == cls else RandomBot(200 + 4 * g + s)
                                for s in range(4)]
        st = play_game(new_state(300 + g), bots)
        keys = st.rank_keys()
        wins += keys[cls] == max(keys)
    assert wins >= 4
