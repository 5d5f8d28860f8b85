"""The spatial (conv) policy of 地方創生: its grid, its action gather, SB3 and ONNX."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from gymnasium import spaces

from meeplezoo import envs
from meeplezoo.envs.chihou_sousei import actions as A
from meeplezoo.envs.chihou_sousei.board import CELLS, NUM_CELLS
from meeplezoo.envs.chihou_sousei.data import EVENT, EVENTS, ICONS, POWER
from meeplezoo.envs.chihou_sousei.observation import OBS_SIZE, PLANE_F, PLANE_LABELS, PLANE_OFF
from meeplezoo.training import export
from meeplezoo.training.fitting import onnx, train
from meeplezoo.training.fitting.nets.chihou_sousei import GRID_CHANNELS, RADIUS, ChihouSpatialNet
from meeplezoo.training.fitting.spatial import SpatialPolicy, policy_spec
from tests.chihou_sousei.positions import position

torch.set_num_threads(1)
CH = {name: i for i, name in enumerate(GRID_CHANNELS)}
SPACE = spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)


def at(grid: torch.Tensor, channel: str, x: int, y: int) -> float:
    return float(grid[0, CH[channel], y + RADIUS, x + RADIUS])


def net() -> ChihouSpatialNet:
    torch.manual_seed(0)
    return ChihouSpatialNet(SPACE, global_net=[32], channels=8, conv_layers=2, pick_dim=8,
                            value_net=[16]).eval()


def sample_states(games: int, seed: int = 0, players: int = 4) -> list:
    """(state copy, seat, observation, mask) of every decision of random games."""
    game = envs.make_game("chihou_sousei_v1", num_players=players)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        state = game.new_initial_state(seed * 100 + g)
        while not state.is_terminal():
            seat = state.current_player()
            out.append((state.clone(), seat, state.observation(seat).copy(),
                        state.legal_mask().copy()))
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
    return out


def test_grid_puts_the_plane_and_my_cards_on_their_cells():
    tableaus = {0: [(1, 0, "akita", 4), (0, -1, "okinawa", 2), (2, 0, "miyagi", 30)],
                1: [(-1, 0, "nagano", 7), (-2, 0, "gifu", 1), (0, 1, "mie", 3)]}
    state = position(n=2, phase="place", tableaus=tableaus, big={0: 10, 1: 16},
                     picked={0: "kanagawa"}, rnd=3)
    obs = state.observation(0)
    grid = net().grid(torch.as_tensor(obs)[None])
    assert grid.shape == (1, len(GRID_CHANNELS), 17, 17)
    assert at(grid, "tokens", 0, 0) == pytest.approx(10 / 24)
    assert at(grid, "tokens", 1, 0) == pytest.approx(4 / 24)
    assert at(grid, "tokens", 0, -1) == pytest.approx(2 / 24)
    assert at(grid, "tokens", 2, 0) == 1.0  # 30 tokens, clipped
    assert at(grid, "event_u_turn", 1, 0) == 1.0  # akita
    assert at(grid, "event_newcomers", 0, -1) == 1.0  # okinawa
    assert at(grid, "event_spread", 2, 0) == 1.0  # miyagi
    assert at(grid, "power", 2, 0) == 1.0 and at(grid, "power", 1, 0) == pytest.approx(1 / 3)
    events = grid[0, [CH[f"event_{e}"] for e in EVENTS]]
    assert float(events.sum()) == 3.0  # my three regional cards, nowhere else (not seat 1's)
    # every plane entry lands on the grid cell of its (x, y); off the diamond stays zero
    plane = obs[PLANE_OFF:].reshape(NUM_CELLS, PLANE_F)
    on = np.zeros((17, 17), bool)
    for cell, (x, y) in enumerate(CELLS):
        on[y + RADIUS, x + RADIUS] = True
        for f, label in enumerate(PLANE_LABELS):
            assert at(grid, label, x, y) == plane[cell, f]
    assert not grid[0, : len(PLANE_LABELS) + len(EVENTS) + 4, ~on].any()
    assert at(grid, "frontier", 1, -1) == 1.0 and at(grid, "on_diamond", 8, 0) == 1.0


def test_grid_cards_and_markers_follow_the_engine_in_random_games():
    samples = sample_states(3, seed=1)
    obs = torch.as_tensor(np.stack([s[2] for s in samples]))
    grids = net().grid(obs).numpy()
    seen = dict.fromkeys(("placed_card", "forced_move_source", "event"), 0)
    for (state, seat, _, _), grid in zip(samples, grids):
        want = {name: np.zeros((17, 17), np.float32) for name in ("power", *EVENTS, *seen)}
        for cell in state.cells[seat][1:]:  # my regional cards (the big city has none)
            x, y = CELLS[cell]
            card = state.grid[seat][cell]
            want["power"][y + RADIUS, x + RADIUS] = POWER[card] / 3
            want[EVENTS[EVENT[card]]][y + RADIUS, x + RADIUS] = 1.0
            assert grid[CH["icon_crafts"], y + RADIUS, x + RADIUS] == ICONS[card][2]
        for name, cell in (("placed_card", state.placed), ("forced_move_source", state.fm_src),
                           ("event", state.ev_cell)):
            if cell >= 0:
                x, y = CELLS[cell]
                want[name][y + RADIUS, x + RADIUS] = 1.0
                seen[name] += 1
        for name, expected in want.items():
            channel = name if name in CH else f"event_{name}"
            np.testing.assert_allclose(grid[CH[channel]], expected, atol=1e-6, err_msg=name)
    assert all(seen.values()), seen  # every marker was checked somewhere


def test_cell_logits_are_the_cell_maps_at_their_cells():
    model = net()
    maps = torch.arange(4 * 17 * 17, dtype=torch.float32).reshape(1, 4, 17, 17)
    cells = model.gather_cells(maps)[0]
    assert cells.shape == (A.TABLEAU - A.PLACE,)
    for cell, (x, y) in enumerate(CELLS):
        value = [maps[0, k, y + RADIUS, x + RADIUS] for k in range(4)]
        if cell:
            assert cells[A.PLACE - A.PLACE + cell - 1] == value[0]
            assert cells[A.EVENT - A.PLACE + cell - 1] == value[3]
        assert cells[A.FROM - A.PLACE + cell] == value[1]
        assert cells[A.TO - A.PLACE + cell] == value[2]

    # and in the whole network: place@(x,y) is the place map of the trunk at (x, y)
    captured = {}
    model.cell_head.register_forward_hook(lambda m, i, out: captured.update(maps=out))
    obs = torch.as_tensor(np.stack([s[2] for s in sample_states(1)[:40]]))
    with torch.no_grad():
        logits = model(obs)[:, : A.NUM_ACTIONS]
    game = envs.make_game("chihou_sousei_v1", num_players=4)
    for cell, (x, y) in enumerate(CELLS):
        here = captured["maps"][:, :, y + RADIUS, x + RADIUS]
        if cell:
            name = f"place@({x:+d},{y:+d})"
            assert torch.equal(logits[:, game.action_index(name)], here[:, 0]), name
            assert torch.equal(logits[:, game.action_index(f"event@({x:+d},{y:+d})")], here[:, 3])
        assert torch.equal(logits[:, game.action_index(f"from@({x:+d},{y:+d})")], here[:, 1])
        assert torch.equal(logits[:, game.action_index(f"to@({x:+d},{y:+d})")], here[:, 2])


def test_spatial_arch_is_refused_for_an_env_without_one(tmp_path):
    out = tmp_path / "nope"
    with pytest.raises(SystemExit, match=r"asian_delivery_v1.*chihou_sousei_v1"):
        train.main(["--env", "asian_delivery_v1", "--arch", "spatial", "--timesteps", "8",
                    "--out", str(out), "--no-progress"])
    assert not out.exists()
    with pytest.raises(ValueError, match="envs with one: chihou_sousei_v1"):
        policy_spec("spatial", "toy_v0", [8])
    assert policy_spec("mlp", "toy_v0", [8, 8]) == ("MlpPolicy", {"net_arch": [8, 8]})


SPATIAL_ARGS = ["--env", "chihou_sousei_v1", "--players", "4", "--n-envs", "2",
                "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--seed", "2",
                "--opponents", "random", "--no-progress", "--net", "32"]


@pytest.fixture(scope="module")
def spatial_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("spatial")
    assert train.main([*SPATIAL_ARGS, "--arch", "spatial", "--timesteps", "128",
                       "--imitate-games", "2", "--imitate-epochs", "1",
                       "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def samples():
    return sample_states(2, seed=5)[::5]


def test_spatial_training_records_its_arch_and_starts_with_small_logits(spatial_run):
    from sb3_contrib import MaskablePPO

    run = json.loads((spatial_run / "run.json").read_text())
    assert run["arch"] == "spatial" and run["timesteps_done"] >= 128
    assert run["net_arch"]["global_net"] == [32] and run["net_arch"]["conv_layers"] >= 1
    assert "imitation" in run
    model = MaskablePPO.load(spatial_run / "final_model.zip", device="cpu")
    assert isinstance(model.policy, SpatialPolicy)
    assert isinstance(model.policy.action_net, torch.nn.Identity)
    # one optimizer over exactly the policy's parameters (no stale action_net)
    opt = {id(p) for group in model.policy.optimizer.param_groups for p in group["params"]}
    assert opt == {id(p) for p in model.policy.parameters()}
    fresh = SpatialPolicy(model.observation_space, model.action_space, lambda _: 1e-3)
    obs = torch.as_tensor(np.stack([s[2] for s in sample_states(1)[:30]]))
    with torch.no_grad():
        logits = fresh.get_distribution(obs).distribution.logits
    assert float((logits - logits.mean(1, keepdim=True)).abs().max()) < 1.0


def test_spatial_model_never_picks_a_masked_action_and_reloads_identically(
    spatial_run, samples
):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(spatial_run / "final_model.zip", device="cpu")
    again = MaskablePPO.load(spatial_run / "final_model.zip", device="cpu")
    for _, _, obs, mask in samples:
        a, _ = model.predict(obs, action_masks=mask, deterministic=True)
        b, _ = again.predict(obs, action_masks=mask, deterministic=True)
        assert int(a) == int(b) and mask[int(a)]
        for _ in range(3):
            c, _ = model.predict(obs, action_masks=mask, deterministic=False)
            assert mask[int(c)]


def test_spatial_training_resumes_with_its_arch(spatial_run, tmp_path):
    import shutil

    out = tmp_path / "resumed"
    shutil.copytree(spatial_run, out)
    base = [*SPATIAL_ARGS, "--timesteps", "64", "--out", str(out),
            "--resume", str(out / "final_model.zip")]
    with pytest.raises(SystemExit, match="spatial model"):
        train.main([*base, "--arch", "mlp"])
    assert train.main(base) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["arch"] == "spatial" and run["timesteps_done"] >= 128 + 64
    assert run["net_arch"]["global_net"] == [32]


def test_spatial_onnx_export_matches_torch(spatial_run, samples, tmp_path):
    import onnxruntime as ort
    from sb3_contrib import MaskablePPO

    folder = export.export_model(spatial_run / "final_model.zip", "spatial_test", tmp_path)
    card = json.loads((folder / "card.json").read_text())
    assert card["arch"] == "spatial" and card["net_arch"]["global_net"] == [32]
    assert len(samples) >= 20
    assert export.sb3_and_onnx_agree(spatial_run / "final_model.zip", folder,
                                     [(s[2], s[3]) for s in samples]) == 0
    # one batched call (dynamic batch): the same logits as torch's
    obs = np.stack([s[2] for s in samples])
    mask = np.stack([s[3] for s in samples]).astype(np.float32)
    session = ort.InferenceSession(str(folder / "policy.onnx"),
                                   providers=["CPUExecutionProvider"])
    onnx_logits = session.run(None, {"observation": obs, "action_mask": mask})[0]
    policy = MaskablePPO.load(spatial_run / "final_model.zip", device="cpu").policy
    with torch.no_grad():
        torch_logits, torch_values = onnx._masked_policy_module(policy)(
            torch.as_tensor(obs), torch.as_tensor(mask))
        torch_logits = torch_logits.numpy()
    onnx_values = session.run(["value"], {"observation": obs, "action_mask": mask})[0]
    np.testing.assert_allclose(onnx_values, torch_values.numpy(), atol=1e-4)  # the critic too
    legal = mask > 0.5
    np.testing.assert_allclose(onnx_logits[legal], torch_logits[legal], atol=1e-4)
    assert (onnx_logits.argmax(1) == torch_logits.argmax(1)).all()
    assert legal[np.arange(len(legal)), onnx_logits.argmax(1)].all()


def test_a_policy_saved_before_the_net_moved_still_builds_the_chihou_net():
    """model.zip files from before training.nets name no extractor class: they are
    地方創生's, and the spatial policy still builds that network for them."""
    policy = SpatialPolicy(SPACE, spaces.Discrete(589), lambda _: 1e-4,
                           features_extractor_kwargs={"global_net": [16], "value_net": [8],
                                                      "channels": 4, "conv_layers": 1,
                                                      "pick_dim": 4})
    assert isinstance(policy.features_extractor, ChihouSpatialNet)
    _, kwargs = policy_spec("spatial", "chihou_sousei_v1", [32])
    assert kwargs["features_extractor_class"] is ChihouSpatialNet
