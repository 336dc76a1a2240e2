"""The limits on untrusted content (issue 17, part 2), each as the diagnostic a user sees.

Each input here would otherwise hang the build, fill the memory or crash the interpreter; each must
be one E-LIMIT diagnostic that names the limit, at the file (and line) that crossed it, exit 1."""
from __future__ import annotations

import io

from PIL import Image

from conftest import CARDS_YAML, FRONT_LAYOUT, GAME_YAML, cardforge, headlines, make_game


def errors(tmp_path, command="check", **game):
    make_game(tmp_path, **game)
    args = ["--out", "out", "--paper", "a4"] if command == "build" else []
    result = cardforge(command, "content/tiny", *args, cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr
    return [line for line in headlines(result.stderr) if ": error[" in line]


JSON_GAME = GAME_YAML.replace("cards: cards/cards.yaml", "cards: cards/cards.json")


def test_json_nesting_depth(tmp_path):
    card = '{"id": "alpha", "title": "Alpha", "text": ' + "[" * 150 + "]" * 150 + "}"
    found = errors(tmp_path, game_yaml=JSON_GAME, cards_yaml=None, files={"cards/cards.json": f"[{card}]"})
    assert found == ["content/tiny/cards/cards.json:1:143: error[E-LIMIT]: nested more than 100 levels deep "
                     "(the limit of nesting depth)"]


def test_json_integer_size(tmp_path):
    card = '{"id": "alpha", "title": "Alpha", "cost": ' + "9" * 5000 + "}"
    found = errors(tmp_path, game_yaml=JSON_GAME, cards_yaml=None, files={"cards/cards.json": f"[{card}]"})
    assert found == ["content/tiny/cards/cards.json:1:44: error[E-LIMIT]: integer of 5000 characters is larger "
                     "than the limit of integer size (18 digits)"]


def test_card_copies(tmp_path):
    # the largest series its schema allows (numbers up to 1,000,000): a million pieces
    cards = CARDS_YAML + "  - id: gamma\n    title: Gamma\n    series: {from: 1, to: 1000000}\n"
    found = errors(tmp_path, cards_yaml=cards)
    assert found == ["content/tiny/cards/cards.yaml:13:13: error[E-LIMIT]: the game has more than the limit of 50000 "
                     "printed pieces (card copies, series numbers and variants) at card 'gamma'"]


def test_card_copies_summed_over_cards(tmp_path):
    many = "".join(f"  - id: c{i}\n    title: C{i}\n    quantity: 1000\n" for i in range(51))
    found = errors(tmp_path, cards_yaml="cards:\n" + many)
    assert found == ["content/tiny/cards/cards.yaml:154:15: error[E-LIMIT]: the game has more than the limit of "
                     "50000 printed pieces (card copies, series numbers and variants) at card 'c50'"]


def test_image_pixels(tmp_path):
    bomb = io.BytesIO()
    Image.new("1", (10_000, 6_000)).save(bomb, "PNG")  # 60 million pixels in a file of some kilobytes
    assert len(bomb.getvalue()) < 100_000
    layout = FRONT_LAYOUT + "  art: {type: image, x: 4mm, y: 62mm, width: 20mm, height: 20mm, src: art/bomb.png}\n"
    found = errors(tmp_path, "build", layout_yaml=layout, files={"art/bomb.png": bomb.getvalue()})
    assert found[0].startswith("content/tiny/cards/cards.yaml:2:5: error[E-LIMIT]: ")
    assert found[0].endswith("image 'art/bomb.png' of 10000 x 6000 pixels is larger than the limit of image size "
                             "(50 million pixels)")


def test_template_output_length(tmp_path):
    layout = FRONT_LAYOUT.replace('"{{ card.title }}"', "\"{% for i in range(1000) %}{{ 'x' * 1000 }}{% endfor %}\"")
    found = errors(tmp_path, "build", layout_yaml=layout)
    assert found[0].endswith("'text': output is larger than the limit of template output (100000 characters)"), found


def test_template_time(tmp_path):
    loops = "{% for i in range(1000) %}{% for j in range(1000) %}{% for k in range(1000) %}{% endfor %}" \
            "{% endfor %}{% endfor %}"
    layout = FRONT_LAYOUT.replace('"{{ card.title }}"', f'"{loops}{{{{ card.title }}}}"')
    found = errors(tmp_path, "build", layout_yaml=layout)
    assert found[0].endswith("template stopped: it ran longer than the limit of 2 s for one expression"), found


def test_template_padding_width(tmp_path):
    layout = FRONT_LAYOUT.replace('"{{ card.title }}"', "\"{{ card.title | center(1000000000) }}\"")
    found = errors(tmp_path, "build", layout_yaml=layout)
    assert found[0].endswith("template refused: 'center' with a width larger than the limit of repetition (100000)")


SLOW_RULES = """\
groups:
  all: {deck: main}
checks:
  - id: SLOW-CHECK
    section: "A check that compares 300 million pairs"
    group: all
    assert: "range(10000) | select('in', (range(10000) | map('string') | list) * 3) | list | length == 0"
    message: never
"""


def test_expression_time(tmp_path):
    many = "cards:\n" + "".join(f"  - id: c{i}\n    title: C{i}\n" for i in range(200))
    found = errors(tmp_path, cards_yaml=many, files={"rules.yaml": SLOW_RULES})  # stops once, not 200 times
    assert found == ["content/tiny/rules.yaml:7:13: error[E-LIMIT]: SLOW-CHECK 'assert' on card 'c0': stopped: it ran longer than the "
                     "limit of 2 s for one expression"], found


def test_text_doubled_by_concatenation(tmp_path):
    """Found by the fuzzer: `~` is not a binary operator Jinja2's sandbox can intercept, so the
    code generator routes it through a bounded join (it was a MemoryError)."""
    doubling = "{% set ns = namespace(x='ab') %}{% for i in range(40) %}{% set ns.x = ns.x ~ ns.x %}{% endfor %}"
    layout = FRONT_LAYOUT.replace('"{{ card.title }}"', f'"{doubling}{{{{ card.title }}}}"')
    found = errors(tmp_path, "build", layout_yaml=layout)
    assert found[0].endswith("template refused: joined text is larger than the limit of template output "
                             "(100000 characters)"), found


def test_printf_width_and_lipsum(tmp_path):
    layout = FRONT_LAYOUT.replace('"{{ card.title }}"', "\"{{ '%0100000000d' % 1 }}\"").replace(
        '"{{ card.text }}"', '"{{ lipsum(100000) }}"')
    found = errors(tmp_path, "build", layout_yaml=layout)
    assert any(line.endswith("template refused: '%' with a width larger than the limit of repetition (100000)")
               for line in found), found
    assert any(line.endswith("template error: 'lipsum' is undefined") for line in found), found
