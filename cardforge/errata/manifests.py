"""Two builds compared without their sources: each build's manifest records a digest of every face
it printed (`face`, see render/fingerprint.recorded_digest), so the pieces whose printing changed are
found from the two manifests alone (a kit's or a component's `*.manifest.json`)."""
from __future__ import annotations

import json
from pathlib import Path

from ..limits import MAX_MANIFEST_BYTES
from .compare import GameDiff, PieceChange
from .versions import VersionError

SECTIONS = ("cards", "tokens", "boards", "references")


def is_manifest(spec: str) -> bool:
    return spec.endswith(".manifest.json") and Path(spec).is_file()


def _faces(path: Path) -> tuple[str, dict[tuple[str, str, str], dict]]:
    """(game name, {(group, id, kind): {"title", "sides": {side: sorted digests over copies}}})."""
    try:
        if path.stat().st_size > MAX_MANIFEST_BYTES:
            raise VersionError(f"{path} is larger than {MAX_MANIFEST_BYTES >> 20} MB")
        doc = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise VersionError(f"{path} is not a readable manifest: {exc}") from None
    if not isinstance(doc, dict):
        raise VersionError(f"{path} is not a cardforge manifest")
    pieces: dict[tuple[str, str, str], dict] = {}
    for section in SECTIONS:
        for record in doc.get(section) or []:
            if not isinstance(record, dict):
                continue
            board = section in ("boards", "references")
            ident = record.get("board" if board else "card")
            if ident is None or "face" not in record:
                if ident is not None:
                    raise VersionError(f"{path} has no face digests: it was written by an older cardforge; "
                                       "build both versions again, or compare their sources")
                continue
            group = section if board else str(record.get("deck", section))
            kind = {"cards": "card", "tokens": "token", "boards": "board", "references": "reference"}[section]
            entry = pieces.setdefault((group, str(ident), kind), {"sides": {}})
            entry["sides"].setdefault(record.get("side", "front"), set()).add(record["face"])
    return str(doc.get("title") or doc.get("game") or path.name), pieces


def compare_manifests(old: Path, new: Path) -> GameDiff:
    _, before = _faces(old)
    game, after = _faces(new)
    diff = GameDiff(game.split(" - ")[0], str(old), str(new), sources=False)
    for key in list(before) + [k for k in after if k not in before]:
        a, b = before.get(key), after.get(key)
        group, ident, kind = key
        change = PieceChange(kind, group, ident, ident, "changed")
        if a is None or b is None:
            change.status = "added" if a is None else "removed"
        else:
            change.drawn = [side for side in ("front", "back") if a["sides"].get(side) != b["sides"].get(side)]
            if not change.drawn:
                continue
        if b is not None:
            change.digests = {side: sorted(d)[0] for side, d in b["sides"].items()}
        diff.pieces.append(change)
    return diff
