"""Layout mistakes point at the layout: a misspelt card field is one error at the template's line
and column (not one per card), with did-you-mean over the deck's fields; a shape drawn over a text
frame is a warning at the covering frame."""
from __future__ import annotations

from conftest import FRONT_LAYOUT, cardforge, headlines, make_game

LAYOUT = "content/tiny/layouts/front.yaml"


def _col(text: str, line: int, needle: str) -> int:
    return text.splitlines()[line - 1].index(needle) + 1


def test_a_misspelt_field_is_one_error_at_the_layout_line_with_did_you_mean(tmp_path):
    layout = FRONT_LAYOUT.replace("card.title }}", "card.titel }}")
    make_game(tmp_path, layout_yaml=layout)
    column = _col(layout, 2, '"{{ card.titel')
    for command in ("check", "build"):
        result = cardforge(command, "content/tiny", *(["--out", "out"] if command == "build" else []), cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        assert headlines(result.stderr) == [
            f"{LAYOUT}:2:{column}: error[E-LAYOUT-FIELD]: frame 'title' of layout 'front', 'text': "
            "'titel' is not a field of this deck's cards (2 cards affected)"], result.stderr
        assert "  = help: did you mean 'title'?" in result.stderr
        assert "dict object" not in result.stderr
        assert result.stderr.strip().splitlines()[-1] == "1 error, 0 warnings"


def test_a_field_far_from_any_lists_the_decks_fields(tmp_path):
    make_game(tmp_path, layout_yaml=FRONT_LAYOUT.replace("card.text }}", "card.zzz }}"))
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert [h.split(": ", 1)[1] for h in headlines(result.stderr)] == [
        "error[E-LAYOUT-FIELD]: frame 'text' of layout 'front', 'text': 'zzz' is not a field of this deck's cards (2 cards affected)"]
    assert "  = help: its deck's fields are cost, id, text, title" in result.stderr, result.stderr


def test_an_inherited_template_is_reported_where_it_is_written(tmp_path):
    """`extends`: the typo sits in the base layout, so the error points there, not at the child."""
    base = FRONT_LAYOUT.replace("card.title }}", "card.titel }}")
    child = "extends: base\nframes:\n  title: {size: 11pt}\n"
    make_game(tmp_path, layout_yaml=child, layouts={"base": base})
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    column = _col(base, 2, '"{{ card.titel')
    assert headlines(result.stderr) == [
        f"content/tiny/layouts/base.yaml:2:{column}: error[E-LAYOUT-FIELD]: "
        "frame 'title' of layout 'front', 'text': 'titel' is not a field of this deck's cards (2 cards affected)"], result.stderr


def test_is_defined_on_an_unknown_name_still_works(tmp_path):
    layout = FRONT_LAYOUT.replace('"{{ card.title }}"', '"{{ card.title if card.nickname is not defined }}"')
    make_game(tmp_path, layout_yaml=layout)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert headlines(result.stderr) == []


def test_a_private_name_is_refused_as_an_unknown_field(tmp_path):
    """card._secret is no field: the sandbox refuses it, as a layout mistake, and leaks nothing."""
    make_game(tmp_path, layout_yaml=FRONT_LAYOUT.replace("card.title }}", "card._secret }}"))
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1
    assert [h.split(": ", 1)[1] for h in headlines(result.stderr)] == [
        "error[E-LAYOUT-FIELD]: frame 'title' of layout 'front', 'text': '_secret' is not a field of this deck's cards (2 cards affected)"]


COVER = "  badge: {type: shape, shape: ellipse, x: 40mm, y: 30mm, width: 10mm, height: 10mm, fill: black}\n"


def test_a_shape_drawn_over_text_is_a_warning_at_the_shape(tmp_path):
    make_game(tmp_path, layout_yaml=FRONT_LAYOUT + COVER)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert headlines(result.stderr) == [
        f"{LAYOUT}:4:3: warning[W-FRAME-COVERS-TEXT]: frame 'badge' of layout 'front' is drawn over text frame "
        "'text' and hides 10 x 10 mm of it"]
    assert "  = help: move 'badge' above 'text' in the layout (frames are drawn in order), or make them not " \
        "overlap" in result.stderr


def test_a_shape_drawn_under_text_or_without_fill_is_no_warning(tmp_path):
    lines = FRONT_LAYOUT.splitlines(keepends=True)
    under = lines[0] + COVER + "".join(lines[1:])  # drawn first: the text is on top
    outline_only = FRONT_LAYOUT + COVER.replace("fill: black", "stroke: black")
    see_through = FRONT_LAYOUT + COVER.replace("fill: black", "fill: black, opacity: 0.3")
    for layout in (under, outline_only, see_through):
        make_game(tmp_path, layout_yaml=layout)
        result = cardforge("check", "content/tiny", cwd=tmp_path)
        assert result.returncode == 0 and headlines(result.stderr) == [], (layout, result.stderr)


def test_check_lays_out_a_copy_that_differs_from_the_first(tmp_path):
    """`check` lays out the copies of a piece once (render/face.py), unless its layout reads `copy`:
    only the second copy of 'beta' overflows here, and check says so as build does."""
    layout = FRONT_LAYOUT + ('  tag: {type: text, x: 4mm, y: 70mm, width: 6mm, height: 4mm, size: 9pt, '
                             'text: "{{ \'OVERFLOWING\' if copy == 2 else \'ok\' }}"}\n')
    make_game(tmp_path, layout_yaml=layout)
    for command in ("check", "build"):
        result = cardforge(command, "content/tiny", *(["--out", "out"] if command == "build" else []), cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        assert headlines(result.stderr) == [
            "content/tiny/cards/cards.yaml:6:5: error[E-TEXT-OVERFLOW]: card 'beta' (front), frame 'tag' of layout "
            "'front': the word 'OVERFLOWING' is 16.7 mm wider than the frame (6.0 mm) even at the minimum size 9 pt"]


# Two text frames at one place, each with a condition: a cost on most cards, a "free" label on the rest.
EXCLUSIVE = FRONT_LAYOUT + (
    '  cost: {type: text, when: "{{ card.cost > 1 }}", x: 40mm, y: 70mm, width: 15mm, height: 8mm, '
    'text: "{{ card.cost }}", size: 9pt}\n'
    '  free: {type: text, when: "{{ card.cost <= 1 }}", x: 40mm, y: 70mm, width: 15mm, height: 8mm, '
    'text: "FREE", size: 9pt}\n')


def test_text_frames_whose_conditions_both_hold_and_overlap_are_a_warning_at_the_layout(tmp_path):
    # The two conditions overlap (cost 2 is both > 1 and < 3): beta prints both texts over each other.
    layout = EXCLUSIVE.replace("card.cost <= 1", "card.cost < 3")
    make_game(tmp_path, layout_yaml=layout)
    for command in ("check", "build"):
        result = cardforge(command, "content/tiny", *(["--out", "out"] if command == "build" else []), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        found = [line for line in headlines(result.stderr) if "W-TEXT-OVERLAP" in line]
        assert found == [
            f"{LAYOUT}:5:3: warning[W-TEXT-OVERLAP]: text frames 'cost' and 'free' of layout 'front' both print "
            "on card 'beta' (front) and overlap by 15.0 x 8.0 mm: their texts are drawn over each other "
            "(1 card affected)"], result.stderr
        assert "  = help: make their 'when:' conditions exclude each other, or move 'free' clear of 'cost'" \
            in result.stderr


def test_overlapping_text_frames_are_one_warning_counting_every_card_they_print_on(tmp_path):
    # Both conditions hold on alpha (cost 1) and beta (cost 2): one warning, naming alpha, counting both.
    layout = EXCLUSIVE.replace("card.cost > 1", "card.cost >= 1").replace("card.cost <= 1", "card.cost < 3")
    make_game(tmp_path, layout_yaml=layout)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [line for line in headlines(result.stderr) if "W-TEXT-OVERLAP" in line] == [
        f"{LAYOUT}:5:3: warning[W-TEXT-OVERLAP]: text frames 'cost' and 'free' of layout 'front' both print "
        "on card 'alpha' (front) and overlap by 15.0 x 8.0 mm: their texts are drawn over each other "
        "(2 cards affected)"], result.stderr


def test_text_frames_at_one_place_whose_conditions_exclude_each_other_are_no_warning(tmp_path):
    make_game(tmp_path, layout_yaml=EXCLUSIVE)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 0 and headlines(result.stderr) == [], result.stderr
