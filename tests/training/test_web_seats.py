"""The web table for people together, through its JSON API (Starlette's TestClient): a link per
seat, each showing only its seat's secrets; the watcher's link; hot-seat mode; undo that stops
at a random event or a hidden reveal; a seed nobody learns before the end; saves that belong
to their table; and bad inputs that get a 4xx and leave the table as it was.

The no-peek checks re-deal what a seat cannot see (``GameState.resample_hidden``, which
changes only that) under a running table and ask the server again: the seat's view must not
change.  Hegemony is the game with hands, so there the re-deal must also change another
seat's view at some position, which shows that a secret was there to leak.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from meeplezoo import envs
from meeplezoo.training.web.app import CREDENTIALS, create_app
from meeplezoo.training.web.serve import exposure

BASE = "http://127.0.0.1"
# per game: the player count and the seats, two of them people's
TWO_PEOPLE = {
    "chihou_sousei_v1": ["human", "human"],
    "asian_delivery_v1": ["human", "human", "heuristic"],
    "necropolis_railway_v1": ["human", "human"],
    "hegemony_v1": ["human", "human", "heuristic", "heuristic"],
}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "saves"), base_url=BASE) as test_client:
        yield test_client


@pytest.fixture
def fixed_draws(monkeypatch):
    """The server's secret draws (seeds, agents' seeds) made repeatable for one test, so a
    failure can be replayed; the credentials stay random."""
    import secrets

    draws = random.Random(20261203)
    monkeypatch.setattr(secrets, "randbelow", lambda n: draws.randrange(n))
    monkeypatch.setattr(secrets, "randbits", lambda k: draws.getrandbits(k))


def make(client, env: str, seats: list[str], **extra) -> dict:
    response = client.post("/api/tables", json={"env": env, "players": len(seats),
                                                "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def auth(link: dict) -> dict[str, str]:
    return {CREDENTIALS: link["credentials"]}


def seat_link(made: dict, seat: int) -> dict:
    return next(link for link in made["links"] if seat in link["seats"])


def watcher(made: dict) -> dict:
    return next(link for link in made["links"] if link["kind"] == "watcher")


def view(client, table: str, link: dict, **params) -> dict:
    response = client.get(f"/api/tables/{table}/view", headers=auth(link), params=params)
    assert response.status_code == 200, response.text
    return response.json()


def post(client, table: str, link: dict, what: str, body: dict):
    return client.post(f"/api/tables/{table}/{what}", headers=auth(link), json=body)


def table_of(client, table: str):
    return client.app.state.tables.tables[table]


def advance(client, table: str, made: dict, rng: random.Random) -> dict:
    """One move: an agent's step, or a random choice by the link of the seat to move."""
    first = made["links"][0]
    shown = view(client, table, first)
    if shown["table"]["bot_to_move"]:
        response = post(client, table, first, "step", {"moves": 1})
    else:
        link = seat_link(made, shown["to_move"])
        mine = view(client, table, link)
        choice = rng.choice(mine["choices"])
        response = post(client, table, link, "act", {"seat": shown["to_move"],
                                                     "action": choice["action"]})
    assert response.status_code == 200, response.text
    return response.json()


# -- a link per seat ------------------------------------------------------------------------
def test_a_table_of_two_people_hands_out_two_seat_links_and_a_watchers(client):
    made = make(client, "necropolis_railway_v1", ["human", "human"])
    kinds = [(link["kind"], link["seats"]) for link in made["links"]]
    assert kinds == [("seat", [0]), ("seat", [1]), ("watcher", [])]
    assert made["credentials"] == made["links"][0]["credentials"]
    tokens = {link["credentials"] for link in made["links"]}
    assert len(tokens) == 3
    for link in made["links"]:  # the page's address, the key in the fragment
        assert link["url"] == f"{BASE}/table/{made['id']}#key={link['credentials']}"
        assert client.get(link["url"].split("#")[0]).status_code == 200
    shown = [view(client, made["id"], link)["table"] for link in made["links"]]
    assert [s["your_seats"] for s in shown] == [[0], [1], []]
    assert [s["players"][0]["who"] for s in shown] == ["you", "another person",
                                                       "another person"]
    assert shown[2]["watch"] and not shown[0]["watch"]


@pytest.mark.parametrize("env", sorted(TWO_PEOPLE))
def test_each_link_sees_only_its_own_seats_secrets(client, env, fixed_draws):
    """Over 60 positions (a new table when a game ends): a seat's view stays the same when
    what that seat cannot see is re-dealt on the server; the watcher's stays the same
    whichever seat's unseen information is re-dealt."""
    seats = TWO_PEOPLE[env]
    rng, redeal = random.Random(3), np.random.default_rng(3)
    checked = secrets_seen = 0
    made = None
    while checked < 120:
        if made is None or table_of(client, made["id"]).state.is_terminal():
            made = make(client, env, seats)
            table, live = made["id"], table_of(client, made["id"])
            people = [seat_link(made, 0), seat_link(made, 1)]
        advance(client, table, made, rng)
        real = live.state
        for seat, link in enumerate(people):
            shown, other = view(client, table, link), view(client, table, people[1 - seat])
            live.state = real.resample_hidden(seat, redeal)
            try:
                assert view(client, table, link) == shown, (env, seat)
                secrets_seen += view(client, table, people[1 - seat]) != other
            finally:
                live.state = real
            checked += 1
        public = view(client, table, watcher(made))
        for seat in range(len(seats)):
            live.state = real.resample_hidden(seat, redeal)
            try:
                assert view(client, table, watcher(made)) == public, (env, "watcher", seat)
            finally:
                live.state = real
    if env == "hegemony_v1":  # hands: the other seat's view did change with the re-deal
        assert secrets_seen >= 10


def test_the_hegemony_links_show_their_own_hand_and_no_other(client):
    made = make(client, "hegemony_v1", TWO_PEOPLE["hegemony_v1"])
    names = ["Working Class", "Middle Class", "Capitalist Class", "State"]
    for seat in (0, 1):
        text = json.dumps(view(client, made["id"], seat_link(made, seat)))
        assert f"Your hand ({names[seat]})" in text
        assert not [n for n in names if n != names[seat] and f"Your hand ({n})" in text]
    public = json.dumps(view(client, made["id"], watcher(made)))
    assert "Your hand" not in public


def test_an_open_practice_tables_watcher_sees_every_seat(client):
    made = make(client, "hegemony_v1", ["human", "human", "heuristic", "heuristic"],
                practice=True, open=True)
    shown = view(client, made["id"], watcher(made))
    text = json.dumps(shown)
    assert all(f"Your hand ({n})" in text for n in ("Working Class", "Middle Class",
                                                      "Capitalist Class", "State"))
    assert not shown["choices"] and not shown["prompt"]  # a watcher never moves
    refused = client.post("/api/tables", json={
        "env": "hegemony_v1", "players": 4, "seats": ["human"] * 4, "open": True})
    assert refused.status_code == 400 and "practice table" in refused.json()["error"]


def test_a_link_cannot_act_or_undo_for_another_seat(client):
    made = make(client, "chihou_sousei_v1", ["human", "human"], practice=True, seed=4)
    table = made["id"]
    first, second, watch = seat_link(made, 0), seat_link(made, 1), watcher(made)
    start = view(client, table, first)
    assert start["to_move"] == 0 and start["choices"]
    action = start["choices"][0]["action"]
    assert not view(client, table, second)["choices"]  # not its turn: no choices
    for link, message in ((second, "another person's"), (watch, "another person's")):
        response = post(client, table, link, "act", {"seat": 0, "action": action})
        assert response.status_code == 403 and message in response.json()["error"]
    for link, seat in ((first, 1), (second, 0), (watch, 0)):
        response = client.get(f"/api/tables/{table}/view", headers=auth(link),
                              params={"seat": seat})
        assert response.status_code == 403 and "not yours" in response.json()["error"]
    assert view(client, table, first) == start
    assert post(client, table, first, "act", {"seat": 0, "action": action}).status_code == 200
    moved = view(client, table, first)
    for link, message in ((second, "only that seat's link"), (watch, "watcher")):
        response = post(client, table, link, "undo", {})
        assert response.status_code == 403 and message in response.json()["error"]
    assert view(client, table, first) == moved
    assert post(client, table, first, "undo", {}).status_code == 200
    assert view(client, table, first)["sections"] == start["sections"]


def test_rejoining_with_a_link_shows_the_seat_as_it_stands(client, fixed_draws):
    made = make(client, "necropolis_railway_v1", ["human", "human"])
    rng = random.Random(5)
    for _ in range(6):
        advance(client, made["id"], made, rng)
    link = seat_link(made, 1)
    key = link["url"].split("#key=", 1)[1]  # what the page keeps from the link
    again = view(client, made["id"], {"credentials": key})
    assert again == view(client, made["id"], link) and again["table"]["version"] == 6


# -- the others' last moves ------------------------------------------------------------
def piece_ids(shown: dict) -> set[str]:
    return {piece["id"] for section in shown["sections"] for piece in section["pieces"]}


@pytest.mark.parametrize("env", sorted(TWO_PEOPLE))
def test_a_view_marks_the_others_moves_since_its_seat_last_moved(client, env, fixed_draws):
    """Over 120 moves of two people and the bots: each link's ``recent`` names the public
    pieces (the watcher's view holds each of them) that the moves since its seat last moved
    touched, and no piece of its own move; its log range holds those moves' lines it may
    read.
    A seat's hand is never marked (Hegemony: no ``hand:`` piece, whoever moved)."""
    seats = TWO_PEOPLE[env]
    rng = random.Random(9)
    marked = 0
    made = None
    for _ in range(120):
        if made is None or table_of(client, made["id"]).state.is_terminal():
            made = make(client, env, seats)
            table, live = made["id"], table_of(client, made["id"])
            people = [seat_link(made, 0), seat_link(made, 1)]
        advance(client, table, made, rng)
        public = piece_ids(view(client, table, watcher(made)))
        for seat, link in enumerate(people):
            shown = view(client, table, link)
            since = []
            for move in reversed(live.moves):
                if move.seat == seat:
                    break
                since.append(move)
            touched = {pid for move in since for pid in move.touched}
            recent = set(shown["recent"]["pieces"])
            assert recent == touched & piece_ids(shown), (env, seat)
            assert recent <= public and not [p for p in recent if p.startswith("hand")]
            readable = [line.text for line in (live.log[since[-1].log_start:since[0].log_end]
                                               if since else [])
                        if line.visible_to(frozenset({seat}))]
            start, end = shown["recent"]["log"]
            assert shown["log"][start:end] == readable and end - start == len(readable)
            marked += bool(recent)
    assert marked >= 40, marked


def test_undo_takes_the_undone_moves_off_the_board(client):
    """The agents' replies to the person's decision are marked; an undo back to that
    decision marks again what was marked before it, nothing of the undone moves.  A watcher
    at a table of agents only sees the last move marked."""
    made = make(client, "necropolis_railway_v1", ["human", "heuristic"], practice=True, seed=3)
    table, link = made["id"], seat_link(made, 0)
    live = table_of(client, table)
    replied = 0
    for _ in range(40):
        before = view(client, table, link)
        count = len(live.moves)
        post(client, table, link, "act", {"seat": 0, "action": before["choices"][0]["action"]})
        if not view(client, table, link)["table"]["bot_to_move"]:
            continue
        post(client, table, link, "step", {"moves": 5000})
        replies = live.moves[count + 1:]
        assert replies and all(move.seat != 0 for move in replies)
        shown = view(client, table, link)
        assert set(shown["recent"]["pieces"]) == {p for m in replies for p in m.touched} & \
            piece_ids(shown)
        replied += bool(shown["recent"]["pieces"])
        assert post(client, table, link, "undo", {}).status_code == 200
        assert len(live.moves) == count
        assert view(client, table, link)["recent"] == before["recent"]
        post(client, table, link, "act", {"seat": 0, "action": before["choices"][-1]["action"]})
        if view(client, table, link)["table"]["bot_to_move"]:
            post(client, table, link, "step", {"moves": 5000})
    assert replied >= 3, replied
    agents = make(client, "chihou_sousei_v1", ["heuristic", "heuristic"])
    watch, live = watcher(agents), table_of(client, agents["id"])
    seen = 0
    for _ in range(10):
        post(client, agents["id"], watch, "step", {"moves": 1})
        shown = view(client, agents["id"], watch)
        assert set(shown["recent"]["pieces"]) == set(live.moves[-1].touched) & piece_ids(shown)
        start, end = shown["recent"]["log"]
        assert shown["log"][start:end] == [line.text for line in live.log[
            live.moves[-1].log_start:live.moves[-1].log_end]] and end == len(shown["log"])
        seen += bool(shown["recent"]["pieces"])
    assert seen >= 3, seen


# -- hot-seat ---------------------------------------------------------------------------
def test_hot_seat_passes_the_screen_between_the_peoples_seats(client, fixed_draws):
    """One link holds both people's seats; when the turn goes from one to the other, the
    view is the public one with ``pass_to`` until the screen is passed."""
    made = make(client, "hegemony_v1", ["human", "human", "heuristic", "heuristic"],
                hotseat=True)
    table = made["id"]
    links = made["links"]
    assert [(link["kind"], link["seats"]) for link in links] == [("hotseat", [0, 1]),
                                                                  ("watcher", [])]
    screen = links[0]
    rng = random.Random(2)
    passes = 0
    for _ in range(300):
        shown = view(client, table, screen)
        if shown["over"]:
            break
        pending = shown["table"]["pass_to"]
        if pending:
            passes += 1
            seat = pending["seat"]
            assert shown["table"]["viewer"] is None and not shown["choices"]
            assert "Your hand" not in json.dumps(shown["sections"])  # nothing to peek at
            public = view(client, table, watcher(made))
            assert shown["sections"] == public["sections"]
            refused = post(client, table, screen, "act", {
                "seat": seat, "action": 0, "version": shown["table"]["version"]})
            assert refused.status_code == 409 and "pass the screen" in refused.json()["error"]
            wrong = post(client, table, screen, "pass", {"seat": 1 - seat})
            assert wrong.status_code == 409
            passed = post(client, table, screen, "pass", {"seat": seat})
            assert passed.status_code == 200, passed.text
            mine = passed.json()
            names = ["Working Class", "Middle Class"]
            assert mine["table"]["viewer"] == seat and not mine["table"]["pass_to"]
            assert f"Your hand ({names[seat]})" in json.dumps(mine)
            assert f"Your hand ({names[1 - seat]})" not in json.dumps(mine)
            if passes >= 4:
                break
            continue
        if shown["table"]["bot_to_move"]:
            post(client, table, screen, "step", {"moves": 5000})
            continue
        assert shown["table"]["viewer"] == shown["to_move"] and shown["choices"]
        choice = rng.choice(shown["choices"])
        assert post(client, table, screen, "act", {"seat": shown["to_move"],
                                                   "action": choice["action"]}).status_code == 200
    assert passes >= 4
    one = client.post("/api/tables", json={"env": "hegemony_v1", "players": 4, "hotseat": True,
                                           "seats": ["human", "random", "random", "random"]})
    assert one.status_code == 400 and "2 or more 'human' seats" in one.json()["error"]


# -- undo stops at a draw ------------------------------------------------------------------
def drawn(before, after) -> bool:
    """Ground truth for the test, read from the state itself: the engine's generator moved,
    or a hidden deck got shorter (a card dealt from a deck shuffled at set-up)."""
    def decks(state) -> list:
        sizes = []
        for name in ("deck", "event_deck", "export_deck", "action_decks", "immigration"):
            part = getattr(state, name, None)
            if isinstance(part, dict):
                part = list(part.values())
            if part is not None:
                sizes.append([len(p) for p in part] if part and isinstance(
                    part[0], (list, tuple)) else len(part))
        return sizes

    rng = json.dumps(before.to_dict()["state"]["rng"])
    return rng != json.dumps(after.to_dict()["state"]["rng"]) or decks(before) != decks(after)


@pytest.mark.parametrize("env", sorted(TWO_PEOPLE))
def test_undo_stops_at_a_random_event_in_every_game(client, env, fixed_draws):
    """One person against the heuristic bots at an ordinary table: after each of the
    person's decisions and the agents' replies, undo is refused whenever something was
    drawn since (and the table stays as it was), and a practice table at the same position
    undoes it."""
    players = len(TWO_PEOPLE[env])
    seats = ["human"] + ["heuristic"] * (players - 1)
    made = make(client, env, seats)
    practice = make(client, env, seats, practice=True, seed=1)
    table, link = made["id"], made["links"][0]
    live, rehearsal = table_of(client, table), table_of(client, practice["id"])
    rng = random.Random(11)
    stops = undone = 0
    for _ in range(300):
        shown = view(client, table, link)
        if shown["over"] or (stops >= 3 and undone >= 1):
            break
        if shown["table"]["bot_to_move"]:
            post(client, table, link, "step", {"moves": 5000})
            continue
        before = live.state.clone()
        choice = rng.choice(shown["choices"])
        post(client, table, link, "act", {"seat": 0, "action": choice["action"]})
        if view(client, table, link)["table"]["bot_to_move"]:
            post(client, table, link, "step", {"moves": 5000})
        after = view(client, table, link)
        response = post(client, table, link, "undo", {})
        if drawn(before, live.state):
            stops += 1
            assert response.status_code == 409, (env, response.text)
            assert "undo stops at the last random event or hidden reveal" in \
                response.json()["error"]
            assert view(client, table, link) == after  # the table as it was
            assert not after["table"]["can_undo"] and after["table"]["undo_stop"]
            # the same decision at a practice table is undone, draw and all
            rehearsal.state, rehearsal.history = before.clone(), []
            shown = view(client, practice["id"], practice["links"][0])
            assert post(client, practice["id"], practice["links"][0], "act", {
                "seat": 0, "action": choice["action"]}).status_code == 200
            post(client, practice["id"], practice["links"][0], "step", {"moves": 5000})
            back = post(client, practice["id"], practice["links"][0], "undo", {})
            assert back.status_code == 200, back.text
            assert back.json()["sections"] == shown["sections"]
        elif response.status_code == 200:
            undone += 1
            assert live.state.to_dict() == before.to_dict()
            post(client, table, link, "act", {"seat": 0, "action": choice["action"]})
    assert stops >= 1, env
    assert undone >= 1, env  # undo still works where nothing was drawn


def test_undo_goes_back_over_several_decisions_and_stops_exactly_at_the_draw(client,
                                                                            fixed_draws):
    """Hegemony's Working Class: once something was drawn, the decisions since are taken
    back one by one, back to the first of them, and the next undo is refused."""
    made = make(client, "hegemony_v1", ["human", "heuristic", "heuristic", "heuristic"])
    table, link = made["id"], made["links"][0]
    live = table_of(client, table)
    rng = random.Random(4)
    for _ in range(400):
        shown = view(client, table, link)
        assert not shown["over"]
        if shown["table"]["bot_to_move"]:
            post(client, table, link, "step", {"moves": 1})
            continue
        live_before = live.state.clone()
        post(client, table, link, "act", {"seat": 0,
                                          "action": rng.choice(shown["choices"])["action"]})
        if live.undo_stop and len(live.history) >= 2 and not drawn(live_before, live.state):
            break
    else:
        pytest.fail("no two of the person's decisions in a row without a draw")
    depth = len(live.history)
    oldest = live.history[0].state.to_dict()
    for _ in range(depth):
        assert post(client, table, link, "undo", {}).status_code == 200
    assert live.state.to_dict() == oldest
    refused = post(client, table, link, "undo", {})
    assert refused.status_code == 409 and "undo stops" in refused.json()["error"]


# -- the seed ------------------------------------------------------------------------------
def test_the_seed_is_the_servers_and_shown_only_at_the_end(client):
    seats = ["human", "heuristic"]
    refused = client.post("/api/tables", json={"env": "chihou_sousei_v1", "players": 2,
                                               "seats": seats, "seed": 0})
    assert refused.status_code == 400 and "practice table" in refused.json()["error"]
    made = make(client, "chihou_sousei_v1", seats)
    table, link = made["id"], made["links"][0]
    seed = table_of(client, table).seed
    initial = table_of(client, table).state.to_dict()
    assert 0 <= seed < 2**53
    other = make(client, "chihou_sousei_v1", seats)
    assert table_of(client, other["id"]).seed != seed  # drawn, not a default
    sent = [json.dumps(made), client.get("/api/tables").text]
    rng = random.Random(1)
    while True:
        shown = view(client, table, link)
        sent.append(json.dumps(shown))
        if shown["over"]:
            break
        assert shown["table"]["seed"] is None
        for what in ("view", "watch"):
            sent.append(json.dumps(view(client, table, watcher(made) if what == "watch"
                                        else link)))
        if shown["table"]["bot_to_move"]:
            response = post(client, table, link, "step", {"moves": 5000})
        else:
            response = post(client, table, link, "act", {
                "seat": 0, "action": rng.choice(shown["choices"])["action"]})
        assert response.status_code == 200
        sent.append(response.text)
    before_end = [text for text in sent if '"over":true' not in text.replace(" ", "")]
    assert len(before_end) > 20 and not [text for text in before_end if str(seed) in text]
    assert shown["table"]["seed"] == seed  # shown once the game is over
    assert view(client, table, watcher(made))["table"]["seed"] == seed
    fresh = envs.make_game("chihou_sousei_v1", num_players=2).new_initial_state(seed)
    assert fresh.to_dict() == initial  # the seed shown is the deal's
    chosen = make(client, "chihou_sousei_v1", seats, practice=True, seed=12345)
    assert view(client, chosen["id"], chosen["links"][0])["table"]["seed"] == 12345
    drawn_practice = make(client, "chihou_sousei_v1", seats, practice=True)
    assert view(client, drawn_practice["id"], drawn_practice["links"][0])["table"]["seed"] \
        is None  # a practice table without a chosen seed keeps it secret too


# -- saves -----------------------------------------------------------------------------------
def test_saves_belong_to_their_table(client, tmp_path, fixed_draws):
    seats = ["human", "heuristic"]
    mine = make(client, "chihou_sousei_v1", seats)
    theirs = make(client, "chihou_sousei_v1", seats)
    drill = make(client, "chihou_sousei_v1", seats, practice=True)
    table, link = mine["id"], mine["links"][0]
    assert post(client, table, link, "save", {"name": "opening"}).status_code == 200
    path = tmp_path / "saves" / table / "opening.json"
    assert path.is_file()
    refused = client.get("/api/saves")
    assert refused.status_code == 403 and "belong to their table" in refused.json()["error"]
    assert client.get(f"/api/tables/{table}/saves").status_code == 403  # no credentials
    listed = client.get(f"/api/tables/{table}/saves", headers=auth(link)).json()
    assert [s["name"] for s in listed] == ["opening"]
    assert client.get(f"/api/tables/{theirs['id']}/saves",
                      headers=auth(theirs["links"][0])).json() == []
    for what, body in (("save", {"name": "x"}), ("load", {"name": "opening"})):
        response = post(client, table, watcher(mine), what, body)
        assert response.status_code == 403 and "watcher" in response.json()["error"]
    # another table neither finds it by name nor loads the file, unless it is a practice one
    other = theirs["links"][0]
    before = view(client, theirs["id"], other)
    response = post(client, theirs["id"], other, "load", {"name": "opening"})
    assert response.status_code == 404 and "no save named 'opening'" in response.json()["error"]
    saved = json.loads(path.read_text())
    response = post(client, theirs["id"], other, "load", {"save": saved})
    assert response.status_code == 403 and "practice table" in response.json()["error"]
    assert view(client, theirs["id"], other) == before
    assert post(client, drill["id"], drill["links"][0], "load",
                {"save": saved}).status_code == 200
    # its own table loads it at the position it was saved, not after a draw
    assert post(client, table, link, "load", {"name": "opening"}).status_code == 200
    rng = random.Random(2)
    live = table_of(client, table)
    start = live.state.to_dict()
    while not (live.undo_stop and not live.history):
        advance(client, table, mine, rng)
    moved = view(client, table, link)
    response = post(client, table, link, "load", {"name": "opening"})
    assert response.status_code == 403 and "practice table" in response.json()["error"]
    assert view(client, table, link) == moved and live.state.to_dict() != start


# -- bad inputs ------------------------------------------------------------------------------
NESTED = b'{"seat": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
NESTED_LIST = b"[" * 50_000 + b"]" * 50_000
BIG_INT = b'{"seat": 0, "action": ' + b"7" * 5000 + b"}"


def test_bad_inputs_get_a_4xx_and_leave_the_table_as_it_was(client, tmp_path):
    made = make(client, "chihou_sousei_v1", ["human", "heuristic"])
    table, link = made["id"], made["links"][0]
    before = view(client, table, link)
    headers = auth(link)
    cases = [
        ("GET", f"/api/tables/{table}/view?seat=--1", None, "must be a seat number"),
        ("GET", f"/api/tables/{table}/view?seat=%C2%B2", None, "must be a seat number"),
        ("GET", f"/api/tables/{table}/view?seat=-1", None, "must be a seat number"),
        ("GET", f"/api/tables/{table}/view?seat=" + "9" * 5000, None, "must be a seat number"),
        ("GET", f"/api/tables/{table}/view?seat=%EF%BC%91", None, "must be a seat number"),
        ("GET", f"/api/tables/{table}/view?seat=7", None, "must be a seat number 0..1"),
        ("GET", "/api/agents?env=chihou_sousei_v1&players=%C2%B2", None, "player count"),
        ("GET", "/api/agents?env=chihou_sousei_v1&players=" + "4" * 5000, None,
         "player count"),
        ("POST", f"/api/tables/{table}/act", NESTED, "nests"),
        ("POST", f"/api/tables/{table}/act", NESTED_LIST, "nests"),
        ("POST", f"/api/tables/{table}/act",
         b'{"seat": ' + b"[" * 40 + b"]" * 40 + b"}", "more than 32 deep"),
        ("POST", f"/api/tables/{table}/load", b'{"save": ' + b"[" * 100 + b"]" * 100 + b"}",
         "nests"),
        ("POST", f"/api/tables/{table}/act", BIG_INT, "JSON object"),
        ("POST", f"/api/tables/{table}/act", b'{"seat": 0, "action": NaN}', "JSON object"),
        ("POST", f"/api/tables/{table}/act", b'{"seat": 0, "action": 1e999}',
         "'action' must be an integer"),
        ("POST", f"/api/tables/{table}/act", b'{"seat": 0, "action": 1, "version": true}',
         "'version' must be an integer"),
        ("POST", f"/api/tables/{table}/act", b"\xff\xfe", "JSON object"),
        ("POST", f"/api/tables/{table}/save", b'{"name": "x\\n"}', "save name"),
        ("POST", f"/api/tables/{table}/save", b'{"name": "x\\r"}', "save name"),
        ("POST", f"/api/tables/{table}/save", b'{"name": "\\u0661"}', "save name"),
        ("POST", f"/api/tables/{table}/save", b'{"name": ["x"]}', "save name"),
        ("POST", f"/api/tables/{table}/load", b'{"name": "x\\n"}', "save name"),
        ("POST", f"/api/tables/{table}/load", b'{"save": {"env": "chihou_sousei_v1", '
         b'"config": {"num_players": ' + b"9" * 4000 + b'}, "state": {}}}', "not a valid save"),
        ("POST", f"/api/tables/{table}/pass", b'{"seat": 0}', "hot-seat"),
        ("POST", f"/api/tables/{table}/undo", b'{"version": "x"}', "'version' must be"),
        ("POST", "/api/tables", b'{"env": "chihou_sousei_v1", "players": "2", '
         b'"seats": ["human", "random"]}', "'players' must be an integer"),
        ("POST", "/api/tables", b'{"env": "chihou_sousei_v1", "players": 2, '
         b'"seats": ["human", "a\\u0000b"]}', "printable"),
        ("POST", "/api/tables", b'{"env": "chihou_sousei_v1", "players": 2, '
         b'"seats": ["human", "' + b"x" * 300 + b'"]}', "at most 200"),
        ("POST", "/api/tables", b'{"env": "chihou_sousei_v1", "players": 2, "practice": 1, '
         b'"seats": ["human", "random"]}', "'practice' must be true or false"),
        ("POST", "/api/tables", b'{"env": "chihou_sousei_v1", "players": 2, "practice": true, '
         b'"seed": ' + b"9" * 30 + b', "seats": ["human", "random"]}', "'seed' must be in"),
        ("POST", "/api/tables", b'{"env": "chihou_sousei_v1", "players": 2, '
         b'"options": {"x": [[[1]]]}, "seats": ["human", "random"]}', ""),
        ("POST", "/api/tables", b'{"env": ["chihou_sousei_v1"], "seats": []}', "unknown env"),
    ]
    for method, path, body, message in cases:
        response = client.request(method, path, headers=headers, content=body)
        assert 400 <= response.status_code < 500, (path, body and body[:60], response.text)
        assert message in response.json()["error"], (path, body and body[:60],
                                                       response.json())
    assert view(client, table, link) == before
    assert not (tmp_path / "saves" / table).exists()  # no save was written
    assert len(client.app.state.tables.tables) == 1  # no table was made


def test_a_lan_server_says_what_it_exposes_and_takes_only_offered_agents(tmp_path):
    text = exposure("192.168.1.5", 8000, tmp_path / "saves", False,
                    ["192.168.1.5", "127.0.0.1"])
    for words in ("192.168.1.5:8000", "plain HTTP", "list the open tables", "start tables",
                  "a seat's link shows that seat's hand", "watcher's only what is public",
                  str(tmp_path / "saves") + "/<table id>/", "Python agents",
                  "--allow-custom-agents", "no seeds before a game ends"):
        assert words in text, words
    app = create_app(tmp_path / "saves", ["192.168.1.5"], custom_agents=False)
    with TestClient(app, base_url="http://192.168.1.5") as lan:
        for spec in ("meeplezoo.envs.core.agents:RandomBot", str(tmp_path)):
            response = lan.post("/api/tables", json={"env": "necropolis_railway_v1",
                                                     "players": 2, "seats": ["human", spec]})
            assert response.status_code == 400
            assert "takes only the agents it offers" in response.json()["error"]
        for spec in ("heuristic", "necropolis_railway_v1/ppo_league@hard"):
            response = lan.post("/api/tables", json={"env": "necropolis_railway_v1",
                                                     "players": 2, "seats": ["human", spec]})
            assert response.status_code == 201, response.text
