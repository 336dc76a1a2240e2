"""Vendor game-icons.net's icons into cardforge: cardforge/iconsets/game-icons.zip.

The drawings come from npm's @iconify-json/game-icons (icons.json: every icon's SVG body, tidied
to `fill="currentColor"` on a 512 x 512 view box, plus aliases of renamed icons); who drew each
icon comes from game-icons.net's own repository (github.com/game-icons/icons), where each
author's icons lie in a folder of their own, and its license.txt names the authors.

    npm pack @iconify-json/game-icons && tar xzf iconify-json-game-icons-*.tgz
    git clone --depth 1 https://github.com/game-icons/icons game-icons
    python tools/vendor_game_icons.py package/ game-icons/

The archive holds svg/<name>.svg and LICENSE.txt; game-icons.json beside it is the index (names,
aliases, authors, licence, versions, and where each icon lies in the archive).  An icon drawn under the same name by two authors (`cauldron`: Lorc's and
DarkZaitzev's) is credited to the one whose outline iconify kept, found by comparing the paths'
numbers.  cardforge/iconset.py reads the archive.
"""
from __future__ import annotations

import argparse
import difflib
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "cardforge" / "iconsets" / "game-icons.zip"
FOLDERS = {"lucasms": "lucas"}  # a folder whose name is not license.txt's name made lower case
CC0 = {"viscious-speed", "zeromancer"}  # license.txt: "- CC0"
_NUMBER = re.compile(r"-?\d*\.?\d+")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def _authors(license_text: str) -> dict[str, dict]:
    """license.txt's list (`- Lorc, http://lorcblog.blogspot.com`) by name in lower case without
    spaces or hyphens, as the folders are named (`lorc`, `heavenly-dog` for HeavenlyDog)."""
    found = {}
    for line in license_text.splitlines():
        m = re.match(r"^- ([^,]+?)(?:, (https?://\S+))?(?: - CC0)?\s*$", line.strip())
        if m:
            name = m.group(1).strip()
            found[re.sub(r"[^a-z0-9]+", "", name.lower())] = {"name": name, "url": m.group(2)}
    return found


def _numbers(svg: str) -> list[int]:
    paths = re.findall(r'\sd="([^"]+)"', svg)
    paths = [p for p in paths if p.strip() != "M0 0h512v512H0z"]  # the black square behind every repository icon
    return [round(float(n)) for p in paths for n in _NUMBER.findall(p)][:80]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("package", type=Path, help="the unpacked npm package (its icons.json, info.json, package.json)")
    p.add_argument("repo", type=Path, help="a clone of github.com/game-icons/icons (work tree or bare)")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    icons = json.loads((args.package / "icons.json").read_text("utf-8"))
    info = json.loads((args.package / "info.json").read_text("utf-8"))
    version = json.loads((args.package / "package.json").read_text("utf-8"))["version"]
    license_text = _git(args.repo, "show", "HEAD:license.txt")
    commit = _git(args.repo, "rev-parse", "HEAD").strip()
    named = _authors(license_text)
    by_stem: dict[str, list[str]] = {}
    for path in _git(args.repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines():
        if path.endswith(".svg") and path.count("/") == 1:
            folder, stem = path[:-4].split("/")
            by_stem.setdefault(stem, []).append(folder)
    size = (icons.get("width", 512), icons.get("height", 512))
    index_icons, hidden, unknown = {}, [], []
    members = {}
    for name, icon in sorted(icons["icons"].items()):
        body = icon["body"]
        folders = [f for f in by_stem.get(name, []) if f != "badges"] or by_stem.get(name, [])
        if len(folders) > 1:  # the same name drawn twice: whose outline is it?
            ours = _numbers(body)
            folders.sort(key=lambda f: -difflib.SequenceMatcher(
                None, ours, _numbers(_git(args.repo, "show", f"HEAD:{f}/{name}.svg")), autojunk=False).ratio())
        author = folders[0] if folders and folders[0] != "badges" else None
        if author is None:
            unknown.append(name)
        index_icons[name] = author
        if icon.get("hidden"):
            hidden.append(name)
        members[f"svg/{name}.svg"] = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size[0]} {size[1]}">'
                                      f"{body}</svg>\n")
    authors = {}
    for slug in sorted({a for a in index_icons.values() if a}):
        entry = named.get(FOLDERS.get(slug, slug.replace("-", ""))) or {"name": slug.replace("-", " ").title(), "url": None}
        authors[slug] = {**entry, "license": "CC0-1.0" if slug in CC0 else info["license"]["spdx"]}
    index = {
        "prefix": info["prefix"], "name": info["name"], "site": "https://game-icons.net",
        "license": info["license"], "source": {"npm": f"@iconify-json/game-icons@{version}",
                                               "authors": f"github.com/game-icons/icons@{commit[:12]}"},
        "authors": authors, "icons": index_icons, "hidden": hidden,
        "aliases": {alias: entry["parent"] for alias, entry in sorted(icons.get("aliases", {}).items())},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(args.out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for member, text in [("LICENSE.txt", license_text), *sorted(members.items())]:
            z.writestr(zipfile.ZipInfo(member, (2020, 1, 1, 0, 0, 0)), text, zipfile.ZIP_DEFLATED, 9)  # reproducible
    with zipfile.ZipFile(args.out) as z:  # where each icon lies: read without parsing 4,000 directory entries
        index["members"] = {info.filename[4:-4]: [info.header_offset, info.compress_size]
                            for info in z.infolist() if info.filename.startswith("svg/")}
    args.out.with_suffix(".json").write_text(json.dumps(index, separators=(",", ":"), sort_keys=True), "utf-8")
    print(f"wrote {args.out}: {len(index_icons)} icons, {len(authors)} authors, "
          f"{len(unknown)} without a known author ({', '.join(unknown[:5])}...), {args.out.stat().st_size} bytes",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
