"""Getting started, the tutorials and the recipes, run as a reader follows them (cardforge/walkthrough.py): every
shell block runs in an empty folder with the installed `cardforge`, every file is written where the
page says, and the diagnostics a page shows are the ones printed, file, line and column included.
"""
from __future__ import annotations

import re

import pytest

from cardforge import walkthrough
from conftest import REPO

DOCS = REPO / "docs"
WALKTHROUGHS = walkthrough.walkthrough_pages(DOCS)


def _id(page):
    return page.relative_to(DOCS).as_posix()


@pytest.mark.parametrize("page", WALKTHROUGHS, ids=_id)
def test_the_page_runs_as_written(page, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    text = page.read_text("utf-8")
    assert walkthrough.is_walkthrough(text), f"{_id(page)} has no ```sh or ```console block to run"
    folder = tmp_path / "work"
    folder.mkdir()
    # Without Chromium (the serve page's picture) `serve` must still start and answer.
    walk = walkthrough.run_page(_id(page), text, folder, screenshots=bool(walkthrough.browser()))
    # Every picture the page shows is a file its own commands wrote: cardforge drew it.
    shown = walkthrough.pictures(text)
    assert shown, f"{_id(page)} shows no picture rendered by cardforge"
    for page_id, path in shown:
        if path in walk.not_taken:
            continue
        assert page_id == page.stem, f"{_id(page)} shows a picture of another page: {page_id}/{path}"
        picture = folder / path
        assert picture.is_file(), f"{_id(page)} shows {path}, which its commands did not write"
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path


@pytest.mark.parametrize("page", WALKTHROUGHS, ids=_id)
def test_every_yaml_block_says_where_it_goes(page):
    """A reader who pastes a block must know whether it is the whole file or an addition to one."""
    text = page.read_text("utf-8")
    for match in re.finditer(r"^```yaml\n(?P<first>[^\n]*)", text, re.M):
        first = match["first"]
        # `# part of ... (not the whole file)` is shown, not run: tests/test_docs.py checks it against its schema
        assert (walkthrough.WHOLE.match(first) or walkthrough.ADD.match(first) or first.startswith("# excerpt:")
                or re.match(r"^# part of .* \(not the whole file\)$", first)), (
            f"{_id(page)}: a yaml block that says neither '# whole file: PATH' nor '# add to PATH': {first!r}")


def test_a_wrong_diagnostic_on_a_page_fails(tmp_path, monkeypatch):
    """The comparison itself: a page showing a line number the program does not print is caught."""
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    page = (DOCS / "getting-started.md").read_text("utf-8").replace("cards.yaml:37:11:", "cards.yaml:36:11:")
    folder = tmp_path / "work"
    folder.mkdir()
    with pytest.raises(walkthrough.WalkthroughError, match="other diagnostics than the page shows"):
        walkthrough.run_page("getting-started.md", page.split("## See it while you edit")[0]
                             + "## A mistake" + page.split("## A mistake", 1)[1], folder)


def test_the_steps_are_read_in_page_order():
    text = ('```sh\ncardforge new g\n```\n<!-- edit g/a.yaml: "x: 1" -> "x: 2" -->\n'
            '```yaml\n# add to g/cards/cards.yaml\n  - id: a\n```\n```console\n$ cardforge check g\n'
            'g/a.yaml:1:2: error[E-SCHEMA]: no\n  = help: yes\n```\n')
    kinds = [(s.kind, s.path) for s in walkthrough.steps(text)]
    assert kinds == [("sh", ""), ("edit", "g/a.yaml"), ("add", "g/cards/cards.yaml"), ("console", "")]
    console = walkthrough.steps(text)[-1]
    assert console.outputs == [("cardforge check g", ["g/a.yaml:1:2: error[E-SCHEMA]: no", "  = help: yes"])]
