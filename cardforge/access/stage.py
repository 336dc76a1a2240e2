"""The accessibility stage: every face of a prepared game drawn and measured (drawn.py), each face's
result kept in the disk cache like the fit pass's (render/facecache.py), then reported at the
layout lines: contrast (contrast.py), colour vision and colour alone (categories.py)."""
from __future__ import annotations

import hashlib

from .. import diskcache
from ..diagnostics import Report
from ..render.facecache import face_memo
from .categories import report_categories
from .contrast import report_contrast
from .drawn import FaceToDraw, draw_faces, MEASURING_CODE

KIND = "face-access"
BATCH = 40  # faces per PDF: a batch's pictures are held at once


class Face:
    """One measured face: where it is (its layout, piece and side) and what was found on it."""

    def __init__(self, todo: FaceToDraw, result: dict):
        self.layout, self.piece, self.side = todo.layout, todo.piece, todo.side
        self.result = result

    @property
    def label(self) -> str:
        return self.piece.id if self.side == "front" or not hasattr(self.piece, "deck") else f"{self.piece.id} ({self.side})"


def faces_of(prep) -> list[FaceToDraw]:
    """Every face the kit prints once: each card's sides (a view deck's reprints once) and each
    board and reference sheet."""
    seen, out = set(), []
    for card in prep.game.cards():
        for side in ("front", "back"):
            layout = prep.faces.get((card.id, side))
            if layout is None or (id(layout), card.id, side) in seen:
                continue
            seen.add((id(layout), card.id, side))
            out.append(FaceToDraw(layout, card, side, card.deck.bleed, card.deck.shape))
    for board in prep.game.boards:
        layout = prep.boards.get(board.id)
        if layout is not None:
            out.append(FaceToDraw(layout, board, "front", prep.game.bleed, "rect"))
    return out


def measured_faces(prep) -> list[Face]:
    """Every face with its measurement: from the disk cache where the face is unchanged, else drawn."""
    memo = face_memo(prep.game, prep.fonts, prep.icons)
    salt = diskcache.fingerprint(MEASURING_CODE, "pypdfium2", "PIL")  # the key of the fit pass, and how faces are measured
    todo = faces_of(prep)
    keys, results = [], []
    for face in todo:
        fit_key = memo.key("face-fit", face.layout, face.piece, face.side, 1, face.shape, face.bleed)
        key = None if fit_key is None else hashlib.sha256(salt + fit_key.encode()).hexdigest()
        keys.append(key)
        results.append(memo.get(KIND, key))
    missing = [i for i, result in enumerate(results) if not _usable(result)]
    for start in range(0, len(missing), BATCH):
        batch = missing[start:start + BATCH]
        for i, found in zip(batch, draw_faces(prep, [todo[i] for i in batch])):
            results[i] = found.result()
            memo.put(KIND, keys[i], results[i])
    memo.flush(KIND)
    return [Face(face, result) for face, result in zip(todo, results)]


def _usable(result) -> bool:
    return isinstance(result, dict) and isinstance(result.get("runs"), list) \
        and isinstance(result.get("colours"), dict) and isinstance(result.get("cues"), dict)


def check_access(prep, report: Report) -> None:
    """The three checks of a prepared game, as warnings at the layouts' lines."""
    faces = measured_faces(prep)
    report_contrast(faces, report)
    report_categories(faces, report)
