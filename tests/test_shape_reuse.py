"""A shape frame writes its operators once per document and reuses them on every face that draws
it the same (render/shapes.py): the PDFs are the very bytes drawing each one anew writes."""
from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardforge.output.build import build_game
from cardforge.render.face import CardRenderer

GAME = Path(__file__).resolve().parents[1] / "content" / "steel-rain"  # filled and stroked shapes on every record


class _Forgetful(dict):
    """A shape cache that keeps nothing: every shape is drawn anew."""

    def __setitem__(self, key, value):
        pass


def _build(out: Path, monkeypatch, keep: bool) -> tuple[dict[str, bytes], int]:
    drawn = [0]
    for name in ("rect", "roundRect"):
        original = getattr(Canvas, name)

        def counted(self, *args, _original=original, **kwargs):
            drawn[0] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(Canvas, name, counted)
    if not keep:
        original_init = CardRenderer.__init__

        def forgetful(self, *args, **kwargs):
            original_init(self, *args, **kwargs)
            self._shape_code = _Forgetful()

        monkeypatch.setattr(CardRenderer, "__init__", forgetful)
    result = build_game(GAME, out, papers=("a4",), kit=False)
    assert not result.report.has_errors(), result.report.format_text()
    monkeypatch.undo()
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.suffix == ".pdf"}, drawn[0]


def test_a_shape_written_once_prints_as_drawn_anew(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDFORGE_CACHE", "off")  # no kept faces: every face is laid out
    anew, drawn_anew = _build(tmp_path / "anew", monkeypatch, keep=False)
    monkeypatch.setenv("CARDFORGE_CACHE", "off")
    reused, drawn_reused = _build(tmp_path / "reused", monkeypatch, keep=True)
    assert sorted(anew) == sorted(reused) and len(anew) >= 3
    assert [name for name in anew if anew[name] != reused[name]] == []
    assert drawn_reused <= 0.7 * drawn_anew  # backgrounds, bands and borders: written once per PDF
