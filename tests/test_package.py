"""cardforge as a user installs it: the wheel built from the sdist (`python -m build`), installed into
a fresh virtual environment outside the checkout (no editable install, no PYTHONPATH), run in an
empty folder.  Every command a designer uses works there, the PDFs embed every font, the version
is the manifest's, and nothing is written into site-packages.

The wheel and the environment are made once per session (about a minute with pip's cache)."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from conftest import REPO

SEED = "bomber-boys"  # a seed game with its own layouts library and translations (translate status)


def _run(args, cwd, env, timeout=600):
    return subprocess.run([str(a) for a in args], cwd=str(cwd), env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """sdist and wheel, as `python -m build` makes them: the wheel is built from the unpacked sdist."""
    out = tmp_path_factory.mktemp("dist")
    done = _run([sys.executable, "-m", "build", "--outdir", out, REPO], REPO, dict(os.environ), timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def _wheel(dist: Path) -> Path:
    [wheel] = dist.glob("cardforge-*.whl")
    return wheel


@pytest.fixture(scope="session")
def installed(dist, tmp_path_factory) -> dict:
    """A fresh venv with the wheel installed, and the environment a user's shell would give it."""
    root = tmp_path_factory.mktemp("user")
    venv = root / "venv"
    done = _run([sys.executable, "-m", "venv", venv], root, dict(os.environ))
    assert done.returncode == 0, done.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CARDFORGE_CACHE")}
    env |= {"PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", "XDG_CACHE_HOME": str(root / "cache"),
            "HOME": str(root / "home"), "PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR", str(Path.home() / ".cache/pip"))}
    (root / "home").mkdir()
    done = _run([venv / "bin/python", "-m", "pip", "install", "-q", _wheel(dist)], root, env, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    site = Path(_run([venv / "bin/python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     root, env).stdout.strip())
    return {"venv": venv, "env": env, "site": site, "cache": root / "cache", "root": root}


def _tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_every_data_file_of_the_package_is_a_resource_kind():
    """A data file added to the package outside resources.py's folders would be read by a path of
    its own (and perhaps not shipped): each lies in a kind's folder, and in a checkout the fonts
    are the top-level folder, the source of truth."""
    from cardforge import resources
    package = REPO / "cardforge"
    folders = {kind: package / sub for kind, sub in resources.KINDS.items()}
    data = [p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"]
    assert data and [p for p in data if not any(f in p.parents for f in folders.values())] == []
    assert resources.path("fonts") == REPO / "fonts"
    assert resources.path("schemas", "game.schema.json") == package / "frontend/schemas/game.schema.json"
    assert all(resources.folder(kind).is_dir() for kind in resources.KINDS)


def test_the_wheel_carries_every_file_cardforge_reads(dist):
    names = set(zipfile.ZipFile(_wheel(dist)).namelist())
    fonts = {p.name for p in (REPO / "fonts").iterdir() if p.is_file()}
    assert {f"cardforge/fonts/{n}" for n in fonts} <= names
    assert {"cardforge/fonts/LICENSE-DejaVu.txt", "cardforge/fonts/LICENSE-Noto.txt",
            "cardforge/fonts/LICENSE-WenQuanYi.txt", "cardforge/fonts/fonts.yaml"} <= names
    for folder, pattern in (("cardforge/frontend/schemas", "*.json"), ("cardforge/layout/common", "*.yaml"),
                            ("cardforge/serve", "*.html")):
        shipped = {f"{folder}/{p.name}" for p in (REPO / folder).glob(pattern)}
        assert shipped and shipped <= names, folder
    assert not any(n.startswith(("tests/", "content/", "fonts/")) for n in names)


def test_the_sdist_rebuilds_the_same_wheel(dist, tmp_path):
    """The wheel `python -m build` made from the sdist holds the same files, byte for byte, as one
    built straight from the source tree (copied first: an in-tree build writes build/ beside it)."""
    tree = tmp_path / "tree"
    for name in ("cardforge", "fonts"):
        shutil.copytree(REPO / name, tree / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "CHANGELOG.md"):
        shutil.copy2(REPO / name, tree / name)
    done = _run([sys.executable, "-m", "build", "--wheel", "--outdir", tmp_path / "out", tree], tree,
                dict(os.environ), timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    [direct] = (tmp_path / "out").glob("*.whl")

    def contents(wheel: Path) -> dict[str, bytes]:
        with zipfile.ZipFile(wheel) as z:
            return {n: z.read(n) for n in z.namelist()}
    assert contents(direct) == contents(_wheel(dist))


def test_twine_check_strict_passes(dist):
    done = _run([sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir())], dist, dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2, done.stdout


def _fonts_embedded(pdf: Path) -> list[str]:
    """pdffonts' rows: (name, emb); every row must say yes."""
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    rows = [line.split() for line in out if line.strip()]
    return [row[0] for row in rows if row[-5] != "yes"] if rows else ["(no fonts)"]


def test_an_installed_cardforge_works_from_an_empty_folder(installed, tmp_path):
    env, venv = installed["env"], installed["venv"]
    exe = venv / "bin/cardforge"
    before = _tree(installed["site"])
    work = tmp_path / "empty"
    work.mkdir()

    def ok(*args, timeout=600):
        done = _run([exe, *args], work, env, timeout)
        assert done.returncode == 0, f"cardforge {' '.join(map(str, args))}:\n{done.stdout[-2000:]}{done.stderr[-4000:]}"
        return done

    ok("new", "g")
    ok("check", "g")
    ok("build", "g", "--paper", "a4")
    ok("render", "g", "quick-step", "--out", "face.png")
    assert (work / "face.png").stat().st_size > 1000
    ok("export", "png", "g", "--dpi", "100")
    assert len(list((work / "build/g").rglob("*.png"))) >= 5
    ok("stats", "g")
    shutil.copytree(work / "g", work / "g2")
    cards = work / "g2/cards/cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("Then draw a card.", "Then draw two cards."), "utf-8")
    assert "quick-step" in ok("diff", "g", "g2").stdout

    # a seed game and its layouts library, copied out of the checkout
    shutil.copytree(REPO / "content" / SEED, work / "sets" / SEED)
    shutil.copytree(REPO / "layouts" / SEED, work / "mylayouts" / SEED)
    ok("check", f"sets/{SEED}", "--layouts", "mylayouts")
    ok("build", f"sets/{SEED}", "--layouts", "mylayouts", "--paper", "a4")
    assert "de" in ok("translate", "status", f"sets/{SEED}").stdout

    pdfs = sorted((work / "build").rglob("*.pdf"))
    assert {p.parent.name for p in pdfs} == {"g", SEED}
    for pdf in pdfs:
        assert _fonts_embedded(pdf) == [], pdf

    version = ok("--version").stdout.strip()
    assert re.fullmatch(r"cardforge \d+\.\d+\.\d+\S*", version), version
    for manifest in sorted((work / "build").rglob("*.manifest.json")):
        assert f"cardforge {json.loads(manifest.read_text('utf-8'))['cardforge']}" == version, manifest
    info = subprocess.run(["pdfinfo", str(work / "build/g/g-kit-a4.pdf")], capture_output=True, text=True).stdout
    assert re.search(rf"^Creator:\s+{re.escape(version)}$", info, re.M), info
    assert re.search(rf"^Producer:\s+{re.escape(version)}$", info, re.M), info

    _serve_answers(exe, work, env)

    assert _tree(installed["site"]) == before  # nothing written into site-packages
    assert any((installed["cache"] / "cardforge").iterdir())  # the disk cache is the user's cache folder


def _serve_answers(exe: Path, work: Path, env: dict) -> None:
    """`serve` finds its page inside the package: the preview answers with it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([str(exe), "serve", "g", "--port", str(port), "--paper", "a4", "--out", "served"],
                               cwd=str(work), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    page = answer.read().decode("utf-8")
                break
            except OSError:
                assert process.poll() is None, process.stderr.read()
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.5)
        assert "<html" in page.lower() and "cardforge" in page.lower()
    finally:
        process.terminate()
        process.wait(timeout=60)


def test_the_resources_are_found_inside_a_zip(installed, dist, tmp_path):
    """resources.py reads through importlib.resources: with the wheel itself on PYTHONPATH
    (zipimport), the schemas and the serve page are read from the archive, and the fonts, which
    reportlab opens by name, are copied out once into the user cache folder and parse there.
    (The rest of cardforge fingerprints its own source files for the disk cache, so cardforge as a
    whole runs from an installed package on disk, as pip and pipx install it.)"""
    env = dict(installed["env"], PYTHONPATH=str(_wheel(dist)), XDG_CACHE_HOME=str(tmp_path / "cache"))
    script = """
import json, cardforge
from cardforge import resources
from reportlab.pdfbase.ttfonts import TTFont
print(cardforge.__file__)
print(json.loads(resources.read_text("schemas", "game.schema.json"))["title"])
print(len(resources.read_bytes("serve", "page.html")))
print(sorted(p.name for p in resources.path("layouts").glob("*.yaml")))
fonts = resources.path("fonts")
print(fonts)
print(TTFont("probe", str(resources.path("fonts", "NotoSans-Regular.ttf"))).face.name.decode())
"""
    done = _run([installed["venv"] / "bin/python", "-c", script], tmp_path, env)
    assert done.returncode == 0, done.stderr[-3000:]
    where, title, page, layouts, fonts, face = done.stdout.splitlines()
    assert where.startswith(str(_wheel(dist)) + os.sep)
    assert title and int(page) > 1000 and "card.yaml" in layouts
    assert Path(fonts).parent == tmp_path / "cache/cardforge/resources"
    assert (Path(fonts) / "fonts.yaml").is_file() and (Path(fonts) / "LICENSE-Noto.txt").is_file()
    assert face == "NotoSans-Regular"
