"""Attacks stay refused (issue 17, part 6): content is untrusted input.

Each attack is a game folder built (or checked) the way a user runs cardforge.  Beside the game
folder lie files it must never reach (a card file, a text, a picture and a schema holding a
secret).  Every test asserts the exact diagnostic the user sees, exit code 1, no traceback, that
the secret is in no output and in nothing printed, and that nothing outside the output folder was
written or changed (the game folder included).

Covered elsewhere and not repeated here: the SVG entity, external-entity, '../' image and http
<use> cases (test_harden.py), a set schema's $ref to https and to '../' (test_community_sets.py),
a deck field's $ref (test_schema.py), and the sandbox's limits on repetition, exponents, output
length and time (test_templates.py, test_limits.py).
"""
from __future__ import annotations

import os
from pathlib import Path

import pypdf
import pytest
from PIL import Image
from PIL.PngImagePlugin import PngInfo

from conftest import CARDS_YAML, FRONT_LAYOUT, GAME_YAML, cardforge, headlines, make_game

from cardforge.frontend.load import MAX_NODES

SECRET = "TOPSECRET-7431"
CARDS = "content/tiny/cards/cards.yaml"
GOOD_SVG = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='5' height='5'/></svg>"
ICON_LAYOUT = FRONT_LAYOUT.replace('"{{ card.title }}"', '"{{ card.title }} :logo:"')
XLINK = "xmlns:xlink='http://www.w3.org/1999/xlink'"


def _secrets(root: Path) -> None:
    """Files outside the game folder that an attack would like to read into the output."""
    (root / "secret.yaml").write_text(f"cards:\n  - id: stolen\n    title: {SECRET}\n    text: {SECRET}\n")
    (root / "secret.txt").write_text(SECRET + "\n")
    (root / "secret.json").write_text('{"type": "string", "description": "%s"}' % SECRET)
    info = PngInfo()
    info.add_text("Comment", SECRET)
    Image.new("RGB", (8, 8), "red").save(root / "secret.png", pnginfo=info)


def _files(root: Path) -> dict[str, object]:
    """Every file and link under root except the output folder: bytes, or a link's target."""
    found = {}
    for folder, dirs, names in os.walk(root):
        if Path(folder) == root and "out" in dirs:
            dirs.remove("out")
        for name in names + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            found[rel] = ("link", os.readlink(path)) if path.is_symlink() else (path.read_bytes(), path.stat().st_mtime_ns)
    return found


def attack(tmp_path: Path, command: str = "build", setup=None, **game) -> list[str]:
    """Run the attack; return its error lines after checking that it leaked and wrote nothing."""
    _secrets(tmp_path)
    game_dir = make_game(tmp_path, **game)
    if setup is not None:
        setup(tmp_path, game_dir)
    before = _files(tmp_path)
    args = ["--out", "out", "--paper", "a4"] if command == "build" else []
    result = cardforge(command, "content/tiny", *args, cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr
    assert SECRET not in result.stdout + result.stderr
    assert _files(tmp_path) == before, "something outside the output folder was written or changed"
    out = tmp_path / "out"
    written = [p for p in out.rglob("*") if p.is_file() and p.name != ".tiny.cardforge.lock"] if out.is_dir() else []
    assert written == [], "a refused build wrote output"
    return [line for line in headlines(result.stderr) if ": error[" in line]


def _link(rel: str, target: str):
    def setup(root: Path, game: Path) -> None:
        path = game / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() or path.is_symlink():
            path.unlink()
        os.symlink(target, path)
    return setup


def test_the_secret_would_show_if_it_were_read(tmp_path):
    """The leak check can fail: the same game reading a secret that lies inside it prints it."""
    _secrets(tmp_path)
    make_game(tmp_path, files={"cards/more.yaml": (tmp_path / "secret.yaml").read_text()},
              game_yaml=GAME_YAML.replace("cards: cards/cards.yaml", "cards: [cards/cards.yaml, cards/more.yaml]"))
    assert cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", cwd=tmp_path).returncode == 0
    text = "".join(page.extract_text() for page in pypdf.PdfReader(tmp_path / "out/tiny/tiny-kit-a4.pdf").pages)
    assert SECRET in text


# -- YAML alias bombs ------------------------------------------------------------------------------

BOMB = "\n".join(['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
                 + [f"{n}: &{n} [" + ", ".join([f"*{p}"] * 9) + "]" for p, n in zip("abcdefgh", "bcdefghi")]) + "\n"
EXPANDS = f"error[E-YAML]: document expands to more than {MAX_NODES} values (alias bomb?)"


@pytest.mark.parametrize("where, game, expected", [
    ("card file", dict(cards_yaml=BOMB), f"{CARDS}:1:36: {EXPANDS}"),
    ("layout", dict(layout_yaml=FRONT_LAYOUT + "x:\n" + "".join(f"  {line}\n" for line in BOMB.splitlines())),
     f"content/tiny/layouts/front.yaml:5:38: {EXPANDS}"),
    ("rules", dict(files={"rules.yaml": BOMB}), f"content/tiny/rules.yaml:1:36: {EXPANDS}"),
    ("game.yaml", dict(game_yaml=GAME_YAML + BOMB.replace("a:", "zz_a:", 1)), f"content/tiny/game.yaml:15:46: {EXPANDS}"),
    ("recursive", dict(cards_yaml="cards: &x [1, *x]\n"),
     f"{CARDS}:1:8: error[E-YAML]: recursive alias: a node contains itself"),
], ids=["card-file", "layout", "rules", "game", "recursive"])
def test_yaml_alias_bombs_are_refused(tmp_path, where, game, expected):
    assert attack(tmp_path, **game) == [expected]


# -- path traversal --------------------------------------------------------------------------------

def _card_files(rel: str) -> str:
    return GAME_YAML.replace("cards: cards/cards.yaml", f"cards: {rel}")


def test_card_file_with_dotdot(tmp_path):
    assert attack(tmp_path, game_yaml=_card_files("../../secret.yaml")) == [
        "content/tiny/game.yaml:8:12: error[E-PATH]: card file '../../secret.yaml' is outside the game folder"]


def test_card_file_with_an_absolute_path(tmp_path):
    secret = tmp_path / "secret.yaml"
    assert attack(tmp_path, game_yaml=_card_files(str(secret))) == [
        f"content/tiny/game.yaml:8:12: error[E-PATH]: card file '{secret}' is outside the game folder"]


def test_card_file_that_links_out(tmp_path):
    assert attack(tmp_path, setup=_link("cards/cards.yaml", "../../../secret.yaml")) == [
        "content/tiny/game.yaml:8:12: error[E-PATH]: card file 'cards/cards.yaml' is outside the game folder"]


@pytest.mark.parametrize("source", ["cards/", "cards/*.yaml"])
def test_a_link_out_inside_a_folder_or_glob_of_card_files(tmp_path, source):
    # A folder's files were read without this check: the secret card was printed (fixed).
    assert attack(tmp_path, game_yaml=_card_files(source), setup=_link("cards/zz.yaml", "../../../secret.yaml")) == [
        f"content/tiny/game.yaml:8:12: error[E-PATH]: card file 'cards/zz.yaml' (of '{source}') links to a file "
        "outside the game folder"]


def test_a_card_folder_that_links_out(tmp_path):
    def setup(root, game):
        os.symlink(root, game / "more")
    assert attack(tmp_path, game_yaml=_card_files("more/"), setup=setup) == [
        "content/tiny/game.yaml:8:12: error[E-PATH]: card file 'more/' is outside the game folder"]


@pytest.mark.parametrize("name", ["../../../secret", "/etc/passwd"])
def test_layout_names_cannot_leave_the_layouts_folder(tmp_path, name):
    assert attack(tmp_path, game_yaml=GAME_YAML.replace("front: front", f"front: {name}")) == [
        f"content/tiny/game.yaml:9:12: error[E-UNKNOWN-LAYOUT]: unknown layout '{name}'"]


def test_layout_extending_a_file_outside(tmp_path):
    assert attack(tmp_path, layout_yaml="extends: ../../../secret\n" + FRONT_LAYOUT) == [
        "content/tiny/layouts/front.yaml:1:10: error[E-UNKNOWN-LAYOUT]: layout 'front' extends unknown layout "
        "'../../../secret'"]


def test_layout_file_that_links_out(tmp_path):
    assert attack(tmp_path, setup=_link("layouts/front.yaml", "../../../secret.yaml")) == [
        "content/tiny/game.yaml:9:12: error[E-PATH]: layout 'front' (layouts/front.yaml) links to a file outside "
        "its layouts folder, so it is not read"]


def test_icon_that_links_out(tmp_path):
    def setup(root, game):
        (root / "logo.svg").write_text(GOOD_SVG)
        _link("icons/logo.svg", "../../../logo.svg")(root, game)
    assert attack(tmp_path, layout_yaml=ICON_LAYOUT, setup=setup) == [
        "content/tiny/game.yaml:1:1: error[E-PATH]: icon 'logo.svg' links to a file outside the game folder"]


IMAGE = FRONT_LAYOUT + '  art: {type: image, x: 4mm, y: 62mm, width: 20mm, height: 20mm, src: "%s"}\n'
OUTSIDE = "error[E-PATH]: card '{card}' (front), frame 'art' of layout 'front': image '{src}' is outside the game folder"


@pytest.mark.parametrize("src", ["../../secret.png", "ABSOLUTE", "art/x.png"], ids=["dotdot", "absolute", "link"])
def test_images_outside_the_game_folder(tmp_path, src):
    src = str(tmp_path / "secret.png") if src == "ABSOLUTE" else src
    setup = _link("art/x.png", "../../../secret.png") if src == "art/x.png" else None
    assert attack(tmp_path, layout_yaml=IMAGE % src, setup=setup) == [
        f"{CARDS}:2:5: " + OUTSIDE.format(card="alpha", src=src), f"{CARDS}:6:5: " + OUTSIDE.format(card="beta", src=src)]


def test_image_path_from_a_card_field(tmp_path):
    cards = CARDS_YAML.replace('text: "First card, **bold** and *italic*."', "text: ../../secret.png")
    assert attack(tmp_path, layout_yaml=IMAGE % "{{ card.text }}", cards_yaml=cards)[0] == (
        f"{CARDS}:2:5: " + OUTSIDE.format(card="alpha", src="../../secret.png"))


@pytest.mark.parametrize("rel", ["../../secret.txt", "/etc/passwd", "fonts/x.ttf"], ids=["dotdot", "absolute", "link"])
def test_font_files_outside_the_game_folder(tmp_path, rel):
    setup = _link("fonts/x.ttf", "../../../secret.txt") if rel == "fonts/x.ttf" else None
    assert attack(tmp_path, game_yaml=GAME_YAML + f"fonts:\n  evil: {{regular: {rel}}}\n", setup=setup) == [
        f"content/tiny/game.yaml:16:19: error[E-PATH]: font file '{rel}' is outside the game folder"]


# -- Jinja2 sandbox escapes ------------------------------------------------------------------------

NOT_ALLOWED = "template not allowed: access to attribute '{attr}' of '{kind}' object is unsafe."


@pytest.mark.parametrize("expression, message", [
    ("''.__class__.__mro__", NOT_ALLOWED.format(attr="__class__", kind="str")),
    ("cycler.__init__.__globals__", NOT_ALLOWED.format(attr="__init__", kind="type")),
    ("joiner.__init__.__globals__.os", NOT_ALLOWED.format(attr="__init__", kind="type")),
    ("lipsum.__globals__", "template error: 'lipsum' is undefined"),  # removed from templates
    ("self.__init__.__globals__", NOT_ALLOWED.format(attr="__init__", kind="TemplateReference")),
    ("card.items.__self__", NOT_ALLOWED.format(attr="__self__", kind="builtin_function_or_method")),
    ("'' | attr('__class__')", NOT_ALLOWED.format(attr="__class__", kind="str")),
    ("card | attr('_Fields__declared')",
     "template error: 'cardforge.frontend.model.Fields object' has no attribute '_Fields__declared'"),
    ("'{0.__class__}'.format(card)", NOT_ALLOWED.format(attr="__class__", kind="Fields")),
    ("('{0.' ~ '__class__}').format(card)", NOT_ALLOWED.format(attr="__class__", kind="Fields")),
    ("'{x.__class__.__mro__}'.format_map({'x': card})", NOT_ALLOWED.format(attr="__class__", kind="Fields")),
    ("'%s' | format(card.__class__)", NOT_ALLOWED.format(attr="__class__", kind="Fields")),
    ("range(10**9) | list | length",
     "template refused: range of 1000000000 values is larger than the limit of 1000 in a layout"),
], ids=lambda v: v if len(v) < 40 else None)
def test_sandbox_escapes_in_layouts_are_refused(tmp_path, expression, message):
    layout = FRONT_LAYOUT.replace('"{{ card.title }}"', '"{{ %s }}"' % expression)
    code = "E-LIMIT" if "limit" in message else "E-TEMPLATE"
    found = attack(tmp_path, layout_yaml=layout)
    assert found[0] == (f"{CARDS}:2:5: error[{code}]: card 'alpha' (front), frame 'title' of layout 'front': "
                        f"'text': {message}")


RULES = """\
groups:
  all: {deck: main}
checks:
  - id: EV-IL
    section: "An evil check"
    group: all
    assert: "%s"
    message: never shown
"""


@pytest.mark.parametrize("expression, found", [
    ("''.__class__.__mro__", "7:13: error[E-RULES-EVAL]: EV-IL 'assert' on card 'alpha': not allowed: access to "
                             "attribute '__class__' of 'str' object is unsafe."),
    ("card.title.__class__", "7:13: error[E-RULES-EVAL]: EV-IL 'assert' on card 'alpha': not allowed: access to "
                             "attribute '__class__' of 'str' object is unsafe."),
    ("'{0.__class__.__mro__}'.format(card)", "7:13: error[E-RULES-EVAL]: EV-IL 'assert' on card 'alpha': not "
                                             "allowed: access to attribute '__class__' of 'Fields' object is unsafe."),
    ("card | attr('__class__')", "7:13: error[E-RULES-EVAL]: EV-IL 'assert' on card 'alpha': not allowed: access "
                                 "to attribute '__class__' of 'Fields' object is unsafe."),
    ("cycler.__init__.__globals__", "7:14: error[E-RULES-REF]: unknown name 'cycler'"),
    ("lipsum.__globals__", "7:14: error[E-RULES-REF]: unknown name 'lipsum'"),
    ("card._secret", "7:14: error[E-RULES-FIELD]: no card of group 'all' has a field '_secret'"),
    ("range(10**9) | list | length > 0", "7:13: error[E-LIMIT]: EV-IL 'assert' on card 'alpha': refused: range of "
                                         "more than the limit of 10000 values"),
], ids=lambda v: v if len(v) < 40 else None)
def test_sandbox_escapes_in_rules_are_refused(tmp_path, expression, found):
    assert attack(tmp_path, command="check", files={"rules.yaml": RULES % expression.replace('"', '\\"')}) == [
        f"content/tiny/rules.yaml:{found}"]


# -- SVG icons: entities and references out of the file --------------------------------------------

DOCTYPE = "error[E-ICON]: icon declares a DOCTYPE or entities, which are refused (entity expansion, external entities)"
REFERS = "error[E-ICON]: icon refers to '{}' outside itself; references to other files and URLs are refused"
STYLE = "error[E-ICON]: icon's style refers to another file or URL, which is refused"


@pytest.mark.parametrize("svg, expected", [
    (GOOD_SVG.replace("<rect", f"<image {XLINK} xlink:href='file:///etc/passwd' width='5' height='5'/><rect"),
     "1:1: " + REFERS.format("file:///etc/passwd")),
    (GOOD_SVG.replace("<rect", "<image href='http://example.com/x.png' width='5' height='5'/><rect"),
     "1:1: " + REFERS.format("http://example.com/x.png")),
    (GOOD_SVG.replace("<rect", f"<use {XLINK} xlink:href='file:///tmp/x.svg#a'/><rect"),
     "1:1: " + REFERS.format("file:///tmp/x.svg#a")),
    (GOOD_SVG.replace("<rect", "<xi:include xmlns:xi='http://www.w3.org/2001/XInclude' href='../../../secret.txt' "
                               "parse='text'/><rect"), "1:1: " + REFERS.format("../../../secret.txt")),
    (GOOD_SVG.replace("<rect", "<rect style='fill: url(file:///etc/passwd)' width='1' height='1'/><rect"),
     "1:1: " + STYLE),
    (GOOD_SVG.replace("<rect", "<style>@import url(http://example.com/x.css);</style><rect"), "1:1: " + STYLE),
    ("<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY x SYSTEM '../../../secret.txt'>]>"
     + GOOD_SVG.replace("<rect", "<text>&x;</text><rect"), "1:1: " + DOCTYPE),
    ("<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY % p SYSTEM 'http://example.com/x.dtd'> %p;]>" + GOOD_SVG,
     "1:1: " + DOCTYPE),
    ("<?xml version='1.0'?><!DOCTYPE svg SYSTEM 'file:///etc/passwd'>" + GOOD_SVG, "1:1: " + DOCTYPE),
    ("<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY a 'aaaaaaaaaa'>"
     + "".join(f"<!ENTITY {chr(98 + i)} '" + f"&{chr(97 + i)};" * 10 + "'>" for i in range(8)) + "]>"
     + GOOD_SVG.replace("<rect", "<text>&i;</text><rect"),
     "1:4: error[E-ICON]: icon is not well-formed XML: Maximum entity amplification factor exceeded, see "
     "xmlCtxtSetMaxAmplification."),
    # svglib looked the font of a <text> up with fc-match and embedded a system font file (fixed)
    (GOOD_SVG.replace("<rect", "<text x='1' y='8' font-family='DejaVu Serif' font-size='5'>Hi</text><rect"),
     "1:1: error[E-ICON]: icon has text (<text>), which would be drawn with a font found on this computer"),
], ids=["image-file-url", "image-http", "use-file-url", "xinclude", "style-url", "style-import", "xxe-file",
        "xxe-parameter-entity", "external-dtd", "billion-laughs", "text-with-a-system-font"])
def test_svg_entities_and_external_references_are_refused(tmp_path, svg, expected):
    assert attack(tmp_path, layout_yaml=ICON_LAYOUT, files={"icons/logo.svg": svg}) == [
        f"content/tiny/icons/logo.svg:{expected}"]


# -- JSON Schema $ref out of the game folder -------------------------------------------------------

SET_GAME = GAME_YAML.replace("    cards: cards/cards.yaml\n", "    cards: cards/cards.yaml\n    schema: schema/card.json\n")


def _schema(ref: str) -> str:
    return '{"type": "object", "properties": {"title": {"$ref": "%s"}}}' % ref


@pytest.mark.parametrize("ref, message", [
    ("file:///etc/passwd", "$ref 'file:///etc/passwd' points outside the game folder; nothing is fetched"),
    ("ABSOLUTE", "$ref '{ref}' points outside the game folder"),
    ("../../../secret.json", "$ref '../../../secret.json' points outside the game folder"),
    ("other.json", "$ref 'other.json' points outside the game folder"),  # a link out
], ids=["file-url", "absolute", "dotdot", "link"])
def test_schema_refs_out_of_the_game_folder_are_refused(tmp_path, ref, message):
    ref = str(tmp_path / "secret.json") if ref == "ABSOLUTE" else ref
    setup = _link("schema/other.json", "../../../secret.json") if ref == "other.json" else None
    assert attack(tmp_path, command="check", game_yaml=SET_GAME, files={"schema/card.json": _schema(ref)},
                  setup=setup) == [f"content/tiny/schema/card.json:1:53: error[E-SET-SCHEMA]: {message.format(ref=ref)}"]


def test_schema_ref_relative_to_a_file_url_id_stays_in_the_game_folder(tmp_path):
    schema = '{"$id": "file:///etc/", "type": "object", "properties": {"title": {"$ref": "passwd"}}}'
    assert attack(tmp_path, command="check", game_yaml=SET_GAME, files={"schema/card.json": schema}) == [
        "content/tiny/schema/card.json:1:76: error[E-SET-SCHEMA]: $ref 'passwd': no such schema file"]


def test_a_set_schema_file_that_links_out(tmp_path):
    assert attack(tmp_path, command="check", game_yaml=SET_GAME, setup=_link("schema/card.json", "../../../secret.json")) == [
        "content/tiny/game.yaml:9:13: error[E-PATH]: schema file 'schema/card.json' is outside the game folder"]
