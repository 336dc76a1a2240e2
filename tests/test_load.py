"""Stage 1, loading YAML: positions of values and keys, and the YAML problems a user makes."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardforge.diagnostics import Report
from cardforge.frontend.load import load_yaml


def load(tmp_path: Path, text: str | bytes, name: str = "doc.yaml"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, "utf-8")
    report = Report()
    doc = load_yaml(path, report)
    return doc, report


def where(pos) -> tuple[int, int]:
    return pos.line, pos.col


def only_error(report: Report):
    assert len(report.items) == 1, [d.headline() for d in report.items]
    return report.items[0]


def test_values_and_keys_keep_their_line_and_column(tmp_path):
    doc, report = load(tmp_path, (
        "cards:\n"
        "  - id: alpha\n"
        "    title: 'Alpha'\n"
        "    hits: [1, 22,\n"
        "      333]\n"
        "    sight: {clock: 12, altitude: high}\n"))
    assert report.items == []
    assert doc.data == {"cards": [{"id": "alpha", "title": "Alpha", "hits": [1, 22, 333],
                                   "sight": {"clock": 12, "altitude": "high"}}]}
    assert where(doc.pos("/cards/0")) == (2, 5)
    assert where(doc.pos("/cards/0/id")) == (2, 9)
    assert where(doc.pos("/cards/0/title")) == (3, 12)
    assert where(doc.pos("/cards/0/title", key=True)) == (3, 5)
    assert where(doc.pos("/cards/0/hits/1")) == (4, 15)
    assert where(doc.pos("/cards/0/hits/2")) == (5, 7)
    assert where(doc.pos("/cards/0/sight/altitude")) == (6, 34)
    assert where(doc.pos("/cards/0/sight/altitude", key=True)) == (6, 24)


def test_position_of_a_missing_value_is_its_nearest_parent(tmp_path):
    doc, _ = load(tmp_path, "cards:\n  - id: alpha\n    title: Alpha\n")
    assert where(doc.pos("/cards/0/nothing/deeper")) == (2, 5)


def test_keys_with_slash_and_tilde_are_escaped_in_pointers(tmp_path):
    doc, report = load(tmp_path, "a/b: 1\nc~d: 2\n")
    assert report.items == []
    assert where(doc.pos("/a~1b")) == (1, 6)
    assert where(doc.pos("/c~0d")) == (2, 6)


def test_duplicate_key_is_an_error_at_the_second_key(tmp_path):
    doc, report = load(tmp_path, (
        "cards:\n"
        "  - id: alpha\n"
        "    title: First\n"
        "    cost: 1\n"
        "    title: Second\n"))
    diag = only_error(report)
    assert diag.headline(root=tmp_path) == (
        "doc.yaml:5:5: error[E-DUPLICATE-KEY]: duplicate key 'title' (first defined at line 3)")
    # PyYAML alone would silently keep the last value; cardforge keeps the first and fails.
    assert doc.data["cards"][0]["title"] == "First"


P = "(the YAML parser says: "


@pytest.mark.parametrize("text, line, col, message, help_", [
    ("cards:\n  - id: alpha\n    title: A: B\n", 3, 13,
     "this text holds ': ', which YAML reads as the start of another key",
     f'put the text in quotes: title: "A: B" {P}mapping values are not allowed here)'),
    ("cards:\n  - id: alpha\n    title: A\n   text: bad\n", 4, 4,
     "this line's indentation does not match the lines above it",
     "indent it like its neighbours: list items ('- ') line up, and a card's keys line up under its first key "
     f"{P}expected <block end>, but found '<block mapping start>', while parsing a block collection)"),
    ("cards:\n  - id: alpha\n    title: A\n     cost: 2\n", 4, 6,
     "this key is indented deeper than the keys beside it",
     f"give it the same indentation as the key on the line above {P}mapping values are not allowed here)"),
    ("cards:\n\t- id: alpha\n", 2, 1,
     "a tab indents this line; YAML indents with spaces only",
     f"replace the tab with spaces {P}found character '\\t' that cannot start any token, "
     "while scanning for the next token)"),
    ("cards:\n  - id: alpha\n    title A\n    cost: 2\n", 3, 5,
     "this line has no ':' after its key",
     f"write it as 'key: value' {P}could not find expected ':', while scanning a simple key)"),
    ("cards:\n  - id: alpha\n    text: 'it's here'\n", 3, 11,
     "the text quoted with ' ends at the ' inside it",
     "write the text in double quotes, or write each ' inside it twice ('') "
     f"{P}expected <block end>, but found '<scalar>', while parsing a block mapping)"),
    ('cards:\n  - id: alpha\n    text: "Deal 3\n  - id: beta\n    cost: 2\n    text: "ok"\n', 3, 11,
     'the quote " opened here is not closed on its line, so the text runs on to the " on line 6',
     f'end the text with " on this line {P}expected <block end>, but found \'<scalar>\', while parsing a block mapping)'),
    ('cards:\n  - id: alpha\n    text: "Deal 3\n', 3, 11,
     'the quote " opened here is never closed',
     f'end the text with " on the same line {P}found unexpected end of stream, while scanning a quoted scalar)'),
    ("cards:\n  - id: alpha\n---\ncards: []\n", 3, 1,
     "YAML syntax error: but found another document (expected a single document in the stream)",
     "check indentation, colons and quotes on this line and the one above"),
], ids=["colon-in-value", "bad-indent", "deeper-key", "tab", "no-colon", "quote-inside-quote",
        "quote-runs-on", "quote-never-closed", "two-documents"])
def test_syntax_error_says_what_to_do_where_the_mistake_is(tmp_path, text, line, col, message, help_):
    doc, report = load(tmp_path, text)
    assert doc is None
    diag = only_error(report)
    assert (diag.code, where(diag.position), diag.message) == ("E-YAML", (line, col), message)
    assert diag.help == help_


def test_syntax_error_is_rendered_with_the_source_line_and_a_caret(tmp_path):
    _, report = load(tmp_path, "cards:\n  - id: alpha\n    title: A: B\n")
    lines = report.items[0].render(root=tmp_path).splitlines()
    assert lines == [
        "doc.yaml:3:13: error[E-YAML]: this text holds ': ', which YAML reads as the start of another key",
        "  |",
        "3 |     title: A: B",
        "  |             ^",
        '  = help: put the text in quotes: title: "A: B" (the YAML parser says: mapping values are not allowed here)',
    ]


# Alias bombs and recursive aliases: tests/test_attacks.py, as a user sees them.


def test_small_aliases_are_fine(tmp_path):
    doc, report = load(tmp_path, "base: &b {x: 1, y: [1, 2]}\nother: *b\n")
    assert report.items == []
    assert doc.data == {"base": {"x": 1, "y": [1, 2]}, "other": {"x": 1, "y": [1, 2]}}


def test_merge_keys_are_rejected(tmp_path):
    _, report = load(tmp_path, "base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n")
    diag = only_error(report)
    assert (diag.code, where(diag.position), diag.message) == (
        "E-YAML", (3, 3), "merge keys ('<<') are not supported")


def test_non_utf8_file_is_an_error_not_a_crash(tmp_path):
    doc, report = load(tmp_path, "title: caf\xe9\n".encode("latin-1"))
    assert doc is None
    diag = only_error(report)
    assert (diag.code, diag.message) == ("E-YAML", "file is not UTF-8 (byte 10)")


def test_dates_stay_as_written(tmp_path):
    doc, _ = load(tmp_path, "version: 1943-08-17\n")
    assert doc.data == {"version": "1943-08-17"}


def test_empty_file_is_an_empty_mapping(tmp_path):
    doc, report = load(tmp_path, "# nothing here\n")
    assert report.items == [] and doc.data == {}
