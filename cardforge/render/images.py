"""Image frames: a raster picture (PNG, JPEG) or an SVG drawn into a frame, from inside the game folder."""
from __future__ import annotations

from pathlib import Path

from ..frontend.model import safe_path
from ..limits import MAX_IMAGE_PIXELS
from .table import RenderError


class ImageFrames:
    """The image half of CardRenderer (render/face.py), which gives it canvas, game, painter and _value."""

    def _draw_image(self, frame, layout, card, ctx, x, y, w, h, record):
        src = str(self._value(frame, "src", ctx)).strip()
        path = safe_path(self.game.root, src)
        if path is None:
            raise RenderError("E-PATH", f"image '{src}' is outside the game folder",
                              help="images must lie inside the game folder")
        if not path.is_file():
            raise RenderError("E-MISSING-IMAGE", f"image '{src}' does not exist",
                              help=f"add the file at {Path(self.game.root.name) / src}, or fix the name")
        fit = frame.props["fit"]
        if path.suffix.lower() == ".svg":  # a vector picture (a map): drawn and checked like an icon
            self.painter.draw(f"image:{src}", x, y, w, h, fit=fit, source=path)
            record["image"] = src
            return
        _check_pixels(path, src)
        c = self.canvas
        try:
            if fit == "stretch":
                c.drawImage(str(path), x, y, w, h, mask="auto")
            elif fit == "contain":
                c.drawImage(str(path), x, y, w, h, preserveAspectRatio=True, anchor="c", mask="auto")
            else:
                from reportlab.lib.utils import ImageReader
                iw, ih = ImageReader(str(path)).getSize()
                scale = max(w / iw, h / ih)
                c.saveState()
                p = c.beginPath()
                p.rect(x, y, w, h)
                c.clipPath(p, stroke=0, fill=0)
                c.drawImage(str(path), x + (w - iw * scale) / 2, y + (h - ih * scale) / 2,
                            iw * scale, ih * scale, mask="auto")
                c.restoreState()
        except Exception:  # a corrupt image is content's fault, not ours
            raise RenderError("E-IMAGE", f"cannot read image '{src}': it is not an image file Pillow can open",
                              help="save it again as PNG or JPEG") from None
        record["image"] = src



def _check_pixels(path: Path, src: str) -> None:
    """Refuse a decompression bomb (a small file that expands to billions of pixels) before any
    decoder allocates it: Pillow reads only the header here."""
    from PIL import Image
    try:
        with Image.open(path) as image:
            width, height = image.size
    except Exception:  # noqa: BLE001 - Pillow raises many kinds for a corrupt file
        raise RenderError("E-IMAGE", f"cannot read image '{src}': it is not an image file Pillow can open",
                          help="save it again as PNG or JPEG") from None
    if width * height > MAX_IMAGE_PIXELS:
        raise RenderError("E-LIMIT", f"image '{src}' of {width} x {height} pixels is larger than the limit of "
                          f"image size ({MAX_IMAGE_PIXELS // 1_000_000} million pixels)",
                          help="scale it down; 300 dpi is enough for print")
