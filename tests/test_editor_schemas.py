"""Editor schemas stay current: `check` and `build` refresh the game's schemas/ when it holds them
and they are stale, never create them unasked; `cardforge schema GAME` writes into the game."""
from __future__ import annotations

import json

from conftest import GAME_YAML, cardforge, make_game


def test_schema_game_writes_into_the_games_folder_not_the_working_directory(tmp_path):
    game = make_game(tmp_path)
    result = cardforge("schema", "content/tiny", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "schemas").exists()
    assert (game / "schemas/game.schema.json").is_file()
    deck = json.loads((game / "schemas/tiny.main.cards.schema.json").read_text())
    assert "cost" in json.dumps(deck)
    assert "$schema=schemas/game.schema.json" in result.stdout


def test_check_and_build_refresh_stale_schemas(tmp_path):
    game = make_game(tmp_path)
    assert cardforge("schema", "content/tiny", cwd=tmp_path).returncode == 0
    deck_schema = game / "schemas/tiny.main.cards.schema.json"
    # a field added to the deck in game.yaml: the editor's card schema is stale
    (game / "game.yaml").write_text(GAME_YAML + "      flavour: {type: string}\n")
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "refreshed content/tiny/schemas/tiny.main.cards.schema.json" in result.stdout
    assert "flavour" in deck_schema.read_text()
    again = cardforge("check", "content/tiny", cwd=tmp_path)
    assert "refreshed" not in again.stdout  # up to date now: not written again
    (game / "schemas/layout.schema.json").write_text("{}")  # an older cardforge's schema
    built = cardforge("build", "content/tiny", "--paper", "a4", "--out", "out", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert "refreshed content/tiny/schemas/layout.schema.json" in built.stdout
    assert json.loads((game / "schemas/layout.schema.json").read_text()) != {}


def test_check_and_build_create_no_schemas_unasked(tmp_path):
    game = make_game(tmp_path)
    assert cardforge("check", "content/tiny", cwd=tmp_path).returncode == 0
    assert cardforge("build", "content/tiny", "--paper", "a4", "--out", "out", cwd=tmp_path).returncode == 0
    assert not (game / "schemas").exists()
    (game / "schemas").mkdir()  # a folder of the designer's own: not cardforge's, left alone
    (game / "schemas/notes.json").write_text("{}")
    assert cardforge("check", "content/tiny", cwd=tmp_path).returncode == 0
    assert [p.name for p in (game / "schemas").iterdir()] == ["notes.json"]
