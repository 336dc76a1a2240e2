"""Fuzzing the HTTP interface of `cardforge serve`: raw requests, answers sorted into outcome classes.

Each case is the bytes a client sends on one connection: a request made of a method, a target,
a version and headers drawn from lists of odd and hostile values (encodings, traversal, huge and
malformed headers, wrong Hosts, bodies, bare line ends), or one cut off before its end (a client
that stops sending, slowloris).  The cases of a run are sent over up to 40 connections at a time,
and each connection is read until the server closes it.  Outcome classes:

* `answered <status>` — a complete HTTP answer (the server closes after each, HTTP/1.0);
* `stream` — the event stream started (200, text/event-stream); the client hangs up;
* `closed` — closed without an answer (an empty or cut-off request, or one the server drops);
* bad: `hang` (open after the request deadline and more), `escape` (an answer holding the bytes of
  the file outside the build folder that a link inside it points to), `wrong host served` (a 2xx
  answer to a request without the right Host), `dead` (the server no longer answers a normal
  request afterwards), `traceback` (one in the server's output; checked by the caller).

tests/test_serve_guard.py runs a bounded number against a real `cardforge serve`;
bench/fuzz.py runs more (`--http N`).
"""
from __future__ import annotations

import json
import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from conftest import make_game

SECRET = b"SECRET-OUTSIDE-THE-BUILD-FOLDER"
BAD = ("hang", "escape", "wrong host served", "dead")


@dataclass
class Case:
    data: bytes
    right_host: bool  # sent with exactly one Host header naming this server
    what: str
    head: int = 0  # length of the request head (line and headers)


def _targets(keys: list[str], pdfs: list[str]) -> list[str]:
    key = keys[0] if keys else "card/x/front"
    pdf = pdfs[0] if pdfs else "x.pdf"
    return ["/", "/index.html", "/api/state", f"/api/piece/{key}", f"/image/{key}.png", f"/pdf/{pdf}",
            "/pdf/link-out.pdf", "/pdf/..%2Flink-out.pdf", "/pdf/../secret.pdf", "/pdf/%2e%2e/secret.pdf",
            "/pdf/%2Fetc%2Fpasswd", "/image/../../etc/passwd", "/%00", "/pdf/x.pdf%00.png", "/%ff%fe%fd",
            "/%c0%af%c0%af", "/\u202e".encode().decode("latin-1"), "/caf\xe9", "*", "//", "///etc/passwd",
            "http://127.0.0.1/api/state", "http://evil.example/api/state", "/api/state?" + "a=1&" * 300,
            "/" + "a" * 70_000, "/events?x=%", "/api/piece/" + "%" * 50, "/image/.png", "/pdf/", "/pdf/.pdf",
            "\\..\\..\\etc\\passwd", "/image/" + key + ".png#frag", ""]


METHODS = ["GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PATCH",
           "get", "G ET", "GET\x00", "\x16\x03\x01", "PRI", "M" * 5000, ""]
VERSIONS = ["HTTP/1.0", "HTTP/1.1", "HTTP/1.1", "HTTP/2.0", "HTTP/0.9", "HTTP/9.9", "HTTP/1.1x", "http/1.1",
            "HTTP/1.", "HTTP/", "", "HTTP/1.1 extra"]
ENDS = ["\r\n", "\r\n", "\n", "\r"]


def _hosts(port: int) -> list[tuple[list[str], bool]]:
    """Host headers, and whether they name this server (exactly one header that does)."""
    return [([f"Host: 127.0.0.1:{port}"], True), ([f"Host: localhost:{port}"], True),
            ([f"Host: LOCALHOST:{port}"], True), ([f"Host: [::1]:{port}"], True),
            ([], False), (["Host: evil.example"], False), ([f"Host: evil.example:{port}"], False),
            ([f"Host: 127.0.0.1:{port}", "Host: evil.example"], False), (["Host: 127.0.0.1"], False),
            ([f"Host: localhost.:{port}"], False), ([f"Host: 127.0.0.1:{port}@evil.example"], False),
            ([f"Host: 127.0.0.1:{port + 1}"], False), (["Host:"], False), ([f"Host : 127.0.0.1:{port}"], False)]


EXTRA = [[], [], ["Content-Length: 5"], ["Content-Length: -1"], ["Content-Length: 99999999999999999999"],
         ["Transfer-Encoding: chunked"], ["Expect: 100-continue"], ["Connection: keep-alive"],
         ["X-Big: " + "b" * 70_000], [f"X-{i}: {i}" for i in range(150)], ["no colon here"],
         ["X-Folded: one", " two"], ["X-Bytes: \xff\xfe\x00"], ["Accept-Encoding: gzip, br"],
         ["Range: bytes=0-10,5-1"], ["If-None-Match: *"], ["Origin: http://evil.example"],
         ["Cookie: " + "c=1; " * 2000], [":authority: x"]]
BODIES = [b"", b"", b"hello", b"5\r\nhello\r\n0\r\n\r\n", b"\x00" * 1000]


def cases(count: int, port: int, keys: list[str], pdfs: list[str], seed: int = 0) -> list[Case]:
    """`count` cases: every target, method and Host once with otherwise plain parts, then random mixes."""
    rng = random.Random(seed)
    targets, hosts = _targets(keys, pdfs), _hosts(port)
    good_host = hosts[0]
    plain: list[Case] = []
    for target in targets:
        plain.append(_case("GET", target, "HTTP/1.1", good_host, [], b"", "\r\n"))
    for method in METHODS:
        plain.append(_case(method, "/", "HTTP/1.1", good_host, [], b"", "\r\n"))
    for version in VERSIONS:
        plain.append(_case("GET", "/api/state", version, good_host, [], b"", "\r\n"))
    for host in hosts:
        for target in ("/", "/api/state", f"/pdf/{pdfs[0] if pdfs else 'x.pdf'}"):
            plain.append(_case("GET", target, "HTTP/1.1", host, [], b"", "\r\n"))
    for extra in EXTRA:
        plain.append(_case("GET", "/api/state", "HTTP/1.1", good_host, extra, b"", "\r\n"))
    plain += [Case(b"", False, "nothing sent"), Case(b"GET / HT", False, "cut in the request line"),
              Case(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode(), False, "no blank line (slowloris)"),
              Case(b"\r\n" * 50, False, "only line ends"), Case(bytes(range(256)) * 4, False, "every byte")]
    out = plain[:count]
    while len(out) < count:
        host = rng.choice(hosts)
        extra = rng.choice(EXTRA) + (rng.choice(EXTRA) if rng.random() < 0.3 else [])
        case = _case(rng.choice(METHODS), rng.choice(targets), rng.choice(VERSIONS), host, extra,
                     rng.choice(BODIES), rng.choice(ENDS))
        if rng.random() < 0.1:  # cut off anywhere
            cut = rng.randrange(len(case.data) + 1)
            case = Case(case.data[:cut], case.right_host and cut >= case.head, "cut: " + case.what, case.head)
        out.append(case)
    return out


def _case(method: str, target: str, version: str, host: tuple[list[str], bool], extra: list[str], body: bytes,
          end: str) -> Case:
    line = " ".join(part for part in (method, target, version) if part)
    head = (end.join([line, *host[0], *extra]) + end + end).encode("latin-1", "replace")
    plain_end = end == "\r\n" or end == "\n"
    return Case(head + body, host[1] and plain_end,
                f"{method[:20]!r} {target[:60]!r} {version!r} {host[0]} {[e[:40] for e in extra][:3]} end={end!r}",
                len(head))


def run(port: int, todo: list[Case], deadline: float, window: int = 40) -> list[tuple[Case, str]]:
    """Send each case on its own connection, `window` connections at a time; read each until the
    server closes it, or for `deadline` s (then it is a hang)."""
    selector = selectors.DefaultSelector()
    received: dict[int, bytearray] = {}
    started: dict[int, float] = {}
    outcome: dict[int, str] = {}
    waiting = list(range(len(todo)))[::-1]

    def finish(index: int, sock: socket.socket, result: str) -> None:
        outcome[index] = result
        selector.unregister(sock)
        sock.close()

    while waiting or selector.get_map():
        while waiting and len(selector.get_map()) < window:
            index = waiting.pop()
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            try:
                sock.sendall(todo[index].data)
            except OSError:
                pass  # the server may close before reading everything (a refused head)
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, index)
            received[index], started[index] = bytearray(), time.monotonic()
        for key, _ in selector.select(timeout=0.2):
            index, sock = key.data, key.fileobj
            try:
                chunk = sock.recv(1 << 16)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                chunk = b""
            received[index] += chunk
            head = bytes(received[index][:400])
            if not chunk or (b"text/event-stream" in head and b"\r\n\r\n" in head):
                finish(index, sock, _classify(todo[index], bytes(received[index]), closed=not chunk))
        now = time.monotonic()
        for key in list(selector.get_map().values()):
            if now - started[key.data] > deadline:
                finish(key.data, key.fileobj, "hang")
    return [(case, outcome[index]) for index, case in enumerate(todo)]


def _classify(case: Case, data: bytes, closed: bool) -> str:
    if SECRET in data:
        return "escape"
    if not data:
        return "closed"
    first = data.split(b"\r\n", 1)[0].split()
    if len(first) < 2 or not first[0].startswith(b"HTTP/") or not first[1].isdigit():
        return "answered without a status line"
    status = int(first[1])
    if 200 <= status < 300 and not case.right_host:
        return "wrong host served"
    if not closed:
        return "stream"
    return f"answered {status}"


def alive(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


def fuzz(port: int, count: int, keys: list[str], pdfs: list[str], seed: int = 0,
         deadline: float = 9.0) -> tuple[Counter, list[tuple[Case, str]]]:
    """Run `count` cases; the outcome classes counted, and the cases with a bad outcome."""
    classes: Counter = Counter()
    bad: list[tuple[Case, str]] = []
    for case, result in run(port, cases(count, port, keys, pdfs, seed), deadline):
        classes[result] += 1
        if result in BAD or result == "answered without a status line":
            bad.append((case, result))
    if not alive(port):
        classes["dead"] += 1
        bad.append((Case(b"", True, "a normal request after the run"), "dead"))
    return classes, bad


# -- a real `cardforge serve` to fuzz --------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


MEMORY = 3 << 30  # the server's address space: a machine with little memory, or a container's limit


def _limit_memory() -> None:
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    except (ImportError, ValueError, OSError):
        pass


class Server:
    """`cardforge serve` of content/tiny under `root`, as a user starts it, with MEMORY of address
    space (each thread's stack takes 8 MB of it: a thread per connection would run out after a few
    hundred); its stderr in serve.log."""

    def __init__(self, root: Path):
        self.root = root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = root / "serve.log"
        self.out = root / "out" / "tiny"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardforge", "serve", "content/tiny", "--port", str(self.port), "--out", "out"],
            cwd=str(root), stdout=subprocess.DEVNULL, stderr=self.log.open("w"), preexec_fn=_limit_memory,
            # malloc reserves 64 MB of address space per arena, up to 8 arenas per core: a fixed
            # number makes MEMORY mean the same on a machine with many cores
            env=dict(os.environ, MALLOC_ARENA_MAX="4"))
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if self.state()["pdf_build"]["state"] in ("done", "failed"):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise AssertionError(self.log.read_text())
            time.sleep(0.2)
        raise AssertionError("cardforge serve did not start and build:\n" + self.log.read_text())

    def state(self) -> dict:
        with urllib.request.urlopen(self.url + "/api/state", timeout=5) as answer:
            return json.loads(answer.read())

    def get(self, path: str, host: str | None = None) -> tuple[int, bytes]:
        request = urllib.request.Request(self.url + path, headers={"Host": host} if host else {})
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def raw(self, data: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            sock.sendall(data)
            received = b""
            while chunk := sock.recv(65536):
                received += chunk
            return received

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def served_game(root: Path) -> Server:
    """`cardforge serve` of the tiny game in `root`, its build folder holding a symbolic link to a
    file outside it (link-out.pdf, to be refused) and one to a PDF inside it (link-in.pdf)."""
    make_game(root)
    (root / "secret.pdf").write_bytes(b"%PDF-1.4 " + SECRET)
    out = root / "out" / "tiny"
    out.mkdir(parents=True)
    (out / "link-out.pdf").symlink_to(root / "secret.pdf")
    (out / "link-in.pdf").symlink_to("tiny-kit-a4.pdf")
    return Server(root)


def bench(count: int, seed: int = 0) -> int:
    """`python bench/fuzz.py --http N`: N cases against a fresh server; the outcome table; exit 1 if
    any was bad or the server printed a traceback."""
    with tempfile.TemporaryDirectory(prefix="cardforge-fuzz-http-") as folder:
        server = served_game(Path(folder))
        try:
            state = server.state()
            started = time.monotonic()
            classes, bad = fuzz(server.port, count, [p["key"] for p in state["pieces"]], state["pdfs"], seed)
            elapsed = time.monotonic() - started
        finally:
            server.close()
        log = server.log.read_text()
    if "Traceback" in log:
        classes["traceback"] += 1
    print(f"{count} requests to cardforge serve (seed {seed}) in {elapsed:.1f} s")
    print(f"{'outcome':<32} {'count':>6}")
    for name, number in sorted(classes.items(), key=lambda item: (-item[1], item[0])):
        print(f"{name:<32} {number:>6}")
    for case, result in bad[:10]:
        print(f"BAD {result}: {case.data[:160]!r}")
    return 1 if bad or "Traceback" in log else 0
