"""Messages in the format's words, not a library's (issue 25, item 33): pydantic's and PyYAML's wording, raw
patterns, an alias bomb that is not one, ordinals; and YAML 1.2's reading of ``5_0`` and ``1e1`` kept as documented
(docs/FORMAT.md)."""

from __future__ import annotations

import unicodedata

import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from forge.errors import LoadError
from forge.loader import loads

FP = (DATA / "ferry_point.yaml").read_text(encoding="utf-8")
LIBRARY_WORDS = ("Input should be", "unable to parse", "String should match", "^[a-z0-9]", "pattern '")


def problems(text: str) -> list[str]:
    try:
        loads(text, "game.yaml")
    except LoadError as e:
        return [str(p) for p in e.problems]
    return []


def _one(text: str) -> str:
    (msg,) = problems(text)
    assert not any(w in msg for w in LIBRARY_WORDS), msg
    return msg


def test_a_word_where_a_whole_number_goes() -> None:
    msg = _one(FP.replace("columns: 7,", "columns: twelve,", 1))
    assert "map.grid.columns: expected a whole number, got 'twelve'" in msg
    assert "expected a whole number, got 1.5" in _one(FP.replace("columns: 7,", "columns: 1.5,", 1))


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        ("f\u0435rry", "U+0435 CYRILLIC SMALL LETTER IE"),
        (unicodedata.normalize("NFD", "f\u00e9rry"), "U+0301 COMBINING ACUTE ACCENT"),
        ("\uff46erry", "U+FF46 FULLWIDTH LATIN SMALL LETTER F"),
        ("Ferry", "U+0046 LATIN CAPITAL LETTER F"),
        ("_ferry", "U+005F LOW LINE"),
    ],
)
def test_an_id_names_the_character_it_refuses(bad: str, code: str) -> None:
    msg = _one(FP.replace("id: ferry_point", f"id: {bad}", 1))
    assert "game.id: " in msg
    assert code in msg
    assert "not allowed in an id (expected lowercase ASCII letters a-z" in msg


_ID_OK = set("abcdefghijklmnopqrstuvwxyz0123456789_.-")


@settings(max_examples=40, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(sorted(_ID_OK - set("_.-"))), min_size=1, max_size=6),
    st.characters(
        exclude_categories=("Cs", "Cc", "Zl", "Zp", "Zs"), exclude_characters=_ID_OK | set("#\"'{}[],:&*!|>%@`?\\")
    ),
)
def test_property_the_first_character_an_id_refuses_is_named(head: str, ch: str) -> None:
    """Property: an id with one character it does not allow names that character's code point, whatever it is."""
    found = problems(FP.replace("id: ferry_point", f'id: "{head}{ch}x"', 1))
    ids = [p for p in found if "game.id: " in p]
    if not ids:  # a character YAML itself refuses, or one the loader refuses as unprintable: not this message
        assert found
        return
    assert f"U+{ord(ch):04X}" in ids[0]
    assert f"character {len(head) + 1}," in ids[0]


def test_a_fullwidth_colon_is_pointed_at() -> None:
    for line in ("  id\uff1a ferry_point", "  id\uff1aferry_point"):
        msg = _one(FP.replace("  id: ferry_point", line, 1))
        assert "U+FF1A FULLWIDTH COLON" in msg
        assert "line 12, column 5" in msg


def test_a_large_file_without_aliases_is_not_called_an_alias_bomb() -> None:
    big = "a: [" + "0, " * 200_001 + "0]\n"
    msg = _one(big)
    assert "alias bomb" not in msg
    assert "holds more than 200,000 values" in msg
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 7)]
    assert "alias bomb" in _one("\n".join(lines) + "\n")


def test_a_turn_out_of_order_gets_its_ordinal() -> None:
    msg = _one(FP.replace("    - {number: 2}\n", "    - {number: 7}\n", 1))
    assert "turn 7 is listed 2nd" in msg
    msg = _one(FP.replace("    - {number: 3}\n", "    - {number: 9}\n", 1))
    assert "turn 9 is listed 3rd" in msg


def test_underscores_are_not_digits_where_a_number_goes() -> None:
    msg = _one(FP.replace("columns: 7,", "columns: 5_0,", 1))
    assert "map.grid.columns: '5_0' is text in YAML 1.2, not a number" in msg
    assert "e.g. 50" in msg
    # A text field keeps such a value as text.
    game = loads(FP.replace("  title: Ferry Point", "  title: 5_0", 1), "game.yaml")
    assert game.game.title == "5_0"


def test_1e1_is_the_number_ten() -> None:
    game = loads(FP.replace("columns: 7,", "columns: 1e1,", 1).replace("sheet:", "# sheet:", 1), "game.yaml")
    assert game.map.grid.columns == 10


def test_a_colon_look_alike_inside_a_key_is_pointed_at() -> None:
    msg = "\n".join(problems(FP.replace("    - {number: 2}\n", "    - {number\uff1a 2}\n", 1)))
    assert "unknown key" in msg
    assert "U+FF1A FULLWIDTH COLON" in msg


def test_the_wording_fuzz_cases_are_refused_in_the_formats_words() -> None:
    """bench/fuzz_options.py's wording kind, in process: each case is refused naming what it was made to find, and
    never in a library's words."""
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import fuzz_options
    finally:
        sys.path.remove(str(ROOT / "bench"))
    for name, text, what, expected in fuzz_options.wording_cases(30, seed=25):
        found = "\n".join(problems(text))
        if not found:
            assert not expected, (name, what)  # a fraction or a word some fields take
            continue
        assert not fuzz_options.library_words(found), (what, found)
        assert expected in found, (what, expected, found[:400])
