"""`cardforge serve`: the preview page, its live updates, and the PDFs rebuilt in the background.

Plain standard-library HTTP (ThreadingHTTPServer) bound to 127.0.0.1 only.  The page listens
to Server-Sent Events (`/events`): one-way, text, reconnecting by itself, which is all a
preview needs (a WebSocket would add a dependency and a handshake for nothing).

Only three kinds of thing are ever served: the page, pictures of faces by their key in the
session (never a path), and PDFs of the game's build folder by exact file name.  Any other path,
`..` or absolute, is refused, so nothing outside the game folder and its build output is reachable.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import re
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .session import Session

PDF_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\.pdf$")
KEEPALIVE = 15.0  # seconds between SSE comments, so proxies and browsers keep the stream open


class Preview:
    """The session, the build output folder, and the events the page is told about."""

    def __init__(self, session: Session, out_dir: Path, papers: tuple[str, ...] = ("a4",)):
        self.session, self.out_dir, self.papers = session, Path(out_dir), papers
        self.changed = threading.Condition()
        self.events = 0  # bumped on every change the page should hear about
        self.pdf_state = {"state": "idle", "seconds": None, "error": None, "built": 0}
        self.builder: Builder | None = None

    def notify(self) -> None:
        with self.changed:
            self.events += 1
            self.changed.notify_all()

    def refresh(self) -> list[str]:
        # The PDFs are rebuilt in their own process, on the other core, while this one redraws the
        # pictures: both start from the save.  A build of content with errors fails and leaves the
        # previous PDFs as they were.
        if self.builder is not None:
            self.builder.request()
        redrawn = self.session.refresh()
        self.notify()
        return redrawn

    def pdfs(self) -> list[str]:
        if not self.out_dir.is_dir():
            return []
        return sorted(p.name for p in self.out_dir.iterdir() if p.is_file() and PDF_NAME.match(p.name))

    def state(self) -> dict:
        state = self.session.state()
        state["pdfs"] = self.pdfs()
        state["pdf_build"] = dict(self.pdf_state)
        return state


class Builder:
    """Rebuilds the PDFs in a separate process after each good save, never blocking the preview.

    The process is forked once, before the server's threads start, and keeps its own warm caches
    (loaded files, compiled templates, fonts), so a rebuild costs little more than the drawing.
    Saves that come while it builds are folded into one more build."""

    def __init__(self, preview: Preview, game_dir: Path, layouts_dir: Path | None):
        self.preview = preview
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_builder_loop, args=(child, str(game_dir),
                                       str(layouts_dir) if layouts_dir else None, str(preview.out_dir),
                                       preview.papers), daemon=True)
        self.process.start()
        self.wanted = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def request(self) -> None:
        self.wanted.set()

    def _run(self) -> None:
        while True:
            self.wanted.wait()
            self.wanted.clear()
            self.preview.pdf_state.update(state="building")
            self.preview.notify()
            try:
                self.conn.send("build")
                seconds, errors = self.conn.recv()
            except (EOFError, OSError):
                self.preview.pdf_state.update(state="failed", error="the PDF builder stopped")
                self.preview.notify()
                return
            state = self.preview.pdf_state
            state.update(state="done" if not errors else "failed", seconds=round(seconds, 3),
                         error=errors or None, built=state["built"] + 1)
            self.preview.notify()

    def close(self) -> None:
        try:
            self.conn.send("stop")
        except (OSError, EOFError):
            pass
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.terminate()


def _builder_loop(conn, game_dir: str, layouts_dir: str | None, out_dir: str, papers) -> None:
    from ..frontend import load
    from ..output.parallel import Job, build_all
    load.file_memo = load.FileMemo()
    parent = os.getppid()
    while True:
        try:
            # A forked child holds both ends of the pipe, so the parent's death shows as a new
            # parent process, not as the end of the pipe: look every second.
            while not conn.poll(1.0):
                if os.getppid() != parent:
                    return
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message != "build":
            return
        start = time.perf_counter()
        jobs = [Job(Path(game_dir), Path(out_dir), paper, "duplex", Path(layouts_dir) if layouts_dir else None)
                for paper in papers]
        results = build_all(jobs, None, workers=1)
        errors = sum(len(r.report.errors) for r in results)
        conn.send((time.perf_counter() - start, f"{errors} error(s); see the diagnostics" if errors else ""))


def page_html() -> bytes:
    return resources.files("cardforge.serve").joinpath("page.html").read_bytes()


class Handler(BaseHTTPRequestHandler):
    preview: Preview  # set on the subclass made by make_server
    server_version = "cardforge"

    def log_message(self, format, *args):  # quiet: the terminal shows diagnostics, not requests
        pass

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        path = unquote(urlsplit(self.path).path)
        if path in ("/", "/index.html"):
            return self._send(page_html(), "text/html; charset=utf-8")
        if path == "/api/state":
            return self._send(json.dumps(self.preview.state()).encode("utf-8"), "application/json")
        if path.startswith("/api/piece/"):  # one piece, for tools that follow a single card
            piece = self.preview.session.piece(path[len("/api/piece/"):])
            if piece is not None:
                body = {"piece": piece, "version": self.preview.session.version,
                        "pdf_build": dict(self.preview.pdf_state)}
                return self._send(json.dumps(body).encode("utf-8"), "application/json")
        if path == "/events":
            return self._events()
        if path.startswith("/image/") and path.endswith(".png"):
            image = self.preview.session.image(path[len("/image/"):-len(".png")])
            if image is not None:
                return self._send(image, "image/png", cache=True)
        if path.startswith("/pdf/"):
            name = path[len("/pdf/"):]
            if PDF_NAME.match(name) and name in self.preview.pdfs():
                return self._send((self.preview.out_dir / name).read_bytes(), "application/pdf")
        self.send_error(HTTPStatus.NOT_FOUND, "not found (the preview serves its page, pictures and the build's PDFs)")

    def _send(self, body: bytes, kind: str, cache: bool = False) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        # Pictures are addressed with their version (?v=N), so a cached one is never out of date.
        self.send_header("Cache-Control", "max-age=31536000, immutable" if cache else "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        preview = self.preview
        seen = -1
        try:
            while not getattr(self.server, "closing", False):
                with preview.changed:
                    if preview.events == seen:
                        preview.changed.wait(timeout=KEEPALIVE)
                    current = preview.events
                if current != seen:
                    seen = current
                    self.wfile.write(f"event: update\ndata: {current}\n\n".encode())
                else:
                    self.wfile.write(b": keepalive\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return


def make_server(preview: Preview, port: int = 8000) -> ThreadingHTTPServer:
    handler = type("PreviewHandler", (Handler,), {"preview": preview})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


class Watcher:
    """Follows the game folder, its layouts and fonts; refreshes the preview after each save."""

    def __init__(self, preview: Preview, folders: list[Path], on_change=None):
        self.preview, self.on_change = preview, on_change
        self.folders = [f for f in folders if f.is_dir()]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self) -> "Watcher":
        """Follow the folders on a thread of its own."""
        self.thread.start()
        return self

    def run(self) -> None:
        """Follow the folders on this thread until closed (`cardforge serve` runs it on the main
        thread, where the time limit of templates and expressions can interrupt a runaway one)."""
        from watchfiles import watch
        out = self.preview.out_dir.resolve()

        def relevant(_change, path: str) -> bool:
            resolved = Path(path).resolve()
            name = resolved.name
            return not (out in resolved.parents or name.endswith((".tmp", "~", ".swp")) or name.startswith(".#")
                        or "__pycache__" in resolved.parts)

        for changes in watch(*self.folders, watch_filter=relevant, stop_event=self.stop, step=30,
                             debounce=400, rust_timeout=500, yield_on_timeout=False):
            started = time.perf_counter()
            redrawn = self.preview.refresh()
            if self.on_change:
                self.on_change(changes, redrawn, time.perf_counter() - started)

    def close(self) -> None:
        self.stop.set()
