"""Provenance and honest coverage (issue 22, item 2): a recomputed value counts as checked only when the data it is
recomputed from comes from other statements of the book.

Properties:
- a value recomputed from data ``implied_by`` its own example, or typed from the example's own ``source_line``, is
  an echo; from data with another ``source_line``, or implied by another example, it is independent;
- a value compared with a data field is a cross-check when the example names the second statement
  (``stated_elsewhere``), else an echo;
- the three counts add up to the values recomputed in every game, the headline and the Markdown report carry them,
  and the Markdown report lists every echo;
- the known echoes of the seed games are marked, and `forge check` refuses an ``implied_by`` that names nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA, forge_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forge import model as m
from forge.loader import load
from forge.verifier import CHECKS, render_findings, verify
from forge.verifier.core import Context
from forge.verifier.report import coverage, echoes

FERRY = DATA / "ferry_point.yaml"
GAMES = sorted(DATA.glob("*.yaml"))


def _unit(game: m.Game, uid: str, **update: object) -> m.Game:
    units = [u.model_copy(update=update) if u.id == uid else u for u in game.units]
    return game.model_copy(update={"units": units})


def _example(game: m.Game, ex_id: str, **update: object) -> m.Game:
    examples = [ex.model_copy(update=update) if ex.id == ex_id else ex for ex in game.examples]
    return game.model_copy(update={"examples": examples})


def _basis(game: m.Game) -> dict[tuple[str, str], str]:
    return {(c.example, c.key): c.basis for c in verify(game).claims if c.status != "unchecked"}


def _of(bases: dict[tuple[str, str], str], ex_id: str) -> set[str]:
    return {b for (e, _), b in bases.items() if e == ex_id}


@pytest.fixture(scope="module")
def ferry() -> m.Game:
    return load(FERRY)


def test_ferry_point_is_all_independent(ferry: m.Game) -> None:
    assert set(_basis(ferry).values()) == {"independent"}


def test_implied_by_its_own_example_is_an_echo(ferry: m.Game) -> None:
    own = _basis(_unit(ferry, "blue-2", implied_by=["first-attack-odds"]))
    assert _of(own, "first-attack-odds") == {"echo"}
    assert _of(own, "tank-attack") == {"independent"}  # does not read blue-2
    other = _basis(_unit(ferry, "blue-2", implied_by=["tank-attack"]))
    assert _of(other, "first-attack-odds") == {"independent"}  # another example's statement is another statement


def test_source_line_of_the_example_is_an_echo_another_line_is_independent(ferry: m.Game) -> None:
    game = _example(ferry, "first-attack-odds", source_line=40)
    assert _of(_basis(_unit(game, "blue-2", source_line=40)), "first-attack-odds") == {"echo"}
    assert _of(_basis(_unit(game, "blue-2", source_line=41)), "first-attack-odds") == {"independent"}


def test_a_crt_cell_implied_by_its_example_is_an_echo(ferry: m.Game) -> None:
    crt = ferry.combat.crt
    assert crt is not None
    cell = m.ImpliedCell(column="1:1", row="4", example="first-attack-result")
    marked = crt.model_copy(update={"implied_by": [cell]})
    game = ferry.model_copy(update={"combat": ferry.combat.model_copy(update={"crt": marked})})
    assert _of(_basis(game), "first-attack-result") == {"echo"}
    # the table typed from another line than the example's: independent; from the example's own line: echo
    game = _example(ferry, "first-attack-result", source_line=77)
    for line, want in ((76, "independent"), (77, "echo")):
        printed = crt.model_copy(update={"source_line": line})
        g = game.model_copy(update={"combat": game.combat.model_copy(update={"crt": printed})})
        assert _of(_basis(g), "first-attack-result") == {want}


def test_stated_elsewhere_gives_a_cross_check() -> None:
    game = load(DATA / "ukraine_43.yaml")
    claims = verify(game).claims
    data = [c for c in claims if c.status == "data"]
    assert {c.basis for c in data if c.twice} == {"cross-check"}
    once = next(c for c in data if not c.twice and c.example not in {e.id for e in game.examples if e.stated_otherwise})
    assert once.basis == "echo"
    assert "stated_elsewhere" in once.echo
    ex = next(e for e in game.examples if e.id == once.example)
    marked = _example(game, ex.id, stated_elsewhere={**ex.stated_elsewhere, once.key: 99_999})
    assert _basis(marked)[(once.example, once.key)] == "cross-check"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_echoes_are_exactly_the_examples_reading_what_they_implied(ferry: m.Game, data: st.DataObject) -> None:
    ids = [ex.id for ex in ferry.examples]
    chosen = data.draw(st.lists(st.sampled_from(ids), unique=True, max_size=3))
    uid = data.draw(st.sampled_from(["blue-2", "red-1", "blue-1"]))
    ctx = Context(_unit(ferry, uid, implied_by=chosen))
    for check in CHECKS:
        check(ctx)
    reads = {ex for ex, uses in ctx.uses.items() if f"unit:{uid}" in uses}
    assert reads  # every unit drawn is read by some example
    echo = {c.example for c in ctx.claims if c.basis == "echo"}
    assert echo == reads & set(chosen)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_three_counts_add_up(path: Path) -> None:
    found = verify(load(path))
    cv = coverage(found.claims)
    assert cv["independent"] + cv["cross_check"] + cv["echo"] == cv["recomputed"]
    assert cv["checked"] == cv["independent"] + cv["cross_check"]
    assert cv["echo"] == len(echoes(found))
    text = render_findings(found, "text")
    assert (f"echoes ({cv['echo']};" in text) == bool(cv["echo"])
    head = text.splitlines()[0]
    assert f"{cv['independent']} recomputed independently, {cv['cross_check']} cross-checks" in head
    md = render_findings(found, "markdown")
    assert f"| {cv['independent']} | {cv['cross_check']} | {cv['echo']} | {cv['percent_checked']}% |" in md
    assert ("## Echoes" in md) == bool(cv["echo"])


def test_the_known_echoes_are_marked() -> None:
    hg = verify(load(DATA / "hells_gate.yaml"))
    basis = {(c.example, c.key): c.basis for c in hg.claims}
    for key in ("attack", "defense", "column"):  # 389th's 2 and 20th Tank's [2] come from the C6 sentence
        assert basis[("t1-c6-odds", key)] == "echo"
    assert basis[("t1-b7-odds", "attack")] == "echo"
    assert ("scale", "days") not in basis  # no line of the book states 24 days
    for name, ex in (("escape_from_hells_gate", "ex1-bombard-109"), ("ukraine_43", "magnitude-3-at-3-1")):
        found = verify(load(DATA / f"{name}.yaml"))
        assert {c.basis for c in found.claims if c.example == ex and c.status != "unchecked"} == {"echo"}


def test_check_refuses_an_implied_by_that_names_no_example(tmp_path: Path) -> None:
    text = (DATA / "hells_gate.yaml").read_text("utf-8")
    assert text.count("implied_by: t1-d6-odds,") == 1
    bad = tmp_path / "g.yaml"
    bad.write_text(text.replace("implied_by: t1-d6-odds,", "implied_by: t1-d6-odd,"), "utf-8")
    r = forge_run("check", str(bad))
    assert r.returncode == 2, r.stderr
    line = next(i for i, ln in enumerate(bad.read_text("utf-8").splitlines(), 1) if "t1-d6-odd," in ln)
    assert f"g.yaml:{line}:" in r.stderr
    assert "'t1-d6-odd' is not a known example id (did you mean 't1-d6-odds'?)" in r.stderr
    assert "Traceback" not in r.stderr


def test_readme_table_of_the_three_counts_is_each_reports_row() -> None:
    """README's table of independent, cross-check and echo counts has one row per data/ game, the row its
    committed errata report has (tests/test_report.py keeps those current)."""
    import re

    root = DATA.parent
    readme = (root / "README.md").read_text("utf-8")
    head = "| game | independent | cross-check | echo | checked |"
    assert readme.count(head) == 1, "README.md: the table of the three counts is missing"
    lines = readme.split(head, 1)[1].splitlines()[2:]
    table = lines[: next((i for i, ln in enumerate(lines) if not ln.startswith("|")), len(lines))]
    want = []
    for path in GAMES:
        report = (root / "docs" / "errata" / f"{path.stem}.md").read_text("utf-8")
        row = re.search(rf"^\| `{re.escape(path.stem)}` \| \d+ \| \d+ \| \d+ \| [\d.]+% \|$", report, re.M)
        assert row, f"docs/errata/{path.stem}.md has no row of the three counts: regenerate the reports"
        want.append(row.group(0))
    assert table == want, "README.md: copy each errata report's row of the three counts into the table"
