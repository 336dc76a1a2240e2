"""The fuzzer's runner: each input in a forked child of a warm process, classified.

The parent has imported cardforge and checked a pristine copy once (`warm_up`), so a child
starts with everything loaded.  A child runs `cardforge check` (or `build`, one paper, into the
sandbox's out/) in-process through `cardforge.cli.main`, with its output captured, and sends
back one JSON result.  A child that dies of a signal is a CRASH.  A HANG is judged on the child's
own CPU time (RLIMIT_CPU, so a loaded machine does not turn slow inputs into hangs), with a generous
wall-clock cap beside it for a child that waits without computing (a FIFO, a lock, a sleep).  The outcome classes:

    ok           exit 0                       TRACEBACK    an uncaught exception, or "Traceback" printed
    diagnosed    exit 1 with error diagnostics CRASH       the child died of a signal
    usage        exit 2                       HANG         past the CPU-time limit, or killed at the wall-clock cap
    NO-POSITION  an error without a file position, or without a line where its file has lines
    ESCAPE       a write outside the output folder, or a changed file of the game's copy
    BAD-EXIT     any other exit code, or exit 1 without an error diagnostic (exit 0 with one)
    HARNESS      the fuzzer itself failed to make the input (a defect of the fuzzer, shown, never hidden)

Writes are seen by an audit hook (`sys.addaudithook`: open for writing, rename, remove, mkdir,
symlink, ...), and the copy's files are hashed before and after the run.
"""
from __future__ import annotations

import contextlib
import faulthandler
import gc
import hashlib
import io
import json
import os
import re
import resource
import selectors
import shutil
import signal
import stat
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

BAD = ("TRACEBACK", "CRASH", "HANG", "NO-POSITION", "ESCAPE", "BAD-EXIT", "HARNESS")
GOOD = ("ok", "diagnosed", "usage")
TIMEOUT_S = 20.0  # CPU seconds of a child (the slowest shipped build takes about 10)
WALL_FACTOR = 8  # the wall-clock cap, in multiples of the CPU limit: 2 cores shared by 4 busy jobs stay under it
MEMORY_LIMIT = 3 * 1024 ** 3  # address space of a child: an unbounded allocation fails in it, not in the machine
PACKAGE = str(Path(__file__).resolve().parent.parent / "cardforge") + os.sep
HEADLINE = re.compile(r"^(?P<loc>.+?): (?P<sev>error|warning)\[(?P<code>[A-Za-z0-9-]+)\]: ", re.M)


@dataclass
class Outcome:
    cls: str
    exit: int | None = None
    signature: str = ""  # TRACEBACK: "ExcType at cardforge/x.py:function"; others: what was wrong
    detail: str = ""  # the traceback, or the offending diagnostic
    command: str = "check"
    mutation: str = ""
    seconds: float = 0.0  # wall time of the command in the child
    cpu: float = 0.0  # CPU time of the whole child (mutation, command, audit), from wait4
    key: object = None  # the caller's id of the input (a seed)

    @property
    def bad(self) -> bool:
        return self.cls in BAD


# -- in the child ------------------------------------------------------------------------------------

def snapshot(root: Path, skip: Path | None = None) -> dict[str, str]:
    """Every entry under root (not following symlinks, never opening a FIFO): kind and content hash."""
    found: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        if skip is not None and Path(folder) == skip:
            dirs[:] = []
            continue
        for name in dirs + files:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, root)
            if stat.S_ISLNK(st.st_mode):
                found[rel] = "link:" + os.readlink(path)
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as fh:
                    found[rel] = "file:" + hashlib.sha1(fh.read()).hexdigest()
            elif stat.S_ISDIR(st.st_mode):
                found[rel] = "dir"
            else:
                found[rel] = f"special:{stat.S_IFMT(st.st_mode)}"
    return found


WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
PATH_EVENTS = {"os.remove": 0, "os.rmdir": 0, "os.mkdir": 0, "os.truncate": 0, "os.chmod": 0, "os.utime": 0,
               "os.symlink": 1, "os.link": 1, "shutil.rmtree": 0, "shutil.copyfile": 1, "os.chown": 0}
# Where an event's path may be relative to a directory descriptor (shutil.rmtree removes a tree's
# files by name within the open folder), the index of the argument that holds that descriptor.
DIR_FD_ARGS = {"os.remove": 1, "os.rmdir": 1, "os.mkdir": 2, "os.chmod": 2, "os.utime": 3, "os.chown": 3,
               "os.symlink": 2, "os.link": 3, "shutil.rmtree": 1}


class WriteWatch:
    """An audit hook that records every write outside the allowed folders."""

    def __init__(self, allowed: list[Path]):
        self.allowed = [os.path.realpath(p) + os.sep for p in allowed] + ["/dev/null"]
        self.escapes: list[str] = []
        self.active = False

    def _check(self, event: str, path, dir_fd=None) -> None:
        if isinstance(path, int) or path is None:
            return
        path = os.fsdecode(path)
        base = os.getcwd()
        if isinstance(dir_fd, int) and dir_fd >= 0:  # a name within an open folder, not the working one
            try:
                base = os.readlink(f"/proc/self/fd/{dir_fd}")
            except OSError:
                pass
        real = os.path.realpath(os.path.join(base, path))
        if not any(real == a.rstrip(os.sep) or real.startswith(a) for a in self.allowed):
            self.escapes.append(f"{event} {path}")

    def __call__(self, event: str, args: tuple) -> None:
        if not self.active:
            return
        self.active = False  # realpath itself raises no events we care about
        try:
            if event == "open" and len(args) >= 3:
                path, mode, flags = args[0], args[1] or "", args[2] or 0
                if any(c in str(mode) for c in "wax+") or flags & WRITE_FLAGS:
                    self._check(event, path)
            elif event == "os.rename":
                self._check(event, args[0], args[2] if len(args) > 2 else None)
                self._check(event, args[1], args[3] if len(args) > 3 else None)
            elif event in PATH_EVENTS:
                at = DIR_FD_ARGS.get(event)
                self._check(event, args[PATH_EVENTS[event]], args[at] if at is not None and len(args) > at else None)
        finally:
            self.active = True


_WATCH: WriteWatch | None = None


def _install_watch(allowed: list[Path]) -> WriteWatch:
    global _WATCH
    _WATCH = WriteWatch(allowed)
    sys.addaudithook(_WATCH)  # hooks cannot be removed: this runs in a child that exits afterwards
    return _WATCH


def argv_for(game: Path, layouts: Path, out: Path, build: bool) -> list[str]:
    if build:
        return ["build", str(game), "--layouts", str(layouts), "--paper", "a4", "--out", str(out), "--jobs", "1"]
    return ["check", str(game), "--layouts", str(layouts)]


def run_cardforge(argv: list[str]) -> tuple[int | None, str, str]:
    """cardforge.cli.main in this process: (exit code or None on an exception, output, traceback)."""
    from cardforge.cli import main
    out, err = io.StringIO(), io.StringIO()
    code, trace = None, ""
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:  # noqa: BLE001 - that is what we are looking for
            trace = traceback.format_exc()
    return code, out.getvalue() + err.getvalue(), trace


def signature_of(exc_text: str) -> str:
    """'ExcType at cardforge/x.py:function' from a formatted traceback (innermost cardforge frame)."""
    frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', exc_text)
    last = exc_text.strip().splitlines()[-1] if exc_text.strip() else "?"
    exc_type = last.split(":", 1)[0].strip()
    inner = [(f, fn) for f, fn in frames if f.startswith(PACKAGE)]
    if inner:
        path, func = inner[-1]
        return f"{exc_type} at cardforge/{path[len(PACKAGE):]}:{func}"
    return f"{exc_type} outside cardforge"


def _has_lines(path: Path) -> bool:
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # never open a FIFO or a device
            return False
        with open(path, "rb") as fh:
            return bool(fh.read(1 << 16).strip())
    except OSError:
        return False


def classify(code: int | None, output: str, trace: str, escapes: list[str], root: Path) -> Outcome:
    if trace or "Traceback (most recent call last)" in output:
        text = trace or output[output.index("Traceback (most recent call last)"):]
        return Outcome("TRACEBACK", code, signature_of(text), text[-3000:])
    if escapes:
        return Outcome("ESCAPE", code, escapes[0], "\n".join(escapes[:20]))
    errors = [m for m in HEADLINE.finditer(output) if m.group("sev") == "error"]
    if code not in (0, 1, 2) or (code == 1 and not errors) or (code == 0 and errors):
        return Outcome("BAD-EXIT", code, f"exit {code} with {len(errors)} errors", output[-3000:])
    for m in errors:
        loc = m.group("loc")
        line_end = output.find("\n", m.start())
        headline = output[m.start():line_end if line_end >= 0 else None]
        if loc == "cardforge":
            return Outcome("NO-POSITION", code, f"{m.group('code')} without a file", headline)
        parts = re.match(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+)$", loc)
        if parts is None and not re.match(r"^.+:([^:]+!)?[A-Z]+\d+$", loc):  # neither line:col nor a cell
            if _has_lines(root / loc):
                return Outcome("NO-POSITION", code, f"{m.group('code')} without a line", headline)
    return Outcome({0: "ok", 1: "diagnosed", 2: "usage"}[code], code)


def execute(root: Path, game: Path, layouts: Path, out: Path, build: bool) -> Outcome:
    """Run one input in this process (a forked child): the command, then what it wrote and changed."""
    before = snapshot(root, skip=out)
    tmp = root / "tmp"
    tmp.mkdir(exist_ok=True)
    tempfile.tempdir = str(tmp)
    os.environ["TMPDIR"] = str(tmp)
    os.chdir(root)
    from cardforge.diskcache import cache_root  # the user's cache of work by content: cardforge's own place
    cache = [cache_root()] if cache_root() is not None else []
    watch = _install_watch(([out, tmp] if build else [tmp]) + cache)
    watch.active = True
    start = time.monotonic()
    code, output, trace = run_cardforge(argv_for(game, layouts, out, build))
    watch.active = False
    seconds = time.monotonic() - start
    escapes = list(watch.escapes)
    after = snapshot(root, skip=out)
    after.pop("tmp", None)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k) and not k.startswith("tmp"))
    escapes += [f"changed {k}" for k in changed]
    outcome = classify(code, output, trace, escapes, root)
    outcome.command, outcome.seconds = ("build" if build else "check"), seconds
    return outcome


def limit_child(cpu_seconds: float) -> None:
    faulthandler.disable()  # pytest's handler would print the crash we are about to classify
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    soft = max(1, int(cpu_seconds + 0.999))  # SIGXCPU at the limit, SIGKILL a little later if it is caught
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 2))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    sys.dont_write_bytecode = True
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# -- in the parent -----------------------------------------------------------------------------------

def slot_root(root: Path, slot: int) -> Path:
    """Where the child in job slot `slot` makes its sandbox: always the same folder for a slot."""
    return Path(root) / f"slot-{slot}"


def warm_up(root: Path, games: Iterable[str], slots: int = 1, build: bool = False) -> None:
    """Import cardforge and check each game once per job slot in this process, at the very paths
    the children of that slot will use, with the file memo of the preview server on: a child starts
    with modules imported, fonts registered, schemas and templates compiled, and every file it did
    not mutate already read and validated (the memo is keyed by path, time and size, and a sandbox
    copies the files' times), so it spends its time on what the mutation changed.  With `build`, it
    also builds each game once, so that a building child finds the drawing's work done as well."""
    from fuzzing import make_sandbox
    from cardforge.frontend import load
    import cardforge.output.parallel  # noqa: F401 - what `build` imports
    load.file_memo = load.file_memo or load.FileMemo()
    cwd = os.getcwd()
    try:
        for slot in range(slots):
            for game in games:
                folder = slot_root(root, slot)
                box = make_sandbox(folder, game)
                run_cardforge(argv_for(box.game, box.layouts, box.out, build=False))
                if build:  # icons parsed, fonts subset, faces measured: 1 in 10 children builds
                    run_cardforge(argv_for(box.game, box.layouts, box.out, build=True))
                os.chdir(cwd)
                shutil.rmtree(folder)
    finally:
        os.chdir(cwd)
    gc.collect()
    gc.freeze()  # the warm heap stays shared with the children (no copy-on-write by the collector)


SLOT = 0  # in a child: its job slot (run_many), so that its sandbox is where the warm-up checked


@dataclass
class _Child:
    pid: int
    fd: int
    key: object
    deadline: float  # the wall-clock cap
    started: float
    cpu_limit: float = TIMEOUT_S
    slot: int = 0
    data: bytes = b""


Task = Callable[[], Outcome]  # runs in the child; may set outcome.mutation before it runs the input


def _start(key, task: Task, timeout: float, wall: float, slot: int = 0) -> _Child:
    global SLOT
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        SLOT = slot
        os.close(read)
        code = 0
        try:
            os.setpgid(0, 0)  # a hang is killed with everything it started
            limit_child(timeout)
            outcome = task(lambda text: os.write(write, (json.dumps({"mutation": text}) + "\n").encode()))
            os.write(write, (json.dumps({"outcome": asdict(outcome) | {"key": None}}) + "\n").encode())
        except BaseException:  # noqa: BLE001 - a failure of the harness itself
            os.write(write, (json.dumps({"harness": traceback.format_exc()}) + "\n").encode())
            code = 3
        finally:
            os._exit(code)
    os.close(write)
    os.set_blocking(read, False)
    now = time.monotonic()
    return _Child(pid, read, key, now + wall, now, timeout, slot)


def _cpu(usage) -> float:
    return usage.ru_utime + usage.ru_stime


def _finish(child: _Child, status: int, cpu: float, killed: bool) -> Outcome:
    mutation, outcome = "", None
    for line in child.data.decode("utf-8", "replace").splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        mutation = message.get("mutation", mutation)
        if "outcome" in message:
            outcome = Outcome(**message["outcome"])
        if "harness" in message:  # the fuzzer's own failure, not cardforge's: shown, never hidden
            outcome = Outcome("HARNESS", None, message["harness"].strip().splitlines()[-1], message["harness"])
    seconds = time.monotonic() - child.started
    signum = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if killed:
        outcome = Outcome("HANG", None, f"killed at the wall-clock cap of {seconds:.0f} s ({cpu:.1f} s CPU)")
    elif signum == signal.SIGXCPU or (signum == signal.SIGKILL and cpu >= child.cpu_limit):
        outcome = Outcome("HANG", None, f"past {child.cpu_limit:.0f} s of CPU ({seconds:.0f} s wall)")
    elif signum is not None:
        name = signal.Signals(os.WTERMSIG(status)).name
        outcome = Outcome("CRASH", None, f"signal {name}")
    elif outcome is None:
        outcome = Outcome("CRASH", None, f"child exited {os.WEXITSTATUS(status)} without a result")
    outcome.mutation = outcome.mutation or mutation
    outcome.key = child.key
    outcome.cpu = cpu
    return outcome


def run_many(tasks: Iterable[tuple[object, Task]], jobs: int = 1, timeout: float = TIMEOUT_S,
             wall: float | None = None) -> Iterator[Outcome]:
    """Run each (key, task) in a forked child, at most `jobs` at once; yield outcomes as they end.
    A child may use `timeout` seconds of CPU, and live `wall` seconds (default WALL_FACTOR x timeout)."""
    wall = wall if wall is not None else timeout * WALL_FACTOR
    pending = iter(tasks)
    running: dict[int, _Child] = {}
    free = list(range(jobs))  # job slots: each child runs in its slot's folder (slot_root)
    sel = selectors.DefaultSelector()
    exhausted = False
    while running or not exhausted:
        while not exhausted and len(running) < jobs:
            try:
                key, task = next(pending)
            except StopIteration:
                exhausted = True
                break
            child = _start(key, task, timeout, wall, free.pop(0))
            running[child.fd] = child
            sel.register(child.fd, selectors.EVENT_READ)
        if not running:
            break
        wait = max(0.0, min(c.deadline for c in running.values()) - time.monotonic())
        for sk, _ in sel.select(timeout=min(wait, 1.0)):
            child = running[sk.fd]
            chunk = os.read(sk.fd, 1 << 16)
            child.data += chunk
            if not chunk:  # EOF: the child is done (or dead)
                sel.unregister(sk.fd)
                os.close(sk.fd)
                del running[sk.fd]
                _, status, usage = os.wait4(child.pid, 0)
                free.append(child.slot)
                yield _finish(child, status, _cpu(usage), killed=False)
        now = time.monotonic()
        for fd, child in list(running.items()):
            if now > child.deadline:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
                _, status, usage = os.wait4(child.pid, 0)
                sel.unregister(fd)
                os.close(fd)
                del running[fd]
                free.append(child.slot)
                yield _finish(child, status, _cpu(usage), killed=True)
    sel.close()


def run_one(task: Task, timeout: float = TIMEOUT_S, wall: float | None = None) -> Outcome:
    return next(run_many([(None, task)], 1, timeout, wall))
