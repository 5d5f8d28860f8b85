"""The README's and the guide pages' (``docs/*.md``) ```python blocks run as written: each
page's in order, in one namespace (as a reader pastes them into one session), from the
repository root; and every ``meeplezoo`` command they show exists with every option it uses.

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
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
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


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_python_blocks_run_in_order(page, monkeypatch):
    blocks = python_blocks(page.read_text())
    if page == README:
        assert [b for b in blocks if b.skip is None], "the README has no runnable python block"
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": "__readme__"}
    for block in blocks:
        if block.skip is not None:
            continue
        try:
            exec(compile(block.code, f"{page.name}:{block.line}", "exec"), namespace)
        except Exception as exc:
            pytest.fail(f"{page.name} block at line {block.line} fails: "
                        f"{type(exc).__name__}: {exc}")


COMMAND = re.compile(r"(?<!from )(?<!import )(?:\.venv/bin/)?(?:meeplezoo (?P<cmd>[a-z][a-z-]*)|"
                     r"(?:\.venv/bin/)?python -m (?P<module>meeplezoo(?:\.\w+)+))(?P<args>.*)")


def shown_commands(text: str) -> list[tuple[str, list[str]]]:
    """(module, options) of every ``meeplezoo`` command line of a page (continuation lines
    joined), in code blocks and inline code alike."""
    from meeplezoo.cli import COMMANDS

    joined = re.sub(r"\\\n\s*", " ", text)
    found = []
    for line in joined.splitlines():
        for match in COMMAND.finditer(line.strip().strip("`")):
            module = (COMMANDS[match["cmd"]][0] if match["cmd"] in COMMANDS
                      else match["module"] if match["module"] else None)
            if match["cmd"] and match["cmd"] not in COMMANDS:
                module = f"(unknown command {match['cmd']!r})"
            if module:
                options = re.findall(r"(?<![\w-])(--[a-z][\w-]*)", match["args"].split("`")[0])
                found.append((module, options))
    return found


def _help(module: str) -> str:
    import contextlib
    import importlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        importlib.import_module(module).main(["--help"])
    return out.getvalue()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_command_a_page_shows_exists_with_its_options(page):
    commands = shown_commands(page.read_text())
    helps: dict[str, str] = {}
    for module, options in commands:
        assert not module.startswith("(unknown"), f"{page.name}: {module}"
        if module not in helps:
            helps[module] = _help(module)
        missing = [o for o in options if o not in helps[module]]
        assert not missing, f"{page.name}: {module} has no option {missing}"


def test_the_command_finder_reads_both_forms():
    text = ("    .venv/bin/meeplezoo train --env x \\\n        --timesteps 5\n"
            "run `meeplezoo arena --leaderboard` here")
    assert shown_commands(text) == [("meeplezoo.training.fitting.train", ["--env", "--timesteps"]),
                                    ("meeplezoo.training.evaluation.arena", ["--leaderboard"])]
