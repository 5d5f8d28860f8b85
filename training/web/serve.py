"""``meeplezoo serve``: the web table, in your browser.

    meeplezoo serve                      # http://127.0.0.1:8000, then open it
    meeplezoo serve --port 8080 --saves ~/meeplezoo-saves

The server binds 127.0.0.1 (this machine only) unless ``--host`` says otherwise (a LAN
address, to play with a friend on another machine: the warning it prints says what that
exposes); each table is a game on the server, and a browser receives only what its link's
seat may see.  Needs the web extra: ``pip install 'meeplezoo[web]'``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

LOOPBACK = ("127.0.0.1", "localhost")
WILDCARD = ("0.0.0.0", "::", "")


def host_names(host: str) -> list[str]:
    """The host names the server answers (any other is refused, against DNS rebinding):
    ``host`` and loopback, or, bound to every address (``0.0.0.0``), this machine's name
    and addresses."""
    if host not in WILDCARD:
        return [host, *LOOPBACK]
    import socket

    name = socket.gethostname()
    try:
        _, aliases, addresses = socket.gethostbyname_ex(name)
    except OSError:
        aliases, addresses = [], []
    return sorted({name, *aliases, *addresses, *LOOPBACK})


def exposure(host: str, port: int, saves: Path, custom_agents: bool,
             names: list[str]) -> str:
    """What serving on ``host`` exposes, in words: the warning ``--host`` prints, so whoever
    opens the server to a network knows exactly what anyone on it can do."""
    agents = ("seat any agent this machine can load, including Python agents "
              "(package.module:attribute imports any module installed here) and folders by "
              "path (read from this machine's disk)" if custom_agents else
              "seat only the agents the lobby offers (Python agents and folders by path are "
              "refused; --allow-custom-agents allows them)")
    return "\n".join([
        f"warning: serving on {host}:{port} to every machine that can reach it, over plain "
        f"HTTP (not encrypted), as {', '.join(names)}. Anyone there can:",
        "  - open the lobby and list the open tables: their ids, games, who plays each seat "
        "(agent or person), whether each is a practice or hot-seat table and whether it is "
        "over;",
        f"  - start tables and {agents}; their agents think on this machine's CPU;",
        "  - with a table's link (its credentials), play that link's seat or watch: a seat's "
        "link shows that seat's hand, a watcher's only what is public (every hand at an open "
        "practice table); anyone who sees a link, or the traffic on the network, holds it;",
        f"  - save a table's game under {saves}/<table id>/ with that table's link (loading "
        "and listing saves need it too).",
        "  Nothing else of this machine is served: no files outside the page, no seeds before "
        "a game ends (except at practice tables given their seed).",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meeplezoo serve",
                                     description="Play the games in your browser")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--saves", default=str(Path.home() / ".meeplezoo" / "saves"),
                        help="folder for saved games, a folder per table (default "
                             "~/.meeplezoo/saves)")
    parser.add_argument("--allow-custom-agents", action="store_true",
                        help="with --host: let a seat name a Python agent (imports a module "
                             "of this machine) or an agent folder by path (on 127.0.0.1 "
                             "they are always allowed)")
    args = parser.parse_args(argv)
    saves = Path(args.saves).expanduser()
    if not saves.is_dir() and not saves.parent.is_dir() and args.saves != parser.get_default(
            "saves"):
        raise FileNotFoundError(2, "no such folder for the saves folder", str(saves.parent))
    import uvicorn

    from meeplezoo.training.web.app import create_app

    hosts = None if args.host in LOOPBACK else host_names(args.host)
    custom_agents = not hosts or args.allow_custom_agents
    if hosts:
        print(exposure(args.host, args.port, saves, custom_agents, hosts), flush=True)
    app = create_app(saves, hosts, custom_agents)
    print(f"MeepleZoo web table: http://{args.host}:{args.port}/  (Ctrl-C stops it)",
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    from meeplezoo.envs.core.command import run_command

    raise SystemExit(run_command(main))
