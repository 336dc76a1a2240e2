"""The print shop's soft proof in `cardforge serve`: the "Printed (CMYK soft proof)" view.

The server makes it with the code `render --color cmyk --proof` uses (output/softproof.py), so
the picture the page shows is the one `render` writes; `serve --color cmyk` opens the page on it;
without Ghostscript the page says why instead of showing a broken picture.
"""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest
from PIL import Image

from cardforge.serve import session as session_module
from cardforge.serve.session import PREVIEW_DPI, ProofError, Session
from conftest import REPO
from test_serve import LAYOUTS, Served, _chromium, _copy_bomber, _free_port

needs_gs = pytest.mark.skipif(shutil.which("gs") is None, reason="the soft proof needs Ghostscript")
KEY = "card/bombardier/back"


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.fixture
def served_cmyk(tmp_path):
    game = _copy_bomber(tmp_path)
    server = Served(game, tmp_path / "out", "--color", "cmyk")
    yield game, server
    server.close()


@needs_gs
def test_the_print_view_is_what_render_proof_writes_and_not_the_rgb_picture(served_cmyk, tmp_path):
    game, server = served_cmyk
    state = json.loads(urllib.request.urlopen(server.url + "/api/state").read())
    assert state["view"] == "print" and state["proof_unavailable"] is None  # `serve --color cmyk` starts on it
    rgb = _rgb(urllib.request.urlopen(f"{server.url}/image/{KEY}.png?v=1").read())
    answer = urllib.request.urlopen(f"{server.url}/image/{KEY}.png?v=1&view=print", timeout=120)
    assert answer.headers["Content-Type"] == "image/png"
    proof = _rgb(answer.read())
    assert proof.size == rgb.size and proof.tobytes() != rgb.tobytes()

    out = tmp_path / "proof.png"
    result = subprocess.run([sys.executable, "-m", "cardforge", "render", str(game), "bombardier", "--side", "back",
                             "--layouts", str(LAYOUTS), "--color", "cmyk", "--proof", "--dpi", str(PREVIEW_DPI),
                             "--out", str(out)], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    with Image.open(out) as written:
        # the same drawing, conversion, Ghostscript rendering and profile: the same pixels
        assert written.convert("RGB").tobytes() == proof.tobytes()
    # and the proof is a print, not the screen's colours: the dark surround prints lighter than it shows
    from coloraide import Color
    corner = [Color("srgb", [v / 255 for v in picture.getpixel((3, 3))]) for picture in (rgb, proof)]
    assert corner[0].delta_e(corner[1], method="2000") > 1


def test_without_ghostscript_the_page_says_why(tmp_path, monkeypatch):
    """The choice is disabled with its reason (the state the page reads), and a picture asked for
    anyway is a 503 whose text the page shows on the face, never a traceback or a broken picture."""
    from cardforge.serve.server import Preview, make_server
    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None if name == "gs" else real(name, *a, **k))
    game = _copy_bomber(tmp_path)
    session = Session(game, LAYOUTS, dpi=30, color="cmyk")
    preview = Preview(session, tmp_path / "out")
    preview.refresh()
    reason = session.state()["proof_unavailable"]
    assert "Ghostscript" in reason and "apt-get install ghostscript" in reason
    with pytest.raises(ProofError, match="Ghostscript"):
        session.image(KEY, "print")
    server = make_server(preview, _free_port())
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        with pytest.raises(urllib.error.HTTPError) as failed:
            urllib.request.urlopen(f"{url}/image/{KEY}.png?v=1&view=print", timeout=10)
        assert failed.value.code == 503
        assert failed.value.headers["Content-Type"].startswith("text/plain")
        text = failed.value.read().decode()
        assert text == reason and "Traceback" not in text
        assert urllib.request.urlopen(f"{url}/image/{KEY}.png?v=1", timeout=10).status == 200  # RGB still shown
    finally:
        server.shutdown()
        server.close()
    assert session_module.proof_unavailable() == reason


@needs_gs
def test_the_page_opens_on_the_soft_proof_with_serve_color_cmyk(served_cmyk):
    executable = _chromium()
    playwright = pytest.importorskip("playwright.sync_api")
    _game, server = served_cmyk
    selector = f'.face[data-key="{KEY}"] img'
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(server.url)
            page.wait_for_selector(selector)
            assert page.locator("#view").input_value() == "print"
            assert "view=print" in page.locator(selector).get_attribute("src")
            page.locator(selector).scroll_into_view_if_needed()
            page.wait_for_function(f"(i => i.complete && i.naturalWidth > 0)(document.querySelector({json.dumps(selector)}))",
                                   timeout=120000)
            assert page.locator(".proof-error").count() == 0
            # the colours the proof shows shifting are warnings in the page's problems, at their layout line
            page.wait_for_selector("#diagnostics >> text=W-COLOUR-SHIFT", timeout=60000)
            page.wait_for_selector("#diagnostics >> text=crew-eliminated.yaml:13:3", timeout=60000)
            page.screenshot(path="/tmp/proof-page.png")
            page.select_option("#view", "")  # the reader's choice wins over the one the server started with
            page.wait_for_function(f"!document.querySelector({json.dumps(selector)}).src.includes('view=')")
        finally:
            browser.close()
