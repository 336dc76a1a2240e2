"""MkDocs hook: the reference pages are written from cardforge's own schemas, registries and source
(cardforge/reference.py) each time the site is built, so they cannot drift from what `check` accepts."""
from __future__ import annotations

from mkdocs.structure.files import File


def on_files(files, config):
    from cardforge.reference import pages
    for rel, text in pages().items():
        files.append(File.generated(config, rel, content=text))
    return files
