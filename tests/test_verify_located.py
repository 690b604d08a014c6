"""Findings located in the game file, and their severity decided by one written policy.

Properties:
- every finding of every data/ game's ``forge verify`` has a key path, a line and a column in its game file, and an
  example's finding the book's line too; the line and column point at the value the finding concerns (an example's
  stated value, its doubt, its readings, the item a data note is on);
- the text, JSON and Markdown reports show them;
- a finding's severity is its kind's in ``policy.KINDS``, nothing else: every kind a check can report is listed,
  an unlisted kind cannot be reported, and docs/VERIFY.md holds the policy's table verbatim;
- ``forge verify --report FILE`` lists the file written on standard output.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from forge.cli import main
from forge.errors import Finding
from forge.loader import load_document
from forge.verifier import Findings, render_findings, severity, verify
from forge.verifier.core import Context
from forge.verifier.policy import KINDS, SEVERITY, policy_table
from conftest import DATA, ROOT

GAMES = sorted(p.stem for p in DATA.glob("*.yaml"))


@cache
def located(name: str) -> tuple[Findings, list[str]]:
    game, doc = load_document(DATA / f"{name}.yaml")
    return verify(game, doc), (DATA / f"{name}.yaml").read_text(encoding="utf-8").splitlines()


def at(lines: list[str], f: Finding) -> str:
    """The file's text from the finding's line and column on (to the end of that line)."""
    assert f.line is not None
    assert f.column is not None
    return lines[f.line - 1][f.column - 1 :]


@pytest.mark.parametrize("name", GAMES)
def test_every_finding_has_a_line_and_column(name: str) -> None:
    findings, lines = located(name)
    game = load_document(DATA / f"{name}.yaml")[0]
    for f in findings:
        assert f.path, f
        assert f.line is not None, f
        assert f.column is not None, f
        assert 1 <= f.line <= len(lines), f
        assert 1 <= f.column <= len(lines[f.line - 1]) + 1, f
        if f.path[0] == "examples":
            assert f.book_line == game.examples[int(f.path[1])].source_line, f


def test_a_stated_value_is_located_at_its_value() -> None:
    findings, lines = located("first_panzer_army")
    f = next(f for f in findings if f.kind == "example-mismatch" and f.ref == "odds-26-7")
    assert f.path[-2:] == ("states", "ratio")
    assert at(lines, f).startswith('"27/7"')
    assert f.book_line == 814
    shifts = next(f for f in findings if f.kind == "example-mismatch" and f.ref == "ex-t-attack2-shifts")
    assert at(lines, shifts).startswith('"3:1"')


def test_a_doubt_a_reading_and_a_data_note_are_located_at_themselves() -> None:
    findings, lines = located("first_panzer_army")
    doubt = next(f for f in findings if f.kind == "example-doubt" and f.ref == "ex-t-attack2-odds")
    assert lines[doubt.line - 1].strip().startswith("doubt:") or at(lines, doubt).startswith(">-")  # type: ignore[operator]
    reading = next(f for f in findings if f.kind == "example-reading")
    assert at(lines, reading).startswith("- reading:") or lines[reading.line - 2].strip() == "readings:"  # type: ignore[operator]
    note = next(f for f in findings if f.kind == "data-note" and f.ref == "tables[rifle-corps-return]")
    assert note.path[-1] == "data_note"
    assert lines[note.line - 1].lstrip().startswith("data_note:") or at(lines, note).startswith(">-")  # type: ignore[operator]


def test_a_unchecked_claim_of_a_reading_is_located_in_that_reading() -> None:
    findings, lines = located("first_panzer_army")
    f = next(f for f in findings if f.kind == "example-unchecked" and f.ref == "ex-t-move-16pz")
    assert f.path[:4] == ("examples", 40, "readings", 0)
    assert "legal: true" in lines[f.line - 1]  # type: ignore[operator]


def test_the_three_formats_show_the_location() -> None:
    findings, _ = located("first_panzer_army")
    f = next(f for f in findings if f.kind == "example-mismatch" and f.ref == "odds-26-7")
    text = render_findings(findings, "text", file="data/first_panzer_army.yaml")
    assert f"at data/first_panzer_army.yaml:{f.line}:{f.column} · examples[27].states.ratio · book line 814" in text
    doc = json.loads(render_findings(findings, "json"))
    j = next(x for x in doc["findings"] if x["kind"] == "example-mismatch" and x["ref"] == "odds-26-7")
    assert (j["line"], j["column"], j["path"], j["book_line"]) == (f.line, f.column, "examples[27].states.ratio", 814)
    md = render_findings(findings, "markdown")
    assert f"game file line {f.line}, column {f.column} (`examples[27].states.ratio`); rulebook line 814" in md


def test_the_cli_locates_findings_in_the_file_given(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "first_panzer_army.yaml")
    assert main(["verify", path, "--no-print-check"]) == 1
    out = capsys.readouterr().out
    assert re.search(rf"at {re.escape(path)}:\d+:\d+ · examples\[27\]\.states\.ratio · book line 814", out)


def test_report_lists_the_file_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "errata.md"
    main(["verify", str(DATA / "hells_gate.yaml"), "--no-print-check", "--format", "markdown", "--report", str(report)])
    assert capsys.readouterr().out == f"{report}\n"
    assert report.read_text(encoding="utf-8").startswith("# Errata report")


# ============================================================================================== severity policy
def test_every_kind_a_check_reports_is_in_the_policy() -> None:
    """Scan the checks' source for the kinds they report (``ctx.add("kind"``, ``Finding("kind"``)."""
    used: set[str] = set()
    for p in [*(ROOT / "forge" / "verifier").glob("*.py"), ROOT / "forge" / "layout.py"]:
        src = p.read_text(encoding="utf-8")
        used |= set(re.findall(r'(?:ctx\.add|Finding)\(\s*"([a-z-]+)"', src))
    assert used, "no kinds found: the scan is broken"
    assert used <= set(KINDS), sorted(used - set(KINDS))


def test_an_unlisted_kind_cannot_be_reported_and_severity_is_the_kinds() -> None:
    ctx = Context(load_document(DATA / "hells_gate.yaml")[0])
    with pytest.raises(ValueError, match=r"not in forge\.verifier\.policy\.KINDS"):
        ctx.add("example-whatever", None, "x")
    f = Finding("example-doubt", None, "x", extra={"severity": "info"})
    assert severity(f) == SEVERITY["example-doubt"] == "warning"  # no finding overrides its kind's severity


def test_docs_hold_the_policy_table_verbatim() -> None:
    docs = (ROOT / "docs" / "VERIFY.md").read_text(encoding="utf-8")
    assert policy_table() in docs, "docs/VERIFY.md: paste forge.verifier.policy.policy_table() under 'Kinds of finding'"
    for word in ("every reasonable reading", "contradicts itself", "not checked"):
        assert word in docs


def test_the_print_checks_references_resolve() -> None:
    """The printed read-back names what it checked by dotted references (forge/verifier/readback.py); each resolves
    to that item of the file."""
    from forge.verifier.locate import key_path

    game, doc = load_document(DATA / "ukraine_43.yaml")
    t, sh, u = game.tables[0], game.combat.shifts[0], game.units[0]
    cases = {
        f"tables.{t.id}": ("tables", 0),
        f"combat.shifts.{sh.id}": ("combat", "shifts", 0),
        f"units.{u.id}": ("units", 0),
        "terrain.clear": ("terrain", "clear"),
        "combat.crt.secondary": ("combat", "crt", "secondary"),
        "turns": ("turns",),
    }
    for ref, path in cases.items():
        f = Finding("print-missing", None, "x", ref=ref)
        assert key_path(game, f) == path, ref
        assert doc.mark(path) is not None


def test_locating_many_findings_builds_the_game_lookups_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A large map's report may hold tens of thousands of findings: looking each up by a scan of the map made
    ``forge verify`` of a 40,000-hex map spend 13 minutes locating them (issue 25, item 31).  The lookups are built
    once per report, and give the same key path as a lookup of one finding alone."""
    import importlib

    from forge.verifier.policy import Findings

    loc = importlib.import_module("forge.verifier.locate")  # the package's `locate` is the function

    game, doc = load_document(DATA / "hells_gate.yaml")
    built = []
    real = loc._Index.__init__

    def counting(self: object, g: object) -> None:
        built.append(1)
        real(self, g)  # type: ignore[arg-type]

    monkeypatch.setattr(loc._Index, "__init__", counting)
    named = next(h for h, info in game.map.hexes.items() if info.name)
    refs = [game.units[0].id, game.tables[0].id, named, game.map.hexes[named].name or "", "combat.crt", "nothing"]
    many = Findings([Finding("print-missing", None, "x", ref=r) for r in refs * 500])
    located = loc.locate(many, game, doc)
    assert len(built) == 1
    built.clear()
    alone = [loc.key_path(game, f) for f in many[: len(refs)]]
    assert [f.path for f in located[: len(refs)]] == alone
    assert alone[2] == alone[3] == ("map", "hexes", named)  # a hex by its label and by its name
    assert alone[-1] == ()
