"""Diagnostics: every problem cardforge finds, reported like a compiler does.

A diagnostic knows where it is (file, line, column), what it is (severity, code,
message) and how to fix it (help).  Stages collect diagnostics instead of raising
on the first one, so that the user sees every error at once.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .limits import read_bounded


@dataclass(frozen=True, slots=True)  # slots: a 10,000-card game holds some 70,000 of them
class Position:
    """1-based line and column in a source file; in a spreadsheet, row and column, and the cell's
    name as the spreadsheet shows it (`Crew!C12`, or `C12` in a CSV file)."""
    path: Path
    line: int
    col: int
    cell: str | None = None
    quote: bool = True  # False: never show the line (a link out of the game folder must not leak it)

    def __reduce__(self):
        # Pickled as a call with its values: a cached document (frontend/load.py) holds a position
        # for every value, and dataclasses' slot-by-slot __setstate__ takes twice as long to unpickle.
        return (Position, (self.path, self.line, self.col, self.cell, self.quote))


@dataclass
class Diagnostic:
    severity: str  # "error" or "warning"
    code: str  # e.g. "E-SCHEMA", "E-TEXT-OVERFLOW"
    message: str
    position: Position | None = None
    help: str | None = None
    pointer: str | None = None  # JSON pointer inside the document
    card: str | None = None  # card id it is about, if any
    side: str | None = None  # the face of that card it is on ("front", "back"), if it is on one
    # A problem caused once (a layout's line, a configuration entry) that many pieces show: the
    # pieces it affects, counted in the message, so that it is reported once at its cause.
    affects: set | None = field(default=None, compare=False, repr=False)
    base_message: str | None = field(default=None, compare=False, repr=False)

    def affecting(self, pieces) -> "Diagnostic":
        """Count `pieces` ((kind, id) pairs: ("card", "01001")) as affected; the message says how many."""
        if self.affects is None:
            self.affects, self.base_message = set(), self.message
        self.affects.update(pieces)
        kinds: dict[str, int] = {}
        for kind, _ in self.affects:
            kinds[kind] = kinds.get(kind, 0) + 1
        counted = " and ".join(_plural(n, kind) for kind, n in sorted(kinds.items()))
        self.message = f"{self.base_message} ({counted} affected)" if counted else self.base_message
        return self

    def identity(self) -> tuple:
        """What makes two diagnostics the same problem: reported once however many runs find it."""
        pos = self.position
        where = (str(pos.path), pos.line, pos.col, pos.cell) if pos is not None else None
        return self.severity, self.code, where, self.base_message or self.message

    def location(self, root: Path | None = None) -> str:
        if self.position is None:
            return "cardforge"
        if self.position.cell:
            return f"{display_path(self.position.path, root)}:{self.position.cell}"
        return f"{display_path(self.position.path, root)}:{self.position.line}:{self.position.col}"

    def headline(self, root: Path | None = None) -> str:
        return f"{self.location(root)}: {self.severity}[{self.code}]: {self.message}"

    def render(self, root: Path | None = None) -> str:
        """The headline, the offending source line with a caret, and the help line."""
        out = [self.headline(root)]
        source = None if self.position is None or self.position.cell or not self.position.quote \
            else _source_line(self.position)
        if source is not None:
            gutter = str(self.position.line)
            source, col = _excerpt(source, self.position.col)
            out.append(f"{' ' * len(gutter)} |")
            out.append(f"{gutter} | {source}")
            out.append(f"{' ' * len(gutter)} | {' ' * (col - 1)}^")
        if self.help:
            out.append(f"  = help: {self.help}")
        return "\n".join(out)

    def as_json(self, root: Path | None = None) -> dict:
        pos = self.position
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "file": display_path(pos.path, root) if pos else None,
            "line": pos.line if pos else None,
            "col": pos.col if pos else None,
            "pointer": self.pointer,
            "card": self.card,
            "help": self.help,
        } | ({"cell": pos.cell} if pos is not None and pos.cell else {}) | ({"side": self.side} if self.side else {})  # a spreadsheet cell (Crew!C12)


def display_path(path: Path, root: Path | None) -> str:
    """Paths are shown relative to the working directory when they lie under it."""
    path = Path(path)
    base = root or Path.cwd()
    try:  # the file's own name, not its link's target: a link out of the folder must not name where it goes
        full = path.parent.resolve() / path.name if path.name not in ("", ".", "..") else path.resolve()
        return full.relative_to(base.resolve()).as_posix()
    except (ValueError, RuntimeError, OSError):  # outside the base, or a symbolic-link loop
        return path.as_posix()


_line_cache: dict[tuple, list[str]] = {}


EXCERPT = 100  # characters of a source line shown around the column
EXCERPT_BYTES = 16 * 1024 * 1024  # a file is read for its excerpts up to this size (4x the largest source file)


def _excerpt(source: str, col: int) -> tuple[str, int]:
    """At most EXCERPT characters of a line around `col` (a minified file has one long line),
    control characters shown as '?'; returns the text and the column within it."""
    def shown(text: str) -> str:  # one character for one: the window is cut first (a line may be megabytes)
        return "".join(ch if ch.isprintable() else "?" for ch in text)
    if len(source) <= EXCERPT:
        return shown(source), col
    start = max(0, min(col - 1 - EXCERPT // 2, len(source) - EXCERPT))
    text = shown(source[start:start + EXCERPT])
    prefix = "..." if start else ""
    suffix = "..." if start + EXCERPT < len(source) else ""
    return prefix + text + suffix, col - start + len(prefix)


def _source_line(pos: Position | None) -> str | None:
    """The line a diagnostic points at, as the file is now (a long-running preview sees edits)."""
    if pos is None:
        return None
    lines = source_lines(pos.path)
    if 1 <= pos.line <= len(lines):
        return lines[pos.line - 1].expandtabs(1)
    return None


def source_lines(path: Path) -> list[str]:
    """The lines of a source file as it is now (cached while it is unchanged)."""
    try:
        st = Path(path).stat()
    except OSError:
        return []
    key = (str(path), st.st_mtime_ns, st.st_size)
    lines = _line_cache.get(key)
    if lines is None:
        try:
            # never a FIFO (it would block) nor more than a source file may hold
            lines = read_bounded(path, EXCERPT_BYTES).decode("utf-8", errors="replace").splitlines()
        except OSError:
            return []
        if len(_line_cache) > 256:
            _line_cache.clear()
        _line_cache[key] = lines
    return lines


def refine(pos: Position, needle: str | None, nth: int = 0) -> Position:
    """`pos` moved to where `needle` occurs (its `nth` occurrence) in the value starting there (same
    or continuation lines).  In a JSON string the column counts escapes as written."""
    if not needle or pos.cell:  # a spreadsheet cell is as precise as it gets
        return pos
    lines = source_lines(pos.path)
    if not 1 <= pos.line <= len(lines):
        return pos
    first = lines[pos.line - 1]
    indent = len(first) - len(first.lstrip())
    start = pos.col - 1
    for number in range(pos.line - 1, min(len(lines), pos.line + 40)):
        line = lines[number]
        if number >= pos.line and line.strip() and len(line) - len(line.lstrip()) <= indent \
                and not str(pos.path).endswith(".json"):
            break
        index = line.find(needle, start)
        while index >= 0:
            if nth == 0:
                return Position(pos.path, number + 1, index + 1)
            nth -= 1
            index = line.find(needle, index + 1)
        start = 0
        if str(pos.path).endswith(".json"):
            break  # a JSON string is on one line
    return pos


def clipped(text: str, limit: int = 200) -> str:
    """Content quoted in a message, cut to `limit` characters: a 100,000-character value would
    bury the diagnostic it is quoted in (a long path, as a user writes it, is quoted whole)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


@dataclass
class Report:
    """The diagnostics of one run, in the order they were found."""
    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diag: Diagnostic) -> Diagnostic:
        self.items.append(diag)
        return diag

    def error(self, code: str, message: str, position: Position | None = None, **kw) -> Diagnostic:
        return self.add(Diagnostic("error", code, message, position, **kw))

    def warning(self, code: str, message: str, position: Position | None = None, **kw) -> Diagnostic:
        return self.add(Diagnostic("warning", code, message, position, **kw))

    def extend(self, other: "Report") -> None:
        self.items.extend(other.items)

    def extend_once(self, other: "Report") -> None:
        """`other`'s diagnostics that this report does not hold yet: a problem of a layout, of
        game.yaml or of a source file that every language's run finds (`check --lang all`) is
        reported once, with the pieces it affects in any of them."""
        held = {d.identity(): d for d in self.items}
        for diag in other.items:
            same = held.get(diag.identity())
            if same is None:
                held[diag.identity()] = diag
                self.items.append(diag)
            elif diag.affects:
                same.affecting(diag.affects)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        """Grouped by file, then by position; diagnostics without a file come last."""
        def key(d: Diagnostic):
            p = d.position
            return (p is None, str(p.path) if p else "", p.line if p else 0, p.col if p else 0)
        return sorted(self.items, key=key)

    def format_text(self, root: Path | None = None) -> str:
        blocks = [d.render(root) for d in self.sorted()]
        n_err, n_warn = len(self.errors), len(self.warnings)
        if n_err or n_warn:
            blocks.append(f"{_plural(n_err, 'error')}, {_plural(n_warn, 'warning')}")
        return "\n\n".join(blocks)

    def format_json(self, root: Path | None = None) -> str:
        return json.dumps([d.as_json(root) for d in self.sorted()], indent=2)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class ContentError(Exception):
    """Raised to stop a stage when its input is unusable; carries the report."""

    def __init__(self, report: Report, prepared=None):
        super().__init__(f"{len(report.errors)} error(s)")
        self.report = report
        # the front end's result despite its errors, when every face has its layout: laid out
        # anyway, so that one card's schema error hides no other card's overflow or glyph error
        self.prepared = prepared
