"""The 地方創生 convolutional policy network (``--arch spatial`` on chihou_sousei_v1).

The MLP policy reads the 地方創生 observation as a flat vector, so it must learn
what to do at each of the 145 cells of the own-board diamond separately.
``ChihouSpatialNet`` instead lays the own board out on a 17 x 17 grid
(x, y = -8..8; cells off the diamond stay zero) and runs a small convolutional
trunk over it, so what it learns about a cell carries to every other cell:

- grid input: the own-board plane features of each cell, the power, icons and
  event of my card on the cell (from the ``me.*`` slot blocks, put on the cell
  whose x, y they encode), markers for the placed card, the forced-move source
  and the awaiting event, and constant channels (on the diamond, x, y,
  distance from the big city);
- everything before the plane (seat blocks and global block) goes through an
  MLP to a global embedding; a projection of it (and of the previous layer's
  mean over the diamond: a global-pooling bias) is added as a per-channel bias
  in every conv layer, so each cell knows the decision, the picked card, the
  scores; the trunk is 3x3 convs with ReLU, residual after the first,
  re-zeroed off the diamond after each layer;
- per-cell heads: a 1x1 conv gives the ``place@``, ``from@``, ``to@`` and
  ``event@`` logit of each cell; ``pick:j`` scores row card j on each frontier
  cell of my board (a dot product of a projection of the card and a 1x1-conv
  embedding of the cell), takes the best frontier cell, and adds an MLP term of
  the card and the global embedding; ``tableau:+k``, ``increase`` and ``skip``
  and the value latent come from the global embedding and the mean- and
  max-pooled trunk.

The grid is my own board only: with ``forced_move_any_player`` a forced move in
another player's tableau is still scored on my grid's cells, and only the
global embedding (the other seat blocks) knows that tableau.

Every offset is read from the observation's ``FeatureLayout`` by block and label
(``LAYOUT.offset("placed_card", "x")``) and every action range from the
``ActionCatalogue`` blocks, so a change of the encoder's order cannot silently
feed the network the wrong entries: the asserts below fail instead.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from meeplezoo.envs.chihou_sousei.actions import CATALOGUE
from meeplezoo.envs.chihou_sousei.observation import LAYOUT
from meeplezoo.training.fitting.archs import register_spatial

# -- the observation, read by name --------------------------------------------------------
_BLOCKS = LAYOUT.blocks()
_PLANES = [name for name in _BLOCKS if name.startswith("own_board@")]
CELLS = [tuple(int(v) for v in re.findall(r"[+-]\d+", name)) for name in _PLANES]
NUM_CELLS = len(CELLS)  # 145
RADIUS = max(abs(v) for cell in CELLS for v in cell)  # 8
OBS_SIZE = LAYOUT.size
PLANE_OFF = _BLOCKS[_PLANES[0]].start
PLANE_LABELS = LAYOUT.labels(_PLANES[0])
PLANE_F = len(PLANE_LABELS)
P_FRONTIER = PLANE_LABELS.index("frontier")
assert PLANE_OFF + NUM_CELLS * PLANE_F == OBS_SIZE, "the own-board plane must close the vector"
_SLOT_BLOCKS = [n for n in _BLOCKS if n == "me.big_city" or re.fullmatch(r"me\.card\d+", n)]
SLOT_LABELS = LAYOUT.labels("me.big_city")
SLOT_F = len(SLOT_LABELS)
S_PRESENT, S_X, S_Y = (SLOT_LABELS.index(k) for k in ("present", "x", "y"))
SLOTS = len(_SLOT_BLOCKS)  # 9: the big city and a card per round
assert _BLOCKS["me.big_city"].start == 0 and _BLOCKS[_SLOT_BLOCKS[-1]].stop == SLOTS * SLOT_F
SLOT_FEATS = slice(SLOT_LABELS.index("power"), SLOT_F)  # power, icons, event (colour: plane)
SLOT_LABELS_ON_GRID = SLOT_LABELS[SLOT_FEATS]
ROW_OFF = _BLOCKS["row0"].start
ROW_F = len(LAYOUT.labels("row0"))
MARKERS = {  # name: offset of the (x, y, present) triple in the observation
    "placed_card": LAYOUT.offset("placed_card", "x"),
    "forced_move_source": LAYOUT.offset("forced_move_source", "x"),
    "event": LAYOUT.offset("event", "x"),
}
for _name, _off in MARKERS.items():
    assert LAYOUT.offset(_name, "y") == _off + 1 and LAYOUT.offset(_name, "present") == _off + 2

# -- the actions, read by block -------------------------------------------------------------
NUM_ACTIONS = CATALOGUE.size
ROW_SLOTS = len(CATALOGUE.block("pick"))
assert all(f"row{j}" in _BLOCKS for j in range(ROW_SLOTS))
assert [len(CATALOGUE.block(b)) for b in ("place", "from", "to", "event")] == [
    NUM_CELLS - 1, NUM_CELLS, NUM_CELLS, NUM_CELLS - 1], "cell actions: place/event skip cell 0"
assert CATALOGUE.block("place").start == ROW_SLOTS
REST = NUM_ACTIONS - CATALOGUE.block("tableau").start  # tableau:+k, increase, skip
assert CATALOGUE.block("event").stop == CATALOGUE.block("tableau").start

# -- the grid ----------------------------------------------------------------------------
SIDE = 2 * RADIUS + 1  # 17
GRID = SIDE * SIDE  # 289
STATIC_LABELS = ["on_diamond", "x", "y", "distance"]
GRID_CHANNELS: tuple[str, ...] = (
    *PLANE_LABELS, *SLOT_LABELS_ON_GRID, *MARKERS, *STATIC_LABELS
)


def grid_index(x: int, y: int) -> int:
    """Position of cell offset (x, y) in the flattened 17 x 17 grid (row y, column x)."""
    return (y + RADIUS) * SIDE + (x + RADIUS)


CELL_TO_GRID = np.array([grid_index(x, y) for x, y in CELLS], np.int64)


def _constants() -> dict[str, torch.Tensor]:
    on = np.zeros(GRID, np.float32)
    on[CELL_TO_GRID] = 1.0
    plane_src = np.full(GRID, NUM_CELLS, np.int64)  # off the diamond: the zero row
    plane_src[CELL_TO_GRID] = np.arange(NUM_CELLS)
    ys, xs = np.divmod(np.arange(GRID), SIDE)
    coord_x = (xs / (2 * RADIUS)).astype(np.float32)  # the observation's (offset + 8) / 16
    coord_y = (ys / (2 * RADIUS)).astype(np.float32)
    off_x, off_y = xs - RADIUS, ys - RADIUS
    static = np.stack(
        [on, off_x / RADIUS * on, off_y / RADIUS * on, (abs(off_x) + abs(off_y)) / RADIUS * on]
    ).astype(np.float32)
    return {
        "plane_src": torch.as_tensor(plane_src),
        "cell_to_grid": torch.as_tensor(CELL_TO_GRID),
        "coord_x": torch.as_tensor(coord_x),
        "coord_y": torch.as_tensor(coord_y),
        "on": torch.as_tensor(on),
        "static": torch.as_tensor(static),
    }


def _mlp(sizes: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(sizes):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


class ChihouSpatialNet(BaseFeaturesExtractor):
    """Observation (2504) -> [589 action logits | value latent]; see the module doc."""

    def __init__(
        self,
        observation_space: spaces.Box,
        global_net: Sequence[int] = (256,),
        channels: int = 32,
        conv_layers: int = 4,
        pick_dim: int = 32,
        value_net: Sequence[int] = (256,),
    ) -> None:
        if observation_space.shape != (OBS_SIZE,):
            raise ValueError(
                f"ChihouSpatialNet reads chihou_sousei_v1 observations of {OBS_SIZE} floats, "
                f"not {observation_space.shape}"
            )
        global_net, value_net = list(global_net), list(value_net)
        super().__init__(observation_space, NUM_ACTIONS + value_net[-1])
        self.spec = {
            "global_net": global_net, "channels": channels, "conv_layers": conv_layers,
            "pick_dim": pick_dim, "value_net": value_net,
        }
        for name, tensor in _constants().items():
            self.register_buffer(name, tensor, persistent=False)
        g = global_net[-1]
        c = channels
        self.global_mlp = _mlp([PLANE_OFF, *global_net])
        self.convs = nn.ModuleList(
            nn.Conv2d(len(GRID_CHANNELS) if i == 0 else c, c, 3, padding=1)
            for i in range(conv_layers)
        )
        # per layer: a bias from the global embedding (and the previous layer's mean)
        self.biases = nn.ModuleList(
            nn.Linear(g if i == 0 else g + c, c) for i in range(conv_layers)
        )
        self.cell_head = nn.Conv2d(c, 4, 1)  # place, from, to, event
        self.pick_cell = nn.Conv2d(c, pick_dim, 1)
        self.pick_card = nn.Linear(ROW_F, pick_dim)
        self.pick_mlp = nn.Sequential(
            nn.Linear(g + ROW_F, pick_dim), nn.ReLU(), nn.Linear(pick_dim, 1)
        )
        self.rest_head = nn.Linear(g + 2 * c, REST)
        self.value_mlp = _mlp([g + 2 * c, *value_net])

    def output_heads(self) -> list[nn.Module]:
        """The layers that give logits directly (initialised small, like SB3's action_net)."""
        return [self.pick_card, self.pick_mlp[-1], self.cell_head, self.rest_head]

    # -- the pieces (public for tests) ---------------------------------------------------
    def grid(self, obs: torch.Tensor) -> torch.Tensor:
        """The grid input: [batch, len(GRID_CHANNELS), 17, 17]."""
        batch = obs.shape[0]
        plane = obs[:, PLANE_OFF:].reshape(-1, NUM_CELLS, PLANE_F)
        plane = torch.cat([plane, torch.zeros_like(plane[:, :1])], 1)  # row NUM_CELLS: zeros
        plane = plane.index_select(1, self.plane_src).transpose(1, 2)  # [B, 10, 289]
        slots = obs[:, : SLOTS * SLOT_F].reshape(-1, SLOTS, SLOT_F)
        where = self._one_hot(slots[:, :, S_X], slots[:, :, S_Y], slots[:, :, S_PRESENT])
        cards = torch.einsum("bsg,bsf->bfg", where, slots[:, :, SLOT_FEATS])  # [B, 14, 289]
        marks = torch.stack([obs[:, off : off + 3] for off in MARKERS.values()], 1)  # [B, 3, 3]
        markers = self._one_hot(marks[:, :, 0], marks[:, :, 1], marks[:, :, 2])  # [B, 3, 289]
        static = self.static.unsqueeze(0).expand(batch, -1, -1)
        grid = torch.cat([plane, cards, markers, static], 1)
        return grid.reshape(-1, len(GRID_CHANNELS), SIDE, SIDE)

    def _one_hot(self, x: torch.Tensor, y: torch.Tensor, present: torch.Tensor) -> torch.Tensor:
        """[B, K] encoded coordinates -> [B, K, 289]: 1 on the grid cell of each present one."""
        tol = 0.25 / (2 * RADIUS)  # a quarter of a cell
        hit_x = (x.unsqueeze(-1) - self.coord_x).abs() < tol
        hit_y = (y.unsqueeze(-1) - self.coord_y).abs() < tol
        return (hit_x & hit_y).float() * (present.unsqueeze(-1) > 0.5).float()

    def gather_cells(self, maps: torch.Tensor) -> torch.Tensor:
        """[B, 4, 17, 17] place/from/to/event maps -> the 578 logits place@..event@."""
        cells = maps.flatten(2).index_select(2, self.cell_to_grid)  # [B, 4, 145]
        return torch.cat([cells[:, 0, 1:], cells[:, 1], cells[:, 2], cells[:, 3, 1:]], 1)

    def trunk(self, grid: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        on = self.on.reshape(1, 1, SIDE, SIDE)
        h = grid.contiguous(memory_format=torch.channels_last)  # ~30% faster convs on CPU
        for i, (conv, bias) in enumerate(zip(self.convs, self.biases)):
            context = g if i == 0 else torch.cat([g, h.sum((2, 3)) / NUM_CELLS], 1)
            out = torch.relu(conv(h) + bias(context)[:, :, None, None]) * on
            h = out if i == 0 else h + out
        return h

    def _pool(self, h: torch.Tensor) -> torch.Tensor:
        """Mean over the diamond and max (h >= 0, zero off the diamond): [B, 2C]."""
        return torch.cat([h.sum((2, 3)) / NUM_CELLS, h.amax((2, 3))], 1)

    def pick_logits(self, obs: torch.Tensor, grid: torch.Tensor, h: torch.Tensor,
                    g: torch.Tensor) -> torch.Tensor:
        rows = obs[:, ROW_OFF : ROW_OFF + ROW_SLOTS * ROW_F].reshape(-1, ROW_SLOTS, ROW_F)
        cell = self.pick_cell(h).flatten(2)  # [B, P, 289]
        card = self.pick_card(rows)  # [B, 5, P]
        score = torch.einsum("bjp,bpg->bjg", card, cell)  # how card j fits each cell
        frontier = grid[:, P_FRONTIER].flatten(1).unsqueeze(1)  # [B, 1, 289]
        fit = (score - 1e4 * (1.0 - frontier)).amax(2)
        fit = torch.where(frontier.amax(2) > 0.5, fit, torch.zeros_like(fit))
        context = torch.cat([g.unsqueeze(1).expand(-1, ROW_SLOTS, -1), rows], 2)
        return fit + self.pick_mlp(context).squeeze(2)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        g = self.global_mlp(obs[:, :PLANE_OFF])
        grid = self.grid(obs)
        h = self.trunk(grid, g)
        summary = torch.cat([g, self._pool(h)], 1)
        logits = torch.cat(
            [
                self.pick_logits(obs, grid, h, g),
                self.gather_cells(self.cell_head(h)),
                self.rest_head(summary),
            ],
            1,
        )
        return torch.cat([logits, self.value_mlp(summary)], 1)


def chihou_spatial(net: Sequence[int]) -> dict[str, Any]:
    """Policy kwargs of the spatial policy on 地方創生: ``--net`` sizes the global MLP (seat
    and global blocks); the value head has one hidden layer of ``net[-1]``."""
    net = list(net)
    return {"features_extractor_class": ChihouSpatialNet,
            "features_extractor_kwargs": {"global_net": net, "value_net": [net[-1]]}}


# every model.zip saved before networks were named in it was 地方創生's spatial one
register_spatial("chihou_sousei_v1", chihou_spatial, legacy_extractor=ChihouSpatialNet)
