"""Rich text: markup parsing, shrink-to-fit, overflow messages (cardforge.text), and what reaches the PDF."""
from __future__ import annotations

import re

import pdfplumber
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardforge.layout import text as richtext
from cardforge.layout.fonts import builtin_fonts
from conftest import GAME_YAML, MM, cardforge, chars_in_box, load_manifest, make_game, squash, text_in_box

ICONS = {"star", "d6-3"}


@pytest.fixture(scope="module")
def fonts():
    return builtin_fonts()


@pytest.fixture(scope="module")
def sans(fonts):
    return fonts.family("sans")


def parse(markup, family, style="regular", fonts=None, uppercase=False):
    return richtext.parse(markup, family, style, ICONS.__contains__, uppercase=uppercase,
                          missing_chars=fonts.missing_chars if fonts else None)


def frags(rich):
    """paragraph -> line -> word -> [(kind, value, font)]"""
    return [[[[(f.kind, f.value, f.font) for f in word.frags] for word in line] for line in para]
            for para in rich.paragraphs]


# -- parsing ----------------------------------------------------------------------------------

def test_bold_and_italic_switch_fonts(sans):
    rich = parse("plain **bold** *italic* ***both***", sans)
    assert frags(rich) == [[[
        [("text", "plain", "sans-regular")],
        [("text", "bold", "sans-bold")],
        [("text", "italic", "sans-italic")],
        [("text", "both", "sans-bold_italic")],
    ]]]
    assert rich.plain == "plain bold italic both"


def test_italic_inside_a_bold_frame_is_bold_italic(sans):
    rich = parse("one *two*", sans, style="bold")
    assert frags(rich) == [[[[("text", "one", "sans-bold")], [("text", "two", "sans-bold_italic")]]]]


def test_style_change_inside_a_word_keeps_the_word_together(sans):
    rich = parse("re-**roll**", sans)
    assert frags(rich) == [[[[("text", "re-", "sans-regular"), ("text", "roll", "sans-bold")]]]]
    assert rich.plain == "re-roll"


def test_inline_icons_are_counted_and_unknown_names_stay_text(sans):
    rich = parse("Roll :d6-3: or :star: :star: but not :nope:", sans)
    assert rich.icons == {"d6-3": 1, "star": 2}
    # plain is what the manifest records: a literal colon before a letter is escaped, so that
    # the verifier does not read the text ':nope:' as an icon (issue 10)
    assert rich.plain == "Roll :d6-3: or :star: :star: but not \\:nope:"
    words = frags(rich)[0][0]
    assert words[1] == [("icon", "d6-3", "")]
    assert words[-1] == [("text", ":nope:", "sans-regular")]


def test_escapes_print_the_literal_characters(sans):
    rich = parse(r"\*not italic\* and \:star\:", sans)
    assert rich.plain == "*not italic* and \\:star:"  # recorded escaped: see above
    assert rich.icons == {}
    assert {font for para in frags(rich) for line in para for word in line for _, _, font in word} == {"sans-regular"}


def test_line_breaks_and_paragraphs(sans):
    rich = parse("one\ntwo\n\nthree", sans)
    assert [[[w[0][1] for w in line] for line in para] for para in frags(rich)] == [[["one"], ["two"]], [["three"]]]
    assert rich.plain == "one\ntwo\n\nthree"


def test_uppercase(sans):
    assert parse("Bombs *away*", sans, uppercase=True).plain == "BOMBS AWAY"


def test_missing_glyphs_are_collected_per_font(sans, fonts):
    rich = parse("Snow \u2603 and **\u6f22**", sans, fonts=fonts)
    assert rich.missing == {"sans-regular": ["\u2603"], "sans-bold": ["\u6f22"]}
    assert parse("caf\u00e9 \u00b7 o\u2019clock", sans, fonts=fonts).missing == {}


# -- fitting ----------------------------------------------------------------------------------

def test_text_that_fits_keeps_its_size(sans):
    fitted = richtext.fit(parse("A short line.", sans), 50 * MM, 10 * MM, 9, 6, 1.2)
    assert isinstance(fitted, richtext.Fitted)
    assert (fitted.size, fitted.line_count()) == (9, 1)


def test_longer_text_shrinks_to_the_largest_size_that_fits(sans):
    rich = parse(" ".join(["Fire at an enemy aircraft in **Line of Sight**."] * 6), sans)
    width, height = 50 * MM, 20 * MM
    fitted = richtext.fit(rich, width, height, 9, 6, 1.2)
    assert isinstance(fitted, richtext.Fitted)
    assert 6 <= fitted.size < 9
    assert fitted.height <= height + 0.01
    # One step (0.25 pt) larger would not have fitted.
    assert isinstance(richtext.fit(rich, width, height, fitted.size + 0.25, fitted.size + 0.25, 1.2),
                      richtext.Overflow)


def test_text_does_not_shrink_below_min_size_on_the_step_grid(sans):
    rich = parse("word " * 60, sans)
    for height_mm in range(5, 40):
        fitted = richtext.fit(rich, 40 * MM, height_mm * MM, 9, 6, 1.2)
        if isinstance(fitted, richtext.Fitted):
            assert fitted.size >= 6


def test_text_does_not_shrink_below_an_off_grid_min_size(sans):
    rich = parse("word " * 60, sans)
    sizes = {}
    for height_mm in range(5, 40):
        fitted = richtext.fit(rich, 40 * MM, height_mm * MM, 9, 6.1, 1.2)
        if isinstance(fitted, richtext.Fitted):
            sizes[height_mm] = fitted.size
    assert sizes and min(sizes.values()) >= 6.1, sizes


def test_overflow_message_for_height(sans):
    rich = parse("word " * 60, sans)
    result = richtext.fit(rich, 40 * MM, 10 * MM, 9, 6, 1.2)
    assert isinstance(result, richtext.Overflow)
    m = re.fullmatch(r"text needs (\d+) lines \(([\d.]+) mm\) at the minimum size 6 pt but the frame is 10\.0 mm "
                     r"high: ([\d.]+) mm \((\d+) lines?\) did not fit, from '(word[ word]*…)'", result.message)
    assert m, result.message
    lines, needed, lost_mm, lost_lines = int(m[1]), float(m[2]), float(m[3]), int(m[4])
    line_mm = 6 * 1.2 / MM
    assert needed == pytest.approx(lines * line_mm, abs=0.05)
    assert lost_mm == pytest.approx(needed - 10, abs=0.1)
    assert lost_lines == lines - int(10 // line_mm)
    # and the count of lines is what greedy breaking at 6 pt gives: more lines than would fit
    assert lines > int(10 // line_mm)
    # the text set as far as it goes: the lines that fit, then the lines cut off, every word once
    assert result.kept.line_count() == int(10 // line_mm) and result.kept.height <= 10 * MM
    assert result.cut.line_count() == lost_lines
    assert len(result.kept_text.split()) + len(result.cut_text.split()) == 60


def test_overflow_message_quotes_the_words_cut_off(sans):
    rich = parse("Draw two cards. Discard one.\nThen shuffle the deck.", sans)  # two lines, a line break between
    result = richtext.fit(rich, 60 * MM, 5 * MM, 9, 9, 1.2)  # one line of 9 pt fits 5 mm
    assert isinstance(result, richtext.Overflow)
    assert result.kept_text == "Draw two cards. Discard one."
    assert result.cut_text == "Then shuffle the deck."
    assert result.message.endswith("(1 line) did not fit, from 'Then shuffle the deck.'")


def test_overflow_message_for_a_word_wider_than_the_frame(sans):
    word = "Supercalifragilistic"
    result = richtext.fit(parse(word, sans), 10 * MM, 20 * MM, 9, 6, 1.2)
    assert isinstance(result, richtext.Overflow)
    over = stringWidth(word, "sans-regular", 6) / MM - 10
    assert result.message == (f"the word '{word}' is {over:.1f} mm wider than the frame (10.0 mm) "
                              f"even at the minimum size 6 pt")


# -- in a built PDF ---------------------------------------------------------------------------

TEXT_LAYOUT = """\
frames:
  fits: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 10mm, text: "A short line.", size: 9pt, min_size: 6pt}
  shrinks:
    {type: text, x: 4mm, y: 16mm, width: 55mm, height: 20mm, size: 9pt, min_size: 6pt,
     text: "{% for i in range(8) %}Fire at an enemy aircraft in **Line of Sight**. {% endfor %}"}
  icons:
    {type: text, x: 4mm, y: 40mm, width: 55mm, height: 10mm, size: 9pt,
     text: "Roll :d6-3: for :star: :star: now"}
"""


@pytest.fixture(scope="module")
def text_build(tmp_path_factory):
    """One card with three text frames, built on A4; returns its frames by name and its PDF page."""
    root = tmp_path_factory.mktemp("text")
    make_game(root, cards_yaml="cards:\n  - id: only\n    title: Only\n", layout_yaml=TEXT_LAYOUT,
              game_yaml=GAME_YAML.replace("    back: back\n", ""), back_layout_yaml=None)
    result = cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", cwd=root)
    assert result.returncode == 0, result.stderr
    pdf_path = root / "out" / "tiny" / "tiny-cards-a4.pdf"
    manifest = load_manifest(pdf_path.with_suffix(".manifest.json"))
    frames = {f["name"]: f for f in manifest["cards"][0]["frames"]}
    pdf = pdfplumber.open(pdf_path)
    yield frames, pdf.pages[0]
    pdf.close()


def test_fitting_text_is_printed_at_its_size(text_build):
    frames, page = text_build
    frame = frames["fits"]
    assert (frame["size"], frame["lines"]) == (9.0, ["A short line."])
    assert text_in_box(page, frame["box"]) == "A short line."
    assert {round(c["size"], 2) for c in chars_in_box(page, frame["box"])} == {9.0}


def test_long_text_is_printed_smaller_but_not_below_min_size(text_build):
    frames, page = text_build
    frame = frames["shrinks"]
    assert 6 <= frame["size"] < 9
    assert len(frame["lines"]) > 1
    assert {round(c["size"], 2) for c in chars_in_box(page, frame["box"])} == {frame["size"]}
    assert text_in_box(page, frame["box"]) == squash(" ".join(["Fire at an enemy aircraft in Line of Sight."] * 8))


def test_inline_icons_are_counted_in_the_manifest(text_build):
    frames, page = text_build
    frame = frames["icons"]
    assert frame["icons"] == {"d6-3": 1, "star": 2}
    assert frame["text"] == "Roll :d6-3: for :star: :star: now"
    # icons are drawn as pictures, not characters
    assert text_in_box(page, frame["box"]) == "Roll for now"


def test_printed_size_respects_an_off_grid_min_size(tmp_path):
    layout = ("frames:\n  text: {type: text, x: 4mm, y: 4mm, width: 40mm, height: 25mm, size: 9pt, min_size: 6.1pt,\n"
              "         text: \"{{ card.text }}\"}\n")
    make_game(tmp_path, layout_yaml=layout, back_layout_yaml=None,
              game_yaml=GAME_YAML.replace("    back: back\n", ""),
              cards_yaml="cards:\n  - id: only\n    text: \"" + "word " * 60 + "\"\n")
    result = cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", cwd=tmp_path)
    if result.returncode == 0:
        manifest = load_manifest(tmp_path / "out" / "tiny" / "tiny-cards-a4.manifest.json")
        size = manifest["cards"][0]["frames"][0]["size"]
        assert size >= 6.1, f"printed at {size} pt"
    else:
        assert "E-TEXT-OVERFLOW" in result.stderr and "Traceback" not in result.stderr


def test_an_unset_optional_field_does_not_print_none(tmp_path):
    make_game(tmp_path, cards_yaml="cards:\n  - id: alpha\n    title: Alpha\n")  # no 'text'
    result = cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    if result.returncode == 0:
        pdf_path = tmp_path / "out" / "tiny" / "tiny-cards-a4.pdf"
        manifest = load_manifest(pdf_path.with_suffix(".manifest.json"))
        front = next(c for c in manifest["cards"] if c["side"] == "front")
        with pdfplumber.open(pdf_path) as pdf:
            page = pdf.pages[front["page"] - 1]
            printed = {f["name"]: text_in_box(page, f["box"]) for f in front["frames"] if f["type"] == "text"}
        assert "None" not in printed.values(), printed
    else:
        assert result.returncode == 1 and "'text'" in result.stderr


# -- writing text into the PDF ------------------------------------------------------------------

def test_show_writes_the_bytes_reportlabs_textout_writes(fonts, tmp_path):
    """layout/facecode.py `show` encodes text that only uses codes assigned before with one
    translate (issue 27), and while a face is drawn writes marks that are encoded when the face is
    placed; both must write exactly what reportlab writes, whatever the text: new characters, a
    no-break space, a character the font lacks, a second subset once 256 codes are used, and
    another font in between."""
    from reportlab.pdfgen.canvas import Canvas
    from cardforge.layout.facecode import FaceCode, face_pieces, resolve, show
    regular, bold = fonts.family("sans").face("regular"), fonts.family("sans").face("bold")
    many = "".join(chr(c) for c in range(0x100, 0x17F)) + "".join(chr(c) for c in range(0x391, 0x3C9))
    texts = [(regular, "Card 1"), (regular, "Card 1 again, the same codes"), (bold, "Bold (1)"),
             (regular, "no\u00a0break\u00a0space"), (regular, "lacks \u2603 a snowman"),
             (regular, many), (regular, many[::-1] + " and back to ASCII"), (bold, "Bold \\ backslash"),
             (regular, "Card 1")]
    written = []
    for way in ("reportlab", "show", "marks"):
        canvas = Canvas(str(tmp_path / f"{way}.pdf"), invariant=1)
        if way == "marks":
            canvas._face_code = FaceCode()
        text = canvas.beginText()
        for font, string in texts:
            text.setFont(font, 9)
            text.setTextOrigin(10, 10)
            text.textOut(string) if way == "reportlab" else show(text, string)
        for string in ("then more, in the same font", many[-3:], "and ASCII"):  # runs that continue a subset
            text.textOut(string) if way == "reportlab" else show(text, string)
        code = text.getCode()
        if way == "marks":
            assert "Card" not in code  # written when placed
            code = resolve(canvas, None, face_pieces(canvas, canvas._face_code, [code]), canvas._face_code.marks)
        written.append(code)
    assert written[0] == written[1] == written[2]
    assert "/F1+1" in written[1] or "+1 9 Tf" in written[1]  # the second subset was reached


# -- line breaking (UAX #14, issue 43) ----------------------------------------------------------

def _lines_at(rich, width_pt):
    fitted = richtext.fit(rich, width_pt, 10_000, 10, 10, 1.2)
    return ["".join(f.value if f.kind == "text" else f":{f.value}:" for w in line.words for f in w.frags)
            for para in fitted.paragraphs for line in para]


@pytest.mark.parametrize("text", [
    "他说：“你好。”然后走了。（这是一张牌。）「はい」と言った。『本』ー",
    "在你的回合：“抽1张牌”，然后:star:。",
])
def test_no_line_of_chinese_or_japanese_starts_with_closing_or_ends_with_opening_punctuation(fonts, text):
    family = fonts.family("cjk")
    rich = richtext.parse(text, family, "regular", ICONS.__contains__)
    closing, opening = tuple("”’」』）】、。，：ー"), tuple("“‘「『（【")
    for width in range(40, 400, 3):  # every place the quotes can fall at the end of a line
        lines = _lines_at(rich, width)
        assert "".join(lines) == text.replace(":star:", ":star:")
        assert not [line for line in lines[1:] if line.startswith(closing)], (width, lines)
        assert not [line for line in lines[:-1] if line.endswith(opening)], (width, lines)


def test_latin_words_break_only_at_spaces_and_korean_words_stay_whole(sans, fonts):
    # UAX #14 would break after a hyphen or a slash; cardforge keeps English words whole, as before.
    rich = parse("well-known and/or naïve café déjà-vu 2/3", sans)
    assert [["".join(f.value for f in w.frags) for w in line] for line in rich.paragraphs[0]] == [
        ["well-known", "and/or", "naïve", "café", "déjà-vu", "2/3"]]
    korean = richtext.parse("이 카드를 사용한다", fonts.family("cjk"), "regular", ICONS.__contains__)
    assert len(korean.paragraphs[0][0]) == 3
