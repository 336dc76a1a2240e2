"""The README's Quick start works as written on a fresh copy of the checkout: the set-up of "The two
commands" in a new virtual environment, then every line of the Quick start block in one shell
(`cardforge serve`, a server that runs until stopped, is left out).  A bare `cardforge` after
creating .venv without activating it was "command not found"."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

from conftest import REPO

IGNORED = shutil.ignore_patterns(".venv", ".git", "build", "__pycache__", "*.egg-info", ".pytest_cache")


def _section(readme: str, heading: str) -> list[str]:
    """The indented (code) lines of the README section whose heading starts with `heading`."""
    text = readme.split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]
    return [line[4:] for line in text.splitlines() if line.startswith("    ") and line.strip()]


def test_the_readme_quick_start_runs_in_a_fresh_environment(tmp_path):
    readme = (REPO / "README.md").read_text("utf-8")
    [build_line] = [line for line in _section(readme, "The two commands") if "pip install -e ." in line]
    setup, sep, _ = build_line.partition(" && .venv/bin/cardforge build")
    assert sep, build_line  # the set-up, without building all five games
    quick = [re.sub(r"\s+#.*$", "", line) for line in _section(readme, "Quick start")]
    assert quick and not any(line.startswith("cardforge") for line in quick[:1]), quick  # set up before use
    script = "\n".join(["set -e", setup.replace("pip install", "pip install -q")]
                       + [line for line in quick if not line.startswith("cardforge serve")])
    clone = tmp_path / "cardforge"
    shutil.copytree(REPO, clone, ignore=IGNORED, symlinks=True)
    # as on a fresh machine: no cardforge on the PATH (an activated environment of the test run's own)
    path = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                           if d and not os.path.exists(os.path.join(d, "cardforge")))
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")} | {"PATH": path}
    result = subprocess.run(["bash", "-c", script], cwd=clone, capture_output=True, text=True, timeout=900, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "command not found" not in result.stderr
    assert (clone / "build/mygame/mygame-cards-a4.pdf").is_file()
    assert (clone / "build/mygame/mygame-cards-letter.pdf").is_file()
