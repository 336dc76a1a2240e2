"""A cache of work that depends only on a file's bytes, shared by every cardforge process of the user.

`cardforge check` runs on every save, and a parallel build runs one process per paper: without
this, each of them parses every SVG icon again (and `check` imports svglib to do it).  An entry
is found by a SHA-256 of everything its value depends on: the input's bytes, the cardforge
version, the versions of the libraries that computed it and the source of the module that
computed it (so an edited cardforge never reads an old entry).  A changed input is a different
key, so nothing is ever invalidated in place; old entries are simply no longer read.

Where: $CARDFORGE_CACHE if set (`off` turns the cache off), else $XDG_CACHE_HOME/cardforge, else
~/.cache/cardforge; never inside a game folder.  Entries are written to a temporary file and
renamed into place, so concurrent processes never see half an entry; an entry that cannot be
read (damaged, another format) is a miss.  A cache that cannot be written is no error: the work
is simply done again next time.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from functools import lru_cache
from pathlib import Path

from . import __version__

MAX_ENTRY = 8 * 1024 * 1024  # bytes; a larger value is not cached


@lru_cache(maxsize=None)
def cache_root() -> Path | None:
    setting = os.environ.get("CARDFORGE_CACHE")
    if setting is not None:
        return None if setting.strip().lower() in ("", "off", "0", "no") else Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or (Path.home() / ".cache")
    return Path(base) / "cardforge"


@lru_cache(maxsize=None)
def fingerprint(module_file: str, *libraries: str) -> bytes:
    """What a kind of entry depends on besides its input: cardforge's version, the source of the
    module that computes it, and the installed libraries it uses (each package's __init__ file:
    its place, size and time, which an upgrade changes; found without importing the library)."""
    from importlib.util import find_spec
    parts = [__version__.encode(), Path(module_file).read_bytes()]
    for name in libraries:
        spec = find_spec(name)
        origin = spec.origin if spec is not None else None
        try:
            st = os.stat(origin) if origin else None
        except OSError:
            st = None
        parts.append(f"{name}:{origin}:{st.st_size if st else 0}:{st.st_mtime_ns if st else 0}".encode())
    return hashlib.sha256(b"\0".join(parts)).digest()


@lru_cache(maxsize=None)
def code_fingerprint(*libraries: str) -> bytes:
    """As `fingerprint`, for work that runs through much of cardforge (a face laid out: templates,
    markup, text fitting, icons, tables): every module of the package (its bytes, or a settled
    file's identity: any edit changes its times), and the Python that runs it (a float's repr, a
    regular expression's behaviour)."""
    import sys
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256(fingerprint(__file__, *libraries) + sys.version.encode())
    sources = []
    for folder, _dirs, files in os.walk(package):
        sources += [os.path.join(folder, name) for name in files if name.endswith(".py")]
    for path in sorted(sources):
        # A settled module is known by its identity, as file_stamp knows a large file (reading and
        # hashing all of cardforge's source was 2% of a 540-card build); one written in the last
        # SETTLED_S seconds by its bytes.
        identity = _identity(os.stat(path))
        if identity is None:
            with open(path, "rb") as f:
                stamp = f.read()
        else:
            stamp = repr(identity).encode()
        digest.update(path[len(str(package)):].encode() + b"\0" + stamp + b"\0")
    return digest.digest()


def _identity(st: os.stat_result) -> tuple | None:
    """A file's identity without its bytes: any write changes its change time (which no tool sets
    back, unlike the modification time) and a replaced file its inode.  None for a file written in
    the last SETTLED_S seconds: another write in the same tick of the file system's clock would
    leave its times as they are, so it cannot be told apart yet (as git's "racy clean" files)."""
    import time
    if time.time() - max(st.st_mtime, st.st_ctime) < SETTLED_S:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev


SETTLED_S = 2.0  # a file written this recently may be written again within the same clock tick


def file_stamp(path) -> tuple | None:
    """What a file holds, for a key: its bytes' SHA-256 for a small file (a layout, an icon); for a
    large one (a font) its identity (_identity), without reading it.  None for a large file written
    in the last SETTLED_S seconds, which cannot be keyed yet."""
    import stat
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):  # a named pipe would block the read for ever: its kind is its stamp
            return (str(path), "not a regular file", stat.S_IFMT(st.st_mode))
        if st.st_size <= 256 * 1024:
            with open(path, "rb") as f:
                return (str(path), hashlib.sha256(f.read()).hexdigest())
    except OSError:
        return (str(path), None)
    identity = _identity(st)
    return None if identity is None else (str(path), *identity)


@lru_cache(maxsize=None)
def _folder(kind: str) -> str | None:
    root = cache_root()
    return None if root is None else os.path.join(root, kind)


def _path(kind: str, key: bytes) -> str | None:
    """The entry's file (a string: `check` looks up hundreds of entries, and pathlib is slow at it)."""
    folder = _folder(kind)
    if folder is None:
        return None
    digest = hashlib.sha256(key).hexdigest()
    return os.path.join(folder, digest[:2], digest[2:])


def get(kind: str, key: bytes) -> bytes | None:
    path = _path(kind, key)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            return f.read(MAX_ENTRY + 1)
    except OSError:
        return None


def put(kind: str, key: bytes, value: bytes) -> None:
    path = _path(kind, key)
    if path is None or len(value) > MAX_ENTRY:
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(value)
            os.replace(tmp, path)  # atomic: a reader sees the old entry, or none, or this one whole
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # a read-only or full disk: no cache, the same results
