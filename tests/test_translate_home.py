"""Translating from a new game, as a designer does: `translate update` makes the language's folder
itself, and `check --lang` says what a kit in that language would print in the source language
(cards not translated) and which translations were made from an older text (stale)."""
from __future__ import annotations

from conftest import cardforge, headlines


def _german_game(tmp_path):
    assert cardforge("new", "mygame", cwd=tmp_path).returncode == 0
    game = tmp_path / "mygame"
    text = (game / "game.yaml").read_text("utf-8")
    (game / "game.yaml").write_text(text.replace('\nname: "Mygame"\n', '\nname: "Mygame"\nlanguages: [de]\n'), "utf-8")
    return game


def test_update_makes_the_languages_folder_and_check_names_what_is_left(tmp_path):
    game = _german_game(tmp_path)
    assert not (game / "translations").exists()
    updated = cardforge("translate", "update", ".", "de", cwd=game)
    assert updated.returncode == 0, updated.stderr
    skeleton = (game / "translations" / "de" / "cards.yaml").read_text("utf-8")
    assert "  - id: quick-step\n    source: " in skeleton
    checked = cardforge("check", "--lang", "de", cwd=game)
    assert checked.returncode == 0
    line = (game / "game.yaml").read_text("utf-8").splitlines().index("languages: [de]") + 1
    assert headlines(checked.stderr) == [
        f"game.yaml:{line}:12: warning[W-UNTRANSLATED]: 'de': 5 of 5 cards not translated (quick-step, heavy-blow, "
        "lantern, healing-herbs, storm); the kit prints their source text"]


def test_check_lang_warns_on_a_stale_translation(tmp_path):
    game = _german_game(tmp_path)
    assert cardforge("translate", "update", "de", cwd=game).returncode == 0  # from the game's folder
    overlay = game / "translations" / "de" / "cards.yaml"
    overlay.write_text(overlay.read_text("utf-8")
                       .replace("    # title: Quick Step\n", "    title: Schneller Schritt\n")
                       .replace("    # text: Move up to **2** spaces. Then draw a card.\n",
                                "    text: Gehe bis zu **2** Felder. Dann ziehe eine Karte.\n"), "utf-8")
    clean = cardforge("check", "--lang", "de", cwd=game)
    assert not any("W-TRANSLATION-STALE" in line for line in headlines(clean.stderr)), clean.stderr
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("Move up to **2** spaces.", "Move up to **3** spaces."), "utf-8")
    stale = cardforge("check", "--lang", "de", cwd=game)
    assert stale.returncode == 0
    source_line = overlay.read_text("utf-8").splitlines().index("  - id: quick-step") + 2
    found = [line for line in headlines(stale.stderr) if "W-TRANSLATION-STALE" in line]
    assert len(found) == 1 and found[0].startswith(
        f"translations/de/cards.yaml:{source_line}:13: warning[W-TRANSLATION-STALE]: 'de' translation of card "
        "'quick-step' was made from an older text: the source has changed since"), stale.stderr
