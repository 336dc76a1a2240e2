"""Every limit that keeps untrusted content from exhausting memory, time or the process.

Content is untrusted input: a card file, a layout or a rules file must not be able to hang a build,
fill the memory or crash the interpreter.  Each limit here is far above what a real game needs (the
largest shipped game uses a fraction of each), and crossing one is an E-LIMIT diagnostic that names
the limit, at the file and line that crossed it.  The README lists them.
"""
from __future__ import annotations

import errno
import os
import signal
import stat
import threading
import time

MAX_FILE_BYTES = 4 * 1024 * 1024  # one source file (YAML, JSON, CSV, XLSX)
MAX_MANIFEST_BYTES = 256 * 1024 * 1024  # a build manifest that `cardforge diff` compares (output, not source)
MAX_ROWS, MAX_COLUMNS = 20_000, 200  # of a spreadsheet's sheet (CSV or XLSX), a far cell counted
MAX_UNZIPPED = 64 * 1024 * 1024  # what an .xlsx (a zip) may expand to
MAX_CELL_YAML = 20_000  # characters of YAML or JSON in one spreadsheet cell
MAX_NODES = 500_000  # values in one file after YAML aliases are expanded
MAX_DEPTH = 100  # lists and mappings nested inside each other (YAML and JSON)
MAX_INT_DIGITS = 18  # digits of an integer (below 2**63)
MAX_PICKS = 500  # picks of one force list (a rule of scope `pick` sees every pick before it)
MAX_FORCE_BYTES = 256 * 1024  # one force list file (500 picks take some 20 KB; a bigger file is refused unread)
MAX_COPIES = 50_000  # printed pieces of one game: card copies, series numbers and variants
MAX_IMAGE_PIXELS = 50_000_000  # pixels of one raster image (a 7000 x 7000 picture; 600 dpi A4 is 35M)
MAX_RASTER_PIXELS = 150_000_000  # pixels of one picture cardforge draws (A0 at 300 dpi is 139M; 450 MB as RGB)
MAX_SVG_BYTES = 1024 * 1024  # one icon file
MAX_SVG_ELEMENTS = 20_000  # elements of one icon
MAX_REPEAT = 100_000  # the longest text or list a template may build by repetition or padding
MAX_TEMPLATE_OUTPUT = 100_000  # characters of one template's output (one frame's text)
MAX_EXPRESSION_SECONDS = 2.0  # the time of one template or rules expression
MAX_REGEX_SECONDS = 0.25  # one regular-expression match from content (rules, schema `pattern`): `regex`'s timeout
MAX_PATTERN_CHARS = 300  # characters of one regular expression from content
MAX_UNIQUE_ITEMS = 10_000  # items of an array a schema's `uniqueItems` compares
MAX_FONT_BYTES = 32 * 1024 * 1024  # one font file of a game (reportlab reads it whole; Noto CJK is 16 MB)
MAX_TYPE_PT = 1000  # the type size of a text, table or field frame (35 cm: more than any piece printed at home)


def limit_message(what: str, limit: str) -> str:
    """The common wording: '<what> is larger than the limit of <limit>'."""
    return f"{what} is larger than the limit of {limit}"


def depth_message() -> str:
    return f"nested more than {MAX_DEPTH} levels deep (the limit of nesting depth)"


class LimitError(ValueError):
    """Content asked for more than a limit allows (reported as E-LIMIT)."""


class TimeLimit(LimitError):
    """One template or expression ran longer than MAX_EXPRESSION_SECONDS."""


def _expired(signum, frame):  # noqa: ARG001 - signal handler signature
    if _batch.depth:  # a batch's timer: stop the expression only once it has run its time
        _batch.expired()
        return
    raise TimeLimit(_message())


def _message() -> str:
    return f"it ran longer than the limit of {MAX_EXPRESSION_SECONDS:g} s for one expression"


class time_limit:  # noqa: N801 - used like a function: `with time_limit():`
    """Interrupt the code inside after `seconds` with TimeLimit.  It uses the interval timer, which
    only the main thread can receive; elsewhere (the preview's worker threads) it does nothing, and
    the size limits above still bound the work.  Nested uses keep the outermost deadline.  A class,
    not a generator: it runs for every expression (thousands per check).  Inside an
    `expression_batch` it makes no system call: it notes when the expression started, and the
    batch's timer stops it at the same deadline."""

    __slots__ = ("armed", "seconds")
    _depth = 0

    def __init__(self, seconds: float | None = None):
        self.seconds, self.armed = MAX_EXPRESSION_SECONDS if seconds is None else seconds, False

    def __enter__(self):
        if time_limit._depth == 0 and threading.get_ident() == _MAIN_THREAD:
            if _batch.depth:
                _batch.deadline = _monotonic() + self.seconds
                if self.seconds < MAX_EXPRESSION_SECONDS:  # sooner than the batch's timer may fire
                    _setitimer(_REAL, self.seconds)
            else:
                if not _handler_installed:
                    _install_handler()
                _setitimer(_REAL, self.seconds)
                self.armed = True
        time_limit._depth += 1
        return self

    def __exit__(self, *exc):
        time_limit._depth -= 1
        if self.armed:
            _setitimer(_REAL, 0)
        elif time_limit._depth == 0:
            _batch.deadline = None
        return False


class expression_batch:  # noqa: N801 - used like a function: `with expression_batch():`
    """Around a stage that runs thousands of expressions (the rules of a game): the interval timer
    is armed once for the batch instead of twice per expression (two system calls each, a tenth of
    the time of a simple expression).  The limit is unchanged: each expression still has its own
    MAX_EXPRESSION_SECONDS from its start.  When the timer fires, it stops the running expression
    if that has used its time, else it is set again for the running expression's deadline (or a
    full period when none runs), so the timer fires at most every MAX_EXPRESSION_SECONDS outside
    a runaway expression, and exactly at its deadline in one.  On other threads it does nothing."""

    __slots__ = ("owner",)
    depth = 0  # batches entered on the main thread
    deadline: float | None = None  # of the expression running inside the batch, if any

    def __init__(self):
        self.owner = False

    def __enter__(self):
        if threading.get_ident() == _MAIN_THREAD and time_limit._depth == 0:
            if expression_batch.depth == 0:
                if not _handler_installed:
                    _install_handler()
                _setitimer(_REAL, MAX_EXPRESSION_SECONDS)
            expression_batch.depth += 1
            self.owner = True
        return self

    def __exit__(self, *exc):
        if self.owner:
            expression_batch.depth -= 1
            if expression_batch.depth == 0:
                _setitimer(_REAL, 0)
                expression_batch.deadline = None
        return False

    @staticmethod
    def expired() -> None:
        """The batch's timer fired (in the signal handler)."""
        deadline = expression_batch.deadline
        left = MAX_EXPRESSION_SECONDS if deadline is None else deadline - _monotonic()
        if left <= 0:
            expression_batch.deadline = None
            _setitimer(_REAL, MAX_EXPRESSION_SECONDS)  # for the expressions after the one stopped
            raise TimeLimit(_message())
        _setitimer(_REAL, left)


_batch = expression_batch
_monotonic = time.monotonic
_MAIN_THREAD = threading.main_thread().ident
_setitimer, _REAL = signal.setitimer, signal.ITIMER_REAL
_handler_installed = False


def _install_handler() -> None:
    global _handler_installed
    signal.signal(signal.SIGALRM, _expired)
    _handler_installed = True


class NotAFile(OSError):
    """A path that names a FIFO, a device or a socket: reading it could block or never end."""


def read_bounded(path, limit: int) -> bytes:
    """The bytes of a regular file, at most limit + 1 of them (so `len(raw) > limit` tells an
    oversized file without reading it all).  A FIFO, device or socket is refused with NotAFile
    before anything is read: a named pipe nobody writes would block a check for ever."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once instead of waiting
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            kind = "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a device or a socket"
            raise NotAFile(errno.EINVAL, f"it is {kind}, not a regular file", str(path))
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
