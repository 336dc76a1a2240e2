"""`cardforge check --printed OLD.pdf`: the data as it is now against an earlier build."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..diagnostics import ContentError, Report, display_path
from ..prepare import prepare
from .verifier import Verifier


class PrintedUsageError(Exception):
    """The PDF or its game cannot be found: a usage error, not a content error."""


def find_game(pdf: Path, games: list[Path]) -> tuple[Path, dict | None]:
    """The game folder a printed PDF belongs to: one of `games`, or content/<game id>."""
    manifest_path = pdf.with_suffix(".manifest.json")
    manifest = None
    try:
        manifest = json.loads(manifest_path.read_text("utf-8"))
    except (OSError, ValueError):
        pass
    game_id = manifest.get("game") if isinstance(manifest, dict) else None
    if len(games) == 1:
        return games[0], manifest
    for game in games:
        if game.resolve().name == game_id:
            return game, manifest
    if game_id:
        for base in (Path("content"), pdf.resolve().parent.parent.parent / "content"):
            if (base / game_id / "game.yaml").is_file():
                return base / game_id, manifest
    raise PrintedUsageError(f"cannot tell which game {pdf} was built from; name its folder: "
                            f"cardforge check GAME_DIR --printed {pdf}")


def check_printed(pdfs: list[Path], games: list[Path], layouts_dir: Path | None, report: Report) -> None:
    """`cardforge check --printed PDF...`: the data as it is now against earlier builds."""
    prepared: dict[tuple, Any] = {}
    for pdf in map(Path, pdfs):
        if not pdf.is_file():
            raise PrintedUsageError(f"{pdf}: no such PDF")
        game_dir, manifest = find_game(pdf, games)
        if manifest is None:
            report.error("E-PRINTED-MANIFEST", f"{display_path(pdf, None)}: its manifest "
                         f"{pdf.with_suffix('.manifest.json').name} is missing or unreadable", None,
                         help="`cardforge build` writes it next to the PDF; check a PDF together with its manifest")
            continue
        lang = manifest.get("lang") if isinstance(manifest.get("lang"), str) else None  # a translation's kit
        ink_saver = manifest.get("ink_saver") is True  # `build --ink-saver`: drawn from other layouts
        key = (Path(game_dir).resolve(), lang, ink_saver)
        if key not in prepared:
            try:
                prep = prepare(game_dir, report, layouts_dir, lang=lang)
                if ink_saver:
                    from ..output.inksaver import apply_ink_saver
                    apply_ink_saver(prep)
                prepared[key] = Verifier(prep, report)
            except ContentError:
                prepared[key] = None
                report.error("E-PRINTED-DATA", f"the data of {display_path(Path(game_dir), None)} has errors, so "
                             "printed PDFs cannot be compared with it", None, help="fix the errors above first")
        if prepared[key] is not None:
            prepared[key].verify(pdf, manifest)
