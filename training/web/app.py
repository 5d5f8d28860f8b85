"""The web table's HTTP side (Starlette): the page, its static files and a small JSON API.

    GET  /                                  the lobby (start a table, rejoin one)
    GET  /table/{id}                        a table's page; /table/{id}#key=<credentials>
                                            is a seat's link (the browser keeps the key)
    GET  /api/games                         envs, player counts, options and agents to seat
                                            (those that play the game's default count)
    GET  /api/agents?env=E&players=N        the agents that can play E at N players, each
                                            labelled (a level by what its card measured)
    GET  /api/tables                        open tables (ids, games, who plays each seat,
                                            practice or hot-seat)
    POST /api/tables                        {env, players, seats, options, practice, seed,
                                            open, hotseat} -> id, credentials, links
    GET  /api/tables/{id}/view[?seat=N]     what the link's seat may see, with ``recent``:
                                            the pieces and log lines of the others' moves
                                            since that seat last moved
    POST /api/tables/{id}/act               {seat, action, version}: a move for the link's seat
    POST /api/tables/{id}/step              {moves, version}: let the agents move
    POST /api/tables/{id}/undo              {version}: back to the link's previous decision
    POST /api/tables/{id}/pass              {seat}: hot-seat, the screen went to that seat
    POST /api/tables/{id}/save              {name}: into the table's own saves folder
    POST /api/tables/{id}/load              {name} or {save: <a saved game>}
    GET  /api/tables/{id}/saves             the table's saves
    GET  /api/saves                         refused: saves belong to their table

Making a table answers one link per person's seat (one for all of them in hot-seat mode)
and one for a watcher, each ``{seats, names, kind, credentials, url}``; ``credentials`` is
the first seat's (the watcher's at a table of agents only), the one the browser that made
the table keeps.  Every table request carries a link's credentials (header
``X-Table-Credentials``) and gets only that link's seat's view; a move or an undo is only for
its seats.  A bad request is a 4xx whose JSON ``error`` says what was wrong and what is
allowed; the table is left as it was.  Hosts other than the ones served are refused (no DNS
rebinding), and the page may load nothing from elsewhere.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from meeplezoo import envs
from meeplezoo.training.agents.bots import LEVELS
from meeplezoo.training.agents.zoo import agent_offers
from meeplezoo.training.web.tables import Holder, Table, TableError, Tables, seat_number

STATIC = Path(__file__).with_name("static")
MAX_BODY = 8 * 1024 * 1024  # a saved Hegemony game is well under 1 MB
MAX_DEPTH = 32  # arrays and objects within each other in a body (a saved game: 4 to 6)
CREDENTIALS = "X-Table-Credentials"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def games() -> list[dict[str, Any]]:
    """Every env with what its table form needs: player counts, options and the agents
    that may take a seat at its default player count (``agents``; the lobby asks
    ``/api/agents`` again whenever the count changes)."""
    out = []
    for name in envs.list_envs():
        game = envs.game_class(name)
        out.append({
            "env": name, "title": game.title or name,
            "min_players": game.min_players, "max_players": game.max_players,
            "default_players": game.default_players,
            "options": {k: {"default": o.default, "choices": list(o.choices), "doc": o.doc}
                        for k, o in game.options.items()},
            "agents": [o.spec for o in agent_offers(name, game.default_players, LEVELS)],
        })
    return out


def agents(env: str | None, players: str | None) -> dict[str, Any]:
    """The agents that can play ``env`` at ``players`` players (default: the game's), as
    ``agent_offers`` labels them: the bots, the networks whose cards play that count, and
    the levels their cards measured there, each worded by what it measured, so the lobby
    offers a level as harder than its network only where it was measured stronger."""
    if env not in envs.list_envs():
        raise TableError(400, f"unknown env {str(env)[:40]!r}; envs: "
                         f"{', '.join(envs.list_envs())}")
    game = envs.game_class(env)
    if players is None:
        count = game.default_players
    elif re.fullmatch(r"[0-9]{1,3}", players):  # not str.isdigit: '²' is a digit to it
        count = int(players)
    else:
        raise TableError(400, f"players {players[:20]!r} must be a player count "
                         f"{game.min_players}..{game.max_players}")
    if not game.min_players <= count <= game.max_players:
        raise TableError(400, f"{env} plays {game.min_players}..{game.max_players} players, "
                         f"not {count}")
    return {"env": env, "players": count,
            "agents": [o.as_dict() for o in agent_offers(env, count, LEVELS)]}


def reply(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


def not_a_number(name: str) -> Any:
    """JSON's ``NaN``/``Infinity`` are not JSON: refused where Python would take them."""
    raise ValueError(f"{name} is not a JSON value")


def nesting(data: Any, limit: int = MAX_DEPTH) -> None:
    """A 400 when ``data`` nests deeper than ``limit`` arrays or objects (a saved game is a
    few deep): walked without recursion, so no depth of input can overflow the stack here
    or in what reads it later."""
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth > limit:
                raise TableError(400, f"the body nests arrays and objects more than {limit} "
                                 "deep; a saved game needs fewer than 10")
            stack.extend((child, depth + 1)
                         for child in (node.values() if isinstance(node, dict) else node))


async def body_of(request: Request) -> dict[str, Any]:
    """The request's JSON object, or a 4xx saying what is wrong with it: too big (read no
    further than the limit), not JSON (an integer of more than 4,300 digits, which Python
    refuses to convert, counts as not JSON), nested too deep, or not an object."""
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise TableError(413, f"the body is over {MAX_BODY} bytes; at most {MAX_BODY} "
                             "are taken")
    if not raw:
        return {}
    try:
        data = json.loads(bytes(raw), parse_constant=not_a_number)
    except (UnicodeDecodeError, ValueError) as exc:  # JSONDecodeError is a ValueError
        raise TableError(400, f"the body must be a JSON object: {str(exc)[:200]}") from None
    except RecursionError:
        raise TableError(400, f"the body nests arrays and objects more than {MAX_DEPTH} "
                         "deep; a saved game needs fewer than 10") from None
    nesting(data)
    if not isinstance(data, dict):
        raise TableError(400, f"the body must be a JSON object, not {type(data).__name__}")
    return data


async def not_found(request: Request, exc: Exception) -> Response:
    """An unknown path or method: JSON that names the API."""
    status = getattr(exc, "status_code", 404)
    what = "no such page" if status == 404 else f"{request.method} is not allowed here"
    return reply({"error": f"{what}: {request.url.path}; the pages are / and /table/<id>, "
                           "the API is under /api/ (see meeplezoo.training.web.app)"}, status)


def links(request: Request, table: Table) -> list[dict[str, Any]]:
    """The table's links to hand out: per link its seats and their names, its kind
    (``seat``, ``hotseat``, ``watcher``), its credentials and its page's address with them
    (in the fragment, which browsers never send to a server or a referrer)."""
    base = str(request.base_url).rstrip("/")
    return [{"seats": sorted(h.seats), "names": [table.seat_name(s) for s in sorted(h.seats)],
             "kind": h.kind, "credentials": h.credentials,
             "url": f"{base}/table/{table.id}#key={h.credentials}"}
            for h in table.holders]


def create_app(saves: str | Path, hosts: list[str] | None = None,
               custom_agents: bool = True) -> Starlette:
    """The server's app; ``saves`` is the folder saves go to (a folder per table),
    ``hosts`` the host names it answers (default: this machine's loopback names),
    ``custom_agents`` whether a seat may name a Python agent or a folder by path (off when
    others can reach the server)."""
    tables = Tables(saves, custom_agents)

    def table_of(request: Request) -> tuple[Table, Holder]:
        return tables.get(request.path_params["table"], request.headers.get(CREDENTIALS))

    def route(handler: Callable) -> Callable:
        """An endpoint whose ``TableError`` becomes its status and ``{"error": message}``;
        the work runs in a thread (agents may think for a while)."""
        from starlette.concurrency import run_in_threadpool

        async def endpoint(request: Request) -> Response:
            try:
                body = await body_of(request) if request.method == "POST" else {}
                return await run_in_threadpool(handler, request, body)
            except TableError as exc:
                return reply({"error": str(exc)}, exc.status)
        return endpoint

    def page(name: str) -> Callable:
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, headers=SECURITY_HEADERS)
        return endpoint

    def create(request: Request, body: dict) -> Response:
        table = tables.create(body)
        handed = links(request, table)
        return reply({"id": table.id, "credentials": handed[0]["credentials"],
                      "url": f"/table/{table.id}", "practice": table.practice,
                      "hotseat": table.hotseat, "open": table.open, "links": handed}, 201)

    def show(request: Request, body: dict) -> Response:
        table, holder = table_of(request)
        seat = seat_number(request.query_params.get("seat"), table.game.num_players)
        return reply(table.view(holder, seat))

    def act(request: Request, body: dict) -> Response:
        table, holder = table_of(request)
        table.act(holder, body)
        return reply(table.view(holder))

    def step(request: Request, body: dict) -> Response:
        table, holder = table_of(request)
        table.step(body)
        return reply(table.view(holder))

    def undo(request: Request, body: dict) -> Response:
        table, holder = table_of(request)
        table.undo(holder, body)
        return reply(table.view(holder))

    def pass_screen(request: Request, body: dict) -> Response:
        table, holder = table_of(request)
        table.pass_screen(holder, body)
        return reply(table.view(holder))

    def save(request: Request, body: dict) -> Response:
        table, holder = table_of(request)
        return reply({"saved": tables.save(table, holder, body.get("name"))})

    def load(request: Request, body: dict) -> Response:
        table, holder = table_of(request)
        if not holder.seats:
            raise TableError(403, "a watcher's link cannot load a game")
        if "save" in body:
            table.load(holder, body["save"])
        elif "name" in body:
            table.load(holder, tables.read_save(table, body["name"]))
        else:
            raise TableError(400, "give the save's name ({\"name\": ...}) or the saved game "
                             "itself ({\"save\": {...}})")
        return reply(table.view(holder))

    def saves_of(request: Request, body: dict) -> Response:
        table, _ = table_of(request)
        return reply(tables.list_saves(table))

    def all_saves(request: Request, body: dict) -> Response:
        raise TableError(403, "saves belong to their table: list a table's saves with "
                         "GET /api/tables/<id>/saves and its credentials")

    routes = [
        Route("/", page("index.html")),
        Route("/table/{table}", page("table.html")),
        Route("/api/games", route(lambda request, body: reply(games()))),
        Route("/api/agents", route(lambda request, body: reply(agents(
            request.query_params.get("env"), request.query_params.get("players"))))),
        Route("/api/saves", route(all_saves)),
        Route("/api/tables", route(lambda request, body: reply(tables.listing()))),
        Route("/api/tables", route(create), methods=["POST"]),
        Route("/api/tables/{table}/view", route(show)),
        Route("/api/tables/{table}/act", route(act), methods=["POST"]),
        Route("/api/tables/{table}/step", route(step), methods=["POST"]),
        Route("/api/tables/{table}/undo", route(undo), methods=["POST"]),
        Route("/api/tables/{table}/pass", route(pass_screen), methods=["POST"]),
        Route("/api/tables/{table}/save", route(save), methods=["POST"]),
        Route("/api/tables/{table}/load", route(load), methods=["POST"]),
        Route("/api/tables/{table}/saves", route(saves_of)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    allowed = hosts or ["127.0.0.1", "localhost"]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found},
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed)])
    app.state.tables = tables
    return app
