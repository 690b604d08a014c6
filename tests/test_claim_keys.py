"""The claim vocabulary (forge/claim_keys.py): every example kind's ``given``/``states`` keys are declared once,
``forge check`` refuses any other key where it is written, the handlers read no undeclared key, and docs/FORMAT.md's
table is the registry's."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from conftest import forge_run
from forge import model as m
from forge.errors import LoadError
from forge.loader import load, loads
from forge import claim_keys as keys
from forge.verifier import crosscheck, ex_movement, ex_zoc_groups, examples
from forge.verifier.core import Context

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
GAMES = sorted(DATA.glob("*.yaml"))


def _edit(name: str, old: str, new: str) -> str:
    text = (DATA / name).read_text("utf-8")
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _refused(text: str) -> str:
    with pytest.raises(LoadError) as e:
        loads(text, "g.yaml")
    return str(e.value)


# ------------------------------------------------------------------------------------------- refusal, located
def test_a_misspelt_states_key_is_refused_where_it_is_with_the_key_that_works() -> None:
    text = _edit(
        "hells_gate.yaml",
        "states: {rivers_crossed: 1, woods_entered: 1, legal: true}",
        "states: {rivers_crossd: 1, woods_entered: 1, legal: true}",
    )
    msg = _refused(text)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "rivers_crossd" in ln)
    col = text.splitlines()[line - 1].index("rivers_crossd") + 1
    assert f"g.yaml:{line}:{col}: examples[" in msg
    assert "states.rivers_crossd: 'rivers_crossd' is not a states key any check of a movement example reads" in msg
    assert "(did you mean 'rivers_crossed'?)" in msg
    assert "legal, " in msg  # the keys that would work are listed
    assert "<terrain>_entered" in msg


def test_mp_for_ma_in_a_movement_example_suggests_ma() -> None:
    text = _edit(
        "hells_gate.yaml",
        "given: {unit: sov-5gtc, path: [B1, C1, C2], turn: 1, enemy_hexes: [B2, D2]}",
        "given: {unit: sov-5gtc, path: [B1, C1, C2], turn: 1, enemy_hexes: [B2, D2], mp: 6}",
    )
    msg = _refused(text)
    assert "given.mp: 'mp' is not a given key any check of a movement example reads (did you mean 'ma'?)" in msg


def test_forge_check_exits_2_with_one_line_per_bad_key(tmp_path: Path) -> None:
    bad = tmp_path / "g.yaml"
    bad.write_text(
        _edit(
            "first_panzer_army.yaml",
            "given: {dice_sum: 1, dice_difference: 2}",
            "given: {dice_sums: 1, dice_difference: 2}",
        ),
        "utf-8",
    )
    r = forge_run("check", str(bad))
    assert r.returncode == 2, r.stderr
    assert "did you mean 'dice_sum'?" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_key_the_example_names_itself_is_accepted_and_only_there() -> None:
    # ukraine's odds-limits names its states keys in data_fields: renaming one side only is refused
    ok = _edit("ukraine_43.yaml", "states: {below_lowest_result: AR,", "states: {below_lowest_result: AR,")
    loads(ok, "g.yaml")
    msg = _refused(_edit("ukraine_43.yaml", "states: {below_lowest_result: AR,", "states: {below_lowest: AR,"))
    assert "'below_lowest' is not a states key any check of a claim example reads" in msg


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_data_game_uses_only_declared_keys(path: Path) -> None:
    game = load(path)  # would raise on a refused key
    for ex in game.examples:
        for part in ("given", "states"):
            for key in getattr(ex, part):
                assert keys.refusal(game, ex, part, str(key)) is None, (ex.id, part, key)


# ------------------------------------------------------------------------------------ the registry is complete
class _Reads(dict[str, Any]):
    """A mapping that records the keys read from it by name."""

    def __init__(self, data: dict[str, Any], seen: set[str]) -> None:
        super().__init__(data)
        self.seen = seen

    def __getitem__(self, k: str) -> Any:
        self.seen.add(k)
        return super().__getitem__(k)

    def get(self, k: str, default: Any = None) -> Any:
        self.seen.add(k)
        return super().get(k, default)

    def __contains__(self, k: object) -> bool:
        self.seen.add(str(k))
        return super().__contains__(k)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_key_a_handler_reads_is_declared(path: Path) -> None:
    """Run every check over the game's examples, recording the keys read by name: each is declared for its kind
    (or named by the example itself), so a key a handler starts to read cannot be refused or go undocumented."""
    game = load(path)
    seen: dict[tuple[str, str], set[str]] = {}
    for ex in game.examples:
        for part in ("given", "states"):
            s = seen.setdefault((ex.id, part), set())
            msgspec.structs.force_setattr(ex, part, _Reads(dict(getattr(ex, part)), s))
    ctx = Context(game)
    examples.check_examples(ctx)
    crosscheck.check_crosscheck(ctx)
    for ex in game.examples:
        for part in ("given", "states"):
            ok = keys.accepted(game, ex, part)
            undeclared = sorted(seen[(ex.id, part)] - ok)
            assert not undeclared, f"{ex.id} ({ex.kind.value}): {part} keys read but not declared: {undeclared}"


def _literals() -> dict[str, set[str]]:
    """Keys the handlers name literally: ``acc.given("x")``/``acc.has("x")`` (given), ``acc.check("x", ...)``/
    ``acc.skip("x", ...)`` (states)."""
    out: dict[str, set[str]] = {"given": set(), "states": set()}
    for f in sorted((ROOT / "forge" / "verifier").glob("*.py")):
        for n in ast.walk(ast.parse(f.read_text("utf-8"))):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.args):
                continue
            if ast.unparse(n.func.value) != "acc" or not isinstance(n.args[0], ast.Constant):
                continue
            if n.func.attr in ("given", "has"):
                out["given"].add(str(n.args[0].value))
            elif n.func.attr in ("check", "skip", "check_value"):
                out["states"].add(str(n.args[0].value))
    return out


def test_every_literal_key_of_a_handler_is_declared_for_some_kind() -> None:
    lit = _literals()
    given = set().union(*keys.GIVEN.values(), *keys.UNMODELLED.values())
    states = set().union(*keys.STATES.values(), *keys.REASONS.values())
    assert lit["given"] - given == set()
    assert lit["states"] - states == set()


def test_the_fixed_reasons_are_the_verifiers() -> None:
    for k in m.ExampleKind:
        want = set(ex_zoc_groups._WHY) | (
            set(ex_movement._WHY) if k in (m.ExampleKind.MOVEMENT, m.ExampleKind.CLAIM) else set()
        )
        assert keys.REASONS[k] == want, k


def test_no_key_is_named_after_a_rule_number() -> None:
    """A general vocabulary: no declared key embeds a rule number (``pool_sizes_15_1``, ``turn_1_dice``)."""
    every = set().union(*keys.GIVEN.values(), *keys.UNMODELLED.values(), *keys.STATES.values())
    assert [k for k in every if re.search(r"(_\d+){2}|^rule_|turn_\d", k)] == []


def test_format_md_table_is_the_registry() -> None:
    text = (ROOT / "docs" / "FORMAT.md").read_text("utf-8")
    start = text.index("<!-- keys-table")
    start = text.index("\n", start) + 1
    end = text.index("<!-- /keys-table -->")
    assert text[start:end] == keys.markdown_table(), "regenerate with forge.claim_keys.markdown_table()"


def test_every_kind_has_keys() -> None:
    for k in m.ExampleKind:
        assert keys.GIVEN[k], k
        assert keys.STATES[k], k


# ------------------------------------------------------------------------------------------------------ places
VELKA = """\
format: 1
game:
  id: tiny
  title: Tiny
  source: test
  scale: {km_per_hex: 20, days_per_turn: 3}
  sides:
    - {id: red, name: Red, colour: "#c8102e"}
    - {id: blue, name: Blue, colour: "#1f4e9c"}
  first_side: red
map:
  grid: {kind: hex, orientation: pointy, parity: even, columns: 6, rows: 6, labels: letter-row}
  sheet: 11x8.5in
  hex_size: 1.2in
  status: complete
  default_terrain: clear
  hexes:
    D3: {name: Velka}
terrain:
  clear: {name: Clear, movement: {all: 1}}
units:
  - {id: r1, side: red, name: 1st Tank Corps, label: "1", type: armour, size: XXX, steps: ["2"], setup: A1}
turns:
  turns: [{number: 1}, {number: 2}]
combat:
  kind: odds
  crt:
    columns: ["1:1", "2:1"]
    rows: ["1", "2", "3", "4", "5", "6"]
    cell_format: hits-normal/all-out
    cells: [["0/0", "0/1"], ["0/0", "0/1"], ["0/1", "1/2"], ["0/1", "1/2"], ["1/2", "1/2"], ["1/2", "2/3"]]
examples:
  - {id: e, rule: "1", kind: KIND, summary: a unit at a town, source_line: 7, EXAMPLE}
"""

SAYINGS = {
    "hex stated": ("given: {unit: r1, at: PLACE}, states: {hex: HEX}", "example-mismatch"),
    "hex given beside it": ("given: {unit: r1, at: PLACE, hex: HEX}", "place-name"),
    "name with its hex": ('given: {unit: r1, at: "PLACE (HEX)"}', "place-name"),
    "both stated": ("given: {unit: r1}, states: {town: PLACE, hex: HEX}", "example-mismatch"),
    "a name with its hex, stated": ('given: {unit: r1}, states: {at: "PLACE (HEX)"}', "example-mismatch"),
}


def _velka(kind: str, saying: str, hex_: str) -> list[Any]:
    from forge.verifier import severity, verify

    text = VELKA.replace("KIND", kind).replace("EXAMPLE", saying.replace("PLACE", "Velka").replace("HEX", hex_))
    return [f for f in verify(loads(text, "tiny.yaml")) if severity(f) != "info"]


@pytest.mark.parametrize("kind", ["hex", "movement", "claim"])
@pytest.mark.parametrize("way", sorted(SAYINGS))
def test_a_place_and_its_hex_are_compared_with_the_map_however_said(kind: str, way: str) -> None:
    """The map has Velka at D3: an example that puts it at E3 is one finding, located (its example, its key);
    at D3 it is none."""
    saying, finding = SAYINGS[way]
    bad = _velka(kind, saying, "E3")
    assert [f.kind for f in bad] == [finding], bad
    f = bad[0]
    assert "e" in (f.ref or "")
    assert "D3" in f.message
    assert "E3" in f.message
    assert f.extra.get("key") in ("hex", "at", "town")
    assert _velka(kind, saying, "D3") == []


# ------------------------------------------------------------------------------- recomputed from the other fields
TRACK = (
    VELKA.replace(
        "turns: [{number: 1}, {number: 2}]",
        "turns: [{number: 1, replacements: {red: 2}}, {number: 2, replacements: {red: 1, blue: 3}}]",
    )
    .replace(
        'steps: ["2"], setup: A1}',
        'steps: ["2"], setup: A1, copies: 3}\n'
        '  - {id: b1, side: blue, name: 2nd Rifle Corps, label: "2", type: infantry, size: XXX, steps: ["1"],'
        " entry: {turn: 2, hex: D3}}\n"
        "markers:\n  - {id: dis, name: Disrupted, front: D, count: 5}",
    )
    .replace("source_line: 7, EXAMPLE}", "EXAMPLE}")
)


def _claims(saying: str) -> dict[str, str]:
    from forge.verifier import verify

    f = verify(loads(TRACK.replace("KIND", "claim").replace("EXAMPLE", saying), "tiny.yaml"))
    return {c.key: c.status for c in f.claims}


@pytest.mark.parametrize(
    ("saying", "good", "bad"),
    [
        ("given: {turn: 2, side: blue}, states: {replacements: N}", "3", "2"),
        ("given: {turn: 1, side: blue}, states: {replacements: N}", "0", "1"),  # none that turn
        ("given: {turn: 2}, states: {replacements: N}", "{red: 1, blue: 3}", "{red: 1, blue: 2}"),
        ("given: {unit: b1}, states: {entry_turn: N}", "2", "1"),
        ("given: {unit: b1}, states: {entry_hex: N}", "D3", "E3"),
        ("given: {unit: b1}, states: {entry_hex: N}", "Velka", "Brody"),  # by the map's name for the hex
        ("given: {unit: r1}, states: {entry_turn: N}", '"sets up (A1)"', "1"),  # on the map from the start
        ("given: {count_of: {counters: {side: red}}}, states: {counters: N}", "3", "4"),  # units x copies
        ("given: {count_of: {counters: {markers: all}}}, states: {counters: N}", "5", "6"),
        ("given: {count_of: {counters: {type: infantry, markers: all}}}, states: {counters: N}", "6", "9"),
    ],
)
def test_a_claim_recomputed_from_the_other_fields(saying: str, good: str, bad: str) -> None:
    key = saying.split("states: {")[1].split(":")[0]
    assert _claims(saying.replace("N", good))[key] == "data"
    assert _claims(saying.replace("N", bad))[key] == "mismatch"


def test_replacements_on_a_track_that_records_none_are_not_checked() -> None:
    from forge.verifier import verify

    text = VELKA.replace("KIND", "claim").replace("EXAMPLE", "given: {turn: 1}, states: {replacements: 2}")
    f = verify(loads(text, "tiny.yaml"))
    assert [(c.key, c.status) for c in f.claims] == [("replacements", "unchecked")]


def test_the_phases_a_side_plays_are_counted_from_the_sequence() -> None:
    seq = (
        "sequence:\n  - {name: Weather}\n  - {name: Red Move, side: red}\n  - {name: Red Attack, side: red}\n"
        "  - {name: Blue Reaction, side: blue}\n  - {name: Blue Move, side: blue}\nexamples:"
    )
    base = TRACK.replace("examples:", seq).replace("KIND", "claim")
    from forge.verifier import verify

    def status(n: int, side: str) -> str:
        text = base.replace("EXAMPLE", f"given: {{side: {side}}}, states: {{phases: {n}}}")
        return {c.key: c.status for c in verify(loads(text, "tiny.yaml")).claims}["phases"]

    assert (status(2, "red"), status(2, "blue"), status(3, "red")) == ("data", "data", "mismatch")


# ------------------------------------------------------------------------------------------- inert model fields
def test_a_field_no_engine_rule_applies_is_refused_where_it_is_written() -> None:
    text = _edit(
        "ukraine_43.yaml",
        'mobile_assault: {cost: 2, plus_terrain: true, road_rate: 1, rule: "13.1"}',
        'mobile_assault: {cost: 2, plus_terrain: true, ignore_zoc_exit: true, road_rate: 1, rule: "13.1"}',
    )
    msg = _refused(text)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "ignore_zoc_exit" in ln)
    assert f"g.yaml:{line}:" in msg
    assert "rules.movement.mobile_assault.ignore_zoc_exit: no engine rule applies ignore_zoc_exit yet" in msg


def test_a_key_made_of_a_terrain_id_is_accepted_for_any_terrain_of_the_game() -> None:
    """``<terrain>_entered`` counts the hexes of any terrain of the game, not only the woods of one book."""
    old = "states: {rivers_crossed: 1, woods_entered: 1, legal: true}"
    loads(_edit("hells_gate.yaml", old, "states: {rivers_crossed: 1, clear_entered: 0, legal: true}"), "g.yaml")
    msg = _refused(_edit("hells_gate.yaml", old, "states: {rivers_crossed: 1, swamp_entered: 0, legal: true}"))
    assert "'swamp_entered' is not a states key any check of a movement example reads" in msg
