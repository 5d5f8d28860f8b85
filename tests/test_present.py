"""The presentation layer of every game (``envs/<game>/present.py``): prompts in words, a
label for every legal action, card text, a log, and no hidden information in what a seat is
shown.

The no-leak check is the conformance kit's, applied to the views: a view for a set of seats
must not change when what those seats cannot see is re-dealt (``resample_hidden``), and the
log lines a seat may read must not change either, wherever the step looks the same to it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo import envs
from meeplezoo.envs.core.agents import RandomBot
from meeplezoo.envs.core.present import Presenter, sections_text, view

GAMES = [("chihou_sousei_v1", 3), ("asian_delivery_v1", 3), ("necropolis_railway_v1", 2),
         ("hegemony_v1", 4)]


def positions(name: str, players: int, seed: int, every: int, limit: int):
    """(before, action, after) along a heuristic game (random moves now and then)."""
    game = envs.make_game(name, num_players=players)
    state = game.new_initial_state(seed)
    bots = [game.heuristic_bot(seed), RandomBot(seed)]
    for step in range(limit):
        if state.is_terminal():
            return
        action = bots[step % 5 == 0].act(state)
        before = state.clone()
        state.apply(action)
        if step % every == 0:
            yield before, action, state


@pytest.mark.parametrize("name,players", GAMES)
def test_every_decision_has_a_prompt_and_every_action_a_label(name, players):
    presenter = envs.presenter(name)
    assert type(presenter) is not Presenter
    for before, _, _ in positions(name, players, seed=1, every=1, limit=700):
        shown = view(presenter, before, frozenset({before.current_player()}))
        assert shown["prompt"] and "_" not in shown["prompt"].split(" — ")[0], shown["prompt"]
        for choice in shown["choices"]:
            assert choice["label"] and choice["label"] != choice["name"], choice
        json.dumps(shown)  # JSON-safe


@pytest.mark.parametrize("name,players", GAMES)
def test_a_view_hides_what_its_seats_cannot_see(name, players):
    """Views and log lines stay the same when the hidden information is re-dealt."""
    presenter = envs.presenter(name)
    rng = np.random.default_rng(0)
    checked = 0
    for before, action, after in positions(name, players, seed=2, every=5, limit=700):
        for viewer in range(players):
            seen = frozenset({viewer})
            redealt = before.resample_hidden(viewer, rng)
            assert view(presenter, before, seen) == view(presenter, redealt, seen), viewer
            if viewer == before.current_player() or not redealt.legal_mask()[action]:
                continue
            replayed = redealt.clone()
            replayed.apply(action)
            if view(presenter, replayed, seen) != view(presenter, after, seen):
                continue  # a chance draw came out differently: another step to the viewer
            told = [line.text for line in presenter.narrate(before, action, after)
                    if line.visible_to(seen)]
            assert told == [line.text for line in presenter.narrate(redealt, action, replayed)
                            if line.visible_to(seen)]
            checked += 1
        watch = view(presenter, before, frozenset())
        assert not watch["choices"]
        assert watch == view(presenter, before.resample_hidden(0, rng), frozenset())
    assert checked >= 10


def test_hegemony_shows_a_hand_and_a_bid_only_to_its_class():
    presenter = envs.presenter("hegemony_v1")
    for before, _, _ in positions("hegemony_v1", 4, seed=3, every=1, limit=700):
        if before.decision_name() == "sealed_bid" and any(
                "sealed a bid" in line for seat in view(presenter, before, frozenset({3}))
                ["sections"][1]["pieces"] for line in seat["lines"]):
            break
    bidder = before.current_player()
    action = next(a for a in before.legal_actions())
    after = before.clone()
    after.apply(action)
    lines = presenter.narrate(before, action, after)
    own = [line.text for line in lines if line.visible_to(frozenset({bidder}))]
    assert own[0].endswith(" influence") and "Bid " in own[0]
    for viewers in (frozenset(), frozenset({(bidder + 1) % 4})):  # a watcher, another seat
        told = [line.text for line in lines if line.visible_to(viewers)]
        assert "places a sealed bid" in told[0] and "Bid " not in told[0]
    mine = view(presenter, before, frozenset({0}))
    text = json.dumps(mine)
    assert "Your hand (Working Class)" in text and "Your hand (Middle Class)" not in text
    assert "your sealed bid" not in json.dumps(view(presenter, before, frozenset({3})))


def test_chihou_cards_show_icons_events_and_terminal_lines():
    presenter = envs.presenter("chihou_sousei_v1")
    state = envs.make_game("chihou_sousei_v1", num_players=2).new_initial_state(5)
    shown = view(presenter, state, frozenset({0}))
    row = shown["sections"][0]
    assert row["id"] == "row" and len(row["pieces"]) == 3
    assert all(p["detail"] and "Event" in p["detail"] for p in row["pieces"])
    assert all(c["target"] == f"row:{c['action']}" for c in shown["choices"])
    assert shown["choices"][0]["label"].startswith("Take ")
    text = "\n".join(sections_text(presenter.sections(state, frozenset({0}))))
    assert text.startswith("The row:") and "event:" in text


def test_hegemony_card_text_covers_every_card_of_the_files():
    from meeplezoo.envs.hegemony import present_text as T

    for card_id, card in T.ACTION_CARDS.items():
        assert T.DECK_ROWS[card_id]["title"] == card["title"]
        assert T.card_text(card_id)
    for index, event in enumerate(T.EVENTS):
        assert T.DECK_ROWS[event["id"]]["title"] == event["title"] and T.event_text(index)
    assert T.card_options("mc_21") == ["gain 3 Food", "gain 4 Luxury", "gain 4 Health",
                                       "gain 4 Education"]


def test_a_game_without_a_present_module_falls_back_to_names():
    presenter = envs.presenter("toy_roles_v0")
    assert type(presenter) is Presenter


def public_ids(presenter: Presenter, state) -> set[str]:
    return {piece.id for section in presenter.sections(state, frozenset())
            for piece in section.pieces}


@pytest.mark.parametrize("name,players", GAMES)
def test_a_move_touches_only_public_pieces_where_the_board_changed(name, players):
    """``touched`` (the web table's highlight of the others' moves) names pieces of the
    public view only, before or after the move: each changed or appeared there, or is the
    target of a move everyone may see; most moves touch something."""
    presenter = envs.presenter(name)
    moves = touching = 0
    for before, action, after in positions(name, players, seed=4, every=1, limit=400):
        touched = presenter.touched(before, action, after)
        old = {piece.id: piece for section in presenter.sections(before, frozenset())
               for piece in section.pieces}
        new = {piece.id: piece for section in presenter.sections(after, frozenset())
               for piece in section.pieces}
        assert len(touched) == len(set(touched)) and set(touched) <= set(old) | set(new)
        target = presenter.target(before, action)
        for pid in touched:
            changed = pid in new and old.get(pid) != new[pid]
            assert changed or (pid == target and not presenter.secret(before, action)), pid
        moves += 1
        touching += bool(touched)
    assert touching >= moves // 2, (touching, moves)


def held(line: str) -> list[int]:
    """``storage: Food 3/8 · Luxury 1/8`` -> ``[3, 1]`` (what is held, not the room)."""
    return [int(part.split()[-1].split("/")[0]) for part in line.split(": ", 1)[1].split(" · ")]


def test_hegemony_shows_every_classs_goods_prices_and_done():
    """The goods section holds what the state holds (terminal play prints it too); a
    prompt offers Done exactly where Done is legal; buying names its prices; an Event
    option names its effect."""
    presenter = envs.presenter("hegemony_v1")
    seen: set[str] = set()
    for before, _, _ in positions("hegemony_v1", 4, seed=6, every=1, limit=3000):
        sections = presenter.sections(before, frozenset())
        goods = next(s for s in sections if s.id == "goods")
        lines = {piece.id: piece.lines for piece in goods.pieces}
        assert [held(lines[pid][k]) for pid, k in (("goods:0", 0), ("goods:1", 0),
                                                    ("goods:1", 1), ("goods:2", 0),
                                                    ("goods:2", 1), ("goods:3", 0),
                                                    ("goods:3", 1))] == [
            before.goods[0], before.goods[1], before.mc_storage, before.cc_storage,
            before.ftz, before.state_goods, before.public_services]
        assert goods.terminal and any(line.startswith("Goods, storage and Public Services:")
                                      for line in sections_text(sections))
        shown = view(presenter, before, frozenset({before.current_player()}))
        labels = [choice["label"] for choice in shown["choices"]]
        assert ("Done" in shown["prompt"]) == ("Done" in labels), (shown["prompt"], labels)
        kind = before.decision_name()
        if kind in ("buy_resource", "buy_source", "buy_quantity", "cover_needs_buy",
                    "effects_provide_source"):
            assert all("₳" in label for label in labels if label not in ("Done", "No more")), \
                labels
            seen.add(kind)
        if kind == "event_action_option":
            assert all(" — " in label and ("legitimacy" in label or "VP" in label)
                       for label in labels), labels
            seen.add(kind)
    assert {"buy_resource", "buy_source", "buy_quantity", "event_action_option"} <= seen, seen
