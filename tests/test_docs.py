"""The documentation site (docs/, mkdocs.yml): it builds in strict mode, and its examples work.

Every YAML block of a page starts with a comment saying what it is, so that a reader who pastes it
knows whether it is a whole file or a part of one (a block in another language, JSON or SVG, is a
file of the example when an HTML comment `<!-- whole file: PATH -->` stands before it):
- `# whole file: PATH` (or `# file: PATH`): a whole file of the page's example game; the page's
  files are written into a game folder and `cardforge check` must pass on it (with `--strict`: no
  warning either). Getting started, the tutorials and the recipes are run step by step instead
  (tests/test_docs_walkthrough.py), where `# add to PATH` adds a block to the end of a file;
- `# part of KIND (not the whole file)` (or `# fragment: KIND`): a piece of a file of that kind
  (game.yaml, a card file, a layout, rules.yaml, a force list), which must be valid YAML and valid
  against that kind's schema where it is whole;
- `# excerpt: WHAT`: a file that is not cardforge's content (a test suite's format): valid YAML.
A block with none of these fails the test, so no example goes unchecked.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cardforge import walkthrough
from conftest import REPO

DOCS = REPO / "docs"
BLOCK = re.compile(r"^```yaml\n(?P<body>.*?)^```", re.S | re.M)
OTHER = re.compile(r"^<!-- (?:whole )?file: (?P<what>\S+) -->\n```[a-z]*\n(?P<body>.*?)^```", re.S | re.M)
MARK = re.compile(r"^# (?:(?P<kind>file|fragment|excerpt): (?P<what>\S+)|whole (?P<whole>file): (?P<path>\S+)"
                  r"|(?P<add>add) to (?P<target>\S+)|part of (?:an? )?(?P<part>[a-z. ]+?) \(not the whole file\))")
PARTS = {"game.yaml": "game", "card file": "cards", "layout": "layout", "rules.yaml": "rules", "force list": "force"}
PAGES = sorted(DOCS.rglob("*.md"))
WALKTHROUGHS = set(walkthrough.walkthrough_pages(DOCS))  # run step by step instead


def _blocks(page: Path) -> list[tuple[str, str, str]]:
    out = []
    for match in BLOCK.finditer(page.read_text("utf-8")):
        body = match["body"]
        mark = MARK.match(body)
        assert mark, (f"{page.relative_to(REPO)}: a yaml block that does not say '# whole file: PATH', '# add to PATH', "
                      f"'# part of KIND (not the whole file)' or '# excerpt: WHAT': {body[:60]!r}")
        if mark["part"]:
            assert mark["part"] in PARTS, f"{page.relative_to(REPO)}: part of what? {mark['part']!r} ({', '.join(PARTS)})"
            out.append(("fragment", PARTS[mark["part"]], body))
            continue
        if mark["whole"]:
            out.append(("file", mark["path"], body))
            continue
        if mark["add"]:
            out.append(("add", mark["target"], body))
            continue
        if mark["kind"] == "excerpt":
            yaml.safe_load(body)
        out.append((mark["kind"], mark["what"], body))
    out += [("file", match["what"], match["body"]) for match in OTHER.finditer(page.read_text("utf-8"))]
    return out


def test_the_site_builds_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("index.html", "reference/diagnostics/index.html", "reference/layout/index.html",
                 "tutorials/card-game/index.html", "architecture/index.html"):
        assert (tmp_path / "site" / page).is_file(), page
    codes = (tmp_path / "site" / "reference" / "diagnostics" / "index.html").read_text("utf-8")
    assert "E-SCHEMA" in codes and "E-VERSION-MARK" in codes
    # Getting started, every tutorial and the recipes show at least one picture that cardforge drew while the
    # site was built (docs/hooks.py): a PNG in the site, not a file of docs/.
    for page in sorted(WALKTHROUGHS):
        rel = page.relative_to(DOCS).with_suffix("")
        html_page = tmp_path / "site" / rel / "index.html"
        sources = re.findall(r'<img[^>]* src="([^"]*pictures/[^"]+\.png)"', html_page.read_text("utf-8"))
        assert sources, f"{rel}: no picture rendered by cardforge"
        for src in sources:
            picture = (html_page.parent / src).resolve()
            assert picture.is_file() and picture.read_bytes()[:4] == b"\x89PNG", f"{rel}: {src}"
            assert not (DOCS / picture.relative_to((tmp_path / "site").resolve())).exists(), "drawn, not committed"


def test_every_page_that_shows_a_whole_game_file_is_run_as_a_walkthrough():
    # Walkthrough pages run step by step in test_docs_walkthrough.py, their diagnostics compared; a
    # page showing whole game files that is not one would go untested, so it is refused here.
    # (This was a check per such page, parametrized over a list that had become empty: a skip.)
    showing = {p for p in PAGES if any(k == "file" for k, _, _ in _blocks(p))}
    assert showing, "no page shows a whole game file: the blocks are no longer found"
    assert showing <= WALKTHROUGHS, sorted(str(p.relative_to(DOCS)) for p in showing - WALKTHROUGHS)


@pytest.mark.parametrize("page", [p for p in PAGES if any(k == "fragment" for k, _, _ in _blocks(p))],
                         ids=lambda p: p.relative_to(DOCS).as_posix())
def test_fragments_are_valid_yaml_of_their_kind(page):
    from cardforge.frontend.schema import builtin_schema, validator
    for kind, what, body in _blocks(page):
        if kind != "fragment":
            continue
        data = yaml.safe_load(body)
        assert isinstance(data, dict), f"{page.name}: a {what} fragment must be a mapping"
        schema = builtin_schema(what)
        props = schema.get("properties", {})
        for key in data:
            assert key in props, f"{page.name}: '{key}' is not a key of {what} files"
        if what == "cards":
            continue  # a card's fields are the deck's own: the schema of one game
        # Only the keys the fragment has are checked: a fragment need not be a whole file.
        partial = dict(schema, required=[])
        errors = sorted(validator(partial).iter_errors(data), key=str)  # our registry: nothing is fetched
        assert not errors, f"{page.name}: {errors[0].message}"
