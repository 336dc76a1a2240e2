"""cardforge in a card set's CI: `check --format github` (workflow commands, one annotation per
diagnostic), `check --format sarif` (SARIF 2.1.0, validated against the published schema vendored
in tests/fixtures), and the pre-commit hook (.pre-commit-hooks.yaml) run as a card repository runs it."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from conftest import HEADLINE_RE, REPO, cardforge
from cardforge.diagformats import _escape_data, _escape_property, github_line
from cardforge.diagnostics import Diagnostic, Position

SCHEMA = json.loads((REPO / "tests/fixtures/sarif-schema-2.1.0.json").read_text("utf-8"))
LONG_TEXT = "Keep this card and read it aloud. " * 40


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> Path:
    """A new game with three kinds of error in its cards: a value outside its enum (E-SCHEMA), a
    text too long for its frame (E-TEXT-OVERFLOW) and a key given twice (E-DUPLICATE-KEY)."""
    work = tmp_path_factory.mktemp("ci")
    assert cardforge("new", "set", cwd=work).returncode == 0
    cards = work / "set/cards/cards.yaml"
    text = cards.read_text("utf-8")
    text = text.replace("kind: action\n    cost: 1", "kind: spell\n    cost: 1", 1)
    text = text.replace('text: "Keep this card.', f'text: "{LONG_TEXT}Keep this card.', 1)
    text = text.replace("  - id: healing-herbs\n    title: Healing Herbs\n",
                        "  - id: healing-herbs\n    title: Healing Herbs\n    title: Herbs\n", 1)
    cards.write_text(text, "utf-8")
    return work


def _text_diagnostics(work: Path) -> list[dict]:
    done = cardforge("check", "set", cwd=work)
    assert done.returncode == 1, done.stderr
    return [m.groupdict() for line in done.stderr.splitlines() if (m := HEADLINE_RE.match(line))]


def test_sarif_validates_against_the_schema_with_every_position(broken):
    expected = _text_diagnostics(broken)
    assert {d["code"] for d in expected} == {"E-SCHEMA", "E-TEXT-OVERFLOW", "E-DUPLICATE-KEY"}, expected
    done = cardforge("check", "set", "--format", "sarif", cwd=broken)
    assert done.returncode == 1 and done.stderr == "", done.stderr
    log = json.loads(done.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    [run] = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(dict.fromkeys(d["code"] for d in expected))
    assert all(r["help"]["text"] for r in rules)
    overflow = next(r for r in rules if r["id"] == "E-TEXT-OVERFLOW")
    assert overflow["help"]["text"].startswith("shorten the text")
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == broken.resolve().as_uri() + "/"
    got = []
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "SRCROOT"
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        got.append({"path": location["artifactLocation"]["uri"], "line": str(location["region"]["startLine"]),
                    "col": str(location["region"]["startColumn"]), "code": result["ruleId"],
                    "severity": result["level"], "message": result["message"]["text"].split("\nhelp: ")[0]})
    assert got == expected


def test_the_schema_check_can_fail(broken):
    """The validation above is no formality: a log missing a result's message is refused."""
    log = json.loads(cardforge("check", "set", "--format", "sarif", cwd=broken).stdout)
    del log["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SCHEMA).validate(log)


def test_github_format_is_one_annotation_per_diagnostic_at_its_position(broken):
    expected = _text_diagnostics(broken)
    done = cardforge("check", "set", "--format", "github", cwd=broken)
    assert done.returncode == 1 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(expected) == 3
    for line, diag in zip(lines, expected):
        head, _, message = line.partition("::")[2].partition("::")
        command, _, props = head.partition(" ")
        fields = dict(p.split("=", 1) for p in props.split(","))
        assert command == diag["severity"]
        assert fields == {"file": diag["path"], "line": diag["line"], "col": diag["col"], "title": diag["code"]}
        assert message.startswith(f"[{diag['code']}] ")
    overflow = next(line for line in lines if "E-TEXT-OVERFLOW" in line)
    assert "%0Ahelp: shorten the text" in overflow  # the help line, on the annotation's second line


def test_a_clean_game_prints_no_annotation_and_an_empty_sarif_log(tmp_path):
    assert cardforge("new", "ok", cwd=tmp_path).returncode == 0
    done = cardforge("check", "ok", "--format", "github", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    done = cardforge("check", "ok", "--format", "sarif", cwd=tmp_path)
    log = json.loads(done.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert done.returncode == 0 and log["runs"][0]["results"] == []


def test_workflow_command_escapes_follow_githubs_toolkit():
    # actions/toolkit command.ts: data escapes % CR LF; property values also ':' and ','
    assert _escape_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b"
    assert _escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    diag = Diagnostic("warning", "W-X", "odd, but: 100%", Position(Path("my,cards:1.yaml"), 3, 7), help="fix it")
    assert github_line(diag, Path.cwd()) == \
        "::warning file=my%2Ccards%3A1.yaml,line=3,col=7,title=W-X::[W-X] odd, but: 100%25%0Ahelp: fix it"
    assert github_line(Diagnostic("error", "E-Y", "no file")) == "::error title=E-Y::[E-Y] no file"


# -- the pre-commit hook -------------------------------------------------------------------------

def _pre_commit() -> list[str]:
    exe = Path(sys.executable).with_name("pre-commit")
    if exe.is_file():
        return [str(exe)]
    if shutil.which("pre-commit"):
        return [shutil.which("pre-commit")]
    pytest.skip("pre-commit is not installed (it is in the test extra: pip install -e '.[test]')")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True)


def test_pre_commit_hook_fails_on_a_broken_card_and_passes_once_fixed(tmp_path):
    """pre-commit try-repo on this checkout, in a card repository (a seed game and its layouts):
    it installs cardforge from the checkout into pre-commit's own environment, as a card
    database's repository would from cardforge's."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    pre_commit = _pre_commit()
    repo = tmp_path / "cards"
    shutil.copytree(REPO / "content/war-eagles", repo / "content/war-eagles")
    shutil.copytree(REPO / "layouts/war-eagles", repo / "layouts/war-eagles")
    if (REPO / "layouts/common").is_dir():
        shutil.copytree(REPO / "layouts/common", repo / "layouts/common")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "test@example.com")
    _git(repo, "config", "user.name", "test")
    card_file = next(p for p in sorted((repo / "content/war-eagles/cards").glob("*.yaml"))
                     if "\n    name: " in p.read_text("utf-8") or "\n  - id: " in p.read_text("utf-8"))
    good = card_file.read_text("utf-8")
    lines = good.splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.startswith("  - id: "))
    lines.insert(index + 1, "    bogus_field: 1\n")  # a key no deck declares: E-SCHEMA
    card_file.write_text("".join(lines), "utf-8")
    _git(repo, "add", "-A")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    run = [*pre_commit, "try-repo", str(REPO), "cardforge-check", "--all-files"]

    def attempt():
        return subprocess.run(run, cwd=repo, env=env, capture_output=True, text=True, timeout=900)

    failed = attempt()
    shown = failed.stdout + failed.stderr
    assert failed.returncode == 1, shown
    rel = card_file.relative_to(repo).as_posix()
    line = index + 2
    assert f"{rel}:{line}:5: error[E-SCHEMA]: unknown key 'bogus_field'" in shown, shown
    card_file.write_text(good, "utf-8")
    _git(repo, "add", "-A")
    passed = attempt()
    assert passed.returncode == 0, passed.stdout + passed.stderr
