"""The rules stage's entry point: the game's rules.yaml and the checks every game gets."""
from __future__ import annotations

from ..diagnostics import Report
from ..frontend.load import load_yaml
from ..diagnostics import Position
from ..frontend.model import Game, safe_path
from ..frontend.schema import builtin_schema, validate
from ..limits import expression_batch
from .builtin import AssetUse, check_assets, check_capacity, check_changed, check_files, check_quantities, check_unused_icons, check_unused_layouts, icons_named_in_layouts
from .builtin import RULES_FILE
from .run import RuleSet
from .scopes import check_hidden_backs
from ..layout.misregistration import check_duplex_edges


def check_game(game: Game, report: Report, *, layouts=None, icons=None, faces=None, boards=None,
               fonts=None) -> None:
    """All checks beyond the schemas. Problems go to `report`; derived fields are added to the cards."""
    complete = _complete(game)
    # With a deck of game.yaml left out (game.yaml has errors), the rules file would be checked
    # against the wrong decks: then it is only validated, and its rules wait for a clean game.yaml.
    rules = load_rules(game, report, compile=_decks_defined(game))
    if rules is not None:
        with expression_batch():  # one interval timer for the thousands of expressions (limits.py)
            rules.derive(report)
    used = AssetUse()
    if icons is not None and faces is not None:
        with expression_batch():  # it renders every face's templates: each arms no timer of its own
            used = check_assets(game, report, icons, fonts, faces, boards or {})
    check_quantities(game, report)
    check_changed(game, report)
    if faces is not None:
        check_capacity(game, report, faces, boards or {})
        check_duplex_edges(game, report, faces)
    # Unused layouts, icons and files: only for a game that loaded cleanly, where "unused" means it.
    if complete and not report.has_errors():
        if layouts is not None:
            check_unused_layouts(game, report, layouts)
        if icons is not None:
            if layouts is not None:
                used.icons |= icons_named_in_layouts(layouts)
            if getattr(game, "overlay", None) is not None:  # a language's run: the source kit's icons are used
                used.icons |= game.overlay.source_icons
            check_unused_icons(game, report, used)
        check_files(game, report, used)
    # A game's own rules check its source text (rulebook quotes, glossary terms in English): a
    # translation is checked by the built-in checks, the fit and the glyphs; `check --lang all` runs both.
    if rules is not None and getattr(game, "lang", None) is None:
        with expression_batch():
            rules.run(report, complete)
        if complete and faces is not None:
            check_hidden_backs(game, rules.doc, rules.data.get("hidden_backs") or [], faces, report)


def _decks_defined(game: Game) -> bool:
    data = game.data if isinstance(game.data, dict) else {}
    lists = [data.get(key) for key in ("decks", "tokens")]
    declared = [d for entries in lists if isinstance(entries, list) for d in entries]
    if any(entries is not None and not isinstance(entries, list) for entries in lists):
        return False  # `decks: 20`: the schema's error says so, and no deck is complete
    return len(declared) == len(game.decks)


def _complete(game: Game) -> bool:
    """False when a card file (or game.yaml) failed to load, or a card has schema errors: rules over
    groups of cards would only repeat that error, or report cards as missing that are merely
    unreadable."""
    return game.complete and _decks_defined(game)


def load_rules(game: Game, report: Report, compile: bool = True) -> RuleSet | None:
    """The game's rules.yaml, validated and compiled; None when it is missing or unusable."""
    path = game.root / RULES_FILE
    if not path.is_file():
        return None
    if safe_path(game.root, RULES_FILE) is None:  # never quote a file from outside in a diagnostic
        report.error("E-PATH", f"{RULES_FILE} is a symbolic link to a file outside the game folder",
                     Position(path, 1, 1, quote=False), help=f"copy the rules into the game folder as {RULES_FILE}")
        return None
    doc = load_yaml(path, report)
    if doc is None:
        return None
    if not validate(doc, builtin_schema("rules"), report) or not compile:
        return None
    rules = RuleSet(game, doc, report)
    return rules if rules.ok else None
