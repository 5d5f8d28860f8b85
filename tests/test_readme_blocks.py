"""The README's ```python blocks run as written: in order, in one namespace (as a reader
pastes them into one session), from the repository root.

A block that needs what a test cannot give it (the training extra, a long run, a file an
earlier command makes) is preceded by an HTML comment, invisible on the rendered page:

    <!-- readme-test: skip (why) -->

The reason is required, and the marker must sit right above a ```python fence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SKIP = re.compile(r"^<!-- readme-test: skip \((?P<reason>[^)]+)\) -->$")
FENCE = re.compile(r"^```(?P<lang>\S*)\s*$")


@dataclass
class Block:
    line: int  # 1-based line of the opening fence
    code: str
    skip: str | None  # the reason, for a block marked to be skipped


def python_blocks(text: str) -> list[Block]:
    """The ```python blocks of a Markdown text, with their skip markers; a marker that is
    not right above a python block is an error."""
    lines = text.splitlines()
    blocks, i = [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        marker = SKIP.match(lines[i].strip())
        if marker:
            following = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
            if not following or following.group("lang") != "python":
                raise ValueError(f"README line {i + 1}: a skip marker must sit right above "
                                 "a ```python fence")
        if fence and fence.group("lang"):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            if fence.group("lang") == "python":
                previous = SKIP.match(lines[i - 1].strip()) if i else None
                blocks.append(Block(i + 1, "\n".join(lines[i + 1:end]) + "\n",
                                    previous.group("reason") if previous else None))
            i = end
        i += 1
    return blocks


def test_the_parser_reads_blocks_and_markers():
    text = ("intro\n```python\nx = 1\n```\n```bash\necho\n```\n"
            "<!-- readme-test: skip (needs the train extra) -->\n```python\nimport torch\n```\n")
    blocks = python_blocks(text)
    assert [(b.line, b.code, b.skip) for b in blocks] == [
        (2, "x = 1\n", None), (9, "import torch\n", "needs the train extra")]
    with pytest.raises(ValueError, match="right above"):
        python_blocks("<!-- readme-test: skip (why) -->\n\n```python\nx = 1\n```\n")


def test_readme_python_blocks_run_in_order(monkeypatch):
    blocks = python_blocks(README.read_text())
    assert [b for b in blocks if b.skip is None], "the README has no runnable python block"
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": "__readme__"}
    for block in blocks:
        if block.skip is not None:
            continue
        try:
            exec(compile(block.code, f"README.md:{block.line}", "exec"), namespace)
        except Exception as exc:
            pytest.fail(f"README block at line {block.line} fails: {type(exc).__name__}: {exc}")
