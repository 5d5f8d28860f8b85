"""The environment benchmark runs and reports every row beside the yardstick."""

import json

from envs import bench


def test_bench_reports_env_and_yardstick(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert bench.main(["--env", "toy_v0", "--seconds", "0.2", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert rows[0]["env"].startswith("connect_four_v3")
    assert [r["players"] for r in rows[1:]] == [2, 3]
    for row in rows:
        assert row["decisions_per_s"] > 0 and row["games"] >= 1
        assert row["ratio_to_connect_four"] > 0
    assert "x c4" in capsys.readouterr().out
