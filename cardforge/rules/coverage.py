"""The coverage matrix of a game: content/<game>/RULES.md, the rulebook section by section.

RULES.md holds one Markdown table, `| Section | Coverage |`: each row a section of the rulebook
(as the rulebook numbers or heads it) and what encodes it:
- rule ids in backticks (`BA-TURN-SEQUENCE`): rules of rules.yaml;
- `schema: deck.field`: the constraint is that field's JSON Schema in game.yaml;
- "**not checkable from data:** why" (play at the table, not components): counts as mapped;
- "**not yet:** why": a known gap, counts as unmapped.
A row is mapped when it cites a rule or schema field that exists, or says why it is not checkable.
The matrix is checked against rules.yaml and game.yaml here; against the rulebook's own list of
sections by tests/test_rules_coverage.py (the rulebooks are not part of the repository).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..diagnostics import Position, Report

COVERAGE_FILE = "RULES.md"
ROW = re.compile(r"^\|(?P<section>[^|]+)\|(?P<coverage>.+)\|\s*$")
RULE_ID = re.compile(r"`([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)`")
SCHEMA = re.compile(r"`schema: ([a-z0-9-]+)\.([a-z0-9_]+)`")
NOT_CHECKABLE = "**not checkable from data:**"
NOT_YET = "**not yet:**"
HEADERS = ("Heading", "Section")
RULE_KINDS = ("checks", "recipes", "references", "hidden_backs", "compare")


@dataclass
class Row:
    section: str
    coverage: str
    line: int
    rules: list[str] = field(default_factory=list)  # cited rule ids that exist
    schema: list[str] = field(default_factory=list)  # cited deck.field that exist
    unknown: list[str] = field(default_factory=list)  # cited ids or fields that do not
    not_checkable: str | None = None
    not_yet: str | None = None

    @property
    def mapped(self) -> bool:
        return bool(self.rules or self.schema or self.not_checkable)


@dataclass
class Coverage:
    game: str
    path: Path
    rows: list[Row]
    uncited: list[str]  # rules of rules.yaml no row cites

    @property
    def percent(self) -> float:
        return 100.0 * sum(r.mapped for r in self.rows) / len(self.rows) if self.rows else 0.0


def _reason(text: str, phrase: str) -> str | None:
    if phrase not in text:
        return None
    return text.split(phrase, 1)[1].split("**")[0].strip(" .;:|") or ""


def rule_ids(rules: dict) -> list[str]:
    """Every rule id of a rules file, in order."""
    ids = [rule["id"] for kind in RULE_KINDS for rule in rules.get(kind) or [] if isinstance(rule, dict) and "id" in rule]
    glossary = rules.get("glossary") or {}
    ids += [g["id"] for g in (glossary, glossary.get("actions") or {}) if "id" in g]
    return ids


def deck_fields(game_data: dict) -> dict[str, set[str]]:
    return {deck["id"]: set(deck.get("fields") or {}) for key in ("decks", "tokens")
            for deck in game_data.get(key) or [] if isinstance(deck, dict) and "id" in deck}


def _yaml(path: Path) -> dict:
    try:
        data = yaml.safe_load(path.read_text("utf-8")) if path.is_file() else {}
    except (yaml.YAMLError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def read_coverage(game: Path, report: Report) -> Coverage | None:
    """The game's RULES.md against its rules.yaml and game.yaml; problems go to `report`."""
    path = game / COVERAGE_FILE
    if not path.is_file():
        return None
    ids = rule_ids(_yaml(game / "rules.yaml"))
    fields = deck_fields(_yaml(game / "game.yaml"))
    rows: list[Row] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        match = ROW.match(line)
        if not match:
            continue
        section, text = match["section"].strip(), match["coverage"].strip()
        if set(section) <= set("-: ") or section in HEADERS:
            continue
        row = Row(section, text, number)
        where = Position(path, number, 1)
        if section in seen:
            report.error("E-COVERAGE", f"section '{section}' has two rows (lines {seen[section]} and {number})", where,
                         help="merge them into one row")
        seen.setdefault(section, number)
        for rule in RULE_ID.findall(text):
            if rule in ids:
                row.rules.append(rule)
            else:
                row.unknown.append(rule)
                report.error("E-COVERAGE", f"section '{section}' cites rule {rule}, which rules.yaml does not have",
                             Position(path, number, line.index(rule) + 1), help="correct the id, or write the rule")
        for deck, name in SCHEMA.findall(text):
            if name in fields.get(deck, ()):
                row.schema.append(f"{deck}.{name}")
            else:
                row.unknown.append(f"schema: {deck}.{name}")
                report.error("E-COVERAGE", f"section '{section}' cites field '{name}' of deck '{deck}', which "
                             "game.yaml does not have", Position(path, number, line.index(f"schema: {deck}") + 1))
        for phrase, attr in ((NOT_CHECKABLE, "not_checkable"), (NOT_YET, "not_yet")):
            reason = _reason(text, phrase)
            if reason is not None and len(reason.split()) < 2:
                report.error("E-COVERAGE", f"section '{section}' says '{phrase.strip('*:')}' without a reason",
                             Position(path, number, line.index(phrase) + 1), help="say why, in a few words")
            setattr(row, attr, reason or None)
        if not row.mapped and row.not_yet is None and not row.unknown:
            report.error("E-COVERAGE", f"section '{section}' names no rule, no schema field and no reason", where,
                         help="cite the rule ids that encode it, or say '**not checkable from data:** why'")
        rows.append(row)
    cited = {r for row in rows for r in row.rules}
    uncited = [rule for rule in ids if rule not in cited]
    for rule in uncited:
        report.warning("W-COVERAGE-UNCITED", f"rule {rule} of rules.yaml is cited by no section of {COVERAGE_FILE}",
                       Position(path, 1, 1), help="add it to the row of the section it encodes")
    return Coverage(game.name, path, rows, uncited)


def format_matrix(cov: Coverage) -> str:
    """The matrix as text: one line per section, the percentage, and each unmapped or not checkable row."""
    width = min(max((len(r.section) for r in cov.rows), default=10), 44)
    lines = [f"{cov.game}: {cov.path.name}, {len(cov.rows)} sections of the rulebook", ""]
    for row in cov.rows:
        if row.rules or row.schema:
            what = ", ".join(row.rules + [f"schema: {s}" for s in row.schema])
            status = "mapped"
        elif row.not_checkable:
            what, status = row.not_checkable, "not checkable"
        else:
            what, status = (row.not_yet or "nothing cited"), "UNMAPPED"
        lines.append(f"  {row.section[:width]:<{width}}  {status:<13}  {_clip(what, 100)}")
    mapped = sum(r.mapped for r in cov.rows)
    checkable = [r for r in cov.rows if not (r.rules or r.schema) and r.not_checkable]
    lines += ["", f"coverage: {mapped}/{len(cov.rows)} sections mapped ({cov.percent:.1f}%); "
              f"{len(cov.rows) - len(checkable) - (len(cov.rows) - mapped)} by rules or schema, "
              f"{len(checkable)} not checkable from data"]
    if checkable:
        lines.append("not checkable from data:")
        lines += [f"  {r.section}: {_clip(r.not_checkable, 140)}" for r in checkable]
    unmapped = [r for r in cov.rows if not r.mapped]
    if unmapped:
        lines.append("unmapped:")
        lines += [f"  {r.section}: {_clip(r.not_yet or 'nothing cited', 140)}" for r in unmapped]
    return "\n".join(lines)


def _clip(text: str, n: int) -> str:
    text = " ".join(text.replace("`", "").split())
    return text if len(text) <= n else text[:n - 3] + "..."
