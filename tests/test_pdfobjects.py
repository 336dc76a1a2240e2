"""The verifier's lean PDF reader (cardforge/verify/pdfobjects.py) against pypdf: the same pages,
resources and streams from the files a build writes, pypdf for any other kind of file, and a
clear error for a damaged one."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from cardforge.cli import main
from cardforge.output.build import build_game
from cardforge.verify.pdfobjects import LeanReader, Unsupported, read_pages

REPO = Path(__file__).resolve().parent.parent
BOMBER = REPO / "content" / "bomber-boys"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A4 PDFs of Bomber Boys: the kit as reportlab writes it, the components as pdfcopy.py cuts them."""
    out = tmp_path_factory.mktemp("lean") / "out"
    result = build_game(BOMBER, out, papers=("a4",))
    assert not result.report.has_errors(), result.report.format_text()
    return out


def _plain(value, depth: int = 0):
    """A PDF value as plain Python, references followed (streams as their stored bytes), for comparing readers."""
    if depth > 12:
        return "..."
    if hasattr(value, "idnum") and hasattr(value, "get_object"):
        value = value.get_object()
    if isinstance(value, dict):
        plain = {str(k): _plain(v, depth + 1) for k, v in value.items() if k not in ("/Parent", "/Length")}
        if hasattr(value, "_data"):
            plain["stream"] = bytes(value._data)
        return plain
    if isinstance(value, list):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return round(float(value), 4)
    if isinstance(value, bytes):
        return value
    return str(value)


@pytest.mark.parametrize("component", ["kit", "cards", "boards", "tokens"])
def test_the_lean_reader_reads_every_page_as_pypdf_does(built, component):
    pdf = built / f"bomber-boys-{component}-a4.pdf"
    lean, reference = LeanReader(pdf).pages, PdfReader(str(pdf)).pages
    assert len(lean) == len(reference) > 0
    for ours, theirs in zip(lean, reference):
        for key in ("/MediaBox", "/Resources", "/Contents", "/Rotate"):
            assert _plain(ours.get(key)) == _plain(theirs.get(key)), key
        content = ours["/Contents"].get_object()
        assert content.get_data() == theirs["/Contents"].get_object().get_data()


def test_a_pdf_of_another_kind_is_read_with_pypdf(built, tmp_path):
    """An encrypted copy (a print shop's tool may save one) is not the simple kind: pypdf reads it."""
    source = PdfReader(str(built / "bomber-boys-cards-a4.pdf"))
    writer = PdfWriter(clone_from=source)
    writer.encrypt(user_password="", owner_password="shop", algorithm="RC4-128")
    encrypted = tmp_path / "encrypted.pdf"
    with open(encrypted, "wb") as fh:
        writer.write(fh)
    with pytest.raises(Unsupported):
        LeanReader(encrypted)
    pages = read_pages(encrypted)
    assert len(pages) == len(source.pages)
    assert pages[0]["/Contents"].get_object().get_data() == source.pages[0]["/Contents"].get_object().get_data()


def test_a_damaged_pdf_is_one_clear_error(built, tmp_path, capsys, monkeypatch):
    """A printed PDF cut short (a download stopped half-way) is reported, not a traceback."""
    (tmp_path / "old").mkdir()
    shutil.copy(built / "bomber-boys-cards-a4.manifest.json", tmp_path / "old")
    data = (built / "bomber-boys-cards-a4.pdf").read_bytes()
    (tmp_path / "old" / "bomber-boys-cards-a4.pdf").write_bytes(data[:len(data) // 2])
    shutil.copytree(BOMBER, tmp_path / "bomber-boys")
    monkeypatch.chdir(tmp_path)
    code = main(["check", "bomber-boys", "--layouts", str(REPO / "layouts"),
                 "--printed", "old/bomber-boys-cards-a4.pdf"])
    err = capsys.readouterr().err
    assert code == 1
    lines = [line for line in err.splitlines() if "E-PRINTED-PDF" in line]
    assert lines == ["cardforge: error[E-PRINTED-PDF]: old/bomber-boys-cards-a4.pdf: cannot read the PDF: the file "
                     "ends without its cross-reference table: it was cut short, or is no PDF"], err
    assert "Traceback" not in err


def test_a_build_does_not_import_pypdf(tmp_path):
    """A build reads its PDFs back and cuts its kit into components with the lean reader: pypdf,
    a tenth of a second and some twenty megabytes, is imported only for a PDF of another kind."""
    script = ("import sys; from pathlib import Path; from cardforge.output.build import build_game; "
              f"r = build_game(Path({str(BOMBER)!r}), Path({str(tmp_path / 'out')!r}), papers=('a4',)); "
              "assert not r.report.has_errors(), r.report.format_text(); "
              "print(sorted(p.name for p in r.outputs if p.suffix == '.pdf')); print('pypdf' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=str(REPO), timeout=300)
    assert done.returncode == 0, done.stderr
    names, imported = done.stdout.splitlines()
    assert "bomber-boys-cards-a4.pdf" in names and "bomber-boys-kit-a4.pdf" in names
    assert imported == "False"


def test_a_page_whose_content_is_damaged_is_one_clear_error(built, tmp_path, capsys, monkeypatch):
    """The file's structure reads, but a page's compressed drawing does not (a bit flipped on a
    disk): one error naming the page, then nothing more of that file, and no traceback."""
    pdf = built / "bomber-boys-cards-a4.pdf"
    reader = LeanReader(pdf)
    content = reader.pages[0]["/Contents"].get_object()
    start, end = content._span
    data = bytearray(pdf.read_bytes())
    data[start + 10:end - 10] = bytes(b ^ 0x55 for b in data[start + 10:end - 10])
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / pdf.name).write_bytes(bytes(data))
    shutil.copy(pdf.with_suffix(".manifest.json"), tmp_path / "old")
    shutil.copytree(BOMBER, tmp_path / "bomber-boys")
    monkeypatch.chdir(tmp_path)
    code = main(["check", "bomber-boys", "--layouts", str(REPO / "layouts"), "--printed", f"old/{pdf.name}"])
    err = capsys.readouterr().err
    assert code == 1
    lines = [line for line in err.splitlines() if "error[" in line]
    assert len(lines) == 1 and lines[0].startswith(
        "cardforge: error[E-PRINTED-PDF]: old/bomber-boys-cards-a4.pdf page 1: cannot read it: "), err
    assert "Traceback" not in err


def test_a_damaged_content_stream_is_read_in_time_in_proportion_to_its_length():
    """A run of long numbers with no operator after it once made the tokenizer try every way of
    splitting each number's digits (minutes for a few hundred bytes of a damaged page)."""
    script = ("from cardforge.verify.pdftokens import _TOKEN; "
              "data = b'12345678901234567890 ' * 40 + b'5 (unclosed ' + b'1 ' * 50000 + b'<12 34'; "
              "print(len(_TOKEN.findall(data)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=str(REPO), timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 40


def test_mutated_pdfs_are_read_or_refused_never_a_traceback(built, tmp_path):
    """Bytes changed, cut, or PDF syntax inserted anywhere in a kit (seeded): reading its pages and
    their content gives pages, or ValueError/OSError for the file, or one of `damage_errors` for
    a page, as the verifier expects; nothing else escapes.  Mutating kits this way found a
    tokenizer that backtracked for minutes and tracebacks from damaged streams (59c8201)."""
    import random

    from cardforge.verify.pdfobjects import damage_errors
    from cardforge.verify.pdfread import PageReader
    source = (built / "bomber-boys-tokens-a4.pdf").read_bytes()
    rng = random.Random(27)
    target = tmp_path / "mutated.pdf"
    outcomes = {"read": 0, "file refused": 0, "page refused": 0}
    for _ in range(60):
        data = bytearray(source)
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(data))
            kind = rng.random()
            if kind < 0.4:
                data[at] = rng.randrange(256)
            elif kind < 0.7:
                del data[at:at + rng.randint(1, 40)]
            else:
                data[at:at] = rng.choice([b"<<", b">>", b"[", b"]", b"(", b")", b"9999 0 R", b"/Length 5",
                                          b"stream\n", b"endobj", b"%", b"1234567890123456789 " * 20])
        target.write_bytes(bytes(data))
        try:
            pages = read_pages(target)
        except (ValueError, OSError):
            outcomes["file refused"] += 1
            continue
        try:
            fonts: dict = {}
            for page in pages:
                PageReader(page, fonts).read()
            outcomes["read"] += 1
        except damage_errors():
            outcomes["page refused"] += 1
    assert sum(outcomes.values()) == 60
    assert outcomes["read"] > 0 and outcomes["file refused"] + outcomes["page refused"] > 0, outcomes
