"""A documentation page run as a reader would follow it, so that getting started and the tutorials
cannot drift from what cardforge does.  The docs test runs every such page (tests/test_docs_walkthrough.py)
and the docs build (docs/hooks.py) runs them to render the pictures the pages show, with cardforge itself.

A page is a walkthrough when it has a ```sh or ```console block.  Its steps, in page order, in one
empty folder (the reader's working folder), with the installed `cardforge` first on the PATH:

- ```sh: every line is a command, run by the shell; it must exit 0.
- ```console: `$ command` lines, each followed by the output it shows.  The diagnostics shown
  (`path:line:col: severity[CODE]: message`) must be exactly the diagnostics printed, in the same
  order, and every `= help:` line shown must be printed; other lines (progress) are not compared.
  The command must exit 1 when an error is shown, 0 otherwise.
- a YAML block whose first line is `# whole file: PATH` is written to PATH; with
  `# whole file: PATH (as cardforge new writes it)` the file must already hold the same data.
  `# add to PATH` appends the block to the end of PATH (a card added to a card file, say).
  A block in another language is a whole file when `<!-- whole file: PATH -->` stands before it.
- `<!-- edit PATH: "OLD" -> "NEW" -->` (an HTML comment, not shown) makes the change that the prose
  around it asks of the reader: OLD must occur exactly once in PATH.
- `cardforge serve` runs until the page it prints answers (a screenshot is taken when `serve` is
  followed by `<!-- screenshot: NAME.png -->` and a browser is at hand), then is stopped as Ctrl+C would.

A picture `![...](pictures/PAGE/PATH)` (`../pictures/...` from a tutorial) shows the file PATH of the
walkthrough's folder, as the commands above it wrote it: the docs build copies it into the site.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

FENCE = re.compile(r"^(?:<!-- (?:whole )?file: (?P<other>\S+) -->\n)?```(?P<lang>[a-z]*)\n(?P<body>.*?)^```\n?",
                   re.S | re.M)
EDIT = re.compile(r'^<!-- edit (?P<path>\S+): (?P<old>"(?:[^"\\]|\\.)*") -> (?P<new>"(?:[^"\\]|\\.)*") -->$', re.M)
SCREENSHOT = re.compile(r"^<!-- screenshot: (?P<name>\S+\.png) -->$", re.M)
WHOLE = re.compile(r"^# (?:whole )?file: (?P<path>\S+)(?P<same> \(as `?cardforge new`? writes it\))?\s*$")
ADD = re.compile(r"^# add to (?P<path>\S+)\s*$")
DIAGNOSTIC = re.compile(r"^\S+:\d+:\d+: (?:error|warning)\[[A-Za-z0-9-]+\]: .*$")
HELP = re.compile(r"^\s*= help: .*$")
PICTURE = re.compile(r"!\[[^\]]*\]\((?:\.\./)*pictures/(?P<page>[^/)]+)/(?P<path>[^)\s]+)\)")
URL = re.compile(r"https?://127\.0\.0\.1:\d+/")


class WalkthroughError(AssertionError):
    """A step of a page did not do what the page says it does."""


@dataclass
class Step:
    kind: str  # write, add, same, edit, sh, console, screenshot
    path: str = ""
    body: str = ""
    line: int = 0  # the page's line, for the message
    outputs: list[tuple[str, list[str]]] = field(default_factory=list)  # console: (command, shown lines)


def walkthrough_pages(docs: Path) -> list[Path]:
    """The pages that run as written: getting started, the tutorials and the recipes."""
    return [docs / "getting-started.md", *sorted((docs / "tutorials").glob("*.md")), docs / "guides" / "recipes.md"]


def is_walkthrough(text: str) -> bool:
    return bool(re.search(r"^```(?:sh|console)$", text, re.M))


def steps(text: str) -> list[Step]:
    found: list[tuple[int, Step]] = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        lang, body = match["lang"], match["body"]
        if match["other"]:
            found.append((match.start(), Step("write", match["other"], body, line)))
        elif lang == "sh":
            found.append((match.start(), Step("sh", body=body, line=line)))
        elif lang == "console":
            outputs: list[tuple[str, list[str]]] = []
            for row in body.splitlines():
                if row.startswith("$ "):
                    outputs.append((row[2:], []))
                elif outputs:
                    outputs[-1][1].append(row)
            found.append((match.start(), Step("console", body=body, line=line, outputs=outputs)))
        elif lang == "yaml":
            first = body.split("\n", 1)[0]
            if whole := WHOLE.match(first):
                found.append((match.start(), Step("same" if whole["same"] else "write", whole["path"], body, line)))
            elif add := ADD.match(first):
                found.append((match.start(), Step("add", add["path"], body.split("\n", 1)[1], line)))
    for match in EDIT.finditer(text):
        step = Step("edit", match["path"], line=text.count("\n", 0, match.start()) + 1)
        step.outputs = [(json.loads(match["old"]), [json.loads(match["new"])])]
        found.append((match.start(), step))
    for match in SCREENSHOT.finditer(text):
        found.append((match.start(), Step("screenshot", match["name"], line=text.count("\n", 0, match.start()) + 1)))
    return [step for _, step in sorted(found, key=lambda pair: pair[0])]


def pictures(text: str) -> list[tuple[str, str]]:
    """(page id, path in the walkthrough's folder) of every generated picture the page shows."""
    return [(m["page"], m["path"]) for m in PICTURE.finditer(text)]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)  # the environment cardforge is installed in
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    env.setdefault("CARDFORGE_CACHE", str(Path.home() / ".cache" / "cardforge-docs"))
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "100"
    return env


def _diagnostics(lines: list[str]) -> list[str]:
    return [row.rstrip() for row in lines if DIAGNOSTIC.match(row.strip())]


class Walkthrough:
    """Runs one page's steps in `folder`; `run()` raises WalkthroughError at the first that fails."""

    def __init__(self, page: str, text: str, folder: Path, screenshots: bool = True):
        self.page, self.text, self.folder = page, text, folder
        self.screenshots = screenshots  # False: the serve page must answer, but no picture is taken
        self.not_taken: list[str] = []
        self.env = _environment()
        self._serving: str | None = None
        self._serve_process: subprocess.Popen | None = None

    def _fail(self, step: Step, message: str) -> None:
        raise WalkthroughError(f"{self.page}:{step.line}: {message}")

    def _target(self, step: Step) -> Path:
        target = (self.folder / step.path).resolve()
        if self.folder.resolve() not in target.parents:
            self._fail(step, f"'{step.path}' is outside the working folder")
        return target

    def run(self) -> None:
        for step in steps(self.text):
            if step.kind != "screenshot":
                self._stop_serving()
            getattr(self, f"_{step.kind}")(step)

    def _write(self, step: Step) -> None:
        target = self._target(step)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(step.body, "utf-8")

    def _same(self, step: Step) -> None:
        target = self._target(step)
        if not target.is_file():
            self._fail(step, f"the page shows {step.path} as `cardforge new` writes it, but there is no such file")
        written = yaml.safe_load(target.read_text("utf-8"))
        shown = yaml.safe_load(step.body)
        if written != shown:
            self._fail(step, f"{step.path} as the page shows it is not the file `cardforge new` wrote:\n"
                             f"written: {written!r}\nshown:   {shown!r}")

    def _add(self, step: Step) -> None:
        target = self._target(step)
        if not target.is_file():
            self._fail(step, f"'add to {step.path}', but there is no such file")
        old = target.read_text("utf-8")
        target.write_text(old.rstrip("\n") + "\n" + step.body, "utf-8")
        try:
            yaml.safe_load(target.read_text("utf-8"))
        except yaml.YAMLError as exc:
            self._fail(step, f"{step.path} is no longer YAML once the block is added at its end: {exc}")

    def _edit(self, step: Step) -> None:
        target = self._target(step)
        old, (new,) = step.outputs[0][0], step.outputs[0][1]
        text = target.read_text("utf-8")
        if text.count(old) != 1:
            self._fail(step, f"{old!r} occurs {text.count(old)} times in {step.path}, not once")
        target.write_text(text.replace(old, new), "utf-8")

    def _command(self, step: Step, command: str) -> tuple[int, str]:
        if re.match(r"^cardforge serve\b", command):
            return self._serve(step, command)
        done = subprocess.run(["bash", "-c", command], cwd=self.folder, env=self.env, capture_output=True,
                              text=True, timeout=600)
        return done.returncode, done.stdout + done.stderr

    def _sh(self, step: Step) -> None:
        for command in step.body.splitlines():
            if not command.strip() or command.lstrip().startswith("#"):
                continue
            status, output = self._command(step, command)
            if status != 0:
                self._fail(step, f"`{command}` exited {status}:\n{output}")

    def _console(self, step: Step) -> None:
        for command, shown in step.outputs:
            status, output = self._command(step, command)
            printed = output.splitlines()
            expected = _diagnostics(shown)
            want = 1 if any("error[" in row for row in expected) else 0
            if status != want:
                self._fail(step, f"`{command}` exited {status}, the page implies {want}:\n{output}")
            if _diagnostics(printed) != expected:
                self._fail(step, f"`{command}` printed other diagnostics than the page shows:\nprinted:\n"
                                 + "\n".join(_diagnostics(printed)) + "\nshown:\n" + "\n".join(expected))
            for row in shown:
                if HELP.match(row) and row.strip() not in (p.strip() for p in printed):
                    self._fail(step, f"`{command}` did not print the page's help line {row.strip()!r}:\n{output}")

    def _serve(self, step: Step, command: str) -> tuple[int, str]:
        """`serve` runs until Ctrl+C: start it on a free port and wait until its page answers; it is
        stopped (SIGINT, as Ctrl+C) before the next step that is not a screenshot of it."""
        self._stop_serving()
        process = subprocess.Popen(["bash", "-c", f"exec {command} --port 0"], cwd=self.folder, env=self.env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self._serve_process = process
        output: list[str] = []
        assert process.stdout is not None
        for row in process.stdout:  # until the URL, or the end of its output
            output.append(row)
            if found := URL.search(row):
                self._serving = found.group(0)
                break
        if not self._serving:
            self._stop_serving()
            return process.returncode or 1, "".join(output)
        import urllib.request
        with urllib.request.urlopen(self._serving, timeout=120) as answer:  # noqa: S310 (our own 127.0.0.1)
            status = answer.status
        return (0 if status == 200 else 1), "".join(output)

    def _screenshot(self, step: Step) -> None:
        if self._serve_process is None or not self._serving:
            self._fail(step, "a screenshot, but no `cardforge serve` runs before it")
        if not self.screenshots:
            self.not_taken.append(step.path)
            return
        take_screenshot(self._serving, self._target(step))

    def _stop_serving(self) -> None:
        process, self._serve_process, self._serving = self._serve_process, None, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def close(self) -> None:
        self._stop_serving()


def browser() -> str | None:
    """Chromium's path when it and playwright are installed (the serve page's picture needs both)."""
    chromium = os.environ.get("CARDFORGE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return None
    return chromium


def take_screenshot(url: str, target: Path) -> None:
    """The serve page as a browser shows it."""
    chromium = browser()
    if chromium:
        from playwright.sync_api import sync_playwright
        with sync_playwright() as driver:
            chrome = driver.chromium.launch(executable_path=chromium)
            try:
                page = chrome.new_page(viewport={"width": 1000, "height": 640})
                page.goto(url)
                page.wait_for_selector("img", timeout=60_000)
                page.wait_for_timeout(500)
                page.screenshot(path=str(target))
            finally:
                chrome.close()
        return
    raise WalkthroughError("a screenshot of the serve page needs Chromium and playwright (pip install -e '.[test]')")


def run_page(page: str, text: str, folder: Path, screenshots: bool = True) -> Walkthrough:
    walk = Walkthrough(page, text, folder, screenshots)
    try:
        walk.run()
    finally:
        walk.close()
    return walk
