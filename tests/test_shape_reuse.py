"""A shape frame, and a sheet's crop marks, are drawn once per document and their operators written
again wherever they are drawn the same (layout/facecode.py written_once): the PDFs are the very
bytes drawing each one anew writes."""
from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardforge import diskcache
from cardforge.output import pages
from cardforge.output.build import build_game
from cardforge.output.pdf import Writer
from cardforge.render.face import CardRenderer

GAME = Path(__file__).resolve().parents[1] / "content" / "steel-rain"  # filled and stroked shapes on every record


class _Forgetful(dict):
    """A shape cache that keeps nothing: every shape is drawn anew."""

    def __setitem__(self, key, value):
        pass


def _build(out: Path, monkeypatch, keep: bool) -> tuple[dict[str, bytes], int, int]:
    drawn, marked = [0], [0]
    original_marks = pages.draw_crop_marks

    def marks(*args, **kwargs):
        marked[0] += 1
        return original_marks(*args, **kwargs)

    monkeypatch.setattr(pages, "draw_crop_marks", marks)
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
        original_writer = Writer.__init__

        def forgetful_writer(self, *args, **kwargs):
            original_writer(self, *args, **kwargs)
            self.written = _Forgetful()

        monkeypatch.setattr(Writer, "__init__", forgetful_writer)
    diskcache.cache_root.cache_clear()  # CARDFORGE_CACHE=off: no faces kept by an earlier test
    diskcache._folder.cache_clear()
    try:
        result = build_game(GAME, out, papers=("a4",), kit=False)
    finally:
        diskcache.cache_root.cache_clear()
        diskcache._folder.cache_clear()
    assert not result.report.has_errors(), result.report.format_text()
    monkeypatch.undo()
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.suffix == ".pdf"}, drawn[0], marked[0]


def test_a_shape_written_once_prints_as_drawn_anew(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDFORGE_CACHE", "off")  # no kept faces: every face is laid out
    anew, drawn_anew, marked_anew = _build(tmp_path / "anew", monkeypatch, keep=False)
    monkeypatch.setenv("CARDFORGE_CACHE", "off")
    reused, drawn_reused, marked_reused = _build(tmp_path / "reused", monkeypatch, keep=True)
    assert sorted(anew) == sorted(reused) and len(anew) >= 3
    assert [name for name in anew if anew[name] != reused[name]] == []
    assert drawn_reused <= 0.7 * drawn_anew  # backgrounds, bands and borders: once per PDF
    assert 0 < marked_reused <= 0.5 * marked_anew  # a deck's sheets alike: their crop marks drawn once
