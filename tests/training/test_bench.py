"""The learning-throughput benchmark splits the time into parts that add up."""

import pytest

from meeplezoo.training.fitting import bench


def test_training_bench_breakdown_adds_up():
    result = bench.run("toy_v0", 2, 512, ["random"], n_envs=2, net=[16, 16])
    assert result["learner_steps"] >= 512
    parts = result["seconds_by_part"]
    assert set(parts) == {"engine_and_encoders", "opponents_inference",
                          "learner_rollout_inference", "learner_updates"}
    assert all(v >= 0 for v in parts.values())
    assert sum(parts.values()) == pytest.approx(result["seconds"], rel=1e-6)


def test_training_bench_runs_one_role_of_an_asymmetric_game():
    result = bench.run("toy_roles_v0", 3, 256, ["random"], n_envs=1, net=[16], role="judge")
    assert result["role"] == "judge" and result["learner_steps"] >= 256
