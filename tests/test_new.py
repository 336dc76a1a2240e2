"""`cardforge new NAME`: a game that checks and builds clean at once, from any folder."""
from __future__ import annotations

import json

import pdfplumber

from conftest import cardforge, headlines


def test_new_then_build_writes_a_pdf_from_a_folder_outside_the_repository(tmp_path):
    created = cardforge("new", "mygame", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert "error" not in created.stderr and "warning" not in created.stderr
    game = tmp_path / "mygame"
    for rel in ("game.yaml", "cards/cards.yaml", "rules.yaml", "layouts/front.yaml", "layouts/back.yaml",
                "schemas/game.schema.json", "schemas/mygame.cards.cards.schema.json"):
        assert (game / rel).is_file(), rel
    for rel, schema in (("game.yaml", "schemas/game.schema.json"), ("rules.yaml", "schemas/rules.schema.json"),
                        ("cards/cards.yaml", "../schemas/mygame.cards.cards.schema.json"),
                        ("layouts/front.yaml", "../schemas/layout.schema.json")):
        first = (game / rel).read_text("utf-8").splitlines()[0]
        assert first == f"# yaml-language-server: $schema={schema}"
        assert ((game / rel).parent / schema).resolve().is_file()
    deck_schema = json.loads((game / "schemas" / "mygame.cards.cards.schema.json").read_text("utf-8"))
    assert deck_schema["$defs"]["card"]["properties"]["kind"] == {"enum": ["action", "item", "event"]}

    checked = cardforge("check", "mygame", cwd=tmp_path)
    assert checked.returncode == 0 and checked.stdout.strip() == "ok: no problems found", checked.stderr
    built = cardforge("build", "mygame", "--paper", "a4", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    pdf = tmp_path / "build" / "mygame" / "mygame-cards-a4.pdf"
    with pdfplumber.open(pdf) as doc:
        text = " ".join(page.extract_text() or "" for page in doc.pages)
    for title in ("QUICK STEP", "HEAVY BLOW", "LANTERN", "HEALING HERBS", "STORM"):
        assert title in text
    assert text.count("LANTERN") == 2  # quantity 2


def test_the_new_game_rule_finds_a_costly_event(tmp_path):
    assert cardforge("new", "games/my-game", "--title", "My Game", cwd=tmp_path).returncode == 0
    cards = tmp_path / "games" / "my-game" / "cards" / "cards.yaml"
    text = cards.read_text("utf-8")
    cards.write_text(text.replace("kind: event\n    cost: 0", "kind: event\n    cost: 2"), "utf-8")
    result = cardforge("check", "games/my-game", cwd=tmp_path)
    assert result.returncode == 1
    line = text.splitlines().index("    cost: 0") + 1
    assert headlines(result.stderr) == [
        f"games/my-game/cards/cards.yaml:{line}:11: error[EVENTS-ARE-FREE]: event 'Storm' costs 2; events are "
        "played when drawn, so they cost nothing"]


def test_new_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine", "utf-8")
    result = cardforge("new", "taken", cwd=tmp_path)
    assert result.returncode == 2
    assert "taken already exists and is not empty" in result.stderr
    assert (tmp_path / "taken" / "notes.txt").read_text("utf-8") == "mine"
