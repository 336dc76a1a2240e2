"""game-icons.net's icons at hand: `cardforge icons search/show/export`, a game naming a library
icon in game.yaml (`icons: {plane: game-icons:airplane}`), drawn like an SVG file of its icons/,
its mistakes reported at their line, and its author credited on the kit's cover and in the manifest."""
from __future__ import annotations

import io
import json
import zipfile

import pypdfium2 as pdfium
import pytest
from PIL import Image

from conftest import GAME_YAML, cardforge, headlines, load_manifest, make_game

CARDS = """\
cards:
  - id: alpha
    title: Alpha
    text: "Fly :plane: two spaces."
    cost: 1
  - id: beta
    title: Beta
    text: "Drop :bomb: on a target."
    cost: 2
"""
DECLARED = GAME_YAML + "icons:\n  plane: game-icons:airplane\n  bomb: game-icons:falling-bomb\n"
SKOLL_AND_DELAPOUITE = "Icons by Delapouite and Skoll (CC BY 3.0, creativecommons.org/licenses/by/3.0), from game-icons.net"


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


# -- the library ----------------------------------------------------------------------------

def test_the_shipped_set_has_every_icon_with_its_author_and_the_licence():
    from cardforge import resources
    from cardforge.layout.iconsets import icon_set
    library = icon_set("game-icons")
    assert len(library.icons) > 4000
    with zipfile.ZipFile(io.BytesIO(resources.read_bytes("iconsets", "game-icons.zip"))) as archive:
        assert len([n for n in archive.namelist() if n.startswith("svg/")]) == len(library.icons)
    known = [name for name, author in library.icons.items() if author]
    assert len(known) >= len(library.icons) - 11  # the tarot cards 11 to 21: not in the site's repository
    assert {library.authors[a]["name"] for a in library.icons.values() if a} >= {"Lorc", "Delapouite", "Skoll"}
    assert library.icon("airplane").author == "Skoll"
    assert library.icon("cauldron").author == "Lorc"  # DarkZaitzev drew a cauldron too: iconify kept Lorc's
    assert library.icon("eskimo").icon == "person-in-blizzard"  # an old name still works
    assert "Icons made by {author}" in library.license_text()
    assert library.svg("airplane").startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">')
    assert 'fill="currentColor"' in library.svg("airplane")  # drawn in the colour a layout asks for


def test_search_ranks_whole_words_before_parts_of_words():
    from cardforge.layout.iconsets import icon_set
    names = [hit.name for hit in icon_set().search("plane", limit=None)]
    assert names.index("paper-plane") < names.index("airplane") < names.index("planet-core")
    assert "biplane" in names
    assert [hit.name for hit in icon_set().search("falling bombs", limit=1)] == ["falling-bomb"]  # plural, two words


def test_credit_lines_name_each_author_once_and_wrap():
    from cardforge.layout.iconsets import credit_lines, icon_set
    library = icon_set()
    used = {name: library.icon(name) for name in ("airplane", "cauldron", "ram", "death-skull", "tarot-13-death",
                                                   "bat", "police-badge", "card-10-clubs", "riposte")}
    lines = credit_lines(used, width=80)
    text = " ".join(lines)
    assert all(len(line) <= 80 for line in lines) and len(lines) > 1
    for author in ("Lorc", "Skoll", "Sbed", "Andy Meneely", "Aussiesim"):
        assert text.count(author) == 1
    assert "other game-icons.net authors" in text  # the tarot card whose author is not recorded
    assert "CC BY 3.0, creativecommons.org/licenses/by/3.0" in text


# -- the command ----------------------------------------------------------------------------

def test_icons_search_prints_names_on_stdout_best_first(tmp_path):
    done = cardforge("icons", "search", "plane", "--limit", "5", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in _lines(done.stdout)]
    assert [row[0] for row in rows] == ["paper-plane", "plane-pilot", "plane-wing", "airplane", "biplane"]
    assert rows[3] == ["airplane", "Skoll"]
    assert "5 of 12 icons for 'plane'; --limit 12 shows all" in done.stderr
    assert done.stdout.count("\n") == 5


def test_icons_search_mends_a_typo_and_exits_1_when_nothing_matches(tmp_path):
    done = cardforge("icons", "search", "plaen", cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert "no icon's name holds 'plaen'; did you mean 'plane'? (cardforge icons search plane)" in done.stderr
    author = cardforge("icons", "search", "skull", "--author", "lorc", "--limit", "0", cwd=tmp_path)
    assert author.returncode == 0 and {line.split()[1] for line in _lines(author.stdout)} == {"Lorc"}


def test_icons_show_tells_author_licence_and_how_to_use_it(tmp_path):
    done = cardforge("icons", "show", "airplane", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "author:   Skoll" in done.stdout
    assert "licence:  CC BY 3.0 (creativecommons.org/licenses/by/3.0)" in done.stdout
    assert "airplane: game-icons:airplane" in done.stdout
    preview = [line for line in done.stdout.splitlines() if set(line) <= set(" ▀▄█") and line.strip()]
    assert 3 <= len(preview) <= 16 and max(len(line) for line in preview) <= 32
    wrong = cardforge("icons", "show", "airplan", cwd=tmp_path)
    assert wrong.returncode == 2
    assert "cardforge: error: no icon 'airplan'; did you mean airplane" in wrong.stderr


def test_icons_export_writes_svg_and_png_files(tmp_path):
    done = cardforge("icons", "export", "airplane", "falling-bomb", "--out", "icons", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _lines(done.stdout) == ["icons/airplane.svg", "icons/falling-bomb.svg"]
    assert 'fill="#000000"' in (tmp_path / "icons/airplane.svg").read_text("utf-8")
    assert "no longer credited automatically" in done.stderr
    png = cardforge("icons", "export", "death-skull", "--png", "--size", "64", "--color", "#aa0000", cwd=tmp_path)
    assert png.returncode == 0, png.stderr
    image = Image.open(tmp_path / "death-skull.png").convert("RGBA")
    assert image.size == (64, 64)
    inked = [image.getpixel((x, y)) for x in range(64) for y in range(64) if image.getpixel((x, y))[3] > 200]
    assert len(inked) > 64 * 64 // 4 and all(p[0] > 150 and p[1] < 40 for p in inked)
    assert image.getpixel((0, 0))[3] == 0  # transparent around the drawing
    bad = cardforge("icons", "export", "airplane", "nope-nope", "--out", "x", cwd=tmp_path)
    assert bad.returncode == 2 and not (tmp_path / "x").exists()  # every name checked before a file is written


# -- a game using library icons ----------------------------------------------------------------

@pytest.fixture(scope="module")
def two_games(tmp_path_factory):
    """The same tiny game built twice: naming game-icons' airplane and falling-bomb in game.yaml, and
    with those same SVGs as files of its icons/ folder."""
    from cardforge.layout.iconsets import icon_set
    root = tmp_path_factory.mktemp("icons")
    named = make_game(root / "named", game_yaml=DECLARED, cards_yaml=CARDS)
    files = make_game(root / "files", cards_yaml=CARDS, files={"icons/plane.svg": icon_set().svg("airplane"),
                                                              "icons/bomb.svg": icon_set().svg("falling-bomb")})
    for game in (named, files):
        done = cardforge("build", game, "--paper", "a4", "--out", game.parent / "out", cwd=root, timeout=300)
        assert done.returncode == 0, done.stderr
    return named.parent / "out" / "tiny", files.parent / "out" / "tiny"


def _page_pixels(pdf, index: int) -> bytes:
    page = pdfium.PdfDocument(str(pdf))[index]
    return page.render(scale=1.5).to_pil().convert("RGB").tobytes()


def test_a_library_icon_is_drawn_exactly_like_the_same_svg_file(two_games):
    named, files = two_games
    cards = "tiny-cards-a4.pdf"
    assert _page_pixels(named / cards, 0) == _page_pixels(files / cards, 0)
    # and the page does hold the icons: the manifest counts them on the faces
    faces = [json.dumps(record) for record in load_manifest(named / "tiny-cards-a4.manifest.json")["cards"]]
    assert any('"plane": 1' in face for face in faces) and any('"bomb": 1' in face for face in faces)


def test_the_kit_credits_the_library_icons_on_its_cover_and_in_its_manifest(two_games):
    import pdfplumber
    named, files = two_games
    with pdfplumber.open(named / "tiny-kit-a4.pdf") as pdf:
        cover = pdf.pages[0].extract_text()
    assert SKOLL_AND_DELAPOUITE in cover
    with pdfplumber.open(files / "tiny-kit-a4.pdf") as pdf:
        assert "game-icons.net" not in pdf.pages[0].extract_text()  # icon files: the designer credits them
    manifest = load_manifest(named / "tiny-kit-a4.manifest.json")
    assert manifest["credits"] == [SKOLL_AND_DELAPOUITE]
    assert manifest["library_icons"] == [
        {"name": "bomb", "icon": "game-icons:falling-bomb", "author": "Delapouite", "license": "CC-BY-3.0"},
        {"name": "plane", "icon": "game-icons:airplane", "author": "Skoll", "license": "CC-BY-3.0"}]


# -- mistakes -----------------------------------------------------------------------------------

def _check(tmp_path, game_yaml: str, cards: str = CARDS, files: dict | None = None):
    game = make_game(tmp_path, game_yaml=game_yaml, cards_yaml=cards, files=files)
    done = cardforge("check", game, cwd=tmp_path / "content")
    return done, headlines(done.stderr)


def test_an_unknown_library_icon_is_an_error_at_its_line_with_the_nearest_name(tmp_path):
    yaml = GAME_YAML + "icons:\n  plane: game-icons:airplan\n  bomb: falling-bomb\n"
    done, lines = _check(tmp_path, yaml)
    assert done.returncode == 1
    assert lines == [
        "tiny/game.yaml:16:10: error[E-UNKNOWN-ICON]: game-icons has no icon 'airplan'",
        "tiny/game.yaml:17:9: error[E-UNKNOWN-ICON]: 'falling-bomb' names no icon set: a library icon is "
        "written 'game-icons:NAME'"]
    assert "help: did you mean 'airplane'?" in done.stderr
    assert "help: for example bomb: game-icons:falling-bomb" in done.stderr


def test_a_name_the_game_cannot_write_and_a_clash_with_an_icon_file_are_errors(tmp_path):
    yaml = GAME_YAML + "icons:\n  Plane: game-icons:airplane\n  bomb: game-icons:falling-bomb\n"
    done, lines = _check(tmp_path, yaml, CARDS.replace(":plane:", "fast"),
                         files={"icons/bomb.svg": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"/>'})
    assert lines == [
        "tiny/game.yaml:16:3: error[E-UNKNOWN-ICON]: icon name 'Plane' cannot be written in a text as :Plane:",
        "tiny/game.yaml:17:3: error[E-ICON]: icon 'bomb' is both icons/bomb.svg and game-icons:falling-bomb"]


def test_a_library_icon_named_but_not_used_is_a_warning_at_its_line(tmp_path):
    yaml = DECLARED + "  compass: game-icons:compass\n"
    done, lines = _check(tmp_path, yaml)
    assert done.returncode == 0, done.stderr
    assert lines == ["tiny/game.yaml:18:12: warning[W-UNUSED-ICON]: icon 'compass' (game-icons:compass) is not "
                     "drawn on any face nor named in a layout, yet the kit credits it"]


def test_a_list_names_each_icon_by_its_own_name(tmp_path):
    yaml = GAME_YAML + "icons: [game-icons:airplane, game-icons:falling-bomb]\n"
    done, lines = _check(tmp_path, yaml, CARDS.replace(":plane:", ":airplane:").replace(":bomb:", ":falling-bomb:"))
    assert done.returncode == 0 and lines == [], done.stderr


def test_an_unknown_icon_in_a_text_points_at_the_library(tmp_path):
    done, lines = _check(tmp_path, GAME_YAML, CARDS.replace(":bomb:", ":compass:").replace(":plane:", "fast"))
    assert done.returncode == 1 and lines[0].endswith("':compass:' is not an icon, so it would be printed as text")
    assert "game-icons.net has 'compass': add it to game.yaml as `icons: {compass: game-icons:compass}`" in done.stderr


def test_the_docs_gallery_draws_each_of_its_icons_from_the_shipped_set():
    from cardforge.layout.iconsets import GALLERY, icon_set
    from cardforge.reference import pages
    page = pages()["guides/icon-gallery.md"]
    names = [name for names in GALLERY.values() for name in names.split()]
    assert page.count("<svg ") == len(names) > 90
    for name in ("airplane", "death-skull", "coins"):
        path = icon_set().svg(name).split('d="', 1)[1][:60]
        assert f'aria-label="{name}">' in page and path in page
    assert "<small>Skoll</small>" in page  # each with its author


def test_an_icon_the_schema_refuses_is_reported_once_and_the_others_still_serve(tmp_path):
    yaml = GAME_YAML + "icons:\n  plane: 5\n  bomb: game-icons:falling-bomb\n"
    done, lines = _check(tmp_path, yaml)
    assert lines == ["tiny/game.yaml:16:10: error[E-SCHEMA]: expected string, got a number (5)"]
