"""Ctrl+C: every command stops at once, says `interrupted`, and leaves the previous output as it was.

A terminal sends SIGINT to the whole process group: cardforge and the processes it started (the
workers of a parallel build, the PDF builder of `serve`).  Only the command's own process acts on
it.  There it raises KeyboardInterrupt, which unwinds the command through its `finally` blocks:
the workers are killed and waited for (output/parallel.py), the staging folders and files are
removed (output/replace.py), the locks released (output/lock.py); `cli.main` then prints one line
and exits with 130, the shell's code for a process ended by SIGINT.  A second Ctrl+C during that
clean-up ends the process at once; what it leaves (a staging folder) is removed by the next build,
as after a kill.

The child processes ignore SIGINT, so none prints a traceback of its own or stops before the
parent has decided what to do; SIGTERM, which the parent sends them, ends them through their own
`finally` blocks (SystemExit).
"""
from __future__ import annotations

import _thread
import os
import signal
import threading
from contextlib import contextmanager
from typing import Iterator

EXIT_INTERRUPTED = 130


def _first(_signum, frame) -> None:
    if _in_finalizer(frame):
        # An exception raised in a finalizer (a `__del__`, which the collector may run at any
        # moment) is printed and dropped, and the command went on to the end: have the signal
        # come again in a moment, once the finalizer has returned (raised now, it would be
        # answered here again at once).
        again = threading.Timer(0.01, _thread.interrupt_main, (signal.SIGINT,))
        again.daemon = True
        again.start()
        return
    signal.signal(signal.SIGINT, _again)
    raise KeyboardInterrupt


def _in_finalizer(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _again(_signum, _frame) -> None:
    os._exit(EXIT_INTERRUPTED)


@contextmanager
def interruptible() -> Iterator[None]:
    """Around a command, in its process's main thread: Ctrl+C raises KeyboardInterrupt once."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _first)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _terminated(_signum, _frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM kills outright
    raise SystemExit(EXIT_INTERRUPTED)


def in_child() -> None:
    """In a worker process, first thing: ignore Ctrl+C, unwind on SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by held() in the parent


@contextmanager
def held() -> Iterator[None]:
    """Around the start of child processes: Ctrl+C is held back in this thread, so that a forked
    child starts with it blocked and unblocks it only once it ignores it (in_child); one that comes
    meanwhile reaches this process when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks (and no fork)
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
