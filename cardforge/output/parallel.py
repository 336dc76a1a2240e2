"""Both cores: the games and papers of a build drawn in a process pool.

Each (game, paper) is one job.  A job prepares its game, draws and verifies that paper's PDFs
into temporary files, and returns them staged, with its diagnostics.  Nothing is renamed into
place by a worker: the parent commits a game's files only when every job of that game
succeeded, so a failed build still leaves the previous output untouched.  Jobs are independent
and deterministic, so the files are byte-identical to a serial build's.
"""
from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..diagnostics import ContentError, Report
from ..prepare import prepare
from .build import build_paper, commit, discard, drawing_gc
from .pages import PrintOptions, count_faces

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

    @property
    def options(self) -> PrintOptions:
        return PrintOptions(self.paper, self.mode, self.flip, self.back_offset, self.imposition)


@dataclass
class GameResult:
    game_dir: Path
    report: Report = field(default_factory=Report)
    outputs: list[Path] = field(default_factory=list)


_progress_queue = None  # set in each worker by _init


def _init(progress_queue) -> None:
    global _progress_queue
    _progress_queue = progress_queue


def run_job(index: int, job: Job) -> tuple[int, Report, list[tuple[Path, Path]]]:
    """One paper of one game, staged (in a worker, or in this process for a serial build)."""
    report = Report()
    try:
        prep = prepare(job.game_dir, report, job.layouts_dir)
    except ContentError:
        return index, report, []
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
        staged = build_paper(prep, job.out_dir, job.options, report, progress, job.kit)
    return index, report, staged


def build_all(jobs: list[Job], progress: Progress | None = None, workers: int | None = None) -> list[GameResult]:
    """Run every job (in parallel when there are several and more than one core), then commit each
    game whose jobs all succeeded.  Results come back in the order of the games in `jobs`."""
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
    return _commit_games(jobs, outcomes)


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
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init,
                                 initargs=(updates,)) as pool:
            futures = [pool.submit(run_job, index, job) for index, job in enumerate(jobs)]
            for future in futures:
                index, report, staged = future.result()
                outcomes[index] = (report, staged)
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


def _commit_games(jobs: list[Job], outcomes) -> list[GameResult]:
    results: dict[Path, GameResult] = {}
    staged_by_game: dict[Path, list[tuple[Path, Path]]] = {}
    seen: dict[Path, set] = {}
    for index, job in enumerate(jobs):
        result = results.setdefault(job.game_dir, GameResult(job.game_dir))
        report, staged = outcomes[index]
        keys = seen.setdefault(job.game_dir, set())
        for item in report.items:  # the papers of a game share its front end's diagnostics: once each
            key = (item.severity, item.code, item.message, item.position)
            if key not in keys:
                keys.add(key)
                result.report.add(item)
        staged_by_game.setdefault(job.game_dir, []).extend(staged)
    for game_dir, result in results.items():
        staged = staged_by_game[game_dir]
        if result.report.has_errors():
            discard(staged)
        else:
            result.outputs = commit(staged)
    return list(results.values())
