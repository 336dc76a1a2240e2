"""`check` keeps each face's results in the disk cache (render/facecache.py, issue 27): a repeated
check measures no face and says exactly what a check with an empty cache says; an edit re-measures
only the faces it touches, and whatever it breaks is reported, at the line where it is now."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import FRONT_LAYOUT, GAME_YAML, REPO, cardforge, make_game

from cardforge import diskcache
from cardforge.cli import main
from cardforge.render.evaluate import FaceEvaluator
from cardforge.render.face import CardRenderer

GOOD_SVG = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='5' height='5'/></svg>"
BAD_SVG = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'>\n  <rect width='5' height='5'>\n</svg>"
LONG = " ".join(["overflowing"] * 200)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty disk cache of this test's own, and counters of the faces measured (the fit pass)
    and evaluated (the asset check) afresh."""
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    diskcache.cache_root.cache_clear()
    diskcache._folder.cache_clear()
    counts = {"measured": 0, "evaluated": 0}
    draw_frames, frames = CardRenderer._draw_frames, FaceEvaluator.frames

    def measured(self, *args, **kwargs):
        counts["measured"] += bool(self.painter.measuring)
        return draw_frames(self, *args, **kwargs)

    def evaluated(self, *args, **kwargs):
        counts["evaluated"] += 1
        return frames(self, *args, **kwargs)

    monkeypatch.setattr(CardRenderer, "_draw_frames", measured)
    monkeypatch.setattr(FaceEvaluator, "frames", evaluated)
    yield counts
    diskcache.cache_root.cache_clear()
    diskcache._folder.cache_clear()


def check(counts: dict, capsys, *args) -> tuple[str, int, int]:
    """`cardforge check ARGS --format json` in this process: its output, and how many faces it
    measured and evaluated."""
    counts["measured"] = counts["evaluated"] = 0
    capsys.readouterr()
    main(["check", *map(str, args), "--format", "json"])
    return capsys.readouterr().out, counts["measured"], counts["evaluated"]


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO / "content").iterdir() if (p / "game.yaml").is_file()))
def test_a_cached_check_of_a_seed_game_says_the_same_and_measures_nothing(name, cache, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    first, measured, evaluated = check(cache, capsys, REPO / "content" / name)
    again, measured_again, evaluated_again = check(cache, capsys, REPO / "content" / name)
    assert again == first
    assert measured > 0 and evaluated > 0
    assert (measured_again, evaluated_again) == (0, 0)  # bombs-away's map: an image frame, keyed by its file


def test_a_cached_check_repeats_every_kind_of_diagnostic_exactly(tmp_path, cache, capsys, monkeypatch):
    layout = FRONT_LAYOUT + (
        "  cost: {type: text, x: 4mm, y: 70mm, width: 20mm, height: 8mm, text: \"{{ card.costs }}\"}\n"
        "  logo: {type: icon, x: 40mm, y: 70mm, width: 8mm, height: 8mm, icon: logo}\n")
    cards = ("cards:\n  - {id: alpha, title: Alpha, text: \"" + LONG + "\", cost: 1}\n"
             "  - {id: beta, title: \"Beta \U0001F600\", text: \"An :stra: symbol\", cost: 2}\n"
             "  - {id: gamma, title: Gamma, text: plain, cost: 3, quantity: 3}\n"
             "  - {id: delta, title: Delta, text: \"" + LONG + "\", cost: many}\n")  # a schema error: lay_out_despite
    game = make_game(tmp_path, layout_yaml=layout, cards_yaml=cards, files={"icons/logo.svg": BAD_SVG})
    monkeypatch.chdir(tmp_path)
    first, measured, _ = check(cache, capsys, game)
    codes = {item["code"] for item in json.loads(first)}
    assert {"E-TEXT-OVERFLOW", "E-GLYPH", "E-UNKNOWN-SYMBOL", "E-LAYOUT-FIELD", "E-ICON", "E-SCHEMA"} <= codes, codes
    assert measured > 0
    again, measured_again, evaluated_again = check(cache, capsys, game)
    assert again == first
    assert measured_again == evaluated_again == 0


def overflow_at(out: str) -> list[tuple[str, int, str]]:
    return [(d["file"], d["line"], d["card"]) for d in json.loads(out) if d["code"] == "E-TEXT-OVERFLOW"]


def test_an_edit_is_measured_alone_and_reported_where_it_now_is(tmp_path, cache, capsys, monkeypatch):
    game = make_game(tmp_path)
    monkeypatch.chdir(tmp_path)
    cards = game / "cards" / "cards.yaml"
    assert check(cache, capsys, game)[0].strip() == "[]"
    cards.write_text(cards.read_text("utf-8").replace("First card, **bold** and *italic*.", LONG), "utf-8")
    out, measured, evaluated = check(cache, capsys, game)
    assert overflow_at(out) == [("content/tiny/cards/cards.yaml", 4, "alpha")]  # at its text, not its id
    assert measured == evaluated == 2  # alpha's front and back; beta's faces come from the cache
    # Three lines above the card: the same overflow, at its new line, without measuring anything.
    cards.write_text("# a comment\n# another\n# and one more\n" + cards.read_text("utf-8"), "utf-8")
    out, measured, evaluated = check(cache, capsys, game)
    assert overflow_at(out) == [("content/tiny/cards/cards.yaml", 7, "alpha")]
    assert measured == evaluated == 0
    fresh = tmp_path / "fresh-cache"  # and what a check with an empty cache says
    monkeypatch.setenv("CARDFORGE_CACHE", str(fresh))
    diskcache.cache_root.cache_clear()
    diskcache._folder.cache_clear()
    assert check(cache, capsys, game)[0] == out


def test_a_changed_layout_is_measured_again(tmp_path, cache, capsys, monkeypatch):
    game = make_game(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert check(cache, capsys, game)[0].strip() == "[]"
    layout = game / "layouts" / "front.yaml"
    layout.write_text(FRONT_LAYOUT.replace("height: 40mm", "height: 1mm"), "utf-8")
    out, measured, _ = check(cache, capsys, game)
    assert [d[2] for d in overflow_at(out)] == ["alpha", "beta"]
    assert measured == 2  # the two fronts; the backs' layout did not change


def test_a_changed_icon_is_measured_again(tmp_path, cache, capsys, monkeypatch):
    layout = FRONT_LAYOUT + "  logo: {type: icon, x: 40mm, y: 70mm, width: 8mm, height: 8mm, icon: logo}\n"
    game = make_game(tmp_path, layout_yaml=layout, files={"icons/logo.svg": GOOD_SVG})
    monkeypatch.chdir(tmp_path)
    assert check(cache, capsys, game)[0].strip() == "[]"
    (game / "icons" / "logo.svg").write_text(BAD_SVG, "utf-8")
    out = check(cache, capsys, game)[0]
    assert [(d["code"], d["file"], d["line"]) for d in json.loads(out)] == \
        [("E-ICON", "content/tiny/icons/logo.svg", 3)]
    (game / "icons" / "logo.svg").write_text(GOOD_SVG, "utf-8")
    assert check(cache, capsys, game)[0].strip() == "[]"


# `check` in a fresh process (reportlab registers a font once per process, by name), printing how
# many faces it measured after its diagnostics.
PROBE = """import sys
from cardforge.render.face import CardRenderer
measured, draw_frames = [], CardRenderer._draw_frames
CardRenderer._draw_frames = lambda self, *args: measured.append(1) or draw_frames(self, *args)
from cardforge.cli import main
main(["check", sys.argv[1], "--format", "json"])
print(len(measured))
"""


def test_a_changed_font_file_is_measured_again(tmp_path):
    game_yaml = GAME_YAML + "fonts:\n  body: {regular: fonts/body.ttf}\n"
    layout = FRONT_LAYOUT.replace("size: 9pt", "size: 9pt, font: body")
    cards = "cards:\n  - {id: alpha, title: Alpha, text: \"\u2639 frowns\", cost: 1}\n"
    game = make_game(tmp_path, game_yaml=game_yaml, layout_yaml=layout, cards_yaml=cards,
                     files={"fonts/body.ttf": (REPO / "fonts" / "DejaVuSans.ttf").read_bytes()})
    env = dict(os.environ, CARDFORGE_CACHE=str(tmp_path / "cache"))

    def probe() -> tuple[list, int]:
        # A font file is keyed by its identity (it is large), once it has been left alone for a moment.
        time.sleep(diskcache.SETTLED_S + 0.1)
        run = subprocess.run([sys.executable, "-c", PROBE, str(game)], cwd=str(tmp_path), env=env,
                             capture_output=True, text=True)
        assert "Traceback" not in run.stderr, run.stderr
        out, measured = run.stdout.rsplit("\n", 2)[:2]
        return [(d["code"], d["card"]) for d in json.loads(out)], int(measured)

    assert probe() == ([], 2)  # DejaVu Sans has U+2639
    assert probe() == ([], 0)
    shutil.copyfile(REPO / "fonts" / "NotoSans-Regular.ttf", game / "fonts" / "body.ttf")  # Noto Sans has not
    assert probe() == ([("E-GLYPH", "alpha")], 2)  # every face: the fonts are keyed as a whole
    assert probe() == ([("E-GLYPH", "alpha")], 0)


def test_a_damaged_cache_is_ignored(tmp_path, cache, capsys, monkeypatch):
    cards = "cards:\n  - {id: alpha, title: Alpha, text: \"" + LONG + "\", cost: 1}\n  - {id: beta, title: B}\n"
    game = make_game(tmp_path, cards_yaml=cards)
    monkeypatch.chdir(tmp_path)
    first, measured, _ = check(cache, capsys, game)
    assert overflow_at(first) and measured == 4
    bundles = [p for p in (tmp_path / "cache" / "faces").rglob("*") if p.is_file()]
    assert len(bundles) == 2  # the asset check's and the fit pass's
    for bundle in bundles:  # well-formed JSON, but every face's result is nonsense
        entry = json.loads(bundle.read_bytes())
        entry["faces"] = {key: [["nonsense"]] for key in entry["faces"]}
        bundle.write_text(json.dumps(entry), "utf-8")
    assert check(cache, capsys, game)[:2] == (first, 4)
    for damaged in (b"\x80garbage", b'{"format": 1, "faces": {', b""):
        for entry in (tmp_path / "cache").rglob("*"):
            if entry.is_file():
                entry.write_bytes(damaged)
        assert check(cache, capsys, game)[0] == first


def test_a_translated_label_that_overflows_is_reported_at_its_line_cached_or_not(tmp_path, cache, capsys,
                                                                                monkeypatch):
    game = make_game(tmp_path, game_yaml=GAME_YAML.replace("card_size: poker\n", "languages: [de]\ncard_size: poker\n"),
                     files={"translations/de/strings.yaml": "strings:\n  TINY BACK: " + LONG + "\n"})
    monkeypatch.chdir(tmp_path)
    first, measured, _ = check(cache, capsys, game, "--lang", "all")
    assert overflow_at(first) == [("content/tiny/translations/de/strings.yaml", 2, None)]
    assert measured == 8  # two cards, two sides, two languages
    again, measured, _ = check(cache, capsys, game, "--lang", "all")
    assert (again, measured) == (first, 0)
    strings = game / "translations" / "de" / "strings.yaml"
    strings.write_text("# German labels\n" + strings.read_text("utf-8"), "utf-8")
    out, measured, _ = check(cache, capsys, game, "--lang", "all")
    assert overflow_at(out) == [("content/tiny/translations/de/strings.yaml", 3, None)]
    assert measured == 4  # the German faces: where the string table's entries are written is in their key


def test_a_picture_is_keyed_by_its_file_and_a_templated_one_is_not_cached(tmp_path, cache, capsys, monkeypatch):
    """An image frame with a literal `src`: the face comes from the cache until the picture changes
    (a broken SVG is then reported); with `src` from a template, every check measures the face."""
    layout = FRONT_LAYOUT + "  map: {type: image, src: images/map.svg, x: 4mm, y: 60mm, width: 20mm, height: 20mm}\n"
    game = make_game(tmp_path, layout_yaml=layout, files={"images/map.svg": GOOD_SVG})
    monkeypatch.chdir(tmp_path)
    assert check(cache, capsys, game)[:2] == ("[]\n", 4)  # two cards, front and back
    assert check(cache, capsys, game)[:2] == ("[]\n", 0)
    (game / "images" / "map.svg").write_text(BAD_SVG, "utf-8")
    out, measured, _ = check(cache, capsys, game)
    assert measured == 2 and {d["code"] for d in json.loads(out)} == {"E-ICON"}, out  # the fronts
    (game / "layouts" / "front.yaml").write_text(layout.replace("src: images/map.svg", "src: \"images/{{ 'map' }}.svg\""),
                                                 "utf-8")
    check(cache, capsys, game)
    assert check(cache, capsys, game)[1] == 2



def test_an_icon_drawn_after_the_fonts_came_from_the_cache_has_its_font(tmp_path):
    """A fresh process whose fonts' glyph sets all come from the disk cache registers no font, and
    an icon measured then (its face changed) needs the drawing renderer's default font: it is
    registered when the renderer is first loaded, not left to the check of the page text."""
    layout = "frames:\n  logo: {type: icon, x: 40mm, y: 70mm, width: 8mm, height: 8mm, icon: logo}\n"  # no text first
    game = make_game(tmp_path, layout_yaml=layout, files={"icons/logo.svg": GOOD_SVG})
    env = {"CARDFORGE_CACHE": str(tmp_path / "cache")}
    assert cardforge("check", game, cwd=tmp_path, env=env).returncode == 0
    time.sleep(diskcache.SETTLED_S)
    (game / "icons" / "logo.svg").write_text(GOOD_SVG.replace("width='5'", "width='6'"), "utf-8")
    result = cardforge("check", game, cwd=tmp_path, env=env)
    assert (result.returncode, result.stderr.strip()) == (0, "ok: no problems found")
