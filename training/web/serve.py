"""``meeplezoo serve``: the web table, in your browser.

    meeplezoo serve                      # http://127.0.0.1:8000, then open it
    meeplezoo serve --port 8080 --saves ~/meeplezoo-saves

The server binds 127.0.0.1 (this machine only) unless ``--host`` says otherwise; each table
is a game on the server, and a browser receives only what its seats may see.  Needs the web
extra: ``pip install 'meeplezoo[web]'``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

LOOPBACK = ("127.0.0.1", "localhost")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meeplezoo serve",
                                     description="Play the games in your browser")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--saves", default=str(Path.home() / ".meeplezoo" / "saves"),
                        help="folder for saved games (default ~/.meeplezoo/saves)")
    args = parser.parse_args(argv)
    saves = Path(args.saves).expanduser()
    if not saves.is_dir() and not saves.parent.is_dir() and args.saves != parser.get_default(
            "saves"):
        raise FileNotFoundError(2, "no such folder for the saves folder", str(saves.parent))
    import uvicorn

    from meeplezoo.training.web.app import create_app

    hosts = None if args.host in LOOPBACK else [args.host, *LOOPBACK]
    if hosts:
        print(f"warning: serving on {args.host}: other machines that reach it can open tables")
    app = create_app(saves, hosts)
    print(f"MeepleZoo web table: http://{args.host}:{args.port}/  (Ctrl-C stops it)",
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    from meeplezoo.envs.core.command import run_command

    raise SystemExit(run_command(main))
