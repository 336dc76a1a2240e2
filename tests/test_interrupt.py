"""Ctrl+C (issue 24): a terminal sends SIGINT to the whole process group, cardforge and its workers.

Each command stops within a second, says `interrupted` on one line (no traceback, from it or any
child), exits 130, and leaves the output folder exactly as it was: no staging folder, no temporary
file, no worker process left drawing.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO
from fuzz_http import free_port

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _interrupt(process: subprocess.Popen) -> tuple[float, str]:
    """Ctrl+C as a terminal sends it; the seconds until the process ended, and its stderr."""
    workers = _descendants(process.pid)
    started = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=20)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    seconds = time.monotonic() - started
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "worker processes left behind"
    process.stderr.seek(0)
    return seconds, process.stderr.read().decode()


def _old_output(out: Path, names: list[str]) -> None:
    """What an earlier build left (stand-ins with the real names), and a file of the user's."""
    out.mkdir(parents=True)
    for name in names:
        (out / name).write_bytes(f"the previous {name}\n".encode())
    (out / "notes.txt").write_text("my print notes\n")


def _without_locks(tree: dict[str, bytes]) -> dict[str, bytes]:
    return {name: data for name, data in tree.items() if not name.endswith(".cardforge.lock")}


def _start(args: list[str], cwd: Path, log: Path) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "cardforge", *args], cwd=str(cwd),
                               stdout=subprocess.DEVNULL, stderr=log.open("w+b"), start_new_session=True)
    process.stderr = log.open("rb")
    return process


def test_ctrl_c_stops_a_parallel_build_at_once_and_keeps_the_old_output(tmp_path):
    out = tmp_path / "out"
    for game in ("bomber-boys", "war-eagles"):
        _old_output(out / game, [f"{game}-kit-a4.pdf", f"{game}-kit-a4.manifest.json"])
    before = _tree(out)
    process = _start(["build", str(REPO / "content" / "bomber-boys"), str(REPO / "content" / "war-eagles"),
                      "--layouts", str(REPO / "layouts"), "--out", str(out), "--jobs", "2"], tmp_path,
                     tmp_path / "stderr.txt")
    deadline = time.monotonic() + 60
    while len(_descendants(process.pid)) < 2:  # the workers are drawing
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.5)  # well inside the build: the two games' four PDFs take some 2.5 s with two workers
    assert process.poll() is None, "the build ended before it could be interrupted"
    seconds, stderr = _interrupt(process)
    assert process.returncode == 130
    assert stderr.strip().splitlines() == ["interrupted"], stderr
    assert seconds < 1.0
    assert _without_locks(_tree(out)) == _without_locks(before)
    assert sorted(p.name for p in out.iterdir() if not p.name.endswith(".cardforge.lock")) == \
        ["bomber-boys", "war-eagles"]  # no staging folder beside them


def test_ctrl_c_stops_serve_and_its_pdf_builder_and_keeps_the_old_pdfs(tmp_path):
    # War Eagles: its PDFs take a second or two to build, so the builder is still busy when the
    # interrupt comes (Bomber Boys' took under half a second once builds got faster).
    game = tmp_path / "war-eagles"
    shutil.copytree(REPO / "content" / "war-eagles", game)
    out = tmp_path / "out"
    _old_output(out / "war-eagles", ["war-eagles-kit-a4.pdf", "war-eagles-cards-a4.pdf"])
    before = _tree(out)
    port = free_port()
    process = _start(["serve", str(game), "--layouts", str(REPO / "layouts"), "--out", str(out), "--port", str(port)],
                     tmp_path, tmp_path / "stderr.txt")
    deadline = time.monotonic() + 90
    while True:  # until the preview answers, with its PDF builder busy on the first build
        assert process.poll() is None and time.monotonic() < deadline
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as answer:
                if json.loads(answer.read())["pdf_build"]["state"] == "building":
                    break
        except OSError:
            pass
        time.sleep(0.1)
    time.sleep(0.5)
    seconds, stderr = _interrupt(process)
    assert process.returncode == 130
    lines = stderr.strip().splitlines()
    assert lines[-1] == "interrupted" and "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert seconds < 1.0
    assert _without_locks(_tree(out)) == _without_locks(before)
    assert sorted(p.name for p in out.iterdir() if not p.name.endswith(".cardforge.lock")) == ["war-eagles"]



@pytest.mark.parametrize("command", [["build", "--jobs", "1"], ["export", "png"]])
def test_ctrl_c_while_a_command_writes_its_staging_folder_removes_it(tmp_path, command):
    """A serial build and an export, interrupted while they write: the staging folder goes."""
    out = tmp_path / "out"
    _old_output(out / "bomber-boys", ["bomber-boys-kit-a4.pdf"])
    before = _tree(out)
    target = out / "bomber-boys" / "png" if command[0] == "export" else out
    process = _start([*command, str(REPO / "content" / "bomber-boys"), "--layouts", str(REPO / "layouts"),
                      "--out", str(target)], tmp_path, tmp_path / "stderr.txt")
    deadline = time.monotonic() + 60
    while not any(".cardforge-stage-" in p.name for p in out.rglob("*")):  # writing has begun
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.5)
    assert process.poll() is None, "the command ended before it could be interrupted"
    seconds, stderr = _interrupt(process)
    assert process.returncode == 130 and stderr.strip().splitlines() == ["interrupted"], stderr
    assert seconds < 1.0
    assert _without_locks(_tree(out)) == _without_locks(before)
    assert not [p for p in out.rglob("*") if ".cardforge-stage-" in p.name or p.name.endswith(".tmp")]


def test_ctrl_c_while_a_finalizer_runs_still_interrupts():
    """The collector runs finalizers (`__del__`) at any moment of a build, and an exception raised
    in one is printed and dropped: a Ctrl+C answered there once let a build run to its end (CI)."""
    from cardforge.interrupt import interruptible

    class Finalized:
        def __del__(self):
            signal.raise_signal(signal.SIGINT)
            sum(range(10_000))  # the handler runs here, inside __del__

    ran_on = False
    with pytest.raises(KeyboardInterrupt):
        with interruptible():
            Finalized()  # dropped at once: its __del__ runs
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                time.sleep(0.001)
            ran_on = True
    assert not ran_on
