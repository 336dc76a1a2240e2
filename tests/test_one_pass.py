"""One pass: a default build draws every face once per paper, and the component PDFs are the kit's
own pages, copied, with manifests that still describe them."""
from __future__ import annotations

import json
from pathlib import Path

from pypdf import PdfReader

from cardforge.output.build import build_game
from cardforge.output.ink import ROUNDS
from cardforge.render.face import CardRenderer
from conftest import BOMBER

COMPONENTS = ("cards", "boards", "tokens", "references")


def _faces(manifest: dict) -> int:
    return sum(len(manifest.get(section) or []) for section in COMPONENTS)


def test_default_build_draws_each_face_once_per_paper(tmp_path):
    before = CardRenderer.faces_drawn
    result = build_game(BOMBER, tmp_path, papers=("a4", "letter"))
    assert not result.report.has_errors(), result.report.format_text()
    drawn = CardRenderer.faces_drawn - before
    kits = [json.loads((tmp_path / f"bomber-boys-kit-{paper}.manifest.json").read_text()) for paper in ("a4", "letter")]
    in_kits = sum(_faces(kit) for kit in kits)
    in_parts = sum(_faces(json.loads((tmp_path / f"bomber-boys-{section}-{paper}.manifest.json").read_text()))
                   for section in COMPONENTS for paper in ("a4", "letter"))
    # Every face is in its kit and in its component file; a sheet shared by the cards and the tokens
    # (its tokens fill the last card sheet) is in both components' files, with all of its faces.
    shared = 0
    for kit in kits:
        both = {r["page"] for r in kit["cards"]} & {r["page"] for r in kit["tokens"]}
        assert both, "Bomber Boys' tokens share its last card sheet"
        shared += sum(1 for section in COMPONENTS for r in kit.get(section) or [] if r["page"] in both)
    assert in_parts == in_kits + shared and in_kits > 0
    # ...and was drawn once, not once per file; the renderer also draws the guide's layout pages
    # (their data is the kit's, not a piece's, so they are in no component's face records).
    guide = sum(1 for kit in kits for p in kit["pages"] if p["content"].startswith("Print and assembly guide"))
    assert guide == 6
    # The guide's ink page is drawn again, per paper, once the kit's ink is measured, until the
    # figures it prints are its own (output/ink.py): once, now and then twice; no face again.
    assert in_kits + guide + 2 <= drawn <= in_kits + guide + 2 * ROUNDS


def test_component_pdfs_are_the_kits_pages(tmp_path):
    result = build_game(BOMBER, tmp_path, papers=("a4",))
    assert not result.report.has_errors()
    kit = PdfReader(str(tmp_path / "bomber-boys-kit-a4.pdf")).pages
    kit_manifest = json.loads((tmp_path / "bomber-boys-kit-a4.manifest.json").read_text())
    for section in COMPONENTS:
        part_path = tmp_path / f"bomber-boys-{section}-a4.pdf"
        part = PdfReader(str(part_path)).pages
        manifest = json.loads(part_path.with_suffix(".manifest.json").read_text())
        # Its sheets: those of its own section, and a sheet another section leads that holds its pieces.
        sheets = {(p["page"] - 1) // 2 for p in kit_manifest["pages"] if p["section"] == section} | \
            {(r["page"] - 1) // 2 for r in kit_manifest[section]}
        kit_pages = [p["page"] for p in kit_manifest["pages"] if (p["page"] - 1) // 2 in sheets]
        assert len(part) == len(kit_pages) == len(manifest["pages"])
        for page, number in zip(part, kit_pages):
            assert page.get_contents().get_data() == kit[number - 1].get_contents().get_data()
        # The component's manifest numbers its own pages and keeps every record of the kit's.
        assert [p["page"] for p in manifest["pages"]] == list(range(1, len(part) + 1))
        renumber = {number: i for i, number in enumerate(kit_pages, start=1)}
        kit_records = [dict(r, page=renumber[r["page"]]) for r in kit_manifest[section]]
        assert manifest[section] == kit_records
        assert "contents" not in manifest


def test_footers_give_the_kit_pdf_page_number(tmp_path):
    """The footer's number is the one the player's viewer shows for the kit; a component PDF holds
    the kit's own pages, so its footers name the kit's page (the guide cites those numbers)."""
    result = build_game(BOMBER, tmp_path, papers=("a4",))
    assert not result.report.has_errors()
    kit = PdfReader(str(tmp_path / "bomber-boys-kit-a4.pdf")).pages
    total = len(kit)
    for number, page in enumerate(kit, start=1):
        text = page.extract_text()
        assert f"page {number} of {total}" in text and "tokens page" not in text and "cards page" not in text
    tokens = PdfReader(str(tmp_path / "bomber-boys-tokens-a4.pdf")).pages
    first = next(i for i, page in enumerate(kit, start=1)
                 if page.get_contents().get_data() == tokens[0].get_contents().get_data())
    for number, page in enumerate(tokens, start=first):
        assert f"page {number} of {total}" in page.extract_text()


def test_parallel_build_matches_serial_byte_for_byte_and_progress_ends_at_total(tmp_path):
    from cardforge.output.parallel import Job, build_all
    from conftest import REPO, where_they_differ
    iron = REPO / "content" / "iron-rain"
    trace: list[tuple[int, int]] = []
    outputs = {}
    for name, workers in (("serial", 1), ("pool", 2)):
        jobs = [Job(game, tmp_path / name / game.name, paper, "duplex", None)
                for game in (BOMBER, iron) for paper in ("a4", "letter")]
        results = build_all(jobs, (lambda d, t: trace.append((d, t))) if workers == 2 else None, workers=workers)
        assert all(not r.report.has_errors() for r in results)
        outputs[name] = {p.relative_to(tmp_path / name): p.read_bytes()
                         for r in results for p in r.outputs}
    assert outputs["serial"].keys() == outputs["pool"].keys() and len(outputs["pool"]) == 48  # 6 PDFs and manifests per game and paper
    differ = [k for k in outputs["pool"] if outputs["serial"][k] != outputs["pool"][k]]
    assert differ == [], "\n".join(where_they_differ(tmp_path / "serial" / k, tmp_path / "pool" / k) for k in differ)
    done, total = trace[-1]
    assert done == total > 0
    assert all(d <= t for d, t in trace)
    assert not list(tmp_path.rglob("*.tmp"))


def _font_names(reader: PdfReader) -> tuple[set[str], set[str]]:
    """(every font object in the file, the fonts its pages and their forms select with Tf)."""
    held = set()
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
        except Exception:  # a free entry of the cross-reference table
            continue
        if hasattr(obj, "get") and obj.get("/Type") == "/Font" and "/DescendantFonts" not in obj:
            held.add(str(obj["/BaseFont"]))
    used = set()

    def walk(holder, data: bytes) -> None:
        resources = holder.get("/Resources")
        resources = resources.get_object() if resources is not None else {}
        fonts = resources.get("/Font")
        fonts = fonts.get_object() if fonts is not None else {}
        for name in {m.decode() for m in __import__("re").findall(rb"(/[^\s/\[\]()<>{}%]+)\s+[\d.]+\s+Tf", data)}:
            used.add(str(fonts[name].get_object()["/BaseFont"]))
        xobjects = resources.get("/XObject")
        for ref in (xobjects.get_object() if xobjects is not None else {}).values():
            form = ref.get_object()
            if form.get("/Subtype") == "/Form":
                walk(form, form.get_data())

    for page in reader.pages:
        walk(page, page.get_contents().get_data())
    return held, used


def test_component_pdfs_hold_only_the_fonts_their_pages_use(tmp_path):
    result = build_game(BOMBER, tmp_path, papers=("a4",))
    assert not result.report.has_errors()
    kit_held, kit_used = _font_names(PdfReader(str(tmp_path / "bomber-boys-kit-a4.pdf")))
    assert kit_held == kit_used
    fewer = 0
    for section in COMPONENTS:
        held, used = _font_names(PdfReader(str(tmp_path / f"bomber-boys-{section}-a4.pdf")))
        assert held == used, f"{section}: fonts no page uses: {sorted(held - used)}"
        fewer += held < kit_held
    assert fewer  # some component needs fewer fonts than the whole kit (else this test proves nothing)
