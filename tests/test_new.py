"""``forge new`` and the games it writes (Ferry Point, data/ferry_point.yaml; the classic starting game).

Properties:
- the game ``forge new`` writes, on every system and grid it offers, passes ``check`` and ``verify`` with nothing to
  report and every worked example's values recomputed, and the engine plays it to the end from its data alone;
- ``--system classic`` writes a game on the standard-rules kit (strength-movement counters, a set-up zone per side,
  a rail mode, coded results with a floor and a ceiling, replacements, control, a city to hold) that ``check``,
  ``build``, ``verify`` and ``play --games 50`` pass;
- a template's own words (Ferry Point's) appear in the written file only when the new game is called by the
  template's own title; the new title appears, on the map too;
- a name in any script that starts with a letter gets an ASCII id (transliterated, else a stable short hash); an
  emoji alone is refused;
- data/ferry_point.yaml is exactly ``forge new "Ferry Point"`` (one source: forge/games/new_hex.yaml);
- every value a counter prints is known: no write-in box, no "?";
- a bad name, an unknown grid or an existing file is one message and exit status 2, and nothing is written.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from forge import model as m

from forge.cli import main
from forge.loader import loads
from forge.new import GRIDS, TEMPLATES, NewGameError, _title, game_id, game_text
from forge.rules.engine import Dice, apply, legal_actions
from forge.rules.state import State
from forge.verifier import severity, verify
from forge.verifier.report import coverage


@pytest.mark.parametrize(("system", "grid"), sorted(TEMPLATES))
def test_the_new_game_verifies_clean_with_every_example_recomputed(system: str, grid: str) -> None:
    game = loads(game_text("River Crossing", grid, system=system), f"river_crossing_{grid}.yaml")
    assert game.game.id == "river_crossing"
    findings = verify(game)
    assert [f.message for f in findings if severity(f) != "info"] == []
    cv = coverage(findings.claims)
    assert cv["total"] >= 10
    assert cv["percent"] == 100.0
    assert all(u.strengths() and all(s.known for s in u.strengths()) for u in game.units)


@pytest.mark.parametrize("grid", GRIDS)
def test_the_engine_plays_the_new_game_to_the_end(grid: str) -> None:
    game = loads(game_text("River Crossing", grid), f"river_crossing_{grid}.yaml")
    for seed in range(5):
        rng, dice = random.Random(seed), Dice(seed)
        state = State.initial(game)  # every strength is known: nothing to assume
        for _ in range(5000):
            if state.result is not None:
                break
            apply(state, rng.choice(legal_actions(state)), dice)
        assert state.result is not None, f"{grid} seed {seed}: no result after 5000 actions"
        assert state.turn == len(game.turns.turns)


def test_every_value_the_teaching_game_prints_is_known() -> None:
    """No write-in box and no "?": the counters print every unit's strengths, front and back."""
    import pypdfium2 as pdfium

    from forge.builder import BuildOptions
    from forge.render import counters

    game = loads((DATA / "ferry_point.yaml").read_text(encoding="utf-8"), "ferry_point.yaml")
    pdf = pdfium.PdfDocument(counters.render(game, BuildOptions()))
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "?" not in text
    for u in game.units:
        for step in u.steps:
            assert step in text, (u.id, step)


def test_the_teaching_game_in_data_is_what_forge_new_writes() -> None:
    committed = (DATA / "ferry_point.yaml").read_text(encoding="utf-8")
    assert committed == game_text("Ferry Point", "hex", schema="../docs/hexforge.schema.json"), (
        "data/ferry_point.yaml differs from forge/games/new_hex.yaml; refresh it with: python -c "
        "\"from forge.new import game_text; open('data/ferry_point.yaml', 'w').write("
        "game_text('Ferry Point', 'hex', schema='../docs/hexforge.schema.json'))\""
    )


def test_forge_new_writes_the_game_and_its_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "River Crossing", "--grid", "square", "--out", str(tmp_path)]) == 0
    written = tmp_path / "river_crossing.yaml"
    assert str(written) in capsys.readouterr().out
    text = written.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=./hexforge.schema.json\n")
    schema = json.loads((tmp_path / "hexforge.schema.json").read_text(encoding="utf-8"))
    assert schema["title"] == "Hexforge game"
    assert main(["check", str(written)]) == 0
    assert main(["verify", str(written), "--no-print-check"]) == 0


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["new", "1st game"], "expected a name starting with a letter"),
        (["new", "Ferry", "--grid", "triangle"], "triangle"),
    ],
)
def test_a_bad_name_or_grid_is_one_message(
    argv: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_game_is_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ferry_point.yaml").write_text("mine\n", encoding="utf-8")
    assert main(["new", "Ferry Point", "--out", str(tmp_path)]) == 2
    assert "exists" in capsys.readouterr().err
    assert (tmp_path / "ferry_point.yaml").read_text(encoding="utf-8") == "mine\n"


def test_game_ids() -> None:
    assert game_id("Ferry Point") == "ferry_point"
    assert game_id("  the-Big  push 2 ") == "the_big_push_2"


# ------------------------------------------------------------------------------------------ the classic system
def _classic(name: str = "River Crossing") -> m.Game:
    return loads(game_text(name, "hex", system="classic"), "river_crossing.yaml")


def test_the_classic_game_is_on_the_standard_kit() -> None:
    """What ``--system classic`` promises a new designer, read from the game it writes."""
    from forge.rules import classic
    from forge.rules.engines import engine_for

    game = _classic()
    assert classic.selects(game)
    assert classic.problems(game) == []
    assert engine_for(game).name == "odds or differential CRT with result codes"
    assert game.game.strength_format is m.StrengthFormat.STRENGTH_MOVEMENT
    assert all(s.movement for u in game.units for s in u.strengths())
    assert 16 <= len(game.units) + sum(mk.count for mk in game.markers) <= 24
    g = game.map.grid
    assert (g.kind, g.columns, g.rows) == ("hex", 10, 8)
    zones = game.map.setup_zones
    assert {z.side for z in zones.values()} == {s.id for s in game.game.sides}
    assert {u.setup_zone for u in game.units if u.setup_zone} == set(zones)
    mr = game.rules.movement
    assert mr is not None
    assert [md.path for md in mr.modes] == ["railway"]
    assert {t.kind for t in game.terrain.values()} >= {"hex", "hexside", "path"}
    assert game.rules.zoc is not None
    assert game.rules.zoc.stop_on_enter
    crt = game.combat.crt
    assert crt is not None
    assert crt.cell_format is m.CellFormat.CODE
    assert set(game.combat.results) == {"AE", "AR", "DR", "DE", "EX"}
    assert crt.below is not None
    assert crt.below.result == "AE"
    assert crt.above is not None
    assert crt.above.column == crt.columns[-1]
    play = game.rules.play
    assert play is not None
    assert play.replacements is not None
    assert play.control is not None
    assert game.combat.results["EX"].exchange == "strength"  # an exchange in printed strength points
    assert [h.hexes for h in play.hold] == [["0705"]]
    assert any(t.replacements for t in game.turns.turns)
    kinds = {e.kind for e in game.examples}
    assert {"odds", "combat", "movement"} <= kinds
    assert any(e.given.get("movement") == "rail" for e in game.examples)


def test_forge_new_classic_checks_builds_verifies_and_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import pypdfium2 as pdfium

    assert main(["new", "Bridge at Remagen", "--system", "classic", "--out", str(tmp_path), "-q"]) == 0
    written = tmp_path / "bridge_at_remagen.yaml"
    assert main(["check", str(written)]) == 0
    capsys.readouterr()
    assert main(["verify", str(written), "--no-print-check"]) == 0
    report = capsys.readouterr().out
    assert "0 findings (0 errors, 0 warnings, 0 info)" in report
    assert main(["build", str(written), "--out", str(tmp_path / "out"), "-q"]) == 0
    folder = tmp_path / "out" / "bridge_at_remagen"

    def text_of(pdf: str) -> str:
        doc = pdfium.PdfDocument(folder / pdf)
        return "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))

    counters = text_of("counters.pdf")
    game = loads(written.read_text(encoding="utf-8"), written.name)
    for u in game.units:
        for step in u.steps:
            assert step in counters, (u.id, step)
    map_text = text_of("map.pdf")
    assert "Bridge at Remagen" in map_text
    assert "Crossroads" in map_text
    assert "?" not in map_text.replace("? = not given", "")  # every cost on the terrain chart is given
    capsys.readouterr()
    assert main(["play", str(written), "--games", "50"]) == 0
    out = capsys.readouterr().out
    assert "50 games" in out
    assert "won by blue" in out
    assert "won by red" in out


def test_the_classic_examples_are_recomputed_not_echoed() -> None:
    """A wrong value in a worked example is an error: the examples are checked by the engine."""
    text = game_text("River Crossing", "hex", system="classic")
    for right, wrong in [
        ("states: {result: EX, eliminated: [red-1], exchange_at_least: 4}", "states: {result: DR, eliminated: []}"),
        (
            '"0303", "0403"], enemy_hexes: ["0605"]}\n    states: {legal: false}',
            '"0303", "0403"], enemy_hexes: ["0605"]}\n    states: {legal: true}',
        ),
        ('states: {attack: 25, defense: 4, column: "5:1"}', 'states: {attack: 25, defense: 4, column: "4:1"}'),
    ]:
        assert right in text
        findings = verify(loads(text.replace(right, wrong), "river_crossing.yaml"))
        errors = [f for f in findings if severity(f) == "error"]
        assert errors, wrong
        assert {f.kind for f in errors} == {"example-mismatch"}, wrong


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["new", "River", "--system", "modern"], "--system 'modern': expected one of hits, classic"),
        (["new", "River", "--system", "classic", "--grid", "square"], "the classic game is drawn on hex only"),
    ],
)
def test_a_bad_system_is_one_message(
    argv: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------------- the template's own words
NAMES = ["Bridge at Remagen", "Тихоновка", "東京 1945"]


@pytest.mark.parametrize(("system", "grid"), sorted(TEMPLATES))
@pytest.mark.parametrize("name", NAMES)
def test_a_new_game_says_its_own_name_and_not_the_templates(system: str, grid: str, name: str) -> None:
    text = game_text(name, grid, system=system)
    game = loads(text, "game.yaml")
    assert game.game.title == name
    assert text.count(name) >= 2  # the title and the file's header
    for own in {t.own_title for t in TEMPLATES.values() if t.own_title} | {"Ferry", "FG"}:
        assert own not in text, own


@pytest.mark.parametrize("grid", GRIDS)
def test_the_templates_own_title_keeps_its_own_words(grid: str) -> None:
    text = game_text("Ferry Point", grid)
    assert "name: Ferry Guard" in text
    assert '"0403": {name: Ferry Point' in text
    assert "name: Ferry}" in text
    assert "__" not in text.replace("__TITLE__", "")  # every token is filled


def test_the_map_prints_the_new_title_and_no_other(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    from forge.builder import BuildOptions
    from forge.render import map as map_render

    game = loads(game_text("Bridge at Remagen", "hex"), "bridge_at_remagen.yaml")
    pdf = pdfium.PdfDocument(map_render.render(game, BuildOptions()))
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Bridge at Remagen" in text
    assert "Ferry" not in text


# ------------------------------------------------------------------------------------------ names in any script
@pytest.mark.parametrize(
    ("name", "gid"),
    [
        ("Тихоновка", "tikhonovka"),
        ("Йошкар-Ола", "yoshkar_ola"),
        ("Київ 1941", "kiyiv_1941"),
        ("Αθήνα", "athina"),
        ("Ärger im Tal", "arger_im_tal"),
        ("Łódź", "lodz"),
        ("Rocket 🚀", "rocket"),
    ],
)
def test_a_name_in_another_script_is_spelled_in_latin(name: str, gid: str) -> None:
    assert game_id(name) == gid


def test_a_name_with_no_latin_spelling_gets_a_stable_hash_id() -> None:
    tokyo = game_id("東京決戦")
    assert re.fullmatch(r"game_[0-9a-f]{8}", tokyo)
    assert game_id("  東京決戦 ") == tokyo != game_id("大阪決戦")
    assert re.fullmatch(r"game_1945_[0-9a-f]{8}", game_id("東京 1945"))
    assert re.fullmatch(r"express_[0-9a-f]{8}", game_id("東京 Express"))


@pytest.mark.parametrize("name", ["Тихоновка", "東京決戦"])
def test_forge_new_writes_a_game_named_in_any_script(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", name, "--out", str(tmp_path), "-q"]) == 0
    written = Path(capsys.readouterr().out.strip())
    assert written.parent == tmp_path
    assert written.name == f"{game_id(name)}.yaml"
    assert f"  title: {name}\n" in written.read_text(encoding="utf-8")
    assert main(["check", str(written)]) == 0


@pytest.mark.parametrize("name", ["🚀", "🚀🚀 Rocket", "1st game", "— ·"])
def test_a_name_not_starting_with_a_letter_is_refused(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", name, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "expected a name starting with a letter (of any script)" in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(categories=("L", "N", "Zs", "So", "Pd")), min_size=1, max_size=12))
def test_every_accepted_name_has_a_plain_id_and_a_loadable_game(name: str) -> None:
    """Names of up to 12 characters of any script (at most 4 Latin letters each: the id fits in 64)."""
    if not name.strip() or not _title(name)[:1].isalpha():  # a name of signs alone has an empty title
        with pytest.raises(NewGameError, match="expected a name starting with a letter"):
            game_id(name)
        return
    gid = game_id(name)
    assert re.fullmatch(r"[a-z][a-z0-9_]*", gid)
    assert len(gid) <= 64
    assert game_id(name) == gid
    try:
        text = game_text(name, "hex")
    except NewGameError:
        return  # a title too long or with a sign YAML would misread
    game = loads(text, f"{gid}.yaml")
    assert game.game.id == gid


@pytest.mark.parametrize("name", ["No", "TRUE", "Null", "On"])
def test_a_title_yaml_would_misread_is_quoted(name: str) -> None:
    """'No' was written plain and read back as the boolean false (found by the property above)."""
    game = loads(game_text(name, "hex", system="classic"), "game.yaml")
    assert game.game.title == name
    assert game.game.id == name.lower()
