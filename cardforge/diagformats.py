"""Diagnostics for CI: GitHub Actions workflow commands and SARIF 2.1.0.

`check --format github` prints one workflow command per diagnostic
(`::error file=cards/units.yaml,line=4,col=9,title=E-SCHEMA::message`), which GitHub shows as an
annotation on that line of the pull request.  `check --format sarif` writes a SARIF 2.1.0 log,
the format code-scanning services read (GitHub's upload-sarif action among them): one rule per
diagnostic code, one result per diagnostic, files as URIs relative to the folder `check` ran in
(the uriBaseId SRCROOT), columns counted in Unicode code points as cardforge counts them.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

from . import __version__
from .diagnostics import Diagnostic, Report, display_path

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "SRCROOT"


def _escape_data(text: str) -> str:
    """A workflow command's message, escaped as GitHub's toolkit does (actions/toolkit command.ts)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A workflow command's property value: the message's escapes, and ':' and ',' that end it."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(diag: Diagnostic, root: Path | None = None) -> str:
    """One workflow command: ::error file=F,line=L,col=C,title=CODE::message (help on a second line)."""
    props = []
    pos = diag.position
    if pos is not None:
        props += [f"file={_escape_property(display_path(pos.path, root))}", f"line={pos.line}", f"col={pos.col}"]
    props.append(f"title={_escape_property(diag.code)}")
    message = f"[{diag.code}] {diag.message}"
    if pos is not None and pos.cell:
        message += f" (cell {pos.cell})"
    if diag.help:
        message += f"\nhelp: {diag.help}"
    return f"::{'error' if diag.severity == 'error' else 'warning'} {','.join(props)}::{_escape_data(message)}"


def format_github(report: Report, root: Path | None = None) -> str:
    return "\n".join(github_line(d, root) for d in report.sorted())


def _uri(path: Path, root: Path | None) -> dict:
    """An artifactLocation: relative to SRCROOT when the file lies under it, else an absolute URI."""
    shown = display_path(path, root)
    if not Path(shown).is_absolute():
        return {"uri": quote(shown), "uriBaseId": SRCROOT}
    return {"uri": Path(shown).as_uri()}


def _result(diag: Diagnostic, index: int, root: Path | None) -> dict:
    text = diag.message + (f"\nhelp: {diag.help}" if diag.help else "")
    result: dict = {"ruleId": diag.code, "ruleIndex": index, "level": "error" if diag.severity == "error" else "warning",
                    "message": {"text": text}}
    pos = diag.position
    if pos is not None:
        result["locations"] = [{"physicalLocation": {
            "artifactLocation": _uri(pos.path, root),
            "region": {"startLine": max(pos.line, 1), "startColumn": max(pos.col, 1)}}}]
    properties = {key: value for key, value in (("pointer", diag.pointer), ("card", diag.card),
                                                ("cell", pos.cell if pos is not None else None)) if value}
    if properties:
        result["properties"] = properties
    return result


def format_sarif(report: Report, root: Path | None = None) -> str:
    """A SARIF 2.1.0 log of one run: the rules are the diagnostic codes that occur, each with the
    first help text one of its diagnostics gives (a diagnostic's own help, which may name the card
    or the allowed values, is in its result's message too)."""
    diags = report.sorted()
    rules: dict[str, dict] = {}
    for diag in diags:
        if diag.code in rules:
            continue
        help_text = next((d.help for d in diags if d.code == diag.code and d.help), None) or \
            f"{diag.code}: see the reference of diagnostic codes in cardforge's documentation."
        rules[diag.code] = {
            "id": diag.code,
            "shortDescription": {"text": diag.message},
            "help": {"text": help_text},
            "defaultConfiguration": {"level": "error" if diag.severity == "error" else "warning"},
        }
    index = {code: i for i, code in enumerate(rules)}
    base = (root or Path.cwd()).resolve()
    run = {
        "tool": {"driver": {"name": "cardforge", "version": __version__, "semanticVersion": __version__,
                            "rules": list(rules.values())}},
        "originalUriBaseIds": {SRCROOT: {"uri": base.as_uri() + ("" if base.as_uri().endswith("/") else "/")}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, index[d.code], root) for d in diags],
    }
    return json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2, ensure_ascii=False)



FORMATS = ("text", "json", "github", "sarif")  # `check` and `build --format`
