"""`build --only ID`: a subset of a game to look at, a deck (or token sheet) or a single card.

The game keeps only that deck (with only that card); boards, reference sheets and true-scale
templates are left out unless the id names one of them."""
from __future__ import annotations

import difflib

from .model import Game


def choices(game: Game) -> list[str]:
    """Every id --only accepts: decks, boards and reference sheets, templates, then cards."""
    return list(dict.fromkeys([d.id for d in game.decks] + [b.id for b in game.boards]
                              + [t.id for t in game.templates] + [c.id for c in game.cards()]))


def unknown(game: Game, wanted: str, where: str) -> str | None:
    """Why `wanted` cannot be built alone (with did-you-mean), or None when it can."""
    known = choices(game)
    if wanted in known:
        return None
    guess = difflib.get_close_matches(wanted, known, n=1, cutoff=0.6)
    return (f"--only {wanted}: no deck, card, board or template of that id in {where}"
            + (f"; did you mean '{guess[0]}'?" if guess else f"; its decks are {', '.join(d.id for d in game.decks)}"))


def narrow(game: Game, wanted: str) -> None:
    """Keep only the deck, card, board or template `wanted` (known to exist) in `game`."""
    decks = [d for d in game.decks if d.id == wanted]
    if not decks:
        for deck in game.decks:
            cards = [c for c in deck.cards if c.id == wanted]
            if cards:
                deck.cards = cards
                decks = [deck]
                break
    game.decks = decks
    game.boards = [b for b in game.boards if b.id == wanted]
    game.templates = [t for t in game.templates if t.id == wanted]
