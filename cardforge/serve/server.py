"""`cardforge serve`: the preview page, its live updates, and the PDFs rebuilt in the background.

Plain standard-library HTTP (ThreadingHTTPServer) bound to 127.0.0.1 only.  The page listens
to Server-Sent Events (`/events`): one-way, text, reconnecting by itself, which is all a
preview needs (a WebSocket would add a dependency and a handshake for nothing).

Only three kinds of thing are ever served: the page, pictures of faces by their key in the
session (never a path), and PDFs of the game's build folder by exact file name; a PDF that is a
symbolic link resolving outside the build folder is neither listed nor served.  Any other path,
`..` or absolute, is refused, so nothing outside the game folder and its build output is reachable.

The server is written to face a browser that also visits other sites: it answers only requests
whose `Host` is 127.0.0.1, localhost or [::1] with its port (a page of another site that has its
own name resolve to 127.0.0.1, DNS rebinding, gets 403, so it cannot read the preview), forbids
other sites to embed its pictures and PDFs (Cross-Origin-Resource-Policy), and bounds every
connection's time and the number of connections (connections.py).
"""
from __future__ import annotations

import json
import multiprocessing
import os
import re
import stat
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from .. import resources
from ..access.vision import VIEWS
from ..interrupt import held, in_child
from .connections import ANSWERING, IO_SECONDS, STREAMING, Connections
from .session import PROOF_VIEW, Session

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
        return sorted(p.name for p in self.out_dir.iterdir() if PDF_NAME.match(p.name) and self.pdf_path(p.name))

    def pdf_path(self, name: str) -> str | None:
        """The real path of PDF `name` of the build folder, or None: not such a name, not a regular
        file, or a symbolic link that resolves outside the build folder."""
        if not PDF_NAME.match(name):
            return None
        root = os.path.realpath(self.out_dir)
        real = os.path.realpath(os.path.join(root, name))
        if os.path.commonpath([root, real]) != root or not os.path.isfile(real):
            return None
        return real

    def open_pdf(self, name: str) -> int | None:
        """An open descriptor of PDF `name` (see pdf_path), or None.  The resolved path is opened
        without following a link, so a link swapped in after the check is refused too."""
        real = self.pdf_path(name)
        if real is None:
            return None
        try:
            fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        return fd

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

    def __init__(self, preview: Preview, game_dir: Path, layouts_dir: Path | None, lang: str | None = None):
        self.preview = preview
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_builder_loop, args=(child, str(game_dir),
                                       str(layouts_dir) if layouts_dir else None, str(preview.out_dir),
                                       preview.papers, lang), daemon=True)
        with held():
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

    def stop(self) -> None:
        """Tell the builder to stop now, even in the middle of a build: SIGTERM unwinds it (its
        staging folder is removed, the previous PDFs stay)."""
        if self.process.is_alive():
            self.process.terminate()

    def close(self, seconds: float = 0.6) -> None:
        """Stop the builder and wait for it; if it has not ended in `seconds`, SIGKILL."""
        self.stop()
        self.process.join(timeout=seconds)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=1)


def _builder_loop(conn, game_dir: str, layouts_dir: str | None, out_dir: str, papers, lang: str | None = None) -> None:
    in_child()  # Ctrl+C is for the server, which stops this process (Builder.close)
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
        jobs = [Job(Path(game_dir), Path(out_dir), paper, "duplex", Path(layouts_dir) if layouts_dir else None, lang=lang)
                for paper in papers]
        results = build_all(jobs, None, workers=1)
        errors = sum(len(r.report.errors) for r in results)
        conn.send((time.perf_counter() - start, f"{errors} error(s); see the diagnostics" if errors else ""))


def page_html() -> bytes:
    return resources.read_bytes("serve", "page.html")


class Handler(BaseHTTPRequestHandler):
    server: "PreviewServer"
    server_version = "cardforge"
    sys_version = ""
    default_request_version = "HTTP/1.0"  # an error in a request line is answered with a status line too
    timeout = IO_SECONDS  # each read and write of the connection (StreamRequestHandler sets it)

    def log_message(self, format, *args):  # quiet: the terminal shows diagnostics, not requests
        pass

    def parse_request(self) -> bool:
        """The request head is in: the connection is no longer idle; its Host must be this server."""
        words = self.raw_requestline.split()
        if len(words) == 2 or words[-1:] == [b"HTTP/0.9"]:  # HTTP/0.9: no Host, answers without a status line
            self.close_connection = True
            return False
        if not super().parse_request():
            return False
        self.server.connections.mark(self.connection, ANSWERING)
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1 or hosts[0].strip().lower() not in self.server.allowed_hosts:
            self.send_error(HTTPStatus.FORBIDDEN, "wrong Host",
                            f"this preview answers only requests for http://127.0.0.1:{self.server.server_port}/ "
                            "(or localhost, or [::1]); a page of another site cannot read it")
            return False
        return True

    def end_headers(self) -> None:
        # No sniffing a picture as a script, and no other site embedding the preview's pictures or PDFs.
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        super().end_headers()

    # A HEAD request (curl -I, link checkers) gets the headers a GET would, and no body.
    head_only = False

    def do_HEAD(self) -> None:  # noqa: N802 - the http.server API
        self.head_only = True
        try:
            self.do_GET()
        finally:
            self.head_only = False

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        preview = self.server.preview
        path = unquote(urlsplit(self.path).path)
        if path in ("/", "/index.html"):
            return self._send(page_html(), "text/html; charset=utf-8")
        if path == "/api/state":
            return self._send(json.dumps(preview.state()).encode("utf-8"), "application/json")
        if path.startswith("/api/piece/"):  # one piece, for tools that follow a single card
            piece = preview.session.piece(path[len("/api/piece/"):])
            if piece is not None:
                body = {"piece": piece, "version": preview.session.version, "pdf_build": dict(preview.pdf_state)}
                return self._send(json.dumps(body).encode("utf-8"), "application/json")
        if path == "/events":
            return self._events()
        view = parse_qs(urlsplit(self.path).query).get("view", [None])[-1] or None  # as others see it
        if view is not None and view not in VIEWS + (PROOF_VIEW,):
            return self.send_error(HTTPStatus.BAD_REQUEST, f"unknown view '{view}'",
                                   f"view is one of {', '.join(VIEWS + (PROOF_VIEW,))} (or none: the face as drawn)")
        if path.startswith("/image/") and path.endswith(".png"):
            said = preview.session.proof_said
            image = preview.session.image(path[len("/image/"):-len(".png")], view)
            if preview.session.proof_said != said:  # the soft proof's warnings changed: the page shows them
                preview.notify()
            if image is not None:
                return self._send(image, "image/png", cache=True)
        if path.startswith("/before/") and path.endswith(".png") and preview.session.baseline is not None:
            key = path[len("/before/"):-len(".png")]
            image = preview.session.baseline.image(key, view)  # `serve --since OLD`, seen the same way
            if image is not None:
                return self._send(image, "image/png", cache=True)
        if path.startswith("/pdf/"):
            fd = preview.open_pdf(path[len("/pdf/"):])
            if fd is not None:
                return self._send_file(fd, "application/pdf")
        self.send_error(HTTPStatus.NOT_FOUND, "not found (the preview serves its page, pictures and the build's PDFs)")

    def _head(self, kind: str, length: int, cache: bool = False) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(length))
        # Pictures are addressed with their version (?v=N), so a cached one is never out of date.
        self.send_header("Cache-Control", "max-age=31536000, immutable" if cache else "no-store")
        self.end_headers()

    def _send(self, body: bytes, kind: str, cache: bool = False) -> None:
        self._head(kind, len(body), cache)
        if not self.head_only:
            self.wfile.write(body)

    def _send_file(self, fd: int, kind: str) -> None:
        with open(fd, "rb") as file:
            size = os.fstat(fd).st_size
            self._head(kind, size)
            while size > 0 and not self.head_only:  # in pieces: a big PDF is not held in memory whole
                chunk = file.read(min(size, 1 << 20))
                if not chunk:
                    break
                self.wfile.write(chunk)
                size -= len(chunk)

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.head_only:
            return
        server, preview = self.server, self.server.preview
        server.connections.mark(self.connection, STREAMING)
        seen, quiet = -1, 0.0
        try:
            # Woken each second at most, so that a stream closed for a newcomer or at the end ends.
            while not server.closing and server.connections.is_open(self.connection):
                with preview.changed:
                    if preview.events == seen:
                        preview.changed.wait(timeout=1.0)
                    current = preview.events
                if current != seen:
                    seen, quiet = current, 0.0
                    self.wfile.write(f"event: update\ndata: {current}\n\n".encode())
                elif (quiet := quiet + 1.0) >= KEEPALIVE:
                    quiet = 0.0
                    self.wfile.write(b": keepalive\n\n")
                else:
                    continue
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return


class PreviewServer(ThreadingHTTPServer):
    """127.0.0.1 only, a thread per connection, the connections bounded (connections.py)."""

    daemon_threads = True
    # The listen backlog (capped by the system, net.core.somaxconn): a burst of connections waits
    # in it to be accepted; when it overflows, the system drops new ones and a browser retries
    # only after a second.
    request_queue_size = 1024

    def __init__(self, preview: Preview, port: int, connections: Connections | None = None):
        self.preview = preview
        self.connections = connections or Connections()
        self.closing = False
        super().__init__(("127.0.0.1", port), Handler)
        port = self.server_port
        names = ("127.0.0.1", "localhost", "[::1]")
        self.allowed_hosts = {f"{name}:{port}" for name in names} | (set(names) if port == 80 else set())

    def verify_request(self, request, client_address) -> bool:
        return self.connections.admit(request)

    def service_actions(self) -> None:  # run by serve_forever between connections, and 5 times a second
        self.connections.reap()

    def close_request(self, request) -> None:
        self.connections.leave(request)
        super().close_request(request)

    def handle_error(self, request, client_address) -> None:
        pass  # a client that hung up or sent garbage: its connection ends, the server goes on

    def close(self) -> None:
        """Stop answering: the loop, the event streams and every open connection."""
        self.closing = True
        self.shutdown()
        self.connections.close_all()
        self.server_close()


def make_server(preview: Preview, port: int = 8000, connections: Connections | None = None) -> PreviewServer:
    return PreviewServer(preview, port, connections)


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
