"""Shared helpers for the cardforge test suite.

Fixture games are small game folders written into tmp_path by `make_game`.  Each has its own
`layouts/` folder with layouts that extend nothing, and lives at <tmp>/content/<name>, so the
default layouts root (<tmp>/layouts) does not exist and nothing from the repository leaks in.

Builds of the real game (content/bomber-boys) run once per session, as subprocesses in parallel.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
# The disk cache of parsed icons (cardforge/diskcache.py) of a test run: its own folder, not ~/.cache.
os.environ.setdefault("CARDFORGE_CACHE", tempfile.mkdtemp(prefix="cardforge-test-cache-"))
BOMBER = REPO / "content" / "bomber-boys"
MM = 72 / 25.4  # points per millimetre

# -- a small fixture game -------------------------------------------------------------------

GAME_YAML = """\
id: tiny
name: Tiny Game
card_size: poker
bleed: 3mm
decks:
  - id: main
    name: Main cards
    cards: cards/cards.yaml
    front: front
    back: back
    fields:
      title: {type: string}
      text: {type: string}
      cost: {type: integer, minimum: 0}
"""

CARDS_YAML = """\
cards:
  - id: alpha
    title: Alpha
    text: "First card, **bold** and *italic*."
    cost: 1
  - id: beta
    title: Beta
    text: "Second card with an icon :star: inline."
    cost: 2
    quantity: 2
"""

FRONT_LAYOUT = """\
frames:
  title: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 8mm, text: "{{ card.title }}", style: bold, size: 12pt}
  text: {type: text, x: 4mm, y: 20mm, width: 55mm, height: 40mm, text: "{{ card.text }}", size: 9pt, min_size: 6pt}
"""

BACK_LAYOUT = """\
frames:
  label: {type: text, x: 4mm, y: 40mm, width: 55mm, height: 8mm, text: "TINY BACK", align: center, size: 12pt}
"""


def make_game(tmp_path: Path, *, name: str = "tiny", game_yaml: str = GAME_YAML, cards_yaml: str | None = CARDS_YAML,
              layout_yaml: str = FRONT_LAYOUT, back_layout_yaml: str | None = BACK_LAYOUT,
              layouts: dict[str, str] | None = None, files: dict[str, str | bytes] | None = None) -> Path:
    """Write a game folder at tmp_path/content/<name> and return its path.

    `layout_yaml` and `back_layout_yaml` become layouts/front.yaml and layouts/back.yaml;
    `layouts` adds more layouts by name; `files` adds any file (text or bytes) by relative path.
    """
    game = Path(tmp_path) / "content" / name
    (game / "layouts").mkdir(parents=True, exist_ok=True)
    (game / "game.yaml").write_text(game_yaml, "utf-8")
    if cards_yaml is not None:
        (game / "cards").mkdir(exist_ok=True)
        (game / "cards" / "cards.yaml").write_text(cards_yaml, "utf-8")
    all_layouts = {"front": layout_yaml}
    if back_layout_yaml is not None:
        all_layouts["back"] = back_layout_yaml
    all_layouts.update(layouts or {})
    for layout_name, text in all_layouts.items():
        (game / "layouts" / f"{layout_name}.yaml").write_text(text, "utf-8")
    for rel, content in (files or {}).items():
        path = game / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, "utf-8")
    return game


# -- running cardforge ---------------------------------------------------------------------

def cardforge(*args, cwd: Path, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `python -m cardforge ARGS` the way a user would, capturing text output."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "cardforge", *map(str, args)], cwd=str(cwd), env=full_env,
                          capture_output=True, text=True, timeout=timeout)


HEADLINE_RE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                         r"(?P<severity>error|warning)\[(?P<code>[A-Z0-9-]+)\]: (?P<message>.*)$")


def headlines(stderr: str) -> list[str]:
    """The `path:line:col: error[CODE]: message` lines of a run, in order."""
    return [line for line in stderr.splitlines() if HEADLINE_RE.match(line)]


def chars_in_box(page, box_mm) -> list[dict]:
    """pdfplumber chars of `page` whose centre lies in box_mm = [x, y, w, h] (mm, from the lower left)."""
    x, y, w, h = (v * MM for v in box_mm)
    return [c for c in page.chars  # y0/y1 count from the bottom of the page, also on a cropped page
            if x - 0.01 <= (c["x0"] + c["x1"]) / 2 <= x + w + 0.01
            and y - 0.01 <= (c["y0"] + c["y1"]) / 2 <= y + h + 0.01]


def squash(text: str) -> str:
    """Whitespace normalised: runs of spaces and line breaks become one space."""
    return re.sub(r"\s+", " ", text).strip()


def text_in_box(page, box_mm) -> str:
    """The text pdfplumber reads inside a box, lines joined, whitespace normalised."""
    from pdfplumber.utils import extract_text
    return squash(extract_text(chars_in_box(page, box_mm)))


def crosshairs(page) -> list[tuple[float, float]]:
    """Centres of alignment marks (points, from the page's lower left): 6 mm black horizontal lines
    crossed at their middle by 6 mm vertical ones."""
    black = [ln for ln in page.lines if abs(ln["linewidth"] - 0.4) < 0.05]
    horizontal = [ln for ln in black if abs(ln["y0"] - ln["y1"]) < 0.01 and abs(ln["x1"] - ln["x0"] - 6 * MM) < 0.05]
    vertical = [ln for ln in black if abs(ln["x0"] - ln["x1"]) < 0.01 and abs(ln["bottom"] - ln["top"] - 6 * MM) < 0.05]
    centres = []
    for h in horizontal:
        cx, cy = (h["x0"] + h["x1"]) / 2, page.height - h["top"]
        if any(abs(v["x0"] - cx) < 0.05 and abs(page.height - (v["top"] + v["bottom"]) / 2 - cy) < 0.05 for v in vertical):
            centres.append((cx, cy))
    return centres


def load_manifest(path: Path) -> dict:
    return json.loads(Path(path).read_text("utf-8"))


def where_they_differ(first: Path, second: Path) -> str:
    """The pages (of a PDF) or the top-level keys (of a manifest) two files differ in."""
    if first.suffix == ".pdf":
        from pypdf import PdfReader
        a, b = PdfReader(first), PdfReader(second)
        pages = [i + 1 for i, (p, q) in enumerate(zip(a.pages, b.pages))
                 if p.get_contents().get_data() != q.get_contents().get_data()]
        if pages:
            return f"{first.name}: {len(a.pages)} and {len(b.pages)} pages; contents differ on pages {pages}"
        objects = [n for n in range(1, min(int(a.trailer["/Size"]), int(b.trailer["/Size"])))
                   if _object(a, n) != _object(b, n)]
        return f"{first.name}: the pages' contents are the same; objects differ: {objects[:20]}"
    x, y = json.loads(first.read_text()), json.loads(second.read_text())
    keys = sorted(k for k in x.keys() | y.keys() if x.get(k) != y.get(k))
    return f"{first.name}: differs in {keys}"


def _object(reader, number: int) -> str | None:
    """The PDF object `number` with its stream's data, as text two readers can compare (pypdf's
    repr of a reference names its reader's id()), or None where the number is free."""
    try:
        obj = reader.get_object(number)
    except Exception:
        return None
    text = repr((obj, obj.get_data()) if hasattr(obj, "get_data") else obj)
    return re.sub(r"IndirectObject\((\d+), (\d+), \d+\)", r"\1 \2 R", text)


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in a folder: its bytes and modification time (to show it was not rewritten)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(Path(folder).iterdir()) if p.is_file()}


# -- session builds ------------------------------------------------------------------------

@pytest.fixture(scope="session")
def tiny_good_output(tmp_path_factory) -> Path:
    """The out folder (holding tiny/) of a clean build of the default fixture game."""
    root = tmp_path_factory.mktemp("tiny-good")
    make_game(root)
    result = cardforge("build", "content/tiny", "--out", "out", cwd=root)
    assert result.returncode == 0, result.stderr
    out = root / "out"
    assert sorted(p.name for p in (out / "tiny").glob("*.pdf")), "the good build wrote no PDF"
    return out


def _bomber_missing() -> list[str]:
    """Card files that content/bomber-boys/game.yaml names but that do not exist yet."""
    game = BOMBER / "game.yaml"
    if not game.is_file():
        return [str(game.relative_to(REPO))]
    data = yaml.safe_load(game.read_text("utf-8")) or {}
    missing = []
    for deck in (data.get("decks") or []) + (data.get("tokens") or []):
        files = deck.get("cards") or []
        for rel in [files] if isinstance(files, str) else files:
            if not (BOMBER / rel).is_file():
                missing.append(f"content/bomber-boys/{rel}")
    return missing


class BomberBuilds:
    """Output folders of the session's builds of content/bomber-boys."""

    def __init__(self, root: Path):
        self.root = root

    def folder(self, name: str) -> Path:
        return self.root / name / "bomber-boys"

    def pdf(self, name: str, paper: str, mode: str = "duplex", component: str = "cards") -> Path:
        suffix = "" if mode == "duplex" else f"-{mode}"
        return self.folder(name) / f"bomber-boys-{component}-{paper}{suffix}.pdf"

    def manifest(self, name: str, paper: str, mode: str = "duplex", component: str = "cards") -> dict:
        return load_manifest(self.pdf(name, paper, mode, component).with_suffix(".manifest.json"))


BOMBER_BUILDS = {
    # name: (extra arguments, environment)
    "duplex": ((), {"PYTHONHASHSEED": "1"}),
    "duplex-again": ((), {"PYTHONHASHSEED": "2"}),  # another process and hash seed: must give the same bytes
    "fold": (("--mode", "fold"), {}),
    "simplex": (("--mode", "simplex"), {}),
}


@pytest.fixture(scope="session")
def bomber(tmp_path_factory) -> BomberBuilds:
    missing = _bomber_missing()
    if missing:
        pytest.skip("content/bomber-boys is not complete yet; missing: " + ", ".join(missing))
    root = tmp_path_factory.mktemp("bomber")
    procs = {}
    for name, (extra, env) in BOMBER_BUILDS.items():
        # The four share one disk cache, empty at first, and run at once: which of them finds a
        # face another kept depends on which got there first, and the bytes must not (a build
        # from the session's warm cache: test_kept_faces.py).
        full_env = dict(os.environ, CARDFORGE_CACHE=str(root / "cache"), **env)
        procs[name] = subprocess.Popen(
            [sys.executable, "-m", "cardforge", "build", str(BOMBER), "--paper", "all", "--out", str(root / name),
             *extra], cwd=str(REPO), env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    failures = []
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        if proc.returncode != 0:
            failures.append(f"build '{name}' exited {proc.returncode}:\n{err}")
    assert not failures, "\n\n".join(failures)
    return BomberBuilds(root)


def copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, copy_function=shutil.copy2)


# -- mutation tests on a copied game ----------------------------------------------------------

def edit(game: Path, rel: str, old: str, new: str) -> None:
    """Replace the first `old` in a file of a copied game (it must be there)."""
    path = game / rel
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} is not in {rel}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def loc(game: Path, rel: str, line: str, at: str | None = None, nth: int = 0) -> str:
    """`<game>/REL:LINE:COL` of the first line holding `line`; the column is where the
    `nth` occurrence of `at` (default: `line`) starts on it."""
    lines = (game / rel).read_text("utf-8").splitlines()
    index = next(i for i, text in enumerate(lines) if line in text)
    needle = at if at is not None else line
    col = -1
    for _ in range(nth + 1):
        col = lines[index].index(needle, col + 1)
    return f"{game.name}/{rel}:{index + 1}:{col + 1}"


def check_copy(game: Path, capsys, monkeypatch) -> tuple[int, list[str]]:
    """`cardforge check` of a copied game, in process: the exit code and the headlines."""
    from cardforge.cli import main
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name, "--layouts", str(REPO / "layouts")])
    _, err = capsys.readouterr()
    return code, headlines(err)
