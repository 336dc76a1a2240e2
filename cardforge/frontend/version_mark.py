"""The version mark: a few small letters inside a card's safe zone that tell printings apart.

A playtester holding an old and a reprinted card must see which is which.  game.yaml may set

    version_mark:
      show: errata            # always | errata (the default: only on errata reprints) | never
      text: "{version} {hash}"  # {version}, {date}, {hash} (the record's digest), {id}
      corner: bottom-right    # of the safe zone
      size: 6pt               # never below the game's min_type
      safe: 3mm               # the safe zone's inset from the trim

and `cardforge build --errata` draws it on every reprinted piece even when `show` is `errata`.
{hash} is the digest of the record's own source data (frontend/record_digest.py), the same
fingerprint that tells a translation made before its source changed.
"""
from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass

from ..diagnostics import Report
from ..units import length

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
KNOWN = ("version", "date", "hash", "id")
CORNERS = ("bottom-right", "bottom-left", "top-right", "top-left")
MAX_MARK_CHARS = 40  # after the placeholders are filled: a mark, not a caption


@dataclass
class VersionMark:
    show: str = "errata"
    text: str = "{version}"
    corner: str = "bottom-right"
    size: float = 6.0  # points
    safe: float = 3 * 72 / 25.4  # points

    def label(self, version: str, digest: str, piece_id: str) -> str:
        epoch = os.environ.get("SOURCE_DATE_EPOCH")  # reproducible builds pin the date
        when = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch and epoch.isdigit() \
            else datetime.datetime.now(datetime.timezone.utc)
        values = {"version": version, "date": when.date().isoformat(), "hash": digest, "id": piece_id}
        text = PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), self.text)
        return text[:MAX_MARK_CHARS]


def load_version_mark(data: dict, doc, min_type: float, report: Report) -> VersionMark:
    """game.yaml's `version_mark` (already checked against the game schema for its shape)."""
    raw = data.get("version_mark")
    mark = VersionMark(size=max(6.0, min_type))
    if not isinstance(raw, dict):
        return mark
    mark.show = raw.get("show", mark.show) if raw.get("show") in ("always", "errata", "never") else mark.show
    mark.corner = raw.get("corner", mark.corner) if raw.get("corner") in CORNERS else mark.corner
    text = raw.get("text")
    if isinstance(text, str):
        unknown = [name for name in PLACEHOLDER.findall(text) if name not in KNOWN]
        if unknown:
            report.error("E-VERSION-MARK", f"version_mark text names {{{unknown[0]}}}, which is not a placeholder",
                         doc.pos("/version_mark/text"), help="use " + ", ".join("{%s}" % k for k in KNOWN))
        else:
            mark.text = text
    for key in ("size", "safe"):
        if key in raw:
            try:
                setattr(mark, key, length(raw[key]))
            except (ValueError, TypeError):
                pass  # the schema reports a bad length at its place
    if mark.size < min_type:
        report.error("E-MIN-TYPE", f"version_mark size {mark.size:g}pt is below the game's min_type {min_type:g}pt",
                     doc.pos("/version_mark/size"), help="a mark must stay legible: raise its size")
        mark.size = min_type
    return mark
