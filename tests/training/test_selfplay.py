"""Game records (``meeplezoo selfplay``, ``training.data.records``): the folder round-trips;
a run gives the same bytes whatever its split (workers, a resume, a grown run); a changed
shard is refused by name; a half-written file is never listed; the rotation seats every
agent everywhere; the positions helper's targets are those of the game played again from
its deal seed and actions; a shipped network keeps its move probabilities."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from meeplezoo import cli, envs
from meeplezoo.envs.core.agents import play_game
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.rewards import places, win_share, winners
from meeplezoo.training.agents.bots import make_bot
from meeplezoo.training.data import records
from meeplezoo.training.data.records import Records, RecordsError
from meeplezoo.training.evaluation import selfplay

NECRO = "necropolis_railway_v1"
NETWORK = "necropolis_railway_v1/ppo_league"


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """A ``module:attr`` agent: always the first legal action."""
    return int(np.flatnonzero(mask)[0])


def play(out: Path, games: int = 5, **kwargs) -> dict:
    settings = {"env_name": "toy_v0", "players": 2, "agents": ["random", "heuristic"],
                "seed": 11, "shard_games": 2, **kwargs}
    return selfplay.run_selfplay(games=games, out=out, **settings)


def shas(folder: Path) -> dict[int, str]:
    return {e["index"]: e["sha256"] for e in records.read_manifest(folder)["shards"]}


def arrays(folder: Path) -> dict[tuple[int, str], np.ndarray]:
    found = {}
    for shard in Records(folder).iter_shards():
        for key in shard:
            found[shard.index, key] = shard[key]
    return found


def test_the_manifest_and_the_shards_round_trip(tmp_path):
    made = play(tmp_path / "r", games=5)
    folder = Records(tmp_path / "r")
    manifest = folder.manifest
    assert manifest["format"] == records.FORMAT == "meeplezoo-records/1"
    assert (manifest["env"], manifest["players"], manifest["agents"]) == (
        "toy_v0", 2, ["random", "heuristic"])
    assert manifest["command"].startswith("meeplezoo selfplay ")
    assert manifest["seed"] == 11 and manifest["keep"] == 1.0 and manifest["shard_games"] == 2
    assert manifest["code_commit"] and manifest["rotation"] == selfplay.ROTATION
    entries = manifest["shards"]
    assert [(e["index"], e["first_game"], e["games"]) for e in entries] == [
        (0, 0, 2), (1, 2, 2), (2, 4, 1)]
    for entry in entries:
        data = (tmp_path / "r" / entry["file"]).read_bytes()
        assert entry["bytes"] == len(data) and entry["file"].endswith(
            records.shard_name(entry["index"]))
    assert folder.complete and folder.games == 5
    games = list(folder.iter_games())
    assert [g.number for g in games] == [0, 1, 2, 3, 4]
    assert sum(len(g.actions) for g in games) == made["decisions"] == sum(
        e["decisions"] for e in entries)
    assert made["bytes"] == sum(e["bytes"] for e in entries)
    table = folder.game_table()
    assert table["game/score"].shape == (5, 2) and list(table["game/number"]) == [0, 1, 2, 3, 4]
    np.testing.assert_allclose(table["game/win_share"].sum(axis=1), 1.0)
    shard = folder.shard(0)
    assert shard["decision/action"].dtype == np.int16 and shard["decision/seat"].dtype == np.int8
    kept = shard["decision/row"] >= 0
    assert np.all(shard["decision/legal"][kept] > 1)  # a forced move is never kept
    assert shard.observations("player").shape == (kept.sum(), 7)
    assert shard.masks("player").shape == (kept.sum(), 3)


def test_the_same_seed_gives_the_same_bytes_however_the_run_is_split(tmp_path):
    play(tmp_path / "one", games=7, workers=1)
    play(tmp_path / "two", games=7, workers=2)
    assert shas(tmp_path / "one") == shas(tmp_path / "two")
    one = arrays(tmp_path / "one")
    two = arrays(tmp_path / "two")
    assert one.keys() == two.keys()
    assert all(np.array_equal(one[k], two[k]) for k in one)

    # a shard deleted, and one never listed (its run killed before the manifest said so)
    before = shas(tmp_path / "one")
    (tmp_path / "one" / "shards" / records.shard_name(1)).unlink()
    manifest = records.read_manifest(tmp_path / "one")
    manifest["shards"] = [e for e in manifest["shards"] if e["index"] != 3]
    records.write_manifest(tmp_path / "one", manifest)
    made = play(tmp_path / "one", games=7, resume=True)
    assert made["shards"] == 2 and made["games"] == 3 and made["kept_shards"] == 2
    assert shas(tmp_path / "one") == before

    # a run grown by --resume: the short last shard is played again, whole
    play(tmp_path / "two", games=9, resume=True)
    play(tmp_path / "nine", games=9)
    assert shas(tmp_path / "two") == shas(tmp_path / "nine")
    assert Records(tmp_path / "two").games == 9


def test_a_changed_shard_is_refused_naming_it(tmp_path):
    play(tmp_path / "r", games=5)
    path = tmp_path / "r" / "shards" / records.shard_name(1)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    folder = Records(tmp_path / "r")
    folder.shard(0)  # the others read
    with pytest.raises(RecordsError, match=r"shard-00001\.npz.*sha256"):
        folder.shard(1)
    with pytest.raises(RecordsError, match=r"shard-00001\.npz"):
        list(folder.iter_games())
    (tmp_path / "r" / "shards" / records.shard_name(2)).unlink()
    with pytest.raises(RecordsError, match=r"shard-00002\.npz.*not readable"):
        folder.shard(2)
    manifest = json.loads((tmp_path / "r" / records.MANIFEST).read_text())
    manifest["format"] = "meeplezoo-records/9"
    (tmp_path / "r" / records.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(RecordsError, match="meeplezoo-records/9"):
        Records(tmp_path / "r")


def test_a_half_written_shard_is_never_listed(tmp_path, monkeypatch):
    real = records.os.replace

    def killed(source, target):  # the run dies while shard 1 is being put in place
        if str(target).endswith(records.shard_name(1)):
            raise KeyboardInterrupt
        real(source, target)

    monkeypatch.setattr(records.os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        play(tmp_path / "r", games=5)
    monkeypatch.setattr(records.os, "replace", real)
    left = records.temporary_files(tmp_path / "r")
    assert [p.name.split(".")[0] for p in left] == ["shard-00001"]
    folder = Records(tmp_path / "r")
    assert [e["index"] for e in folder.entries] == [0] and not folder.complete
    assert [g.number for g in folder.iter_games()] == [0, 1]
    play(tmp_path / "r", games=5, resume=True)
    assert not records.temporary_files(tmp_path / "r")
    play(tmp_path / "fresh", games=5)
    assert shas(tmp_path / "r") == shas(tmp_path / "fresh")


def test_the_rotation_seats_every_agent_in_every_seat(tmp_path):
    agents = ["random", "heuristic", f"{__name__}:first_legal"]
    play(tmp_path / "r", games=3, env_name="toy_v0", players=3, agents=agents)
    folder = Records(tmp_path / "r")
    assert folder.agents == agents
    seats = folder.game_table()["game/agent"]
    for seat in range(3):
        assert sorted(seats[:, seat]) == [0, 1, 2]
    for g, row in enumerate(seats):
        assert list(row) == selfplay.seat_agents(3, 3, g)


def test_positions_hold_the_targets_of_the_game_played_again(tmp_path):
    play(tmp_path / "r", games=4, env_name="toy_roles_v0", players=3,
         agents=["random", "heuristic"], keep=0.7)
    folder = Records(tmp_path / "r")
    game = envs.make_game(folder.env, **folder.manifest["config"])
    seen = 0
    for role in folder.roles:
        rows = folder.positions(role, games=[1, 3])
        assert set(rows.games) <= {1, 3} and len(rows)
        assert rows.observations.shape[1] == game.observation_size(role)
        assert rows.masks.shape[1] == game.num_actions(role)
        for record in folder.iter_games([1, 3]):
            end = records.replay(game, record)  # deal seed + actions: the same game
            np.testing.assert_array_equal(end.scores(), record.scores)
            keys = end.rank_keys()
            state = game.new_initial_state(record.deal_seed)
            mine = rows.games == record.number
            plies = list(rows.plies[mine])
            for ply, (seat, action) in enumerate(zip(record.seats, record.actions)):
                if ply in plies:
                    i = np.flatnonzero(mine)[plies.index(ply)]
                    assert rows.seats[i] == seat and game.seat_role(seat) == role
                    np.testing.assert_allclose(rows.observations[i], state.observation(seat),
                                               rtol=1e-3)
                    np.testing.assert_array_equal(rows.masks[i], state.legal_mask())
                    assert rows.actions[i] == action
                    assert rows.thirds[i] == min(2, 3 * ply // len(record.actions))
                    others = [s for t, s in enumerate(end.scores()) if t != seat]
                    assert rows.score[i] == end.scores()[seat]
                    assert rows.margin[i] == end.scores()[seat] - max(others)
                    assert rows.win_share[i] == win_share(seat, winners(keys))
                    assert rows.place[i] == places(keys)[seat]
                    seen += 1
                state.apply(int(action))
    assert seen == sum(len(folder.positions(r, games=[1, 3])) for r in folder.roles)


def test_float16_only_where_every_value_survives():
    assert records.fits_float16(np.array([0.0, 1.0, 0.1, -3.5, 1 / 7]))
    assert not records.fits_float16(np.array([1e-6]))  # a subnormal loses its digits
    assert not records.fits_float16(np.array([1e6]))  # past float16's range
    log = records.GameLog(0, 1, [0], [0], [1.0], [0.0], [1.0], [0], [0], [2],
                          {0: records.Kept(0, np.array([1e-6, 1.0]), np.array([1, 1]))})
    packed = records.pack_shard(0, [log], ["player"], {"player": (2, 2)})
    assert packed["observation/player"].dtype == np.float32
    assert records.margins(np.array([[3.0, 5.0, 5.0], [7.0, 1.0, 2.0]])).tolist() == [
        [-2.0, 0.0, 0.0], [5.0, -6.0, -5.0]]


def test_a_shipped_network_keeps_its_probabilities(tmp_path):
    play(tmp_path / "g", games=2, env_name=NECRO, agents=[NETWORK, "heuristic"], seed=3)
    folder = Records(tmp_path / "g")
    rows = folder.positions(policy=True)
    table = folder.game_table()["game/agent"]
    network_seat = table[rows.games, rows.seats] == 0
    assert np.array_equal(rows.has_policy, network_seat) and network_seat.any()
    np.testing.assert_allclose(rows.policies[network_seat].sum(axis=1), 1.0, atol=3e-3)
    assert np.array_equal(rows.policies[network_seat].argmax(axis=1),
                          rows.actions[network_seat])  # greedy: its best move

    # --sample plays as make_bot(stochastic=True) would, from the same seat seeds
    play(tmp_path / "s", games=1, env_name=NECRO, agents=[NETWORK, "heuristic"], seed=3,
         sample=True)
    record = next(Records(tmp_path / "s").iter_games())
    game = envs.make_game(NECRO, num_players=2)
    seeds, deal = selfplay.game_seeds(3, 0, 2)
    bots = [make_bot(spec, game, seeds[s], stochastic=True, seat=s)
            for s, spec in enumerate(record.agents)]
    assert play_game(game.new_initial_state(deal), bots).scores() == list(record.scores)


def test_refusals_say_what_is_wrong(tmp_path):
    play(tmp_path / "r", games=3)
    with pytest.raises(ConfigError, match=r"exists and is not empty.*--resume"):
        play(tmp_path / "r", games=3)
    with pytest.raises(ConfigError, match="seed 11, not 12"):
        play(tmp_path / "r", games=3, seed=12, resume=True)
    with pytest.raises(ConfigError, match="agents"):
        play(tmp_path / "r", games=3, agents=["random"], resume=True)
    with pytest.raises(ConfigError, match="--keep"):
        play(tmp_path / "k", keep=0.0)
    with pytest.raises(ConfigError, match="--games 0"):
        play(tmp_path / "k", games=0)
    with pytest.raises(ConfigError, match=r"plays \[1, 2\] players, not 3"):
        play(tmp_path / "k", env_name=NECRO, players=3, agents=[NETWORK])


def test_the_command_refuses_in_one_line(tmp_path, capsys):
    out = tmp_path / "r"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    code = cli.main(["selfplay", "--env", "toy_v0", "--players", "2", "--agents", "random",
                     "--games", "2", "--seed", "1", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith("meeplezoo selfplay: --out") and "--resume" in err[0]
    code = cli.main(["selfplay", "--env", "toy_v0", "--players", "2", "--agents", "random",
                     "--games", "3", "--seed", "1", "--out", str(tmp_path / "ok"),
                     "--shard-games", "2", "--no-progress"])
    printed = capsys.readouterr().out
    assert code == 0 and "3 games" in printed and "games/s" in printed
    assert Records(tmp_path / "ok").manifest["command"] == (
        f"meeplezoo selfplay --env toy_v0 --players 2 --agents random --games 3 --seed 1 "
        f"--out {tmp_path / 'ok'} --shard-games 2 --no-progress")
