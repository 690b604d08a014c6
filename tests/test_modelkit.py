"""The model's fast path (msgspec, forge.modelkit) against its pydantic mirror (forge.modelmirror), which reads data
as forge.model's pydantic classes did: whatever the fast path accepts, the mirror accepts, and reads the same."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forge import model as m
from forge import modelkit
from forge.loader import iter_paths, parse_yaml
from forge.modelmirror import mirror_of
from strategies import examples

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "data").glob("*.yaml"))
DATA = {p.stem: parse_yaml(p.read_text(encoding="utf-8"), str(p)).data for p in GAMES}


def fast(data: Any) -> m.Game | None:
    """The fast path alone: the Game, or None where it refuses (and the mirror would be asked)."""
    try:
        fn = modelkit._compile(m.Game)
        return msgspec.convert(fn(data) if fn else data, m.Game)
    except (msgspec.ValidationError, modelkit._Slow, ValueError, TypeError):
        return None


def slow(data: Any) -> m.Game | None:
    """The mirror's reading, as Structs (None where pydantic refuses the data)."""
    from pydantic import ValidationError

    try:
        checked = mirror_of(m.Game).model_validate(data)
    except ValidationError:
        return None
    got = modelkit.from_mirror(checked)
    assert isinstance(got, m.Game)
    return got


def same(a: m.Game, b: m.Game) -> None:
    # repr tells 2 from 2.0 and a text from an enumeration member's value; == would not
    assert repr(a) == repr(b)
    assert [u.__dict__.get("_form") for u in a.units] == [u.__dict__.get("_form") for u in b.units]


@pytest.mark.parametrize("name", sorted(DATA))
def test_every_game_takes_the_fast_path_and_reads_as_pydantic_reads_it(name: str) -> None:
    data = DATA[name]
    got = fast(data)
    assert got is not None, f"{name} fell back to the mirror: the fast path is not taken by a shipped game"
    want = slow(data)
    assert want is not None
    same(got, want)
    assert m.Game.model_validate(data) == got


def test_the_mirror_refuses_with_every_problem_the_fast_path_stops_at() -> None:
    from pydantic import ValidationError

    data = copy.deepcopy(DATA["hells_gate"])
    data["units"][0]["stepz"] = 1
    data["map"]["grid"]["columns"] = "many"
    assert fast(data) is None
    with pytest.raises(ValidationError) as info:
        m.Game.model_validate(data)
    assert {e["type"] for e in info.value.errors()} >= {"extra_forbidden", "int_parsing"}


_VALUES = st.one_of(
    st.sampled_from(
        [
            "unknown",
            {"unknown": ""},
            {"unknown": "why"},
            "",
            "5",
            "5_0",
            "d6",
            "2d6",
            "d0",
            "1in",
            "11x17in",
            "x",
            "a\n",
            "A",
            "#ffffff",
            "printed",
            "prohibited",
            "all",
            "up",
            "single",
            "hex",
            "1/2",
            "3:1",
            "7.2",
            True,
            False,
            None,
            [],
            {},
            ["x"],
            [1, 2],
            [["1/1"]],
            {"x": 1},
            float("nan"),
            float("inf"),
            10**30,
        ]
    ),
    st.integers(min_value=-3, max_value=12_000),
    st.floats(min_value=-2, max_value=12_000, allow_nan=False),
    st.text(max_size=4),
)


def _paths(data: Any) -> list[tuple[Any, ...]]:
    return [p for p, _ in iter_paths(data) if p]


PATHS = {name: _paths(data) for name, data in DATA.items()}
LEAVES = {name: [p for p, v in iter_paths(data) if p and not isinstance(v, dict | list)] for name, data in DATA.items()}


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    top = copy.deepcopy(data)
    node = top
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return top


def _related(v: Any) -> list[Any]:
    """Values close to ``v``, the ones a type's edge cases are made of (a text with a line break after it, a number
    as text, a whole number as a float ...)."""
    out: list[Any] = [[v], {"x": v}]
    if isinstance(v, str):
        out += [v + "\n", v.upper(), v + " ", "_" + v, v[:-1], v * 40, 5 if v else "", f"{v}_0"]
    if isinstance(v, bool):
        out += [int(v), str(v).lower(), "yes"]
    elif isinstance(v, int | float):
        out += [str(v), float(v), int(v), -v, v + 0.5, True, v * 10_000, f"{v}_0"]
    return out


@settings(max_examples=examples(100, thorough=400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(DATA)),
    pick=st.integers(min_value=0),
    value=_VALUES,
    key=st.booleans(),
    near=st.none() | st.integers(min_value=0, max_value=20),
)
def test_whatever_the_fast_path_accepts_the_mirror_accepts_and_reads_the_same(
    name: str, pick: int, value: Any, key: bool, near: int | None
) -> None:
    """One value of a shipped game replaced (by a value of the pool, or one close to the value that was there), or
    a key added beside it: the fast path may refuse what pydantic accepts (the mirror then reads it), never the
    other way round, and never reads a value differently."""
    paths = PATHS[name]
    path = paths[pick % len(paths)]
    if near is not None:
        path = LEAVES[name][pick % len(LEAVES[name])]
        close = _related(_get(DATA[name], path))
        value = close[near % len(close)]
    parent: Any = DATA[name]
    for p in path[:-1]:
        parent = parent[p]
    if key and isinstance(value, str) and value and isinstance(parent, dict):
        data = _set(DATA[name], (*path[:-1], value), 1)  # a key beside the others: unknown, or one taken again
    else:
        data = _set(DATA[name], path, value)
    got = fast(data)
    if got is None:
        return
    want = slow(data)
    assert want is not None, f"the fast path accepted what pydantic refuses: {path} = {value!r}"
    same(got, want)


def test_a_constraint_written_as_a_default_is_refused_when_the_class_is_made() -> None:
    """pydantic's ``x: int = Field(ge=1)`` would make the constraint msgspec's default value: refused at once."""
    from forge.modelkit import Base, Field

    with pytest.raises(TypeError, match=r"Annotated\[type, Field"):

        class Counted(Base):
            n: int = Field(ge=1)


def test_keyword_construction_checks_and_converts_as_pydantic_did() -> None:
    from pydantic import ValidationError

    crt = m.Crt(columns=["-1", "0"], rows=["1"], cells=[["A", "B"]], above={"result": "DE"}, cell_format="code")
    assert isinstance(crt.above, m.AutoResult)
    assert crt.cell_format is m.CellFormat.CODE
    assert m.Unit(id="u", side="a", name="U", label=7, type="infantry", steps=["4"]).label == "7"
    with pytest.raises(ValidationError):
        m.Crt(columns=[], rows=["1"], cells=[])
