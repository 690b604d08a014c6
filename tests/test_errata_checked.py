"""docs/errata/CHECKED.md, the record of the errata checked by hand against the rulebooks, keeps up with the reports.

Every finding in a committed report (docs/errata/<game>.md; tests/test_report.py keeps those current) must have a
row in CHECKED.md under its game: each error and warning, and each info line (a "Not checked" line, a difference
the data explains among them, and each data note);
every finding of the rulebook itself (the ``book-*`` kinds ``--book`` adds: errors, warnings and info) a row in
BOOK_CHECKS.md;
a CONFIRMED or WORDING row must still name a finding of the report (a FALSE ALARM row may not: fixing the data
removed it).  Findings are named by a key the Markdown report prints the same way on every run: the kind, the
example or table id, and ``· value`` for an example's value, or ``· section ...`` / ``· column ..., die ...``
from the finding's "Where" line.
"""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, data_files

from forge.errors import Finding
from forge.verifier import Findings, render_findings

ERRATA = ROOT / "docs" / "errata"
CHECKED = ERRATA / "CHECKED.md"
BOOK_CHECKS = ERRATA / "BOOK_CHECKS.md"
VERDICTS = {"CONFIRMED", "FALSE ALARM", "WORDING", "TRUE (info)"}

Rows = dict[str, dict[str, tuple[str, str, str, str]]]
"""CHECKED.md's rows by game id, then by key: (severity, seed lines, verdict, reason)."""

_HEAD = re.compile(r"- \*\*(?:Error|Warning)\*\* \(`(?P<kind>[^`]+)`\)(?P<rest>.*)")
_VALUE = re.compile(r": example `(?P<ex>[^`]*)`, value `(?P<key>[^`]*)`$")
_REF = re.compile(r" `(?P<ref>[^`]*)`: ")
_UNCHECKED = re.compile(r"- `(?P<ex>[^`]*)`(?: · `(?P<key>[^`]*)`)?: ")
_NOTE = re.compile(r"- data note on (?P<on>[^:]*): ")
INFO_KEY = ("explained ", "unchecked ", "data-note ")
"""The keys of info findings: a difference the data explains, a value not checked (with its reason), a remark of
the data to its designer."""
_EXPLAINED = re.compile(r"- `(?P<ex>[^`]*)` · `(?P<key>[^`]*)`: (?:\[[^\]]*\] )?the rules as encoded give ")


def _qualifier(where: str) -> str:
    """``section X`` or ``column C, die D`` from a finding's "Where" line (the table cell it is about)."""
    items = [s.strip() for s in where.split(";")]
    got = {
        label: s[len(label) + 1 :] for s in items for label in ("section", "column", "die") if s.startswith(label + " ")
    }
    if "section" in got:
        return f"section {got['section']}"
    if "column" in got and "die" in got:
        return f"column {got['column']}, die {got['die']}"
    return ""


def report_keys(markdown: str) -> list[str]:
    """The key of every error and warning of a Markdown errata report, and of every "explained" not-checked line."""
    lines = markdown.splitlines()
    keys: list[str] = []
    section = ""
    for i, line in enumerate(lines):
        if line.startswith("## "):
            section = line[3:]
            continue
        if section == "Findings by rule" and (mt := _HEAD.fullmatch(line)):
            if mt.group("kind").startswith("book-"):
                continue  # the rulebook's own findings are judged in BOOK_CHECKS.md (book_keys)
            rest = mt.group("rest")
            if mv := _VALUE.match(rest):
                keys.append(f"{mt.group('kind')} {mv.group('ex')} · {mv.group('key')}")
                continue
            mr = _REF.match(rest)
            subject = mr.group("ref") if mr else rest.lstrip(": ")
            where = ""
            for nxt in lines[i + 1 :]:
                if not nxt.startswith("  - "):
                    break
                if nxt.startswith("  - Where: "):
                    where = nxt[len("  - Where: ") :]
            qual = _qualifier(where)
            keys.append(f"{mt.group('kind')} {subject}" + (f" · {qual}" if qual else ""))
        elif section == "Not checked" and (me := _EXPLAINED.match(line)):
            keys.append(f"explained {me.group('ex')} · {me.group('key')}")
        elif section == "Not checked" and (mu := _UNCHECKED.match(line)):
            keys.append(f"unchecked {mu.group('ex')}" + (f" · {mu.group('key')}" if mu.group("key") else ""))
        elif section == "Data notes" and (mn := _NOTE.match(line)):
            keys.append(f"data-note {mn.group('on')}")
    return keys


def checked_rows(text: str) -> Rows:
    """CHECKED.md's rows by game id, then by key: (severity, seed lines, verdict, reason)."""
    rows: Rows = {}
    game = None
    for line in text.splitlines():
        if mg := re.fullmatch(r"## .* \(`(?P<gid>[a-z0-9_]+)`\)", line):
            game = mg.group("gid")
            rows[game] = {}
            continue
        if game is None or not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 5, f"CHECKED.md row without 5 cells: {line}"
        key = cells[0].strip("`")
        assert key not in rows[game], f"CHECKED.md: {key} listed twice under {game}"
        rows[game][key] = (cells[1], cells[2], cells[3], cells[4])
    return rows


def missing_rows(game: str, rows: Rows, markdown: str) -> list[str]:
    """The findings of a game's report that have no row."""
    return [k for k in report_keys(markdown) if k not in rows.get(game, {})]


def stale_rows(game: str, rows: Rows, markdown: str) -> list[str]:
    """The CONFIRMED and WORDING rows of a game whose finding the report no longer has."""
    keys = set(report_keys(markdown))
    return [k for k, row in rows.get(game, {}).items() if row[2] != "FALSE ALARM" and k not in keys]


def _report(game: str) -> str:
    return (ERRATA / f"{game}.md").read_text(encoding="utf-8")


ROWS = checked_rows(CHECKED.read_text(encoding="utf-8"))
GAMES = [p.stem for p in data_files()]


def test_every_game_has_a_section() -> None:
    assert sorted(ROWS) == sorted(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_finding_has_a_row(game: str) -> None:
    missing = missing_rows(game, ROWS, _report(game))
    assert not missing, (
        f"docs/errata/{game}.md has findings that docs/errata/CHECKED.md does not record; check each against the "
        f"rulebook and add a row (see 'How to redo it' there): {missing}"
    )


@pytest.mark.parametrize("game", GAMES)
def test_no_stale_rows(game: str) -> None:
    stale = stale_rows(game, ROWS, _report(game))
    assert not stale, f"CHECKED.md rows under {game} name findings its report no longer has: {stale}"


def test_rows_are_complete() -> None:
    for game, rows in ROWS.items():
        for key, (sev, lines, verdict, reason) in rows.items():
            where = f"CHECKED.md, {game}, {key}"
            assert sev in ("error", "warning", "info"), where
            assert verdict in VERDICTS, where
            assert re.search(r"\d", lines), where
            assert len(reason) > 20, where
            assert (sev == "info") == key.startswith(INFO_KEY), where
            assert verdict != "TRUE (info)" or key.startswith(("unchecked ", "data-note ")), where


def test_keys_of_a_report() -> None:
    """The key of each kind of finding as a report prints it; a second finding of a kind on the same table is told
    apart by its cell; an info finding is keyed by what it is about."""
    findings = Findings(
        [
            Finding(
                "example-mismatch",
                "13.8",
                "slip: ratio",
                stated="27/7",
                computed="26/7",
                ref="slip",
                extra={"key": "ratio", "how": "engine", "source_line": "814"},
            ),
            Finding("example-doubt", "13.8", "slip: 27 is a slip for 26", ref="slip", extra={"source_line": "814"}),
            Finding(
                "crt-die",
                "13.8.1",
                "CRT 1:1: die 6 ...",
                ref="crt",
                extra={"column": "1:1", "row": "6", "other_column": "1:1", "other_row": "5"},
            ),
            Finding(
                "crt-unknown",
                "7.3",
                "2 of 2 cells of the CRT (clear) are unknown",
                ref="crt",
                extra={"section": "clear"},
            ),
            Finding("example-unchecked", "2.2", "words: not recomputed", ref="words"),
        ],
        game="tiny",
    )
    keys = report_keys(render_findings(findings, "markdown", title="Tiny"))
    assert sorted(keys) == [
        "crt-die crt · column 1:1, die 6",
        "crt-unknown crt · section clear",
        "example-doubt slip",
        "example-mismatch slip · ratio",
        "unchecked words",
    ]


def test_explained_lines_are_keys() -> None:
    md = (
        "## Findings by rule\n\nNothing disagrees.\n\n## Not checked\n\n### Rule 11.1\n\n"
        "- `cap` · `column`: the rules as encoded give 6:1, the book 4:1, which is the cap as the sheet states it\n"
        "- `cap` · `other`: no engine rule recomputes this (claim example)\n"
        "- `crt`: CRT: die 6 gives 'EX' in 7 of its 8 columns (data line 415)\n"
        "- b.txt line 333: (14.1) cites rule 14.1; not checked: “y”\n\n"
        "## Data notes\n\n### Rule 3\n\n- data note on turn 1: No dates. (data line 9)\n"
    )
    assert report_keys(md) == [
        "explained cap · column",
        "unchecked cap · other",
        "unchecked crt",
        "data-note turn 1",
    ]


def test_a_missing_or_stale_row_is_reported() -> None:
    text = CHECKED.read_text(encoding="utf-8")
    key = "example-mismatch odds-26-7 · ratio"
    cut = checked_rows("\n".join(line for line in text.splitlines() if f"`{key}`" not in line))
    assert missing_rows("first_panzer_army", cut, _report("first_panzer_army")) == [key]
    extra = text.replace(
        "## Breakout: First Panzer Army (`first_panzer_army`)\n",
        "## Breakout: First Panzer Army (`first_panzer_army`)\n\n"
        "| `example-doubt gone` | warning | 1 | CONFIRMED | a finding the report does not have |\n"
        "| `example-doubt fixed` | warning | 1 | FALSE ALARM | fixed in the data, so no longer reported |\n",
    )
    assert stale_rows("first_panzer_army", checked_rows(extra), _report("first_panzer_army")) == ["example-doubt gone"]


# ------------------------------------------------------------------------------------------ BOOK_CHECKS.md
BOOK_VERDICTS = {"CONFIRMED": ("error", "warning"), "TRUE (info)": ("info",)}
"""The verdict a judged finding of the book may have, by severity (a false alarm is fixed in the check, and its
finding no longer reported, so it has no row of the tables)."""

_BOOK_HEAD = re.compile(r"- \*\*(?P<sev>Error|Warning)\*\* \(`(?P<kind>book-[a-z-]+)`\): \S+ line (?P<line>\d+): ")
_BOOK_INFO_LINE = re.compile(r"- \S+\.(?:txt|md|pdf) line (?P<line>\d+): (?P<msg>.*)")
BOOK_INFO = {
    "book-not-encoded": " is in no worked example of the data",
    "book-xref-unchecked": "; not checked: ",
    "book-order": ": out of order in the text",
}
"""How each info kind of the book reads in a report's "Not checked" list (the Markdown prints no kind there)."""


def book_keys(markdown: str) -> list[tuple[int, str, str]]:
    """(book line, kind, severity) of every finding of the rulebook in a Markdown errata report."""
    keys: list[tuple[int, str, str]] = []
    section = ""
    for line in markdown.splitlines():
        if line.startswith("## "):
            section = line[3:]
        elif section == "Findings by rule" and (mh := _BOOK_HEAD.match(line)):
            keys.append((int(mh.group("line")), mh.group("kind"), mh.group("sev").lower()))
        elif section == "Not checked" and (mi := _BOOK_INFO_LINE.fullmatch(line)):
            kinds = [k for k, phrase in BOOK_INFO.items() if phrase in mi.group("msg")]
            assert len(kinds) == 1, f"a finding of the book whose kind BOOK_INFO cannot tell: {line}"
            keys.append((int(mi.group("line")), kinds[0], "info"))
    return keys


def book_rows(text: str) -> dict[str, dict[tuple[int, str], tuple[str, str]]]:
    """BOOK_CHECKS.md's rows by game id, then by (book line, kind): (verdict, reason)."""
    rows: dict[str, dict[tuple[int, str], tuple[str, str]]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if not line.startswith("| ") or len(cells) != 5 or not cells[1].isdigit():
            continue
        game, no, kind, verdict, reason = cells
        key = (int(no), kind.strip("`"))
        assert key not in rows.setdefault(game, {}), f"BOOK_CHECKS.md: {game} line {no} {kind} listed twice"
        rows[game][key] = (verdict, reason)
    return rows


BOOK_ROWS = book_rows(BOOK_CHECKS.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_every_finding_of_the_book_is_judged(game: str) -> None:
    """Each finding of the rulebook in a committed report, info included, has a row in BOOK_CHECKS.md whose
    verdict suits its severity, and each row names a finding the report still has."""
    found = book_keys(_report(game))
    rows = BOOK_ROWS.get(game, {})
    missing = [(no, kind) for no, kind, _ in found if (no, kind) not in rows]
    assert not missing, (
        f"docs/errata/{game}.md has findings of the book that docs/errata/BOOK_CHECKS.md does not judge; read each "
        f"against the rulebook and add a row: {missing}"
    )
    wrong = [(no, kind, sev) for no, kind, sev in found if sev not in BOOK_VERDICTS.get(rows[(no, kind)][0], ())]
    assert not wrong, f"BOOK_CHECKS.md: a verdict that does not suit the finding's severity under {game}: {wrong}"
    stale = sorted(set(rows) - {(no, kind) for no, kind, _ in found})
    assert not stale, f"BOOK_CHECKS.md rows under {game} name findings of the book its report no longer has: {stale}"


def test_book_rows_are_complete() -> None:
    assert set(BOOK_ROWS) <= set(GAMES)
    for game, rows in BOOK_ROWS.items():
        for (no, kind), (verdict, reason) in rows.items():
            where = f"BOOK_CHECKS.md, {game}, line {no}, {kind}"
            assert kind.startswith("book-"), where
            assert verdict in BOOK_VERDICTS, where
            assert len(reason) > 20, where


def test_book_keys_of_a_report() -> None:
    """Errors and warnings of the book by their kind, info lines by their wording; other findings are not the
    book's."""
    md = (
        "## Findings by rule\n\n### Rule 4.4\n\n"
        "- **Error** (`book-xref`): b.txt line 262: (4.4) cites rule 4.4, which the book does not have: “x”\n"
        "- **Warning** (`example-doubt`) `slip`: a doubt\n\n"
        "## Not checked\n\n### Rule 14.1\n\n"
        "- b.txt line 333: (14.1) cites rule 14.1, rule 14.0 numbers no case in the text; not checked: “y”\n"
        "- b.txt line 1169: hex “hex 2701” is in no worked example of the data\n"
        "- `words` · `min_lines`: [not in the book] no engine rule recomputes this (data line 3)\n"
    )
    assert book_keys(md) == [
        (262, "book-xref", "error"),
        (333, "book-xref-unchecked", "info"),
        (1169, "book-not-encoded", "info"),
    ]
    assert report_keys(md) == ["example-doubt slip", "unchecked words · min_lines"]
