"""Each problem once, where it is caused (issue 43): a mistake of a layout line, of a configuration
entry or of a schema file is one diagnostic at that place, with the number of cards it affects,
under `check` and under `check --lang all`; no cascade from one typo, no did-you-mean that names
the typo itself."""
from __future__ import annotations

from pathlib import Path

from conftest import GAME_YAML, headlines, make_game


def check(game: Path, capsys, monkeypatch, *extra: str) -> tuple[int, list[str], str]:
    from cardforge.cli import main
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name, *extra])
    err = capsys.readouterr().err
    return code, headlines(err), err


def new_game(tmp_path: Path, capsys, monkeypatch) -> Path:
    from cardforge.cli import main
    monkeypatch.chdir(tmp_path)
    assert main(["new", "mygame"]) == 0
    capsys.readouterr()
    return tmp_path / "mygame"


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first `old`; returns the 1-based line it is on."""
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), "utf-8")
    return text[:text.index(old)].count("\n") + 1


def column(path: Path, line: int, needle: str) -> int:
    return path.read_text("utf-8").splitlines()[line - 1].index(needle) + 1


# -- a layout's literal value: once, at its line ---------------------------------------------------

def test_an_unknown_font_in_a_new_games_layout_is_one_error_at_the_layout_line_with_a_did_you_mean(
        tmp_path, capsys, monkeypatch):
    # Was 5 errors at cards/cards.yaml:<card>, none at the layout, and no did-you-mean.
    game = new_game(tmp_path, capsys, monkeypatch)
    front = game / "layouts/front.yaml"
    line = edit(front, "font: display,", "font: dispaly,")
    code, found, err = check(game, capsys, monkeypatch)
    assert code == 1
    assert found == [f"mygame/layouts/front.yaml:{line}:{column(front, line, 'dispaly')}: error[E-FONT]: frame 'cost' "
                     "of layout 'front', unknown font 'dispaly' (5 cards affected)"]
    assert "= help: did you mean 'display'? known fonts: " in err


def test_a_misspelt_colour_is_one_error_at_the_layout_line(tmp_path, capsys, monkeypatch):
    game = new_game(tmp_path, capsys, monkeypatch)
    front = game / "layouts/front.yaml"
    line = edit(front, "stroke: muted", "stroke: mutted")
    code, found, err = check(game, capsys, monkeypatch)
    assert code == 1
    assert found == [f"mygame/layouts/front.yaml:{line}:{column(front, line, 'mutted')}: error[E-COLOR]: frame 'rule' "
                     "of layout 'front', unknown colour 'mutted' (5 cards affected)"]
    assert "= help: did you mean 'muted'?" in err


def test_a_glyph_missing_from_a_layouts_own_text_is_one_error_at_that_text(tmp_path, capsys, monkeypatch):
    # Was one error per card, each at the card.
    game = new_game(tmp_path, capsys, monkeypatch)
    front = game / "layouts/front.yaml"
    line = edit(front, 'text: "{{ game.name }} · {{ deck.name }}"', 'text: "한 · Footer"')
    code, found, _ = check(game, capsys, monkeypatch)
    assert code == 1
    at = column(front, line, '"\ud55c')
    assert found == [f"mygame/layouts/front.yaml:{line}:{at}: error[E-GLYPH]: frame 'footer' of "
                     "layout 'front', font 'sans-regular' has no glyph for '한' (U+D55C, Hangul) (5 cards affected)"]


def test_a_font_a_template_chooses_is_still_reported_at_each_card(tmp_path, capsys, monkeypatch):
    # Only a literal is the layout's: a value the card's data gives is the card's.
    game = new_game(tmp_path, capsys, monkeypatch)
    edit(game / "layouts/front.yaml", "stroke: muted", 'stroke: "{{ card.kind }}-ink"')
    code, found, _ = check(game, capsys, monkeypatch)
    assert code == 1
    assert len(found) == 5 and all(line.startswith("mygame/cards/cards.yaml:") and "unknown colour" in line
                                   for line in found), found


# -- the same problem in every language's run: once ------------------------------------------------

GAME_DE_FR = GAME_YAML.replace("card_size: poker\n", "languages: [de, fr]\ncard_size: poker\n")
OVERLAYS = {"translations/de/cards.yaml": "cards:\n  - id: alpha\n    title: Alpha (de)\n",
            "translations/fr/cards.yaml": "cards:\n  - id: alpha\n    title: Alpha (fr)\n"}


def test_a_misspelt_style_is_reported_once_under_lang_all(tmp_path, capsys, monkeypatch):
    # Was once per run: the source and each language.
    game = make_game(tmp_path, game_yaml=GAME_DE_FR, files=OVERLAYS)
    line = edit(game / "layouts/front.yaml", "style: bold", "style: bols")
    code, found, _ = check(game, capsys, monkeypatch, "--lang", "all")
    assert code == 1
    at = column(game / "layouts/front.yaml", line, "bols")
    assert found == [f"tiny/layouts/front.yaml:{line}:{at}: error[E-SCHEMA]: 'bols' is not one of: regular, bold, "
                     "italic, bold_italic"], found


MARKUP_GAME = GAME_YAML.replace("card_size: poker\n", "languages: [{lang: de, path: tr/de}, {lang: fr, path: tr/fr}]\n"
                                "markup: {symbols: '[name]', icons: {free: fast}}\ncard_size: poker\n")
MARKUP_CARDS = ('cards:\n  - {id: alpha, title: Alpha, text: "Act [fast]: draw.", cost: 1}\n'
                '  - {id: beta, title: Beta, text: "Plain [fast].", cost: 2}\n')
MARKUP_OVERLAYS = {"tr/de/cards.yaml": 'cards:\n  - {id: alpha, text: "Handle [free]: ziehe."}\n'
                                       '  - {id: beta, text: "Schlicht [free]."}\n',
                   "tr/fr/cards.yaml": 'cards:\n  - {id: alpha, text: "Agir [free] : piocher."}\n'
                                       '  - {id: beta, text: "Simple [fast]."}\n'}
STAR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h10v10z"/></svg>\n'


def markup_game(tmp_path: Path) -> Path:
    return make_game(tmp_path, game_yaml=MARKUP_GAME, cards_yaml=MARKUP_CARDS,
                     files={**MARKUP_OVERLAYS, "icons/fast.svg": STAR})


def test_a_markup_icon_mapped_to_a_misspelt_icon_is_one_error_at_its_line_under_lang_all(tmp_path, capsys, monkeypatch):
    # `icons: {free: fsat}` was reported at its line in every run, then each [free] was "unknown
    # symbol '[free]'" although it is mapped, and each translated text an icon-parity warning.
    game = markup_game(tmp_path)
    assert check(game, capsys, monkeypatch, "--lang", "all")[:2] == (0, [])
    edit(game / "game.yaml", "{free: fast}", "{free: fsat}")
    code, found, err = check(game, capsys, monkeypatch, "--lang", "all")
    assert code == 1
    assert found == ["tiny/game.yaml:4:36: error[E-UNKNOWN-ICON]: markup symbol maps to unknown icon 'fsat' "
                     "(2 cards affected)"]
    assert "= help: did you mean 'fast'?" in err


def test_a_misspelt_markup_icons_key_is_one_error_at_the_key_and_never_suggested(tmp_path, capsys, monkeypatch):
    # `icons: {fre: fast}` passed the source check, then every [free] of a translation read
    # "unknown symbol '[free]', did you mean '[fre]'?": the typo suggested as the fix.
    game = markup_game(tmp_path)
    edit(game / "game.yaml", "{free: fast}", "{fre: fast}")
    assert check(game, capsys, monkeypatch)[:2] == (0, [])
    code, found, err = check(game, capsys, monkeypatch, "--lang", "all")
    assert code == 1
    assert found == ["tiny/game.yaml:4:37: error[E-MARKUP-SYMBOL]: markup icons: no card's text writes 'fre', and "
                     "'free', which card texts write, is no symbol of the game: did you mean 'free'? (2 cards affected)"]
    assert "= help: rename 'fre' to 'free' under markup 'icons:'" in err
    assert "did you mean '[fre]'" not in err


def test_an_icon_the_source_kit_draws_is_used_in_a_languages_check(tmp_path, capsys, monkeypatch):
    # NetrunnerDB: no translation writes [interrupt], and every `check --lang` advised deleting its
    # icon, which the source kit needs.
    game = markup_game(tmp_path)
    (game / "tr/de/cards.yaml").write_text('cards:\n  - {id: alpha, text: "Handle: ziehe."}\n'
                                           '  - {id: beta, text: "Schlicht."}\n', "utf-8")
    code, found, _ = check(game, capsys, monkeypatch, "--lang", "de")
    assert not any("W-UNUSED-ICON" in line for line in found), found
    assert any("W-ICON-PARITY" in line for line in found)  # what is missing is the translation's, and said there
    (game / "icons/spare.svg").write_text(STAR, "utf-8")
    code, found, _ = check(game, capsys, monkeypatch, "--lang", "de")
    assert [line for line in found if "W-UNUSED-ICON" in line] == [
        "tiny/game.yaml:1:1: warning[W-UNUSED-ICON]: 1 icon(s) in icons/ are not drawn on any face nor named in a "
        "layout: spare.svg"]


# -- a schema file: once, at the deck's schema: line -----------------------------------------------

def test_a_schema_of_a_whole_pack_without_its_items_pointer_is_one_error_at_the_schema_line(tmp_path, capsys, monkeypatch):
    # Was "the card must be array, got a mapping" once per card (113 for NetrunnerDB's core set).
    pack_schema = ('{"$schema": "http://json-schema.org/draft-07/schema#", "type": "array",\n'
                   ' "items": {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}}}}\n')
    game_yaml = GAME_YAML.replace("    cards: cards/cards.yaml\n", "    cards: cards/core.json\n    id_from: code\n"
                                  "    schema: schema/card_schema.json\n")
    cards = '[{"code": "01001", "title": "Alpha", "text": "One.", "cost": 1},\n {"code": "01002", "title": "Beta", ' \
            '"text": "Two.", "cost": 2}]\n'
    game = make_game(tmp_path, game_yaml=game_yaml, cards_yaml=None,
                     files={"cards/core.json": cards, "schema/card_schema.json": pack_schema})
    code, found, err = check(game, capsys, monkeypatch)
    assert code == 1
    assert found == ["tiny/game.yaml:10:13: error[E-SET-SCHEMA]: schema 'schema/card_schema.json' describes a list "
                     "(a whole pack file), not one card"]
    assert "= help: point at the schema of one card: 'schema: schema/card_schema.json#/items'" in err
    edit(game / "game.yaml", "schema/card_schema.json", "schema/card_schema.json#/items")
    assert check(game, capsys, monkeypatch)[:2] == (0, [])


def test_icon_parity_still_speaks_where_a_mark_writes_brackets(tmp_path, capsys, monkeypatch):
    # NetrunnerDB writes Trace[3]: a mark, not a symbol, so parity is not silenced as "unknown symbol".
    game = make_game(tmp_path, game_yaml=MARKUP_GAME.replace("{symbols: '[name]', icons: {free: fast}}",
                                                             "{preset: netrunnerdb, icons: {free: fast}}"),
                     cards_yaml=MARKUP_CARDS.replace("Plain [fast].", "Trace[3] plain."),
                     files={**MARKUP_OVERLAYS, "tr/de/cards.yaml": 'cards:\n  - {id: alpha, text: "Handle [free]: ziehe."}\n'
                            '  - {id: beta, text: "Spur[3] [fast] schlicht."}\n', "icons/fast.svg": STAR})
    code, found, _ = check(game, capsys, monkeypatch, "--lang", "de")
    assert [line for line in found if "W-ICON-PARITY" in line] == [
        "tiny/tr/de/cards.yaml:3:22: warning[W-ICON-PARITY]: the translation's icons differ from the source's: extra fast"]
