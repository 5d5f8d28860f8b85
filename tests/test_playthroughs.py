"""Golden playthroughs replay exactly (regenerate with ``meeplezoo playthrough
--regenerate``)."""

import pytest

from meeplezoo.envs import playthrough

CASES = playthrough.cases()


def test_every_game_and_player_count_has_a_transcript():
    assert {name for name, _ in CASES} >= {
        "chihou_sousei_v1", "asian_delivery_v1", "necropolis_railway_v1"}
    stored = sorted(p.name for p in playthrough.ROOT.glob("*.txt"))
    assert stored == sorted(playthrough.path_for(*case).name for case in CASES)


@pytest.mark.parametrize(("env_name", "players"), CASES, ids=[f"{e}-{n}p" for e, n in CASES])
def test_playthrough_replays_exactly(env_name, players):
    diff = playthrough.compare(env_name, players)
    assert not diff, (
        "behaviour changed; review the diff and, if intended, run "
        "`meeplezoo playthrough --regenerate` in the same commit:\n"
        + "\n".join(diff[:30])
    )


def test_a_changed_transcript_is_reported(tmp_path, monkeypatch):
    env_name, players = CASES[0]
    lines = playthrough.transcript(env_name, players)
    monkeypatch.setattr(playthrough, "ROOT", tmp_path)
    edited = [*lines[:3], lines[3].replace(" | ", " |x ", 1), *lines[4:]]
    playthrough.path_for(env_name, players).write_text("\n".join(edited) + "\n")
    assert any(line.startswith("+") and "fresh" not in line
               for line in playthrough.compare(env_name, players))
    assert playthrough.main(["--check", "--env", env_name, "--players", str(players)]) == 1
