"""YAML syntax errors in the designer's terms.

PyYAML says what its parser expected ("mapping values are not allowed here", "expected <block end>,
but found '<scalar>'"), which a designer editing card text cannot act on.  Each common mistake is
recognised from the parser's words and the source line, and said as what went wrong and how to fix
it, at the place the mistake was made (where a quote was opened, not where the file ran out).
The parser's own words stay as a detail at the end of the help line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_KEY_VALUE = re.compile(r"^(\s*(?:-\s+)?)([A-Za-z0-9_.-]+):\s+(.*)$")


@dataclass
class Explained:
    message: str
    line: int  # 1-based
    col: int  # 1-based
    help: str


def explain(problem: str, context: str | None, problem_mark, context_mark, lines: list[str]) -> Explained | None:
    """The mistake behind a PyYAML error, or None where no plain explanation is known."""
    detail = f"(the YAML parser says: {problem}{f', {context}' if context else ''})"
    if context == "while scanning a quoted scalar" and context_mark is not None:
        quote = _char(lines, context_mark)
        return Explained(f"the quote {quote} opened here is never closed", context_mark.line + 1,
                         context_mark.column + 1,
                         f"end the text with {quote} on the same line {detail}")
    if problem_mark is None:
        return None
    line_no, col = problem_mark.line + 1, problem_mark.column + 1
    line = lines[problem_mark.line] if 0 <= problem_mark.line < len(lines) else ""
    if problem == "mapping values are not allowed here":
        fixed = _quoted(line)
        match = _KEY_VALUE.match(line)
        if fixed is not None and match is not None and problem_mark.column >= match.start(3):  # in the value
            return Explained("this text holds ': ', which YAML reads as the start of another key", line_no, col,
                             f"put the text in quotes: {fixed.strip()} {detail}")
        key_col = match.start(2) + 1 if match is not None else col
        return Explained("this key is indented deeper than the keys beside it", line_no, key_col,
                         f"give it the same indentation as the key on the line above {detail}")
    if problem.startswith("found character '\\t'"):
        return Explained("a tab indents this line; YAML indents with spaces only", line_no, col,
                         f"replace the tab with spaces {detail}")
    if problem == "could not find expected ':'" and context_mark is not None:
        return Explained("this line has no ':' after its key", context_mark.line + 1, context_mark.column + 1,
                         f"write it as 'key: value' {detail}")
    if problem.startswith("expected <block end>, but found '<scalar>'"):
        unclosed = _unclosed_above(lines, problem_mark.line, problem_mark.column)
        if unclosed is not None:
            at_line, at_col, quote = unclosed
            return Explained(f"the quote {quote} opened here is not closed on its line, so the text runs on "
                             f"to the {quote} on line {line_no}", at_line + 1, at_col + 1,
                             f"end the text with {quote} on this line {detail}")
        opened = _closed_early(line, problem_mark.column)
        if opened is not None:
            quote, at = opened
            fix = ("write the text in double quotes, or write each ' inside it twice ('')" if quote == "'"
                   else 'write each " inside the text as \\"')
            return Explained(f"the text quoted with {quote} ends at the {quote} inside it", line_no, at + 1,
                             f"{fix} {detail}")
    if problem.startswith("expected <block end>"):
        return Explained("this line's indentation does not match the lines above it", line_no, col,
                         f"indent it like its neighbours: list items ('- ') line up, and a card's keys line up "
                         f"under its first key {detail}")
    return None


def _char(lines: list[str], mark) -> str:
    line = lines[mark.line] if 0 <= mark.line < len(lines) else ""
    return line[mark.column] if 0 <= mark.column < len(line) else '"'


def _quoted(line: str) -> str | None:
    """`key: text: more` with the text put in double quotes, or None when the line is no such pair."""
    match = _KEY_VALUE.match(line)
    if match is None or match.group(3)[:1] in "\"'|>":
        return None
    value = match.group(3).rstrip()
    return f'{match.group(1)}{match.group(2)}: "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _closed_early(line: str, column: int) -> tuple[str, int] | None:
    """(quote, column of its opening) when the value before `column` is a quoted text that a quote of
    its own kind inside it ended too soon: `text: 'it's here'`."""
    before = line[:column]
    match = _KEY_VALUE.match(before)
    if match is None:
        return None
    value = match.group(3)
    quote = value[:1]
    if quote not in "\"'" or quote not in line[column:]:
        return None
    return quote, len(before) - len(value)


def _open_quote(line: str) -> tuple[int, str] | None:
    """(column, quote) of a `key: "text` value whose quote this line does not close."""
    match = _KEY_VALUE.match(line)
    if match is None:
        return None
    value = match.group(3).rstrip()
    quote = value[:1]
    if quote == '"':
        closed = '"' in re.sub(r"\\.", "", value[1:])
    elif quote == "'":
        closed = "'" in value[1:].replace("''", "")
    else:
        return None
    return None if closed else (match.start(3), quote)


def _unclosed_above(lines: list[str], line_index: int, column: int) -> tuple[int, int, str] | None:
    """(line, column, quote) of a `key: "text` above `line_index` left open, when the text it opened
    ran on to the quote before `column` (the lines between hold no quote of its kind)."""
    if not 0 <= line_index < len(lines):
        return None
    for index in range(line_index - 1, max(-1, line_index - 200), -1):
        opened = _open_quote(lines[index])
        if opened is not None:
            col, quote = opened
            return (index, col, quote) if quote in lines[line_index][:column] else None
        if '"' in lines[index] or "'" in lines[index]:
            return None
    return None
