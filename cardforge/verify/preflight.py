"""Preflight: a CMYK print-shop PDF read back as a print shop's preflight reads it, and refused on
anything PDF/X-1a (or PDF/X-4, where it says so) does not allow or the shop's press cannot print:

- an RGB colour operator (rg, RG, an RGB colour space) or an RGB picture;
- a soft mask, a /CA or /ca under 1, a blend mode other than Normal, a transparency group
  (PDF/X-4 allows live transparency; the print shops cardforge targets flatten it unseen, so
  cardforge never writes it and refuses it in either part);
- a font that is not embedded;
- a page without a TrimBox, or with its TrimBox outside its BleedBox or its BleedBox outside its
  MediaBox;
- no PDF/X output intent with an embedded CMYK profile, no GTS_PDFXVersion, no Trapped key, no
  trailer ID (and, for PDF/X-4, no XMP metadata naming the version);
- ink over the limit, in a vector colour or in any pixel of a picture;
- a stroke under 0.25 pt (a hairline disappears on press).

It reads the file with pikepdf (qpdf), not with the writer's own code, and reports the lowest
picture resolution.  Each fault names its page and, given the manifest's records, its frame.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

MIN_STROKE = 0.25  # points
INK_TOLERANCE = 0.5  # % over the limit that 8-bit rounding may give
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
STROKE_OPS = {"S", "s", "B", "B*", "b", "b*"}
RGB_SPACES = {"/DeviceRGB", "/CalRGB"}


@dataclass
class Finding:
    page: int | None
    message: str
    place: object = None  # output/printplaces.Place, when the manifest's records were given

    def __str__(self) -> str:
        where = str(self.place) if self.place is not None else (f"page {self.page}" if self.page else "the file")
        return f"{where}: {self.message}"


@dataclass
class Preflight:
    faults: list[Finding] = field(default_factory=list)
    lowest_ppi: float | None = None
    max_ink: float = 0.0  # %, over vector colours and pictures
    thinnest: float | None = None  # points
    _seen: set = field(default_factory=set)

    def add(self, finding: Finding) -> None:
        mark = (str(finding.place) if finding.place is not None else finding.page, finding.message)
        if mark not in self._seen:
            self._seen.add(mark)
            self.faults.append(finding)

    @property
    def passed(self) -> bool:
        return not self.faults


def _mul(a: tuple, b: tuple) -> tuple:
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _box(m: tuple, x0: float, y0: float, x1: float, y1: float) -> tuple:
    points = [(x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]) for x, y in
              ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return (min(p[0] for p in points), min(p[1] for p in points), max(p[0] for p in points), max(p[1] for p in points))


class _Reader:
    def __init__(self, pdf, limit: float, pdfx: str, locate):
        self.pdf, self.limit, self.pdfx, self.locate = pdf, limit, pdfx, locate
        self.result = Preflight()
        self.images_seen: dict = {}  # image -> its largest ink, once per picture
        self.fonts_seen: set = set()

    def fault(self, page: int, box, message: str) -> None:
        place = self.locate(page, box) if self.locate is not None and page else None
        self.result.add(Finding(page, message, place))

    def ink(self, page: int, box, values: Iterable[float], what: str) -> None:
        total = sum(float(v) for v in values) * 100
        self.result.max_ink = max(self.result.max_ink, total)
        if total > self.limit + INK_TOLERANCE:
            self.fault(page, box, f"{what} {'/'.join(f'{float(v) * 100:g}' for v in values)} is {total:.0f}% of ink, "
                                  f"over the limit of {self.limit:g}%")

    def resources(self, page: int, resources) -> dict[str, str | None]:
        """What a resource dictionary holds: RGB colour spaces are faults wherever they are used; each
        graphics state's transparency (None: it has none) is judged where the stream paints with it."""
        states: dict[str, str | None] = {}
        if resources is None:
            return states
        for name, gs in (resources.get("/ExtGState") or {}).items():
            why = [f"sets {key[1:]} {float(gs[key]):g}" for key in ("/ca", "/CA") if key in gs and float(gs[key]) < 1]
            smask = gs.get("/SMask")
            if smask is not None and str(smask) != "/None":
                why.append("has a soft mask")
            blend = gs.get("/BM")
            if blend is not None and str(blend) not in ("/Normal", "/Compatible"):
                why.append(f"sets blend mode {blend}")
            states[str(name)] = f"graphics state {name} {' and '.join(why)}: transparency" if why else None
        for name, space in (resources.get("/ColorSpace") or {}).items():
            if _rgb_space(space):
                self.fault(page, None, f"colour space {name} is RGB")
        return states

    def stream(self, page: int, owner, resources, ctm: tuple, depth: int = 0, alpha: str | None = None) -> None:
        """A page's or form's operators.  A colour, a font and a translucent graphics state are judged
        where they paint (a path's box, a text's origin, a picture's box), so that the fault names the
        frame that drew it.  `alpha`: the transparency of the graphics state in force (a form
        inherits its caller's)."""
        import pikepdf
        states = self.resources(page, resources)
        used: set[str] = set()
        if owner.get("/Group") is not None and str(owner.Group.get("/S")) == "/Transparency":
            self.fault(page, None, "a transparency group")
        stack, width, tm, font = [], 1.0, IDENTITY, None
        path_box = None
        colours: dict[str, tuple] = {}  # "fill"/"stroke" -> (operator, operands) not yet judged
        for inst in pikepdf.parse_content_stream(owner):
            if isinstance(inst, pikepdf.ContentStreamInlineImage):
                self.fault(page, None, "an inline picture")
                continue
            operands, op = inst.operands, str(inst.operator)
            if op == "q":
                stack.append((ctm, width, alpha))
            elif op == "Q":
                if stack:
                    ctm, width, alpha = stack.pop()
            elif op == "gs":
                name = str(operands[0])
                if name in states:
                    used.add(name)
                    alpha = states[name]
            elif op == "cm":
                ctm = _mul(tuple(float(v) for v in operands), ctm)
            elif op == "w":
                width = float(operands[0])
            elif op in ("rg", "k", "sc", "scn", "g"):
                colours["fill"] = (op, operands)
            elif op in ("RG", "K", "SC", "SCN", "G"):
                colours["stroke"] = (op, operands)
            elif op in ("cs", "CS"):
                space = operands[0]
                if str(space) in RGB_SPACES or _rgb_space((resources or {}).get("/ColorSpace", {}).get(str(space))):
                    self.fault(page, None, f"an RGB colour space ({op} {space})")
            elif op in ("re", "m", "l", "c", "v", "y"):
                values = [float(v) for v in operands]
                xs, ys = values[0::2], values[1::2]
                if op == "re":
                    xs, ys = [values[0], values[0] + values[2]], [values[1], values[1] + values[3]]
                b = _box(ctm, min(xs), min(ys), max(xs), max(ys))
                path_box = b if path_box is None else (min(path_box[0], b[0]), min(path_box[1], b[1]),
                                                       max(path_box[2], b[2]), max(path_box[3], b[3]))
            elif op in STROKE_OPS or op in ("f", "F", "f*"):
                if alpha:
                    self.fault(page, path_box, alpha)
                if op not in STROKE_OPS or op in ("B", "B*", "b", "b*"):
                    self.colour(page, path_box, colours.pop("fill", None))
                if op in STROKE_OPS:
                    self.colour(page, path_box, colours.pop("stroke", None))
                    scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
                    drawn = width * scale
                    if self.result.thinnest is None or drawn < self.result.thinnest:
                        self.result.thinnest = drawn
                    if drawn < MIN_STROKE - 1e-4:  # (written to 4 decimals)
                        self.fault(page, path_box, f"a line {drawn:.2f} pt wide, under {MIN_STROKE} pt")
                path_box = None
            elif op == "n":
                path_box = None
            elif op == "Tm":
                tm = tuple(float(v) for v in operands)
            elif op == "Tf":
                font = str(operands[0])
            elif op in ("Tj", "TJ", "'", '"'):
                m = _mul(tm, ctm)
                point = _box(m, 0, 0, 0, 0)
                if font is not None:  # a font that shows text (reportlab sets one on every page, used or not)
                    self.font(page, point, (resources or {}).get("/Font", {}).get(font), font)
                if alpha:
                    self.fault(page, point, alpha)
                self.colour(page, point, colours.pop("fill", None))
                self.colour(page, point, colours.pop("stroke", None))
            elif op == "sh":
                self.fault(page, None, "a shading (gradient)")
            elif op == "Do":
                xobject = (resources or {}).get("/XObject", {}).get(str(operands[0]))
                if xobject is None:
                    continue
                if xobject.get("/Subtype") == "/Image":
                    self.image(page, xobject, _box(ctm, 0, 0, 1, 1))
                    if alpha:
                        self.fault(page, _box(ctm, 0, 0, 1, 1), alpha)
                elif xobject.get("/Subtype") == "/Form" and depth < 32:
                    matrix = tuple(float(v) for v in xobject.get("/Matrix", IDENTITY))
                    self.stream(page, xobject, xobject.get("/Resources"), _mul(matrix, ctm), depth + 1, alpha)
        for name, why in states.items():  # PDF/X forbids such a state even where nothing paints with it
            if why and name not in used:
                self.fault(page, None, why)

    def font(self, page: int, point, font, name: str) -> None:
        """A font the text uses (an unused one in the resources prints nothing), judged once, at the
        first text it shows."""
        if font is None:
            self.fault(page, point, f"font {name} is used but missing from the resources")
            return
        key = font.objgen if font.is_indirect else id(font)
        if key in self.fonts_seen:
            return
        self.fonts_seen.add(key)
        if not _embedded(font):
            self.fault(page, point, f"font {font.get('/BaseFont', name)} is not embedded")

    def colour(self, page: int, box, colour) -> None:
        """A colour operator, judged where it paints."""
        if colour is None:
            return
        op, operands = colour
        if op in ("rg", "RG"):
            self.fault(page, box, f"an RGB colour ({op} {' '.join(f'{float(v):g}' for v in operands)})")
        elif op in ("k", "K"):
            self.ink(page, box, operands, "CMYK")

    def image(self, page: int, image, box: tuple) -> None:
        from pikepdf import PdfImage
        width_in = (box[2] - box[0]) / 72
        if width_in > 0:
            ppi = int(image.Width) / width_in
            if self.result.lowest_ppi is None or ppi < self.result.lowest_ppi:
                self.result.lowest_ppi = ppi
        if "/SMask" in image:
            self.fault(page, box, "a picture with a soft mask (transparency)")
        space = image.get("/ColorSpace")
        if _rgb_space(space):
            self.fault(page, box, "an RGB picture")
            return
        if str(space) != "/DeviceCMYK":
            return
        key = image.objgen
        if key not in self.images_seen:
            picture = PdfImage(image).as_pil_image()
            self.images_seen[key] = _max_ink(picture)
        worst = self.images_seen[key]
        self.result.max_ink = max(self.result.max_ink, worst)
        if worst > self.limit + INK_TOLERANCE:
            self.fault(page, box, f"a picture with pixels of {worst:.0f}% ink, over the limit of {self.limit:g}%")


def _max_ink(picture) -> float:
    """The largest C+M+Y+K over a CMYK picture's pixels, in %."""
    from PIL import ImageMath
    c, m, y, k = (band.convert("I") for band in picture.convert("CMYK").split())
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    return total.getextrema()[1] / 255 * 100


def _rgb_space(space) -> bool:
    import pikepdf
    if space is None:
        return False
    if isinstance(space, pikepdf.Name):
        return str(space) in RGB_SPACES
    if isinstance(space, pikepdf.Array) and len(space):
        kind = str(space[0])
        if kind in RGB_SPACES:
            return True
        if kind == "/ICCBased":
            return int(space[1].get("/N", 0)) == 3
        if kind == "/Indexed":
            return _rgb_space(space[1])
    return False


def _embedded(font) -> bool:
    subtype = str(font.get("/Subtype"))
    if subtype == "/Type3":
        return True  # its glyphs are drawn by its own content streams
    if subtype == "/Type0":
        return all(_embedded(d) for d in font.get("/DescendantFonts", []))
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _within(inner, outer, slack: float = 0.01) -> bool:
    a, b = [float(v) for v in inner], [float(v) for v in outer]
    return (min(a[0], a[2]) >= min(b[0], b[2]) - slack and min(a[1], a[3]) >= min(b[1], b[3]) - slack
            and max(a[0], a[2]) <= max(b[0], b[2]) + slack and max(a[1], a[3]) <= max(b[1], b[3]) + slack)


def preflight(path: Path, ink_limit: float, pdfx: str = "X-1a", records: Iterable[dict] | None = None) -> Preflight:
    """Read the PDF at `path` back and list what a PDF/X print shop would refuse.  `records` (the
    manifest's) lets each fault name its frame."""
    import pikepdf
    locate = None
    if records is not None:
        from ..output.printplaces import Locator
        locate = Locator(records).at
    with pikepdf.open(path) as pdf:
        reader = _Reader(pdf, ink_limit, pdfx, locate)
        _document(pdf, pdfx, reader)
        for number, page in enumerate(pdf.pages, start=1):
            obj = page.obj
            media = obj.get("/MediaBox")
            bleed, trim = obj.get("/BleedBox", media), obj.get("/TrimBox")
            if trim is None:
                reader.fault(number, None, "no TrimBox")
            elif not _within(trim, bleed):
                reader.fault(number, None, "its TrimBox is not inside its BleedBox")
            if bleed is not None and media is not None and not _within(bleed, media):
                reader.fault(number, None, "its BleedBox is not inside its MediaBox")
            reader.stream(number, obj, obj.get("/Resources"), IDENTITY)
        return reader.result


def _document(pdf, pdfx: str, reader: _Reader) -> None:
    """The document's PDF/X parts."""
    intents = pdf.Root.get("/OutputIntents")
    good = [i for i in (intents or []) if str(i.get("/S")) == "/GTS_PDFX"]
    if not good:
        reader.fault(None, None, "no PDF/X output intent")
    for intent in good:
        profile = intent.get("/DestOutputProfile")
        if profile is None or int(profile.get("/N", 0)) != 4:
            reader.fault(None, None, "its output intent embeds no CMYK profile")
        if "/OutputConditionIdentifier" not in intent:
            reader.fault(None, None, "its output intent has no OutputConditionIdentifier")
    from ..output.printcolor import PDFX
    version, conformance, _, _ = PDFX[pdfx]
    info = pdf.trailer.get("/Info")
    if info is None or "/GTS_PDFXVersion" not in info:
        reader.fault(None, None, "no GTS_PDFXVersion key")
    elif str(info.GTS_PDFXVersion) != version:
        reader.fault(None, None, f"GTS_PDFXVersion is {info.GTS_PDFXVersion}, not {version}")
    elif conformance and str(info.get("/GTS_PDFXConformance", "")) != conformance:
        reader.fault(None, None, f"no GTS_PDFXConformance {conformance}")
    if info is None or str(info.get("/Trapped", "")) not in ("/True", "/False"):
        reader.fault(None, None, "no Trapped key (True or False)")
    if "/ID" not in pdf.trailer:
        reader.fault(None, None, "no trailer ID")
    if pdfx == "X-4":
        with pdf.open_metadata() as meta:
            if meta.get("pdfxid:GTS_PDFXVersion") != "PDF/X-4":
                reader.fault(None, None, "no XMP metadata naming PDF/X-4")
