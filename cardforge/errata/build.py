"""`cardforge build --errata OLD`: the errata sheet, beside the kit in <out>/<game>/errata/.

Per paper, one PDF: the changelog pages first (the shipped `errata-changelog` layout), then the new
and changed pieces only, drawn, imposed, backed and verified by the ordinary build (output/build.py)
from a prepared game narrowed to them (reprint.py), each with its version mark.  The changelog is
also written as Markdown and JSON.  The errata/ folder replaces the previous one whole, and the
rest of the game's output (the kit) stays as it is.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ..diagnostics import Report
from ..gctuning import drawing_gc
from ..output.build import BuildResult, _Counter, build_paper, commit, replacing_folder
from ..output.docpage import layout_page
from ..output.pages import PAPERS, PrintOptions, count_faces
from . import changelog
from .reprint import CHANGELOG_LAYOUT, changelog_pages, reprint_only
from .run import diff_games

FOLDER = "errata"


@dataclasses.dataclass
class ErrataResult(BuildResult):
    summary: str = ""


def build_errata(game_dir: Path, out_dir: Path, old: str, papers=PAPERS, layouts_dir: Path | None = None,
                 progress=None, flip: str = "long", back_offset=(0.0, 0.0), imposition: str = "bleed") -> ErrataResult:
    """Compare the game folder with OLD and write its errata sheet. Raises VersionError."""
    report = Report()
    result = ErrataResult(report)
    found = diff_games(old, str(game_dir), layouts_dir)
    report.extend(found.report)
    if found.diff is None:
        return result
    diff = found.diff
    prep = reprint_only(found.new, diff)
    result.game, result.summary = prep.game, changelog.counts(diff) if not diff.empty() else "no changes"
    pages_data = changelog_pages(diff, prep.game.version_mark.text)
    folder = Path(out_dir) / FOLDER
    counter = _Counter(progress, sum(count_faces(prep, paper) for paper in papers))
    staged: list[tuple[Path, Path]] = []
    with replacing_folder(Path(out_dir), Path(game_dir).resolve().name) as replacement:
        stage = replacement.stage / FOLDER
        stage.mkdir()

        def opening(paper: str):
            return lambda final: [layout_page(paper, "changelog", f"Errata: what changed ({n} of {len(pages_data)})",
                                              CHANGELOG_LAYOUT, lambda data=data: data, name="What changed",
                                              header_key="changelog")
                                  for n, data in enumerate(pages_data, start=1)]

        with drawing_gc():
            for paper in papers:
                options = PrintOptions(paper, "duplex", flip, back_offset, imposition)
                staged += build_paper(prep, folder, options, report, counter, True, stage,
                                      opening=opening(paper), kit_name=FOLDER)
                if report.has_errors():
                    return result
        for name, text in ((f"{prep.game.id}-changelog.md", changelog.markdown(diff)),
                           (f"{prep.game.id}-changelog.json", changelog.as_json(diff))):
            tmp = stage / (name + ".tmp")
            tmp.write_text(text, "utf-8")
            staged.append((tmp, folder / name))
        result.outputs = commit(staged, replacement)
    return result
