"""Set-up zones, units that start reduced, the off-map pool (issue 21): the data and ``forge check``'s refusals,
the kit's placement (forge.rules.kit.setup), the map's marks and key, the set-up sheet, the VASSAL module.

The game is Ferry Point with its fixed set-up hexes turned into zones: Red's four units in the hexes marked with a
cross (one to a hex, all at half strength), Blue's in the circle hexes within one hex of 0303 (two to a hex), and
Red's reserve in the pool from turn 3.
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forge import model as m
from forge.builder import BuildOptions
from forge.canvas import Recorder
from forge.errors import LoadError
from forge.loader import loads
from forge.rules.kit import setup as kit

ROOT = Path(__file__).resolve().parent.parent
FERRY = (ROOT / "data" / "ferry_point.yaml").read_text(encoding="utf-8")

ZONES = """  setup_zones:
    red: {side: red, symbol: cross, hexes: ["0402", "0403", "0404", "0503"], rule: "T1"}
    blue: {side: blue, symbol: circle, within: [{distance: 1, of: "0303"}], per_hex: 2, units: {side: blue}}
  hexsides:
"""


def _zoned() -> str:
    text = FERRY.replace("  hexsides:\n", ZONES, 1)
    for uid, hx in (("blue-1", "0302"), ("blue-2", "0303"), ("blue-3", "0304"), ("blue-4", "0302")):
        old = f'setup: "{hx}"}}'
        line = next(ln for ln in text.splitlines() if f"id: {uid}," in ln)
        text = text.replace(line, line.replace(", " + old, "}"), 1)
    for uid, hx in (("red-1", "0403"), ("red-2", "0402"), ("red-3", "0404"), ("red-4", "0503")):
        line = next(ln for ln in text.splitlines() if f"id: {uid}," in ln)
        text = text.replace(line, line.replace(f'setup: "{hx}"}}', "setup_zone: red, start_step: 1}"), 1)
    text = text.replace('entry: {turn: 3, hex: "0703"}', "pool: {from_turn: 3}", 1)
    assert text.count("setup_zone: red") == 4
    assert 'setup: "0' not in text.split("units:")[1].split("markers:")[0]
    return text


ZONED = _zoned()


@functools.cache
def zoned() -> m.Game:
    return loads(ZONED, "zoned.yaml")


def problems(text: str) -> list[str]:
    with pytest.raises(LoadError) as info:
        loads(text, "zoned.yaml")
    return [str(p) for p in info.value.problems]


def _line(text: str, needle: str, nth: int = 0) -> int:
    return [i for i, t in enumerate(text.splitlines(), 1) if needle in t][nth]


# ------------------------------------------------------------------------------------------------ the data
def test_the_zoned_game_loads_and_the_fields_read_back() -> None:
    game = zoned()
    assert list(game.map.setup_zones) == ["red", "blue"]
    red = game.map.setup_zones["red"]
    assert (red.side, red.symbol, red.per_hex, red.rule) == ("red", m.ZoneSymbol.CROSS, 1, "T1")
    assert game.unit("red-1").setup_zone == "red"
    assert game.unit("red-1").start_step == 1
    assert game.unit("blue-1").setup_zone is None  # taken by the blue zone's selector
    pool = game.unit("red-5").pool
    assert pool is not None
    assert pool.from_turn == 3


def test_existing_games_keep_their_defaults() -> None:
    game = loads(FERRY, "ferry_point.yaml")
    assert game.map.setup_zones == {}
    assert all(u.setup_zone is None and u.start_step == 0 and u.pool is None for u in game.units)


REFUSALS = [
    (  # an unknown zone
        "setup_zone: red, start_step: 1}\n  - {id: red-2",
        "setup_zone: rd, start_step: 1}\n  - {id: red-2",
        "id: red-1,",
        "units[5].setup_zone: 'rd' is not a known set-up zone (map.setup_zones) (did you mean 'red'?)",
    ),
    (  # a zone hex off the map
        '"0503"], rule',
        '"0903"], rule',
        "red: {side: red",
        "map.setup_zones.red.hexes[3]: hex '0903' is off the map (the map runs from 0101 to 0705)",
    ),
    (  # more units than the zone's hexes hold
        'hexes: ["0402", "0403", "0404", "0503"]',
        'hexes: ["0402", "0403", "0404"]',
        "red: {side: red",
        "map.setup_zones.red: 4 units set up in zone 'red' but its 3 hexes hold 3 (1 to a hex)",
    ),
    (  # a start step the unit does not have
        'steps: ["2", "1"], setup_zone: red, start_step: 1',
        'steps: ["2", "1"], setup_zone: red, start_step: 2',
        "id: red-2,",
        "units[6].start_step: step 2 is not a step of this unit: it has 2 (expected 0 to 1, 0 being full strength)",
    ),
    (  # a place that is not on the map
        'of: "0303"',
        'of: "Feryr Point"',
        "blue: {side: blue",
        "map.setup_zones.blue.within[0].of: 'Feryr Point' is neither a hex of the map nor a place (expected a hex "
        "label, a key of map.places or a hex's name (did you mean 'Ferry Point'?))",
    ),
    (  # a unit placed two ways
        "pool: {from_turn: 3}",
        'pool: {from_turn: 3}, setup: "0101"',
        "id: red-5,",
        "units[9]: a unit starts one way: a 'setup' hex, a 'setup_zone', an 'entry' or the 'pool' (got setup and pool)",
    ),
    (  # a pool turn after the game
        "pool: {from_turn: 3}",
        "pool: {from_turn: 9}",
        "id: red-5,",
        "units[9].pool.from_turn: turn 9 is after the last turn (expected 1 to 6)",
    ),
    (  # two zones take one unit
        "units: {side: blue}}\n",
        'units: {side: blue}}\n    tanks: {hexes: ["0101"], units: {types: [armour]}}\n',
        "id: blue-4,",
        "units[3]: unit 'blue-4' is taken by the set-up zones 'blue', 'tanks' (expected one",
    ),
    (  # a zone without hexes
        "units: {side: blue}}\n",
        "units: {side: blue}}\n    other: {side: blue}\n",
        "other: {side: blue}",
        "map.setup_zones.other: a set-up zone needs hexes: give 'hexes', 'within' or 'edges'",
    ),
    (  # a symbol the map cannot draw
        "symbol: circle",
        "symbol: circel",
        "blue: {side: blue",
        "map.setup_zones.blue.symbol: 'circel' is not allowed (expected 'cross', 'circle', 'triangle', 'square', "
        "'star' or 'diamond') (did you mean 'circle'?)",
    ),
    (  # an unknown side
        "red: {side: red,",
        "red: {side: rde,",
        "red: {side: rde",
        "map.setup_zones.red.side: 'rde' is not a known side (did you mean 'red'?)",
    ),
]


@pytest.mark.parametrize(("old", "new", "at", "expect"), REFUSALS, ids=[r[3].split(":")[0] for r in REFUSALS])
def test_check_refuses_located(old: str, new: str, at: str, expect: str) -> None:
    assert old in ZONED
    bad = ZONED.replace(old, new, 1)
    (msg,) = problems(bad)
    assert expect in msg
    assert msg.startswith(f"zoned.yaml:{_line(bad, at)}:"), msg


# ------------------------------------------------------------------------------------------------ the kit
def test_zone_hexes_from_a_list_a_radius_and_an_edge() -> None:
    game = zoned()
    assert kit.zone_hexes(game, "red") == ("0402", "0403", "0503", "0404")  # row by row from the top
    assert set(kit.zone_hexes(game, "blue")) == {"0303", "0302", "0304", "0202", "0203", "0402", "0403"}
    edge = m.SetupZone(edges=["west"], depth=2)
    named = m.SetupZone(within=[m.ZoneWithin(distance=0, of="Ferry Point")])
    moved = game.model_copy(update={"map": game.map.model_copy(update={"setup_zones": {"w": edge, "n": named}})})
    assert set(kit.zone_hexes(moved, "w")) == {f"0{c}0{r}" for c in (1, 2) for r in range(1, 6)}
    assert kit.zone_hexes(moved, "n") == ("0403",)


def test_starts_say_how_each_unit_starts() -> None:
    by = {s.unit: s for s in kit.starts(zoned())}
    assert (by["red-1"].how, by["red-1"].zone, by["red-1"].step) == ("zone", "red", 1)
    assert (by["blue-1"].how, by["blue-1"].zone, by["blue-1"].step) == ("zone", "blue", 0)
    assert (by["blue-5"].how, by["blue-5"].hexes) == ("entry", ())
    assert (by["red-5"].how, by["red-5"].from_turn) == ("pool", 3)
    assert set(kit.legal_hexes(zoned())) == {(f"{s}-{i}", 0) for s in ("red", "blue") for i in range(1, 5)}


def test_place_is_legal_and_deterministic() -> None:
    game = zoned()
    first = kit.place(game)
    assert first == {
        ("blue-1", 0): "0202",  # the first open hex in grid order (row by row, each left to right), two to a hex
        ("blue-2", 0): "0202",
        ("blue-3", 0): "0302",
        ("blue-4", 0): "0302",
        ("red-1", 0): "0402",
        ("red-2", 0): "0403",
        ("red-3", 0): "0503",
        ("red-4", 0): "0404",
    }
    assert kit.validate(game, first) == []
    assert kit.place(game, seed=7) == kit.place(game, seed=7)
    assert kit.validate(game, kit.place(game, seed=7)) == []


def test_validate_names_what_is_wrong() -> None:
    game = zoned()
    ok = kit.place(game)
    outside = {**ok, ("red-1", 0): "0101"}
    assert kit.validate(game, outside) == ["red-1 is in 0101, outside its set-up zone 'red'"]
    crowded = {**ok, ("red-1", 0): ok[("red-2", 0)]}
    assert kit.validate(game, crowded) == ["2 units of zone 'red' in 0403 (at most 1 to a hex)"]
    missing = {k: v for k, v in ok.items() if k != ("blue-2", 0)}
    assert kit.validate(game, missing) == ["blue-2 is not placed"]
    pooled = {**ok, ("red-5", 0): "0703"}
    assert kit.validate(game, pooled) == ["red-5 starts off the map (pool), not in 0703"]


def test_a_scenario_hex_overrides_the_zone() -> None:
    game = zoned()
    sc = m.Scenario(id="s", name="S", setup={"red-1": "0701"})
    game = game.model_copy(update={"scenarios": [sc]})
    placed = kit.place(game, scenario="s")
    assert placed[("red-1", 0)] == "0701"
    assert kit.validate(game, placed, scenario="s") == []
    assert kit.validate(game, placed) == ["red-1 is in 0701, outside its set-up zone 'red'"]


def test_a_chooser_that_strays_is_refused() -> None:
    with pytest.raises(ValueError, match="not one of the hexes offered"):
        kit.place(zoned(), lambda start, hexes: "0101")


LABELS = [f"0{c}0{r}" for c in range(1, 8) for r in range(1, 6)]


@st.composite
def zone_games(draw: st.DrawFn) -> m.Game:
    """Ferry Point with one to three zones of random hexes and room, and units (with copies) that fit them."""
    game = zoned()
    zones: dict[str, m.SetupZone] = {}
    units: list[m.Unit] = []
    for z in range(draw(st.integers(1, 3))):
        hexes = draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=8, unique=True))
        per_hex = draw(st.sampled_from([1, 2, 3, None]))
        zid = f"z{z}"
        zones[zid] = m.SetupZone(hexes=hexes, per_hex=per_hex, symbol=list(m.ZoneSymbol)[z])
        room = len(hexes) * (per_hex or 4)
        copies = draw(st.lists(st.integers(1, 3), max_size=6).map(functools.partial(_fit, room=room)))
        for i, n in enumerate(copies):
            units.append(
                m.Unit(
                    id=f"{zid}-u{i}",
                    side="red",
                    name="U",
                    label="U",
                    type="infantry",
                    steps=["2"],
                    copies=n,
                    setup_zone=zid,
                )
            )
    fixed = [u for u in game.units if u.entry is not None or u.pool is not None]
    new_map = game.map.model_copy(update={"setup_zones": zones})
    return game.model_copy(update={"map": new_map, "units": units + fixed})


def _fit(copies: list[int], room: int) -> list[int]:
    """The first units whose copies together fit the room."""
    out: list[int] = []
    for n in copies:
        if sum(out) + n > room:
            break
        out.append(n)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=zone_games(), data=st.data())
def test_every_placement_it_makes_is_legal(game: m.Game, data: st.DataObject) -> None:
    """Property: whatever hex the chooser picks among those offered, each piece ends in one of its zone's hexes,
    no hex holds more of a zone's pieces than ``per_hex``, every on-map piece is placed, and validate agrees."""
    placed = kit.place(game, lambda start, hexes: data.draw(st.sampled_from(list(hexes))))
    zones = kit.zones(game)
    per: dict[tuple[str, str], int] = {}
    for s in kit.starts(game):
        if s.how != "zone":
            assert s.piece not in placed
            continue
        assert s.zone is not None
        hx = placed[s.piece]
        assert hx in zones[s.zone]
        per[(s.zone, hx)] = per.get((s.zone, hx), 0) + 1
    for (zid, _), n in per.items():
        cap = game.map.setup_zones[zid].per_hex
        assert cap is None or n <= cap
    assert kit.validate(game, placed) == []


@settings(max_examples=60, deadline=None)
@given(game=zone_games(), data=st.data())
def test_validate_refuses_a_piece_moved_out_of_its_zone(game: m.Game, data: st.DataObject) -> None:
    placed = kit.place(game)
    zone_pieces = [s for s in kit.starts(game) if s.how == "zone"]
    if not zone_pieces:
        return
    s = data.draw(st.sampled_from(zone_pieces))
    outside = [h for h in LABELS if h not in s.hexes]
    if not outside:
        return
    moved = {**placed, s.piece: data.draw(st.sampled_from(outside))}
    assert any("outside its set-up zone" in p for p in kit.validate(game, moved))


# ------------------------------------------------------------------------------------------------ printed
def test_the_map_marks_each_zone_hex_and_only_those() -> None:
    from forge import layout
    from forge.render import map as M

    game = zoned()
    rec = Recorder("zoned map")
    pdf = M.render(game, BuildOptions(only=("map",), greyscale=True), recorder=rec)
    marks: dict[str, set[str]] = {}
    for it in rec.items:
        if it.kind == "symbol" and it.label.startswith("set-up zone "):
            parent = rec.items[it.parent].label if it.parent is not None else ""
            if parent.startswith("hex "):
                marks.setdefault(it.label.removeprefix("set-up zone "), set()).add(parent.removeprefix("hex "))
    assert marks == {zid: set(hexes) for zid, hexes in kit.zones(game).items()}
    assert layout.check(rec) == []
    doc = pdfium.PdfDocument(pdf)
    text = " ".join(re.sub(r"\s+", " ", doc[i].get_textpage().get_text_range()) for i in range(len(doc)))
    assert "Red set-up hex, 1 unit each (T1)" in text
    assert "Blue set-up hex, 2 units each" in text


def test_a_map_without_zones_draws_no_marks() -> None:
    from forge.render import map as M

    rec = Recorder("ferry map")
    M.render(loads(FERRY, "ferry_point.yaml"), BuildOptions(only=("map",)), recorder=rec)
    assert not [it for it in rec.items if it.label.startswith("set-up zone")]


def test_the_set_up_sheet_lists_zone_units_under_their_zone() -> None:
    from forge.render import handout

    pdf = handout.render(zoned(), BuildOptions())
    doc = pdfium.PdfDocument(pdf)
    pages = [re.sub(r"\s+", " ", doc[i].get_textpage().get_text_range()) for i in range(len(doc))]
    sheet = " ".join(t for t in pages if "Set-up sheet" in t)
    assert (
        "Set up in any hex marked ✚ (Red set-up), at most 1 to a hex (T1) (4 units): FG Ferry Guard, starts " in sheet
    )
    assert "starts reduced (step 2 of 2: 1)" in sheet
    assert "Set up in any hex marked ● (Blue set-up), at most 2 to a hex (4 units): 1 1st Rifle Regiment" in sheet
    assert "Off-map pool" in sheet
    assert "R Reserve Regiment, from turn 3" in sheet
    assert "not given by the rules" not in sheet.replace("? = not given by the rules", "")


# ------------------------------------------------------------------------------------------------ VASSAL
def test_vassal_puts_zone_units_in_a_stack_per_zone_and_the_pool_apart(tmp_path: Path) -> None:
    from forge import vassal

    try:
        v = vassal.pywargame()
    except vassal.VassalUnavailable as e:  # pragma: no cover - the dev environment has it
        pytest.skip(str(e))
    text = ZONED.replace(
        'steps: ["[3]", "[1]"], entry: {turn: 2', 'steps: ["[3]", "[1]"], start_step: 1, entry: {turn: 2'
    )
    text = text.replace(
        'label: "FG", type: infantry, size: III, steps: ["3", "1"], setup_zone: red, start_step: 1',
        'label: "FG", type: infantry, size: III, steps: ["3", "1"], setup: "0701", start_step: 1',
    )
    game = loads(text, "zoned.yaml")
    path = vassal.export(game, tmp_path, dpi=30)
    with v.VMod(str(path), "r") as vm:
        build = v.BuildFile(vm.getBuildFile())
    maps = build.getGame().getMaps(asdict=True)
    stacks: dict[str, list[str]] = {}
    for st_ in maps["Set-up"].getAtStarts(single=False):
        stacks[st_["name"]] = [p["entryName"].split("#")[0] for p in st_.getPieces(asdict=False)]
    assert stacks == {
        "Set up: Red set-up (cross)": ["red-2", "red-3", "red-4"],
        "Set up: Blue set-up (circle)": ["blue-1", "blue-2", "blue-3", "blue-4"],
        "Pool from turn 3": ["red-5"],
    }
    on_map = {s["name"]: [p["entryName"] for p in s.getPieces(asdict=False)] for s in maps["Map"].getAtStarts()}
    assert on_map == {"0701": ["red-1#0"]}  # the one unit with a fixed hex; no zone unit on a wrong hex
    xml = zipfile.ZipFile(io.BytesIO(path.read_bytes())).read("buildFile.xml").decode()
    red = re.search(r'entryName="red-1#0"[^<]*', xml)
    blue = re.search(r'entryName="blue-1#0"[^<]*', xml)
    assert red is not None
    assert blue is not None
    assert "Ferry Guard/2\t" in red.group(0)  # starts reduced: the back face up
    assert "1st Rifle Regiment/1\t" in blue.group(0)
    entering = re.search(r'entryName="blue-5#0"[^<]*', xml)
    assert entering is not None
    assert "5th Tank Battalion/2\t" in entering.group(0)  # a reinforcement that arrives reduced


def test_initial_gives_an_engine_each_units_hex_steps_and_pool() -> None:
    init = kit.initial(zoned())
    assert (init["red-1"].hex, init["red-1"].steps_left, init["red-1"].in_pool) == ("0402", 1, False)
    assert (init["blue-1"].hex, init["blue-1"].steps_left) == ("0202", 2)
    assert (init["red-5"].hex, init["red-5"].in_pool, init["red-5"].start.from_turn) == (None, True, 3)
    assert init["blue-5"].hex is None
    assert init["blue-5"].start.how == "entry"


def test_doctests() -> None:
    import doctest

    assert doctest.testmod(kit).failed == 0


def test_check_summary_counts_zone_and_pool_units() -> None:
    from forge.cli import _summary

    assert "2 set-up zones hold 8 units; 1 starts in the pool" in _summary(zoned())
    assert "set-up zones" not in _summary(loads(FERRY, "ferry_point.yaml"))


def test_the_play_engine_starts_zone_units_in_their_zone_and_reduced_units_reduced() -> None:
    """The engine's first state comes from the set-up kit: every unit of a zone on one of the zone's hexes (the
    kit's legal placement), a unit with ``start_step`` on that step, and an off-map pool refused by the engine
    that does not play one (a unit never silently left off the board)."""
    from forge.rules.board import UnplayableGameError
    from forge.rules.state import State

    game = zoned()
    with pytest.raises(UnplayableGameError, match=r"off-map pool of units \(units\[\*\]\.pool: red-5\)"):
        State.initial(game)
    no_pool = loads(ZONED.replace("pool: {from_turn: 3}", 'entry: {turn: 3, hex: "0703"}', 1), "zoned.yaml")
    s = State.initial(no_pool)
    b = s.board
    zone_hexes = {"red": set(kit.zone_hexes(no_pool, "red")), "blue": set(kit.zone_hexes(no_pool, "blue"))}
    for u, unit in enumerate(b.units):
        if unit.id in ("blue-5", "red-5"):
            continue  # reinforcements
        side = unit.side
        assert b.labels[s.pos[u]] in zone_hexes[side], (unit.id, b.labels[s.pos[u]])
        assert s.steps[u] == (1 if side == "red" else 2), unit.id
