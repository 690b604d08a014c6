"""The verify report: the Markdown errata document (findings by rule, derivations, coverage, "Not checked"), the
text report's "not checked" section, the JSON's stability, and the committed errata in docs/errata/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import DATA, ROOT, data_files, has_seed_book, seed_book

from forge.cli import main
from forge.errors import Finding
from forge.loader import load
from forge.verifier import Findings, render_findings, severity, verify
from forge.verifier.core import Claim
from forge.verifier.report import coverage, not_checked, rule_key

ERRATA = ROOT / "docs" / "errata"

TINY = """\
format: 1
game:
  id: tiny
  title: Tiny Battle
  source: test
  scale: {km_per_hex: 20, days_per_turn: 3}
  sides:
    - {id: red, name: Red, colour: "#c8102e"}
    - {id: blue, name: Blue, colour: "#1f4e9c"}
  first_side: red
map:
  grid: {kind: hex, orientation: pointy, parity: even, columns: 4, rows: 3, labels: letter-row}
  sheet: 11x8.5in
  hex_size: 1.5in
  status: complete
  default_terrain: clear
terrain:
  clear: {name: Clear, movement: {all: 1}}
units:
  - {id: r1, side: red, name: 1st Tank Corps, label: "1", type: armour, size: XXX, steps: ["2"], setup: A1}
turns:
  turns: [{number: 1}, {number: 2}]
combat:
  kind: odds
  crt:
    columns: ["1:1", "2:1", "3:1+"]
    rows: ["1", "2", "3", "4", "5", "6"]
    cell_format: hits-normal/all-out
    cells: [["0/0", "0/1", "1/2"], ["0/0", "0/1", "1/2"], ["0/1", "1/2", "1/2"],
            ["0/1", "1/2", "2/3"], ["1/2", "1/2", "2/3"], ["1/2", "2/3", "2/3"]]
  shifts:
    - {id: woods, when: Defender in woods, shift: -1}
examples:
  - {id: slip, rule: "13.8", kind: odds, summary: a slip, given: {attack: 26, defense: 7},
     states: {ratio: "27/7", column: "3:1+"}, source_line: 814}
  - {id: words, rule: "2.2", kind: claim, summary: words, states: {min_lines: 280, remaining: 2}}
  - {id: hits, rule: "10.1", kind: combat, summary: a roll, given: {column: "2:1", die: 4}, states: {hits: 1}}
  - {id: shift, rule: "10.2", kind: shifts, summary: a shift, given: {base_column: "3:1+", shifts: [woods]},
     states: {net_shift: -2, column: "1:1"}}
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Findings:
    path = tmp_path_factory.mktemp("tiny") / "tiny.yaml"
    path.write_text(TINY)
    return verify(load(path))


@pytest.fixture(scope="module")
def games() -> list[tuple[str, Findings]]:
    out = []
    for path in data_files():
        game = load(path)
        out.append((game.game.id, verify(game)))
    return out


def _section(md: str, title: str) -> str:
    """The text of a ``## title`` section of a Markdown report."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", md, flags=re.S | re.M)
    assert m, f"no section {title!r}"
    return m.group(1)


# --------------------------------------------------------------------------------------------- by rule
def test_rule_numbers_sort_naturally() -> None:
    rules = ["13.8.1", "victory", "10.1", "2.2", None, "3.A", "27.1", "3", "3.C.2", "13.8", "2"]
    assert sorted(rules, key=rule_key) == [
        "2", "2.2", "3", "3.A", "3.C.2", "10.1", "13.8", "13.8.1", "27.1", "victory", None,
    ]  # fmt: skip


def test_markdown_groups_by_rule_in_natural_order_errors_first() -> None:
    items = [
        Finding("example-doubt", "13.8.1", "x: doubt about 13.8.1", ref="x"),
        Finding("example-mismatch", "10.1", "y: m", stated="1", computed="2", ref="y", extra={"key": "hits"}),
        Finding("crt-die", "2.2", "die against the grain"),
        Finding("example-doubt", "10.1", "y: doubt about 10.1", ref="y"),
        Finding("example-mismatch", "10.1", "z: m", stated="3", computed="4", ref="z", extra={"key": "odds"}),
        Finding("crt-rows", "3.A", "rows"),
        Finding("print-missing", None, "not printed"),
        Finding("crt-implied", "27.1", "an implied cell"),
    ]
    md = render_findings(Findings(items, game="g"), "markdown")
    body = _section(md, "Findings by rule")
    heads = re.findall(r"^### (.*)$", body, flags=re.M)
    assert heads == ["Rule 2.2", "Rule 3.A", "Rule 10.1", "Rule 13.8.1", "No rule number"]
    rule_10 = body.split("### Rule 10.1")[1].split("###")[0]
    sev = re.findall(r"^- \*\*(\w+)\*\*", rule_10, flags=re.M)
    assert sev == ["Error", "Error", "Warning"]  # errors, then warnings, each in the order found
    assert rule_10.index("`y`, value `hits`") < rule_10.index("`z`, value `odds`")
    assert "an implied cell" not in body  # info goes to "Not checked"
    assert "an implied cell" in _section(md, "Not checked")


def test_mismatch_has_book_rules_and_derivation(tiny: Findings) -> None:
    derivations = {(f.ref, f.extra["key"]): f.extra.get("derivation") for f in tiny if f.kind == "example-mismatch"}
    assert derivations == {
        ("slip", "ratio"): "attack 26 ÷ defense 7 = 3.71",
        ("shift", "net_shift"): "woods -1: -1 column",
        ("shift", "column"): "3:1+ moved by woods -1 (-1 column) is 2:1",
    }
    (f,) = [f for f in tiny if f.kind == "example-mismatch" and f.ref == "slip"]
    assert (f.ref, f.extra["key"], f.stated, f.computed) == ("slip", "ratio", "27/7", "26/7")
    assert f.extra["derivation"] == "attack 26 ÷ defense 7 = 3.71"
    md = render_findings(tiny, "markdown", title="Tiny Battle")
    assert md.startswith("# Errata report: Tiny Battle (`tiny`)\n")
    item = _section(md, "Findings by rule").split("example `slip`, value `ratio`")[1]
    assert "  - The book states: 27/7\n  - The rules give: 26/7\n  - Derivation: attack 26 ÷ defense 7 = 3.71\n" in item
    assert "rulebook line 814" in item
    data = json.loads(render_findings(tiny, "json"))
    (j,) = [x for x in data["findings"] if x["kind"] == "example-mismatch" and x["ref"] == "slip"]
    assert j["extra"]["derivation"] == "attack 26 ÷ defense 7 = 3.71"


def test_a_finding_without_derivation_says_so() -> None:
    f = Finding("example-mismatch", "1", "a: m", stated="1", computed="2", ref="a", extra={"key": "k", "how": "data"})
    md = render_findings(Findings([f], game="g"), "markdown")
    assert "  - Derivation: not recorded (compared with the encoded data)\n" in md


# --------------------------------------------------------------------------------------------- not checked
def test_every_unchecked_claim_is_listed_with_its_reason(games: list[tuple[str, Findings]]) -> None:
    for gid, findings in games:
        text = render_findings(findings, "text")
        md = render_findings(findings, "markdown")
        section = _section(md, "Not checked")
        unchecked = [(c.example, c.key) for c in findings.claims if c.status == "unchecked"]
        assert text.count("\n  ") >= len(unchecked), gid
        for ex, key in unchecked:
            tag = r"\[(not in the book|not a rule|unreachable|not modelled)\] \S"
            assert re.search(rf"^  \S+ +{re.escape(ex)}\.{re.escape(key)}: {tag}", text, flags=re.M), (gid, ex, key)
            assert re.search(rf"^- `{re.escape(ex)}` · `{re.escape(key)}`: {tag}", section, flags=re.M), (gid, ex, key)
        listed = sum(len(items) for _, items in not_checked(findings))
        others = sum(1 for f in findings if f.kind not in ("example-unchecked", "data-note") and severity(f) == "info")
        assert listed == len(unchecked) + others, gid
        # the text report lists no info finding twice: unchecked values only under "not checked"
        assert "example-unchecked" not in text, gid


def test_not_checked_in_the_tiny_game(tiny: Findings) -> None:
    text = render_findings(tiny, "text")
    md = render_findings(tiny, "markdown")
    # a value no handler explains counts against Hexforge ("not modelled"), never against the book
    assert "  2.2      words.min_lines: [not modelled] no engine rule recomputes this (claim example)" in text
    assert "  2.2      words.remaining: [not modelled] no engine rule recomputes this (claim example)" in text
    section = _section(md, "Not checked")
    frobs = "- `words` · `min_lines`: [not modelled] no engine rule recomputes this (claim example)\n"
    assert f"### Rule 2.2\n\n{frobs}" in section
    assert "`hits`" not in section  # recomputed (and agreeing), so not listed
    cov = _section(md, "Coverage")
    c = tiny.claims
    assert len(c) == 7  # ratio, column, min_lines, remaining, hits, net_shift, column
    assert "| `tiny` | 7 | 2 | 0 | 0 | 0 | 3 | 0 | 0 | 0 | 2 | 71.4% | 71.4% |" in cov
    assert "4 examples: 1 recomputed in full, 2 with a value that disagrees, 1 with a value not checked." in cov


def test_coverage_counts_what_the_book_lacks_apart_from_what_hexforge_lacks() -> None:
    claims = [
        Claim("a", "x", "engine"),
        Claim("a", "y", "mismatch"),
        Claim("b", "roll", "unchecked", "the roll is not given", "book"),
        Claim("b", "year", "unchecked", "a bibliographic reference", "context"),
        Claim("c", "z", "unchecked", "no engine rule recomputes 'z'", "engine"),
        Claim("c", "w", "unchecked", "an older report with no category"),
    ]
    cv = coverage(claims)
    assert (cv["unchecked_book"], cv["unchecked_context"], cv["unchecked_engine"]) == (1, 1, 2)
    assert cv["percent"] == round(100 * 2 / 6, 1)
    assert cv["percent_checkable"] == 50.0  # 2 recomputed of the 4 whose inputs the book gives
    md = render_findings(Findings([], game="g", claims=claims), "markdown")
    assert (
        "not checked: 1 the book does not give what it depends on, 1 not a claim of the rules, 0 differing only in "
        "positions no game reaches, 2 not computed by Hexforge" in md
    )
    assert "- `b` · `roll`: [not in the book] the roll is not given" in md


def test_data_notes_are_listed_apart_from_what_was_not_checked() -> None:
    note = Finding("data-note", "7.2", "data note on table Mud roll: tabulated by us from the rule's words")
    for fmt, head in (("markdown", "## Data notes"), ("text", "data notes (1,")):
        out = render_findings(Findings([note], game="g"), fmt)
        assert head in out
        assert "tabulated by us" in out.split(head, 1)[1]
        assert "tabulated by us" not in out.split(head, 1)[0]  # not under "Not checked": it is no check left undone
    assert not_checked(Findings([note], game="g")) == []


def test_silence_is_never_agreement_when_nothing_is_found() -> None:
    md = render_findings(Findings([], game="g"), "markdown")
    assert "Nothing disagrees" in md
    assert "Everything was checked." in md


# --------------------------------------------------------------------------------------------- JSON
def test_json_is_stable_with_sorted_keys(games: list[tuple[str, Findings]]) -> None:
    for gid, findings in games:
        text = render_findings(findings, "json")
        doc = json.loads(text)
        assert text == json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n", gid
        cl = doc["summary"]["claims"]
        assert cl["total"] == len(findings.claims)
        assert cl["engine"] + cl["data"] + cl["arithmetic"] + cl["mismatch"] + cl["unchecked"] == cl["total"]
        assert cl["recomputed"] == cl["total"] - cl["unchecked"]
        again = load(DATA / f"{gid}.yaml")
        assert render_findings(verify(again), "json") == text, gid  # the same for a fresh run


# --------------------------------------------------------------------------------------------- docs/errata
REFRESH = "forge verify data/{file} --format markdown --no-print-check{book} --report docs/errata/{id}.md"
REFRESH_ALL = "the loop in docs/errata/README.md"


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_committed_errata_are_current(path: Path, tmp_path: Path) -> None:
    """docs/errata/<game id>.md is what ``forge verify`` writes today (without the print check: the errata are
    about the book, and the printed PDFs are checked by the tests of the renderers), with ``--book`` the seed
    rulebook the game was made from (its ``game.source``), so the report carries the book's own findings."""
    book = seed_book(path)
    if book is None and has_seed_book(path):
        pytest.skip("the seed rulebooks (../shared/seeds) are not on this machine: the report is written with --book")
    out = tmp_path / "errata.md"
    args = ["verify", str(path), "--format", "markdown", "--no-print-check", "--report", str(out)]
    main([*args, "--book", str(book)] if book else args)
    fresh = out.read_text(encoding="utf-8")
    assert str(ROOT) not in fresh
    assert str(tmp_path) not in fresh
    assert book is None or str(book.parent) not in fresh  # the book by its file name only, on any machine
    gid = load(path).game.id
    committed = ERRATA / f"{gid}.md"
    refresh = REFRESH.format(file=path.name, id=gid, book=f" --book ../shared/seeds/{book.name}" if book else "")
    assert committed.exists(), f"{committed.relative_to(ROOT)} is missing; write it with: {refresh}"
    assert committed.read_text(encoding="utf-8") == fresh, (
        f"{committed.relative_to(ROOT)} is stale; refresh it with: {refresh}  (all of them: {REFRESH_ALL})"
    )


def test_a_seed_game_report_has_the_books_findings() -> None:
    """The committed report of a game made from a seed rulebook was written with --book: it gives the coverage of
    the book (a report written without it would not)."""
    for path in data_files():
        report = (ERRATA / f"{load(path).game.id}.md").read_text(encoding="utf-8")
        assert ("Coverage of the book:" in report) == has_seed_book(path), path.name


def test_bad_input_never_overwrites_a_report(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\n")
    report = tmp_path / "report.md"
    report.write_text("the previous report\n")
    assert main(["verify", str(DATA / "hells_gate.yaml"), str(bad), "--no-print-check", "--report", str(report)]) == 2
    assert report.read_text() == "the previous report\n"


def test_readme_states_the_severity_of_every_kind() -> None:
    """The README's severity table names every kind of finding on the row of its severity (policy.SEVERITY)."""
    from forge.verifier.policy import SEVERITY

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(error|warning|info)` \|[^|]*\|(.*)\|$", readme, re.M)}
    assert set(rows) == {"error", "warning", "info"}, "README.md: the severity table of `forge verify` is missing"
    for kind, sev in SEVERITY.items():
        assert re.search(rf"`{re.escape(kind)}`", rows[sev]), (
            f"README.md: add `{kind}` to the {sev} row of the severity table (section on `forge verify`)"
        )
