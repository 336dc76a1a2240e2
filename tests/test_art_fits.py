"""Art that fits the game, as the player sees it: each Bombs Away! aircraft card draws the
silhouette of its airframe (propeller fighters are single-engine, the Mosquito, B-26 and Ju 88
twin-engine, the heavies four-engine, only the Me 262 a jet), the side by an emblem's shape
(roundel, star, cross), and every event card draws art. Read from the kit manifest's frames."""
from __future__ import annotations

import json

import pytest

from conftest import REPO
from cardforge.cli import main

GAME = REPO / "content" / "bombs-away"


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    out = tmp_path_factory.mktemp("ba-art")
    assert main(["build", str(GAME), "--paper", "a4", "--out", str(out)]) == 0
    manifest = json.loads(next(out.rglob("bombs-away-cards-a4.manifest.json")).read_text())
    return manifest["cards"]


def _icons(card, frame_name):
    return [name for f in card["frames"] if f["name"] == frame_name for name in f.get("icons", {})]


EXPECTED = {"P47D": "single-engine", "P51B": "single-engine", "FW190A": "single-engine", "Me109G": "single-engine",
            "Spitfire IX": "single-engine", "Mosquito VI": "twin-engine", "B26B": "twin-engine", "Ju88C": "twin-engine",
            "Me110G": "twin-engine", "B17F": "four-engine", "Lancaster I": "four-engine", "Me262A": "jet",
            "Me163B": "rocket"}


def test_each_aircraft_shows_its_airframe_and_its_side_by_shape(cards):
    fronts = {}
    for card in cards:
        if card["deck"] in ("allied-planes", "axis-planes") and any(f["name"] == "picture" for f in card["frames"]):
            name = next(f["text"] for f in card["frames"] if f["name"] == "name")
            fronts[name] = card
    assert {name: _icons(fronts[name], "picture") for name in EXPECTED} == {n: [i] for n, i in EXPECTED.items()}
    assert not [n for n, c in fronts.items() if "jet" in _icons(c, "picture") and n != "Me262A"]
    emblems = {c["deck"]: set() for c in fronts.values()}
    for c in fronts.values():
        emblems[c["deck"]].update(_icons(c, "emblem"))
    assert emblems == {"allied-planes": {"roundel", "star"}, "axis-planes": {"cross"}}


def test_every_event_card_has_art(cards):
    events = [c for c in cards if c["deck"] == "events" and any(f["name"] == "headline" for f in c["frames"])]
    assert len(events) >= 50
    assert [c["card"] for c in events if not _icons(c, "art")] == []
    combat = next(c for c in events if c["card"] == "kammhuber-line")
    assert _icons(combat, "art") == ["dogfight"]


def test_each_steel_rain_vehicle_class_has_its_own_silhouette(tmp_path):
    """The bridge-layer, the engineer vehicle, the IFV and the tank no longer share one tank."""
    out = tmp_path / "out"
    assert main(["build", str(REPO / "content" / "steel-rain"), "--paper", "a4", "--out", str(out)]) == 0
    manifest = json.loads(next(out.rglob("steel-rain-cards-a4.manifest.json")).read_text())
    drawn = {c["card"]: _icons(c, "silhouette") for c in manifest["cards"] if c["deck"] == "designs"
             and any(f["name"] == "silhouette" for f in c["frames"])}
    assert {k: drawn[k] for k in ("mbt", "cev", "avlb", "ifv", "apc", "spa", "air-defense", "recon", "recon-fo",
                                  "heavy-truck", "spa-hover", "assault-hover")} == {
        "mbt": ["sr-mbt"], "cev": ["sr-cev"], "avlb": ["sr-avlb"], "ifv": ["sr-ifv"], "apc": ["sr-apc"],
        "spa": ["sr-spa"], "air-defense": ["sr-air-defense"], "recon": ["sr-recon"], "recon-fo": ["sr-observer"],
        "heavy-truck": ["sr-truck"], "spa-hover": ["sr-hover-artillery"], "assault-hover": ["sr-hover-carrier"]}


def test_iron_rain_leader_biographies_are_set_at_7pt_or_more(tmp_path):
    """The cards print a biography cut to fit (bio_card); the rulebook's full text stays in `bio`."""
    out = tmp_path / "out"
    assert main(["build", str(REPO / "content" / "iron-rain"), "--paper", "a4", "--out", str(out)]) == 0
    manifest = json.loads(next(out.rglob("iron-rain-cards-a4.manifest.json")).read_text())
    bios = {c["card"]: f for c in manifest["cards"] for f in c["frames"] if f["name"] == "bio"}
    assert len(bios) == 8
    assert {card: f["size"] for card, f in bios.items() if f["size"] < 7} == {}
    assert bios["galland"]["text"].startswith("Adolf Galland (1912–1996)") and "104 confirmed victories" in bios["galland"]["text"]


def test_bomber_boys_pictures_fit_the_crew_the_events_and_the_mat(tmp_path):
    out = tmp_path / "out"
    assert main(["build", str(REPO / "content" / "bomber-boys"), "--paper", "a4", "--out", str(out)]) == 0
    cards = json.loads(next(out.rglob("bomber-boys-cards-a4.manifest.json")).read_text())["cards"]
    fronts = {c["card"]: _icons(c, "picture") for c in cards if c["deck"] in ("crew", "bombing-run")
              and any(f["name"] == "picture" and "bomber" not in f.get("icons", {}) and "death-skull" not in f.get("icons", {})
                      for f in c["frames"])}
    assert fronts["pilot"] == ["plane-pilot"] and fronts["co-pilot"] != ["steering-wheel"]
    assert fronts["element-of-surprise"] == ["surprise-attack"]
    boards = json.loads(next(out.rglob("bomber-boys-boards-a4.manifest.json")).read_text())["boards"]
    mat = next(b for b in boards if b["board"] == "player-mat")
    assert [f["icons"] for f in mat["frames"] if f["name"] == "airframe"] == [{"b17-top": 1}]
    assert not [f for f in mat["frames"] if f["name"] in ("wing", "fuselage")]


def test_war_eagles_event_cards_have_art_and_plain_units_a_large_picture(tmp_path):
    out = tmp_path / "out"
    assert main(["build", str(REPO / "content" / "war-eagles"), "--paper", "a4", "--out", str(out)]) == 0
    cards = json.loads(next(out.rglob("war-eagles-cards-a4.manifest.json")).read_text())["cards"]
    events = [c for c in cards if c["deck"] == "events" and any(f["name"] == "text" for f in c["frames"])]
    assert len(events) >= 30 and [c["card"] for c in events if not _icons(c, "art")] == []
    pictures = {c["card"]: (f["box"], f["icons"]) for c in cards for f in c["frames"] if f["name"] == "picture"}
    assert pictures, "no unit card draws a large picture"
    box, icons = next(iter(pictures.values()))
    assert box[2] >= 40 and box[3] >= 18  # mm: no longer a 5 mm silhouette on a half-empty card
