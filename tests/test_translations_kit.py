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
    total, first = len(contents), contents.index("Besatzungskarten, Vorderseiten") + 1  # the PDF's page numbers
    assert f"Bomber Boys · Besatzungskarten, Vorderseiten · Seite {first} von {total}" in text
    assert f"Bomber Boys · Besatzungskarten, Rückseiten · Seite {first + 1} von {total}" in text
    blank = contents.index("absichtlich leer") + 1
    assert "Bomber Boys · absichtlich leer · " in pdftext(kit, blank, blank)
    for word in ("fronts", "backs", "intentionally blank"):
        assert word not in text, word


CJK_STYLES = "**汉字汉字** *汉字汉字* 汉字汉字"


def _cjk_kit(tmp_path: Path) -> Path:
    """A Chinese translation whose text has a bold, an italic and a regular word of the same letters."""
    from conftest import GAME_YAML, make_game
    from cardforge.cli import main
    game_yaml = GAME_YAML.replace("card_size: poker\n", "languages: [zh]\ncard_size: poker\n") + \
        "font_fallbacks: {sans: [symbols, cjk]}\n"
    game = make_game(tmp_path, game_yaml=game_yaml, files={
        "translations/zh/cards.yaml": f'cards:\n  - id: alpha\n    text: "{CJK_STYLES}"\n'})
    cwd = os.getcwd()
    os.chdir(game.parent)
    try:
        assert main(["build", game.name, "--lang", "zh", "--paper", "a4", "--out", "out", "-j", "1"]) == 0
    finally:
        os.chdir(cwd)
    return game.parent / "out" / "tiny" / "tiny-cards-a4-zh.pdf"


def test_bold_and_italic_cjk_are_drawn_in_synthesized_faces_that_look_bold_and_slanted(tmp_path):
    import pdfplumber
    pdf_path = _cjk_kit(tmp_path)
    assert "汉字汉字 汉字汉字 汉字汉字" in pdftext(pdf_path).replace("\n", " ")
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        chars = [c for c in page.chars if c["text"] in "汉字"]
    words = [chars[i:i + 4] for i in (0, 4, 8)]
    bold, italic, regular = words
    assert {c["fontname"].split("+")[1].rsplit("-", 1)[0] for c in bold} == {"WenQuanYiMicroHei,Bold"}, bold[0]
    assert {c["fontname"].split("+")[1].rsplit("-", 1)[0] for c in italic} == {"WenQuanYiMicroHei,Italic"}, italic[0]
    assert {c["fontname"].split("+")[1].rsplit("-", 1)[0] for c in regular} == {"WenQuanYiMicroHei"}, regular[0]
    # Italic: the text matrix slants (x grows with y); upright for the other two.
    assert all(c["matrix"][2] > 0.15 * c["matrix"][3] for c in italic), italic[0]["matrix"]
    assert all(abs(c["matrix"][2]) < 1e-6 for c in bold + regular)
    fonts = subprocess.run(["pdffonts", str(pdf_path)], capture_output=True, text=True, check=True).stdout
    assert all(row.split()[-5:-3] == ["yes", "yes"] for row in fonts.splitlines()[2:]), fonts
    # Bold: its strokes darken more of the paper than the same letters set regular, on the printed page.
    from PIL import Image
    subprocess.run(["pdftoppm", "-png", "-r", "200", "-f", "1", "-l", "1", str(pdf_path), str(tmp_path / "page")],
                   check=True)
    image = Image.open(next(tmp_path.glob("page*.png"))).convert("L")
    scale = 200 / 72

    def ink(word) -> int:
        box = [round(v * scale) for v in (word[0]["x0"], word[0]["top"], word[-1]["x1"], word[-1]["bottom"])]
        return image.crop(box).point(lambda v: 255 if v < 128 else 0).histogram()[255]
    assert ink(bold) > 1.25 * ink(regular), (ink(bold), ink(regular))


def test_the_boards_data_is_translated_from_the_overlays_board_record(german):
    mat = pdftext(german / "bomber-boys-boards-a4-de.pdf")
    for german_label in ("3 Neuwürfe", "2 Neuwürfe", "1 Neuwurf", "ZERSTÖRT"):
        assert german_label in mat, german_label
    assert "re-roll" not in mat and "DESTROYED" not in mat
    assert "ZERSTÖRT" in pdftext(german / "bomber-boys-kit-a4-de.pdf")


def _check_sheets(tmp_path: Path, capsys, monkeypatch, overlay: str) -> tuple[int, list[str]]:
    from conftest import headlines
    from cardforge.cli import main
    game = tmp_path / "content" / "bomber-boys"
    copy_tree(BOMBER, game)
    (game / "translations/de/boards.yaml").write_text(overlay, "utf-8")
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name, "--lang", "de", "--layouts", str(REPO / "layouts")])
    return code, headlines(capsys.readouterr().err)


def test_a_board_record_is_checked_like_a_card_fit_icons_homoglyphs_unknown_keys_and_ids(tmp_path, capsys,
                                                                                          monkeypatch):
    code, lines = _check_sheets(tmp_path, capsys, monkeypatch, """\
boards:
  - id: player-mat
    data:
      major_damage: [":star: 3 Neuwürfe", 3 N\u0435uwürfe, 2 Neuwürfe, 2 Neuwürfe, 1 Neuwurf, "ZERSTÖRT ZERSTÖRT ZERSTÖRT ZERSTÖRT ZERSTÖRT ZERSTÖRT ZERSTÖRT"]
      major_damag: x
references:
  - id: referenc
    name: Übersicht
""")
    assert code == 1
    where = "bomber-boys/translations/de/boards.yaml"
    assert [line.split(": ", 2)[:2] for line in lines] == [
        [f"{where}:2:5", "error[E-TEXT-OVERFLOW]"], [f"{where}:4:22", "warning[W-ICON-PARITY]"],
        [f"{where}:4:45", "warning[W-HOMOGLYPH]"], [f"{where}:5:7", "error[E-TRANSLATION]"],
        [f"{where}:7:9", "error[E-TRANSLATION]"]], lines
    assert "board 'player-mat' (front), frame 'major-track'" in lines[0]
    assert lines[1].endswith("extra star") and "('е' U+0435)" in lines[2]
    assert "sets 'major_damag'" in lines[3] and "'referenc' names no reference sheet of the game" in lines[4]


def test_a_boards_track_keeps_its_count_of_labels(tmp_path, capsys, monkeypatch):
    code, lines = _check_sheets(tmp_path, capsys, monkeypatch, """\
boards:
  - id: player-mat
    data:
      major_damage: [3 Neuwürfe, 2 Neuwürfe, 1 Neuwurf, ZERSTÖRT]
""")
    assert (code, lines) == (1, ["bomber-boys/translations/de/boards.yaml:4:21: error[E-TRANSLATION]: the translation "
                                 "has 4 items where the source has 6"]), lines


def test_no_english_is_left_where_a_german_player_reads(german):
    """Cards, tokens, mat, reference, cover and guide: the layouts' own words (through tr() with
    placeholders), the cover's credits, and the guide's pieces and what the player brings."""
    text = "\n".join(pdftext(pdf) for pdf in sorted(german.glob("*-de.pdf")) if "-kit-" not in pdf.name)
    for english in ("BASE CARD", "Gather all", "Shuffle, then", "Roll the five", "ATTACK", "o’clock", "Range ",
                    "GROUND", "FOCUS", "Game design", "given by the rulebook", "Crew cards", "Setting up the game",
                    "Icons by", "· ENEMY", "· ITEM", "Enemy Aircraft (randomly selected)"):
        assert english not in text, english
    for german_text in ("BASISKARTE", "Nimm alle Basiskarten", "Mische, dann lege die Zielseite dieser Karte unter die 17",
                        "Wirf die fünf Munitionswürfel", "ANGRIFF", "12 Uhr", "Reichweite 1:", "FOKUS",
                        "Spieldesign Steven Aramini", "zwölfseitiger Würfel (Schaden)",
                        "Normalpapier, 80-120 g/m²", "· GEGENSTAND ·", "Feindflugzeuge (zufällig gewählt)"):
        assert german_text in text.replace("\n", " "), german_text


def test_status_counts_the_boards_with_text_data(tmp_path, capsys, monkeypatch):
    from cardforge.cli import main
    game = tmp_path / "content" / "bomber-boys"
    copy_tree(BOMBER, game)
    monkeypatch.chdir(game.parent)
    assert main(["translate", "status", game.name]) == 0
    assert "  boards and reference sheets with text data: 1/1 translated\n" in capsys.readouterr().out
    (game / "translations/de/boards.yaml").unlink()
    main(["translate", "status", game.name])
    assert "  boards and reference sheets with text data: 0/1 translated; not translated: player-mat (a 'boards:' " \
        "record of its data)\n" in capsys.readouterr().out
