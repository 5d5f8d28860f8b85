"""Agents see only their seat (``training.agents.seat_view``).

- A user's state agent, named ``package.module:attribute`` or handed over in Python, is
  never handed the true state: a planted cheater reads other seats' hidden cards, the deck,
  the engine's chance generator and a replay from the set-up seed, and gets the truth at
  chance level only, in every game, through the paths the arena's workers and the web
  table build their bots by.
- The game's heuristic bots play without the door (``make_bot("heuristic")``), because they
  read only what their seat sees: over positions of seeded games at every player count,
  each chooses the same action on the true state as on states re-drawn for its seat.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.agents.ismcts import ISMCTS
from meeplezoo.training.agents.opponents import ObservationBot, load
from meeplezoo.training.agents.search import RolloutSearch, bot_model
from meeplezoo.training.agents.seat_view import SeatView, seat_view
from meeplezoo.training.agents.seating import make_opponent
from meeplezoo.training.evaluation import arena, evaluate
from tests.training import cheating_agent
from tests.training.cheating_agent import secrets

CHEATER = "tests.training.cheating_agent:Cheater"
GAMES = {"chihou_sousei_v1": (2, 3, 4), "asian_delivery_v1": (3, 4, 5),
         "necropolis_railway_v1": (1, 2, 3, 4), "hegemony_v1": (4,)}
# every how many decisions with a choice a position is taken: about 60 positions over two
# or three games of each (a heuristic game has ~50-110 choices in チホウソウセイ, ~280 in
# Necropolis at 4 players, ~400-700 in アジアンデリバリー, ~770 in Hegemony)
STRIDE = {"chihou_sousei_v1": 2, "asian_delivery_v1": 12, "necropolis_railway_v1": 3,
          "hegemony_v1": 25}
POSITIONS, REDRAWS = 60, 3


def hidden_cards(state) -> tuple:
    """What the seat to move cannot see, as ``resample_hidden`` names it: the other hands
    (Hegemony) or the deck's order (the others)."""
    if state.game.name.startswith("hegemony"):
        seat = state.current_player()
        return tuple(tuple(sorted(h)) for c, h in enumerate(state.hands) if c != seat)
    return tuple(state.deck)


def positions(name: str, players: int) -> list:
    """``POSITIONS`` copies of positions with a choice, from seeded games of heuristic
    play with one move in five random (so positions off the bots' own paths come too)."""
    game = envs.make_game(name, num_players=players)
    out, g = [], 0
    while len(out) < POSITIONS:
        state, rng = game.new_initial_state(100 + g), np.random.default_rng(g)
        bots = [game.heuristic_bot(1000 * g + s) for s in range(players)]
        choices = 0
        while not state.is_terminal() and len(out) < POSITIONS:
            legal = state.legal_actions()
            if len(legal) > 1:
                choices += 1
                if choices % STRIDE[name] == 0:
                    out.append(state.clone())
            if rng.random() < 0.2:
                state.apply(int(legal[rng.integers(len(legal))]))
            else:
                state.apply(bots[state.current_player()].act(state))
        g += 1
    return out


@pytest.mark.parametrize("name, players",
                         [(name, n) for name, counts in GAMES.items() for n in counts])
def test_the_heuristic_bot_chooses_alike_on_the_truth_and_on_its_seats_redraws(name, players):
    """What exempts ``heuristic`` from the door: the same choice (same bot seed) whatever
    the seat cannot see, over ``POSITIONS`` positions and ``REDRAWS`` re-draws of each."""
    game = envs.make_game(name, num_players=players)
    differ, hidden_moved = [], 0
    for k, state in enumerate(positions(name, players)):
        seat = state.current_player()
        truth = game.heuristic_bot(7).act(state.clone())
        for r in range(REDRAWS):
            view = seat_view(state, seat, np.random.default_rng([k, r]))
            hidden_moved += hidden_cards(view) != hidden_cards(state)
            if game.heuristic_bot(7).act(view) != truth:
                differ.append((k, r, state.decision_name()))
    assert not differ, f"the heuristic read hidden information at {differ}"
    # not vacuous: the re-draws did move the hidden cards (a deck of 0 or 1 cards cannot)
    assert hidden_moved >= POSITIONS * REDRAWS // 2


def agreement(key: str, read, true) -> float:
    """How much of ``true`` the read ``key`` got right: of a hand, the share of its cards
    named (as a multiset); of a deck, the share of its places holding the right card; of
    anything else (the generator, a replayed hand), 1 if all of it and 0 if not."""
    if key not in ("hand", "deck", "next_cards"):
        return float(read == true)
    if not true:
        return 1.0
    if key == "deck" or key == "next_cards":
        return sum(a == b for a, b in zip(read, true)) / len(true)
    left, named = list(read), 0
    for card in true:
        if card in left:
            left.remove(card)
            named += 1
    return named / len(true)


def other_deal(state):
    """A position its seat to move cannot tell from ``state``: what the seat cannot see
    re-drawn, and another chance generator (the draws to come)."""
    other = state.resample_hidden(state.current_player(), np.random.default_rng(99))
    other.rng = np.random.default_rng(12345)
    return other


def midgames(name: str, players: int, count: int) -> list:
    """``count`` positions with a choice, each after a random number of random moves."""
    game = envs.make_game(name, num_players=players)
    out = []
    for g in range(count):
        state, rng = game.new_initial_state(g), np.random.default_rng(g)
        for _ in range(int(rng.integers(5, 400 if name == "hegemony_v1" else 60))):
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
        while len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        out.append(state)
    return out


@pytest.mark.parametrize("root", ["puct", "gumbel"])
@pytest.mark.parametrize("name, players", [("chihou_sousei_v1", 3), ("asian_delivery_v1", 4),
                                           ("necropolis_railway_v1", 2), ("hegemony_v1", 4)])
def test_the_search_chooses_alike_in_positions_its_seat_cannot_tell_apart(name, players, root):
    """What exempts the search levels (``NETWORK@LEVEL``) from the door, in every game (the
    no-cheating tests of ``test_ismcts.py`` in the toy and Necropolis, here with another
    chance generator too: Hegemony's re-draws keep the engine's, so the search starts from
    its seat's view)."""
    game = envs.make_game(name, num_players=players)
    for state in midgames(name, players, 4):
        other = other_deal(state)
        assert other.to_dict() != state.to_dict()
        kw = dict(simulations=24, seed=5, root=root, playout_depth=20)
        one, two = ISMCTS(game, **kw).search(state), ISMCTS(game, **kw).search(other)
        assert (one.action, one.visits, one.values) == (two.action, two.visits, two.values)


@pytest.mark.parametrize("name, players, network", [
    ("necropolis_railway_v1", 2, "necropolis_railway_v1/ppo_league"),
    ("hegemony_v1", 4, "hegemony_v1/ppo_classes")])
def test_the_look_ahead_values_alike_positions_its_seat_cannot_tell_apart(name, players,
                                                                          network):
    """A checkpoint card's look-ahead (``LookaheadBot``'s ``RolloutSearch``) too."""
    game = envs.make_game(name, num_players=players)
    agent = load(network)
    policy = getattr(agent, "members", agent)
    for state in midgames(name, players, 3):
        candidates = state.legal_actions()[:2]
        values = [RolloutSearch(game, policy, bot_model(game, ["random"]), 2, 0.02,
                                np.random.default_rng(3)).values(s, candidates)
                  for s in (state, other_deal(state))]
        assert values[0] == values[1]


def cheat_rates(name: str, players: int, bot_for, decisions: int) -> dict[str, tuple]:
    """Play cheaters built by ``bot_for(seat, seed)`` in every seat for ``decisions``
    decisions; per read of ``secrets``: how often the cheater got the truth, how often a
    guess from what the seat knows gets it (the chance rate), and how often a plain copy
    of the state (``clone``) gives it away."""
    game = envs.make_game(name, num_players=players)
    guess_rng = np.random.default_rng(1)
    hits: dict[str, list] = {}
    g = made = 0
    while made < decisions:
        state = game.new_initial_state(50 + g)
        bots = [bot_for(seat, 1000 * g + seat) for seat in range(players)]
        while not state.is_terminal() and made < decisions:
            seat = state.current_player()
            truth, copy = secrets(state), secrets(state.clone())
            guess = secrets(state.resample_hidden(seat, guess_rng))
            del cheating_agent.READS[:], cheating_agent.HANDED[:]
            state.apply(bots[seat].act(state))
            (read,) = cheating_agent.READS
            for key, true in truth.items():
                # a guess of the generator's 128-bit state never hits; a replay from the
                # set-up seed is a way to read the hand
                known = {"chance": None, "replayed_hand": "hand"}.get(key, key)
                chance = 0.0 if known is None else agreement(key, guess[known], truth[known])
                hits.setdefault(key, []).append(
                    (agreement(key, read[key], true), chance, agreement(key, copy[key], true)))
            made += 1
        g += 1
    return {key: tuple(float(np.mean(col)) for col in zip(*rows)) for key, rows in hits.items()}


@pytest.mark.parametrize("name, players", [("chihou_sousei_v1", 3), ("asian_delivery_v1", 4),
                                           ("necropolis_railway_v1", 2), ("hegemony_v1", 4)])
def test_a_planted_cheater_reads_other_seats_secrets_at_chance_only(name, players):
    config = {"num_players": players}
    game = envs.make_game(name, **config)
    entrant = arena.resolve(CHEATER, name, config)  # as the arena takes --agents

    paths = {
        # each arena, evaluate and balance worker builds its bots so (BotCache.bot)
        "arena": lambda seat, seed: make_bot(entrant.spec, game, seed, seat=seat),
        # levels, selfplay, balance and train take the spec string
        "spec": lambda seat, seed: make_bot(CHEATER, game, seed, seat=seat),
        # the web table and the terminal seat an opponent so
        "web": lambda seat, seed: make_opponent(CHEATER, game, seed, seat),
    }
    decisions = 100
    for path, bot_for in paths.items():
        rates = cheat_rates(name, players, bot_for, decisions)
        for key, (cheat, chance, copy) in rates.items():
            slack = 4 * math.sqrt(max(chance, 0.02) * (1 - chance) / decisions) + 0.05
            where = f"{name} via {path}, read {key!r}: got the truth {cheat:.0%} of the time"
            assert cheat <= chance + slack and cheat < 0.5, f"{where}, chance {chance:.0%}"
            # not vacuous: handed a plain copy of the true state, it reads the truth
            assert copy == 1.0, f"{where}; a plain copy gives it only {copy:.0%}"


@pytest.mark.parametrize("name, players", [("necropolis_railway_v1", 2),
                                           ("chihou_sousei_v1", 3)])
def test_evaluate_hands_a_state_agent_a_fresh_redraw_each_decision_and_repeats(name, players):
    """The real worker (``evaluate``'s and the arena's ``_play_lineups``): the cheater is
    never handed the same object twice, so never the one the game is played on, and the
    same seed gives the same results (the door's re-draws are seeded)."""
    config = {"num_players": players}
    runs = []
    for _ in range(2):
        del cheating_agent.READS[:], cheating_agent.HANDED[:]
        runs.append(evaluate.versus_field(name, config, CHEATER, "random", 2, seed=4))
        handed = cheating_agent.HANDED
        assert len(handed) > 20 and len({id(s) for s in handed}) == len(handed)
    assert runs[0] == runs[1]


def test_only_state_agents_go_through_the_door():
    game = envs.make_game("necropolis_railway_v1", num_players=2)

    def first_legal(observation, mask):
        return int(np.flatnonzero(mask)[0])

    assert isinstance(make_bot(first_legal, game, 0), ObservationBot)
    assert isinstance(make_bot(cheating_agent.Cheater(), game, 0), SeatView)
    assert type(make_bot("heuristic", game, 0)) is type(game.heuristic_bot(0))
