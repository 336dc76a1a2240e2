"""The disk cache of parsed icons (cardforge/diskcache.py): `check` gives the same diagnostics with
the cache cold, warm, damaged or after an edit, and a warm `check` does not load svglib."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import FRONT_LAYOUT, make_game

GOOD_SVG = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='5' height='5'/></svg>"
BAD_SVG = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'>\n  <rect width='5' height='5'>\n</svg>"
ICON_LAYOUT = FRONT_LAYOUT.replace('"{{ card.title }}"', '"{{ card.title }} :logo:"')
# `check` in process, printing the modules that matter after its diagnostics.
PROBE = ("import sys; from cardforge.cli import main; code = main(['check', 'content/tiny']); "
         "print('loaded:', sorted(m for m in ('svglib', 'lxml') if m in sys.modules)); sys.exit(code)")


def _check(root: Path, cache: Path) -> tuple[int, str, str]:
    """(exit code, what check said, the probe's line) of `check` in a fresh process with this cache folder:
    its diagnostics (stderr), else its result (stdout, before the probe's own line)."""
    env = dict(os.environ, CARDFORGE_CACHE=str(cache))
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=str(root), env=env, capture_output=True, text=True)
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, *_said_and_probe(result)


def _said_and_probe(result) -> tuple[str, str]:
    """What check printed (diagnostics on stderr, then its result on stdout) and the probe's last line."""
    *results, probe = result.stdout.strip().splitlines()
    return "\n".join(part for part in (result.stderr.strip(), *results) if part), probe


def test_warm_check_says_the_same_without_svglib(tmp_path):
    cache = tmp_path / "cache"
    make_game(tmp_path, layout_yaml=ICON_LAYOUT, files={"icons/logo.svg": GOOD_SVG})
    cold = _check(tmp_path, cache)
    warm = _check(tmp_path, cache)
    assert cold[:2] == warm[:2] == (0, "ok: no problems found")
    assert cold[2] == "loaded: ['lxml', 'svglib']"
    assert warm[2] == "loaded: []"
    assert not list((tmp_path / "content").rglob("*cache*"))  # never in the game folder


def test_an_icon_error_is_replayed_and_an_edit_is_seen(tmp_path):
    cache = tmp_path / "cache"
    game = make_game(tmp_path, layout_yaml=ICON_LAYOUT, files={"icons/logo.svg": BAD_SVG})
    cold = _check(tmp_path, cache)
    warm = _check(tmp_path, cache)
    assert cold[0] == warm[0] == 1
    assert cold[1] == warm[1]
    assert cold[1].startswith("content/tiny/icons/logo.svg:3:7: error[E-ICON]: icon is not well-formed XML"), cold[1]
    (game / "icons" / "logo.svg").write_text(GOOD_SVG, "utf-8")  # fixed: a new key, not the old verdict
    assert _check(tmp_path, cache)[:2] == (0, "ok: no problems found")
    (game / "icons" / "logo.svg").write_text(BAD_SVG, "utf-8")  # broken again: the first verdict again
    assert _check(tmp_path, cache)[:2] == cold[:2]


def test_damaged_entries_are_misses(tmp_path):
    cache = tmp_path / "cache"
    make_game(tmp_path, layout_yaml=ICON_LAYOUT, files={"icons/logo.svg": GOOD_SVG})
    _check(tmp_path, cache)
    entries = [p for p in cache.rglob("*") if p.is_file()]
    assert entries
    for entry in entries:
        entry.write_bytes(b"\x80garbage")
    assert _check(tmp_path, cache)[:2] == (0, "ok: no problems found")
    _check(tmp_path, cache)
    assert "garbage" not in "".join(p.read_bytes().decode("latin-1") for p in cache.rglob("*") if p.is_file())


SCHEMA_PROBE = ("import sys; from cardforge.cli import main; code = main(['check', 'content/tiny']); "
                "print('loaded:', sorted(m for m in ('jsonschema',) if m in sys.modules)); sys.exit(code)")


def test_valid_data_is_remembered_and_an_edit_is_validated_again(tmp_path):
    cache = tmp_path / "cache"
    game = make_game(tmp_path)
    env = dict(os.environ, CARDFORGE_CACHE=str(cache))

    def check():
        result = subprocess.run([sys.executable, "-c", SCHEMA_PROBE], cwd=str(tmp_path), env=env,
                                capture_output=True, text=True)
        assert "Traceback" not in result.stderr, result.stderr
        said, probe = _said_and_probe(result)
        return result.returncode, said.splitlines()[0], probe

    assert check() == (0, "ok: no problems found", "loaded: ['jsonschema']")
    assert check() == (0, "ok: no problems found", "loaded: []")  # known valid: no validator at all
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("title:", "titel:", 1), "utf-8")
    code, first, loaded = check()
    assert (code, loaded) == (1, "loaded: ['jsonschema']")
    assert "error[E-SCHEMA]: unknown key 'titel'" in first, first


RULES = """\
groups:
  all: {deck: main}
checks:
  - id: TINY-COST
    section: "costs are small"
    group: all
    let: {others: "where(groups.all, 'cost', card.cost)"}
    assert: "card.cost < 2 and count(others) >= 1"
    at: cost
    message: "card {{ card.id }} costs {{ card.cost }}"
"""
COST_LAYOUT = FRONT_LAYOUT + ('  cost: {type: text, x: 4mm, y: 70mm, width: 20mm, height: 8mm, '
                              'text: "{{ card.cost * 2 }} {{ card.title | upper }}"}\n'
                              '  broken: {type: text, x: 30mm, y: 70mm, width: 20mm, height: 8mm, text: "{{ card.title | nosuch }}"}\n')


def test_compiled_rules_templates_and_fonts_from_the_cache_say_the_same(tmp_path):
    """Jinja2's generated code (layout/templates.py) and parsed fonts (layout/fonts.py) come from the
    cache on the second run: the same diagnostics, positions included; a failing compile is never stored."""
    cache = tmp_path / "cache"
    make_game(tmp_path, layout_yaml=COST_LAYOUT, files={"rules.yaml": RULES})
    cold = _check(tmp_path, cache)
    assert {p.parent.parent.name for p in cache.rglob("*") if p.is_file()} >= {"jinja-code", "font-face"}
    warm = _check(tmp_path, cache)
    assert cold[:2] == warm[:2]
    assert cold[0] == 1
    assert "error[TINY-COST]: card beta costs 2" in cold[1], cold[1]
    assert "No filter named 'nosuch'" in cold[1], cold[1]


HEAVY_PROBE = ("import sys; from cardforge.cli import main; code = main(['check', 'content/tiny']); "
               "print('loaded:', sorted(m for m in ('reportlab.pdfgen.canvas', 'reportlab.platypus', "
               "'reportlab.graphics.renderPDF', 'pypdf', 'svglib', 'cardforge.output.printshop', 'yaml', 'reportlab.pdfbase.pdfmetrics', 'PIL') "
               "if m in sys.modules)); "
               "sys.exit(code)")


def test_a_warm_check_loads_no_pdf_writer_reader_or_drawing_library(tmp_path):
    """`check` lays pages out on a null canvas: the PDF writer, platypus, the drawing renderer, the
    PDF reader and svglib (icons come from the cache) stay unloaded, and so does PyYAML: every
    document, cardforge's font index included, comes from the cache.  Nor reportlab's font code and
    Pillow: every face's results and the fonts' glyph sets come from the cache (issue 27)."""
    cache = tmp_path / "cache"
    make_game(tmp_path, layout_yaml=ICON_LAYOUT, files={"icons/logo.svg": GOOD_SVG})
    env = dict(os.environ, CARDFORGE_CACHE=str(cache))
    results = [subprocess.run([sys.executable, "-c", HEAVY_PROBE], cwd=str(tmp_path), env=env, capture_output=True,
                              text=True) for _ in range(2)]
    assert [r.returncode for r in results] == [0, 0], results[-1].stderr
    assert results[1].stdout.strip().splitlines() == ["ok: no problems found", "loaded: []"]


def test_the_command_line_alone_loads_no_stage():
    """`cardforge --version` (and the parsing of every command line) imports no stage: no output/
    module and no reportlab; each command imports what it needs when it runs."""
    probe = ("import sys; from cardforge.cli import parser; parser().parse_args(['check']); "
             "print(sorted(m for m in sys.modules if m.startswith(('cardforge.output', 'reportlab', 'PIL'))))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stderr


def test_the_code_fingerprint_sees_every_edit_of_a_module_settled_or_fresh(tmp_path, monkeypatch):
    """The faces' cache is keyed by cardforge's code: a settled module by its size, times and
    inode (not read), one written a moment ago by its bytes."""
    import shutil
    import time

    from cardforge import diskcache
    package = tmp_path / "cardforge"
    (package / "stage").mkdir(parents=True)
    shutil.copy(diskcache.__file__, package / "diskcache.py")
    module = package / "stage" / "draw.py"
    module.write_text("SIZE = 1\n")
    old = time.time() - 60
    os.utime(module, (old, old))
    monkeypatch.setattr(diskcache, "__file__", str(package / "diskcache.py"))

    def fingerprint() -> bytes:
        diskcache.code_fingerprint.cache_clear()
        return diskcache.code_fingerprint()

    settled = fingerprint()
    assert fingerprint() == settled
    monkeypatch.setattr(diskcache, "SETTLED_S", 0.0)  # so that every module counts as settled
    module.write_text("SIZE = 2\n")  # the same size, its old modification time: only ctime tells
    os.utime(module, (old, old))
    edited = fingerprint()
    assert edited != settled
    monkeypatch.setattr(diskcache, "SETTLED_S", 3600.0)  # every module just written: keyed by bytes
    fresh = fingerprint()
    module.write_text("SIZE = 2\n")
    assert fingerprint() == fresh  # written again, the same bytes
    module.write_text("SIZE = 3\n")
    assert fingerprint() != fresh
    (package / "stage" / "new.py").write_text("")
    assert fingerprint() != fresh
    diskcache.code_fingerprint.cache_clear()
