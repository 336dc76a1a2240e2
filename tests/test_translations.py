"""Translations as overlays (issue 30): a language's records replace fields of the source cards,
and `check --lang` / `build --lang` run the whole pipeline on them, with every diagnostic at the
overlay's line."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CARDS_YAML, FRONT_LAYOUT, GAME_YAML, headlines, make_game

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
    # at the translated text (line 6), under the first word cut off, not at the record's id
    assert [line.split(": error")[0] for line in lines if "E-TEXT-OVERFLOW" in line] == \
        ["tiny/translations/de/cards.yaml:6:718"]
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
    (game / "translations/de/strings.yaml").write_text("strings:\n  TINY BACK: KLEINE RÜCKSEITE\n", "utf-8")
    monkeypatch.chdir(game.parent)
    assert main(["build", game.name, "--lang", "all", "--paper", "a4", "--out", "out", "-j", "1"]) == 0
    folder = game.parent / "out" / "tiny"
    source, german = folder / "tiny-kit-a4.pdf", folder / "tiny-kit-a4-de.pdf"
    assert source.is_file() and german.is_file() and (folder / "tiny-cards-a4-de.pdf").is_file()
    text_de = "".join(page.extract_text() for page in pypdf.PdfReader(german).pages)
    text_en = "".join(page.extract_text() for page in pypdf.PdfReader(source).pages)
    assert "Erste Karte" in text_de and "Alpha (de)" in text_de and "First card" not in text_de
    assert "First card" in text_en and "Erste Karte" not in text_en
    # the layout's literal label, from the language's string table
    assert "KLEINE RÜCKSEITE" in text_de and "TINY BACK" not in text_de
    assert "TINY BACK" in text_en and "KLEINE" not in text_en
    # `check --printed` compares each kit with the data in its own language (the manifest says which)
    capsys.readouterr()
    assert main(["check", game.name, "--printed", str(german), "--printed", str(source)]) == 0
    overlay = game / "translations/de/cards.yaml"
    overlay.write_text(overlay.read_text("utf-8").replace("Alpha (de)", "Alpha (neu)"), "utf-8")
    assert main(["check", game.name, "--printed", str(german), "--printed", str(source)]) == 1
    errors = [line for line in headlines(capsys.readouterr().err) if "E-PRINTED-TEXT" in line]
    assert errors and all("tiny-kit-a4-de.pdf" in line and "Alpha (neu)" in line for line in errors), errors


def translate(game: Path, capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    from cardforge.cli import main
    monkeypatch.chdir(game.parent)
    code = main(["translate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_status_counts_records_and_fields_and_says_when_there_are_no_fingerprints(tmp_path, capsys, monkeypatch):
    game = game_de(tmp_path)
    code, out, _ = translate(game, capsys, monkeypatch, "status", game.name)
    assert code == 0
    assert out.splitlines() == [
        "de: 2/2 records translated, 1 untranslated field",
        "  no translation carries a 'source:' fingerprint: all are counted as current "
        "(`cardforge translate update` adds them to new records)",
        "  untranslated: beta: title"]


def test_update_writes_a_skeleton_keeps_translations_and_status_reports_a_source_edit_as_stale(
        tmp_path, capsys, monkeypatch):
    game = game_de(tmp_path, "# Tiny, German.\ncards:\n  - id: alpha\n    title: Alpha (de)\n")
    code, out, _ = translate(game, capsys, monkeypatch, "update", game.name, "de")
    assert code == 0 and "wrote" in out
    written = (game / "translations/de/cards.yaml").read_text("utf-8")
    from cardforge.frontend.record_digest import card_digest
    from cardforge.diagnostics import Report
    from cardforge.frontend.model import load_game
    beta = next(c for c in load_game(game, Report()).cards() if c.id == "beta")
    assert written.startswith("# Tiny, German.\ncards:\n  - id: alpha\n    title: Alpha (de)\n")
    assert f"  - id: beta\n    source: {card_digest(beta)}\n    # title: Beta\n" in written
    assert "    # text: 'Second card with an icon :star: inline.'\n" in written
    assert "    # text: First card, **bold** and *italic*.\n" in written  # alpha's missing field
    # the skeleton is a valid overlay, and prints the source text until it is translated, which check says
    assert check(game, capsys, monkeypatch, "--lang", "de") == (0, [
        "tiny/game.yaml:3:12: warning[W-UNTRANSLATED]: 'de': 1 of 2 cards not translated (beta); the kit prints "
        "their source text"])
    code, out, _ = translate(game, capsys, monkeypatch, "status", game.name)
    assert out.splitlines()[0] == "de: 1/2 records translated, 3 untranslated fields, 0 stale"
    # translate beta, then edit its English text: the translation is stale
    path = game / "translations/de/cards.yaml"
    path.write_text(path.read_text("utf-8").replace("    # title: Beta\n", "    title: Beta (de)\n"), "utf-8")
    cards = game / "cards/cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("Second card", "The second card"), "utf-8")
    code, out, _ = translate(game, capsys, monkeypatch, "status", game.name)
    lines = out.splitlines()
    assert lines[0] == "de: 2/2 records translated, 2 untranslated fields, 1 stale"
    assert lines[1].startswith("  stale: beta (tiny/translations/de/cards.yaml:7): translated from "
                               f"{card_digest(beta)}, the source is now ")


def test_the_german_bomber_boys_checks_and_lengthening_a_text_fails_at_the_overlay_line(tmp_path, capsys,
                                                                                         monkeypatch):
    from conftest import BOMBER, REPO, copy_tree, edit
    from cardforge.cli import main
    game = tmp_path / "content" / "bomber-boys"
    copy_tree(BOMBER, game)
    monkeypatch.chdir(game.parent)
    assert main(["check", game.name, "--lang", "de", "--layouts", str(REPO / "layouts")]) == 0
    capsys.readouterr()
    rel = "translations/de/items.yaml"
    edit(game, rel, "Senke den **Initiative**wert eines feindlichen Flugzeugs um 1.",
         "Senke den **Initiative**wert eines feindlichen Flugzeugs um 1. " + "Dieser Satz ist viel zu lang. " * 40)
    assert main(["check", game.name, "--lang", "de", "--layouts", str(REPO / "layouts")]) == 1
    lines = headlines(capsys.readouterr().err)
    line = next(i for i, text in enumerate((game / rel).read_text("utf-8").splitlines(), 1)
                if "Dieser Satz ist viel zu lang" in text)  # at the translated text, under the first word cut off
    assert [text.split(" error")[0] for text in lines] == [f"bomber-boys/{rel}:{line}:592:"], lines
    assert "E-TEXT-OVERFLOW" in lines[0] and "card 'recognition-models'" in lines[0]


def test_a_published_json_overlay_keyed_by_code_with_a_renamed_symbol_alias(tmp_path, capsys, monkeypatch):
    """The shape ArkhamDB and NetrunnerDB publish: a JSON list of records keyed by `code`, carrying
    only the translated fields, with `[symbol]` markup; `[free]` is declared an older name of `[fast]`."""
    game_yaml = GAME_YAML.replace("card_size: poker\n", "languages: [{lang: fr, path: translations/fr/pack}]\n"
                                  "markup: {symbols: '[name]', icons: {fast: star, free: star}}\ncard_size: poker\n")
    game_yaml = game_yaml.replace("    cards: cards/cards.yaml\n", "    cards: cards/core.json\n    id_from: code\n")
    game_yaml = game_yaml.replace("      title: {type: string}\n", "      title: {type: string}\n      code: {type: string}\n")
    cards = ('[{"code": "01001", "title": "Alpha", "text": "Act [fast]: draw.", "cost": 1},\n'
             ' {"code": "01002", "title": "Beta", "text": "Plain.", "cost": 2}]\n')
    overlay = ('[{"code": "01001", "title": "Alpha (fr)", "text": "Agir [free] : piocher."},\n'
               ' {"code": "01002", "text": "Simple [fast]."},\n'
               ' {"code": "01099", "title": "Inconnue"}]\n')
    game = make_game(tmp_path, game_yaml=game_yaml, cards_yaml=None,
                     files={"cards/core.json": cards, "translations/fr/pack/core.fr.json": overlay})
    code, lines = check(game, capsys, monkeypatch, "--lang", "fr")
    assert code == 1
    assert lines == [
        "tiny/translations/fr/pack/core.fr.json:2:28: warning[W-ICON-PARITY]: the translation's icons differ from the "
        "source's: extra star",
        "tiny/translations/fr/pack/core.fr.json:3:2: error[E-TRANSLATION]: '01099' names no card of the game"], lines


def test_table_rows_are_translated_in_order_and_a_row_count_mismatch_is_an_error(tmp_path):
    from cardforge.diagnostics import Report
    from cardforge.frontend.model import load_game
    game_yaml = GAME_DE + "tables:\n  steps:\n    - {step: '1', name: Reveal}\n    - {step: '2', name: Fight}\n"
    tables = "tables:\n  steps:\n    - {name: Aufdecken}\n    - {name: Kämpfen}\n"
    game = make_game(tmp_path, game_yaml=game_yaml, files={"translations/de/cards.yaml": OVERLAY,
                                                           "translations/de/tables.yaml": tables})
    report = Report()
    loaded = load_game(game, report, lang="de")
    assert not report.items
    assert list(loaded.tables["steps"]) == [{"step": "1", "name": "Aufdecken"}, {"step": "2", "name": "Kämpfen"}]
    assert list(load_game(game, Report()).tables["steps"])[0]["name"] == "Reveal"
    (game / "translations/de/tables.yaml").write_text("tables:\n  steps:\n    - {name: Aufdecken}\n", "utf-8")
    report = Report()
    load_game(game, report, lang="de")
    assert [(d.code, d.position.line, d.message) for d in report.items] == [
        ("E-TRANSLATION", 3, "the translation has 1 item where the source has 2")]


# -- fonts for every script ---------------------------------------------------------------------------

def test_a_missing_glyph_names_its_script_and_the_fallback_to_add_then_cjk_prints_it_subset(
        tmp_path, capsys, monkeypatch):
    import pdfplumber
    import subprocess
    from cardforge.cli import main
    game = game_de(tmp_path, OVERLAY.replace("Erste Karte,", "Erste 한국 Karte, 漢字,"))
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert code == 1
    assert lines == ["tiny/translations/de/cards.yaml:2:5: error[E-GLYPH]: card 'alpha' (front), frame 'text' of "
                     "layout 'front': font 'sans-regular' has no glyph for '국' (U+AD6D, Hangul), '한' (U+D55C, "
                     "Hangul), '字' (U+5B57, Han), '漢' (U+6F22, Han)"], lines
    monkeypatch.chdir(game.parent)
    main(["check", game.name, "--lang", "de"])
    assert "= help: add a font that has Han and Hangul letters to the fallback chain of 'sans' in game.yaml: " \
        "font_fallbacks: {sans: [cjk]}" in capsys.readouterr().err
    (game / "game.yaml").write_text(GAME_DE + "font_fallbacks: {sans: [symbols, cjk]}\n", "utf-8")
    assert main(["build", game.name, "--lang", "de", "--paper", "a4", "--out", "out", "-j", "1"]) == 0
    pdf_path = game.parent / "out/tiny/tiny-cards-a4-de.pdf"
    with pdfplumber.open(pdf_path) as pdf:
        hangul = [c for page in pdf.pages for c in page.chars if c["text"] in "한국漢字"]
        text = "".join(page.extract_text() for page in pdf.pages)
    assert len(hangul) == 4 and all(c["fontname"].endswith("+WenQuanYiMicroHei-0") for c in hangul), hangul
    assert "Erste 한국 Karte, 漢字," in text
    fonts = subprocess.run(["pdffonts", str(pdf_path)], capture_output=True, text=True, check=True).stdout
    rows = fonts.splitlines()[2:]
    assert rows and all(row.split()[-5:-3] == ["yes", "yes"] for row in rows), fonts  # embedded, subset
    assert pdf_path.stat().st_size < 400_000  # a subset of the 5 MB font, not the font


def test_a_glyph_no_font_of_ours_has_says_how_to_bring_a_font(tmp_path, capsys, monkeypatch):
    from cardforge.cli import main
    from cardforge.layout.fonts import script_of
    game = make_game(tmp_path, game_yaml=GAME_YAML + "font_fallbacks: {sans: [cjk]}\n",
                     cards_yaml=CARDS_YAML.replace("First card,", "First ሀ card,"))  # Ethiopic
    monkeypatch.chdir(game.parent)
    assert main(["check", game.name]) == 1
    err = capsys.readouterr().err
    assert "font 'sans-regular' has no glyph for 'ሀ' (U+1200, Ethiopic)" in err
    assert "= help: copy a TrueType font that has Ethiopic letters into the game folder with its licence, name it " \
        "under 'fonts:' (fonts: {mine: {regular: fonts/Mine.ttf}}) and add it to the fallback chain of 'sans': " \
        "font_fallbacks: {sans: [cjk, mine]}; or replace the character" in err
    assert [script_of(ch) for ch in "Жλカひ、→7"] == ["Cyrillic", "Greek", "Katakana", "Hiragana", "Han", None, None]


def _published(tmp_path: Path, languages: str, files: dict[str, str], text: str = "Act [fast]: draw [[Spell]].",
               layout_yaml: str | None = None) -> Path:
    """A small database in the published shape: a JSON pack keyed by `code`, [symbols], [[Trait]]."""
    game_yaml = GAME_YAML.replace("card_size: poker\n", languages + "font_fallbacks: {sans: [cjk], display: [cjk]}\n"
                                  "markup: {preset: arkhamdb, icons: {fast: star, free: star}}\ncard_size: poker\n")
    game_yaml = game_yaml.replace("    cards: cards/cards.yaml\n", "    cards: pack/core.json\n    id_from: code\n")
    game_yaml = game_yaml.replace("      title: {type: string}\n", "      title: {type: string}\n      code: {type: string}\n"
                                  "      keywords: {type: string}\n")
    cards = (f'[{{"code": "01001", "title": "Alpha", "text": "{text}", "cost": 1}},\n'
             ' {"code": "01002", "title": "Beta", "text": "Plain.", "cost": 2, "keywords": "Connection"}]\n')
    extra = {"layout_yaml": layout_yaml} if layout_yaml else {}
    return make_game(tmp_path, game_yaml=game_yaml, cards_yaml=None, files={"pack/core.json": cards, **files}, **extra)


def test_arkhamdb_shape_files_choose_the_packs_traits_are_words_and_free_is_fast(tmp_path, capsys, monkeypatch):
    # ArkhamDB: translations/<lang>/pack/<cycle>/<pack>.json; a language's folder holds every pack.
    core = ('[{"code": "01001", "title": "Alpha (de)", "text": "Aktion [free]: ziehe [[Zauber]]."},\n'
            ' {"code": "01002", "text": "Einfach [fast]."}]\n')
    other = '[{"code": "02001", "title": "Anderes Paket"}]\n'
    languages = "languages:\n  - {lang: de, path: translations/de/pack/core, files: [core.json]}\n"
    game = _published(tmp_path, languages, {"translations/de/pack/core/core.json": core,
                                            "translations/de/pack/core/rcore.json": other})
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert (code, lines) == (0, ["tiny/translations/de/pack/core/core.json:2:28: warning[W-ICON-PARITY]: the "
                                 "translation's icons differ from the source's: extra star"]), lines
    (game / "game.yaml").write_text((game / "game.yaml").read_text("utf-8").replace("files: [core.json]",
                                                                                   "files: [core.json, cor.json]"))
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert "tiny/game.yaml:4:68: warning[W-IGNORE]: 'cor.json' matches no overlay file of " \
        "'translations/de/pack/core'" in lines, lines


def test_netrunnerdb_shape_a_field_only_other_cards_have_warns_and_prints_the_source(tmp_path, capsys, monkeypatch):
    # NetrunnerDB: translations/<lang>/pack/<pack>.<lang>.json; Corporate Troubleshooter lost its keywords.
    overlay = ('[{"code": "01001", "title": "Alpha", "keywords": "Kontakt", "text": "Agir [fast] : [[Sort]]."}]\n')
    languages = "languages:\n  - {lang: fr, path: translations/fr/pack, files: ['core.*.json']}\n"
    game = _published(tmp_path, languages, {"translations/fr/pack/core.fr.json": overlay,
                                            "translations/fr/pack/td.fr.json": '[{"code": "09001"}]\n'})
    code, lines = check(game, capsys, monkeypatch, "--lang", "fr")
    assert (code, lines) == (0, ["tiny/game.yaml:4:3: warning[W-UNTRANSLATED]: 'fr': 1 of 2 cards not translated "
                                 "(01002); the kit prints their source text",
                                 "tiny/translations/fr/pack/core.fr.json:1:38: warning[W-TRANSLATION-FIELD]: the "
                                 "translation sets 'keywords', which its source record does not have (other cards "
                                 "do), so it is not printed"]), lines


def test_chinese_breaks_between_characters_and_a_name_all_in_the_fallback_font_prints(tmp_path, capsys, monkeypatch):
    import pypdf
    from cardforge.cli import main
    text = "在你擊敗一名敵人後：發現所在地點的一個線索。所有的書在我眼中跟兒歌無異。它們過去可能有用，但現在需要一種全新的解釋了。" * 2
    overlay = f'[{{"code": "01001", "title": "은폐", "text": "{text}[fast]"}}]\n'
    game = _published(tmp_path, "languages: [{lang: zh, path: translations/zh}]\n",
                      {"translations/zh/core.json": overlay}, text="Hide. [fast]")
    monkeypatch.chdir(game.parent)
    assert main(["build", game.name, "--lang", "zh", "--paper", "a4", "--out", "out", "-j", "1"]) == 0
    pages = pypdf.PdfReader(game.parent / "out/tiny/tiny-cards-a4-zh.pdf").pages
    printed = "".join(page.extract_text() for page in pages)
    assert "은폐" in printed  # drawn whole by the fallback font (was empty boxes in the display font)
    lines = [line for line in printed.splitlines() if "敵" in line or "書" in line or "解" in line]
    assert len(lines) >= 4 and all(len(line) < 30 for line in lines), lines  # broken inside the "word"
    assert not any(line.startswith(("，", "。", "：")) for line in printed.splitlines())  # kinsoku


# Punctuation that must not start a line (closing brackets and quotes, stops, commas) or end one
# (opening brackets and quotes): the East Asian rules of UAX #14 (issue 43).
NO_LINE_START = tuple("”’」』）】〉》〕］｝、。，．：；？！")
NO_LINE_END = tuple("“‘「『（【〈《〔［｛")


@pytest.mark.parametrize("lang, sentence", [
    # ArkhamDB's Chinese quotes dialogue in “…”; NetrunnerDB's Japanese in 「…」 and “…” (texts written for this test)
    ("zh", "你可以大声说：“我已经看见了它。”然后抽一张牌。若你这样做，每位调查员受到1点恐惧。"),
    ("ja", "このカードをプレイしたとき、「準備はできた」と宣言する。“あなたの手札”から1枚を捨てる。"),
])
def test_cjk_lines_never_start_with_a_closing_quote_nor_end_with_an_opening_one(tmp_path, lang, sentence):
    # A line of Chinese or Japanese broke before ” or after “, leaving the quote alone at the edge of a
    # line (ArkhamDB zh 01003, 01004, 01048, 01054, 01146; NetrunnerDB ja 01075, zh-hans 01042).
    from cardforge.cli import main
    from conftest import load_manifest
    prefixes = ["一二三四五六七八九十十一十二"[:n] for n in range(14)]  # every place in the line for the quotes
    source = ",\n".join(f'{{"code": "010{n:02}", "title": "C{n}", "text": "Text {n}.", "cost": 1}}'
                         for n in range(len(prefixes)))
    overlay = ",\n".join(f'{{"code": "010{n:02}", "title": "C{n}", "text": "{prefix}{sentence}"}}'
                          for n, prefix in enumerate(prefixes))
    game = _published(tmp_path, f"languages: [{{lang: {lang}, path: translations/{lang}}}]\n",
                      {f"translations/{lang}/core.json": f"[{overlay}]\n"})
    (game / "pack/core.json").write_text(f"[{source}]\n", "utf-8")
    import os
    cwd = os.getcwd()
    os.chdir(game.parent)
    try:
        assert main(["build", game.name, "--lang", lang, "--paper", "a4", "--out", "out", "-j", "1"]) == 0
    finally:
        os.chdir(cwd)
    manifest = load_manifest(game.parent / f"out/tiny/tiny-cards-a4-{lang}.manifest.json")
    lines = [line for card in manifest["cards"] for frame in card["frames"] for line in frame.get("lines") or []]
    assert sum(1 for line in lines if "。" in line) >= 14, lines
    assert [line for line in lines if line.startswith(NO_LINE_START) or line.endswith(NO_LINE_END)] == []


def test_a_layout_sets_per_language_overrides(tmp_path, capsys, monkeypatch):
    long = "Eine lange Übersetzung, die nicht in den Rahmen passt. " * 9
    layout = FRONT_LAYOUT.replace("height: 40mm", "height: 20mm")
    game = make_game(tmp_path, game_yaml=GAME_DE, layout_yaml=layout,
                     files={"translations/de/cards.yaml": OVERLAY.replace("Erste Karte,", long)})
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert code == 1 and [line.split(": error")[0] for line in lines] == ["tiny/translations/de/cards.yaml:4:353"]
    (game / "layouts/front.yaml").write_text(layout + "languages:\n  de: {frames: {text: {height: 60mm}}}\n"
                                             "  fr: {frames: {text: {size: 80pt}}}\n", "utf-8")
    assert check(game, capsys, monkeypatch, "--lang", "de") == (0, [])
    assert check(game, capsys, monkeypatch) == (0, [])  # the source keeps its own frames
    (game / "layouts/front.yaml").write_text(layout + "languages:\n  de: {frames: {text: {heigth: 60mm}}}\n", "utf-8")
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert code == 1 and any(line.startswith("tiny/layouts/front.yaml:5:") for line in lines), lines


def test_a_string_table_entry_that_overflows_is_reported_at_its_line(tmp_path, capsys, monkeypatch):
    game = game_de(tmp_path)
    strings = "strings:\n  TINY BACK: KLEINE RÜCKSEITE\n  Other: Andere\n"
    (game / "translations/de/strings.yaml").write_text(strings, "utf-8")
    assert check(game, capsys, monkeypatch, "--lang", "de") == (0, [])
    (game / "translations/de/strings.yaml").write_text(strings.replace("KLEINE RÜCKSEITE", "SEHR " * 40), "utf-8")
    code, lines = check(game, capsys, monkeypatch, "--lang", "de")
    assert code == 1
    assert [line.split(": error")[0] for line in lines] == ["tiny/translations/de/strings.yaml:2:14"], lines
    assert "E-TEXT-OVERFLOW" in lines[0] and "frame 'label' of layout 'back'" in lines[0]


def test_the_german_bomber_boys_kit_has_german_guide_cover_and_reference_all_fonts_embedded(tmp_path, monkeypatch):
    import subprocess
    from conftest import BOMBER, REPO, copy_tree
    from cardforge.cli import main
    game = tmp_path / "content" / "bomber-boys"
    copy_tree(BOMBER, game)
    monkeypatch.chdir(game.parent)
    assert main(["build", game.name, "--lang", "all", "--paper", "a4", "--out", "out", "-j", "1",
                 "--layouts", str(REPO / "layouts")]) == 0
    folder = game.parent / "out" / "bomber-boys"

    def text(name: str, first: int, last: int) -> str:
        return subprocess.run(["pdftotext", "-f", str(first), "-l", str(last), str(folder / name), "-"],
                              capture_output=True, text=True, check=True).stdout
    cover, guide = text("bomber-boys-kit-a4-de.pdf", 1, 1), text("bomber-boys-guide-a4-de.pdf", 1, 6)
    assert "Inhalt" in cover and "Besatzungskarten" in cover and "Seite 7" in cover and "Contents" not in cover
    for german in ("SO DRUCKST DU DIESES SPIEL", "WELCHE SEITEN AUF WELCHES PAPIER", "Papier", "Schneide an den",
                   "AUSSCHNEIDEN UND ZUSAMMENBAUEN", "WAS DU ZUM SPIELEN BRAUCHST", "Ohne (von Hand)",
                   "zwölfseitiger Würfel (Schaden)"):
        assert german in guide, german
    assert "HOW TO PRINT" not in guide and "WHICH PAGES" not in guide
    assert "HOW TO PRINT THIS KIT" in text("bomber-boys-guide-a4.pdf", 1, 6)  # the source kit stays English
    # The duplex alignment test and every footer speak German too; the footer ends before the scale bar.
    for german in ("Ausrichtungstest: Vorderseite", "an der langen Kante gewendet", "Ausrichtungstest: Rückseite",
                   "wo die senkrechte Linie der Vorderseite", "Hochformatseiten", "Querformatseiten",
                   "Druck- und Bastelanleitung: was du brauchst · Seite 6 von"):
        assert german in guide.replace("\n", " "), german
    assert "Duplex alignment test" not in guide and "print at 100% / actual size" not in guide
    assert "cardforge" not in guide and "--back-offset" not in guide
    assert "Seite 7 von" in text("bomber-boys-kit-a4-de.pdf", 7, 7)
    assert "Duplex alignment test: front" in text("bomber-boys-guide-a4.pdf", 3, 3)
    import re
    boxes = subprocess.run(["pdftotext", "-bbox", "-f", "3", "-l", "3", str(folder / "bomber-boys-guide-a4-de.pdf"), "-"],
                           capture_output=True, text=True, check=True).stdout
    foot = [(float(x0), float(x1), word) for x0, y0, x1, word in
            re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]+)<', boxes) if float(y0) > 800]
    bar_label_end = next(x1 for x0, x1, word in foot if word == "mm")
    footer_start = next(x0 for x0, x1, word in foot if word == "Bomber")
    assert bar_label_end < footer_start, foot  # the longer German footer is set smaller, not over the bar
    reference = text("bomber-boys-references-a4-de.pdf", 1, 1)
    assert "Was du tust" in reference and "Bordtechniker" in reference and "What you do" not in reference
    for pdf in folder.glob("*-a4*.pdf"):
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        assert all(row.split()[-5] == "yes" for row in fonts.splitlines()[2:]), (pdf.name, fonts)
