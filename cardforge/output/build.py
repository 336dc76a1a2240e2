"""The pipeline: load -> validate -> model -> layouts -> render + impose -> write.

`build_game` compiles one game folder into PDFs and their manifests.  Nothing is
written unless every stage succeeded: PDFs go to temporary files that are renamed
over the previous output only at the very end, so a failed build leaves the
last good kit untouched.  Output is deterministic (reportlab's invariant mode,
sorted iteration), so the same input gives the same bytes.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import ContentError, Report
from ..frontend.model import Game
from ..prepare import prepare
from ..verify import Verifier
from .pages import _faces, cover_page, plan_sections
from .pdf import Progress, Writer

PAPERS = ("a4", "letter")
MODES = ("duplex", "simplex", "fold")


@dataclass
class BuildResult:
    report: Report
    outputs: list[Path] = field(default_factory=list)
    game: Game | None = None


def build_game(game_dir: Path, out_dir: Path, papers=PAPERS, mode: str = "duplex",
               layouts_dir: Path | None = None, progress: Progress | None = None,
               kit: bool = True) -> BuildResult:
    """Compile a game: per paper size one PDF per component kind, and (with `kit`) the whole kit."""
    report = Report()
    result = BuildResult(report)
    try:
        prep = prepare(game_dir, report, layouts_dir)
    except ContentError:
        return result
    result.game = prep.game
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    suffix = "" if mode == "duplex" else f"-{mode}"
    staged: list[tuple[Path, Path]] = []
    verifier = Verifier(prep, report, fresh=True)
    try:
        for paper in papers:
            sections = plan_sections(prep, paper, mode, report)
            jobs = [(section, pages) for section, pages in sections]
            if kit and sections:
                jobs.append(("kit", [cover_page(prep, paper, sections)] + [p for _, ps in sections for p in ps]))
            for name, pages in jobs:
                if report.has_errors():
                    break
                final = out_dir / f"{prep.game.id}-{name}-{paper}{suffix}.pdf"
                tmp = final.with_name(final.name + ".tmp")
                title = f"{prep.game.name} - {name} ({paper.upper()}, {mode})"
                writer = Writer(prep, tmp, title, report, progress, _faces(prep, None if name == "kit" else name))
                manifest = writer.write(pages)
                manifest.update(paper=paper, mode=mode)
                if report.has_errors():
                    tmp.unlink(missing_ok=True)
                    break
                # Read the PDF back before it may replace anything: its text, icons and fonts
                # must be what the data produced (see verify.py).
                verifier.verify(tmp, manifest, shown_as=final)
                staged.append((tmp, final))
                if report.has_errors():
                    break
                mtmp = final.with_suffix(".manifest.json.tmp")
                mtmp.write_text(json.dumps(manifest, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n",
                                "utf-8")
                staged.append((mtmp, final.with_suffix(".manifest.json")))
        if report.has_errors():
            return result
        for tmp, final in staged:
            os.replace(tmp, final)
            result.outputs.append(final)
        staged.clear()
        return result
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
