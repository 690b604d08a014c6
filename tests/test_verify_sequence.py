"""forge.verifier.ex_sequence: positions carried through a worked sequence (examples that ``follow`` each other).

Properties:
- First Panzer Army's worked turn retreats 9 Mech to 2019 (book line 979); the later sentence naming 1919 (995) reads
  two ways, and the carried position disagrees only with the reading that puts 9 Mech there: a warning naming the
  step it comes from, not an error;
- changing the earlier step's hex changes the finding, and the metamorphic contract sees the change as named;
- a step in between that moves the unit without saying where it ends leaves the position unchecked, with its
  reason, and so does an example that follows nothing;
- ``follows`` must name an earlier example: `forge check` says where, with exit status 2.
"""

from __future__ import annotations

from functools import cache

from forge.loader import load, loads
from forge.model import Game
from forge.verifier import sites as S
from forge.verifier import verify
from forge.verifier.ex_sequence import carried_position
from conftest import DATA, forge_run

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


def test_9_mech_is_carried_to_2019_and_the_1919_reading_is_no_error() -> None:
    """The first attack retreats 9 Mech to 2019 (L979) and no later step moves it; L995's "in hex 1919" is where the
    16th Panzer stops (rule 7.2) on one reading, 9 Mech's hex on the other: only the second disagrees, so the
    sentence is a warning that quotes both readings, never an error (an earlier report called it an erratum)."""
    game = load(FPA)
    step, key, where = carried_position(game, next(e for e in game.examples if e.id == "ex-t-move-16pz"), "sov-9mech")
    assert (step.id, key, where) == ("ex-t-attack1-result", "to", "2019")
    found = [f for f in verify(game) if f.ref == "ex-t-move-16pz"]
    assert not [f for f in found if f.kind == "example-mismatch"]
    (w,) = [f for f in found if f.kind == "example-reading"]
    assert "enemy_hex = 1919, the rules give 2019" in w.message
    assert "ex-t-attack1-result retreats sov-9mech to 2019" in w.message
    assert "enemy zone to enemy zone" in w.message  # 2018 and 1918 both touch 1919: reading 2 breaks 7.2 too


def test_the_earlier_step_decides_so_changing_it_changes_the_finding() -> None:
    agreeing = planted(('states: {result: DR, to: "2019"', 'states: {result: DR, to: "1919"'))
    w = next(f for f in verify(agreeing) if f.kind == "example-reading")
    assert "enemy_hex" not in w.message  # reading 2 now disagrees on its move alone
    b = S.run(load(FPA))
    site = next(s for s in S.sites(b.game) if s.name == "example:ex-t-attack1-result:to")
    o = S.outcome(b, site, "1919")
    assert o.category == "detected", o.why
    assert any(f.ref == "ex-t-move-16pz" for f in o.gone)


ODDS2 = (
    "given: {attackers: [ger-16pz, ger-509, ger-371id, ger-208id, ger-11pz], defenders: [sov-9mech], attack: 13, "
    "defense: 12}"
)


def asking(enemy: str) -> tuple[str, str]:
    """An edit that names ``enemy`` in the second attack's odds step (the next edit states its ``enemy_hex``)."""
    return (ODDS2 + '\n    # L1002', ODDS2.replace("}", f", enemy: {enemy}}}") + '\n    # L1002')


def planted_ask(enemy: str, hex_: str, *edits: tuple[str, str]) -> Game:
    return planted(
        asking(enemy),
        ('    states: {column: "1:1"}\n    doubt: >-\n      9 Mech defended',
         f'    states: {{column: "1:1", enemy_hex: "{hex_}"}}\n    doubt: >-\n      9 Mech defended'),
        *edits,
    )


def test_a_later_step_is_checked_against_the_carried_position() -> None:
    assert claim(planted_ask("sov-9mech", "2019"), "ex-t-attack2-odds", "enemy_hex")[0] == "engine"
    game = planted_ask("sov-9mech", "2020")
    f = next(f for f in verify(game) if f.ref == "ex-t-attack2-odds" and f.extra.get("key") == "enemy_hex")
    assert (f.kind, f.stated, f.computed) == ("example-mismatch", "2020", "2019")


def test_a_step_that_moves_the_unit_without_an_end_leaves_it_unknown() -> None:
    game = planted_ask(
        "sov-9mech",
        "2019",
        ("given: {units: [ger-208id, ger-100j]}", "given: {units: [ger-208id, ger-100j, sov-9mech]}"),
    )
    status, reason, why = claim(game, "ex-t-attack2-odds", "enemy_hex")
    assert (status, why) == ("unchecked", "book")
    assert "ex-t-move-kg moves sov-9mech without saying where it ends" in reason


def test_a_step_whose_readings_end_apart_leaves_it_unknown() -> None:
    """ex-t-move-16pz's readings end the 16th Panzer in 1919 and in 1918: no later step may take either."""
    status, reason, why = claim(planted_ask("ger-16pz", "1919"), "ex-t-attack2-odds", "enemy_hex")
    assert (status, why) == ("unchecked", "book")
    assert "the readings of ex-t-move-16pz put ger-16pz in different hexes" in reason


def test_an_example_that_follows_nothing_is_not_placed() -> None:
    game = planted_ask("sov-9mech", "2019", ("    follows: ex-t-move-16pz\n", ""))
    status, reason, why = claim(game, "ex-t-attack2-odds", "enemy_hex")
    assert (status, why) == ("unchecked", "engine")
    assert "follows" in reason


def test_follows_must_name_an_earlier_example(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "g.yaml"
    bad.write_text(text().replace("    follows: ex-t-move-kg\n", "    follows: ex-t-attack2-odds\n"), "utf-8")
    r = forge_run("check", str(bad))
    assert r.returncode == 2
    line = next(i for i, ln in enumerate(bad.read_text("utf-8").splitlines(), 1) if "follows: ex-t-attack2-odds" in ln)
    assert f"g.yaml:{line}:" in r.stderr
    assert "'ex-t-attack2-odds'" in r.stderr
    assert "earlier example" in r.stderr
    assert "Traceback" not in r.stderr
