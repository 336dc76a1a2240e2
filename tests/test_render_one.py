"""Looking at one thing: `cardforge render` writes one face as a PNG, `build --only` builds a deck
or a card alone, and `--outline` draws frame boxes, the safe zone, the trim and the bleed.
Each is read back from the file written: pixels of the PNG, pages and drawn boxes of the PDF."""
from __future__ import annotations

import pdfplumber
from PIL import Image

from conftest import cardforge, make_game

MM = 72 / 25.4
MAGENTA, GREEN, BLUE, RED = (217, 0, 191), (0, 153, 51), (0, 89, 230), (230, 0, 0)


def _near(pixel, colour, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour))


def test_render_writes_one_face_at_the_zoom_asked(tmp_path):
    make_game(tmp_path)
    result = cardforge("render", "content/tiny", "beta", "--zoom", "2", "--out", "beta.png", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wrote beta.png (192 dpi)" in result.stderr
    image = Image.open(tmp_path / "beta.png")
    # a poker card (63 x 88 mm) with 3 mm of bleed each side, at 192 dpi
    assert image.size == (round(69 / 25.4 * 192), round(94 / 25.4 * 192))
    assert image.getextrema() != ((255, 255), (255, 255), (255, 255))  # not blank: the title is drawn


def test_render_back_without_bleed_at_a_dpi(tmp_path):
    make_game(tmp_path)
    result = cardforge("render", "content/tiny", "alpha", "--side", "back", "--dpi", "100", "--no-bleed",
                       "--out", "out/back.png", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert Image.open(tmp_path / "out/back.png").size == (round(63 / 25.4 * 100), round(88 / 25.4 * 100))


def test_render_an_unknown_card_is_a_usage_error_with_did_you_mean(tmp_path):
    make_game(tmp_path)
    result = cardforge("render", "content/tiny", "alhpa", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "cardforge: error: no card, token or board 'alhpa' in content/tiny; did you mean 'alpha'?"
    assert not list(tmp_path.glob("*.png"))


def test_render_outline_draws_frames_safe_zone_trim_and_bleed(tmp_path):
    make_game(tmp_path)
    result = cardforge("render", "content/tiny", "alpha", "--dpi", "254", "--outline", "--out", "a.png", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    image = Image.open(tmp_path / "a.png").convert("RGB")  # 10 px per mm; the trim starts at 3 mm (30 px)
    mid_y = image.height // 2
    row = [image.getpixel((x, mid_y)) for x in range(image.width)]
    def first(colour, start=0):
        return next(x for x in range(start, image.width) if _near(row[x], colour))
    assert first(RED) <= 1  # the bleed edge
    assert abs(first(BLUE) - 30) <= 2  # the trim, 3 mm in
    assert abs(first(GREEN) - 60) <= 2 or abs(first(GREEN, 40) - 60) <= 2  # the safe zone, 3 mm inside the trim
    assert abs(first(MAGENTA) - 70) <= 2  # the text frame at x = 4 mm (+ 3 mm of bleed)
    plain = cardforge("render", "content/tiny", "alpha", "--dpi", "254", "--out", "b.png", cwd=tmp_path)
    assert plain.returncode == 0
    plain_row = [Image.open(tmp_path / "b.png").convert("RGB").getpixel((x, mid_y)) for x in range(image.width)]
    assert not any(_near(p, MAGENTA) or _near(p, RED) for p in plain_row)


def test_render_uses_the_games_safe_zone(tmp_path):
    make_game(tmp_path, game_yaml=__import__("conftest").GAME_YAML + "version_mark: {safe: 5mm}\n")
    result = cardforge("render", "content/tiny", "alpha", "--dpi", "254", "--outline", "--no-bleed", "--out", "a.png",
                       cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    image = Image.open(tmp_path / "a.png").convert("RGB")
    column = [image.getpixel((image.width // 2 + dx, y)) for dx in (0, 3, 6) for y in range(80)]
    greens = [i % 80 for i, p in enumerate(column) if _near(p, GREEN)]
    assert greens and abs(min(greens) - 50) <= 2, greens  # 5 mm from the top of the trim


def _pages(pdf):
    with pdfplumber.open(pdf) as doc:
        return [(page.extract_text() or "", page.rects) for page in doc.pages]


def test_build_only_a_card_builds_that_card_alone_into_preview(tmp_path):
    make_game(tmp_path)
    result = cardforge("build", "content/tiny", "--only", "beta", "--paper", "a4", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "build/tiny").exists()  # the full kit's folder is not touched
    # a proof of that card alone, in a folder of its own: no cover, guide or other component PDFs
    folder = tmp_path / "build/preview/only-beta/tiny"
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["tiny-proof-a4.pdf"]
    fronts = [text for text, _ in _pages(folder / "tiny-proof-a4.pdf")]
    assert any("Beta" in text for text in fronts)
    assert not any("Alpha" in text for text in fronts)


def test_build_only_an_unknown_id_is_a_usage_error_with_did_you_mean(tmp_path):
    make_game(tmp_path)
    result = cardforge("build", "content/tiny", "--only", "mian", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == ("cardforge: error: --only mian: no deck, card, board or template of that id in "
                                     "content/tiny; did you mean 'main'?")


def test_build_outline_draws_the_boxes_into_the_pdf(tmp_path):
    make_game(tmp_path)
    for flags, out in (([], "plain"), (["--outline"], "outlined")):
        result = cardforge("build", "content/tiny", "--only", "main", "--paper", "a4", "--out", out, *flags,
                           cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    def boxes(out):
        _, rects = _pages(tmp_path / out / "tiny/tiny-proof-a4.pdf")[0]
        return {(round(r["width"] / MM, 1), round(r["height"] / MM, 1)) for r in rects
                if r.get("stroking_color") is not None}
    outlined = boxes("outlined") - boxes("plain")
    assert (55.0, 8.0) in outlined  # the title frame, 55 x 8 mm
    assert (63.0, 88.0) in outlined  # the trim
    assert (57.0, 82.0) in outlined  # the safe zone, 3 mm inside the trim
    assert any(abs(w - 69) < 0.3 and abs(h - 94) < 0.3 for w, h in outlined)  # the bleed edge


def test_serve_outline_draws_on_the_preview_pictures(tmp_path):
    """`serve --outline`: the pictures the page shows carry the outlines; without it they do not."""
    import io
    from cardforge.serve.session import Session
    game = make_game(tmp_path)
    pictures = {}
    for outline in (False, True):
        session = Session(game, None, dpi=127, outline=outline)  # 5 px per mm
        session.refresh()
        key = next(k for k in session.images if k.startswith("card/alpha"))
        pictures[outline] = Image.open(io.BytesIO(session.image(key))).convert("RGB")
    def magenta(image):  # a hairline at 127 dpi is blended with the paper: pink rather than pure magenta
        return sum(r - g > 60 and b - g > 60 for y in range(0, image.height, 7) for x in range(image.width)
                   for r, g, b in [image.getpixel((x, y))])
    assert magenta(pictures[True]) > 50
    assert magenta(pictures[False]) == 0
