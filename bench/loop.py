#!/usr/bin/env python3
"""Benchmark: the designer's loop, from saving a card file to the updated picture and PDFs.

    python bench/loop.py                 # Iron Rain, 10 edits
    python bench/loop.py content/bomber-boys --edits 20

It copies the game to a temporary folder, starts `cardforge serve` on it (a real process, on
127.0.0.1), waits for the first full drawing, then makes one-word edits to one card's text,
one at a time.  For each edit it measures, from the moment the file is written:

* picture: until the server reports the card's new picture (polling /api/piece/KEY every 5 ms)
  and that picture has been fetched;
* PDFs: until the background build that follows the edit has finished.

It prints each edit and the medians.  Targets (issue 14): picture under 0.3 s and PDFs under
1.5 s (medians of 10 edits).
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_PICTURE = 0.3
TARGET_PDF = 1.5


def state(url: str) -> dict:
    return json.loads(urllib.request.urlopen(url + "/api/state", timeout=5).read())


def piece_state(url: str, key: str) -> dict:
    return json.loads(urllib.request.urlopen(f"{url}/api/piece/{key}", timeout=5).read())


def find_edit(game: Path) -> tuple[Path, str, str]:
    """A card file and a quoted text field in it: the word we will change."""
    for path in sorted((game / "cards").glob("*.yaml")):
        text = path.read_text("utf-8")
        for match in re.finditer(r"^\s+(?:-\s+)?id: ([\w-]+)$", text, re.M):
            rest = text[match.end():]
            field = re.search(r"^\s+(flavor|text|bio|effect|note): \"?([A-Z][a-z]+) ", rest, re.M)
            if field and field.start() < 1500:
                return path, match.group(1), field.group(2)
    raise SystemExit(f"no card with a text field to edit in {game}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default=str(REPO / "content" / "iron-rain"))
    parser.add_argument("--edits", type=int, default=10)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="cardforge-loop-"))
    game = work / Path(args.game).name
    shutil.copytree(args.game, game)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "cardforge", "serve", str(game), "--layouts",
                               str(REPO / "layouts"), "--port", str(port), "--out", str(work / "out")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        start = time.perf_counter()
        while True:
            try:
                first = state(url)
                if first["pdf_build"]["state"] == "done":
                    break
            except OSError:
                pass
            if server.poll() is not None:
                sys.stderr.write(server.stderr.read())
                return 1
            time.sleep(0.05)
        print(f"loop bench: {first['game']}, {len(first['pieces'])} faces drawn and PDFs built in "
              f"{time.perf_counter() - start:.1f} s at start")
        path, card, word = find_edit(game)
        key = f"card/{card}/front"
        pictures, pdfs = [], []
        for i in range(args.edits):
            before = piece_state(url, key)
            version = before["piece"]["version"]
            built = before["pdf_build"]["built"]
            new_word = f"{word}{'x' * (i + 1)}"
            text = path.read_text("utf-8")
            path.write_text(text.replace(f" {word} ", f" {new_word} ", 1) if i == 0 else
                            text.replace(f" {word}{'x' * i} ", f" {new_word} ", 1), "utf-8")
            saved = time.perf_counter()
            picture = None
            while True:
                now = piece_state(url, key)
                piece = now["piece"]
                if picture is None and piece and piece["version"] > version:
                    urllib.request.urlopen(f"{url}/image/{key}.png?v={piece['version']}", timeout=5).read()
                    picture = time.perf_counter() - saved
                if picture is not None and now["pdf_build"]["built"] > built and now["pdf_build"]["state"] != "building":
                    pdfs.append(time.perf_counter() - saved)
                    break
                if time.perf_counter() - saved > 30:
                    raise SystemExit(f"edit {i + 1}: no update after 30 s ({state(url)['diagnostics'][:1]})")
                time.sleep(0.005)
            pictures.append(picture)
            print(f"  edit {i + 1:>2}: '{word}' -> '{new_word}' in {path.name} ({card}): picture {picture * 1000:.0f} ms, "
                  f"PDFs {pdfs[-1] * 1000:.0f} ms")
            time.sleep(0.3)
        picture, pdf = statistics.median(pictures), statistics.median(pdfs)
        print(f"median of {args.edits}: save -> picture {picture * 1000:.0f} ms "
              f"(target < {TARGET_PICTURE * 1000:.0f} ms: {'ok' if picture < TARGET_PICTURE else 'MISSED'}); "
              f"save -> PDFs {pdf * 1000:.0f} ms (target < {TARGET_PDF * 1000:.0f} ms: "
              f"{'ok' if pdf < TARGET_PDF else 'MISSED'})")
        return 0
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
