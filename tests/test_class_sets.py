"""Complete class sets (issue 24, item 1): each data/ game's set, read back from the PDF (pypdfium2's text:
pypdf takes minutes on a big game's map pages), holds every rule
summary, every table, the special rules' text, the stacking rule, the set-up and the map, and a victory point
record only for a game that scores points; ``forge build --sets`` says how many pages before it writes, and
refuses more than ``--max-pages``."""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

import pytest
from conftest import data_files, seed_game, seed_page_texts, seed_render

from forge.builder import MAX_PAGES, BuildOptions, TooManyPages
from forge.cli import main
from forge.loader import load
from forge.model import Game
from forge.render import cards, handout

DATA = Path(__file__).resolve().parent.parent / "data"


def _squash(text: str) -> str:
    """Text without whitespace or soft hyphens: a sentence reads the same wherever a line or a cell wraps it."""
    return re.sub(r"[\s\xad]+", "", text)


@functools.cache
def _set(name: str, sets: int = 1) -> tuple[Game, list[str], list[str]]:
    """The game, each page's squashed text, and the page-count lines ``options.report`` was told."""
    _, told = seed_render("handout", name, sets=sets)  # drawn once per session: other files read the same handout
    return seed_game(name), [_squash(t) for t in seed_page_texts("handout", name, sets=sets)], list(told)


def _rule_texts(game: Game) -> dict[str, str]:
    """Every text of ``game`` a player needs at the table, by what it is."""
    want: dict[str, str] = {}
    for sr in game.special_rules:
        want[f"special rule {sr.rule} title"] = sr.title
        want[f"special rule {sr.rule} text"] = sr.summary
    for t in game.tables:
        want[f"table {t.id} title"] = t.title
        for i, n in enumerate(t.notes):
            want[f"table {t.id} note {i}"] = n
        for r in t.rows:
            want[f"table {t.id} row {r.label}"] = r.label
    for p in game.sequence:
        if p.summary:
            want[f"phase {p.name}"] = p.summary
        for s in p.steps:
            if s.text:
                want[f"phase {p.name} step {s.id}"] = s.text
    for turn in game.turns.turns:
        if turn.note:
            want[f"turn {turn.number} note"] = turn.note
    if game.turns.weather is not None and game.turns.weather.summary:
        want["weather"] = game.turns.weather.summary
    for tid, t in game.terrain.items():
        want[f"terrain {tid}"] = t.name
        if t.movement_note:
            want[f"terrain {tid} movement note"] = t.movement_note
        if t.combat.text:
            want[f"terrain {tid} combat"] = t.combat.text
    if game.combat.crt is not None:
        want["CRT title"] = game.combat.crt.title
        if game.combat.crt.note:
            want["CRT note"] = game.combat.crt.note
    if game.combat.note:
        want["combat note"] = game.combat.note
    if game.victory is not None:
        want["victory"] = game.victory.summary
    for i, line in enumerate(cards.stacking_lines(game)):
        want[f"stacking {i}"] = line
    for i, row in enumerate(cards.limit_rows(game)):
        want[f"limit {i}"] = row[0]
    for sc in game.scenarios:
        if sc.summary:
            want[f"scenario {sc.name}"] = sc.summary
    for u in game.units:
        want[f"unit {u.id}"] = u.name
    return want


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_every_rule_table_and_special_rule_is_in_the_set(path: Path) -> None:
    game, pages, _ = _set(path.stem)
    text = "".join(pages)
    want = _rule_texts(game)
    assert game.special_rules
    missing = {what: words for what, words in want.items() if _squash(words) not in text}
    assert not missing
    assert any("Set-upsheet" in p for p in pages)
    assert any(re.search(r"tile\d+of\d+|Assembly", p) for p in pages) or any("CLASSSET" in p for p in pages)
    for t in game.tables:  # a table's title is a heading of the rules part, not only a mention elsewhere
        assert any("Rulesandtables" in p and _squash(t.title) in p for p in pages), t.id


def test_ferry_points_rules_are_in_the_set_not_only_on_the_cards() -> None:
    """Ferry Point's rules T1 and T3 to T9 used to be only in cards.pdf."""
    game, pages, _ = _set("ferry_point")
    rules = [p for p in pages if "Rulesandtables" in p]
    assert rules
    for sr in game.special_rules:
        assert any(_squash(sr.summary) in p for p in rules), sr.rule


def test_hells_gates_tables_special_rules_and_stacking_are_in_the_set() -> None:
    game, pages, _ = _set("hells_gate")
    rules = "".join(p for p in pages if "Rulesandtables" in p)
    assert len(game.tables) == 2
    for t in game.tables:
        assert _squash(t.title) in rules
    for sr in game.special_rules:
        assert _squash(sr.summary) in rules
    assert "Stacking" in rules
    assert all(_squash(line) in rules for line in cards.stacking_lines(game))


def test_a_game_without_victory_points_has_no_victory_point_record() -> None:
    game, pages, _ = _set("escape_from_hells_gate")
    assert game.victory is not None
    assert not game.victory.points
    assert not any("Victorypointrecord" in p for p in pages)
    assert any(_squash(game.victory.summary) in p for p in pages)  # its victory conditions still are
    game, pages, _ = _set("hells_gate")
    assert game.victory is not None
    assert game.victory.points
    assert any("Victorypointrecord" in p for p in pages)


def test_every_set_has_the_same_even_number_of_pages_and_says_how_many() -> None:
    _, one, told_one = _set("ferry_point")
    _, three, told = _set("ferry_point", sets=3)
    assert len(one) % 2 == 0
    assert len(three) == 3 * len(one)
    assert told_one == [f"handout: 1 set of {len(one)} pages, {len(one)} pages in total"]
    assert told == [f"handout: 3 sets of {len(one)} pages, {3 * len(one)} pages in total"]
    for i, code in enumerate(("S01", "S02", "S03")):
        assert all(code in p for p in three[i * len(one) : (i + 1) * len(one)])


def test_a_handout_past_the_page_limit_is_refused_after_its_first_set() -> None:
    game = load(DATA / "ferry_point.yaml")
    each = len(_set("ferry_point")[1])
    drawn: list[str] = []
    options = BuildOptions(sets=3, max_pages=3 * each - 1, progress=drawn.append)
    with pytest.raises(TooManyPages) as e:
        handout.render(game, options)
    assert (e.value.sets, e.value.each, e.value.limit) == (3, each, 3 * each - 1)
    assert drawn == ["rendering handout, set 1 of 3"]  # refused before the second set is drawn
    assert f"--max-pages {3 * each}" in str(e.value)
    handout.render(game, dataclasses.replace(options, max_pages=3 * each, progress=None))  # at the limit: drawn
    assert BuildOptions().max_pages == MAX_PAGES


def test_forge_build_prints_the_page_count_and_refuses_past_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    each = len(_set("ferry_point")[1])
    game = str(DATA / "ferry_point.yaml")
    out = tmp_path / "out"
    status = main(["build", game, "--only", "handout", "--sets", "3", "--max-pages", str(2 * each), "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 2
    assert f"handout: 3 sets of {each} pages, {3 * each} pages in total" in err
    assert f"more than the limit of {2 * each} pages" in err
    assert "Traceback" not in err
    assert not out.exists() or not any(out.rglob("*.pdf"))  # nothing written
    status = main(["build", game, "--only", "handout", "--sets", "3", "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 0
    assert f"handout: 3 sets of {each} pages, {3 * each} pages in total" in err
    assert (out / "ferry_point" / "handout.pdf").is_file()


def test_max_pages_without_a_handout_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    game = str(DATA / "ferry_point.yaml")
    status = main(["build", game, "--only", "cards", "--max-pages", "10", "--out", "/nowhere"])
    assert status == 2
    assert "--max-pages" in capsys.readouterr().err


def test_the_help_gives_the_page_limit_the_builder_applies() -> None:
    from forge.cli import build_parser

    build = next(a for a in build_parser()._subparsers._group_actions[0].choices.values() if a.prog.endswith("build"))  # type: ignore[union-attr]
    text = " ".join(build.format_help().split())
    assert f"(default {MAX_PAGES})" in text
