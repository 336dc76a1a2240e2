"""Templates from content run sandboxed: no internals, no mutation, no memory bombs."""
import pytest

from cardforge.layout.templates import Template, TemplateFailure


@pytest.mark.parametrize("source, message", [
    ("{{ 'x' * 10**9 }}", "template refused: repeated text or list is larger than the limit of repetition (100000)"),
    ("{{ 9 ** 999 }}", "template refused: exponent larger than the limit of 64"),
    ("{{ card.__class__.__mro__ }}", "template not allowed"),
    ("{{ card.update({'a': 1}) }}", "template not allowed"),
])
def test_unsafe_templates_are_refused(source, message):
    with pytest.raises(TemplateFailure) as info:
        Template(source).render({"card": {"title": "A"}})
    assert info.value.message.startswith(message)


def test_unset_optional_field_prints_nothing():
    assert Template("[{{ card.note }}]").render({"card": {"note": None}}) == "[]"
