"""The policy network families ``training.train --arch`` offers.

Kept free of torch so that argument parsers (train, bench) can list them
without importing the networks; ``training.spatial`` builds them.
"""

from typing import Any

ARCHS = ("mlp", "spatial")

# env name -> builder of the spatial policy's kwargs (``--net`` sizes -> policy_kwargs).
# Each game's network module in ``nets/`` registers its own (``register_spatial``); the
# generic code (``spatial.py``) reads this table and never imports a game's module by name.
SPATIAL_NETS: dict[str, Any] = {}
LEGACY_EXTRACTOR: list[Any] = []  # the network of model.zip files saved without a class


def register_spatial(env: str, builder: Any, legacy_extractor: Any = None) -> None:
    """A game's spatial network: ``builder(net) -> policy_kwargs`` for env ``env``."""
    if env in SPATIAL_NETS and SPATIAL_NETS[env] is not builder:
        raise ValueError(f"a spatial network for {env!r} is registered twice")
    SPATIAL_NETS[env] = builder
    if legacy_extractor is not None and legacy_extractor not in LEGACY_EXTRACTOR:
        LEGACY_EXTRACTOR.append(legacy_extractor)
