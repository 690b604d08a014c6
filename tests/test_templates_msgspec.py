"""The layout templates on msgspec (forge.templates' classes are forge.modelkit Structs): a good template takes the
fast path, and reads as the pydantic mirror (the old pydantic models' behaviour, and a bad file's messages) reads
it; whatever the fast path accepts, the mirror accepts and reads the same."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forge import modelkit
from forge import templates as T
from forge.loader import _decode, iter_paths, parse_yaml
from forge.modelmirror import mirror_of

MODELS = {T.COUNTER_FILE: T.CounterTemplate, T.CARD_FILE: T.CardTemplate}
DATA = {name: parse_yaml(_decode((T.SHIPPED / name).read_bytes(), name), name).data for name in MODELS}
OVERRIDES = {  # per-size overrides of each kind: a number, a part moved to the other edge, a whole number
    "1/2in": {"strength": {"size": 1, "right": 0}, "padding": 0, "label": {"right": 0.1}},
    "3/4in": {"steps": {"y": 0.5, "r": 0.05, "per_row": 3}, "frame": {"inset": 0.1}, "symbol": {"right": 0.2}},
}


def fast(model: type[Any], data: Any) -> Any:
    """The fast path alone: the template, or None where it refuses (and the mirror would be asked)."""
    try:
        fn = modelkit._compile(model)
        return msgspec.convert(fn(data) if fn else data, model)
    except (msgspec.ValidationError, modelkit._Slow, ValueError, TypeError):
        return None


def slow(model: type[Any], data: Any) -> Any:
    """The mirror's reading, as Structs (None where pydantic refuses the data)."""
    from pydantic import ValidationError

    try:
        checked = mirror_of(model).model_validate(data)
    except ValidationError:
        return None
    return modelkit.from_mirror(checked)


def _with_overrides() -> dict[str, Any]:
    data = copy.deepcopy(DATA[T.COUNTER_FILE])
    data["sizes"] = copy.deepcopy(OVERRIDES)
    return data


@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_shipped_templates_take_the_fast_path_and_read_as_pydantic_reads_them(name: str) -> None:
    model = MODELS[name]
    got = fast(model, DATA[name])
    assert got is not None, f"{name} fell back to the mirror"
    want = slow(model, DATA[name])
    assert repr(got) == repr(want)  # repr tells 2 from 2.0
    assert type(got) is model


def test_size_overrides_take_the_fast_path_and_merge_as_the_mirror_reads_them() -> None:
    data = _with_overrides()
    got, want = fast(T.CounterTemplate, data), slow(T.CounterTemplate, data)
    assert got is not None
    assert want is not None
    assert repr(got) == repr(want)
    assert type(got.sizes["1/2in"].strength) is T.TextOverride  # type: ignore[attr-defined]
    assert got.sizes["1/2in"].strength.size == 1.0
    assert type(got.sizes["1/2in"].strength.size) is float
    for size in (*T.SIZES, None):
        assert repr(got.at(size)) == repr(want.at(size)), size
        assert type(got.at(size)) is T.CounterLayout
    assert got.at("3/4in").symbol.x is None
    assert got.at("3/4in").symbol.right == 0.2
    assert got.at("3/4in").steps.per_row == 3


def test_a_number_is_not_text_in_a_template() -> None:
    """``margin: 25`` is refused by both paths, as pydantic refused it before (the game model reads numbers as text;
    the templates do not: ``__text_from_numbers__``)."""
    from pydantic import ValidationError

    data = {**DATA[T.CARD_FILE], "margin": 25}
    assert fast(T.CardTemplate, data) is None
    with pytest.raises(ValidationError) as info:
        mirror_of(T.CardTemplate).model_validate(data)
    assert [e["type"] for e in info.value.errors()] == ["string_type"]  # not "'25' is not a length"


def test_symbol_and_steps_are_placed_like_the_other_parts() -> None:
    """Symbol and Steps (a line, and placed: two parents with fields in pydantic, one in msgspec) check x or right,
    y or bottom, and keep the field order of the old classes (the schema's and the messages' order)."""
    assert T.Symbol.__struct_fields__ == ("line", "min_line_pt", "x", "right", "y", "bottom", "w", "h")
    assert T.Steps.__struct_fields__[:6] == ("line", "min_line_pt", "x", "right", "y", "bottom")
    data = copy.deepcopy(DATA[T.COUNTER_FILE])
    data["symbol"]["right"] = 0.1  # x is given too
    assert fast(T.CounterTemplate, data) is None
    assert slow(T.CounterTemplate, data) is None
    shipped = T.shipped().counter
    assert shipped.symbol.px(100.0) == pytest.approx(100.0 * shipped.symbol.x)


_VALUES = st.sampled_from(
    [0, 1, 2, 0.5, -1, 1e308, 1.5, 12, 13, True, False, None, "", "0.5", "0.5in", "9mm", "abc", "bold", "middle",
     [], [0.5], {}, {"x": 1}, {"size": 0.2}, float("nan"), float("inf")]
)
PATHS = {name: [p for p, _ in iter_paths(data) if p] for name, data in {**DATA, "over": _with_overrides()}.items()}
SOURCES = {**DATA, "over": _with_overrides()}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SOURCES)), pick=st.integers(min_value=0), value=_VALUES, key=st.booleans())
def test_whatever_the_fast_path_accepts_the_mirror_accepts_and_reads_the_same(
    name: str, pick: int, value: Any, key: bool
) -> None:
    """One value of a template replaced, or a key added beside it: the fast path may refuse what pydantic accepts
    (the mirror then reads it), never the other way round, and never reads a value differently."""
    model = T.CardTemplate if name == T.CARD_FILE else T.CounterTemplate
    data = copy.deepcopy(SOURCES[name])
    path = PATHS[name][pick % len(PATHS[name])]
    parent: Any = data
    for p in path[:-1]:
        parent = parent[p]
    if key and isinstance(value, str) and value and isinstance(parent, dict):
        parent[value] = 1
    else:
        parent[path[-1]] = value
    got = fast(model, data)
    if got is None:
        return
    want = slow(model, data)
    assert want is not None, f"the fast path accepted what pydantic refuses: {path} = {value!r}"
    assert repr(got) == repr(want)


def test_base_annotations_are_objects_not_text() -> None:
    """msgspec evaluates every class's annotations along its MRO on its first conversion: text there (modelkit is
    ``from __future__ import annotations``) would be compiled again for each model class."""
    from forge.modelkit import Base

    assert Base.__annotations__
    assert not [name for name, tp in Base.__annotations__.items() if isinstance(tp, str)]


@given(st.text(alphabet=st.sampled_from("&<>;agmltp# x\u00e9")))
def test_markup_escapes_as_saxutils_does(text: str) -> None:
    from xml.sax.saxutils import escape, unescape

    from forge import markup

    assert markup.escape(text) == escape(text)
    assert markup.unescape(text) == unescape(text)
    assert markup.unescape(markup.escape(text)) == text
