"""`cardforge stats`: counts by field, numeric distributions, and a PDF of reportlab bar charts."""
from __future__ import annotations

import re
from collections import Counter

import pdfplumber
import yaml

from conftest import BOMBER, REPO, cardforge, squash


def _cards(*files):
    cards = []
    for rel in files:
        cards += yaml.safe_load((BOMBER / rel).read_text("utf-8"))["cards"]
    return cards


def test_stats_prints_counts_by_field_and_cost_curves_per_deck(tmp_path):
    result = cardforge("stats", BOMBER, "--out", tmp_path, cwd=REPO)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    crew = _cards("cards/crew.yaml")
    clocks = Counter(c for card in crew for c in card["sight"]["clock"])
    assert "Crew cards (crew): 10 cards, 10 distinct" in lines
    assert f"  sight.clock: 12: {clocks[12]}, 3: {clocks[3]}, 6: {clocks[6]}, 9: {clocks[9]}" in lines
    assert "  title: text, 10 different values, 5-15 characters" in lines
    run = _cards("cards/items.yaml", "cards/events.yaml", "cards/enemies.yaml")
    copies = sum(c.get("quantity", 1) for c in run)
    assert f"Bombing run cards (bombing-run): {copies} cards, {len(run)} distinct" in lines
    # the damage-space curve counts copies, with the values between that no card has
    spaces = Counter()
    for card in run:
        if "damage_spaces" in card:
            spaces[card["damage_spaces"]] += card.get("quantity", 1)
    start = lines.index(next(l for l in lines if l.startswith("  damage_spaces: min")))
    shown = {}
    for line in lines[start + 1:]:
        match = re.match(r"^ +(\d+) \| #* *(\d+)( \(\d+\))?$", line)
        if not match:
            break
        shown[int(match.group(1))] = int(match.group(2))
    assert shown == {v: spaces.get(v, 0) for v in range(min(spaces), max(spaces) + 1)}
    mean = sum(v * n for v, n in spaces.items()) / sum(spaces.values())
    assert lines[start].startswith(f"  damage_spaces: min {min(spaces)}, max {max(spaces)}, mean {mean:.2f}")


def test_stats_pdf_draws_one_bar_per_value(tmp_path):
    result = cardforge("stats", BOMBER, "--deck", "missions", "--out", tmp_path, cwd=REPO)
    assert result.returncode == 0, result.stderr
    pdf = tmp_path / "bomber-boys-stats.pdf"
    missions = _cards("cards/missions.yaml")
    with pdfplumber.open(pdf) as doc:
        text = squash(" ".join(page.extract_text() for page in doc.pages))
        rects = [r for page in doc.pages for r in page.rects]
        assert "Bomber Boys: card statistics" in text
        assert "Mission cards (target on the back) (missions): 5 cards, 5 distinct" in text
        assert "difficulty min 1, max 5, mean 3.00, median 3" in text  # the name, its summary below
        # the bars are filled rectangles in the chart's navy: one per value some card has, in every
        # charted field (the others are listed as text)
        bars = [r for r in rects if r["height"] > 0.5 and r.get("non_stroking_color")
                and tuple(round(c, 2) for c in r["non_stroking_color"]) == (0.12, 0.23, 0.37)]
        charted = {
            "mission": Counter(c["mission"] for c in missions),
            "art": Counter(c["art"] for c in missions),
            "title": Counter(c["title"] for c in missions),
            "difficulty": Counter(c["difficulty"] for c in missions),
            "total": Counter(c["total"] for c in missions),
            "target.title": Counter(c["target"]["title"] for c in missions),
            "target.dice": Counter(d for c in missions for d in set(c["target"]["dice"])),
        }
        assert len(bars) == sum(len(values) for values in charted.values())
        for name in charted:
            assert name in text
        assert "briefing: text, 5 different values" in text  # long texts are summarised, not charted
        # the difficulty curve: five equal bars
        heights = Counter(round(r["height"], 1) for r in bars)
        assert max(heights.values()) >= 5
    assert "wrote" in result.stdout


def test_stats_names_an_unknown_deck(tmp_path):
    result = cardforge("stats", BOMBER, "--deck", "mission", "--out", tmp_path, cwd=REPO)
    assert result.returncode == 2 and "no deck 'mission'" in result.stderr


def test_stats_pdf_captions_never_overlap_and_no_chart_is_empty(tmp_path):
    """War Eagles has long numeric captions side by side (they ran into each other), and a field that
    no card has is a line of text, not a chart without bars."""
    from conftest import make_game
    result = cardforge("stats", REPO / "content/war-eagles", "--out", tmp_path, cwd=REPO)
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(tmp_path / "war-eagles-stats.pdf") as doc:
        for page in doc.pages:
            lines: dict[int, list] = {}
            for char in page.chars:
                if char["matrix"][1:3] == (0, 0) and char["text"].strip():  # horizontal text (labels at 30° aside)
                    lines.setdefault(round(char["top"]), []).append(char)
            for chars in lines.values():
                chars.sort(key=lambda c: c["x0"])
                for left, right in zip(chars, chars[1:]):
                    assert right["x0"] >= left["x1"] - 0.5, (page.page_number, left["text"], right["text"])
    make_game(tmp_path, cards_yaml="cards:\n  - {id: a, title: A, text: x}\n  - {id: b, title: B, text: y}\n")
    result = cardforge("stats", "content/tiny", "--out", "stats", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "  cost: no card has a value; 2 without a value" in result.stdout.splitlines()
    with pdfplumber.open(tmp_path / "stats/tiny-stats.pdf") as doc:
        text = doc.pages[0].extract_text()
        assert "cost: no card has a value; 2 without a value" in text
        assert text.count("cost") == 1  # that line, and no chart captioned 'cost'
