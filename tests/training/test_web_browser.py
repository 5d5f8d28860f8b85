"""The web table in a real browser: headless Chromium (Debian's, ``/usr/bin/chromium``; never a
downloaded one) driven by Playwright.  For each game a whole game is played through the page
by clicks, the person holding one seat against the heuristic bots; the Hegemony table shows
the person's hand and nothing of the others'; the table survives a reload; the lobby keeps
the seats chosen when the player count changes; in every game two people, each in their own
browser context, play one table through their own seat links, each seeing only what their
seat may see and moving only for it; two tabs of one browser keep two seats apart; the
Japanese text draws as glyphs, not tofu (it needs a CJK font: ``make chromium`` installs one);
the Hegemony page shows every class's goods as the state holds them; the agents' last moves
are marked on the board and in the log.

One server (uvicorn, in a thread) and one browser serve the whole module.  A screenshot of each
game (the whole page, once the agents' last moves are marked) is written to
``$MEEPLEZOO_SCREENSHOTS`` (the README's come from ``MEEPLEZOO_SCREENSHOTS=docs/screenshots``),
else to the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette")
playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing: `make install` installs it (apt-get install chromium)",
                allow_module_level=True)

import uvicorn  # noqa: E402

from meeplezoo.training.web.app import create_app  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
GAMES = [("chihou_sousei_v1", 2), ("asian_delivery_v1", 3), ("necropolis_railway_v1", 2),
         ("hegemony_v1", 4)]
READY = ("document.body.dataset.busy === '0' && (document.body.dataset.over === '1'"
         " || document.body.dataset.mine === '1')")


def wait_until(page, expression: str, timeout: float = 60.0) -> None:
    """Poll ``expression`` in the page until it is true (the page's Content Security Policy
    refuses the string evaluation ``wait_for_function`` needs, as it should)."""
    deadline = time.time() + timeout
    while not page.evaluate(expression):
        assert time.time() < deadline, f"timed out waiting for {expression}"
        time.sleep(0.01)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on a free loopback port, in a thread; its ``app`` for looking inside."""
    app = create_app(tmp_path_factory.mktemp("saves"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not runner.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    runner.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors  # no script error on any page


def screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("MEEPLEZOO_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def start_table(page, base: str, env: str, players: int, seed: int = 1) -> str:
    """Through the lobby: the game, the players, seat 0 for the person (the default), the
    heuristic bot in the others (the default); returns the table's id."""
    page.goto(base + "/")
    page.evaluate("localStorage.setItem('mz-speed', '0')")  # agents move at once
    page.select_option("#env", env)
    if page.is_enabled("#players"):
        page.fill("#players", str(players))
        page.dispatch_event("#players", "change")
    page.check("#practice")  # only a practice table takes a chosen seed
    page.fill("#seed", str(seed))
    assert page.locator(".seat-row").count() == players
    page.click("#start")
    page.wait_for_url("**/table/*")
    wait_until(page, READY)
    return page.url.rsplit("/", 1)[-1]


def click_once(page, rng: random.Random, until: str = READY) -> None:
    """One decision by a click: a highlighted piece of the board or a choice button; then
    wait for the page to show the move and be ``until`` (by default: its turn again, or the
    game over)."""
    version = page.evaluate("document.body.dataset.version")
    pieces = page.locator("#board .piece.choice")
    buttons = page.locator("#choices .choice-button")
    count = pieces.count()
    pick = rng.randrange(count + buttons.count())
    if pick < count:
        pieces.nth(pick).click()
        menu = page.locator("#menu:not([hidden]) .choice-button")
        if menu.count():
            menu.nth(rng.randrange(menu.count())).click()
    else:
        buttons.nth(pick - count).click()
    wait_until(page, f"document.body.dataset.version !== '{version}'")
    wait_until(page, until)


@pytest.mark.parametrize("env,players", GAMES)
def test_a_whole_game_through_the_page(server, page, env, players, tmp_path):
    base, app = server
    table = start_table(page, base, env, players)
    assert page.locator("#prompt").inner_text()  # a prompt in words
    rng = random.Random(7)
    moves = 0
    shot, taken = screenshots(tmp_path) / f"{env}.png", False
    while page.evaluate("document.body.dataset.over") != "1":
        click_once(page, rng)
        moves += 1
        # the screenshot: after 12 moves, once the agents' last moves are marked on the board
        if moves >= 12 and not taken and page.locator("#board .piece.recent").count():
            page.screenshot(path=str(shot), full_page=True)
            taken = True
        assert moves < 1500
    if not taken:
        page.screenshot(path=str(shot), full_page=True)
    state = app.state.tables.tables[table].state
    assert state.is_terminal()
    assert "The game is over" in page.locator("#prompt").inner_text()
    assert "The game is over" in page.locator("#log").inner_text()
    assert page.locator(".seat .seat-score").count() == players


def test_the_page_shows_only_the_persons_hidden_information(server, page):
    """Hegemony, the person as the Working Class: its hand is on the page, the other hands
    and the other seats' views are not, and nothing the browser received holds them."""
    base, app = server
    received: list[str] = []
    page.on("response", lambda r: received.append(r.text()) if "/api/" in r.url else None)
    table = start_table(page, base, "hegemony_v1", 4, seed=5)
    state = app.state.tables.tables[table].state
    from meeplezoo.envs.hegemony.actions import card_designs
    from meeplezoo.envs.hegemony.present_text import card_title

    mine = {card_title(card_designs(0)[d]) for d in state.hands[0]}
    others = {card_title(card_designs(c)[d]) for c in (1, 2, 3) for d in state.hands[c]} - mine
    shown = page.locator("body").inner_text()
    assert "Your hand (Working Class)" in shown and all(t in shown for t in mine)
    assert not [t for t in others if t in shown]
    assert not [t for t in others for body in received if t in body]
    for seat in (1, 2, 3):  # the page's own credentials cannot get another seat's view
        status = page.evaluate(
            """async ([id, seat]) => (await fetch(`/api/tables/${id}/view?seat=${seat}`,
               {headers: {"X-Table-Credentials": MZ.credentials(id)}}))
               .status""", [table, seat])
        assert status == 403
    page.reload()  # the table survives a reload
    wait_until(page, READY)
    assert page.locator("body").inner_text().count("Your hand (Working Class)") == 1
    listing = json.loads(page.evaluate("fetch('/api/tables').then(r => r.text())"))
    assert any(t["id"] == table for t in listing)


SEAT_CHOICES = "[...document.querySelectorAll('.seat-agent')].map((s) => s.value)"


def test_the_lobby_keeps_the_seats_chosen_when_the_player_count_changes(server, page):
    """A person types the player count, chooses the seats and clicks Start: the Players field
    fires ``change`` again when the click takes the focus from it, and that must not reset
    the seats to the defaults (it did: the table started with an agent where the person had
    chosen *You*).  A new count keeps the seats it still has; a new game starts afresh."""
    base, app = server
    page.goto(base + "/")
    page.select_option("#env", "chihou_sousei_v1")
    page.select_option('.seat-agent[data-seat="1"]', "human")
    page.select_option("#env", "necropolis_railway_v1")  # another game: the defaults
    page.select_option("#env", "chihou_sousei_v1")
    assert page.evaluate(SEAT_CHOICES) == ["human", "heuristic", "heuristic", "heuristic"]
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    assert page.evaluate(SEAT_CHOICES) == ["human", "heuristic", "heuristic"]
    page.select_option('.seat-agent[data-seat="1"]', "human")
    page.select_option('.seat-agent[data-seat="2"]', "random")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    assert page.evaluate(SEAT_CHOICES) == ["human", "human"]
    page.fill("#players", "3")  # the field keeps the focus: Start's click fires its change
    page.dispatch_event("#players", "change")
    assert page.evaluate(SEAT_CHOICES) == ["human", "human", "heuristic"]
    page.select_option('.seat-agent[data-seat="2"]', "random")
    page.click("#start")
    page.wait_for_url("**/table/*")
    assert app.state.tables.tables[page.url.rsplit("/", 1)[-1]].seats == \
        ["human", "human", "random"]


# -- two people at one table, each in their own browser ---------------------------------------
# per game: the player count (two people in seats 0 and 1, the heuristic bot in the others)
TWO_PEOPLE = [("chihou_sousei_v1", 2), ("asian_delivery_v1", 3), ("necropolis_railway_v1", 2),
              ("hegemony_v1", 4)]
IDLE = "document.body.dataset.busy === '0'"
MY_TURN = f"document.body.dataset.mine === '1' && {IDLE}"
# a request the page's own link makes by hand: its status
FORGED = """async ([id, what, body]) => (await fetch(`/api/tables/${id}/${what}`, {
  method: "POST", body: JSON.stringify(body), headers: {"Content-Type": "application/json",
  "X-Table-Credentials": MZ.credentials(id)}})).status"""
# the board's text without the sections only the page's own seat sees (Hegemony's hand)
PUBLIC_BOARD = """() => [...document.querySelectorAll("#board > section")]
  .filter((s) => !s.dataset.section.startsWith("hand")).map((s) => s.innerText).join("\\n")"""


@pytest.fixture
def fixed_draws(monkeypatch):
    """The server's secret draws (the seed, the agents' seeds) made repeatable for one test,
    so its positions are the same at every run; the credentials stay random."""
    import secrets

    draws = random.Random(20261203)
    monkeypatch.setattr(secrets, "randbelow", lambda n: draws.randrange(n))
    monkeypatch.setattr(secrets, "randbits", lambda k: draws.getrandbits(k))


def hand_titles(state, seat: int) -> set[str]:
    """Hegemony: the titles of the cards in ``seat``'s hand."""
    from meeplezoo.envs.hegemony.actions import card_designs
    from meeplezoo.envs.hegemony.present_text import card_title

    return {card_title(card_designs(seat)[d]) for d in state.hands[seat]}


def unseen(state, seat: int) -> list:
    """What ``seat`` cannot see, as ``resample_hidden(seat)`` re-deals it: the other classes'
    hands in Hegemony; in the other games, where no seat holds a secret, the deck's order."""
    if hasattr(state, "hands"):
        return [sorted(hand) for s, hand in enumerate(state.hands) if s != seat]
    return list(state.deck)


def open_two_seats(base: str, pages: list, env: str, players: int) -> str:
    """The first person makes the table in the lobby (seats 0 and 1 for people), reads the
    second seat's link from the table page and the second opens it; returns the table id."""
    first, second = pages
    first.goto(base + "/")
    first.evaluate("localStorage.setItem('mz-speed', '0')")
    first.select_option("#env", env)
    if int(first.input_value("#players")) != players:
        first.fill("#players", str(players))
        first.dispatch_event("#players", "change")
    assert first.locator(".seat-row").count() == players
    first.select_option('.seat-agent[data-seat="1"]', "human")
    first.click("#start")
    first.wait_for_url("**/table/*")
    wait_until(first, IDLE)
    table = first.url.rsplit("/", 1)[-1]
    link = first.locator('#links .link-url[data-kind="seat"]')
    assert link.count() == 1  # the other person's seat; this page holds seat 0
    url = link.input_value()
    assert url.startswith(f"{base}/table/{table}#key=")
    assert first.locator('#links .link-url[data-kind="watcher"]').count() == 1
    assert "seed shown when the game ends" in first.locator("#table-kind").inner_text()
    second.goto(base + "/")
    second.evaluate("localStorage.setItem('mz-speed', '0')")
    second.goto(url)
    wait_until(second, IDLE)
    assert "#key" not in second.url  # the key is kept, and out of the address bar
    assert second.locator("#links-panel").is_hidden()  # no other seat's link here
    return table


def caught_up(page, live) -> None:
    """Wait until ``page`` shows the table as it stands (a page polls while it waits)."""
    wait_until(page, f"{IDLE} && document.body.dataset.version === '{live.version}'",
               timeout=10)


def agents_done(live) -> None:
    """Wait until no agent is to move (the pages let them move, at once)."""
    deadline = time.time() + 20
    while live.bot_to_move():
        assert time.time() < deadline, "the agents did not move"
        time.sleep(0.05)


def shown_text(page) -> str:
    """The page's text, reloaded: drawn afresh from what the server sends now."""
    page.reload()
    wait_until(page, IDLE)
    return page.locator("body").inner_text()


@pytest.mark.parametrize("env,players", TWO_PEOPLE)
def test_two_people_at_one_table_each_through_their_own_link(server, browser, env, players,
                                                             fixed_draws):
    """Two people, each in their own browser context, at one table of each game: the first
    makes it in the lobby and reads the second seat's link from the table page, the second
    opens it.  They play a few turns by clicks, each page seeing the other's moves by itself.

    - A page offers choices only on its seat's turn, and every click there is its seat's
      move; the page that waits offers none, says so, and its link can neither move for the
      other seat nor undo the other's decision (a 403, and the table does not move).
    - Each page shows its own seat as *you* and the other as *another person*; Hegemony's
      shows its class's hand and never the other's, in what it shows or in anything it
      received; the public board reads the same on both pages.
    - Re-dealing on the server what a seat cannot see (``resample_hidden``: the other hands
      in Hegemony, the deck's order elsewhere) leaves that seat's page, reloaded, exactly as
      it was; in Hegemony the other person's page changes (it shows its own hand), in the
      other games nobody's does (nobody sees the deck)."""
    base, app = server
    contexts = [browser.new_context(viewport={"width": 1440, "height": 1000}) for _ in "ab"]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    received: list[list[str]] = [[], []]
    for seat, page in enumerate(pages):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("response", lambda r, seat=seat: received[seat].append(r.text())
                if "/api/tables/" in r.url else None)
    try:
        table = open_two_seats(base, pages, env, players)
        live = app.state.tables.tables[table]
        names = [live.seat_name(s) for s in range(players)]
        rng = random.Random(3)
        moves, waited, undone = [0, 0], [False, False], [False, False]
        deadline = time.time() + 60
        while min(moves) < 3:
            assert time.time() < deadline, moves
            for seat, page in enumerate(pages):
                if not page.evaluate(MY_TURN):
                    continue
                assert live.state.current_player() == seat  # choices for its seat only
                other = pages[1 - seat]
                if not waited[1 - seat]:  # the page that waits: nothing to click, no move
                    caught_up(other, live)
                    assert other.locator("#choices .choice-button").count() == 0
                    assert other.locator("#board .piece.choice").count() == 0
                    assert other.locator("#prompt").inner_text() == \
                        "Waiting for another person's move…"
                    action = int(live.state.legal_actions()[0])
                    version = live.version
                    status = other.evaluate(FORGED, [table, "act", {
                        "seat": seat, "action": action, "version": version}])
                    assert status == 403 and live.version == version, status
                    waited[1 - seat] = True
                count = len(live.moves)
                click_once(page, rng, until=IDLE)
                assert live.moves[count].seat == seat  # the click moved this page's seat
                moves[seat] += 1
                if undone[seat]:
                    continue
                agents_done(live)
                if live.history and live.history[-1].seat == seat:
                    # the last decision is this seat's: not the other person's to undo
                    caught_up(page, live)
                    caught_up(other, live)
                    assert page.locator("#undo").is_enabled()
                    assert other.locator("#undo").is_disabled()
                    version = live.version
                    status = other.evaluate(FORGED, [table, "undo", {"version": version}])
                    assert status == 403 and live.version == version, status
                    undone[seat] = True
            time.sleep(0.05)
        assert all(waited) and all(undone), (waited, undone)

        agents_done(live)  # the agents' replies, if any, before the last look
        assert not live.state.is_terminal()
        before = [shown_text(page) for page in pages]
        for seat, page in enumerate(pages):
            shown = before[seat]
            assert page.locator(".seat.mine").get_attribute("data-seat") == str(seat)
            assert page.locator(f'.seat[data-seat="{1 - seat}"] .seat-who').inner_text() \
                == "another person"
            if env == "hegemony_v1":
                mine, theirs = hand_titles(live.state, seat), hand_titles(live.state, 1 - seat)
                # a title the public log shows (another copy of the card, played) is no secret
                played = {t for t in theirs if any(t in line.text for line in live.log
                                                   if line.seen_by is None)}
                assert f"Your hand ({names[seat]})" in shown
                assert f"Your hand ({names[1 - seat]})" not in shown
                assert all(title in shown for title in mine)
                assert not [t for t in theirs - mine - played if t in shown]
                assert not [t for t in theirs - mine - played for text in received[seat]
                            if t in text]
                assert not [text for text in received[seat]
                            if f"Your hand ({names[1 - seat]})" in text]
            else:
                assert "Your hand" not in shown
        assert pages[0].evaluate(PUBLIC_BOARD) == pages[1].evaluate(PUBLIC_BOARD)

        real, redeal = live.state, np.random.default_rng(5)
        for seat, page in enumerate(pages):
            redealt = real.resample_hidden(seat, redeal)
            assert unseen(redealt, seat) != unseen(real, seat)  # a secret to leak
            live.state = redealt
            try:
                assert shown_text(page) == before[seat], (seat, "sees what it cannot see")
                if seat == 0:  # the other page: its own hand re-dealt, or nothing it sees
                    other = shown_text(pages[1])
                    assert (other != before[1]) == (env == "hegemony_v1"), env
            finally:
                live.state = real
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()


# -- Japanese text: glyphs, never tofu ------------------------------------------------------
JAPANESE = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]"
# Each distinct Japanese character of the page drawn alone into a canvas in the font its
# element uses, and a character no font has (a noncharacter of plane 16) for the missing-glyph
# box: without a CJK font every character draws the same box (or nothing), with one each
# draws its own glyph.
GLYPHS = """(pattern) => {
  const re = new RegExp(pattern, "u");
  const fonts = new Map();  // character -> the font-family of an element showing it
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const element = node.parentElement;
    if (!element || !element.getClientRects().length) continue;  // shown text only
    for (const c of node.textContent) {
      if (re.test(c) && !fonts.has(c)) fonts.set(c, getComputedStyle(element).fontFamily);
    }
  }
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 48;
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  const draw = (c, family) => {
    ctx.clearRect(0, 0, 48, 48);
    ctx.font = `32px ${family}`;
    ctx.fillStyle = "#000";
    ctx.fillText(c, 6, 38);
    const alpha = ctx.getImageData(0, 0, 48, 48).data.filter((_, k) => k % 4 === 3);
    return {ink: alpha.some((a) => a > 0), print: alpha.join(",")};
  };
  const family = getComputedStyle(document.body).fontFamily;
  const missing = draw("\\u{10FFFD}", family).print;
  const shown = [...fonts].map(([c, f]) => ({c, f, ...draw(c, f)}));
  return {
    family, chars: shown.map((g) => g.c).join(""),
    blank: shown.filter((g) => !g.ink).map((g) => g.c).join(""),
    tofu: shown.filter((g) => g.print === missing).map((g) => g.c).join(""),
    distinct: new Set(shown.map((g) => g.print)).size,
  };
}"""


@pytest.mark.parametrize("env,players,words", [
    ("chihou_sousei_v1", 2, ["地方創生", "東京"]),
    ("asian_delivery_v1", 3, ["アジアンデリバリー"]),
])
def test_the_japanese_text_renders_as_glyphs_not_tofu(server, page, env, players, words):
    """The page's Japanese text (the titles, 東京, the district names) drawn with the page's
    fonts: every distinct character leaves ink, none is the missing-glyph box, and they
    draw as different glyphs (tofu draws them all as one box).  Fails on a machine without
    a CJK font (``make chromium`` installs Debian's fonts-ipafont-gothic); the stylesheet
    names one for each system."""
    base, _ = server
    start_table(page, base, env, players)
    shown = page.locator("body").inner_text()
    assert all(word in shown for word in words), words
    glyphs = page.evaluate(GLYPHS, JAPANESE)
    for face in ("Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic", "Meiryo", "IPAGothic"):
        assert face in glyphs["family"], glyphs["family"]  # a Japanese face on every system
    chars = glyphs["chars"]
    assert len(chars) >= 6 and all(c in chars for word in words for c in word), chars
    assert not glyphs["blank"], f"drawn as nothing: {glyphs['blank']}"
    assert not glyphs["tofu"], f"drawn as the missing-glyph box (tofu): {glyphs['tofu']}"
    # all distinct, but for a pair a font may draw alike (ー and 一 are both a bar)
    assert glyphs["distinct"] >= len(chars) - 2, (glyphs["distinct"], chars)


# -- Hegemony: every class's goods on the table ----------------------------------------------
GOODS_LINES = """() => Object.fromEntries(
  [...document.querySelectorAll('#board [data-id^="goods:"]')].map((node) => [node.dataset.id,
    [...node.querySelectorAll(".piece-line")].map((line) => line.textContent)]))"""


def amounts(line: str) -> list[int]:
    """``storage: Food 3/8 · Luxury 1/8`` -> ``[3, 1]`` (what is held, not the room)."""
    return [int(part.split()[-1].split("/")[0]) for part in line.split(": ", 1)[1].split(" · ")]


def goods_shown(lines: dict[str, list[str]]) -> dict[str, list[int]]:
    """Every amount of the goods pieces by ``<piece id>/<line name>`` (``goods:1/storage``)."""
    return {f"{pid}/{line.split(':')[0]}": amounts(line) for pid, shown in lines.items()
            for line in shown if not line.startswith(("prices", "tariff"))}


def goods_held(state) -> dict[str, list[int]]:
    return {"goods:0/goods": state.goods[0], "goods:1/goods": state.goods[1],
            "goods:1/storage": state.mc_storage, "goods:2/storage": state.cc_storage,
            "goods:2/Free Trade Zone": state.ftz, "goods:3/goods": state.state_goods,
            "goods:3/Public Services": state.public_services}


def test_the_hegemony_table_shows_every_classs_goods_as_the_state_holds_them(server, page):
    """Through two rounds by clicks (two Productions fill and empty the stores), at every
    decision of the person: each class's goods, the Middle and Capitalist Classes' storage,
    the Free Trade Zone, the State's goods and Public Services read from the page equal the
    state's; a prompt that offers Done has a Done button, and buying names the prices."""
    base, app = server
    table = start_table(page, base, "hegemony_v1", 4, seed=11)
    live = app.state.tables.tables[table]
    rng = random.Random(5)
    checked, nonzero = 0, set()
    while live.state.round < 3 and not live.state.is_terminal():
        held = goods_held(live.state)
        assert goods_shown(page.evaluate(GOODS_LINES)) == held
        nonzero |= {key for key, values in held.items() if any(values)}
        checked += 1
        prompt = page.locator("#prompt").inner_text()
        labels = page.locator("#choices .choice-button").all_inner_texts()
        if "Done" in prompt:
            assert "Done" in labels, (prompt, labels)
        if prompt.startswith(("Buy from whom", "How many units")):
            assert all("₳" in label for label in labels if label not in ("Done", "No more"))
        click_once(page, rng)
        assert checked < 600
    assert checked > 40, checked
    assert nonzero >= {"goods:0/goods", "goods:1/goods", "goods:1/storage", "goods:2/storage",
                       "goods:3/Public Services"}, nonzero  # amounts that moved


# -- the others' last moves, on the board -----------------------------------------------------
MARKED = """() => ({
  pieces: [...document.querySelectorAll("#board .piece.recent")].map((node) => node.dataset.id),
  board: [...document.querySelectorAll("#board .piece")].map((node) => node.dataset.id),
  log: [...document.querySelectorAll("#log li.recent")].map((node) => node.textContent),
  note: !document.getElementById("recent-note").hidden,
})"""


def test_the_agents_last_moves_are_highlighted_on_the_board(server, page):
    """Necropolis, the person against the heuristic bot: at every decision of the person,
    the board marks exactly the pieces the agent's moves since the person's last move
    touched (the server's record of them), and the log marks those moves' lines; right
    after a decision of the person's own, with no agent move since, nothing is marked."""
    base, app = server
    table = start_table(page, base, "necropolis_railway_v1", 2, seed=4)
    live = app.state.tables.tables[table]
    rng = random.Random(11)
    marked_moves = quiet = 0
    for _ in range(40):
        if live.state.is_terminal():
            break
        shown = page.evaluate(MARKED)
        since = []
        for move in reversed(live.moves):
            if move.seat == 0:
                break
            since.append(move)
        touched = {pid for move in since for pid in move.touched}
        assert sorted(shown["pieces"]) == sorted(touched & set(shown["board"])), since
        if since:
            assert shown["pieces"] and shown["note"], since  # an agent's move is on the board
            lines = live.log[since[-1].log_start:since[0].log_end]  # no secret lines here
            assert shown["log"] == [line.text.strip() for line in lines]
            marked_moves += 1
        else:
            assert not shown["pieces"] and not shown["log"] and not shown["note"]
            quiet += 1
        click_once(page, rng)
    assert marked_moves >= 5 and quiet >= 1, (marked_moves, quiet)


# -- two seats in two tabs of one browser ------------------------------------------------------
def test_opening_another_seats_link_in_a_second_tab_leaves_the_first_tabs_seat(server,
                                                                                browser):
    """One browser, two tabs: the host made a Hegemony table with two people's seats and
    opens the Middle Class's link in a second tab (to try it, or to play both seats on one
    machine).  Each tab keeps its own seat: the first still shows the Working Class's hand
    and none of the Middle Class's, after a look at the server and after a reload, and its
    requests are the Working Class's (a link is kept per tab; the browser's shared store
    only fills a tab that holds none)."""
    base, _ = server
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    try:
        first = context.new_page()
        first.goto(base + "/")
        first.evaluate("localStorage.setItem('mz-speed', '0')")
        first.select_option("#env", "hegemony_v1")
        first.select_option('.seat-agent[data-seat="1"]', "human")
        first.click("#start")
        first.wait_for_url("**/table/*")
        wait_until(first, IDLE)
        url = first.locator('#links .link-url[data-kind="seat"]').input_value()
        second = context.new_page()
        second.goto(url)
        wait_until(second, IDLE)
        assert "Your hand (Middle Class)" in second.locator("body").inner_text()
        for look in ("view", "reload"):
            if look == "view":  # the page's own next request, as its poll or a move makes
                shown = first.evaluate("""async (id) => JSON.stringify(await MZ.call(
                    "GET", `/api/tables/${id}/view`, undefined, id))""",
                                       first.url.rsplit("/", 1)[-1])
            else:
                first.reload()
                wait_until(first, IDLE)
                shown = first.locator("body").inner_text()
            assert "Your hand (Working Class)" in shown, look
            assert "Your hand (Middle Class)" not in shown, look
        assert "Your hand (Middle Class)" in shown_text(second)  # and the second tab its own
    finally:
        context.close()
