"""Play a game in the terminal against the AIs: you take one seat, bots the others.

    meeplezoo play --env chihou_sousei_v1 --players 2 --seat 0 \\
        --opponents chihou_sousei_v1/ppo_league

The game runs on the engine (``envs.make_game``); each opponent is a ``make_bot`` spec
(``random``, ``heuristic``, a checkpoint folder) or a zoo name ``<env>/<name>``
(``training.opponents.list_zoo()``, found wherever play runs, clone or wheel), at a level
(``<network>@hard``) or a Python agent ``package.module:attribute``.  At your turn it shows
the board, the cards the board text leaves out, your score, the decision in words and the
legal actions, numbered, grouped by the game's action catalogue and labelled by the game's
presentation layer (``envs.presenter``); every move is followed by what it did (the log).
Type ``help`` for the commands.  ``main`` takes its input and output streams, so tests drive
whole games.  ``agents.seating.make_opponent`` is the one way a spec becomes a bot here and
at the web table (``training.web``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from meeplezoo import envs
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError, CorruptStateError, MeepleZooError
from meeplezoo.envs.core.game import Game, GameState, parse_options, state_from_saved
from meeplezoo.envs.core.present import Presenter, places, sections_text
from meeplezoo.training.agents.bots import LEVELS, split_level
from meeplezoo.training.agents.seating import make_opponent
from meeplezoo.training.agents.specs import add_agents_argument
from meeplezoo.training.agents.zoo import agent_offers, zoo_entry

REPLACED = -1  # choose(): undo or load replaced the state, so the turn starts over

HELP = """\
Type a number to play that action.
Type any other text to list the actions whose name contains it (case-insensitive);
  if exactly one matches you are asked to confirm it with y.
An empty line shows the actions again.
Commands:
  help         this text
  undo         back to your previous decision (opponents' moves since then are undone too)
  save FILE    save the game as JSON
  load FILE    load a game saved with save (same env and player count)
  quit         stop playing (end of input quits too)"""


class EndOfInput(Exception):
    """The input ran out: the game stops as if the human typed quit."""


def level_note(spec: str, players: int) -> str | None:
    """What a shipped network's level in ``spec`` measured against the network at this
    player count (``zoo.level_claim``'s label), so a level is never taken for harder than
    its card shows; None for a spec without a level or not a zoo name."""
    base, level = split_level(spec)
    if level is None or not isinstance(base, str) or Path(base).exists():
        return None
    entry = zoo_entry(base)
    if entry is None:
        return None
    if LEVELS[level]["play"] == "greedy":
        return "the network as it is"
    return entry.claim(level, players).text


def opponents_lines(env: str, players: int) -> list[str]:
    """``--list-opponents``: every agent that can play ``env`` at ``players`` players, the
    levels labelled by what their cards measured there (the web lobby's list)."""
    lines = [f"agents for {env} at {players} player(s) (a level is listed where its card "
             "measured it at this count; stronger only where its 95% interval is above 0):"]
    lines += [f"  {offer.label}" for offer in agent_offers(env, players, LEVELS)]
    lines.append("  package.module:attribute (a Python agent)")
    return lines


def seat_opponents(specs: list[str], num_players: int, seat: int) -> dict[int, str]:
    """Which spec plays each other seat: one per other seat, or one for all of them."""
    others = [s for s in range(num_players) if s != seat]
    if not others:
        if specs:
            raise ConfigError("a solo game has no other seats: leave out --opponents")
        return {}
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        raise ConfigError(
            f"--opponents names {len(specs)} opponent(s) for {len(others)} other seat(s) "
            f"({', '.join(map(str, others))}); give one per seat or one for all"
        )
    return dict(zip(others, specs))


def action_catalogue(game: Game, role: str) -> Any:
    """The role's ``ActionCatalogue`` from the game's actions module (or its own module),
    if it has one of the role's size; menus group actions by its blocks."""
    module_name = type(game).__module__
    for name in (module_name.rsplit(".", 1)[0] + ".actions", module_name):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        catalogue = getattr(module, "CATALOGUE", None)
        if catalogue is None and isinstance(getattr(module, "CATALOGUES", None), dict):
            catalogue = module.CATALOGUES.get(role)
        if catalogue is not None and getattr(catalogue, "size", None) == game.num_actions(role):
            return catalogue
    return None


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def breakdown_text(entries: dict[str, float]) -> str:
    """``population 16, industry 0, region 0`` (the total is shown as the score)."""
    return ", ".join(f"{k} {_number(v)}" for k, v in entries.items() if k != "total")


@dataclass
class Session:
    """One game at the table: the state, who plays each seat, and the human's history."""

    game: Game
    seat: int
    bots: dict[int, Any]
    labels: dict[int, str]
    state: GameState
    out: TextIO
    history: list[GameState] = field(default_factory=list)  # states at the human's decisions
    presenter: Presenter = field(default_factory=Presenter)  # prompts, labels and the log

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def play(self, action: int, who: str) -> None:
        """Play ``action`` for the player to move and print it, then what it did (the log
        lines the human's seat may read)."""
        before = self.state.clone()
        role = self.role(before.current_player())
        name = self.game.action_name(int(action), role)
        self.state.apply(action)
        log = [line for line in self.presenter.narrate(before, int(action), self.state)
               if line.visible_to(frozenset({self.seat}))]
        move = log.pop(0).text.split(": ", 1)[-1] if log else ""
        if self.presenter.secret(before, int(action)) and before.current_player() != self.seat:
            self.say(f"{who} {move}")  # a sealed bid: the move, not its value
        else:
            self.say(f"{who} {'plays' if who.startswith('seat') else 'play'} {name}"
                     + (f" — {move}" if move and move != name else ""))
        for line in log:
            self.say(f"    {line.text.strip()}")

    def role(self, seat: int) -> str:
        return self.game.seat_role(seat)

    def seat_label(self, seat: int) -> str:
        role = self.role(seat)
        return f"seat {seat}" + (f" ({role})" if len(self.game.roles) > 1 else "")

    # -- opponents ------------------------------------------------------------------
    def play_opponents(self) -> None:
        """Let the bots move until it is the human's turn or the game is over."""
        while not self.state.is_terminal() and self.state.current_player() != self.seat:
            player = self.state.current_player()
            action = self.bots[player].act(self.state)
            self.play(action, f"seat {player} ({self.labels[player]})")

    # -- the human's turn -------------------------------------------------------------
    def legal(self) -> list[int]:
        return self.state.legal_actions()

    def show_turn(self) -> None:
        state = self.state
        scores = state.scores()
        breakdown = breakdown_text(state.score_breakdown()[self.seat])
        self.say()
        self.say(state.render_for(self.seat))
        extra = sections_text(self.presenter.sections(state, frozenset({self.seat})))
        if extra:
            self.say()
            self.say("\n".join(extra))
        self.say()
        name = self.presenter.seat_name(self.game, self.seat)
        self.say(f"you are {self.seat_label(self.seat)}"
                 + (f" — {name}" if name != self.seat_label(self.seat) else "")
                 + f": score {_number(scores[self.seat])}"
                 + (f" ({breakdown})" if breakdown else ""))
        self.show_actions(list(range(len(self.legal()))))

    def show_actions(self, numbers: list[int]) -> None:
        """The legal actions (menu positions ``numbers``), under the decision kind and the
        catalogue block of each action."""
        legal = self.legal()
        role = self.role(self.seat)
        catalogue = action_catalogue(self.game, role)
        self.say(self.presenter.prompt(self.state))
        self.say(f"decision: {self.state.decision_name()}")
        block = None
        for i in numbers:
            action = legal[i]
            if catalogue is not None and catalogue.block_of(action) != block:
                block = catalogue.block_of(action)
                self.say(f"  [{block}]")
            name = self.game.action_name(action, role)
            label = self.presenter.label(self.state, action)
            self.say(f"  {i + 1:>4}  {name}" + (f"  — {label}" if label != name else ""))

    def choose(self, inp: TextIO) -> int | None:
        """Read input until it names an action (returned), replaces the state (``REPLACED``)
        or the human quits (None); ``EndOfInput`` when the input runs out."""
        legal = self.legal()
        role = self.role(self.seat)
        names = [f"{self.game.action_name(a, role)} {self.presenter.label(self.state, a)}"
                 for a in legal]
        while True:
            line = self.prompt(inp, f"your move (1-{len(legal)}, text to filter, help): ")
            text = line.strip()
            command, _, argument = text.partition(" ")
            command = command.lower()
            argument = argument.strip()
            if not text:
                self.show_actions(list(range(len(legal))))
            elif text.isdigit():
                number = int(text)
                if 1 <= number <= len(legal):
                    return legal[number - 1]
                self.say(f"there is no action {number}: choose a number from 1 to {len(legal)}")
            elif command == "help":
                self.say(HELP)
            elif command == "quit":
                return None
            elif command == "undo":
                if self.undo():
                    return REPLACED
            elif command in ("save", "load"):
                if not argument:
                    self.say(f"{command} needs a file name: {command} FILE")
                elif command == "save":
                    self.save(argument)
                elif self.load(argument):
                    return REPLACED
            else:
                picked = self.filter(inp, text, names)
                if picked is not None:
                    return legal[picked]

    def filter(self, inp: TextIO, text: str, names: list[str]) -> int | None:
        """List the actions whose name or label contains ``text``; one match is played
        after ``y``.

        Returns the menu position to play, or None to ask again.
        """
        matches = [i for i, name in enumerate(names) if text.lower() in name.lower()]
        if not matches:
            self.say(f"no legal action contains {text!r} (and it is no command); "
                     "type help for the commands, an empty line for the actions")
            return None
        if len(matches) > 1:
            self.say(f"{len(matches)} actions contain {text!r}:")
            self.show_actions(matches)
            return None
        name = self.game.action_name(self.legal()[matches[0]], self.role(self.seat))
        answer = self.prompt(inp, f"play {name}? (y to confirm) ")
        if answer.strip().lower() in ("y", "yes"):
            return matches[0]
        self.say("not played")
        return None

    def prompt(self, inp: TextIO, text: str) -> str:
        """One line of input (without its newline); ``EndOfInput`` when there is none."""
        self.out.write(text)
        self.out.flush()
        line = inp.readline()
        if not line:
            self.say()
            raise EndOfInput
        line = line.rstrip("\n")
        if not inp.isatty():  # piped or scripted input: echo it, so the transcript reads
            self.say(line)
        return line

    # -- commands ---------------------------------------------------------------------
    def undo(self) -> bool:
        if not self.history:
            self.say("nothing to undo: this is your first decision")
            return False
        self.state = self.history.pop()
        self.say("undone: back to your previous decision")
        return True

    def save(self, path: str) -> None:
        try:
            Path(path).write_text(json.dumps(self.state.to_dict()))
        except (OSError, TypeError, ValueError) as exc:
            self.say(f"could not save to {path}: {exc}")
            return
        self.say(f"saved to {path}")

    def load(self, path: str) -> bool:
        """Replace the game by a saved one (undo returns to the game before it)."""
        try:
            data = json.loads(Path(path).read_text())
        except OSError as exc:
            self.say(f"could not read {path}: {exc.strerror or exc}")
            return False
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self.say(f"could not load {path}: not a saved game (not JSON: {exc})")
            return False
        try:
            loaded = state_from_saved(type(self.game), data)
        except CorruptStateError as exc:
            self.say(f"could not load {path}: {exc}")
            return False
        if loaded.game.config_dict() != self.game.config_dict():
            self.say(f"could not load {path}: it is a game of {loaded.game.config_dict()}, "
                     f"this table plays {self.game.config_dict()}")
            return False
        self.history.append(self.state)
        self.state = loaded
        self.say(f"loaded {path}")
        return True

    # -- the end ----------------------------------------------------------------------
    def final_table(self) -> None:
        state = self.state
        scores = state.scores()
        breakdown = state.score_breakdown()
        ranked = places(state)
        self.say()
        self.say(state.render())
        self.say()
        self.say("final table")
        seats = [self.seat_label(s) for s in range(self.game.num_players)]
        who = ["you" if s == self.seat else self.labels[s] for s in range(len(seats))]
        w1, w2 = max(4, *map(len, seats)), max(6, *map(len, who))
        self.say(f"  {'seat':<{w1}}  {'player':<{w2}} {'score':>6} {'place':>5}  breakdown")
        for s in range(len(seats)):
            self.say(f"  {seats[s]:<{w1}}  {who[s]:<{w2}} {_number(scores[s]):>6} "
                     f"{ranked[s]:>5}  {breakdown_text(breakdown[s])}")


def run(session: Session, inp: TextIO) -> int:
    """Play to the end of the game (0), or until the human quits (0)."""
    while True:
        session.play_opponents()
        if session.state.is_terminal():
            session.final_table()
            return 0
        session.show_turn()
        before = session.state.clone()
        try:
            action = session.choose(inp)
        except EndOfInput:
            action = None
        if action is None:
            session.say("bye")
            return 0
        if action == REPLACED:
            continue
        session.history.append(before)
        session.play(action, "you")


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="meeplezoo play",
        description="Play a game in the terminal against bots",
        epilog=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, choices=envs.list_envs())
    parser.add_argument("--players", type=int, default=None, help="default: the game's")
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    add_agents_argument(parser, "--opponents",
                        what="one per other seat in seat order, or one for all (default "
                             "random); --list-opponents says what each level measured "
                             "against its network at this player count")
    parser.add_argument("--list-opponents", action="store_true",
                        help="list the agents that can play this env at --players, each level "
                             "labelled by what its card measured, and stop")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option, e.g. population_scoring=mode")
    args = parser.parse_args(argv)
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    try:
        game = envs.make_game(args.env, num_players=args.players, **parse_options(args.option))
        if args.list_opponents:
            print("\n".join(opponents_lines(game.name, game.num_players)), file=out)
            return 0
        if not 0 <= args.seat < game.num_players:
            raise ConfigError(f"--seat {args.seat} is not a seat 0..{game.num_players - 1}")
        given = list(args.opponents or [])
        if not given and game.num_players > 1:
            given = ["random"]
        specs = seat_opponents(given, game.num_players, args.seat)
        bots = {seat: make_opponent(spec, game, args.seed + 1 + seat, seat)
                for seat, spec in specs.items()}
    except (MeepleZooError, ValueError) as exc:
        raise SystemExit(f"error: {exc}") from None
    session = Session(game, args.seat, bots, specs, game.new_initial_state(args.seed), out,
                      presenter=envs.presenter(args.env))
    who = ", ".join(f"seat {s}: {spec}" for s, spec in specs.items())
    session.say(f"{game.name}, {game.num_players} player(s); you are seat {args.seat}"
                + (f"; {who}" if who else "") + ". Type help for the commands.")
    for spec in dict.fromkeys(specs.values()):
        note = level_note(spec, game.num_players)
        if note:
            session.say(f"  {spec}: {note}")
    return run(session, inp)


if __name__ == "__main__":
    raise SystemExit(run_command(main))
