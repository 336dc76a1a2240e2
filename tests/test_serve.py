"""The designer's loop: `cardforge serve` (session, server, page) and `cardforge watch`.

The browser test drives the real page in headless Chromium (Debian's `chromium`, driven by
Playwright): it sees the cards, follows an edit without a reload, shows a diagnostic with its
file and line, and drops it when the file is fixed.  `.ci/run` installs Chromium for it.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cardforge.serve.session import Session
from conftest import BOMBER, REPO

LAYOUTS = REPO / "layouts"


def _copy_bomber(tmp_path: Path) -> Path:
    game = tmp_path / "bomber-boys"
    shutil.copytree(BOMBER, game)
    return game


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


# -- the session: incremental refresh ------------------------------------------------------

def test_an_edit_to_one_card_redraws_only_that_cards_faces(tmp_path):
    game = _copy_bomber(tmp_path)
    session = Session(game, LAYOUTS, dpi=30)
    first = session.refresh()
    assert len(first) == len(session.pieces) > 50 and session.faces_drawn == len(first)
    assert session.refresh() == []  # nothing changed, nothing drawn
    _edit(game / "cards" / "crew.yaml", "Without looking, discard", "Without peeking, discard")
    redrawn = session.refresh()
    assert redrawn == ["card/navigator/front", "card/navigator/back"]
    assert session.faces_drawn == len(first) + 2
    assert "Without peeking" in session.pieces["card/navigator/front"].data["actions"][1]["text"]
    assert session.pieces["card/navigator/front"].version == 2
    assert session.pieces["card/pilot/front"].version == 1


def test_a_layout_edit_redraws_the_faces_that_use_it(tmp_path):
    game = _copy_bomber(tmp_path)
    layouts = tmp_path / "layouts"
    shutil.copytree(LAYOUTS, layouts)
    session = Session(game, layouts, dpi=30)
    session.refresh()
    crew_faces = {k for k, v in session.pieces.items() if v.group == "crew" and v.side == "front"}
    path = layouts / "bomber-boys" / "crew.yaml"
    path.write_text(path.read_text("utf-8") + "\n# a comment changes the file, so its faces are redrawn\n", "utf-8")
    assert set(session.refresh()) == crew_faces


def test_errors_keep_the_last_good_pictures_marked_stale(tmp_path):
    game = _copy_bomber(tmp_path)
    session = Session(game, LAYOUTS, dpi=30)
    session.refresh()
    before = dict(session.images)
    _edit(game / "cards" / "crew.yaml", "title: Navigator", "title: [Navigator")
    assert session.refresh() == []
    assert session.stale and session.images == before
    diagnostic = session.diagnostics[0]
    assert diagnostic["file"].endswith("bomber-boys/cards/crew.yaml") and diagnostic["severity"] == "error"
    assert diagnostic["code"] == "E-YAML" and diagnostic["excerpt"] and 52 <= diagnostic["line"] <= 54
    _edit(game / "cards" / "crew.yaml", "title: [Navigator", "title: Navigator")
    session.refresh()
    assert not session.stale and session.diagnostics == []


# -- the server ----------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    def __init__(self, game: Path, out: Path, *extra: str, layouts: Path = LAYOUTS):
        self.port = _free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardforge", "serve", str(game), "--layouts", str(layouts), "--port", str(self.port),
             "--out", str(out), *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/state", timeout=2)
                return
            except (urllib.error.URLError, ConnectionError):
                if self.process.poll() is not None:
                    raise AssertionError(self.process.stderr.read())
                time.sleep(0.2)
        raise AssertionError("cardforge serve did not start")

    def status(self, path: str) -> int:
        try:
            return urllib.request.urlopen(self.url + path, timeout=5).status
        except urllib.error.HTTPError as exc:
            return exc.code

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def served(tmp_path):
    game = _copy_bomber(tmp_path)
    server = Served(game, tmp_path / "out")
    yield game, server
    server.close()


def test_the_server_refuses_paths_outside_the_game_and_its_build(served):
    game, server = served
    (game.parent / "secret.pdf").write_bytes(b"%PDF-1.4 not yours")
    assert server.status("/") == 200
    state = json.loads(urllib.request.urlopen(server.url + "/api/state").read())
    assert server.status("/image/" + state["pieces"][0]["key"] + ".png") == 200
    for path in ("/pdf/../secret.pdf", "/pdf/..%2Fsecret.pdf", "/pdf/%2Fetc%2Fpasswd", "/../../etc/passwd",
                 "/pdf//etc/passwd", "/image/../../secret.pdf", "/image/%2Fetc%2Fpasswd.png",
                 "/" + str(game / "game.yaml"), "/pdf/" + str(game.parent / "secret.pdf")):
        assert server.status(path) == 404, path


def _chromium() -> str | None:
    found = os.environ.get("CARDFORGE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and not os.environ.get("CI"):
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    return found


def test_the_page_follows_edits_and_errors_without_a_reload(served):
    executable = _chromium()
    playwright = pytest.importorskip("playwright.sync_api")
    game, server = served
    crew = game / "cards" / "crew.yaml"
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(server.url)
            page.wait_for_selector('.face[data-key="card/navigator/front"] img')
            assert page.locator(".face").count() > 50
            page.evaluate("window.notReloaded = true")
            page.click('.face[data-key="card/navigator/front"]')
            page.wait_for_selector("#details >> text=Navigator")
            image = page.locator('.face[data-key="card/navigator/front"] img')
            before = image.get_attribute("src")

            _edit(crew, "Without looking, discard", "Without peeking, discard")
            page.wait_for_selector("#details >> text=Without peeking", timeout=15000)
            page.wait_for_function(f"document.querySelector('.face[data-key=\"card/navigator/front\"] img')"
                                   f".getAttribute('src') !== {json.dumps(before)}", timeout=15000)
            assert page.evaluate("image => image.complete && image.naturalWidth > 0", image.element_handle())

            _edit(crew, "    position: 2\n", "    position: 13\n")  # the D12 cabin has locations 1 to 10
            page.wait_for_selector("#diagnostics >> text=cards/crew.yaml:51:15", timeout=15000)
            assert page.locator("body.stale").count() == 1

            _edit(crew, "    position: 13\n", "    position: 2\n")
            page.wait_for_selector("#diagnostics >> text=No problems found.", timeout=15000)
            assert page.locator("body.stale").count() == 0
            assert page.evaluate("window.notReloaded") is True
        finally:
            browser.close()


def _pixels(png: bytes):
    from PIL import Image
    import io
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_the_server_shows_a_face_as_others_see_it(served):
    """/image/KEY.png?view=grey: every pixel grey; ?view=deutan: what a deuteranope sees, which is
    not the picture in colour; an unknown view is a 400 that says which views there are."""
    _game, server = served
    key = "card/bombardier/front"
    colour = urllib.request.urlopen(f"{server.url}/image/{key}.png?v=1").read()
    grey = _pixels(urllib.request.urlopen(f"{server.url}/image/{key}.png?v=1&view=grey").read())
    assert grey.size == _pixels(colour).size
    assert grey.getchannel("R").tobytes() == grey.getchannel("G").tobytes() == grey.getchannel("B").tobytes()
    deutan = urllib.request.urlopen(f"{server.url}/image/{key}.png?v=1&view=deutan").read()
    assert deutan != colour
    from cardforge.access.vision import simulate_png
    assert _pixels(deutan).tobytes() == _pixels(simulate_png(colour, "deutan")).tobytes()
    try:
        urllib.request.urlopen(f"{server.url}/image/{key}.png?view=sepia")
        raise AssertionError("an unknown view was answered")
    except urllib.error.HTTPError as exc:
        assert exc.code == 400
        assert "protan, deutan, tritan, grey" in exc.read().decode()


def test_the_page_shows_every_face_as_the_chosen_viewer_sees_it(served):
    executable = _chromium()
    playwright = pytest.importorskip("playwright.sync_api")
    _game, server = served
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(server.url)
            selector = '.face[data-key="card/bombardier/front"] img'
            page.wait_for_selector(selector)
            assert "view=" not in page.locator(selector).get_attribute("src")
            page.select_option("#view", "grey")
            page.wait_for_function(f"document.querySelector({json.dumps(selector)}).src.includes('view=grey')")
            page.wait_for_function(f"(i => i.complete && i.naturalWidth > 0)(document.querySelector({json.dumps(selector)}))")
            # the picture the browser shows is the grey one: draw it on a canvas and read it back
            grey = page.evaluate("""(sel) => { const i = document.querySelector(sel), c = document.createElement('canvas');
                c.width = i.naturalWidth; c.height = i.naturalHeight; const x = c.getContext('2d'); x.drawImage(i, 0, 0);
                const d = x.getImageData(0, 0, c.width, c.height).data; let off = 0;
                for (let k = 0; k < d.length; k += 4) if (d[k] !== d[k + 1] || d[k + 1] !== d[k + 2]) off++;
                return off; }""", selector)
            assert grey == 0
            assert page.locator(".face img[src*='view=grey']").count() == page.locator(".face img").count()
            page.select_option("#view", "")
            page.wait_for_function(f"!document.querySelector({json.dumps(selector)}).src.includes('view=')")
        finally:
            browser.close()


def test_watch_rebuilds_the_pdfs_after_a_save_and_prints_the_diagnostics(tmp_path):
    game = _copy_bomber(tmp_path)
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "cardforge", "watch", str(game), "--layouts", str(LAYOUTS),
                                "--paper", "a4", "--out", str(out)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []

    def until(needle: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
            if needle in line:
                return
        raise AssertionError(f"no '{needle}' in {lines}")

    try:
        until("watching")
        pdf = out / "bomber-boys" / "bomber-boys-cards-a4.pdf"
        first = pdf.read_bytes()
        time.sleep(0.5)
        _edit(game / "cards" / "crew.yaml", "    position: 2\n", "    position: 13\n")
        until("build failed in")
        assert any("cards/crew.yaml:51:15: error[E-SCHEMA]: card '" in line
                   and "field 'position': 13 is greater than the maximum of 10" in line for line in lines)
        assert pdf.read_bytes() == first  # a failed build leaves the PDFs as they were
        _edit(game / "cards" / "crew.yaml", "    position: 13\n", "    position: 2\n")
        _edit(game / "cards" / "crew.yaml", "Without looking, discard", "Without peeking, discard")
        until("] built in")
        assert pdf.read_bytes() != first
    finally:
        process.terminate()
        process.wait(timeout=10)


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_terminated_server_leaves_no_builder_process_behind(tmp_path):
    game = _copy_bomber(tmp_path)
    server = Served(game, tmp_path / "out")
    children = _children(server.process.pid)
    assert children  # the PDF builder
    server.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in children):
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in children)
