"""``forge diff OLD NEW`` (forge/commands/diff.py): the errata between two editions.

Each test builds the new edition by editing one value of a copy of data/hells_gate.yaml's text and checks that the
change is named as a player names it, that the CRT's changed expectations are exact, and that verify's findings
fixed and introduced are the right ones.  Properties: a game compared with itself (or with a reformatted copy) has
no change and exits 0; swapping the editions swaps added and removed; the same inputs give the same bytes.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from forge.cli import main
from forge.commands import diff
from forge.loader import load, load_document

HG_PATH = DATA / "hells_gate.yaml"
HG = HG_PATH.read_text(encoding="utf-8")
SECOND = Path(__file__).resolve().parent / "data" / "hells_gate_2e.yaml"


def edited(tmp_path: Path, *edits: tuple[str, str], name: str = "new.yaml") -> Path:
    """A copy of Hell's Gate with each ``(old, new)`` text replaced once (each must occur exactly once)."""
    text = HG
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    out = tmp_path / name
    out.write_text(text, encoding="utf-8")
    return out


def report(new: Path, old: Path = HG_PATH) -> diff.Diff:
    return diff.compare(str(old), load_document(old), str(new), load_document(new))


def texts(d: diff.Diff) -> list[str]:
    return [c.text for c in d.changes]


# ------------------------------------------------------------------------------------------ one kind of change each
CRT_ROW5 = '- ["0/0", "0/1", "0/1", "1/2", "1/2", "1/2", "1/2", "2/3"]'


def test_crt_cell_and_its_effect_on_the_column(tmp_path: Path) -> None:
    new = edited(tmp_path, (CRT_ROW5, '- ["0/0", "0/1", "1/2", "1/2", "1/2", "1/2", "1/2", "2/3"]'))
    d = report(new)
    assert texts(d) == ["CRT 3:2, die 5: 0/1 → 1/2"]
    (c,) = d.changes
    assert (c.section, c.path, c.status, c.old, c.new) == ("CRT", "combat.crt.cells[5][3:2]", "changed", "0/1", "1/2")
    # 3:2 hit on a 6 only (1/6 a hit), now on 5 and 6; all-out: 1 hit on 4-5 and 2 on 6, now 2 on 5 too
    eff = {(e.column, e.measure): e for e in d.effects}
    assert set(eff) == {
        ("CRT 3:2, normal attack", "expected defender losses"),
        ("CRT 3:2, all-out attack", "expected defender losses"),
    }
    normal = eff["CRT 3:2, normal attack", "expected defender losses"]
    assert (normal.old, normal.new, normal.unit) == (Fraction(1, 6), Fraction(1, 3), "hits")
    assert normal.text == "CRT 3:2, normal attack: expected defender losses 0.17 → 0.33 hits"
    allout = eff["CRT 3:2, all-out attack", "expected defender losses"]
    assert (allout.old, allout.new) == (Fraction(4, 6), Fraction(5, 6))


def test_crt_column_added_is_one_addition_per_die(tmp_path: Path) -> None:
    cols = '["<1:1", "1:1", "3:2", "2:1", "3:1", "4:1-5:1", "6:1-7:1", "8:1+"]'
    grid = HG[HG.index("    cells:\n      - [") : HG.index("    mandatory_retreat:")]
    wider = grid.replace('- ["0/', '- ["0/0", "0/')
    new = edited(tmp_path, (cols, cols.replace('"<1:1"', '"<1:2", "1:2"')), (grid, wider))
    d = report(new)
    t = texts(d)
    for die in "123456":
        assert f"CRT <1:2, die {die} added: 0/0" in t
        assert f"CRT 1:2, die {die} added: {'0/1' if die == '6' else '0/0'}" in t
        assert f"CRT <1:1, die {die} removed: {'0/1' if die == '6' else '0/0'}" in t
    assert (
        "CRT: columns [<1:1, 1:1, 3:2, 2:1, 3:1, 4:1-5:1, 6:1-7:1, 8:1+] → [<1:2, 1:2, 1:1, 3:2, 2:1, 3:1, "
        "4:1-5:1, 6:1-7:1, 8:1+]" in t
    )
    assert len(t) == 19
    assert d.effects == []  # the columns both editions have are the same


def test_shift(tmp_path: Path) -> None:
    line = "shift: 2, condition: defender-all-unsupplied"
    new = edited(tmp_path, (line, line.replace("shift: 2", "shift: 3")))
    d = report(new)
    assert texts(d) == ["shift def-all-oos (All unretreated defenders are unsupplied): shift 2 → 3"]
    # the 7.2 example nets its four shifts to one column left: with +3 it nets to none, a new disagreement
    assert any(f.kind == "example-mismatch" and f.ref == "shifts-7.2" for f in d.introduced)
    assert not any(f.ref == "shifts-7.2" for f in d.fixed)


def test_modifier(tmp_path: Path) -> None:
    new = edited(tmp_path, ('terrain: [clear], multiply: "3"', 'terrain: [clear], multiply: "2"'))
    assert "modifier tank-clear (Tank or panzer attacking a clear hex): multiplier 3 → 2" in texts(report(new))


def test_terrain_movement_and_combat(tmp_path: Path) -> None:
    woods = "    pattern: trees\n    movement: {all: 1}\n"
    new = edited(
        tmp_path,
        (woods, woods.replace("{all: 1}", "{all: 2}")),
        (
            'combat: {text: "One column left; tanks attack at double strength", shift: -1}',
            'combat: {text: "One column left; tanks attack at double strength", shift: -2}',
        ),
    )
    t = texts(report(new))
    assert "terrain Woods: movement cost 1 → 2" in t
    assert "terrain Woods: combat shift -1 → -2" in t


def test_unit_values(tmp_path: Path) -> None:
    line = 'label: "48", type: infantry, size: XXX, steps: ["3", "?"]'
    new = edited(tmp_path, (line, 'label: "48", type: armour, size: XXX, steps: ["4", "?"]'))
    d = report(new)
    t = texts(d)
    assert "unit 48 (Soviet): full strength 3 → 4" in t
    assert "unit 48 (Soviet): type infantry → armour" in t
    assert {c.section for c in d.changes} == {"units"}


def test_setup_and_entry(tmp_path: Path) -> None:
    new = edited(
        tmp_path,
        (
            'steps: ["3", "?"], setup: C7, implied_by: [t1-b7-first-plan, t1-b7-odds],\n     note: "9 with the tripled',
            'steps: ["3", "?"], setup: C6, implied_by: [t1-b7-first-plan, t1-b7-odds],\n     note: "9 with the tripled',
        ),
        ("entry: {turn: 4, condition:", "entry: {turn: 5, condition:"),
    )
    d = report(new)
    t = texts(d)
    assert "unit 48 (Soviet): set-up C7 → C6" in t
    assert any(x.endswith(": entry turn 4 → 5") and x.startswith("unit ") for x in t)
    assert {c.section for c in d.changes} == {"set-up and entry"}


def test_turn_track(tmp_path: Path) -> None:
    new = edited(
        tmp_path,
        (
            '{number: 5, marks: ["11.4"], note: "rebuild one reduced corps"}',
            '{number: 5, weather: mud, marks: ["11.4"], note: "rebuild two reduced corps"}',
        ),
    )
    t = texts(report(new))
    assert "turn 5: weather none → mud" in t
    assert "turn 5: note rebuild one reduced corps → rebuild two reduced corps" in t


def test_special_rule(tmp_path: Path) -> None:
    old = "d6 + 1 per refuge hex, 5 or more escapes."
    new = edited(tmp_path, (old, "d6 + 1 per refuge hex, 6 or more escapes."))
    d = report(new)
    (c,) = d.changes
    assert c.text == "special rule 11.5 (Turn 8): summary changed"
    assert c.old.endswith("5 or more escapes.")
    assert c.new.endswith("6 or more escapes.")
    out = diff.render(d)
    assert "    was: Unsupplied units" in out
    assert "    now: Unsupplied units" in out


def test_example_value_and_the_finding_it_fixes(tmp_path: Path) -> None:
    ex = HG[HG.index("  - id: cherkassy-f7") : HG.index("  - id: t1-b7-first-plan")]
    assert "hex: F7" in ex
    new = edited(tmp_path, (ex, ex.replace("hex: F7", "hex: F6").replace("    stated_otherwise: {hex: 491}", "")))
    d = report(new)
    assert "example cherkassy-f7 (rule 5.1): stated hex F7 → F6" in texts(d)
    assert "example cherkassy-f7 (rule 5.1): stated_otherwise.hex removed: 491" in texts(d)
    assert [(f.kind, f.ref) for f in d.fixed] == [("example-contradiction", "cherkassy-f7")]
    assert d.introduced == []


def test_added_and_removed_items_are_matched_by_id(tmp_path: Path) -> None:
    unit = HG[HG.index("  - {id: sov-20grc") : HG.index("  - {id: sov-20grc") + 1]
    assert unit
    extra = (
        '  - {id: sov-99rc, side: soviet, name: 99th Rifle Corps, label: "99", type: infantry, size: XXX, '
        'steps: ["2", "1"], setup: D7}\n'
    )
    vp = HG[HG.index("  - id: vp-handicap") :]
    new = edited(tmp_path, ("  - {id: sov-20grc", extra + "  - {id: sov-20grc"), (vp, ""))
    d = report(new)
    t = texts(d)
    assert "unit 99 (Soviet) added: steps [2, 1]; infantry; set-up D7" in t
    assert "example vp-handicap (rule 12.0) removed: states {handicap: 10}" in t
    assert len(t) == 2  # the units after the inserted one are not changed


def test_generic_fallback_by_key_path(tmp_path: Path) -> None:
    new = edited(tmp_path, ("max_defenders: {soviet: 2, german: 3}", "max_defenders: {soviet: 2, german: 4}"))
    d = report(new)
    assert texts(d) == ["combat: max_defenders.german 3 → 4"]
    assert d.changes[0].path == "combat.max_defenders.german"


def test_swapping_the_editions_swaps_added_and_removed(tmp_path: Path) -> None:
    extra = (
        '  - {id: sov-99rc, side: soviet, name: 99th Rifle Corps, label: "99", type: infantry, steps: ["2"], '
        "setup: D7}\n"
    )
    new = edited(
        tmp_path, ("  - {id: sov-20grc", extra + "  - {id: sov-20grc"), (CRT_ROW5, CRT_ROW5.replace('"2/3"]', '"3/3"]'))
    )
    there, back = report(new), report(HG_PATH, new)
    flip = {"added": "removed", "removed": "added", "changed": "changed"}
    assert sorted((c.path, flip[c.status], c.new, c.old) for c in there.changes) == sorted(
        (c.path, c.status, c.old, c.new) for c in back.changes
    )
    assert [(e.column, e.measure, e.new, e.old) for e in there.effects] == [
        (e.column, e.measure, e.old, e.new) for e in back.effects
    ]
    assert (there.fixed, there.introduced) == (back.introduced, back.fixed)


# ------------------------------------------------------------------------------------------ the second edition
def test_second_edition_hells_gate_fixes_the_reference_sheet_finding() -> None:
    """tests/data/hells_gate_2e.yaml: the reference sheet's supply-cap footnote made consistent with 11.1/11.2."""
    d = report(SECOND)
    t = texts(d)
    assert "example ref-sheet-supply-cap (rule 11.1): stated net_shift 1 → 2" in t
    assert "example ref-sheet-supply-cap (rule 11.1): stated column 4:1-5:1 → 6:1-7:1" in t
    assert any(
        x.startswith("shift cap 11.1 as the reference sheet's footnote states it") and x.endswith(" removed") for x in t
    )
    assert [(f.kind, f.ref) for f in d.fixed] == [("example-unchecked", "ref-sheet-supply-cap")]
    assert d.introduced == []
    assert d.effects == []  # the CRT is the same


# ------------------------------------------------------------------------------------------ the command
def test_same_game_exits_0_even_reformatted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "copy.yaml"
    copy.write_text(
        "# a comment the model does not hold\n"
        + HG.replace("cell_format: hits-normal/all-out", "cell_format:   'hits-normal/all-out'")
    )
    assert main(["diff", str(HG_PATH), str(copy)]) == 0
    out = capsys.readouterr().out
    assert "The same game: no value differs." in out


def test_different_games_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(HG_PATH), str(SECOND), "--format", "markdown"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("# Changes: Hell's Gate\n")
    assert "\n## Examples\n\n- example ref-sheet-supply-cap (rule 11.1): summary changed\n  - was: " in out
    assert "\n- example ref-sheet-supply-cap (rule 11.1): stated net_shift 1 → 2\n" in out
    assert "## Verify findings fixed (1)" in out


@pytest.mark.parametrize("which", ["old", "new"])
def test_bad_input_in_either_file_exits_2_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str
) -> None:
    bad = edited(tmp_path, ("    dice: 1d6\n    cell_format", "    dice: 1d6\n    cell_fromat"), name="bad.yaml")
    argv = ["diff", str(bad), str(HG_PATH)] if which == "old" else ["diff", str(HG_PATH), str(bad)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    line = HG[: HG.index("    cell_format")].count("\n") + 1
    assert f"{bad}:{line}:5:" in err
    assert "combat.crt.cell_fromat" in err
    assert "cell_format" in err
    assert "Traceback" not in err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(HG_PATH), str(tmp_path / "nowhere.yaml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_json_is_sorted_and_deterministic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = edited(tmp_path, (CRT_ROW5, '- ["0/0", "0/1", "1/2", "1/2", "1/2", "1/2", "1/2", "2/3"]'))
    outs = []
    for _ in range(2):
        assert main(["diff", str(HG_PATH), str(new), "--format", "json"]) == 1
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    data = json.loads(outs[0])
    assert outs[0] == json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert data["same"] is False
    assert data["changes"][0]["text"] == "CRT 3:2, die 5: 0/1 → 1/2"
    assert data["effects"][0]["old"] == "1/6"
    assert data["effects"][0]["new"] == "1/3"


@pytest.mark.parametrize("path", sorted(DATA.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_data_game_has_no_change_against_itself(path: Path) -> None:
    game = load(path)
    assert diff.changes(game, game) == []
    assert diff.effects(game, game) == []


# ------------------------------------------------------------------------------------------ other tables' forms
def _copy(tmp_path: Path, game: str, old: str, new: str) -> Path:
    text = (DATA / f"{game}.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    out = tmp_path / f"{game}_new.yaml"
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


def test_results_legend_changes_every_column_that_rolls_it(tmp_path: Path) -> None:
    """First Panzer Army's code CRT: DR retreats two hexes instead of one; every column with a DR moves."""
    game = DATA / "first_panzer_army.yaml"
    new = _copy(
        tmp_path,
        "first_panzer_army",
        "picks the hex for either side, defender_retreat: 1,",
        "picks the hex for either side, defender_retreat: 2,",
    )
    d = report(new, game)
    (c,) = d.changes
    assert c.section == "combat results"
    assert c.text.startswith("result DR (Defender retreats one hex")
    assert c.text.endswith("): defender retreat 1 → 2")
    crt = load(game).combat.crt
    assert crt is not None
    grid = crt.cells
    assert isinstance(grid, list)
    moved = {crt.columns[j] for row in grid for j, cell in enumerate(row) if "DR" in cell.split("+")}
    assert {e.column for e in d.effects} == {f"CRT {col}" for col in moved}
    assert {e.measure for e in d.effects} == {"expected defender retreat"}
    for e in d.effects:
        assert e.old is not None
        assert e.new == 2 * e.old  # each DR now retreats twice as far; nothing else retreats
        assert e.unit == "hexes"


def test_crt_with_terrain_sections_names_the_section(tmp_path: Path) -> None:
    new = _copy(
        tmp_path, "escape_from_hells_gate", '        - ["?", "?", "?", "D2"]', '        - ["?", "?", "?", "D3"]'
    )
    d = report(new, DATA / "escape_from_hells_gate.yaml")
    assert texts(d) == ["CRT (village) +10, die 2: D2 → D3"]
    assert d.changes[0].path == "combat.crt.cells[village][2][+10]"
    assert d.effects == []  # the rest of the column is unknown in both editions
    # the worked example that revealed the cell now disagrees
    assert [(f.kind, f.ref) for f in d.introduced] == [("example-mismatch", "ex1-bombard-109")]


def test_hexsides_are_matched_by_their_hexes(tmp_path: Path) -> None:
    line = (
        '    - {between: [B7, A6], features: [river], note: "B7\'s defenders could retreat across the river into A6"}\n'
    )
    new = edited(tmp_path, (line, ""))
    assert texts(report(new)) == ["hexside B7/A6 removed"]


# ------------------------------------------------------------------------------------------ a property
HG_GAME = load(HG_PATH)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_any_one_cell_edit_is_named_once_with_its_exact_effect(data: st.DataObject) -> None:
    """Property: changing one cell of a normal/all-out hits CRT to any other hits cell gives exactly one change,
    that cell named by column and die, and expected defender losses in that column moving by the difference in
    hits times the die's chance (1/6), for each kind of attack whose hits differ; nothing else."""
    crt = HG_GAME.combat.crt
    assert crt is not None
    grid = crt.cells
    assert isinstance(grid, list)
    i = data.draw(st.integers(0, len(crt.rows) - 1), label="row")
    j = data.draw(st.integers(0, len(crt.columns) - 1), label="column")
    normal = data.draw(st.integers(0, 4), label="normal")
    allout = data.draw(st.integers(normal, 5), label="all-out")
    cell = f"{normal}/{allout}"
    cells = [list(r) for r in grid]
    old = cells[i][j]
    cells[i][j] = cell
    new_game = HG_GAME.model_copy(
        update={"combat": HG_GAME.combat.model_copy(update={"crt": crt.model_copy(update={"cells": cells})})}
    )
    found = diff.changes(HG_GAME, new_game)
    effects = diff.effects(HG_GAME, new_game)
    if cell == old:
        assert found == []
        assert effects == []
        return
    assert [c.text for c in found] == [f"CRT {crt.columns[j]}, die {crt.rows[i]}: {old} → {cell}"]
    was = [int(x) for x in old.split("/")]
    expected = {}
    for k, attack in enumerate(("normal", "all-out")):
        if was[k] != (normal, allout)[k]:
            expected[f"CRT {crt.columns[j]}, {attack} attack"] = Fraction((normal, allout)[k] - was[k], 6)
    assert {e.column: e.new - e.old for e in effects if e.new is not None and e.old is not None} == expected
    assert {e.measure for e in effects} <= {"expected defender losses"}


def test_unit_values_by_what_each_printed_number_is(tmp_path: Path) -> None:
    """Ukraine '43 prints attack-defence-movement: a changed movement allowance is named as movement."""
    new = _copy(tmp_path, "ukraine_43", 'steps: ["4-7-4", "?-?-?"]', 'steps: ["5-7-3", "?-?-?"]')
    d = report(new, DATA / "ukraine_43.yaml")
    assert texts(d) == ["unit Inf (German): full strength attack 4 → 5, full strength movement 4 → 3"]
