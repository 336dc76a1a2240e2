"""The preview server's connections: a deadline for each request and a cap on how many are open.

A browser sends its request the moment it connects.  A client that connects and then sends
nothing, or a byte now and then (slowloris), would otherwise hold a thread and a socket for as
long as it likes, and 500 of them would leave no room for the page.  So:

* every connection has REQUEST_SECONDS from its accept to a complete request head (request line
  and headers); one that has not sent it by then is closed (`reap`, run by the server's loop);
* every single read or write may take IO_SECONDS at most (the socket's timeout), so a client that
  stops reading a response, or an event stream, is dropped too;
* at most MAX_CONNECTIONS are open.  A new connection beyond that closes the oldest one still
  waiting for its request head (then the oldest event stream: the page's EventSource reconnects
  by itself) instead of being refused, so a flood of idle connections cannot lock the page out.
  A connection whose request is being answered is never closed for a newcomer.

A connection is closed by shutting its socket down (the thread reading it sees the end at once);
the thread that owns it closes the descriptor, so no descriptor is closed twice.
"""
from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass

REQUEST_SECONDS = 5.0
IO_SECONDS = 10.0
MAX_CONNECTIONS = 64

WAITING, ANSWERING, STREAMING = "waiting", "answering", "streaming"


@dataclass
class _Open:
    state: str
    since: float  # when the connection entered its state (the order in which newcomers evict)


class Connections:
    """Which connections are open, and in which state; thread-safe."""

    def __init__(self, cap: int = MAX_CONNECTIONS, request_seconds: float = REQUEST_SECONDS):
        self.cap, self.request_seconds = cap, request_seconds
        self.lock = threading.Lock()
        self.open: dict[socket.socket, _Open] = {}
        self.dropped = 0  # connections closed by a deadline or for a newcomer (a test hook)

    def admit(self, sock: socket.socket) -> bool:
        """A new connection: room is made for it if need be.  False when every open connection is
        being answered (the newcomer is closed then)."""
        with self.lock:
            if len(self.open) >= self.cap:
                victim = self._oldest(WAITING) or self._oldest(STREAMING)
                if victim is None:
                    return False
                self._drop(victim)
            self.open[sock] = _Open(WAITING, time.monotonic())
            return True

    def mark(self, sock: socket.socket, state: str) -> bool:
        """The connection's new state; False when it was closed meanwhile."""
        with self.lock:
            entry = self.open.get(sock)
            if entry is None:
                return False
            entry.state, entry.since = state, time.monotonic()
            return True

    def is_open(self, sock: socket.socket) -> bool:
        with self.lock:
            return sock in self.open

    def leave(self, sock: socket.socket) -> None:
        with self.lock:
            self.open.pop(sock, None)

    def reap(self) -> None:
        """Close every connection whose request head is late."""
        now = time.monotonic()
        with self.lock:
            late = [s for s, e in self.open.items() if e.state == WAITING and now - e.since > self.request_seconds]
            for sock in late:
                self._drop(sock)

    def close_all(self) -> None:
        with self.lock:
            for sock in list(self.open):
                self._drop(sock)

    def _oldest(self, state: str) -> socket.socket | None:
        candidates = [(e.since, id(s), s) for s, e in self.open.items() if e.state == state]
        return min(candidates)[2] if candidates else None

    def _drop(self, sock: socket.socket) -> None:
        self.open.pop(sock, None)
        self.dropped += 1
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already gone
