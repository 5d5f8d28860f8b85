"""The action catalogue kit."""

import pytest

from meeplezoo.envs.core.actions import ActionCatalogue
from meeplezoo.envs.core.errors import ConfigError


def test_blocks_names_and_indices():
    cat = ActionCatalogue()
    assert cat.add("take", ["take:1", "take:2"]) == 0
    assert cat.add("skip", ["skip"]) == 2
    assert cat.names == ("take:1", "take:2", "skip") and cat.size == 3
    assert cat.block("take") == range(0, 2) and cat.index("skip") == 2
    assert cat.block_of(1) == "take" and cat.block_of(2) == "skip"
    with pytest.raises(ConfigError, match="no action named 'jump'; blocks: take, skip"):
        cat.index("jump")
    with pytest.raises(IndexError):
        cat.block_of(3)


def test_names_and_blocks_are_unique():
    cat = ActionCatalogue()
    cat.add("a", ["x"])
    with pytest.raises(ValueError, match="defined twice"):
        cat.add("a", ["y"])
    with pytest.raises(ValueError, match="used twice"):
        cat.add("b", ["x"])
    with pytest.raises(ValueError, match="used twice"):
        cat.add("c", ["z", "z"])
