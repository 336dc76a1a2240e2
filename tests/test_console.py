"""The terminal: a reader who closes the pipe early (`cardforge build | head -3`) has seen what they
wanted; the build still runs to its end and says nothing about the closed pipe."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import REPO


def _closed_pipe() -> int:
    """The writing end of a pipe whose reader has already gone (as after `head` has its lines)."""
    read, write = os.pipe()
    os.close(read)
    return write


def test_a_build_whose_reader_has_left_runs_to_its_end(tmp_path):
    game = tmp_path / "mygame"
    subprocess.run([sys.executable, "-m", "cardforge", "new", str(game)], check=True, capture_output=True)
    gone = _closed_pipe()
    try:
        code = subprocess.run([sys.executable, "-m", "cardforge", "build", str(game), "--out", str(tmp_path / "out")],
                              stdout=gone, stderr=gone, cwd=REPO, timeout=300).returncode
    finally:
        os.close(gone)
    assert code == 0
    pdfs = sorted(p.name for p in (tmp_path / "out" / "mygame").glob("*.pdf"))
    assert "mygame-kit-a4.pdf" in pdfs and "mygame-kit-letter.pdf" in pdfs, pdfs


def test_a_check_whose_reader_has_left_keeps_its_exit_code(tmp_path):
    game = tmp_path / "mygame"
    subprocess.run([sys.executable, "-m", "cardforge", "new", str(game)], check=True, capture_output=True)
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("cost: 3", "cost: 9"), "utf-8")
    gone = _closed_pipe()
    try:
        code = subprocess.run([sys.executable, "-m", "cardforge", "check", str(game)], stdout=gone, stderr=gone,
                              cwd=REPO, timeout=300).returncode
    finally:
        os.close(gone)
    assert code == 1  # the content error, not a usage error about the pipe


def _game_with_an_error(tmp_path):
    game = tmp_path / "mygame"
    subprocess.run([sys.executable, "-m", "cardforge", "new", str(game)], check=True, capture_output=True)
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("cost: 3", "cost: 9"), "utf-8")
    return game


def _env(**values):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return dict(env, **values)


def test_a_pipe_and_no_color_get_no_escape_codes_but_force_color_does(tmp_path):
    game = _game_with_an_error(tmp_path)
    for env in (_env(), _env(NO_COLOR="1"), _env(NO_COLOR="1", FORCE_COLOR="1")):
        piped = subprocess.run([sys.executable, "-m", "cardforge", "check", str(game)], capture_output=True,
                               env=env, cwd=tmp_path)
        assert piped.returncode == 1 and b"error[E-SCHEMA]" in piped.stderr
        assert b"\x1b" not in piped.stdout + piped.stderr
    forced = subprocess.run([sys.executable, "-m", "cardforge", "check", str(game)], capture_output=True,
                            env=_env(FORCE_COLOR="1"), cwd=tmp_path, text=True)
    assert "\x1b[1;31merror[E-SCHEMA]\x1b[0m: card 'heavy-blow', field 'cost'" in forced.stderr
    assert "= \x1b[1;36mhelp\x1b[0m: 'cost' takes" in forced.stderr
    # a command line cardforge cannot run says so in the same colour, and plainly in a pipe
    typo = subprocess.run([sys.executable, "-m", "cardforge", "biuld"], capture_output=True, env=_env(FORCE_COLOR="1"),
                          cwd=tmp_path, text=True)
    assert typo.returncode == 2
    assert typo.stderr.startswith("cardforge: \x1b[1;31merror\x1b[0m: 'biuld' is not a cardforge command; did you "
                                  "mean 'build'?"), typo.stderr
    plain = subprocess.run([sys.executable, "-m", "cardforge", "biuld"], capture_output=True, env=_env(), cwd=tmp_path,
                           text=True)
    assert plain.stderr.startswith("cardforge: error: 'biuld' is not a cardforge command"), plain.stderr


def test_a_terminal_sees_the_severity_in_colour_and_the_location_in_bold(tmp_path):
    import pty
    game = _game_with_an_error(tmp_path)
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "cardforge", "check", str(game)], stdin=subprocess.DEVNULL,
                              stdout=follower, stderr=follower, env=_env(TERM="xterm"), cwd=tmp_path, timeout=120)
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end is closed: all is read
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(leader)
    text = seen.decode("utf-8")
    assert done.returncode == 1
    assert "\x1b[1mmygame/cards/cards.yaml:13:11\x1b[0m: \x1b[1;31merror[E-SCHEMA]\x1b[0m: card 'heavy-blow'" in text
    assert "\x1b[1;31m1 error\x1b[0m, 0 warnings" in text


def test_quiet_prints_the_errors_alone_before_or_after_the_command(tmp_path):
    game = tmp_path / "mygame"
    subprocess.run([sys.executable, "-m", "cardforge", "new", str(game)], check=True, capture_output=True)
    clean = subprocess.run([sys.executable, "-m", "cardforge", "check", "-q", str(game)], capture_output=True,
                           text=True, cwd=tmp_path)
    assert (clean.returncode, clean.stdout, clean.stderr) == (0, "", "")
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("cost: 3", "cost: 9"), "utf-8")
    broken = subprocess.run([sys.executable, "-m", "cardforge", "-q", "check", str(game)], capture_output=True,
                            text=True, cwd=tmp_path)
    assert broken.returncode == 1 and broken.stdout == ""
    assert broken.stderr.splitlines()[0] == ("mygame/cards/cards.yaml:13:11: error[E-SCHEMA]: card 'heavy-blow', "
                                             "field 'cost': 9 is greater than the maximum of 5")
    assert broken.stderr.splitlines()[-1] == "1 error, 0 warnings"


def test_a_build_prints_one_line_per_game_and_verbose_every_file(tmp_path):
    game = tmp_path / "mygame"
    subprocess.run([sys.executable, "-m", "cardforge", "new", str(game)], check=True, capture_output=True)
    run = lambda *extra: subprocess.run([sys.executable, "-m", "cardforge", "build", *extra, "--paper", "a4"],  # noqa: E731
                                        capture_output=True, text=True, cwd=game)
    default = run()
    assert default.returncode == 0, default.stderr
    manifest = json.loads((game / "build" / "mygame" / "mygame-kit-a4.manifest.json").read_text("utf-8"))
    pdfs = sorted((game / "build" / "mygame").glob("*.pdf"))
    assert len(pdfs) == 3  # the kit, its cards and its guide
    assert default.stdout.splitlines() == [
        f"mygame: 3 PDFs in build/mygame (sheets: kit-a4 {manifest['sheets']['count']})"]
    detail = run("-v")
    lines = detail.stdout.splitlines()
    assert "wrote build/mygame/mygame-kit-a4.pdf" in lines
    assert any(line.startswith("  mygame-kit-a4.pdf: ") and "sheets (lower bound" in line for line in lines)
    assert len([line for line in lines if line.startswith("wrote ")]) == 6  # three PDFs and their manifests
    assert lines[-1] == default.stdout.splitlines()[0]
    quiet = run("-q", "-v")  # -q wins: nothing but errors
    assert (quiet.returncode, quiet.stdout) == (0, "")
