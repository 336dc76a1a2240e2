"""`cardforge build --target printshop`: one PDF per deck for a print shop, read back.

Each page is one card at trim + 1/8 in bleed (MediaBox = BleedBox = the page, TrimBox = the
trim), back 1, front 1, back 2, front 2, ..., one pair per printed copy; the same pages as
300 dpi PNGs whose names sort in print order.  A 2.5 x 3.5 in card gives the 825 x 1125 px
that The Game Crafter and DriveThruCards ask for."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from PIL import Image
from pypdf import PdfReader

from conftest import BOMBER, GAME_YAML, MM, cardforge, headlines, make_game

BLEED = 9.0  # points: 1/8 in = 3.175 mm
POKER = (63 * MM, 88 * MM)  # cardforge's poker size


def _cards(game: Path, deck_id: str) -> list[dict]:
    """The deck's cards in file order, as game.yaml names their files."""
    data = yaml.safe_load((game / "game.yaml").read_text("utf-8"))
    deck = next(d for d in data["decks"] if d["id"] == deck_id)
    files = [deck["cards"]] if isinstance(deck["cards"], str) else deck["cards"]
    return [card for rel in files for card in yaml.safe_load((game / rel).read_text("utf-8"))["cards"]]


def _copies(cards: list[dict]) -> list[dict]:
    return [card for card in cards for _ in range(card.get("quantity", 1))]


def _box(value) -> list[float]:
    return [float(v) for v in value]


def _assert_box(actual, expected, what: str) -> None:
    assert all(abs(a - e) <= 0.01 for a, e in zip(_box(actual), expected)), f"{what}: {_box(actual)} != {expected}"


def _text(page) -> str:
    return re.sub(r"\s+", " ", page.extract_text()).upper()


@pytest.fixture(scope="module")
def bomber_shop(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("printshop")
    result = cardforge("build", BOMBER, "--target", "printshop", "--out", out, cwd=BOMBER.parent.parent)
    assert result.returncode == 0, result.stderr
    assert "note: tokens (damage-tokens, focus-tokens) are not in the print-shop output" in result.stderr
    return out / "bomber-boys" / "printshop"


@pytest.mark.parametrize("deck", ["crew", "bombing-run", "missions"])
def test_one_page_per_face_and_copy_with_trim_and_bleed_boxes(bomber_shop, deck):
    copies = _copies(_cards(BOMBER, deck))
    reader = PdfReader(str(bomber_shop / f"bomber-boys-{deck}.pdf"))
    assert len(reader.pages) == 2 * len(copies)
    page_box = [0.0, 0.0, POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED]
    trim = [BLEED, BLEED, BLEED + POKER[0], BLEED + POKER[1]]
    for number, page in enumerate(reader.pages, start=1):
        _assert_box(page["/MediaBox"], page_box, f"page {number} MediaBox")
        _assert_box(page["/BleedBox"], page_box, f"page {number} BleedBox")
        _assert_box(page["/TrimBox"], trim, f"page {number} TrimBox")
        assert "/CropBox" not in page and "/ArtBox" not in page  # a shop's RIP must see the whole bleed
    # 69.35 x 94.35 mm: the trim read back, and 3.175 mm of bleed on every side
    assert abs((page_box[2] - 2 * BLEED) / MM - 63) < 0.01 and abs(trim[0] / MM - 3.175) < 0.001


def test_pages_run_back_then_front_for_every_copy(bomber_shop):
    copies = _copies(_cards(BOMBER, "bombing-run"))
    pages = PdfReader(str(bomber_shop / "bomber-boys-bombing-run.pdf")).pages
    for index, card in enumerate(copies):
        back, front = _text(pages[2 * index]), _text(pages[2 * index + 1])
        assert "A WWII BOMBER SOLITAIRE GAME" in back, f"page {2 * index + 1} is not a back: {back[:80]}"
        assert "A WWII BOMBER SOLITAIRE GAME" not in front, f"page {2 * index + 2} is not a front"
        assert card["title"].upper() in front, f"page {2 * index + 2}: no '{card['title']}' in {front[:80]}"
    # the crew's backs name their own card: back 1 and front 1 are the same airman
    crew = _cards(BOMBER, "crew")
    pages = PdfReader(str(bomber_shop / "bomber-boys-crew.pdf")).pages
    for index, card in enumerate(crew):
        back, front = _text(pages[2 * index]), _text(pages[2 * index + 1])
        assert "ELIMINATED" in back and card["title"].upper() in back
        assert "ELIMINATED" not in front and card["title"].upper() in front


def test_a_deck_pdf_checks_clean_against_its_data(bomber_shop):
    """`check --printed` reads a print-shop PDF with its manifest: the copies it counts are its own
    deck's (the other decks are not missing), and each board's PDF holds its board."""
    result = cardforge("check", BOMBER, "--printed", bomber_shop / "bomber-boys-crew.pdf",
                       "--printed", bomber_shop / "bomber-boys-player-mat.pdf", cwd=BOMBER.parent.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok: no problems found"


def test_nothing_but_the_card_on_a_page(bomber_shop):
    """No footer, page number or scale bar: the page holds the card's own text only."""
    for pdf in bomber_shop.glob("*.pdf"):
        for page in PdfReader(str(pdf)).pages:
            text = _text(page)
            assert "PRINT AT 100%" not in text and "50 MM" not in text and " PAGE " not in f" {text} ", pdf.name


def test_pngs_are_the_pages_in_print_order_at_300_dpi(bomber_shop):
    copies = _copies(_cards(BOMBER, "bombing-run"))
    names = sorted(p.name for p in (bomber_shop / "bomber-boys-bombing-run").iterdir())
    expected = []
    seen: dict[str, int] = {}
    for card in copies:
        seen[card["id"]] = seen.get(card["id"], 0) + 1
        for side in ("back", "front"):
            expected.append(f"{len(expected) + 1:03d}-{card['id']}-{seen[card['id']]}-{side}.png")
    assert names == expected  # sorting the names gives the print order
    for name in names[:6]:
        with Image.open(bomber_shop / "bomber-boys-bombing-run" / name) as image:
            # 63 x 88 mm + 2 x 3.175 mm at 300 dpi: 819.1 x 1114.4 px
            assert image.size == (819, 1114)
            assert [round(v) for v in image.info["dpi"]] == [300, 300]
    with Image.open(bomber_shop / "bomber-boys-player-mat.png") as image:  # 265 x 190 mm + bleed (one page on A4 and Letter)
        assert image.size == (round((265 * MM + 2 * BLEED) * 300 / 72), round((190 * MM + 2 * BLEED) * 300 / 72))


def test_the_art_fills_the_print_shop_bleed(bomber_shop):
    """The layouts draw for a 3 mm bleed; drawn for 3.175 mm their background reaches the page edge:
    no white pixel on the outermost ring of any picture."""
    pictures = sorted(bomber_shop.glob("bomber-boys-*/*.png")) + sorted(bomber_shop.glob("*.png"))
    assert len(pictures) == 2 * (10 + 42 + 5) + 2
    for path in pictures:
        with Image.open(path) as image:
            rgb = image.convert("RGB")
        w, h = rgb.size
        ring = [rgb.getpixel((x, y)) for x in range(w) for y in (0, h - 1)] + \
               [rgb.getpixel((x, y)) for y in range(h) for x in (0, w - 1)]
        white = sum(1 for pixel in ring if min(pixel) >= 245)
        assert white == 0, f"{path.name}: {white} white pixels on the page edge"


# -- a 2.5 x 3.5 in card, the shops' own size ---------------------------------------------------

INCH_GAME = GAME_YAML.replace("card_size: poker", "card_size: {width: 2.5in, height: 3.5in}").replace(
    "    back: back\n", "")  # only alpha has a back of its own

INCH_FRONT = """\
frames:
  paper: {type: shape, shape: rect, x: 0mm, y: 0mm, width: 2.5in, height: 3.5in, fill: "#204060", bleed: true}
  title: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 8mm, text: "{{ card.title }}", style: bold, size: 12pt,
          color: white}
"""

INCH_BACK = """\
frames:
  paper: {type: shape, shape: rect, x: 0mm, y: 0mm, width: 2.5in, height: 3.5in, fill: "#602020", bleed: true}
  label: {type: text, x: 4mm, y: 40mm, width: 55mm, height: 8mm, text: "TINY BACK", align: center, size: 12pt,
          color: white}
"""

INCH_CARDS = """\
cards:
  - id: alpha
    title: Alpha
    text: "First card."
    cost: 1
    back: back
  - id: beta
    title: Beta
    text: "Second card."
    cost: 2
    quantity: 2
"""


def _inch_game(tmp_path: Path, cards: str = INCH_CARDS) -> Path:
    return make_game(tmp_path, game_yaml=INCH_GAME, cards_yaml=cards, layout_yaml=INCH_FRONT,
                     back_layout_yaml=INCH_BACK)


def _tree(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_poker_card_of_2_5_by_3_5_in_is_825_by_1125_px(tmp_path):
    _inch_game(tmp_path)
    result = cardforge("build", "content/tiny", "--target", "printshop", "--out", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    shop = tmp_path / "out" / "tiny" / "printshop"
    reader = PdfReader(str(shop / "tiny-main.pdf"))
    # alpha has its own back; beta (2 copies) has none: a blank back keeps each pair together
    assert [_text(p).strip() for p in reader.pages] == ["TINY BACK", "ALPHA", "", "BETA", "", "BETA"]
    for page in reader.pages:
        _assert_box(page["/MediaBox"], [0, 0, 198, 270], "MediaBox")  # 2.75 x 3.75 in
        _assert_box(page["/BleedBox"], [0, 0, 198, 270], "BleedBox")
        _assert_box(page["/TrimBox"], [9, 9, 189, 261], "TrimBox")  # 2.5 x 3.5 in
    names = sorted(p.name for p in (shop / "tiny-main").iterdir())
    assert names == ["001-alpha-1-back.png", "002-alpha-1-front.png", "003-beta-1-back.png",
                     "004-beta-1-front.png", "005-beta-2-back.png", "006-beta-2-front.png"]
    for name in names:
        with Image.open(shop / "tiny-main" / name) as image:
            assert image.size == (825, 1125)
            rgb = image.convert("RGB")
        corner = rgb.getpixel((0, 0))
        if "beta" in name and "back" in name:
            assert corner == (255, 255, 255)  # the blank back
        else:
            assert corner in ((0x20, 0x40, 0x60), (0x60, 0x20, 0x20)), f"{name}: {corner} at the corner"


def test_the_same_input_gives_the_same_bytes(tmp_path):
    _inch_game(tmp_path)
    trees = []
    for seed in ("1", "2"):  # another process and hash seed
        out = f"out{seed}"
        result = cardforge("build", "content/tiny", "--target", "printshop", "--out", out, cwd=tmp_path,
                           env={"PYTHONHASHSEED": seed})
        assert result.returncode == 0, result.stderr
        trees.append({name: data for name, (data, _) in _tree(tmp_path / out / "tiny" / "printshop").items()})
    assert trees[0] == trees[1] and len(trees[0]) == 8


def test_a_failed_build_leaves_the_previous_print_shop_output_untouched(tmp_path):
    """The second deck fails while it is drawn (a colour only drawing finds), after the first
    deck's PDF and pictures were staged: nothing is replaced, and no temporary file is left."""
    second = ("\n  - id: second\n    name: Second\n    cards: cards/second.yaml\n    front: second\n"
              "    fields: {title: {type: string}, colour: {type: string}}\n")
    layout = "frames:\n  paper: {type: shape, shape: rect, x: 0mm, y: 0mm, width: 20mm, height: 20mm, " \
             "fill: '{{ card.colour }}'}\n"
    game = make_game(tmp_path, game_yaml=INCH_GAME + second, cards_yaml=INCH_CARDS, layout_yaml=INCH_FRONT,
                     back_layout_yaml=INCH_BACK, layouts={"second": layout},
                     files={"cards/second.yaml": "cards:\n  - {id: gamma, title: Gamma, colour: '#336699'}\n"})
    assert cardforge("build", "content/tiny", "--target", "printshop", "--out", "out", cwd=tmp_path).returncode == 0
    shop = tmp_path / "out" / "tiny" / "printshop"
    before = _tree(shop)
    assert len(before) == 2 * 2 + 6 + 1  # two PDFs and their manifests, 6 + 1 pictures
    (game / "cards" / "second.yaml").write_text("cards:\n  - {id: gamma, title: Gamma, colour: '#33669'}\n", "utf-8")
    result = cardforge("build", "content/tiny", "--target", "printshop", "--out", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert headlines(result.stderr) == [
        "content/tiny/cards/second.yaml:2:5: error[E-COLOR]: card 'gamma' (front), frame 'paper' of layout "
        "'second': unknown colour '#33669'"], result.stderr
    assert "Traceback" not in result.stderr
    assert "content/tiny: print-shop build failed; previous output left untouched" in result.stderr
    assert _tree(shop) == before  # same files, same bytes, not rewritten; no temporary file left
    assert not list((tmp_path / "out").glob(".*cardforge-stage*"))  # nor a staging folder


def test_a_rebuild_holds_exactly_the_cards_of_now(tmp_path):
    game = _inch_game(tmp_path)
    assert cardforge("build", "content/tiny", "--target", "printshop", "--out", "out", cwd=tmp_path).returncode == 0
    (game / "cards" / "cards.yaml").write_text(INCH_CARDS.replace("quantity: 2", "quantity: 1"), "utf-8")
    assert cardforge("build", "content/tiny", "--target", "printshop", "--out", "out", cwd=tmp_path).returncode == 0
    shop = tmp_path / "out" / "tiny" / "printshop"
    assert sorted(p.name for p in (shop / "tiny-main").iterdir()) == [
        "001-alpha-1-back.png", "002-alpha-1-front.png", "003-beta-1-back.png", "004-beta-1-front.png"]
    assert len(PdfReader(str(shop / "tiny-main.pdf")).pages) == 4


def test_kit_options_are_refused_with_the_print_shop_target(tmp_path):
    _inch_game(tmp_path)
    result = cardforge("build", "content/tiny", "--target", "printshop", "--paper", "a4", "--imposition", "gang",
                       "--out", "out", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == ("cardforge: error: --paper, --imposition: the print-shop target has one page "
                                     "per piece and no paper; these options are for the home-print kit")
    assert not (tmp_path / "out").exists()
