"""A deck's record filter: `exclude: "record.hidden"` leaves out the records a database marks as not
printable (ArkhamDB's hidden placeholders, a set's unreleased cards), before they become cards.

The condition is a sandboxed expression (layout/templates.py) over `record`, the record as
published (before rename and drop), and `card`, the card as the deck sees it: renamed, dropped
and with the fields its joins bring. A database that lists a set's cards in a file of their own
(FiveRingsDB's json/PackCard/core.json) is filtered through the join: `exclude: "card.quantity
is not defined"` leaves out every card that file does not list. A field the record lacks is
undefined: `record.hidden` is false for it, and so is `record.hidden is true`. A condition that fails (a syntax error, a
comparison with an absent field) is reported once, at the deck's `exclude`, naming the first card
it failed on; that record is kept, so that its other mistakes still show.
"""
from __future__ import annotations

from typing import Any

from ..diagnostics import Report
from .load import Document


class RecordFilter:
    def __init__(self, source: str, game_doc: Document, pointer: str):
        self.source, self.game_doc, self.pointer = source, game_doc, pointer
        self.expression: Any = None
        self.failed = False
        self.left_out = 0

    @classmethod
    def load(cls, source: str, game_doc: Document, pointer: str, report: Report) -> "RecordFilter | None":
        from ..layout.templates import Expression, TemplateFailure  # Jinja2: only for a deck with a filter
        result = cls(source, game_doc, pointer)
        try:
            result.expression = Expression(source)
        except TemplateFailure as exc:
            report.error("E-TEMPLATE", f"exclude: {exc.message}", game_doc.pos(pointer),
                         help="exclude is an expression over the published record (record) and the deck's card (card), such as "
                         "\"record.hidden\", \"record.pack_code == 'promo'\" or, through a join, "
                         "\"card.quantity is not defined\"")
            return None
        return result

    def excludes(self, record: dict, card: dict, label: str, report: Report) -> bool:
        """True when the record (`card` once mapped and joined) is left out."""
        from ..layout.templates import TemplateFailure
        try:
            value = self.expression.evaluate({"record": record, "card": card})
        except TemplateFailure as exc:
            if not self.failed:
                self.failed = True
                report.error(exc.code, f"exclude fails on {label}: {exc.message}", self.game_doc.pos(self.pointer),
                             help="a field some records lack is undefined: test it with 'is defined' "
                             "(record.cost is defined and record.cost > 3)")
            return False
        if value is not None and value is not False and value != "" and bool(value):
            self.left_out += 1
            return True
        return False
