"""`check`'s layout pass: every page planned and drawn onto a canvas that draws nothing, so that
`check` reports what `build` would (overflow, glyphs, icons, tables) without writing a PDF.
Planning (pages.py) and the writer (pdf.py) meet here rather than in either of them."""
from __future__ import annotations

from ..diagnostics import ContentError, Report
from ..prepare import Prepared
from ..render.facecache import face_memo
from .page import PrintOptions
from .pages import plan_sections
from .pdf import Writer


def lay_out(prep: Prepared, report: Report, options: PrintOptions | None = None) -> None:
    """Every page laid out without output, so that `check` reports what `build` would."""
    pages = [page for _, section in plan_sections(prep, options or PrintOptions(), report, measure=False) for page in section]
    if not report.has_errors():
        Writer(prep, None, "check", report, None, 0).write(pages)
        face_memo(prep.game, prep.fonts, prep.icons).flush("face-fit")  # for the next check


def lay_out_despite(failure: ContentError, report: Report) -> None:
    """After the front end's errors, the cards it could read laid out all the same (without output):
    their overflow, glyph and icon errors join the report, so every error comes at once. A face
    that reads a field with a schema error is left out by the renderer (reported already)."""
    if failure.prepared is None:
        return
    extra = Report()
    try:
        pages = [page for _, section in plan_sections(failure.prepared, PrintOptions(), extra, measure=False) for page in section]
        Writer(failure.prepared, None, "check", extra, None, 0).write(pages)
        face_memo(failure.prepared.game, failure.prepared.fonts, failure.prepared.icons).flush("face-fit")
    except ContentError:
        pass
    known = {(d.code, d.message) for d in report.items}
    for item in extra.items:
        if (item.code, item.message) not in known:
            report.items.append(item)
