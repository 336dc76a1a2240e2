"""What a face is drawn for: a card or a board (frontend/model.py).  Its own module, so that the
renderer (render/face.py) and the replay of faces drawn before (render/replay.py) both name it
without importing each other."""
from __future__ import annotations

from ..frontend.model import Board, Card

Piece = Card | Board
