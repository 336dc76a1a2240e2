"""The broken card can be seen: text that does not fit is drawn as far as it goes and marked in
red (render/overset.py) in `render`, `serve`, `--outline` and the previews, while the error is kept
and the kit is still refused; `build --proof` (and `--only`) is the pieces' sheets alone.

A game made by `cardforge new` with one card's text made too long, read back as the user sees it:
the PNG's pixels, the diagnostic line, the PDF's pages and words, the page in Chromium."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from conftest import cardforge, headlines

LONG = ("Deal **3** damage to one opponent next to you. " + "The goblins cheer and the cave shakes. " * 16
        + "Nobody reads this far.")
# layouts/front.yaml of `cardforge new`: the text frame, from the trim's top-left, in mm
TEXT_FRAME = (6, 27, 51, 48)
BLEED = 3  # game.yaml of `cardforge new`: bleed: 3mm
HEADLINE = ("cards/cards.yaml:14:648: error[E-TEXT-OVERFLOW]: card 'heavy-blow' (front), frame 'text' of layout "
            "'front': text needs 18 lines (53.3 mm) at the minimum size 7 pt but the frame is 48.0 mm high: 5.3 mm "
            "(2 lines) did not fit, from 'goblins cheer and the cave shakes. Nobody reads this far.'")


def _new_game(tmp_path: Path, overflow: bool = True) -> Path:
    assert cardforge("new", "goblins", cwd=tmp_path).returncode == 0
    game = tmp_path / "goblins"
    if overflow:
        cards = game / "cards" / "cards.yaml"
        text = cards.read_text("utf-8")
        old = 'text: "Deal **3** damage to one opponent next to you."'
        assert old in text
        cards.write_text(text.replace(old, f'text: "{LONG}"'), "utf-8")
    return game


def _red(pixel) -> bool:
    r, g, b = pixel[:3]
    return r > 170 and g < 90 and b < 90


def _dark(pixel) -> bool:  # ink at print resolution
    return sum(pixel[:3]) < 200


def test_render_of_an_overflowing_card_writes_the_png_with_the_overflow_marked_and_exits_1(tmp_path):
    game = _new_game(tmp_path)
    result = cardforge("render", "heavy-blow", "--dpi", "254", cwd=game)  # 10 pixels per mm
    assert result.returncode == 1, result.stderr
    assert headlines(result.stderr) == [HEADLINE]
    # the caret under the first word cut off, in the card's text field (line 14), not under its id
    source, caret = result.stderr.splitlines()[2:4]
    assert source.startswith("14 | ...") and "Nobody reads" in source  # the long line cut around the caret
    assert source[caret.index("^"):].startswith("goblins cheer and the cave shakes. Nobody")
    assert "wrote build/render/heavy-blow-front.png (254 dpi), with the text that does not fit marked in red" \
        in result.stdout
    image = Image.open(game / "build/render/heavy-blow-front.png").convert("RGB")
    x, y, w, h = ((v + (BLEED if i < 2 else 0)) * 10 for i, v in enumerate(TEXT_FRAME))
    inside = [image.getpixel((px, py)) for px in range(x + 5, x + w - 5, 2) for py in range(y + 5, y + h - 5, 2)]
    assert sum(map(_dark, inside)) > 0.05 * len(inside)  # the text is set in the frame, not left out
    left_edge = [image.getpixel((px, y + h // 2)) for px in range(x - 4, x + 2)]
    assert any(map(_red, left_edge))  # the frame's red edge
    corner = [image.getpixel((px, py)) for px in range(x + w - 20, x + w + 20) for py in range(y + h - 10, y + h + 20)]
    assert sum(map(_red, corner)) > 200  # the overset mark, a red square over the bottom-right corner
    below = [image.getpixel((px, py)) for px in range(x, x + w - 30) for py in range(y + h + 3, y + h + 40)]
    assert sum(map(_red, below)) > 50  # the words cut off, in red below the frame


def test_render_of_a_card_that_fits_shows_no_red(tmp_path):
    game = _new_game(tmp_path)
    result = cardforge("render", "lantern", "--dpi", "127", "--out", "lantern.png", cwd=game)
    assert result.returncode == 0, result.stderr
    assert "error" not in result.stderr
    image = Image.open(game / "lantern.png").convert("RGB")
    x, y, w, h = ((v + (BLEED if i < 2 else 0)) * 5 for i, v in enumerate(TEXT_FRAME))
    assert not any(_red(image.getpixel((px, y + h // 2))) for px in range(x - 3, x + 3))


def test_the_kit_is_still_refused_and_the_outlined_preview_is_written_with_the_overflow(tmp_path):
    game = _new_game(tmp_path)
    kit = cardforge("build", "--paper", "a4", cwd=game)
    assert kit.returncode == 1
    assert headlines(kit.stderr) == [HEADLINE]
    assert "build failed; previous output left untouched" in kit.stderr
    assert not list((game / "build").glob("goblins/*.pdf"))
    outlined = cardforge("build", "--outline", "--paper", "a4", cwd=game)
    assert outlined.returncode == 1  # the error is kept
    assert headlines(outlined.stderr) == [HEADLINE]
    assert "the kit is not built until they are fixed" in outlined.stderr
    pdf = game / "build/preview/outline/goblins/goblins-kit-a4.pdf"
    with pdfplumber.open(pdf) as doc:
        words = [(page.page_number, w["text"]) for page in doc.pages for w in page.extract_words()]
    texts = [t for _, t in words]
    assert "Nobody" in texts  # the cut words are printed, below the frame
    # --outline names each frame, on each of the 6 cards
    assert sum("footer" in t for t in texts) >= 6 and sum("title" in t for t in texts) >= 6, texts


def test_a_card_of_two_copies_that_overflows_is_refused_in_every_build(tmp_path):
    """The lantern has 2 copies, which report their overflow once: the second copy's face, drawn
    without reporting, is not kept for the next build (it would come back without its error)."""
    game = _new_game(tmp_path, overflow=False)
    cards = game / "cards" / "cards.yaml"
    old = '"Keep this card. While you hold it, you may look at the top card of the deck."'
    cards.write_text(cards.read_text("utf-8").replace(old, '"' + "Keep this card. " * 60 + '"'), "utf-8")
    cache = {"CARDFORGE_CACHE": str(tmp_path / "cache")}
    for _ in range(2):
        result = cardforge("build", "--paper", "a4", "--jobs", "1", cwd=game, env=cache)
        assert result.returncode == 1
        assert [line.split(": error")[1][:17] for line in headlines(result.stderr)] == ["[E-TEXT-OVERFLOW]"]


def test_outline_names_each_frame_at_its_box(tmp_path):
    game = _new_game(tmp_path, overflow=False)
    result = cardforge("build", "--only", "lantern", "--outline", "--paper", "a4", "--mode", "simplex", cwd=game)
    assert result.returncode == 0, result.stderr
    pdf = game / "build/preview/only-lantern-outline/goblins/goblins-proof-a4-simplex.pdf"
    mm = 72 / 25.4
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        words = page.extract_words()
        trims = [r for r in page.rects if abs(r["width"] - 63 * mm) < 0.5 and abs(r["height"] - 88 * mm) < 0.5]
    assert trims
    trim = trims[0]
    # layouts/front.yaml of `cardforge new`: x, y, width of three frames, in mm from the trim's top-left
    for name, (fx, fy, fw) in (("title", (17, 5.5, 40.5)), ("text", TEXT_FRAME[:3]), ("footer", (6, 78.5, 51))):
        found = [w for w in words if w["text"] == name]
        assert found, name
        # the name at the top of the frame's box, at its left corner (title: beside the tabs of the
        # frames cost-disc and cost, whose corner is the same); pdfplumber measures from the page's top
        left, top = trim["x0"] + fx * mm, trim["top"] + fy * mm
        assert any(left - 0.5 < w["x0"] < left + (3 * mm if name != "title" else fw * mm) and
                   abs(w["top"] - top) < 2 * mm for w in found), (name, found, trim)


def test_the_outline_and_only_previews_do_not_overwrite_each_other(tmp_path):
    game = _new_game(tmp_path, overflow=False)
    for flags in (["--outline"], ["--only", "lantern"], ["--proof"]):
        result = cardforge("build", "--paper", "a4", *flags, cwd=game)
        assert result.returncode == 0, result.stderr
    preview = game / "build/preview"
    assert sorted(p.relative_to(preview).as_posix() for p in preview.glob("*/goblins/*.pdf")) == [
        "only-lantern/goblins/goblins-proof-a4.pdf",
        "outline/goblins/goblins-cards-a4.pdf",
        "outline/goblins/goblins-guide-a4.pdf",
        "outline/goblins/goblins-kit-a4.pdf",
        "proof/goblins/goblins-proof-a4.pdf",
    ]


def _page_kinds(pdf: Path) -> list[str]:
    with pdfplumber.open(pdf) as doc:
        return [page.extract_text() or "" for page in doc.pages]


def test_a_proof_has_the_cards_alone(tmp_path):
    game = _new_game(tmp_path, overflow=False)
    full = cardforge("build", "--paper", "a4", cwd=game)
    assert full.returncode == 0, full.stderr
    result = cardforge("build", "--proof", "--paper", "a4", "-v", cwd=game)
    assert result.returncode == 0, result.stderr
    assert "wrote build/preview/proof/goblins/goblins-proof-a4.pdf" in result.stdout
    kit = _page_kinds(game / "build/goblins/goblins-kit-a4.pdf")
    proof = _page_kinds(game / "build/preview/proof/goblins/goblins-proof-a4.pdf")
    # the kit opens with its cover, guide and alignment test; the proof has none of them
    assert any("Print and assembly guide" in text for text in kit)
    assert any("alignment" in text.lower() for text in kit)
    for text in proof:
        assert "guide" not in text.lower() and "alignment" not in text.lower() and "WHAT THE GAME NEEDS" not in text
    # every card of the game is on it (5 titles, the lantern twice), fronts and the deck's backs
    fronts = " ".join(proof)
    for title in ("QUICK STEP", "HEAVY BLOW", "LANTERN", "HEALING HERBS", "STORM"):
        assert title in fronts, title
    assert fronts.count("LANTERN") == 2
    assert len(proof) < len(kit) - 3
    with pdfplumber.open(game / "build/preview/proof/goblins/goblins-proof-a4.pdf") as doc:
        assert doc.pages[0].extract_text().count("HEAVY BLOW") == 1  # page 1 is a sheet of cards, not a cover


# -- serve, in Chromium ---------------------------------------------------------------------------

def _free_port() -> int:
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_shows_the_overflowing_face_with_its_text_and_marker_and_badges_it_alone(tmp_path):
    executable = os.environ.get("CARDFORGE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None and not os.environ.get("CI"):
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    playwright = pytest.importorskip("playwright.sync_api")
    game = _new_game(tmp_path)
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "cardforge", "serve", "--port", str(port), "--out",
                               str(tmp_path / "out")], cwd=game, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/api/state", timeout=2)
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read()
                time.sleep(0.2)
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
                page.goto(url)
                front = '.face[data-key="card/heavy-blow/front"]'
                page.wait_for_selector(f"{front} img")
                page.wait_for_function(f"document.querySelector('{front} img').complete && "
                                       f"document.querySelector('{front} img').naturalWidth > 0")
                assert page.locator(f"{front} .badge").inner_text() == "1"
                assert page.locator('.face[data-key="card/heavy-blow/back"] .badge').count() == 0
                assert page.locator(".face .badge").count() == 1  # no other face is badged
                # the pictures are current (not the stale ones), and the banner says where the errors are
                assert page.locator("body.stale").count() == 0
                assert page.locator("#drawn-banner").is_visible()
                assert "E-TEXT-OVERFLOW" in page.locator("#diagnostics").inner_text()
                shot = Image.open(io.BytesIO(page.locator(f"{front} img").screenshot())).convert("RGB")
            finally:
                browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    # the face as the page shows it: its text in the frame, the red edge and mark, the cut words
    width, height = shot.size
    scale_x, scale_y = width / (63 + 2 * BLEED), height / (88 + 2 * BLEED)  # pixels per mm
    fx, fy, fw, fh = TEXT_FRAME
    x0, y0 = (fx + BLEED) * scale_x, (fy + BLEED) * scale_y
    x1, y1 = x0 + fw * scale_x, y0 + fh * scale_y
    inside = [shot.getpixel((int(px), int(py))) for px in range(int(x0) + 3, int(x1) - 3)
              for py in range(int(y0) + 3, int(y1) - 3, 2)]
    inked = [p for p in inside if sum(p) < 550]  # text at the preview's size, blended with the paper
    assert len(inked) > 0.05 * len(inside)  # the text, not an empty box
    reds = [shot.getpixel((px, py)) for px in range(int(x0), int(x1) + int(2 * scale_x))
            for py in range(int(y1) - int(2 * scale_y), int(y1 + 8 * scale_y))]
    assert sum(map(_red, reds)) > 100  # the marker and the words cut off, below the frame


def test_serve_keeps_a_faces_overflow_while_other_cards_change_and_drops_it_once_fixed(tmp_path):
    from cardforge.serve.session import Session
    game = _new_game(tmp_path)
    session = Session(game, None, dpi=40)
    session.refresh()
    def badged():
        return {key: [d["code"] for d in view.problems] for key, view in session.pieces.items() if view.problems}
    assert badged() == {"card/heavy-blow/front": ["E-TEXT-OVERFLOW"]}  # the front alone, not its back
    assert not session.stale  # the pictures are current: the overflow is drawn on its face
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("title: Storm", "title: Big Storm"), "utf-8")
    assert session.refresh() == ["card/storm/front", "card/storm/back"]  # heavy-blow is not drawn again...
    assert badged() == {"card/heavy-blow/front": ["E-TEXT-OVERFLOW"]}  # ...and its overflow is still shown
    assert [d["code"] for d in session.diagnostics] == ["E-TEXT-OVERFLOW"]
    cards.write_text(cards.read_text("utf-8").replace(LONG, "Deal **3** damage."), "utf-8")
    assert session.refresh() == ["card/heavy-blow/front", "card/heavy-blow/back"]
    assert badged() == {} and session.diagnostics == []
