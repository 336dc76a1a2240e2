"""Colour for a print shop (`build --target printshop --color cmyk`): one mapper from the sRGB the
faces are drawn in to the shop's CMYK, and the stage that puts a drawn PDF through it.

The faces are drawn in sRGB as for every other output (the disk caches of drawn faces and icon
forms stay valid, and the shop's PNGs stay RGB); the verified PDF is then rewritten, operator by
operator, by `to_cmyk`:
- every vector colour (text, shapes, tables, icon forms) goes through the profile with littleCMS
  (Pillow's ImageCms), perceptual intent with black-point compensation, cached per colour;
  greys go to K alone (the K tint the profile prints at the grey's lightness), black text and
  lines to 0/0/0/100, and a large black area (both sides at least RICH_BLACK_SIDE) to the rich
  black the game names;
- CMYK already in the file passes through unchanged, and is refused over the ink limit;
- pictures are flattened onto what lies under them and converted through the profile;
- what is translucent (an opacity, a #rrggbbaa colour, a picture's alpha) is composited onto
  the colour known to lie under it: the topmost solid fill drawn before it that covers it, or
  the white paper where nothing was drawn.  Where something else lies under it (a picture, an
  icon, text, a fill that covers it only in part) the colour under it is not known, and it is
  an error naming its frame: the page is never flattened into a picture;
- the PDF/X parts (output intent with the embedded profile, GTS keys, Trapped, trailer ID, XMP
  for PDF/X-4) are added, and the file saved at the PDF version its PDF/X part asks for.

Every fault is named at its frame: the manifest's records give the frame under a point of the
page (`Locator`), and the layout gives the line that wrote the frame's value.
"""
from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

PROFILES_DIR = Path(__file__).resolve().parent.parent / "profiles"


@dataclass(frozen=True)
class Profile:
    """A CMYK output profile shipped in cardforge/profiles/ (tools/build_profiles.py)."""
    name: str
    ink_limit: float  # the total ink the profile's tables were built for, in %
    condition: str  # the printing condition, as the ICC registry names it
    description: str

    @property
    def path(self) -> Path:
        return PROFILES_DIR / f"{self.name}.icc"


PROFILES = {
    "gracol-coated-240": Profile("gracol-coated-240", 240, "CGATS TR 006",
                                 "GRACoL 2006 coated (CGATS TR 006), 240% total ink"),
    "fogra39-coated-300": Profile("fogra39-coated-300", 300, "FOGRA39",
                                  "FOGRA39 coated (ISO 12647-2:2004/Amd 1), 300% total ink"),
}
DEFAULT_PROFILE = "gracol-coated-240"
# The `pdfx` setting -> GTS_PDFXVersion, GTS_PDFXConformance (None: not written), PDF version, its name.
# PDF/X-1a:2003 is the same content on PDF 1.4 (DriveThruCards names it); X-4 adds XMP metadata.
PDFX = {"X-1a": ("PDF/X-1:2001", "PDF/X-1a:2001", "1.3", "PDF/X-1a:2001"),
        "X-1a:2003": ("PDF/X-1a:2003", None, "1.4", "PDF/X-1a:2003"),
        "X-4": ("PDF/X-4", None, "1.6", "PDF/X-4")}
DEFAULT_RICH_BLACK = (60.0, 40.0, 40.0, 100.0)  # 240%: within both profiles' limits
RICH_BLACK_SIDE = 36.0  # points (1/2 in): a black fill at least this wide and high is an area
INK_TOLERANCE = 0.5  # % over the limit that rounding to 8 bits may give
MIN_LINE = 0.25  # points: a thinner line is drawn this wide (verify/preflight.py refuses thinner ones)


@dataclass(frozen=True)
class PrintColor:
    """A game's `printshop:` settings in game.yaml, checked."""
    profile: Profile
    ink_limit: float
    pdfx: str
    rich_black: tuple[float, float, float, float]  # in %


def settings(game, report) -> PrintColor | None:
    """The game's print-shop colour settings (game.yaml `printshop:`, shape checked by the game
    schema), or None after reporting what is wrong with them."""
    data = game.data.get("printshop") or {}
    pos = game.doc.pos
    profile = PROFILES[data.get("profile", DEFAULT_PROFILE)]
    limit = float(data.get("ink_limit", profile.ink_limit))
    ok = True
    if limit < profile.ink_limit:
        report.error("E-PRINTSHOP", f"ink_limit {limit:g}% is below the {profile.ink_limit:g}% the profile "
                     f"'{profile.name}' was built for: its darkest colours would go over it",
                     pos("/printshop/ink_limit"),
                     help=f"use a profile built for {limit:g}% or less (tools/build_profiles.py), or raise ink_limit")
        ok = False
    rich = tuple(float(v) for v in data.get("rich_black", DEFAULT_RICH_BLACK))
    if sum(rich) > limit:
        report.error("E-PRINTSHOP", f"rich_black {'/'.join(f'{v:g}' for v in rich)} is {sum(rich):g}% of ink, "
                     f"over the ink limit of {limit:g}%", pos("/printshop/rich_black"),
                     help="lower its cyan, magenta or yellow (60/40/40/100 is 240%, 30/30/0/100 is 160%)")
        ok = False
    if ok and not profile.path.is_file():
        report.error("E-PRINTSHOP", f"the profile '{profile.name}' is missing from this cardforge installation "
                     f"({profile.path})", pos("/printshop/profile"),
                     help="reinstall cardforge, or rebuild the profiles with tools/build_profiles.py")
        ok = False
    return PrintColor(profile, limit, data.get("pdfx", "X-1a"), rich) if ok else None


def _u8(value: float) -> int:
    return max(0, min(255, round(value * 255)))


class Mapper:
    """sRGB to the profile's CMYK (perceptual, black-point compensation) and back (the soft proof),
    through littleCMS, each colour converted once."""

    def __init__(self, color: PrintColor):
        from PIL import ImageCms
        self.color = color
        srgb = ImageCms.createProfile("sRGB")
        self.cmyk_profile = ImageCms.getOpenProfile(str(color.profile.path))
        self._to_cmyk = ImageCms.buildTransform(srgb, self.cmyk_profile, "RGB", "CMYK",
                                                renderingIntent=ImageCms.Intent.PERCEPTUAL,
                                                flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        # The proof shows the print on white paper: relative colorimetric, the paper as the screen's white.
        self._to_rgb = ImageCms.buildTransform(self.cmyk_profile, srgb, "CMYK", "RGB",
                                               renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        self._to_lab = ImageCms.buildTransform(self.cmyk_profile, ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                               renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        self._cache: dict[tuple, tuple] = {}
        self._k_ramp: list[float] | None = None
        self.rich_black = tuple(v / 100 for v in color.rich_black)

    def _pixels(self, transform, mode: str, pixels: list[tuple]) -> list[tuple]:
        from PIL import Image
        image = Image.new(mode, (len(pixels), 1))
        image.putdata(pixels)
        out = _apply(image, transform)
        return [out.getpixel((i, 0)) for i in range(len(pixels))]

    def cmyk(self, rgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
        """The CMYK (0..1 each) that prints the sRGB colour (0..1 each)."""
        key = tuple(_u8(v) for v in rgb)
        found = self._cache.get(key)
        if found is None:
            if key == (0, 0, 0):
                found = (0.0, 0.0, 0.0, 1.0)  # black: K alone, so text stays sharp whatever the register
            elif key == (255, 255, 255):
                found = (0.0, 0.0, 0.0, 0.0)  # the paper
            else:
                [px] = self._pixels(self._to_cmyk, "RGB", [key])
                if key[0] == key[1] == key[2]:  # a grey: K alone, at the lightness the profile prints it
                    found = (0.0, 0.0, 0.0, self._k_for(px))
                else:
                    found = tuple(round(v / 255, 4) for v in px)
            self._cache[key] = found
        return found

    def _k_for(self, cmyk_px: tuple) -> float:
        """The K tint whose lightness is that of a CMYK colour the profile gave for a grey."""
        if self._k_ramp is None:
            self._k_ramp = [lab[0] for lab in self._pixels(self._to_lab, "CMYK", [(0, 0, 0, k) for k in range(256)])]
        [lab] = self._pixels(self._to_lab, "CMYK", [tuple(cmyk_px)])
        lightness = lab[0]
        ramp = self._k_ramp  # lightness falls as K rises
        for k in range(255):
            if ramp[k + 1] <= lightness:
                lo, hi = ramp[k], ramp[k + 1]
                frac = 0.0 if lo == hi else (lo - lightness) / (lo - hi)
                return round((k + frac) / 255, 4)
        return 1.0

    def proof(self, cmyk: tuple[float, float, float, float]) -> tuple[int, int, int]:
        """The sRGB (0..255) a screen shows for CMYK (0..1) printed on this profile's paper."""
        [px] = self._pixels(self._to_rgb, "CMYK", [tuple(_u8(v) for v in cmyk)])
        return tuple(px)

    def shift(self, rgb: tuple[float, float, float]) -> float:
        """ΔE2000 between an sRGB colour and its print, as the soft proof shows it."""
        return delta_e(tuple(_u8(v) for v in rgb), self.proof(self.cmyk(rgb)))

    def image(self, image):
        """A Pillow RGB picture converted to CMYK through the profile."""
        return _apply(image.convert("RGB"), self._to_cmyk)

    def proof_image(self, image):
        """A Pillow CMYK picture (a page as the press prints it) as the screen shows it."""
        return _apply(image, self._to_rgb)


def _apply(image, transform):
    from PIL import ImageCms
    return ImageCms.applyTransform(image, transform)


def delta_e(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """CIEDE2000 between two sRGB colours (0..255), by coloraide."""
    from coloraide import Color
    first = Color("srgb", [v / 255 for v in a])
    return first.delta_e(Color("srgb", [v / 255 for v in b]), method="2000")


@lru_cache(maxsize=4)
def mapper(color: PrintColor) -> Mapper:
    return Mapper(color)


# --- where a point of the page is: the frame the manifest records there ---------------------

@dataclass(frozen=True)
class Place:
    piece: str  # "card bomber-1 front", "board map"
    frame: str | None
    layout: str | None
    key: tuple | None = None  # (piece id, side, frame name): the layout line, by the caller

    def __str__(self) -> str:
        return f"{self.piece}, frame '{self.frame}'" if self.frame else self.piece


class Locator:
    """The frame drawn at a point of a page, from the manifest's records (boxes in mm, origin at
    the page's lower left): the smallest box that holds the point."""

    def __init__(self, records: Iterable[dict]):
        self.pages: dict[int, list[tuple[dict, list]]] = {}
        for record in records:
            self.pages.setdefault(record["page"], []).append((record, record.get("frames") or []))

    def at(self, page: int, box: tuple[float, float, float, float] | None) -> Place:
        faces = self.pages.get(page, [])
        if not faces:
            return Place(f"page {page}", None, None)
        record = faces[0][0]
        best, best_area = None, math.inf
        if box is not None:
            cx, cy = (box[0] + box[2]) / 2 * 25.4 / 72, (box[1] + box[3]) / 2 * 25.4 / 72
            for face, frames in faces:
                for frame in frames:
                    fb = frame.get("box")
                    if not fb or not (fb[0] - 0.01 <= cx <= fb[0] + fb[2] + 0.01 and fb[1] - 0.01 <= cy <= fb[1] + fb[3] + 0.01):
                        continue
                    area = fb[2] * fb[3]
                    if area <= best_area:
                        best, best_area, record = frame, area, face
        piece_id = record.get("card") or record.get("board") or "?"
        kind = "card" if "card" in record else "board"
        piece = f"{kind} {piece_id} {record.get('side', 'front')}"
        name = best.get("name") if best else None
        return Place(piece, name, record.get("layout"), (piece_id, record.get("side", "front"), name))


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
        if use == "area" and _u8(rgb[0]) == _u8(rgb[1]) == _u8(rgb[2]) == 0:
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
        key = tuple(_u8(v) for v in rgb)
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
        base = Image.new("CMYK", picture.size, tuple(_u8(v) for v in under[1]))
        top = mapper.image(picture) if picture.mode != "CMYK" else picture
    else:
        base = Image.new("RGB", picture.size, tuple(_u8(v) for v in under[1]))
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


def add_pdfx(pdf, color: PrintColor, title: str) -> None:
    """The PDF/X parts: output intent with the embedded profile, the GTS keys, Trapped, and the
    XMP metadata PDF/X-4 requires."""
    import pikepdf
    from pikepdf import Name
    profile = color.profile
    icc = pdf.make_stream(profile.path.read_bytes(), N=4, Alternate=Name.DeviceCMYK)
    intent = pdf.make_indirect(pikepdf.Dictionary(
        Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=profile.condition,
        OutputCondition=profile.description, RegistryName="http://www.color.org",
        Info=f"{profile.description} (cardforge {profile.name}.icc)", DestOutputProfile=icc))
    pdf.Root.OutputIntents = pikepdf.Array([intent])
    info = pdf.docinfo
    info.Title = title
    info.Trapped = Name("/False")
    if "/CreationDate" in info:
        info.ModDate = info.CreationDate
    version, conformance, _, _ = PDFX[color.pdfx]
    info.GTS_PDFXVersion = version
    if conformance:
        info.GTS_PDFXConformance = conformance
    if color.pdfx == "X-4":
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            meta.register_xml_namespace("http://www.npes.org/pdfx/ns/id/", "pdfxid")
            meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-4"
            meta["dc:title"] = title
            meta["pdf:Trapped"] = "False"
            meta["pdf:Producer"] = str(info.get("/Producer", "cardforge"))
            meta["xmp:CreatorTool"] = "cardforge"
            stamp = _xmp_date(str(info.get("/CreationDate", "D:20000101000000")))
            meta["xmp:CreateDate"] = stamp
            meta["xmp:ModifyDate"] = stamp
            meta["xmp:MetadataDate"] = stamp
            digest = hashlib.sha256(title.encode("utf-8")).hexdigest()
            meta["xmpMM:DocumentID"] = f"uuid:{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
            meta["xmpMM:VersionID"] = "1"
            meta["xmpMM:RenditionClass"] = "default"


def _xmp_date(pdf_date: str) -> str:
    d = pdf_date[2:] if pdf_date.startswith("D:") else pdf_date
    d = (d + "00000000000000")[:14]
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}Z"


def save(pdf, target: Path, color: PrintColor) -> None:
    import pikepdf
    # PDF/X-1a:2001 is PDF 1.3, X-1a:2003 PDF 1.4, X-4 PDF 1.6.  The trailer ID is a digest of the content.
    pdf.save(target, force_version=PDFX[color.pdfx][2], deterministic_id=True,
             compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.disable,
             stream_decode_level=pikepdf.StreamDecodeLevel.generalized)


# --- diagnostics at the layout lines ---------------------------------------------------------------

SHIFT_WARNING = 5.0  # ΔE2000: a shift a designer sees side by side


def report_faults(prep, conversion: Conversion, report, label: str) -> None:
    """What converting a PDF found, each at the layout line of its frame."""
    for fault in conversion.faults:
        say = report.error if fault.severity == "error" else report.warning
        say(fault.code, f"{label}: {fault.place}: {fault.message}", frame_pos(prep, fault.place, fault.key),
            help=fault.help)


def frame_pos(prep, place, key: str | tuple):
    """Where the layout of the face at `place` writes the frame's `key` (the first of several it
    writes), else where the frame is; None where no frame is known."""
    from ..layout.repeat import walk_frames
    if place is None or place.key is None:
        return None
    piece, side, name = place.key
    layout = prep.faces.get((piece, side)) or prep.boards.get(piece)
    if layout is None or name is None:
        return None
    for frame in walk_frames(layout.frames):
        if frame.name == name:
            for one in (key,) if isinstance(key, str) else key:
                if one in frame.written:
                    return frame.value_pos(one)
            return frame.position
    return None


def shift_warnings(prep, cmyk: PrintColor, shifts: dict, report) -> None:
    """Each colour whose print shifts by more than SHIFT_WARNING, with the frames that use it."""
    m = mapper(cmyk)
    found = []
    for rgb, places in shifts.items():
        if rgb == (0, 0, 0):
            continue  # black is 0/0/0/100 by rule (text, lines): the proof shows K alone's black
        shift = m.shift(tuple(v / 255 for v in rgb))
        if shift > SHIFT_WARNING:
            found.append((shift, rgb, places))
    for shift, rgb, places in sorted(found, key=lambda f: (-f[0], f[1])):
        frames = sorted({f"{p.layout}:{p.frame}" if p.frame else p.piece for p in places})
        shown = ", ".join(frames[:6]) + (f" and {len(frames) - 6} more" if len(frames) > 6 else "")
        first = min(places, key=str)
        printed = hex_of(m.proof(m.cmyk(tuple(v / 255 for v in rgb))))
        grey = ", a grey printed in K alone" if len(set(rgb)) == 1 else ""
        report.warning("W-COLOUR-SHIFT", f"{hex_of(rgb)} prints as {printed} on {cmyk.profile.name} "
                       f"(ΔE2000 {shift:.1f}{grey}), in {shown}", frame_pos(prep, first, "fill"),
                       help="see it with `cardforge render GAME CARD --color cmyk --proof`; choose a colour the press "
                            "can print if the shift matters")


# --- the soft proof -----------------------------------------------------------------------------

def proof_pages(pdf: Path, color: PrintColor, dpi: float, first: int = 1, last: int | None = None) -> list:
    """The pages of a CMYK PDF as the press prints them, on screen: rendered to CMYK pixels by
    Ghostscript (which passes DeviceCMYK through as it is written) and turned to sRGB through the
    profile by littleCMS.  Returns Pillow RGB pictures."""
    import shutil
    import subprocess
    import tempfile
    from PIL import Image
    gs = shutil.which("gs")
    if gs is None:
        raise RuntimeError("the soft proof needs Ghostscript (`gs`, Debian package ghostscript)")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{dpi:g}",
               f"-dFirstPage={first}", "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4",
               "-o", str(Path(tmp) / "p%04d.tif")]
        if last is not None:
            cmd.append(f"-dLastPage={last}")
        subprocess.run(cmd + [str(pdf)], check=True, capture_output=True, timeout=600)
        out = []
        for path in sorted(Path(tmp).glob("p*.tif")):
            with Image.open(path) as image:
                out.append(mapper(color).proof_image(image.convert("CMYK")))
        return out


def soft_proof(prep, faces: list, report, dpi: float, bleed: bool, color: PrintColor) -> list[bytes]:
    """PNG bytes of each face as the press prints it: drawn as for the print shop, converted to
    CMYK as the print-shop build converts it, rendered in CMYK and shown through the profile.
    The conversion's faults and the colours that shift are reported, at their frames."""
    import tempfile
    from .raster import faces_pdf
    records: list[dict] = []
    drawn = faces_pdf(prep, faces, report, bleed, records=records)
    if report.has_errors():
        return []
    with tempfile.TemporaryDirectory() as tmp:
        source, target = Path(tmp) / "rgb.pdf", Path(tmp) / "cmyk.pdf"
        source.write_bytes(drawn)
        conversion = to_cmyk(source, target, color, records, "soft proof")
        report_faults(prep, conversion, report, "soft proof")
        if report.has_errors():
            return []
        shift_warnings(prep, color, conversion.colours, report)
        out = []
        for picture in proof_pages(target, color, dpi):
            buffer = io.BytesIO()
            picture.save(buffer, "PNG")
            out.append(buffer.getvalue())
        return out


def shifts(conversion: Conversion, color: PrintColor, over: float = 5.0) -> list[tuple[float, tuple, list]]:
    """The colours whose print shifts by more than `over` (ΔE2000), largest first, each with the
    places that use it: [(shift, sRGB, [place, ...])]."""
    m = mapper(color)
    found = []
    for rgb, places in conversion.colours.items():
        if rgb == (0, 0, 0):
            continue  # black is 0/0/0/100 by rule
        shift = m.shift(tuple(v / 255 for v in rgb))
        if shift > over:
            found.append((shift, rgb, sorted({str(p) for p in places})))
    return sorted(found, reverse=True)


def largest_shift(conversion: Conversion, color: PrintColor) -> tuple[float, tuple | None]:
    m = mapper(color)
    best = (0.0, None)
    for rgb in conversion.colours:
        if rgb == (0, 0, 0):
            continue  # black is 0/0/0/100 by rule
        shift = m.shift(tuple(v / 255 for v in rgb))
        if shift > best[0]:
            best = (shift, rgb)
    return best


def hex_of(rgb: tuple) -> str:
    return "#%02x%02x%02x" % tuple(rgb)
