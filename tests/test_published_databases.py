"""Card databases as their communities publish them (issue 28): a published schema used as it is
(a whole-pack schema with a pointer to one card, relative $refs, drafts 4 to 2020-12, $ref loops
diagnosed), a database's own tooling beside its data, and the defects found by trying ArkhamDB,
NetrunnerDB and FiveRingsDB. Everything runs on the authored sets of tests/fixtures/community/,
edited the way those databases are written; none of their data is copied here."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import cardforge, headlines

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "community"


def _copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def _run(tmp_path: Path, *args) -> tuple[int, list[str], str]:
    result = cardforge(*args, cwd=tmp_path)
    assert "Traceback" not in result.stderr and "RecursionError" not in result.stderr, result.stderr
    return result.returncode, headlines(result.stderr), result.stderr


def _drop_ids(game: Path) -> None:
    for path in (game / "schema").glob("*.json"):
        data = json.loads(path.read_text("utf-8"))
        data.pop("$id", None)
        path.write_text(json.dumps(data, indent=2), "utf-8")


# -- $ref between schema files, loops ---------------------------------------------------------------

def test_a_relative_ref_without_an_absolute_id_resolves_from_the_schema_files_own_place(tmp_path):
    # "common.schema.json" resolved against the working directory: "cannot resolve a $ref".
    game = _copy(tmp_path, "star-courier")
    _drop_ids(game)
    assert _run(tmp_path, "check", "star-courier")[:2] == (0, [])
    _edit(game / "data/rim.json", '"cost": 3,', '"cost": 30,')  # common.schema.json allows 0 to 20
    code, found, _ = _run(tmp_path, "check", "star-courier")
    assert code == 1
    assert found == ["star-courier/data/rim.json:3:12: error[E-SET-SCHEMA]: card 'sc101': cost: "
                     "30 is greater than the maximum of 20"]


@pytest.mark.parametrize("command", ["check", "build"])
def test_a_ref_loop_in_the_set_schema_is_a_diagnostic_at_the_ref(tmp_path, command):
    # It was a RecursionError in check and in build.
    game = _copy(tmp_path, "star-courier")
    _drop_ids(game)
    common = game / "schema/common.schema.json"
    data = json.loads(common.read_text("utf-8"))
    data["$defs"]["credits"] = {"allOf": [{"$ref": "#/$defs/money"}]}
    data["$defs"]["money"] = {"$ref": "#/$defs/credits"}
    common.write_text(json.dumps(data, indent=2), "utf-8")
    args = ["--out", "out"] if command == "build" else []
    code, found, err = _run(tmp_path, command, "star-courier", *args)
    assert code == 1
    assert found == ["star-courier/schema/common.schema.json:12:15: error[E-SET-SCHEMA]: $ref '#/$defs/credits' "
                     "leads back to itself through 2 references: checking a card against it would never end"]
    assert "= help: a $ref may come back to a schema only inside properties or items" in err


def test_a_ref_back_to_the_root_inside_properties_is_recursion_that_ends(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "schema/common.schema.json", '"credits": {"type": "integer", "minimum": 0, "maximum": 20}',
          '"credits": {"type": "integer", "minimum": 0, "maximum": 20},\n'
          '    "tree": {"type": "object", "properties": {"child": {"$ref": "#/$defs/tree"}}}')
    assert _run(tmp_path, "check", "star-courier")[:2] == (0, [])


# -- a database's own tooling -----------------------------------------------------------------------

def test_git_files_and_helper_scripts_are_not_ignored_content_but_stray_data_is(tmp_path):
    game = _copy(tmp_path, "star-courier")
    for rel in (".gitignore", ".github/workflows/test.yml", "convert.py", "src/validate.js", "package.json",
                ".husky/pre-commit", "node_modules/x/index.js"):
        (game / rel).parent.mkdir(parents=True, exist_ok=True)
        (game / rel).write_text("{}\n", "utf-8")
    (game / "bin").mkdir()
    (game / "bin/console").write_text("#!/usr/bin/env php\n<?php\n", "utf-8")  # FiveRingsDB's Symfony app
    for rel in ("symfony.lock", "COPYRIGHT.md", "update_locales.coffee"):  # NetrunnerDB's, ArkhamDB's
        (game / rel).write_text("x\n", "utf-8")
    (game / "data/old").mkdir()
    (game / "data/old/draft.json").write_text("[]\n", "utf-8")
    code, found, _ = _run(tmp_path, "check", "star-courier")
    assert code == 0
    assert [line for line in _run(tmp_path, "check", "star-courier")[2].splitlines() if "warning[" in line] == [
        "star-courier/data/old/draft.json:1:1: warning[W-IGNORED-FILE]: this file is ignored: no layout draws it "
        "and game.yaml does not name it"]


def test_the_rest_of_a_database_is_declared_not_the_games_with_ignore(tmp_path):
    # A game folder that is a database's checkout got a warning for each of its other packs and
    # translations: thousands for NetrunnerDB's, none of them a mistake.
    game = _copy(tmp_path, "star-courier")
    for rel in ("packs/second.json", "translations/fr/packs/second.fr.json", "cycles.json"):
        (game / rel).parent.mkdir(parents=True, exist_ok=True)
        (game / rel).write_text("[]\n", "utf-8")
    long_text = "[" + '"Ŝ",' * 1366 + '"x"]\n'  # its 4,096th byte cuts a character in two: still text
    (game / "translations/fr/notes.json").write_text(long_text, "utf-8")
    code, found, _ = _run(tmp_path, "check", "star-courier")
    assert code == 0 and len(found) == 4
    assert "star-courier/translations/fr/notes.json:1:1: warning[W-IGNORED-FILE]: this file is ignored: no " \
        "layout draws it and game.yaml does not name it" in found  # was "...notes.json is ignored", no line
    _edit(game / "game.yaml", "card_size: bridge", 'card_size: bridge\nignore: ["*.json", "old/"]')
    code, found, _ = _run(tmp_path, "check", "star-courier")
    assert (code, found) == (0, ["star-courier/game.yaml:9:20: warning[W-IGNORE]: ignore: 'old/' matches no "
                                 "file the check would report"])
    _edit(game / "game.yaml", '["*.json", "old/"]', '[packs/, "translations/*/packs/*"]')
    code, found, _ = _run(tmp_path, "check", "star-courier")
    assert [line.split(":")[0] for line in found] == ["star-courier/cycles.json", "star-courier/translations/fr/notes.json"]


# -- a whole-pack schema, with a pointer to one card ------------------------------------------------

def _pack_schema(game: Path, draft: str) -> None:
    """The card schema rewritten the way NetrunnerDB publishes its own: the schema of a whole pack
    file (an array of cards), in the given draft, the card's schema under `items`."""
    path = game / "schema/card.schema.json"
    card = json.loads(path.read_text("utf-8"))
    defs = card.pop("$defs")
    card.pop("$schema"), card.pop("$id")
    key = "definitions" if draft in ("draft-04", "draft-06", "draft-07") else "$defs"
    text = json.dumps({"$schema": SCHEMAS[draft], "type": "array", "items": card, key: defs}, indent=2)
    text = text.replace('"#/$defs/', f'"#/{key}/')
    if draft == "draft-04":  # no const before draft 6
        text = re.sub(r'"const": ("\w+")', r'"enum": [\1]', text)
    path.write_text(text, "utf-8")


SCHEMAS = {"draft-04": "http://json-schema.org/draft-04/schema#", "draft-06": "http://json-schema.org/draft-06/schema#",
           "draft-07": "http://json-schema.org/draft-07/schema#",
           "2019-09": "https://json-schema.org/draft/2019-09/schema",
           "2020-12": "https://json-schema.org/draft/2020-12/schema"}


@pytest.mark.parametrize("draft", sorted(SCHEMAS))
def test_a_whole_pack_schema_validates_each_card_through_a_pointer(tmp_path, draft):
    # "the card must be array" for every card, and a wrapper {"$ref": "card_schema.json#/items"}
    # did not resolve.
    game = _copy(tmp_path, "star-courier")
    _pack_schema(game, draft)
    _edit(game / "game.yaml", "schema: schema/card.schema.json", "schema: schema/card.schema.json#/items")
    assert _run(tmp_path, "check", "star-courier")[:2] == (0, [])
    _edit(game / "data/rim.json", '"cost": 3, "hull": 9, ', '"cost": 3, ')
    code, found, _ = _run(tmp_path, "check", "star-courier")
    assert code == 1
    assert found == ["star-courier/data/rim.json:2:3: error[E-SET-SCHEMA]: card 'sc101': fits none of the 4 kinds "
                     "its schema allows (oneOf); the closest is branch 1 (ship) 'Ship', which lacks: missing 'hull'"]


def test_a_pointer_to_nothing_in_the_schema_is_reported_at_the_deck(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _pack_schema(game, "2020-12")
    _edit(game / "game.yaml", "schema: schema/card.schema.json", "schema: schema/card.schema.json#/item")
    code, found, err = _run(tmp_path, "check", "star-courier")
    assert code == 1
    assert found == ["star-courier/game.yaml:16:13: error[E-SET-SCHEMA]: schema 'schema/card.schema.json#/item' "
                     "points at nothing in the document"]
    assert "= help: its top level holds: $defs, $schema, items, type" in err


# -- text as ArkhamDB writes it ---------------------------------------------------------------------

def _front_frames(tmp_path: Path, name: str, card: str) -> dict[str, str]:
    manifest = json.loads((tmp_path / f"out/{name}/{name}-cards-a4.manifest.json").read_text("utf-8"))
    face = next(f for f in manifest["cards"] if f.get("card") == card and f["side"] == "front")
    return {frame["name"]: frame.get("text", "") for frame in face["frames"]}


def test_a_symbol_with_an_underscore_finds_its_icon_file(tmp_path):
    # [elder_sign] looked for elder-sign.svg, and the error read "unknown symbol '[elder_sign]',
    # did you mean '[elder_sign]'?"
    game = _copy(tmp_path, "ember-vale")
    shutil.copy(game / "icons/fire.svg", game / "icons/elder_sign.svg")
    _edit(game / "cards/db/01005.json", "damage [fire]", "damage [fire] [elder_sign]")
    assert _run(tmp_path, "check", "ember-vale")[:2] == (0, [])
    _edit(game / "cards/db/01005.json", "[elder_sign]", "[elder_signs]")
    code, found, _ = _run(tmp_path, "check", "ember-vale")
    assert found == ["ember-vale/cards/db/01005.json:8:64: error[E-MARKUP-SYMBOL]: card '01005', field 'text': "
                     "unknown symbol '[elder_signs]', did you mean '[elder_sign]'?"]
    (game / "icons/elder_sign.svg").unlink()
    _edit(game / "cards/db/01005.json", "[elder_signs]", "[elder_sign]")
    code, found, _ = _run(tmp_path, "check", "ember-vale")
    assert found == ["ember-vale/cards/db/01005.json:8:64: error[E-MARKUP-SYMBOL]: card '01005', field 'text': "
                     "unknown symbol '[elder_sign]'"]  # never "did you mean" itself


def test_unbalanced_html_tags_are_errors_at_the_tag(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/db/01005.json", "damage [fire]", "damage <b>[fire]")
    _edit(game / "cards/db/01003.json", "by 1 [shield].", "by 1 [shield].</i>")
    code, found, err = _run(tmp_path, "check", "ember-vale")
    assert code == 1
    assert found == [
        "ember-vale/cards/db/01003.json:8:108: error[E-MARKUP-TAG]: card '01003', field 'text': '</i>' closes "
        "nothing: no '<i>' is open before it",
        "ember-vale/cards/db/01005.json:8:57: error[E-MARKUP-TAG]: card '01005', field 'text': '<b>' is never closed"]
    assert "= help: add '</b>' where the bold text ends" in err


def test_a_null_field_prints_nothing_and_an_empty_list_is_false(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/card.schema.json", '"amount": {"type": "integer"', '"amount": {"type": ["integer", "null"]')
    _edit(game / "cards/db/01003.json", '"health": 4', '"health": null')
    _edit(game / "layouts/vale-front.yaml", "text: \"EMBER VALE · {{ card.code }}\"",
          "text: \"EMBER VALE · {{ card.code }}\", when: \"{{ card.code[:0] | list }}\"")
    code, _, err = _run(tmp_path, "build", "ember-vale", "--out", "out", "--paper", "a4")
    assert code == 0, err
    frames = _front_frames(tmp_path, "ember-vale", "01003")
    assert frames["type-line"] == "ALLY · WATER · HEALTH"  # was "ALLY · WATER · HEALTH NONE"
    assert "code" not in frames  # an empty list (rendered "[]") drew it


def test_a_schema_error_in_one_card_hides_no_other_cards_glyph_error(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/db/01005.json", '"health": 1,', "")
    _edit(game / "cards/db/01003.json", "is reduced by 1", "is reduced → by 1")
    for command in ("check", "build"):
        code, found, _ = _run(tmp_path, command, "ember-vale", *(["--out", "out"] if command == "build" else []))
        assert code == 1
        assert found == [
            "ember-vale/cards/db/01003.json:1:1: error[E-GLYPH]: card '01003' (front), frame 'text' of layout "
            "'vale-front': font 'sans-regular' has no glyph for '→' (U+2192)",
            "ember-vale/cards/db/01005.json:4:16: error[E-SET-SCHEMA]: card '01005': missing 'health', which the "
            "set's schema asks for when type_code is 'ally'"], command


def test_every_stage_reports_at_once_schema_markup_icons_fit_and_glyphs(tmp_path):
    # ArkhamDB's 32 markup errors hid its 9 icon errors and a glyph error.
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/db/01005.json", '"health": 1,', "")  # schema
    _edit(game / "cards/db/01002.json", "to an enemy.", "to an <blink>enemy</blink>.")  # markup
    _edit(game / "cards/db/01003.json", "by 1 [shield].", "by 1 [shield]." + " Again and again." * 60)  # fit
    _edit(game / "cards/db/01001.json", "each enemy.", "each enemy → all.")  # glyph
    (game / "icons/coin.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">'
                                          '<text x="2" y="20">$</text></svg>', "utf-8")  # icon
    for command in ("check", "build"):
        code, found, _ = _run(tmp_path, command, "ember-vale", *(["--out", "out"] if command == "build" else []))
        assert code == 1
        assert [line.split(": error[")[0] + " " + line.split(": error[")[1].split("]")[0] for line in found] == [
            "ember-vale/cards/db/01001.json:1:1 E-GLYPH", "ember-vale/cards/db/01002.json:7:39 E-MARKUP-TAG",
            # the overflow at the card's text (line 8), under the first word cut off
            "ember-vale/cards/db/01003.json:8:901 E-TEXT-OVERFLOW", "ember-vale/cards/db/01005.json:4:16 E-SET-SCHEMA",
            "ember-vale/icons/coin.svg:1:1 E-ICON"], command


# -- records a database marks as not printable ------------------------------------------------------

def test_a_deck_leaves_out_the_records_its_filter_names(tmp_path):
    # ArkhamDB's placeholders (hidden: true) could not be left out by configuration.
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/card.schema.json", '"octgn_id": {"type": "string"}',
          '"octgn_id": {"type": "string"}, "hidden": {"type": "boolean"}')
    _edit(game / "cards/db/01005.json", '"health": 1,', '"hidden": true,')  # a placeholder: no health
    _edit(game / "game.yaml", "    id_from: code", '    id_from: code\n    exclude: "record.hidden"')
    code, _, err = _run(tmp_path, "build", "ember-vale", "--out", "out", "--paper", "a4")
    assert code == 0, err
    manifest = json.loads((tmp_path / "out/ember-vale/ember-vale-cards-a4.manifest.json").read_text("utf-8"))
    assert sorted({f["card"] for f in manifest["cards"] if f["side"] == "front"}) == [
        "01001", "01002", "01003", "01004"]


def test_a_filter_sees_the_joined_fields_so_a_pack_file_chooses_the_set(tmp_path):
    # FiveRingsDB lists a pack's cards in a file of their own (json/PackCard/core.json): the filter
    # could not see joined fields, so the core set could not be built without the whole database.
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "packs/core.json", '  "01004": 2,\n  "01005": 1\n', '  "01004": 2\n')  # 01005: another pack
    _edit(game / "cards/db/01005.json", "damage [fire]", "damage <b>[fire]")  # its own defect, not this set's
    _edit(game / "game.yaml", "    front: vale-front", '    exclude: "card.quantity is not defined"\n'
          "    front: vale-front")
    code, found, err = _run(tmp_path, "build", "ember-vale", "--out", "out", "--paper", "a4")
    assert (code, found) == (0, []), err
    manifest = json.loads((tmp_path / "out/ember-vale/ember-vale-cards-a4.manifest.json").read_text("utf-8"))
    fronts = [f["card"] for f in manifest["cards"] if f["side"] == "front"]
    assert sorted(set(fronts)) == ["01001", "01002", "01003", "01004"]
    assert len(fronts) == 1 + 3 + 2 + 2  # each with the copies its pack file gives
    _edit(game / "game.yaml", "card.quantity is not defined", "record.quantity is not defined")  # as published
    code, found, err = _run(tmp_path, "check", "ember-vale")  # no record has it: every one is left out
    assert [line for line in found if "W-UNUSED-ICON" not in line] == [
        "ember-vale/game.yaml:27:14: warning[W-EMPTY-DECK]: deck 'vale' has no cards: its exclude leaves out "
        "all 5 of its records"]
    assert "'card' the deck's card with its joined fields" in err


def test_a_filter_that_fails_is_reported_once_at_the_deck(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "game.yaml", "    id_from: code", '    id_from: code\n    exclude: "record.hidden > 1"')
    code, found, err = _run(tmp_path, "check", "ember-vale")
    assert code == 1
    assert found == ["ember-vale/game.yaml:21:14: error[E-TEMPLATE]: exclude fails on card '01001': expression "
                     "error: 'dict object' has no attribute 'hidden'"]
    assert "= help: a field some records lack is undefined: test it with 'is defined'" in err
    _edit(game / "game.yaml", 'exclude: "record.hidden > 1"', 'exclude: "record.hidden +"')
    code, found, err = _run(tmp_path, "check", "ember-vale")
    assert found == ["ember-vale/game.yaml:21:14: error[E-TEMPLATE]: exclude: expression syntax error: "
                     "unexpected 'end of template'"]


# -- markup dialects as data ------------------------------------------------------------------------

def _preset(game: Path, preset: str, marks: str = "") -> None:
    _edit(game / "game.yaml", "  html: true                  # <b> <i> <em> <strong> <br> <p>\n"
          '  symbols: "[name]"           # [fire] draws icons/fire.svg\n', f"  preset: {preset}\n{marks}")


def test_a_bracketed_number_is_text_in_the_netrunnerdb_dialect(tmp_path):
    # NetrunnerDB's Trace[3] was read as an unknown symbol '[3]'.
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/db/01005.json", "When Ember Sprite", "Trace[3]. When Ember Sprite")
    code, found, _ = _run(tmp_path, "check", "ember-vale")
    assert found == ["ember-vale/cards/db/01005.json:8:17: error[E-MARKUP-SYMBOL]: card '01005', field 'text': "
                     "unknown symbol '[3]'"]
    _preset(game, "netrunnerdb")
    _edit(game / "cards/db/01005.json", "to an enemy.", "to an enemy. Then trace[X].")  # X: a number the card gives
    code, _, err = _run(tmp_path, "build", "ember-vale", "--out", "out", "--paper", "a4")
    assert code == 0, err
    text = _front_frames(tmp_path, "ember-vale", "01005")["text"]
    assert text.startswith("Trace[3]. When Ember Sprite") and text.endswith("Then trace[X]."), text


@pytest.mark.parametrize("preset", ["netrunnerdb", "html"])
def test_html_lists_print_bullets_and_numbers_with_a_hanging_indent(tmp_path, preset):
    # NetrunnerDB's <ul><li> items lost their bullets: each was a bare line.
    import pdfplumber
    from conftest import MM, chars_in_box
    game = _copy(tmp_path, "ember-vale")
    _preset(game, preset)
    _edit(game / "cards/db/01005.json", "When Ember Sprite leaves play, deal 1 damage [fire] to an enemy.",
          "Choose one:<ul>\\n<li>Deal 1 damage to every enemy at your location and to each enemy engaged with "
          "you.</li>\\n<li>Heal 1.</li>\\n</ul>Then:<ol><li>Draw 1 card.</li><li>Gain 1 resource.</li></ol>")
    code, _, err = _run(tmp_path, "build", "ember-vale", "--out", "out", "--paper", "a4")
    assert code == 0, err
    manifest = json.loads((tmp_path / "out/ember-vale/ember-vale-cards-a4.manifest.json").read_text("utf-8"))
    face = next(f for f in manifest["cards"] if f.get("card") == "01005" and f["side"] == "front")
    frame = next(f for f in face["frames"] if f["name"] == "text")
    lines = frame["lines"]
    assert lines[0] == "Choose one:" and lines[1].startswith("• Deal 1 damage to every enemy"), lines
    assert lines[-4:] == ["• Heal 1.", "Then:", "1. Draw 1 card.", "2. Gain 1 resource."], lines
    continued = lines[2:lines.index("• Heal 1.")]
    assert continued and not continued[0].startswith("•"), lines  # the long item wraps
    # In the PDF: the item's second line starts under its first word, not under the bullet.
    with pdfplumber.open(tmp_path / "out/ember-vale/ember-vale-cards-a4.pdf") as pdf:
        page = pdf.pages[face["page"] - 1]
        chars = [c for c in chars_in_box(page, frame["box"]) if c["text"].strip()]
        rows: dict[float, list] = {}
        for c in chars:
            rows.setdefault(round(c["top"], 1), []).append(c)
        starts = [min(row, key=lambda c: c["x0"]) for _, row in sorted(rows.items())]
    texts = ["".join(c["text"] for c in sorted(row, key=lambda c: c["x0"])) for _, row in sorted(rows.items())]
    bullet, first_word, wrapped = starts[1], sorted(rows.items())[1][1], starts[2]
    word_x = sorted((c for c in first_word if c["text"] == "D"), key=lambda c: c["x0"])[0]["x0"]
    assert bullet["text"] == "•", texts
    assert abs(wrapped["x0"] - word_x) < 0.2 and wrapped["x0"] > bullet["x0"] + 1 * MM, (texts, wrapped, word_x)
    assert starts[0]["x0"] == pytest.approx(bullet["x0"], abs=0.2)  # the list itself starts at the margin


def test_arkhamdb_traits_and_marks_of_a_games_own(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _preset(game, "arkhamdb", "  marks:\n    - {token: '[fast]', icon: fire}\n")
    _edit(game / "cards/db/01005.json", "When Ember Sprite", "[[Spirit]]. [fast] When Ember Sprite")
    _edit(game / "cards/db/01005.json", "to an enemy.", "to an enemy.<hr><blockquote><span class='x'>Story.</span>"
          "</blockquote>")  # ArkhamDB's story text
    code, _, err = _run(tmp_path, "build", "ember-vale", "--out", "out", "--paper", "a4")
    assert code == 0, err
    manifest = json.loads((tmp_path / "out/ember-vale/ember-vale-cards-a4.manifest.json").read_text("utf-8"))
    face = next(f for f in manifest["cards"] if f.get("card") == "01005" and f["side"] == "front")
    text = next(f for f in face["frames"] if f["name"] == "text")
    assert text["text"].startswith("Spirit. :fire: When Ember Sprite")  # the trait printed, the token an icon


def test_a_mark_that_matches_no_text_of_the_game_is_a_warning_at_its_line(tmp_path):
    # {token: "<il>", ...} (for <li>) was accepted in silence; the preset's own marks may match nothing.
    game = _copy(tmp_path, "ember-vale")
    _preset(game, "arkhamdb", "  marks:\n    - {token: '[fast]', icon: fire}\n    - {token: '<il>', text: '- '}\n"
                              "    - {regex: '\\[\\[(Spirt)\\]\\]', style: bold}\n")
    _edit(game / "cards/db/01005.json", "When Ember Sprite", "[fast] When Ember Sprite")
    code, found, err = _run(tmp_path, "check", "ember-vale")
    lines = (game / "game.yaml").read_text("utf-8").splitlines()
    il = next(i for i, line in enumerate(lines) if "<il>" in line) + 1
    assert (code, found) == (0, [
        f"ember-vale/game.yaml:{il}:7: warning[W-MARK-UNUSED]: mark 2's token '<il>' matches no text of the "
        "game's cards (fields text, flavor)",
        f"ember-vale/game.yaml:{il + 1}:7: warning[W-MARK-UNUSED]: mark 3's regex '\\[\\[(Spirt)\\]\\]' matches no "
        "text of the game's cards (fields text, flavor)"]), err
    assert "= help: check its spelling against the card text as the database writes it, or delete the mark" in err


def test_a_value_map_prints_a_databases_encodings_as_the_card_does(tmp_path):
    # ArkhamDB writes an X cost as -2, * as -3 and no cost as null: the cost printed "-2".
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/card.schema.json", '"amount": {"type": "integer", "minimum": 0, "maximum": 9}',
          '"amount": {"type": ["integer", "null"], "minimum": -3, "maximum": 9}')
    _edit(game / "cards/db/01002.json", '"cost": 2,', '"cost": -2,')
    _edit(game / "cards/db/01003.json", '"cost": 3,', '"cost": -3,')
    _edit(game / "cards/db/01004.json", '"cost": 0,', '"cost": null,')
    _edit(game / "game.yaml", "    id_from: code\n",
          '    id_from: code\n    values:\n      cost: {-2: X, -3: "*", null: "—"}\n')
    code, _, err = _run(tmp_path, "build", "ember-vale", "--out", "out", "--paper", "a4")
    assert code == 0, err
    printed = {card: _front_frames(tmp_path, "ember-vale", card).get("cost")
               for card in ("01002", "01003", "01004", "01005")}
    assert printed == {"01002": "X", "01003": "*", "01004": "—", "01005": "1"}, printed
    with __import__("pdfplumber").open(tmp_path / "out/ember-vale/ember-vale-cards-a4.pdf") as pdf:
        text = "".join(page.extract_text() for page in pdf.pages)
    assert "-2" not in text and "-3" not in text


def test_a_value_map_for_a_field_no_card_has_is_a_warning_with_a_guess(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "game.yaml", "    id_from: code\n", "    id_from: code\n    values:\n      cots: {-2: X}\n")
    code, found, err = _run(tmp_path, "check", "ember-vale")
    line = next(i for i, text in enumerate((game / "game.yaml").read_text("utf-8").splitlines()) if "cots:" in text)
    assert (code, found) == (0, [f"ember-vale/game.yaml:{line + 1}:7: warning[W-VALUES-FIELD]: deck 'vale': values "
                                 "for 'cots', which no card of the deck has"]), err
    assert "= help: did you mean 'cost'?" in err


def test_a_mark_whose_regex_does_not_compile_is_an_error(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _preset(game, "arkhamdb", "  marks:\n    - {regex: '[(', text: x}\n")
    code, found, _ = _run(tmp_path, "check", "ember-vale")
    assert code == 1
    assert found and all("E-MARKUP-MARK" in line and "does not compile" in line for line in found), found


# -- fonts with fallbacks ---------------------------------------------------------------------------

def test_a_glyph_the_face_lacks_is_drawn_by_its_fallback_font(tmp_path):
    # ArkhamDB's → inside <b> was an E-GLYPH error, with no way to name a font that has it.
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/db/01003.json", "is reduced by 1", "is reduced <b>→</b> by 1")
    code, found, _ = _run(tmp_path, "check", "ember-vale")
    assert found == ["ember-vale/cards/db/01003.json:1:1: error[E-GLYPH]: card '01003' (front), frame 'text' of "
                     "layout 'vale-front': font 'sans-bold' has no glyph for '→' (U+2192)"]
    _edit(game / "game.yaml", "bleed: 3mm", "bleed: 3mm\nfont_fallbacks: {sans: [symbols]}")
    code, _, err = _run(tmp_path, "build", "ember-vale", "--out", "out", "--paper", "a4")
    assert code == 0, err
    import pdfplumber
    with pdfplumber.open(tmp_path / "out/ember-vale/ember-vale-cards-a4.pdf") as pdf:
        arrows = [c for page in pdf.pages for c in page.chars if c["text"] == "→"]
    assert arrows and all(c["fontname"].endswith("+DejaVuSans-Bold") for c in arrows), arrows
    _edit(game / "game.yaml", "sans: [symbols]", "sans: [symbol]")
    code, found, err = _run(tmp_path, "check", "ember-vale")
    assert found == ["ember-vale/cards/db/01003.json:1:1: error[E-GLYPH]: card '01003' (front), frame 'text' of "
                     "layout 'vale-front': font 'sans-bold' has no glyph for '→' (U+2192)",
                     "ember-vale/game.yaml:10:25: error[E-FONT]: font_fallbacks: unknown font family 'symbol'"]
    assert "= help: did you mean 'symbols'?" in err


def test_italic_text_draws_its_fallback_glyph_from_the_italic_face(tmp_path):
    # The symbols family had no italic: an arrow in italic text was drawn upright (DejaVuSans).
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "game.yaml", "bleed: 3mm", "bleed: 3mm\nfont_fallbacks: {sans: [symbols]}")
    _edit(game / "cards/db/01003.json", "is reduced by 1", "is reduced <i>→ ا</i> <b><i>→</i></b> by 1")
    code, found, err = _run(tmp_path, "build", "ember-vale", "--out", "out", "--paper", "a4")
    assert (code, found) == (0, []), err
    import pdfplumber
    with pdfplumber.open(tmp_path / "out/ember-vale/ember-vale-cards-a4.pdf") as pdf:
        drawn = [(c["text"], c["fontname"].split("+")[1]) for page in pdf.pages for c in page.chars
                 if c["text"] in "→ا"]
    # the Arabic letter is in DejaVu's upright face only: drawn upright rather than failing
    assert drawn == [("→", "DejaVuSans-Oblique"), ("ا", "DejaVuSans"), ("→", "DejaVuSans-BoldOblique")] * 2, drawn  # 2 copies

