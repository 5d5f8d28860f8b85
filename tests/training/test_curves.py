"""The learning curves in docs/training.md (issue 45 item 4): each game's data file is
well-formed and names where its figures are recorded, the drawing runs, and the docs embed
every game's picture with its sentence on whether the curve has levelled off."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from meeplezoo.training.evaluation import curves

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "docs/curves").glob("*.json"))
GAMES = {"asian_delivery_v1", "chihou_sousei_v1", "necropolis_railway_v1", "hegemony_v1"}


def test_every_game_has_a_curve_file():
    assert {path.stem for path in FILES} == GAMES


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_curve_file_is_well_formed(path):
    data = curves.load(path)
    assert data["env"] == path.stem
    for panel in data["panels"]:
        for series in panel["series"]:
            assert series["source"].strip()  # where the figures are recorded


def test_a_malformed_file_is_refused_with_what_is_wrong():
    bad = {"env": "x", "title": "t", "levelled": "", "panels": [
        {"title": "p", "x_label": "x", "y_label": "y", "series": [
            {"label": "s", "source": "here", "points": [{"x": 1}, {"x": 2, "y": 5, "low": 6,
                                                                   "high": 7}]}]}]}
    found = curves.problems(bad)
    assert "levelled: a non-empty string" in found
    assert any("point 1: neither y nor low/high" in p for p in found)
    assert any("point 2: y outside its interval" in p for p in found)
    assert curves.problems({"env": "x"})[-1] == "panels: a non-empty list"


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                    reason="drawing needs the report extra (matplotlib)")
def test_the_curves_draw(tmp_path):
    for path in FILES:
        out = curves.draw(curves.load(path), tmp_path / f"{path.stem}.png")
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_docs_embed_every_curve_with_its_sentence():
    text = (ROOT / "docs/training.md").read_text()
    for path in FILES:
        assert f"(curves/{path.stem}.png)" in text
        assert (ROOT / "docs/curves" / f"{path.stem}.png").exists()
        levelled = json.loads(path.read_text())["levelled"]
        assert " ".join(levelled.split()) in " ".join(text.split())
