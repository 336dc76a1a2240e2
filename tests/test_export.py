"""`cardforge export png` and `cardforge export tts`: pictures read back from the files written."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from cardforge.diagnostics import Report
from cardforge.prepare import prepare
from conftest import BOMBER, REPO, cardforge, make_game, snapshot

IRON_RAIN = REPO / "content" / "iron-rain"
GAMES = sorted(p for p in (REPO / "content").iterdir() if (p / "game.yaml").is_file())


def test_png_at_300_dpi_with_3mm_bleed_is_815_by_1110_one_file_per_face_and_copy(tmp_path):
    result = cardforge("export", "png", BOMBER, "--deck", "crew", "--bleed", "--out", tmp_path / "png", cwd=REPO)
    assert result.returncode == 0, result.stderr
    files = sorted(p.relative_to(tmp_path / "png").as_posix() for p in (tmp_path / "png").rglob("*.png"))
    crew = [c for c in prepare(BOMBER, Report()).game.cards() if c.deck.id == "crew"]
    assert files == sorted(f"crew/{c.id}-{n}-{side}.png" for c in crew for n in range(1, c.quantity + 1)
                           for side in ("front", "back"))
    for path in (tmp_path / "png").rglob("*.png"):
        with Image.open(path) as image:
            assert image.size == (815, 1110), path  # (63 + 2 x 3) x (88 + 2 x 3) mm at 300 dpi
            assert round(image.info["dpi"][0]) == 300


def test_png_without_bleed_at_150_dpi_covers_every_copy_token_and_board(tmp_path):
    result = cardforge("export", "png", BOMBER, "--dpi", "150", "--out", tmp_path / "png", cwd=REPO)
    assert result.returncode == 0, result.stderr
    game = prepare(BOMBER, Report()).game
    out = tmp_path / "png"
    for deck in game.decks:
        card = deck.cards[-1]
        with Image.open(out / deck.id / f"{card.id}-{card.quantity}-front.png") as image:
            assert image.size == (round(deck.width / 72 * 150), round(deck.height / 72 * 150))
        assert len(list((out / deck.id).glob("*-front.png"))) == sum(c.quantity for c in deck.cards)
    with Image.open(out / "crew" / "bombardier-1-front.png") as image:
        assert image.size == (372, 520)  # 63 x 88 mm at 150 dpi, trim only
    with Image.open(out / "boards" / "player-mat.png") as image:
        assert image.size == (round(265 / 25.4 * 150), round(190 / 25.4 * 150))


def test_a_failed_export_leaves_the_previous_pictures_untouched(tmp_path):
    game = make_game(tmp_path)
    out = tmp_path / "png"
    assert cardforge("export", "png", game, "--dpi", "50", "--out", out, cwd=tmp_path).returncode == 0
    before = snapshot(out / "main")
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8") + "  - {id: long, title: " + "Overflowing " * 60 + "}\n", "utf-8")
    result = cardforge("export", "png", game, "--dpi", "50", "--out", out, cwd=tmp_path)
    assert result.returncode == 1
    assert "error[E-TEXT-OVERFLOW]" in result.stderr and "previous output left untouched" in result.stderr
    assert snapshot(out / "main") == before


def _tts(game: Path, out: Path) -> dict:
    result = cardforge("export", "tts", game, "--out", out, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads((out / f"{game.name}.json").read_text("utf-8"))


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_tts_saved_object_has_every_deck_with_its_counts_sheets_and_grid(game, tmp_path):
    out = tmp_path / "tts"
    saved = _tts(game, out)
    model = prepare(game, Report()).game
    decks = [d for d in model.component("cards") if d.cards]
    states = saved["ObjectStates"]
    assert decks, "a game without cards"
    assert [s["GMNotes"] for s in states] == [d.id for d in decks]
    for deck, state in zip(decks, states):
        assert state["Name"] == "DeckCustom"
        # the right count: one DeckID per copy, each card id as often as its quantity
        assert len(state["DeckIDs"]) == len(state["ContainedObjects"]) == sum(c.quantity for c in deck.cards)
        per_card = Counter(obj["GMNotes"] for obj in state["ContainedObjects"])
        assert per_card == {c.id: c.quantity for c in deck.cards}
        assert [o["CardID"] for o in state["ContainedObjects"]] == state["DeckIDs"]
        slots_used: dict[str, set] = {}
        for obj in state["ContainedObjects"]:
            key, slot = divmod(obj["CardID"], 100)
            assert str(key) in state["CustomDeck"] and str(key) in obj["CustomDeck"]
            slots_used.setdefault(str(key), set()).add(slot)
        for key, sheet in state["CustomDeck"].items():
            cols, rows = sheet["NumWidth"], sheet["NumHeight"]
            assert 2 <= cols <= 10 and 2 <= rows <= 7
            assert max(slots_used[key]) < cols * rows - 1  # the last slot is the hidden card's
            assert sheet["BackIsHidden"] is True
            face = out / Path(sheet["FaceURL"].split("/tts/", 1)[1])
            assert sheet["NumWidth"] * sheet["NumHeight"] - 1 >= len(slots_used[key])
            with Image.open(face) as image:
                width, height = image.size
                assert width <= 4096 and height <= 4096
                assert width % cols == 0 and height % rows == 0
                cell = (width // cols, height // rows)
                assert abs(cell[0] / cell[1] - deck.width / deck.height) < 0.01
            back = out / Path(sheet["BackURL"].split("/tts/", 1)[1])
            with Image.open(back) as image:
                assert image.size == ((width, height) if sheet["UniqueBack"] else cell)
        assert (out / f"{model.id}-{deck.id}.json").is_file() and (out / f"{model.id}-{deck.id}.png").is_file()
    if game == IRON_RAIN:  # 71 distinct homeland cards: a full 10 x 7 sheet (69 cards + hidden) and the rest
        homeland = states[[d.id for d in decks].index("homeland")]
        assert [(s["NumWidth"], s["NumHeight"]) for s in homeland["CustomDeck"].values()] == [(10, 7), (2, 2)]


def test_tts_missions_keep_a_unique_back_each_and_shared_backs_are_one_picture(tmp_path):
    out = tmp_path / "tts"
    saved = _tts(BOMBER, out)
    by_id = {s["GMNotes"]: s for s in saved["ObjectStates"]}
    missions = next(iter(by_id["missions"]["CustomDeck"].values()))
    assert missions["UniqueBack"] is True and missions["BackURL"].endswith("missions/backs-1.png")
    run = next(iter(by_id["bombing-run"]["CustomDeck"].values()))
    assert run["UniqueBack"] is False and run["BackURL"].endswith("bombing-run/back.png")
    assert run["FaceURL"].startswith("file:///")
    # five different targets on the back sheet: the five back cells differ from each other
    with Image.open(out / "missions" / "backs-1.png") as sheet:
        cols, rows = missions["NumWidth"], missions["NumHeight"]
        w, h = sheet.width // cols, sheet.height // rows
        cells = {sheet.crop(((i % cols) * w, (i // cols) * h, (i % cols + 1) * w, (i // cols + 1) * h)).tobytes()
                 for i in range(5)}
        assert len(cells) == 5
    # the hidden slot of a shared-back deck shows the back
    with Image.open(out / "bombing-run" / "faces-1.png") as sheet, Image.open(out / "bombing-run" / "back.png") as back:
        cols, rows = run["NumWidth"], run["NumHeight"]
        w, h = sheet.width // cols, sheet.height // rows
        last = cols * rows - 1
        hidden = sheet.convert("RGB").crop(((last % cols) * w, (last // cols) * h, (last % cols + 1) * w, (last // cols + 1) * h))
        assert hidden.tobytes() == back.convert("RGB").tobytes()


def test_tts_url_base_names_where_the_pictures_will_be_uploaded(tmp_path):
    result = cardforge("export", "tts", BOMBER, "--deck", "missions", "--url-base", "https://example.org/bb/",
                       "--out", tmp_path / "tts", cwd=REPO)
    assert result.returncode == 0, result.stderr
    saved = json.loads((tmp_path / "tts" / "bomber-boys-missions.json").read_text("utf-8"))
    sheet = saved["ObjectStates"][0]["CustomDeck"]["1"]
    assert sheet["FaceURL"] == "https://example.org/bb/missions/faces-1.png"
    assert sheet["BackURL"] == "https://example.org/bb/missions/backs-1.png"


def test_export_names_an_unknown_deck(tmp_path):
    result = cardforge("export", "png", BOMBER, "--deck", "crews", "--out", tmp_path / "png", cwd=REPO)
    assert result.returncode == 2
    assert "no deck 'crews'" in result.stderr and "crew, bombing-run" in result.stderr
