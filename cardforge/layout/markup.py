"""Markup dialects: card text as a community writes it, turned into cardforge's rich text.

A game (or one deck) declares its dialect in game.yaml:

    markup:
      html: true                    # <b> <strong> <i> <em> <br> <p> <ul> <ol> <li>, and entities (&amp;)
      tags: {u: bold, small: none}  # more tags: bold, italic, break, paragraph, bullets, numbers, item,
                                    # or none (kept text)
      symbols: "[name]"             # or "{name}", or a list of both
      icons: {credit: coin}         # a symbol whose icon has another name
      fields: [text, flavor]        # the fields written in it (default: every text field)

The text of those fields is converted when the game is prepared: tags become **bold**, *italic*
and line breaks, symbols become :icon: tokens, and the characters that mean something in
cardforge's own markup (* : \\) are escaped, so that they print as themselves.  A list item starts a
line with its bullet (•) or number (1.), and its next lines hang under its text (layout/text.py).  An unknown tag
or symbol is an error at its line and column, with a did-you-mean; it is never printed raw.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from ..diagnostics import Report, refine

STYLES = ("bold", "italic", "break", "paragraph", "bullets", "numbers", "item", "none")
HTML_TAGS = {"b": "bold", "strong": "bold", "i": "italic", "em": "italic", "br": "break", "p": "paragraph",
             "ul": "bullets", "ol": "numbers", "li": "item"}
BULLETS = ("•", "◦", "▪")  # by depth of nested lists
SYMBOL_SYNTAX = {"[name]": r"\[([A-Za-z0-9_-]+)\]", "{name}": r"\{([A-Za-z0-9_-]+)\}"}
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)\s*[^<>]*?(/?)>")
# The dialects of three public card databases, and plain HTML: a game names one (`preset:`) and
# adds or overrides tags, icons and marks of its own.
PRESETS = {
    "html": {"html": True},
    "arkhamdb": {"html": True, "symbols": "[name]", "tags": {"cite": "italic", "u": "none", "blockquote": "paragraph", "hr": "paragraph",
                                                     "span": "none", "center": "none"},
                 "marks": [{"regex": r"\[\[([^\[\]]+)\]\]", "style": "bold-italic"}]},  # [[Trait]]
    "netrunnerdb": {"html": True, "symbols": "[name]",
                    "tags": {"trace": "bold", "errata": "italic", "champion": "none"},
                    "marks": [{"regex": r"\[(\d+|X)\]", "text": r"[\1]"}]},  # Trace[3], trace[X]: as written
    "fiveringsdb": {"html": True, "symbols": "[name]"},
}
MARK_STYLES = {"bold": "**", "italic": "*", "bold-italic": "***"}
SKIP_FIELDS = ("id", "front", "back", "note", "quantity", "authored")


@dataclass
class Dialect:
    tags: dict[str, str] = field(default_factory=dict)
    symbols: list[str] = field(default_factory=list)  # regexes of the symbol syntaxes
    syntaxes: list[str] = field(default_factory=list)
    icons: dict[str, str] = field(default_factory=dict)
    fields: list[str] | None = None
    entities: bool = False
    pointer: str = ""  # of its declaration in game.yaml

    marks: list[dict] = field(default_factory=list)  # {token|regex, icon|style|text}, tried first
    own_marks: int = 0  # how many of `marks` the game wrote (at marks/0..): the preset's follow them

    @classmethod
    def from_data(cls, data: dict, pointer: str) -> "Dialect":
        preset = PRESETS.get(data.get("preset"), {})
        merged = {**preset, **{k: v for k, v in data.items() if k not in ("preset", "tags", "icons", "marks")}}
        tags = dict(HTML_TAGS) if merged.get("html") else {}
        tags.update({k.lower(): v for k, v in {**preset.get("tags", {}), **(data.get("tags") or {})}.items()})
        syntaxes = merged.get("symbols") or []
        syntaxes = [syntaxes] if isinstance(syntaxes, str) else list(syntaxes)
        return cls(tags, [SYMBOL_SYNTAX[s] for s in syntaxes], syntaxes,
                   {**preset.get("icons", {}), **dict(data.get("icons") or {})}, merged.get("fields"), bool(tags),
                   pointer, list(data.get("marks") or []) + preset.get("marks", []), len(data.get("marks") or []))


@dataclass
class Problem:
    code: str
    message: str
    needle: str
    nth: int
    help: str | None


def convert(text: str, dialect: Dialect, is_icon: "_IconTest", used: list[int] | None = None) -> tuple[str, list[Problem]]:
    """`text` in the dialect as cardforge rich text, and the problems found in it; `used` counts
    the matches of each of the dialect's marks."""
    problems: list[Problem] = []
    symbol_res = [re.compile(s) for s in dialect.symbols]
    out: list[str] = []
    open_styles: list[str] = []
    pos = 0
    tokens = []  # (start, end, kind, match); at one place a mark wins, then a tag, then a symbol
    for index, mark in enumerate(dialect.marks):
        found, problem = _find_mark(mark, text)
        if problem is not None:
            problems.append(problem)
        if used is not None and (found or problem is not None):  # a mark in error is reported as that
            used[index] += len(found) or 1
        tokens += [(m.start(), m.end(), "mark", (index, m)) for m in found if m.end() > m.start()]
    if dialect.tags:
        tokens += [(m.start(), m.end(), "tag", m) for m in _TAG.finditer(text)]
    for regex in symbol_res:
        tokens += [(m.start(), m.end(), "symbol", m) for m in regex.finditer(text)]
    tokens.sort(key=lambda t: (t[0], ("mark", "tag", "symbol").index(t[2])))
    symbols = sorted(set(dialect.icons))
    reported: set[str] = set()
    unclosed: list[tuple[str, str, int]] = []  # open style tags: (name, as written, occurrence)
    lists: list[list] = []  # open <ul>/<ol>: [style, items so far]
    for start, end, kind, match in tokens:
        if start < pos:
            continue
        between = text[pos:start]
        if not (lists and between.isspace()):  # the source's line breaks between a list's tags are layout
            out.append(_literal(between, dialect.entities))
        pos = end
        raw = (match[1] if kind == "mark" else match).group(0)
        nth = text.count(raw, 0, start)  # which occurrence, to point at it in the source
        if kind == "mark":
            out.append(_marked(dialect.marks[match[0]], match[1], raw, nth, is_icon, problems))
            continue
        if kind == "symbol":
            name = match.group(1)
            icon = dialect.icons.get(name, name.lower().replace("_", "-"))
            if is_icon(icon):
                out.append(f":{icon}:")
                continue
            if name in dialect.icons:  # mapped to an icon that does not exist: reported once, at the mapping
                out.append(_literal(raw, False))
                continue
            candidates = [n for n in symbols + is_icon.names if n != name and n != icon]
            guess = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
            problems.append(Problem(
                "E-MARKUP-SYMBOL", f"unknown symbol '{raw}'" + (f", did you mean '{_as_symbol(raw, guess[0])}'?"
                                                               if guess else ""), raw, nth,
                f"add icons/{icon}.svg, or map the symbol to an icon under markup 'icons:'"))
            continue
        closing, name = match.group(1) == "/", match.group(2).lower()
        style = dialect.tags.get(name)
        if style is None and closing and name in reported:
            continue  # its opening tag was reported
        if style is None:
            reported.add(name)
            guess = difflib.get_close_matches(name, sorted(dialect.tags), n=1, cutoff=0.5)
            problems.append(Problem(
                "E-MARKUP-TAG", f"unknown tag '{raw}'" + (f", did you mean '<{'/' if closing else ''}{guess[0]}>'?"
                                                         if guess else ""), raw, nth,
                f"the tags of this game are {', '.join(f'<{t}>' for t in sorted(dialect.tags))}; declare "
                "more under markup 'tags:' (bold, italic, break, paragraph, bullets, numbers, item or none)"))
            continue
        if style in ("bullets", "numbers"):
            # A list's items are lines of their own paragraph; the text after the list starts a line.
            if closing and lists:
                lists.pop()
            elif not closing:
                lists.append([style, 0])
            _new_line(out)
        elif style == "item":
            if not closing:
                kind = lists[-1] if lists else ["bullets", 0]
                kind[1] += 1
                depth = min(max(len(lists), 1), len(BULLETS))
                _new_line(out)
                out.append(f"{kind[1]}. " if kind[0] == "numbers" else f"{BULLETS[depth - 1]} ")
        elif style == "break":
            out.append("\n")
        elif style == "paragraph":
            if closing or "".join(out).strip():
                out.append("\n\n")
        elif style in ("bold", "italic"):
            _balance(unclosed, name, raw, nth, closing, problems)
            marker = "**" if style == "bold" else "*"
            if closing and style in open_styles:
                # close inner styles first, then reopen them: cardforge's markers toggle
                inner = open_styles[open_styles.index(style) + 1:]
                out.append("".join("**" if s == "bold" else "*" for s in reversed(inner)) + marker
                           + "".join("**" if s == "bold" else "*" for s in inner))
                open_styles.remove(style)
            elif not closing and style not in open_styles:
                open_styles.append(style)
                out.append(marker)
    out.append(_literal(text[pos:], dialect.entities))
    for name, raw, nth in unclosed:
        problems.append(Problem("E-MARKUP-TAG", f"'{raw}' is never closed", raw, nth,
                                f"add '</{name}>' where the {'bold' if dialect.tags[name] == 'bold' else 'italic'} "
                                "text ends"))
    out.append("".join("**" if s == "bold" else "*" for s in reversed(open_styles)))
    result = re.sub(r"\n{3,}", "\n\n", "".join(out)).strip("\n")
    return result, problems


def _find_mark(mark: dict, text: str) -> tuple[list, Problem | None]:
    """The places a mark occurs: its token as written, or its regular expression run with the
    `regex` module's time limit (patterns come from content)."""
    from ..rules.textmatch import TIMEOUT, _compile
    try:
        pattern = _compile(mark["regex"] if "regex" in mark else _escape(mark.get("token", "")))
        return list(pattern.finditer(text, timeout=TIMEOUT)), None
    except (ValueError, TimeoutError) as exc:
        what = f"mark '{mark.get('regex', mark.get('token'))}'"
        message = f"{what} took more than {TIMEOUT:g} s" if isinstance(exc, TimeoutError) else str(exc)
        return [], Problem("E-MARKUP-MARK", message, text[:1], 0, "simplify the regular expression of the mark")


def _escape(token: str) -> str:
    import regex
    return regex.escape(token)


def _marked(mark: dict, match, raw: str, nth: int, is_icon, problems: list) -> str:
    """What a mark becomes: an icon, its text in a style, or a text (with \\1 for its groups)."""
    if "icon" in mark:
        icon = match.expand(mark["icon"])
        if is_icon(icon):
            return f":{icon}:"
        problems.append(Problem("E-MARKUP-SYMBOL", f"'{raw}' draws icon '{icon}', which does not exist", raw, nth,
                                f"add icons/{icon}.svg"))
        return ""
    if "style" in mark:
        marker = MARK_STYLES[mark["style"]]
        inner = match.group(1) if match.re.groups else raw
        return f"{marker}{_literal(inner, False)}{marker}"
    return _literal(match.expand(mark.get("text", "")), False)


def _balance(unclosed: list, name: str, raw: str, nth: int, closing: bool, problems: list) -> None:
    """Keep the open bold/italic tags; a closing tag that closes nothing is a problem."""
    if not closing:
        unclosed.append((name, raw, nth))
        return
    for i in range(len(unclosed) - 1, -1, -1):
        if unclosed[i][0] == name:
            del unclosed[i]
            return
    problems.append(Problem("E-MARKUP-TAG", f"'{raw}' closes nothing: no '<{name}>' is open before it", raw, nth,
                            f"delete it, or add '<{name}>' where the text it ends begins"))


def _new_line(out: list[str]) -> None:
    """Start a line unless the text converted so far is empty or ends one."""
    written = "".join(out[-2:])
    if written.strip() and not written.endswith("\n"):
        out.append("\n")


def _as_symbol(raw: str, name: str) -> str:
    return f"{raw[0]}{name}{raw[-1]}"


def _literal(text: str, entities: bool) -> str:
    """Plain text of the dialect, escaped for cardforge's rich text."""
    if entities:
        import html  # only for a dialect with entities: its table takes 10 ms to import
        text = html.unescape(text)
    return text.replace("\\", "\\\\").replace("*", "\\*").replace(":", "\\:")


def dialect_for(game_data: dict, deck_data: dict, deck_pointer: str) -> Dialect | None:
    spec = deck_data.get("markup") if isinstance(deck_data.get("markup"), dict) else None
    if spec is not None:
        return Dialect.from_data(spec, f"{deck_pointer}/markup")
    spec = game_data.get("markup") if isinstance(game_data.get("markup"), dict) else None
    return Dialect.from_data(spec, "/markup") if spec is not None else None


def apply_markup(game, icons, report: Report) -> None:
    """Convert the text fields of every card of a deck with a dialect, in place; report problems
    at the line and column of the tag or symbol."""
    by_pointer = {}
    for key in ("decks", "tokens"):
        entries = game.data.get(key)  # already reported by the game's schema when it is no list of mappings
        for i, deck_data in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(deck_data, dict):
                by_pointer[f"/{key}/{i}"] = deck_data
    is_icon = _IconTest(icons)
    marks_used: dict[str, tuple[Dialect, list[int]]] = {}  # by the dialect's place: the game's, or a deck's
    for deck in game.decks:
        dialect = dialect_for(game.data, by_pointer.get(deck.pointer, {}), deck.pointer)
        if dialect is None:
            continue
        used = marks_used.setdefault(dialect.pointer, (dialect, [0] * len(dialect.marks)))[1]
        broken = {}  # a symbol mapped to an icon that does not exist -> the error at its mapping
        for icon_name in sorted(set(dialect.icons.values())):
            if not is_icon(icon_name):
                guess = icons.suggest(icon_name)
                diag = report.error("E-UNKNOWN-ICON", f"markup symbol maps to unknown icon '{icon_name}'",
                                    game.doc.pos(f"{dialect.pointer}/icons"),
                                    help=f"did you mean '{guess}'?" if guess else f"add icons/{icon_name}.svg")
                broken.update({name: diag for name, target in dialect.icons.items() if target == icon_name})
        written: set[str] = set()  # the symbols the deck's texts write
        found = []
        for card in deck.cards:
            for name, value in list(card.data.items()):
                if not isinstance(value, str) or name in SKIP_FIELDS:
                    continue
                if dialect.fields is not None and name not in dialect.fields:
                    continue
                converted, problems = convert(value, dialect, is_icon, used)
                card.data[name] = converted
                symbols = {m.group(1) for syntax in dialect.symbols for m in re.finditer(syntax, value)}
                written |= symbols
                for symbol in symbols & set(broken):
                    broken[symbol].affecting({("card", card.id)})
                found += [(card, name, p) for p in problems]
        misspelt = _misspelt_mappings(dialect, written, found, game, report)
        for card, name, p in found:
            if p.code == "E-MARKUP-SYMBOL" and p.needle[1:-1] in misspelt:
                misspelt[p.needle[1:-1]].affecting({("card", card.id)})
                continue
            report.error(p.code, f"card '{card.id}', field '{name}': {p.message}",
                         refine(card.pos(name), p.needle, p.nth), card=card.id, help=p.help)
    for dialect, used in marks_used.values():
        _report_unused_marks(game, dialect, used, report)


def _report_unused_marks(game, dialect: Dialect, used: list[int], report: Report) -> None:
    """A mark the game wrote that matches no text of its cards: a typo (`<il>` for `<li>`), or a
    token the database does not use; the preset's own marks may well match nothing."""
    for index in range(dialect.own_marks):
        mark = dialect.marks[index]
        if used[index] or not isinstance(mark, dict) or not (mark.get("token") or mark.get("regex")):
            continue
        what = f"token '{mark['token']}'" if mark.get("token") else f"regex '{mark['regex']}'"
        fields = f" {', '.join(dialect.fields)}" if dialect.fields else ""
        report.warning("W-MARK-UNUSED", f"mark {index + 1}'s {what} matches no text of the game's cards{fields and ' (fields' + fields + ')'}",
                       game.doc.pos(f"{dialect.pointer}/marks/{index}"),
                       help="check its spelling against the card text as the database writes it, or delete the mark")


def _misspelt_mappings(dialect: Dialect, written: set[str], found: list, game, report: Report) -> dict:
    """A symbol the texts write that is unknown, close to a key of the markup's `icons:` that no
    text writes: the key is misspelt ({fre: fast} where the texts write [free]).  One error at
    the key, for every card that writes the symbol; no did-you-mean that names the misspelt key."""
    unused = [key for key in dialect.icons if key not in written]
    unknown = sorted({p.needle[1:-1] for _, _, p in found if p.code == "E-MARKUP-SYMBOL"
                      and p.message.startswith("unknown symbol")})
    misspelt = {}
    for symbol in unknown:
        guess = difflib.get_close_matches(symbol, unused, n=1, cutoff=0.6)
        if not guess:
            continue
        key = guess[0]
        misspelt[symbol] = report.error(
            "E-MARKUP-SYMBOL", f"markup icons: no card's text writes '{key}', and '{symbol}', which card texts "
            f"write, is no symbol of the game: did you mean '{symbol}'?",
            game.doc.pos(f"{dialect.pointer}/icons/{key}", key=True),
            help=f"rename '{key}' to '{symbol}' under markup 'icons:'")
    return misspelt


class _IconTest:
    """`name in icons`, with the names for did-you-mean."""

    def __init__(self, icons):
        self.icons = icons
        self.names = sorted(getattr(icons, "sources", {}))

    def __call__(self, name: str) -> bool:
        return name in self.icons
