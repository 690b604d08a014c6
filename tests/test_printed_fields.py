"""Issue 21, "nothing inert": text fields written for players are printed where a player looks for them, read back
from the rendered PDFs (pypdf) -- victory levels on the victory card and the handout's victory point record, phase
steps under their phase on the sequence of play, the stacking rule's ``when`` with the stacking limits, named
hexsides with the terrain chart -- and glyph coverage now covers them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import given
from hypothesis import strategies as hs
from conftest import seed_page_texts

from forge import model as m
from forge.builder import BuildOptions
from forge.errors import LoadError
from forge.glyphs import NOT_PRINTED, uncovered_text
from forge.loader import load, loads
from forge.render import cards
from forge.rules.kit.victory import level

DATA = Path(__file__).resolve().parent.parent / "data"


def _text(pdf: bytes) -> str:
    """Every page's text, whitespace collapsed, read with pdfium: the same words as pypdf reads on these pages, in a
    twentieth of the time (the handout's map pages hold thousands of strings)."""
    doc = pdfium.PdfDocument(pdf)
    return _flat_pages([doc[i].get_textpage().get_text_range() for i in range(len(doc))])


def _flat_pages(pages: Sequence[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(pages)).strip()


@cache
def _game(name: str) -> m.Game:
    return load(DATA / f"{name}.yaml")


@cache
def _cards_text(name: str) -> str:
    return _flat_pages(seed_page_texts("cards", name))


def _flat(s: str) -> str:
    return re.sub(r"\s+", " ", s)


# ------------------------------------------------------------------------------------------------ victory levels
def test_every_victory_level_is_printed_on_the_victory_card() -> None:
    for name in ("first_panzer_army", "halden_line", "escape_from_hells_gate"):
        game, text = _game(name), _cards_text(name)
        assert game.victory is not None, name
        assert game.victory.levels, name
        assert "Victory level" in text, name
        for lv in game.victory.levels:
            label, who, score = cards.level_words(game, lv)
            assert _flat(f"{label} {who} {score}") in text, (name, lv.id)


def test_victory_levels_read_as_a_player_reads_them() -> None:
    game = _game("first_panzer_army")
    words = {lv.id: cards.level_words(game, lv) for lv in game.victory.levels}  # type: ignore[union-attr]
    assert words["soviet-win"] == ("Soviet win", "Soviet wins", "32 or more")
    assert words["draw"] == ("Draw", "Draw", "28 to 31")
    assert words["german-win"] == ("German win", "German wins", "27 or less")
    text = _cards_text("first_panzer_army")
    assert "Soviet win Soviet wins 32 or more" in text


def test_a_victory_level_in_words_prints_its_condition() -> None:
    text = _cards_text("escape_from_hells_gate")
    assert "German wins more such units than green units eliminated or cut off" in text


def test_the_handout_victory_point_record_prints_the_levels() -> None:
    game = _game("halden_line")
    text = _flat_pages(seed_page_texts("handout", "halden_line"))
    for lv in game.victory.levels:  # type: ignore[union-attr]
        label, who, score = cards.level_words(game, lv)
        assert _flat(f"{label} {who} {score}") in text, lv.id


@given(lo=hs.integers(-50, 50), span=hs.integers(0, 40), which=hs.sampled_from(["both", "min", "max"]))
def test_a_level_s_printed_score_is_the_range_the_engine_scores(lo: int, span: int, which: str) -> None:
    """The printed range and :func:`forge.rules.kit.victory.level` agree on every score around it."""
    lv = m.VictoryLevel(
        id="x",
        side="red",
        min=lo if which != "max" else None,
        max=lo + span if which != "min" else None,
    )
    _, _, score = cards.level_words(_game("halden_line"), lv)
    victory = m.Victory(summary="s", levels=[lv])
    if which == "both" and span == 0:
        assert score == str(lo)
        inside = {lo}
    elif which == "both":
        a, b = (int(x) for x in score.split(" to "))
        inside = set(range(a, b + 1))
    elif which == "min":
        assert score.endswith(" or more")
        inside = set(range(int(score.split()[0]), 200))
    else:
        assert score.endswith(" or less")
        inside = set(range(-200, int(score.split()[0]) + 1))
    for s in range(lo - 60, lo + span + 60):
        assert (level(victory, s) is lv) == (s in inside), s


# ----------------------------------------------------------------------------------------------------- phase steps
def test_each_phase_step_s_text_is_printed_under_its_phase() -> None:
    game, text = _game("ukraine_43"), _cards_text("ukraine_43")
    steps = [(p, s) for p in game.sequence for s in p.steps if s.text]
    assert steps
    for _, s in steps:
        at = cards.STEP_AT[s.at]
        assert _flat(f"{at}: {s.text}") in text, s.id
    # under its own phase: after that phase's name and before the next phase's, on the sequence of play
    start = text.index("Sequence of play")
    for p, s in steps:
        k = game.sequence.index(p)
        at = text.index(p.name, start)
        assert k + 1 < len(game.sequence)
        end = text.index(game.sequence[k + 1].name, at)
        assert at < text.index(_flat(f"{cards.STEP_AT[s.at]}: {s.text}"), at) < end, s.id


def test_a_step_s_text_added_to_a_phase_is_printed() -> None:
    game = _game("halden_line")
    phase = game.sequence[0]
    step = m.PhaseStep(id="check-odd", at="end", text="Remove every Zeppelin marker", rule="4.4")
    seq = [phase.model_copy(update={"steps": [*phase.steps, step]}), *game.sequence[1:]]
    text = _text(cards.render(game.model_copy(update={"sequence": seq}), BuildOptions()))
    assert "At the end: Remove every Zeppelin marker (4.4)" in text


# -------------------------------------------------------------------------------------------------------- stacking
def test_the_stacking_rule_and_when_it_is_checked_are_printed() -> None:
    for name in ("first_panzer_army", "ukraine_43", "escape_from_hells_gate"):
        game, text = _game(name), _cards_text(name)
        sr = game.rules.stacking
        assert sr is not None, name
        assert sr.when, name
        assert f"Stacking ({sr.rule})" in text, name
        assert _flat(f"Checked {sr.when}.") in text, name
        for line in cards.stacking_lines(game):
            assert _flat(line) in text, (name, line)


def test_stacking_limits_read_in_words() -> None:
    lines = cards.stacking_lines(_game("first_panzer_army"))
    assert lines[0] == "German: at most 9 steps in a hex (6.1)."
    assert lines[1] == "Soviet: at most 4 other, 1 artillery in a hex (steps counted) (6.2)."
    assert "Not counted: garrison." in lines
    assert cards.stacking_lines(_game("halden_line")) == ["Each side: at most 2 units in a hex."]
    assert cards.stacking_lines(_game("hells_gate")) == ["No stacking limit."]


# ------------------------------------------------------------------------------------------------ named hexsides
def test_named_hexsides_are_printed_with_the_terrain_chart() -> None:
    for name in ("hells_gate", "halden_line", "ferry_point"):
        game, text = _game(name), _cards_text(name)
        named = [h for h in game.map.hexsides if h.name]
        assert named, name
        for h in named:
            assert h.name is not None
            assert _flat(f"{h.name} {h.between[0]}/{h.between[1]}") in text, (name, h.name)
    assert cards.named_hexsides(_game("hells_gate")) == "Turiya B7/B6; Tiassmin D7/D6"


def test_a_river_named_on_several_hexsides_is_named_once() -> None:
    game = _game("halden_line")
    hx = game.map.hexsides
    first = next(h for h in hx if h.name)
    more = first.model_copy(update={"between": ("0802", "0902")})
    g2 = game.model_copy(update={"map": game.map.model_copy(update={"hexsides": [*hx, more]})})
    assert cards.named_hexsides(g2) == f"{first.name} {first.between[0]}/{first.between[1]}, 0802/0902"


# ---------------------------------------------------------------------------------------------------- glyph warnings
def test_the_printed_fields_are_off_not_printed() -> None:
    assert "VictoryLevel" not in NOT_PRINTED
    assert "when" not in NOT_PRINTED.get("StackingRules", frozenset())
    assert "name" not in NOT_PRINTED.get("HexsideInfo", frozenset())
    assert "text" not in NOT_PRINTED.get("PhaseStep", frozenset())


def test_a_character_no_font_has_in_a_printed_field_warns() -> None:
    game = _game("first_panzer_army")
    v = game.victory
    assert v is not None
    assert game.rules.stacking is not None
    levels = [v.levels[0].model_copy(update={"condition": "坦克"}), *v.levels[1:]]
    stacking = game.rules.stacking.model_copy(update={"when": "坦克"})
    hexsides = [m.HexsideInfo(between=("2908", "2907"), features=["river"], name="坦克")]
    g2 = game.model_copy(
        update={
            "victory": v.model_copy(update={"levels": levels}),
            "rules": game.rules.model_copy(update={"stacking": stacking}),
            "map": game.map.model_copy(update={"hexsides": [*game.map.hexsides, *hexsides]}),
        }
    )
    paths = {tuple(u.path) for u in uncovered_text(g2)}
    assert ("victory", "levels", 0, "condition") in paths
    assert ("rules", "stacking", "when") in paths
    assert ("map", "hexsides", len(game.map.hexsides), "name") in paths


# ------------------------------------------------------------------------------------ check: a level says something
def _refused(text: str) -> str:
    with pytest.raises(LoadError) as e:
        loads(text, "g.yaml")
    return str(e.value)


def _edit(old: str, new: str) -> str:
    text = (DATA / "first_panzer_army.yaml").read_text("utf-8")
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_a_victory_level_with_no_score_and_no_condition_is_refused_where_it_is() -> None:
    text = _edit('- {id: draw, min: 28, max: 31, rule: "4.3"}', '- {id: draw, rule: "4.3"}')
    msg = _refused(text)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "{id: draw, rule:" in ln)
    assert f"g.yaml:{line}:" in msg
    assert "victory.levels[1]: victory level 'draw' gives no final score and no condition" in msg
    assert "expected min, max" in msg
    words = _edit('- {id: draw, min: 28, max: 31, rule: "4.3"}', '- {id: draw, condition: "neither side wins"}')
    loads(words, "g.yaml")


def test_a_victory_level_s_side_must_be_a_side_of_the_game() -> None:
    msg = _refused(_edit("- {id: soviet-win, side: soviet,", "- {id: soviet-win, side: soviett,"))
    assert "victory.levels[0].side: 'soviett' is not a known side (did you mean 'soviet'?)" in msg
