"""Game-specific policy networks, one module per game, each registering its builder in
``archs.SPATIAL_NETS`` when imported: importing this package registers them all, so the
generic code reaches a game's network by its env name only.  Each reads the game's
observation by the names of its feature-layout blocks, never by offsets copied from the
game's internals."""

from meeplezoo.training.fitting.nets import chihou_sousei  # noqa: F401  (registers its network)
