"""Versions and errata (issue 26): `cardforge diff`, `cardforge build --errata`, the version mark.

Each test works on a copy of Bomber Boys with its layouts, laid out as the repository is
(<tmp>/content/bomber-boys beside <tmp>/layouts), so the default layouts guess finds them.
The edits are what a designer does between two playtests: a card's text, another card's number.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import REPO, cardforge, copy_tree, edit

TEXT_EDIT = ("cards/missions.yaml", "Simple, right?", "Easy enough, right?")  # a valid edit (tests/mutations/)
NUMBER_EDIT = ("cards/enemies.yaml", "    initiative: 1\n", "    initiative: 2\n")  # the first enemy card


def _repo_copy(root: Path) -> Path:
    copy_tree(REPO / "content" / "bomber-boys", root / "content" / "bomber-boys")
    copy_tree(REPO / "layouts", root / "layouts")
    return root / "content" / "bomber-boys"


@pytest.fixture(scope="module")
def versions(tmp_path_factory) -> tuple[Path, Path]:
    """(old, new) game folders: new has one card's text and another card's initiative changed."""
    old = _repo_copy(tmp_path_factory.mktemp("old"))
    new = _repo_copy(tmp_path_factory.mktemp("new"))
    edit(new, *TEXT_EDIT)
    edit(new, *NUMBER_EDIT)
    return old, new


def _first_enemy(game: Path) -> str:
    text = (game / "cards" / "enemies.yaml").read_text("utf-8")
    head = text[:text.index("    initiative:")]
    return head[head.rindex("- id: ") + 6:].split("\n", 1)[0].strip()


def test_diff_names_both_changes_word_by_word(versions, tmp_path):
    old, new = versions
    md, js = tmp_path / "changes.md", tmp_path / "changes.json"
    done = cardforge("diff", old, new, "--markdown", md, "--json", js, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    enemy = _first_enemy(new)
    assert "2 changed, 2 to reprint" in done.stdout
    assert "changed card 'milk-run' (Operation: Milk Run) in missions" in done.stdout
    assert "briefing: Your mission couldn't be easier." in done.stdout
    assert "without being shot from the sky. [-Simple,-]{+Easy enough,+} right?" in done.stdout
    assert f"changed card '{enemy}'" in done.stdout and "initiative: 1 → 2" in done.stdout
    assert "~~Simple,~~**Easy enough,** right?" in md.read_text("utf-8")
    doc = json.loads(js.read_text("utf-8"))
    changed = {p["id"]: p for p in doc["pieces"]}
    assert set(changed) == {"milk-run", enemy}
    assert changed["milk-run"]["drawn"] == ["front"]  # the target side (its back) did not change
    words = changed["milk-run"]["fields"][0]["words"]
    assert ["-", "Simple,"] in words and ["+", "Easy enough,"] in words
    assert {f["name"] for f in changed[enemy]["fields"]} == {"initiative"}


def test_a_layout_edit_that_changes_every_face_is_one_layout_change(tmp_path):
    old = _repo_copy(tmp_path / "old")
    new = _repo_copy(tmp_path / "new")
    layout = new.parent.parent / "layouts" / "bomber-boys" / "crew.yaml"
    # Every crew front draws its position badge 1 mm lower: no card's data changes.
    edit(layout.parent, layout.name, "badge: {type: shape, shape: ellipse, x: 4.5mm, y: 4.5mm",
         "badge: {type: shape, shape: ellipse, x: 4.5mm, y: 5.5mm")
    done = cardforge("diff", old, new, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    line = next(l for l in done.stdout.splitlines() if l.strip().startswith("layout:"))
    assert "every front of deck 'crew' changed (10 faces)" in line and layout.name in line
    assert "changed card 'bombardier'" in done.stdout  # each face is still to reprint
    assert "drawing changed (front)" in done.stdout


def test_diff_of_two_git_revisions(tmp_path):
    game = _repo_copy(tmp_path)
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "first playtest"], check=True)
    edit(game, *TEXT_EDIT)
    subprocess.run(git + ["commit", "-qam", "more repair"], check=True)
    edit(game, *NUMBER_EDIT)  # not committed: the work tree is a third version
    done = cardforge("diff", "HEAD~1", "HEAD", "--game", "content/bomber-boys", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "HEAD~1 → HEAD: 1 changed, 1 to reprint" in done.stdout
    assert "milk-run" in done.stdout
    done = cardforge("diff", "content/bomber-boys@HEAD~1", "content/bomber-boys", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "2 changed, 2 to reprint" in done.stdout


def test_a_revision_that_is_not_there_is_a_usage_error(tmp_path):
    game = _repo_copy(tmp_path)
    subprocess.run(["git", "-C", str(tmp_path), "init", "-q"], check=True)
    done = cardforge("diff", "no-such-rev", str(game), cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("cardforge: ")


def test_content_errors_in_a_version_are_diagnostics(versions, tmp_path):
    old, _ = versions
    broken = _repo_copy(tmp_path)
    edit(broken, "cards/items.yaml", "    kind: item\n", "    kind: [item\n")
    done = cardforge("diff", old, broken, cwd=tmp_path)
    assert done.returncode == 1
    assert "cards/items.yaml:" in done.stderr and "error[" in done.stderr
    assert "Traceback" not in done.stderr


def test_two_builds_compared_from_their_manifests_alone(versions, tmp_path):
    """Each build's manifest records a digest of every printed face: no sources needed."""
    old, new = versions
    for name, game in (("old", old), ("new", new)):
        done = cardforge("build", game, "--paper", "a4", "--out", tmp_path / name, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    manifests = [tmp_path / name / "bomber-boys" / "bomber-boys-kit-a4.manifest.json" for name in ("old", "new")]
    records = json.loads(manifests[0].read_text("utf-8"))["cards"]
    assert all(len(r["face"]) == 16 for r in records)
    done = cardforge("diff", *manifests, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "2 changed, 2 to reprint" in done.stdout
    assert "changed card 'milk-run' in missions\n      drawing changed (front)\n" in done.stdout
    assert f"changed card '{_first_enemy(new)}'" in done.stdout
    mixed = cardforge("diff", manifests[0], new, cwd=tmp_path)
    assert mixed.returncode == 2 and "compare two manifests" in mixed.stderr


def _page_texts(pdf: Path) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(str(pdf)).pages]


def test_errata_pdf_holds_exactly_the_changed_cards_front_and_back(versions, tmp_path):
    old, new = versions
    out = tmp_path / "build"
    done = cardforge("build", new, "--errata", old, "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "2 changed, 2 to reprint" in done.stdout
    folder = out / "bomber-boys" / "errata"
    enemy = _first_enemy(new)
    for paper in ("a4", "letter"):
        pdf = folder / f"bomber-boys-errata-{paper}.pdf"
        manifest = json.loads(pdf.with_suffix(".manifest.json").read_text("utf-8"))
        records = manifest["cards"]
        assert sorted({(r["card"], r["side"]) for r in records}) == sorted(
            {("milk-run", "front"), ("milk-run", "back"), (enemy, "front"), (enemy, "back")})
        texts = _page_texts(pdf)
        # The changelog first, naming both changes as a player reads them.
        assert "ERRATA" in texts[0] and "Operation: Milk Run" in texts[0]
        assert 'from the sky. Easy enough, (was "Simple,") right?' in " ".join(texts[0].split())
        assert "initiative: 2 (was 1)" in " ".join(texts[0].split())
        assert texts[1].strip() == "" or "intentionally" in texts[1].lower()  # the changelog's blank back
        # Each deck's fronts, and their backs on the other side of the same sheet.
        for card in ("milk-run", enemy):
            front = next(r["page"] for r in records if r["card"] == card and r["side"] == "front")
            back = next(r["page"] for r in records if r["card"] == card and r["side"] == "back")
            assert back == front + 1 and front % 2 == 1
        # (Cards of one size share pages, whatever their deck: output/pack.py.)
        front_pages = sorted({r["page"] for r in records if r["side"] == "front"})
        front_text = " ".join(" ".join(texts[page - 1].split()) for page in front_pages)
        assert "Easy enough, right?" in front_text and "MILK RUN" in front_text.upper()
        assert "LUCKY COIN" not in front_text and "NIGHTWING" not in front_text.upper()
        # Each reprinted front carries the version mark (game.yaml version: "PnP 2020-12-04").
        assert front_text.count("PnP 2020-12-04") == 2
    md = (folder / "bomber-boys-changelog.md").read_text("utf-8")
    assert "~~Simple,~~**Easy enough,** right?" in md and "initiative: 1 → 2" in md
    assert (out / "bomber-boys" / "errata").is_dir() and not (out / "bomber-boys" / "bomber-boys-kit-a4.pdf").exists()


def test_a_failed_errata_build_leaves_the_previous_errata_as_they_were(versions, tmp_path):
    old, new = versions
    out = tmp_path / "build"
    assert cardforge("build", new, "--errata", old, "--out", out, "--paper", "a4", cwd=tmp_path).returncode == 0
    before = {p.name: p.read_bytes() for p in (out / "bomber-boys" / "errata").iterdir()}
    broken = _repo_copy(tmp_path / "broken")
    edit(broken, *TEXT_EDIT)
    edit(broken, "cards/items.yaml", "    kind: item\n", "    kind: [item\n")
    done = cardforge("build", broken, "--errata", old, "--out", out, "--paper", "a4", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert {p.name: p.read_bytes() for p in (out / "bomber-boys" / "errata").iterdir()} == before


def _state(server) -> dict:
    import urllib.request
    return json.loads(urllib.request.urlopen(server.url + "/api/state", timeout=10).read())


def test_serve_since_shows_changed_pieces_beside_their_old_pictures(versions, tmp_path):
    import time
    import urllib.request

    from test_serve import Served, _chromium
    old, _ = versions
    new = _repo_copy(tmp_path)
    edit(new, *TEXT_EDIT)
    edit(new, *NUMBER_EDIT)
    enemy = _first_enemy(new)
    server = Served(new, tmp_path / "out", "--since", str(old), layouts=new.parent.parent / "layouts")
    try:
        state = _state(server)
        since = {p["key"]: p["since"] for p in state["pieces"] if p["since"]}
        assert since == {"card/milk-run/front": "changed", f"card/{enemy}/front": "changed"}
        assert state["since"] == {"label": str(old), "removed": []}
        before = urllib.request.urlopen(server.url + "/before/card/milk-run/front.png", timeout=10).read()
        now = urllib.request.urlopen(server.url + "/image/card/milk-run/front.png", timeout=10).read()
        assert before[:8] == b"\x89PNG\r\n\x1a\n" and before != now
        # A save while serving: the mission's target side (its back) now differs too.
        edit(new, "cards/missions.yaml", "      title: Artillery Bunker", "      title: Coastal Artillery Bunker")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            marks = {p["key"]: p["since"] for p in _state(server)["pieces"]}
            if marks.get("card/milk-run/back") == "changed":
                break
            time.sleep(0.3)
        assert marks["card/milk-run/back"] == "changed"
        executable = _chromium()
        playwright = pytest.importorskip("playwright.sync_api")
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(server.url + "/")
                page.wait_for_selector(".face.changed")
                page.select_option("#filter", value="*since")
                page.wait_for_function("document.querySelectorAll('#grid .face').length === 3")
                assert page.locator(".face.changed figcaption").first.inner_text() == "before"
                assert page.locator(".face.changed .label .since").first.inner_text() == "CHANGED"
                assert page.locator(".face.changed img.before").count() == 3
                assert "since " in page.locator("#status").inner_text() and "3 changed, 0 new" in page.locator("#status").inner_text()
                page.screenshot(path=str(tmp_path / "since.png"))
            finally:
                browser.close()
    finally:
        server.close()
