"""No engine module names a game, a place or a rule number: the rules are data the engine applies.

Every module under forge/rules/ is read whole -- code, strings, docstrings and comments -- and must not contain:

* the id or the title of any game in data/ (or of the starter games in forge/games/),
* the name of any place on their maps (``map.hexes[*].name``, the keys of ``map.places``),
* a rule-number citation: a number with one or two dotted parts such as ``11.3``, ``(7.5)``, ``rule 6.2`` or
  ``7.1.2``, in a comment or a string.  Numbers in code (``0.5``) are numeric literals, not citations: only
  comments and strings are searched for them.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import cache
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "forge" / "rules"
MODULES = sorted(RULES.rglob("*.py"))
PENDING: dict[str, str] = {}
"""Modules known to still name a game, a place or a rule number, with why they are not cleaned here.  Each is an
xfail(strict): once it is clean the test fails until its entry is removed."""
CITATION = re.compile(r"(?<![\w.])\d{1,2}\.\d{1,2}(?:\.\d{1,2})?(?![\w.]*\d)(?!\s*(?:in|mm|pt|cm)\b)")
"""A rule number: 11.3, 7.1.2 (not 0.75in, nor a version such as 3.11.4.2)."""


@cache  # read once per process: the data files are large, and every module's test asks for their names
def _games() -> list[dict]:  # type: ignore[type-arg]
    files = sorted((ROOT / "data").glob("*.yaml")) + sorted((ROOT / "forge" / "games").glob("*.yaml"))
    return [yaml.safe_load(p.read_text(encoding="utf-8")) for p in files]


def forbidden_names() -> set[str]:
    """Every game id and title, and every place and named hex of every map, in data/ and forge/games/."""
    out: set[str] = set()
    for g in _games():
        info = g.get("game", {})
        out |= {str(info[k]) for k in ("id", "title") if info.get(k) and "{" not in str(info[k])}
        mp = g.get("map", {}) or {}
        out |= {str(h["name"]) for h in (mp.get("hexes") or {}).values() if isinstance(h, dict) and h.get("name")}
        out |= {str(k) for k in (mp.get("places") or {})}
    return out


def _comments_and_strings(text: str) -> list[tuple[int, str]]:
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.COMMENT, tokenize.STRING) or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            out.append((tok.start[0], tok.string))
    return out


def names_in(text: str, names: set[str]) -> list[str]:
    """The forbidden names ``text`` contains, as whole words."""
    return sorted(n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text))


def citations_in(text: str) -> list[str]:
    """Rule-number citations in the comments and strings of Python source ``text``, as ``line: citation``."""
    return [f"{line}: {m[0]}" for line, s in _comments_and_strings(text) for m in CITATION.finditer(s)]


def test_the_names_are_found() -> None:
    """The scan sees what it looks for (a test that found nothing in an empty set would pass vacuously)."""
    names = forbidden_names()
    assert {"hells_gate", "Korsun", "Tichonovka", "Cherkassy", "Ferry Point"} <= names
    assert names_in("k = board.names['Korsun']", names) == ["Korsun"]
    assert citations_in("x = 0.5  # see 11.3 and rule (7.1.2)\ny = '6.2: no'\n") == ["1: 11.3", "1: 7.1.2", "2: 6.2"]
    assert citations_in("x = 0.5 * 1.25\ns = '0.75in'\n") == []


@pytest.mark.parametrize(
    "module",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=PENDING[p.name])) if p.name in PENDING else p
        for p in MODULES
    ],
    ids=lambda p: str(p.relative_to(RULES)),
)
def test_no_engine_module_names_a_game_a_place_or_a_rule_number(module: Path) -> None:
    text = module.read_text(encoding="utf-8")
    found = names_in(text, forbidden_names()) + citations_in(text)
    assert not found, f"{module.relative_to(ROOT)} names: {', '.join(found)}"


def weather_states() -> set[str]:
    """Every weather state of every game in data/ and forge/games/ (``turns.weather.states`` and turns' weather)."""
    out: set[str] = set()
    for g in _games():
        turns = g.get("turns") or {}
        out |= {str(w) for w in ((turns.get("weather") or {}).get("states") or [])}
        out |= {str(t["weather"]) for t in turns.get("turns") or [] if isinstance(t, dict) and t.get("weather")}
    return {w for w in out if "{" not in w}


def weather_literals_in(text: str, states: set[str]) -> list[str]:
    """String literals of Python source ``text`` whose whole value is a weather state (``"mud"``), as
    ``line: value``.  Docstrings and messages that mention a state among other words are not literals of it."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type != tokenize.STRING:
            continue
        try:
            value = ast.literal_eval(tok.string)
        except (ValueError, SyntaxError):  # an f-string
            continue
        if isinstance(value, str) and value.strip().lower() in states:
            out.append(f"{tok.start[0]}: {value!r}")
    return out


def test_the_weather_states_are_found() -> None:
    states = weather_states()
    assert {"snow", "mud", "dry", "thaw"} <= states
    assert weather_literals_in('MUD = "mud"\nx = s.weather == MUD\n', states) == ["1: 'mud'"]
    assert weather_literals_in('"""In mud, units move one hex."""\nf"{w} mud"\n', states) == []


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(RULES)))
def test_no_engine_module_tests_a_weather_state_by_name(module: Path) -> None:
    """A weather state is data (``turns.weather``) that conditions and allowances name: an engine module that
    compares the weather with a literal state plays one game's weather."""
    found = weather_literals_in(module.read_text(encoding="utf-8"), weather_states())
    assert not found, f"{module.relative_to(ROOT)} names weather states: {', '.join(found)}"
