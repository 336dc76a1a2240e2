"""The README's test command is the one CI runs (.ci/run says this test keeps them the same)."""
from __future__ import annotations

from conftest import REPO


def test_ci_runs_the_readme_test_command():
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text("utf-8").splitlines()
          if line.strip().startswith("python3 -m venv")]
    assert len(ci) == 1, ci
    command = ci[0]
    assert "pytest" in command
    readme = [line.strip() for line in (REPO / "README.md").read_text("utf-8").splitlines()]
    assert command in readme, f"README.md does not show the command CI runs: {command}"
