"""A manifest's face records are held as drawn while they are few, and spooled to disk once they
are many (output/manifest.py).  Either way the build writes the same files, and the verifier's
reading of a record (it notes a template's measured size) never reaches the manifest."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardforge.output import manifest as manifest_module
from cardforge.output.build import build_game

GAME = Path(__file__).resolve().parents[1] / "content" / "steel-rain"  # cards, tokens, boards, templates


def _build(out: Path) -> dict[str, bytes]:
    result = build_game(GAME, out, papers=("a4",))
    assert not result.report.has_errors(), result.report.format_text()
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


@pytest.mark.parametrize("held", [0, 7])
def test_held_and_spooled_records_write_the_same_files(tmp_path, monkeypatch, held):
    as_drawn = _build(tmp_path / "held")
    monkeypatch.setattr(manifest_module, "HELD_RECORDS", held)  # 7: spilled to the spool mid-build
    spooled = _build(tmp_path / "spooled")
    assert sorted(as_drawn) == sorted(spooled)
    assert len([n for n in as_drawn if n.endswith(".manifest.json")]) >= 5
    different = [name for name in as_drawn if as_drawn[name] != spooled[name]]
    assert different == []


def test_what_the_verifier_notes_stays_out_of_the_manifest(tmp_path):
    files = _build(tmp_path)
    records = json.loads(files[f"{GAME.name}-templates-a4.manifest.json"])["templates"]
    assert len(records) > 10
    assert all("outline" in record and "measured" not in record for record in records)


def test_a_large_build_keeps_few_records_in_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(manifest_module, "HELD_RECORDS", 3)
    made = []
    original = manifest_module.Manifest.add

    def add(self, section, record):
        original(self, section, record)
        made.append(self)

    monkeypatch.setattr(manifest_module.Manifest, "add", add)
    _build(tmp_path)
    assert made and all(m._held is None for m in made if m.faces > 3)
    assert all(sum(len(r) for r in m._held.values()) == m.faces for m in made if m.faces <= 3 and m._held)


def test_records_are_written_as_json_writes_them(tmp_path):
    """orjson writes the manifests (output/manifest.py _dumps): the same text as json's encoder,
    and json's where orjson refuses a value."""
    files = _build(tmp_path)
    records = [record for name, data in files.items() if name.endswith(".manifest.json")
               for section in manifest_module.SECTIONS for record in json.loads(data).get(section) or []]
    assert len(records) > 100
    assert [r for r in records if manifest_module._dumps(r) != manifest_module._JSON(r)] == []
    odd = {"text": "half a pair \ud83d", "big": 2 ** 70, "box": [1.5, 2.0]}
    assert manifest_module._dumps(odd) == json.dumps(odd, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
