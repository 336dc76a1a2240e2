"""The manifest of a PDF: what was drawn where, streamed to disk once it grows large.

A build of 10,000 cards records some 40 MB of frames; held as Python objects that is several
hundred MB.  So past HELD_RECORDS face records, each is written to a spool file (one JSON line)
the moment it is drawn and only the page list, which is small, stays in memory.  The verifier
reads the records back page by page, and the final `<pdf>.manifest.json` files (the kit's, and
one per component with its pages renumbered) are streamed out of the spool.  Below that, the
records stay as they were drawn: a deck of a few hundred cards is not encoded to JSON and read
back for the verifier (a tenth of its build), only encoded once, into the files.
"""
from __future__ import annotations

import heapq
import json
import os
import tempfile
from pathlib import Path
from typing import IO, Iterator

import orjson

from .. import __version__
from .ink import summary

SECTIONS = ("cards", "tokens", "boards", "references", "templates")
_JSON = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode


def _dumps(value) -> str:
    """Compact JSON, keys sorted: by orjson, which writes a deck's records seven times as fast as
    json and the same text (tests/test_manifest_spool.py); by json where orjson refuses a value
    (a lone surrogate in a text, an integer of more than 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return _JSON(value)


HELD_RECORDS = 3000  # face records kept as objects (a few MB) before they all go to the spool


class Manifest:
    """Header, page list and spooled face records of one drawn PDF (one spool file per section)."""

    def __init__(self, header: dict, spool_dir: Path):
        self.header = {"cardforge": __version__, **header}  # the version that drew it: `cardforge --version`
        self.pages: list[dict] = []
        self.faces = 0
        self._dir = Path(spool_dir)
        self._spools: dict[str, tuple[Path, IO[str]]] = {}
        # Records as drawn, per section, in page order, each with its JSON once encoded (a kit's
        # manifest and its component's both write it), until there are too many (then None).
        self._held: dict[str, list[list]] | None = {}

    def _spool(self, section: str) -> IO[str]:
        if section not in self._spools:
            fd, name = tempfile.mkstemp(prefix=f".manifest-{section}-", suffix=".tmp", dir=str(self._dir))
            self._spools[section] = (Path(name), os.fdopen(fd, "w", encoding="utf-8"))
        return self._spools[section][1]

    def add(self, section: str, record: dict) -> None:
        """Hold one face record (the writer makes a new one per face and never changes it), or spool
        it: `page<TAB>record without its page`, so that pages renumber cheaply."""
        self.faces += 1
        if self._held is not None:
            if self.faces <= HELD_RECORDS:
                self._held.setdefault(section, []).append([record, None])
                return
            held, self._held = self._held, None
            for held_section, entries in held.items():
                for old, data in entries:
                    self._spool(held_section).write(f"{old['page']}\t{data or _encoded(old)}\n")
        self._spool(section).write(f"{record['page']}\t{_encoded(record)}\n")

    def _lines(self, section: str, first: int = 1, last: int | None = None) -> Iterator[tuple[int, str]]:
        """(page, record JSON without its page) of the section's records, of pages first..last
        (a spool is read whole: the caller skips the other pages)."""
        if self._held is not None:
            for entry in self._held.get(section, ()):
                page = entry[0]["page"]
                if page >= first and (last is None or page <= last):
                    if entry[1] is None:
                        entry[1] = _encoded(entry[0])
                    yield page, entry[1]
            return
        if section not in self._spools:
            return
        path, handle = self._spools[section]
        handle.flush()
        with open(path, encoding="utf-8") as spool:
            for line in spool:
                page, _, data = line.partition("\t")
                yield int(page), data.rstrip("\n")

    def _tagged(self, section: str) -> Iterator[tuple[int, str, str]]:
        # A function, not a generator expression in a comprehension: each stream keeps its own
        # section (a comprehension's genexps would all see the last one).
        for page, data in self._lines(section):
            yield page, section, data

    def records(self) -> Iterator[tuple[str, dict]]:
        """(section, record) in page order."""
        if self._held is not None:
            held = [[(entry[0]["page"], section, entry[0]) for entry in self._held.get(section, ())]
                    for section in SECTIONS]
            for _, section, record in heapq.merge(*held, key=lambda item: item[0]):
                yield section, dict(record)  # the reader's own, as one read from the spool is
            return
        streams = [self._tagged(section) for section in SECTIONS]
        for page, section, data in heapq.merge(*streams, key=lambda item: item[0]):
            record = orjson.loads(data)  # the values json.loads gives, a few times as fast
            record["page"] = page
            yield section, record

    def get(self, key: str, default=None):
        """Header keys, as a manifest read from disk would give them (for the verifier)."""
        if key == "pages":
            return self.pages
        return self.header.get(key, default)

    def write(self, path: Path, pages: "range | list[int] | None" = None, **header) -> None:
        """Write the manifest JSON for all pages, or for some of them (0-based, in order) renumbered
        from 1 (a component PDF cut from the kit)."""
        kept = list(pages) if pages is not None else list(range(len(self.pages)))
        number = {index + 1: new for new, index in enumerate(kept, start=1)}  # kit page -> its page here
        first, last = (min(number), max(number)) if number else (1, 0)
        top = dict(self.header, **header)
        if pages is not None:
            top.pop("contents", None)  # the kit's cover lists them; a component has no cover
        top["pages"] = [dict(self.pages[index], page=new) for new, index in enumerate(kept, start=1)]
        ink = summary(top["pages"])  # the mean ink coverage of these pages (ink.py)
        if ink is not None:
            top["ink"] = ink
        keys = sorted(set(top) | set(SECTIONS))
        with open(path, "w", encoding="utf-8") as out:
            out.write("{")
            for i, key in enumerate(keys):
                out.write(("," if i else "") + _dumps(key) + ":")
                if key in SECTIONS:
                    out.write("[")
                    count = 0
                    for page, data in self._lines(key, first, last):
                        if page in number:
                            body = data[1:] if data != "{}" else "}"
                            out.write(("," if count else "") + f'{{"page":{number[page]}' +
                                      ("," if body != "}" else "") + body)
                            count += 1
                    out.write("]")
                else:
                    out.write(_dumps(top[key]))
            out.write("}\n")

    def close(self) -> None:
        """Remove the spools (the manifest files written from them stay)."""
        for path, handle in self._spools.values():
            handle.close()
            path.unlink(missing_ok=True)
        self._spools.clear()
        if self._held is not None:
            self._held.clear()


def _encoded(record: dict) -> str:
    """A record as a spool line holds it: JSON, without its page."""
    return _dumps({key: value for key, value in record.items() if key != "page"})
