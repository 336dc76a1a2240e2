"""The sections of each rulebook, read from its text (../shared/seeds/<game>.txt), so that
tests/test_rules_coverage.py can hold content/<game>/RULES.md against the rulebook itself.

Each rulebook marks its sections in its own way; a RULES.md row is named exactly as here:
- Bomber Boys: every Markdown heading line (`# CREW CARDS`, `## Mission Side`), with its #s;
- Iron Rain: numbered sections (1.0, 3.21, 10.15a, A.8), the lettered items under x.y (6.3a), and
  four unnumbered headings (Introduction, Card Types, Tabled, A. Leadership/Aces);
- Bombs Away!: the outline numbering composed (I, I.A, I.B.2, II.B.3a, VII.F), plus the unnumbered
  heading "Optional cards and markers";
- War Eagles: each heading line: a short line after a blank line that is no list item and ends in
  no sentence punctuation (GETTING STARTED, 1. Flip a Coin, Units, Pacific Theater:);
- Steel Rain: each entry of the Table of Contents (without its dots and page number), and each
  table the rulebook prints: a title line followed by tab-separated rows (To Hit Table), and the
  untitled Turn Type Multiplier table.
A section named twice in a rulebook has one row.
"""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def seeds_dir() -> Path | None:
    """The rulebooks: ../shared/seeds beside the main checkout (worktrees live one level deeper)."""
    for base in (REPO.parent, REPO.parent.parent):
        if (base / "shared" / "seeds" / "iron-rain.txt").is_file():
            return base / "shared" / "seeds"
    return None


def _unique(items) -> list[str]:
    out: list[str] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def bomber_boys(text: str) -> list[str]:
    return _unique(line.strip() for line in text.splitlines() if line.startswith("#"))


IRON_RAIN_HEADINGS = ("Introduction", "Card Types", "Tabled", "A. Leadership/Aces")  # unnumbered


def iron_rain(text: str) -> list[str]:
    sections: list[str] = []
    last = None
    for line in text.splitlines():
        heading = next((h for h in IRON_RAIN_HEADINGS if line == h or line.startswith(h + " –")), None)
        if heading:
            sections.append(heading)
            continue
        match = re.match(r"^(\d+\.\d+[a-z]?|A\.\d+)(?=[\s\-–])", line)
        if match:
            last = match.group(1)
            sections.append(last)
            continue
        letter = re.match(r"^([a-e])\. ", line)
        if letter and last and re.fullmatch(r"\d+\.\d+", last):
            sections.append(last + letter.group(1))
    return _unique(sections)


ROMAN = re.compile(r"^(I|II|III|IV|V|VI|VII|VIII|IX|X)\. \S")
LETTER = re.compile(r"^([A-G])\. \S")
NUMBER = re.compile(r"^\s*(\d)([a-f]?)\. \S")
INLINE = re.compile(r"(?<=[.)] )(\d)\.(?= [A-Z]|$)")


def bombs_away(text: str) -> list[str]:
    sections: list[str] = []
    roman = letter = None
    for line in text.splitlines():
        if line.strip() == "Optional cards and markers":  # unnumbered, between IV.D and IV.E
            sections.append(line.strip())
        elif m := ROMAN.match(line):
            roman, letter = m.group(1), None
            sections.append(roman)
        elif roman and (m := LETTER.match(line)):
            letter = m.group(1)
            sections.append(f"{roman}.{letter}")
        elif roman and (m := NUMBER.match(line)):
            base = f"{roman}.{letter}" if letter else roman
            sections.append(f"{base}.{m.group(1)}{m.group(2)}")
            # a second item on the same line (VII.A: "... arrow. 2. Low-Flying aircraft ...")
            sections += [f"{base}.{n}" for n in INLINE.findall(line[m.end():])]
        elif roman and letter and (found := INLINE.findall(line)):
            sections += [f"{roman}.{letter}.{n}" for n in found]  # I.B: "... electronically.) 2."
    return _unique(sections)


def war_eagles(text: str) -> list[str]:
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        s = line.strip()
        if not s or (i > 0 and lines[i - 1].strip()):
            continue
        if len(s) > 60 or s.startswith("-") or s[-1] in ".,;)":
            continue
        out.append(s)
    return _unique(out)


def steel_rain(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Table of Contents")
    out = []
    for line in lines[start + 1:]:
        m = re.match(r"^(.+?)\.*\t\d+$", line.strip())
        if m:
            out.append(m.group(1).strip())
        elif line.strip() and out and out[-1] == "Afterword":
            break
    # The tables, in the text's order: a title line followed by rows of tab-separated cells, and the
    # one untitled table, whose header is "° of Turn" (the text calls it "the Turn Type Multiplier table").
    for i, line in enumerate(lines):
        title = line.strip()
        if title.startswith("° of Turn"):
            out.append("Turn Type Multiplier")
            continue
        if (not title or line.startswith("\t") or "\t" in title or len(title) > 60 or title.endswith(":")
                or title == "Table of Contents"):
            continue
        following = next((other for other in lines[i + 1:] if other.strip()), "")
        if "\t" in following.rstrip():
            out.append(title)
    return _unique(out)


PARSERS = {"bomber-boys": bomber_boys, "iron-rain": iron_rain, "bombs-away": bombs_away,
           "war-eagles": war_eagles, "steel-rain": steel_rain}


def rulebook_sections(game: str) -> list[str] | None:
    """The sections of the game's rulebook, or None when the rulebooks are not beside this checkout."""
    seeds = seeds_dir()
    if seeds is None:
        return None
    return PARSERS[game]((seeds / f"{game}.txt").read_text("utf-8"))
