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
from typing import Any

import pypdf
import pypdfium2 as pdfium
import pytest
from hypothesis import given
from hypothesis import strategies as st

from forge import model as m
from forge.builder import BuildOptions
from forge.canvas import SvgCanvas
from forge.errors import LoadError
from forge.loader import loads
from forge.notation import PRINT_COLOURS, STRENGTH_FORMS, Figure, Strength
from forge.render import counters, handout
from forge.rules.kit import movement as mk

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
    with pytest.raises(ValueError, match=r"strength|printed number|colour"):
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
        allowances = r"allowances:\n(\s+- \{mp: 2.*\n)(\s+- \{mp: 1.*\n)"
        text = re.sub(allowances, r"allowances:\n      - {mp: printed}\n", text)
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
    assert p.file == "g.yaml"
    assert p.line is not None
    assert p.column is not None
    assert p.path == "units[6].steps[0]"
    assert form in p.message
    assert expected in p.message
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


# ------------------------------------------------------------------------------------------------ printed
def _sheet_text(pdf: bytes) -> tuple[str, str]:
    """The text of the counter sheets' front pages and back pages, without spaces (calibration pages left out)."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    fronts, backs = [], []
    for page in reader.pages:
        text = page.extract_text()
        (fronts if "FRONTS" in text else backs if "BACKS" in text else []).append(re.sub(r"\s+", "", text))
    return "".join(fronts), "".join(backs)


@pytest.mark.parametrize("size", ["1/2in", "5/8in"])
@pytest.mark.parametrize("form", sorted(STRENGTH_FORMS))
def test_counter_sheet_prints_each_face(form: str, size: str) -> None:
    """Read back from the PDF, every front shows its unit's label and full face, every back its reduced face, as
    the data writes them (marks kept, colours as colours, unknown numbers as write-in boxes)."""
    g = game(form)
    pdf = counters.render(g, BuildOptions(counter_size=size, calibration=False))
    fronts, backs = _sheet_text(pdf)
    for u in g.units:
        for text, step in ((fronts, 0), (backs, 1)):
            face = u.strengths()[step].plain()
            if "?" in face:
                face = face.split("?")[0]  # a write-in box follows
            assert u.label + face in text or face in text, (u.id, step, face)
        if form != "single":
            assert u.strengths()[0].plain() not in ("4", "3", "2")
    for uid, faces in STEPS[form].items():
        full = Strength.parse(faces[0], form).plain()
        assert full in fronts, (uid, full)


class _Texts(SvgCanvas):
    """An SVG canvas that also keeps each text drawn with its fill, and each filled rectangle."""

    def __init__(self, size: float) -> None:
        super().__init__(size, size)
        self.texts: list[tuple[str, str]] = []
        self.rects: list[str] = []
        self.lines: list[str] = []

    def text(self, x: float, y: float, s: str, **kw: Any) -> None:
        self.texts.append((s, kw.get("fill", "#000000")))
        super().text(x, y, s, **kw)

    def rect(self, x: float, y: float, w: float, h: float, **kw: Any) -> None:
        self.rects.append(str(kw.get("fill")))
        super().rect(x, y, w, h, **kw)

    def line(self, x1: float, y1: float, x2: float, y2: float, **kw: Any) -> None:
        self.lines.append(str(kw.get("stroke")))
        super().line(x1, y1, x2, y2, **kw)


def _drawn(face: counters.Face) -> _Texts:
    c = _Texts(45.0)
    counters.draw_face(c, face, s=45.0)
    return c


def test_coloured_value_prints_in_its_colour() -> None:
    """``red:7-6``: the 7 is drawn in the red of PRINT_COLOURS, on a white chip where the counter is red itself;
    the 6 in the counter's ink.  In greyscale the 7 is in the ink, underlined.  A face without colours draws its
    strength as one text, as before."""
    g = game("strength-movement")
    red = PRINT_COLOURS["red"]

    def face(uid: str, mode: counters.Mode = "colour") -> counters.Face:
        return next(q.front for p in counters.pieces(g, mode=mode) for q in p if q.key.startswith(uid + "#"))

    t = face("red-4")
    assert t.strength == "7-6"
    assert t.strength_runs == (("7", red, False), ("-6", None, False))
    c = _drawn(t)
    assert ("7", red) in c.texts
    assert ("-6", t.ink) in c.texts
    assert "#ffffff" in c.rects  # the chip: red on a red counter
    grey = face("red-4", "grey")
    assert grey.strength_runs == (("7", None, True), ("-6", None, False))
    c = _drawn(grey)
    assert ("7", grey.ink) in c.texts
    assert grey.ink in c.lines
    plain = face("red-1")
    assert plain.strength_runs == ()
    assert ("10-4", plain.ink) in _drawn(plain).texts


def test_readback_finds_a_coloured_face_and_its_misprint() -> None:
    """The print check finds ``7-6`` drawn in two colours after the label, and reports a sheet that prints
    another value."""
    from forge.verifier import readback

    g = game("strength-movement")
    pdf = counters.render(g, BuildOptions(calibration=False))
    assert readback.check_counters(g, pdf) == []
    other = game("strength-movement", {**STEPS["strength-movement"], "red-4": ["red:9-6", "3-?"]})
    found = readback.check_counters(other, pdf)
    assert len(found) == 1, found
    assert "9-6" in str(found[0])
    assert "the front of Red Tank Company (T)" in str(found[0])


def test_handout_lists_the_faces() -> None:
    """The class handout's unit listing prints each face as the counter does (``10-4``), and names the
    strength-movement notation in its heading."""
    g = game("strength-movement")
    doc = pdfium.PdfDocument(handout.render(g, BuildOptions()))  # pdfium: the map pages are slow to read with pypdf
    text = "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    assert "Strength-movement by step" in text
    assert "10-4 / 5-4" in text
    assert "[6]-6 / (3)-6" in text
    assert "red:" not in text


# ------------------------------------------------------------------------------------------------ verify
CLAIMS = """
  - id: printed-fg
    rule: "T5"
    kind: claim
    summary: "The Ferry Guard's counter reads 10-4: combat strength 10, movement allowance 4."
    given: {unit: red-1}
    states: {printed: "10-4", attack: 10, defense: 10, movement: 4}
  - id: printed-fg-reduced
    rule: "T5"
    kind: claim
    summary: "Its back reads 5-4."
    given: {unit: red-1, step: reduced}
    states: {printed: "5-4"}
  - id: printed-tank-red
    rule: "T5"
    kind: claim
    summary: "The Red tanks print a red 7 and a 6."
    given: {unit: red-4, step: 0}
    states: {printed: "red:7-6"}
  - id: printed-slowest
    rule: "T7"
    kind: claim
    summary: "The Ferry Guard and the 4th Tanks move together at the Ferry Guard's 4."
    given: {units: [red-1, blue-4]}
    states: {ma: 4}
  - id: printed-misread
    rule: "T5"
    kind: claim
    summary: "The Ferry Guard's counter reads 10-5."
    given: {unit: red-1}
    states: {printed: "10-5"}
"""


def _claims(form: str, claims: str = CLAIMS) -> tuple[dict[tuple[str, str], str], list[object]]:
    from forge.verifier import verify

    g = loads(variant(form) + claims, f"{form}.yaml")
    found = verify(g)
    return {(c.example, c.key): c.status for c in found.claims}, [
        f for f in found if f.ref is not None and f.ref.startswith("printed")
    ]


def test_printed_claims_checked_against_the_unit() -> None:
    """A claim that a unit's counter prints ``10-4`` is compared with the unit's data in the game's notation: the
    agreeing ones pass (marks and colours included); ``10-5`` is a finding naming both values."""
    status, findings = _claims("strength-movement")
    for key in ("printed", "attack", "defense", "movement"):
        assert status[("printed-fg", key)] == "data", key
    assert status[("printed-fg-reduced", "printed")] == "data"
    assert status[("printed-tank-red", "printed")] == "data"
    assert status[("printed-misread", "printed")] == "mismatch"
    assert status[("printed-slowest", "ma")] == "engine"  # the smaller printed movement of the two
    assert len(findings) == 1
    f = findings[0]
    assert f.ref == "printed-misread"
    assert f.stated == "10-5"
    assert f.computed == "10-4"


def test_printed_movement_in_a_notation_without_one() -> None:
    """In attack-defense, ``4-3`` carries no movement allowance: a movement claim is left unchecked (the counter
    prints none), never a finding; the printed face and its numbers are checked."""
    claims = """
  - id: printed-ad
    rule: "T5"
    kind: claim
    summary: "The 1st Rifles read 4-3."
    given: {unit: blue-1}
    states: {printed: "4-3", attack: 4, defense: 3, movement: 6}
"""
    status, findings = _claims("attack-defense", claims)
    assert [f.kind for f in findings] == ["example-unchecked"]  # type: ignore[attr-defined]
    assert "prints no movement allowance" in findings[0].message  # type: ignore[attr-defined]
    assert status[("printed-ad", "printed")] == status[("printed-ad", "attack")] == "data"
    assert status[("printed-ad", "defense")] == "data"
    assert status[("printed-ad", "movement")] == "unchecked"
