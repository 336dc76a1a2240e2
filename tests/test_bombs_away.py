"""Bombs Away! (content/bombs-away): the shipped kit checks clean, every rule of its rules.yaml fails on a
mutated copy with its rule id at the right `path:line:col` (card fields, board data in game.yaml, tokens,
deck entries, layouts), and the Target Display printed from data puts each target square where its data
says, with its name, colour, key mark and flak symbols, and room for a card.

One copy of the game and of its layouts is made per module (<tmp>/content/bombs-away, <tmp>/layouts);
each test edits it and the fixture puts the files back. Expected positions are computed from the mutated
file (the line holding the changed value), so unrelated edits of the content do not break the tests."""
from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pdfplumber
import pytest
import yaml

from cardforge import diagnostics
from cardforge.cli import main

from conftest import load_manifest

REPO = Path(__file__).resolve().parent.parent
GAME = REPO / "content" / "bombs-away"
HEADLINE = re.compile(r"^\S[^:]*:\d+:\d+: (error|warning)\[[A-Z0-9-]+\]: ")


class Copy:
    """The copied game and layouts, with edits undone after each test."""

    def __init__(self, root: Path):
        self.root = root
        self.path = root / "content" / "bombs-away"
        self.originals: dict[Path, str] = {}
        self._clock = time.time_ns()

    def _write(self, path: Path, text: str) -> None:
        path.write_text(text, "utf-8")
        self._clock += 1_000_000  # a new mtime per write: source lines are cached by (path, mtime, size)
        os.utime(path, ns=(self._clock, self._clock))

    def edit(self, rel: str, old: str, new: str, after: str | None = None, count: int = 1) -> None:
        path = self.root / rel
        text = path.read_text("utf-8")
        self.originals.setdefault(path, text)
        start = text.index(after) if after else 0
        assert old in text[start:], f"{old!r} is not in {rel}" + (f" after {after!r}" if after else "")
        self._write(path, text[:start] + text[start:].replace(old, new, count))

    def restore(self) -> None:
        for path, text in self.originals.items():
            self._write(path, text)
        self.originals.clear()
        diagnostics._line_cache.clear()


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Copy:
    root = tmp_path_factory.mktemp("bombs-away")
    shutil.copytree(GAME, root / "content" / "bombs-away")
    # The common layouts ship inside cardforge (cardforge/layout/common/): only the game's own are copied.
    shutil.copytree(REPO / "layouts" / "bombs-away", root / "layouts" / "bombs-away")
    return Copy(root)


@pytest.fixture
def game(prepared):
    yield prepared
    prepared.restore()


def loc(game: Copy, rel: str, line: str, at: str | None = None, after: str | None = None) -> str:
    """`REL:LINE:COL` (REL from the copy's root) of the first line holding `line` after the line holding
    `after`; the column is where `at` (default: `line`) starts on it."""
    lines = (game.root / rel).read_text("utf-8").splitlines()
    start = next(i for i, text in enumerate(lines) if after in text) if after else 0
    index = next(i for i in range(start, len(lines)) if line in lines[i])
    col = lines[index].index(at if at is not None else line) + 1
    return f"{rel}:{index + 1}:{col}"


def check(game: Copy, capsys, monkeypatch, *extra: str) -> tuple[int, list[str], str]:
    monkeypatch.chdir(game.root)
    code = main(["check", "content/bombs-away", "--layouts", "layouts", *extra])
    out, err = capsys.readouterr()
    return code, [line for line in err.splitlines() if HEADLINE.match(line)], out + err


C, T, D, M = ("content/bombs-away/cards/", "content/bombs-away/tokens/", "content/bombs-away/game.yaml",
              "layouts/bombs-away/")
R = "content/bombs-away/rules.yaml"


def rule_at(rule: str) -> tuple[str, str]:
    """Where a game-scope rule reports: its assert in rules.yaml."""
    return R, "assert:"


# rule id -> (edits [(file, old, new, after?, count?)], (file, line, at, after?) of the finding, severity)
CASES = {
    "BA-DECK-COUNTS": ([(C + "events.yaml", "{id: heats-up-1, ", "{id: heats-up-1, quantity: 2, ")],
                       (D, "cards: cards/events.yaml", "cards/events.yaml"), "error"),
    "BA-DECOY-TURNS": ([(C + "decoys.yaml", "id: decoy-9, game_turn: 9", "id: decoy-9, game_turn: 8")],
                       (C + "decoys.yaml", "id: decoy-9", "8, period"), "error"),
    "BA-BEGIN-GAME": ([(C + "allied-planes.yaml", "begin_game: true, slow", "begin_game: false, slow")],
                      (C + "allied-planes.yaml", "id: b24d", "false"), "error"),
    "BA-RESEARCH-TURN": ([(C + "allied-planes.yaml", "research_turn: 2,", "research_turn: 12,")],
                         (C + "allied-planes.yaml", "id: halifax-ii", "12,"), "error"),
    "BA-DECOY-RESEARCHED": ([(C + "decoys.yaml", "[Halifax II, Ju88C]", "[Halifax II]")],
                            (C + "decoys.yaml", "id: decoy-2", "[Halifax II]"), "error"),
    "BA-EVENT-TEXT": ([(C + "events.yaml", 'axis_text: "Combat: +1 Dogfight to one Axis aircraft with a night symbol.", ', "")],
                      (C + "events.yaml", "id: kammhuber-line", '"Kammhuber Line"'), "error"),
    "BA-EVENT-CHANCE": ([(C + "events.yaml", "chance: 6", "chance: 11", "id: window")],
                        (C + "events.yaml", "id: window", "11,"), "error"),
    "BA-HEATS-UP": ([(C + "events.yaml", "heats_up: true", "heats_up: false", "id: heats-up-2")],
                    (C + "events.yaml", "id: heats-up-2", "false"), "error"),
    "BA-HEATS-UP-EXISTS": ([(C + "events.yaml", ", heats_up: true", "", None, -1)],
                           (R, "assert: \"count(where(groups.events, 'heats_up', true)) >= 1\"", '"'), "error"),
    "BA-FLAK-START": ([(C + "flak.yaml", "{id: flak-1, quantity: 8,", "{id: flak-1, quantity: 3,")],
                      (C + "flak.yaml", "id: flak-1", "3,"), "error"),
    "BA-FLAK-CHANGE": ([(C + "flak.yaml", "quantity: 6, strength: 2,", "quantity: 6, strength: 4,")],
                       (C + "flak.yaml", "id: flak-2", "4, authored"), "error"),
    "BA-PAYLOAD": ([(C + "axis-planes.yaml", "dogfight: 6, begin_game: true", "dogfight: 6, payload: 2, begin_game: true")],
                   (C + "axis-planes.yaml", "id: fw190a", "2, begin_game"), "error"),
    "BA-DOGFIGHT": ([(C + "axis-planes.yaml", "role: fighter, dogfight: 6, research_turn: 3", "role: fighter, research_turn: 3")],
                    (C + "axis-planes.yaml", "id: me109g", "Me109G"), "error"),
    "BA-EXAMPLE-AIRCRAFT": ([(C + "allied-planes.yaml", "dogfight: 3, payload: 4, research_turn: 4", "dogfight: 3, payload: 5, research_turn: 4")],
                            (C + "allied-planes.yaml", "id: b17f", "5, research"), "error"),
    "BA-EXAMPLE-ME110G": ([(C + "axis-planes.yaml", "name: Me110G", "name: Me110F")],
                          (R, "assert: \"any(groups.axis_planes, 'name', 'Me110G')", '"'), "error"),
    "BA-NAMES": ([(C + "axis-planes.yaml", "name: Me109G", "name: Me109E")],
                 (C + "axis-planes.yaml", "id: me109g", "Me109E"), "error"),
    "BA-TARGETS": ([(D, "type: military", "type: economic", "name: Regensburg")],
                   (D, "name: Regensburg", "economic"), "error"),
    "BA-TARGET-COUNT": ([(D, "        - {name: Munich, type: political, key: false, flak: 1, vp: 1, bp_loss: 0, surrender: true, x: 88mm, y: 258mm, lon: 11.58, lat: 48.14,\n           authored: true}\n", "")],
                        (D, "- {name: Bremerhaven", "-"), "error"),
    "BA-KEY-TARGETS": ([(D, "key: false", "key: true", "name: Hamburg")],
                       (D, "name: Hamburg", "true, flak"), "error"),
    "BA-FLAK-SYMBOLS": ([(D, "flak: 1", "flak: 3", "name: Munich")],
                        (D, "name: Munich", "3, vp"), "error"),
    "BA-EXAMPLE-TARGETS": ([(D, "vp: 3", "vp: 2", "name: Bremerhaven")],
                           (D, "name: Bremerhaven", "2, bp_loss"), "error"),
    "BA-EFFECTS-ECONOMIC": ([(D, "bp_loss: 1", "bp_loss: 0", "name: Ruhr")],
                            (D, "name: Ruhr", "0, surrender"), "error"),
    "BA-EFFECTS-POLITICAL": ([(D, "surrender: true", "surrender: false", "name: Munich")],
                             (D, "name: Munich", "false, x:"), "error"),
    "BA-KEY-WORTH": ([(D, "vp: 4", "vp: 3", "name: Peenemünde")],
                     (D, "name: Peenemünde", "3, bp_loss"), "error"),
    "BA-TRACK": ([(D, 'from: 0, to: 9}', 'from: 0, to: 8}', 'label: "x1"')],
                 (D, 'label: "x1"', "8}"), "error"),
    "BA-FIGHTER-COST": ([(D, 'Researched to Available", cost: "2"', 'Researched to Available", cost: "1"')],
                        (D, 'item: "Fighter: Researched', '"1"'), "error"),
    "BA-VICTORY-BANDS": ([(D, '{points: "35–49"', '{points: "36–49"')], (D, 'points: "36–49"', '"36–49"'), "error"),
    "BA-SURRENDER-TURNS": ([(D, '{turn: "8–9"', '{turn: "8–10"')], (D, 'turn: "8–10"', '"8–10"'), "error"),
    "BA-MARKERS": ([(T + "devastated.yaml", "quantity: 6", "quantity: 5")],
                   (T + "devastated.yaml", "id: devastated", "5}"), "error"),
    "BA-SQUARE-MARKERS": ([(T + "markers.yaml", "{id: vp-x10, ", "{id: vp-x10, quantity: 2, ")],
                          (T + "markers.yaml", "id: vp-x10", "2, label"), "error"),
    "BA-MARKER-SHAPES": ([(D, "shape: triangle", "shape: round")],
                         (D, "shape: round", "round"), "error"),
    "BA-TARGET-FLIP": ([(T + "markers.yaml", 'back_label: "+10"', 'back_label: "+1"', "id: target-m")],
                       (T + "markers.yaml", "id: target-m", '"+1"'), "error"),
    "BA-KEY-DEFENCE": ([(D, "flak: 1", "flak: 2", "name: Regensburg")],
                       (D, "name: Regensburg", "2, vp"), "warning"),
    "BA-MILITARY-VP": ([(D, "vp: 2", "vp: 1", "name: Regensburg")],
                       (D, "name: Regensburg", "1, bp_loss"), "warning"),
    "BA-CHANCE-FLAT": ([(C + "events.yaml", "chance: 4", "chance: 5", "id: operation-millennium")],
                       (C + "events.yaml", "id: operation-millennium", "5, authored"), "warning"),
    "BA-STRENGTH-SPAN": ([(C + "axis-planes.yaml", "dogfight: 8,", "dogfight: 10,")],
                         (C + "axis-planes.yaml", "id: me262a", "10,"), "warning"),
    "BA-BUILDABLE": ([(C + "events.yaml", '"Me163B"', '"Me262A"', None, -1)],
                     (C + "axis-planes.yaml", "id: me163b", "Me163B"), "warning"),
    "BA-NIGHT": ([(C + "axis-planes.yaml", "research_turn: 3, altitude: high", "research_turn: 3, night: true, altitude: high")],
                 (C + "axis-planes.yaml", "id: me109g", "true"), "warning"),
    "BA-TURN-PERIOD": ([(C + "decoys.yaml", '"Jan–Jun 1942"', '"Jan–Jun 1943"')],
                       (C + "decoys.yaml", "id: decoy-3", '"Jan–Jun 1943"'), "warning"),
    "BA-RESEARCH-HISTORY": ([(C + "allied-planes.yaml", ',\n     authored: true, note: "P-51B Mustang long-range escorts from December 1943"', ", authored: true")],
                            (C + "allied-planes.yaml", "id: p51b", "6, altitude"), "warning"),
    "BA-EVENT-AIRCRAFT": ([(C + "events.yaml", 'allied_aircraft: "Spitfire I"', 'allied_aircraft: "Spitfire II"')],
                          (C + "events.yaml", '"Spitfire II"', '"Spitfire II"'), "error"),
    "BA-EVENT-AXIS-AIRCRAFT": ([(C + "events.yaml", 'axis_aircraft: "FW190A"', 'axis_aircraft: "FW190X"')],
                               (C + "events.yaml", '"FW190X"', '"FW190X"'), "error"),
    "BA-DECOY-NAMES": ([(C + "decoys.yaml", "[He219A]", "[He219B]")],
                       (C + "decoys.yaml", "id: decoy-7", "He219B"), "error"),
    "BA-BACKS": ([(C + "flak.yaml", "{id: flak-4, quantity: 2, ", "{id: flak-4, quantity: 2, back: ba-allied-back, ")],
                 (C + "flak.yaml", "id: flak-4", "ba-allied-back"), "error"),
    "BA-BACKS-ALLIED": ([(C + "allied-planes.yaml", "{id: p51b, ", "{id: p51b, back: ba-event-back, ")],
                        (C + "allied-planes.yaml", "id: p51b", "ba-event-back"), "error"),
    "BA-BACKS-EVENTS": ([(C + "events.yaml", "{id: window, ", "{id: window, back: ba-axis-back, ")],
                        (C + "events.yaml", "id: window", "ba-axis-back"), "error"),
}


def test_shipped_kit_checks_clean(game, capsys, monkeypatch):
    code, found, output = check(game, capsys, monkeypatch, "--strict")
    assert code == 0, output
    assert found == [], output


def test_every_rule_has_a_mutation_and_cites_a_section():
    rules = yaml.safe_load((GAME / "rules.yaml").read_text("utf-8"))
    ids = {rule["id"] for kind in ("checks", "references", "hidden_backs") for rule in rules.get(kind) or []}
    assert ids == set(CASES)
    for kind in ("checks", "references", "hidden_backs"):
        for rule in rules[kind]:
            assert re.search(r"\b(I|II|III|IV|V|VI|VII)\b|§", rule["section"]), rule["id"]


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_fails_on_its_mutation(rule, game, capsys, monkeypatch):
    edits, where, severity = CASES[rule]
    for edit in edits:
        rel, old, new, *rest = edit
        game.edit(rel, old, new, *(rest[:1] or [None]), **({"count": rest[1]} if len(rest) > 1 else {}))
    rel, line, at, *after = where
    expected = f"{loc(game, rel, line, at, *(after or [None]))}: {severity}[{rule}]: "
    code, found, output = check(game, capsys, monkeypatch)
    assert any(f.startswith(expected) for f in found), f"{expected}\n{output}"
    assert code == (1 if any(" error[" in f for f in found) else 0)


def test_back_reading_card_data_is_reported_at_the_layout_frame(game, capsys, monkeypatch):
    game.edit(M + "ba-axis-back.yaml", 'text: "AXIS"', 'text: "{{ deck.name }}"')
    expected = f"{loc(game, M + 'ba-axis-back.yaml', 'side-name:', 'side-name')}: error[BA-BACKS]: "
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1
    assert any(f.startswith(expected) and "reads deck in frame 'side-name'" in f for f in found), output


def test_region_smaller_than_its_card_fails_capacity(game, capsys, monkeypatch):
    game.edit(M + "ba-target-display.yaml", "        width: 69mm\n        height: 92mm", "        width: 69mm\n        height: 90mm")
    expected = (f"{loc(game, M + 'ba-target-display.yaml', 'holds: [{deck: axis-planes', '[')}: error[E-CAPACITY]: frame "
                "'slot' of layout 'ba-target-display' is 69.0 x 90.0 mm, but it holds a piece of 'axis-planes' "
                "(63.0 x 88.0 mm) with 2 mm to spare on every side: it needs 67.0 x 92.0 mm")
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1
    assert expected in found, output


def test_repeat_row_outside_its_frame_is_reported(game, capsys, monkeypatch):
    game.edit(D, "x: 164mm, y: 250mm", "x: 200mm, y: 250mm", "name: Ploesti")
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1
    assert any("error[E-REPEAT]: board 'target-display' (front), repeat frame 'targets' of layout "
               "'ba-target-display': row 9 of 9 ('Ploesti') is placed at (200.0, 250.0) mm, so its 72.0 x 104.0 "
               "mm cell leaves the frame's 242.0 x 366.0 mm" in f for f in found), output


# -- the printed Target Display -----------------------------------------------------------------------

COLOURS = {"economic": (0x2e, 0x7d, 0x32), "military": (0x1f, 0x4e, 0x8c), "political": (0xb3, 0x26, 0x1e)}
POKER = (63.0, 88.0)


@pytest.fixture(scope="module")
def display(tmp_path_factory):
    """The boards PDF (A4) of a clean build, its manifest and the board's data."""
    out = tmp_path_factory.mktemp("bombs-out")
    code = main(["build", str(GAME), "--paper", "a4", "--out", str(out)])
    assert code == 0
    folder = out / "bombs-away"
    data = yaml.safe_load((GAME / "game.yaml").read_text("utf-8"))["boards"][0]["data"]
    return folder / "bombs-away-boards-a4.pdf", load_manifest(folder / "bombs-away-boards-a4.manifest.json"), data


def _frames(manifest, name, whole=True):
    """(page, trim, frame record) of every tile that drew frame `name` (wholly on its page)."""
    out = []
    for record in manifest["boards"]:
        page = next(p for p in manifest["pages"] if p["page"] == record["page"])
        for frame in record["frames"]:
            x, y, w, h = frame["box"]
            on_page = x >= 0 and y >= 0 and x + w <= page["size"][0] and y + h <= page["size"][1]
            if frame["name"] == name and (on_page or not whole):
                out.append((record["page"], record["trim"], frame))
    return out


def test_nine_target_squares_read_back_from_the_pdf(display):
    pdf_path, manifest, data = display
    assert len(data["targets"]) == 9
    with pdfplumber.open(pdf_path) as pdf:
        for i, target in enumerate(data["targets"]):
            squares = _frames(manifest, f"targets[{i}].square")
            if not squares:  # a square the 2 x 2 tiles' seam crosses: read on the tile that shows its words
                named = {number for number, _, _ in _frames(manifest, f"targets[{i}].name")}
                squares = [s for s in _frames(manifest, f"targets[{i}].square", whole=False) if s[0] in named]
            assert squares, f"square {i} ({target['name']}) has its name on no tile"
            number, trim, frame = squares[0]
            page = pdf.pages[number - 1]
            ph = float(page.height)
            x, y, w, h = frame["box"]
            # Position: the repeat frame's corner (4 mm, 4 mm) plus the row's x/y, from the board's top-left.
            assert (round(x - trim[0], 1), round(trim[1] + trim[3] - (y + h), 1)) == \
                (round(4 + float(target["x"][:-2]), 1), round(4 + float(target["y"][:-2]), 1))
            assert (w, h) == (72.0, 104.0)
            pt = 72 / 25.4
            # Colour by type: a rectangle exactly there, outlined in the type's colour (its slot is open
            # on the map).
            frames = [r for r in page.rects if r["stroke"] and abs(r["x0"] - x * pt) < 1 and abs(r["x1"] - (x + w) * pt) < 1
                      and abs(r["bottom"] - (ph - y * pt)) < 1 and abs(r["top"] - (ph - (y + h) * pt)) < 1]
            colours = {tuple(round(c * 255) for c in r["stroking_color"]) for r in frames}
            assert COLOURS[target["type"]] in colours, (target["name"], colours)
            # Name: the text printed in the name frame's box.
            _, _, name = next(f for f in _frames(manifest, f"targets[{i}].name") if f[0] == number)
            nx, ny, nw, nh = name["box"]
            text = page.crop((nx * pt - 1, ph - (ny + nh) * pt - 1, (nx + nw) * pt + 1, ph - ny * pt + 1)).extract_text()
            assert text.replace("\n", " ") == target["name"].upper()
            # Key mark and flak symbols: what the frames drew (the build's verifier proves the PDF agrees).
            drawn = {f["name"].split(".", 1)[1]: f for _, _, f in
                     [r for r in (_frames(manifest, f"targets[{i}].{k}") for k in ("key", "flak")) for r in r[:1]]}
            assert ("key" in drawn) == bool(target["key"])
            assert drawn["flak"]["icons"] == {"flak": target["flak"]}
            # Room for a card: the slot holds a poker card with 2 mm on every side.
            _, _, slot = (_frames(manifest, f"targets[{i}].slot") or _frames(manifest, f"targets[{i}].slot", whole=False))[0]
            assert slot["box"][2] >= POKER[0] + 4 and slot["box"][3] >= POKER[1] + 4


def test_record_track_rows_and_turn_box(display):
    pdf_path, manifest, data = display
    for i, row in enumerate(data["record"]):
        tracks = _frames(manifest, f"record[{i}].spaces", whole=False)
        assert tracks and tracks[0][2]["labels"] == [str(n) for n in range(10)]
        labels = _frames(manifest, f"record[{i}].label", whole=False)
        assert labels[0][2]["text"] == row["label"]
    # the x10 row lies above the x1 row
    upper, lower = (_frames(manifest, f"record[{i}].spaces", whole=False)[0][2]["box"][1] for i in (0, 1))
    assert upper > lower
    slot = _frames(manifest, "boxes[0].slot")[0][2]
    assert slot["box"][2] >= POKER[0] + 4 and slot["box"][3] >= POKER[1] + 4
    assert _frames(manifest, "boxes[0].name")[0][2]["text"] == "TURN CARD"


# -- provenance (C17) -----------------------------------------------------------------------------------

def test_provenance_counted_per_component_in_manifest_not_on_cover(display):
    """Provenance is for the designer: the manifest counts it, the player's cover does not print it."""
    pdf_path, manifest, data = display
    want = {"cards": {"given": 0, "authored": 100}, "tokens": {"given": 14, "authored": 1},
            "boards": {"given": 0, "authored": 1, "rows": {"given": 19, "authored": 6}},
            "references": {"given": 0, "authored": 1, "rows": {"given": 0, "authored": 0}},
            "tables": {"given": 6, "authored": 15}}
    assert manifest["provenance"] == want
    kit = pdf_path.with_name("bombs-away-kit-a4.pdf")
    with pdfplumber.open(kit) as pdf:
        cover = pdf.pages[0].extract_text()
    assert "Contents" in cover
    for word in ("Provenance", "given by the rulebook", "authored", "sample content"):
        assert word not in cover


def test_table_cells_with_inline_icons_are_read_back(display):
    """The Bombing Effects tables mark key targets with :key: in a cell; the build's verifier owns them."""
    pdf_path, manifest, data = display
    refs = load_manifest(pdf_path.with_name("bombs-away-references-a4.manifest.json"))
    effects = next(f for f in refs["references"][0]["frames"] if f["name"] == "effects")
    assert effects["icons"] == {"key": sum(1 for t in data["targets"] if t["key"])}
    assert [row[0] for row in effects["rows"]] == [f"**{t['name']}**" + (" :key:" if t["key"] else "")
                                                   for t in data["targets"]]


# -- mistakes in the rules file about boards and decks ---------------------------------------------------

@pytest.mark.parametrize("old, new, line, at, message", [
    ("    board: target-display\n    assert: \"count(board.targets) == 9\"",
     "    board: target-dispaly\n    assert: \"count(board.targets) == 9\"", "board: target-dispaly", "target-dispaly",
     "error[E-RULES-REF]: unknown board 'target-dispaly'"),
    ("    deck: [devastated, squares]", "    deck: [devastated, square]", "deck: [devastated, square]", "square]",
     "error[E-RULES-REF]: unknown deck 'square'"),
    ("    decks: [axis-planes, axis-flak, axis-decoys]", "    decks: [axis-planes, axis-flak, axis-decoy]",
     "decks: [axis-planes, axis-flak, axis-decoy]", "axis-decoy]", "error[E-RULES-REF]: unknown deck 'axis-decoy'"),
    ("    deck: [devastated, squares]", "    board: target-display\n    deck: [devastated, squares]",
     "board: target-display\n    deck: [devastated", "board", "error[E-RULES]: 'board' does not go with scope: deck"),
])
def test_rules_file_mistakes_about_boards_and_decks(old, new, line, at, message, game, capsys, monkeypatch):
    game.edit(R, old, new)
    first = line.split("\n")[0]
    after = "id: BA-MARKER-SHAPES" if "board: target-display\n    deck" in line else None
    expected = f"{loc(game, R, first, at, after)}: {message}"
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1
    assert any(f.startswith(expected) for f in found), f"{expected}\n{output}"
