"""Accessibility: whether every player can read what is printed (contrast), and tell its
categories apart with any colour vision or on a black-and-white printer (colour vision, colour
alone).  A stage of its own after the fit pass: it reads drawn faces (drawn.py) and reports at
layout lines; `cardforge check --access` and `build --access` run it (stage.py).  vision.py shows
a face as a colour-blind viewer or a black-and-white printer sees it (`serve`, `render --view`)."""
from __future__ import annotations


def check_access(prep, report) -> None:
    """The accessibility checks of a prepared game (stage.py), imported when asked for: vision.py's
    users need none of the drawing."""
    from .stage import check_access as run
    run(prep, report)
