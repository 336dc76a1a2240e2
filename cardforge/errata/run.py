"""`cardforge diff OLD NEW`: both versions through the front end, then compared."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import ContentError, Report
from ..frontend.load import load_yaml
from ..prepare import Prepared, prepare
from .compare import GameDiff, compare
from .manifests import compare_manifests, is_manifest
from .versions import Version, VersionError, resolve_pair, scratch_folder

RULES_FILE = "rules.yaml"


@dataclass
class DiffResult:
    diff: GameDiff | None
    report: Report  # content errors of either version: nothing is compared then
    new: Prepared | None = None


def _rules(prep: Prepared, report: Report) -> dict:
    path = prep.game.root / RULES_FILE
    if not path.is_file():
        return {}
    doc = load_yaml(path, report)  # already read and checked by prepare: no new diagnostics
    return doc.data if doc is not None and isinstance(doc.data, dict) else {}


def _prepare(version: Version, layouts: Path | None, report: Report) -> Prepared | None:
    try:
        return prepare(version.folder, report, version.layouts or layouts)
    except ContentError:
        return None


def diff_games(old: str, new: str, layouts: Path | None = None, game: str | None = None) -> DiffResult:
    """Compare two versions (see versions.py for how they are written). Raises VersionError."""
    report = Report()
    if is_manifest(old) or is_manifest(new):
        if not (is_manifest(old) and is_manifest(new)):
            raise VersionError("compare two manifests (*.manifest.json of two builds), or two versions of the sources")
        return DiffResult(compare_manifests(Path(old), Path(new)), report)
    with scratch_folder() as scratch:
        old_version, new_version = resolve_pair(old, new, Path(scratch), game)
        old_prep = _prepare(old_version, layouts, report)
        new_prep = _prepare(new_version, layouts, report)
        if old_prep is None or new_prep is None:
            return DiffResult(None, report, new_prep)
        quiet = Report()  # drawing problems were reported by check already; a diff is not a check
        diff = compare(old_prep, new_prep, old_version.label, new_version.label,
                       _rules(old_prep, quiet), _rules(new_prep, quiet))
        return DiffResult(diff, report, new_prep)
