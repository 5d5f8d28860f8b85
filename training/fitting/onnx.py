"""Writing a trained policy as an opponent's files: the ONNX network (masked logits, and the
critic's value as a second output) and its model card.  The fitting commands (``train``,
``improve``) write their snapshots with it; ``training.export`` is the command that ships
them, carries them to a new env version and bundles teams.
"""

from __future__ import annotations

import json
import logging
import shutil
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from meeplezoo import envs
from meeplezoo.envs.core.errors import ConfigError
from meeplezoo.envs.core.game import Game
from meeplezoo.training.agents.opponents import MASKED_LOGIT, action_names_hash, names_hash
from meeplezoo.training.cli import reproduce_steps


def _masked_policy_module(policy: Any) -> Any:
    import torch

    class MaskedLogits(torch.nn.Module):
        """The SB3 actor path with invalid actions pushed to a huge negative logit, and the
        critic's value (a search's leaf estimate, ``training.ismcts``) as a second output."""

        def __init__(self) -> None:
            super().__init__()
            self.policy = policy

        def forward(self, observation: torch.Tensor,
                    action_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            features = self.policy.extract_features(observation, self.policy.pi_features_extractor)
            latent = self.policy.mlp_extractor.forward_actor(features)
            logits = self.policy.action_net(latent)
            masked = torch.where(action_mask > 0.5, logits, torch.full_like(logits, MASKED_LOGIT))
            return masked, self.policy.predict_values(observation)

    return MaskedLogits().eval()


def write_onnx(policy: Any, observation_size: int, action_count: int, path: Path) -> None:
    write_masked_onnx(_masked_policy_module(policy), observation_size, action_count, path)


# What torch's exporter says on every export, none of it about the network: deprecation
# notices of the TorchScript exporter we pin (``dynamo=False``) and of its logging helper.
EXPORTER_NOTICES = ("You are using the legacy TorchScript-based ONNX export",
                    "The feature will be removed")


@contextmanager
def quiet_onnx_export() -> Iterator[None]:
    """Silence the exporter's own chatter for one export: its deprecation and future notices
    (by message, and any raised inside ``torch.onnx``) and its logger below ERROR.  What
    concerns the module still shows (a TracerWarning, a UserWarning about an operator), and
    an error is raised as ever."""
    logger = logging.getLogger("torch.onnx")
    level = logger.level
    with warnings.catch_warnings():
        for message in EXPORTER_NOTICES:
            warnings.filterwarnings("ignore", message=message, category=DeprecationWarning)
        for category in (DeprecationWarning, FutureWarning):
            warnings.filterwarnings("ignore", category=category, module=r"torch\.onnx")
        logger.setLevel(logging.ERROR)
        try:
            yield
        finally:
            logger.setLevel(level)


def write_masked_onnx(module: Any, observation_size: int, action_count: int,
                      path: Path) -> None:
    """Any torch module ``(observation, action_mask) -> masked logits`` (or ``(masked
    logits, value)``: the value becomes a second output, ``value``, shape [batch, 1]) as the
    checkpoint's ``policy.onnx`` (SB3 policies above; RLlib's in ``training.rllib.export``),
    without the exporter's notices (``quiet_onnx_export``)."""
    import torch

    obs = torch.zeros((1, observation_size), dtype=torch.float32)
    mask = torch.ones((1, action_count), dtype=torch.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        with_value = isinstance(module(obs, mask), tuple)
    outputs = ["masked_logits", *(["value"] if with_value else [])]
    with torch.no_grad(), quiet_onnx_export():
        torch.onnx.export(
            module,
            (obs, mask),
            str(path),
            input_names=["observation", "action_mask"],
            output_names=outputs,
            dynamic_axes={
                "observation": {0: "batch"},
                "action_mask": {0: "batch"},
                **{name: {0: "batch"} for name in outputs},
            },
            opset_version=17,
            dynamo=False,
            verbose=False,
        )


def policy_role(game: Game, run: dict[str, Any]) -> str:
    """The role a run's policy plays: ``run["role"]``, else its first seat's, else the
    only role of a symmetric game (an asymmetric game's run must name one)."""
    if run.get("role"):
        return game.check_role(run["role"])
    seats = run.get("seats", "any")
    if seats not in ("any", None):
        return game.seat_role(seats[0])
    return game.check_role(None)


def card_for(game: Game, name: str, seats: Any, run: dict[str, Any]) -> dict[str, Any]:
    role = policy_role(game, {**run, "seats": seats})
    return {
        "name": name,
        "env": game.name,
        "env_version": int(game.name.rsplit("_v", 1)[1]),
        "config": {k: v for k, v in game.config_dict().items() if k != "num_players"},
        "player_counts": run.get("player_counts", [game.num_players]),
        "seats": seats,
        "role": role,
        "observation_size": game.observation_size(role),
        "action_count": game.num_actions(role),
        "feature_names_hash": names_hash(game.feature_names(role)),
        "action_names_hash": action_names_hash(game, role),
        "algorithm": run.get("algorithm", "MaskablePPO (sb3-contrib)"),
        "arch": run.get("arch", "mlp"),  # runs from before --arch were all mlp
        "net_arch": run.get("net_arch"),
        "training_steps": run.get("timesteps_done"),
        "imitation": run.get("imitation"),
        "improvement": run.get("improvement"),  # training.improve's search distillation
        "seed": run.get("seed"),
        "opponents": run.get("opponents"),
        "reward": run.get("reward"),  # per segment, " && "-joined, for resumed runs
        "shaping": run.get("shaping"),
        "wall_time_s": run.get("wall_time_s"),
        "command": run.get("command"),
        "code_commit": run.get("code_commit"),
        "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "evaluation": None,
    }


def export_model(
    model_path: str | Path, name: str, out: str | Path = "runs/checkpoints",
    run: dict | None = None
) -> Path:
    """Export an SB3 MaskablePPO zip; returns the checkpoint folder."""
    from sb3_contrib import MaskablePPO

    model_path = Path(model_path)
    if not (model_path.is_file() or Path(f"{model_path}.zip").is_file()):  # SB3 adds .zip
        raise FileNotFoundError(f"{model_path}: no such model file (the .zip that "
                                "training.train saves, e.g. <run>/final_model.zip)")
    if run is None:
        meta = model_path.parent / "run.json"
        if not meta.exists():
            raise FileNotFoundError(
                f"{meta} (written by training.train) is missing: for a model trained elsewhere "
                "give --env and --players (the card then records no training command)")
        run = json.loads(meta.read_text())
    game = envs.make_game(run["env"], **run["config"])
    seats = run.get("seats", "any")
    model = MaskablePPO.load(str(model_path), device="cpu")
    role = policy_role(game, run)
    if model.observation_space.shape[0] != game.observation_size(role):
        raise ConfigError(
            f"{model_path} takes {model.observation_space.shape[0]} features but "
            f"{game.name} gives {game.observation_size(role)} to role {role}"
        )
    folder = Path(out) / game.name / name
    write_onnx(
        model.policy, game.observation_size(role), game.num_actions(role), folder / "policy.onnx"
    )
    from meeplezoo.training.fitting.spatial import arch_of

    card = card_for(game, name, seats, {**run, "arch": arch_of(model.policy)})
    (folder / "card.json").write_text(json.dumps(card, indent=2) + "\n")
    return folder


def export_snapshot(snapshot: str | Path, name: str,
                    out: str | Path = "runs/checkpoints") -> Path:
    """Ship a league snapshot (``<run>/pool/step_N``: already ONNX + card) as a
    checkpoint.  Its card keeps the run's command; ``reproduce_note`` says which
    snapshot of that command's run it is, because training went on after it (the export
    command adds its step to the card's ``reproduce`` list)."""
    snapshot = Path(snapshot)
    card_path, onnx_path = snapshot / "card.json", snapshot / "policy.onnx"
    if not card_path.exists() or not onnx_path.exists():
        raise FileNotFoundError(f"{snapshot} is not a snapshot: it needs card.json and policy.onnx "
                                "(a league snapshot is <run>/pool/step_N, written by "
                                "training.train)")
    card = json.loads(card_path.read_text())
    step = int(card["training_steps"])
    folder = Path(out) / card["env"] / name
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(onnx_path, folder / "policy.onnx")
    card["name"] = name
    segments = str(card.get("command") or "").count(" && ") + 1
    run_it = ("run the command; this policy is the league snapshot it writes" if segments == 1
              else f"run the {segments} commands in order (each --resume names a model an "
                   "earlier one writes, each --init-from a checkpoint exported from one); this "
                   "policy is the league snapshot the last one writes")
    card["reproduce"] = reproduce_steps(card)  # its training commands; the export adds its own
    card["reproduce_note"] = (
        f"{run_it} at training step {step} (pool/{snapshot.name}), not the run's final model"
    )
    card["exported_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    (folder / "card.json").write_text(json.dumps(card, indent=2) + "\n")
    return folder
