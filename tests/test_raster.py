"""Pieces as pictures (output/raster.py): the renderer's own drawing, rasterised by PDFium."""
from __future__ import annotations

import io

from PIL import Image

from cardforge.diagnostics import Report
from cardforge.output.raster import Face, face_images
from cardforge.prepare import prepare
from conftest import BOMBER


def test_a_poker_card_at_300_dpi_is_815_by_1110_pixels_with_bleed_and_744_by_1039_without():
    report = Report()
    prep = prepare(BOMBER, report)
    card = next(c for c in prep.game.cards() if c.deck.id == "crew")
    with_bleed, trim_only = (face_images(prep, [Face(card, "front")], report, dpi=300, bleed=b)[0] for b in (True, False))
    assert Image.open(io.BytesIO(with_bleed)).size == (815, 1110)  # (63 + 6) and (88 + 6) mm at 300 dpi
    assert Image.open(io.BytesIO(trim_only)).size == (744, 1039)
    assert not report.has_errors()


def test_the_picture_shows_the_card_not_a_blank_page():
    report = Report()
    prep = prepare(BOMBER, report)
    card = next(c for c in prep.game.cards() if c.deck.id == "crew")
    image = Image.open(io.BytesIO(face_images(prep, [Face(card, "front")], report, dpi=72)[0])).convert("L")
    darkest, lightest = image.getextrema()
    assert lightest - darkest > 150  # text and art, not an empty page
