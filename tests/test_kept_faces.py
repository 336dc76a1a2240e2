"""Faces kept between documents and builds (render/replay.py, layout/facecode.py): a face drawn once
is placed again in the other paper's kit and in the next build, and writes the very bytes a fresh
drawing would, whatever the disk cache holds: nothing, the faces of an earlier build, or damage."""
from __future__ import annotations

import json
import marshal
import shutil
from pathlib import Path

import pytest

from cardforge import diskcache
from cardforge.output.build import build_game
from cardforge.render import replay
from cardforge.render.face import CardRenderer

GAME = Path(__file__).resolve().parents[1] / "content" / "iron-rain"  # text, icons, a translucent colour


@pytest.fixture
def laid_out(monkeypatch):
    """How many faces were laid out (their frames drawn), not placed again from a kept drawing."""
    count = [0]
    original = CardRenderer._frames_of

    def counted(self, *args, **kwargs):
        count[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(CardRenderer, "_frames_of", counted)
    return count


def _build(monkeypatch, cache: Path | str, out: Path) -> dict[str, bytes]:
    monkeypatch.setenv("CARDFORGE_CACHE", str(cache))
    diskcache.cache_root.cache_clear()
    diskcache._folder.cache_clear()
    try:
        result = build_game(GAME, out, papers=("a4", "letter"))
    finally:
        diskcache.cache_root.cache_clear()
        diskcache._folder.cache_clear()
    assert not result.report.has_errors(), result.report.format_text()
    return {p.name: p.read_bytes() for p in sorted(out.glob("*.pdf"))}


def _fresh(monkeypatch, out: Path) -> dict[str, bytes]:
    """A build that keeps no face for another document."""
    with monkeypatch.context() as patch:
        patch.setattr(replay, "KEEP_BUDGET", 0)
        return _build(monkeypatch, "off", out)


def test_kept_faces_write_the_bytes_of_a_fresh_drawing(tmp_path, monkeypatch, laid_out):
    fresh = _fresh(monkeypatch, tmp_path / "fresh")
    fresh_count = laid_out[0]
    cache = tmp_path / "cache"
    first = _build(monkeypatch, cache, tmp_path / "first")  # Letter places the faces A4 kept
    first_count = laid_out[0] - fresh_count
    again = _build(monkeypatch, cache, tmp_path / "again")  # every paper places the faces kept before
    again_count = laid_out[0] - fresh_count - first_count
    assert len(fresh) == 12 and fresh == first == again
    assert first_count < 0.75 * fresh_count
    assert again_count < 0.35 * fresh_count
    # A build that drew nothing new leaves the kept faces as they were: they do not grow build by build.
    stored = {p: p.read_bytes() for p in (cache / "faces").rglob("*") if p.is_file()}
    assert stored and _build(monkeypatch, cache, tmp_path / "once-more") == fresh
    assert {p: p.read_bytes() for p in (cache / "faces").rglob("*") if p.is_file()} == stored


def test_a_damaged_kept_face_is_drawn_afresh(tmp_path, monkeypatch, laid_out):
    fresh = _fresh(monkeypatch, tmp_path / "fresh")
    cache = tmp_path / "cache"
    before = laid_out[0]
    _build(monkeypatch, cache, tmp_path / "first")
    first_count = laid_out[0] - before
    def damaged_copy(n: int, face: list) -> object:
        text, marks, records, versions, digests = face
        return [
            [text[:1] + [7, "x"], marks, records, versions, digests],  # a piece that is no string
            [text + [str(len(marks)), ""], marks, records, versions, digests],  # a mark that is not there
            [["", "0", ""], [["t", "no-such-font", 9, 10, True, "x"]], records, versions, digests],
            [["", "0", ""], [["i", "no-such-icon", "#000000", None]], records, versions, digests],
            [["", "0", ""], [["i", "image:x", "#000000", "/etc/passwd"]], records, versions, digests],
            [text, marks, [{"name": "no-such-frame"}], versions, digests],
            [text, marks, [dict(r, box="x") for r in records], versions, digests],
            [text, marks, records, ["no-such-pdf-feature"], digests],
            [text, marks, records, versions, {(): "not a digest"}],
            "not a face",
        ][n % 10]

    damaged = 0
    for path in (cache / "faces").rglob("*"):
        if not path.is_file():
            continue
        try:
            json.loads(path.read_bytes())
            continue  # the check's results, written as JSON
        except ValueError:
            entry = marshal.loads(path.read_bytes())  # drawn faces
        if entry.get("faces"):
            for key, face in entry["faces"].items():
                if isinstance(face, list) and len(face) == 5 and isinstance(face[0], list):  # a drawn face
                    entry["faces"][key] = damaged_copy(damaged, face)
                    damaged += 1
            path.write_bytes(marshal.dumps(entry))
    assert damaged > 50
    shutil.rmtree(tmp_path / "first")
    before = laid_out[0]
    assert _build(monkeypatch, cache, tmp_path / "again") == fresh
    assert laid_out[0] - before >= first_count  # the damaged faces were drawn again, as with no cache


def test_a_board_made_where_a_freed_one_was_is_keyed_by_its_own_data():
    """The guide's pages are boards made anew for each drawing; the ink page is drawn again with
    new figures.  A board made at the address of one freed before (CPython reuses it at once) is
    still keyed by its own data: keyed by id(), it took the old one's key, and the ink page was
    placed as drawn with the old figures (Iron Rain's "5-6: 7 %" for "5: 8 % · 6: 7 %")."""
    from cardforge.diagnostics import Report
    from cardforge.frontend.model import Board
    from cardforge.prepare import prepare
    from cardforge.render.facecache import face_memo

    prep = prepare(GAME, Report())
    memo = face_memo(prep.game, prep.fonts, prep.icons)
    layout = prep.layouts.get("guide-assembly", 190 * 72 / 25.4, 255 * 72 / 25.4, prep.game.doc.pos(""))
    assert layout is not None

    def board(figures: str) -> Board:
        return Board(id="guide-assembly", name="guide", layout="guide-assembly", width=layout.width,
                     height=layout.height, data={"ink": figures}, doc=prep.game.doc, pointer="",
                     component="references")

    first = board("5: 7 %")
    address, key = id(first), memo.key("face-draw", layout, first, "front", 1, "rect", 0.0)
    del first
    reused = 0
    for n in range(200):  # a board of other figures at the freed address, as a redraw makes it
        again = board(f"5: {n + 8} %")
        if id(again) == address:
            reused += 1
            assert memo.key("face-draw", layout, again, "front", 1, "rect", 0.0) != key
        del again
    assert reused, "no board was made at the freed one's address"
