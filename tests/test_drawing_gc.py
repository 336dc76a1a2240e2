"""Builds in one process (`serve`, a worker drawing several documents) leave nothing behind:
drawing freezes the objects alive before it out of the collector, so what an earlier build left
must be collected before (gctuning.py drawing_gc).  Loading makes no cycles to collect and runs no
full collection (loading_gc)."""
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


def test_loading_yaml_leaves_no_cycles(tmp_path, monkeypatch):
    """The YAML builder's scalar constructor remembered every node it made, inside a loader that
    refers to itself: a file's whole node tree stayed alive until a full collection."""
    from cardforge.diagnostics import Report
    from cardforge.frontend.load import load_yaml
    monkeypatch.setenv("CARDFORGE_CACHE", "off")
    cards = tmp_path / "cards.yaml"
    cards.write_text("cards:\n" + "".join(f"- {{id: c{i}, title: Card {i}, cost: {i}}}\n" for i in range(300)))
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        doc = load_yaml(cards, Report())
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if type(o).__module__.startswith("yaml")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert len(doc.data["cards"]) == 300
    assert left == []


def test_loading_a_game_runs_no_full_collection(tmp_path, monkeypatch):
    """Loading keeps nearly all it makes: a full collection would walk it all again, for nothing."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "bench"))
    from cards import write_game

    from cardforge.diagnostics import Report
    from cardforge.prepare import prepare
    monkeypatch.setenv("CARDFORGE_CACHE", "off")
    write_game(tmp_path / "game", 3000)
    full: list[int] = []

    def count(phase, info):
        if phase == "stop" and info["generation"] == 2:
            full.append(info["collected"])
    gc.collect()
    gc.callbacks.append(count)
    try:
        prep = prepare(tmp_path / "game", Report())
    finally:
        gc.callbacks.remove(count)
    assert len(list(prep.game.cards())) == 3000
    assert full == []
    assert gc.get_freeze_count() == 0 and gc.get_threshold()[2] < 1000  # as it was
