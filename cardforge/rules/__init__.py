"""The rules engine: a game's rulebook as data, checked against every card.

Two kinds of checks run after the model is loaded (from `build.prepare`, so both
`cardforge check` and `cardforge build` see them):

* Built-in checks every game gets: valid quantities, every image, icon and inline
  symbol resolving inside the game folder, unused layouts and icons, and every file
  of the game folder either used or reported (never skipped silently).  Unique ids
  are checked by the model (E-DUPLICATE-ID).
* The game's own rules, from `<game>/rules.yaml` (schema: cardforge/schemas/rules.schema.json):
  groups of cards, derived fields, checks, deck recipes and compositions, references
  between cards, and a glossary of game terms.  Conditions are sandboxed Jinja2
  expressions (see expressions.py).  Each rule has an id, cites the rulebook section it
  encodes, and reports at the offending card's field in its card file.

A mistake in the rules file itself (unknown key, an expression that does not parse, a
field no card has, an unknown group or card) is reported at its line and column in
rules.yaml, before any rule runs.
"""
from .check import RULES_FILE, check_game, load_rules  # noqa: F401
