"""The arena: per-deal seeding (the worker count changes nothing), the Elo fit and its
anchor, Python and ``module:attr`` agents, the paired comparison, solo mode, the leaderboard."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.training.agents.opponents import list_zoo
from meeplezoo.training.evaluation import arena, ratings

README = Path(__file__).resolve().parents[2] / "README.md"


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """A plain function agent: always the first legal action."""
    return int(np.flatnonzero(mask)[0])


class LastLegal:
    """An agent class (a ``module:attr`` spec builds it without arguments)."""

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[-1])


def by_agent(result: dict) -> dict[str, dict]:
    return {row["agent"]: row for row in result["ratings" if "ratings" in result else "scores"]}


@pytest.mark.parametrize("env, players, games", [("toy_v0", 3, 18),
                                                  ("necropolis_railway_v1", 2, 12)])
def test_one_and_two_workers_give_the_same_results(env, players, games):
    one = arena.run_arena(env, players, games=games, seed=5, workers=1, resamples=200)
    two = arena.run_arena(env, players, games=games, seed=5, workers=2, resamples=200)
    assert one == two
    assert one["games"] == games
    if env.startswith("necropolis"):  # the shipped opponent joins the field by itself
        assert "necropolis_railway_v1/ppo_league" in by_agent(one)


def test_a_different_seed_plays_different_games():
    one = arena.run_arena("toy_v0", 3, games=18, seed=5, resamples=50)
    other = arena.run_arena("toy_v0", 3, games=18, seed=6, resamples=50)
    assert one["ratings"] != other["ratings"]


def test_every_agent_sits_in_every_seat_of_each_deal():
    lineups = ratings.schedule(agents=3, players=4, deals=6, seed=1)
    assert len(lineups) == 24
    for deal in range(6):
        games = lineups[deal * 4:(deal + 1) * 4]
        assert sorted(games[0]) == sorted(games[1]) == sorted(games[3])
        assert set(games[0]) == {0, 1, 2}  # fewer agents than seats: each at least once
        for seat in range(4):
            assert sorted(g[seat] for g in games) == sorted(games[0])


def test_random_is_the_anchor_and_the_heuristic_rates_above_it():
    result = arena.run_arena("toy_v0", 3, games=60, seed=2, resamples=300)
    rows = by_agent(result)
    assert rows["random"]["elo"] == 0.0 and rows["random"]["elo_ci95"] == [0.0, 0.0]
    heuristic = rows["heuristic"]
    assert heuristic["elo_ci95"][0] > 0 < heuristic["elo"] <= heuristic["elo_ci95"][1]
    assert heuristic["win_share"] > rows["random"]["win_share"]


def test_the_fit_recovers_known_ratings():
    truth = np.array([0.0, 200.0, -150.0])  # Elo; agent 0 is the anchor
    p = 1 / (1 + 10 ** ((truth[None, :] - truth[:, None]) / 400))
    wins = 1000 * p * (1 - np.eye(3))  # the expected counts: their fit is the truth
    fitted = ratings.fit_elo(wins, anchor=0, virtual_draws=0)
    assert np.allclose(fitted, truth, atol=1e-6)
    two = ratings.fit_elo(np.array([[0.0, 3.0], [1.0, 0.0]]), anchor=1, virtual_draws=0)
    assert two[0] == pytest.approx(400 * math.log10(3))


def test_a_clean_sweep_gets_a_finite_rating_that_grows_with_the_games():
    small = ratings.fit_elo(np.array([[0.0, 10.0], [0.0, 0.0]]), anchor=1)
    large = ratings.fit_elo(np.array([[0.0, 100.0], [0.0, 0.0]]), anchor=1)
    assert 0 < small[0] < large[0] < math.inf


def test_agents_that_never_meet_have_no_common_scale():
    with pytest.raises(ValueError, match="do not all meet"):
        ratings.fit_elo(np.zeros((3, 3)), anchor=0)


def test_a_plain_function_gets_rated():
    result = arena.run_arena("toy_v0", 2, agents=[first_legal], games=24, seed=3,
                             resamples=100)
    row = by_agent(result)["first_legal"]
    assert row["games"] == 16 and math.isfinite(row["elo"])  # 2 of the 3 pairs of 4 deals
    assert row["elo_ci95"][0] <= row["elo"] <= row["elo_ci95"][1]


def test_module_attribute_specs_get_rated_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "arena.json"
    specs = "tests.training.test_arena:first_legal,tests.training.test_arena:LastLegal"
    assert arena.main(["--env", "toy_v0", "--players", "3", "--agents", specs,
                       "--games", "12", "--seed", "1", "--bootstrap", "100",
                       "--json", str(out), "--no-progress"]) == 0
    rows = by_agent(json.loads(out.read_text()))
    assert set(rows) == {"heuristic", "random", "tests.training.test_arena:first_legal",
                         "tests.training.test_arena:LastLegal"}
    printed = capsys.readouterr()
    assert "| `tests.training.test_arena:LastLegal` |" in printed.out
    assert printed.err == ""  # --no-progress: no bar


def test_the_progress_bar_counts_games(capsys):
    arena.main(["--env", "toy_v0", "--players", "2", "--games", "6", "--progress",
                "--bootstrap", "10"])
    assert "6/6" in capsys.readouterr().err


def test_a_maskable_ppo_zip_trained_anywhere_gets_rated(tmp_path):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.fitting.seat_env import SeatEnv

    env = SeatEnv("toy_v0", {"num_players": 2}, opponents=["random"], seed=0)
    path = tmp_path / "elsewhere" / "model.zip"  # no run.json beside it
    path.parent.mkdir()
    MaskablePPO("MlpPolicy", env, n_steps=64, seed=0, device="cpu").save(path)
    result = arena.run_arena("toy_v0", 2, agents=[str(path)], games=6, seed=1, resamples=50)
    row = by_agent(result)[str(path)]
    assert row["games"] == 4 and math.isfinite(row["elo"])


@pytest.mark.parametrize("spec, message", [
    ("no_such_model.zip", "no such .zip file"),
    ("no_such_env/no_such_agent", "shipped: .*chihou_sousei_v1/ppo_league"),
    ("tests.training.test_arena:no_such_attribute", "cannot import"),
    ("tests.training.test_arena:README", "neither a spec string nor an agent"),
])
def test_bad_agent_specs_are_refused_saying_why(spec, message):
    with pytest.raises(SystemExit, match=message):
        arena.main(["--env", "toy_v0", "--players", "2", "--agents", spec, "--games", "2"])


def test_a_checkpoint_of_one_role_is_refused(tmp_path):
    folder = tmp_path / "trader_only"
    folder.mkdir()
    (folder / "card.json").write_text(json.dumps({"env": "toy_roles_v0", "role": "trader"}))
    with pytest.raises(SystemExit, match=r"plays only role 'trader'.*team"):
        arena.main(["--env", "toy_roles_v0", "--players", "3", "--agents", str(folder)])


def test_paired_same_agent_differs_by_exactly_nothing():
    result = arena.paired("toy_v0", 3, "heuristic", "heuristic", games=12, seed=4,
                          resamples=100)
    assert result["win_share_difference"] == 0.0
    assert result["win_share_difference_ci95"] == [0.0, 0.0]
    assert result["deals_differing"] == 0  # same deals, seats, field and seeds


def test_paired_seats_takes_only_the_seats_named_with_the_same_field(monkeypatch):
    played = []
    original = arena.play_seated

    def recording(env, config, entrant, seats, lineups, *rest, **kw):
        played.append((entrant.label, list(seats), [[e.label for e in u] for u in lineups]))
        return original(env, config, entrant, seats, lineups, *rest, **kw)

    monkeypatch.setattr(arena, "play_seated", recording)
    field = ["random", "heuristic"]
    arena.paired("toy_v0", 3, "heuristic", "random", games=6, seed=4, resamples=50,
                 opponents=field)
    arena.paired("toy_v0", 3, "heuristic", "random", games=6, seed=4, resamples=50,
                 opponents=field, seats=[2, 1])
    (_, every, field_a), _, (_, named, field_b), _ = played
    assert every == [0, 1, 2, 0, 1, 2] and named == [2, 1, 2, 1, 2, 1]
    assert field_a == field_b  # the field is the deal's, whatever the seats
    with pytest.raises(ConfigError, match=r"seats \[3\]: a paired comparison's seats are 0 "
                                          "to 2"):
        arena.paired("toy_v0", 3, "heuristic", "random", games=2, seats=[3])


def test_paired_interval_surrounds_the_difference():
    result = arena.paired("toy_v0", 3, "heuristic", "random", games=60, seed=4,
                          resamples=500)
    difference = result["win_share_a"] - result["win_share_b"]
    assert result["win_share_difference"] == pytest.approx(difference)
    low, high = result["win_share_difference_ci95"]
    assert low < difference < high and high - low < 1
    assert result["field"] == ["random"]  # nobody else in the toy's arena: random plays
    assert result["deals_differing"] > 0


def test_paired_from_the_command_line_against_a_chosen_field(capsys, tmp_path):
    out = tmp_path / "paired.json"
    assert arena.main(["--env", "toy_v0", "--players", "3", "--paired", "heuristic,random",
                       "--field", "heuristic", "--games", "10", "--bootstrap", "50",
                       "--json", str(out)]) == 0
    assert "difference" in capsys.readouterr().out
    assert json.loads(out.read_text())["field"] == ["heuristic"]
    with pytest.raises(SystemExit):
        arena.main(["--env", "toy_v0", "--players", "3", "--field", "heuristic"])


def test_paired_shows_the_elo_of_its_own_games(capsys, tmp_path):
    """--paired prints the Elo table of the games it played (A, B and the field, every pair
    of seats; A and B rated through the field), with random at 0 where it played, else the
    first of the field, which the table names."""
    out = tmp_path / "paired.json"
    assert arena.main(["--env", "toy_v0", "--players", "3", "--paired", "heuristic",
                       "random", "--games", "10", "--bootstrap", "50", "--json", str(out),
                       "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "Elo over these 20 games (random = 0" in printed
    assert "| `heuristic` |" in printed and "| `random` | 0 |" in printed
    result = json.loads(out.read_text())
    rows = {row["agent"]: row for row in result["ratings"]}
    assert result["anchor"] == "random" and rows["random"]["elo"] == 0.0
    assert rows["heuristic"]["games"] == 10 and rows["heuristic"]["elo"] > 0
    a, b = "tests.training.test_arena:first_legal", "tests.training.test_arena:LastLegal"
    assert arena.main(["--env", "toy_v0", "--players", "3", "--paired", f"{a},{b}", "--field",
                       "heuristic", "--games", "6", "--bootstrap", "50", "--json", str(out),
                       "--no-progress"]) == 0
    assert "Elo over these 12 games (heuristic = 0" in capsys.readouterr().out
    rows = {row["agent"]: row for row in json.loads(out.read_text())["ratings"]}
    assert set(rows) == {a, b, "heuristic"} and rows["heuristic"]["elo"] == 0.0
    with pytest.raises(SystemExit):  # three agents are no pair
        arena.main(["--env", "toy_v0", "--players", "3", "--paired", "heuristic", "random",
                    "heuristic"])


def test_solo_ranks_by_mean_score_over_the_same_deals():
    result = arena.run_arena("necropolis_railway_v1", 1, games=4, seed=1, resamples=200)
    rows = by_agent(result)
    solo_zoo = {e.name for e in list_zoo("necropolis_railway_v1") if 1 in e.player_counts}
    assert "necropolis_railway_v1/ppo_league" in solo_zoo
    assert set(rows) == solo_zoo | {"heuristic", "random"}
    for row in rows.values():
        assert row["games"] == 4
        assert row["mean_score_ci95"][0] <= row["mean_score"] <= row["mean_score_ci95"][1]
    assert rows["heuristic"]["mean_score"] > rows["random"]["mean_score"]
    paired = arena.paired("necropolis_railway_v1", 1, "heuristic", "random", games=4,
                          seed=1, resamples=200)
    assert paired["score_difference"] == pytest.approx(
        rows["heuristic"]["mean_score"] - rows["random"]["mean_score"])  # the same deals
    assert "win_share_a" not in paired


def test_solo_is_refused_where_the_env_has_none():
    with pytest.raises(SystemExit, match="num_players=1 is not allowed"):
        arena.main(["--env", "toy_v0", "--players", "1"])


def test_the_leaderboard_has_a_table_per_player_count_of_the_zoo(tmp_path):
    env = "necropolis_railway_v1"  # shipped for solo and 2 players
    path = tmp_path / "LEADERBOARD.md"
    text = arena.leaderboard(games=1, seed=1, workers=1, progress=False,
                             command="meeplezoo arena --leaderboard",
                             resamples=20,
                             path=path, env_names=[env, "toy_v0"],
                             allow_dirty=True)  # a work tree with edits may run it too
    assert path.read_text() == text
    assert "    meeplezoo arena --leaderboard\n" in text
    assert "Seed 1," in text
    assert text.count("## `") == 2
    solo = text[text.index(f"## `{env}`, solo"):text.index(f"## `{env}`, 2 players")]
    assert "| agent | mean score | 95% interval | games |" in solo
    two = text[text.index(f"## `{env}`, 2 players"):]
    assert "| `random` | 0 | 0 to 0 | 4 |" in two  # 3 lineups of 2 seats, 2 games each
    assert "No shipped opponent yet (no table): `toy_v0`." in text


def test_the_shipped_leaderboard_covers_the_zoo_and_the_readme_links_it():
    text = (arena.zoo_root() / arena.LEADERBOARD_FILE).read_text()
    assert "meeplezoo arena --leaderboard" in text
    assert re.search(r"^Seed \d+, code commit [0-9a-f]{7}[,;.]", text, re.M)  # clean tree
    for entry in list_zoo():
        for players in entry.player_counts:
            count = "solo" if players == 1 else f"{players} players"
            assert f"## `{entry.env}`, {count}" in text
            assert f"| `{entry.name}` |" in text
    assert "(checkpoints/LEADERBOARD.md)" in README.read_text()


def test_a_leaderboard_update_of_one_env_replaces_its_tables_and_keeps_the_rest():
    text = ("# Leaderboard\n\nSeed 1.\n\n## `a_v1`, 2 players\n\nA table.\n\n"
            "## `game_v0`, 4 players\n\nA hand-written note.\n\n| old |\n\n"
            "## `z_v2`, solo\n\nZ table.\n")
    new = arena.replace_env_sections(text, "game_v1", ["## `game_v1`, 4 players", "",
                                                       "| new |", ""])
    assert "game_v0" not in new and "| old |" not in new and "| new |" in new
    assert new.index("a_v1") < new.index("game_v1") < new.index("z_v2")
    assert "A table." in new and "Z table." in new and "Seed 1." in new
    added = arena.replace_env_sections(text, "m_v1", ["## `m_v1`, 2 players", "", "| m |", ""])
    assert added.index("game_v0") < added.index("m_v1") < added.index("z_v2")
    assert "| old |" in added  # another game's tables are kept


def test_the_leaderboard_is_refused_from_a_dirty_tree_unless_allowed(tmp_path, monkeypatch):
    from meeplezoo.training import cli

    monkeypatch.setattr(cli, "code_commit", lambda: "abc1234+dirty")
    with pytest.raises(SystemExit, match="uncommitted changes"):
        arena.leaderboard(4, 1, 1, False, "cmd", path=tmp_path / "L.md", env_names=["none_v1"])
    assert not (tmp_path / "L.md").exists()
    text = arena.leaderboard(4, 1, 1, False, "cmd", path=tmp_path / "L.md",
                             env_names=["none_v1"], allow_dirty=True)
    assert "abc1234+dirty" in text and "the run took" in text


def test_regenerating_keeps_the_hand_written_notes_of_each_table():
    old = ("# Leaderboard\n\n## `a_v1`, 2 players\n\nGames: 4 (2 deals).\n\n"
           "Note: rated twice, see RULES.md.\n\n| old |\n\n## `b_v1`, solo\n\nGames: 2.\n")
    new = "# Leaderboard\n\n## `a_v1`, 2 players\n\nGames: 8 (4 deals).\n\n| new |\n"
    kept = arena.keep_notes(old, new)
    assert "Note: rated twice, see RULES.md." in kept and "| new |" in kept
    assert kept.index("Games: 8") < kept.index("Note:") < kept.index("| new |")
    assert "| old |" not in kept


def test_the_leaderboard_shows_the_levels_the_cards_record(tmp_path, monkeypatch):
    """Under a table: each level its card records at that player count, with its gain over
    the network alone and its cost; a count without levels gets no level lines."""
    import shutil

    from meeplezoo.training.agents import zoo

    root = tmp_path / "zoo"
    shutil.copytree(zoo.zoo_root() / "necropolis_railway_v1" / "ppo_league",
                    root / "necropolis_railway_v1" / "ppo_league")
    card_path = root / "necropolis_railway_v1" / "ppo_league" / "card.json"
    card = json.loads(card_path.read_text())
    card["levels"] = {"hard": {"2p": {
        "strength": {"games": 200, "field": ["heuristic"], "win_share_difference": 0.045,
                     "win_share_difference_ci95": [-0.001, 0.095],
                     "score_difference": 2.1, "score_difference_ci95": [-0.7, 4.9]},
        "cost": {"games": 4, "decisions": 300, "median_s": 0.0773, "p90_s": 0.14,
                 "simulations_per_s": 187.6},
        "seed": 20261308, "code_commit": "d67c143"}},
        "easy": {"2p": {
            "strength": {"games": 400, "field": ["heuristic"], "win_share_difference": -0.04,
                         "win_share_difference_ci95": [-0.073, -0.007],
                         "score_difference": -1.0, "score_difference_ci95": [-2.0, 0.1]},
            "cost": {"games": 4, "decisions": 305, "median_s": 0.0002, "p90_s": 0.0003,
                     "simulations_per_s": None},  # no search: no simulations
            "seed": 20261313, "code_commit": "7b0f732"}}}
    card_path.write_text(json.dumps(card))
    monkeypatch.setattr(zoo, "zoo_root", lambda: root)
    two = arena.level_lines("necropolis_railway_v1", 2)
    row = ("| `necropolis_railway_v1/ppo_league@hard` | win share +4.5 points [-0.1 to +9.5] "
           "| 200 | heuristic | 0.077 | 188 | 20261308, d67c143 |")
    assert row in two
    assert ("| `necropolis_railway_v1/ppo_league@easy` | win share -4.0 points [-7.3 to -0.7] "
            "| 400 | heuristic | 0.000 | - | 20261313, 7b0f732 |") in two
    assert arena.level_lines("necropolis_railway_v1", 1) == []
    text = arena.leaderboard_text([{"env": "necropolis_railway_v1", "players": 2, "games": 4,
                                    "deals": 2, "resamples": 10, "ratings": []}],
                                  "cmd", 1, "abc1234", [])
    assert row in text


def test_leaderboard_levels_seat_the_shipped_networks_and_unknown_levels_are_refused(
        tmp_path, monkeypatch, capsys):
    seated: list[list[str]] = []
    monkeypatch.setattr(arena, "run_arena", lambda env, players, agents, *a, **k: seated.append(
        list(agents)) or {"env": env, "players": players, "games": 0, "deals": 0,
                          "resamples": 0, "ratings": []})
    monkeypatch.setattr(arena, "table_lines", lambda result: [])
    arena.leaderboard(4, 1, 1, False, "cmd", path=tmp_path / "L.md",
                      env_names=["necropolis_railway_v1"], allow_dirty=True, levels=["hard"])
    assert seated == [["necropolis_railway_v1/ppo_league@hard",
                       "necropolis_railway_v1/ppo_league_exit6@hard"],
                      ["necropolis_railway_v1/ppo_league@hard"]]
    with pytest.raises(ConfigError, match="unknown level; the levels are easy, medium"):
        arena.leaderboard(4, 1, 1, False, "cmd", path=tmp_path / "L.md",
                          env_names=["necropolis_railway_v1"], allow_dirty=True,
                          levels=["brutal"])
    with pytest.raises(SystemExit):
        arena.main(["--env", "necropolis_railway_v1", "--players", "2", "--levels", "hard"])
    assert "--levels is for --leaderboard" in capsys.readouterr().err
