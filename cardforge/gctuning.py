"""Garbage collection tuned for cardforge's two kinds of work: loading a game (thousands of
long-lived objects) and drawing it (many short-lived objects, few cycles).  With Python's
default thresholds the collector walked the young objects every 700 allocations and the whole
heap now and then: 20-30% of drawing, and 0.3 s of loading 10,000 cards."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def loading_gc() -> Iterator[None]:
    """While a game loads, what was alive before (the imported modules, an earlier game) is frozen
    out of collections, and there is no full collection: loading keeps nearly all it makes, and
    a full collection walked all of it again each time it had grown by a quarter (six times, 0.3 s,
    for 10,000 cards, and nothing to free once YAML loading left no cycles).  Young collections
    run as usual, so what cycles loading does leave are freed as it goes (with fewer of them,
    10,000 cards peaked 16 MB higher)."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(thresholds[0], thresholds[1], 1_000_000)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


@contextmanager
def drawing_gc() -> Iterator[None]:
    """Collection tuned for drawing: the prepared game is frozen out of every collection, and
    young collections run a hundred times less often.  What an earlier build of this process left
    (`serve`, a worker's next document) is collected first, or it would stay frozen with the rest;
    before the first there is nothing to collect, and the walk over every object of the process
    took 5-35 ms of a 540-card build."""
    if _drawn_before:
        gc.collect()
    _drawn_before.append(True)
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)
    try:
        yield
    finally:
        # What drawing left alive (up to 100,000 young objects) joins the old generation as is:
        # restoring the thresholds over a full young generation made the next allocation walk
        # all of it (about 10 ms of a 540-card build).  A later full collection sees it.
        gc.freeze()
        gc.set_threshold(*thresholds)
        gc.unfreeze()


_drawn_before: list = []  # not empty once this process has drawn (drawing_gc)
