"""The environments guide's options table (docs/environments.md, linked from the README)
lists every option of every env."""

from pathlib import Path

from meeplezoo import envs

README = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text()


def test_options_table_names_every_option_of_every_env():
    rows = {line.split("|")[1].strip(" `"): line for line in README.splitlines()
            if line.startswith("| `") and line.count("|") == 3}
    for name in envs.list_envs():
        if name.startswith("toy"):
            continue
        assert name in rows, f"docs/environments.md options table lacks a row for {name}"
        for option in envs.game_class(name).options:
            assert f"`{option}`" in rows[name], (
                f"docs/environments.md options row of {name} lacks {option}")
