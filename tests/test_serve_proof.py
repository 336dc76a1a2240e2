"""The print shop's soft proof in the preview: `serve --color cmyk` opens on it, the "Seen as" menu
switches to it, and it is the picture `render --color cmyk --proof` makes of the same face."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import urllib.request

import pytest
from PIL import Image, ImageChops

from cardforge.output.softproof import ghostscript_missing
from cardforge.serve.session import PROOF_VIEW, Session
from conftest import cardforge
from test_serve import LAYOUTS, Served, _chromium, _copy_bomber

KEY = "card/bombardier/back"
needs_gs = pytest.mark.skipif(ghostscript_missing(), reason="the soft proof needs Ghostscript")


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.fixture
def served_cmyk(tmp_path):
    game = _copy_bomber(tmp_path)
    server = Served(game, tmp_path / "out", "--color", "cmyk")
    yield game, server
    server.close()


@needs_gs
def test_the_server_shows_a_face_as_the_print_shop_prints_it(served_cmyk, tmp_path):
    game, server = served_cmyk
    state = json.load(urllib.request.urlopen(server.url + "/api/state"))
    assert state["proof"] == {"unavailable": None, "start": True}
    assert not [d for d in state["diagnostics"] if d["code"] == "W-COLOUR-SHIFT"]  # nothing proofed yet
    colour = urllib.request.urlopen(f"{server.url}/image/{KEY}.png?v=1").read()
    proof = urllib.request.urlopen(f"{server.url}/image/{KEY}.png?v=1&view={PROOF_VIEW}").read()
    assert _rgb(proof).size == _rgb(colour).size
    assert proof != colour
    # the same picture as `render --color cmyk --proof` at the preview's resolution
    rendered = tmp_path / "proof.png"
    done = cardforge("render", game, "bombardier", "--side", "back", "--color", "cmyk", "--proof", "--dpi", "110",
                     "--layouts", LAYOUTS, "--out", rendered, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    difference = ImageChops.difference(_rgb(proof), _rgb(rendered.read_bytes()))
    assert max(high for _, high in difference.getextrema()) <= 2
    # the colours the press cannot reach are warnings in the page's list, as `render --proof` prints them
    # (the preview proofs every face, so it names at least the colours of this one)
    state = json.load(urllib.request.urlopen(server.url + "/api/state"))
    shift = re.compile(r"(#[0-9a-f]{6}) prints as (#[0-9a-f]{6}) on gracol-coated-240")
    served = {shift.search(d["message"]).groups() for d in state["diagnostics"] if d["code"] == "W-COLOUR-SHIFT"}
    said = set(shift.findall(done.stderr))
    assert said and said <= served, (said, served)


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
            assert page.eval_on_selector("#view", "v => v.value") == PROOF_VIEW
            assert f"view={PROOF_VIEW}" in page.locator(selector).get_attribute("src")
            page.wait_for_function(f"(i => i.complete && i.naturalWidth > 0)(document.querySelector({json.dumps(selector)}))")
            page.select_option("#view", "")
            page.wait_for_function(f"!document.querySelector({json.dumps(selector)}).src.includes('view=')")
        finally:
            browser.close()


def test_without_ghostscript_the_proof_is_offered_with_the_reason_and_serve_color_cmyk_says_so(tmp_path, monkeypatch):
    import shutil
    real_which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None if name == "gs" else real_which(name, *a, **k))
    session = Session(_copy_bomber(tmp_path), LAYOUTS, dpi=30)
    session.refresh()
    assert session.state()["proof"]["unavailable"] == \
        "the print shop's soft proof needs Ghostscript (Debian: apt-get install ghostscript)"
    assert session.image(KEY, PROOF_VIEW) is None
    assert session.image(KEY) is not None
    # the command line: a usage error, not a page that cannot show what was asked
    bare = tmp_path / "bin"
    bare.mkdir()
    env = dict(os.environ, PATH=str(bare))
    done = subprocess.run([sys.executable, "-m", "cardforge", "serve", str(tmp_path / "bomber-boys"), "--layouts",
                           str(LAYOUTS), "--color", "cmyk", "--port", "0"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == ("cardforge: error: --color cmyk: the print shop's soft proof needs "
                                                   "Ghostscript (Debian: apt-get install ghostscript)")


def test_the_page_offers_the_print_view():
    from cardforge.serve.server import page_html
    page = page_html().decode("utf-8")
    assert '<option value="print">Printed by the print shop (CMYK soft proof)</option>' in page


def test_a_soft_proof_that_fails_is_said_and_the_preview_goes_on(tmp_path, monkeypatch):
    import cardforge.output.softproof as softproof

    def broken(*_args, **_kwargs):
        raise RuntimeError("gs exited with 1")
    monkeypatch.setattr(softproof, "soft_proof", broken)
    session = Session(_copy_bomber(tmp_path), LAYOUTS, dpi=30)
    session.refresh()
    if session.state()["proof"]["unavailable"]:
        pytest.skip("no Ghostscript")
    assert session.image(KEY, PROOF_VIEW) is None
    assert session.image(KEY) is not None
    said = [d["text"].splitlines()[0] for d in session.state()["diagnostics"]]
    assert "cardforge: error[E-INTERNAL]: the soft proof failed: RuntimeError: gs exited with 1" in said, said
