"""Both cores: the games and papers of a build drawn in a process pool.

Each (game, paper) is one job.  A job prepares its game, draws and verifies that paper's PDFs
into the staging folder of its game's output folder, and returns them staged, with its
diagnostics.  Nothing is renamed into place by a worker: the parent holds every game's lock
(lock.py) and swaps a game's folder (replace.py) only when every job of that game succeeded, so
a failed or killed build still leaves the previous output untouched.  Jobs are independent and
deterministic, so the files are byte-identical to a serial build's.  Workers die with the
parent (Linux: PR_SET_PDEATHSIG), so a killed build leaves no orphan drawing on.  On Ctrl+C the
workers, which ignore SIGINT (interrupt.py), are killed and waited for at once, instead of the
pool's shutdown waiting for every running job; then the staging folders are removed.
"""
from __future__ import annotations

import ctypes
import dataclasses
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..diagnostics import ContentError, Report
from ..interrupt import held, in_child
from ..prepare import prepare
from ..gctuning import drawing_gc
from .build import build_paper, commit, discard
from .dryrun import lay_out_despite
from .lock import lock_all
from .pages import PrintOptions, count_faces
from .replace import Replacement

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Job:
    game_dir: Path
    out_dir: Path
    paper: str
    mode: str
    layouts_dir: Path | None
    kit: bool = True
    flip: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)  # points
    imposition: str = "bleed"
    lang: str | None = None  # a language the game lists: its overlay is merged in, and it names the files
    stage_dir: Path | None = None  # set by build_all: the staging folder of out_dir
    only: str | None = None  # --only: one deck, card, board or template (frontend/only.py)
    outline: bool = False  # --outline: frame boxes, safe zone, trim and bleed on every face (render/outline.py)
    ink_saver: bool = False  # --ink-saver: the kit for home printers, most of its ink left out (inksaver.py)
    proof: bool = False  # --proof (and --only): the pieces' sheets alone, without cover, guide and alignment test
    preview: bool = False  # --only, --outline, --proof: written despite the errors its faces show (build.py)

    @property
    def options(self) -> PrintOptions:
        return PrintOptions(self.paper, self.mode, self.flip, self.back_offset, self.imposition, self.lang)


@dataclass
class GameResult:
    game_dir: Path
    report: Report = field(default_factory=Report)
    outputs: list[Path] = field(default_factory=list)


_progress_queue = None  # set in each worker by _init


def _init(progress_queue) -> None:
    global _progress_queue
    _progress_queue = progress_queue


def _worker_init(progress_queue, parent: int) -> None:
    """A pool worker: it leaves Ctrl+C to the build, dies with it, and reports progress to it."""
    in_child()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        if os.getppid() != parent:  # the parent died before the prctl
            os._exit(1)
    _init(progress_queue)


def run_job(index: int, job: Job) -> tuple[int, Report, list[tuple[Path, Path]]]:
    """One paper of one game, staged (in a worker, or in this process for a serial build)."""
    report = Report()
    try:
        prep = prepare(job.game_dir, report, job.layouts_dir, lang=job.lang)
    except ContentError as failure:
        lay_out_despite(failure, report)
        return index, report, []
    if job.only:
        from ..frontend.only import narrow
        narrow(prep.game, job.only)
    prep.outline = job.outline
    prep.preview = job.preview
    if job.ink_saver:
        from .inksaver import apply_ink_saver
        apply_ink_saver(prep)
    total = count_faces(prep, job.paper)
    last = [0.0]

    def progress(done: int, _total: int) -> None:
        now = time.monotonic()
        if _progress_queue is not None and (done >= total or now - last[0] > 0.05):
            last[0] = now
            _progress_queue.put((index, done, total))

    if _progress_queue is not None:
        _progress_queue.put((index, 0, total))
    with drawing_gc():
        if job.proof:  # one PDF of the pieces' sheets: no cover, guide, alignment test or components page
            staged = build_paper(prep, job.out_dir, job.options, report, progress, True, job.stage_dir,
                                 opening=lambda final: [], kit_name="proof")
        else:
            staged = build_paper(prep, job.out_dir, job.options, report, progress, job.kit, job.stage_dir)
    return index, report, staged


def build_all(jobs: list[Job], progress: Progress | None = None, workers: int | None = None) -> list[GameResult]:
    """Run every job (in parallel when there are several and more than one core), then commit each
    game whose jobs all succeeded.  Results come back in the order of the games in `jobs`.
    The output folders' locks are held throughout."""
    with ExitStack() as stack:
        folders: dict[Path, str] = {}
        for job in jobs:
            folders.setdefault(job.out_dir, Path(job.game_dir).resolve().name)
        lock_all(stack, folders)
        replacements = {}
        for folder in folders:
            replacements[folder] = Replacement(folder)
            replacements[folder].open()
            stack.callback(replacements[folder].discard)
        jobs = [dataclasses.replace(job, stage_dir=replacements[job.out_dir].stage) for job in jobs]
        return _commit_games(jobs, _run_all(jobs, progress, workers), replacements)


def _run_all(jobs: list[Job], progress: Progress | None, workers: int | None):
    workers = min(workers or os.cpu_count() or 1, len(jobs))
    outcomes: dict[int, tuple[Report, list[tuple[Path, Path]]]] = {}
    if workers <= 1:
        counts: dict[int, tuple[int, int]] = {}
        for index, job in enumerate(jobs):
            _init(_Direct(counts, progress))
            try:
                _, report, staged = run_job(index, job)
            finally:
                _init(None)
            outcomes[index] = (report, staged)
    else:
        outcomes = _in_pool(jobs, progress, workers)
    return outcomes


class _Direct:
    """The progress queue of a serial build: updates go straight to the bar."""

    def __init__(self, counts: dict[int, tuple[int, int]], progress: Progress | None):
        self.counts, self.progress = counts, progress

    def put(self, item: tuple[int, int, int]) -> None:
        index, done, total = item
        self.counts[index] = (done, total)
        if self.progress:
            self.progress(sum(d for d, _ in self.counts.values()), sum(t for _, t in self.counts.values()))


def _in_pool(jobs: list[Job], progress: Progress | None, workers: int):
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    updates = context.Queue()
    counts: dict[int, tuple[int, int]] = {}
    direct = _Direct(counts, progress)
    stop = threading.Event()

    def relay() -> None:  # progress from the workers to the bar, in this process
        while not stop.is_set():
            try:
                direct.put(updates.get(timeout=0.05))
            except queue.Empty:
                continue
            except (EOFError, OSError):
                return

    thread = threading.Thread(target=relay, daemon=True)
    thread.start()
    outcomes: dict[int, tuple[Report, list[tuple[Path, Path]]]] = {}
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_init,
                               initargs=(updates, os.getpid()))
    try:
        with held():  # the workers are forked here
            futures = [pool.submit(run_job, index, job) for index, job in enumerate(jobs)]
        for future in futures:
            index, report, staged = future.result()
            outcomes[index] = (report, staged)
        pool.shutdown()
    except BaseException:
        _stop_workers(pool)  # Ctrl+C, or a job that crashed: no worker draws on
        raise
    finally:
        while True:  # the last updates, so that the bar ends at its total
            try:
                direct.put(updates.get_nowait())
            except (queue.Empty, EOFError, OSError):
                break
        stop.set()
        thread.join(timeout=1)
        if len(outcomes) < len(jobs):  # a job crashed: drop what the others staged
            for _, staged in outcomes.values():
                discard(staged)
    return outcomes


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers and wait for them, so that none still writes into a staging folder
    when the caller removes it (a pool's own shutdown would wait for every running job)."""
    if hasattr(pool, "kill_workers"):  # Python 3.14
        pool.kill_workers()
    processes = list((getattr(pool, "_processes", None) or {}).values())  # before 3.14, no public way
    for process in processes:
        process.kill()
    for process in processes:
        process.join(timeout=5)
    pool.shutdown(wait=True, cancel_futures=True)


def _commit_games(jobs: list[Job], outcomes, replacements: dict[Path, Replacement]) -> list[GameResult]:
    """Each output folder is swapped when every job writing into it succeeded (normally one game's)."""
    results: dict[Path, GameResult] = {}
    staged_by_game: dict[Path, list[tuple[Path, Path]]] = {}
    folder_of: dict[Path, Path] = {}
    seen: dict[Path, set] = {}
    for index, job in enumerate(jobs):
        result = results.setdefault(job.game_dir, GameResult(job.game_dir))
        folder_of[job.game_dir] = job.out_dir
        report, staged = outcomes[index]
        keys = seen.setdefault(job.game_dir, set())
        for item in report.items:  # the papers of a game share its front end's diagnostics: once each
            key = (item.severity, item.code, item.message, item.position)
            if key not in keys:
                keys.add(key)
                result.report.add(item)
        staged_by_game.setdefault(job.game_dir, []).extend(staged)
    # a preview's folder is swapped despite errors its faces show, when each of its jobs wrote its PDFs
    previews = {job.out_dir for job in jobs if job.preview}
    for folder, replacement in replacements.items():
        games = [game for game, out in folder_of.items() if out == folder]
        staged = [pair for game in games for pair in staged_by_game[game]]
        whole = all(outcomes[index][1] for index, job in enumerate(jobs) if job.out_dir == folder)
        if any(results[game].report.has_errors() for game in games) and not (folder in previews and whole):
            discard(staged)
            continue
        commit(staged, replacement)
        for game in games:
            results[game].outputs = [final for _, final in staged_by_game[game]]
    return list(results.values())
