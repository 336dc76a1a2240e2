"""Accessibility: whether every player can read what is printed (contrast), and tell its
categories apart with any colour vision or on a black-and-white printer (colour vision, colour
alone).  A stage of its own after the fit pass: it reads drawn faces (drawn.py) and reports at
layout lines; `cardforge check --access` and `build --access` run it (stage.py)."""
from __future__ import annotations

from .stage import check_access

__all__ = ["check_access"]
