"""Where cardforge finds the files it ships: the one place that knows the package's data layout.

Each kind of resource is a folder inside the installed package, read through importlib.resources,
so that cardforge runs from a wheel, a zip or a checkout alike:

    fonts     cardforge/fonts/           the built-in fonts, their licences and fonts.yaml
    schemas   cardforge/frontend/schemas/ the JSON Schemas `check` validates against
    layouts   cardforge/layout/common/   the common layouts every game can use
    serve     cardforge/serve/           the preview's page
    iconsets  cardforge/iconsets/        game-icons.net's icons, searched and drawn by name

The top-level fonts/ folder of the repository is the fonts' source of truth: the build copies it
into the package (setup.py), and from a checkout (an editable install, or `python -m cardforge`
beside the sources) it is read where it is.  A new kind is one line in KINDS.

reportlab and the layout loader want file system paths, not Traversables: `path()` gives one,
the package's own file when the package lies on disk (the usual case), otherwise a copy taken out
of the archive once into the user's cache folder (never into site-packages).
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

PACKAGE = "cardforge"
KINDS = {  # kind -> its folder inside the package
    "fonts": "fonts",
    "schemas": "frontend/schemas",
    "layouts": "layout/common",
    "serve": "serve",
    "profiles": "profiles",  # CMYK output profiles (output/printcolor.py; tools/build_profiles.py)
    "iconsets": "iconsets",  # icon libraries drawn by name (layout/iconsets.py; tools/vendor_game_icons.py)
}
CHECKOUT = {"fonts": "fonts"}  # kinds whose source of truth is a top-level folder of the repository
_HERE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def _package():
    """The package's root as a Traversable.  On disk it is this folder, which is what
    importlib.resources would answer too, without importing it (some 15 ms of `check`'s start-up,
    `python -X importtime`)."""
    if (_HERE / "__init__.py").is_file():
        return _HERE
    from importlib import resources
    return resources.files(PACKAGE)


def folder(kind: str):
    """The resource folder of `kind` (a Traversable: a Path when the package lies on disk)."""
    inside = _package().joinpath(*KINDS[kind].split("/"))
    if kind in CHECKOUT and not inside.is_dir():
        checkout = _HERE.parent / CHECKOUT[kind]  # a checkout: the folder is copied in only by a build
        if checkout.is_dir() and (_HERE.parent / "pyproject.toml").is_file():  # not site-packages/fonts
            return checkout
    return inside


def resource(kind: str, name: str):
    """One file of a kind (a Traversable); `name` may hold '/' for a file in a subfolder."""
    return folder(kind).joinpath(*name.split("/"))


def read_bytes(kind: str, name: str) -> bytes:
    return resource(kind, name).read_bytes()


def read_text(kind: str, name: str) -> str:
    return resource(kind, name).read_text("utf-8")


def path(kind: str, name: str | None = None) -> Path:
    """A file system path to a resource folder (name None) or file, for code that opens files
    by name (reportlab, the layout loader).  Outside a file system (a zip) the folder is copied
    once into the user cache folder, under a name made from its contents' digest."""
    found = folder(kind)
    if isinstance(found, Path):
        return found / name if name else found
    target = _extracted(kind)
    return target / name if name else target


def _files(node, prefix: str = ""):
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            yield from _files(child, rel + "/")
        elif child.is_file():
            yield rel, child


@lru_cache(maxsize=None)  # once per kind and process
def _extracted(kind: str) -> Path:
    import hashlib
    import shutil
    import tempfile
    from .diskcache import cache_root
    files = list(_files(folder(kind)))
    digest = hashlib.sha256()
    for rel, node in files:
        digest.update(rel.encode() + b"\0" + node.read_bytes() + b"\0")
    base = cache_root() or _scratch()  # the cache turned off: a folder of this process's own
    target = base / "resources" / f"{kind}-{digest.hexdigest()[:16]}"
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{kind}-", dir=target.parent))
    for rel, node in files:
        out = staging / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(node.read_bytes())
    try:
        os.replace(staging, target)  # another process may have done it first: theirs is the same
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
    return target


@lru_cache(maxsize=None)
def _scratch() -> Path:
    import atexit
    import shutil
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="cardforge-resources-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder
