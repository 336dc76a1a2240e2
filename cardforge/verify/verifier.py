"""The comparison: each face recorded in a PDF's manifest against what its data gives."""
from __future__ import annotations

import difflib
import itertools
import json
import re
from pathlib import Path
from typing import Any, Iterator

from ..diagnostics import Report, display_path
from ..layout.layouts import Layout, names_copy
from .outlines import measure_templates
from ..layout.text import unescape_recorded
from ..render.evaluate import FaceEvaluator, FrameInfo, plain_words
from ..geometry import outline_box
from ..units import MM
from ..frontend.model import Game
from ..rules.positions import piece_pos, refine
from .pdfobjects import damage_errors, read_pages
from .drawn import Block, Placed, Run
from .pdfread import FaceBodies, PageReader, _embedded
from .resources import Undefined

SECTIONS = ("cards", "tokens", "boards", "references", "templates")
TOL = 0.75  # points of slack when placing glyphs and icons in boxes


# -- the check ---------------------------------------------------------------------------------

def _squash(text: str) -> str:
    return "".join(text.split())


def _block_words(runs: list[Run]) -> list[str]:
    """The words of a block of text runs: runs that touch continue a word, a gap starts a new one."""
    text = ""
    prev = None
    for run in runs:
        touching = prev is not None and _continues(prev, run)
        text += run.text if touching else " " + run.text
        prev = run
    return text.split()


def _continues(prev: Run, run: Run) -> bool:
    """Whether `run` starts where `prev` ends, on the same baseline (in the runs' own direction, so
    text in a rotated frame reads back as it reads on the card)."""
    if prev.y1 is None and run.y1 is None:
        return abs(run.y0 - prev.y0) < 0.2 * max(run.size, 1) and abs(run.x0 - prev.x1) < 0.15 * max(run.size, 1)
    ux, uy = run.up
    dx, dy = run.x0 - prev.x1, run.y0 - prev.end_y
    along, across = dx * uy - dy * ux, dx * ux + dy * uy  # (uy, -ux) is the direction of reading
    return abs(across) < 0.2 * max(run.size, 1) and abs(along) < 0.15 * max(run.size, 1)


_ICON_TOKEN = re.compile(r"(?<!\\):[a-z][a-z0-9-]*:")


def _recorded_text(markup: Any, icon: str = "") -> str:
    """The literal text of recorded markup, each :icon: token replaced by `icon`."""
    text = str(markup or "")
    return unescape_recorded(_ICON_TOKEN.sub(icon, text) if ":" in text else text)


def _has_text(markup: Any) -> bool:
    text = _recorded_text(markup)
    return bool(text) and not text.isspace()  # as bool(_squash(text)), without building it


def _blocks_of(frame: dict) -> int:
    """How many blocks of text a frame's record says it drew (one per text, label or table cell)."""
    kind = frame.get("type")
    if kind == "text":
        return 1 if _has_text(frame.get("text")) else 0
    if kind == "track":
        return sum(1 for label in frame.get("labels") or [] if _has_text(label))
    if kind == "table":
        cells = list(frame.get("header") or []) + [c for row in frame.get("rows") or [] for c in row]
        return sum(1 for cell in cells if _has_text(cell))
    return 0


def _in_order(items: list, frames: list[dict], capacity: list[int], fits) -> list[str]:
    """The frame that drew each item. Frames draw in their order and each drew as many items as
    its record says; an item lies in its frame's box. Overlapping frames are told apart by order."""
    boxes = [_pt(frame["box"]) for frame in frames]
    left = list(capacity)
    current = 0
    out = []
    for item in items:
        choice = next((i for i in range(current, len(frames)) if left[i] > 0 and fits(item, boxes[i])), None)
        if choice is None:
            choice = next((i for i in range(len(frames)) if fits(item, boxes[i])), None)
        if choice is None:
            out.append("(outside every frame)")
            continue
        current = choice
        left[choice] -= 1
        out.append(frames[choice]["name"])
    return out


def _inside(x: float, y: float, box, tol: float = TOL) -> bool:
    bx, by, bw, bh = box
    return bx - tol <= x <= bx + bw + tol and by - tol <= y <= by + bh + tol


def _runs_inside(block: Block, box, tol: float = TOL) -> bool:
    """Whether every run of `block` starts inside `box` (as _inside, run by run)."""
    bx, by, bw, bh = box
    low_x, high_x, low_y, high_y = bx - tol, bx + bw + tol, by - tol, by + bh + tol
    for run in block.runs:
        if not (low_x <= run.x0 <= high_x and low_y <= run.y0 <= high_y):
            return False
    return True


def _pt(values) -> tuple:
    return tuple(float(v) * MM for v in values)


def _diff(printed: list[str], expected: list[str]) -> tuple[str, str | None]:
    """Where two word lists first differ, with a little context; and the first new word."""
    matcher = difflib.SequenceMatcher(a=printed, b=expected, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        before = printed[max(0, i1 - 3):i1]
        a = " ".join(before + printed[i1:i2]) or "(nothing)"
        b = " ".join(before + expected[j1:j2]) or "(nothing)"
        return f"printed '{_clip(a)}' where the data now gives '{_clip(b)}'", (expected[j1] if j2 > j1 else None)
    return (f"printed '{_clip(' '.join(printed))}', the data now gives '{_clip(' '.join(expected))}'", None)


def _clip(text: str, n: int = 90) -> str:
    return text if len(text) <= n else text[:n - 1] + "…"


def _icon_words(icons: dict[str, int]) -> str:
    return ", ".join(f"{'unrecognised' if name == '?' else name} x{n}" for name, n in sorted(icons.items()) if n) \
        or "none"


class Verifier:
    """Checks PDFs of one prepared game; what the data gives is computed once for all of them.

    With `fresh=True` (a build checking what it has just written) the manifest was written from
    this same data by this same process, so it stands for what the data gives: the PDF is proved
    against it and the templates are not evaluated a second time."""

    def __init__(self, prep, report: Report, fresh: bool = False):
        self.prep, self.report, self.fresh = prep, report, fresh
        self.game: Game = prep.game
        self.evaluator = FaceEvaluator(self.game, prep.fonts, prep.icons)
        self.cards = {card.id: card for card in self.game.cards()}
        self.boards = {board.id: board for board in self.game.boards}
        self._expected: dict[tuple, dict[str, FrameInfo]] = {}
        self._frames_named: dict[int, tuple[Layout, dict]] = {}  # per layout: its frames by name
        self._reported: set[tuple] = set()
        self._pdf = ""

    # -- what the data gives, frame by frame ------------------------------------------------

    def expected(self, piece, side: str, copy: int, layout: Layout, record: dict) -> dict[str, FrameInfo]:
        if self.fresh:  # the frames that print words or icons: the others (shapes) give nothing to compare
            named = self._frames_named.get(id(layout))
            if named is None or named[0] is not layout:
                named = self._frames_named[id(layout)] = (layout, {})
                for frame in reversed(layout.frames):  # the first of a name, as a search in order finds it
                    named[1][frame.name] = frame
            return {frame["name"]: _recorded(frame, named[1].get(frame["name"]), self.prep.icons.__contains__)
                    for frame in record.get("frames", []) if frame.get("type") in _WORDS_FROM or frame.get("icons")}
        # A face's values differ from copy to copy where a frame names `copy`, or where the piece
        # is a numbered series (its `number` and `variant`), as the renderer keeps them apart.
        per_copy = any(names_copy(f) for f in layout.frames) \
            or bool(hasattr(piece, "copy_context") and piece.copy_context(copy))
        key = (type(piece).__name__, piece.id, side, copy if per_copy else 0, layout.name)
        if key not in self._expected:
            frames = self.evaluator.frames(layout, piece, side, copy, text=True)
            self._expected[key] = {f.name: f for f in frames}
        return self._expected[key]

    def error(self, code: str, message: str, piece=None, fields: list[str] | None = None, help: str | None = None,
              once: tuple = (), find: str | None = None) -> None:
        key = (self._pdf, code) + (once or (message,))
        if key in self._reported:
            return
        self._reported.add(key)
        pos = None
        if piece is not None:
            pos = refine(piece_pos(piece, fields or []), find)
        self.report.error(code, message, pos, help=help, card=getattr(piece, "id", None))

    # -- one PDF ------------------------------------------------------------------------------

    def verify(self, pdf: Path, manifest: dict | None = None, shown_as: Path | None = None, opened=None) -> None:
        """Read `pdf` back (or `opened`, its pypdf reader, when the caller reads it again) against its manifest."""
        pdf = Path(pdf)
        name = self._pdf = display_path(shown_as or pdf, None)
        if manifest is None:
            mpath = pdf.with_suffix(".manifest.json")
            try:
                manifest = json.loads(mpath.read_text("utf-8"))
            except (OSError, ValueError) as exc:
                self.error("E-PRINTED-MANIFEST", f"{name}: cannot read its manifest {mpath.name}: {exc}",
                           help="the manifest is written next to the PDF by `cardforge build`; rebuild")
                return
        if manifest.get("game") not in (None, self.game.id):
            self.error("E-PRINTED-MANIFEST", f"{name} is a build of game '{manifest.get('game')}', "
                       f"not of '{self.game.id}'", help="name the game folder it was built from")
            return
        try:
            pages = read_pages(pdf, opened)
        except (OSError, ValueError) as exc:
            self.error("E-PRINTED-PDF", f"{name}: cannot read the PDF: {exc}")
            return
        if len(pages) != len(manifest.get("pages", [])):
            self.error("E-PRINTED-MANIFEST", f"{name} has {len(pages)} pages but its manifest lists "
                       f"{len(manifest.get('pages', []))}",
                       help="the PDF and its manifest come from different builds; rebuild")
            return
        records = _by_page(manifest)
        pending = next(records, None)
        fonts_seen: dict = {}
        faces = FaceBodies()  # a face placed again (a deck's back) is read once
        undefined = Undefined()  # what the pages use and do not define; each form looked at once
        counts: dict[tuple, int] = {}
        sections_seen: set[str] = set()
        for number, page in enumerate(pages, start=1):
            while pending is not None and pending[0] < number:
                pending = next(records, None)  # a record of a page the PDF does not have
            wanted = pending is not None and pending[0] == number
            try:  # the page's objects and content as the file has them: a damaged file is one error
                reader = PageReader(page, fonts_seen)
                self._fonts(name, number, reader)
                self._resources(name, number, reader, undefined)
                if wanted:
                    reader.read(faces)
            except damage_errors() as exc:
                self.error("E-PRINTED-PDF", f"{name} page {number}: cannot read it: {exc}",
                           help="the file is damaged: build it again, or copy it again from where it was built")
                return
            if wanted:
                self._page(name, number, reader, pending[1], counts, sections_seen)
                pending = next(records, None)
        self._quantities(name, counts, sections_seen, manifest.get("decks"))

    def _fonts(self, name: str, number: int, reader: "PageReader") -> None:
        fonts = [(font_name, obj, "") for font_name, obj in reader.font_objects.items()]
        for form_name, (_, _, form) in reader.forms.items():
            resources = form.get("/Resources")
            font_dict = resources.get_object().get("/Font") if resources is not None else None
            for font_name, ref in (font_dict.get_object().items() if font_dict is not None else []):
                fonts.append((font_name, ref.get_object(), f" (in {form_name})"))
        for font_name, obj, where in fonts:
            if not _embedded(obj):
                base = str(obj.get("/BaseFont", font_name)).lstrip("/")
                self.error("E-PRINTED-FONT", f"{name} page {number}: font '{base}'{where} is not embedded",
                           once=("font", base), help="cardforge embeds its TrueType fonts; a font that is not "
                           "embedded prints differently on every printer")

    def _resources(self, name: str, number: int, reader: "PageReader", undefined: Undefined) -> None:
        """Every font, graphics state, form, image, shading, pattern and colour space the page's
        content (and each form it draws) names is defined by its resources (verify/resources.py)."""
        missing, forms = undefined.page(reader.content(), reader.resources)
        # A form is shared by the pages that draw it: named once, on the first.
        for where, names, whose, once in ([("its content", missing, "page's", number)] if missing else []) + \
                [(form, names, "form's", form) for form, names in forms]:
            self.error("E-PRINTED-RESOURCE", f"{name} page {number}: {where} uses {_and(names)}, which the {whose} "
                       "resources do not define", once=("resource", once),
                       help="a viewer draws the page without it; the PDF was written wrong: report it, "
                            "with the file")

    def _page(self, name, number, reader: "PageReader", entries, counts, sections_seen) -> None:
        outlines = [record for section, record in entries if section == "templates"]
        if outlines:
            measure_templates(self, name, number, reader, outlines, {p.id: p for p in self.game.templates})
            entries = [(section, record) for section, record in entries if section != "templates"]
        faces = []
        for section, record in entries:
            trim = _pt(record["trim"])
            bleed = float(record.get("bleed", 0)) * MM
            box = outline_box(record.get("shape", "rect"), *trim, bleed)  # the clip the face was drawn in
            faces.append((section, record, trim, box, [], []))
        # A piece is drawn clipped to its bleed box: what was drawn inside that clip belongs to it.
        # (Page furniture, crop marks and a tiled board's assembly map are drawn outside any clip.)
        for block in reader.blocks:
            face = _owner(block.clip, faces)
            if face is not None and block.runs:
                face[4].append(block)
        for placed in reader.placed:
            face = _owner(placed.clip, faces)
            if face is not None:
                face[5].append(placed)
        forms = _form_names(faces)
        for section, record, trim, _, blocks, placed in faces:
            sections_seen.add(section)
            self._face(name, number, section, record, trim, blocks, placed, forms, counts)

    def _face(self, name, number, section, record, trim, blocks, placed, forms, counts) -> None:
        side, copy = record.get("side", "front"), int(record.get("copy", 1))
        is_board = "board" in record
        piece_id = record.get("board") if is_board else record.get("card")
        what = "board" if is_board else "card"
        piece = self.boards.get(piece_id) if is_board else self.cards.get(piece_id)
        if piece is None:
            self.error("E-PRINTED-CARD", f"{name}: {what} '{piece_id}' is printed (page {number}) but is no longer "
                       "in the data", once=("gone", piece_id), help="rebuild to drop it, or restore it in the data")
            return
        if not is_board:
            counts[(section, piece_id, side)] = counts.get((section, piece_id, side), 0) + 1
        layout = self.prep.boards.get(piece_id) if is_board else self.prep.faces.get((piece_id, side))
        if layout is None:
            self.error("E-PRINTED-CARD", f"{name}: {what} '{piece_id}' has a {side} in the PDF but none in the "
                       "data", piece, once=("noside", piece_id, side), help="rebuild the PDF")
            return
        expected = self.expected(piece, side, copy, layout, record)
        label = f"{what} '{piece_id}' ({side}{', copy ' + str(copy) if copy > 1 else ''})"
        self._clipped(name, number, label, piece, side, trim, blocks)
        self._texts(name, number, label, piece, side, record, blocks, expected)
        self._icons(name, number, label, piece, side, record, placed, forms, expected)

    def _clipped(self, name, number, label, piece, side, trim, blocks) -> None:
        """Nothing cut off: every glyph lies inside the trim box of its piece."""
        tx, ty, tw, th = trim
        left, right, bottom, top = tx - 0.1, tx + tw + 0.1, ty - 0.1, ty + th + 0.1
        for block in blocks:
            for run in block.runs:
                if run.y1 is None and run.up == (0.0, 1.0):  # Run.bounds of upright text, inline
                    x0, x1 = min(run.x0, run.x1), max(run.x0, run.x1)
                    y0, y1 = run.y0 - 0.22 * run.size, run.y0 + 0.72 * run.size
                else:
                    x0, y0, x1, y1 = run.bounds()
                if x0 < left or x1 > right or y0 < bottom or y1 > top:
                    self.error("E-PRINTED-CLIP", f"{name} page {number}: {label}: '{_clip(run.text.strip(), 40)}' "
                               "reaches outside the trim box and is cut off", piece,
                               once=("clip", piece.id, side, run.text),
                               help="move the frame inside the piece, or shorten the text")

    def _texts(self, name, number, label, piece, side, record, blocks, expected) -> None:
        """The words printed in each frame are the words the data gives."""
        frames = [f for f in record.get("frames", []) if f.get("type") in _WORDS_FROM]
        order = [f["name"] for f in frames]
        printed: dict[str, list[Block]] = {}
        for block, frame_name in zip(blocks, _in_order(blocks, frames, [_blocks_of(f) for f in frames], _runs_inside)):
            printed.setdefault(frame_name, []).append(block)

        def words(frame_name: str) -> list[str]:  # the words a frame printed, for a message
            return [word for block in printed.get(frame_name, ()) for word in _block_words(block.runs)]

        def squashed(frame_name: str) -> str:  # its words without the white space between: its runs' text
            return _squash("".join(run.text for block in printed.get(frame_name, ()) for run in block.runs))

        if not self.fresh:  # the manifest must describe this PDF, or its frame names mean nothing
            for frame in frames:
                recorded = frame.get("text")
                if frame.get("type") == "text" and recorded is not None \
                        and _squash(_recorded_text(recorded)) != squashed(frame["name"]):
                    shown = words(frame["name"])
                    self.error("E-PRINTED-MANIFEST", f"{name} page {number}: {label}, frame '{frame['name']}': the "
                               f"PDF shows '{_clip(' '.join(shown))}' but its manifest says '{_clip(recorded)}'",
                               piece, once=("manifest", piece.id, side, frame["name"]),
                               help="the PDF and its manifest come from different builds; rebuild")
        names = set(printed) | {n for n, info in expected.items() if info.words}
        for frame_name in sorted(names, key=lambda n: order.index(n) if n in order else len(order)):
            info = expected.get(frame_name)
            want = (info.words or []) if info is not None else []
            if squashed(frame_name) == _squash("".join(want)):
                continue
            shown = words(frame_name)
            find = None
            if info is not None and info.error is not None:
                detail = f"the data now fails: {info.error[1]}"
            elif info is None:
                detail = (f"printed '{_clip(' '.join(shown))}' outside every frame" if frame_name == _NOWHERE else
                          f"printed '{_clip(' '.join(shown))}', but the data no longer draws this frame")
            else:
                detail, find = _diff(shown, want)
            self.error("E-PRINTED-TEXT", f"{name}: {label}, frame '{frame_name}': {detail}", piece,
                       _fields_of(info), once=("text", piece.id, side, frame_name),
                       find=find, help="the data changed since this PDF was built: rebuild it (or undo the change)")

    def _icons(self, name, number, label, piece, side, record, placed, forms, expected) -> None:
        """Each frame draws the icons (damage boxes, stars, inline dice) the data asks for.

        The PDF gives how many icons each frame drew, and which ones where a form is known to be a
        given icon; the manifest names them all. Where the two agree, the manifest's names are what
        was printed, and they are compared with the names the data gives now."""
        icon_frames = [f for f in record.get("frames", []) if f.get("icons") is not None]
        if not icon_frames and not placed and not any(info.icons for info in expected.values()):
            return  # no icon drawn, recorded or wanted
        order = [f["name"] for f in icon_frames]
        recorded = {f["name"]: {k: v for k, v in f["icons"].items() if v} for f in icon_frames}
        drawn: dict[str, list[Placed]] = {}
        owners = _in_order(placed, icon_frames, [sum(f["icons"].values()) for f in icon_frames],
                           lambda p, box: _inside(*p.centre, box))
        for p, frame_name in zip(placed, owners):
            drawn.setdefault(frame_name, []).append(p)
        names = set(drawn) | set(recorded) | {n for n, info in expected.items() if info.icons}
        for frame_name in sorted(names, key=lambda n: order.index(n) if n in order else len(order)):
            got = drawn.get(frame_name, [])
            by_name: dict[str, int] = {}
            for p in got:
                icon = forms.get(p.name, "?")
                by_name[icon] = by_name.get(icon, 0) + 1
            known = {k: v for k, v in by_name.items() if k != "?"}
            said = recorded.get(frame_name, {})
            agrees = len(got) == sum(said.values()) and all(said.get(k, 0) >= v for k, v in known.items())
            shown = said if agrees else by_name
            info = expected.get(frame_name)
            want = {k: v for k, v in ((info.icons if info is not None else {}) or {}).items() if v}
            if not agrees and not self.fresh:
                self.error("E-PRINTED-MANIFEST", f"{name} page {number}: {label}, frame '{frame_name}': the PDF "
                           f"draws {len(got)} icons ({_icon_words(by_name)}) but its manifest says "
                           f"{sum(said.values())} ({_icon_words(said)})", piece,
                           once=("manifest-icons", piece.id, side, frame_name),
                           help="the PDF and its manifest come from different builds; rebuild")
            if shown == want or (len(got) == sum(want.values()) and "?" in shown
                                 and all(want.get(k, 0) >= v for k, v in known.items())):
                continue
            self.error("E-PRINTED-ICONS", f"{name}: {label}, frame '{frame_name}': the PDF shows {len(got)} "
                       f"icon{'s' if len(got) != 1 else ''} ({_icon_words(shown)}), the data now gives "
                       f"{sum(want.values())} ({_icon_words(want)})", piece, _fields_of(info),
                       once=("icons", piece.id, side, frame_name),
                       help="the data changed since this PDF was built: rebuild it (or undo the change)")

    def _quantities(self, name: str, counts: dict, sections_seen: set[str], decks: list | None = None) -> None:
        """Every card is printed as many times as its quantity says (in the sections this PDF holds, or
        in the decks its manifest names: a print-shop PDF holds one deck)."""
        for deck in self.game.decks:
            if deck.component not in sections_seen or (decks is not None and deck.id not in decks):
                continue
            for card in deck.cards:
                for side in ("front", "back") if card.back else ("front",):
                    got = counts.get((deck.component, card.id, side), 0)
                    if got == card.quantity:
                        continue
                    what = (f"is not in the PDF, but the data has {card.quantity} of it" if got == 0 else
                            f"is printed {got} time{'s' if got != 1 else ''}, but its quantity is now "
                            f"{card.quantity}")
                    self.error("E-PRINTED-CARDS", f"{name}: card '{card.id}' {what}", card, ["quantity"],
                               once=("qty", card.id), help="rebuild the PDF")


_NOWHERE = "(outside every frame)"
_WORDS_FROM = ("text", "track", "table")  # the frames whose records say what words they printed (_recorded)


def _and(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _fields_of(info: FrameInfo | None) -> list[str]:
    if info is None:
        return []
    if not info.fields and info.frame is not None:
        info.fields = FaceEvaluator._fields_static(info.frame)
    return info.fields


def _owner(clip, faces):
    """The face whose bleed box holds a clipping box (what was drawn clipped to it is the face's)."""
    if clip is None:
        return None
    for face in faces:
        bx, by, bw, bh = face[3]
        if clip[0] >= bx - 1 and clip[1] >= by - 1 and clip[2] <= bx + bw + 1 and clip[3] <= by + bh + 1:
            return face
    return None


def _form_names(faces) -> dict[str, str]:
    """Form XObject -> icon name, learned from frames that draw a single kind of icon."""
    names: dict[str, set[str]] = {}
    for _, record, _, _, _, placed in faces:
        if not placed:
            continue  # a face that placed no form teaches nothing
        for frame in record.get("frames", []):
            icons = {k: v for k, v in (frame.get("icons") or {}).items() if v}
            if len(icons) != 1:
                continue
            icon = next(iter(icons))
            box = _pt(frame["box"])
            for p in placed:
                if _inside(*p.centre, box):
                    names.setdefault(p.name, set()).add(icon)
    return {form: next(iter(icons)) for form, icons in names.items() if len(icons) == 1}


def _recorded(frame: dict, layout_frame, is_icon) -> FrameInfo:
    """What a manifest's frame record says was drawn (by `layout_frame`, the layout's frame of
    that name, if it has one), as a FrameInfo."""
    info = FrameInfo(frame["name"], frame.get("type", ""), [], layout_frame)  # fields: found when needed
    kind = frame.get("type")
    if kind == "text":
        info.words = _recorded_text(frame.get("text"), " ").split()
    elif kind == "track":  # labels and cells are recorded as markup
        info.words = [w for label in frame.get("labels") or [] for w in plain_words(str(label), is_icon)[0]]
    elif kind == "table":
        cells = list(frame.get("header") or []) + [c for row in frame.get("rows") or [] for c in row]
        info.words = [w for cell in cells for w in plain_words(str(cell), is_icon)[0]]
    info.icons = {k: v for k, v in (frame.get("icons") or {}).items() if v}
    return info


def _by_page(manifest) -> Iterator[tuple[int, list[tuple[str, dict]]]]:
    """The manifest's face records grouped by page, in page order; a build's spooled manifest
    gives them one page at a time, so a large PDF is checked without holding them all."""
    if hasattr(manifest, "records"):
        stream = ((int(record.get("page", 0)), section, record) for section, record in manifest.records())
    else:
        stream = iter(sorted(((int(record.get("page", 0)), section, record) for section in SECTIONS
                              for record in manifest.get(section) or []), key=lambda item: item[0]))
    for page, group in itertools.groupby(stream, key=lambda item: item[0]):
        yield page, [(section, record) for _, section, record in group]


def verify_outputs(prep, outputs, report: Report) -> None:
    """Check every PDF a build has just written (the paths may include the manifests)."""
    verifier = Verifier(prep, report, fresh=True)
    for path in outputs:
        if Path(path).suffix == ".pdf":
            verifier.verify(Path(path))
