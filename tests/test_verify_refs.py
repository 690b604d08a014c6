"""forge.verifier.ex_refs: the book's cross-references checked against the rule numbers of the data, and the errata
the data knows of reported, never left in free notes.

Properties:
- a reference agrees with the item it cites when it gives the item's rule or a part of it (14.3C in 14.3);
- a reference that gives another number is the book contradicting itself (a warning) where the example records the
  heading the data follows (``stated_otherwise``), and an error without it;
- renumbering the cited item to the reference's number makes the finding go;
- a ``cites`` that names nothing is reported as an unusable example, not silently passed;
- every cross-reference slip ``game.notes`` used to list is a finding of the committed errata reports.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given
from hypothesis import strategies as st

from forge.loader import loads
from forge.model import Game
from forge.verifier import severity, verify
from forge.verifier.ex_refs import within
from conftest import DATA, ROOT

U43 = DATA / "ukraine_43.yaml"


@cache
def text() -> str:
    return U43.read_text(encoding="utf-8")


def planted(*edits: tuple[str, str]) -> Game:
    t = text()
    for old, new in edits:
        assert t.count(old) == 1, old
        t = t.replace(old, new)
    return loads(t, "ukraine_43.yaml")


def found(game: Game, ref: str) -> list[tuple[str, str]]:
    return [(f.kind, severity(f)) for f in verify(game) if f.ref == ref and severity(f) != "info"]


numbers = st.lists(st.integers(1, 40), min_size=1, max_size=3).map(lambda xs: ".".join(map(str, xs)))


@given(numbers, st.sampled_from(["", "A", "C", ".1", ".12"]))
def test_a_part_of_a_rule_is_within_it(rule: str, part: str) -> None:
    """A lettered part or a sub-rule of a numbered rule is in it; a bare section ("13") holds only itself."""
    assert within(rule + part, rule) == (part == "" or "." in rule)


@given(numbers, numbers)
def test_another_number_is_not_within(a: str, b: str) -> None:
    """14.30 is not in 14.3, nor 14.5: only the rule itself and its parts are."""
    if a != b and not a.startswith(b + "."):
        assert not within(a, b)


def test_the_petrol_reference_is_the_book_contradicting_itself() -> None:
    game = planted()
    assert found(game, "xref-petrol-shortage") == [("example-contradiction", "warning")]
    f = next(f for f in verify(game) if f.ref == "xref-petrol-shortage")
    assert (f.stated, f.computed) == ("14.9", "14.7")
    assert "line 744" in f.message


def test_without_the_other_statement_it_is_an_error() -> None:
    game = planted(("    stated_otherwise: {rule: 744}   # the heading of the petrol shortage rule\n", ""))
    assert found(game, "xref-petrol-shortage") == [("example-mismatch", "error")]


def test_renumbering_the_cited_item_makes_it_agree() -> None:
    head = '  - id: petrol-shortage\n    title: Petrol Shortage Table\n    rule: "14.7"'
    game = planted((head, head.replace("14.7", "14.9")))
    assert found(game, "xref-petrol-shortage") == []
    c = next(c for c in verify(game).claims if c.example == "xref-petrol-shortage")
    assert c.status == "data"


def test_a_cites_that_names_nothing_is_reported() -> None:
    game = planted(('given: {cites: "tables[petrol-shortage]"}', 'given: {cites: "tables[petrol-shortag]"}'))
    assert found(game, "xref-petrol-shortage") == [("example-invalid", "warning")]


def test_the_slips_game_notes_listed_are_in_the_reports() -> None:
    """FPA's four and Ukraine's seven (34.5 is no slip: the scenario booklet holds it) are findings now."""
    games = ("first_panzer_army", "ukraine_43")
    reports = {g: (ROOT / "docs" / "errata" / f"{g}.md").read_text(encoding="utf-8") for g in games}
    for ref in ("xref-vp-table", "xref-weather-table", "stacking-scenario-wording", "town-effects-item-3"):
        assert f"`{ref}`" in reports["first_panzer_army"].split("## Coverage")[0], ref
    for ref in (
        "xref-petrol-shortage",
        "xref-attrition",
        "xref-oos-attack",
        "xref-los-zoc-from-zoc-rule",
        "xref-los-zoc-from-supply-rule",
        "xref-zoc-rule-number",
        "xref-reretreat-mobile-assault",
    ):
        assert f"`{ref}`" in reports["ukraine_43"].split("## Coverage")[0], ref
    for g in ("first_panzer_army", "ukraine_43"):
        notes = (DATA / f"{g}.yaml").read_text(encoding="utf-8").split("\nmap:")[0]
        assert "Cross-reference" not in notes
