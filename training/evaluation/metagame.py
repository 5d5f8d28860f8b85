"""Meta-games over per-class strategy populations: what each class wins when every class
plays its best response to the others (empirical game-theoretic analysis), with PSRO rounds.

    meeplezoo metagame --env hegemony_v1 --games 30 --seed 1 --psro-rounds 1 \\
        --br-train="--init-from hegemony_v1/ppo_classes --critic-warmup 4096 --lr 2e-5" \\
        --out runs/metagame/hegemony_v1

A bot table answers "how does each class fare when every class plays the bot"; it cannot
tell the game's balance from the bots'.  Here each role (a Hegemony class) has a population
of strategies, a *profile* is one strategy per role, and the meta-game is the table of what
each role wins at each profile.  Its Nash equilibrium says what each class wins when none of
them can do better by switching to another strategy of its population; α-Rank says which
profiles the population dynamics end in.  docs/metagame.md is the guide (method,
references, costs, how to read the verdict).

Design decisions.

- **Populations.**  ``--population`` names strategies for every role (default: ``random``,
  ``heuristic`` and the env's shipped networks at this player count, a team playing its
  member for each role), ``--strategy ROLE:SPEC`` adds one for one role (ROLE: a role or its
  label, ``WC``), ``--levels hard`` adds every network at that difficulty level (a search: far
  dearer, so opt-in).  A spec is any of ``training.agents.specs.FORMS``; one that is no agent,
  or that plays another role, is refused before any game (``balance.check_spec``).
- **Payoffs.**  A profile is played as a ``balance`` cell (``envs.core.balance``): game ``g``
  of every profile deals the same set-up (``deal_seed(seed, g)``), so every entry of the table
  is paired with every other deal by deal.  A role's payoff is its win share (a shared win
  split; the mean over its seats where it has several) and its mean VP beside it; intervals
  are 95% percentile bootstraps over deals (``ratings.resample_weights``: the same resampled
  deals for every entry, so differences are paired too).  The solvers read win shares.
- **Which profiles.**  ``--profiles all`` plays the whole table (the product of the
  population sizes).  The default, ``deviations``, is the double-oracle design: start from
  the bot profile (or each role's first strategy), play the product of the current supports
  and every profile that differs from it in one role, solve the sub-game of the supports,
  and add to a role's support its best strategy outside it when that gains more than
  ``--tolerance`` against the others' equilibrium mixture; stop when none does.  The
  equilibrium is then one of the whole population's game within that tolerance (its regret
  is computed from played entries only), at a fraction of the table.  Unplayed entries are
  never invented: the report lists the profiles played, Nash is solved on the sub-game of the
  supports, and α-Rank moves between played profiles only (it says when that is not the
  whole table).
- **Solvers** (``metagame_solve``): projected replicator dynamics, regret matching and pure
  profiles, each polished on its support, the lowest regret kept and reported with its
  regret; α-Rank at ``--alpha`` (default 100) with populations of ``--alpha-m`` (50).
- **PSRO** (Lanctot et al. 2017): ``--psro-rounds K`` rounds, each training one best response
  per role of ``--psro-roles`` against the others' equilibrium mixture: every other seat draws
  its role's strategy from that role's mixture at each episode (``training.train``'s pool with
  ``ROLE:SPEC=WEIGHT`` kinds), through ``exploit.train_best_response``; the new network joins
  its role's population as ``br<round>`` and the next round's design tests it.  Each best
  response costs ``--br-timesteps`` learner steps (default 20,480: about 5-9 minutes of a
  core in Hegemony against bots, 40-64 learner steps a second); ``--br-train`` passes more
  ``meeplezoo train`` flags (a local best response from the shipped member:
  ``--init-from hegemony_v1/ppo_classes``, as the exploitability probe of
  docs/results/hegemony.md does).
- **Journal.**  ``--out`` holds ``games.jsonl`` (a ``balance`` journal: one line per game, a
  cell per profile), ``run.json`` (the settings and every best response trained) and the
  report.  ``--resume`` goes on from them: played games are not played again (one is replayed
  to check the code), trained best responses are not trained again, and a run whose settings
  differ is refused naming each setting that differs (only ``--psro-rounds``, the workers and
  the report's options may change).  A run stopped by Ctrl-C or SIGTERM stops its workers
  (``envs.core.workers``; Ray tasks are cancelled).
- **Where.**  ``--workers N`` local processes, or ``--address`` a Ray cluster
  (``training.evaluation.cluster``): the same figures either way.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shlex
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo import envs
from meeplezoo.envs.core import balance as core
from meeplezoo.envs.core.command import run_command
from meeplezoo.envs.core.errors import ConfigError, MeepleZooError
from meeplezoo.envs.core.progress import Progress
from meeplezoo.training.agents.bots import split_level
from meeplezoo.training.agents.opponents import find_checkpoint, spec_role
from meeplezoo.training.agents.specs import add_agents_argument, is_python_spec
from meeplezoo.training.cli import code_commit, parse_options
from meeplezoo.training.evaluation import cluster, exploit
from meeplezoo.training.evaluation import metagame_solve as solve
from meeplezoo.training.evaluation.arena import shipped
from meeplezoo.training.evaluation.balance import BalanceError, Cell, check_spec, run_cells, show
from meeplezoo.training.evaluation.balance_journal import Journal, JournalError
from meeplezoo.training.evaluation.balance_journal import header as journal_header
from meeplezoo.training.evaluation.metagame_report import build_report, markdown

DESIGNS = ("deviations", "all")
BAND = (0.10, 0.45)  # RULES.md's band for every Hegemony class (issue #37's 10-45%)
BR_TIMESTEPS = 20_480
TOLERANCE = 0.02
RUN_FILE, JOURNAL_FILE = "run.json", "games.jsonl"
# settings a resumed run must share (the rest: --psro-rounds, workers, report options)
FIXED = ("env", "config", "seed", "games", "population", "profiles", "tolerance",
         "psro_roles", "br_timesteps", "br_train")

Profile = tuple[int, ...]  # a strategy index per role


class MetagameError(MeepleZooError, ValueError):
    """A population, option or run folder the meta-game cannot use, and why."""


@dataclass(frozen=True)
class Strategy:
    label: str  # how tables name it, unique in its role
    spec: str  # what plays (training.agents.specs.FORMS)
    source: str  # population, strategy, level, or "psro round K"


def strategy_label(spec: str) -> str:
    """``heuristic``; ``ppo_classes`` for a zoo name or folder; ``ppo_classes@hard``; the
    attribute of ``package.module:attribute``."""
    base, level = split_level(spec)
    if base in (core.RANDOM, core.HEURISTIC):
        name = base
    elif is_python_spec(base):
        name = str(base).rsplit(":", 1)[1]
    else:
        name = Path(str(base).rstrip("/")).name
    return f"{name}@{level}" if level else name


def is_network(spec: str) -> bool:
    return "@" not in spec and not is_python_spec(spec) and find_checkpoint(spec) is not None


class Population:
    """Each role's strategies, checked to play that role."""

    def __init__(self, game: Any, roles: list[str], labels: list[str]) -> None:
        self.game, self.roles, self.labels = game, roles, labels
        self.strategies: dict[str, list[Strategy]] = {r: [] for r in roles}

    def role(self, name: str, where: str) -> str:
        for role, label in zip(self.roles, self.labels):
            if name.lower() in (role.lower(), label.lower()):
                return role
        raise MetagameError(f"{where}: unknown role {name!r}; the roles are "
                            + ", ".join(f"{r} ({lab})" for r, lab in zip(self.roles, self.labels)))

    def add(self, role: str, spec: str, source: str, label: str | None = None) -> Strategy:
        """Add ``spec`` to ``role``'s population (once), refused with the reason when it
        is no agent or plays another role."""
        for known in self.strategies[role]:
            if known.spec == spec:
                return known
        if "," in spec or "=" in spec:
            raise MetagameError(f"strategy {spec!r}: a spec with ',' or '=' cannot be a "
                                "training opponent; move or link it")
        try:
            check_spec(self.game, spec, self.game.role_seats(role)[0], role)
        except BalanceError as exc:
            reason = str(exc).split(": ", 1)[1].replace("give it as ", "give it as --strategy ")
            raise MetagameError(f"strategy for {role}: {reason}") from None
        label = label or strategy_label(spec)
        taken = {s.label for s in self.strategies[role]}
        base, k = label, 2
        while label in taken:
            label, k = f"{base}_{k}", k + 1
        strategy = Strategy(label, spec, source)
        self.strategies[role].append(strategy)
        return strategy

    def sizes(self) -> list[int]:
        return [len(self.strategies[r]) for r in self.roles]

    def named(self) -> list[list[str]]:
        """The strategies the command line named (the settings a resumed run must share)."""
        return [[role, s.label, s.spec] for role in self.roles for s in self.strategies[role]
                if not s.source.startswith("psro")]


def build_population(game: Any, roles: list[str], labels: list[str],
                     population: list[str] | None, strategies: list[str],
                     levels: list[str]) -> Population:
    """``--population`` for every role (default: random, heuristic and the shipped networks,
    each where it plays), ``--strategy ROLE:SPEC``, then ``--levels`` of every network."""
    pop = Population(game, roles, labels)
    if population is None:
        for spec in [core.RANDOM, core.HEURISTIC, *shipped(game.name, game.num_players)]:
            plays = spec_role(spec)
            for role in roles:
                if plays in (None, role):
                    pop.add(role, spec, "default")
    else:
        for spec in population:
            for role in roles:
                pop.add(role, spec, "population")
    for item in strategies:
        name, sep, spec = item.partition(":")
        if not sep or not spec:
            raise MetagameError(f"--strategy {item!r} must look like ROLE:SPEC")
        pop.add(pop.role(name, f"--strategy {item}"), spec, "strategy")
    for level in levels:
        for role in roles:
            for strategy in list(pop.strategies[role]):
                if is_network(strategy.spec):
                    pop.add(role, f"{strategy.spec}@{level}", "level")
    empty = [r for r in roles if not pop.strategies[r]]
    if empty:
        raise MetagameError(f"no strategy plays {', '.join(empty)}: add one with --strategy "
                            f"{empty[0]}:SPEC")
    return pop


def parse_band(text: str) -> tuple[float, float]:
    try:
        low, high = (float(x) for x in text.split(","))
    except ValueError:
        raise MetagameError(f"--band {text!r} must be LOW,HIGH win shares, e.g. 0.10,0.45"
                            ) from None
    if not 0.0 <= low < high <= 1.0:
        raise MetagameError(f"--band {text!r}: need 0 <= LOW < HIGH <= 1")
    return low, high


class Metagame:
    """The table: its population, the games played per profile (journaled), and the
    estimates and solutions read from them."""

    def __init__(self, env_name: str, config: dict[str, Any], seed: int, games: int,
                 population: Population, workers: int | cluster.Workers, out: Path,
                 commit: str, progress: str = "auto") -> None:
        self.env_name, self.config, self.seed, self.games = env_name, config, seed, games
        self.pop, self.workers, self.out, self.commit = population, workers, out, commit
        self.game = population.game
        self.roles, self.labels = population.roles, population.labels
        self.hook = core.stats_hook(self.game)
        self.seat_roles = [self.game.seat_role(s) for s in range(self.game.num_players)]
        self.records: dict[Profile, dict[int, dict[str, Any]]] = {}
        self.book: Journal | None = None
        self.progress = progress
        self.replayed = False
        self.played = 0  # games played by this run (not taken from the journal)

    # -- profiles and games ------------------------------------------------------------------

    def name(self, profile: Profile) -> str:
        return "|".join(self.pop.strategies[r][i].label for r, i in zip(self.roles, profile))

    def cell(self, profile: Profile) -> Cell:
        chosen = {r: self.pop.strategies[r][i].spec for r, i in zip(self.roles, profile)}
        return Cell(self.name(profile), tuple(chosen[r] for r in self.seat_roles))

    def bot_profile(self) -> Profile | None:
        found = [[s.spec for s in self.pop.strategies[r]].index(core.HEURISTIC)
                 if any(s.spec == core.HEURISTIC for s in self.pop.strategies[r]) else None
                 for r in self.roles]
        return None if None in found else tuple(found)

    def sample(self, profiles: list[Profile]) -> None:
        """Play every game of ``profiles`` that is neither played nor in the journal."""
        new = [p for p in dict.fromkeys(profiles) if len(self.records.get(p, {})) < self.games]
        if not new:
            return
        known = [*self.records, *(p for p in new if p not in self.records)]
        cells = [self.cell(p) for p in known]
        self.book = Journal.open(self.out / JOURNAL_FILE, journal_header(
            self.env_name, self.config, self.seed, self.games,
            [(c.name, c.specs) for c in cells], self.seat_roles, self.commit))
        for p in new:
            self.records[p] = dict(self.book.games[self.name(p)])
        self._check_replay()
        todo: dict[tuple[int, ...], list[Profile]] = {}
        for p in new:
            missing = tuple(self.book.missing(self.name(p), self.games))
            if missing:
                todo.setdefault(missing, []).append(p)
        count = sum(len(g) * len(ps) for g, ps in todo.items())
        if not count:
            return
        total = int(np.prod(self.pop.sizes()))
        print(f"metagame: {len(new)} profiles to play ({count} games); "
              f"{len(self.records)} of {total} sampled", file=sys.stderr, flush=True)
        with Progress(count, f"metagame {self.env_name}", unit="game",
                      style=self.progress) as bar:

            def done(part: list[dict[str, Any]]) -> None:
                self.book.add(part)
                bar.update(len(part))

            for missing, group in todo.items():
                by_name = {self.name(p): p for p in group}
                for record in run_cells(self.env_name, self.config,
                                        [self.cell(p) for p in group], self.seed,
                                        list(missing), self.workers, done):
                    self.records[by_name[record["cell"]]][record["g"]] = record
        self.played += count

    def _check_replay(self) -> None:
        """Once a run: the first journaled game, played again, must come out the same."""
        if self.replayed:
            return
        self.replayed = True
        for p, games in self.records.items():
            if games:
                g = min(games)
                self.book.check_replay(self.name(p), run_cells(
                    self.env_name, self.config, [self.cell(p)], self.seed, [g], 1)[0])
                return

    # -- estimates -----------------------------------------------------------------------------

    def tensors(self, by_sources: bool = True) -> dict[str, Any]:
        """Per deal, each role's win share and VP (and VP by source, unless not
        ``by_sources``) at every played profile: arrays ``(roles, *sizes, deals)`` (sources:
        a last axis), NaN unplayed."""
        sizes, n = self.pop.sizes(), len(self.roles)
        share = np.full((n, *sizes, self.games), np.nan)
        vp = np.full_like(share, np.nan)
        sources: list[str] = []
        by_source = None
        seats = [self.game.role_seats(r) for r in self.roles]
        for p, games in self.records.items():
            for g in range(self.games):
                record = games[g]
                total = sum(record["wins"])
                for k, role_seats in enumerate(seats):
                    share[(k, *p, g)] = np.mean([record["wins"][s] / total for s in role_seats])
                    vp[(k, *p, g)] = np.mean([record["scores"][s] for s in role_seats])
                    if not by_sources or self.hook is None or "game" not in record:
                        continue
                    rows = [self.hook.seat_summary([record["game"]], s).get("breakdown", {})
                            for s in role_seats]
                    if by_source is None:
                        sources = list(rows[0])
                        by_source = np.full((*share.shape, len(sources)), np.nan)
                    by_source[(k, *p, g)] = np.mean([list(r.values()) for r in rows], axis=0)
        return {"share": share, "vp": vp, "by_source": by_source, "sources": sources}

    def solve(self, design: str, tolerance: float, support: list[list[int]]
              ) -> dict[str, Any]:
        """The equilibrium of the whole population (``design``), sampling what it needs;
        ``support`` (each role's support indices) grows in place."""
        sizes = self.pop.sizes()
        bot = self.bot_profile()
        if design == "all":
            support[:] = [list(range(n)) for n in sizes]
        while True:
            core_profiles = list(itertools.product(*support))
            deviations = [(*p[:k], s, *p[k + 1:]) for p in core_profiles
                          for k, n in enumerate(sizes) for s in range(n)]
            self.sample([*([bot] if bot else []), *core_profiles, *deviations])
            means = self.tensors(by_sources=False)["share"].mean(axis=-1)
            sub = means[(slice(None), *np.ix_(*support))]
            found = solve.solve_nash(sub)
            mixture = [np.zeros(n) for n in sizes]
            for k, weights in enumerate(found["mixture"]):
                mixture[k][support[k]] = weights
            whole = solve.regret(means, mixture)
            grown = False
            for k, dev in enumerate(whole["deviations"]):
                outside = [s for s in range(sizes[k]) if s not in support[k]]
                if outside:
                    best = max(outside, key=lambda s, dev=dev: dev[s])
                    if dev[best] - whole["values"][k] > tolerance:
                        support[k] = sorted([*support[k], best])
                        grown = True
            if not grown:
                return {"mixture": mixture, "solver": found["solver"],
                        "subgame_regret": found["max_gain"], **whole,
                        "support": [list(s) for s in support]}


# -- PSRO ---------------------------------------------------------------------------------------


def mixture_labels(mg: Metagame, mixture: solve.Mixture) -> dict[str, dict[str, float]]:
    return {lab: {s.label: float(mixture[k][i])
                  for i, s in enumerate(mg.pop.strategies[r]) if mixture[k][i] > 0}
            for k, (r, lab) in enumerate(zip(mg.roles, mg.labels))}


def round_summary(mg: Metagame, eq: dict[str, Any], k: int,
                  previous: solve.Mixture | None, added: dict[str, Strategy]) -> dict[str, Any]:
    """A round's line: population sizes, profiles played, the equilibrium and its regret,
    and each best response added before it: what it gains over the previous equilibrium."""
    means = mg.tensors(by_sources=False)["share"].mean(axis=-1)
    out = {"round": k, "sizes": dict(zip(mg.labels, mg.pop.sizes())),
           "profiles_sampled": len(mg.records), "mixture": mixture_labels(mg, eq["mixture"]),
           "max_regret": eq["max_gain"], "values": dict(zip(mg.labels, eq["values"])),
           "best_responses": {}}
    if previous is not None and added:
        padded = [np.pad(x, (0, n - len(x))) for x, n in zip(previous, mg.pop.sizes())]
        before = solve.regret(means, padded)
        for j, (role, lab) in enumerate(zip(mg.roles, mg.labels)):
            if role in added:
                s = mg.pop.strategies[role].index(added[role])
                out["best_responses"][lab] = {
                    "label": added[role].label, "spec": added[role].spec,
                    "win_share_vs_previous": float(before["deviations"][j][s]),
                    "gain_vs_previous": float(before["deviations"][j][s] - before["values"][j])}
    return out


def train_round(mg: Metagame, eq: dict[str, Any], k: int, roles: list[str],
                settings: dict[str, Any], state: dict[str, Any]) -> dict[str, Strategy]:
    """Round ``k``'s best response of each of ``roles`` against ``eq``'s mixture (one found
    in ``state`` from an earlier run is taken as it is), added to its role's population."""
    import contextlib

    added: dict[str, Strategy] = {}
    pool = ",".join(f"{r}:{s.spec}={eq['mixture'][j][i]:.6g}"
                    for j, r in enumerate(mg.roles) for i, s in enumerate(mg.pop.strategies[r])
                    if eq["mixture"][j][i] >= solve.SUPPORT)
    opponents = mixture_labels(mg, eq["mixture"])  # before this round's strategies join
    psro = mg.out / "psro"
    for role in roles:
        name = f"br{k}_{role}"
        done = next((b for b in state["best_responses"]
                     if b["round"] == k and b["role"] == role), None)
        if done is None or not (Path(done["spec"]) / "policy.onnx").is_file():
            run_dir = psro / f"{name}_train"
            shutil.rmtree(run_dir, ignore_errors=True)
            seed = (mg.seed + 1000 * k + mg.roles.index(role)) % 2**31
            argv = exploit.best_response_argv(mg.env_name, role, mg.config, pool,
                                              settings["br_timesteps"], seed, run_dir,
                                              settings["br_train"])
            print(f"metagame: round {k}: training {role}'s best response "
                  f"({settings['br_timesteps']} steps; log {run_dir}.log) ...",
                  file=sys.stderr, flush=True)
            start = time.time()
            psro.mkdir(parents=True, exist_ok=True)
            with open(f"{run_dir}.log", "w") as log, contextlib.redirect_stdout(log):
                folder, run = exploit.train_best_response(argv, role, name, psro)
            done = {"round": k, "role": role, "label": f"br{k}", "spec": str(folder),
                    "opponents": opponents,
                    "train_command": "meeplezoo train " + shlex.join(argv),
                    "timesteps_done": run["timesteps_done"],
                    "wall_time_s": round(time.time() - start, 1)}
            state["best_responses"] = [b for b in state["best_responses"]
                                       if (b["round"], b["role"]) != (k, role)] + [done]
            write_state(mg.out, state)
        added[role] = mg.pop.add(role, done["spec"], f"psro round {k}", label=done["label"])
    return added


# -- the run ------------------------------------------------------------------------------------


def write_state(out: Path, state: dict[str, Any]) -> None:
    (out / RUN_FILE).write_text(json.dumps(state, indent=2) + "\n")


def open_run(out: Path, settings: dict[str, Any], resume: bool) -> dict[str, Any]:
    """The run's state in ``out`` (``run.json``): a new one, or with ``--resume`` the one
    there, refused when a setting of ``FIXED`` differs."""
    path = out / RUN_FILE
    if path.exists() or (out / JOURNAL_FILE).exists():
        if not resume:
            raise MetagameError(f"--out {out} holds a metagame run: give --resume to go on "
                                "with it, or another --out")
        try:
            old = json.loads(path.read_text())
            assert old["tool"] == "training.metagame"
        except (OSError, json.JSONDecodeError, KeyError, AssertionError, TypeError):
            raise MetagameError(f"--resume: {path} is no metagame run file") from None
        differ = [f"{key} {old['settings'].get(key)!r} != {settings[key]!r}"
                  for key in FIXED if old["settings"].get(key) != settings[key]]
        if differ:
            raise MetagameError(f"--resume: {out} is a run of other settings: "
                                + "; ".join(differ) + " (give its settings, or another --out)")
        return old
    if resume:
        print(f"metagame: nothing to resume in {out}: a new run", file=sys.stderr)
    out.mkdir(parents=True, exist_ok=True)
    state = {"tool": "training.metagame", "settings": settings, "best_responses": []}
    write_state(out, state)
    return state


def check_training(game: Any, pop: Population, roles: list[str], settings: dict[str, Any],
                   out: Path) -> None:
    """Before any game: the train extra, the ``--br-train`` flags and the pool's specs."""
    from meeplezoo.training.agents.bots import OpponentPool
    from meeplezoo.training.cli import require_training_extra

    require_training_extra("meeplezoo metagame --psro-rounds")
    from meeplezoo.training.fitting import train

    taken = [f for f in settings["br_train"] if f.split("=", 1)[0] in exploit.RESERVED]
    if taken:
        raise MetagameError(f"--br-train {' '.join(taken)}: the meta-game sets these itself "
                            "(the env, the role, the opponents, the steps, the seed, the run)")
    specs = [f"{r}:{s.spec}" for r in pop.roles for s in pop.strategies[r]]
    OpponentPool(game, specs)
    for role in roles:
        train.make_plan(train.build_parser().parse_args(exploit.best_response_argv(
            game.name, role, settings["config"], ",".join(specs), settings["br_timesteps"],
            0, out / "psro" / "check", settings["br_train"])))


def run(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """Check everything, play and solve every round, and return the report."""
    for flag, value, least in (("--games", args.games, 1), ("--bootstrap", args.bootstrap, 1),
                               ("--psro-rounds", args.psro_rounds, 0),
                               ("--br-timesteps", args.br_timesteps, 1),
                               ("--alpha-m", args.alpha_m, 2)):
        if value < least:
            raise MetagameError(f"{flag} must be at least {least} (got {value})")
    if args.tolerance < 0 or args.alpha <= 0:
        raise MetagameError("--tolerance must be 0 or more and --alpha positive")
    band = parse_band(args.band)
    out = Path(args.out or f"runs/metagame/{args.env}")
    plots = None if args.no_plots else Path(args.plots or out / "plots")
    if plots is not None:  # a missing matplotlib is said before any game
        from meeplezoo.training.evaluation.balance_plots import load_pyplot

        load_pyplot("metagame: --plots (or --no-plots)")
    config = parse_options(args.option)
    game = envs.make_game(args.env, **config)
    config = {**config, "num_players": game.num_players}
    roles = [r for r in game.roles if game.role_seats(r)]
    if len(roles) < 2:
        raise MetagameError(f"{args.env} has one role at {game.num_players} players: a "
                            "meta-game is over roles (rate a symmetric game's agents with "
                            "meeplezoo arena)")
    seat_labels = core.role_labels(game, core.stats_hook(game))
    labels = [seat_labels[game.role_seats(r)[0]] for r in roles]
    from meeplezoo.training.agents.specs import LEVEL_NAMES

    levels = [level for level in args.levels.split(",") if level]
    unknown = [level for level in levels if level not in LEVEL_NAMES]
    if unknown:
        raise MetagameError(f"--levels {','.join(unknown)}: the levels are "
                            f"{', '.join(LEVEL_NAMES)}")
    pop = build_population(game, roles, labels, args.population, args.strategy, levels)
    psro_roles = (roles if args.psro_roles == "all" else
                  [pop.role(name.strip(), "--psro-roles") for name in args.psro_roles.split(",")])
    settings = json.loads(json.dumps({
        "env": args.env, "config": config, "seed": args.seed, "games": args.games,
        "population": pop.named(), "profiles": args.profiles, "tolerance": args.tolerance,
        "psro_roles": psro_roles, "br_timesteps": args.br_timesteps,
        "br_train": shlex.split(args.br_train)}))
    if args.psro_rounds:
        check_training(game, pop, psro_roles, settings, out)
    where = cluster.workers_from(args)
    start = time.perf_counter()
    commit = code_commit()
    state = open_run(out, settings, args.resume)
    mg = Metagame(args.env, config, args.seed, args.games, pop, where, out, commit,
                  "auto" if args.progress is None else args.progress)
    bot = mg.bot_profile()
    support = [[i] for i in bot] if bot else [[0] for _ in roles]
    rounds: list[dict[str, Any]] = []
    previous, added = None, {}
    for k in range(args.psro_rounds + 1):
        total = int(np.prod(pop.sizes()))
        print(f"metagame: round {k}: strategies " + ", ".join(
            f"{lab} {n}" for lab, n in zip(labels, pop.sizes())) + f": {total} profiles, "
            f"{total * args.games} games at most ({args.profiles} design)",
            file=sys.stderr, flush=True)
        eq = mg.solve(args.profiles, args.tolerance, support)
        rounds.append(round_summary(mg, eq, k, previous, added))
        print(f"metagame: round {k}: {len(mg.records)} profiles played, regret "
              f"{100 * eq['max_gain']:.2f} points; "
              + "; ".join(f"{lab} {100 * v:.1f}%" for lab, v in zip(labels, eq["values"])),
              file=sys.stderr, flush=True)
        if k < args.psro_rounds:
            previous = [x.copy() for x in eq["mixture"]]
            added = train_round(mg, eq, k + 1, psro_roles, settings, state)
    report = build_report(mg, eq, rounds, band, args.alpha, args.alpha_m, args.bootstrap,
                          args.profiles, args.tolerance)
    report.update({"command": command, "code_commit": commit,
                   "wall_time_s": round(time.perf_counter() - start, 1),
                   "games_played": mg.played, "where": str(cluster.workers_of(where)),
                   "journal": {"path": str(out / JOURNAL_FILE),
                               "code_commits": mg.book.commits if mg.book else [commit]},
                   "best_responses": state["best_responses"]})
    write(report, out, args, plots)
    return report


def write(report: dict[str, Any], out: Path, args: argparse.Namespace,
          plots: Path | None) -> None:
    """The Markdown (cut to 100 columns on the terminal), the JSON and the figures."""
    md = Path(args.markdown or out / "metagame.md")
    md.parent.mkdir(parents=True, exist_ok=True)
    show(markdown(report), str(md))
    path = Path(args.json or out / "metagame.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1) + "\n")
    written = [str(path), str(md)]
    if plots is not None:
        from meeplezoo.training.evaluation.metagame_plots import write_plots

        figures = write_plots(report, plots)
        written.append(f"{len(figures)} figures in {plots}")
    print("metagame: wrote " + ", ".join(written), file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="meeplezoo metagame", description=__doc__.split("\n\n")[0],
                                allow_abbrev=False)
    p.add_argument("--env", default="hegemony_v1")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="game option (num_players=3: that player count)")
    add_agents_argument(p, "--population", metavar="SPEC",
                        what="strategies of every role (default: random, heuristic and the "
                             "env's shipped networks, each in the roles it plays; a team plays "
                             "its member of each role)")
    p.add_argument("--strategy", action="append", default=[], metavar="ROLE:SPEC",
                   help="a strategy of one role (repeatable; ROLE a role or its label, WC)")
    p.add_argument("--levels", default="", metavar="LEVEL,...",
                   help="also every network of the population at these difficulty levels "
                        "(hard, expert: a search a decision, far dearer than the network)")
    p.add_argument("--games", type=int, default=30,
                   help="paired deals per profile played (default 30)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--profiles", choices=DESIGNS, default="deviations",
                   help="all: the whole table; deviations (default): the supports' product "
                        "and every profile one role away from it, grown until no strategy "
                        "outside a support gains over --tolerance")
    p.add_argument("--tolerance", type=float, default=TOLERANCE,
                   help=f"win share a strategy must gain to join a support (default "
                        f"{TOLERANCE})")
    p.add_argument("--psro-rounds", type=int, default=0,
                   help="rounds of PSRO: a best response per role trained against the "
                        "others' equilibrium mixture joins the population (needs the train "
                        "extra)")
    p.add_argument("--psro-roles", default="all", metavar="ROLE,...",
                   help="the roles that get a best response each round (default all)")
    p.add_argument("--br-timesteps", type=int, default=BR_TIMESTEPS,
                   help=f"learner steps of each best response (default {BR_TIMESTEPS}: "
                        "5-9 minutes of a core in Hegemony against bots)")
    p.add_argument("--br-train", default="", metavar="FLAGS",
                   help='more meeplezoo train flags for each best response, as one string '
                        '(a local best response from the shipped member: --br-train="--init-from '
                        'hegemony_v1/ppo_classes --critic-warmup 4096 --lr 2e-5")')
    p.add_argument("--band", default=f"{BAND[0]:.2f},{BAND[1]:.2f}", metavar="LOW,HIGH",
                   help="the target band of a class's win share, drawn and checked (default "
                        "RULES.md's 0.10,0.45 for Hegemony's classes)")
    p.add_argument("--alpha", type=float, default=solve.ALPHA,
                   help=f"α-Rank's selection intensity (default {solve.ALPHA:g})")
    p.add_argument("--alpha-m", type=int, default=solve.POPULATION,
                   help=f"α-Rank's population size (default {solve.POPULATION})")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="RESAMPLES")
    cluster.add_arguments(p)
    p.add_argument("--out", help="the run's folder: journal, best responses, report "
                                 "(default runs/metagame/<env>)")
    p.add_argument("--resume", action="store_true",
                   help="go on with the run in --out (its games and best responses are kept)")
    p.add_argument("--json", metavar="FILE", help="default <out>/metagame.json")
    p.add_argument("--markdown", metavar="FILE", help="default <out>/metagame.md")
    p.add_argument("--plots", metavar="DIR", help="PNG figures (default <out>/plots)")
    p.add_argument("--no-plots", action="store_true", help="no figures (no matplotlib needed)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress of the games on stderr (default: a bar on a terminal, "
                        "else a line every 30 s)")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    try:
        run(args, "meeplezoo metagame " + shlex.join(argv))
    except (MetagameError, ConfigError, JournalError, cluster.GamesLost) as exc:
        text = str(exc).replace("--journal path", "--out").replace("a balance --journal",
                                                                   "the journal")
        raise SystemExit(f"metagame: {text}") from None
    return 0


if __name__ == "__main__":
    raise SystemExit(run_command(main))
