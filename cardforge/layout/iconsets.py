"""Icon sets shipped with cardforge, used by name: game-icons.net's 4,000 icons (CC BY 3.0).

A game names the library icons it uses in game.yaml, under the name its cards and layouts use:

    icons:
      plane: game-icons:airplane      # :plane: in a text, `icon: plane` in a layout
    icons: [game-icons:falling-bomb]  # or a list: each by its own name, :falling-bomb:

Each is then an icon like an SVG file of the game's icons/ folder, drawn the same way
(layout/icons.py), and the kit's credits name its author and licence (`credit_lines`).  The set is
an archive of package data (cardforge/iconsets/game-icons.zip, resources.py's `iconsets`), one
SVG file per icon, read when it is drawn, and its index (game-icons.json: names, aliases, authors),
read once per process.  `cardforge icons search` finds icons by name (cli/icons.py).
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import lru_cache

from .. import resources
from ..diagnostics import Report

SETS = {"game-icons": "game-icons.zip"}  # prefix -> archive in resources.py's `iconsets`
DEFAULT_SET = "game-icons"
ICON_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # a name a card's text can write as :name:
LICENSE_URLS = {"CC-BY-3.0": "creativecommons.org/licenses/by/3.0", "CC0-1.0": "creativecommons.org/publicdomain/zero/1.0"}
LICENSE_TITLES = {"CC-BY-3.0": "CC BY 3.0", "CC0-1.0": "CC0"}


@dataclass(frozen=True)
class LibraryIcon:
    """One icon of a set, as a game uses it."""
    prefix: str  # the set: game-icons
    icon: str  # its name in the set: airplane
    author: str | None  # who drew it (license.txt's spelling), None where the set does not say
    license: str  # SPDX: CC-BY-3.0

    @property
    def ref(self) -> str:
        return f"{self.prefix}:{self.icon}"

    def svg(self) -> str:
        return icon_set(self.prefix).svg(self.icon)


class IconSet:
    """An archive of icons (SETS) and its index beside it (the same name, .json): the index in
    memory, each icon's SVG read from the archive where the index says it lies, when it is asked."""

    def __init__(self, prefix: str, archive: str):
        self.prefix, self._archive = prefix, archive
        index = json.loads(resources.read_bytes("iconsets", archive.rsplit(".", 1)[0] + ".json"))
        self.title: str = index["name"]
        self.site: str = index["site"]
        self.license: dict = index["license"]
        self.authors: dict[str, dict] = index["authors"]
        self.icons: dict[str, str | None] = index["icons"]  # name -> author's folder name
        self.aliases: dict[str, str] = index["aliases"]  # an old name -> the icon's name now
        self.hidden: set[str] = set(index["hidden"])  # kept for old games, left out of searches
        self._members: dict[str, list[int]] = index["members"]  # name -> [offset in the archive, bytes]
        self._words: dict[str, int] | None = None
        self._svgs: dict[str, str] = {}  # icons read so far

    def _member(self, name: str) -> str:
        """One icon's SVG, read at its place in the archive: a zip file's local header, then its
        deflated bytes.  Python's zipfile would first read the whole directory of 4,000 entries
        (50 ms, at every `check` of a game that names library icons)."""
        import zlib
        offset, size = self._members[name]
        with resources.resource("iconsets", self._archive).open("rb") as archive:
            archive.seek(offset)
            header = archive.read(30)
            if len(header) < 30 or header[:4] != b"PK\x03\x04":
                raise ValueError(f"{self._archive}: no icon '{name}' at {offset}; vendor the set again")
            method = int.from_bytes(header[8:10], "little")
            skip = int.from_bytes(header[26:28], "little") + int.from_bytes(header[28:30], "little")
            archive.seek(offset + 30 + skip)
            data = archive.read(size)
        return (zlib.decompress(data, -15) if method == 8 else data).decode("utf-8")

    def license_text(self) -> str:
        import io
        import zipfile
        with zipfile.ZipFile(io.BytesIO(resources.read_bytes("iconsets", self._archive))) as archive:
            return archive.read("LICENSE.txt").decode("utf-8")

    def resolve(self, name: str) -> str | None:
        """The icon's name in the set (an alias followed), or None when the set has no such icon."""
        name = self.aliases.get(name, name)
        return name if name in self.icons else None

    def svg(self, name: str) -> str:
        name = self.resolve(name) or name
        if name not in self._svgs:
            self._svgs[name] = self._member(name)
        return self._svgs[name]

    def icon(self, name: str) -> LibraryIcon | None:
        found = self.resolve(name)
        if found is None:
            return None
        folder = self.icons[found]
        author = self.authors.get(folder) if folder else None
        return LibraryIcon(self.prefix, found, author["name"] if author else None,
                           author["license"] if author else self.license["spdx"])

    def suggest(self, name: str, n: int = 1) -> list[str]:
        """Names near a mistyped one: spelled alike, else those with its words."""
        names = [k for k in self.icons if k not in self.hidden]
        close = difflib.get_close_matches(name, names, n=n, cutoff=0.85)  # a letter or two amiss
        if not close:  # each word mended on its own (deth-skul: death-skull), or the words as they are
            close = [hit.name for hit in self.search(self.corrected(name) or name.replace("-", " "), limit=n)]
        return close or difflib.get_close_matches(name, names, n=n, cutoff=0.6)

    def corrected(self, words: str) -> str | None:
        """The words with each mistyped one replaced by the nearest word of the icons' names
        (`plaen bomb` -> `plane bomb`), or None when nothing needed or could be corrected."""
        vocabulary = self._vocabulary()
        out, changed = [], False
        for word in re.split(r"[\s_-]+", words.lower().strip()):
            if not word or word in vocabulary:
                out.append(word)
                continue
            near = difflib.get_close_matches(word, list(vocabulary), n=8, cutoff=0.75)
            if not near:
                return None
            # the same letters swapped (plaen: plane, not plate), then the closest, then the commonest
            out.append(max(near, key=lambda w: (sorted(w) == sorted(word),
                                                difflib.SequenceMatcher(None, word, w).ratio(), vocabulary[w])))
            changed = True
        return " ".join(w for w in out if w) if changed else None

    def _vocabulary(self) -> dict[str, int]:
        """Each word of the icons' names, and how many names have it."""
        if self._words is None:
            self._words = {}
            for name in self.icons:
                for part in name.split("-"):
                    self._words[part] = self._words.get(part, 0) + 1
        return self._words

    def search(self, words: str, limit: int | None = 20, author: str | None = None) -> list[Hit]:
        """Icons whose name (or an old name) holds every word, best first: the name itself, then a
        whole word of the name, the end of one (a compound), the start of one, any part, and
        shorter names first (`plane`: paper-plane and plane-pilot, then airplane and biplane,
        then planet).  A final s is optional: `bombs` finds falling-bomb."""
        query = [w for w in re.split(r"[\s_-]+", words.lower().strip()) if w]
        if not query:
            return []
        folders = None
        if author is not None:
            wanted = author.lower().replace(" ", "").replace("-", "")
            folders = {f for f, a in self.authors.items()
                       if wanted in (f.replace("-", ""), a["name"].lower().replace(" ", ""))}
        hits: dict[str, Hit] = {}
        for name, folder in self.icons.items():
            if name in self.hidden or (folders is not None and folder not in folders):
                continue
            score = _score(query, name)
            if score is not None:
                hits[name] = Hit(name, score, None)
        for alias, name in self.aliases.items():
            score = _score(query, alias)
            if score is not None and name in self.icons and (folders is None or self.icons[name] in folders) \
                    and (name not in hits or hits[name].score > score):
                hits[name] = Hit(name, score, alias)
        ranked = sorted(hits.values(), key=lambda h: (h.score, len(h.name.split("-")), h.name))
        return ranked if limit is None else ranked[:limit]

    def author_of(self, name: str) -> str | None:
        found = self.icon(name)
        return found.author if found else None


@dataclass(frozen=True)
class Hit:
    name: str
    score: tuple  # smaller is better
    alias: str | None  # the old name that matched, when the name itself did not


def _score(query: list[str], name: str) -> tuple | None:
    """How well a name matches every query word (None: it misses one); smaller is better."""
    parts = name.split("-")
    ranks = []
    for word in query:
        forms = {word, word[:-1]} if len(word) > 3 and word.endswith("s") else {word}
        if any(f in parts for f in forms):
            ranks.append(0)
        elif any(p.endswith(f) for p in parts for f in forms):  # a word made of two: air-plane, broad-sword
            ranks.append(1)
        elif any(p.startswith(f) for p in parts for f in forms):
            ranks.append(2)
        elif any(f in name for f in forms):
            ranks.append(3)
        else:
            return None
    exact = 0 if name == "-".join(query) else 1
    return (exact, max(ranks), sum(ranks))


def icon_set(prefix: str = DEFAULT_SET) -> IconSet:
    """The set, opened once per process."""
    return _opened(prefix)


@lru_cache(maxsize=None)
def _opened(prefix: str) -> IconSet:
    return IconSet(prefix, SETS[prefix])


def parse_ref(ref: str) -> tuple[str | None, str]:
    """'game-icons:airplane' -> ('game-icons', 'airplane'); a name without a set: (None, name)."""
    prefix, sep, name = ref.strip().partition(":")
    return (prefix, name) if sep else (None, prefix)


def declared_icons(game, report: Report) -> dict[str, LibraryIcon | None]:
    """The game.yaml `icons:` of a game, checked: its name -> the library icon.  An unknown set or
    icon is an error at its line, with the nearest names, and its name maps to None: a stand-in
    (layout/icons.py), so that the texts using it are not reported again."""
    declared = game.data.get("icons") if isinstance(game.data, dict) else None
    raw = getattr(game.doc, "data", None)
    if declared is None and isinstance(raw, dict):  # left out as invalid (`plane: 5`): the schema said
        declared = raw.get("icons")  # so, and its other entries still name their icons
    if not declared:
        return {}
    if isinstance(declared, list):
        entries = [(i, None, ref) for i, ref in enumerate(declared)]
    elif isinstance(declared, dict):
        entries = [(name, name, ref) for name, ref in declared.items()]
    else:
        return {}  # the schema has said what it should be
    found: dict[str, LibraryIcon | None] = {}
    for key, name, ref in entries:
        if not isinstance(ref, str):  # the schema says so; the name stands in, its uses are not reported again
            if isinstance(name, str):
                found.setdefault(name, None)
            continue
        at = game.doc.pos(f"/icons/{key}")
        prefix, icon = parse_ref(ref)
        if prefix not in SETS:
            report.error("E-UNKNOWN-ICON", f"'{ref}' names no icon set: a library icon is written "
                         f"'{DEFAULT_SET}:NAME'", at,
                         help=f"for example {name or 'plane'}: {DEFAULT_SET}:{icon or 'airplane'} "
                         f"(`cardforge icons search WORDS` finds names); sets: {', '.join(SETS)}")
            found.setdefault(name or icon, None)
            continue
        library = icon_set(prefix)
        hit = library.icon(icon)
        if hit is None:
            guesses = library.suggest(icon, 3)
            report.error("E-UNKNOWN-ICON", f"{prefix} has no icon '{icon}'", at,
                         help=(f"did you mean '{guesses[0]}'? " if guesses else "")
                         + "`cardforge icons search WORDS` finds an icon by the words of its name")
            found.setdefault(name or icon, None)
            continue
        name = name if name is not None else hit.icon
        if not ICON_NAME.match(name):
            report.error("E-UNKNOWN-ICON", f"icon name '{name}' cannot be written in a text as :{name}:",
                         game.doc.pos(f"/icons/{key}", key=True) if isinstance(key, str) else at,
                         help="use lower-case letters, digits and hyphens: airplane, heavy-bomber")
            continue
        own = [svg.name for svg in sorted((game.root / "icons").glob("*.svg"))
               if svg.stem == name or svg.stem.lower().replace("_", "-").replace(" ", "-") == name] \
            if (game.root / "icons").is_dir() else []
        if own:
            report.error("E-ICON", f"icon '{name}' is both icons/{own[0]} and {hit.ref}",
                         game.doc.pos(f"/icons/{key}", key=True) if isinstance(key, str) else at,
                         help=f"give the library icon another name here (e.g. {name}-2: {hit.ref}), or delete the file")
            continue
        if name in found:  # a list naming the same icon twice
            report.warning("W-UNUSED-ICON", f"icon '{name}' is declared twice", at, help="remove one")
        found[name] = hit
    return found


def library_hint(name: str) -> str | None:
    """For an unknown icon whose name the library has, or has in its icons' names: how to declare
    one (a help line's words), else None."""
    if not ICON_NAME.match(name or ""):
        return None
    library = icon_set(DEFAULT_SET)
    found = library.icon(name)
    if found is not None:
        return f"game-icons.net has '{found.icon}': add it to game.yaml as `icons: {{{name}: {found.ref}}}`"
    hits = [hit.name for hit in library.search(name, limit=3)] if len(name) > 2 else []
    if hits:
        return (f"game-icons.net has {', '.join(hits)}, ...: add one to game.yaml as "
                f"`icons: {{{name}: {DEFAULT_SET}:{hits[0]}}}` (`cardforge icons search {name}` lists them all)")
    return None


def credit_lines(icons: dict[str, LibraryIcon], width: int = 110) -> list[str]:
    """The kit's credit for the library icons a game uses: each set's authors, by licence, with
    the site and the licence's address, in lines of at most about `width` characters (the cover
    prints each credit on one line)."""
    lines: list[str] = []
    for prefix in sorted({icon.prefix for icon in icons.values()}):
        library = icon_set(prefix)
        used = [icon for icon in icons.values() if icon.prefix == prefix]
        groups = []
        for spdx in sorted({icon.license for icon in used}):
            named = sorted({icon.author for icon in used if icon.license == spdx and icon.author},
                           key=str.lower)
            if any(icon.author is None and icon.license == spdx for icon in used):
                named.append(f"other {library.site.split('//')[-1]} authors" if named else
                             f"{library.site.split('//')[-1]} authors")
            groups.append(f"{_joined(named)} ({LICENSE_TITLES.get(spdx, spdx)}, {LICENSE_URLS.get(spdx, spdx)})")
        words = f"Icons by {'; '.join(groups)}, from {library.site.split('//')[-1]}".split(" ")
        line = ""
        for word in words:  # wrapped at spaces: a long list of authors goes on another line
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


def credit_game(game, icons: dict[str, LibraryIcon | None]) -> None:
    """The game's credits (game.yaml `credits:`, printed on the kit's cover, given to templates and
    written in the manifest) with the library icons' credit after the designer's own lines."""
    icons = {name: icon for name, icon in icons.items() if icon is not None}
    if icons and isinstance(game.data, dict):
        game.data["credits"] = list(game.data.get("credits") or []) + credit_lines(icons)


def manifest_entries(icons: dict[str, LibraryIcon]) -> list[dict]:
    """Each library icon a game uses, for the kit's manifest: its name in the game, the set's
    icon, author and licence."""
    return [{"name": name, "icon": icon.ref, "author": icon.author, "license": icon.license}
            for name, icon in sorted(icons.items())]


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# The documentation's gallery (docs: guides/icon-gallery.md, written when the site is built by
# cardforge/reference.py): icons a card game often wants, by theme; the whole set is searched with
# `cardforge icons search`.
GALLERY = {
    "Combat": "crossed-swords broadsword shield round-shield bow-arrow arrow-cluster battle-axe crossbow mace-head "
              "visored-helm skull-crossed-bones death-skull bleeding-wound heart-plus broken-shield",
    "Magic": "magic-swirl crystal-ball spell-book potion-ball fire-ray lightning-arc frostfire snowflake-1 "
             "wizard-staff pentacle rune-stone sparkles",
    "Resources": "coins two-coins gold-bar gem-chain diamond-ring wood-pile stone-block wheat anvil-impact "
                 "hammer-nails wooden-crate oil-drum barrel",
    "Places": "castle village tower-flag mountains forest cave-entrance anchor lighthouse factory mine-wagon "
              "treasure-map compass",
    "Vehicles": "airplane biplane jet-fighter helicopter bomber tank battleship submarine jeep steam-locomotive "
                "horse-head sailboat rocket",
    "Game pieces": "perspective-dice-six-faces-random dice-six-faces-five d4 d10 d12 card-play card-draw "
                   "card-discard hourglass stopwatch meeple pawn chess-knight trophy-cup ribbon-medal",
    "People": "person cowled wizard-face knight-banner ninja-head pirate-captain robot-golem crown queen-crown",
    "Marks": "check-mark cancel padlock key eye-target sun moon star-formation heart-inside flag-objective",
}


def gallery_page() -> str:
    """A page of the documentation: the gallery's icons drawn (inline SVG, from the shipped set),
    each with the name a game writes and its author."""
    library = icon_set(DEFAULT_SET)
    out = ["# Icon gallery", "",
           f"Some of the {len(library.icons):,} icons of [game-icons.net]({library.site}) that cardforge ships, "
           "by theme. Each is drawn here from the set cardforge carries, under the name a game writes in "
           "game.yaml (`icons: {plane: game-icons:airplane}`); the [icons guide](icons.md) tells how to use "
           "one, and `cardforge icons search WORDS` finds any of them.", ""]
    for theme, names in GALLERY.items():
        out += [f"## {theme}", "", '<div style="display:flex;flex-wrap:wrap;gap:12px">']
        for name in names.split():
            icon = library.icon(name)
            if icon is None:
                raise KeyError(f"the gallery names '{name}', which {library.prefix} has not")
            body = library.svg(name).split(">", 1)[1].rsplit("</svg>", 1)[0]
            out.append(f'<figure style="width:104px;margin:0;text-align:center">'
                       f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="56" height="56" '
                       f'role="img" aria-label="{name}">{body}</svg>'
                       f'<figcaption style="font-size:12px;line-height:1.2"><code>{name}</code><br>'
                       f'<small>{icon.author or "game-icons.net"}</small></figcaption></figure>')
        out += ["</div>", ""]
    return "\n".join(out) + "\n"
