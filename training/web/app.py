"""The web table's HTTP side (Starlette): the page, its static files and a small JSON API.

    GET  /                                  the lobby (start a table, rejoin one)
    GET  /table/{id}                        a table's page (the browser keeps its credentials)
    GET  /api/games                         envs, player counts, options and agents to seat
                                            (those that play the game's default count)
    GET  /api/agents?env=E&players=N        the agents that can play E at N players, each
                                            labelled (a level by what its card measured)
    GET  /api/tables                        open tables (ids, games, who plays each seat)
    POST /api/tables                        {env, players, seats, seed, options} -> id, credentials
    GET  /api/tables/{id}/view[?seat=N]     what the person's seats may see
    POST /api/tables/{id}/act               {seat, action, version}: the person's move
    POST /api/tables/{id}/step              {moves, version}: let the agents move
    POST /api/tables/{id}/undo              {version}: back to the person's previous decision
    POST /api/tables/{id}/save              {name}: into the server's saves folder
    POST /api/tables/{id}/load              {name} or {save: <a saved game>}
    GET  /api/saves                         the saves folder's games

Every table request carries the table's credentials (header ``X-Table-Credentials``), handed
out once when the table is made.  A bad request is a 4xx whose JSON ``error`` says what was
wrong and what is allowed; the table is left as it was.  Hosts other than the ones served
are refused (no DNS rebinding), and the page may load nothing from elsewhere.
"""

from __future__ import annotations

import json
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
from meeplezoo.training.web.tables import Table, TableError, Tables

STATIC = Path(__file__).with_name("static")
MAX_BODY = 8 * 1024 * 1024  # a saved Hegemony game is well under 1 MB
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
        raise TableError(400, f"unknown env {env!r}; envs: {', '.join(envs.list_envs())}")
    game = envs.game_class(env)
    if players is None:
        count = game.default_players
    elif players.isdigit():
        count = int(players)
    else:
        raise TableError(400, f"players {players!r} must be a player count")
    if not game.min_players <= count <= game.max_players:
        raise TableError(400, f"{env} plays {game.min_players}..{game.max_players} players, "
                         f"not {count}")
    return {"env": env, "players": count,
            "agents": [o.as_dict() for o in agent_offers(env, count, LEVELS)]}


def reply(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


async def body_of(request: Request) -> dict[str, Any]:
    """The request's JSON object, or a 4xx saying what is wrong with it."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise TableError(413, f"the body is {len(raw)} bytes; at most {MAX_BODY} are taken")
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TableError(400, f"the body must be a JSON object: {exc}") from None
    if not isinstance(data, dict):
        raise TableError(400, f"the body must be a JSON object, not {type(data).__name__}")
    return data


async def not_found(request: Request, exc: Exception) -> Response:
    """An unknown path or method: JSON that names the API."""
    status = getattr(exc, "status_code", 404)
    what = "no such page" if status == 404 else f"{request.method} is not allowed here"
    return reply({"error": f"{what}: {request.url.path}; the pages are / and /table/<id>, "
                           "the API is under /api/ (see meeplezoo.training.web.app)"}, status)


def create_app(saves: str | Path, hosts: list[str] | None = None) -> Starlette:
    """The server's app; ``saves`` is the folder saves go to, ``hosts`` the host names it
    answers (default: this machine's loopback names)."""
    tables = Tables(saves)

    def table_of(request: Request) -> Table:
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
        return reply({"id": table.id, "credentials": table.credentials,
                      "url": f"/table/{table.id}"}, 201)

    def show(request: Request, body: dict) -> Response:
        seat = request.query_params.get("seat")
        if seat is not None and not seat.lstrip("-").isdigit():
            raise TableError(400, f"seat {seat!r} must be a seat number")
        return reply(table_of(request).view(None if seat is None else int(seat)))

    def act(request: Request, body: dict) -> Response:
        table = table_of(request)
        table.act(body)
        return reply(table.view())

    def step(request: Request, body: dict) -> Response:
        table = table_of(request)
        table.step(body)
        return reply(table.view())

    def undo(request: Request, body: dict) -> Response:
        table = table_of(request)
        table.undo(body)
        return reply(table.view())

    def save(request: Request, body: dict) -> Response:
        name = tables.save(table_of(request), body.get("name"))
        return reply({"saved": name})

    def load(request: Request, body: dict) -> Response:
        table = table_of(request)
        if "save" in body:
            table.load(body["save"])
        elif "name" in body:
            table.load(tables.read_save(body["name"]))
        else:
            raise TableError(400, "give the save's name ({\"name\": ...}) or the saved game "
                             "itself ({\"save\": {...}})")
        return reply(table.view())

    routes = [
        Route("/", page("index.html")),
        Route("/table/{table}", page("table.html")),
        Route("/api/games", route(lambda request, body: reply(games()))),
        Route("/api/agents", route(lambda request, body: reply(agents(
            request.query_params.get("env"), request.query_params.get("players"))))),
        Route("/api/saves", route(lambda request, body: reply(tables.list_saves()))),
        Route("/api/tables", route(lambda request, body: reply(tables.listing()))),
        Route("/api/tables", route(create), methods=["POST"]),
        Route("/api/tables/{table}/view", route(show)),
        Route("/api/tables/{table}/act", route(act), methods=["POST"]),
        Route("/api/tables/{table}/step", route(step), methods=["POST"]),
        Route("/api/tables/{table}/undo", route(undo), methods=["POST"]),
        Route("/api/tables/{table}/save", route(save), methods=["POST"]),
        Route("/api/tables/{table}/load", route(load), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    allowed = hosts or ["127.0.0.1", "localhost"]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found},
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed)])
    app.state.tables = tables
    return app
