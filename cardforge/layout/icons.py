"""Icons: SVG files from the game's (and layouts') icons/ folders plus a few built-in shapes.

Each icon is parsed once per process (svglib turns SVG into a reportlab drawing)
and drawn once per PDF into a form XObject; every later use of the icon is a
reference to that form, which keeps PDFs small and rendering fast.  Icons are
single-colour: `currentColor` in the SVG takes the colour asked for.
"""
from __future__ import annotations

import difflib
import io
import json
import math
import pickle
import re
from functools import lru_cache
from pathlib import Path


from .. import diskcache
from ..diagnostics import Position
from ..limits import MAX_SVG_BYTES, MAX_SVG_ELEMENTS, NotAFile, read_bounded
from ..lazy import lazy_module
from .facecode import asked_versions, icon_mark, pdf_feature, recording

rl_accel = lazy_module("reportlab.lib.rl_accel")  # reportlab's number format, when an icon is drawn


@lru_cache(maxsize=None)
def _svg_tools():
    """lxml, svglib and reportlab's drawing renderer, imported at the first icon drawn: a game
    without icons (and `check` of a game whose icons are cached, iconcache.py) never loads them."""
    import logging  # here, not at the top: `check` of cached icons loads no logging either
    from lxml import etree
    from reportlab.graphics import renderPDF
    from svglib.svglib import svg2rlg
    logging.getLogger("svglib").setLevel(logging.ERROR)
    embedded_drawing_font()
    return etree, renderPDF, svg2rlg


def embedded_drawing_font() -> None:
    """reportlab's drawing renderer selects a default font (Helvetica, never embedded) even for
    drawings without text; point it at our embedded sans so no unembedded font reaches the PDF.
    It must be registered by then: a check whose fonts' glyphs come from the disk cache registers
    no font until something is drawn."""
    from reportlab.graphics.renderbase import STATE_DEFAULTS
    from .fonts import builtin_fonts
    STATE_DEFAULTS["fontName"] = builtin_fonts().family("sans").face("regular")

_PIPS = {
    1: [(50, 50)], 2: [(28, 28), (72, 72)], 3: [(26, 26), (50, 50), (74, 74)],
    4: [(28, 28), (72, 28), (28, 72), (72, 72)],
    5: [(26, 26), (74, 26), (50, 50), (26, 74), (74, 74)],
    6: [(28, 24), (72, 24), (28, 50), (72, 50), (28, 76), (72, 76)],
}


def _die(n: int) -> str:
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="9" fill="currentColor"/>' for x, y in _PIPS.get(n, []))
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            '<rect x="4" y="4" width="92" height="92" rx="16" fill="#ffffff" stroke="currentColor" stroke-width="7"/>'
            f'{pips}</svg>')


def _star(filled: bool) -> str:
    points = "50,4 61,38 97,38 68,59 79,94 50,72 21,94 32,59 3,38 39,38"
    fill = "currentColor" if filled else "none"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><polygon points="{points}" '
            f'fill="{fill}" stroke="currentColor" stroke-width="5" stroke-linejoin="round"/></svg>')


def _box(filled: bool) -> str:
    fill = "currentColor" if filled else "#ffffff"
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="6" y="6" width="88" height="88" '
            f'rx="10" fill="{fill}" stroke="currentColor" stroke-width="8"/></svg>')


def _dot() -> str:
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="30" fill="currentColor"/></svg>'


BUILTIN_ICONS: dict[str, str] = {f"d6-{n}": _die(n) for n in range(1, 7)}
BUILTIN_ICONS.update({"d6": _die(0), "star": _star(True), "star-empty": _star(False),
                      "box": _box(False), "box-filled": _box(True), "dot": _dot()})


def token_name(stem: str) -> str:
    """The name an icon file is drawn by in rich text (`:elder-sign:` for elder_sign.svg)."""
    return stem.lower().replace("_", "-").replace(" ", "-")


class IconLibrary:
    """Icon names -> SVG sources, searched in order: the library icons the game names (game.yaml
    `icons:`, layout/iconsets.py), the given folders, then the built-ins."""

    def __init__(self, folders: list[Path], library: dict | None = None):
        # name -> LibraryIcon, credited in the kit; a name whose icon is unknown (an error already
        # reported at game.yaml) is drawn as an empty box, and its uses are not reported again
        self.library = {name: icon for name, icon in (library or {}).items() if icon is not None}
        self.sources: dict[str, Path | str] = {name: icon.svg() if icon is not None else BUILTIN_ICONS["box"]
                                               for name, icon in (library or {}).items()}
        for folder in folders:
            if folder.is_dir():
                for path in sorted(folder.glob("*.svg")):
                    self.sources.setdefault(path.stem, path)
                    # elder_sign.svg is also the icon `elder-sign`, the form a :name: token takes
                    self.sources.setdefault(token_name(path.stem), path)
        for name, svg in BUILTIN_ICONS.items():
            self.sources.setdefault(name, svg)

    def __contains__(self, name: str) -> bool:
        return name in self.sources

    def suggest(self, name: str) -> str | None:
        guess = difflib.get_close_matches(name, list(self.sources), n=1, cutoff=0.6)
        return guess[0] if guess else None


_SVG = "{http://www.w3.org/2000/svg}"
_XLINK = "{http://www.w3.org/1999/xlink}href"


class IconError(Exception):
    """An icon file that cannot be used, reported at the file (and line) where it is wrong."""

    def __init__(self, source: Path | str, message: str, line: int = 1, col: int = 1, help: str | None = None):
        super().__init__(message)
        self.code, self.message = "E-ICON", message
        self.help = help or "open the icon in an SVG editor and save it again as plain SVG (UTF-8)"
        self.position = Position(source, max(line, 1), max(col, 1)) if isinstance(source, Path) else None


def _svg_text(source: Path | str) -> str:
    """An icon's SVG as text, refused with an IconError when it is not a usable SVG file."""
    if not isinstance(source, Path):
        return source
    try:
        raw = read_bounded(source, MAX_SVG_BYTES)
        if len(raw) > MAX_SVG_BYTES:
            raise IconError(source, f"icon file is larger than the limit of {MAX_SVG_BYTES // 1024} KB",
                            help="an icon is a small single-colour drawing; simplify it or export it again")
    except IsADirectoryError:
        raise IconError(source, "this icon is a folder, not an SVG file",
                        help="icons/ holds one .svg file per icon; rename or remove the folder") from None
    except NotAFile as exc:
        raise IconError(source, f"cannot read icon file: {exc.strerror}",
                        help="icons/ holds one .svg file per icon; put the SVG file itself there") from None
    except OSError as exc:
        raise IconError(source, f"cannot read icon file: {exc.strerror}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        hint = " (it is UTF-16)" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
        raise IconError(source, f"icon file is not UTF-8{hint} (byte {exc.start})",
                        help="save the SVG as UTF-8") from None


def _check_svg(source: Path | str, text: str) -> None:
    """Refuse what svglib would crash on or should never see: broken XML, entities, references
    to other files or URLs, a drawing without a size, too many elements."""
    etree = _svg_tools()[0]
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True)
    try:
        root = etree.fromstring(text.encode("utf-8"), parser)
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (1, 1)
        message = re.sub(r",? line \d+(, column \d+)?", "", (exc.msg or "syntax error").strip())
        raise IconError(source, f"icon is not well-formed XML: {message}", line, col) from None
    tree = root.getroottree()
    if tree.docinfo.internalDTD is not None or "<!ENTITY" in text:
        raise IconError(source, "icon declares a DOCTYPE or entities, which are refused (entity expansion, "
                        "external entities)", help="remove the <!DOCTYPE ...> block; icons need no entities")
    if root.tag not in (f"{_SVG}svg", "svg"):
        raise IconError(source, f"icon's root element is <{etree.QName(root).localname}>, not <svg>",
                        root.sourceline or 1)
    count = 0
    for element in root.iter():
        count += 1
        if count > MAX_SVG_ELEMENTS:
            raise IconError(source, f"icon has more than the limit of {MAX_SVG_ELEMENTS} elements",
                            element.sourceline or 1, help="simplify the drawing")
        if not isinstance(element.tag, str):
            continue
        if etree.QName(element).localname in ("text", "tspan", "textPath", "font", "font-face"):
            # svglib would look the font up on this computer (fc-match) and embed a system font file
            raise IconError(source, f"icon has text (<{etree.QName(element).localname}>), which would be drawn "
                            "with a font found on this computer", element.sourceline or 1,
                            help="convert the text to paths in your SVG editor (Inkscape: Path > Object to Path)")
        href = element.get(_XLINK) or element.get("href")
        if href is not None and not href.startswith("#") and not re.match(r"data:image/(png|jpe?g);base64,", href):
            raise IconError(source, f"icon refers to '{href[:60]}' outside itself; references to other files "
                            "and URLs are refused", element.sourceline or 1,
                            help="draw it inside the SVG, or refer to an element of the same file ('#id')")
        style = element.get("style") or (element.text if etree.QName(element).localname == "style" else "")
        if style and re.search(r"url\(\s*['\"]?(?!#)|@import", style):
            raise IconError(source, "icon's style refers to another file or URL, which is refused",
                            element.sourceline or 1)
    if root.get("viewBox") is None and (root.get("width") is None or root.get("height") is None):
        raise IconError(source, "icon has no size: its <svg> has neither a viewBox nor width and height",
                        root.sourceline or 1, help='add viewBox="0 0 W H" to the <svg> element')


_drawings: dict[tuple, object] = {}
PICTURE_FORM = "picture"  # the name of a picture's form XObject starts with this


def _stamp(source: Path | str) -> tuple | None:
    """The file's time and size (the preview server reloads an icon that was edited); None when it
    cannot be looked at (a symbolic-link loop, a dangling link): _svg_text then says why."""
    if not isinstance(source, Path):
        return ()
    try:
        st = source.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


_SVG_LIBRARIES = ("svglib", "reportlab", "lxml")


_form_codes: dict[tuple, tuple[float, float, tuple[list[str], list[str]] | None]] = {}
# What a form's operators may not name: the document's graphics states, fonts, forms and images.
_DOCUMENT_NAMES = re.compile(r" gs\b| Tf\b| Do\b|\bBI\b")


def _form_code(source: Path | str, color: str) -> tuple[float, float, tuple[list[str], list[str]] | None]:
    """The icon's size in `color`, and what drawing its form wrote where an earlier document (in this
    process, or a build before: the disk cache) drew it and it names nothing of that document: the PDF
    features it asked for, and its operators.  None where it is drawn with svglib and reportlab's
    renderer (a fifth of a kit's drawing, once per PDF)."""
    key = (str(source), color, _stamp(source))
    if key not in _form_codes:
        entry = None
        try:
            entry = json.loads(diskcache.get("icon-form", _cache_key(_svg_text(source), color)) or b"null")
            width, height = float(entry["size"][0]), float(entry["size"][1])
            code, versions = entry["code"], entry["versions"]
            if not (all(type(op) is str and not _DOCUMENT_NAMES.search(op) for op in code)
                    and all(pdf_feature(version) for version in versions)):
                raise ValueError("not a form's code")
            _form_codes[key] = (width, height, (versions, code))
        except (ValueError, TypeError, KeyError, IndexError):  # none stored, or damaged
            drawing = _drawing(source, color)
            _form_codes[key] = (drawing.width, drawing.height, None)
        except IconError:
            _drawing(source, color)  # raises the icon's own error
    return _form_codes[key]


def _add_form(canvas, name: str, width: float, height: float, code: tuple[list[str], list[str]]) -> None:
    """The form of an icon drawn before (_form_code), added to the document as reportlab's
    beginForm ... endForm would add it: those start the form from the default graphics state, with
    resources of its own, which for these operators are none."""
    from reportlab.pdfbase.pdfdoc import PDFFormXObject
    versions, operators = code
    if versions:
        canvas._doc.ensureMinPdfVersion(*versions)
    form = PDFFormXObject(lowerx=0, lowery=0, upperx=width, uppery=height)
    form.compression = canvas._pageCompression
    form.setStreamList([canvas._preamble] + operators)
    form._colorsUsed, form.ExtGState, form.XObjects, form.Annots = {}, None, None, []
    canvas._doc.addForm(name, form)


def _keep_form_code(source: Path | str, color: str, width: float, height: float, canvas,
                    versions: list[str]) -> None:
    """Keep the operators just drawn into a form (the canvas's code between beginForm and endForm)
    for the next document, unless they name something of this document or use its resources."""
    code = list(canvas._code)
    if canvas._formsinuse or canvas._colorsUsed or canvas._shadingUsed or canvas._annotationrefs or \
            any(_DOCUMENT_NAMES.search(op) for op in code):
        return
    _form_codes[(str(source), color, _stamp(source))] = (width, height, (versions, code))
    diskcache.put("icon-form", _cache_key(_svg_text(source), color),
                  json.dumps({"size": [width, height], "versions": versions, "code": code}).encode())


def _cache_key(text: str, color: str) -> bytes:
    """The disk cache's key of an icon in a colour (diskcache.py): its SVG and what parses it."""
    return diskcache.fingerprint(__file__, *_SVG_LIBRARIES) + color.encode() + b"\0" + text.encode("utf-8")


def _drawing(source: Path | str, color: str):
    """The icon as a reportlab drawing in `color`, or its IconError; parsed once per process, and
    unpickled from the disk cache when another process parsed the same SVG before."""
    key = (str(source), color, _stamp(source))
    if key not in _drawings:
        try:
            text = _svg_text(source)
            cache_key = _cache_key(text, color)
            cached = diskcache.get("icon-drawing", cache_key)
            try:
                drawing = pickle.loads(cached) if cached else None
            except Exception:  # a damaged entry is a miss
                drawing = None
            if drawing is None:
                drawing = _parse(source, text, color)
                diskcache.put("icon-drawing", cache_key, pickle.dumps(drawing, protocol=pickle.HIGHEST_PROTOCOL))
        except IconError as exc:
            drawing = exc
        _drawings[key] = drawing
    drawing = _drawings[key]
    if isinstance(drawing, IconError):
        raise drawing
    return drawing


_sizes: dict[tuple, tuple[float, float] | IconError] = {}


def icon_size(source: Path | str) -> tuple[float, float]:
    """The icon's width and height, or its IconError: all that `check` needs to know of an icon.
    From the disk cache when the same SVG was checked before, without loading svglib."""
    key = (str(source), _stamp(source))
    if key not in _sizes:
        try:
            text = _svg_text(source)
            cache_key = _cache_key(text, "size")
            try:
                entry = json.loads(diskcache.get("icon-size", cache_key) or b"null")
            except ValueError:
                entry = None
            if not isinstance(entry, dict):
                try:
                    drawing = _drawing(source, "#000000")
                    entry = {"size": [drawing.width, drawing.height]}
                except IconError as exc:
                    line, col = (exc.position.line, exc.position.col) if exc.position else (1, 1)
                    entry = {"error": exc.message, "line": line, "col": col, "help": exc.help}
                diskcache.put("icon-size", cache_key, json.dumps(entry).encode())
            if "error" in entry:
                raise IconError(source, entry["error"], entry["line"], entry["col"], entry["help"])
            _sizes[key] = (float(entry["size"][0]), float(entry["size"][1]))
        except IconError as exc:
            _sizes[key] = exc
    size = _sizes[key]
    if isinstance(size, IconError):
        raise size
    return size


def _parse(source: Path | str, text: str, color: str):
    """svglib's drawing of the SVG `text` in `color`, after the checks of _check_svg."""
    _check_svg(source, text)
    text = text.replace("currentColor", color)
    try:
        drawing = _svg_tools()[2](io.BytesIO(text.encode("utf-8")))
    except Exception as exc:  # svglib's errors on bad attribute values, e.g. a length '1q0'
        raise IconError(source, f"icon cannot be drawn: {exc}") from None
    if drawing is None:
        raise IconError(source, "icon cannot be read as SVG")
    if not all(math.isfinite(v) and v > 0 for v in (drawing.width, drawing.height)):
        raise IconError(source, f"icon has no usable size ({drawing.width} x {drawing.height})",
                        help='give the <svg> element a viewBox="0 0 W H" with W and H above 0')
    _try_drawing(source, drawing)
    return drawing


def _try_drawing(source: Path | str, drawing) -> None:
    """Draw the icon once on a scratch canvas: reportlab refuses numbers beyond 1e307 (`width='1e308'`,
    a path through 1e300) only when it writes them, which must not happen in the middle of a build."""
    from reportlab.pdfgen.canvas import Canvas
    scratch = Canvas(io.BytesIO())
    try:
        rl_accel.fp_str(drawing.width, drawing.height)  # the form's box, written when the PDF is saved
        scratch.beginForm("probe", 0, 0, drawing.width, drawing.height)
        _svg_tools()[1].draw(drawing, scratch, 0, 0)
        scratch.endForm()
        scratch.doForm("probe")
    except Exception as exc:  # noqa: BLE001 - reportlab's errors on values it cannot write
        said = str(exc).splitlines()[-1][:200]
        if "number too large" in said:
            said = f"a number in it is too large to write into a PDF ({said.split()[-1]})"
        raise IconError(source, f"icon cannot be drawn: {said}",
                        help="keep the icon's sizes and coordinates to ordinary numbers") from None


class IconPainter:
    """Draws icons on one canvas, each (icon, colour) pair stored once as a form."""

    def __init__(self, canvas, library: IconLibrary):
        self.canvas, self.library = canvas, library
        self.forms: dict[tuple[str, str], tuple[str, float, float]] = {}
        # On a measuring canvas (`check`) an icon is read once to prove it loads, in any colour.
        self.measuring = getattr(canvas, "measuring", False) is True

    def _form(self, name: str, color: str, source: Path | None = None) -> tuple[str, float, float]:
        if self.measuring:
            color = "#000000"
        key = (name, color)
        if key not in self.forms and self.measuring:
            self.forms[key] = ("", *icon_size(source if source is not None else self.library.sources[name]))
        if key not in self.forms:
            svg = source if source is not None else self.library.sources[name]
            width, height, code = _form_code(svg, color)
            # A picture (an SVG image frame) is no icon: the verifier counts only the icons.
            form = f"{PICTURE_FORM if source is not None else 'icon'}{len(self.forms)}"
            c = self.canvas
            if code is not None:
                _add_form(c, form, width, height, code)
            else:
                c.beginForm(form, 0, 0, width, height)
                asked = asked_versions(c)
                before = len(asked) if asked is not None else 0
                _svg_tools()[1].draw(_drawing(svg, color), c, 0, 0)
                if asked is not None:
                    _keep_form_code(svg, color, width, height, c, sorted(set(asked[before:])))
                c.endForm()
            self.forms[key] = (form, width, height)
        return self.forms[key]

    def draw(self, name: str, x: float, y: float, width: float, height: float, color: str = "#000000",
             fit: str = "contain", source: Path | None = None) -> None:
        """Draw icon `name` into the box with lower-left (x, y), centred: `contain` fits it whole with
        its aspect kept, `cover` fills the box (clipped to it), `stretch` fills it exactly.  `source`
        is an SVG file drawn as a picture (an image frame), with the same checks as an icon."""
        code = recording(self.canvas) if fit == "contain" and not self.measuring else None
        if code is not None:  # a face being drawn: the form is named when the face is placed (facecode.py)
            form, (w, h, _) = None, _form_code(source if source is not None else self.library.sources[name], color)
        else:
            form, w, h = self._form(name, color, source)
        if self.measuring:
            return
        if fit != "contain":  # a picture that fills its frame: rare, drawn the plain way
            self._draw_filling(form, w, h, x, y, width, height, fit)
            return
        scale = min(width / w, height / h)
        # What saveState, translate, scale, doForm and restoreState write, without their bookkeeping
        # of the canvas's state (which q ... Q leaves as it was): thousands of icons per kit.
        # The same bytes: reportlab merges the two matrices into one `cm` from the translation as
        # written (fp_str), and q ... Q leaves the canvas's state as it was.
        c = self.canvas
        e, f = map(float, rl_accel.fp_str(x + (width - w * scale) / 2, y + (height - h * scale) / 2).split())
        place = icon_mark(code, name, color, source) if code is not None else f"/{c._doc.getXObjectName(form)} Do"
        c._code += ["q", f"{rl_accel.fp_str(scale, 0, 0, scale, e, f)} cm", place, "Q"]
        if code is None:
            c._formsinuse.append(form)

    def form(self, name: str, color: str, source: Path | None = None) -> str:
        """The name of the icon's form in this document, made where it is first placed."""
        return self._form(name, color, source)[0]

    def _draw_filling(self, form: str, w: float, h: float, x: float, y: float, width: float, height: float,
                      fit: str) -> None:
        """A form scaled to fill the box: `stretch` exactly, `cover` with its aspect kept, clipped."""
        c = self.canvas
        c.saveState()
        if fit == "stretch":
            sx, sy = width / w, height / h
        else:
            sx = sy = max(width / w, height / h)
            box = c.beginPath()
            box.rect(x, y, width, height)
            c.clipPath(box, stroke=0, fill=0)
        c.translate(x + (width - w * sx) / 2, y + (height - h * sy) / 2)
        c.scale(sx, sy)
        c.doForm(form)
        c.restoreState()
