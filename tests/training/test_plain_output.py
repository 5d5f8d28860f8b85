"""What the tools print reads as plain figures: evaluation results hold Python numbers (never
``np.float64(...)``), the balance tables print no ``infx``, the balance figures give every
series a colour of its own, and an ONNX export says nothing unless something is wrong."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from meeplezoo.training.evaluation import evaluate
from meeplezoo.training.evaluation.balance_compare import strength, strength_markdown


def plain(value: Any, where: str = "result") -> None:
    """Every leaf of ``value`` is a plain Python number, string, bool or None."""
    if isinstance(value, dict):
        for key, item in value.items():
            plain(item, f"{where}[{key!r}]")
    elif isinstance(value, list):
        for k, item in enumerate(value):
            plain(item, f"{where}[{k}]")
    else:
        assert type(value) in (int, float, str, bool, type(None)), f"{where}: {value!r}"


def test_versus_field_and_round_robin_hold_plain_numbers():
    config = {"num_players": 2}
    result = evaluate.versus_field("toy_v0", config, "heuristic", "random", games=6)
    plain(result)
    assert "np." not in repr(result)
    table = evaluate.round_robin("toy_v0", config, ["heuristic", "random"], games=6)
    plain(table)
    assert "np." not in repr(table)


def _strength_report() -> dict[str, Any]:
    """Two policy cells against the bots on 20 paired deals: the trader's policy and bot
    never win; the banker's policy wins deals 0-4, its bot none."""
    classes = ("trader", "banker", "judge")
    cells = ["bots", "trader+bots", "banker+bots"]
    results = []
    for cell in cells:
        for g in range(20):
            wins = [0.0, 1.0 if cell == "banker+bots" and g < 5 else 0.0, 0.0]
            wins[2] = 1.0 - wins[1]
            results.append({"cell": cell, "g": g, "wins": wins})
    summary = {cell: {"classes": {c: {"win_rate": float(np.mean(
        [r["wins"][k] for r in results if r["cell"] == cell]))} for k, c in enumerate(classes)}}
        for cell in cells}
    return {"cells": [{"name": c, "seed_group": 0} for c in cells], "summary": summary,
            "results": results}


def test_a_ratio_of_no_wins_to_no_wins_is_no_ratio_and_prints_no_inf():
    report = _strength_report()
    rows = {r["class"]: r for r in strength(report)}
    assert rows["trader"]["ratio"] is None and rows["trader"]["ratio_ci95"] == [None, None]
    assert rows["banker"]["ratio"] == np.inf
    lines = strength_markdown(report)
    text = "\n".join(lines)
    assert "inf" not in text and "nan" not in text and "None" not in text
    trader = next(line for line in lines if line.startswith("| trader |"))
    banker = next(line for line in lines if line.startswith("| banker |"))
    assert "| 0.0% | 0.0% | - | - |" in trader
    assert "| 25.0% | ∞ | ∞-∞ |" in banker


def _report(cells: int) -> dict[str, Any]:
    rows = {c: {"win_rate": 0.3, "wilson_low": 0.2, "wilson_high": 0.4}
            for c in ("trader", "banker", "judge")}
    return {"env": "toy_roles_v0", "config": {"num_players": 3}, "games": 10,
            "summary": {f"cell{k}": {"classes": rows} for k in range(cells)}}


def _bar_colours(monkeypatch) -> list[tuple]:
    """Record the face colour of each ``Axes.bar`` call's bars."""
    pytest.importorskip("matplotlib")
    from matplotlib.axes import Axes

    seen: list[tuple] = []
    original = Axes.bar

    def bar(self, *args, **kwargs):
        bars = original(self, *args, **kwargs)
        seen.append(tuple(bars.patches[0].get_facecolor()))
        return bars

    monkeypatch.setattr(Axes, "bar", bar)
    return seen


@pytest.mark.parametrize("cells", [3, 12, 25])
def test_every_cell_of_the_win_rate_chart_has_its_own_colour(monkeypatch, tmp_path, cells):
    from meeplezoo.training.evaluation.balance_plots import win_rate_chart

    seen = _bar_colours(monkeypatch)
    win_rate_chart(_report(cells), tmp_path / "win_rates.png")
    assert len(seen) == cells and len(set(seen)) == cells


def test_distinct_colours_never_repeat():
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from meeplezoo.training.evaluation.balance_plots import distinct_colours

    for count in (1, 10, 11, 20, 21, 60, 61, 300):
        assert len(set(distinct_colours(plt, count))) == count


def test_every_series_of_a_stacked_chart_has_its_own_colour(monkeypatch, tmp_path):
    from meeplezoo.training.evaluation.balance_plots import stacked_chart

    seen = _bar_colours(monkeypatch)
    chart = {"title": "t", "ylabel": "y", "categories": ["a", "b"],
             "series": {f"source {k}": [1.0, -1.0] for k in range(25)}}
    stacked_chart(chart, tmp_path / "stacked.png")
    assert len(seen) == 25 and len(set(seen)) == 25


torch = pytest.importorskip("torch")


class Masked(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(5, 3)

    def forward(self, observation, action_mask):
        logits = self.linear(observation)
        return torch.where(action_mask > 0.5, logits, torch.full_like(logits, -1e8))


class Branching(Masked):
    def forward(self, observation, action_mask):  # a trace keeps one branch: worth a warning
        if observation.sum() > 0:
            observation = observation * 2
        return super().forward(observation, action_mask)


class Broken(Masked):
    def forward(self, observation, action_mask):
        return self.linear(action_mask)  # 3 features into a layer of 5


def test_an_onnx_export_says_nothing_and_still_works(tmp_path, capfd):
    ort = pytest.importorskip("onnxruntime")
    from meeplezoo.training.fitting.onnx import write_masked_onnx

    module = Masked().eval()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # what a user with -W default (or a notebook) sees
        write_masked_onnx(module, 5, 3, tmp_path / "policy.onnx")
    assert [str(w.message) for w in caught] == []
    assert capfd.readouterr() == ("", "")
    session = ort.InferenceSession(str(tmp_path / "policy.onnx"),
                                   providers=["CPUExecutionProvider"])
    obs, mask = np.ones((2, 5), np.float32), np.array([[1, 0, 1], [0, 1, 1]], np.float32)
    with torch.no_grad():
        expected = module(torch.from_numpy(obs), torch.from_numpy(mask)).numpy()
    got = session.run(None, {"observation": obs, "action_mask": mask})[0]
    np.testing.assert_allclose(got, expected, rtol=1e-5)


def test_an_onnx_export_still_reports_what_is_wrong_with_the_module(tmp_path):
    from meeplezoo.training.fitting.onnx import write_masked_onnx

    with pytest.warns(torch.jit.TracerWarning):
        write_masked_onnx(Branching().eval(), 5, 3, tmp_path / "branching.onnx")
    with pytest.raises(RuntimeError):
        write_masked_onnx(Broken().eval(), 5, 3, tmp_path / "broken.onnx")


def test_per_seat_columns_name_the_class_and_skip_seats_never_played(capsys):
    """Hegemony's seats are its classes: the by-seat column says which, and a class the
    candidate never played shows '-' (not a win rate of 0)."""
    from meeplezoo.training.evaluation.evaluate import _print_field, versus_field

    result = versus_field("hegemony_v1", {"num_players": 4},
                          "hegemony_v1/ppo_classes/working_class", "random", games=1, seed=3)
    assert result["seat_labels"] == ["WC", "MC", "CC", "ST"]
    assert result["games_by_seat"] == [1, 0, 0, 0]
    _print_field([result])
    line = capsys.readouterr().out.splitlines()[-1]
    assert "MC:- CC:- ST:-" in line and "WC:" in line
    plain = versus_field("necropolis_railway_v1", {"num_players": 2}, "random", "random",
                         games=2, seed=3)
    assert plain["seat_labels"] == ["seat1", "seat2"]
