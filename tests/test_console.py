"""The terminal: a reader who closes the pipe early (`cardforge build | head -3`) has seen what they
wanted; the build still runs to its end and says nothing about the closed pipe."""
from __future__ import annotations

import os
import subprocess
import sys

from conftest import REPO


def _closed_pipe() -> int:
    """The writing end of a pipe whose reader has already gone (as after `head` has its lines)."""
    read, write = os.pipe()
    os.close(read)
    return write


def test_a_build_whose_reader_has_left_runs_to_its_end(tmp_path):
    game = tmp_path / "mygame"
    subprocess.run([sys.executable, "-m", "cardforge", "new", str(game)], check=True, capture_output=True)
    gone = _closed_pipe()
    try:
        code = subprocess.run([sys.executable, "-m", "cardforge", "build", str(game), "--out", str(tmp_path / "out")],
                              stdout=gone, stderr=gone, cwd=REPO, timeout=300).returncode
    finally:
        os.close(gone)
    assert code == 0
    pdfs = sorted(p.name for p in (tmp_path / "out" / "mygame").glob("*.pdf"))
    assert "mygame-kit-a4.pdf" in pdfs and "mygame-kit-letter.pdf" in pdfs, pdfs


def test_a_check_whose_reader_has_left_keeps_its_exit_code(tmp_path):
    game = tmp_path / "mygame"
    subprocess.run([sys.executable, "-m", "cardforge", "new", str(game)], check=True, capture_output=True)
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("cost: 3", "cost: 9"), "utf-8")
    gone = _closed_pipe()
    try:
        code = subprocess.run([sys.executable, "-m", "cardforge", "check", str(game)], stdout=gone, stderr=gone,
                              cwd=REPO, timeout=300).returncode
    finally:
        os.close(gone)
    assert code == 1  # the content error, not a usage error about the pipe
