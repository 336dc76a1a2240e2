"""What a player sees on the pages of the five shipped kits: content errors found by reading the
printed pages (issue 22), each asserted on the PDF itself (text in a card's box, icons the manifest
records and the verifier proved, marks and words at their printed positions).

The kits are built once for the module, both papers, into a temporary folder."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
import yaml

from cardforge.cli import main
from conftest import MM, crosshairs, load_manifest, text_in_box

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"
GAMES = ("bomber-boys", "bombs-away", "iron-rain", "steel-rain", "war-eagles")
PAPERS = ("a4", "letter")


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kits")
    assert main(["build", *(str(CONTENT / g) for g in GAMES), "--paper", "all", "--out", str(out)]) == 0
    return out


def _kit(kits: Path, game: str, paper: str) -> tuple[Path, dict]:
    pdf = kits / game / f"{game}-kit-{paper}.pdf"
    return pdf, load_manifest(pdf.with_suffix(".manifest.json"))


def _card_texts(pdf_path: Path, records: list[dict]) -> dict[tuple[str, int], str]:
    """The text printed inside each card's trim box, by (card id, copy)."""
    out = {}
    with pdfplumber.open(pdf_path) as pdf:
        for record in records:
            out[(record["card"], record["copy"])] = text_in_box(pdf.pages[record["page"] - 1], record["trim"])
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_event_cards_show_each_aircraft_with_the_icon_of_its_role(kits, paper):
    """A Spitfire, a P47D or a P51B built with an event card is a fighter, not a bomber."""
    roles = {}
    for deck in ("allied-planes", "axis-planes"):
        cards = yaml.safe_load((CONTENT / "bombs-away" / "cards" / f"{deck}.yaml").read_text("utf-8"))["cards"]
        roles[deck] = {card["name"]: card["role"] for card in cards}
    assert roles["allied-planes"]["Spitfire I"] == "fighter" and roles["allied-planes"]["B17F"] == "bomber"
    pdf, manifest = _kit(kits, "bombs-away", paper)
    events = [r for r in manifest["cards"] if r["deck"] == "events" and r["side"] == "front"]
    assert len(events) == 50
    seen = set()
    for record in events:
        frames = {f["name"]: f for f in record["frames"]}
        for frame, deck in (("allied-aircraft", "allied-planes"), ("axis-aircraft", "axis-planes")):
            name = frames[frame]["text"].split("**")[1] if "**" in frames[frame]["text"] else frames[frame]["lines"][0]
            name = name.replace(":fighter:", "").replace(":bomber:", "").strip()
            assert frames[frame]["icons"] == {roles[deck][name]: 1}, (record["card"], frame, name)
            seen.add((name, roles[deck][name]))
    assert {("Spitfire I", "fighter"), ("P47D", "fighter"), ("P51B", "fighter"), ("B17F", "bomber")} <= seen
    # The names are printed on the card (the verifier proved the icons against the same records).
    texts = _card_texts(pdf, events)
    spitfire = next(r for r in events if r["card"] == "heats-up-1")
    assert "Spitfire I" in texts[(spitfire["card"], 1)]


@pytest.mark.parametrize("paper", PAPERS)
def test_infantry_record_cards_print_no_blip_field(kits, paper):
    """'Dismounted infantry do not generate "blips"' (Spotting): only vehicles get a Blip field."""
    designs = {}
    for name in ("vehicles", "air", "special"):
        for card in yaml.safe_load((CONTENT / "steel-rain" / "cards" / f"{name}.yaml").read_text("utf-8"))["cards"]:
            designs[card["id"]] = card["class"]
    assert "infantry" in designs.values()
    pdf, manifest = _kit(kits, "steel-rain", paper)
    records = [r for r in manifest["cards"] if r["deck"] == "designs" and r["side"] == "front"]
    texts = _card_texts(pdf, records)
    infantry = [key for key in texts if designs[key[0]] == "infantry"]
    vehicles = [key for key in texts if designs[key[0]] != "infantry"]
    assert infantry and vehicles
    for key in infantry:
        assert "Blip" not in texts[key], key
        assert "No blip" in texts[key] and "50 cm" in texts[key], key
        # An infantry stand has no tonnage: its Overall says so as its Weight does ("0 t" said otherwise).
        assert "Overall: –" in texts[key] and "0 t" not in texts[key], key
    for key in vehicles:
        assert "Blip:" in texts[key], key


@pytest.mark.parametrize("paper", PAPERS)
def test_war_eagles_saving_round_states_its_decision_on_its_own_page(kits, paper):
    """The reference page with the Saving round said "see the decision below" and the decision was on
    the next page: the page now says where a saved aircraft goes, and refers to nothing below it."""
    pdf_path, _ = _kit(kits, "war-eagles", paper)
    with pdfplumber.open(pdf_path) as pdf:
        texts = [" ".join((page.extract_text() or "").split()) for page in pdf.pages]
    saving = [t for t in texts if "Each aircraft removed this phase rolls" in t]
    assert len(saving) == 1
    # (the table's rows wrap: its other columns' words may come between the cell's lines)
    assert "saved and goes to the Repair area of the nearest own" in saving[0]
    assert "zone whose Base can take it" in saving[0]
    assert not any("decision below" in t for t in texts)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", PAPERS)
def test_alignment_marks_cover_no_printed_text(kits, game, paper):
    """Every alignment cross of a tiled board lies off the printed words (the Bombs Away! crosses sat on
    the Bombing Effects table): no character of the page reaches into a cross's 6 mm square."""
    pdf_path, manifest = _kit(kits, game, paper)
    tiles = [b for b in manifest.get("boards", []) if "marks" in b]
    if game == "bombs-away":
        assert tiles
    reach = 3 * MM
    with pdfplumber.open(pdf_path) as pdf:
        for tile in tiles:
            page = pdf.pages[tile["page"] - 1]
            marks = crosshairs(page)
            assert len(marks) == len(tile["marks"]) > 0
            for cx, cy in marks:
                top, bottom = page.height - cy - reach, page.height - cy + reach
                under = [ch["text"] for ch in page.chars if ch["text"].strip() and ch["x1"] > cx - reach
                         and ch["x0"] < cx + reach and ch["bottom"] > top and ch["top"] < bottom]
                assert not under, f"page {tile['page']}: the cross at {cx / MM:.1f}, {cy / MM:.1f} mm covers {''.join(under)!r}"


def _pixel(pdf_path: Path, page_number: int, x_mm: float, y_mm: float, dpi: int = 50) -> tuple[int, int, int]:
    """The colour printed at (x, y) mm from a page's lower-left corner, rasterised by PDFium."""
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(pdf_path))
    page = document[page_number - 1]
    image = page.render(scale=dpi / 72).to_pil().convert("RGB")
    height_mm = page.get_height() / MM
    return image.getpixel((round(x_mm / 25.4 * dpi), round((height_mm - y_mm) / 25.4 * dpi)))


@pytest.mark.parametrize("paper", PAPERS)
def test_target_display_is_a_map_with_each_city_where_it_lies(kits, paper):
    """The Target Display shows Natural Earth's coastlines: open sea off the German coast, land around
    the cities, and a dot for each target city at its longitude and latitude (the layout's scale)."""
    pdf_path, manifest = _kit(kits, "bombs-away", paper)
    board = yaml.safe_load((CONTENT / "bombs-away" / "game.yaml").read_text("utf-8"))["boards"][0]["data"]
    tiles = [b for b in manifest["boards"] if b["board"] == "target-display"]
    assert all(any(f.get("image") == "images/europe-map.svg" for f in t["frames"]) for t in tiles)

    def printed(lon: float, lat: float):
        """The colour at a place of the map, on a tile that shows it (away from the tile's edges)."""
        x, y = (lon - 5.5) * 22.656, (56.8 - lat) * 36  # mm from the board's top-left (the layout's scale)
        for tile in tiles:
            tx, ty, tw, th = tile["trim"]
            px, py = tx + x, ty + th - y
            ox, oy = tile["tile"]["origin"] if "tile" in tile else (tx, ty)
            wx, wy, ww, wh = tile["tile"]["window"] if "tile" in tile else (0, 0, tw, th)
            if ox + 5 < px < ox + ww - 5 and oy + 5 < py < oy + wh - 5:
                return _pixel(pdf_path, tile["page"], px, py)
        raise AssertionError(f"no tile shows {lon}, {lat}")

    sea, land = (0xcf, 0xdd, 0xe6), (0xef, 0xe9, 0xd8)
    assert printed(6.0, 55.5) == sea  # the North Sea, west of Jutland
    assert printed(9.2, 56.3) == land  # Jutland
    assert printed(9.4, 51.2) == land  # by Kassel, between the Ruhr and Schweinfurt squares
    cities = {}
    for tile in tiles:
        for frame in tile["frames"]:
            if frame["name"].startswith("cities[") and frame["name"].endswith("].dot") or frame["name"].endswith("].dot-left"):
                index = int(frame["name"].split("[")[1].split("]")[0])
                x, y, w, h = frame["box"]
                cities[index] = (x + w / 2 - tile["trim"][0], tile["trim"][1] + tile["trim"][3] - (y + h / 2))
    on_map = [t for t in board["targets"] if t["lon"] < 16.3]
    assert len(cities) == len(on_map) == 8
    for index, target in enumerate(on_map):
        assert cities[index] == pytest.approx(((target["lon"] - 5.5) * 22.656, (56.8 - target["lat"]) * 36), abs=0.05)


SILHOUETTES = {"hover": "sr-hover", "bunker": "sr-bunker", "helicopter": "sr-helicopter", "vtol": "sr-vtol",
               "fast-mover": "sr-fast-mover", "infantry": "sr-infantry"}


@pytest.mark.parametrize("paper", PAPERS)
def test_steel_rain_record_cards_show_the_silhouette_of_their_class(kits, paper):
    """Each record card carries its unit's silhouette: ground vehicles by their class (the
    `silhouette` of vehicles.yaml: a bridge-layer is no tank), else by propulsion, the others by
    class (the verifier proved the icons the manifest records are the ones in the PDF)."""
    designs = {}
    for name in ("vehicles", "air", "special"):
        for card in yaml.safe_load((CONTENT / "steel-rain" / "cards" / f"{name}.yaml").read_text("utf-8"))["cards"]:
            kind = card["propulsion"] if card["class"] == "ground" else card["class"]
            designs[card["id"]] = card.get("silhouette") or SILHOUETTES[kind]  # the icon's name
    _, manifest = _kit(kits, "steel-rain", paper)
    records = [r for r in manifest["cards"] if r["deck"] == "designs" and r["side"] == "front"]
    assert records
    for record in records:
        frame = next(f for f in record["frames"] if f["name"] == "silhouette")
        assert frame["icons"] == {designs[record["card"]]: 1}, record["card"]
    backs = [r for r in manifest["cards"] if r["deck"] == "designs" and r["side"] == "back"]
    assert len(backs) == len(records)
    for record in backs:  # and either side of the title on its back
        icons = [f["icons"] for f in record["frames"] if f["name"].startswith("silhouette")]
        assert icons == [{designs[record["card"]]: 1}] * 2, record["card"]
    assert len({designs[v] for v in ("mbt", "cev", "avlb", "ifv", "apc", "spa", "air-defense", "recon", "heavy-truck")}) == 9


@pytest.mark.parametrize("paper", PAPERS)
def test_steel_rain_markers_name_their_kind_and_side(kits, paper):
    """A marker cut out of its sheet still says what it is and whose it is: blips, fire markers and
    drones print their kind and RED or BLUE; chits of one side say which."""
    pdf, manifest = _kit(kits, "steel-rain", paper)
    records = [r for r in manifest["tokens"] if r["side"] == "front"]
    texts = _card_texts(pdf, records)
    for deck, kind, count in (("blips", "BLIP", 30), ("fire-markers", "FIRE", 16), ("drones", "DRONE", 16)):
        printed = [texts[(r["card"], r["copy"])] for r in records if r["deck"] == deck]
        assert len(printed) == 2 * count
        assert all(kind in t for t in printed), (deck, printed[:3])
        assert sum("RED" in t for t in printed) == sum("BLUE" in t for t in printed) == count, deck
    sided = [texts[(r["card"], r["copy"])] for r in records if r["card"] in ("adjusted", "reentry")]
    assert sided and all(("RED SIDE" in t) != ("BLUE SIDE" in t) for t in sided)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_template_names_itself_inside_its_cut_line(kits, paper):
    """The caption under a template is cut away with the paper round it: the piece's own name is
    printed inside its outline."""
    pdf_path, manifest = _kit(kits, "steel-rain", paper)
    game = yaml.safe_load((CONTENT / "steel-rain" / "game.yaml").read_text("utf-8"))
    names = {t["id"]: t.get("label") or t["name"].split(" (")[0] for t in game["templates"]}
    with pdfplumber.open(pdf_path) as pdf:
        for record in manifest["templates"]:
            text = text_in_box(pdf.pages[record["page"] - 1], record["outline"])
            assert names[record["template"]] in text, (record["template"], text[:80])


@pytest.mark.parametrize("game", GAMES)
def test_every_cover_has_its_banner_of_art(kits, game):
    """Each kit opens on a cover with art: a banner in the game's colour (game.yaml `cover`) with the
    game's own icons across it in a lighter tint, and the title on it."""
    cover = yaml.safe_load((CONTENT / game / "game.yaml").read_text("utf-8"))["cover"]
    colour = tuple(int(cover["color"][i:i + 2], 16) for i in (1, 3, 5))
    for paper in PAPERS:
        pdf_path, _ = _kit(kits, game, paper)
        with pdfplumber.open(pdf_path) as pdf:
            page = pdf.pages[0]
            width_mm, height_mm = page.width / MM, page.height / MM
        assert _pixel(pdf_path, 1, 7, height_mm - 12) == colour  # the banner's corner
        # Across the icon row: the icons, in the banner's colour lightened 45% towards white.
        tint = tuple(round(v + (255 - v) * 0.45) for v in colour)
        row = [_pixel(pdf_path, 1, x, height_mm - 23, dpi=100) for x in range(20, round(width_mm) - 20, 2)]
        assert sum(1 for p in row if max(abs(a - b) for a, b in zip(p, tint)) <= 2) >= 10, set(row)


def test_an_unknown_cover_icon_is_reported_at_its_line(tmp_path, capsys):
    import shutil
    game = tmp_path / "content" / "steel-rain"
    shutil.copytree(CONTENT / "steel-rain", game)
    shutil.copytree(REPO / "layouts" / "steel-rain", tmp_path / "layouts" / "steel-rain")
    text = (game / "game.yaml").read_text("utf-8")
    (game / "game.yaml").write_text(text.replace("icons: [sr-tracked,", "icons: [sr-trackd,"), "utf-8")
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "icons: [sr-tracked," in l)
    assert main(["check", str(game)]) == 1
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert f"game.yaml:{line}:" in out and "error[E-UNKNOWN-ICON]: the cover's icons: unknown icon 'sr-trackd'" in out
    assert "did you mean 'sr-tracked'?" in out


@pytest.mark.parametrize("paper", PAPERS)
def test_formation_sheets_say_how_their_tonnage_counts(kits, paper):
    """The total tonnage line read "(line platoons counted ×times; ...)"."""
    pdf, manifest = _kit(kits, "steel-rain", paper)
    records = [r for r in manifest["cards"] if r["deck"] == "formations"]
    texts = _card_texts(pdf, records)
    assert texts and all("Total tonnage (an element marked ×3 counts three times" in t for t in texts.values())
    assert not any("×times" in t for t in texts.values())


@pytest.mark.parametrize("paper", PAPERS)
def test_war_eagles_stat_cards_show_the_aircraft_silhouette(kits, paper):
    """A unit's stat card shows its silhouette (the one its tile shows) under its kind."""
    _, manifest = _kit(kits, "war-eagles", paper)
    cards = [r for r in manifest["cards"] if r["deck"] == "units" and r["side"] == "front"]
    tiles = {r["card"].split("/")[-1]: f["icons"] for r in manifest["tokens"] for f in r["frames"]
             if r["side"] == "front" and f["name"] == "silhouette" and f.get("icons")}
    shown = {r["card"]: f["icons"] for r in cards for f in r["frames"] if f["name"] == "silhouette"}
    assert len(shown) > 20 and all(icons and next(iter(icons)).startswith("sil-") for icons in shown.values())
    assert tiles and all(tiles[card] == icons for card, icons in shown.items() if card in tiles)


@pytest.mark.parametrize("paper", PAPERS)
def test_iron_rain_vp_markers_name_their_player(kits, paper):
    """Each player's VP pawn names its colour (white and black read alike on a grey printer)."""
    pdf, manifest = _kit(kits, "iron-rain", paper)
    records = [r for r in manifest["tokens"] if r["card"].startswith("vp-") and r["side"] == "front"]
    texts = _card_texts(pdf, records)
    assert len(texts) == 4
    for (card, _), text in texts.items():
        assert card.split("-")[1].upper() in text and "VP" in text, (card, text)
