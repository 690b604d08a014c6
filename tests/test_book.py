"""``forge verify --book``: the rulebook read and checked (forge/verifier/book.py).

The small books here are written for the tests; the seed books are used only when /work/shared/seeds (or
../shared/seeds next to the repository) exists, and the findings on them are the ones judged by hand in
docs/errata/BOOK_CHECKS.md: any other error or warning is a false alarm, any missing one a lost erratum.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, seed_game, seeds_dir
from hypothesis import given
from hypothesis import strategies as st

from forge.cli import main
from forge.verifier.book import (
    BookError,
    arithmetic,
    check_book,
    counts,
    cross_refs,
    headings,
    numbering,
    parse_book,
    read_book,
)

# A book written for these tests, for the Ferry Point game of data/ (Ferry Point 0403, Holm 0601, Lund 0604; six
# turns; ten unit counters).
TXT = """RIVER DRILL: RULES OF PLAY

Contents
1. Introduction ..... 1
2. Stacking ..... 2
3. Retreats ..... 3
5. Victory ..... 6

[1.0] INTRODUCTION
The game lasts seven turns. Holm (0601) is a red village.
A unit that must retreat falls back one hex (see 2.1).

[2.0] STACKING
[2.1] Stacking Limit: No more than two units may occupy one hex at the end of movement.
[2.2] Overstacking: A stack over the limit (see 2.1) must shed units at once.
[2.2] Village Stacks: A village holds three units.
[2.5] Markers: Markers never count against the limit.

[3.0] RETREATS
[3.1] Retreat Path: A beaten defender withdraws one hex away from the attacker.
[3.2] Blocked Retreats: A unit with no open hex loses a step instead (see 3.7).
[3.3] Losses: A stack of 9 reduced to 4 = loss of 4 steps.

[4.0] SUPPLY
[4.1] Sources: Ferry Point (0404) feeds the red units.
[4.2] Lund: The village of Lund (0604) is held by militia.
[4.3] Lund Again: Lund (0605) is where the reserve gathers.
[4.4] Odds: Blue attacks with 16 vs 4 = 5:1 and then 12 vs 4 = 3:1.
[4.5] Sums: 3 + 2 = 6, but 2 x 3 + 1 = 7 and 26÷7=3.71 are right.
"""


def _game(**map_update):  # type: ignore[no-untyped-def]
    """Ferry Point, with Lund declared as one place over two hexes, and one example read from line 29."""
    g = seed_game("ferry_point")
    ex = g.examples[0].model_copy(update={"source_line": 29})
    m = g.map.model_copy(update={"places": {"Lund": ["0604", "0605"]}, **map_update})
    return g.model_copy(update={"map": m, "examples": [ex, *g.examples[1:]]})


def _found(text: str = TXT, game=None):  # type: ignore[no-untyped-def]
    findings, statements = check_book(game or _game(), parse_book(text, "drill.txt"))
    return findings, statements


def _kinds(findings, kind):  # type: ignore[no-untyped-def]
    return [f for f in findings if f.kind == kind]


def test_headings_and_numbering() -> None:
    """Duplicates and gaps are warnings; the table of contents must match the body."""
    book = parse_book(TXT)
    hs = headings(book)
    assert [h.number for h in hs][:4] == ["1.0", "2.0", "2.1", "2.2"]
    issues = numbering(hs)
    assert any("2.2 'Village Stacks'" in i.message and "repeats" in i.message for i in issues)
    assert any("no rule 2.3" in i.message for i in issues)
    findings, _ = _found()
    num = _kinds(findings, "book-numbering")
    assert {f.extra["book_line"] for f in num} == {"16", "17"}
    contents = _kinds(findings, "book-contents")
    assert len(contents) == 1
    assert "5 'Victory'" in contents[0].message


def test_out_of_order_is_listed_not_claimed() -> None:
    findings, _ = _found("[1.0] A\nx\n[1.2] B\n[1.1] C\n[2.0] D\n[3.0] E\n[4.0] F\n")
    assert [f.kind for f in findings if f.kind.startswith("book-")][:1] == ["book-order"]
    assert not _kinds(findings, "book-numbering")


def test_a_value_in_brackets_is_no_reference() -> None:
    book = parse_book("Rough costs one and a half (1.5) MP per hex; see the chart (3.2) and rule 4.\n")
    assert [r.target for r in cross_refs(book)] == ["3.2", "4"]


def test_dangling_cross_reference_is_an_error() -> None:
    findings, _ = _found()
    dangling = _kinds(findings, "book-xref")
    assert len(dangling) == 1
    assert dangling[0].rule == "3.7"
    assert "line 21" in dangling[0].message


def test_topic_mismatch_quotes_both_and_spares_a_fitting_reference() -> None:
    """The introduction's sentence about retreating cites the stacking limit: one warning, naming the retreat
    rules; the overstacking rule's "(see 2.1)" fits its target and is no finding."""
    findings, _ = _found()
    topic = _kinds(findings, "book-xref-topic")
    assert len(topic) == 1
    f = topic[0]
    assert f.extra["book_line"] == "11"
    assert "Stacking Limit" in f.message
    assert "Retreat" in f.message
    assert "falls back one hex" in f.message


# A book for the references judged per rule (own words): 1.2 is the supply check, 1.4 the starvation that follows
# it, and 1.1 says where a supply line may not pass.
SUPPLY = """[1.0] SUPPLY
[1.1] Supply Lines: A supply line runs from a unit to a depot.
It may not pass through two vacant hexes next to enemy units.
[1.2] Supply Check: At the end of each turn, every unit checks its supply.
[1.3] Unsupplied Penalties: A unit without supply halves its attack.
[1.4] Starvation of Cut Off Units: After the supply check, a unit still cut off loses a step on a roll of 1.
[2.0] MOVEMENT
[2.1] Roads: A unit on a road pays half.
[2.2] Other Limits:
- A Supply Line (1.1) may not pass through two vacant hexes next to enemy units (1.3).
- Make the Supply Check for every unit (1.4), then roll for starvation (1.4).
[3.0] END PHASE
[3.1] Order: A unit out of supply halves its attack (1.3), and a unit cut off may starve (1.4).
[3.2] Starving: After the Supply Check, cut off units roll for starvation (1.4).
[3.3] Lines: A supply line may not pass through two vacant hexes next to enemy units (1.1).
"""


def test_a_clause_naming_another_rules_heading_is_a_topic_mismatch() -> None:
    """ "Make the Supply Check ... (1.4)" names 1.2's heading word for word, and nothing else it says is 1.4's: a
    warning naming 1.2; the same sentence's "(1.4)" for starvation, and 3.2, which names the check but is about
    starvation, fit 1.4."""
    topic = [f for f in _kinds(_found(SUPPLY)[0], "book-xref-topic") if f.rule == "1.4"]
    assert [(f.extra["book_line"], f.extra["fits"]) for f in topic] == [("11", "1.2")]
    assert "Make the Supply Check for every unit (1.4)" in topic[0].message


def test_a_reference_is_judged_by_its_own_part_of_a_sentence() -> None:
    """In "A Supply Line (1.1) may not pass ... (1.3)" the supply words are 1.1's; what 1.3 is cited for repeats
    1.1's text (and 3.3's, which repeats it) and nothing of 1.3's heading: a warning naming both. The same words
    citing 1.1 (3.3) are no finding, nor are the two references of 3.1, each fitting its own part."""
    topic = _kinds(_found(SUPPLY)[0], "book-xref-topic")
    assert [(f.extra["book_line"], f.rule, f.extra["fits"]) for f in topic] == [
        ("10", "1.3", "1.1, 3.3"),
        ("11", "1.4", "1.2"),
    ]


def test_a_heading_of_another_rule_named_in_passing_is_no_topic_mismatch() -> None:
    """A clause naming the heading of a case of another rule (4.1's Supply Depots) may cite the rule that explains
    it: only a case of the cited rule's own rule, named word for word, is taken as the rule meant."""
    text = SUPPLY + (
        "[3.4] Road Supply:\nRoads carry it from the Supply Depots (see 1.2).\n"
        "[4.0] PLACES\n[4.1] Supply Depots: Each side has three, printed on the map.\n"
    )
    topic = _kinds(_found(text)[0], "book-xref-topic")
    assert [f.extra["book_line"] for f in topic] == ["10", "11"]


def test_places_against_the_map_and_against_the_book() -> None:
    findings, _ = _found()
    place = _kinds(findings, "book-place")
    assert len(place) == 1
    assert place[0].stated == "0404"
    assert place[0].computed == "0403"
    twice = _kinds(findings, "book-place-twice")
    assert len(twice) == 1
    assert "Lund" in twice[0].message
    assert "0605" in twice[0].message
    assert "0604" in twice[0].message


def test_a_place_the_book_gives_over_several_hexes_at_once_is_no_contradiction() -> None:
    text = TXT.replace("Lund (0604) is held", "Lund (0604, 0605) is held")
    findings, _ = _found(text)
    assert not _kinds(findings, "book-place-twice")


def test_arithmetic() -> None:
    book = parse_book(TXT)
    got = {(a.text, a.ok) for a in arithmetic(book)}
    assert ("3 + 2 = 6", False) in got
    assert ("2 x 3 + 1 = 7", True) in got
    assert ("26÷7=3.71", True) in got
    assert ("16 vs 4 = 5:1", False) in got
    assert ("12 vs 4 = 3:1", True) in got
    assert ("9 reduced to 4 = loss of 4", False) in got
    findings, _ = _found()
    wrong = _kinds(findings, "book-arithmetic")
    assert sorted(f.computed for f in wrong) == ["4:1", "5", "5"]


def test_arithmetic_to_the_decimals_given() -> None:
    assert [a.ok for a in arithmetic(parse_book("That is, 27÷7=3.71, so"))] == [False]
    assert [a.ok for a in arithmetic(parse_book("That is, 27÷7=3.86, so"))] == [True]  # rounded
    assert [a.ok for a in arithmetic(parse_book("That is, 27÷7=3.85, so"))] == [True]  # cut off


def test_counts_against_the_data() -> None:
    assert [(c.what, c.n) for c in counts(parse_book(TXT))] == [("turns", 7)]
    assert counts(parse_book("A smoke marker lasts two turns.")) == []  # not the game's length
    findings, _ = _found()
    bad = _kinds(findings, "book-count")
    assert len(bad) == 1
    assert (bad[0].stated, bad[0].computed) == ("7", "6")
    ok, _ = _found(TXT.replace("seven turns", "six turns"))
    assert not _kinds(ok, "book-count")


def test_not_encoded_statements_and_coverage() -> None:
    """Statements near an example's source line (29: the odds of line 28) are encoded; the others (Holm on line
    10) are listed."""
    from forge.verifier.book import book_coverage

    findings, statements = _found()
    lines = {s.line: s.encoded for s in statements if s.what in ("place", "position", "hex", "arithmetic")}
    assert lines[28] is True
    assert lines[10] is False
    listed = {int(f.extra["book_line"]) for f in _kinds(findings, "book-not-encoded")}
    assert 10 in listed
    assert 28 not in listed
    cov = book_coverage(statements)
    assert cov["statements"] == len(statements)
    assert cov["encoded"] + cov["not_encoded"] == cov["statements"]
    assert 0 < cov["encoded"] < cov["statements"]


MD = """# Drill Rules

## TABLE OF CONTENTS

1. Moving ..... 2	2. Fighting ..... 3

# 1. MOVING

## 1.1 Movement Points

Each unit spends points to move (see 2.1).

## C. PLAYER TURN

### 1. MOVE PHASE

Move units (1.1).

### 2. FIGHT PHASE

# 2. FIGHTING

## 2.1 Odds

Compare strengths (see 2.7): 3 + 3 = 7.
"""


def test_markdown_book(tmp_path: Path) -> None:
    """A Markdown book: "### 1. MOVE PHASE" under a lettered heading is a step, not a second rule 1."""
    p = tmp_path / "drill.md"
    p.write_text(MD, encoding="utf-8")
    book = read_book(p)
    assert [h.number for h in headings(book)] == ["1", "1.1", "2", "2.1"]
    findings, _ = check_book(_game(), book)
    assert not _kinds(findings, "book-numbering")
    assert not _kinds(findings, "book-contents")
    assert [f.rule for f in _kinds(findings, "book-xref")] == []  # fewer than five headings: refs not judged
    assert [(a.text, a.ok) for a in arithmetic(book)] == [("3 + 3 = 7", False)]
    refs = {r.target for r in cross_refs(book)}
    assert {"2.1", "1.1", "2.7"} <= refs


def test_pdf_book(tmp_path: Path) -> None:
    """A PDF read through pypdf's text extraction."""
    from reportlab.pdfgen import canvas

    p = tmp_path / "drill.pdf"
    c = canvas.Canvas(str(p), invariant=1)
    lines = [
        "1.0 INTRODUCTION",
        "1.1 Scale: Each hex is two miles.",
        "2.0 MOVEMENT",
        "2.1 Roads: A road halves the cost (see 3.4).",
        "3.0 COMBAT",
        "3.1 Odds: Divide the strengths: 3 + 2 = 6.",
        "4.0 SUPPLY",
    ]
    for i, text in enumerate(lines):
        c.drawString(72, 720 - 16 * i, text)
    c.save()
    book = read_book(p)
    assert [h.number for h in headings(book)] == ["1.0", "1.1", "2.0", "2.1", "3.0", "3.1", "4.0"]
    findings, _ = check_book(_game(), book)
    assert [f.rule for f in _kinds(findings, "book-xref")] == ["3.4"]
    assert [f.computed for f in _kinds(findings, "book-arithmetic")] == ["5"]


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("missing.txt", None, "no such file"),
        ("rules.docx", b"x", "must be a .txt, .md or .pdf"),
        ("empty.txt", b"  \n", "no text"),
        ("broken.pdf", b"%PDF-1.4 not really", "PDF"),
        ("folder.txt", "dir", "is a directory"),
    ],
)
def test_bad_book(tmp_path: Path, name: str, content: bytes | str | None, expected: str) -> None:
    p = tmp_path / name
    if content == "dir":
        p.mkdir()
    elif isinstance(content, bytes):
        p.write_bytes(content)
    with pytest.raises(BookError, match=expected):
        read_book(p)


def test_cli_bad_book_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = str(ROOT / "data" / "ferry_point.yaml")
    rc = main(["verify", game, "--no-print-check", "--book", str(tmp_path / "nope.txt")])
    out, err = capsys.readouterr()
    assert rc == 2
    assert out == ""
    assert err.strip().count("\n") == 0
    assert "--book" in err
    assert "nope.txt: no such file" in err


def test_cli_book_coverage_in_the_headline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "drill.txt"
    p.write_text(TXT, encoding="utf-8")
    game = str(ROOT / "data" / "ferry_point.yaml")
    rc = main(["verify", game, "--no-print-check", "--book", str(p)])
    out, _ = capsys.readouterr()
    assert rc == 1
    head = out.splitlines()[0]
    assert "coverage of the book:" in head
    assert "not encoded" in head
    assert "book-xref" in out
    rc = main(["verify", game, "--no-print-check", "--book", str(p), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert (
        doc["summary"]["book"]["statements"]
        == doc["summary"]["book"]["encoded"] + doc["summary"]["book"]["not_encoded"]
    )
    assert doc["summary"]["book"]["not_encoded"] == doc["summary"]["by_kind"]["book-not-encoded"]
    main(["verify", game, "--no-print-check", "--book", str(p), "--format", "markdown"])
    assert "Coverage of the book:" in capsys.readouterr().out
    main(["verify", game, "--no-print-check"])
    assert "coverage of the book" not in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------ the seed books
SEEDS = seeds_dir()
GAMES = {
    "000": "hells_gate",
    "001": "escape_from_hells_gate",
    "002": "tabletop_hells_gate",
    "003": "first_panzer_army",
    "004": "ukraine_43",
}

JUDGED = {
    # (kind, book line) of every error and warning on the seed books, each judged an erratum by hand
    # (docs/errata/BOOK_CHECKS.md)
    "000": {("book-xref-topic", 1339), ("book-place-twice", 911)},
    "001": {("book-xref-topic", 1159)},
    "002": set(),
    "003": {("book-xref", 262), ("book-arithmetic", 815)},
    "004": {
        ("book-numbering", 90),
        ("book-contents", 20),
        ("book-xref", 120),
        ("book-xref", 163),
        ("book-xref-topic", 203),
        ("book-xref-topic", 330),
        ("book-xref", 710),
        ("book-xref", 783),
        ("book-xref-topic", 923),
        ("book-xref", 1286),
        ("book-xref", 1333),
        ("book-xref-topic", 1333),
    },
}


@pytest.mark.skipif(SEEDS is None, reason="the seed rulebooks are not on this machine")
@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_seed_books_give_exactly_the_judged_findings(prefix: str) -> None:
    """No false alarm, no lost erratum: the errors and warnings on each seed book are the judged ones."""
    from forge.verifier.policy import severity

    assert SEEDS is not None
    book = read_book(next(SEEDS.glob(f"{prefix}_*.txt")))
    findings, _ = check_book(seed_game(GAMES[prefix]), book)
    got = {(f.kind, int(f.extra["book_line"])) for f in findings if severity(f) != "info"}
    assert got == JUDGED[prefix]


@pytest.mark.skipif(SEEDS is None, reason="the seed rulebooks are not on this machine")
def test_seed_errata_named() -> None:
    """The known errata are found and say what they should: Hell's Gate's CRT key cites 7.5 for the mandatory
    retreat of 7.6, and gives Cherkassy at F7 against F6; Ukraine '43 cites 14.9 (no such rule), 8.5 for 18.5,
    15.8 (no such rule), 14.5 for 14.3 and 14.6 for 14.4."""
    assert SEEDS is not None
    hg, _ = check_book(seed_game("hells_gate"), read_book(next(SEEDS.glob("000_*.txt"))))
    topic = next(f for f in hg if f.kind == "book-xref-topic")
    assert topic.rule == "7.5"
    assert "7.6" in topic.extra["fits"]
    twice = next(f for f in hg if f.kind == "book-place-twice")
    assert "Cherkassy as F7" in twice.message
    assert "as F6" in twice.message
    uk, _ = check_book(seed_game("ukraine_43"), read_book(next(SEEDS.glob("004_*.txt"))))
    assert {f.rule for f in uk if f.kind == "book-xref"} == {"14.9", "14.8", "6.6", "15.8"}
    pontoon = next(f for f in uk if f.kind == "book-xref-topic" and f.rule == "8.5")
    assert pontoon.extra["fits"] == "18.5"
    # judged per rule: 6.5's "(14.5)" for the line-of-supply limit that 14.3 sets out, the end phase's "(14.6)"
    # for the general supply check of 14.4
    assert {f.rule: f.extra["fits"] for f in uk if f.kind == "book-xref-topic" and f.rule in ("14.5", "14.6")} == {
        "14.5": "14.3",
        "14.6": "14.4",
    }
    los = next(f for f in uk if f.rule == "14.5")
    assert "two consecutive vacant hexes in an enemy ZOC (14.5)" in los.message  # the quote ends at the reference


# ------------------------------------------------------------------------------------------------ properties
@given(st.integers(0, 999), st.integers(0, 999), st.sampled_from(["+", "x", "-"]), st.integers(1, 5))
def test_arithmetic_property(a: int, b: int, op: str, off: int) -> None:
    """A written-out sum, product or difference is right exactly when its result is the true one."""
    true = {"+": a + b, "x": a * b, "-": a - b}[op]
    if true < 0:
        return
    good = arithmetic(parse_book(f"so {a} {op} {b} = {true} here"))
    bad = arithmetic(parse_book(f"so {a} {op} {b} = {true + off} here"))
    assert [x.ok for x in good] == [True]
    assert [x.ok for x in bad] == [False]
    assert bad[0].computed == str(true)


@given(st.text(alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs", "Cc"]), max_size=400))
def test_any_text_is_read_without_error(text: str) -> None:
    """Whatever the text, the book reads and every check runs (no exception, same result twice)."""
    book = parse_book(text)
    once = check_book(_game(), book)
    assert once == check_book(_game(), book)


def test_a_scenario_shorter_than_the_track_is_no_count_mismatch() -> None:
    """The book may give one scenario's length: any scenario's turns count, not only the whole track's."""
    uk = seed_game("ukraine_43")
    short = uk.scenarios[0].model_copy(update={"first_turn": 5, "last_turn": 9})
    game = uk.model_copy(update={"scenarios": [short, *uk.scenarios[1:]]})
    book = parse_book("The scenario lasts five turns.\nThe scenario lasts six turns.\n")
    findings, _ = check_book(game, book)
    bad = _kinds(findings, "book-count")
    assert [f.extra["book_line"] for f in bad] == ["2"]
    assert "scenarios: 5" in bad[0].message


def test_doctests() -> None:
    import doctest

    import forge.verifier.book

    assert doctest.testmod(forge.verifier.book).failed == 0


@pytest.mark.parametrize(
    ("sentence", "finding"),
    [
        ("The game has 10 counters.", None),  # the ten unit counters
        ("The game has 23 counters.", None),  # with the 13 markers
        ("The game has 40 counters.", None),  # more than the data holds: the data may not hold every counter
        ("The game has 8 counters.", ("8", "10")),  # fewer than the unit counters the data holds
        ("There are two counters labeled 266th.", None),  # not the counter mix
    ],
)
def test_counter_totals(sentence: str, finding: tuple[str, str] | None) -> None:
    findings, _ = _found(sentence + "\n")
    got = [(f.stated, f.computed) for f in _kinds(findings, "book-count")]
    assert got == ([finding] if finding else [])
