"""Card files as spreadsheets (frontend/sheets.py) and `cardforge import csv|xlsx`."""
from __future__ import annotations

import json

import openpyxl
import yaml

from conftest import BOMBER, REPO, cardforge, copy_tree, make_game

CREW_COLUMNS = ["id", "position", "title", "nation", "sight.clock", "sight.altitude", "actions", "eliminated",
                "authored", "note", "art"]


def _crew_workbook(path, sheet="Crew"):
    """An xlsx copy of Bomber Boys' crew.yaml as a designer would type it: numbers as numbers, a
    list of plain values as "12, 3", the actions (a list of objects) as JSON in one cell."""
    cards = yaml.safe_load((BOMBER / "cards" / "crew.yaml").read_text("utf-8"))["cards"]
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = sheet
    ws.append(CREW_COLUMNS)
    ws.append([])  # an empty row: skipped
    for card in cards:
        row = []
        for column in CREW_COLUMNS:
            head, _, tail = column.partition(".")
            value = card.get(head, {}).get(tail) if tail else card.get(head)
            if isinstance(value, list) and value and not isinstance(value[0], dict):
                value = ", ".join(map(str, value))
            elif isinstance(value, (list, dict)):
                value = json.dumps(value, ensure_ascii=False)
            row.append(value)
        ws.append(row)
    book.create_sheet("Notes").append(["anything else the designer keeps"])
    book.save(path)
    return cards


def _bomber_copy(tmp_path):
    game = tmp_path / "content" / "bomber-boys"
    copy_tree(BOMBER, game)
    (game / "cards" / "crew.yaml").unlink()
    _crew_workbook(game / "cards" / "crew.xlsx")
    text = (game / "game.yaml").read_text("utf-8")
    (game / "game.yaml").write_text(text.replace("cards: cards/crew.yaml", "cards: cards/crew.xlsx"), "utf-8")
    return game


def test_bomber_boys_crew_from_an_xlsx_copy_gives_the_same_pdf_bytes_as_from_yaml(tmp_path, bomber):
    game = _bomber_copy(tmp_path)
    result = cardforge("build", game, "--paper", "a4", "--layouts", REPO / "layouts", "--out", tmp_path / "out",
                       cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    for component in ("cards", "kit"):
        built = tmp_path / "out" / "bomber-boys" / f"bomber-boys-{component}-a4.pdf"
        assert built.read_bytes() == bomber.pdf("duplex", "a4", component=component).read_bytes()


def test_a_typo_in_a_spreadsheet_cell_names_file_sheet_and_cell(tmp_path):
    game = _bomber_copy(tmp_path)
    book = openpyxl.load_workbook(game / "cards" / "crew.xlsx")
    ws = book["Crew"]
    ws["B12"] = "x"  # row 12: the header, an empty row, then the tenth crew card
    ws["F5"] = "high, lo"
    book.save(game / "cards" / "crew.xlsx")
    result = cardforge("check", game, "--layouts", REPO / "layouts", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert ("content/bomber-boys/cards/crew.xlsx:Crew!B12: error[E-SCHEMA]: 'x' is not a whole number "
            "(column 'position')") in lines
    assert "  = help: the deck's field 'position' takes a whole number" in lines
    assert ("content/bomber-boys/cards/crew.xlsx:Crew!F5: error[E-SCHEMA]: 'lo' is not one of high, low; "
            "did you mean 'low'? (column 'sight.altitude')") in lines
    assert "Traceback" not in result.stderr


def test_an_unknown_column_is_reported_once_at_its_header_cell(tmp_path):
    game = _bomber_copy(tmp_path)
    book = openpyxl.load_workbook(game / "cards" / "crew.xlsx")
    book["Crew"]["C1"] = "titel"
    book.save(game / "cards" / "crew.xlsx")
    result = cardforge("check", game, "--layouts", REPO / "layouts", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.count("unknown column") == 1
    assert "crew.xlsx:Crew!C1: error[E-SCHEMA]: unknown column 'titel', did you mean 'title'?" in result.stderr


CSV_GAME = """\
id: tiny
name: Tiny Game
card_size: poker
decks:
  - id: main
    name: Main cards
    cards: cards/cards.csv
    front: front
    required: [title]
    fields:
      title: {type: string}
      text: {type: string}
      cost: {type: integer, minimum: 0}
      fast: {type: boolean}
      tags: {type: array, items: {enum: [red, blue]}}
"""


def _csv_game(tmp_path, csv_text):
    return make_game(tmp_path, game_yaml=CSV_GAME, cards_yaml=None, back_layout_yaml=None,
                     files={"cards/cards.csv": csv_text})


def test_csv_cells_are_typed_by_the_deck_fields_and_imported_to_yaml(tmp_path):
    game = _csv_game(tmp_path, 'id,title,cost,fast,tags,quantity\n'
                               'a,"Alpha, the first","3",yes,"red, blue",2\n'
                               ',,,,,\n'
                               'b,Beta,0,no,,\n')
    assert cardforge("check", game, cwd=tmp_path).returncode == 0
    result = cardforge("import", "csv", game / "cards" / "cards.csv", "--deck", "main", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = yaml.safe_load((game / "cards" / "cards.yaml").read_text("utf-8"))
    assert data == {"cards": [
        {"id": "a", "quantity": 2, "title": "Alpha, the first", "cost": 3, "fast": True, "tags": ["red", "blue"]},
        {"id": "b", "title": "Beta", "cost": 0, "fast": False}]}
    again = cardforge("import", "csv", game / "cards" / "cards.csv", "--deck", "main", cwd=tmp_path)
    assert again.returncode == 2 and "exists" in again.stderr


def test_csv_errors_are_all_reported_with_their_cells(tmp_path):
    game = _csv_game(tmp_path, "id;title;cost\na;Alpha;three\nb;;-1\n")  # ';' as Excel writes in Europe
    result = cardforge("check", game, cwd=tmp_path)
    assert result.returncode == 1
    # every error at once: the cell that cannot be typed, then the schema's findings at their cells
    assert [line for line in result.stderr.splitlines() if "error[" in line] == [
        "content/tiny/cards/cards.csv:C2: error[E-SCHEMA]: 'three' is not a whole number (column 'cost')",
        "content/tiny/cards/cards.csv:A3: error[E-SCHEMA]: missing required key 'title'",
        "content/tiny/cards/cards.csv:C3: error[E-SCHEMA]: card 'b', field 'cost': -1 is less than the minimum of 0"]
    assert "  = help: fill in the column 'title' for this card (add the column if the sheet has none)" in result.stderr


def test_merged_cells_and_formulas_read_as_their_values(tmp_path):
    game = make_game(tmp_path, game_yaml=CSV_GAME.replace("cards.csv", "cards.xlsx"), cards_yaml=None,
                     back_layout_yaml=None)
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Main cards"
    ws.append(["id", "title", "cost"])
    ws.append(["a", "Shared title", 1])
    ws.append(["b", None, 2])
    ws.merge_cells("B2:B3")
    ws.append(["c", "Computed", "=C2+C3"])
    (game / "cards").mkdir(exist_ok=True)
    book.save(game / "cards" / "cards.xlsx")
    # openpyxl saves no value for a formula: the check says so, at the cell
    result = cardforge("check", game, cwd=tmp_path)
    assert "content/tiny/cards/cards.xlsx:'Main cards'!C4: error[E-SHEET]: the formula in this cell has no saved value" in result.stderr
    # a spreadsheet program saves the formula's value with it: put one there as it would
    _save_cached_value(game / "cards" / "cards.xlsx", "C4", 3)
    result = cardforge("import", "xlsx", game / "cards" / "cards.xlsx", "--deck", "main", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    cards = yaml.safe_load((game / "cards" / "cards.yaml").read_text("utf-8"))["cards"]
    assert cards == [{"id": "a", "title": "Shared title", "cost": 1}, {"id": "b", "title": "Shared title", "cost": 2},
                     {"id": "c", "title": "Computed", "cost": 3}]


def _save_cached_value(path, ref, value):
    """Write `<v>value</v>` into a formula cell of an xlsx file, as Excel and LibreOffice do."""
    import re
    import zipfile
    with zipfile.ZipFile(path) as src:
        items = {name: src.read(name) for name in src.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    xml = items[sheet].decode("utf-8")
    xml, count = re.subn(rf'(<c r="{ref}"[^>]*>\s*<f>[^<]*</f>)\s*(<v\s*/>|<v></v>)?', rf"\1<v>{value}</v>", xml)
    assert count == 1, xml
    items[sheet] = xml.encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in items.items():
            out.writestr(name, data)


def test_a_workbook_with_several_sheets_needs_one_named(tmp_path):
    game = make_game(tmp_path, game_yaml=CSV_GAME.replace("cards.csv", "cards.xlsx"), cards_yaml=None,
                     back_layout_yaml=None)
    book = openpyxl.Workbook()
    book.active.title = "One"
    book.active.append(["id", "title"])
    book.active.append(["a", "A"])
    book.create_sheet("Two")
    (game / "cards").mkdir(exist_ok=True)
    book.save(game / "cards" / "cards.xlsx")
    result = cardforge("check", game, cwd=tmp_path)
    assert result.returncode == 1 and "has sheets One, Two; which one holds the cards?" in result.stderr
    (game / "game.yaml").write_text(CSV_GAME.replace("cards.csv", "cards.xlsx#One"), "utf-8")
    assert cardforge("check", game, cwd=tmp_path).returncode == 0
    (game / "game.yaml").write_text(CSV_GAME.replace("cards.csv", "cards.xlsx#Tow"), "utf-8")
    result = cardforge("check", game, cwd=tmp_path)
    assert "has no sheet 'Tow', did you mean 'Two'?" in result.stderr


def test_a_damaged_workbook_is_a_diagnostic_not_a_traceback(tmp_path):
    game = make_game(tmp_path, game_yaml=CSV_GAME.replace("cards.csv", "cards.xlsx"), cards_yaml=None,
                     back_layout_yaml=None, files={"cards/cards.xlsx": b"PK\x03\x04 not really a zip"})
    result = cardforge("check", game, cwd=tmp_path)
    assert result.returncode == 1
    assert "content/tiny/cards/cards.xlsx:1:1: error[E-SHEET]: not a readable .xlsx workbook" in result.stderr
    assert "Traceback" not in result.stderr
