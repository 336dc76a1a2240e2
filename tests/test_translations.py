"""Translations as overlays (issue 30): a language's records replace fields of the source cards,
and `check --lang` / `build --lang` run the whole pipeline on them, with every diagnostic at the
overlay's line."""
from __future__ import annotations

from pathlib import Path

from conftest import GAME_YAML, headlines, make_game

GAME_DE = GAME_YAML.replace("card_size: poker\n", "languages: [de]\ncard_size: poker\n")

OVERLAY = """\
cards:
  - id: alpha
    title: Alpha (de)
    text: "Erste Karte, **fett** und *kursiv*."
  - id: beta
    text: "Zweite Karte mit einem Symbol :star: im Text."
"""


def game_de(tmp_path: Path, overlay: str = OVERLAY) -> Path:
    return make_game(tmp_path, game_yaml=GAME_DE, files={"translations/de/cards.yaml": overlay})


def check(game: Path, capsys, monkeypatch, *extra: str) -> tuple[int, list[str]]:
    from cardforge.cli import main
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name, *extra])
    return code, headlines(capsys.readouterr().err)


def test_a_clean_overlay_checks_in_its_language_and_the_source(tmp_path, capsys, monkeypatch):
    game = game_de(tmp_path)
    assert check(game, capsys, monkeypatch, "--lang", "de") == (0, [])
    assert check(game, capsys, monkeypatch, "--lang", "all") == (0, [])
    assert check(game, capsys, monkeypatch) == (0, [])  # the overlay files are not "ignored files"


def test_overflow_in_the_translation_is_an_error_at_the_overlay_line(tmp_path, capsys, monkeypatch):
    long = "Eine sehr lange Übersetzung, die nicht passt. " * 60
    game = game_de(tmp_path, OVERLAY.replace("Zweite Karte mit einem Symbol :star: im Text.", long + ":star:"))
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert code == 1
    assert [line.split(": error")[0] for line in lines if "E-TEXT-OVERFLOW" in line] == \
        ["tiny/translations/de/cards.yaml:5:5"]
    assert check(game, capsys, monkeypatch) == (0, [])  # the source still fits


def test_a_record_matching_no_card_and_a_field_the_source_lacks_are_errors(tmp_path, capsys, monkeypatch):
    game = game_de(tmp_path, OVERLAY + "  - id: gamma\n    title: Gamma\n  - id: alpha\n    flavor: Neu\n")
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert code == 1
    assert "tiny/translations/de/cards.yaml:7:5: error[E-TRANSLATION]: 'gamma' names no card of the game" in lines
    assert any(line.startswith("tiny/translations/de/cards.yaml:9:5: error[E-TRANSLATION]") and "'alpha'" in line
               for line in lines), lines  # alpha translated twice
    game2 = game_de(tmp_path / "b", OVERLAY.replace("    title: Alpha (de)\n", "    titel: Alpha (de)\n"))
    code, lines = check(game2, capsys, monkeypatch, "--lang", "de")
    assert code == 1
    assert lines == ["tiny/translations/de/cards.yaml:3:5: error[E-TRANSLATION]: the translation sets 'titel', "
                     "which its source record does not have"]


def test_cyrillic_letter_in_a_latin_word_warns_at_its_line_and_column(tmp_path, capsys, monkeypatch):
    game = game_de(tmp_path, OVERLAY.replace("Erste Karte", "Erste W\u0430chhund-Karte"))
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert code == 0
    assert lines == ["tiny/translations/de/cards.yaml:4:18: warning[W-HOMOGLYPH]: 'W\u0430chhund' mixes Latin "
                     "letters with Cyrillic ones ('\u0430' U+0430)"]
    from cardforge.frontend.translations import mixed_words
    assert mixed_words("A漢字カードB und Ελλάδα, ΑΒΓ, Москва") == []  # Latin beside CJK is normal writing
    assert mixed_words("Wαchhund Ψych") == [("Wαchhund", "Greek"), ("Ψych", "Greek")]


def test_icon_parity_names_what_is_missing_and_what_is_extra(tmp_path, capsys, monkeypatch):
    game = game_de(tmp_path, OVERLAY.replace(":star: im Text", ":heart: im Text"))
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert any(line == "tiny/translations/de/cards.yaml:6:11: warning[W-ICON-PARITY]: the translation's icons "
               "differ from the source's: missing star; extra heart" for line in lines), lines


def test_an_unknown_language_is_a_usage_error(tmp_path, capsys, monkeypatch):
    from cardforge.cli import main
    game = game_de(tmp_path)
    monkeypatch.chdir(game.parent)
    assert main(["check", game.name, "--lang", "fr"]) == 2
    assert "has no language 'fr' (it has: de)" in capsys.readouterr().err


def test_build_lang_all_writes_a_kit_per_language_with_the_language_in_its_name(tmp_path, capsys, monkeypatch):
    import pypdf
    from cardforge.cli import main
    game = game_de(tmp_path)
    monkeypatch.chdir(game.parent)
    assert main(["build", game.name, "--lang", "all", "--paper", "a4", "--out", "out", "-j", "1"]) == 0
    folder = game.parent / "out" / "tiny"
    source, german = folder / "tiny-kit-a4.pdf", folder / "tiny-kit-a4-de.pdf"
    assert source.is_file() and german.is_file() and (folder / "tiny-cards-a4-de.pdf").is_file()
    text_de = "".join(page.extract_text() for page in pypdf.PdfReader(german).pages)
    text_en = "".join(page.extract_text() for page in pypdf.PdfReader(source).pages)
    assert "Erste Karte" in text_de and "Alpha (de)" in text_de and "First card" not in text_de
    assert "First card" in text_en and "Erste Karte" not in text_en
