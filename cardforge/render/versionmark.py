"""The version mark on a card's front: which version of the game a printed card is (frontend/version_mark.py)."""
from __future__ import annotations

from typing import Any, TYPE_CHECKING

from ..frontend.record_digest import card_digest
from ..frontend.version_mark import CORNERS
from ..layout.facecode import show
from ..units import mm

if TYPE_CHECKING:
    from ..frontend.model import Card
    from ..layout.layouts import Layout


class VersionMarks:
    """The version-mark half of CardRenderer (render/face.py), which gives it canvas, game, fonts,
    and _say.  Records' boxes are in points at the face's origin here (CardRenderer._placed)."""

    def _version_mark(self, card: Card, layout: Layout, x: float, y: float,
                      records: list[dict]) -> dict[str, Any] | None:
        """The version mark (frontend/version_mark.py) in a corner of the safe zone, in grey. Where the
        whole mark does not fit the safe zone's width, its digest alone is drawn; where that does not
        fit either (a small token), nothing is, and the deck gets one warning."""
        mark, c = self.game.version_mark, self.canvas
        digest = card_digest(card)
        font = self.fonts.family("sans").face("regular")
        room = layout.width - 2 * mark.safe
        text = mark.label(str(self.game.data.get("version", "")), digest, card.id)
        if c.stringWidth(text, font, mark.size) > room:
            text = digest
        width = c.stringWidth(text, font, mark.size)
        if width > room or layout.height - 2 * mark.safe < mark.size:
            self._say(("version-mark", card.deck.id), "warning", "W-VERSION-MARK", f"the version mark does not fit "
                      f"inside the safe zone of deck '{card.deck.id}' ({mm(layout.width):g} mm wide): its pieces carry "
                      "none", ("game", "/version_mark"), "set a smaller `safe` inset or size")
            return None
        box = self._mark_corner(mark, layout, x, y, width, records)
        c.setFillColorRGB(0.35, 0.35, 0.35)
        written = c.beginText()
        written.setFont(font, mark.size)
        written.setTextOrigin(box[0], box[1])
        show(written, text)  # a mark when the face is kept (layout/facecode.py)
        c.drawText(written)
        return {"name": "version-mark", "type": "text", "text": text, "lines": [text], "size": mark.size,
                "box": list(box)}

    @staticmethod
    def _mark_corner(mark, layout: Layout, x: float, y: float, width: float, records: list[dict]) -> tuple:
        """The mark's box: in its corner of the safe zone or, where printed text or an icon is there
        already, slid along the side towards the middle until it is free; failing that, the other
        corners the same way; failing all, in its own corner over the text."""
        taken = [r["box"] for r in records
                 if r.get("type") != "shape" and (r.get("text") or r.get("icons") or r.get("type") == "icon")]

        def free(b) -> bool:
            return not any(b[0] < t[0] + t[2] and t[0] < b[0] + b[2] and b[1] < t[1] + t[3] and t[1] < b[1] + b[3]
                           for t in taken)

        def boxes(corner: str):
            left = x + (layout.width - mark.safe - width if corner.endswith("right") else mark.safe)
            top = corner.startswith("top")
            step, reach = mark.size / 2, (layout.height - 2 * mark.safe - mark.size) / 2
            for k in range(int(reach // step) + 1):
                offset = k * step
                yield left, y + (layout.height - mark.safe - mark.size - offset if top else mark.safe + offset), \
                    width, mark.size

        order = [mark.corner] + [corner for corner in CORNERS if corner != mark.corner]
        return next((b for corner in order for b in boxes(corner) if free(b)), next(boxes(mark.corner)))
