"""`cardforge export png`: one picture per card face and back, named by deck, card id and copy.

    <out>/<deck>/<card id>-<copy>-front.png     every copy of every card and token
    <out>/<deck>/<card id>-<copy>-back.png      when the piece has a back
    <out>/boards/<board id>.png                 boards and reference sheets

The pictures come from output/raster.py (the PDF renderer, rasterised by PDFium), the same code
as the live preview, at `dpi` (300 by default, as print shops ask) with or without the bleed.
"""
from __future__ import annotations

from pathlib import Path

from ..diagnostics import ContentError, Report
from ..limits import MAX_RASTER_PIXELS, limit_message
from ..output.raster import Face, face_geometry, face_images, faces_pdf, raster_pixels
from ..prepare import Prepared
from .staging import Staging

BATCH = 24  # faces drawn into one in-memory PDF at a time (bounds memory at high dpi)


def card_faces(prep: Prepared, decks: list[str] | None = None, copies: bool = True) -> list[tuple[str, Face]]:
    """(file name, face) of every card and token face and back, decks in game order."""
    named = []
    for deck in prep.game.decks:
        if decks and deck.id not in decks:
            continue
        for card in deck.cards:
            for copy in range(1, (card.quantity if copies else 1) + 1):
                for side in ("front", "back"):
                    if prep.faces.get((card.id, side)) is not None:
                        named.append((f"{deck.id}/{card.id}-{copy}-{side}.png", Face(card, side, copy)))
    return named


def board_faces(prep: Prepared) -> list[tuple[str, Face]]:
    return [(f"boards/{board.id}.png", Face(board, "front")) for board in prep.game.boards
            if prep.boards.get(board.id) is not None]


def _within_limit(prep: Prepared, face: Face, dpi: float, bleed: bool, report: Report) -> bool:
    """A picture's pixels are bounded before it is drawn: a 3000 mm board at 1200 dpi is 20 billion."""
    piece = face.piece
    width, height = (piece.width, piece.height) if face.is_board else (piece.deck.width, piece.deck.height)
    extra = 2 * face_geometry(prep, face)[1] if bleed else 0
    pixels = raster_pixels(width + extra, height + extra, dpi)
    if pixels <= MAX_RASTER_PIXELS:
        return True
    where = piece.pos() if face.is_board else piece.pos("id")
    report.error("E-LIMIT", f"the picture of {getattr(piece, 'name', None) or piece.id} at {dpi:g} dpi would be "
                 + limit_message(f"{pixels // 1_000_000} million pixels",
                                 f"{MAX_RASTER_PIXELS // 1_000_000} million pixels per picture"), where,
                 help="choose a lower --dpi, or split the board into parts")
    return False


def export_png(prep: Prepared, out_dir: Path, report: Report, dpi: float = 300, bleed: bool = False,
               decks: list[str] | None = None, progress=None) -> list[Path]:
    """Write every picture into `out_dir` (replaced as a whole only when all were drawn)."""
    named = [(name, face) for name, face in card_faces(prep, decks) + ([] if decks else board_faces(prep))
             if _within_limit(prep, face, dpi, bleed, report)]
    written = []
    with Staging(out_dir) as tmp:
        for start in range(0, len(named), BATCH):
            batch = named[start:start + BATCH]
            if report.has_errors():  # nothing will be written: drawn for its diagnostics, never rasterised
                faces_pdf(prep, [face for _, face in batch], report, bleed)
            else:
                images = face_images(prep, [face for _, face in batch], report, dpi=dpi, bleed=bleed)
                for (name, _), image in zip(batch, images):
                    path = tmp / name
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(image)
                    written.append(out_dir / name)
            if progress:
                progress(start + len(batch), len(named))
        if report.has_errors():
            raise ContentError(report)  # the previous pictures stay
    return written
