"""The environment benchmark: interleaved slices, resumable play, every row beside the yardstick."""

import json

from meeplezoo import envs
from meeplezoo.envs import bench


def test_bench_reports_env_and_yardstick(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert bench.main(["--env", "toy_v0", "--seconds", "0.2", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["meta"]["clock"] == "process_time"
    rows = data["rows"]
    assert rows[0]["env"].startswith("connect_four_v3")
    assert [r["players"] for r in rows[1:]] == [2, 3]
    for row in rows:
        assert row["decisions_per_s"] > 0 and row["games"] >= 1
        assert row["seconds"] >= 0.2
    for row in rows[1:]:
        assert row["ratio_pairs"] >= 1
        assert row["ratio_min"] <= row["ratio_to_connect_four"] <= row["ratio_max"]
        assert row["ratio_pooled"] > 0 and row["clone_us"] > 0
    # the yardstick row pools the yardstick slices of every row
    assert rows[0]["seconds"] >= 0.4
    assert "x c4" in capsys.readouterr().out


def test_slices_alternate_until_each_side_has_its_seconds():
    def make_toy():
        return envs.make("toy_v0", num_players=2)

    reference, player, ratios = bench.measure_pair(bench.yardstick, make_toy, 0.1, 0.02)
    assert reference.seconds >= 0.1 and player.seconds >= 0.1
    assert len(ratios) >= 5  # 0.1 s in 0.02 s slices
    assert reference.games >= 1 and player.games >= 1
    assert all(r > 0 for r in ratios)


def test_play_resumed_in_slices_is_the_same_play():
    """Stopping and resuming mid-game changes nothing: the same games, the same counts."""
    whole = bench.RandomPlay(envs.make("toy_v0", num_players=3), seed=5)
    whole.run(60.0, max_decisions=200)
    sliced = bench.RandomPlay(envs.make("toy_v0", num_players=3), seed=5)
    for _ in range(40):
        sliced.run(60.0, max_decisions=5)
    assert sliced.decisions == whole.decisions == 200
    assert (sliced.games, sliced.decisions_in_games) == (whole.games, whole.decisions_in_games)
    assert whole.games >= 2
    assert sliced.env.unwrapped.save_state() == whole.env.unwrapped.save_state()


def test_the_bot_column_times_the_heuristic_bot_in_every_seat(tmp_path):
    out = tmp_path / "bench.json"
    assert bench.main(["--env", "necropolis_railway_v1", "--players", "2", "--seconds", "0.1",
                       "--bot-seconds", "0.2", "--json", str(out)]) == 0
    row = json.loads(out.read_text())["rows"][1]
    assert row["bot_decisions_per_s"] > 0
    assert bench.main(["--env", "toy_v0", "--players", "2", "--seconds", "0.1",
                       "--bot-seconds", "0", "--json", str(out)]) == 0
    assert "bot_decisions_per_s" not in json.loads(out.read_text())["rows"][1]
