"""Colour for a print shop (`build --target printshop --color cmyk`): the game's print settings and
the one mapper from the sRGB the faces are drawn in to the shop's CMYK.

Every colour goes through the profile with littleCMS (Pillow's ImageCms), perceptual intent with
black-point compensation, cached per colour: greys go to K alone (the K tint the profile prints
at the grey's lightness), black text and lines to 0/0/0/100, and a large black area (both sides
at least RICH_BLACK_SIDE) to the rich black the game names.  CMYK already in a file passes through
unchanged.  The stages that use it: output/cmykpdf.py rewrites a drawn PDF through it, with the
PDF/X parts of output/pdfx.py and faults named at their frames by output/printplaces.py;
output/softproof.py shows a face as the press prints it; verify/preflight.py reads the file back.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path



@dataclass(frozen=True)
class Profile:
    """A CMYK output profile shipped in cardforge/profiles/ (tools/build_profiles.py)."""
    name: str
    ink_limit: float  # the total ink the profile's tables were built for, in %
    condition: str  # the printing condition, as the ICC registry names it
    description: str

    @property
    def path(self) -> Path:
        from .. import resources
        return resources.path("profiles", f"{self.name}.icc")


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


def u8(value: float) -> int:
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
        key = tuple(u8(v) for v in rgb)
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
        [px] = self._pixels(self._to_rgb, "CMYK", [tuple(u8(v) for v in cmyk)])
        return tuple(px)

    def shift(self, rgb: tuple[float, float, float]) -> float:
        """ΔE2000 between an sRGB colour and its print, as the soft proof shows it."""
        return delta_e(tuple(u8(v) for v in rgb), self.proof(self.cmyk(rgb)))

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



def hex_of(rgb: tuple) -> str:
    return "#%02x%02x%02x" % tuple(rgb)
