"""The game model: frozen, typed, loaded once from YAML by :mod:`forge.load` and read by everything else.

Nothing here draws or reads files.  A field whose value the rulebook does not give holds :class:`Unknown` (with the
reason), never an invented default.  Every rule-bearing item carries the rule number it comes from.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from . import units as _units
from .hexgrid import Grid, GridKind, LabelScheme, Orientation, Parity
from .notation import DiffColumn, OddsColumn, Strength, fraction

FORMAT_VERSION = 1


class Base(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True, coerce_numbers_to_str=True)


class Unknown(Base):
    """A value the rulebook does not give.  Written ``unknown`` or ``{unknown: "why"}`` in YAML."""

    unknown: str = ""
    """Why the value is unknown (what the rulebook lacks)."""

    def __str__(self) -> str:
        return "?"


def _unknown_in(v: Any) -> Any:
    return {"unknown": ""} if v == "unknown" else v


MaybeInt = Annotated[int | Unknown, BeforeValidator(_unknown_in)]
MaybeFloat = Annotated[float | Unknown, BeforeValidator(_unknown_in)]
Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_.\-]*$", description="lower-case id: letters, digits, _ . -")]
Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", description="colour as #rrggbb")]
RuleRef = Annotated[str, Field(pattern=r"^[0-9A-Za-z][0-9A-Za-z.\-/ ]*$", description="rule number, e.g. 7.2")]


# --------------------------------------------------------------------------------------------------------- game
class StrengthFormat(StrEnum):
    """How units' strengths are printed."""

    SINGLE = "single"
    """One combat strength (Hell's Gate; ``[n]`` marks a tank strength multiplied when attacking)."""
    ATTACK_DEFENSE = "attack-defense"
    ATTACK_DEFENSE_MOVEMENT = "attack-defense-movement"


class Side(Base):
    id: Id
    name: str
    """Name as players say it: ``Soviet``, ``German``."""
    colour: Colour
    """Main counter colour."""
    text_colour: Colour = "#000000"
    """Colour of the printing on the counters."""
    groups: dict[str, Colour] = {}
    """Formation or colour groups within the side (Hell's Gate: red and brown Soviet fronts) and their colours."""


class Scale(Base):
    km_per_hex: MaybeFloat
    days_per_turn: MaybeFloat


class Info(Base):
    id: Id
    """Short id; also the output folder name."""
    title: str
    subtitle: str | None = None
    edition: str | None = None
    designer: str | None = None
    publisher: str | None = None
    year: int | None = None
    source: str
    """Which rulebook the data was taken from (seed file name)."""
    scale: Scale
    sides: list[Side] = Field(min_length=2, max_length=2)
    first_side: Annotated[Id | Unknown, BeforeValidator(_unknown_in)]
    """The side that moves first each turn (unknown where each scenario decides)."""
    strength_format: StrengthFormat = StrengthFormat.SINGLE
    mobility_classes: list[Id] = ["all"]
    """Movement classes that terrain costs are given for (``non-mechanized``, ``mechanized`` ...)."""
    dice: str = "d6"
    notes: str | None = None


# ---------------------------------------------------------------------------------------------------------- map
class MapStatus(StrEnum):
    COMPLETE = "complete"
    """Every hex as printed in the game."""
    RECONSTRUCTED = "reconstructed"
    """The rulebook names some hexes; the rest was reconstructed and is marked so."""
    PARTIAL = "partial"
    """Only the hexes the rulebook names; the rest of the map is unknown."""


class GridSpec(Base):
    kind: GridKind = GridKind.HEX
    orientation: Orientation = Orientation.POINTY
    """Hex only: pointy-top hexes form rows, flat-top hexes form columns."""
    parity: Parity = Parity.ODD
    """Which rows (pointy, offset-square) or columns (flat) are shoved forward half a cell, counted from 0."""
    columns: int = Field(ge=1, le=1000)
    rows: int = Field(ge=1, le=1000)
    labels: LabelScheme = LabelScheme.XXYY
    first_column: int = 1
    first_row: int = 1
    rows_up: bool = False
    """Row labels grow upwards: the first row (A, 01) is the bottom edge of the printed map."""

    def grid(self) -> Grid:
        return Grid(
            kind=self.kind,
            columns=self.columns,
            rows=self.rows,
            orientation=self.orientation,
            parity=self.parity,
            labels=self.labels,
            first_column=self.first_column,
            first_row=self.first_row,
            rows_up=self.rows_up,
        )


class HexInfo(Base):
    terrain: Id | None = None
    """Base terrain id (a terrain of kind ``hex``); the map's default when omitted."""
    features: list[Id] = []
    """Terrain of kind ``feature`` in this hex: city, town, village, airfield, fortified locality ..."""
    name: str | None = None
    vp: MaybeInt | None = None
    """Victory points for holding the hex."""
    supply: Id | None = None
    """The side whose supply source this hex is."""
    setup: str | None = None
    """Setup-area code printed in the hex, where the game uses them."""
    reconstructed: bool = False
    """True when the hex's contents are inferred, not stated by the rulebook."""
    note: str | None = None


class HexsideInfo(Base):
    between: tuple[str, str]
    """The two adjacent hexes, by label."""
    features: list[Id] = Field(min_length=1)
    """Terrain ids of kind ``hexside``: minor_river, major_river, bridge, border ..."""
    name: str | None = None
    reconstructed: bool = False
    note: str | None = None


class PathInfo(Base):
    kind: Id
    """Terrain id of kind ``path``: road, railway ..."""
    hexes: list[str] = Field(min_length=2)
    """Hex labels in order; consecutive hexes must be adjacent."""
    name: str | None = None
    reconstructed: bool = False


class Map(Base):
    grid: GridSpec
    sheet: str | None = None
    """Printed size of the map sheet, width x height: ``11x17in``, ``22x34in``."""
    hex_size: str = "1in"
    """Width of one hex across its flats (side of a square) at print size."""
    status: MapStatus
    note: str | None = None
    default_terrain: Id | None = None
    """Terrain of every hex not listed in ``hexes`` (None: unknown)."""
    hexes: dict[str, HexInfo] = {}
    """By label in the game's own scheme."""
    hexsides: list[HexsideInfo] = []
    paths: list[PathInfo] = []

    @field_validator("sheet")
    @classmethod
    def _sheet(cls, v: str | None) -> str | None:
        if v is not None:
            _units.size(v)
        return v

    @field_validator("hex_size")
    @classmethod
    def _hex_size(cls, v: str) -> str:
        _units.length(v)
        return v


# ------------------------------------------------------------------------------------------------------ terrain
class TerrainKind(StrEnum):
    HEX = "hex"
    """Fills a whole hex: clear, woods, marsh."""
    FEATURE = "feature"
    """Sits in a hex on top of its terrain: city, town, airfield, fortified locality."""
    HEXSIDE = "hexside"
    """Runs along a hexside: rivers, bridges, borders."""
    PATH = "path"
    """Runs from hex to hex: roads, railways."""


class Pattern(StrEnum):
    """Fill patterns that stay distinguishable in greyscale."""

    NONE = "none"
    TREES = "trees"
    DOTS = "dots"
    HATCH = "hatch"
    CROSSHATCH = "crosshatch"
    MARSH = "marsh"
    HILLS = "hills"
    WAVES = "waves"
    BRICK = "brick"


class CombatEffect(Base):
    """What a terrain does in combat, for the defender in (or behind) it unless said otherwise."""

    text: str = ""
    """The effect in words, as the terrain chart prints it."""
    shift: int = 0
    """Column shift: negative = left (towards the defender), positive = right."""
    shift_when: str | None = None
    """Condition on the shift, in words (``all attackers across the river``)."""
    defense_multiplier: str | None = None
    """Multiplier of the defenders' strength (``2``)."""
    defense_bonus: int = 0
    """Added to the total defence strength."""
    crt_row: str | None = None
    """Differential CRTs with terrain rows: the row label this terrain uses."""
    no_concentric: bool = False
    ignore_retreat: bool = False
    by_side: dict[str, CombatEffect] = {}
    """A different effect when the given side defends."""

    @field_validator("defense_multiplier")
    @classmethod
    def _mult(cls, v: str | None) -> str | None:
        if v is not None:
            fraction(v)
        return v


MoveCost = Annotated[int | float | Literal["prohibited", "varies"] | Unknown, BeforeValidator(_unknown_in)]


class TerrainType(Base):
    name: str
    kind: TerrainKind = TerrainKind.HEX
    colour: Colour = "#ffffff"
    pattern: Pattern = Pattern.NONE
    symbol: str | None = None
    """A symbol drawn in the hex (``city``, ``town``, ``airfield``, ``fort``, ``village``, ``supply``)."""
    movement: dict[str, MoveCost] = {}
    """Cost to enter (or cross) by mobility class; ``prohibited``; ``varies`` with a note."""
    movement_note: str | None = None
    combat: CombatEffect = CombatEffect()
    rule: RuleRef | None = None


# -------------------------------------------------------------------------------------------------------- units
class UnitType(StrEnum):
    INFANTRY = "infantry"
    ARMOUR = "armour"
    MECHANISED = "mechanised"
    MOTORISED = "motorised"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    ANTI_TANK = "anti-tank"
    ENGINEER = "engineer"
    HQ = "hq"
    GARRISON = "garrison"
    AIR = "air"
    LEADER = "leader"
    SUPPORT = "support"
    RECON = "recon"
    AIRBORNE = "airborne"
    MOUNTAIN = "mountain"
    SECURITY = "security"


FAST_TYPES = frozenset({UnitType.ARMOUR, UnitType.MECHANISED, UnitType.MOTORISED, UnitType.CAVALRY})


class UnitSize(StrEnum):
    TEAM = "I"
    BATTALION = "II"
    REGIMENT = "III"
    BRIGADE = "X"
    DIVISION = "XX"
    CORPS = "XXX"
    ARMY = "XXXX"


class Entry(Base):
    """When and where a unit that does not set up on the map arrives."""

    turn: Annotated[Annotated[int, Field(ge=1)] | Unknown, BeforeValidator(_unknown_in)]
    """Turn of arrival; unknown when the rulebook names a reinforcement without its turn."""
    hex: str | None = None
    """Entry hex label; None when the rulebook does not say."""
    condition: str | None = None
    """A condition in words; the unit may never arrive."""
    rule: RuleRef | None = None


class Unit(Base):
    id: Id
    side: Id
    name: str
    """Full designation: ``29th Tank Corps``."""
    label: str
    """What the counter prints as its id: ``29``, ``3 SS``."""
    type: UnitType
    size: UnitSize | None = None
    steps: list[str] = Field(min_length=1)
    """Strength on each step, full first, in the game's strength notation (``[2]``, ``3``, ``4-3-7``)."""
    counters: list[tuple[int, int | None]] | None = None
    """Which steps each physical counter shows, front and back (0-based step index; None for a blank back).
    Default: one counter with steps 0 and 1 (a one-step unit's back is blank).  Multi-step divisions with
    substitute counters list several."""
    setup: str | None = None
    """Setup hex label."""
    entry: Entry | None = None
    group: str | None = None
    """Formation or colour group (a key of the side's ``groups``)."""
    copies: int = Field(default=1, ge=1, le=100)
    reconstructed: bool = False
    note: str | None = None

    @field_validator("steps")
    @classmethod
    def _steps(cls, v: list[str]) -> list[str]:
        for s in v:
            Strength.parse(s)
        return v

    @model_validator(mode="after")
    def _placement(self) -> Unit:
        if self.setup is not None and self.entry is not None:
            raise ValueError("a unit has either 'setup' (a hex) or 'entry' (a turn), not both")
        if self.counters is not None:
            seen: list[int] = []
            for front, back in self.counters:
                seen += [front] + ([back] if back is not None else [])
            if sorted(seen) != list(range(len(self.steps))):
                raise ValueError(
                    f"'counters' must show each of the {len(self.steps)} steps exactly once (got steps {sorted(seen)})"
                )
        return self

    def strengths(self) -> list[Strength]:
        return [Strength.parse(s) for s in self.steps]

    def counter_faces(self) -> list[tuple[int, int | None]]:
        if self.counters is not None:
            return list(self.counters)
        return (
            [(0, 1 if len(self.steps) > 1 else None)]
            if len(self.steps) <= 2
            else [(i, i + 1 if i + 1 < len(self.steps) else None) for i in range(0, len(self.steps), 2)]
        )


class Marker(Base):
    id: Id
    name: str
    front: str
    """Text on the front."""
    back: str | None = None
    """Text on the back (None: blank)."""
    count: MaybeInt = 1
    side: Id | None = None
    rule: RuleRef | None = None


# ---------------------------------------------------------------------------------------------------- turn track
class Turn(Base):
    number: int = Field(ge=1)
    date: str | None = None
    """Date or dates as printed on the track."""
    weather: str | None = None
    """Fixed weather for the turn; None when rolled or unknown."""
    marks: list[str] = []
    """Special-rule reminders printed in the turn's box (rule numbers or short words)."""
    replacements: dict[str, MaybeInt] = {}
    """Replacement steps or points by side."""
    note: str | None = None


class Weather(Base):
    states: list[str] = Field(min_length=1)
    """Weather or ground conditions in the game (``snow``, ``mud``)."""
    initial: str
    table: Id | None = None
    """Id of the table that gives the weather by turn and die roll."""
    rule: RuleRef | None = None
    summary: str | None = None


class TurnTrack(Base):
    turns: list[Turn] = Field(min_length=1)
    weather: Weather | None = None
    rule: RuleRef | None = None


# -------------------------------------------------------------------------------------------------------- combat
class CombatKind(StrEnum):
    ODDS = "odds"
    DIFFERENTIAL = "differential"
    MAGNITUDE = "magnitude"
    DICE_POOL = "dice-pool"


class CellFormat(StrEnum):
    """How to read a CRT cell."""

    HITS_NORMAL_ALLOUT = "hits-normal/all-out"
    """``0/1``: defender's hits in a normal / an all-out attack (Hell's Gate)."""
    CODE = "code"
    """A result code of the legend, or codes joined by ``+`` (``DL1+DR``)."""
    LOSSES_ATTACKER_DEFENDER = "losses-attacker/defender"
    """``1/1``, ``-/1``: attacker / defender step losses (secondary dice of a magnitude CRT)."""


class Grid2D(Base):
    """Rows by columns of cells; ``?`` is a cell the rulebook does not give."""

    rows: list[str] = Field(min_length=1)
    """Row labels: die results (``1`` .. ``6``, ``≥6``)."""
    cells: list[list[str]] | Unknown
    """One list per row, one cell per column."""


class AutoResult(Base):
    result: str | None = None
    """Result applied without a roll (``AL1``, ``DL1+DR``)."""
    column: str | None = None
    """Or: resolve on this column (``5-1``)."""
    rule: RuleRef | None = None
    note: str | None = None


class ResultCode(Base):
    meaning: str
    attacker_steps: MaybeInt = 0
    defender_steps: MaybeInt = 0
    defender_retreat: MaybeInt = 0
    """Hexes the defender retreats (0: none)."""
    attacker_retreat: MaybeInt = 0
    """Hexes the attacker retreats (0: none)."""
    rule: RuleRef | None = None


class MandatoryRetreat(Base):
    """Hell's Gate's red CRT numbers: a side that suffers at least this many hits must retreat if it can."""

    side: Id
    min_hits: int
    rule: RuleRef


class Crt(Base):
    title: str = "Combat Results Table"
    rule: RuleRef | None = None
    dice: str = "1d6"
    columns: list[str] = Field(min_length=1)
    """Column headings: odds (``3:2``, ``4:1-5:1``, ``8:1+``) or differentials (``-2``, ``+5``)."""
    rows: list[str] = Field(min_length=1)
    """Die results."""
    cells: list[list[str]] | dict[str, list[list[str]] | Unknown] | Unknown
    """One list per row, one cell per column; for CRTs with terrain sections (differential), a mapping from
    ``sections`` to such lists."""
    sections: list[str] | None = None
    """Terrain rows of a differential CRT, each a full die-by-column table."""
    cell_format: CellFormat = CellFormat.CODE
    secondary: Grid2D | None = None
    """Magnitude CRTs: the secondary-dice column under each odds column."""
    below: AutoResult | None = None
    """What happens below the first column."""
    above: AutoResult | None = None
    """What happens above the last column."""
    mandatory_retreat: MandatoryRetreat | None = None
    note: str | None = None


class Shift(Base):
    id: Id
    when: str
    """The condition, in words."""
    shift: int
    """Columns: positive = right (towards the attacker), negative = left."""
    condition: Id | None = None
    """Engine key for the condition (documented in docs/FORMAT.md), when the engine can evaluate it."""
    rule: RuleRef | None = None


class ShiftCap(Base):
    """A limit on how many columns a group of shifts can move the odds."""

    shifts: list[Id] = Field(min_length=1)
    max_columns: int = Field(ge=0)
    turns: list[int] | None = None
    """Turns on which the cap applies (None: every turn)."""
    side: Id | None = None
    """The side whose units the cap protects (None: both)."""
    role: Literal["attacking", "defending", "both"] = "both"
    when: str | None = None
    rule: RuleRef | None = None


class Modifier(Base):
    """A change to units' strengths in combat."""

    id: Id
    role: Literal["attacker", "defender"]
    when: str
    unit_types: list[UnitType] | None = None
    terrain: list[Id] | None = None
    """Defender's hex terrain or features that trigger it (None: any)."""
    multiply: str | None = None
    add: int | None = None
    cap: int | None = None
    """Largest total bonus from modifiers sharing this cap."""
    rounding: Literal["up", "down", "none"] = "none"
    per_unit: bool = True
    condition: Id | None = None
    rule: RuleRef | None = None

    @field_validator("multiply")
    @classmethod
    def _mult(cls, v: str | None) -> str | None:
        if v is not None:
            fraction(v)
        return v


class DicePool(Base):
    """Dice-pool combat: each unit rolls a die and hits on at most its modified strength."""

    die: int = 6
    hits_on_at_most_strength: bool = True
    automatic_hit_every: int | None = 6
    """A strength of this much scores an automatic hit without a roll; the remainder is rolled."""
    rounding: Literal["up", "down"] = "up"
    rule: RuleRef | None = None
    note: str | None = None


class Combat(Base):
    kind: CombatKind
    rule: RuleRef | None = None
    crt: Crt | None = None
    results: dict[str, ResultCode] = {}
    """Legend of result codes."""
    shifts: list[Shift] = []
    shift_caps: list[ShiftCap] = []
    modifiers: list[Modifier] = []
    dice_pool: DicePool | None = None
    max_attackers_per_hexside: MaybeInt | None = None
    max_defenders: dict[str, int] = {}
    """Most units of each side that defend in one hex."""
    note: str | None = None


# --------------------------------------------------------------------------------------------- tables and text
class TableRow(Base):
    label: str
    cells: list[str]


class Table(Base):
    id: Id
    title: str
    rule: RuleRef | None = None
    row_header: str = ""
    columns: list[str] = Field(min_length=1)
    rows: list[TableRow] = Field(min_length=1)
    notes: list[str] = []


class Phase(Base):
    name: str
    side: Id | None = None
    rule: RuleRef | None = None
    summary: str | None = None


class VpItem(Base):
    text: str
    vp: MaybeInt
    side: Id | None = None
    """The side that scores it (None: each side)."""
    rule: RuleRef | None = None


class Victory(Base):
    rule: RuleRef | None = None
    summary: str
    points: list[VpItem] = []
    handicap: dict[str, int] = {}
    """Victory points added to a side's score at the end."""


class SpecialRule(Base):
    rule: RuleRef
    title: str
    turns: list[int] = []
    summary: str


class Scenario(Base):
    id: Id
    name: str
    rule: RuleRef | None = None
    first_turn: int = 1
    last_turn: int | None = None
    setup: dict[str, str] = {}
    """Unit id -> setup hex, overriding the units' own setup."""
    summary: str | None = None


class ExampleKind(StrEnum):
    ODDS = "odds"
    SHIFTS = "shifts"
    COMBAT = "combat"
    PROBABILITY = "probability"
    STRENGTH = "strength"
    STEPS = "steps"
    VP = "vp"
    HEX = "hex"
    MAGNITUDE = "magnitude"
    MOVEMENT = "movement"
    SUPPLY = "supply"
    RETREAT = "retreat"
    SCALE = "scale"
    CLAIM = "claim"


class Example(Base):
    """A worked example or numeric claim of the rulebook, as data an engine can recompute."""

    id: Id
    rule: RuleRef
    kind: ExampleKind
    summary: str
    """What the example does, in our own words."""
    given: dict[str, Any] = {}
    """Inputs (see docs/FORMAT.md for the keys each kind uses)."""
    states: dict[str, Any] = {}
    """What the book states the outcome is."""
    doubt: str | None = None
    """Where the data's author suspects the book disagrees with its own rules."""
    source_line: int | None = None
    """Line of the seed text the example comes from."""


# --------------------------------------------------------------------------------------------------------- rules kit
# The rules every hex-and-counter system shares, as data (``rules:`` in YAML).  A system is the engine's kit
# (forge/rules/kit/) plus these fields; no engine code asks which game it is.  Each section below is filled in by
# its own piece of the kit: keep a section's classes together, between its marker comments.

# ---- kit: movement and zones of control -------------------------------------------------------------------------


class MovementRules(Base):
    """Movement points: allowances, terrain, hexside and road costs (rulebook words encoded as numbers)."""


class ZocRules(Base):
    """Zones of control: which hexes they cover, entering, leaving, locking, negation by friendly units."""


# ---- kit: stacking and limits -----------------------------------------------------------------------------------


class StackingRules(Base):
    """How many units or steps may share a hex, by side and class."""


class LimitRules(Base):
    """Per-turn, per-combat and per-hex counts the rules fix (markers, attacks, rebuilds ...)."""


# ---- kit: supply, retreat and advance, victory ------------------------------------------------------------------


class SupplyRules(Base):
    """Supply tracing: sources, range, what blocks a line."""


class RetreatRules(Base):
    """Retreat and advance after combat: lengths, preferences, what stops them."""


# ---- kit: the section ---------------------------------------------------------------------------------------------


class Rules(Base):
    """The rules kit's data: every section optional; a section a game leaves out is not checked."""

    movement: MovementRules | None = None
    zoc: ZocRules | None = None
    stacking: StackingRules | None = None
    limits: LimitRules | None = None
    supply: SupplyRules | None = None
    retreat: RetreatRules | None = None


class Game(Base):
    """One whole game: the single source of truth."""

    format: Literal[1]
    game: Info
    map: Map
    terrain: dict[Id, TerrainType]
    units: list[Unit] = []
    markers: list[Marker] = []
    turns: TurnTrack
    combat: Combat
    tables: list[Table] = []
    sequence: list[Phase] = []
    victory: Victory | None = None
    special_rules: list[SpecialRule] = []
    scenarios: list[Scenario] = []
    rules: Annotated[Rules, BeforeValidator(lambda v: {} if v is None else v)] = Rules()
    """The rules kit's data (movement, zones of control, stacking, limits, supply, retreat)."""
    examples: list[Example] = []

    # Convenience views; the data stays as loaded.
    def side(self, side_id: str) -> Side:
        return next(s for s in self.game.sides if s.id == side_id)

    def unit(self, unit_id: str) -> Unit:
        return next(u for u in self.units if u.id == unit_id)

    def reinforcements(self) -> dict[int, list[Unit]]:
        """Units by entry turn: the turn track's reinforcement boxes come from here and nowhere else."""
        out: dict[int, list[Unit]] = {}
        for u in self.units:
            if u.entry is not None and isinstance(u.entry.turn, int):
                out.setdefault(u.entry.turn, []).append(u)
        return dict(sorted(out.items()))

    def unscheduled(self) -> list[Unit]:
        """Reinforcements whose arrival turn the rulebook does not give."""
        return [u for u in self.units if u.entry is not None and isinstance(u.entry.turn, Unknown)]


def odds_column(label: str) -> OddsColumn:
    return OddsColumn.parse(label)


def diff_column(label: str) -> DiffColumn:
    return DiffColumn.parse(label)


_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-")
