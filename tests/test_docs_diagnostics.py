"""The diagnostics reference (docs/reference/diagnostics.md) has one entry per code the source can
print, written for people: what it means and what to do. The codes are read from cardforge's source
(every string that is a whole code, `E-...` or `W-...`), so a new code without an entry fails here,
and so does an entry for a code nothing emits any more.
"""
from __future__ import annotations

import ast
import re

from conftest import REPO

PAGE = REPO / "docs" / "reference" / "diagnostics.md"
CODE = re.compile(r"^[EW]-[A-Z0-9]+(?:-[A-Z0-9]+)*$")
ENTRY = re.compile(r"^### (?P<code>\S+)\n(?P<body>.*?)(?=^#{2,3} |\Z)", re.S | re.M)


def emitted_codes() -> dict[str, str]:
    """code -> the first module that names it. A string compared as a prefix (`startswith("W-ACCESS")`)
    is a family of codes, not a code."""
    found: dict[str, str] = {}
    for path in sorted((REPO / "cardforge").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        prefixes = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith" for arg in node.args}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value)
                    and id(node) not in prefixes):
                found.setdefault(node.value, path.relative_to(REPO).as_posix())
    return found


def entries() -> dict[str, str]:
    return {m["code"]: m["body"] for m in ENTRY.finditer(PAGE.read_text("utf-8"))}


def test_the_scan_finds_codes_that_are_not_reported_through_a_call():
    codes = emitted_codes()
    # raised as exceptions, passed as keyword defaults, or set as attributes: all printed to the user
    for code in ("E-TEXT-OVERFLOW", "E-COLOR", "E-LAYOUT-FIELD", "E-MARKUP-SYMBOL", "E-JSON", "E-SCHEMA"):
        assert code in codes, code
    assert "W-ACCESS" not in codes  # only a prefix


def test_every_code_the_source_emits_has_an_entry():
    missing = sorted(set(emitted_codes()) - set(entries()))
    assert not missing, f"codes with no entry in {PAGE.relative_to(REPO)}: " + ", ".join(
        f"{code} ({module})" for code, module in ((c, emitted_codes()[c]) for c in missing))


def test_every_entry_is_a_code_the_source_emits():
    stale = sorted(set(entries()) - set(emitted_codes()))
    assert not stale, f"entries for codes that nothing in cardforge/ emits: {', '.join(stale)}"


def test_every_entry_says_what_it_means_and_what_to_do():
    for code, body in entries().items():
        severity = "warning" if code.startswith("W-") else "error"
        assert body.startswith(f"**{severity}.** "), f"{code}: starts with '**{severity}.**', then what it means"
        meaning, _, todo = body.partition("**What to do:**")
        assert len(meaning.split()) >= 6, f"{code}: say what it means"
        assert len(todo.split()) >= 3, f"{code}: say what to do"
        assert not re.search(r"str\(|\bexc\b|\{[a-z_]+\.[a-z_.]+\}|\bf['\"]", body), f"{code}: Python source in a page for people"


def test_each_code_has_one_entry():
    codes = [m["code"] for m in ENTRY.finditer(PAGE.read_text("utf-8"))]
    assert len(codes) == len(set(codes)), [c for c in codes if codes.count(c) > 1]
