"""Cross-reference checks on a schema-valid game: every name used is defined, every hex is on the map.

Called by :func:`forge.loader.loads`; each problem is located through the document's marks.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any

from . import conditions as _conditions
from . import model as m
from . import units as _units
from .errors import Problem, suggest
from .hexgrid import Cell, Grid
from .keypath import Document, PathT, dotted
from .claim_keys import accepted, refusal
from .notation import STRENGTH_EXAMPLES, STRENGTH_FORMS, DiffColumn, OddsColumn, Strength

HEX_KEYS = {
    "hex",
    "hexes",
    "from",
    "to",
    "path",
    "via",
    "supply_source",
    "defender_hex",
    "attacker_hexes",
    "advance_to",
    "enemy_hex",
}
UNIT_KEYS = {"unit", "units", "attackers", "defenders", "attacker_units", "defender_units", "advancing", "enemy"}
SHIFT_KEYS = {"shifts"}
COLUMN_KEYS = {"column", "final_column", "base_column"}

MAX_COUNT = 10_000
"""Most counters of one kind a game may print (see FORMAT.md, Bounds)."""
MAX_HEXES = 100_000
"""Most cells a map's grid may have (columns x rows): the largest published maps have about 30,000."""
MAX_UNITS = 10_000
"""Most units a game may have, copies included: the largest counter mixes have a few thousand."""
MAX_MARKERS = 10_000
"""Most markers a game may print, all kinds together."""
MAX_COUNTERS = 20_000
"""Most counters (units' counters with their copies, and markers) a game may print."""
MAX_TURNS = 1_000
"""Most turns on a turn track: the longest campaign games have a few hundred."""
MAX_TEXT = 5_000
MAX_WORD = 100
"""Longest word (run without spaces) in a text, a web address excepted: the longest place names have about 60
letters, and a page breaks a longer word only by hyphens every few letters (reportlab's line breaking grows with the
square of a word's length: a 5,000-letter word took 42 s)."""
"""Most characters in one text value: a summary in our own words; the seed games' longest note has 1,347."""
UNKNOWN_MARKERS = 4
"""Markers printed of a kind whose count the rules do not give (forge.render.counters.UNKNOWN_MARKER_COUNT)."""
SHEET_BLEED = 0.25 * 72
"""How far a grid may run past a stated sheet in total per axis (forge.render.map.BLEED_TOLERANCE)."""

_HITS = re.compile(r"^(\d+|\?)/(\d+|\?)$")
_LOSSES = re.compile(r"^(\d+|-|\?)/(\d+|-|\?)$")


class _Checker:
    def __init__(self, game: m.Game, doc: Document, file: str) -> None:
        self.game = game
        self.doc = doc
        self.file = file
        self.problems: list[Problem] = []
        self.grid: Grid = game.map.grid.grid()
        self.sides = [s.id for s in game.game.sides]
        self.unit_ids = [u.id for u in game.units]
        self.shift_ids = [s.id for s in game.combat.shifts]
        self.table_ids = [t.id for t in game.tables]

    def err(self, path: PathT, msg: str, key: bool = False) -> None:
        mk = self.doc.mark(path, key=key)
        self.problems.append(Problem(self.file, mk[0] if mk else None, mk[1] if mk else None, dotted(path), msg))

    # ---------------------------------------------------------------------------------------------- helpers
    def name(self, path: PathT, value: str | None, choices: Iterable[str], what: str) -> bool:
        if value is None:
            return True
        choices = list(choices)
        if value not in choices:
            shown = ", ".join(choices[:12]) + (" ..." if len(choices) > 12 else "")
            self.err(path, f"{value!r} is not a known {what}{suggest(value, choices)} (known: {shown})")
            return False
        return True

    def group(self, path: PathT, group: str, side: str) -> None:
        """``group`` names one of ``side``'s formations (``game.sides[].groups``)."""
        groups = self.game.side(side).groups
        if path[0] == "markers" and not group.strip():  # its code is what tells its markers apart in greyscale
            self.err(path, f"{group!r} is blank: a formation's code is printed on its markers (expected a code)")
            return
        if not groups:
            k = next(j for j, sd in enumerate(self.game.game.sides) if sd.id == side)
            self.err(
                path,
                f"{group!r} is not a group of side {side!r}: it has none (expected a key of game.sides[{k}].groups; "
                "add the group there, or drop this key)",
            )
            return
        self.name(path, group, groups, f"group of side {side!r}")

    def hex(self, path: PathT, label: Any) -> Cell | None:
        try:
            cell = self.grid.parse(str(label))
        except ValueError as e:
            self.err(path, str(e))
            return None
        if not self.grid.contains(cell):
            g = self.game.map.grid
            top, bottom = (g.rows - 1, 0) if g.rows_up else (0, g.rows - 1)
            first, last = self.grid.label(Cell(0, top)), self.grid.label(Cell(g.columns - 1, bottom))
            self.err(path, f"hex {label!r} is off the map (the map runs from {first} to {last})")
            return None
        return cell

    def terrain(self, path: PathT, tid: str, kind: m.TerrainKind) -> None:
        t = self.game.terrain.get(tid)
        if t is None:
            self.name(path, tid, self.game.terrain, "terrain")
        elif t.kind != kind:
            self.err(
                path,
                f"terrain {tid!r} is of kind {t.kind.value!r}; expected a terrain of kind {kind.value!r}",
            )

    # ------------------------------------------------------------------------------------------------ parts
    def run(self) -> list[Problem]:
        self.check_bounds()
        self.check_info()
        self.check_terrain()
        self.check_map()
        self.check_units()
        self.check_setup()
        self.check_turns()
        self.check_combat()
        self.check_tables()
        self.check_text()
        self.check_limits()
        self.check_permissions()
        self.check_examples()
        self.check_provenance()
        self.check_inert()
        return self.problems

    def check_provenance(self) -> None:
        """Every ``implied_by`` names an example of the game; an implied CRT cell is a cell of the table."""
        ids = [ex.id for ex in self.game.examples]
        items: list[tuple[PathT, list[str]]] = [(("units", i), u.implied_by) for i, u in enumerate(self.game.units)]
        items += [(("combat", "shifts", i), s.implied_by) for i, s in enumerate(self.game.combat.shifts)]
        items += [(("combat", "modifiers", i), md.implied_by) for i, md in enumerate(self.game.combat.modifiers)]
        for path, implied in items:
            for j, ex_id in enumerate(implied):
                self.name((*path, "implied_by", j), ex_id, ids, "example id")
        crt = self.game.combat.crt
        if crt is None:
            return
        for j, c in enumerate(crt.implied_by):
            path = ("combat", "crt", "implied_by", j)
            self.name((*path, "example"), c.example, ids, "example id")
            self.name((*path, "column"), c.column, crt.columns, "column of the CRT")
            rows = crt.secondary.rows if c.secondary and crt.secondary is not None else crt.rows
            self.name((*path, "row"), c.row, rows, "die row of the CRT")
            if c.section is not None:
                self.name((*path, "section"), c.section, crt.sections or [], "section of the CRT")

    def check_bounds(self) -> None:
        """Counts bounded by what can be printed and played (FORMAT.md, Bounds), each one located error."""
        g = self.game.map.grid
        if g.columns * g.rows > MAX_HEXES:
            self.err(
                ("map", "grid"),
                f"the grid is {g.columns}x{g.rows} = {g.columns * g.rows:,} hexes (expected at most {MAX_HEXES:,}; "
                "the largest published maps have about 30,000)",
            )
        units = sum(u.copies for u in self.game.units)
        if units > MAX_UNITS:
            self.err(("units",), f"{units:,} units with their copies (expected at most {MAX_UNITS:,})")
        counts = [mk.count if isinstance(mk.count, int) else UNKNOWN_MARKERS for mk in self.game.markers]
        markers = sum(n for n in counts if 0 <= n <= MAX_COUNT)  # a count out of range is reported on its own
        if markers > MAX_MARKERS:
            self.err(("markers",), f"{markers:,} markers of all kinds together (expected at most {MAX_MARKERS:,})")
        counters = markers + sum(u.copies * len(u.counter_faces()) for u in self.game.units)
        if units <= MAX_UNITS and markers <= MAX_MARKERS and counters > MAX_COUNTERS:
            self.err(
                ("units",),
                f"{counters:,} counters: the units' counters with their copies, and the markers (expected at most "
                f"{MAX_COUNTERS:,})",
            )
        if len(self.game.turns.turns) > MAX_TURNS:
            self.err(("turns", "turns"), f"{len(self.game.turns.turns):,} turns (expected at most {MAX_TURNS:,})")
        for path, value in _texts(self.doc.data):
            if len(value) > MAX_TEXT:
                self.err(
                    path,
                    f"{len(value):,} characters of text (expected at most {MAX_TEXT:,}: a summary in your own words)",
                )
                continue
            word = max(value.split(), key=len, default="")
            if len(word) > MAX_WORD and "://" not in word:
                self.err(
                    path,
                    f"a word of {len(word):,} characters, {word[:20]!r}... (expected words of at most {MAX_WORD} "
                    "characters, with spaces between them)",
                )

    def check_info(self) -> None:
        info = self.game.game
        if len(set(self.sides)) != len(self.sides):
            self.err(("game", "sides"), "the two sides need different ids")
        if isinstance(info.first_side, str):
            self.name(("game", "first_side"), info.first_side, self.sides, "side")

    def check_terrain(self) -> None:
        classes = self.game.game.mobility_classes
        for tid, t in self.game.terrain.items():
            if t.movement == "none" and t.kind is m.TerrainKind.HEX:
                self.err(
                    ("terrain", tid, "movement"),
                    "a hex terrain must give its movement costs (expected costs by mobility class; `movement: none`"
                    " is for a path, hexside or feature with no movement effect of its own)",
                )
            for cls in t.costs:
                if cls not in classes and cls != "all":
                    self.name(
                        ("terrain", tid, "movement", cls),
                        cls,
                        classes,
                        "mobility class (game.mobility_classes)",
                    )
            for side in t.combat.by_side:
                self.name(("terrain", tid, "combat", "by_side", side), side, self.sides, "side")
        if self.game.map.default_terrain is not None:
            self.terrain(("map", "default_terrain"), self.game.map.default_terrain, m.TerrainKind.HEX)

    def check_map(self) -> None:
        mp = self.game.map
        if mp.sheet is not None and mp.grid.columns * mp.grid.rows <= MAX_HEXES:  # else the grid is the error
            self.check_sheet(mp.sheet, mp.hex_size)
        seen_cells: dict[Cell, str] = {}
        for label, h in mp.hexes.items():
            path: PathT = ("map", "hexes", label)
            cell = self.hex(path, label)
            if cell is not None:
                if cell in seen_cells:
                    self.err(path, f"{label!r} is the same hex as {seen_cells[cell]!r}", key=True)
                seen_cells[cell] = label
            if h.terrain is not None:
                self.terrain((*path, "terrain"), h.terrain, m.TerrainKind.HEX)
            for i, f in enumerate(h.features):
                self.terrain((*path, "features", i), f, m.TerrainKind.FEATURE)
            self.name((*path, "supply"), h.supply, self.sides, "side")
        seen_sides: dict[Any, int] = {}
        for i, hs in enumerate(mp.hexsides):
            path = ("map", "hexsides", i)
            a = self.hex((*path, "between", 0), hs.between[0])
            b = self.hex((*path, "between", 1), hs.between[1])
            if a is not None and b is not None:
                if not self.grid.adjacent(a, b):
                    self.err(
                        (*path, "between"),
                        f"{hs.between[0]} and {hs.between[1]} are not adjacent: no hexside lies between them",
                    )
                else:
                    side = self.grid.side(a, b)
                    if side in seen_sides:
                        self.err(
                            (*path, "between"),
                            f"the hexside {hs.between[0]}-{hs.between[1]} is already described at "
                            f"map.hexsides[{seen_sides[side]}]; "
                            "list each hexside once with all its features",
                        )
                    seen_sides[side] = i
            for j, f in enumerate(hs.features):
                self.terrain((*path, "features", j), f, m.TerrainKind.HEXSIDE)
        for i, p in enumerate(mp.paths):
            path = ("map", "paths", i)
            self.terrain((*path, "kind"), p.kind, m.TerrainKind.PATH)
            cells = [self.hex((*path, "hexes", j), h) for j, h in enumerate(p.hexes)]
            for j in range(1, len(cells)):
                a, b = cells[j - 1], cells[j]
                if a is not None and b is not None and not self.grid.adjacent(a, b):
                    self.err(
                        (*path, "hexes", j),
                        f"the path jumps from {p.hexes[j - 1]} to {p.hexes[j]}, which are not adjacent "
                        "(paths must be continuous)",
                    )

    def check_sheet(self, sheet: str, hex_size: str) -> None:
        """A stated sheet must hold the grid, turned either way.

        The map is printed on the stated sheet, trimmed at its edge by at most :data:`SHEET_BLEED` per axis (as
        forge.render.map lays it out: edge hexes of printed maps run off the sheet); a grid that does not fit it
        either way is a mistake in the file: the sheet, the hex size or the grid is wrong.
        """
        sw, sh = _units.size(sheet)
        cell = _units.length(hex_size)
        gw, gh = self.grid.extent(cell)
        g = self.game.map.grid
        if min(sw, sh) < cell:
            self.err(
                ("map", "sheet"),
                f"the {sheet} sheet is smaller than one hex ({hex_size}) (expected a sheet at least "
                f"{_inches(gw - SHEET_BLEED, up=True)} x {_inches(gh - SHEET_BLEED, up=True)} for this grid, or no "
                "sheet to size it to fit)",
            )
            return
        if grid_fits(gw, gh, sw, sh):
            return
        # The grid's extent is proportional to the cell: the largest cell that fits, turned either way.
        kw, kh = gw / cell, gh / cell
        best = max(min((w + SHEET_BLEED) / kw, (h + SHEET_BLEED) / kh) for w, h in ((sw, sh), (sh, sw)))
        smaller = (
            f"a hex_size of at most {_units.fmt(_floor_hundredth(best))}"
            if best >= _units.HEX_MIN
            else "fewer columns or rows"
        )
        stated = isinstance(self.doc.data.get("map"), dict) and "hex_size" in self.doc.data["map"]
        self.err(
            ("map", "sheet"),
            f"the grid ({g.columns}x{g.rows} cells of {hex_size}{'' if stated else ', the default hex_size'}) "
            f"is {_inches(gw)} x {_inches(gh)} and does not fit the {sheet} sheet either way (expected a sheet "
            f"at least {_inches(gw - SHEET_BLEED, up=True)} x {_inches(gh - SHEET_BLEED, up=True)}, {smaller}, "
            "or no sheet to size it to fit)",
        )

    def check_units(self) -> None:
        fmt = self.game.game.strength_format
        seen: dict[str, int] = {}
        n_turns = len(self.game.turns.turns)
        for i, u in enumerate(self.game.units):
            path: PathT = ("units", i)
            if u.id in seen:
                self.err((*path, "id"), f"unit id {u.id!r} is already used by units[{seen[u.id]}]")
            seen[u.id] = i
            self.name((*path, "side"), u.side, self.sides, "side")
            if u.group is not None and u.side in self.sides:
                self.group((*path, "group"), u.group, u.side)
            for j, s in enumerate(u.steps):
                try:
                    Strength.parse(s, fmt.value)
                except ValueError as e:
                    self.err((*path, "steps", j), _notation_problem(s, fmt.value, e))
            if u.setup is not None:
                self.hex((*path, "setup"), u.setup)
            if u.entry is not None:
                if isinstance(u.entry.turn, int) and u.entry.turn > n_turns:
                    self.err(
                        (*path, "entry", "turn"),
                        f"entry turn {u.entry.turn} is after the last turn ({n_turns})",
                    )
                if u.entry.hex is not None:
                    self.hex((*path, "entry", "hex"), u.entry.hex)
        for i, mk in enumerate(self.game.markers):
            self.name(("markers", i, "side"), mk.side, self.sides, "side")
            if mk.group is not None:
                if mk.side is None:
                    self.err(("markers", i, "group"), "a marker's group is one of its side's: give the side too")
                elif mk.side in self.sides:
                    self.group(("markers", i, "group"), mk.group, mk.side)
        for i, sc in enumerate(self.game.scenarios):
            for uid, hx in sc.setup.items():
                self.name(("scenarios", i, "setup", uid), uid, self.unit_ids, "unit id")
                self.hex(("scenarios", i, "setup", uid), hx)
            for mid in sc.markers:
                self.name(("scenarios", i, "markers", mid), mid, [mk.id for mk in self.game.markers], "marker id")
            for j, ft in enumerate(sc.features):
                self.name(("scenarios", i, "features", j, "feature"), ft.feature, self.game.terrain, "terrain")
                self.name(("scenarios", i, "features", j, "side"), ft.side, self.sides, "side")
                for k, hx in enumerate(ft.hexes):
                    self.hex(("scenarios", i, "features", j, "hexes", k), hx)
        for i, ad in enumerate(self.game.combat.alone_defense):
            for k, uid in enumerate(ad.units):
                self.name(("combat", "alone_defense", i, "units", k), uid, self.unit_ids, "unit id")
        mr = self.game.rules.movement
        for i, lk in enumerate(mr.off_map if mr else []):
            self.name(("rules", "movement", "off_map", i, "side"), lk.side, self.sides, "side")
            for key in ("exits", "returns"):
                for k, hx in enumerate(getattr(lk, key)):
                    self.hex(("rules", "movement", "off_map", i, key, k), hx)
        self.check_play()

    def check_play(self) -> None:
        """The names and hexes of movement modes and ``rules.play`` (forge.rules.classic)."""
        game = self.game
        phases = [p.name for p in game.sequence]
        paths = [k for k, t in game.terrain.items() if t.kind is m.TerrainKind.PATH]
        mr = game.rules.movement
        for i, md in enumerate(mr.modes if mr else []):
            self.name(("rules", "movement", "modes", i, "path"), md.path, paths, "path terrain")
            for k, ph in enumerate(md.phases):
                self.name(("rules", "movement", "modes", i, "phases", k), ph, phases, "phase of the sequence")
        for i, ch in enumerate(mr.changes if mr else []):
            ter = game.terrain.get(ch.terrain)
            if ch.add is not None and ter is not None and ter.kind is m.TerrainKind.PATH and ter.movement == "none":
                self.err(
                    ("rules", "movement", "changes", i, "add"),
                    f"path {ch.terrain!r} has no movement effect of its own (movement: none), so there is no rate to "
                    "add to (expected set: the rate along it in these states)",
                    key=True,
                )
        play = game.rules.play
        if play is None:
            return
        at: PathT = ("rules", "play")
        modes = ["ordinary", *(md.id for md in (mr.modes if mr else []))]
        for i, pr in enumerate(play.phases):
            self.name((*at, "phases", i, "phase"), pr.phase, phases, "phase of the sequence")
            for k, md_id in enumerate(pr.modes):
                self.name((*at, "phases", i, "modes", k), md_id, modes, "movement mode ('ordinary' or a modes id)")
        if play.control is not None:
            ctl = play.control
            for k, t in enumerate(ctl.places):
                self.name((*at, "control", "places", k), t, game.terrain, "terrain")
            for k, hx in enumerate(ctl.hexes):
                self.hex((*at, "control", "hexes", k), hx)
            for side, hexes in ctl.initial.items():
                if self.name((*at, "control", "initial", side), side, self.sides, "side"):
                    for k, hx in enumerate(hexes):
                        self.hex((*at, "control", "initial", side, k), hx)
        if play.replacements is not None:
            for k, t in enumerate(play.replacements.place):
                self.name((*at, "replacements", "place", k), t, game.terrain, "terrain")
        for i, hw in enumerate(play.hold):
            self.name((*at, "hold", i, "side"), hw.side, self.sides, "side")
            for k, hx in enumerate(hw.hexes):
                self.hex((*at, "hold", i, "hexes", k), hx)
        if play.score != "difference":
            self.name((*at, "score"), play.score, ["difference", *self.sides], "score ('difference' or a side)")

    def check_setup(self) -> None:
        """Set-up zones (``map.setup_zones``), the units that set up in them, start steps and the pool."""
        mp = self.game.map
        if mp.setup_zones:  # the kit only where there are zones: `forge check` of other games imports no rules
            from .rules.kit import setup as kit
        names: dict[str, list[str]] = {}
        for label, info in mp.hexes.items():
            if info.name:
                names.setdefault(info.name, []).append(label)
        sound: set[str] = set()
        for zid, z in mp.setup_zones.items():
            path: PathT = ("map", "setup_zones", zid)
            before = len(self.problems)
            self.name((*path, "side"), z.side, self.sides, "side")
            for k, hx in enumerate(z.hexes):
                self.hex((*path, "hexes", k), hx)
            for k, w in enumerate(z.within):
                if not kit.anchor(self.grid, w.of, mp.places, names):
                    known = [*mp.places, *names]
                    self.err(
                        (*path, "within", k, "of"),
                        f"{w.of!r} is neither a hex of the map nor a place (expected a hex label, a key of map.places "
                        f"or a hex's name{suggest(w.of, known)})",
                    )
            if not (z.hexes or z.within or z.edges):
                self.err(path, "a set-up zone needs hexes: give 'hexes', 'within' or 'edges'")
            if z.units is not None:
                self.name((*path, "units", "side"), z.units.side, self.sides, "side")
                for k, uid in enumerate(z.units.units):
                    self.name((*path, "units", "units", k), uid, self.unit_ids, "unit id")
            if len(self.problems) == before:
                sound.add(zid)
        n_turns = len(self.game.turns.turns)
        for i, u in enumerate(self.game.units):
            path = ("units", i)
            if u.setup_zone is not None:
                if not mp.setup_zones:
                    self.err(
                        (*path, "setup_zone"),
                        f"{u.setup_zone!r} is not a set-up zone: the map has none (expected a key of "
                        "map.setup_zones; add the zone there)",
                    )
                else:
                    self.name((*path, "setup_zone"), u.setup_zone, mp.setup_zones, "set-up zone (map.setup_zones)")
            if u.start_step >= len(u.steps):
                self.err(
                    (*path, "start_step"),
                    f"step {u.start_step} is not a step of this unit: it has {len(u.steps)} "
                    f"(expected 0 to {len(u.steps) - 1}, 0 being full strength)",
                )
            if u.pool is not None and u.pool.from_turn > n_turns:
                self.err(
                    (*path, "pool", "from_turn"),
                    f"turn {u.pool.from_turn} is after the last turn (expected 1 to {n_turns})",
                )
            claims = kit.claiming_zones(self.game, u) if mp.setup_zones else []
            if len(claims) > 1:
                self.err(
                    path,
                    f"unit {u.id!r} is taken by the set-up zones {', '.join(repr(c) for c in claims)} (expected one: "
                    "name it with 'setup_zone', or narrow the zones' 'units')",
                )
        if not sound:
            return
        for zid, (n, room) in kit.zone_load(self.game).items():
            if zid in sound and room is not None and n > room:
                z = mp.setup_zones[zid]
                self.err(
                    ("map", "setup_zones", zid),
                    f"{n} units set up in zone {zid!r} but its {room // (z.per_hex or 1)} hexes hold {room} "
                    f"({z.per_hex} to a hex) (expected at most {room} units, more hexes, or a larger 'per_hex')",
                    key=True,
                )
        for j, sc in enumerate(self.game.scenarios):
            for zid, (n, room) in kit.zone_load(self.game, sc.id).items():
                if zid in sound and room is not None and n > room:
                    self.err(
                        ("scenarios", j, "setup"),
                        f"in this scenario {n} units set up in zone {zid!r}, whose hexes hold {room} (expected at most "
                        f"{room})",
                    )

    def check_turns(self) -> None:
        tt = self.game.turns
        for i, t in enumerate(tt.turns):
            if t.number != i + 1:
                self.err(
                    ("turns", "turns", i, "number"),
                    f"turn {t.number} is listed {_ordinal(i + 1)}: number the turns 1, 2, 3 ... in order",
                )
            for side in t.replacements:
                self.name(("turns", "turns", i, "replacements", side), side, self.sides, "side")
        last = len(tt.turns)
        for i, sr in enumerate(self.game.special_rules):
            for j, n in enumerate(sr.turns):
                if not 1 <= n <= last:
                    msg = f"turn {n} is not on the turn track (expected 1 to {last})"
                    self.err(("special_rules", i, "turns", j), msg)
        self.check_effects()
        for i, mk in enumerate(self.game.markers):
            if isinstance(mk.count, int) and not 0 <= mk.count <= MAX_COUNT:
                self.err(("markers", i, "count"), f"{mk.count} markers (expected 0 to {MAX_COUNT:,})")
        if tt.weather is not None:
            states = tt.weather.states
            self.name(("turns", "weather", "initial"), tt.weather.initial, states, "weather state")
            self.name(("turns", "weather", "table"), tt.weather.table, self.table_ids, "table id")
            for i, t in enumerate(tt.turns):
                if t.weather is not None:
                    self.name(("turns", "turns", i, "weather"), t.weather, states, "weather state")

    def check_effects(self) -> None:
        """Every side, place, hex, unit and table a special rule's effect names is the game's."""
        mp = self.game.map
        places = sorted({*(h.name for h in mp.hexes.values() if h.name), *mp.places})
        for i, sr in enumerate(self.game.special_rules):
            for j, e in enumerate(sr.effects):
                base = ("special_rules", i, "effects", j)
                self.name((*base, "side"), e.side, self.sides, "side")
                self.name((*base, "released_by"), e.released_by, self.sides, "side")
                self.name((*base, "holds"), e.holds, places, "place (map.hexes[*].name, map.places)")
                for k, name in enumerate(e.places):
                    self.name((*base, "places", k), name, places, "place (map.hexes[*].name, map.places)")
                for k, lab in enumerate(e.hexes):
                    self.hex((*base, "hexes", k), lab)
                for k, uid in enumerate(e.units):
                    self.name((*base, "units", k), uid, self.unit_ids, "unit id")
                if self.name((*base, "table"), e.table, self.table_ids, "table id") and e.table is not None:
                    cols = next(t.columns for t in self.game.tables if t.id == e.table)
                    if not any(c.endswith("+") and c[:-1].isdigit() for c in cols):
                        self.err((*base, "table"), f"table {e.table!r} has no column 'N+' giving the roll that escapes")
                if e.kind is m.EffectKind.CAPS_WHILE_HOLDING and not any(
                    c.rule == sr.rule for c in self.game.combat.shift_caps
                ):
                    self.err(
                        (*base, "kind"),
                        f"no shift cap cites rule {sr.rule!r}: a caps-while-holding effect governs the caps with its "
                        "rule's number (combat.shift_caps[*].rule)",
                    )
                for k, n in enumerate(e.turns or ()):
                    if not 1 <= n <= len(self.game.turns.turns):
                        msg = f"turn {n} is not on the turn track (expected 1 to {len(self.game.turns.turns)})"
                        self.err((*base, "turns", k), msg)

    def check_combat(self) -> None:
        c = self.game.combat
        base: PathT = ("combat",)
        seen: set[str] = set()
        for i, s in enumerate(c.shifts):
            if s.id in seen:
                self.err((*base, "shifts", i, "id"), f"shift id {s.id!r} is used twice")
            seen.add(s.id)
        for field in ("shift_caps", "cap_readings"):
            for i, cap in enumerate(getattr(c, field)):
                for j, sid in enumerate(cap.shifts):
                    self.name((*base, field, i, "shifts", j), sid, self.shift_ids, "shift id")
                self.name((*base, field, i, "side"), cap.side, self.sides, "side")
        for i, mod in enumerate(c.modifiers):
            for j, tid in enumerate(mod.terrain or []):
                self.name((*base, "modifiers", i, "terrain", j), tid, self.game.terrain, "terrain")
            self.condition((*base, "modifiers", i, "condition"), mod.condition, per_unit=mod.per_unit)
            if mod.condition == _conditions.TERRAIN_GIVES and not mod.terrain:
                self.err((*base, "modifiers", i, "condition"), "defender-terrain on a modifier reads its terrain list, "
                         "which is missing (expected terrain: [ids] beside it)")
        for i, sh in enumerate(c.shifts):
            self.condition((*base, "shifts", i, "condition"), sh.condition, per_unit=False, shift=True)
        self.check_results(c, (*base, "results"))
        for side in c.max_defenders:
            self.name((*base, "max_defenders", side), side, self.sides, "side")
        if c.kind in (m.CombatKind.ODDS, m.CombatKind.DIFFERENTIAL, m.CombatKind.MAGNITUDE) and c.crt is None:
            self.err(base, f"combat of kind {c.kind.value!r} needs a 'crt'", key=False)
        if c.kind is m.CombatKind.DICE_POOL and c.dice_pool is None:
            self.err(base, "combat of kind 'dice-pool' needs 'dice_pool'")
        if c.crt is not None:
            self.check_crt(c, (*base, "crt"))

    def condition(self, path: PathT, cond: str | m.Condition | None, *, per_unit: bool, shift: bool = False) -> None:
        """A shift's or modifier's condition names only facts a rule reads (:mod:`forge.rules.kit.conditions`)."""
        for sub, msg in _conditions.problems(cond, self.game, per_unit=per_unit, shift=shift):
            self.err((*path, *(int(x) if x.isdigit() else x for x in sub)), msg)

    def check_results(self, c: m.Combat, path: PathT) -> None:
        """The result legend's choices name results of the legend; an exchange's attacker loss is not also a
        count; an advance's length goes with who advances."""
        for code, rc in c.results.items():
            p = (*path, code)
            for j, other in enumerate(rc.attacker_choice):
                if other == code:
                    self.err((*p, "attacker_choice", j), f"{code!r} offers itself as a choice (expected other codes "
                             f"of combat.results: {', '.join(k for k in c.results if k != code)})")
                else:
                    self.name((*p, "attacker_choice", j), other, c.results, "result code (combat.results)")
            if rc.exchange is not None and rc.attacker_steps != 0:
                self.err((*p, "attacker_steps"), "an exchange costs the attacker what the defender lost (exchange: "
                         f"{rc.exchange}): expected no attacker_steps beside it")
            if rc.advance_hexes is not None and rc.advance is None:
                self.err((*p, "advance_hexes"), "an advance length needs who advances (expected advance: attacker, "
                         "defender or either)")

    def check_crt(self, c: m.Combat, path: PathT) -> None:
        crt = c.crt
        assert crt is not None
        parse = DiffColumn.parse if c.kind is m.CombatKind.DIFFERENTIAL else OddsColumn.parse
        lows = []
        for i, col in enumerate(crt.columns):
            try:
                col_parsed = parse(col)
                if col_parsed.below:
                    if i != 0:
                        self.err(
                            (*path, "columns", i),
                            f"{col!r} covers everything below its odds, so it must be the first column",
                        )
                    continue
                lows.append(col_parsed.low)
            except ValueError as e:
                self.err((*path, "columns", i), str(e))
        if lows and lows != sorted(lows):
            self.err((*path, "columns"), "columns must run from the lowest odds to the highest")
        if len(set(lows)) != len(lows):
            self.err((*path, "columns"), "two columns cover the same odds")
        grids: list[tuple[PathT, Any]] = []
        if isinstance(crt.cells, dict):
            if crt.sections is None:
                self.err((*path, "cells"), "cells given by section need a 'sections' list")
            else:
                for s in crt.sections:
                    if s not in crt.cells:
                        self.err(
                            (*path, "cells"),
                            f"section {s!r} has no cells (write {{unknown: why}} if the rulebook lacks them)",
                        )
                for s, grid in crt.cells.items():
                    self.name((*path, "cells", s), s, crt.sections, "section")
                    grids.append(((*path, "cells", s), grid))
        else:
            if crt.sections is not None:
                self.err(
                    (*path, "cells"),
                    "a CRT with 'sections' gives its cells as a mapping from section to rows",
                )
            grids.append(((*path, "cells"), crt.cells))
        self.check_die_rows((*path, "rows"), crt.rows)
        if crt.secondary is not None:
            self.check_die_rows((*path, "secondary", "rows"), crt.secondary.rows)
        for gpath, grid in grids:
            self.check_grid(gpath, grid, crt.rows, crt.columns, crt.cell_format, c.results)
        if crt.secondary is not None:
            self.check_grid(
                (*path, "secondary", "cells"),
                crt.secondary.cells,
                crt.secondary.rows,
                crt.columns,
                m.CellFormat.LOSSES_ATTACKER_DEFENDER,
                c.results,
            )
        for end in ("below", "above", "high_odds"):
            auto = getattr(crt, end)
            if auto is None:
                continue
            given = [k for k in ("result", "column", "no_effect") if getattr(auto, k) not in (None, False)]
            if end == "high_odds":
                if auto.from_odds is None or auto.result is None or auto.column is not None or auto.no_effect:
                    self.err((*path, end), "high odds give a result from some odds (expected from_odds and result)")
            elif len(given) != 1:
                self.err(
                    (*path, end),
                    f"{'gives ' + ' and '.join(given) if given else 'gives nothing'}: expected exactly one of "
                    "result (an automatic result), column (resolve on that column) or no_effect: true",
                )
            elif auto.from_odds is not None:
                self.err((*path, end, "from_odds"), "from_odds belongs to crt.high_odds (expected result, column or "
                         "no_effect here)")
            if auto.column is not None:
                self.name((*path, end, "column"), auto.column, crt.columns, "CRT column")
            if auto.result is not None:
                self.check_cell((*path, end, "result"), auto.result, m.CellFormat.CODE, c.results)
        if crt.mandatory_retreat is not None:
            self.name((*path, "mandatory_retreat", "side"), crt.mandatory_retreat.side, self.sides, "side")
        if crt.all_out is not None and crt.cell_format is not m.CellFormat.HITS_NORMAL_ALLOUT:
            self.err(
                (*path, "all_out"),
                f"all_out says how an attack is made all-out on a CRT of normal/all-out hits, and this CRT's cells "
                f"are {crt.cell_format.value!r}: no rule would read it (expected cell_format: hits-normal/all-out, or "
                "all_out left out)",
                key=True,
            )
        if crt.all_out is not None and crt.all_out.crowded_rule is not None and crt.all_out.crowded_units is None:
            self.err(
                (*path, "all_out", "crowded_rule"),
                "crowded_rule cites the rule of the crowded target, and all_out gives no crowded_units: nothing would "
                "print it (expected crowded_units with it, or crowded_rule left out)",
                key=True,
            )

    def check_die_rows(self, path: PathT, rows: list[str]) -> None:
        """Each row label reads as the die results it covers ('3', '2-4', '6+'): the engine and the cards use them."""
        from .notation import row_range

        for r, label in enumerate(rows):
            try:
                row_range(label)
            except ValueError as e:
                self.err((*path, r), str(e) if len(label) <= 40 else f"{label[:30]!r}... ({len(label)} characters) "
                         "is not a die-roll row (expected '3', '2-4', '≥6', '6+' or '≤1')")

    def check_grid(
        self,
        path: PathT,
        grid: Any,
        rows: list[str],
        columns: list[str],
        fmt: m.CellFormat,
        results: dict[str, m.ResultCode],
    ) -> None:
        if isinstance(grid, m.Unknown):
            return
        if len(grid) != len(rows):
            self.err(path, f"{len(grid)} rows of cells for {len(rows)} row labels ({', '.join(rows)})")
        for r, row in enumerate(grid):
            if len(row) != len(columns):
                label = rows[r] if r < len(rows) else str(r)
                self.err((*path, r), f"row {label!r} has {len(row)} cells; the CRT has {len(columns)} columns")
            for k, cell in enumerate(row):
                self.check_cell((*path, r, k), cell, fmt, results)

    def check_cell(self, path: PathT, cell: str, fmt: m.CellFormat, results: dict[str, m.ResultCode]) -> None:
        if cell == "?":
            return
        if fmt is m.CellFormat.HITS_NORMAL_ALLOUT:
            if not _HITS.match(cell):
                self.err(path, f"{cell!r} is not a hits cell (expected normal/all-out hits like '0/1', or '?')")
        elif fmt is m.CellFormat.LOSSES_ATTACKER_DEFENDER:
            if not _LOSSES.match(cell):
                self.err(
                    path,
                    f"{cell!r} is not a losses cell (expected attacker/defender losses like '1/1' or '-/1')",
                )
        else:
            for code in cell.split("+"):
                if code not in results:
                    self.err(
                        path,
                        f"result {code!r} is not in combat.results{suggest(code, results)} "
                        f"(legend: {', '.join(results)})",
                    )

    def check_tables(self) -> None:
        seen: set[str] = set()
        for i, t in enumerate(self.game.tables):
            if t.id in seen:
                self.err(("tables", i, "id"), f"table id {t.id!r} is used twice")
            seen.add(t.id)
            for j, row in enumerate(t.rows):
                if len(row.cells) != len(t.columns):
                    self.err(
                        ("tables", i, "rows", j, "cells"),
                        f"row {row.label!r} has {len(row.cells)} cells; the table has {len(t.columns)} columns",
                    )

    def check_limits(self) -> None:
        """A limit's ``exempt`` names counters: unit or marker ids (a misspelt one would silently bind)."""
        lim = self.game.rules.limits
        if lim is None:
            return
        counters = [*self.unit_ids, *(mk.id for mk in self.game.markers)]
        for i, limit in enumerate(lim.counts):
            for j, cid in enumerate(limit.exempt):
                self.name(("rules", "limits", "counts", i, "exempt", j), cid, counters, "unit or marker id")

    def check_permissions(self) -> None:
        """``rules.permissions``: unique ids, known sides, conditions a rule reads, an ``exception_to`` naming an
        opposite statement of a shared action, and no action a close misspelling of another's (it would never
        meet it, so a contradiction would go unseen)."""
        perms = self.game.rules.permissions
        base: PathT = ("rules", "permissions")
        ids = [p.id for p in perms]
        named: dict[str, int] = {}
        for p in perms:
            for a in dict.fromkeys(p.actions):  # in file order
                named[a] = named.get(a, 0) + 1
        for i, p in enumerate(perms):
            if ids.index(p.id) != i:
                self.err((*base, i, "id"), f"permission id {p.id!r} is used twice")
            self.name((*base, i, "side"), p.side, self.sides, "side")
            if p.when is not None:
                self.condition((*base, i, "when"), p.when, per_unit=False)
            for j, a in enumerate(p.actions):
                earlier = list(named)[: list(named).index(a)]  # of two lone near-twins, the later one is refused
                close = difflib.get_close_matches(a, earlier, n=1, cutoff=0.85)
                if named[a] == 1 and close:
                    self.err((*base, i, "actions", j), f"{a!r} is named by no other statement (did you mean "
                             f"{close[0]!r}?): an action meets another statement only by the same id (expected one "
                             f"of {', '.join(earlier)}, or an id not so close to one)")
            for j, other in enumerate(p.exception_to):
                if not self.name((*base, i, "exception_to", j), other, [x for x in ids if x != p.id],
                                 "permission id (rules.permissions)"):
                    continue
                o = perms[ids.index(other)]
                if o.allowed == p.allowed or not set(o.actions) & set(p.actions):
                    self.err((*base, i, "exception_to", j), f"{other!r} is no exception's rule here: an exception "
                             "says the opposite of its rule (allowed) about an action of it (expected a statement of "
                             f"allowed: {str(not p.allowed).lower()} naming one of {', '.join(p.actions)})")

        actions = sorted(named)
        for i, ex in enumerate(self.game.examples):
            does = ex.given.get("does")
            if does is None:
                continue
            path: PathT = ("examples", i, "given", "does")
            for k, a in _each(does):
                if not isinstance(a, str) or a not in named:
                    shown = ", ".join(actions) if actions else "none: rules.permissions names no action"
                    self.err(path if k is None else (*path, k), f"{a!r} is not an action any statement of "
                             f"rules.permissions names{suggest(str(a), actions)} (expected one of {shown})")

    def check_text(self) -> None:
        for i, ph in enumerate(self.game.sequence):
            self.name(("sequence", i, "side"), ph.side, self.sides, "side")
        if self.game.victory is not None:
            for i, item in enumerate(self.game.victory.points):
                self.name(("victory", "points", i, "side"), item.side, self.sides, "side")
            for side in self.game.victory.handicap:
                self.name(("victory", "handicap", side), side, self.sides, "side")
            for i, lv in enumerate(self.game.victory.levels):
                self.name(("victory", "levels", i, "side"), lv.side, self.sides, "side")
                if lv.min is None and lv.max is None and not lv.condition:
                    self.err(
                        ("victory", "levels", i),
                        f"victory level {lv.id!r} gives no final score and no condition, so the victory card would "
                        "print it empty and the engine could never reach it; expected min, max (the score range, "
                        "inclusive) or condition (the condition in words)",
                    )

    def check_inert(self) -> None:
        """Fields the schema keeps (so that a file using them gets this message, not "unknown key") but that no
        engine rule, renderer or check applies yet: accepting them would let a rule the game states go unplayed."""
        mv = self.game.rules.movement
        if mv is not None and mv.mobile_assault is not None and mv.mobile_assault.ignore_zoc_exit:
            self.err(
                ("rules", "movement", "mobile_assault", "ignore_zoc_exit"),
                "no engine rule applies ignore_zoc_exit yet (a mobile assault's cost does not include leaving an "
                "enemy zone, so there is nothing to waive); expected it left out: say the rule in the special rule's "
                "summary, or a comment",
            )
        # Fields no renderer, engine rule or check reads (forge/readers.py lists every field's readers).
        if self.game.game.year is not None:
            self.err(
                ("game", "year"),
                "no component prints game.year and no check reads it; expected it left out: a year of publication "
                "goes in game.edition (named in the errata report), a year of the history in game.subtitle",
            )
        for i, u in enumerate(self.game.units):
            if u.counters is not None:
                self.err(
                    ("units", i, "counters"),
                    "the counter sheet does not lay out substitute counters yet: every unit prints one counter, its "
                    "full step in front and its next step on the back; expected counters left out (say the "
                    "substitutes in the unit's note)",
                )
        inferred: list[tuple[str, list[bool], str]] = [
            ("hexsides", [h.reconstructed for h in self.game.map.hexsides], "the hexside's note"),
            ("paths", [p.reconstructed for p in self.game.map.paths], "map.data_note"),
        ]
        for key, flags, where in inferred:
            for i, flag in enumerate(flags):
                if flag:
                    self.err(
                        ("map", key, i, "reconstructed"),
                        f"the map marks reconstructed hexes only, not {key}; expected reconstructed left out: say "
                        f"what was inferred in {where}, or mark the hexes (map.hexes: reconstructed: true)",
                    )

    def check_example_die(self, path: PathT, ex: m.Example) -> None:
        """A combat example's ``die`` must be a roll the CRT's dice can make (``die: 7`` in a one-die game once
        passed check and stopped verify): one to the number of dice times their faces."""
        crt = self.game.combat.crt
        die = ex.given.get("die")
        if crt is None or ex.kind is not m.ExampleKind.COMBAT or isinstance(die, bool) or not isinstance(die, int):
            return
        roll = re.match(r"\s*(\d*)[dD](\d+)", crt.dice)
        if roll is None:
            return
        n, faces = int(roll.group(1) or 1), int(roll.group(2))
        if not n <= die <= n * faces:
            self.err(
                (*path, "given", "die"),
                f"die {die} is no roll of the CRT's dice {crt.dice!r} (expected {n} to {n * faces})",
            )

    def check_examples(self) -> None:
        seen: set[str] = set()
        columns = self.game.combat.crt.columns if self.game.combat.crt else []
        for i, ex in enumerate(self.game.examples):
            path: PathT = ("examples", i)
            if ex.id in seen:
                self.err((*path, "id"), f"example id {ex.id!r} is used twice")
            if ex.follows is not None and ex.follows not in seen:
                what = "itself" if ex.follows == ex.id else "no example before it"
                self.err(
                    (*path, "follows"),
                    f"follows {ex.follows!r}, which names {what} (expected an earlier example's id)",
                )
            seen.add(ex.id)
            if len(ex.readings) == 1:
                self.err(
                    (*path, "readings"),
                    "one reading alone: list two or more ways to read the sentence (expected a list of at least 2 "
                    "readings), or put its given and states in the example's own",
                    key=True,
                )
            stated = set(ex.states).union(*(r.states for r in ex.readings))
            both = sorted(set(ex.stated_elsewhere) & set(ex.stated_otherwise))
            if both:
                self.err(
                    (*path, "stated_otherwise", both[0]),
                    f"{both[0]!r} is in stated_elsewhere too: the book states the fact elsewhere either the same way "
                    "or otherwise (expected the key under one of the two)",
                    key=True,
                )
            for field, key, line in [
                *(("stated_elsewhere", k, v) for k, v in ex.stated_elsewhere.items()),
                *(("stated_otherwise", k, v) for k, v in ex.stated_otherwise.items()),
            ]:
                where = (*path, field, key)
                if key not in stated:
                    msg = f"{key!r} is not a value this example states (expected a key of its states)"
                    self.err(where, msg, key=True)
                elif line == ex.source_line:
                    self.err(
                        where,
                        f"line {line} is the example's own source_line (expected the line of the book's second, "
                        "independent statement of the fact; a fact stated once is not listed here)",
                    )
            self.check_example_die(path, ex)
            for part in ("given", "states"):
                ok = accepted(self.game, ex, part)
                for key in getattr(ex, part):
                    if str(key) not in ok and (why := refusal(self.game, ex, part, str(key))) is not None:
                        self.err((*path, part, key), why, key=True)
            parts = [((*path, part), part, getattr(ex, part)) for part in ("given", "states")]
            parts += [
                ((*path, "readings", j, part), part, getattr(r, part))
                for j, r in enumerate(ex.readings)
                for part in ("given", "states")
            ]
            for base, part, data in parts:
                for sub, key, value in _walk(data):
                    p = (*base, *sub)
                    if key in HEX_KEYS:
                        for j, v in _each(value):
                            self.hex(p if j is None else (*p, j), v)
                    elif key in UNIT_KEYS:
                        for j, v in _each(value):
                            self.name(p if j is None else (*p, j), str(v), self.unit_ids, "unit id")
                    elif key in SHIFT_KEYS:
                        for j, v in _each(value):
                            self.name(p if j is None else (*p, j), str(v), self.shift_ids, "shift id")
                    elif key in COLUMN_KEYS and columns and part == "given":
                        self.name(p, str(value), columns, "CRT column")
                    elif key == "table":
                        self.name(p, str(value), self.table_ids, "table id")


def _notation_problem(text: str, form: str, error: ValueError) -> str:
    """Why a step's face ``text`` is not in the game's notation ``form``: the notations its shape fits, or what
    is wrong with it; with an example of the game's notation."""
    try:
        count = len(Strength.parse(text).figures)
    except ValueError:
        return f"{error}; game.strength_format is {form!r}"
    shapes = " or ".join(repr(f) for f, roles in STRENGTH_FORMS.items() if len(roles) == count)
    return (
        f"strength {text!r} is written as {shapes} but this game prints strengths as {form!r} (game.strength_format; "
        f"expected {STRENGTH_EXAMPLES[form]})"
    )


def grid_fits(gw: float, gh: float, sw: float, sh: float) -> bool:
    """True when a ``gw`` x ``gh`` grid fits a ``sw`` x ``sh`` sheet, turned either way, trimmed by at most
    :data:`SHEET_BLEED` per axis (the test forge.render.map.sheet_layout makes)."""
    return any(gw <= w + SHEET_BLEED and gh <= h + SHEET_BLEED for w, h in ((sw, sh), (sh, sw)))


def _floor_hundredth(points: float) -> float:
    """``points`` rounded down to a hundredth of an inch (a hex size that still fits)."""
    return math.floor(points / 72 * 100 + 1e-9) / 100 * 72


def _inches(points: float, up: bool = False) -> str:
    """``points`` in inches to two decimals (rounded up with ``up``: a size that is enough), for messages."""
    hundredths = math.ceil(points / 72 * 100 - 1e-9) if up else round(points / 72 * 100)
    return f"{max(0, hundredths) / 100:g}in"


def _texts(data: Any, path: PathT = ()) -> Iterator[tuple[PathT, str]]:
    """Every text value in the document, with its key path (iteratively: documents may be deep)."""
    stack: list[tuple[PathT, Any]] = [(path, data)]
    while stack:
        p, value = stack.pop()
        if isinstance(value, str):
            yield p, value
        elif isinstance(value, dict):
            stack.extend(((*p, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*p, i), v) for i, v in enumerate(value))


def _walk(data: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str, Any]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*path, k), str(k), v
            if isinstance(v, dict | list) and str(k) not in HEX_KEYS | UNIT_KEYS | SHIFT_KEYS:
                yield from _walk(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            if isinstance(v, dict):
                yield from _walk(v, (*path, i))


def _each(value: Any) -> Iterator[tuple[int | None, Any]]:
    if isinstance(value, list):
        for j, v in enumerate(value):
            if isinstance(v, list):  # a list of paths/stacks: check each member
                for x in v:
                    yield j, x
            else:
                yield j, v
    elif value is not None:
        yield None, value


def cross_check(game: m.Game, doc: Document, file: str) -> list[Problem]:
    """Every cross-reference problem in ``game``."""
    return _Checker(game, doc, file).run()


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``12th``, ``13th``, ``21st`` ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
