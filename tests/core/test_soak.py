"""The soak runner plays seeded random games with invariants checked, and reports crashes."""

from meeplezoo.envs.core import soak


def test_soak_plays_games_and_reports_no_crash(capsys):
    assert soak.main(["--env", "toy_roles_v0", "--games", "5"]) == 0
    assert "5 games" in capsys.readouterr().out


def test_soak_result_does_not_depend_on_the_seed_split():
    one = soak.play_one("toy_v0", {}, 7)
    assert one == soak.play_one("toy_v0", {}, 7) and one[2] == ""
