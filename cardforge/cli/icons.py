"""`cardforge icons`: game-icons.net's icons, shipped with cardforge, found and used by name.

    cardforge icons search plane          # names, best first, with their authors
    cardforge icons show airplane         # author, licence, a preview, how to use it in a game
    cardforge icons export airplane --png # airplane.png (or .svg) in the current folder

Results go to stdout (a name a line, for a pipe), what was written and hints to stderr.
The icons themselves: layout/iconsets.py.
"""
from __future__ import annotations

import re
from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from .common import EXIT_CONTENT, EXIT_OK, UsageError

PREVIEW_COLUMNS = 32  # the preview in a terminal: 32 characters wide, two pixels a character high


def add(sub) -> None:
    p = sub.add_parser("icons", help="find game-icons.net's icons by name, see one, export one",
                       description="game-icons.net's icons (CC BY 3.0), shipped with cardforge. A game uses one by "
                                   "naming it in game.yaml (icons: {plane: game-icons:airplane}); the kit then "
                                   "credits its author.")
    actions = p.add_subparsers(dest="icons_action", metavar="ACTION")
    actions.required = True
    s = actions.add_parser("search", help="icons whose names hold every word, best first")
    s.add_argument("words", nargs="+", metavar="WORD")
    s.add_argument("--limit", type=int, default=30, metavar="N", help="at most N icons (default 30; 0: all)")
    s.add_argument("--author", metavar="NAME", help="only this author's icons (Lorc, Delapouite, ...)")
    s.set_defaults(func=run_search)
    w = actions.add_parser("show", help="an icon's author, licence and a preview, and how a game uses it")
    w.add_argument("name", metavar="NAME")
    w.set_defaults(func=run_show)
    e = actions.add_parser("export", help="write icons as SVG (or PNG) files, e.g. into a game's folder")
    e.add_argument("names", nargs="+", metavar="NAME")
    e.add_argument("--out", type=Path, default=Path("."), help="the folder to write into (default: the current one)")
    e.add_argument("--png", action="store_true", help="a PNG picture instead of the SVG")
    e.add_argument("--size", type=int, default=512, metavar="PX", help="the PNG's width and height (default 512)")
    e.add_argument("--color", default="#000000", metavar="#RRGGBB", help="the icon's colour (default black)")
    e.set_defaults(func=run_export)


def _library():
    from ..layout.iconsets import icon_set
    return icon_set()


def _known(name: str):
    """The icon of that name, or a usage error naming the nearest ones."""
    library = _library()
    prefix, _, bare = name.rpartition(":")
    if prefix and prefix != library.prefix:
        raise UsageError(f"'{prefix}' is no icon set; the set is '{library.prefix}'")
    icon = library.icon(bare)
    if icon is None:
        guesses = library.suggest(bare, 3)
        raise UsageError(f"no icon '{bare}'" + (f"; did you mean {', '.join(guesses)}?" if guesses else "")
                         + " (cardforge icons search WORDS finds icons by name)")
    return icon


def run_search(args) -> int:
    library = _library()
    if args.limit < 0:
        raise UsageError("--limit is a number of icons, 0 or more (0: all)")
    every = library.search(" ".join(args.words), None, args.author)
    if args.author and not every:
        known = sorted(a["name"] for a in library.authors.values())
        if not any(args.author.lower().replace(" ", "") == k.lower().replace(" ", "") for k in known):
            raise UsageError(f"no author '{args.author}'; the authors are " + ", ".join(known))
    shown = every if args.limit == 0 else every[:args.limit]
    width = max((len(hit.name) for hit in shown), default=0)
    for hit in shown:
        author = library.author_of(hit.name) or "(author not recorded)"
        also = f"  (was {hit.alias})" if hit.alias else ""
        console.result(f"{hit.name:<{width}}  {author}{also}")
    words = " ".join(args.words)
    if not every:
        better = library.corrected(words)
        hint = (f"; did you mean '{better}'? (cardforge icons search {better})" if better else
                "; try fewer words, or a word of what it shows (sword, skull, plane)")
        console.diagnostic(f"no icon's name holds '{words}'" + hint)
        return EXIT_CONTENT
    more = f"; --limit {len(every)} shows all" if len(shown) < len(every) else ""
    # the names alone on stdout, so that `| head` or a script takes them; the tally is for the reader
    console.diagnostic(f"{len(shown)} of {len(every)} icons for '{words}'{more}. `cardforge icons show NAME` tells more.")
    return EXIT_OK


def run_show(args) -> int:
    from ..layout.iconsets import LICENSE_TITLES, LICENSE_URLS, credit_lines
    icon = _known(args.name)
    library = _library()
    for row in _preview(icon.svg()):
        console.result(row)
    license = f"{LICENSE_TITLES.get(icon.license, icon.license)} ({LICENSE_URLS.get(icon.license, '')})"
    console.result(f"name:     {icon.icon}")
    console.result(f"author:   {icon.author or '(not recorded by game-icons.net)'}")
    console.result(f"licence:  {license}")
    console.result(f"source:   {library.site}/ ({library.title})")
    console.result("use:      in game.yaml:")
    console.result(f"            icons:\n              {icon.icon}: {icon.ref}")
    console.result(f"          then :{icon.icon}: in a card's text, or `icon: {icon.icon}` in a layout's icon frame")
    console.result(f"credit:   {' '.join(credit_lines({icon.icon: icon}))} (on the kit's cover, automatically)")
    return EXIT_OK


def run_export(args) -> int:
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", args.color):
        raise UsageError(f"--color {args.color}: write a colour as #RRGGBB, e.g. #1b1b1b")
    if not 8 <= args.size <= 4096:
        raise UsageError(f"--size {args.size}: a PNG is 8 to 4096 pixels wide")
    icons = [_known(name) for name in args.names]  # every name checked before anything is written
    args.out.mkdir(parents=True, exist_ok=True)
    for icon in icons:
        svg = icon.svg().replace("currentColor", args.color)
        target = args.out / f"{icon.icon}.{'png' if args.png else 'svg'}"
        if args.png:
            target.write_bytes(_png(svg, args.size))
        else:
            target.write_text(svg, "utf-8")
        console.result(target)
        console.diagnostic(f"  by {icon.author or 'a game-icons.net author'}, {icon.license}: exported, it is no longer credited "
              "automatically; add it to game.yaml `credits:` (or name it under `icons:` instead)")
    return EXIT_OK


def _png(svg: str, size: int) -> bytes:
    """The icon as a square PNG on a transparent ground: drawn by svglib into a PDF page, as a kit
    draws it, and rasterized by PDFium (output/raster.py does the same for faces)."""
    import io
    import logging

    import pypdfium2 as pdfium
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas
    from svglib.svglib import svg2rlg
    logging.getLogger("svglib").setLevel(logging.ERROR)
    drawing = svg2rlg(io.BytesIO(svg.encode("utf-8")))
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(drawing.width, drawing.height), invariant=1)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.save()
    page = pdfium.PdfDocument(buffer.getvalue())[0]
    image = page.render(scale=size / drawing.width, may_draw_forms=True, fill_color=(0, 0, 0, 0)).to_pil()
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _preview(svg: str) -> list[str]:
    """The icon in a terminal: each character two pixels, upper and lower half (▀ ▄ █)."""
    import io

    from PIL import Image
    image = Image.open(io.BytesIO(_png(svg, PREVIEW_COLUMNS))).convert("RGBA").getchannel("A")
    pixels = image.load()
    rows = []
    for y in range(0, PREVIEW_COLUMNS, 2):
        row = ""
        for x in range(PREVIEW_COLUMNS):
            top, bottom = pixels[x, y] > 110, pixels[x, y + 1] > 110
            row += "█" if top and bottom else "▀" if top else "▄" if bottom else " "
        rows.append(row.rstrip())
    while rows and not rows[-1]:  # game-icons' drawings have a margin: its empty rows are left out
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    return rows
