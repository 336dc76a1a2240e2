"""The pipeline: load -> validate -> model -> layouts -> render + impose -> write.

`build_game` compiles one game folder into PDFs and their manifests.  Nothing is
written unless every stage succeeded: PDFs go to a staging folder beside the game's output
folder, which replaces it in one atomic swap only at the very end (replace.py), so a failed
or killed build leaves the last good kit untouched.  The folder's lock (lock.py) is held
throughout, so a second build of the same game waits.  Output is deterministic (reportlab's invariant mode,
sorted iteration), so the same input gives the same bytes.
"""
from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from typing import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import ContentError, Report
from ..frontend.model import Game
from ..frontend.provenance import provenance
from ..frontend.translations import translator
from ..gctuning import drawing_gc
from ..prepare import Prepared, prepare
from ..verify import Verifier
from .pages import MODES, PAPERS, Page, PrintOptions, count_faces, cover_page, plan_sections
from .dryrun import lay_out_despite
from .pdf import Progress, Writer
from .lock import OutputLock
from .pdfcopy import Unsupported, copy_pages, open_kit, replace_pages, same_pages
from .replace import Replacement
from .guide import guide_pages
from .ink import KitInk, page_coverage, print_ink
from .sheets import duplex_pages, lower_bound




@dataclass
class BuildResult:
    report: Report
    outputs: list[Path] = field(default_factory=list)
    game: Game | None = None


def build_game(game_dir: Path, out_dir: Path, papers=PAPERS, mode: str = "duplex",
               layouts_dir: Path | None = None, progress: Progress | None = None,
               kit: bool = True, flip: str = "long", back_offset: tuple[float, float] = (0.0, 0.0),
               imposition: str = "bleed") -> BuildResult:
    """Compile a game: per paper size one PDF per component kind, and (with `kit`) the whole kit.
    Everything is staged first and replaces the previous output only when all of it succeeded."""
    report = Report()
    result = BuildResult(report)
    try:
        prep = prepare(game_dir, report, layouts_dir)
    except ContentError as failure:
        lay_out_despite(failure, report)
        return result
    result.game = prep.game
    counter = _Counter(progress, sum(count_faces(prep, paper) for paper in papers))
    staged: list[tuple[Path, Path]] = []
    with replacing_folder(Path(out_dir), Path(game_dir).resolve().name) as replacement:
        with drawing_gc():
            for paper in papers:
                options = PrintOptions(paper, mode, flip, back_offset, imposition)
                staged += build_paper(prep, Path(out_dir), options, report, counter, kit, replacement.stage)
                if report.has_errors():
                    return result
        result.outputs = commit(staged, replacement)
    return result


@contextmanager
def replacing_folder(out_dir: Path, what: str, command: str = "build", keep: bool = True,
                     swap: bool = True) -> Iterator[Replacement]:
    """Hold `out_dir`'s lock and stage its next content beside it (`replacement.stage`); whatever
    is not committed by the end of the block is removed.  An entry written into the stage replaces
    the current one of that name as a whole (a subfolder too); with `keep`, all other entries stay."""
    with OutputLock(out_dir, what, command):
        replacement = Replacement(out_dir, keep=keep, swap=swap)
        replacement.open()
        try:
            yield replacement
        finally:
            replacement.discard()


class _Counter:
    """Faces drawn so far, over every PDF of a build, for the progress bar."""

    def __init__(self, progress: Progress | None, total: int, done: int = 0):
        self.progress, self.total, self.done = progress, total, done

    def __call__(self, done: int, total: int) -> None:
        if self.progress:
            self.progress(self.done + done, self.total)

    def advance(self, faces: int) -> None:
        self.done += faces


def ordered_pages(prep: Prepared, options: PrintOptions, sections, kit: bool,
                  opening: Callable[[Callable[[], list[Page]]], list[Page]] | None = None,
                  kit_name: str = "kit", ink: KitInk | None = None) -> list[tuple[str, list[Page]]]:
    """The PDFs of one paper and their pages in print order: the kit (cover first), or one PDF per
    component.  In duplex, the sheet plan (sheets.py) keeps every sheet's front on an odd page.
    `opening` gives the pages before the components instead of the cover (the errata sheet's
    changelog); it is handed the final page list, to read once the order is known."""
    blank = translator(getattr(prep.game.overlay, "strings", None) or {})("intentionally blank")
    order = (lambda pages: duplex_pages(pages, blank)) if options.mode == "duplex" else list
    if kit:
        final: list[Page] = []
        if opening:  # an errata sheet opens with its changelog, not the kit's cover and guide
            first = opening(lambda: final)
        else:
            first = [cover_page(prep, options.paper, lambda: final)] + guide_pages(prep, options, lambda: final, ink)
        final += order(first + [p for _, ps in sections for p in ps])
        return [(kit_name, final)]
    return [(section, order(pages)) for section, pages in sections]


def build_paper(prep: Prepared, out_dir: Path, options: PrintOptions, report: Report,
                progress: Progress | None = None, kit: bool = True,
                stage_dir: Path | None = None, opening=None, kit_name: str = "kit") -> list[tuple[Path, Path]]:
    """Draw one paper size's pages once, verify them once, and stage the PDFs and manifests.

    With the kit on, the kit PDF is drawn (cover, then every component) and each component's
    PDF is cut out of it as a range of its pages: the same drawn page in both files, checked to
    be byte-identical rather than drawn and read back a second time.  Returns (temporary, final)
    pairs for `commit`; on errors nothing is staged and the report says why.  The temporary
    files go to `stage_dir` (the staging folder of a Replacement of `out_dir`)."""
    stage_dir = Path(stage_dir) if stage_dir is not None else out_dir
    stage_dir.mkdir(parents=True, exist_ok=True)
    sections = plan_sections(prep, options, report)
    if report.has_errors() or not sections:
        return []
    variant = "-inksaver" if getattr(prep, "ink_saver", False) else ""  # build --ink-saver (inksaver.py)
    final = lambda name: out_dir / f"{prep.game.id}-{name}{variant}-{options.paper}{options.suffix}.pdf"  # noqa: E731
    title = lambda name: f"{prep.game.name} - {name}{', ink saver' if variant else ''} " \
                         f"({options.paper.upper()}, {options.mode})"  # noqa: E731
    staged: list[tuple[Path, Path]] = []
    # build --only, --outline, --proof: a preview, written despite what drawing its faces reported
    # (overflowing text set as far as it goes and marked in red, render/overset.py); a kit never is
    preview = getattr(prep, "preview", False)
    verifier = Verifier(prep, report, fresh=True)
    ink = KitInk()  # each page's ink, for the guide to print once the kit is drawn and measured
    try:
        pdfs = ordered_pages(prep, options, sections, kit, opening, kit_name, ink)
        for index, (name, pages) in enumerate(pdfs):
            more = index < len(pdfs) - 1 or name == "kit"  # another PDF is read after this one
            target = final(name)
            tmp = stage_dir / (target.name + ".tmp")
            writer = Writer(prep, tmp, title(name), report, progress, 0)
            manifest = writer.write(pages)
            manifest.header.update(paper=options.paper, mode=options.mode, flip=options.flip,
                                   imposition=options.imposition, provenance=provenance(prep.game))
            if prep.game.lang:  # a translation's kit: `check --printed` compares it with that language
                manifest.header.update(lang=prep.game.lang)
            if variant:
                manifest.header.update(ink_saver=True)
            if name in ("kit", "proof") and options.mode == "duplex":
                manifest.header["sheets"] = lower_bound(prep, options.paper, pages, options.imposition == "gang")
            try:
                if report.has_errors() and preview:  # its errors drawn: written unverified, and alone
                    staged.append((tmp, target))
                    staged += _stage_manifest(manifest, target, stage_dir)
                    continue
                if report.has_errors():
                    tmp.unlink(missing_ok=True)
                    return []
                # ink.py: each page's ink; in the kit, the guide's page that prints it drawn again with it.
                measured = print_ink(ink, pages, tmp, lambda page: getattr(page, "prints_ink", False),
                                     _redraw(prep, title(name), len(pages)), stage_dir / (target.name + ".ink.tmp"),
                                     _replace) if name == "kit" else None
                # Read the PDF back before it may replace anything: its text, icons and fonts
                # must be what the data produced (see cardforge/verify/).
                kit = open_kit(tmp) if name == "kit" else None  # read once: verified, then cut into components
                verifier.verify(tmp, manifest, shown_as=target, opened=kit)
                for entry, coverage in zip(manifest.pages, measured or page_coverage(tmp)):
                    entry["ink"] = round(coverage, 4)
                if more:
                    gc.collect()  # the PDF reader's objects form cycles; free them before the next PDF
                staged.append((tmp, target))
                if report.has_errors():
                    return []
                staged += _stage_manifest(manifest, target, stage_dir)
                if name == "kit":
                    parts = _ranges(pages)
                    for number, (section, part) in enumerate(parts, start=1):
                        shared = any(pages[i].shares for i in part)
                        # Its pages hold other sections' pieces too: the verifier counts only its own decks.
                        own = {"decks": [d.id for d in prep.game.component(section)]} if shared else {}
                        staged += _cut(kit, part, final(section), title(section), manifest, report, stage_dir, own)
                        if number < len(parts):
                            gc.collect()
                        if report.has_errors():
                            return []
                    del kit
            finally:
                manifest.close()
            if isinstance(progress, _Counter):
                progress.advance(writer.done)
        done, staged = staged, []
        return done
    finally:
        discard(staged)


def _redraw(prep: Prepared, title: str, total: int) -> Callable[[list[Page], list[int], Path], bool]:
    """Draws some pages of a kit of `total` pages again, with their numbers there, into a PDF of
    their own (ink.print_ink); their diagnostics were the kit's.  False when that failed."""
    def draw(pages: list[Page], numbers: list[int], target: Path) -> bool:
        again = Report()
        manifest = Writer(prep, target, title, again, None, 0).write(pages, numbers, total)
        if manifest is not None:
            manifest.close()
        return not again.has_errors()
    return draw


def _replace(pdf: Path, indexes: list[int], drawn: Path) -> bool:
    """The kit's pages `indexes` (0-based) replaced by the pages of `drawn`, in order, in place.
    False, the kit untouched, where either cannot be read this way (the verifier, reading the kit
    itself, reports a kit it cannot read)."""
    kit, again = open_kit(pdf), open_kit(drawn)
    if kit is None or again is None:
        return False
    spliced = pdf.with_name(pdf.name + ".spliced")
    try:
        replace_pages(kit, {index: (again, n) for n, index in enumerate(indexes)}, spliced)
    except Unsupported:
        spliced.unlink(missing_ok=True)
        return False
    del kit, again
    os.replace(spliced, pdf)
    return True


def _ranges(pages: list[Page]) -> list[tuple[str, list[int]]]:
    """Each component's kit pages (0-based), in kit order; the guide's PDF opens with the cover, as
    the kit does.  A sheet shared by two sections (tokens on the last card sheet, pack.py) is in
    both their PDFs: each component PDF holds every piece of its own."""
    parts: dict[str, list[int]] = {}
    for index, page in enumerate(pages):
        for section in page.sections:
            parts.setdefault("guide" if section == "cover" else section, []).append(index)
    return list(parts.items())


def _stage_manifest(manifest, pdf: Path, stage_dir: Path, pages: list[int] | None = None,
                    **header) -> list[tuple[Path, Path]]:
    final = pdf.with_suffix(".manifest.json")
    tmp = stage_dir / (final.name + ".tmp")
    manifest.write(tmp, pages, **header)
    return [(tmp, final)]


def _cut(kit, pages: list[int], target: Path, title: str, manifest, report: Report,
         stage_dir: Path, header: dict | None = None) -> list[tuple[Path, Path]]:
    """A component PDF: pages `pages` (0-based) of the kit (open_kit), copied, with the component's own title."""
    tmp = stage_dir / (target.name + ".tmp")
    try:
        copy_pages(kit, pages, tmp, title)
    except Unsupported as exc:  # a stream the cutter cannot decode: not a kit this build wrote
        report.error("E-OUTPUT", f"{target.name}: cannot cut it from the kit: {exc}", None,
                     help="this is a bug in cardforge; please report it")
        tmp.unlink(missing_ok=True)
        return []
    if not same_pages(kit, pages, tmp):
        report.error("E-OUTPUT", f"{target.name}: its pages differ from the kit's pages they were copied from",
                     None, help="this is a bug in cardforge; please report it")
        tmp.unlink(missing_ok=True)
        return []
    return [(tmp, target)] + _stage_manifest(manifest, target, stage_dir, pages, title=title, **(header or {}))


def commit(staged: list[tuple[Path, Path]], replacement: Replacement) -> list[Path]:
    """Give every staged file its final name in the staging folder (finals may lie in subfolders
    of the output folder), then let that folder replace the output folder (one atomic swap): the
    previous output is replaced only now, all at once."""
    for tmp, final in staged:
        dest = replacement.stage / replacement.relative(final)
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp, dest)
    replacement.commit(sorted({replacement.relative(final).parts[0] for _, final in staged}))
    return [final for _, final in staged]


def discard(staged: list[tuple[Path, Path]]) -> None:
    for tmp, _ in staged:
        tmp.unlink(missing_ok=True)
