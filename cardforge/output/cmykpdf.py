"""A drawn PDF rewritten in CMYK for a print shop (`build --target printshop --color cmyk`).

The faces are drawn in sRGB; the verified PDF is rewritten operator by operator by `to_cmyk`,
every colour through the one mapper of output/printcolor.py: vector colours, pictures (flattened
onto what lies under them, then converted) and what is translucent (composited onto the colour
known to lie under it, else an error at its frame: the page is never flattened into a picture).
The PDF/X parts are added by output/pdfx.py; faults are named at their frames (output/printplaces.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .pdfx import add_pdfx, save
from .printcolor import INK_TOLERANCE, MIN_LINE, RICH_BLACK_SIDE, Mapper, PrintColor, mapper, u8
from .printplaces import Locator, Place


# --- the content stream rewriter --------------------------------------------------------------

IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
UNKNOWN = "unknown"  # a backdrop that cannot be known
FILL_OPS = {"f", "F", "f*", "B", "B*", "b", "b*"}
STROKE_OPS = {"S", "s", "B", "B*", "b", "b*"}
PATH_END = FILL_OPS | STROKE_OPS | {"n"}
TEXT_SHOW = {"Tj", "TJ", "'", '"'}
RGB_OPS = {"rg", "RG", "g", "G"}


def _mul(a: tuple, b: tuple) -> tuple:
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply_m(m: tuple, x: float, y: float) -> tuple[float, float]:
    return (x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5])


def _bbox(points: Iterable[tuple[float, float]]) -> tuple | None:
    xs, ys = [], []
    for x, y in points:
        xs.append(x)
        ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def _intersects(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(polygons: list[list[tuple]], x: float, y: float) -> bool:
    """Even-odd rule over the path's subpaths."""
    inside = False
    for poly in polygons:
        n = len(poly)
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def _covers(polygons: list[list[tuple]], box: tuple) -> bool:
    x0, y0, x1, y1 = box
    probes = [(x0, y0), (x1, y0), (x0, y1), (x1, y1), ((x0 + x1) / 2, y0), ((x0 + x1) / 2, y1),
              (x0, (y0 + y1) / 2), (x1, (y0 + y1) / 2), ((x0 + x1) / 2, (y0 + y1) / 2)]
    return all(_inside(polygons, x, y) for x, y in probes)


@dataclass
class Painted:
    """Something drawn on the page, for what lies under a later translucent thing: a solid fill
    knows its shape and colour; anything else only its box."""
    box: tuple
    polygons: list | None = None
    colour: tuple | None = None  # ("rgb", (r, g, b)) or ("cmyk", (c, m, y, k)), as printed


@dataclass
class State:
    ctm: tuple = IDENTITY
    fill: tuple = ("rgb", (0.0, 0.0, 0.0))
    stroke: tuple = ("rgb", (0.0, 0.0, 0.0))
    ca: float = 1.0
    CA: float = 1.0
    line_width: float = 1.0
    render: int = 0  # text rendering mode
    font: Any = None
    size: float = 0.0
    leading: float = 0.0
    written_fill: tuple | None = None  # the CMYK operator in force in the output
    written_stroke: tuple | None = None

    def copy(self) -> "State":
        return State(**self.__dict__)


@dataclass
class Fault:
    code: str
    message: str
    place: Place
    key: str | tuple = "fill"  # the frame's key that gives it (the first it has of several), for the layout line
    help: str | None = None
    severity: str = "error"


@dataclass
class Conversion:
    """What converting one PDF found: faults, the colours used (for the soft proof's warnings),
    and the lowest picture resolution."""
    faults: list[Fault] = field(default_factory=list)
    colours: dict[tuple, set] = field(default_factory=dict)  # sRGB (0..255) -> the places that use it
    lowest_ppi: float | None = None
    _seen: set = field(default_factory=set)

    def fault(self, code: str, message: str, place: Place, key: str | tuple = "fill", help: str | None = None,
              severity: str | None = None) -> None:
        """Record a fault (an E- code is an error, a W- code a warning)."""
        fault = Fault(code, message, place, key, help, severity or ("warning" if code.startswith("W-") else "error"))
        mark = (fault.code, fault.message, str(fault.place.layout), fault.place.frame)
        if mark not in self._seen:  # copies of a card, and a deck's shared back: said once
            self._seen.add(mark)
            self.faults.append(fault)


def _fmt(values: Iterable[float]) -> list:
    from decimal import Decimal
    return [Decimal(f"{v:.4f}").normalize() if round(v, 4) else Decimal(0) for v in values]


class _Rewriter:
    """One content stream (a page's or a form's) rewritten in CMYK."""

    def __init__(self, job: "_Job", resources, page: int, backdrop, state: State):
        self.job, self.resources, self.page = job, resources, page
        self.backdrop = backdrop  # what lies under everything drawn here: a colour, or UNKNOWN
        self.state = state
        self.painted: list[Painted] = []
        self.used_backdrop = False
        self.thickened = False  # a hairline was drawn thicker: the result depends on the scale

    # -- what lies under a box
    def under(self, box: tuple):
        for item in reversed(self.painted):
            if not _intersects(item.box, box):
                continue
            if item.polygons is not None and item.colour is not None and _covers(item.polygons, box):
                return item.colour
            return UNKNOWN
        self.used_backdrop = True
        return self.backdrop

    def place(self, box) -> Place:
        return self.job.locator.at(self.page, box)

    # -- colours
    def target(self, colour: tuple, alpha: float, box: tuple | None, use: str, key: str) -> tuple | None:
        """The CMYK that prints `colour` drawn at `alpha` over the box (None: refused, said)."""
        job = self.job
        if alpha < 1.0:
            under = self.under(box) if box is not None else UNKNOWN
            if under is UNKNOWN:
                job.result.fault("E-PRINT-TRANSPARENCY", f"translucent ({alpha:g}) over something whose colour "
                                 "is not known (a picture, an icon, text, or a fill that covers it only in part)",
                                 self.place(box), ("opacity", key),
                                 help="PDF/X-1a has no transparency: draw it over a solid fill that covers it, "
                                      "or give it a solid colour")
                return None
            colour = _composite(colour, alpha, under, job.mapper)
        if colour[0] == "cmyk":
            ink = sum(colour[1]) * 100
            if ink > job.color.ink_limit + INK_TOLERANCE:
                job.result.fault("E-PRINT-INK", f"CMYK {'/'.join(f'{v * 100:g}' for v in colour[1])} is "
                                 f"{ink:.0f}% of ink, over the limit of {job.color.ink_limit:g}%",
                                 self.place(box), key, help="lower its C, M, Y or K")
            return colour[1]
        rgb = colour[1]
        if use == "area" and u8(rgb[0]) == u8(rgb[1]) == u8(rgb[2]) == 0:
            return job.mapper.rich_black
        job.note_colour(rgb, self.place(box))
        return job.mapper.cmyk(rgb)

    def set(self, out: list, fill: tuple | None, stroke: tuple | None) -> None:
        import pikepdf
        st = self.state
        if fill is not None and fill != st.written_fill:
            out.append((_fmt(fill), pikepdf.Operator("k")))
            st.written_fill = fill
        if stroke is not None and stroke != st.written_stroke:
            out.append((_fmt(stroke), pikepdf.Operator("K")))
            st.written_stroke = stroke

    # -- the stream
    def rewrite(self, instructions) -> list:
        import pikepdf
        out: list = []
        stack: list[State] = []
        path: list[list[tuple]] = []
        current: list[tuple] = []
        tm = tlm = IDENTITY
        text_items: list[tuple] = []
        for inst in instructions:
            if isinstance(inst, pikepdf.ContentStreamInlineImage):
                self.job.result.fault("E-PRINT-COLOUR", "an inline picture, which cardforge cannot convert",
                                      self.place(None), "src")
                continue
            operands, op = list(inst.operands), str(inst.operator)
            st = self.state
            if op == "q":
                stack.append(st.copy())
            elif op == "Q":
                if stack:
                    self.state = stack.pop()
            elif op == "cm":
                st.ctm = _mul(tuple(float(v) for v in operands), st.ctm)
            elif op in RGB_OPS:
                values = tuple(float(v) for v in operands)
                colour = ("rgb", values if len(values) == 3 else values * 3)
                if op in ("rg", "g"):
                    st.fill = colour
                else:
                    st.stroke = colour
                continue  # written where it paints (its use decides its CMYK)
            elif op in ("k", "K"):
                colour = ("cmyk", tuple(float(v) for v in operands))
                if op == "k":
                    st.fill = colour
                else:
                    st.stroke = colour
                continue
            elif op in ("cs", "CS", "sc", "SC", "scn", "SCN"):
                self.job.result.fault("E-PRINT-COLOUR", f"a colour in a colour space cardforge cannot convert "
                                      f"({op} {' '.join(str(v) for v in operands)})", self.place(None))
                continue
            elif op == "sh":
                self.job.result.fault("E-PRINT-COLOUR", "a shading (gradient), which cardforge cannot convert",
                                      self.place(None))
                continue
            elif op == "w":
                st.line_width = float(operands[0])
            elif op == "gs":
                self._graphics_state(str(operands[0]), st)
            elif op in ("m", "l", "c", "v", "y", "re", "h"):
                current = self._path_op(op, [float(v) for v in operands], st.ctm, path, current)
            elif op in PATH_END:
                if current:
                    path.append(current)
                restore = self._paint(op, path, out)
                path, current = [], []
                if restore is not None:  # a hairline drawn thicker: the width in force again after it
                    out.append((operands, inst.operator))
                    out.append(([_fmt([restore])[0]], pikepdf.Operator("w")))
                    continue
            elif op == "BT":
                tm = tlm = IDENTITY
            elif op == "Tf":
                st.font, st.size = self._font(str(operands[0])), float(operands[1])
            elif op == "TL":
                st.leading = float(operands[0])
            elif op == "Tr":
                st.render = int(operands[0])
            elif op == "Tm":
                tm = tlm = tuple(float(v) for v in operands)
            elif op in ("Td", "TD"):
                tx, ty = float(operands[0]), float(operands[1])
                if op == "TD":
                    st.leading = -ty
                tm = tlm = _mul((1, 0, 0, 1, tx, ty), tlm)
            elif op == "T*":
                tm = tlm = _mul((1, 0, 0, 1, 0, -st.leading), tlm)
            elif op in TEXT_SHOW:
                if op in ("'", '"'):
                    tm = tlm = _mul((1, 0, 0, 1, 0, -st.leading), tlm)
                tm = self._show(operands[-1], tm, out)
            elif op == "Do":
                name = str(operands[0])
                replacement = self._do(name, out)
                if replacement is not None:
                    operands = [pikepdf.Name(replacement)]
            out.append((operands, inst.operator))
        return out

    def _graphics_state(self, name: str, st: State) -> None:
        gs = self.resources.get("/ExtGState", {}).get(name) if self.resources is not None else None
        if gs is None:
            return
        if "/ca" in gs:
            st.ca = float(gs.ca)
        if "/CA" in gs:
            st.CA = float(gs.CA)
        smask = gs.get("/SMask")
        if smask is not None and str(smask) != "/None":
            self.job.result.fault("E-PRINT-TRANSPARENCY", "a soft mask, which PDF/X-1a does not allow",
                                  self.place(None), "opacity")
        blend = gs.get("/BM")
        if blend is not None and str(blend) not in ("/Normal", "/Compatible"):
            self.job.result.fault("E-PRINT-TRANSPARENCY", f"blend mode {blend}, which PDF/X-1a does not allow",
                                  self.place(None), "opacity")
        self.job.states_to_clear.append(gs)

    @staticmethod
    def _path_op(op: str, v: list[float], ctm: tuple, path: list, current: list) -> list:
        if op == "m":
            if current:
                path.append(current)
            return [_apply_m(ctm, v[0], v[1])]
        if op == "re":
            if current:
                path.append(current)
            x, y, w, h = v
            path.append([_apply_m(ctm, px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))])
            return []
        if op == "h":
            return current
        if not current:
            current = [_apply_m(ctm, 0, 0)]
        if op == "l":
            current.append(_apply_m(ctm, v[0], v[1]))
        else:  # curves, flattened: containment only needs their shape to within a fraction of a point
            start = current[-1]
            if op == "c":
                p1, p2, p3 = _apply_m(ctm, v[0], v[1]), _apply_m(ctm, v[2], v[3]), _apply_m(ctm, v[4], v[5])
            elif op == "v":
                p1, p2, p3 = start, _apply_m(ctm, v[0], v[1]), _apply_m(ctm, v[2], v[3])
            else:
                p1, p2, p3 = _apply_m(ctm, v[0], v[1]), _apply_m(ctm, v[2], v[3]), _apply_m(ctm, v[2], v[3])
            for i in range(1, 9):
                t = i / 8
                a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
                current.append((a * start[0] + b * p1[0] + c * p2[0] + d * p3[0],
                                a * start[1] + b * p1[1] + c * p2[1] + d * p3[1]))
        return current

    def _paint(self, op: str, path: list, out: list) -> float | None:
        """Write the colours a path paints with.  Returns the line width to set again after it
        where a hairline was drawn at MIN_LINE instead."""
        import pikepdf
        st = self.state
        box = _bbox(p for poly in path for p in poly)
        if box is None or op == "n":
            return None
        fill = stroke = restore = None
        fill_colour = None
        if op in FILL_OPS:
            area = "area" if min(box[2] - box[0], box[3] - box[1]) >= RICH_BLACK_SIDE else "line"
            fill = self.target(st.fill, st.ca, box, area, "fill")
            fill_colour = st.fill if st.ca >= 1.0 else (_composite(st.fill, st.ca, self.under(box), self.job.mapper)
                                                         if fill is not None else None)
        if op in STROKE_OPS:
            scale = math.sqrt(abs(st.ctm[0] * st.ctm[3] - st.ctm[1] * st.ctm[2]))
            if st.line_width * scale < MIN_LINE - 1e-6 and scale > 0:
                self.job.result.fault("W-PRINT-LINE", f"a line {st.line_width * scale:.2f} pt wide is drawn "
                                      f"{MIN_LINE} pt wide: a press loses thinner lines", self.place(box),
                                      "stroke_width", help=f"draw it at least {MIN_LINE} pt wide",
                                      severity="warning")
                restore = st.line_width
                self.thickened = True
                out.append(([_fmt([math.ceil(MIN_LINE / scale * 10_000) / 10_000])[0]], pikepdf.Operator("w")))
            grow = max(st.line_width * scale, MIN_LINE) / 2
            stroke_box = (box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow)
            if st.CA < 1.0 and fill_colour is not None and fill_colour[0] == "rgb" and st.ca >= 1.0:
                # A translucent outline of a filled shape: its line lies on the shape's own edge, and is
                # composited onto the shape's fill (the outer half of its width lies beyond).
                stroke = self._over(st.stroke, st.CA, fill_colour, stroke_box)
            else:
                stroke = self.target(st.stroke, st.CA, stroke_box, "line", "stroke")
            box = stroke_box
        self.set(out, fill, stroke)
        solid = op in FILL_OPS and op not in STROKE_OPS and fill_colour is not None and fill_colour != UNKNOWN
        self.painted.append(Painted(box, path if solid else None, fill_colour if solid else None))
        return restore

    def _over(self, colour: tuple, alpha: float, under: tuple, box: tuple) -> tuple:
        mixed = _composite(colour, alpha, under, self.job.mapper)
        if mixed[0] == "cmyk":
            return mixed[1]
        self.job.note_colour(mixed[1], self.place(box))
        return self.job.mapper.cmyk(mixed[1])

    def _font(self, name: str):
        fonts = self.resources.get("/Font", {}) if self.resources is not None else {}
        font = fonts.get(name)
        if font is None:
            return None
        key = font.objgen if font.is_indirect else id(font)
        widths = self.job.font_widths.get(key)
        if widths is None:
            first = int(font.get("/FirstChar", 0))
            widths = {first + i: float(w) for i, w in enumerate(font.get("/Widths", []))}
            self.job.font_widths[key] = widths
        return widths

    def _show(self, operand, tm: tuple, out: list) -> tuple:
        import pikepdf
        st = self.state
        parts = list(operand) if isinstance(operand, pikepdf.Array) else [operand]
        width = 0.0
        for part in parts:
            if isinstance(part, pikepdf.String):
                for code in bytes(part):
                    width += (st.font.get(code, 600.0) if st.font else 600.0) / 1000 * st.size
            else:
                width -= float(part) / 1000 * st.size
        m = _mul(tm, st.ctm)
        box = _bbox(_apply_m(m, x, y) for x, y in ((0, -0.3 * st.size), (width, -0.3 * st.size),
                                                  (0, st.size), (width, st.size)))
        fill = stroke = None
        if st.render in (0, 2, 4, 6):
            fill = self.target(st.fill, st.ca, box, "text", "color")
        if st.render in (1, 2, 5, 6):
            stroke = self.target(st.stroke, st.CA, box, "text", "color")
        self.set(out, fill, stroke)
        self.painted.append(Painted(box))
        return _mul((1, 0, 0, 1, width, 0), tm)

    def _do(self, name: str, out: list) -> str | None:
        xobjects = self.resources.get("/XObject", {}) if self.resources is not None else {}
        xobject = xobjects.get(name)
        if xobject is None:
            return None
        st = self.state
        if xobject.get("/Subtype") == "/Image":
            box = _bbox(_apply_m(st.ctm, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1)))
            new = self.job.image(xobject, name, box, self, st.ca)
            self.painted.append(Painted(box))
            if new is None:
                return None
            new_name, stream = new
            xobjects[new_name] = stream
            self.job.replaced.append((xobjects, name))
            return new_name
        if xobject.get("/Subtype") == "/Form":
            matrix = tuple(float(v) for v in xobject.get("/Matrix", IDENTITY))
            bbox = [float(v) for v in xobject.BBox]
            m = _mul(matrix, st.ctm)
            box = _bbox(_apply_m(m, x, y) for x, y in ((bbox[0], bbox[1]), (bbox[2], bbox[1]),
                                                       (bbox[0], bbox[3]), (bbox[2], bbox[3])))
            renamed = self.job.form(xobject, name, xobjects, self, box, m)
            self.painted.append(Painted(box))
            # The form wrote its own colours: what is in force after it is not known.
            st.written_fill = st.written_stroke = None
            return renamed
        return None


def _composite(colour: tuple, alpha: float, under: tuple, mapper: Mapper) -> tuple:
    """`colour` at `alpha` over `under`, as PDF blends it (Normal, in the colour's own space)."""
    if colour[0] == "rgb" and under[0] == "rgb":
        return ("rgb", tuple(alpha * a + (1 - alpha) * b for a, b in zip(colour[1], under[1])))
    top = colour[1] if colour[0] == "cmyk" else mapper.cmyk(colour[1])
    bottom = under[1] if under[0] == "cmyk" else mapper.cmyk(under[1])
    return ("cmyk", tuple(round(alpha * a + (1 - alpha) * b, 4) for a, b in zip(top, bottom)))


class _Job:
    """One PDF put through the mapper."""

    def __init__(self, pdf, color: PrintColor, locator: Locator):
        self.pdf, self.color, self.locator = pdf, color, locator
        self.mapper = mapper(color)
        self.result = Conversion()
        self.font_widths: dict = {}
        self.forms: dict[tuple, list] = {}  # form -> its converted variants (under, scale, stream)
        self.originals: dict[tuple, bytes] = {}  # form -> its operators as drawn
        self.images: dict[tuple, Any] = {}  # (picture, what lies under it, alpha) -> (name, converted)
        self.replaced: list[tuple] = []  # (resources, name) of pictures no longer drawn
        self.states_to_clear: list = []

    def note_colour(self, rgb: tuple, place: Place) -> None:
        key = tuple(u8(v) for v in rgb)
        self.result.colours.setdefault(key, set()).add(place)

    def form(self, xobject, name: str, xobjects, parent: _Rewriter, box: tuple, matrix: tuple) -> str | None:
        """A form placed by `parent`: converted once, or once more for each colour under it where
        what it draws is translucent, and for each scale where it drew a hairline thicker.  Returns
        the name its converted copy is placed by, where that is not its own."""
        import pikepdf
        under = parent.under(box)
        scale = math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))
        key = xobject.objgen
        original = self.originals.setdefault(key, xobject.read_bytes())  # variants start from what was drawn
        variants = self.forms.setdefault(key, [])
        for index, (v_under, v_scale, converted) in enumerate(variants):
            if (v_under is None or v_under == repr(under)) and (v_scale is None or abs(v_scale - scale) < 1e-4):
                return self._variant_name(name, index, xobjects, converted, xobject)
        state = State(ctm=matrix, written_fill=None, written_stroke=None)
        rewriter = _Rewriter(self, xobject.get("/Resources"), parent.page, under, state)
        out = rewriter.rewrite(pikepdf.parse_content_stream(pikepdf.Stream(self.pdf, original)))
        data = pikepdf.unparse_content_stream(out)
        if not variants:
            xobject.write(data)
            converted = xobject
        else:
            converted = self.pdf.make_stream(data, {k: v for k, v in xobject.items()
                                                    if k not in ("/Length", "/Filter", "/DecodeParms")})
        variants.append((repr(under) if rewriter.used_backdrop else None, scale if rewriter.thickened else None,
                         converted))
        return self._variant_name(name, len(variants) - 1, xobjects, converted, xobject)

    @staticmethod
    def _variant_name(name: str, index: int, xobjects, converted, xobject) -> str | None:
        if converted.objgen == xobject.objgen:
            return None
        new_name = f"{name}.v{index}"
        xobjects[new_name] = converted
        return new_name

    def image(self, xobject, name: str, box: tuple, parent: _Rewriter, alpha: float):
        """A picture as CMYK, flattened onto what lies under it: (its name, its stream), or None
        when it stays as it is."""
        import pikepdf
        from PIL import Image
        from pikepdf import PdfImage
        place = parent.place(box)
        width_in = (box[2] - box[0]) / 72
        ppi = int(xobject.Width) / width_in if width_in > 0 else math.inf
        if self.result.lowest_ppi is None or ppi < self.result.lowest_ppi:
            self.result.lowest_ppi = ppi
        if ppi < 299.5:
            self.result.fault("W-PRINT-RESOLUTION", f"its picture is {ppi:.0f} ppi at its printed size "
                              f"({int(xobject.Width)} px over {width_in * 25.4:.1f} mm)", place, "src",
                              help="print shops ask for 300 ppi: use a picture with more pixels",
                              severity="warning")
        space = xobject.get("/ColorSpace")
        masked = "/SMask" in xobject or "/Mask" in xobject
        if space == "/DeviceCMYK" and not masked and alpha >= 1:
            return None
        under = ("rgb", (1.0, 1.0, 1.0))
        if masked or alpha < 1:
            under = parent.under(box)
            if under is UNKNOWN:
                self.result.fault("E-PRINT-TRANSPARENCY", "its picture has transparent pixels over something "
                                  "whose colour is not known", place, "src",
                                  help="PDF/X-1a has no transparency: save the picture without alpha, or draw "
                                       "it over a solid fill that covers it")
                return None
        key = (xobject.objgen, repr(under), alpha)
        if key in self.images:
            return self.images[key]
        picture = PdfImage(xobject).as_pil_image()
        if masked:
            mask = None
            if "/SMask" in xobject:
                mask = PdfImage(xobject.SMask).as_pil_image().convert("L")
            elif isinstance(xobject.get("/Mask"), pikepdf.Array):  # a colour key: those colours are clear
                ranges = [int(v) for v in xobject.Mask]
                rgb = picture.convert("RGB")
                mask = Image.new("L", rgb.size, 255)
                clear = [(x, y) for y in range(rgb.height) for x in range(rgb.width)
                         if all(ranges[2 * i] <= rgb.getpixel((x, y))[i] <= ranges[2 * i + 1] for i in range(3))]
                for xy in clear:
                    mask.putpixel(xy, 0)
            if mask is not None:
                if alpha < 1:
                    mask = mask.point(lambda v: round(v * alpha))
                picture = _flatten(picture, mask, under, self.mapper)
        elif alpha < 1:
            picture = _flatten(picture, Image.new("L", picture.size, round(alpha * 255)), under, self.mapper)
        if picture.mode != "CMYK":
            picture = self.mapper.image(picture)
        raw = picture.tobytes()
        import zlib
        new = self.pdf.make_stream(zlib.compress(raw, 6), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                                   Width=picture.width, Height=picture.height,
                                   ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8,
                                   Filter=pikepdf.Name.FlateDecode)
        self.images[key] = (f"{name}.cmyk{len(self.images)}", new)
        return self.images[key]


def _flatten(picture, mask, under: tuple, mapper: Mapper):
    """A picture with alpha composited onto a solid colour, in the colour's own space."""
    from PIL import Image
    if under[0] == "cmyk":
        base = Image.new("CMYK", picture.size, tuple(u8(v) for v in under[1]))
        top = mapper.image(picture) if picture.mode != "CMYK" else picture
    else:
        base = Image.new("RGB", picture.size, tuple(u8(v) for v in under[1]))
        top = picture.convert("RGB")
    return Image.composite(top, base, mask)


def to_cmyk(source: Path, target: Path, color: PrintColor, records: Iterable[dict], title: str) -> Conversion:
    """Rewrite the drawn PDF `source` as a PDF/X file in the shop's CMYK, at `target`."""
    import pikepdf
    with pikepdf.open(source) as pdf:
        job = _Job(pdf, color, Locator(records))
        for number, page in enumerate(pdf.pages, start=1):
            rewriter = _Rewriter(job, page.obj.get("/Resources"), number, ("rgb", (1.0, 1.0, 1.0)), State())
            out = rewriter.rewrite(pikepdf.parse_content_stream(page))
            page.obj.Contents = pdf.make_stream(pikepdf.unparse_content_stream(out))
        for xobjects, name in job.replaced:  # the RGB pictures, each replaced by its CMYK copies
            if name in xobjects:
                del xobjects[name]
        for gs in job.states_to_clear:  # every translucent paint was composited (or refused)
            for key in ("/ca", "/CA"):
                if key in gs:
                    gs[key] = 1
        if not any(f.severity == "error" for f in job.result.faults):
            add_pdfx(pdf, color, title)
            save(pdf, target, color)
        return job.result


