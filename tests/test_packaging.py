"""One import name: the wheel installs ``meeplezoo`` and nothing else, so a user's project
with its own ``envs/`` and ``training/`` packages imports both side by side."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest
import tomllib

REPO = Path(__file__).resolve().parents[1]
MAPPED = {"meeplezoo.envs": "envs", "meeplezoo.training": "training",
          "meeplezoo.checkpoints": "checkpoints"}


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {"meeplezoo": "meeplezoo", **MAPPED}
    found = {"meeplezoo", "meeplezoo.checkpoints"}
    for prefix, folder in MAPPED.items():
        for init in (REPO / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(REPO / folder).parts
            found.add(".".join((prefix, *parts)))
    assert sorted(config["packages"]) == sorted(found)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built from a copy of the sources (the checkout gets no build/ folder)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for name in ("meeplezoo", *MAPPED.values()):
        shutil.copytree(REPO / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps",
                           "--no-build-isolation", "-w", str(tmp / "dist")],
                          cwd=source, check=True, capture_output=True, text=True, timeout=120)
    (tmp / "build.log").write_text(done.stdout + done.stderr)  # read by the warnings test
    [built] = (tmp / "dist").glob("meeplezoo-*.whl")
    return built


def test_the_wheel_builds_without_warnings_and_keeps_its_data(wheel):
    """The data folders (each shipped opponent's, the web table's static files) are package
    data, not packages: setuptools must not warn "Package would be ignored" for them, and the
    wheel must still hold every data file the package-data globs name."""
    log = (wheel.parent.parent / "build.log").read_text()
    assert "would be ignored" not in log, log
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for folder in sorted((REPO / "checkpoints").glob("*/*")):
        for path in folder.rglob("*"):
            if path.suffix in (".json", ".onnx", ".md"):
                name = f"meeplezoo/checkpoints/{path.relative_to(REPO / 'checkpoints')}"
                assert name in names, name
    for path in (REPO / "training" / "web" / "static").iterdir():
        assert f"meeplezoo/training/web/static/{path.name}" in names


def test_the_wheel_installs_one_top_level_name(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    tops = {n.split("/")[0] for n in names if ".dist-info/" not in n}
    assert tops == {"meeplezoo"}
    assert "meeplezoo/envs/hegemony/action_cards.json" in names
    assert "meeplezoo/envs/hegemony/DECKS.md" in names  # the card text of the web table
    assert "meeplezoo/training/web/static/table.js" in names  # the web table's page
    assert any(n.endswith(".dist-info/entry_points.txt") for n in names)


USER_PROJECT = textwrap.dedent("""
    import envs, training                       # the user's own packages
    import meeplezoo
    assert envs.MINE == "envs" and training.MINE == "training"
    assert meeplezoo.make("chihou_sousei_v1", num_players=3) is not None
    from meeplezoo.training.agents.opponents import load
    agent = load("necropolis_railway_v1/ppo_league")  # a shipped opponent, by zoo name
    game = meeplezoo.make_game("necropolis_railway_v1", num_players=2)
    state = game.new_initial_state(seed=1)
    assert state.legal_mask()[agent.act(state.observation(0), state.legal_mask())]
    print("ok", meeplezoo.__file__)
""")


def test_a_fresh_venv_uses_the_wheel_beside_a_projects_own_envs_and_training(wheel, tmp_path):
    """A fresh venv gets only the wheel (its dependencies are this interpreter's, through a
    ``.pth`` line, so the test needs no download); a folder with its own ``envs/`` and
    ``training/`` packages runs a script that imports both them and ``meeplezoo``."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print("
                                "sysconfig.get_paths()['purelib'])"], check=True, text=True,
                               capture_output=True).stdout.strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--no-deps", "--quiet", str(wheel)], check=True, capture_output=True,
                   timeout=120)
    project = tmp_path / "project"
    for name in ("envs", "training"):
        (project / name).mkdir(parents=True)
        (project / name / "__init__.py").write_text(f"MINE = {name!r}\n")
    (project / "main.py").write_text(USER_PROJECT)
    run = subprocess.run([str(python), "main.py"], cwd=project, text=True,
                         capture_output=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("ok ") and str(site) in run.stdout
    script = subprocess.run([str(venv / "bin" / "meeplezoo"), "zoo"], cwd=project, text=True,
                            capture_output=True, timeout=300)
    assert script.returncode == 0, script.stderr[-2000:]
    assert "hegemony_v1/ppo_classes" in script.stdout
