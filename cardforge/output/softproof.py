"""The soft proof: a face as the press prints it, on screen (`render --color cmyk --proof`).

Drawn as for the print shop, converted to CMYK as the build converts it (output/cmykpdf.py),
rendered in CMYK by Ghostscript and shown through the profile by littleCMS, not by a viewer's
naive CMYK conversion.
"""
from __future__ import annotations

import io
from pathlib import Path

from .cmykpdf import Conversion, to_cmyk
from .printcolor import PrintColor, mapper
from .printplaces import report_faults, shift_warnings


# --- the soft proof -----------------------------------------------------------------------------

NEEDS_GHOSTSCRIPT = "the print shop's soft proof needs Ghostscript (Debian: apt-get install ghostscript)"


def ghostscript_missing() -> bool:
    """Whether Ghostscript, which renders the CMYK pages of a proof, is missing (render and serve
    say so before they start)."""
    import shutil
    return shutil.which("gs") is None


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
        raise RuntimeError(NEEDS_GHOSTSCRIPT)
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

