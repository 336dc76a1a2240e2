"""The asset check evaluates a layout of literal values (a deck's back) once, not once per card,
and still reports what is wrong on every card that prints it (rules/builtin.py check_assets)."""
from __future__ import annotations

import sys
from pathlib import Path

from cardforge.diagnostics import ContentError, Report
from cardforge.prepare import prepare
from cardforge.render.evaluate import FaceEvaluator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from cards import write_game  # noqa: E402  (the benches' generated deck)


def test_a_literal_back_is_evaluated_once_and_reported_on_every_card(tmp_path, monkeypatch):
    game = tmp_path / "game"
    write_game(game, 12)
    back = game / "layouts" / "bench-back.yaml"
    back.write_text(back.read_text() + "  badge: {type: icon, icon: no-such-icon, x: 5mm, y: 60mm, "
                    "width: 8mm, height: 8mm}\n")
    evaluated = []
    original = FaceEvaluator.named

    def named(self, layout, piece, side):
        evaluated.append((layout.name, piece.id))
        return original(self, layout, piece, side)

    monkeypatch.setattr(FaceEvaluator, "named", named)
    monkeypatch.setenv("CARDFORGE_CACHE", "off")
    report = Report()
    try:
        prepare(game, report)
    except ContentError:
        pass
    assert [e for e in evaluated if e[0] == "bench-back"] == [("bench-back", "card-1")]
    assert len([e for e in evaluated if e[0] == "bench-card"]) == 12
    unknown = [d for d in report.items if d.code == "E-UNKNOWN-ICON"]
    assert [d.card for d in unknown] == [f"card-{i}" for i in range(1, 13)]
    assert "frame 'badge' of layout 'bench-back': unknown icon 'no-such-icon'" in unknown[0].message
