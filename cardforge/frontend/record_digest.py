"""One fingerprint of a record's source data, shared by errata (the version mark's {hash}) and
by translations (a translation made from an older source text is stale).

It is taken over the record's fields as its file gives them (after mapping), in a canonical JSON
form, so reordering keys or reformatting YAML does not change it and any change of a value does.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

DIGEST_CHARS = 7  # as git's short hashes: enough to tell printings of one card apart


def record_digest(fields: Any, chars: int = DIGEST_CHARS) -> str:
    canonical = json.dumps(fields, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()[:chars]


def card_digest(card) -> str:
    """A card's or token's digest: its source entry, or (for a view deck's card) its record's."""
    record = card.source if getattr(card, "source", None) is not None else card
    try:
        fields = record.entry
    except (KeyError, IndexError, TypeError, ValueError):  # not written as a list entry (a sheet row)
        fields = dict(record.data)
    return record_digest({"fields": fields, "quantity": getattr(card, "quantity", 1)})
