"""`cardforge serve` faces a browser that visits other sites, and clients that misbehave (issue 24).

One real `cardforge serve` of the tiny game for the module.  Its build folder holds a symbolic
link to a file outside it (refused) and one to a PDF inside it (served).  The tests speak HTTP
as a client would: urllib for normal requests, raw sockets for everything else.
"""
from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from fuzz_http import SECRET, Server, fuzz, served_game

REQUEST_SECONDS = 5.0  # cardforge/serve/connections.py


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = served_game(tmp_path_factory.mktemp("guard"))
    yield server
    server.close()


def test_requests_for_another_host_are_refused(server):
    """DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1 sends its own Host."""
    assert server.get("/")[0] == 200
    for host in (f"localhost:{server.port}", f"LOCALHOST:{server.port}", f"[::1]:{server.port}"):
        assert server.get("/api/state", host)[0] == 200, host
    for host in (f"evil.example:{server.port}", "evil.example", f"127.0.0.1:{server.port + 1}", "127.0.0.1",
                 f"localhost.:{server.port}", f"127.0.0.1:{server.port}@evil.example"):
        for path in ("/", "/api/state", "/pdf/tiny-kit-a4.pdf", "/events"):
            status, body = server.get(path, host)
            assert status == 403 and b"Tiny Game" not in body and b"%PDF" not in body, (host, path)
    missing = server.raw(b"GET /api/state HTTP/1.1\r\n\r\n")
    assert missing.startswith(b"HTTP/1.0 403") and b"answers only requests for http://127.0.0.1:" in missing
    twice = server.raw(f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nHost: evil.example\r\n\r\n"
                       .encode())
    assert twice.startswith(b"HTTP/1.0 403")


def test_answers_forbid_other_sites_to_embed_them(server):
    answer = server.raw(f"GET /pdf/tiny-kit-a4.pdf HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    head = answer.split(b"\r\n\r\n", 1)[0].decode().lower()
    assert "cross-origin-resource-policy: same-origin" in head and "x-content-type-options: nosniff" in head


def test_head_answers_with_the_headers_of_get_and_no_body(server):
    # `curl -I`: once 501 Not Implemented
    for path, kind in (("/", "text/html"), ("/api/state", "application/json"), ("/pdf/tiny-kit-a4.pdf", "application/pdf")):
        answer = server.raw(f"HEAD {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        head, _, body = answer.partition(b"\r\n\r\n")
        lines = head.decode().lower().splitlines()
        assert lines[0].startswith("http/1.0 200"), (path, lines[0])
        assert f"content-type: {kind}" in head.decode().lower(), path
        length = int(next(line for line in lines if line.startswith("content-length:")).split(":")[1])
        assert length == len(server.get(path)[1]) and body == b"", path
    missing = server.raw(f"HEAD /nothing HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    assert missing.startswith(b"HTTP/1.0 404") and missing.endswith(b"\r\n\r\n")


def test_a_symbolic_link_out_of_the_build_folder_is_refused(server):
    assert "link-out.pdf" not in server.state()["pdfs"]
    for path in ("/pdf/link-out.pdf", "/pdf/..%2Fsecret.pdf", "/pdf/../secret.pdf"):
        status, body = server.get(path)
        assert status == 404 and SECRET not in body, path
    assert {"tiny-kit-a4.pdf", "link-in.pdf"} <= set(server.state()["pdfs"])
    status, body = server.get("/pdf/link-in.pdf")
    assert status == 200 and body == (server.out / "tiny-kit-a4.pdf").read_bytes()


def _timed_get(server, path: str) -> float:
    started = time.monotonic()
    status, _ = server.get(path)
    assert status == 200, path
    return time.monotonic() - started


def test_500_half_open_connections_leave_room_for_the_page(server):
    """500 connections opened at once, as an attacker would, that never finish a request: half send
    nothing, half part of a request head.  A normal request still gets its answer within a second,
    at once (a backlog that overflows drops the browser's connect, retried after a second) and
    while they stay open."""
    socks = []
    for _ in range(500):
        sock = socket.socket()
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", server.port))
        socks.append(sock)
    try:
        assert _timed_get(server, "/api/state") < 1.0
        for index, sock in enumerate(socks):
            if index % 2:
                try:
                    sock.send(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Slow: ".encode())
                except OSError:
                    pass  # not connected yet: it stays a connection that sent nothing
        slowest, end = 0.0, time.monotonic() + 4  # across the waves of their retried connects too
        while time.monotonic() < end:
            for path in ("/api/state", "/", "/pdf/tiny-kit-a4.pdf"):
                slowest = max(slowest, _timed_get(server, path))
            time.sleep(0.2)
        assert slowest < 1.0
        # and they cost it no more than the cap of connections: not a thread and a socket each
        status = Path(f"/proc/{server.process.pid}/status")
        if status.exists():
            threads = int(next(line.split()[1] for line in status.read_text().splitlines() if line.startswith("Threads:")))
            sockets = sum(1 for fd in Path(f"/proc/{server.process.pid}/fd").iterdir()
                          if os.readlink(fd).startswith("socket:"))
            assert threads < 100 and sockets < 100, (threads, sockets)
    finally:
        for sock in socks:
            sock.close()


def test_a_client_that_sends_its_request_slowly_is_dropped_at_the_deadline(server):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=REQUEST_SECONDS + 5)
    started = time.monotonic()
    try:
        for byte in f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode() + b"X: " + b"x" * 100:
            sock.sendall(bytes([byte]))  # a byte every 0.1 s keeps every single read short
            time.sleep(0.1)
            if time.monotonic() - started > REQUEST_SECONDS + 3:
                break
        sock.settimeout(3)
        assert sock.recv(100) == b""  # closed, not answered
    except (BrokenPipeError, ConnectionResetError):
        pass  # closed while we were still sending: as good
    finally:
        sock.close()
    assert REQUEST_SECONDS - 0.5 < time.monotonic() - started < REQUEST_SECONDS + 2


def test_fuzzed_requests_get_an_answer_or_a_close_and_never_a_traceback(server):
    state = server.state()
    keys = [piece["key"] for piece in state["pieces"]]
    classes, bad = fuzz(server.port, 300, keys, state["pdfs"], seed=24)
    assert bad == [], bad[:5]
    assert classes["answered 200"] > 20 and classes["answered 403"] > 20 and classes["answered 404"] > 5, classes
    log = server.log.read_text()
    assert "Traceback" not in log and "Error" not in log, log[-2000:]
    assert server.process.poll() is None


def test_many_open_event_streams_make_room_for_a_new_page(server):
    """Tabs left open each hold an event stream; past the cap the oldest is closed (its page's
    EventSource reconnects by itself), and a new page still loads at once."""
    streams = []
    try:
        for _ in range(70):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
            assert sock.recv(200).startswith(b"HTTP/1.0 200")
            streams.append(sock)
        assert _timed_get(server, "/") < 1.0
        oldest = streams[0]
        oldest.settimeout(3)
        received = b""
        while chunk := oldest.recv(4096):  # the rest of its stream, then the end
            received += chunk
        newest = streams[-1]
        newest.settimeout(1.5)
        try:
            assert newest.recv(4096) != b"", "the newest stream was closed"
        except socket.timeout:
            pass  # still open, waiting for the next change
    finally:
        for sock in streams:
            sock.close()
