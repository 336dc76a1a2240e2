"""Build the CMYK output profiles cardforge ships (cardforge/profiles/) from public data.

    python tools/build_profiles.py [--only NAME] [--jobs N]

Each profile is made by ArgyllCMS's `colprof` from a characterisation data set in Debian's
`icc-profiles-free` package (apt-get install icc-profiles-free argyll), with the total ink
limit the print shops ask for baked into its tables, so that every colour littleCMS converts
through it stays under that limit. A build takes about 3.5 minutes of one core per profile.

The profiles are deterministic up to colprof's version; the version, the input data's SHA-256
and the exact command are written into cardforge/profiles/PROVENANCE.md so anyone can check
and rebuild them.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DATA = Path("/usr/share/color/icc")
SRGB = Path("/usr/share/color/argyll/ref/sRGB.icm")
OUT = Path(__file__).resolve().parent.parent / "cardforge" / "profiles"

# name -> (data set, total ink %, black ink %, description, copyright text)
PROFILES = {
    "gracol-coated-240": (
        "TR006.ti3", 240, 95,
        "cardforge GRACoL 2006 coated, 240% TAC (from ANSI CGATS/GRACoL TR 006-2007)",
        "Characterization data: ANSI CGATS/GRACoL TR 006-2007 (Copyright 2007 NPES). "
        "Profile built by cardforge with ArgyllCMS colprof; may be redistributed.",
    ),
    "fogra39-coated-300": (
        "FOGRA39L.ti3", 300, 95,
        "cardforge FOGRA39 coated, 300% TAC (from Fogra FOGRA39L data)",
        "Characterization data: FOGRA39L (Fogra, www.fogra.org), as distributed in Debian "
        "icc-profiles-free under the zlib licence. Profile built by cardforge with ArgyllCMS colprof.",
    ),
}


def colprof_command(name: str) -> list[str]:
    data, ink, black, description, copyright_text = PROFILES[name]
    return [
        "colprof", "-qm",        # medium quality: the tables are fine enough for 8-bit colour
        "-kr",                   # black generation: a ramp, so greys lean on K
        f"-l{ink}", f"-L{black}",
        "-S", str(SRGB),         # gamut-map the perceptual tables from sRGB, what cards are drawn in
        "-cmt", "-dpp",          # viewing: a monitor in a typical room, to a practical print
        "-nc",                   # no copy of the measurements inside the profile (smaller file)
        "-D", description, "-C", copyright_text,
        name,
    ]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def colprof_version() -> str:
    out = subprocess.run(["colprof"], capture_output=True, text=True)
    return (out.stdout + out.stderr).splitlines()[0].strip()


def build(name: str) -> Path:
    data = DATA / PROFILES[name][0]
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(data, Path(tmp) / f"{name}.ti3")
        cmd = ["nice", "-n", "15", *colprof_command(name)]
        subprocess.run(cmd, cwd=tmp, check=True)
        OUT.mkdir(exist_ok=True)
        target = OUT / f"{name}.icc"
        shutil.copy(Path(tmp) / f"{name}.icc", target)
    print(f"built {target} ({target.stat().st_size} bytes)", file=sys.stderr)
    return target


def write_provenance() -> None:
    lines = [
        "# Provenance of the shipped CMYK profiles",
        "",
        "Built by `tools/build_profiles.py` with ArgyllCMS colprof (" + colprof_version() + ").",
        "Licences and terms: LICENSE.md.",
        "Source viewing profile for gamut mapping: ArgyllCMS `ref/sRGB.icm`, SHA-256 "
        f"`{sha256(SRGB)}`.",
        "",
    ]
    for name, (data, ink, black, description, copyright_text) in PROFILES.items():
        icc = OUT / f"{name}.icc"
        lines += [
            f"## {name}.icc",
            "",
            f"- {description}",
            f"- data: Debian `icc-profiles-free` `{DATA / data}`, SHA-256 `{sha256(DATA / data)}`",
            f"- total ink limit {ink}%, black ink limit {black}%",
            "- command: `" + " ".join(a if " " not in a else repr(a) for a in colprof_command(name)) + "`",
            f"- profile SHA-256 `{sha256(icc)}`" if icc.exists() else "- (not built)",
            f"- copyright tag: {copyright_text}",
            "",
        ]
    (OUT / "PROVENANCE.md").write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(PROFILES), action="append")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--provenance", action="store_true", help="only write PROVENANCE.md for the profiles there")
    args = parser.parse_args()
    if args.provenance:
        write_provenance()
        return
    for tool in ("colprof",):
        if shutil.which(tool) is None:
            sys.exit("colprof not found: apt-get install argyll icc-profiles-free")
    names = args.only or list(PROFILES)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(build, names))
    write_provenance()


if __name__ == "__main__":
    os.umask(0o022)
    main()
