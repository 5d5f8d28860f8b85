"""The speed memos change nothing: a card modifier listed as widening never makes a legal basic
action illegal, and a clone or a reloaded game that then diverges reads exactly as a position
computed afresh (legal actions, mask, observation), whatever the encoder and legality memos
kept from the other line of play."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.hegemony import codes as K
from meeplezoo.envs.hegemony import effects, effects_basic, turn
from meeplezoo.envs.hegemony.actions import blocks
from meeplezoo.envs.hegemony.rules import build_rules
from meeplezoo.envs.hegemony.state import HegemonyState
from tests.hegemony.helpers import new_state, refresh


def _random_states(seed: int, steps: int) -> list[HegemonyState]:
    """Clones of the positions of one random game, one per decision (up to ``steps``)."""
    st = new_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        if st.is_terminal():
            break
        out.append(st.clone())
        legal = st.legal_actions()
        st.apply(legal[rng.integers(len(legal))])
    return out


CARDS = build_rules().cards  # the node table every game builds alike


def _widening_nodes() -> list[int]:
    return [nid for nid, node in enumerate(CARDS.nodes)
            if node["op"] == "basic" and CARDS.mods[nid] and CARDS.widens[nid]]


def test_widening_covers_the_decks_modifiers_it_names() -> None:
    nodes = _widening_nodes()
    assert {CARDS.nodes[nid]["action"] for nid in nodes} >= {
        "assign_workers", "build_company", "sell_foreign", "strike", "propose_bill"}
    narrowing = [nid for nid, node in enumerate(CARDS.nodes)
                 if node["op"] == "basic" and {"source", "scope", "industry_filter",
                                               "search_deck", "min_cost", "qty_cap",
                                               "policy_filter"} & set(CARDS.mods[nid])]
    assert narrowing and not set(narrowing) & set(nodes)


@pytest.mark.parametrize("seed", [3, 11])
def test_a_widening_modifier_keeps_a_legal_basic_action_legal(seed: int) -> None:
    nodes = _widening_nodes()
    checked = 0
    for st in _random_states(seed, 500):
        code, cls, _arg = st.agenda[-1]
        if code != K.DECIDE_TURN or st.main_done:
            continue
        names = blocks(cls).basic_index
        for nid in nodes:
            action = effects_basic.BASIC_NAME.get(CARDS.nodes[nid]["action"],
                                                  CARDS.nodes[nid]["action"])
            if action in names and turn.BASIC[action][0](st, cls):
                assert effects_basic.can_basic_as(st, cls, nid), (seed, nid, CARDS.mods[nid])
                checked += 1
    assert checked > 20


def _reads(st: HegemonyState) -> tuple:
    player = st.current_player()
    return (st.legal_actions(), st.legal_mask().tobytes(),
            st.observation(player).tobytes(), st.observation((player + 1) % 4).tobytes())


@pytest.mark.parametrize("seed", [5, 21])
def test_clone_and_reload_then_diverge_read_as_fresh_positions(seed: int) -> None:
    base = _random_states(seed, 300)[-1]
    for _ in range(40):
        if base.is_terminal():
            break
        clone = base.clone()
        loaded = refresh(HegemonyState.from_dict(base.game, base._to_dict()))
        assert _reads(clone) == _reads(loaded) == _reads(base)
        legal = base.legal_actions()
        clone.apply(legal[-1])
        base.apply(legal[0])
        if not clone.is_terminal():
            fresh = refresh(HegemonyState.from_dict(clone.game, clone._to_dict()))
            assert _reads(clone) == _reads(fresh)


def test_can_buy_from_agrees_with_counting_down_max_buy() -> None:
    """``economy_trade.can_buy_from`` (one unit decides) against ``max_buy(...) > 0`` (counting
    down), plain and under every buy_goods card's modifiers, in positions of a random game."""
    from meeplezoo.envs.hegemony import economy_trade

    nodes = [-1] + [nid for nid, node in enumerate(CARDS.nodes)
                    if node["op"] == "basic" and node["action"] == "buy_goods"]
    agreed = bought = 0
    for st in _random_states(8, 400)[::5]:
        for nid in nodes:
            before = st.ctx.get(effects.ACTIVE, -1)
            st.ctx[effects.ACTIVE] = nid
            try:
                for buyer in range(2):  # the classes with a Population (WC, MC)
                    for res in range(5):
                        for src in range(4):
                            most = economy_trade.max_buy(st, buyer, res, src)
                            assert economy_trade.can_buy_from(st, buyer, res, src) == (most > 0)
                            agreed += 1
                            bought += most > 0
            finally:
                st.ctx[effects.ACTIVE] = before
    assert agreed > 1000 and 0 < bought < agreed


def _games(seeds: tuple[int, ...], steps: int) -> list[HegemonyState]:
    """Games after ``steps`` random decisions each (fewer if one ends)."""
    out = []
    for seed in seeds:
        st = new_state(seed)
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            st.apply(legal[rng.integers(len(legal))])
        out.append(st)
    return out


def test_games_encoded_in_turn_keep_their_own_memo_and_read_as_the_reference() -> None:
    """Several games stepped in turn (as a vectorised trainer does), their clones and copies:
    each reads exactly as the reference encoder, whatever the others' memos kept."""
    import copy
    import pickle

    from tests.hegemony.observation_reference import encode as reference_encode

    games = _games((2, 9, 14), 150)
    rng = np.random.default_rng(0)
    for step in range(60):
        for k, st in enumerate(games):
            if st.is_terminal():
                continue
            player = st.current_player()
            assert np.array_equal(st.observation(player), reference_encode(st, player))
            assert st._obs_memo is not None and "_obs_memo" not in st._to_dict()
            if step % 10 == 0:  # a clone starts without a memo, a copy with an empty one
                clone = st.clone()
                assert clone._obs_memo is None
                for other in (clone, copy.deepcopy(st), pickle.loads(pickle.dumps(st))):
                    assert other._obs_memo is not st._obs_memo
                    assert np.array_equal(other.observation(player), st.observation(player))
                legal = clone.legal_actions()
                clone.apply(legal[-1])  # the clone diverges and is read in between
                if not clone.is_terminal():
                    seat = clone.current_player()
                    assert np.array_equal(clone.observation(seat), reference_encode(clone, seat))
            legal = st.legal_actions()
            st.apply(legal[rng.integers(len(legal))])
            games[k] = st


def test_a_state_read_by_another_thread_reads_the_same() -> None:
    """A state whose memo another thread made is read with that thread's own memo."""
    import threading

    st = _games((4,), 200)[0]
    player = st.current_player()
    here = st.observation(player)
    there: list[np.ndarray] = []
    worker = threading.Thread(target=lambda: there.append(st.observation(player)))
    worker.start()
    worker.join()
    assert np.array_equal(there[0], here)
    assert st._obs_memo.thread == threading.get_ident()


@pytest.mark.parametrize("seed", [2, 17])
def test_a_turn_said_to_offer_a_choice_lists_two_or_more_actions(seed: int) -> None:
    """``turn._sure_choice`` spares the listing only where the listing has a real choice (and
    it answers for most turns, or it would spare nothing)."""
    sure = unsure = 0
    for st in _random_states(seed, 700):
        item = st.agenda[-1]
        if item[0] != K.DECIDE_TURN:
            continue
        for main_done, free_used in ((0, 0), (1, 0), (0, 1), (1, 1)):
            st.main_done, st.free_used = main_done, free_used
            if turn._sure_choice(st, item):
                assert len(turn._legal_turn(st, item)) >= 2, (seed, main_done, free_used)
                sure += 1
            else:
                unsure += 1
    assert sure > 2 * unsure > 0
