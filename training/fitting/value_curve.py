"""Values that predict: two heads fitted on game records, judged on held-out games, with a
learning curve over data sizes and the baselines a value must beat.

Why two heads: a search's leaf (``search.rollout_value``) is a seat's win share plus a tenth
of its score margin over the best other seat, in ``score_scale`` units.  One head predicts
the chance that the seat wins (a logit, fitted by cross-entropy on the win share, ties
averaged), the other the margin; the value the search reads is the same sum of the two
(``value`` output of ``value.onnx``, on the critic's -1..+1 scale, as
``ismcts.network_value`` expects).  Alone (a solo game) there is no winner: one head, the
score in ``score_scale`` units.

How it is judged: the games of a record are split by game, never by position (positions
of one game are nearly copies of each other); the last ``held_out`` games chose nothing.
For each data size the net is fitted on that many games (the epoch kept is the best on
their last tenth) and scored on the held-out games: log-loss and Brier score of the
winner, R^2 of the margin, and the search value's squared error, overall and by thirds of
the game.  The baselines are scored on the same positions:

* ``mean``: the training games' mean win share and margin (knows nothing of the position);
* ``as if ended now``: the scores as they stand (the core API's ``scores`` before the end),
  the seat's margin and its lead over the table's mean, mapped to a win chance by a
  logistic fit on the training games with how far the game has come (a calibrated reading
  of the scoreboard, which is what a short playout reads).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.rewards import place_share
from meeplezoo.training.agents.scoreboard import FEATURES as SCOREBOARD
from meeplezoo.training.agents.scoreboard import scoreboard_row

MARGIN_WEIGHT = 0.1  # the search's own (ISMCTS.margin_weight, search.rollout_value)
EPSILON = 1e-6


@dataclass
class Positions:
    """One role's positions from records: each row a seat's view at its own decision, with
    that seat's outcome.  ``margin`` and ``margin_now`` are in ``score_scale`` units; alone,
    ``margin`` is the final score and ``win`` is 1."""

    observations: np.ndarray  # float32 [n, features]
    games: np.ndarray  # int64 game number
    thirds: np.ndarray  # int8 0, 1, 2: which third of its game the decision falls in
    win: np.ndarray  # float32 win share at the end (ties averaged)
    margin: np.ndarray  # float32 final margin over the best other seat (alone: the score)
    margin_now: np.ndarray | None = None  # float32 the same, as if the game ended now
    lead_now: np.ndarray | None = None  # float32 own score now minus the table's mean
    plies: np.ndarray | None = None  # the decision's ply in its game (to replay it)
    seats: np.ndarray | None = None  # the acting seat

    def __len__(self) -> int:
        return len(self.games)

    def take(self, rows: np.ndarray) -> Positions:
        """The rows ``rows`` (ascending indices).  A run of consecutive rows (a prefix of
        the games, as every data size of a learning curve is) is taken as views, not
        copies: the observations of 50,000 games are gigabytes, and a copy per data size
        ran the fit out of memory on a 24 GiB machine."""
        index = as_slice(rows)

        def pick(a: np.ndarray | None) -> np.ndarray | None:
            return None if a is None else a[index]

        return Positions(self.observations[index], self.games[index], self.thirds[index],
                         self.win[index], self.margin[index], pick(self.margin_now),
                         pick(self.lead_now), pick(self.plies), pick(self.seats))


def as_slice(rows: np.ndarray) -> slice | np.ndarray:
    """``rows`` as a slice where they are consecutive ascending indices (indexing by it
    gives views), else the indices themselves (indexing copies)."""
    rows = np.asarray(rows)
    if len(rows) == 0:
        return slice(0, 0)
    first, last = int(rows[0]), int(rows[-1])
    if last - first + 1 == len(rows) and bool(np.all(np.diff(rows) == 1)):
        return slice(first, last + 1)
    return rows


def search_value(win: np.ndarray, margin: np.ndarray, solo: bool) -> np.ndarray:
    """The search's leaf value (``search.rollout_value``) from a win chance and a margin."""
    return margin if solo else win + MARGIN_WEIGHT * margin


def metrics(win_p: np.ndarray | None, margin_p: np.ndarray, held: Positions, solo: bool
            ) -> dict[str, Any]:
    """The held-out figures of one predictor, overall and by thirds of the game."""

    def block(rows: np.ndarray) -> dict[str, float]:
        out: dict[str, float] = {"positions": int(rows.sum())}
        if not rows.any():
            return out
        margin = held.margin[rows]
        spread = float(np.sum((margin - margin.mean()) ** 2))
        out["margin_r2"] = round(1.0 - float(np.sum((margin_p[rows] - margin) ** 2)) / spread,
                                 4) if spread > 0 else 0.0
        if not solo and win_p is not None:
            p = np.clip(win_p[rows], EPSILON, 1 - EPSILON)
            s = held.win[rows]
            out["winner_log_loss"] = round(float(-np.mean(s * np.log(p)
                                                          + (1 - s) * np.log(1 - p))), 4)
            out["winner_brier"] = round(float(np.mean((p - s) ** 2)), 4)
        target = search_value(held.win[rows], margin, solo)
        guess = search_value(win_p[rows] if win_p is not None else 0.0, margin_p[rows], solo)
        out["value_mse"] = round(float(np.mean((guess - target) ** 2)), 5)
        return out

    figures = block(np.ones(len(held), bool))
    figures["by_third"] = [block(held.thirds == k) for k in range(3)]
    return figures


# -- baselines ------------------------------------------------------------------------------
def mean_baseline(train: Positions, held: Positions, solo: bool) -> dict[str, Any]:
    win = np.full(len(held), float(train.win.mean()))
    margin = np.full(len(held), float(train.margin.mean()))
    return metrics(None if solo else win, margin, held, solo)


def _design(p: Positions, horizon: float) -> np.ndarray:
    """A bias, the margin now, the lead now, how far the game has come (the ply over
    ``horizon``) and its products with the two (so a scoreboard that means little early and
    much late is read as such).  Only what the position shows: not the third of the game,
    which needs the game's final length."""
    if p.margin_now is None or p.lead_now is None or p.plies is None:
        raise ConfigError("the as-if-ended-now baseline needs the scores as they stood and "
                          "each position's ply: positions from records_positions and "
                          "replayed_scores")
    progress = p.plies.astype(np.float64) / horizon
    return np.stack([np.ones(len(p)), p.margin_now, p.lead_now, progress,
                     progress * p.margin_now, progress * p.lead_now], 1)


def _logistic(x: np.ndarray, y: np.ndarray, steps: int = 50, ridge: float = 1e-3
              ) -> np.ndarray:
    """Logistic regression on soft targets by Newton's method (a few features)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + ridge * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def _linear(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    return np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y)


def scores_now_baseline(train: Positions, held: Positions, solo: bool) -> dict[str, Any]:
    """The scoreboard as it stands, calibrated on the training games (module docstring)."""
    horizon = float(max(1, train.plies.max())) if train.plies is not None else 1.0
    x, xh = _design(train, horizon), _design(held, horizon)
    margin = xh @ _linear(x, train.margin.astype(np.float64))
    win = None
    if not solo:
        win = 1.0 / (1.0 + np.exp(-np.clip(xh @ _logistic(x, train.win.astype(np.float64)),
                                           -30, 30)))
    return metrics(win, margin, held, solo)


# -- the network ----------------------------------------------------------------------------
def build_net(features: int, hidden: int, solo: bool, scoreboard: bool = False) -> Any:
    """The value network.  With ``scoreboard`` it takes the seat's scoreboard
    (``training.agents.scoreboard``) as a second input, into the trunk beside the
    observation and again straight into the heads, so that a linear reading of the
    scoreboard (the as-if-ended-now baseline's) is one layer away and the trunk adds what
    the observation says to it."""
    import torch

    extra = len(SCOREBOARD) if scoreboard else 0

    class ValueNet(torch.nn.Module):
        """A trunk and two heads (a solo game: the margin head alone).  ``forward`` gives the
        search's value on the critic's scale, the win chance and the margin."""

        def __init__(self) -> None:
            super().__init__()
            self.trunk = torch.nn.Sequential(
                torch.nn.Linear(features + extra, hidden), torch.nn.ReLU(),
                torch.nn.Linear(hidden, hidden), torch.nn.ReLU())
            self.heads = torch.nn.Linear(hidden + extra, 2)
            self.solo = solo
            self.scoreboard = scoreboard

        def parts(self, x: Any, board: Any = None) -> tuple[Any, Any]:
            if self.scoreboard:
                out = self.heads(torch.cat([self.trunk(torch.cat([x, board], 1)), board], 1))
            else:
                out = self.heads(self.trunk(x))
            return out[:, 0], out[:, 1]

        def forward(self, x: Any, board: Any = None) -> tuple[Any, Any, Any]:
            logit, margin = self.parts(x, board)
            win = torch.sigmoid(logit) * (0.0 if self.solo else 1.0)
            value = margin if self.solo else win + MARGIN_WEIGHT * margin
            return (2.0 * value - 1.0).unsqueeze(1), win, margin

    return ValueNet()


def scoreboard_of(p: Positions) -> np.ndarray:
    """float32 ``[n, len(SCOREBOARD)]``: the rows' scoreboards (``replayed_scores`` reads
    them)."""
    if p.margin_now is None or p.lead_now is None:
        raise ConfigError("a value that reads the scoreboard needs the scores as they stood: "
                          "positions from records_positions and replayed_scores")
    return np.stack([p.margin_now, p.lead_now], 1).astype(np.float32)


def fit_net(train: Positions, solo: bool, seed: int, epochs: int, hidden: int,
            batch: int = 512, scoreboard: bool = False) -> Any:
    """Fit on ``train``'s games before its last tenth; keep the epoch best on that tenth.
    With ``scoreboard`` the net reads each row's scoreboard too (``build_net``)."""
    import torch

    games = np.unique(train.games)
    if len(games) < 10:
        raise ConfigError(f"{len(games)} games are too few to fit a value and choose its "
                          "epoch: give at least 10")
    validation_games = games[-max(1, len(games) // 10):]
    val_rows = np.isin(train.games, validation_games)
    torch.manual_seed(seed)
    net = build_net(train.observations.shape[1], hidden, solo, scoreboard)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)
    x = torch.as_tensor(train.observations, dtype=torch.float32)
    board = torch.as_tensor(scoreboard_of(train)) if scoreboard else None
    win = torch.as_tensor(train.win, dtype=torch.float32)
    margin = torch.as_tensor(train.margin, dtype=torch.float32)
    fit_rows = torch.as_tensor(np.flatnonzero(~val_rows))
    val = torch.as_tensor(np.flatnonzero(val_rows))
    generator = torch.Generator().manual_seed(seed)
    bce = torch.nn.BCEWithLogitsLoss()

    def loss(rows: Any) -> Any:
        logit, m = net.parts(x[rows], None if board is None else board[rows])
        fitted = torch.mean((m - margin[rows]) ** 2)
        return fitted if solo else fitted + bce(logit, win[rows])

    best, best_state = float("inf"), None
    for _ in range(epochs):
        net.train()
        for rows in fit_rows[torch.randperm(len(fit_rows), generator=generator)].split(batch):
            opt.zero_grad()
            loss(rows).backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            score = float(sum(loss(rows) * len(rows) for rows in val.split(8192)) / len(val))
        if score < best:
            best, best_state = score, {k: v.clone() for k, v in net.state_dict().items()}
    net.load_state_dict(best_state)
    return net


def predict(net: Any, observations: np.ndarray, board: np.ndarray | None = None
            ) -> tuple[np.ndarray, np.ndarray]:
    """The win chance and margin of each row (``board``: the rows' scoreboards, for a net
    that reads them)."""
    import torch

    wins, margins = [], []
    parts = max(1, len(observations) // 8192)
    boards = np.array_split(board, parts) if board is not None else [None] * parts
    with torch.no_grad():
        for chunk, chunk_board in zip(np.array_split(observations, parts), boards):
            _, win, margin = net(torch.as_tensor(chunk, dtype=torch.float32),
                                 None if chunk_board is None else torch.as_tensor(chunk_board))
            wins.append(win.numpy())
            margins.append(margin.numpy())
    return np.concatenate(wins), np.concatenate(margins)


ScoresNow = Callable[[Positions], Positions]  # the same rows with margin_now and lead_now


Predictor = Callable[[Positions], tuple[np.ndarray, np.ndarray]]  # rows -> win, margin


def onnx_predictor(path: Path, features: int) -> Predictor:
    """A ``value.onnx`` fitted on records (``write_onnx``: outputs ``win`` and ``margin``,
    perhaps a ``scoreboard`` input) as a predictor of held-out rows, so that an earlier
    value (the one a card ships) is judged on the same games as a new fit."""
    import onnxruntime as ort

    try:
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise ConfigError(f"{path}: not a loadable ONNX model ({exc})") from None
    inputs = [i.name for i in session.get_inputs()]
    outputs = {o.name for o in session.get_outputs()}
    if not {"win", "margin"} <= outputs or inputs not in (["observation"],
                                                          ["observation", "scoreboard"]):
        raise ConfigError(f"{path}: a value to compare must be fitted on records (inputs "
                          f"observation [and scoreboard], outputs win and margin); it has "
                          f"inputs {inputs} and outputs {sorted(outputs)}")
    width = session.get_inputs()[0].shape[1]
    if isinstance(width, int) and width != features:
        raise ConfigError(f"{path}: reads observations of {width} features; these records' "
                          f"have {features}")

    def predict_rows(rows: Positions) -> tuple[np.ndarray, np.ndarray]:
        wins, margins = [], []
        board = scoreboard_of(rows) if len(inputs) == 2 else None
        for start in range(0, len(rows), 8192):
            feeds = {"observation": np.asarray(rows.observations[start:start + 8192],
                                               np.float32)}
            if board is not None:
                feeds["scoreboard"] = board[start:start + 8192]
            win, margin = session.run(["win", "margin"], feeds)
            wins.append(np.ravel(win))
            margins.append(np.ravel(margin))
        return np.concatenate(wins), np.concatenate(margins)

    return predict_rows


def learning_curve(positions: Positions, held_out_games: int, sizes: Sequence[int],
                   solo: bool, seed: int, epochs: int, hidden: int,
                   scores_now: ScoresNow | None = None, baseline_games: int = 2000,
                   report: Callable[[str], None] | None = None, scoreboard: bool = False,
                   compare: dict[str, Predictor] | None = None,
                   ) -> tuple[Any, list[dict[str, Any]], dict[str, Any]]:
    """Fit at each data size (games) and score on the last ``held_out_games`` games; the
    net of the largest size, the curve, and the baselines on the same held-out positions
    (the scoreboard's calibrated on the first ``baseline_games`` training games, which
    ``scores_now`` replays to read the scores as they stood).  With ``scoreboard`` the
    nets read each position's scoreboard beside its observation (``build_net``): every
    position used is replayed once, first.  ``compare``: earlier values by name
    (``onnx_predictor``), scored on the same held-out positions into the baselines'
    ``values``."""
    games = np.unique(positions.games)
    if held_out_games < 1 or held_out_games >= len(games):
        raise ConfigError(f"--held-out-games {held_out_games}: the records have {len(games)} "
                          "games; hold out at least 1 and leave some to fit")
    held_games = games[-held_out_games:]
    pool = games[:-held_out_games]
    sizes = sorted(set(sizes))
    if not sizes or sizes[0] < 10 or sizes[-1] > len(pool):
        raise ConfigError(f"data sizes {sizes}: each must be 10 to {len(pool)} games (the "
                          f"records' {len(games)} games less {held_out_games} held out)")
    if scoreboard:
        if scores_now is None:
            raise ConfigError("a value that reads the scoreboard needs the records replayed "
                              "(scores_now) to read the scores as they stood")
        used = np.concatenate([pool[:max(sizes[-1], baseline_games)], held_games])
        positions = scores_now(positions.take(np.flatnonzero(np.isin(positions.games, used))))
    held = positions.take(np.flatnonzero(np.isin(positions.games, held_games)))
    held_board = scoreboard_of(held) if scoreboard else None
    curve, net = [], None
    for size in sizes:
        train = positions.take(np.flatnonzero(np.isin(positions.games, pool[:size])))
        net = fit_net(train, solo, seed, epochs, hidden, scoreboard=scoreboard)
        win, margin = predict(net, held.observations, held_board)
        curve.append({"games": int(size), "positions": len(train),
                      "held_out": metrics(None if solo else win, margin, held, solo)})
        if report is not None:
            report(curve_line(curve[-1], solo))
    train = positions.take(np.flatnonzero(np.isin(positions.games, pool[:sizes[-1]])))
    baselines: dict[str, Any] = {"mean": mean_baseline(train, held, solo)}
    if scores_now is not None:
        calibration = positions.take(np.flatnonzero(np.isin(positions.games,
                                                            pool[:baseline_games])))
        if not scoreboard:  # else every position already holds its scoreboard
            calibration, held = scores_now(calibration), scores_now(held)
        baselines["as_if_ended_now"] = scores_now_baseline(calibration, held, solo)
        baselines["as_if_ended_now"]["calibration_games"] = int(min(baseline_games, len(pool)))
    for name, predictor in (compare or {}).items():  # ``held`` has its scoreboard by now
        win, margin = predictor(held)
        baselines.setdefault("values", {})[name] = metrics(None if solo else win, margin,
                                                           held, solo)
    baselines["held_out_games"] = int(held_out_games)
    baselines["held_out_positions"] = len(held)
    return net, curve, baselines


def curve_line(point: dict[str, Any], solo: bool) -> str:
    """One learning-curve point in words."""
    held = point["held_out"]
    text = f"{point['games']} games ({point['positions']} positions): "
    if not solo:
        text += (f"winner log-loss {held['winner_log_loss']}, Brier {held['winner_brier']}, ")
    return text + f"margin R^2 {held['margin_r2']}, value MSE {held['value_mse']}"


# -- from records ---------------------------------------------------------------------------
def records_positions(records: Any, role: str | None, scale: float,
                      objective: str = "win") -> Positions:
    """A role's kept positions of a record folder (``training.data.records``), margins in
    ``scale`` units.  ``objective`` ``place``: the first head's target (``Positions.win``)
    is the seat's place share (``rewards.place_share``, as the search's), instead
    of its win share."""
    found = records.positions(role)
    if objective == "place":
        if records.players < 2:
            raise ConfigError("--objective place: alone there is no place to take; a solo "
                              "value predicts the score")
        share = place_share(found.place, records.players)
    elif objective == "win":
        share = found.win_share
    else:
        raise ConfigError(f"objective {objective!r}: one of win, place")
    return Positions(found.observations, found.games.astype(np.int64), found.thirds,
                     share.astype(np.float32),
                     (found.margin / scale).astype(np.float32),
                     plies=found.plies, seats=found.seats)


def replayed_scores(records: Any, game: Any, scale: float) -> ScoresNow:
    """A ``ScoresNow`` that replays each game of the rows from its deal seed and actions
    and reads the scores as they stood at each row's ply (the core API's ``scores`` before
    the end: as if the game ended now)."""

    def scores_now(rows: Positions) -> Positions:
        margin_now = np.zeros(len(rows), np.float32)
        lead_now = np.zeros(len(rows), np.float32)
        wanted: dict[int, dict[int, list[int]]] = {}
        for i, (number, ply) in enumerate(zip(rows.games, rows.plies)):
            wanted.setdefault(int(number), {}).setdefault(int(ply), []).append(i)
        for record in records.iter_games(sorted(wanted)):
            plies = wanted[record.number]
            state = game.new_initial_state(record.deal_seed)
            for ply, action in enumerate(record.actions):
                if ply in plies:
                    scores = state.scores()
                    for i in plies[ply]:
                        margin_now[i], lead_now[i] = scoreboard_row(scores, int(rows.seats[i]),
                                                                    scale)
                    if ply >= max(plies):
                        break
                state.apply(int(action))
        # the same arrays with the scoreboard beside them: no copy of the observations
        return dataclasses.replace(rows, margin_now=margin_now, lead_now=lead_now)

    return scores_now


def write_onnx(net: Any, features: int, path: Path) -> None:
    """``observation -> value`` (the search's, critic scale), ``win`` and ``margin``; a net
    that reads the scoreboard takes it as a second input, ``scoreboard``
    (``[batch, len(SCOREBOARD)]``)."""
    import torch

    from meeplezoo.training.fitting.onnx import quiet_onnx_export

    inputs: tuple[Any, ...] = (torch.zeros((1, features)),)
    names = ["observation"]
    if getattr(net, "scoreboard", False):
        inputs += (torch.zeros((1, len(SCOREBOARD))),)
        names.append("scoreboard")
    axes = {name: {0: "batch"} for name in [*names, "value", "win", "margin"]}
    with torch.no_grad(), quiet_onnx_export():
        torch.onnx.export(net, inputs, str(path), input_names=names,
                          output_names=["value", "win", "margin"], dynamic_axes=axes,
                          opset_version=17, dynamo=False, verbose=False)
