"""The designer's loop: a game kept loaded, and after each save only what changed redrawn.

A Session owns the last good state of a game: a picture of every face (cards, tokens, boards
and reference sheets), what each piece is made of, and the diagnostics.  `refresh()` brings it
up to date after files changed:

* the front end runs again, but files that did not change are not read or validated again (the
  loader's file memo) and the rules' expressions are not compiled again, so the rules, which
  read across cards, are still checked in full;
* each face gets a fingerprint of everything it is drawn from (its data, its layout's files,
  the game's own settings and tables, the icons and fonts), and only faces whose fingerprint
  changed are drawn and rasterised again;
* while the content has errors that stop it loading, the last good pictures stay, marked stale,
  beside the errors; an error in drawing a face (text that does not fit) is drawn on that face
  (render/overset.py), which is redrawn as usual and badged alone.

A face's drawing errors are kept with its picture until it is drawn again (a face that did not
change is not redrawn, and its overflow is still there); the loading errors are the last load's.
"""
from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import ContentError, Diagnostic, Report, _source_line, display_path
from ..frontend import load
from ..output.raster import Face, face_images
from ..prepare import Prepared, prepare

PREVIEW_DPI = 110
PROOF_VIEW = "print"  # the view of a face as the print shop prints it: the CMYK soft proof


@dataclass
class PieceView:
    """One face as the preview shows it."""
    key: str  # stable across refreshes: "card/<id>/<side>" or "board/<id>"
    kind: str  # cards, tokens, boards, references
    group: str  # deck id, or the component for boards and sheets
    group_name: str
    id: str
    side: str
    source: str  # file:line of the piece in its data
    data: dict[str, Any]
    fingerprint: str
    version: int = 0  # bumped each time the picture changes
    problems: list[dict] = field(default_factory=list)
    since: str | None = None  # with `serve --since OLD`: "new", "changed" or None (as it was)

    def summary(self) -> dict:
        return {"key": self.key, "kind": self.kind, "group": self.group, "group_name": self.group_name,
                "id": self.id, "side": self.side, "source": self.source, "data": self.data,
                "version": self.version, "problems": self.problems, "since": self.since,
                "text": " ".join(str(v) for v in self.data.values() if isinstance(v, (str, int, float)))}


class Session:
    """A game folder, kept up to date for the preview and `watch`."""

    def __init__(self, game_dir: Path, layouts_dir: Path | None = None, dpi: float = PREVIEW_DPI,
                 outline: bool = False, lang: str | None = None):
        self.game_dir, self.layouts_dir, self.dpi = Path(game_dir), layouts_dir, dpi
        self.lang = lang  # `serve --lang de`: the game with that language's overlay merged in
        self.outline = outline  # `serve --outline`: frame boxes, safe zone, trim and bleed on every picture
        if load.file_memo is None:
            load.file_memo = load.FileMemo()
        self.lock = threading.Lock()
        self.pieces: dict[str, PieceView] = {}
        self.images: dict[str, bytes] = {}
        self._seen: dict[tuple, tuple[bytes, bytes]] = {}  # (key, view) -> (picture, as seen)
        self.diagnostics: list[dict] = []
        self._drawn: dict[str, list[Diagnostic]] = {}  # face key -> what drawing it last reported
        self._drawn_apart: list[tuple[Diagnostic, set[str]]] = []  # of no piece (a layout's): with the faces that said it
        self.stale = False  # the pictures are the last good ones: the content no longer loads
        self.version = 0
        self.faces_drawn = 0  # faces drawn and rasterised since the session began (a test hook)
        self.game_name = self.game_dir.name
        self.prep: Prepared | None = None
        self.baseline = None  # serve/baseline.py, with `serve --since OLD`
        self.start_view: str | None = None  # `serve --color cmyk`: the page opens on the soft proof
        self._proofs = threading.Lock()  # one soft-proof batch at a time; requests meanwhile wait for it
        self.proof_diagnostics: list[dict] = []  # what the last soft proof said (colour shifts, faults)
        self.proof_said = 0  # bumped when proof_diagnostics change: the page is told

    # -- one refresh ---------------------------------------------------------------------

    def refresh(self) -> list[str]:
        """Reload, recheck, redraw what changed. Returns the keys of the faces drawn again."""
        report = Report()
        try:
            prep = prepare(self.game_dir, report, self.layouts_dir, lang=self.lang)
        except ContentError:
            prep = None
        except Exception as exc:  # noqa: BLE001 - a bug must not take the preview down; show it
            report.error("E-INTERNAL", f"cardforge failed: {type(exc).__name__}: {exc}", None,
                         help="this is a bug in cardforge; the last good pictures stay shown")
            prep = None
        with self.lock:
            if prep is None:
                self.stale = bool(self.pieces)
                self.diagnostics = [self._diagnostic(d) for d in report.items]
                self.version += 1
                return []
            self.prep, self.game_name = prep, prep.game.name
            wanted = self._views(prep)
            if self.baseline is not None:
                self.baseline.mark(wanted, prep)
            changed = [key for key, view in wanted.items()
                       if key not in self.pieces or self.pieces[key].fingerprint != view.fingerprint]
        faces = list(_faces(prep, {key: wanted[key].side for key in changed}).values())
        draw_report = Report()
        images = face_images(prep, faces, draw_report, dpi=self.dpi, outline=self.outline) if faces else []
        with self.lock:
            self.faces_drawn += len(faces)
            for key, image in zip(changed, images):
                old = self.pieces.get(key)
                wanted[key].version = (old.version + 1) if old else 1
                self.images[key] = image
            for key, view in wanted.items():
                if key not in changed:
                    view.version = self.pieces[key].version
            for key in set(self.images) - set(wanted):
                del self.images[key]
            self._keep_drawn(draw_report.items, changed, wanted)
            drawn = [d for key in wanted for d in self._drawn.get(key, [])] + [d for d, _ in self._drawn_apart]
            for view in wanted.values():
                view.problems = []
            for diag in report.items + drawn:
                face = _face_of(diag, wanted)
                if face is not None:
                    wanted[face].problems.append(self._diagnostic(diag))
            self.pieces = wanted
            self.diagnostics = [self._diagnostic(d) for d in report.items + drawn]
            self.stale = False  # every face that changed was drawn again: the pictures are current
            self.version += 1
        return changed

    def _keep_drawn(self, items: list[Diagnostic], changed: list[str], wanted: dict[str, "PieceView"]) -> None:
        """Remember what drawing the faces in `changed` reported, each face's own with it; a
        problem of no piece (a layout's) until every face that reported it is drawn again."""
        redrawn = set(changed)
        for key in redrawn:
            self._drawn.pop(key, None)
        apart = []
        for diag in items:
            face = _face_of(diag, wanted)
            if face is not None:
                self._drawn.setdefault(face, []).append(diag)
            else:
                apart.append((diag, set(redrawn)))
        kept = [(diag, keys - redrawn) for diag, keys in self._drawn_apart if keys - redrawn]
        self._drawn_apart = kept + apart
        for key in set(self._drawn) - set(wanted):
            del self._drawn[key]

    # -- what each face is made of -------------------------------------------------------

    def _views(self, prep: Prepared) -> dict[str, PieceView]:
        game = prep.game
        common = _digest([game.data, _files_digest(game.root / "icons"), _files_digest(game.root / "fonts")])
        layout_digest: dict[str, str] = {}

        def of_layout(layout) -> str:
            if layout.name not in layout_digest:
                layout_digest[layout.name] = _digest([layout.name, layout.width, layout.height,
                                                      [_file_digest(p) for p in layout.files]])
            return layout_digest[layout.name]

        views: dict[str, PieceView] = {}
        for card in game.cards():
            for side in ("front", "back"):
                layout = prep.faces.get((card.id, side))
                if layout is None:
                    continue
                deck = card.deck
                key = f"card/{card.id}/{side}"
                fingerprint = _digest([common, of_layout(layout), card.data, side, deck.bleed, deck.shape,
                                       deck.width, deck.height])
                views[key] = PieceView(key, deck.component, deck.id, deck.name, card.id, side,
                                       self._where(card.pos()), _plain(card.data), fingerprint)
        for board in game.boards:
            layout = prep.boards.get(board.id)
            if layout is None:
                continue
            key = f"board/{board.id}"
            fingerprint = _digest([common, of_layout(layout), board.data, game.bleed])
            views[key] = PieceView(key, board.component, board.component, board.component.capitalize(),
                                   board.id, "front", self._where(board.pos()), _plain(board.data), fingerprint)
        return views

    def _where(self, pos) -> str:
        return f"{display_path(pos.path, self.game_dir.parent)}:{pos.line}"

    def _diagnostic(self, diag: Diagnostic) -> dict:
        out = diag.as_json(self.game_dir.parent)
        out["excerpt"] = _source_line(diag.position)
        out["text"] = diag.render(self.game_dir.parent)
        return out

    # -- for the server ------------------------------------------------------------------

    def state(self) -> dict:
        with self.lock:
            since = None if self.baseline is None else {"label": self.baseline.label,
                                                        "removed": self.baseline.removed(self.pieces)}
            return {"game": self.game_name, "version": self.version, "stale": self.stale,
                    "pieces": [view.summary() for view in self.pieces.values()],
                    "diagnostics": list(self.diagnostics) + self.proof_diagnostics, "faces_drawn": self.faces_drawn,
                    "since": since,
                    "proof": {"unavailable": proof_unavailable(), "start": self.start_view == PROOF_VIEW}}

    def piece(self, key: str) -> dict | None:
        with self.lock:
            view = self.pieces.get(key)
            return view.summary() if view is not None else None

    def image(self, key: str, view: str | None = None) -> bytes | None:
        """A face's picture; with `view` (access/vision.py: protan, deutan, tritan, grey), as that
        viewer or a black-and-white printer sees it; with PROOF_VIEW, as the print shop prints it."""
        if view == PROOF_VIEW:
            return self.proof(key)
        with self.lock:
            image = self.images.get(key)
        return self.as_seen(key, image, view)

    def proof(self, key: str) -> bytes | None:
        """A face as the print shop prints it: the soft proof of `render --color cmyk --proof`
        (output/softproof.py), made for every face in one batch (one drawing, one conversion, one
        Ghostscript run) when a face whose picture changed is asked for, and kept with its picture
        like the other views.  None when it cannot be made (no Ghostscript, or errors: those
        are in proof_diagnostics)."""
        with self._proofs:
            with self.lock:
                image, prep = self.images.get(key), self.prep
                if image is None or prep is None:
                    return None
                kept = self._seen.get((key, PROOF_VIEW))
                if kept is not None and kept[0] is image:
                    return kept[1]
                # Every face again, not only those that changed: the colour-shift warnings are about
                # the whole game's colours, and one batch costs little more than a few faces.
                wanted = dict(self.images)
                sides = {k: self.pieces[k].side for k in wanted if k in self.pieces}
            proofs, said = self._soft_proofs(prep, sides)
            with self.lock:
                for k, picture in wanted.items():
                    self._seen[(k, PROOF_VIEW)] = (picture, proofs.get(k))
                if said != self.proof_diagnostics:
                    self.proof_diagnostics, self.proof_said = said, self.proof_said + 1
                return proofs.get(key)

    def _soft_proofs(self, prep: Prepared, sides: dict[str, str]) -> tuple[dict[str, bytes], list[dict]]:
        """The soft proof of each face (key -> its side) and what making it said."""
        from ..output.printcolor import settings
        from ..output.softproof import soft_proof
        if proof_unavailable() is not None:
            return {}, []
        report = Report()
        color = settings(prep.game, report)
        faces = _faces(prep, sides)
        keys, pictures = list(faces), []
        try:
            if color is not None and faces:
                pictures = soft_proof(prep, list(faces.values()), report, self.dpi, True, color)
        except Exception as exc:  # noqa: BLE001 - Ghostscript failing, or a bug: the preview goes on, saying so
            report.error("E-INTERNAL", f"the soft proof failed: {type(exc).__name__}: {exc}", None,
                         help="the faces are shown as drawn; if Ghostscript works from a shell, "
                              "this is a bug in cardforge")
        said = [self._diagnostic(d) for d in report.items]
        return (dict(zip(keys, pictures)) if len(pictures) == len(keys) else {}), said

    def as_seen(self, key: str, image: bytes | None, view: str | None) -> bytes | None:
        """`image` as `view` sees it, simulated once per picture (a face's next version is a new
        picture) and kept while the picture is current."""
        if image is None or view is None:
            return image
        from ..access.vision import simulate_png  # numpy: only once a view is asked for
        with self.lock:
            kept = self._seen.get((key, view))
        if kept is not None and kept[0] is image:
            return kept[1]
        seen = simulate_png(image, view)
        with self.lock:
            if len(self._seen) > 4 * max(len(self.images), 64):  # faces removed or redrawn: forget the old
                self._seen = {k: v for k, v in self._seen.items() if v[0] is self.images.get(k[0])}
            self._seen[(key, view)] = (image, seen)
        return seen


def proof_unavailable() -> str | None:
    """Why the preview cannot show the soft proof, or None when it can."""
    from ..output.softproof import NEEDS_GHOSTSCRIPT, ghostscript_missing
    return NEEDS_GHOSTSCRIPT if ghostscript_missing() else None


def _faces(prep: Prepared, sides: dict[str, str]) -> dict[str, Face]:
    """The Face of each view key ("card/<id>/<side>" or "board/<id>") that `prep` still has."""
    pieces = {f"card/{c.id}": c for c in prep.game.cards()} | {f"board/{b.id}": b for b in prep.game.boards}
    found = {}
    for key, side in sides.items():
        piece = pieces.get(key.rsplit("/", 1)[0] if key.startswith("card/") else key)
        if piece is not None:
            found[key] = Face(piece, side)
    return found


def _face_of(diag: Diagnostic, views: dict[str, PieceView]) -> str | None:
    """The key of the face a diagnostic is about: the side it names, else the piece's first face
    (a card's data is about its front); None for one about no piece."""
    if not diag.card:
        return None
    for key in ((f"card/{diag.card}/{diag.side}",) if diag.side else ()) + \
               (f"card/{diag.card}/front", f"card/{diag.card}/back", f"board/{diag.card}"):
        if key in views:
            return key
    return None


def _plain(data: Any) -> Any:
    """Card data as JSON can carry it."""
    return json.loads(json.dumps(data, default=str))


def _digest(parts: Any) -> str:
    return hashlib.sha1(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()


_file_digests: dict[tuple, str] = {}


def _file_digest(path: Path) -> str:
    try:
        st = Path(path).stat()
    except OSError:
        return "missing"
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _file_digests:
        if len(_file_digests) > 4096:
            _file_digests.clear()
        _file_digests[key] = hashlib.sha1(Path(path).read_bytes()).hexdigest()
    return _file_digests[key]


def _files_digest(folder: Path) -> str:
    if not folder.is_dir():
        return ""
    return _digest([(p.name, _file_digest(p)) for p in sorted(folder.iterdir()) if p.is_file()])
