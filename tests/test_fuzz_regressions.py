"""Tracebacks and hangs that the fuzzer (bench/fuzz.py, tests/test_fuzz.py) found, each as its smallest
reproducer: now one diagnostic at the offending file and line, exit code 1, no traceback."""
from __future__ import annotations

from conftest import cardforge, headlines, make_game

CARD_TABLE = """\
frames:
  scores:
    type: table
    x: 4mm
    y: 4mm
    width: 55mm
    height: 40mm
    rows: "[1, 2]"
    columns:
      - {header: "Score", value: "{{ row }}"}
      - {header: "Half", value: "{{ row / }}"}
"""


def only_error(tmp_path, command: str = "check", **game) -> str:
    make_game(tmp_path, **game)
    args = ["--out", "out", "--paper", "a4"] if command == "build" else []
    result = cardforge(command, "content/tiny", *args, cwd=tmp_path, timeout=60)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr
    errors = [line for line in headlines(result.stderr) if ": error[" in line]
    assert len(errors) == 1, result.stderr
    return errors[0]


def test_table_column_template_syntax_error_is_the_layouts(tmp_path):
    # fuzz seed 2099: a table column's template with a syntax error escaped render/table.py
    assert only_error(tmp_path, layout_yaml=CARD_TABLE) == (
        "content/tiny/layouts/front.yaml:11:33: error[E-TEMPLATE]: table frame 'scores', column 2: "
        "template syntax error: unexpected 'end of print statement'")
