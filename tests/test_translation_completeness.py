"""Translation completeness (issue 43): a text field a translation copies unchanged from the source,
and a field the game says is translated but a translation leaves out, are reported per language
with their counts (`check --lang` and `translate status`); names, numbers and codes that read the
same in every language are not; and every check reads the translations' syntax."""
from __future__ import annotations

from pathlib import Path

from conftest import GAME_YAML, headlines, make_game

# A database as ArkhamDB publishes one: JSON records keyed by `code`, with codes and an illustrator
# beside the text; its overlays carry only what they translate.
GAME = GAME_YAML.replace("card_size: poker\n", "languages:\n  - {lang: ko, path: tr/ko}\n  - {lang: fr, path: tr/fr}\n"
                         "card_size: poker\n").replace(
    "    cards: cards/cards.yaml\n", "    cards: cards/core.json\n    id_from: code\n"
    "    translate: {text: [text, flavor], names: [title]}\n").replace(
    "      title: {type: string}\n", "      title: {type: string}\n      code: {type: string}\n"
    "      faction_code: {type: string}\n      pack_code: {type: string}\n      illustrator: {type: string}\n"
    "      flavor: {type: string}\n")
CARDS = """[
 {"code": "01001", "title": "Roland Banks", "faction_code": "guardian", "pack_code": "core", "illustrator": "Magali V",
  "text": "After you defeat an enemy: discover 1 clue.", "flavor": "The truth is out there.", "cost": 1},
 {"code": "01002", "title": "Ghoul Priest", "faction_code": "mythos", "pack_code": "core", "illustrator": "Jokubas U",
  "text": "Hunter. Retaliate.", "flavor": "It was only a small sacrifice.", "cost": 2},
 {"code": "01003", "title": "Knife", "faction_code": "neutral", "pack_code": "core", "illustrator": "Jokubas U",
  "text": "+1[combat]", "cost": 3}
]
"""
KO = """[
 {"code": "01001", "title": "롤랜드 뱅크스", "text": "적을 처치한 후: 단서 1개를 발견한다.", "flavor": "진실은 저 너머에."},
 {"code": "01002", "title": "Ghoul Priest", "text": "Hunter. Retaliate.", "flavor": "It was only a small sacrifice."},
 {"code": "01003", "title": "칼", "text": "+1[combat]"}
]
"""
FR = """[
 {"code": "01001", "title": "Roland Banks", "text": "Après avoir vaincu un ennemi : découvrez 1 indice."},
 {"code": "01002", "title": "Prêtre goule", "text": "Chasseur. Riposte.", "flavor": "Ce n'était qu'un petit sacrifice."},
 {"code": "01003", "title": "Couteau"}
]
"""
ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h10v10z"/></svg>\n'


def database(tmp_path: Path, game_yaml: str = GAME) -> Path:
    game_yaml = game_yaml.replace("card_size: poker\n", "markup: {symbols: '[name]'}\nfont_fallbacks: {sans: [cjk]}\n"
                                  "card_size: poker\n")
    return make_game(tmp_path, game_yaml=game_yaml, cards_yaml=None,
                     files={"cards/core.json": CARDS, "tr/ko/core.json": KO, "tr/fr/core.json": FR,
                            "icons/combat.svg": ICON})


def run(game: Path, capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    from cardforge.cli import main
    monkeypatch.chdir(game.parent)
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_text_copied_from_the_source_is_reported_with_its_count_but_a_name_or_a_number_is_not(
        tmp_path, capsys, monkeypatch):
    # Korean ArkhamDB publishes 171 fields of its encounter cards in English: the kit printed them
    # in English under Korean names, and nothing said so.
    game = database(tmp_path)
    code, _, err = run(game, capsys, monkeypatch, "check", game.name, "--lang", "ko")
    assert code == 0, err
    assert headlines(err) == [
        "tiny/game.yaml:4:5: warning[W-TRANSLATION-COPY]: 'ko': 2 fields of 1 card are the source's text, copied "
        "unchanged (flavor 1, text 1; 01002): the kit prints them in the source language"]
    # 01002's title is a name (it may read the same), 01003's text only a number and a symbol


def test_a_declared_field_a_translation_leaves_out_is_reported_with_its_count(tmp_path, capsys, monkeypatch):
    # French NetrunnerDB lacks 22 flavor texts, which printed in English without a word.
    game = database(tmp_path)
    code, _, err = run(game, capsys, monkeypatch, "check", game.name, "--lang", "fr")
    assert code == 0
    assert headlines(err) == [
        "tiny/game.yaml:5:5: warning[W-TRANSLATION-MISSING]: 'fr': 1 field of 1 card is missing from their "
        "translations (flavor 1; 01001): the kit prints the source's text"]
    assert "= help: `cardforge translate update tiny fr` writes them for a translator to fill in" in err


def test_translate_status_counts_copies_and_missing_fields_and_never_a_code(tmp_path, capsys, monkeypatch):
    # German ArkhamDB's "851 untranslated fields" were faction_code, pack_code, type_code and illustrator.
    game = database(tmp_path)
    code, out, _ = run(game, capsys, monkeypatch, "translate", "status", game.name)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "ko: 3/3 records translated, 0 untranslated fields, 2 fields copied unchanged from the source"
    assert "  copied from the source: 01002: text, flavor" in lines
    fr = lines[lines.index(next(line for line in lines if line.startswith("fr:"))):]
    assert fr[0] == "fr: 3/3 records translated, 1 untranslated field"
    assert "  untranslated: 01001: flavor" in fr
    # without the deck's translate:, the plain-text fields count, and still no code nor illustrator
    plain = database(tmp_path / "plain", GAME.replace("    translate: {text: [text, flavor], names: [title]}\n", ""))
    code, out, _ = run(plain, capsys, monkeypatch, "translate", "status", plain.name)
    assert "code" not in out and "illustrator" not in out, out
    assert out.splitlines()[0] == "ko: 3/3 records translated, 0 untranslated fields, 2 fields copied unchanged from " \
                                  "the source"


def test_a_translate_entry_naming_no_field_is_a_warning_with_a_did_you_mean(tmp_path, capsys, monkeypatch):
    game = database(tmp_path, GAME.replace("text: [text, flavor]", "text: [text, flavour]"))
    code, _, err = run(game, capsys, monkeypatch, "check", game.name, "--lang", "fr")
    found = [line for line in headlines(err) if "W-TRANSLATE-FIELD" in line]
    assert found == ["tiny/game.yaml:15:30: warning[W-TRANSLATE-FIELD]: translate: no card of deck 'main' has a "
                     "field 'flavour'"]
    assert "= help: did you mean 'flavor'?" in err


def test_broken_yaml_in_a_translation_fails_check_without_lang(tmp_path, capsys, monkeypatch):
    # `check` never read translations/: a broken file passed until someone built that language.
    game_yaml = GAME_YAML.replace("card_size: poker\n", "languages: [de]\ncard_size: poker\n")
    game = make_game(tmp_path, game_yaml=game_yaml,
                     files={"translations/de/cards.yaml": "cards:\n  - id: alpha\n    title: 'Alpha (de)\n"})
    code, _, err = run(game, capsys, monkeypatch, "check", game.name)
    assert code == 1
    found = headlines(err)
    assert len(found) == 1 and found[0].startswith("tiny/translations/de/cards.yaml:3:12: error[E-YAML]: "), found
    # what a translation says is checked with --lang only: a record naming no card passes `check`
    (game / "translations/de/cards.yaml").write_text("cards:\n  - id: gamma\n    title: Gamma (de)\n", "utf-8")
    assert run(game, capsys, monkeypatch, "check", game.name)[0] == 0
    code, _, err = run(game, capsys, monkeypatch, "check", game.name, "--lang", "de")
    assert code == 1 and "'gamma' names no card of the game" in err


def test_numbers_symbols_markup_and_codes_are_no_words_to_translate():
    from cardforge.frontend.coverage import has_words
    # NetrunnerDB's +1[mu], ArkhamDB's resolution pointer and deck requirements, a path in a flavor
    for value in ("+1[mu]", "<b>(→R2)</b>", "size:30, card:01006:98005:90030, random:subtype:basicweakness",
                  ":star: :coin:", ".//run/hunter-tr/return=true\nc", "", 3):
        assert not has_words(value), value
    for value in ("Hunter.", "<b>Spawn</b> - Attic.", "Whrrrrr!", "Draw 1 card :star: now.", ["x", "Fight."]):
        assert has_words(value), value
