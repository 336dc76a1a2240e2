"""The command line as a designer meets it: a game's own folder is home (no argument names the game
there), `new` keeps what a build writes out of git, a mistyped command gets the nearest one, bare
`cardforge` shows what it can do, and every command's --help shows examples."""
from __future__ import annotations

import pytest

from conftest import cardforge, headlines


@pytest.fixture
def new_game(tmp_path):
    made = cardforge("new", "mygame", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    return tmp_path / "mygame"


def test_in_the_games_folder_no_command_needs_its_name(new_game):
    checked = cardforge("check", cwd=new_game)
    assert (checked.returncode, checked.stdout.strip()) == (0, "ok: no problems found")
    built = cardforge("build", "--paper", "a4", cwd=new_game, timeout=300)
    assert built.returncode == 0, built.stderr
    assert (new_game / "build" / "mygame" / "mygame-kit-a4.pdf").is_file()
    rendered = cardforge("render", "heavy-blow", cwd=new_game)
    assert rendered.returncode == 0, rendered.stderr
    assert (new_game / "build" / "render" / "heavy-blow-front.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # what was built and rendered is output, not a file of the game that check would call ignored
    again = cardforge("check", cwd=new_game)
    assert (again.returncode, again.stdout.strip()) == (0, "ok: no problems found")


def test_render_with_a_game_and_a_card_still_works_from_beside_it(new_game):
    rendered = cardforge("render", "mygame", "storm", "--out", "storm.png", cwd=new_game.parent)
    assert rendered.returncode == 0, rendered.stderr
    assert (new_game.parent / "storm.png").is_file()
    too_many = cardforge("render", "mygame", "storm", "extra", cwd=new_game.parent)
    assert too_many.returncode == 2
    assert too_many.stderr.strip() == ("cardforge: error: render takes a game folder and one card id, not 3 names: "
                                       "mygame storm extra")


def test_new_keeps_the_build_out_of_git(new_game):
    assert "build/" in (new_game / ".gitignore").read_text("utf-8").splitlines()


def test_a_mistyped_command_suggests_the_nearest(tmp_path):
    result = cardforge("biuld", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == ("cardforge: error: 'biuld' is not a cardforge command; did you mean 'build'? "
                                     "(cardforge --help lists them)")
    assert headlines(result.stderr) == []


def test_bare_cardforge_prints_help_and_succeeds(tmp_path):
    result = cardforge(cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith("usage: cardforge")
    assert "examples:" in result.stdout and "build" in result.stdout


@pytest.mark.parametrize("command", ["check", "build", "render", "serve", "export", "new", "translate"])
def test_each_commands_help_shows_examples(command, tmp_path):
    result = cardforge(command, "--help", cwd=tmp_path)
    assert result.returncode == 0
    examples = result.stdout.split("examples:\n", 1)[1].splitlines()
    assert examples and all(line.startswith("  cardforge ") for line in examples if line.strip()), result.stdout
