"""forge.verifier.ex_sequence: positions carried through a worked sequence (examples that ``follow`` each other).

Properties:
- First Panzer Army's worked turn retreats 9 Mech to 2019 and later puts it in 1919: the carried position is
  reported as an error that names the step it comes from (book lines 979 and 995);
- changing the earlier step's hex changes the finding, and the metamorphic contract sees the change as named;
- a step in between that moves the unit without saying where it ends leaves the position unchecked, with its
  reason, and so does an example that follows nothing;
- ``follows`` must name an earlier example: `forge check` says where, with exit status 2.
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache

from forge.loader import load, loads
from forge.model import Game
from forge.verifier import sites as S
from forge.verifier import verify
from forge.verifier.ex_sequence import carried_position
from conftest import DATA

FPA = DATA / "first_panzer_army.yaml"


@cache
def text() -> str:
    return FPA.read_text(encoding="utf-8")


def planted(*edits: tuple[str, str]) -> Game:
    t = text()
    for old, new in edits:
        assert t.count(old) == 1, old
        t = t.replace(old, new)
    return loads(t, "first_panzer_army.yaml")


def claim(game: Game, example: str, key: str) -> tuple[str, str, str]:
    c = next(c for c in verify(game).claims if (c.example, c.key) == (example, key))
    return c.status, c.reason, c.why


def test_the_worked_turn_contradicts_itself_on_where_9_mech_stands() -> None:
    game = load(FPA)
    found = [f for f in verify(game) if f.ref == "ex-t-move-16pz" and f.extra.get("key") == "enemy_hex"]
    assert [(f.kind, f.stated, f.computed) for f in found] == [("example-mismatch", "1919", "2019")]
    assert "ex-t-attack1-result retreats sov-9mech to 2019" in found[0].message
    assert "example:ex-t-attack1-result:to" in found[0].extra["uses"].split(", ")
    step, key, where = carried_position(game, next(e for e in game.examples if e.id == "ex-t-move-16pz"), "sov-9mech")
    assert (step.id, key, where) == ("ex-t-attack1-result", "to", "2019")


def test_the_earlier_step_decides_so_changing_it_changes_the_finding() -> None:
    agreeing = planted(('states: {result: DR, to: "2019"', 'states: {result: DR, to: "1919"'))
    assert claim(agreeing, "ex-t-move-16pz", "enemy_hex")[0] == "engine"
    b = S.run(load(FPA))
    site = next(s for s in S.sites(b.game) if s.name == "example:ex-t-attack1-result:to")
    o = S.outcome(b, site, "1919")
    assert o.category == "detected", o.why
    assert any(f.ref == "ex-t-move-16pz" for f in o.gone)


def test_a_step_that_moves_the_unit_without_an_end_leaves_it_unknown() -> None:
    game = planted(
        ("given: {units: [ger-208id, ger-100j]}", "given: {units: [ger-208id, ger-100j, sov-9mech]}"),
    )
    status, reason, why = claim(game, "ex-t-move-16pz", "enemy_hex")
    assert (status, why) == ("unchecked", "book")
    assert "ex-t-move-kg moves sov-9mech without saying where it ends" in reason


def test_an_example_that_follows_nothing_is_not_placed() -> None:
    game = planted(("    follows: ex-t-move-kg\n", ""))
    status, reason, why = claim(game, "ex-t-move-16pz", "enemy_hex")
    assert (status, why) == ("unchecked", "engine")
    assert "follows" in reason


def test_follows_must_name_an_earlier_example(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "g.yaml"
    bad.write_text(text().replace("    follows: ex-t-move-kg\n", "    follows: ex-t-attack2-odds\n"), "utf-8")
    r = subprocess.run([sys.executable, "-m", "forge", "check", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2
    line = next(i for i, ln in enumerate(bad.read_text("utf-8").splitlines(), 1) if "follows: ex-t-attack2-odds" in ln)
    assert f"g.yaml:{line}:" in r.stderr
    assert "'ex-t-attack2-odds'" in r.stderr
    assert "earlier example" in r.stderr
    assert "Traceback" not in r.stderr
