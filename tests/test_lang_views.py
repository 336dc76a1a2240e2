"""`render`, `export` and `serve` show a game in one of its languages (`--lang de`), as `check`
and `build` do: the German card is the one drawn, written beside the source's pictures."""
from __future__ import annotations

from PIL import Image, ImageChops

from conftest import BOMBER, cardforge


def test_render_lang_draws_the_translated_card_beside_the_source_picture(tmp_path):
    for extra in ([], ["--lang", "de"]):
        result = cardforge("render", BOMBER, "pilot", "--zoom", "1", *extra, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    source, german = Image.open(tmp_path / "pilot-front.png"), Image.open(tmp_path / "pilot-front-de.png")
    assert source.size == german.size
    assert ImageChops.difference(source.convert("RGB"), german.convert("RGB")).getbbox() is not None  # other words


def test_lang_names_one_language_the_game_lists(tmp_path):
    unknown = cardforge("render", BOMBER, "pilot", "--lang", "fr", cwd=tmp_path)
    assert unknown.returncode == 2
    assert f"{BOMBER} has no language 'fr' (it has: de); list it under 'languages:' in its game.yaml" in unknown.stderr
    several = cardforge("export", "png", BOMBER, "--lang", "all", cwd=tmp_path)
    assert several.returncode == 2
    assert "--lang all: this command shows one language at a time; name one, as in --lang de" in several.stderr
    assert not list(tmp_path.rglob("*.png"))


def test_export_lang_writes_the_language_into_its_own_folder(tmp_path):
    result = cardforge("export", "png", BOMBER, "--lang", "de", "--deck", "crew", "--dpi", "40", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "build" / "bomber-boys" / "png-de"
    assert any(folder.rglob("*pilot*.png"))
    assert not (tmp_path / "build" / "bomber-boys" / "png").exists()


def test_serve_lang_session_prepares_the_translated_game():
    from cardforge.serve.session import Session
    german, source = Session(BOMBER, lang="de"), Session(BOMBER)
    for session in (german, source):
        session.refresh()
    card = lambda s: next(c for c in s.prep.game.cards() if c.id == "pilot")  # noqa: E731
    assert card(german).data["eliminated"].startswith("**AUSGESCHALTET.**")
    assert not card(source).data["eliminated"].startswith("**AUSGESCHALTET")
