"""forge.glyphs walks a game's printable texts without a generator per text (issue 23, start-up).

Property: ``_foreign_texts`` finds exactly the texts of ``_texts`` that are not all ASCII, in the same order, with
the same paths: on every data/ game (Hell's Gate has non-ASCII names) and on random plain data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge import glyphs
from forge.loader import load
from tests.strategies import examples

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "data").glob("*.yaml"))


def _old(obj: Any) -> list[Any]:
    return [(p, t, k) for p, t, k in glyphs._texts(obj) if not t.isascii()]


def _new(obj: Any) -> list[Any]:
    out: list[Any] = []
    glyphs._foreign_texts(obj, (), out)
    return out


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_game_walks_alike(path: Path) -> None:
    game = load(path)
    assert _new(game) == _old(game)


def test_a_game_with_foreign_texts_finds_them(tmp_path: Path) -> None:
    text = (ROOT / "data" / "hells_gate.yaml").read_text(encoding="utf-8").replace("Tichonovka", "Тихоновка")
    f = tmp_path / "g.yaml"
    f.write_text(text, encoding="utf-8")
    game = load(f)
    found = _new(game)
    assert found == _old(game)
    assert any(t == "Тихоновка" for _, t, _k in found)  # the hex's name


_TEXT = st.text(st.sampled_from(list("ab ÄéЖ😀")), max_size=5)
_DATA = st.recursive(
    _TEXT | st.integers() | st.none() | st.booleans() | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(_TEXT | st.integers(), inner, max_size=4),
    max_leaves=20,
)


@given(_DATA)
@settings(max_examples=examples(200, 2000), deadline=None)
def test_random_data_walks_alike(data: Any) -> None:
    assert _new(data) == _old(data)
