"""`cardforge new NAME`: a new game folder that builds and checks clean at once.

It holds game.yaml (one deck with a front and a back layout), five sample cards, a rules.yaml
with one check, its own layouts (so the game builds wherever it lies, without the shared
layouts library), and the JSON Schemas its files point their editor at (`$schema` lines).
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from .diagnostics import Report
from .frontend.model import load_game
from .frontend.schemafiles import write_schemas

SLUG = re.compile(r"[^a-z0-9]+")


class ScaffoldError(Exception):
    pass


def slug(name: str) -> str:
    return SLUG.sub("-", name.lower()).strip("-")


GAME = """\
# yaml-language-server: $schema=schemas/game.schema.json
# {name}: started with `cardforge new`. Build it with `cardforge build {folder}`,
# check it with `cardforge check {folder}`, and preview it with `cardforge serve {folder}`.
id: {id}
name: {name}
subtitle: A card game
designer: You
version: "0.1"
card_size: poker             # poker, bridge, tarot, euro, mini-euro, square, or {{width: 63mm, height: 88mm}}
bleed: 3mm

decks:
  - id: cards
    name: Cards
    cards: cards/cards.yaml    # a list of files, or a .csv / .xlsx spreadsheet, also works
    front: front               # layouts/front.yaml
    back: back                 # layouts/back.yaml
    required: [title, kind, cost, text]
    fields:                    # JSON Schema of each field; a typo in a card is then an error
      title: {{type: string}}
      kind: {{enum: [action, item, event]}}
      cost: {{type: integer, minimum: 0, maximum: 5}}
      text: {{type: string}}
"""

CARDS = """\
# yaml-language-server: $schema=../schemas/{id}.cards.cards.schema.json
# Five sample cards. Each field is declared under the deck's `fields` in game.yaml.
cards:
  - id: quick-step
    title: Quick Step
    kind: action
    cost: 1
    text: "Move up to **2** spaces. Then draw a card."

  - id: heavy-blow
    title: Heavy Blow
    kind: action
    cost: 3
    text: "Deal **3** damage to one opponent next to you."

  - id: lantern
    title: Lantern
    kind: item
    cost: 2
    quantity: 2
    text: "Keep this card. While you hold it, you may look at the top card of the deck."

  - id: healing-herbs
    title: Healing Herbs
    kind: item
    cost: 1
    text: "Discard this card to heal **2** damage."

  - id: storm
    title: Storm
    kind: event
    cost: 0
    text: "Every player discards a card. Events are played as soon as they are drawn."
"""

RULES = """\
# yaml-language-server: $schema=schemas/rules.schema.json
# The rulebook as data: `cardforge check` runs every check against every card.
rulebook: "{name} rules, draft 0.1"

groups:
  events: {{deck: cards, where: "card.kind == 'event'"}}

checks:
  - id: EVENTS-ARE-FREE
    section: "Events: 'Events are played as soon as they are drawn.'"
    group: events
    assert: "card.cost == 0"
    at: cost
    message: "event '{{{{ card.title }}}}' costs {{{{ card.cost }}}}; events are played when drawn, so they cost nothing"
    help: "set its cost to 0, or make it an action or an item"
"""

FRONT = """\
# yaml-language-server: $schema=../schemas/layout.schema.json
# The card front. Frames are measured from the top-left corner of the trim box (63 x 88 mm).
colors:
  ink: "#1b1b1b"
  paper: "#f6f1e3"
  muted: "#6b6455"
  action: "#8b2a1e"
  item: "#2f5d3a"
  event: "#1f3a5f"
frames:
  background: {{type: shape, fill: "{{{{ card.kind }}}}", bleed: true}}
  panel: {{type: shape, shape: rounded, x: 3mm, y: 3mm, width: 57mm, height: 82mm, radius: 2.5mm, fill: paper}}
  cost-disc: {{type: shape, shape: ellipse, x: 5.5mm, y: 5.5mm, width: 10mm, height: 10mm, fill: "{{{{ card.kind }}}}"}}
  cost:
    {{type: text, x: 5.5mm, y: 5.5mm, width: 10mm, height: 10mm, text: "{{{{ card.cost }}}}", font: display,
     style: bold, size: 16pt, align: center, valign: middle, color: paper}}
  title:
    {{type: text, x: 17mm, y: 5.5mm, width: 40.5mm, height: 10mm, text: "{{{{ card.title }}}}", font: display,
     style: bold, size: 14pt, min_size: 9pt, valign: middle, uppercase: true}}
  kind:
    {{type: text, x: 5.5mm, y: 17.5mm, width: 52mm, height: 5mm, text: "{{{{ card.kind }}}}", style: bold, size: 8pt,
     align: center, valign: middle, uppercase: true, color: "{{{{ card.kind }}}}"}}
  rule: {{type: shape, shape: line, x: 8mm, y: 23.5mm, width: 47mm, height: 0mm, stroke: muted, stroke_width: 0.5pt}}
  text:
    {{type: text, x: 6mm, y: 27mm, width: 51mm, height: 48mm, text: "{{{{ card.text }}}}", size: 10pt, min_size: 7pt,
     valign: middle, align: center}}
  footer:
    {{type: text, x: 6mm, y: 78.5mm, width: 51mm, height: 4mm, text: "{{{{ game.name }}}} · {{{{ deck.name }}}}", size: 6pt,
     align: center, color: muted}}
"""

BACK = """\
# yaml-language-server: $schema=../schemas/layout.schema.json
# The card back: the same for every card, so nothing here depends on the card.
colors:
  ink: "#1b1b1b"
  paper: "#f6f1e3"
  navy: "#1f3a5f"
frames:
  background: {{type: shape, fill: navy, bleed: true}}
  border: {{type: shape, shape: rounded, x: 4mm, y: 4mm, width: 55mm, height: 80mm, radius: 2.5mm, stroke: paper, stroke_width: 1pt}}
  name:
    {{type: text, x: 6mm, y: 30mm, width: 51mm, height: 28mm, text: "{{{{ game.name }}}}", font: display, style: bold,
     size: 24pt, min_size: 12pt, align: center, valign: middle, color: paper}}
"""


# `diff` and `--errata` read the game's history from git: what a build writes is not part of it.
GITIGNORE = """\
# What cardforge builds: made again by `cardforge build`, never edited by hand.
build/
"""


def new_game(folder: Path, name: str | None = None) -> list[Path]:
    """Write a new game into `folder` (which must not exist, or be empty); the files written."""
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not empty; choose a new folder name")
    game_id = slug(folder.resolve().name)
    if not game_id:
        raise ScaffoldError(f"'{folder.name}' has no letters or digits to make a game id from")
    name = name or folder.resolve().name.replace("-", " ").replace("_", " ").strip().title()
    if '"' in name or "\n" in name or "\\" in name:
        raise ScaffoldError("the game's name may not contain quotes, backslashes or line breaks")
    quoted = f'"{name}"'
    values = {"id": game_id, "name": quoted, "folder": shlex.quote(folder.as_posix())}  # as a shell takes it
    files = {
        "game.yaml": GAME.format(**values),
        "cards/cards.yaml": CARDS.format(**values),
        "rules.yaml": RULES.format(id=game_id, name=name.replace('"', "")),
        "layouts/front.yaml": FRONT.format(),
        "layouts/back.yaml": BACK.format(),
        ".gitignore": GITIGNORE,
    }
    written = []
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
        written.append(path)
    return written + write_schemas(folder / "schemas", load_game(folder, Report()))
