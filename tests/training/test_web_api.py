"""The web table's JSON API (Starlette's TestClient): tables, moves, agents, undo, saves, and
what a client may not get — another seat's hand or bid, a move that is not legal or not its
own, a table without its credentials.  Every bad request is a 4xx that says what was wrong
and leaves the table as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from meeplezoo import envs
from meeplezoo.training.agents import zoo
from meeplezoo.training.agents.bots import LEVELS
from meeplezoo.training.web.app import CREDENTIALS, create_app

BASE = "http://127.0.0.1"


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "saves"), base_url=BASE) as test_client:
        yield test_client


def new_table(client, env="chihou_sousei_v1", seats=("human", "heuristic"), seed=3, **extra):
    """A table, and the headers of its first link (the first person's seat, or the watcher's
    at a table of agents).  A seed makes it a practice table (only those take a seed)."""
    body = {"env": env, "seats": list(seats), **extra}
    if seed is not None:
        body.update(seed=seed, practice=True)
    if "players" not in extra and envs.game_class(env).min_players != envs.game_class(
            env).max_players:
        body["players"] = len(seats)
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    made = response.json()
    return made["id"], {CREDENTIALS: made["credentials"]}


def get_view(client, table, auth, **params):
    response = client.get(f"/api/tables/{table}/view", headers=auth, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def post(client, table, auth, what, body):
    return client.post(f"/api/tables/{table}/{what}", headers=auth, json=body)


def test_the_page_and_the_games_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "MeepleZoo" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/table.js").status_code == 200
    games = {g["env"]: g for g in client.get("/api/games").json()}
    assert set(games) >= {"chihou_sousei_v1", "asian_delivery_v1", "necropolis_railway_v1",
                          "hegemony_v1"}
    assert "chihou_sousei_v1/ppo_league@hard" in games["chihou_sousei_v1"]["agents"]


def agent_list(client, env, players):
    response = client.get("/api/agents", params={"env": env, "players": players})
    assert response.status_code == 200, response.text
    return {agent["spec"]: agent for agent in response.json()["agents"]}


@pytest.fixture
def synthetic_zoo(tmp_path, monkeypatch):
    """A zoo of two Necropolis cards (only what the listing reads): ``both`` plays 1 or 2
    players, measured @hard stronger at 2 and weaker alone, @easy nowhere; ``three`` plays
    3 players only."""
    root = tmp_path / "zoo"

    def strength(key, value, low, high):
        return {"strength": {"games": 50, key: value, f"{key}_ci95": [low, high]},
                "cost": {"median_s": 0.1}, "settings": dict(LEVELS["hard"])}

    cards = {
        "both": {"env": "necropolis_railway_v1", "role": "player", "player_counts": [1, 2],
                 "levels": {"hard": {
                     "2p": strength("win_share_difference", 0.1, 0.02, 0.18),
                     "1p": strength("score_difference", -5.0, -8.0, -2.0)}}},
        "three": {"env": "necropolis_railway_v1", "role": "player", "player_counts": [3]},
    }
    for name, card in cards.items():
        folder = root / "necropolis_railway_v1" / name
        folder.mkdir(parents=True)
        (folder / "card.json").write_text(json.dumps(card))
    monkeypatch.setattr(zoo, "zoo_root", lambda: root)
    return root


def test_the_agent_list_offers_only_agents_that_play_the_chosen_player_count(
        client, synthetic_zoo):
    two = agent_list(client, "necropolis_railway_v1", 2)
    assert set(two) == {"heuristic", "random", "necropolis_railway_v1/both",
                        "necropolis_railway_v1/both@hard"}
    three = agent_list(client, "necropolis_railway_v1", 3)
    assert set(three) == {"heuristic", "random", "necropolis_railway_v1/three"}
    assert set(agent_list(client, "necropolis_railway_v1", 4)) == {"heuristic", "random"}
    games = {g["env"]: g for g in client.get("/api/games").json()}
    assert games["necropolis_railway_v1"]["agents"] == list(two)  # its default count: 2


def test_a_level_is_offered_as_stronger_only_where_its_card_measured_it_so_at_that_count(
        client, synthetic_zoo):
    hard = "necropolis_railway_v1/both@hard"
    at_two = agent_list(client, "necropolis_railway_v1", 2)[hard]
    assert at_two["claim"] == "stronger" and at_two["players"] == 2
    assert "stronger than the network at 2 players: win share +10.0 points" in at_two["label"]
    alone = agent_list(client, "necropolis_railway_v1", 1)[hard]
    assert alone["claim"] == "weaker" and "stronger" not in alone["label"]
    assert "weaker than the network alone: score -5.0 [-8.0 to -2.0] over 50" in alone["label"]
    # a level its card does not measure at this count is not offered at all
    assert "necropolis_railway_v1/both@easy" not in agent_list(client, "necropolis_railway_v1",
                                                               2)
    assert "necropolis_railway_v1/both@expert" not in agent_list(
        client, "necropolis_railway_v1", 2)


def test_the_shipped_levels_are_labelled_by_what_their_cards_measured(client):
    """Whatever the shipped cards record: a level offered at a count was measured there, and
    its label says "stronger" exactly where the claim is stronger."""
    for env in ("asian_delivery_v1", "chihou_sousei_v1", "hegemony_v1",
                "necropolis_railway_v1"):
        for players in (1, 2, 3, 4):
            response = client.get("/api/agents", params={"env": env, "players": players})
            if response.status_code != 200:
                continue  # a count the game does not play
            for agent in response.json()["agents"]:
                if "@" not in agent["spec"]:
                    assert agent["claim"] is None
                    continue
                base, level = agent["spec"].rsplit("@", 1)
                entry = zoo.zoo_entry(base)
                assert entry.plays(players)
                claim = entry.claim(level, players, entry.level_settings(LEVELS, level))
                assert agent["claim"] == claim.verdict != zoo.NOT_MEASURED
                assert ("stronger" in agent["label"]) == claim.stronger, agent


@pytest.mark.parametrize("params, message", [
    ({"env": "chess_v1", "players": 2}, "unknown env"),
    ({"env": "necropolis_railway_v1", "players": 9}, "plays 1..4 players, not 9"),
    ({"env": "necropolis_railway_v1", "players": "two"}, "must be a player count"),
])
def test_a_bad_agent_list_request_is_a_clear_4xx(client, params, message):
    response = client.get("/api/agents", params=params)
    assert response.status_code == 400 and message in response.json()["error"]


@pytest.mark.parametrize("env, players, seats, message", [
    ("necropolis_railway_v1", 2, ["human", "necropolis_railway_v1/ppo_league_exit6"],
     "seat 1: necropolis_railway_v1/ppo_league_exit6 cannot play 2 players: it plays 1 player"),
    ("necropolis_railway_v1", 3, ["human", "random", "necropolis_railway_v1/ppo_league@hard"],
     "seat 2: necropolis_railway_v1/ppo_league@hard cannot play 3 players: it plays 1 or 2 "
     "players"),
    ("asian_delivery_v1", 3, ["human", "asian_delivery_v1/ppo_league", "random"],
     "cannot play 3 players: it plays 4 players"),
    ("hegemony_v1", 4, ["hegemony_v1/ppo_classes/state", "human", "human", "human"],
     "checkpoint hegemony_v1/ppo_classes/state: it plays role 'state'"),
])
def test_a_start_with_an_agent_that_cannot_play_is_refused_with_what_it_plays(
        client, env, players, seats, message):
    response = client.post("/api/tables", json={"env": env, "players": players, "seats": seats})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert message in error
    assert str(zoo.zoo_root()) not in error and str(Path.cwd()) not in error  # no server path
    assert not client.app.state.tables.tables  # no table was made


def test_a_whole_game_through_the_api(client):
    table, auth = new_table(client)
    shown = get_view(client, table, auth)
    assert shown["table"]["human_seats"] == [0] and shown["prompt"].startswith("Take a card")
    while not shown["over"]:
        if shown["table"]["bot_to_move"]:
            response = post(client, table, auth, "step", {"moves": 50,
                                                         "version": shown["table"]["version"]})
        else:
            choice = shown["choices"][0]
            response = post(client, table, auth, "act", {
                "seat": 0, "action": choice["action"], "version": shown["table"]["version"]})
        assert response.status_code == 200, response.text
        shown = response.json()
    assert "The game is over" in shown["log"][-1]
    assert all(seat["place"] for seat in shown["seats"])


def test_undo_goes_back_to_the_persons_previous_decision(client):
    """A practice table: undo goes back past the row's refill (a draw)."""
    table, auth = new_table(client)
    first = get_view(client, table, auth)
    post(client, table, auth, "act", {"seat": 0, "action": first["choices"][0]["action"]})
    post(client, table, auth, "step", {"moves": 10})
    assert post(client, table, auth, "undo", {}).status_code == 200
    again = get_view(client, table, auth)
    assert again["sections"] == first["sections"] and again["choices"] == first["choices"]
    response = post(client, table, auth, "undo", {})
    assert response.status_code == 409 and "nothing to undo" in response.json()["error"]


def test_save_and_load_through_the_saves_folder_and_an_upload(client, tmp_path):
    """A practice table saves into its own folder and loads any save of its game."""
    table, auth = new_table(client)
    start = get_view(client, table, auth)
    assert post(client, table, auth, "save", {"name": "start"}).json() == {"saved": "start"}
    listed = client.get(f"/api/tables/{table}/saves", headers=auth).json()
    assert [s["name"] for s in listed] == ["start"]
    post(client, table, auth, "act", {"seat": 0, "action": start["choices"][1]["action"]})
    loaded = post(client, table, auth, "load", {"name": "start"}).json()
    assert loaded["sections"] == start["sections"]
    saved = json.loads((tmp_path / "saves" / table / "start.json").read_text())
    assert post(client, table, auth, "load", {"save": saved}).status_code == 200


def test_watch_mode_and_any_agent_spec(client):
    assert "cannot play" in client.post("/api/tables", json={
        "env": "necropolis_railway_v1", "players": 2,
        "seats": ["chihou_sousei_v1/ppo_league", "random"]}).json()["error"]
    table, auth = new_table(client, env="necropolis_railway_v1",
                            seats=("necropolis_railway_v1/ppo_league@easy",
                                   "meeplezoo.envs.core.agents:RandomBot"), seed=1)
    shown = get_view(client, table, auth)
    assert shown["table"]["watch"] and not shown["choices"] and not shown["prompt"]
    shown = post(client, table, auth, "step", {"moves": 30}).json()
    assert shown["table"]["version"] == 30 and len(shown["log"]) > 30


def test_a_client_gets_only_its_own_seats_secrets(client):
    """Hegemony: the person holds the Working Class; the others' hands, bids and deck
    orders are never in what the server sends."""
    table, auth = new_table(client, env="hegemony_v1",
                            seats=("human", "heuristic", "heuristic", "heuristic"), seed=5)
    state = client.app.state.tables.tables[table].state
    shown = get_view(client, table, auth)
    text = json.dumps(shown)
    assert "Your hand (Working Class)" in text
    for cls in (1, 2, 3):
        assert f"Your hand ({['WC', 'Middle Class', 'Capitalist Class', 'State'][cls]})" \
            not in text
    from meeplezoo.envs.hegemony.actions import card_designs
    from meeplezoo.envs.hegemony.present_text import card_title

    mine = {card_title(card_designs(0)[d]) for d in state.hands[0]}
    others = {card_title(card_designs(c)[d]) for c in (1, 2, 3) for d in state.hands[c]}
    assert all(title in text for title in mine)
    assert not any(title in text for title in others - mine), others - mine
    for seat in (1, 2, 3):  # asking for another seat's view is refused
        response = client.get(f"/api/tables/{table}/view", headers=auth, params={"seat": seat})
        assert response.status_code == 403 and "not yours" in response.json()["error"]
    for key in ("hands", "action_decks", "event_deck", "ctx", "rng", "history"):
        assert f'"{key}"' not in text  # no raw state, no deck order, no saved game
    # play until another class has sealed a bid: its amount stays out of the view
    for _ in range(400):
        if any("has sealed a bid" in line for p in shown["sections"][1]["pieces"]
               for line in p["lines"]):
            break
        version = shown["table"]["version"]
        if shown["table"]["bot_to_move"]:
            shown = post(client, table, auth, "step", {"version": version}).json()
        else:
            shown = post(client, table, auth, "act", {
                "seat": 0, "action": shown["choices"][-1]["action"], "version": version}).json()
    else:
        pytest.fail("no sealed bid in 400 moves")
    bidders = [p for p in shown["sections"][1]["pieces"] if "has sealed a bid" in p["lines"]]
    assert bidders and "your sealed bid" not in json.dumps(bidders)
    assert not any("Bid " in line and "influence" in line for line in shown["log"]
                   if not line.startswith("Working Class"))


BAD = [
    ("post", "/api/tables", {"env": "chess_v1", "seats": ["human"]}, 400, "unknown env"),
    ("post", "/api/tables", {"env": "chihou_sousei_v1", "players": 9, "seats": []}, 400,
     "num_players=9"),
    ("post", "/api/tables", {"env": "chihou_sousei_v1", "players": 2, "seats": ["human"]}, 400,
     "must list 2 seat"),
    ("post", "/api/tables", {"env": "chihou_sousei_v1", "players": 2,
                             "seats": ["human", "nobody/nothing"]}, 400, "cannot play"),
    ("post", "/api/tables", {"env": "chihou_sousei_v1", "players": 2,
                             "seats": ["human", "x/y@godlike"]}, 400, "unknown level"),
    ("post", "/api/tables", {"env": "chihou_sousei_v1", "players": 2,
                             "seats": ["human", "no.such.module:Agent"]}, 400, "cannot import"),
    ("post", "/api/tables", {"env": "chihou_sousei_v1", "seats": ["human", "random"],
                             "players": 2, "seed": "seven", "practice": True}, 400,
     "'seed' must be an integer"),
    ("post", "/api/tables", {"env": "chihou_sousei_v1", "seats": ["human", "random"],
                             "players": 2, "seed": 7}, 400,
     "choose a seed only at a practice table"),
    ("get", "/api/tables/nosuch/view", None, 404, "no table 'nosuch'"),
    ("get", "/nowhere", None, 404, "the API is under /api/"),
]


@pytest.mark.parametrize("method,path,body,status,message", BAD)
def test_a_bad_request_is_a_clear_4xx(client, method, path, body, status, message):
    response = client.request(method.upper(), path, json=body)
    assert response.status_code == status, response.text
    assert message in response.json()["error"]


def test_bad_moves_leave_the_table_as_it_was(client):
    table, auth = new_table(client)
    before = get_view(client, table, auth)
    version = before["table"]["version"]
    illegal = next(a for a in range(600) if a not in {c["action"] for c in before["choices"]})
    cases = [
        ("act", {"seat": 0, "action": illegal, "version": version}, 400, "is not legal now"),
        ("act", {"seat": 1, "action": 0, "version": version}, 403, "played by heuristic"),
        ("act", {"seat": 0, "action": "pick:0"}, 400, "'action' must be an integer"),
        ("act", {"seat": 0, "action": before["choices"][0]["action"], "version": version + 5},
         409, "moved on"),
        ("act", {"seat": 7, "action": 0}, 400, "'seat' must be in 0..1"),
        ("step", {"moves": 1}, 409, "is a person's to move"),
        ("step", {"moves": 0}, 400, "'moves' must be in 1..5000"),
        ("undo", {}, 409, "nothing to undo"),
        ("save", {"name": "../escape"}, 400, "save name"),
        ("load", {"name": "missing"}, 404, "no save named 'missing'"),
        ("load", {}, 400, "give the save's name"),
        ("load", {"save": {"env": "chihou_sousei_v1"}}, 400, "not a valid save"),
    ]
    for what, body, status, message in cases:
        response = post(client, table, auth, what, body)
        assert response.status_code == status, (what, body, response.text)
        assert message in response.json()["error"], (what, response.json())
    corrupt = client.app.state.tables.tables[table].state.to_dict()
    corrupt["state"]["stock"] = -5
    response = post(client, table, auth, "load", {"save": corrupt})
    assert response.status_code == 400 and "state.stock" in response.json()["error"]
    other = envs.make_game("chihou_sousei_v1", num_players=3).new_initial_state(0).to_dict()
    response = post(client, table, auth, "load", {"save": other})
    assert response.status_code == 400 and "this table plays" in response.json()["error"]
    raw = client.post(f"/api/tables/{table}/act", headers=auth, content=b"{not json")
    assert raw.status_code == 400 and "JSON object" in raw.json()["error"]
    listed = client.post(f"/api/tables/{table}/act", headers=auth, json=[1, 2])
    assert listed.status_code == 400 and "not list" in listed.json()["error"]
    for headers in ({}, {CREDENTIALS: "guess"}):
        response = client.get(f"/api/tables/{table}/view", headers=headers)
        assert response.status_code == 403 and "credentials" in response.json()["error"]
    assert get_view(client, table, auth) == before


def test_other_hosts_are_refused(tmp_path):
    with TestClient(create_app(tmp_path), base_url="http://evil.example") as other:
        assert other.get("/api/games").status_code == 400
