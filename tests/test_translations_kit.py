"""The German Bomber Boys kit, read back as its player reads it (issue 30): what cardforge itself
prints around the pieces (page labels in footers and the manifest) and the boards' data speak
German, and bold and italic CJK text is drawn in faces of its own."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BOMBER, REPO, copy_tree


@pytest.fixture(scope="module")
def german(tmp_path_factory) -> Path:
    """The German kit of Bomber Boys (A4, duplex), built once; the folder of its PDFs."""
    root = tmp_path_factory.mktemp("de") / "content"
    copy_tree(BOMBER, root / "bomber-boys")
    run = subprocess.run([sys.executable, "-m", "cardforge", "build", "bomber-boys", "--lang", "de", "--paper", "a4",
                          "--out", "out", "-j", "1", "--layouts", str(REPO / "layouts")],
                         cwd=root, capture_output=True, text=True, env=dict(os.environ))
    assert run.returncode == 0, run.stderr
    return root / "out" / "bomber-boys"


def pdftext(pdf: Path, first: int | None = None, last: int | None = None) -> str:
    pages = (["-f", str(first)] if first else []) + (["-l", str(last)] if last else [])
    return subprocess.run(["pdftotext", *pages, str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_page_labels_in_footers_and_manifest_come_from_the_string_table(german):
    kit = german / "bomber-boys-kit-a4-de.pdf"
    manifest = json.loads((german / "bomber-boys-kit-a4-de.manifest.json").read_text("utf-8"))
    contents = [page["content"] for page in manifest["pages"]]
    assert "Besatzungskarten, Vorderseiten" in contents and "Besatzungskarten, Rückseiten" in contents, contents
    assert "absichtlich leer" in contents and "Titelblatt und Inhalt" in contents, contents
    english = [c for c in contents if any(w in c for w in ("fronts", "backs", "intentionally blank", "Cover"))]
    assert english == [], english
    text = pdftext(kit)
    assert "Bomber Boys · Besatzungskarten, Vorderseiten · Karten, Seite 1 von 16" in text
    assert "Bomber Boys · Besatzungskarten, Rückseiten · Karten, Seite 2 von 16" in text
    blank = contents.index("absichtlich leer") + 1
    assert "Bomber Boys · absichtlich leer · " in pdftext(kit, blank, blank)
    for word in ("fronts", "backs", "intentionally blank"):
        assert word not in text, word
