"""Hardening: each traceback class the mutation fuzzer found (issue 17), as its smallest reproducer.

Every input here once ended in a traceback or a crash; each must now be one diagnostic at the
offending file (and line), exit code 1, and no traceback."""
from __future__ import annotations

import os
import shutil

import pytest

from conftest import GAME_YAML, CARDS_YAML, REPO, cardforge, headlines, make_game

ICON_LAYOUT = """\
frames:
  title: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 8mm, text: "{{ card.title }}", size: 12pt}
  pic: {type: icon, x: 4mm, y: 20mm, width: 10mm, height: 10mm, icon: logo}
"""
GOOD_SVG = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='5' height='5'/></svg>"


def run(tmp_path, command="check", **game):
    make_game(tmp_path, **game)
    args = ["--out", "out", "--paper", "a4"] if command == "build" else []
    result = cardforge(command, "content/tiny", *args, cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def only_error(result) -> str:
    lines = [line for line in headlines(result.stderr) if ": error[" in line]
    assert result.returncode == 1, result.stderr
    assert len(lines) == 1, result.stderr
    return lines[0]


# -- SVG icons (issue 17, and the SVG defects of issue 10) -----------------------------------

ICON_CASES = {
    "broken-xml": (b"<svg xmlns='http://www.w3.org/2000/svg'><rect",
                   "content/tiny/icons/logo.svg:1:46: error[E-ICON]: icon is not well-formed XML: "
                   "Couldn't find end of Start Tag rect"),
    "no-size": (b"<svg xmlns='http://www.w3.org/2000/svg'><rect width='5' height='5'/></svg>",
                "content/tiny/icons/logo.svg:1:1: error[E-ICON]: icon has no size: its <svg> has neither a viewBox "
                "nor width and height"),
    "utf-16": (GOOD_SVG.encode("utf-16"),
               "content/tiny/icons/logo.svg:1:1: error[E-ICON]: icon file is not UTF-8 (it is UTF-16) (byte 0)"),
    "bad-length": (GOOD_SVG.replace("viewBox", "width='1q0' height='10' viewBox").encode(),
                   "content/tiny/icons/logo.svg:1:1: error[E-ICON]: icon cannot be drawn: Can't convert '1q0' to length"),
    "entity": (b"<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;'>]>"
               + GOOD_SVG.replace("<rect", "<text>&b;</text><rect").encode(),
               "content/tiny/icons/logo.svg:1:1: error[E-ICON]: icon declares a DOCTYPE or entities, which are "
               "refused (entity expansion, external entities)"),
    "external-entity": (b"<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>"
                        + GOOD_SVG.replace("<rect", "<text>&x;</text><rect").encode(),
                        "content/tiny/icons/logo.svg:1:1: error[E-ICON]: icon declares a DOCTYPE or entities, which "
                        "are refused (entity expansion, external entities)"),
    "external-image": (GOOD_SVG.replace("<rect", "<image href='../../../secret.png' width='5' height='5'/><rect")
                       .encode(),
                       "content/tiny/icons/logo.svg:1:1: error[E-ICON]: icon refers to '../../../secret.png' outside "
                       "itself; references to other files and URLs are refused"),
    "external-use": (GOOD_SVG.replace("<rect", "<use xlink:href='http://example.com/x.svg#a' "
                                      "xmlns:xlink='http://www.w3.org/1999/xlink'/><rect").encode(),
                     "content/tiny/icons/logo.svg:1:1: error[E-ICON]: icon refers to 'http://example.com/x.svg#a' "
                     "outside itself; references to other files and URLs are refused"),
    "too-large": (GOOD_SVG.replace("</svg>", "<!--" + "x" * (1024 * 1024) + "--></svg>").encode(),
                  "content/tiny/icons/logo.svg:1:1: error[E-ICON]: icon file is larger than the limit of 1024 KB"),
}


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("case", sorted(ICON_CASES))
def test_bad_svg_icon_is_a_diagnostic_at_the_icon_file(tmp_path, case, command):
    data, expected = ICON_CASES[case]
    result = run(tmp_path, command, layout_yaml=ICON_LAYOUT, files={"icons/logo.svg": data})
    assert only_error(result) == expected
    assert not list((tmp_path / "out").rglob("*.pdf"))


def test_icon_that_is_a_folder(tmp_path):
    (tmp_path / "content" / "tiny" / "icons" / "logo.svg").mkdir(parents=True)
    result = run(tmp_path, "build", layout_yaml=ICON_LAYOUT)
    assert only_error(result) == "content/tiny/icons/logo.svg:1:1: error[E-ICON]: this icon is a folder, not an SVG file"


def test_good_svg_icon_still_builds(tmp_path):
    result = run(tmp_path, "build", layout_yaml=ICON_LAYOUT, files={"icons/logo.svg": GOOD_SVG})
    assert result.returncode == 0, result.stderr


# -- files -----------------------------------------------------------------------------------

def test_symlink_loop_as_card_file(tmp_path):
    game = tmp_path / "content" / "tiny"
    (game / "cards").mkdir(parents=True)
    os.symlink("b.yaml", game / "cards" / "a.yaml")
    os.symlink("a.yaml", game / "cards" / "b.yaml")
    result = run(tmp_path, game_yaml=GAME_YAML.replace("cards/cards.yaml", "cards/a.yaml"), cards_yaml=None)
    assert only_error(result) == "content/tiny/game.yaml:8:12: error[E-MISSING-FILE]: card file 'cards/a.yaml' does not exist"


def test_symlink_loop_as_layout(tmp_path):
    game = tmp_path / "content" / "tiny"
    (game / "layouts").mkdir(parents=True)
    os.symlink("y.yaml", game / "layouts" / "x.yaml")
    os.symlink("x.yaml", game / "layouts" / "y.yaml")
    result = run(tmp_path, game_yaml=GAME_YAML.replace("front: front", "front: x"))
    assert only_error(result).startswith("content/tiny/game.yaml:9:12: error[E-UNKNOWN-LAYOUT]: unknown layout 'x'")


def test_very_long_layout_name(tmp_path):
    name = "x" * 500
    result = run(tmp_path, game_yaml=GAME_YAML.replace("front: front", f"front: {name}"))
    assert only_error(result) == f"content/tiny/game.yaml:9:12: error[E-UNKNOWN-LAYOUT]: unknown layout '{name}'"


# -- numbers and depth -----------------------------------------------------------------------

def test_five_thousand_digit_integer(tmp_path):
    result = run(tmp_path, cards_yaml=CARDS_YAML.replace("cost: 1", "cost: " + "9" * 5000))
    assert only_error(result) == ("content/tiny/cards/cards.yaml:5:11: error[E-LIMIT]: integer of 5000 characters is "
                                  "larger than the limit of integer size (18 digits)")
    assert len(result.stderr) < 2000  # the excerpt of the line is cut short


def test_integer_just_over_the_limit(tmp_path):
    result = run(tmp_path, cards_yaml=CARDS_YAML.replace("cost: 1", "cost: 1000000000000000000"))
    assert only_error(result) == ("content/tiny/cards/cards.yaml:5:11: error[E-LIMIT]: integer 1000000000000000000 is "
                                  "larger than the limit of integer size (18 digits)")


@pytest.mark.parametrize("opening,closing,col", [("[", "]", 108), ("{a: ", "}", 399)])
def test_fifty_thousand_deep_value(tmp_path, opening, closing, col):
    value = opening * 50_000 + closing * 50_000
    result = run(tmp_path, cards_yaml=CARDS_YAML.replace("cost: 1", f"cost: {value}"))
    assert result.returncode == 1, (result.returncode, result.stderr[-500:])  # it was -11 (SIGSEGV)
    assert only_error(result) == (f"content/tiny/cards/cards.yaml:5:{col}: error[E-LIMIT]: nested more than 100 "
                                  "levels deep (the limit of nesting depth)")


def test_moderately_deep_value_found_by_the_builder(tmp_path):
    value = "[" * 150 + "]" * 150  # under the scan threshold: the node builder counts the levels
    result = run(tmp_path, cards_yaml=CARDS_YAML.replace("cost: 1", f"cost: {value}"))
    assert "error[E-LIMIT]: nested more than 100 levels deep (the limit of nesting depth)" in only_error(result)


def test_file_size_limit(tmp_path):
    big = CARDS_YAML + "# " + "x" * (4 * 1024 * 1024) + "\n"
    result = run(tmp_path, cards_yaml=big)
    assert only_error(result) == ("content/tiny/cards/cards.yaml:1:1: error[E-LIMIT]: file is larger than the limit of "
                                  "file size (4 MB)")


# -- rules: a group or value that the content deleted ----------------------------------------

@pytest.mark.parametrize("edit", ["delete-group", "delete-value"])
def test_rules_that_name_a_deleted_group_or_value(tmp_path, edit):
    game = tmp_path / "content" / "bomber-boys"
    shutil.copytree(REPO / "content" / "bomber-boys", game)
    shutil.copytree(REPO / "layouts", tmp_path / "layouts")
    rules = game / "rules.yaml"
    text = rules.read_text("utf-8")
    if edit == "delete-group":
        start = text.index("\n  crew:", text.index("\ngroups:"))
        end = text.index("\n  ", start + 1)
        while text[end + 3] == " ":  # the group's own lines
            end = text.index("\n  ", end + 1)
        text = text[:start] + text[end:]
    else:
        start = text.index("\n  crew_actions:")
        text = text[:start] + text[text.index("\n", start + 1):]
    rules.write_text(text, "utf-8")
    result = cardforge("check", "content/bomber-boys", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert result.returncode == 1, result.stderr
    assert headlines(result.stderr), result.stderr
