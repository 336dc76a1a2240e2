"""Whole-word and regular-expression matching in rule expressions, bounded.

    has_word(text, word, case=True, plural=False)
                                 `word` occurs in `text` as a whole word (or words: "de Havilland"),
                                 not inside another word; `plural` also accepts word + s or 's
    words(text)                  the words of a text, in order
    matches(text, pattern)       true if the regular expression finds a match anywhere in `text`
    find_all(text, pattern)      every match: the matched text, or the list of its groups when the
                                 pattern has groups

Patterns come from content, so they are untrusted: a pattern is at most 300 characters, a text at
most 20,000, and each match runs with a time limit (the `regex` module's timeout: a pattern that
backtracks without end is stopped, and the rule reports it instead of hanging the build). A
pattern that does not compile is an error naming the pattern.
"""
from __future__ import annotations

from functools import lru_cache

from ..limits import MAX_PATTERN_CHARS as MAX_PATTERN, MAX_REGEX_SECONDS as TIMEOUT

MAX_TEXT = 20_000


@lru_cache(maxsize=None)
def _regex():
    """The `regex` module, imported by the first rule that matches text (most games have none)."""
    import regex
    return regex


def _words():
    return _compile(r"[\w][\w'’.-]*(?<![.'’-])")


@lru_cache(maxsize=512)
def _compile(pattern: str, flags: int = 0):
    if not isinstance(pattern, str):
        raise TypeError(f"a pattern must be text, not {type(pattern).__name__}")
    if len(pattern) > MAX_PATTERN:
        raise ValueError(f"pattern of {len(pattern)} characters (at most {MAX_PATTERN})")
    try:
        regex = _regex()
        return regex.compile(pattern, flags | regex.VERSION0)
    except _regex().error as exc:
        raise ValueError(f"pattern {pattern!r} does not compile: {exc}") from None


def _text(text) -> str:
    if text is None:
        return ""
    if not isinstance(text, str):
        raise TypeError(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ValueError(f"text of {len(text)} characters (at most {MAX_TEXT} for pattern matching)")
    return text


def _run(method, pattern, text):
    try:
        return method(text, timeout=TIMEOUT)
    except TimeoutError:
        raise ValueError(f"pattern {pattern.pattern!r} took more than {TIMEOUT:g} s on a text of "
                         f"{len(text)} characters; simplify it (nested repetition backtracks)") from None


def h_has_word(text, word, case=True, plural=False):
    text = _text(text)
    if not word:
        return False
    plural = bool(plural)
    word = str(word)
    case = bool(case)
    pattern = _word_pattern(word, plural, case)
    if case and word not in text:  # the pattern is the word itself between boundaries: no search needed
        return False
    return _run(pattern.search, pattern, text) is not None


@lru_cache(maxsize=1024)
def _word_pattern(word: str, plural: bool, case: bool):
    """The whole-word pattern of has_word (and of the comparison 'word in'): a rule tests the same
    few words against every card."""
    tail = r"(?:'?s)?" if plural else ""
    regex = _regex()
    return _compile(r"(?<![\w-])" + regex.escape(word) + tail + r"(?![\w-])", 0 if case else regex.IGNORECASE)


def h_words(text):
    text = _text(text)
    words = _words()
    return [m.group(0) for m in _run(lambda t, timeout: list(words.finditer(t, timeout=timeout)), words, text)]


def h_matches(text, pattern):
    text = _text(text)
    compiled = _compile(pattern)
    return _run(compiled.search, compiled, text) is not None


def h_find_all(text, pattern):
    text = _text(text)
    compiled = _compile(pattern)
    found = _run(lambda t, timeout: list(compiled.finditer(t, timeout=timeout)), compiled, text)
    if compiled.groups:
        return [list(m.groups()) for m in found]
    return [m.group(0) for m in found]


TEXT_HELPERS = {"has_word": h_has_word, "words": h_words, "matches": h_matches, "find_all": h_find_all}
