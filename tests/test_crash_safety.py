"""Crash safety and concurrent builds (issue 17, parts 4 and 5).

A build killed with SIGKILL at any moment leaves the game's output folder exactly as it was, or,
once past the commit point (the atomic swap of the folder), exactly the complete new output;
never a mix.  The next build removes what the killed one left.  Two builds into the same folder
never interleave: the second waits for the first and says so.

The kill points inside the commit are reached with CARDFORGE_TEST_KILL_AT (test-only fault
injection, see cardforge/output/replace.py); other kills come at delays spread over a build.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pypdf
import pytest

from conftest import cardforge, load_manifest, make_game

STAGE_MARK = ".cardforge-stage-"


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under a folder (hidden ones too) by relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(Path(folder).rglob("*")) if p.is_file()}


def stale(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if STAGE_MARK in p.name or p.name.endswith(".tmp"))


def start_build(root: Path, *args, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cardforge", "build", "content/tiny", "--out", "out", *args],
                            cwd=str(root), env=dict(os.environ, **(env or {})), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Output of the tiny game before (v1) and after (v2) an edit that changes every PDF, with a
    user's file and an export-like subfolder in the output folder that every build must keep."""
    root = tmp_path_factory.mktemp("crash")
    game = make_game(root)
    assert cardforge("build", "content/tiny", "--out", "out", cwd=root).returncode == 0
    out = root / "out" / "tiny"
    (out / "notes.txt").write_text("my print notes\n")
    (out / "png" / "main").mkdir(parents=True)
    (out / "png" / "main" / "alpha-1-front.png").write_bytes(b"\x89PNG not really")
    shutil.copytree(out, root / "v1")
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace("Alpha", "Alphabet"))
    started = time.monotonic()
    assert cardforge("build", "content/tiny", "--out", "out", cwd=root).returncode == 0
    seconds = time.monotonic() - started
    shutil.copytree(out, root / "v2")
    v1, v2 = tree(root / "v1"), tree(root / "v2")
    assert v1["notes.txt"] == v2["notes.txt"] and "png/main/alpha-1-front.png" in v2
    changed = [name for name in v1 if v1[name] != v2[name]]
    # Every PDF shows the card, except the print guide's, whose pages name no card title.
    assert sorted(changed) == sorted(name for name in v1 if name.endswith((".pdf", ".json")) and "-guide-" not in name)
    return root, v1, v2, seconds


def reset(root: Path) -> Path:
    """out/tiny back to the v1 output (staging folders of earlier kills stay, for the cleanup)."""
    out = root / "out" / "tiny"
    shutil.rmtree(out)
    shutil.copytree(root / "v1", out)
    return out


@pytest.mark.parametrize("point, outcome", [("staged", "old"), ("linked", "old"), ("swapped", "new")])
def test_a_build_killed_inside_its_commit_leaves_the_old_or_the_whole_new_output(kits, point, outcome):
    root, v1, v2, _ = kits
    out = reset(root)
    proc = start_build(root, env={"CARDFORGE_TEST_KILL_AT": point})
    proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert tree(out) == (v1 if outcome == "old" else v2)
    assert stale(root / "out") == [f".tiny{STAGE_MARK}{proc.pid}"]  # what the killed build left
    result = cardforge("build", "content/tiny", "--out", "out", cwd=root)
    assert result.returncode == 0, result.stderr
    assert stale(root / "out") == []
    assert tree(out) == v2


def test_builds_killed_at_any_moment_leave_old_or_new_output_never_a_mix(kits):
    root, v1, v2, seconds = kits
    seen = []
    for fraction in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.97, 1.05):
        out = reset(root)
        proc = start_build(root, "--jobs", "2")
        try:
            proc.wait(timeout=seconds * fraction)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=120)
        now = tree(out)
        assert now in (v1, v2), f"killed after {fraction:.0%} of a build: a mix of old and new files"
        seen.append("old" if now == v1 else "new")
    result = cardforge("build", "content/tiny", "--out", "out", cwd=root)
    assert result.returncode == 0, result.stderr
    assert stale(root / "out") == []
    assert tree(out) == v2
    assert "old" in seen, seen  # the early kills came before the commit


def test_a_build_of_one_paper_keeps_the_other_papers_files_as_they_were(tmp_path):
    make_game(tmp_path)
    assert cardforge("build", "content/tiny", "--out", "out", cwd=tmp_path).returncode == 0
    letter = tmp_path / "out" / "tiny" / "tiny-kit-letter.pdf"
    before = letter.stat()
    a4 = (tmp_path / "out" / "tiny" / "tiny-kit-a4.pdf").stat()
    cards = tmp_path / "content" / "tiny" / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace("Alpha", "Omega"))
    assert cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", cwd=tmp_path).returncode == 0
    after = letter.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # the same file, not a copy
    assert (tmp_path / "out" / "tiny" / "tiny-kit-a4.pdf").stat().st_ino != a4.st_ino
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".tiny.cardforge.lock", "tiny"]


def test_a_failed_build_leaves_the_folder_and_no_staging_behind(tmp_path):
    make_game(tmp_path)
    assert cardforge("build", "content/tiny", "--out", "out", cwd=tmp_path).returncode == 0
    before = tree(tmp_path / "out" / "tiny")
    cards = tmp_path / "content" / "tiny" / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace("cost: 1", "cost: -1"))
    result = cardforge("build", "content/tiny", "--out", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert "content/tiny: build failed; previous output left untouched" in result.stderr
    assert tree(tmp_path / "out" / "tiny") == before
    assert stale(tmp_path / "out") == []


@pytest.mark.parametrize("point, outcome", [("staged", "old"), ("swapped", "new")])
def test_a_killed_export_leaves_the_old_or_new_pictures_and_the_next_export_cleans_up(tmp_path, point, outcome):
    game = make_game(tmp_path)
    png = tmp_path / "out" / "tiny" / "png"

    def export(env=None):
        return cardforge("export", "png", "content/tiny", "--dpi", "20", "--out", png, cwd=tmp_path, env=env)

    assert export().returncode == 0
    v1 = tree(png)
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace("cost: 2\n    quantity: 2", "cost: 2\n    quantity: 1"))
    assert export({"CARDFORGE_TEST_KILL_AT": point}).returncode == -signal.SIGKILL
    now = tree(png)
    assert now == v1 if outcome == "old" else (now != v1 and "main/beta-2-front.png" not in now)
    assert len(stale(tmp_path / "out")) == 1
    assert export().returncode == 0
    assert stale(tmp_path / "out") == []
    assert sorted(tree(png)) == sorted(n for n in v1 if not n.startswith("main/beta-2"))


# -- two builds at once ---------------------------------------------------------------------------

def _pdf_matches_manifest(pdf: Path) -> None:
    manifest = load_manifest(pdf.with_suffix(".manifest.json"))
    reader = pypdf.PdfReader(pdf)  # a torn PDF does not open
    assert len(reader.pages) == len(manifest["pages"]) > 0
    for section in ("cards", "tokens", "boards", "references"):
        for record in manifest.get(section, []):
            assert 1 <= record["page"] <= len(reader.pages)


def _overlapping_builds(root: Path) -> tuple[subprocess.Popen, subprocess.Popen, str]:
    """A first build held still (SIGSTOP) while it surely holds the lock, and a second one started
    then; returns both and the second's first line on stderr, read once the first is let go."""
    lock = root / "out" / ".tiny.cardforge.lock"
    for _ in range(5):
        first = start_build(root)
        deadline = time.monotonic() + 60
        while not (lock.exists() and lock.read_text().startswith(f"{first.pid} ")):
            assert first.poll() is None and time.monotonic() < deadline, "the first build never took the lock"
            time.sleep(0.005)
        first.send_signal(signal.SIGSTOP)
        with open(lock) as probe:  # still held, or did the first build finish before it was stopped?
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                break
        first.send_signal(signal.SIGCONT)
        first.communicate(timeout=120)
    else:
        pytest.fail("the first build never held the lock long enough to be overlapped")
    second = start_build(root)
    try:
        line = second.stderr.readline()
    finally:
        first.send_signal(signal.SIGCONT)
    return first, second, line


def test_a_second_build_into_the_same_folder_waits_for_the_first(tmp_path):
    make_game(tmp_path)
    assert cardforge("build", "content/tiny", "--out", "reference", cwd=tmp_path).returncode == 0
    first, second, line = _overlapping_builds(tmp_path)
    expected = f"waiting for another cardforge build (pid {first.pid}) of tiny in {(tmp_path / 'out' / 'tiny')}"
    assert line.rstrip("\n") == expected
    _, err1 = first.communicate(timeout=120)
    _, err2 = second.communicate(timeout=120)
    assert (first.returncode, second.returncode) == (0, 0), err1 + err2
    out = tmp_path / "out" / "tiny"
    assert tree(out) == tree(tmp_path / "reference" / "tiny")
    for pdf in sorted(out.glob("*.pdf")):
        _pdf_matches_manifest(pdf)
    assert stale(tmp_path / "out") == []


def test_leftovers_of_builds_before_the_staging_folder_are_not_carried_over(tmp_path):
    make_game(tmp_path)
    assert cardforge("build", "content/tiny", "--out", "out", cwd=tmp_path).returncode == 0
    out = tmp_path / "out" / "tiny"
    for name in ("tiny-kit-a4.pdf.tmp", "tiny-cards-letter-simplex.manifest.json.tmp", ".manifest-cards-ab12_x9z.tmp",
                 "draft.pdf.tmp"):  # the last is not cardforge's: it stays
        (out / name).write_bytes(b"partial")
    assert cardforge("build", "content/tiny", "--out", "out", cwd=tmp_path).returncode == 0
    assert sorted(p.name for p in out.iterdir() if "tmp" in p.name) == ["draft.pdf.tmp"]


def test_concurrent_builds_both_succeed_with_whole_identical_output(tmp_path):
    make_game(tmp_path)
    assert cardforge("build", "content/tiny", "--out", "reference", cwd=tmp_path).returncode == 0
    procs = [start_build(tmp_path, "--jobs", "1") for _ in range(3)]
    errors = [proc.communicate(timeout=120)[1] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0, 0], errors
    out = tmp_path / "out" / "tiny"
    assert tree(out) == tree(tmp_path / "reference" / "tiny")
    for pdf in sorted(out.glob("*.pdf")):
        _pdf_matches_manifest(pdf)
    waits = [e for e in errors if "waiting for another cardforge build (pid " in e]
    # Whoever overlapped waited; builds that did not overlap had nothing to wait for.
    assert all(f"of tiny in {out}" in e for e in waits)
    assert stale(tmp_path / "out") == []


# -- the mechanism, in this process -------------------------------------------------------------

@pytest.mark.parametrize("swap", [True, False], ids=["swapped", "renamed-one-by-one"])
def test_a_staged_subfolder_replaces_the_old_one_whole_and_other_entries_stay(tmp_path, monkeypatch, swap):
    from cardforge.output import replace
    from cardforge.output.build import commit, replacing_folder
    if not swap:  # the fallback where renameat2 is missing (not Linux) or refused (the file system)
        monkeypatch.setattr(replace, "exchange", lambda a, b: False)
    out = tmp_path / "out" / "tiny"
    (out / "shop" / "old-deck").mkdir(parents=True)
    (out / "shop" / "old-deck" / "1.png").write_bytes(b"old picture")
    (out / "shop" / "tiny-cards.pdf").write_bytes(b"old pdf")
    (out / "tiny-kit-a4.pdf").write_bytes(b"kept")
    with replacing_folder(out, "tiny") as replacement:
        staged = []
        for rel, data in (("shop/tiny-cards.pdf", b"new pdf"), ("shop/new-deck/1.png", b"new picture")):
            tmp = replacement.stage / (rel.replace("/", "-") + ".tmp")
            tmp.write_bytes(data)
            staged.append((tmp, out / rel))
        assert commit(staged, replacement) == [out / "shop/tiny-cards.pdf", out / "shop/new-deck/1.png"]
    assert tree(out) == {"shop/new-deck/1.png": b"new picture", "shop/tiny-cards.pdf": b"new pdf",
                         "tiny-kit-a4.pdf": b"kept"}
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".tiny.cardforge.lock", "tiny"]


def test_a_file_saved_into_the_output_folder_during_a_build_is_not_lost(tmp_path, monkeypatch):
    from cardforge.output import replace
    from cardforge.output.build import commit, replacing_folder
    out = tmp_path / "out" / "tiny"
    out.mkdir(parents=True)
    (out / "tiny-kit-a4.pdf").write_bytes(b"old")
    real = replace.exchange

    def late_save(a, b):  # a user's file saved after the old folder's files were linked, just before the swap
        (out / "notes.txt").write_text("saved while the build ran")
        return real(a, b)

    monkeypatch.setattr(replace, "exchange", late_save)
    with replacing_folder(out, "tiny") as replacement:
        tmp = replacement.stage / "kit.tmp"
        tmp.write_bytes(b"new")
        commit([(tmp, out / "tiny-kit-a4.pdf")], replacement)
    assert tree(out) == {"notes.txt": b"saved while the build ran", "tiny-kit-a4.pdf": b"new"}


def test_only_cardforge_staging_entries_are_removed_as_stale(tmp_path):
    from cardforge.output.replace import remove_stale
    out = tmp_path / "out"
    (out / "tiny").mkdir(parents=True)
    for name in (".tiny.cardforge-stage-999999", ".other.cardforge-stage-999999", ".tiny.cardforge-stage-x",
                 "tiny.cardforge-stage-999999", ".tiny.cardforge.lock", "tiny.pdf.tmp"):
        (out / name).mkdir()
    assert remove_stale(out / "tiny") == [out / ".tiny.cardforge-stage-999999"]
    assert sorted(p.name for p in out.iterdir()) == [".other.cardforge-stage-999999", ".tiny.cardforge-stage-x",
                                                     ".tiny.cardforge.lock", "tiny", "tiny.cardforge-stage-999999",
                                                     "tiny.pdf.tmp"]


# -- what output may replace ----------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (("build", "content/tiny", "--out", "content"),
     "the output folder content/tiny is the game folder content/tiny or holds it; choose another --out"),
    (("export", "png", "content/tiny", "--out", "content"),
     "the output folder content is the game folder content/tiny or holds it; choose another --out"),
    (("export", "tts", "content/tiny", "--out", "docs"),
     "docs holds notes.txt, which no export wrote; an export replaces its folder as a whole, so give --out a new "
     "or empty folder (or the export's own)"),
], ids=["build-into-the-game", "export-over-the-game", "export-over-documents"])
def test_output_never_replaces_the_game_or_a_folder_of_other_files(tmp_path, args, message):
    make_game(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("mine")
    before = tree(tmp_path)
    result = cardforge(*args, cwd=tmp_path)
    assert (result.returncode, result.stderr.strip()) == (2, f"cardforge: error: {message}")
    assert tree(tmp_path) == before


def test_lock_and_staging_entries_in_a_game_folder_are_not_reported_as_ignored_files(tmp_path):
    """Output may go into the game's own build/ folder (the only place inside a game folder it may
    go): the check of the game's files does not take cardforge's lock and staging entries for the user's."""
    game = make_game(tmp_path)
    done = cardforge("build", "content/tiny", "--out", "content/tiny/build", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (game / "build" / ".tiny.cardforge.lock").is_file()
    (game / "build" / ".tiny.cardforge-stage-4242").mkdir()  # a build running at the same time
    (game / "build" / ".tiny.cardforge-stage-4242" / "notes.yaml").write_text("x: 1\n")
    result = cardforge("check", "--strict", "content/tiny", cwd=tmp_path)
    assert (result.returncode, result.stdout.strip()) == (0, "ok: no problems found")


def test_an_export_into_the_game_build_folder_takes_the_game_lock(tmp_path):
    make_game(tmp_path)
    result = cardforge("export", "png", "content/tiny", "--dpi", "20", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    build = tmp_path / "build"
    assert sorted(p.name for p in build.iterdir()) == [".tiny.cardforge.lock", "tiny"]
    assert sorted(p.name for p in (build / "tiny").iterdir()) == ["png"]  # no lock of its own in the game's folder
    assert (build / ".tiny.cardforge.lock").read_text().endswith(" export\n")  # the export held it


def _small_files_only():
    """In the child: files may not grow past 16 KB, as on a full disk (EFBIG instead of SIGXFSZ)."""
    import resource
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, 16 * 1024))


def test_a_full_disk_is_an_error_message_and_the_old_output_stays(tmp_path):
    make_game(tmp_path)
    assert cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", cwd=tmp_path).returncode == 0
    outputs = lambda: {k: v for k, v in tree(tmp_path / "out").items() if not k.endswith(".cardforge.lock")}  # noqa: E731
    before = outputs()
    (tmp_path / "content/tiny/cards/cards.yaml").write_text(
        (tmp_path / "content/tiny/cards/cards.yaml").read_text().replace("Alpha", "Alpha Prime"))
    result = subprocess.run([sys.executable, "-m", "cardforge", "build", "content/tiny", "--out", "out", "--paper",
                             "a4", "--jobs", "1"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            preexec_fn=_small_files_only)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last == ("cardforge: error: cannot write 'out': File too large; choose another --out, or make room on "
                    "the disk (the previous output is as it was)"), last
    assert outputs() == before
    assert cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", cwd=tmp_path).returncode == 0
    assert stale(tmp_path / "out") == []


def test_an_out_folder_that_cannot_be_made_is_an_error_message(tmp_path):
    make_game(tmp_path)
    (tmp_path / "afile").write_text("not a folder")
    result = cardforge("build", "content/tiny", "--out", "afile/out", "--paper", "a4", cwd=tmp_path)
    assert "Traceback" not in result.stderr and result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"cardforge: error: cannot write '{tmp_path / 'afile/out'}': Not a directory; choose another --out, "
        "or make room on the disk (the previous output is as it was)")
