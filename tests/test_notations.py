"""Printed notations (``game.strength_format``): single ``6``, attack-defense ``4-3``, attack-defense-movement
``4-3-6`` and strength-movement ``8-4``, each number bare, bracketed ``[6]``, in parentheses ``(4)`` or in a colour
``red:8``.

Properties: every generated face reads back as itself (``str(Strength.parse(x)) == x``); a unit's movement
allowance is the number its face prints and ``mp: printed`` finds it; the counters print each face as written
(read back from the PDF); ``forge check`` refuses a face that is not in the game's notation, located; a claim about
what a unit's counter prints is checked against its data.
"""

from __future__ import annotations

import io
import re
from fractions import Fraction
from pathlib import Path

import pypdf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from forge import model as m
from forge.builder import BuildOptions
from forge.errors import LoadError
from forge.loader import loads
from forge.notation import PRINT_COLOURS, STRENGTH_FORMS, Figure, Strength
from forge.render import counters, handout
from forge.rules.kit import movement as mk
from forge.verifier import examples as vx

FERRY = Path(__file__).parent.parent / "data" / "ferry_point.yaml"

# ------------------------------------------------------------------------------------------------ notation
numbers = st.one_of(st.none(), st.integers(0, 10**12 - 1))
figures = st.builds(
    Figure,
    numbers,
    st.sampled_from(["", "[", "("]),
    st.one_of(st.none(), st.sampled_from(sorted(PRINT_COLOURS)), st.just("#1a2B3c")),
)


@st.composite
def faces(draw: st.DrawFn) -> tuple[str, str]:
    """A face in some notation, as text, and the notation."""
    form = draw(st.sampled_from(sorted(STRENGTH_FORMS)))
    figs = [draw(figures) for _ in STRENGTH_FORMS[form]]
    return "-".join(str(f) for f in figs), form


@given(faces())
def test_face_round_trip(face: tuple[str, str]) -> None:
    """str(parse(x)) == x for a face in its notation, and the parsed values are the printed numbers by role."""
    text, form = face
    s = Strength.parse(text, form)
    assert str(s) == text
    assert Strength.parse(str(s), form) == s
    roles = STRENGTH_FORMS[form]
    values = [f.value for f in s.figures]
    assert s.movement == (values[roles.index("movement")] if "movement" in roles else None)
    first = values[0]
    assert s.attack == first
    assert s.defense == (values[1] if roles[:2] == ("attack", "defense") else first)
    assert s.plain() == re.sub(r"(#[0-9a-fA-F]{6}|[a-z]+):", "", text)
    assert "".join(t for t, _ in s.runs()) == s.plain()


@given(faces(), st.sampled_from(sorted(STRENGTH_FORMS)))
def test_face_in_another_notation(face: tuple[str, str], other: str) -> None:
    """A face parses in another notation exactly when that notation prints as many numbers."""
    text, form = face
    if len(STRENGTH_FORMS[other]) == len(STRENGTH_FORMS[form]):
        assert str(Strength.parse(text, other)) == text
    else:
        with pytest.raises(ValueError, match=f"in the {other} notation"):
            Strength.parse(text, other)


@pytest.mark.parametrize(
    ("text", "form", "attack", "defense", "movement"),
    [
        ("8-4", "strength-movement", 8, 8, 4),
        ("10-4", "strength-movement", 10, 10, 4),
        ("[6]-?", "strength-movement", 6, 6, None),
        ("red:8-(4)", "strength-movement", 8, 8, 4),
        ("8-4", "attack-defense", 8, 4, None),
        ("4-3-6", "attack-defense-movement", 4, 3, 6),
        ("(6)", "single", 6, 6, None),
    ],
)
def test_values_by_notation(text: str, form: str, attack: int, defense: int, movement: int | None) -> None:
    s = Strength.parse(text, form)
    assert (s.attack, s.defense, s.movement) == (attack, defense, movement)


@pytest.mark.parametrize("bad", ["[8)-4", "8-4]", "rde:8-4", "8--4", "8-4-", "(8"])
def test_bad_faces(bad: str) -> None:
    with pytest.raises(ValueError, match="strength|printed number|colour"):
        Strength.parse(bad, "strength-movement")


def test_unknown_colour_suggests() -> None:
    with pytest.raises(ValueError, match="did you mean 'red'"):
        Strength.parse("rde:8-4", "strength-movement")


# ------------------------------------------------------------------------------------------------ test games
STEPS: dict[str, dict[str, list[str]]] = {
    "single": {},
    "attack-defense": {
        "blue-1": ["4-3", "2-1"],
        "blue-4": ["[3]-2", "(1)-1"],
        "red-1": ["3-4", "1-2"],
        "red-4": ["red:2-2", "1-1"],
    },
    "attack-defense-movement": {
        "blue-1": ["4-3-6", "2-1-6"],
        "blue-4": ["[3]-2-8", "(1)-1-8"],
        "red-1": ["3-4-5", "1-2-5"],
        "red-4": ["2-2-red:8", "1-1-?"],
    },
    "strength-movement": {
        "blue-1": ["8-4", "4-4"],
        "blue-4": ["[6]-6", "(3)-6"],
        "red-1": ["10-4", "5-4"],
        "red-4": ["red:7-6", "3-?"],
    },
}
"""Faces of a few Ferry Point units in each notation (the others keep single strengths, rewritten to fit)."""


def _fill(step: str, form: str) -> str:
    """A single-strength step of Ferry Point written in ``form``: ``4`` -> ``4-4`` / ``4-4-3`` / ``4-3``."""
    extra = {"single": "", "attack-defense": "-{v}", "attack-defense-movement": "-{v}-3", "strength-movement": "-3"}
    v = step.strip("[]")
    return step + extra[form].format(v=v)


def variant(form: str, steps: dict[str, list[str]] | None = None) -> str:
    """Ferry Point's YAML in notation ``form``: ``STEPS[form]`` for the units it names, the rest rewritten, and
    (where the notation prints one) the printed movement allowance as every unit's."""
    text = FERRY.read_text()
    text = text.replace("strength_format: single", f"strength_format: {form}")
    table = STEPS[form] if steps is None else steps

    def unit(mt: re.Match[str]) -> str:
        uid, old = mt.group(2), mt.group(3)
        olds = [s.strip().strip('"') for s in old.split(",")]
        new = table.get(uid) or [_fill(s, form) for s in olds]
        return mt.group(1) + "[" + ", ".join(f'"{s}"' for s in new) + "]"

    text = re.sub(r"(- \{id: ([\w-]+), side:.*?steps: )\[(.*?)\](?=, (?:setup|entry))", unit, text)
    if "movement" in STRENGTH_FORMS[form]:
        text = re.sub(r"allowances:\n(\s+- \{mp: 2.*\n)(\s+- \{mp: 1.*\n)", r"allowances:\n      - {mp: printed}\n", text)
    return text


def game(form: str, steps: dict[str, list[str]] | None = None) -> m.Game:
    return loads(variant(form, steps), f"{form}.yaml")


@pytest.mark.parametrize("form", sorted(STRENGTH_FORMS))
def test_variants_load(form: str) -> None:
    """The test game loads (and passes forge check's cross-checks) in every notation."""
    assert game(form).game.strength_format.value == form


# ------------------------------------------------------------------------------------------------ refusals
@pytest.mark.parametrize(
    ("form", "face", "expected"),
    [
        ("strength-movement", "8", "'8-4'"),
        ("strength-movement", "4-3-6", "'8-4'"),
        ("attack-defense", "4-3-6", "'4-3'"),
        ("attack-defense-movement", "8-4", "'4-3-6'"),
        ("single", "8-4", "'6'"),
    ],
)
def test_check_refuses_a_face_not_in_the_notation(form: str, face: str, expected: str) -> None:
    """forge check: one located problem at the step, naming the notation and an example of it."""
    text = variant(form, {"red-2": [face]})
    with pytest.raises(LoadError) as info:
        loads(text, "g.yaml")
    problems = [p for p in info.value.problems if "red-2" in text.splitlines()[(p.line or 1) - 1]]
    assert len(problems) == 1, info.value.problems
    p = problems[0]
    assert p.file == "g.yaml" and p.line is not None and p.column is not None
    assert p.path == "units[6].steps[0]"
    assert form in p.message and expected in p.message
    assert text.splitlines()[p.line - 1][p.column - 1 :].startswith(f'"{face}"')


# ------------------------------------------------------------------------------------------------ movement
@pytest.mark.parametrize(
    ("form", "uid", "step", "ma"),
    [
        ("strength-movement", "red-1", 0, 4),
        ("strength-movement", "blue-4", 1, 6),
        ("strength-movement", "red-4", 1, None),
        ("attack-defense-movement", "blue-4", 0, 8),
        ("attack-defense-movement", "red-4", 0, 8),
    ],
)
def test_printed_allowance(form: str, uid: str, step: int, ma: int | None) -> None:
    """``mp: printed`` is the movement allowance the face prints (None where the book leaves it unknown)."""
    g = game(form)
    u = g.unit(uid)
    assert u.strengths()[step].movement == ma
    got = mk.allowance(g, mk.mover(g, u, step=step))
    assert got == (None if ma is None else Fraction(ma))


def test_strength_movement_fights_with_its_one_strength() -> None:
    """In strength-movement, ``8-4`` attacks and defends with 8 (not 8 against 4, as attack-defense reads it)."""
    s = game("strength-movement").unit("blue-1").strengths()[0]
    assert (s.attack, s.defense, s.movement) == (8, 8, 4)
    s = game("attack-defense").unit("blue-1").strengths()[0]
    assert (s.attack, s.defense, s.movement) == (4, 3, None)
