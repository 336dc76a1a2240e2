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


def test_a_method_printed_without_calling_it_is_an_error_not_a_memory_address():
    with pytest.raises(TemplateFailure) as info:
        Template("{{ card.items }}").render({"card": {"title": "A"}})
    assert info.value.message == "template error: 'items' is a method, not a value: call it with ()"
    assert Template("{{ card.items() | list }}").render({"card": {"title": "A"}}) == "[('title', 'A')]"
