"""`cardforge export tts`: each deck of cards as a Tabletop Simulator custom deck.

Per deck, Tabletop Simulator wants:
- face sheets: a grid of at most 10 x 7 card pictures, no larger than 4096 x 4096 px, whose last
  slot is the "hidden" picture shown for a card in another player's hand;
- a back: one picture for the whole deck, or, when the cards' backs differ (Bomber Boys' missions
  carry their target on the back), back sheets with the same grid (`UniqueBack`);
- a saved object: JSON placing a `DeckCustom` whose `DeckIDs` list every copy.  A card's id is
  its sheet's `CustomDeck` key times 100 plus its slot.

Written into <out>/:
    <deck>/faces-<n>.png, <deck>/back.png or <deck>/backs-<n>.png
    <game>-<deck>.json (+ .png thumbnail)   one saved object per deck
    <game>.json (+ .png)                    every deck of the game, side by side

Copy the JSON files (and their thumbnails) into Tabletop Simulator's Saved Objects folder.  The
pictures are referred to by file:// URLs unless `url_base` says where they will be uploaded.
One picture is drawn per card (its first copy); the copies share it, as in a printed deck.
"""
from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from ..diagnostics import ContentError, Report
from ..output.raster import Face, face_images
from ..prepare import Prepared
from .staging import Staging

MAX_COLS, MAX_ROWS, MAX_PIXELS = 10, 7, 4096
MIN_GRID = 2  # Tabletop Simulator's deck importer takes 2 to 10 columns and 2 to 7 rows
MM_PER_INCH = 25.4
POKER_WIDTH_MM = 63.5  # a card object at scale 1
HIDDEN_GREY = (96, 96, 96)


@dataclass
class Sheet:
    key: int  # CustomDeck key
    cards: list  # the cards in slots 0..n-1; slot cols*rows-1 is the hidden picture
    cols: int
    rows: int
    dpi: int = 0
    face_file: str = ""
    back_file: str = ""  # a back sheet (unique backs) or the deck's shared back picture
    size: tuple[int, int] = (0, 0)  # pixels of the face sheet


@dataclass
class DeckExport:
    deck: object
    sheets: list[Sheet] = field(default_factory=list)
    unique_back: bool = False
    deck_ids: list[int] = field(default_factory=list)  # one per copy, in card order


def grid(count: int, width_pt: float, height_pt: float, wanted: float) -> tuple[int, int]:
    """Columns and rows for `count` cards plus the hidden slot, at most 10 x 7: the grid whose
    sheet keeps the cards sharpest within 4096 px (wide cards get fewer columns), then the one
    with the fewest empty slots."""
    slots = count + 1
    if slots > MAX_COLS * MAX_ROWS:
        raise ValueError(f"{count} cards do not fit one sheet")
    options = [(cols, rows) for cols in range(MIN_GRID, MAX_COLS + 1) for rows in range(MIN_GRID, MAX_ROWS + 1)
               if cols * rows >= slots]
    return max(options, key=lambda g: (sheet_dpi(width_pt, height_pt, g[0], g[1], wanted), -g[0] * g[1], -g[1]))


def sheet_dpi(width_pt: float, height_pt: float, cols: int, rows: int, wanted: float) -> int:
    """The largest whole dpi up to `wanted` whose sheet stays within 4096 x 4096 px."""
    dpi = int(wanted)
    while dpi > 1 and (cols * round(width_pt * dpi / 72) > MAX_PIXELS or rows * round(height_pt * dpi / 72) > MAX_PIXELS):
        dpi -= 1
    return dpi


def plan(prep: Prepared, decks: list[str] | None = None, first_key: int = 1, dpi: float = 300) -> list[DeckExport]:
    """Sheets and card ids for every deck of cards (tokens are not cards in Tabletop Simulator)."""
    exports, key = [], first_key
    per_sheet = MAX_COLS * MAX_ROWS - 1
    for deck in prep.game.component("cards"):
        if (decks and deck.id not in decks) or not deck.cards:
            continue
        export = DeckExport(deck)
        for start in range(0, len(deck.cards), per_sheet):
            cards = deck.cards[start:start + per_sheet]
            cols, rows = grid(len(cards), deck.width, deck.height, dpi)
            export.sheets.append(Sheet(key, cards, cols, rows))
            for slot, card in enumerate(cards):
                export.deck_ids += [key * 100 + slot] * card.quantity
            key += 1
        exports.append(export)
    return exports


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _compose(pictures: list[Image.Image], cols: int, rows: int, cell: tuple[int, int], hidden: Image.Image) -> Image.Image:
    sheet = Image.new("RGB", (cols * cell[0], rows * cell[1]), "white")
    for slot, picture in enumerate(pictures):
        sheet.paste(picture.resize(cell) if picture.size != cell else picture,
                    ((slot % cols) * cell[0], (slot // cols) * cell[1]))
    last = cols * rows - 1
    sheet.paste(hidden.resize(cell) if hidden.size != cell else hidden, ((last % cols) * cell[0], (last // cols) * cell[1]))
    return sheet


def _backs(prep: Prepared, cards: list, report: Report, dpi: int, cell: tuple[int, int]) -> list[Image.Image]:
    """Each card's back at `dpi`; a card without a back gets a plain white one."""
    with_back = [card for card in cards if prep.faces.get((card.id, "back")) is not None]
    drawn = dict(zip((c.id for c in with_back),
                     face_images(prep, [Face(c, "back") for c in with_back], report, dpi=dpi, bleed=False)))
    return [_open(drawn[c.id]) if c.id in drawn else Image.new("RGB", cell, "white") for c in cards]


def export_tts(prep: Prepared, out_dir: Path, report: Report, dpi: float = 300, url_base: str | None = None,
               decks: list[str] | None = None) -> tuple[list[Path], list[DeckExport]]:
    """Write sheets, backs and saved objects into `out_dir` (replaced as a whole on success)."""
    exports = plan(prep, decks, dpi=dpi)
    out_dir = Path(out_dir)
    written: list[str] = []

    def url(name: str) -> str:
        return f"{url_base.rstrip('/')}/{name}" if url_base else (out_dir.resolve() / name).as_uri()

    with Staging(out_dir) as tmp:
        states = []
        for index, export in enumerate(exports):
            deck = export.deck
            (tmp / deck.id).mkdir()
            backs_by_sheet = []
            # One resolution for the deck (that of its largest grid): every card the same size in the game
            deck_dpi = min(sheet_dpi(deck.width, deck.height, s.cols, s.rows, dpi) for s in export.sheets)
            for sheet in export.sheets:
                sheet.dpi = deck_dpi
                faces = [_open(p) for p in face_images(prep, [Face(c, "front") for c in sheet.cards], report,
                                                         dpi=sheet.dpi, bleed=False)]
                cell = faces[0].size
                backs_by_sheet.append((sheet, faces, cell, _backs(prep, sheet.cards, report, sheet.dpi, cell)))
            all_backs = [_png(b) for _, _, _, backs in backs_by_sheet for b in backs]
            export.unique_back = len(set(all_backs)) > 1
            shared_back = backs_by_sheet[0][3][0]
            if not export.unique_back:
                (tmp / deck.id / "back.png").write_bytes(_png(shared_back))
                written.append(f"{deck.id}/back.png")
            hidden = Image.new("RGB", backs_by_sheet[0][2], HIDDEN_GREY) if export.unique_back else shared_back
            for number, (sheet, faces, cell, backs) in enumerate(backs_by_sheet, 1):
                image = _compose(faces, sheet.cols, sheet.rows, cell, hidden)
                sheet.size = image.size
                sheet.face_file = f"{deck.id}/faces-{number}.png"
                image.save(tmp / sheet.face_file, format="PNG")
                written.append(sheet.face_file)
                if export.unique_back:
                    sheet.back_file = f"{deck.id}/backs-{number}.png"
                    _compose(backs, sheet.cols, sheet.rows, cell, hidden).save(tmp / sheet.back_file, format="PNG")
                    written.append(sheet.back_file)
                else:
                    sheet.back_file = f"{deck.id}/back.png"
            state = deck_state(export, url, position=(index * 3.0, 1.0, 0.0))
            states.append(state)
            name = f"{prep.game.id}-{deck.id}"
            _saved_object(tmp / f"{name}.json", deck.name, [dict(state, Transform=_transform(deck, (0.0, 1.0, 0.0)))])
            thumbnail = backs_by_sheet[0][1][0].copy()
            thumbnail.thumbnail((256, 256))
            thumbnail.save(tmp / f"{name}.png", format="PNG")  # the picture TTS shows in Saved Objects
            written += [f"{name}.json", f"{name}.png"]
        if exports:
            _saved_object(tmp / f"{prep.game.id}.json", prep.game.name, states)
            (tmp / f"{prep.game.id}.png").write_bytes((tmp / f"{prep.game.id}-{exports[0].deck.id}.png").read_bytes())
            written += [f"{prep.game.id}.json", f"{prep.game.id}.png"]
        if report.has_errors():
            raise ContentError(report)
    return [out_dir / name for name in written], exports


def _transform(deck, position: tuple[float, float, float]) -> dict:
    # a card object at scale 1 is a poker card; a sideways card turns, so its short side counts
    scale = round(min(deck.width, deck.height) * MM_PER_INCH / 72 / POKER_WIDTH_MM, 4)
    x, y, z = position
    return {"posX": x, "posY": y, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,  # face down
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _custom_deck(sheet: Sheet, unique_back: bool, url) -> dict:
    return {"FaceURL": url(sheet.face_file), "BackURL": url(sheet.back_file), "NumWidth": sheet.cols,
            "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}


def _nickname(card) -> str:
    for key in ("title", "name"):
        if isinstance(card.data.get(key), str) and card.data[key]:
            return card.data[key]
    return card.id


def deck_state(export: DeckExport, url, position: tuple[float, float, float]) -> dict:
    """The saved-object state of one deck: a DeckCustom with a Card per copy (or a lone Card)."""
    deck = export.deck
    sideways = deck.width > deck.height
    cards = []
    for sheet in export.sheets:
        custom = {str(sheet.key): _custom_deck(sheet, export.unique_back, url)}
        for slot, card in enumerate(sheet.cards):
            for _ in range(card.quantity):
                cards.append({"Name": "Card", "Transform": _transform(deck, position), "Nickname": _nickname(card),
                              "Description": deck.name, "GMNotes": card.id, "CardID": sheet.key * 100 + slot,
                              "SidewaysCard": sideways, "HideWhenFaceDown": True, "Hands": True,
                              "CustomDeck": custom})
    if len(cards) == 1:
        return cards[0]
    return {"Name": "DeckCustom", "Transform": _transform(deck, position), "Nickname": deck.name,
            "Description": f"{len(cards)} cards", "GMNotes": deck.id, "SidewaysCard": sideways,
            "HideWhenFaceDown": True, "Hands": False, "DeckIDs": export.deck_ids,
            "CustomDeck": {str(s.key): _custom_deck(s, export.unique_back, url) for s in export.sheets},
            "ContainedObjects": cards}


def _saved_object(path: Path, name: str, states: list[dict]) -> None:
    document = {"SaveName": name, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "", "Table": "",
                "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
                "ObjectStates": states, "TabStates": {}, "VersionNumber": ""}
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")
