"""The small things of a designer's first hour: a quoted next command, an empty deck that says so,
a card size of no area caught at game.yaml."""
from __future__ import annotations

from conftest import GAME_YAML, cardforge, headlines, make_game


def test_new_prints_its_next_command_quoted_for_the_shell(tmp_path):
    result = cardforge("new", "My Game", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "next: cardforge build 'My Game'   (or cardforge serve 'My Game' to see it in the browser)" in result.stdout
    assert "`cardforge build 'My Game'`" in (tmp_path / "My Game/game.yaml").read_text()
    plain = cardforge("new", "plain", cwd=tmp_path)
    assert "next: cardforge build plain   " in plain.stdout  # nothing to quote: no quotes


def test_an_empty_deck_warns_instead_of_building_silently(tmp_path):
    make_game(tmp_path, cards_yaml="cards: []\n")
    for command in ("check", "build"):
        result = cardforge(command, "content/tiny", *(["--out", "out", "--paper", "a4"] if command == "build" else []),
                           cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert headlines(result.stderr) == [
            "content/tiny/game.yaml:8:12: warning[W-EMPTY-DECK]: deck 'main' has no cards, so nothing of it is printed"]
        assert "  = help: add cards to its card files, or remove it from game.yaml" in result.stderr


def test_a_card_size_of_no_area_is_one_error_at_game_yaml(tmp_path):
    make_game(tmp_path, game_yaml=GAME_YAML.replace("card_size: poker", "card_size: {width: 0mm, height: 88mm}"))
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1
    assert headlines(result.stderr) == [
        "content/tiny/game.yaml:3:12: error[E-SIZE]: a card size of 0 x 88 mm has no area"], result.stderr
