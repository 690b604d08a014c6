"""``stated_elsewhere``: a value checked against the data counts as a check of the book only when the book states
the fact a second time.

Properties:
- the coverage counts the values compared with the data apart, by whether the example names the book's second
  statement; naming it on a value the engine recomputes changes nothing (the engine's check does not rest on a
  field typed from the same sentence);
- the text and Markdown reports carry the split;
- `forge check` refuses a key the example does not state, and a "second" statement on the example's own line,
  each with the file, line and column and exit status 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA, forge_run

from forge.loader import load
from forge.model import Game
from forge.verifier import render_findings, verify
from forge.verifier.report import coverage

UKRAINE = DATA / "ukraine_43.yaml"


def _with(game: Game, marks: dict[str, dict[str, int]]) -> Game:
    """The game with every example's ``stated_elsewhere`` replaced by ``marks`` (none where not named)."""
    examples = [ex.model_copy(update={"stated_elsewhere": marks.get(ex.id, {})}) for ex in game.examples]
    return game.model_copy(update={"examples": examples})


def _statuses(game: Game) -> dict[tuple[str, str], str]:
    return {(c.example, c.key): c.status for c in verify(game).claims}


def test_a_value_compared_with_the_data_counts_as_twice_only_when_the_second_statement_is_named() -> None:
    game = _with(load(UKRAINE), {})
    status = _statuses(game)
    data_keys = sorted(k for k, s in status.items() if s == "data")
    engine_keys = sorted(k for k, s in status.items() if s == "engine")
    assert data_keys
    assert engine_keys
    none = coverage(verify(game).claims)
    assert none["data_twice"] == 0
    assert none["data"] == len(data_keys)

    (ex1, key1), (ex2, key2) = data_keys[0], data_keys[-1]
    (ex3, key3) = engine_keys[0]
    marks: dict[str, dict[str, int]] = {}
    for ex, key in ((ex1, key1), (ex2, key2), (ex3, key3)):
        marks.setdefault(ex, {})[key] = 99_999
    marked = verify(_with(game, marks))
    cv = coverage(marked.claims)
    assert cv["data_twice"] == 2  # the engine-checked key adds nothing
    assert cv["data"] == none["data"]  # the split changes no total
    assert cv["percent"] == none["percent"]
    twice = {(c.example, c.key) for c in marked.claims if c.twice}
    assert twice == {(ex1, key1), (ex2, key2)}

    text = render_findings(marked, "text")
    assert f"{cv['data']} against the data (2 stated twice in the book)" in text
    md = render_findings(marked, "markdown")
    once = cv["data"] - 2
    assert f"{cv['data']} compared with the encoded data (2 stated twice in the book; {once} stated once" in md
    assert f"| {cv['engine']} | 2 | {once} | {cv['arithmetic']} |" in md


FERRY = DATA / "ferry_point.yaml"
ANCHOR = '    states: {attack: 7, defense: 3, odds: "2:1", column: "1:1"}\n'


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("    stated_elsewhere: {frobs: 12}\n", "'frobs' is not a value this example states"),
        ("    source_line: 40\n    stated_elsewhere: {odds: 40}\n", "line 40 is the example's own source_line"),
    ],
)
def test_check_refuses_a_second_statement_that_is_not_one(tmp_path: Path, extra: str, expected: str) -> None:
    text = FERRY.read_text("utf-8")
    assert text.count(ANCHOR) == 1
    bad = tmp_path / "g.yaml"
    bad.write_text(text.replace(ANCHOR, ANCHOR + extra), "utf-8")
    r = forge_run("check", str(bad))
    assert r.returncode == 2, r.stderr
    line = next(i for i, ln in enumerate(bad.read_text("utf-8").splitlines(), 1) if "stated_elsewhere" in ln)
    assert f"g.yaml:{line}:" in r.stderr
    assert expected in r.stderr
    assert "Traceback" not in r.stderr


AUDIT = DATA.parent / "docs" / "errata" / "stated_twice_audit.tsv"


@pytest.mark.parametrize(
    "game_file", ["escape_from_hells_gate", "first_panzer_army", "tabletop_hells_gate", "ukraine_43"]
)
def test_every_value_compared_with_the_data_was_audited(game_file: str) -> None:
    """The hand audit (docs/errata/stated_twice_audit.tsv) has a row for every value compared with the data, and
    its verdict and line are the data's: a new comparison with the data must be audited before it counts."""
    rows = {}
    for line in AUDIT.read_text("utf-8").splitlines()[1:]:
        game, ex, key, verdict, other, _reason = line.split("\t")
        if game == f"{game_file}.yaml":
            rows[(ex, key)] = (verdict, other)
    game = load(DATA / f"{game_file}.yaml")
    stated = {ex.id: ex.stated_elsewhere for ex in game.examples}
    data = [c for c in verify(game).claims if c.status == "data"]
    assert data
    for c in data:
        assert (c.example, c.key) in rows, f"{c.example}.{c.key} is compared with the data but was not audited"
        verdict, other = rows[(c.example, c.key)]
        want = ("TWICE", str(stated[c.example][c.key])) if c.twice else ("ONCE", "")
        assert (verdict, other) == want, f"{c.example}.{c.key}: the audit says {verdict} {other}"
