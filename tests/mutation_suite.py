"""The mutation suites (tests/mutations/<game>.yaml): plausible designer mistakes the rulebook forbids.

One mechanism for every game. A suite file names its game (a folder under content/) and lists
`cases` (each a mistake: one edit or a list of `edits`, the rulebook sentence it breaks as `cite`,
and optionally the diagnostic code it must raise as `expect`) and `valid` edits (plausible changes
the rulebook allows). The runner copies the game once, applies each case to the copy, runs
`cardforge check` in this process, and puts the files back:
- a case is caught when check reports at least one error (and, with `expect`, that code among them);
- a valid edit must report no error and no warning the unedited game lacks.

Used by tests/test_mutations.py (the thresholds) and bench/mutations.py (the per-game table).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
SUITES = REPO / "tests" / "mutations"
LAYOUTS = REPO / "layouts"
MIN_CASES = 40
MIN_RATE = 0.95

CASE_KEYS = {"id", "cite", "file", "find", "replace", "nth", "expect", "edits", "note"}
EDIT_KEYS = {"file", "find", "replace", "nth"}


class SuiteError(Exception):
    """A suite file that is not in the format (a test failure with this message, never a traceback)."""


@dataclass(frozen=True)
class Edit:
    file: str
    find: str
    replace: str
    nth: int = 0


@dataclass(frozen=True)
class Case:
    id: str
    cite: str
    edits: tuple[Edit, ...]
    expect: str | None = None


@dataclass
class Suite:
    path: Path
    game: str
    cases: list[Case]
    valid: list[Case]


@dataclass
class Outcome:
    case: Case
    errors: list[str]  # "CODE: message" of every error check reported
    new_warnings: list[str]  # warnings the unedited game lacks
    seconds: float
    problem: str | None = None  # the case could not be applied (its `find` is not in the file)

    @property
    def codes(self) -> set[str]:
        return {e.split(":", 1)[0] for e in self.errors}

    @property
    def caught(self) -> bool:
        return self.problem is None and bool(self.errors) and (self.case.expect is None or self.case.expect in self.codes)

    @property
    def clean(self) -> bool:
        return self.problem is None and not self.errors and not self.new_warnings


@dataclass
class Result:
    suite: Suite
    cases: list[Outcome] = field(default_factory=list)
    valid: list[Outcome] = field(default_factory=list)
    baseline_errors: list[str] = field(default_factory=list)

    @property
    def caught(self) -> int:
        return sum(o.caught for o in self.cases)

    @property
    def false_positives(self) -> int:
        return sum(not o.clean for o in self.valid)

    @property
    def rate(self) -> float:
        return self.caught / len(self.cases) if self.cases else 0.0

    def failures(self) -> list[str]:
        """Why this suite fails its thresholds (empty when it passes)."""
        out = [f"the unedited game already has errors: {e}" for e in self.baseline_errors]
        name = self.suite.path.name
        if len(self.cases) < MIN_CASES:
            out.append(f"{name}: {len(self.cases)} cases, at least {MIN_CASES} are needed")
        if self.rate < MIN_RATE:
            out.append(f"{name}: {self.caught}/{len(self.cases)} caught ({self.rate:.0%}), at least {MIN_RATE:.0%} "
                       "are needed")
        for o in self.cases:
            if o.problem:
                out.append(f"{name}: case '{o.case.id}': {o.problem}")
            elif not o.caught:
                got = ", ".join(sorted(o.codes)) or "no error"
                want = f" (expected {o.case.expect})" if o.case.expect else ""
                out.append(f"{name}: missed '{o.case.id}' [{o.case.cite}]: {got}{want}")
        for o in self.valid:
            if not o.clean:
                out.append(f"{name}: valid edit '{o.case.id}' flagged: " +
                           (o.problem or "; ".join(o.errors + o.new_warnings)))
        return out


# -- reading a suite file --------------------------------------------------------------------------

def _mapping(raw, where: str, what: str, keys: set[str], strings: tuple[str, ...], empty_ok: tuple[str, ...]) -> None:
    """A mapping of known keys whose `strings` are strings (not blank unless in `empty_ok`)."""
    if not isinstance(raw, dict):
        raise SuiteError(f"{where}: {what} is a mapping")
    unknown = set(raw) - keys
    if unknown:
        raise SuiteError(f"{where}: unknown keys {sorted(unknown)}; {what} has {sorted(keys)}")
    for key in strings:
        if not isinstance(raw.get(key), str) or (key not in empty_ok and not raw[key].strip()):
            raise SuiteError(f"{where}: '{key}' is required (a string)")


def _edit(raw, where: str) -> Edit:
    _mapping(raw, where, "an edit", EDIT_KEYS, ("file", "find", "replace"), ("find", "replace"))
    if not raw["find"]:
        raise SuiteError(f"{where}: 'find' is empty")
    if raw["find"] == raw["replace"]:
        raise SuiteError(f"{where}: 'replace' is the same as 'find', so the edit changes nothing")
    nth = raw.get("nth", 0)
    if not isinstance(nth, int) or isinstance(nth, bool) or nth < 0:
        raise SuiteError(f"{where}: 'nth' must be a whole number from 0")
    rel = Path(raw["file"])
    if rel.is_absolute() or ".." in rel.parts:
        raise SuiteError(f"{where}: 'file' must be a path inside the game folder, not {raw['file']!r}")
    return Edit(raw["file"], raw["find"], raw["replace"], nth)


def _case(raw, where: str) -> Case:
    _mapping(raw, where, "a case", CASE_KEYS, ("id", "cite"), ())
    where = f"{where} ('{raw['id']}')"
    if "edits" in raw:
        if set(raw) & EDIT_KEYS:
            raise SuiteError(f"{where}: give either 'edits' or one file/find/replace, not both")
        if not isinstance(raw["edits"], list) or not raw["edits"]:
            raise SuiteError(f"{where}: 'edits' must be a non-empty list")
        edits = tuple(_edit(e, f"{where} edit {i}") for i, e in enumerate(raw["edits"]))
    else:
        edits = (_edit({k: raw[k] for k in EDIT_KEYS if k in raw}, where),)
    expect = raw.get("expect")
    if expect is not None and not isinstance(expect, str):
        raise SuiteError(f"{where}: 'expect' must be a diagnostic code")
    return Case(raw["id"], raw["cite"], edits, expect)


def load_suite(path: Path) -> Suite:
    try:
        data = yaml.safe_load(Path(path).read_text("utf-8"))
    except yaml.YAMLError as exc:
        raise SuiteError(f"{path.name}: not valid YAML: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise SuiteError(f"{path.name}: needs 'game: <folder under content/>'")
    unknown = set(data) - {"game", "cases", "valid"}
    if unknown:
        raise SuiteError(f"{path.name}: unknown top-level keys {sorted(unknown)}")
    if not (REPO / "content" / data["game"] / "game.yaml").is_file():
        raise SuiteError(f"{path.name}: content/{data['game']} is not a game folder")
    lists = {}
    for kind in ("cases", "valid"):
        raw = data.get(kind) or []
        if not isinstance(raw, list):
            raise SuiteError(f"{path.name}: '{kind}' must be a list")
        lists[kind] = [_case(c, f"{path.name} {kind}[{i}]") for i, c in enumerate(raw)]
    ids = Counter(c.id for c in lists["cases"] + lists["valid"])
    twice = sorted(i for i, n in ids.items() if n > 1)
    if twice:
        raise SuiteError(f"{path.name}: ids used more than once: {twice}")
    return Suite(Path(path), data["game"], lists["cases"], lists["valid"])


def suite_paths() -> list[Path]:
    return sorted(SUITES.glob("*.yaml"))


# -- running it on a copy of the game ------------------------------------------------------------------

class GameCopy:
    """A copy of content/<game> at <root>/content/<game>; edits are put back by restore()."""

    def __init__(self, game: str, root: Path):
        self.path = Path(root) / "content" / game
        if self.path.exists():
            shutil.rmtree(self.path)
        shutil.copytree(REPO / "content" / game, self.path)
        self.originals: dict[Path, str] = {}
        self._clock = time.time_ns()

    def apply(self, edit: Edit) -> str | None:
        """Make one edit; the reason it cannot be made, or None."""
        path = self.path / edit.file
        if not path.is_file():
            return f"{edit.file} is not a file of content/{self.path.name}"
        text = path.read_text("utf-8")
        at = -1
        for _ in range(edit.nth + 1):
            at = text.find(edit.find, at + 1)
            if at < 0:
                return f"{edit.find!r} occurs fewer than {edit.nth + 1} times in {edit.file}"
        self.originals.setdefault(path, text)
        self._write(path, text[:at] + edit.replace + text[at + len(edit.find):])
        return None

    def _write(self, path: Path, text: str) -> None:
        path.write_text(text, "utf-8")
        # a new modification time for every write: cardforge caches source files by (path, mtime, size)
        self._clock += 1_000_000
        os.utime(path, ns=(self._clock, self._clock))

    def restore(self) -> None:
        for path, text in self.originals.items():
            self._write(path, text)
        self.originals.clear()

    def check(self) -> list[dict]:
        """`cardforge check` of the copy, in this process: its diagnostics as JSON."""
        from cardforge.cli import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", str(self.path), "--layouts", str(LAYOUTS), "--format", "json"])
        return json.loads(out.getvalue() or "[]")


def _said(diags: list[dict], severity: str) -> list[str]:
    return [f"{d['code']}: {d['message']}" for d in diags if d["severity"] == severity]


def run_suite(suite: Suite, root: Path) -> Result:
    copy = GameCopy(suite.game, root)
    baseline = copy.check()
    result = Result(suite, baseline_errors=_said(baseline, "error"))
    known = Counter(_said(baseline, "warning"))
    for kind, cases in (("cases", suite.cases), ("valid", suite.valid)):
        for case in cases:
            start = time.perf_counter()
            problem = None
            for e in case.edits:
                problem = copy.apply(e)
                if problem:
                    break
            diags = [] if problem else copy.check()
            copy.restore()
            warnings = Counter(_said(diags, "warning"))
            new = sorted((warnings - known).elements())
            getattr(result, kind).append(
                Outcome(case, _said(diags, "error"), new, time.perf_counter() - start, problem))
    return result


def table(results: list[Result]) -> str:
    """The per-game figures as a Markdown table."""
    lines = ["| game | caught | rate | false positives | s/case |", "|---|---|---|---|---|"]
    total_c = total_n = total_fp = total_v = 0
    for r in results:
        n = len(r.cases)
        runs = r.cases + r.valid
        per = sum(o.seconds for o in runs) / len(runs) if runs else 0.0
        lines.append(f"| {r.suite.game} | {r.caught}/{n} | {r.rate:.0%} | {r.false_positives}/{len(r.valid)} "
                     f"| {per:.2f} |")
        total_c += r.caught
        total_n += n
        total_fp += r.false_positives
        total_v += len(r.valid)
    if len(results) > 1:
        rate = total_c / total_n if total_n else 0.0
        lines.append(f"| all | {total_c}/{total_n} | {rate:.0%} | {total_fp}/{total_v} | |")
    return "\n".join(lines)
