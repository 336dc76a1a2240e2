"""Builds in one process (`serve`, a worker drawing several documents) leave nothing behind:
drawing freezes the objects alive before it out of the collector, so what an earlier build left
must be collected before (gctuning.py drawing_gc)."""
from __future__ import annotations

import gc
from pathlib import Path

from cardforge.output.build import build_game

GAME = Path(__file__).resolve().parents[1] / "content" / "iron-rain"


def test_builds_in_one_process_do_not_accumulate(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDFORGE_CACHE", "off")
    counts = []
    for i in range(4):
        result = build_game(GAME, tmp_path / f"out{i}", papers=("a4",), kit=False)
        assert not result.report.has_errors()
        del result
        counts.append(len(gc.get_objects()))
    assert gc.get_freeze_count() == 0  # nothing stays frozen after a build
    # Each build leaves thousands of objects in cycles; the next one collects them.
    assert counts[3] - counts[1] < 500, counts
