"""MkDocs hook: what the site shows is made by cardforge itself each time the site is built.

- The reference pages are written from cardforge's own schemas, registries and source
  (cardforge/reference.py), so they cannot drift from what `check` accepts; a page written by hand
  in docs/reference/ (the diagnostics reference) takes the place of the generated one.
- The pictures: getting started, each tutorial and the recipes are run as a reader follows them
  (cardforge/walkthrough.py), in an empty folder, and every picture a page shows
  (`![...](pictures/PAGE/FILE)`) is the file its own commands wrote there, `cardforge render` and the
  rest. A page whose commands fail fails the build, so a page cannot show what cardforge no longer does.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from mkdocs.structure.files import File


def on_files(files, config):
    from cardforge import walkthrough
    from cardforge.reference import pages

    docs = Path(config["docs_dir"])
    for rel, text in pages().items():
        if not (docs / rel).is_file():
            files.append(File.generated(config, rel, content=text))
    for page in walkthrough.walkthrough_pages(docs):
        text = page.read_text("utf-8")
        shown = walkthrough.pictures(text)
        if not shown:
            continue
        with tempfile.TemporaryDirectory(prefix="cardforge-docs-") as folder:
            walkthrough.run_page(page.relative_to(docs).as_posix(), text, Path(folder))
            for page_id, path in shown:
                picture = Path(folder) / path
                files.append(File.generated(config, f"pictures/{page_id}/{path}", content=picture.read_bytes()))
    return files
