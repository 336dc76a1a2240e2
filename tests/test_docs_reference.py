"""The schema reference (reference/game.md, cards.md, layout.md, rules.md, force.md, written from the
JSON Schemas when the site is built) names every key the schemas accept and says what each is: a key
added to a schema without a description fails here, and so does a key the page lists that the schema
does not have.
"""
from __future__ import annotations

import re

import pytest

from cardforge.frontend.schema import builtin_schema
from cardforge.reference import SCHEMAS, schema_page

ROW = re.compile(r"^\| `(?P<key>[^`]+)` \| (?P<type>.*?) \| (?P<required>yes|) \| (?P<what>.*) \|$")


def _sections(page: str) -> dict[str, dict[str, str]]:
    """section ('Top level' or a $defs name) -> key -> what it is, as the page shows them."""
    out: dict[str, dict[str, str]] = {}
    section = None
    for line in page.splitlines():
        if line.startswith("## "):
            section = line[3:].strip("`")
            out[section] = {}
        elif section and (row := ROW.match(line)):
            out[section][row["key"]] = row["what"].strip()
    return {name: rows for name, rows in out.items() if rows}


def _schema_keys(name: str) -> dict[str, set[str]]:
    schema = builtin_schema(name)
    keys = {"Top level": {k for k in schema.get("properties", {}) if k != "$schema"}}
    for def_name, spec in schema.get("$defs", {}).items():
        if isinstance(spec, dict) and isinstance(spec.get("properties"), dict):
            keys[def_name] = set(spec["properties"])
    return {section: names for section, names in keys.items() if names}


@pytest.mark.parametrize("name", [name for name, _ in SCHEMAS])
def test_the_reference_describes_every_key_of_the_schema(name):
    page = _sections(schema_page(name, name))
    schema = _schema_keys(name)
    assert set(page) == set(schema), f"{name}: sections differ: {sorted(set(page) ^ set(schema))}"
    for section, keys in schema.items():
        assert set(page[section]) == keys, f"{name}, {section}: keys differ: {sorted(set(page[section]) ^ keys)}"
        undescribed = sorted(key for key, what in page[section].items() if not what)
        assert not undescribed, f"{name}, {section}: keys with no description: {', '.join(undescribed)}"


def test_the_keys_a_new_designer_meets_first_are_described():
    game = _sections(schema_page("game", "game.yaml"))["Top level"]
    for key in ("name", "card_size", "bleed", "decks", "markup"):
        assert len(game[key].split()) >= 5, key
