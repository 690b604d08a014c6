"""The rules kit's supply, retreat and victory pieces (forge/rules/kit/supply.py, retreat.py, victory.py) and the
handlers that recompute the seed games' examples with them (forge/verifier/ex_rules.py).

Properties are stated in each test's docstring; the seed examples are checked both ways: they pass as encoded,
and a changed rule field makes them fail (so the checks can fail)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forge.rules.kit.retreat
import forge.rules.kit.supply
import forge.rules.kit.victory
from forge.hexgrid import Cell, Grid, GridKind
from forge.loader import load
from forge.model import RetreatLimit, RetreatRules, SupplyRules, Victory, VictoryLevel, VpItem
from forge.rules.kit import retreat as kr
from forge.rules.kit import supply as ks
from forge.rules.kit import victory as kv
from forge.verifier import verify
from forge.verifier.ex_rules import die_set
from conftest import DATA

try:
    from strategies import small_grids
except ImportError:  # pragma: no cover - run from the repository root
    from tests.strategies import small_grids


def test_doctests() -> None:
    for mod in (forge.rules.kit.supply, forge.rules.kit.retreat, forge.rules.kit.victory):
        assert doctest.testmod(mod).failed == 0


def _passed(game_file: str, text_edit: tuple[str, str] | None = None, tmp: Path | None = None) -> tuple:
    path = DATA / game_file
    if text_edit is not None:
        assert tmp is not None
        text = path.read_text(encoding="utf-8")
        assert text.count(text_edit[0]) == 1, text_edit[0]
        path = tmp / game_file
        path.write_text(text.replace(*text_edit), encoding="utf-8")
    r = verify(load(path))
    status = {(e, k): s for e, k, s, *_ in r.claims}
    return status, r


# ----------------------------------------------------------------------------------------------------- supply
def test_edges() -> None:
    g = Grid.parse_grid("hex 5x4 flat odd")
    assert [g.label(c) for c in ks.edge_cells(g, ["west"])] == ["0101", "0102", "0103", "0104"]
    assert len(ks.edge_cells(g, ["north", "west"])) == 5 + 4 - 1
    assert [g.label(c) for c in ks.edge_between(g, "0103", "0101")] == ["0101", "0102", "0103"]
    with pytest.raises(ValueError, match="edge"):
        ks.edge_cells(g, ["up"])
    with pytest.raises(ValueError, match="row or column"):
        ks.edge_between(g, "0101", "0202")


def test_first_panzer_army_sources_and_entry() -> None:
    game = load(DATA / "first_panzer_army.yaml")
    grid = game.map.grid.grid()
    soviet = ks.source_hexes(game, "soviet")
    assert grid.parse("1101") in soviet
    assert grid.parse("4729") in soviet
    assert all(c.row == 0 or c.col == grid.columns - 1 for c in soviet)
    entry = {grid.label(c) for c in ks.entry_hexes(game, "german")}
    assert {"0805", "0101", "0113"} <= entry


def test_hells_gate_turn1_supply() -> None:
    """Turn-1 example (L906-L912): the 254th (F5) and 294th (E5) trace supply to E6 or to the vacant F7."""
    game = load(DATA / "hells_gate.yaml")
    pos = {u.setup: u.side for u in game.units if u.setup}
    sup = ks.supplied(game, "soviet", pos)
    assert "E5" in sup
    assert "F5" in sup
    assert "C6" not in sup  # a German unit stands there
    assert ks.supplied(game, "soviet", pos, max_length=0).keys() <= {
        h for h, i in game.map.hexes.items() if i.supply == "soviet"
    }


@settings(max_examples=40, deadline=None)
@given(small_grids(), st.data())
def test_kit_supply_properties(grid: Grid, data: st.DataObject) -> None:
    """Adding a friendly unit never cuts a line; an enemy-held hex is never supplied."""
    cells = list(grid.cells())
    roles = data.draw(st.lists(st.sampled_from(["", "", "", "r", "b", "R"]), min_size=len(cells), max_size=len(cells)))
    sources = {c for c, r in zip(cells, roles, strict=True) if r == "R"}
    pos = {c: ("red" if r in "rR" else "blue") for c, r in zip(cells, roles, strict=True) if r in ("r", "b")}
    enemy = {c for c, s in pos.items() if s == "blue"}
    friendly = {c for c, s in pos.items() if s == "red"}
    rules = SupplyRules(enemy_units="always", enemy_zoc="unless-friendly", enemy_sources="unless-friendly")
    never, unless, fr = ks.blocked_cells(
        grid, rules, "red", {grid.label(c): s for c, s in pos.items()}, enemy_sources=set()
    )
    assert never == enemy
    assert fr == friendly
    from forge.rules.supply import supplied_cells

    base = supplied_cells(sources, grid.neighbours, enemy_occupied=never, friendly_occupied=fr, blocked=unless)
    assert not (set(base) & enemy)
    extra = data.draw(st.sampled_from(cells))
    if extra not in enemy:
        more = supplied_cells(
            sources, grid.neighbours, enemy_occupied=never, friendly_occupied=fr | {extra}, blocked=unless
        )
        assert set(base) <= set(more)


# ----------------------------------------------------------------------------------------------------- retreat
@settings(max_examples=60, deadline=None)
@given(
    small_grids(),
    st.data(),
    st.sampled_from(["always", "unless-friendly", "never"]),
    st.booleans(),
    st.booleans(),
)
def test_retreat_properties(grid: Grid, data: st.DataObject, zoc: str, prefer: bool, limited: bool) -> None:
    """Every retreat hex is next to the origin and holds no enemy; one in an enemy zone is friendly-held unless
    zones never block; the turn's special limits only remove hexes from those open without them."""
    cells = list(grid.cells())
    origin = data.draw(st.sampled_from(cells))
    roles = data.draw(st.lists(st.sampled_from(["", "", "f", "e", "s", "h"]), min_size=len(cells), max_size=len(cells)))
    friendly = {c for c, r in zip(cells, roles, strict=True) if r == "f"}
    enemy = {c for c, r in zip(cells, roles, strict=True) if r == "e"} - {origin}
    own = {c for c, r in zip(cells, roles, strict=True) if r == "s"}
    hit = {c for c, r in zip(cells, roles, strict=True) if r == "h"}
    limits = [RetreatLimit(turns=[1], only_into=["own-source", "friendly-occupied"], not_hit=True)] if limited else []
    rules = RetreatRules(
        hexes=1,
        enemy_units="always",
        enemy_zoc=zoc,
        enemy_sources="never",
        prefer_outside_enemy_zoc=prefer,
        limits=limits,
    )  # type: ignore[arg-type]
    kw = {"friendly": friendly, "enemy": enemy, "own_sources": own, "hit": hit, "turn": 1}
    out = kr.retreat_hexes(rules, origin, "red", grid.neighbours, **kw)  # type: ignore[arg-type]
    for n in out:
        assert grid.adjacent(n, origin)
        assert n not in enemy
        if zoc == "unless-friendly" and any(x in enemy for x in grid.neighbours(n)):
            assert n in friendly
        if limited:
            assert n not in hit
            assert n in own or n in friendly
    loose = RetreatRules(hexes=1, enemy_units="always", enemy_zoc=zoc, enemy_sources="never")  # type: ignore[arg-type]
    assert set(out) <= set(kr.retreat_hexes(loose, origin, "red", grid.neighbours, **kw))  # type: ignore[arg-type]


def test_retreat_limit_selection() -> None:
    rules = RetreatRules(limits=[RetreatLimit(turns=[1], side="german", during="soviet")])
    assert kr.limits_in_force(rules, side="german", turn=1, during="soviet")
    assert not kr.limits_in_force(rules, side="german", turn=2, during="soviet")
    assert not kr.limits_in_force(rules, side="soviet", turn=1, during="german")
    assert kr.advance_length(RetreatRules(advance={"non-mechanized": 1}), "non_mechanized") == 1
    assert kr.advance_length(None, "x") is None


def test_hells_gate_turn1_retreats(tmp_path: Path) -> None:
    """The six retreat claims of the turn-1 example recompute; without 11.1's limit the C6 retreat would go to
    B6 or C5, which the book states only as the normal case."""
    status, _ = _passed("hells_gate.yaml")
    for key in [
        ("t1-b7-retreat", "hexes"),
        ("t1-c6-retreat", "hexes"),
        ("t1-c6-retreat", "normal_hexes"),
        ("t1-b2-retreat", "hexes"),
        ("t1-c2-retreat", "hexes"),
        ("t1-b6-retreat", "chosen"),
    ]:
        assert status[key] == "engine", key
    status, _ = _passed(
        "hells_gate.yaml",
        (
            "    limits:\n      - {turns: [1], side: german, during: soviet, "
            'only_into: [own-source, friendly-occupied], not_hit: true, rule: "11.1"}\n',
            "    limits: []\n",
        ),
        tmp_path,
    )
    assert status[("t1-c6-retreat", "hexes")] == "mismatch"
    assert status[("t1-c2-retreat", "hexes")] == "mismatch"


# ----------------------------------------------------------------------------------------------------- victory
levels = st.lists(st.integers(-20, 60), min_size=1, max_size=5, unique=True).map(sorted)


@given(levels, st.integers(-50, 100))
def test_levels_partition(cuts: list[int], score: int) -> None:
    """Levels cut at increasing scores: every score falls in exactly one, and the one ``level`` finds holds it."""
    lvs = [VictoryLevel(id="l0", max=cuts[0] - 1)]
    lvs += [
        VictoryLevel(id=f"l{i + 1}", min=c, max=(cuts[i + 1] - 1 if i + 1 < len(cuts) else None))
        for i, c in enumerate(cuts)
    ]
    v = Victory(summary="", levels=lvs)
    lv = kv.level(v, score)
    assert lv is not None
    assert lv.min is None or score >= lv.min
    assert lv.max is None or score <= lv.max
    assert sum((x.min is None or score >= x.min) and (x.max is None or score <= x.max) for x in lvs) == 1


def test_items_and_ranges() -> None:
    v = Victory(
        summary="",
        points=[
            VpItem(id="dam-destroyed", text="", vp=2),
            VpItem(id="cs-loss", text="", vp=1),
            VpItem(id="dam-intact", text="", vp=4),
        ],
    )
    assert kv.find_item(v, "destroyed").vp == 2  # type: ignore[union-attr]
    assert kv.find_item(v, "per_cs_loss").vp == 1  # type: ignore[union-attr]
    assert kv.find_item(v, "dam") is None
    assert kv.level_range(VictoryLevel(id="d", min=28, max=31)) == "28-31"
    assert kv.level_range(VictoryLevel(id="w", min=32)) == "32+"


def test_die_set() -> None:
    assert die_set("1-4") == {1, 2, 3, 4}
    assert die_set(6) == {6}
    assert die_set([1, 3]) == {1, 2, 3}
    assert die_set([1, 2, 5]) == {1, 2, 5}
    assert die_set("clear") is None
    assert die_set(True) is None


# ------------------------------------------------------------------------------------------------ seed claims
SEED = {
    "escape_from_hells_gate.yaml": [
        ("weather-ranges", "clear"),
        ("weather-ranges", "turn_1"),
        ("release-roll", "released_on"),
        ("sf-pool-counts", "soviet"),
        ("sf-pool-counts", "german"),
        ("victory-threshold", "soviet_tactical_below"),
        ("ex2-attack-11g-result", "advance"),
        ("precipitation-drm", "attack_die_modifier"),
    ],
    "first_panzer_army.yaml": [
        ("historic-draw", "result"),
        ("victory-levels", "draw"),
        ("exit-vp", "max"),
        ("ooc-division-vp", "soviet"),
        ("supply-edges", "german_entry"),
        ("rifle-corps-return", "return_turn"),
        ("rifle-corps-delay-range", "turns"),
        ("ex-t-attack1-result", "advance_to"),
        ("hitler-order", "applies_turns"),
    ],
    "ukraine_43.yaml": [
        ("petrol-table", "11-15"),
        ("central-front-start", "3-5"),
        ("petrol-example", "must_roll"),
        ("map-exit", "soviet_vp"),
        ("retreat-length", "retreat_hexes"),
        ("advance-length", "cavalry"),
        ("weather-turns", "rolled_turns"),
    ],
    "tabletop_hells_gate.yaml": [
        ("mud-chance", "mud_on"),
        ("mud-chance", "from_turn"),
        ("vp-values", "per_cs_loss"),
        ("retreat-reduction", "loss_reduction_max"),
    ],
}


@pytest.mark.parametrize("game_file", sorted(SEED))
def test_seed_claims_recomputed(game_file: str) -> None:
    status, _ = _passed(game_file)
    for key in SEED[game_file]:
        assert status[key] in ("engine", "data", "arithmetic"), (key, status[key])


@pytest.mark.parametrize(
    ("game_file", "edit", "key"),
    [
        (
            "escape_from_hells_gate.yaml",
            ("[clear, clear, clear, clear, fog, precipitation]", "[clear, clear, clear, fog, fog, precipitation]"),
            ("weather-ranges", "clear"),
        ),
        (
            "ukraine_43.yaml",
            (
                '- {label: "11-15", cells: [fail, fail, fail, pass, pass, pass]}',
                '- {label: "11-15", cells: [fail, fail, pass, pass, pass, pass]}',
            ),
            ("petrol-table", "11-15"),
        ),
        (
            "first_panzer_army.yaml",
            ('    - {id: draw, min: 28, max: 31, rule: "4.3"}', '    - {id: draw, min: 29, max: 31, rule: "4.3"}'),
            ("victory-levels", "draw"),
        ),
        (
            "ukraine_43.yaml",
            (
                "advance: {mechanized: 2, cavalry: 2, non-mechanized: 1}",
                "advance: {mechanized: 2, cavalry: 1, non-mechanized: 1}",
            ),
            ("advance-length", "cavalry"),
        ),
    ],
)
def test_changed_rule_is_reported(tmp_path: Path, game_file: str, edit: tuple[str, str], key: tuple[str, str]) -> None:
    """A changed table cell or rule field makes the claim that reads it disagree (the checks can fail)."""
    status, _ = _passed(game_file, edit, tmp_path)
    assert status[key] == "mismatch"


def test_square_grid_retreat() -> None:
    g = Grid(GridKind.SQUARE, 3, 3)
    rules = RetreatRules(
        hexes=1, enemy_units="always", enemy_zoc="unless-friendly", enemy_sources="never", prefer_outside_enemy_zoc=True
    )
    with pytest.raises(ValueError, match="not given"):
        kr.retreat_hexes(RetreatRules(hexes=1), Cell(1, 1), "a", g.neighbours, friendly=set(), enemy=set())
    out = kr.retreat_hexes(rules, Cell(1, 1), "a", g.neighbours, friendly=set(), enemy={Cell(2, 1)})
    assert Cell(2, 1) not in out
    assert Cell(0, 1) in out


def test_entry_schedule_and_terrain_retreats() -> None:
    """The entry schedule is the units' ``entry``; a city lets Ukraine's defenders ignore DR but not DRX/DR1."""
    hg = load(DATA / "hells_gate.yaml")
    assert kv.arrivals(hg, 1) == ["ger-11pz", "ger-14pz"]
    assert kv.arrivals(hg, 99) == []
    uk = load(DATA / "ukraine_43.yaml")
    assert kr.in_terrain(uk.rules.retreat, ["city"]) == (["DR"], ["DR1", "DRX"])
    assert kr.in_terrain(uk.rules.retreat, ["clear"]) is None
    assert ks.petrol_must_roll(uk.rules.supply, uk.units[0], 0) is False


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000))
def test_kit_supply_agrees_with_hells_gate_engine(seed: int) -> None:
    """Along a random game of Hell's Gate, the data-driven trace (rules.supply) supplies exactly the units the
    game's own engine supplies, for both sides, at every supply check of a sample of positions."""
    import random

    from forge.rules import engine as hg
    from forge.rules.state import State

    try:
        from test_hells_gate import ASSUMED, GAME
    except ImportError:  # pragma: no cover
        from tests.test_hells_gate import ASSUMED, GAME

    state = State.initial(GAME, strengths=ASSUMED)
    dice, rng = hg.Dice(seed), random.Random(seed)
    for step in range(400):
        actions = hg.legal_actions(state)
        if not actions:
            break
        if step % 40 == 0:
            pos = {state.hex_of(u.id): u.side for u in GAME.units if state.hex_of(u.id) is not None}
            for side in ("soviet", "german"):
                kit = ks.supplied(GAME, side, pos)  # type: ignore[arg-type]
                want = set(hg.supplied_units(state, side))
                got = {u.id for u in GAME.units if u.side == side and state.hex_of(u.id) in kit}
                assert got == want, (side, step)
        hg.apply(state, rng.choice(actions), dice)
