"""forge.verifier: tables and worked examples against the engine.

Properties:
- Hell's Gate as published verifies clean: no errors or warnings, every combat/odds/shift/probability example
  recomputed to the book's value, and what cannot be recomputed is reported as unchecked, never as passed;
- changing one CRT cell makes verify report that cell and nothing else;
- unknown CRT cells are listed; examples imply cells, and examples that disagree are a conflict;
- the JSON rendering has a stable, sorted shape; the exit policy fails on errors and warnings only.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge.errors import Finding
from forge.model import Crt, Example, Game
from forge.verifier import SEVERITY, exit_code, render_findings, severity, verify

HITS = ["0/0", "0/1", "1/2", "2/3", "3/3"]


def with_cells(game: Game, cells: list[list[str]] | dict | object, **crt_update: object) -> Game:  # type: ignore[type-arg]
    crt = game.combat.crt
    assert crt is not None
    new_crt = crt.model_copy(update={"cells": cells, **crt_update})
    return game.model_copy(update={"combat": game.combat.model_copy(update={"crt": new_crt})})


def with_examples(game: Game, examples: list[Example]) -> Game:
    return game.model_copy(update={"examples": examples})


def key(f: Finding) -> tuple[str, str]:
    return f.kind, f.message


# ---------------------------------------------------------------------------------------------- Hell's Gate
SHEET = "ref-sheet-supply-cap"  # the sheet's turn-1 supply cap differs from rule 11.1 only where no game can reach


def test_hells_gate_verifies_clean_and_the_reference_sheet_cap_is_info(hells_gate: Game) -> None:
    """The sheet and 11.1 differ only for unsupplied Germans in the Soviet combat phase of turn 1, which no
    position can show (German supply is first judged later that turn): info with that reason, not an erratum.
    The one warning: the turn-1 example calls F7 the Cherkassy hex (L911), which the rules put in F6 (L491)."""
    findings = verify(hells_gate)
    assert [(f.kind, f.ref) for f in findings if severity(f) != "info"] == [("example-contradiction", "cherkassy-f7")]
    assert exit_code(findings) == 1
    sheet = [f for f in findings if f.ref == SHEET]
    assert [f.kind for f in sheet] == ["example-unchecked"]
    assert "no reachable position" in sheet[0].message
    assert "German Supply" in sheet[0].message


@pytest.mark.parametrize(
    ("example", "key_", "book"),
    [
        ("shifts-7.2", "odds", "8:1+"),
        ("shifts-7.2", "net_shift", "-1"),
        ("shifts-7.2", "column", "6:1-7:1"),
        ("t1-b7-first-plan", "column", "3:2"),
        ("t1-b7-odds", "attack", "9"),
        ("t1-b7-odds", "column", "2:1"),
        ("t1-b7-result", "hits", "1"),
        ("t1-c6-odds", "column", "8:1+"),
        ("t1-c6-probability", "probability", "2/3"),
        ("t1-c6-result", "hits", "2"),
        ("t1-d6-odds", "column", "3:2"),
        ("t1-d6-result", "hits", "0"),
        ("t1-b2-odds", "column", "3:1"),
        ("t1-b2-result", "hits", "1"),
        ("t1-c2-shifts", "column", "2:1"),
        ("t1-c2-shifts", "all_out_allowed", "false"),
        ("t1-c2-result", "hits", "1"),
        ("t1-5gtc-move", "rivers_crossed", "1"),
        ("t1-11pz-routes", "rivers_crossed", "[1, 2]"),
        ("t1-c5-german", "net_shift", "-2"),
        ("t1-b6-odds", "odds", "6:1-7:1"),
        ("t1-b6-odds", "column", "4:1-5:1"),
        ("t1-b6-odds", "given.shifts", "[river]"),
        ("t1-b6-result", "hits", "1"),
        ("t1-steps-lost", "german", "4"),
        ("t1-steps-lost", "soviet", "2"),
        ("t2-c6-chance", "probability", "1/6"),
        ("scale", "days_per_turn", "3"),  # the book gives no length in days: 24 was typed from no line
        ("vp-handicap", "handicap", "10"),
    ],
)
def test_hells_gate_examples_recomputed(hells_gate: Game, example: str, key_: str, book: str) -> None:
    """The engine agrees with the book's own numbers (2/3, 1/6, 8:1 -> 6:1 ...)."""
    passed = verify(hells_gate).passed
    assert (key_, book) in [(k, s) for k, s, _, _ in passed[example]]


def test_unrecomputable_values_are_unchecked_not_passed(hells_gate: Game) -> None:
    findings = verify(hells_gate)
    unchecked = {f.ref: f for f in findings if f.kind == "example-unchecked"}
    # retreats depend on where every unit stands: with the example's position they are recomputed, without it
    # they are reported, with the reason
    assert "t1-b7-retreat" not in unchecked
    assert "t1-b7-retreat" in findings.passed
    bare = Example(
        id="bare", rule="7.6", kind="retreat", summary="no position", given={"from": "B7"}, states={"hexes": ["A6"]}
    )
    again = {f.ref: f for f in verify(with_examples(hells_gate, [bare])) if f.kind == "example-unchecked"}
    assert "zones of control" in again["bare"].message
    # a move's legality under 8.2 is a rule in words: its river count is checked, 'legal' is not
    assert "legal" in unchecked["t1-11pz-routes"].extra["keys"]


# ------------------------------------------------------------------------------------------ corrupted CRTs
def names_cell(f: Finding, column: str, row: str) -> bool:
    """The finding points at (column, row): as its own cell, as the cell it was compared with, as the column
    whose distribution changed, or as one cell of a band along a die row."""
    e = f.extra
    own = e.get("column") == column and e.get("row", row) == row
    other = e.get("other_column") == column and e.get("other_row", row) == row
    band = column in str(e.get("columns", "")).split(", ") and row in (e.get("row"), e.get("other_row"))
    return own or other or band


def corrupt(game: Game, i: int, j: int, value: str) -> Game:
    crt = game.combat.crt
    assert crt is not None
    assert isinstance(crt.cells, list)
    cells = [list(r) for r in crt.cells]
    cells[i][j] = value
    return with_cells(game, cells)


def test_corrupted_cell_is_reported(hells_gate: Game) -> None:
    """3:1 on a 4 reads 1/2; printed as 0/0 it breaks both orders, and verify names exactly that cell."""
    crt = hells_gate.combat.crt
    assert crt is not None
    before = {key(f) for f in verify(hells_gate)}
    after = verify(corrupt(hells_gate, 3, 4, "0/0"))
    new = [f for f in after if key(f) not in before]
    assert {f.kind for f in new} == {"crt-odds", "crt-die"}
    assert all(f.extra["column"] == "3:1" and f.extra["row"] == "4" for f in new)
    assert exit_code(after) == 1


def test_corrupted_cell_used_by_an_example(hells_gate: Game) -> None:
    """8:1 on a 3 (the C6 all-out attack) printed 1/1: the example and the all-out order both object."""
    after = verify(corrupt(hells_gate, 2, 7, "1/1"))
    mism = [f for f in after if f.kind == "example-mismatch" and f.ref != SHEET]
    assert [(f.ref, f.stated, f.computed) for f in mism] == [("t1-c6-result", "2", "1")]
    assert all(
        names_cell(f, "8:1+", "3")
        for f in after
        if f.kind not in ("example-unchecked", "data-note") and f.ref not in (SHEET, "cherkassy-f7")
    )  # cherkassy-f7: the book's F7 against its F6, whatever the CRT holds


@given(st.integers(0, 5), st.integers(0, 7), st.sampled_from(HITS))
@settings(max_examples=40, deadline=None)
def test_any_corrupted_cell_is_the_one_reported(hells_gate: Game, i: int, j: int, value: str) -> None:
    crt = hells_gate.combat.crt
    assert crt is not None
    assert isinstance(crt.cells, list)
    row, column = crt.rows[i], crt.columns[j]
    before = {key(f) for f in verify(hells_gate)}
    new = [f for f in verify(corrupt(hells_gate, i, j, value)) if key(f) not in before]
    if value == crt.cells[i][j]:
        assert new == []
    for f in new:
        if f.kind in ("example-mismatch", "example-unchecked"):
            assert f.extra.get("column") == column
        else:
            assert names_cell(f, column, row), f


# ------------------------------------------------------------------------------------------ unknown cells
def test_unknown_cells_listed_and_implied(hells_gate: Game) -> None:
    crt = hells_gate.combat.crt
    assert crt is not None
    cells = [["?"] * len(crt.columns) for _ in crt.rows]
    game = with_cells(hells_gate, cells)
    findings = verify(game)
    unknown = [f for f in findings if f.kind == "crt-unknown"]
    assert len(unknown) == 1
    assert "48 of 48" in unknown[0].message
    assert "8:1+/6" in unknown[0].extra["cells"]
    implied = {
        (f.extra["column"], f.extra["row"], f.extra["part"], f.extra["result"])
        for f in findings
        if f.kind == "crt-implied"
    }
    assert ("2:1", "5", "normal", "1") in implied  # B7 and C2 agree
    assert ("8:1+", "3", "all-out", "2") in implied
    assert ("3:2", "4", "normal", "0") in implied
    assert not [f for f in findings if f.kind == "example-mismatch" and f.ref != SHEET]


def test_whole_crt_unknown(hells_gate: Game) -> None:
    from forge.model import Unknown

    findings = verify(with_cells(hells_gate, Unknown(unknown="not printed")))
    assert [f.message for f in findings if f.kind == "crt-unknown"] == ["the CRT's cells are unknown: not printed"]


def test_examples_that_disagree_conflict(hells_gate: Game) -> None:
    crt = hells_gate.combat.crt
    assert crt is not None
    game = with_cells(hells_gate, [["?"] * len(crt.columns) for _ in crt.rows])
    a = Example(id="a", rule="7.5", kind="combat", summary="a", given={"column": "2:1", "die": 5}, states={"hits": 1})
    b = Example(id="b", rule="7.5", kind="combat", summary="b", given={"column": "2:1", "die": 5}, states={"hits": 0})
    findings = verify(with_examples(game, [a, b]))
    conflicts = [f for f in findings if f.kind == "example-conflict"]
    assert len(conflicts) == 1
    assert conflicts[0].ref == "a, b"
    assert severity(conflicts[0]) == "error"


# -------------------------------------------------------------------------------------------- mismatches
def test_example_mismatch_cites_book_and_rules(hells_gate: Game) -> None:
    odd = Example(
        id="odd",
        rule="13.8",
        kind="odds",
        summary="26 to 7 printed as 27/7",
        given={"attack": 26, "defense": 7},
        states={"ratio": "27/7", "quotient": 3.71, "column": "3:1"},
    )
    findings = verify(with_examples(hells_gate, [odd]))
    mism = [f for f in findings if f.kind == "example-mismatch"]
    assert [(f.rule, f.stated, f.computed, f.extra["key"]) for f in mism] == [("13.8", "27/7", "26/7", "ratio")]
    assert ("quotient", "3.71") in [(k, s) for k, s, _, _ in findings.passed["odd"]]


def test_unmodelled_inputs_are_named_not_withheld(hells_gate: Game) -> None:
    ex = Example(
        id="z",
        rule="26.1",
        kind="combat",
        summary="with a leader",
        given={"column": "2:1", "die": 5, "leader": "zhukov"},
        states={"hits": 2},
    )
    findings = [f for f in verify(with_examples(hells_gate, [ex])) if f.kind != "data-note"]  # the map's data note
    # never withheld: reported as a warning that names the input the engine does not model
    assert [f.kind for f in findings] == ["example-unmodelled"]
    assert severity(findings[0]) == "warning"
    assert "leader" in findings[0].message


# --------------------------------------------------------------------------------------------- rendering
def test_json_shape(hells_gate: Game) -> None:
    findings = verify(corrupt(hells_gate, 3, 4, "0/0"))
    text = render_findings(findings, "json")
    doc = json.loads(text)
    assert list(doc) == ["findings", "game", "summary"]
    assert doc["game"] == "hells_gate"
    for f in doc["findings"]:
        assert list(f) == sorted(f)
        assert set(f) == {
            "book_line", "column", "computed", "extra", "kind", "line", "message", "path", "ref", "rule", "severity",
            "stated",
        }  # fmt: skip
        assert f["severity"] in ("error", "warning", "info")
    s = doc["summary"]
    assert s["total"] == len(doc["findings"])
    assert s["error"] + s["warning"] + s["info"] == s["total"]
    assert s["exit"] == 1
    assert s["examples"]["total"] == len(hells_gate.examples)
    assert text == render_findings(findings, "json")  # deterministic


def test_text_and_markdown(hells_gate: Game) -> None:
    findings = verify(hells_gate)
    text = render_findings(findings)
    assert text.startswith("hells_gate: ")
    md = render_findings(findings, "markdown")
    assert md.startswith("# Errata report: `hells_gate`")  # the errata layout is tested in test_report.py
    with pytest.raises(ValueError, match="not a findings format"):
        render_findings(findings, "html")


def test_exit_policy() -> None:
    info = Finding("crt-implied", None, "x")
    warn = Finding("crt-die", None, "x")
    assert exit_code([info]) == 0
    assert exit_code([info, warn]) == 1
    assert exit_code([]) == 0
    assert set(SEVERITY.values()) == {"error", "warning", "info"}


def test_other_crts(data_games: list[Game]) -> None:
    """Every data file verifies without crashing; no example is left out of the tally."""
    for game in data_games:
        findings = verify(game)
        assert not [f for f in findings if f.kind == "example-invalid"], game.game.id
        s = json.loads(render_findings(findings, "json"))["summary"]["examples"]
        assert (
            s["checked"]
            + len(
                {
                    f.ref
                    for f in findings
                    if f.kind.startswith("example-") and f.kind not in ("example-conflict", "example-doubt")
                }
            )
            == s["total"]
        )


@pytest.fixture(scope="module")
def data_games() -> list[Game]:
    from conftest import data_files

    from forge.errors import LoadError
    from forge.loader import load

    games = []
    for path in data_files():
        try:
            games.append(load(path))
        except LoadError:  # a data file being written: test_load reports it
            continue
    return games


def _die_findings(cells: list[list[str]]) -> list[Finding]:
    from forge.model import Combat, ResultCode
    from forge.verifier.core import Context
    from forge.verifier.tables import check_grid

    crt = Crt(columns=["1:1", "2:1", "3:1"], rows=["1-2", "3-4", "5", "6"], cells=cells)
    results = {
        "DR": ResultCode(meaning="r", defender_retreat=1),
        "DL1": ResultCode(meaning="l", defender_steps=1),
        "AS": ResultCode(meaning="s"),
        "AL1": ResultCode(meaning="a", attacker_steps=1),
        "EX": ResultCode(meaning="x", attacker_steps=1, defender_steps=1),
    }
    v = Context.__new__(Context)
    v.combat = Combat(kind="odds", crt=crt, results=results)
    v.crt = crt
    v.findings = []
    check_grid(v, crt.cells, crt.rows, crt.columns, crt.cell_format, None, "CRT")  # type: ignore[arg-type]
    return [f for f in v.findings if f.kind in ("crt-die", "crt-band")]


def test_a_die_row_against_the_table_is_a_band_when_it_fills_most_of_the_row() -> None:
    """First Panzer Army's CRT: lower rolls are better for the attacker, except the exchange on every 6. The table's
    direction is found from the majority; a value filling most of its die row is a designed band (info), while one
    cell against the direction is a possible misprint (warning) that names its cell."""
    rows = [["DR", "DL1", "DL1"], ["AS", "DR", "DL1"], ["AL1", "AS", "DR"]]
    band = _die_findings([*rows, ["EX", "EX", "EX"]])
    assert [(f.kind, f.extra["row"], f.extra["columns"]) for f in band] == [("crt-band", "6", "1:1, 2:1, 3:1")]
    assert severity(band[0]) == "info"
    slip = _die_findings([*rows, ["EX", "AS", "DR"]])
    assert [(f.kind, f.extra["column"], f.extra["row"]) for f in slip] == [("crt-die", "1:1", "6")]
    assert severity(slip[0]) == "warning"


def test_shift_claims_checked_against_the_map(hells_gate: Game) -> None:
    """A woods shift claimed for clear B7 contradicts the map; with the supply state given, 'no shifts' is fully
    checked (mud from the turn's weather, woods from the terrain, river from the hexsides, supply from the list)."""
    wrong = Example(
        id="wrong",
        rule="7.2",
        kind="shifts",
        summary="woods in B7?",
        given={
            "attackers": ["sov-29tc", "sov-48rc"],
            "defender_hex": "B7",
            "base_column": "2:1",
            "shifts": ["woods"],
            "turn": 1,
        },
        states={"column": "3:2"},
    )
    none = Example(
        id="none",
        rule="7.2",
        kind="odds",
        summary="no shifts",
        given={
            "attackers": ["sov-29tc", "sov-48rc"],
            "defenders": ["ger-106th", "ger-3pz"],
            "defender_hex": "B7",
            "defense": 4,
            "turn": 1,
            "unsupplied": [],
        },
        states={"attack": 9, "column": "2:1", "shifts": []},
    )
    findings = verify(with_examples(hells_gate, [wrong, none]))
    mism = [f for f in findings if f.kind == "example-mismatch"]
    assert [(f.ref, f.extra["key"]) for f in mism] == [("wrong", "given.shifts")]
    assert "woods do(es) not apply" in mism[0].message
    assert not [f for f in findings if f.ref == "none"]
    assert {k for k, _, _, _ in findings.passed["none"]} == {"attack", "shifts", "column"}


# ---------------------------------------------------------------------------------------------- advance after combat
@pytest.mark.parametrize(
    ("advancing", "result", "wrong"),
    [
        (["ger-16pz", "ger-371id", "ger-509"], "DR", None),  # the book's: every one attacked, and a DR lets them
        (["ger-371id", "ger-19pz"], "DR", "ger-19pz did not attack"),
        (["ger-16pz"], "AL1", "leaves the defender in its hex"),  # nobody may advance after an attacker loss
    ],
)
def test_who_advances_is_a_choice_whose_legality_is_checked(advancing: list[str], result: str, wrong: str) -> None:
    from forge.loader import load

    fpa = load("data/first_panzer_army.yaml")
    ex = Example(
        id="adv",
        rule="13.10",
        kind="retreat",
        summary="after the attack the stack advances",
        given={"column": "2:1", "unit": "sov-9mech", "from": "2119", "attackers": ["ger-16pz", "ger-371id", "ger-509"]},
        states={"result": result, "advancing": advancing},
    )
    findings = verify(with_examples(fpa, [ex]))
    mism = [f for f in findings if f.kind == "example-mismatch" and "advancing" in f.message]
    claims = {c.key: c for c in findings.claims}
    if wrong is None:
        assert mism == []
        assert claims["advancing"].status == "engine"
    else:
        assert len(mism) == 1, mism
        assert wrong in (mism[0].computed or "")
    # without the attackers named, the choice cannot even be judged: unchecked, for want of the book's input
    bare = ex.model_copy(update={"given": {k: v for k, v in ex.given.items() if k != "attackers"}})
    c = {c.key: c for c in verify(with_examples(fpa, [bare])).claims}["advancing"]
    assert (c.status, c.why) == ("unchecked", "book")


@pytest.mark.parametrize("print_check", [True, False])
def test_verify_checks_with_the_collector_off_and_gives_it_back(
    print_check: bool, hells_gate_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``forge verify`` loads and checks a game with Python's cyclic collector off (what it makes then lives to
    the end), sets that aside (``gc.freeze``) and renders the print check with the collector on (a large map's
    renders leave garbage); the caller's collector is on, with nothing frozen, afterwards."""
    import gc

    import forge.verifier
    from forge.cli import main
    from forge.verifier import readback

    states: dict[str, tuple[bool, int]] = {}
    real_verify, real_roundtrip = forge.verifier.verify, readback.roundtrip

    def spy_verify(*a: object, **kw: object):  # type: ignore[no-untyped-def]
        states["verify"] = (gc.isenabled(), gc.get_freeze_count())
        return real_verify(*a, **kw)  # type: ignore[arg-type]

    def spy_roundtrip(*a: object, **kw: object):  # type: ignore[no-untyped-def]
        states["roundtrip"] = (gc.isenabled(), gc.get_freeze_count())
        return real_roundtrip(*a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(forge.verifier, "verify", spy_verify)
    monkeypatch.setattr(readback, "roundtrip", spy_roundtrip)
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    argv = ["verify", "-q", str(hells_gate_path), *([] if print_check else ["--no-print-check"])]
    assert main(argv) in (0, 1)  # 1: the book's errata
    capsys.readouterr()
    assert states["verify"] == (False, 0)
    if print_check:
        enabled, frozen = states["roundtrip"]
        assert enabled
        assert frozen > 10_000  # the modules, the game and the engine's tables
    else:
        assert "roundtrip" not in states
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
