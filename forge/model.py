"""The game model: frozen, typed, loaded once from YAML by :mod:`forge.loader` and read by everything else.

Nothing here draws or reads files.  A field whose value the rulebook does not give holds :class:`Unknown` (with the
reason), never an invented default.  Every rule-bearing item carries the rule number it comes from.
"""

import re
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from . import units as _units
from .hexgrid import Grid, GridKind, LabelScheme, Orientation, Parity
from .modelkit import (
    AfterValidator,
    Base,
    BeforeValidator,
    Discriminator,
    Field,
    MirrorAs,
    Tag,
    field_validator,
    fields_of as fields_of,  # name -> field of a model class (pydantic's model_fields, for either kind)
    model_validator,
)
from .notation import DiffColumn, OddsColumn, Strength, fraction

FORMAT_VERSION = 1


class Unknown(Base):
    """A value the rulebook does not give.  Written ``unknown`` or ``{unknown: "why"}`` in YAML."""

    unknown: str = ""
    """Why the value is unknown (what the rulebook lacks)."""

    def __str__(self) -> str:
        return "?"


def _unknown_in(v: Any) -> Any:
    return {"unknown": ""} if v == "unknown" else v


def _quantity_in(v: Any) -> Any:
    """A quantity as written: ``unknown``, or a number (``true`` and ``false`` are not, though pydantic would read
    them as 1 and 0)."""
    if isinstance(v, bool):
        raise ValueError(f"{str(v).lower()} is not a number (it is a yes/no value)")
    return _unknown_in(v)


MaybeInt = Annotated[int | Unknown, BeforeValidator(_unknown_in)]
MaybeFloat = Annotated[float | Unknown, BeforeValidator(_unknown_in)]
MAX_QUANTITY = 10_000
"""The most a :data:`Count`, :data:`Amount` or :data:`Positive` may be (docs/FORMAT.md, *Bounds*): more than any
game's steps, hexes, movement points or scale, and few enough that the engine may count up to it (a loss of 10**30
steps made ``forge verify`` count its way there)."""
Count = Annotated[Annotated[int, Field(ge=0, le=MAX_QUANTITY)] | Unknown, BeforeValidator(_quantity_in)]
"""A number of things (hexes, steps, movement points, counters ...): 0 to 10,000, or unknown."""
Amount = Annotated[
    Annotated[float, Field(ge=0, le=MAX_QUANTITY, allow_inf_nan=False)] | Unknown, BeforeValidator(_quantity_in)
]
"""A quantity that may be fractional (movement points): 0 to 10,000, or unknown."""
Positive = Annotated[
    Annotated[float, Field(gt=0, le=MAX_QUANTITY, allow_inf_nan=False)] | Unknown, BeforeValidator(_quantity_in)
]
"""A map or time scale: more than 0, at most 10,000, or unknown."""
Id = Annotated[
    str,
    Field(
        pattern=r"^[a-z0-9][a-z0-9_.\-]*$",
        max_length=64,
        description="lower-case id: letters, digits, _ . - (at most 64 characters: ids name output folders)",
    ),
]
MAX_DICE, MAX_FACES = 10, 100
"""The most dice one roll names, and the most faces a die has (a d100 is the largest die wargames roll)."""


def _dice_in(v: Any) -> Any:
    """``d6``, ``1d6``, ``2d6``, or a text naming them (``1d6 to 3d6 by magnitude``): every roll it names is one to
    :data:`MAX_DICE` dice of 2 to :data:`MAX_FACES` faces (``d0`` once divided by zero in verify)."""
    import re

    if not isinstance(v, str):
        return v
    rolls = re.findall(r"(?<![A-Za-z0-9])(\d*)[dD](\d+)(?![0-9])", v)
    if not rolls or not re.match(r"\s*\d*[dD]\d", v):
        raise ValueError("expected dice such as 'd6', '1d6' or '2d6' (a description may follow: '1d6 to 3d6 by ...')")
    for count, faces in rolls:
        if not 1 <= int(count or 1) <= MAX_DICE:
            raise ValueError(f"expected 1 to {MAX_DICE} dice, not {count[:12]} (e.g. '2d6')")
        if not 2 <= int(faces) <= MAX_FACES:
            raise ValueError(f"expected a die of 2 to {MAX_FACES} faces, not {faces[:12]} (e.g. 'd6')")
    return v


Dice = Annotated[str, BeforeValidator(_dice_in), Field(description="dice rolled, e.g. d6, 1d6, 2d6")]
Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", description="colour as #rrggbb")]
RuleRef = Annotated[str, Field(pattern=r"^[0-9A-Za-z][0-9A-Za-z.\-/ ]*$", description="rule number, e.g. 7.2")]
DataNote = Annotated[
    str | None,
    Field(
        description="a remark for the designer or the data's author (the sources, what the rulebook leaves unknown, "
        "how a value was derived or reconstructed): never printed on a component; forge verify lists it as an info "
        "finding (data-note)"
    ),
]
"""The type of every ``data_note``: what players do not need on the table goes here, not in ``note``."""
SourceLine = Annotated[int, Field(ge=1)]
"""A line of the seed text a value was typed from (``source_line`` on a data item): ``forge verify`` counts an
example that recomputes the value from that same line as an echo, not a check (docs/VERIFY.md, *Echoes*)."""
ImpliedBy = Annotated[list[Id], BeforeValidator(lambda v: [v] if isinstance(v, str) else v)]
"""The examples a value was taken from (``implied_by``: one example id or a list), because the book states it
nowhere else: such an example recomputing it is an echo (docs/VERIFY.md, *Echoes*)."""


# --------------------------------------------------------------------------------------------------------- game
class StrengthFormat(StrEnum):
    """How units' strengths are printed."""

    SINGLE = "single"
    """One combat strength (Hell's Gate; ``[n]`` marks a tank strength multiplied when attacking)."""
    ATTACK_DEFENSE = "attack-defense"
    ATTACK_DEFENSE_MOVEMENT = "attack-defense-movement"
    STRENGTH_MOVEMENT = "strength-movement"
    """One combat strength, then the movement allowance (``8-4``): the classic intro games' counters."""


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
    km_per_hex: Positive
    days_per_turn: Positive
    source_line: SourceLine | None = None
    """The seed-text line both values were typed from."""


class Info(Base, kw_only=True):
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
    sides: Annotated[list[Side], Field(min_length=2, max_length=2)]
    first_side: Annotated[Id | Unknown, BeforeValidator(_unknown_in)]
    """The side that moves first each turn (unknown where each scenario decides)."""
    strength_format: StrengthFormat = StrengthFormat.SINGLE
    mobility_classes: list[Id] = msgspec.field(default_factory=lambda: ["all"])
    """Movement classes that terrain costs are given for (``non-mechanized``, ``mechanized`` ...)."""
    dice: Dice = "d6"
    notes: str | None = None


# ---------------------------------------------------------------------------------------------------------- map
class MapStatus(StrEnum):
    COMPLETE = "complete"
    """Every hex as printed in the game."""
    RECONSTRUCTED = "reconstructed"
    """The rulebook names some hexes; the rest was reconstructed and is marked so."""
    PARTIAL = "partial"
    """Only the hexes the rulebook names; the rest of the map is unknown."""


class GridSpec(Base, kw_only=True):
    kind: GridKind = GridKind.HEX
    orientation: Orientation = Orientation.POINTY
    """Hex only: pointy-top hexes form rows, flat-top hexes form columns."""
    parity: Parity = Parity.ODD
    """Which rows (pointy, offset-square) or columns (flat) are shoved forward half a cell, counted from 0."""
    columns: Annotated[int, Field(ge=1, le=1000)]
    rows: Annotated[int, Field(ge=1, le=1000)]
    labels: LabelScheme = LabelScheme.XXYY
    first_column: int = 1
    first_row: int = 1
    rows_up: bool = False
    """Row labels grow upwards: the first row (A, 01) is the bottom edge of the printed map."""

    @model_validator(mode="after")
    def _labels_fit(self) -> "GridSpec":
        self.grid()  # its ValueError names the field and what the label scheme allows
        return self

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
    features: Annotated[list[Id], Field(min_length=1)]
    """Terrain ids of kind ``hexside``: minor_river, major_river, bridge, border ..."""
    name: str | None = None
    reconstructed: bool = False
    note: str | None = None


class PathInfo(Base):
    kind: Id
    """Terrain id of kind ``path``: road, railway ..."""
    hexes: Annotated[list[str], Field(min_length=2)]
    """Hex labels in order; consecutive hexes must be adjacent."""
    name: str | None = None
    reconstructed: bool = False


class ZoneSymbol(StrEnum):
    """The mark printed in each hex of a set-up zone: shapes that stay apart in greyscale."""

    CROSS = "cross"
    CIRCLE = "circle"
    TRIANGLE = "triangle"
    SQUARE = "square"
    STAR = "star"
    DIAMOND = "diamond"


class ZoneWithin(Base):
    """Every hex at most ``distance`` hexes from ``of``."""

    distance: Annotated[int, Field(ge=0, le=1000)]
    of: str
    """A hex label, a place (a key of ``map.places``) or a hex name (``map.hexes[*].name``)."""


class SetupZone(Base):
    """Hexes a game marks for setting up (``map.setup_zones``): the units that set up there may start in any of
    them, at most ``per_hex`` to a hex.  Its hexes are the union of ``hexes``, ``within`` and ``edges``."""

    name: str | None = None
    """What the map key and the set-up sheet call it (default: the side's name, or the zone's id)."""
    side: Id | None = None
    """The side the zone is for: its symbol is printed in that side's colour."""
    symbol: ZoneSymbol = ZoneSymbol.CROSS
    """The mark printed in each of its hexes."""
    hexes: list[str] = []
    """Hexes listed by label."""
    within: list[ZoneWithin] = []
    """Hexes near a hex or a named place."""
    edges: list[Literal["north", "south", "east", "west"]] = []
    """Hexes along these map edges (the first or last rows or columns of the grid), ``depth`` deep."""
    depth: Annotated[int, Field(ge=1, le=1000)] = 1
    """How many rows (or columns) from each edge in ``edges`` belong to the zone."""
    per_hex: Annotated[int, Field(ge=1, le=100)] | None = 1
    """Most of its units that may set up in one of its hexes (None: no limit but the stacking rules)."""
    units: "UnitSelector | None" = None
    """Units that set up here without naming the zone (those with no ``setup``, ``setup_zone``, ``entry`` or
    ``pool``): by id, type or size; a selector giving only ``side`` takes every such unit of that side."""
    rule: RuleRef | None = None
    data_note: DataNote = None


class Map(Base, kw_only=True):
    grid: GridSpec
    sheet: str | None = None
    """Printed size of the map sheet, width x height: ``11x17in``, ``22x34in``."""
    hex_size: str = "1in"
    """Width of one hex across its flats (side of a square) at print size."""
    status: MapStatus
    note: str | None = None
    """Printed in the map's title box: what players need to read the map.  A remark for the designer goes in
    ``data_note``."""
    data_note: DataNote = None
    default_terrain: Id | None = None
    """Terrain of every hex not listed in ``hexes`` (None: unknown)."""
    hexes: dict[str, HexInfo] = {}
    """By label in the game's own scheme."""
    hexsides: list[HexsideInfo] = []
    paths: list[PathInfo] = []
    places: dict[str, list[str]] = {}
    """Places that span several hexes: name -> the labels of its hexes (Vinnitsa: 4513, 4612, 4613).  Two hexes
    with the same ``name`` are reported by ``forge verify`` unless one place here holds both."""
    setup_zones: dict[Id, SetupZone] = {}
    """Set-up zones by id: hexes marked on the map where units of a side or class set up (``units[*].setup_zone``)."""

    @field_validator("sheet")
    @classmethod
    def _sheet(cls, v: str | None) -> str | None:
        if v is not None:
            _units.size(v)
        return v

    @field_validator("hex_size")
    @classmethod
    def _hex_size(cls, v: str) -> str:
        pts = _units.length(v)
        if not _units.HEX_MIN <= pts <= _units.HEX_MAX:
            raise ValueError(
                f"{v!r} is {_units.fmt(pts)} (expected a hex size from {_units.fmt(_units.HEX_MIN)}"
                f" to {_units.fmt(_units.HEX_MAX)})"
            )
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
    by_side: "dict[str, CombatEffect]" = {}
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
    movement: dict[str, MoveCost] | Literal["none"] = {}
    """Cost to enter (or cross) by mobility class; ``prohibited``; ``varies`` with a note.  ``none``: a path,
    hexside or feature with no movement effect of its own (a railway only rail movement follows; the hex's terrain
    counts).  Omitted: the costs are unknown."""
    movement_note: str | None = None
    """Printed in the terrain chart: a rule summary players need.  A remark for the designer goes in
    ``data_note``."""
    combat: CombatEffect = msgspec.field(default_factory=CombatEffect)
    rule: RuleRef | None = None
    data_note: DataNote = None
    source_line: SourceLine | None = None
    """The seed-text line its effects were typed from (a terrain chart's row)."""

    @property
    def costs(self) -> dict[str, MoveCost]:
        """The costs by mobility class: empty both when ``movement`` is ``none`` and when it is omitted."""
        return {} if isinstance(self.movement, str) else self.movement


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


class Pool(Base):
    """A unit that starts off the map, in its side's pool of eliminated units: it can come back only as a
    replacement, from turn ``from_turn`` on."""

    from_turn: Annotated[int, Field(ge=1)] = 1
    """The first turn it may be taken as a replacement."""
    rule: RuleRef | None = None


def _strength_text(s: str) -> str:
    """A step's face in some notation (forge check then holds it to the game's, :meth:`_Checker.check_units`)."""
    Strength.parse(s)
    return s


class Unit(Base, dict=True, kw_only=True):
    id: Id
    side: Id
    name: str
    """Full designation: ``29th Tank Corps``."""
    label: str
    """What the counter prints as its id: ``29``, ``3 SS``."""
    type: UnitType
    size: UnitSize | None = None
    steps: Annotated[list[Annotated[str, AfterValidator(_strength_text)]], Field(min_length=1)]
    """What each step's face prints, full first, in the game's strength notation (``[2]``, ``3``, ``4-3-7``,
    ``8-4``; ``(4)``, ``red:8`` marks; :class:`forge.notation.Strength`)."""
    counters: list[tuple[int, int | None]] | None = None
    """Which steps each physical counter shows, front and back (0-based step index; None for a blank back).
    Default: one counter with steps 0 and 1 (a one-step unit's back is blank).  Multi-step divisions with
    substitute counters list several."""
    setup: str | None = None
    """Setup hex label."""
    setup_zone: Id | None = None
    """Or: the set-up zone (a key of ``map.setup_zones``) in any of whose hexes it sets up."""
    start_step: Annotated[int, Field(ge=0, le=100)] = 0
    """The step it starts on (0-based index of ``steps``: 0 full strength, 1 the first reduced step ...)."""
    pool: Pool | None = None
    """Or: it starts off the map in the pool of eliminated units (available as a replacement)."""
    entry: Entry | None = None
    group: str | None = None
    """Formation or colour group (a key of the side's ``groups``)."""
    copies: Annotated[int, Field(ge=1, le=100)] = 1
    returns_after: Annotated[int, Field(ge=1)] | None = None
    """When eliminated, the unit comes back as a reinforcement this many turns later (a free replacement placed
    ahead on the turn track); None: it does not come back by itself."""
    reconstructed: bool = False
    note: str | None = None
    source_line: SourceLine | None = None
    """The seed-text line its steps (strengths, how many) were typed from."""
    implied_by: ImpliedBy = []
    """Examples its steps were worked out from (a strength only a worked example's sum reveals)."""
    _form: ClassVar[str | None] = None
    # The game's strength notation, set by Game (in the object's __dict__, not a field): "8-4" is attack-defence in
    # one game, strength-movement in another.

    @model_validator(mode="after")
    def _placement(self) -> "Unit":
        if self.setup is not None and self.entry is not None:
            raise ValueError("a unit has either 'setup' (a hex) or 'entry' (a turn), not both")
        ways = [k for k in ("setup", "setup_zone", "entry", "pool") if getattr(self, k) is not None]
        if len(ways) > 1:
            raise ValueError(
                f"a unit starts one way: a 'setup' hex, a 'setup_zone', an 'entry' or the 'pool' "
                f"(got {' and '.join(ways)})"
            )
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
        """Each step's face read in its game's notation (``game.strength_format``; by its shape for a unit made
        outside a game)."""
        return [Strength.parse(s, self._form) for s in self.steps]

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
    group: str | None = None
    """The formation (a key of its side's ``groups``) whose own markers these are: printed in its colour with its
    code top left (Escape's support fire pools, one per organisational group)."""
    rule: RuleRef | None = None


# ---------------------------------------------------------------------------------------------------- turn track
class TurnLength(Base):
    """How long one turn lasts when it is not ``game.scale.days_per_turn``: ``{days: 2}`` or ``{hours: 12}``
    (one of the two; a day turn and a night turn, two-day winter turns)."""

    days: Positive | None = None
    hours: Positive | None = None

    @model_validator(mode="after")
    def _one_unit(self) -> "TurnLength":
        if (self.days is None) == (self.hours is None):
            raise ValueError("expected one of 'days' or 'hours' (e.g. {days: 2} or {hours: 12})")
        return self


class Turn(Base):
    number: Annotated[int, Field(ge=1)]
    length: TurnLength | None = None
    """How long this turn lasts, when it differs from ``game.scale.days_per_turn`` (printed in its box)."""
    date: str | None = None
    """Date or dates as printed on the track."""
    weather: str | None = None
    """Fixed weather for the turn; None when rolled or unknown."""
    marks: list[str] = []
    """Special-rule reminders printed in the turn's box (rule numbers or short words)."""
    replacements: dict[str, Count] = {}
    """Replacement steps or points by side."""
    note: str | None = None
    """Printed on the turn track: a rule summary players need.  A remark for the designer goes in ``data_note``."""
    data_note: DataNote = None


class Weather(Base):
    states: Annotated[list[str], Field(min_length=1)]
    """Weather or ground conditions in the game (``snow``, ``mud``)."""
    initial: str
    table: Id | None = None
    """Id of the table that gives the weather by turn and die roll."""
    rule: RuleRef | None = None
    summary: str | None = None


class TurnTrack(Base):
    turns: Annotated[list[Turn], Field(min_length=1)]
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

    rows: Annotated[list[str], Field(min_length=1)]
    """Row labels: die results (``1`` .. ``6``, ``≥6``)."""
    cells: list[list[str]] | Unknown
    """One list per row, one cell per column."""


class AutoResult(Base):
    result: str | None = None
    """Result applied without a roll (``AL1``, ``DL1+DR``)."""
    column: str | None = None
    """Or: resolve on this column (``5-1``): "odds above 6:1 are treated as 6:1"."""
    no_effect: bool = False
    """Or: the attack has no effect, and no die is rolled ("below 1:1 an attack has no effect").  ``below`` and
    ``above`` give exactly one of ``result``, ``column`` and ``no_effect``."""
    from_odds: str | None = None
    """For ``Crt.high_odds``: the odds from which ``result`` applies, counted after favourable shifts, one whole
    odds step per shift past the last column (Ukraine '43 8.8: 10-1)."""
    rule: RuleRef | None = None
    note: str | None = None
    """Printed beside the CRT: a rule summary players need.  A remark for the designer goes in ``data_note``."""
    data_note: DataNote = None


class ResultCode(Base):
    meaning: str
    attacker_steps: Count = 0
    defender_steps: Count = 0
    defender_retreat: Count = 0
    """Hexes the defender retreats (0: none)."""
    attacker_retreat: Count = 0
    """Hexes the attacker retreats (0: none)."""
    defender_eliminated: bool = False
    """Every defending unit is eliminated, whatever its steps (``De``)."""
    attacker_eliminated: bool = False
    """Every attacking unit is eliminated (``Ae``)."""
    step_instead_of_retreat: bool = False
    """The retreating side may lose one step instead of retreating ("stiff resistance"); a unit with one step
    left is then eliminated.  A unit that cannot retreat must take it."""
    attacker_steps_if_defender_has: int | None = None
    """The attacker loses its steps only if the defender had at least this many steps to lose (Ukraine '43 DR2X:
    2 -- no attacker loss when the defender had only one)."""
    exchange: Literal["steps", "strength"] | None = None
    """An exchange: the attacker loses at least as much as the defender lost, counted in ``steps`` or in
    ``strength`` points (``exchange_strength`` says which strength); ``attacker_steps`` is then not given
    (:func:`forge.rules.combat.exchange_losses`)."""
    exchange_strength: Literal["printed", "current"] = "printed"
    """For a ``strength`` exchange: the units' printed combat strength, or their current (modified) strength in
    this combat, on both sides."""
    attacker_choice: list[str] = []
    """The attacker chooses one of these results (codes of the legend) instead of this one."""
    advance: Literal["attacker", "defender", "either"] | None = None
    """Who may advance into the vacated hex after this result (None: the legend does not let anyone)."""
    advance_hexes: Count | None = None
    """How far the advance may go, in hexes (None: ``rules.retreat.advance`` for the unit's class, else 1)."""
    rule: RuleRef | None = None


class LeaderEffect(Base):
    """What a leader counter does to the one combat it joins (Ukraine '43 26.1: Zhukov)."""

    unit: Id
    """The leader's unit id."""
    magnitude: int = 0
    """Dice added to the combat's magnitude."""
    max_magnitude: int | None = None
    attacker_steps: int = 0
    """Extra steps the attacker loses in each attack the leader joins."""
    second_attack_on: list[str] = []
    """Primary results after which the attacker may attack the same hex again."""
    range: int | None = None
    """Farthest the defender's hex may be from the leader, in hexes."""
    rule: RuleRef | None = None


class ResultConversion(Base):
    """A result read as another when every attacker is of one side (Ukraine '43 9.10: all-German attacks read DRX
    as DR1, and a secondary ``1/1`` as ``-/1``)."""

    result: str
    """The result code (or a secondary cell) as printed."""
    becomes: str
    all_attackers: Id
    """The side every attacking unit must belong to."""
    rule: RuleRef | None = None


class MandatoryRetreat(Base):
    """Hell's Gate's red CRT numbers: a side that suffers at least this many hits must retreat if it can."""

    side: Id
    min_hits: int
    rule: RuleRef


class AllOutAttack(Base):
    """How an attack on a CRT of normal/all-out hits (``cell_format: hits-normal/all-out``) is made all-out, and when
    a target takes the all-out result without one (``Crt.all_out``)."""

    flip_first: list[UnitType] = []
    """Unit types whose full-strength two-step attackers must be the one flipped when any of them attacks, in order
    of preference: the first type with such an attacker gives the choices ([]: any full-strength two-step
    attacker)."""
    crowded_units: Annotated[int, Field(ge=1)] | None = None
    """A target hex holding at least this many unretreated units takes the all-out result of every attack, with no
    unit flipped (None: never)."""
    rule: RuleRef | None = None
    """The rule of the all-out attack (and of the crowded target too, unless ``crowded_rule`` gives its own)."""
    crowded_rule: RuleRef | None = None
    """The rule of the crowded target (``crowded_units``) when the book gives it a rule of its own (None: ``rule``)."""
    source_line: SourceLine | None = None


class ImpliedCell(Base, kw_only=True):
    """A CRT cell typed from a worked example (``Crt.implied_by``)."""

    column: str
    row: str
    section: str | None = None
    """The terrain section of a CRT with sections."""
    secondary: bool = False
    """A cell of the secondary table (``Crt.secondary``)."""
    example: Id
    """The example whose sentence reveals the cell."""


class Crt(Base, kw_only=True):
    title: str = "Combat Results Table"
    rule: RuleRef | None = None
    dice: Dice = "1d6"
    columns: Annotated[list[str], Field(min_length=1)]
    """Column headings: odds (``3:2``, ``4:1-5:1``, ``8:1+``) or differentials (``-2``, ``+5``)."""
    rows: Annotated[list[str], Field(min_length=1)]
    """Die results."""
    cells: Annotated[
        list[list[str]] | dict[str, list[list[str]] | Unknown],
        MirrorAs(list[list[str]] | dict[str, list[list[str]] | Unknown] | Unknown),
    ]
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
    all_out: AllOutAttack | None = None
    """How an attack is made all-out on a CRT of normal/all-out hits (the hits engine needs it to play one)."""
    high_odds: AutoResult | None = None
    """An automatic result from high odds reached with shifts past the last column (``from_odds``, ``result``)."""
    note: str | None = None
    """Printed under the CRT: a rule summary players need.  A remark for the designer goes in ``data_note``."""
    data_note: DataNote = None
    source_line: SourceLine | None = None
    """The seed-text line where the book prints the table (its cells, unless ``implied_by`` says otherwise)."""
    implied_by: list[ImpliedCell] = []
    """Cells the book prints nowhere, typed from what a worked example reveals."""


class Condition(Base):
    """When a shift or a modifier applies, from facts of the combat (:mod:`forge.rules.kit.conditions`): every
    field given must hold; a list holds when any of its values does.  Facts about units (``supply``, ``across``,
    ``unit_types``, ``mobility``) are about the unit a per-unit modifier changes, else about the units of
    ``role``, ``units`` of which must meet them."""

    weather: list[str] = []
    """The turn's weather (a state of ``turns.weather.states`` or a turn's ``weather``)."""
    terrain: list[Id] = []
    """The defender's hex terrain or features."""
    across: list[Id] = []
    """The unit attacks across a hexside with one of these features."""
    attacker_side: Id | None = None
    defender_side: Id | None = None
    unit_types: list[UnitType] = []
    mobility: list[Id] = []
    """Mobility classes (``game.mobility_classes``) of the unit."""
    supply: Literal["supplied", "unsupplied"] | None = None
    role: Literal["attacker", "defender"] | None = None
    """Whose units the unit facts are about (a modifier: its own role)."""
    units: Literal["all", "any", "some-not-all", "at-least-half"] = "all"
    """How many units of ``role`` must meet the unit facts (shifts and stack modifiers)."""
    phase: list[str] = []
    """The phase of the sequence of play (a ``sequence`` phase name) the combat is fought in."""

    def __hash__(self) -> int:
        # lists hash by their contents: a condition is compared with the keys of a mapping or a set
        return hash(self.model_dump_json())

    @model_validator(mode="before")
    @classmethod
    def _one_value(cls, v: Any) -> Any:
        """``weather: mud`` reads as ``weather: [mud]``: a list of one value may be written as the value."""
        if isinstance(v, dict):
            lists = ("weather", "terrain", "across", "unit_types", "mobility", "phase")
            return {k: [x] if k in lists and isinstance(x, str) else x for k, x in v.items()}
        return v


def _condition_form(v: Any) -> str:
    # tags start upper-case: forge.loader reads a lower-case step of an error's location as a key of the file
    return "Key" if isinstance(v, str | int | float) and not isinstance(v, bool) else "Condition"


ConditionRef = Annotated[
    Annotated[Id, Tag("Key")] | Annotated[Condition, Tag("Condition")], Discriminator(_condition_form)
]
"""A condition: a key of the vocabulary (:mod:`forge.conditions`) or a mapping of facts (:class:`Condition`); a
mapping is read as one, so a mistake in it is reported once, in the mapping's own terms."""


class Shift(Base):
    id: Id
    when: str
    """The condition, in words."""
    shift: int
    """Columns: positive = right (towards the attacker), negative = left."""
    condition: ConditionRef | None = None
    """When the shift applies: a key or a mapping of facts (:class:`Condition`, docs/FORMAT.md "Conditions");
    None: the condition is in words only, and only an example's or a position's own list of shifts applies it."""
    rule: RuleRef | None = None
    source_line: SourceLine | None = None
    """The seed-text line it was typed from (the rule or chart row that states it)."""
    implied_by: ImpliedBy = []
    """Examples its value was worked out from, where the book states it nowhere else."""


class ShiftCap(Base):
    """A limit on how many columns a group of shifts can move the odds."""

    shifts: Annotated[list[Id], Field(min_length=1)]
    max_columns: Annotated[int, Field(ge=0)]
    turns: list[int] | None = None
    """Turns on which the cap applies (None: every turn)."""
    side: Id | None = None
    """The side whose units the cap protects (None: both)."""
    role: Literal["attacking", "defending", "both"] = "both"
    when: str | None = None
    rule: RuleRef | None = None


class CapReading(ShiftCap, kw_only=True):
    """Another statement of a shift cap elsewhere in the book (a reference sheet, a footnote) that differs from
    the rule the engine applies.  The engine never applies it; ``forge verify`` uses it to recognise a
    disagreement that only this other statement explains, and reports that as an erratum only where a reachable
    position shows it."""

    source: str
    """Where the book says it this way (e.g. "reference sheet, footnote to the supply shifts")."""


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
    """How a multiplied strength is rounded: per unit, or once on the side's total when ``per_unit`` is false."""
    per_unit: bool = True
    """True: applied to (and rounded for) each unit; false: once to the side's total (a multiplier multiplies
    the sum and rounds it once; an addition is a stack bonus)."""
    condition: ConditionRef | None = None
    """When the modifier applies (:class:`Condition`); None: always, within ``unit_types`` and ``terrain``."""
    rule: RuleRef | None = None
    source_line: SourceLine | None = None
    """The seed-text line it was typed from (the rule or chart row that states it)."""
    implied_by: ImpliedBy = []
    """Examples its value was worked out from, where the book states it nowhere else."""

    @field_validator("multiply")
    @classmethod
    def _mult(cls, v: str | None) -> str | None:
        if v is not None:
            fraction(v)
        return v


class DicePool(Base):
    """Dice-pool combat: each unit rolls a die and hits on at most its modified strength."""

    die: Annotated[int, Field(ge=2, le=100)] = 6
    """Faces of the die every unit rolls (2 to 100: a bigger die is no die a table uses, and the exact
    distributions grow with it)."""
    hits_on_at_most_strength: bool = True
    automatic_hit_every: int | None = 6
    """A strength of this much scores an automatic hit without a roll; the remainder is rolled."""
    rounding: Literal["up", "down"] = "up"
    round_once: bool = True
    """All multipliers are applied first and the product rounded once (False: rounded after each)."""
    all_out_defender_losses: int = 0
    """Extra strength the defender loses in an all-out attack."""
    all_out_attacker_losses: int = 0
    """Strength an all-out attack costs the attacker."""
    crowded_units: int | None = None
    """A target holding at least this many units is crowded (None: never)."""
    crowded_defender_losses: int = 0
    """Extra strength a crowded target loses."""
    rule: RuleRef | None = None
    note: str | None = None
    """Printed on the combat card: a rule summary players need.  A remark for the designer goes in ``data_note``."""
    data_note: DataNote = None


class Reroll(Base):
    """Die faces an attacking side must roll again, keeping the second roll (Ukraine '43 9.10: Soviet 6s against a
    hex holding a German unit, unless Guards make up half the attacking steps)."""

    id: Id
    side: Id
    """The attacking side that must re-roll."""
    faces: Annotated[list[int], Field(min_length=1)]
    against: Id | None = None
    """Only against a hex holding a unit of this side (None: always)."""
    group: str | None = None
    unless_share: str | None = None
    """Not when at least this share (``1/2``) of the attacking steps belong to units of ``group``."""
    step_counts: dict[Id, int] = {}
    """Units that count as this many steps for the share (HQs that count as one step)."""
    rule: RuleRef | None = None

    @field_validator("unless_share")
    @classmethod
    def _share(cls, v: str | None) -> str | None:
        if v is not None:
            fraction(v)
        return v


class DieModifier(Base):
    """A number added to the combat die roll (Escape from Hell's Gate 11.1: +1 in precipitation)."""

    id: Id
    when: str
    add: int
    weather: list[str] | None = None
    """Weather or ground states in which it applies (None: always)."""
    bombardment: bool = True
    """Whether it also applies to bombardments."""
    rule: RuleRef | None = None


class Combat(Base):
    kind: CombatKind
    rule: RuleRef | None = None
    crt: Crt | None = None
    results: dict[str, ResultCode] = {}
    """Legend of result codes."""
    conversions: list[ResultConversion] = []
    """Results read as others for some attacking forces (applied before the legend)."""
    leaders: list[LeaderEffect] = []
    """Leader counters and what they do to a combat they join."""
    die_modifiers: list[DieModifier] = []
    """Numbers added to the combat die roll (positive: a higher roll)."""
    rerolls: list[Reroll] = []
    """Die faces an attacking side must roll again."""
    shifts: list[Shift] = []
    shift_caps: list[ShiftCap] = []
    cap_readings: list[CapReading] = []
    """Caps the book states another way elsewhere (never applied; see :class:`CapReading`)."""
    modifiers: list[Modifier] = []
    dice_pool: DicePool | None = None
    max_attackers_per_hexside: Count | None = None
    attacks_per_unit: Annotated[int, Field(ge=1)] | None = None
    """Most attacks a unit may make in one combat phase (None: the rules do not say)."""
    attacks_per_defender: Annotated[int, Field(ge=1)] | None = None
    """Most times one defending hex may be attacked in one combat phase (None: the rules do not say)."""
    max_defenders: dict[str, int] = {}
    """Most units of each side that defend in one hex."""
    alone_defense: "list[AloneDefense]" = []
    """The defence strength of units (headquarters) caught with no other unit in their hex."""
    note: str | None = None
    """Printed as the combat notes: a rule summary players need.  A remark for the designer goes in ``data_note``."""
    data_note: DataNote = None


# --------------------------------------------------------------------------------------------- tables and text
class TableRow(Base):
    label: str
    cells: list[str]


class TableModifier(Base):
    """A die-roll modifier of a table, given in the rule's words or under the table."""

    id: Id
    when: str
    """When it applies, in our words."""
    add: int
    """Added to the roll."""
    rule: RuleRef | None = None


class Table(Base, kw_only=True):
    id: Id
    title: str
    rule: RuleRef | None = None
    row_header: str = ""
    columns: Annotated[list[str], Field(min_length=1)]
    rows: Annotated[list[TableRow], Field(min_length=1)]
    notes: list[str] = []
    """Printed under the table: a rule summary each players need.  A remark for the designer goes in ``data_note``."""
    modifiers: list[TableModifier] = []
    """The roll's modifiers as numbers (examples' claims about them are compared with these)."""
    data_note: DataNote = None


class PhaseActivity(StrEnum):
    """What happens in a phase of the sequence of play (the engine reads these; see docs/FORMAT.md)."""

    SUPPLY = "supply"
    """The side's units' supply status is judged here and holds until the side's next supply phase."""
    REINFORCEMENT = "reinforcement"
    COMBAT = "combat"
    MOVEMENT = "movement"
    RECOVERY = "recovery"
    HOUSEKEEPING = "housekeeping"


class Phase(Base):
    name: str
    side: Id | None = None
    rule: RuleRef | None = None
    summary: str | None = None
    activities: list[PhaseActivity] = []
    """What the phase does, for the engine: e.g. when a side's supply status is judged (``supply``) relative to the
    combat phases decides whether its units can fight unsupplied (an unset list: the engine does not know)."""
    # -- engine variants (forge.rules.engine plays Hell's Gate and its variants from the data) --------------
    each_side: bool = False
    """The phase belongs to a player turn that each side plays in turn, the first side first: a run of such phases
    is played whole by one side, then whole by the other (the tabletop's two player turns of six phases)."""
    steps: "list[PhaseStep]" = []
    """Housekeeping steps the phase holds at its start or end (markers removed, rolls made): examples that say
    when a step happens are compared with these."""


class PhaseStep(Base):
    """One step of a phase, and whether it comes at the phase's start, at its end, or during it."""

    id: Id
    at: Literal["start", "end", "during"] = "during"
    text: str | None = None
    """What is done, in our words."""
    rule: RuleRef | None = None


class VpItem(Base):
    text: str
    vp: MaybeInt
    side: Id | None = None
    """The side that scores it (None: each side)."""
    rule: RuleRef | None = None
    id: Id | None = None
    """A name for the item (``town``, ``exited-corps``): examples and the engine find it by this."""
    per: "VpPer | None" = None
    """What the item counts (engine key): ``hex``, ``enemy-step``, ``enemy-cs``, ``enemy-source``,
    ``enemy-reduced`` (an enemy multi-step unit still in play with steps missing), ``unit-exited``, ``unit-steps``
    (a unit's full step count), ``event``."""
    terrain: list[Id] = []
    """For ``per: hex``: the terrain or features of the hexes that score."""
    max: int | None = None
    """The most VP the item can give in a game."""


class Victory(Base, kw_only=True):
    rule: RuleRef | None = None
    summary: str
    points: list[VpItem] = []
    handicap: dict[str, int] = {}
    """Victory points added to a side's score at the end."""
    start: dict[str, int] = {}
    """Victory points a side has when play begins (on the VP track)."""
    levels: "list[VictoryLevel]" = []
    """The result a final score gives (``forge.rules.kit.victory.level``)."""
    data_note: DataNote = None


class EffectKind(StrEnum):
    """What a special rule's effect does in play (:class:`RuleEffect`).  Each kind is one small, general mechanism
    the engine applies on the rule's turns (or the effect's own ``turns``); a rule is the list of its effects."""

    NO_ENTRY = "no-entry"
    """The ``side``'s units never enter the ``places``/``hexes``: no move into or through them, no retreat into
    them."""
    FREEZE = "freeze"
    """The ``side``'s units within ``radius`` hexes of the ``places``/``hexes`` do not move, until a unit of the
    ``released_by`` side has entered a hex around them (within ``radius``, not the place itself) at any time."""
    SUPPLY_MAX_LENGTH = "supply-max-length"
    """The ``side``'s supply lines are at most ``length`` hexes long when its supply is judged."""
    ONLY_TYPES_MOVE = "only-types-move"
    """Only the ``side``'s units of the unit ``types`` move (and, with ``max_units``, at most that many of the
    side's units move in a movement phase)."""
    ONLY_TYPES_ATTACK = "only-types-attack"
    """Only the ``side``'s units of the unit ``types`` attack."""
    END_APART = "end-apart"
    """The ``side``'s units of the unit ``types`` end their moves in different hexes (movement may not end while
    two share a hex and one of them could still move)."""
    CAPS_WHILE_HOLDING = "caps-while-holding"
    """The shift caps that cite this special rule's number protect the ``side``'s units only while a unit of the
    side holds the place ``holds``, and only when its units attack from, or defend in, the ``places``/``hexes``."""
    ARRIVAL_IF_ENTERED = "arrival-if-entered"
    """The ``units`` arrive only if a unit of the ``side`` has entered one of the ``places``/``hexes`` before their
    entry turn; otherwise they never come (the units' ``entry.condition`` says so in words)."""
    REBUILD = "rebuild"
    """In its supply phase the ``side`` may flip one reduced, supplied unit of the ``sizes`` back to full strength
    (on the turns the turn track marks with this rule's number, else the rule's turns)."""
    BREAKOUT = "breakout"
    """At the end of a movement phase, each unsupplied unit of the moving side that neither moved nor retreated
    may try to break out: a die plus one per hex within ``radius`` holding a supplied friendly unit; it escapes on
    the ``table``'s column marked ``N+`` or more, else it is destroyed."""


EFFECT_KEYS: dict[EffectKind, tuple[tuple[str, ...], tuple[str, ...]]] = {
    EffectKind.NO_ENTRY: (("side", "where"), ()),
    EffectKind.FREEZE: (("side", "where", "radius", "released_by"), ()),
    EffectKind.SUPPLY_MAX_LENGTH: (("side", "length"), ()),
    EffectKind.ONLY_TYPES_MOVE: (("side", "types"), ("max_units",)),
    EffectKind.ONLY_TYPES_ATTACK: (("side", "types"), ()),
    EffectKind.END_APART: (("side", "types"), ()),
    EffectKind.CAPS_WHILE_HOLDING: (("side", "holds", "where"), ()),
    EffectKind.ARRIVAL_IF_ENTERED: (("side", "units", "where"), ()),
    EffectKind.REBUILD: (("side", "sizes"), ()),
    EffectKind.BREAKOUT: (("table", "radius"), ()),
}
"""Per effect kind: the keys it needs and the keys it may have besides ``kind`` and ``turns`` (``where`` stands
for ``places`` or ``hexes``, either or both)."""


class RuleEffect(Base):
    """One thing a special rule does in play: a general mechanism (``kind``) and its parameters.  The places and
    hexes it acts on are data (``places``: names of the map's hexes or of ``map.places``; ``hexes``: labels)."""

    kind: EffectKind
    turns: list[int] | None = None
    """Turns on which the effect holds (None: the special rule's ``turns``)."""
    side: Id | None = None
    """The side whose units the effect binds (or whose entry triggers it, for ``arrival-if-entered``)."""
    places: list[str] = []
    """Names of places (a hex's ``name`` or a key of ``map.places``) the effect acts on."""
    hexes: list[str] = []
    """Hex labels the effect acts on."""
    radius: Annotated[int, Field(ge=0, le=MAX_QUANTITY)] | None = None
    """Hexes around the places (``freeze``: frozen within it; ``breakout``: refuges within it)."""
    released_by: Id | None = None
    """``freeze``: the side whose entry around the places ends the freeze."""
    length: Annotated[int, Field(ge=0, le=MAX_QUANTITY)] | None = None
    """``supply-max-length``: the longest supply line, in hexes."""
    types: list[UnitType] = []
    """Unit types the effect names."""
    max_units: Annotated[int, Field(ge=0, le=MAX_QUANTITY)] | None = None
    """``only-types-move``: at most this many of the side's units move in a movement phase."""
    holds: str | None = None
    """``caps-while-holding``: the place the side must hold."""
    units: list[Id] = []
    """``arrival-if-entered``: the units whose arrival depends on the entry."""
    sizes: list[UnitSize] = []
    """``rebuild``: the unit sizes that may be rebuilt."""
    table: Id | None = None
    """``breakout``: the id of the table of breakout results."""

    @model_validator(mode="after")
    def _keys_of_kind(self) -> "RuleEffect":
        needs, may = EFFECT_KEYS[self.kind]
        # A key counts as given when it says something: a value other than its default (an empty list or null
        # says nothing, and a game dumped whole -- model_dump() -- writes every key with its default).
        # (A key left out holds its default, so "given and not the default" is "not the default".)
        fields = type(self).model_fields
        given = {
            k
            for k in fields
            if k not in ("kind", "turns") and getattr(self, k) != fields[k].get_default(call_default_factory=True)
        }
        if "places" in given or "hexes" in given:
            given = (given - {"places", "hexes"}) | {"where"}
        allowed = set(needs) | set(may)
        shown = ", ".join(k if k != "where" else "places or hexes" for k in (*needs, *may))
        extra = sorted(given - allowed)
        if extra:
            what = ", ".join(repr(k) if k != "where" else "'places'/'hexes'" for k in extra)
            raise ValueError(f"{what} does not apply to a {self.kind} effect (it takes: {shown})")
        missing = [k for k in needs if k not in given]
        if missing:
            what = ", ".join(repr(k) if k != "where" else "'places' or 'hexes'" for k in missing)
            raise ValueError(f"a {self.kind} effect needs {what} (it takes: {shown})")
        return self


class SpecialRule(Base, kw_only=True):
    rule: RuleRef
    title: str
    turns: list[int] = []
    summary: str
    effects: list[RuleEffect] = []
    """What the play engine does for this rule, effect by effect (:class:`RuleEffect`).  Empty: the engine applies
    nothing for it (a rule players read, or one the rules kit already plays from other fields)."""
    activates: Literal["unit", "group", "all"] | None = None
    """For a rule that holds units until released: what an enemy unit moving next to or attacking a held unit frees
    at once -- ``unit`` that unit, ``group`` every unit of its organisational group, ``all`` every held unit (None:
    contact frees nothing, or the rule holds no units)."""
    data_note: DataNote = None


class Scenario(Base):
    id: Id
    name: str
    rule: RuleRef | None = None
    first_turn: int = 1
    last_turn: int | None = None
    setup: dict[str, str] = {}
    """Unit id -> setup hex, overriding the units' own setup."""
    markers: dict[Id, Count] = {}
    """Marker id -> how many of its counters are on the map when the scenario starts."""
    features: "list[ScenarioFeature]" = []
    """Terrain features (a terrain id) the scenario puts in hexes, and whose they are."""
    summary: str | None = None
    data_note: DataNote = None


class ScenarioFeature(Base, kw_only=True):
    """Hexes that hold a feature in one scenario only (a side's fortifications)."""

    feature: Id
    """A terrain id (``fortification``)."""
    side: Id | None = None
    """The side the feature belongs to (None: no side)."""
    hexes: Annotated[list[str], Field(min_length=1)]
    rule: RuleRef | None = None


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


class Reading(Base):
    """One way to read the sentence a worked example comes from, where the sentence can be read more than one way
    (what a phrase such as "in hex 1919" is attached to): ``forge verify`` reports a disagreement as an error only
    when every reading disagrees with the rules."""

    reading: str
    """How the sentence is read on this reading, in our own words (the report quotes it)."""
    given: dict[str, Any] = {}
    """Inputs on this reading, added to the example's ``given`` (a key of both: this reading's value)."""
    states: dict[str, Any] = {}
    """What the book states on this reading, added to the example's ``states`` (a key of both: this reading's
    value)."""


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
    stated_elsewhere: dict[str, Annotated[int, Field(ge=1)]] = {}
    """Keys of ``states`` whose fact the book states a second time, independently (a chart, another rule, the
    sequence of play), each with the seed-text line of that other statement.  A value checked against the data
    compares two statements of the book only then; otherwise the data field was typed from the same sentence as
    the claim, and the check only shows that the two still agree (the reports count the two kinds apart)."""
    stated_otherwise: dict[str, Annotated[int, Field(ge=1)]] = {}
    """Keys of ``states`` whose fact the book states differently elsewhere, each with the seed-text line of that other
    statement, which the data follows: a value that then differs from the data is the book contradicting itself,
    reported as a warning (``example-contradiction``), not as an error of the rules."""
    follows: Id | None = None
    """The example this one continues, as the next step of one worked sequence (a worked turn): where the earlier
    steps put a unit (a move's or a retreat's ``to``, an advance) still holds here, unless a step in between
    moves it."""
    readings: list[Reading] = []
    """The ways the example's sentence can be read, when it can be read more than one way (two or more; `forge
    check` refuses one alone): each adds its own
    ``given`` and ``states`` to the example's (which hold what every reading shares).  A value that disagrees with
    the rules is an error only when it does on every reading; where one reading agrees, the others' disagreements
    are a warning that quotes the readings."""


# --------------------------------------------------------------------------------------------------------- rules kit
# The rules every hex-and-counter system shares, as data (``rules:`` in YAML).  A system is the engine's kit
# (forge/rules/kit/) plus these fields; no engine code asks which game it is.  Each section below is filled in by
# its own piece of the kit: keep a section's classes together, between its marker comments.

# ---- kit: movement and zones of control -------------------------------------------------------------------------


class MoveAllowance(Base):
    """A movement allowance: the movement points a class of units has in given states.  In games that count hexes
    rather than points every hex costs 1 and the allowance is the number of hexes."""

    mp: Amount | Literal["printed"] | None = None
    """Movement points; ``printed``: the counter's movement factor.  Omit when ``table`` gives it."""
    table: Id | None = None
    """A table (``tables``) to read the allowance from: row = the weather/ground state, column = mobility class."""
    multiply: str | None = None
    """Multiplier applied to the allowance (``1/2`` for halved)."""
    rounding: Literal["up", "down"] = "down"
    mobility: list[Id] = []
    """Mobility classes it applies to (empty: all)."""
    unit_types: list[UnitType] = []
    """Unit types it applies to (empty: all)."""
    side: Id | None = None
    when: list[Id] = []
    """States that must all hold (weather or ground ids, ``out-of-supply``, ``in-supply`` ...); empty: always."""
    hexes: Count | None = None
    """At most this many hexes a move may enter, whatever they cost (mud: one hex a phase).  Without ``mp`` or
    ``table`` every step that is not prohibited fits."""
    rule: RuleRef | None = None
    note: str | None = None


class MoveBonus(Base):
    """Movement points added in a movement mode (extended movement ...)."""

    mode: Id
    """The mode's id, named in example ``given.movement`` and in ``zoc.no_end_in_ezoc``."""
    add: MaybeFloat
    when: list[Id] = []
    """States that must all hold (``out-of-supply`` ...); the first matching bonus of a mode is used."""
    rule: RuleRef | None = None


class MoveLimit(Base):
    """At most ``max`` hexes of a terrain entered (or hexsides of it crossed) in one move."""

    terrain: Id
    max: Annotated[int, Field(ge=0)]
    mobility: list[Id] = []
    """Mobility classes it binds (empty: all)."""
    unit_types: list[UnitType] = []
    """Unit types it binds (empty: all)."""
    rule: RuleRef | None = None


class MoveCostChange(Base):
    """A terrain's movement cost in some states: ``add`` to it or ``set`` it."""

    terrain: Id
    when: Annotated[list[Id], Field(min_length=1)]
    """States that must all hold (``interdicted``, ``rain`` ...)."""
    add: float | None = None
    set: float | None = None
    mobility: list[Id] = []
    rule: RuleRef | None = None


class CrossingRoll(Base):
    """Hexsides whose crossing cost is rolled on a table (row = weather, column = the die)."""

    hexsides: Annotated[list[Id], Field(min_length=1)]
    """Hexside terrain ids rolled for."""
    table: Id
    die_modifier: dict[Id, int] = {}
    """Added to the roll for these hexside terrains (a major river +1)."""
    free_when: list[Id] = []
    """States in which crossing costs nothing (``frost``)."""
    free_at: list[Id] = []
    """Hex features: entering or leaving a hex with one of them crosses for free (town ...)."""
    optional_cost: float | None = None
    """An optional rule's fixed cost instead of the roll (state ``optional``)."""
    rule: RuleRef | None = None


class CrossingLimit(Base):
    """What crossing a hexside terrain allows: prohibited, an extra cost, and how many hexes the move may make
    in all (counting the hex entered across it)."""

    hexside: Id
    mobility: list[Id] = []
    unit_types: list[UnitType] = []
    prohibited: bool = False
    extra: float = 0
    max_hexes: int | None = None
    must_start_adjacent: bool = False
    rule: RuleRef | None = None


class FreeZone(Base):
    """Markers that make movement free around them (a KG's traffic bonus)."""

    markers: Annotated[list[Id], Field(min_length=1)]
    """The markers (``markers`` ids) that make the zone."""
    side: Id
    """The side whose movement is free there."""
    radius: Annotated[int, Field(ge=0)] = 1
    cost: float = 0
    not_when: list[Id] = []
    """States in which the zone gives nothing (``storm``)."""
    negated_by_ezoc: bool = False
    """An enemy ZOC in any hex of the zone cancels the whole zone."""
    rule: RuleRef | None = None


class MobileAssault(Base):
    """An attack made during movement for a movement-point cost."""

    cost: float
    """MPs on top of the target hex's terrain cost."""
    plus_terrain: bool = True
    ignore_zoc_exit: bool = False
    """Not applied by any engine rule yet: ``forge check`` refuses ``true`` (a mobile assault's cost has no
    zone-exit part to waive)."""
    road_rate: float | None = None
    """The rate a road into the target hex counts at (instead of its normal rate)."""
    rule: RuleRef | None = None


class MoveMode(Base):
    """A movement mode along a line of the map (rail, strategic road movement): only from hex to hex of ``path``,
    the whole move in the mode."""

    id: Id
    """The mode's name (``rail``), as examples and ``zoc.no_end_in_ezoc`` name it."""
    path: Id
    """The path terrain (``map.paths`` kind) the mode follows."""
    hexes: Count | None = None
    """Hexes a move may make along the line, each counting one whatever its terrain."""
    rate: float | None = None
    """Or: movement points each hex along the line costs, paid from the unit's allowance."""
    start_on_path: bool = True
    """The unit must start its move in a hex of the line."""
    phases: list[str] = []
    """The ``sequence`` phases (by name) in which the mode may be used (empty: every movement phase)."""
    not_when: list[Id] = []
    """States (weather) in which the mode cannot be used."""
    ignores: list[Id] = []
    """States (weather) whose effect on the allowance the mode ignores (mud does not slow a train)."""
    enemy_zoc: Literal["as-movement", "no-entry"] = "as-movement"
    """``no-entry``: a move in the mode may neither start in nor enter an enemy zone; ``as-movement``: zones act as
    on any move (``rules.zoc``)."""
    rule: RuleRef | None = None


class MovementRules(Base):
    """Movement points: allowances, terrain, hexside and road costs (rulebook words encoded as numbers).

    Terrain costs by mobility class are ``terrain.*.movement``: a hex's base terrain costs that much to enter, a
    hexside's terrain is added on top, and moving between consecutive hexes of a path (road, trail) costs the
    path's rate instead of both."""

    mobility: dict[Id, list[UnitType]] = {}
    """Mobility class -> the unit types in it; a type in no list belongs to ``default_mobility``."""
    default_mobility: Id | None = None
    """The class of unit types not listed (the game's first mobility class when omitted)."""
    allowances: list[MoveAllowance] = []
    """The first entry matching a unit and the states is its allowance: list the special cases first."""
    bonuses: list[MoveBonus] = []
    limits: list[MoveLimit] = []
    changes: list[MoveCostChange] = []
    cancels: dict[Id, list[Id]] = {}
    """A hexside feature that cancels the movement cost of others on the same hexside (bridge -> [river])."""
    crossing_rolls: list[CrossingRoll] = []
    crossings: list[CrossingLimit] = []
    free_zones: list[FreeZone] = []
    mobile_assault: MobileAssault | None = None
    enemy_hexes_prohibited: bool = True
    """A unit may never enter a hex holding an enemy unit."""
    disrupts: "list[MoveDisruption]" = []
    """Moves after which a unit becomes disrupted (a movement mode such as rail, or more than some hexes)."""
    off_map: "list[OffMapLink]" = []
    """Map-edge hexes where units may leave the map and come back at others (an off-map rail link)."""
    exit_mp: Count | None = None
    """Movement points a unit pays to move off the map edge where the rules let units leave it (None: the book
    names no cost)."""
    modes: list[MoveMode] = []
    """Movement modes along lines of the map (rail movement), played by :mod:`forge.rules.classic`."""
    rule: RuleRef | None = None


class Infiltration(Base):
    """What a step from one enemy-zone hex straight into another costs a mobility class (infiltration)."""

    mobility: list[Id] = []
    """Mobility classes it applies to (empty: all)."""
    cost: Literal["all"] | None = None
    """``all``: the step takes the unit's whole allowance, whatever the terrain."""
    fraction: str | None = None
    """Else: this share of the printed allowance (``1/2``), rounded by ``rounding``."""
    rounding: Literal["up", "down"] = "down"
    plus_terrain: bool = True
    """The entered hex's normal cost is paid on top of the share."""
    rule: RuleRef | None = None


class ZocRules(Base):
    """Zones of control: which hexes they cover, entering, leaving, locking, negation by friendly units."""

    own_hex: bool = False
    """The zone includes the unit's own hex (the adjacent hexes always)."""
    not_exerted_by: list[UnitType] = []
    """Unit types that exert no zone (support, HQ ...)."""
    blocked_by: list[Id] = []
    """Hexside terrain a zone does not extend across."""
    not_when: list[Id] = []
    """States in which no unit exerts a zone (``storm``)."""
    affects_movement: bool = True
    enter_cost: float = 0
    """Extra MPs to enter a hex in an enemy zone."""
    leave_cost: float = 0
    """Extra MPs to leave a hex in an enemy zone."""
    stop_on_enter: bool = False
    """A unit entering an enemy zone ends its move there."""
    locking: bool = False
    """No move directly from one enemy-zone hex to another."""
    negated_by_friendly: bool = False
    """A friendly unit in a hex cancels the enemy zone there (for movement)."""
    no_end_in_ezoc: list[Id] = []
    """Movement modes (``extended``) that may not end in an enemy zone."""
    infiltration: list[Infiltration] = []
    """The cost of a step from an enemy-zone hex into an adjacent one, by mobility class (first match wins); it
    replaces ``enter_cost``/``leave_cost`` and the terrain cost for that step."""
    rule: RuleRef | None = None


# ---- kit: stacking and limits -----------------------------------------------------------------------------------


class UnitSelector(Base):
    """Which units a stacking class (or exemption) covers: a unit matches when it is listed in ``units``, or when it
    has one of ``types`` (if given) and one of ``sizes`` (if given); ``side`` narrows either to one side."""

    units: list[Id] = []
    """Unit ids matched whatever their type."""
    types: list[UnitType] = []
    sizes: list[UnitSize] = []
    side: Id | None = None


class AloneDefense(UnitSelector, kw_only=True):
    """Units that defend with a fixed strength when no other unit shares their hex (``combat.alone_defense``)."""

    defense: Annotated[int, Field(ge=0)]
    rule: RuleRef | None = None


class MoveDisruption(UnitSelector):
    """A move that leaves the unit disrupted: one in a movement ``mode`` (``rail``), or one of more than
    ``over_hexes`` hexes.  With no ``units``, ``types`` or ``sizes`` it covers every unit (of ``side``)."""

    mode: Id | None = None
    over_hexes: Annotated[int, Field(ge=0)] | None = None
    phase: str | None = None
    """The phase it applies in, in words (None: any)."""
    rule: RuleRef | None = None


class OffMapLink(Base, kw_only=True):
    """Units of ``side`` moving in ``mode`` may leave the map at one of ``exits`` and come back at one of
    ``returns`` (also the other way round when ``both_ways``)."""

    mode: Id
    side: Id | None = None
    exits: Annotated[list[str], Field(min_length=1)]
    returns: Annotated[list[str], Field(min_length=1)]
    both_ways: bool = False
    rule: RuleRef | None = None


class StackClass(UnitSelector, kw_only=True):
    """A class of units for stacking (``combat``, ``support``, ``artillery``).  A unit belongs to the first class
    in the list it matches, else to :attr:`StackingRules.default_class`; several entries may share one id."""

    id: Id


class StackAllowance(Base):
    """One permitted make-up of a stack: at most ``max`` of each class (``total``: of all counted units together),
    and at least ``min``.  A class the allowance does not name may not be in the stack, unless only ``total`` is
    named."""

    max: Annotated[dict[Id, int], Field(min_length=1)]
    min: dict[Id, int] = {}


class StackLimit(Base, kw_only=True):
    """The stacking limit of one side (or both): a stack is legal when one of the allowances covers it."""

    side: Id | None = None
    """None: both sides."""
    measure: Literal["units", "steps"] = "units"
    """What is counted: units, or the steps they have left."""
    allow: Annotated[list[StackAllowance], Field(min_length=1)]
    rule: RuleRef | None = None


class StackingRules(Base):
    """How many units or steps may share a hex, by side and class."""

    unlimited: bool = False
    """The rules set no stacking limit (limits on attackers and defenders are combat rules)."""
    classes: list[StackClass] = []
    default_class: Id = "other"
    """The class of a unit that matches none of ``classes``."""
    exempt: list[UnitSelector] = []
    """Units with no stacking value (HQs, leaders, garrisons ...); markers never count."""
    exceptions: list[UnitSelector] = []
    """Units whose presence changes the limit in ways the rules give only in words: a stack holding one that
    breaks the limit is not called illegal."""
    limits: list[StackLimit] = []
    enemy_together: bool = False
    """Opposing units may share a hex."""
    when: str | None = None
    """When the limit is enforced, in words (end of movement, after retreats ...)."""
    rule: RuleRef | None = None

    @model_validator(mode="after")
    def _one_way(self) -> "StackingRules":
        if self.unlimited and self.limits:
            raise ValueError("'unlimited: true' and 'limits' exclude each other")
        return self


class Limit(Base):
    """A count the rules cap (or floor): markers per combat, attacks per turn, rebuilds per turn, units per base
    hex.  ``counts`` names what an example lists, so that the engine can check examples against the limit."""

    id: Id
    what: str
    """What is counted, in our words (the cards print it)."""
    per: Id
    """The scope: ``turn``, ``player-turn``, ``phase``, ``combat``, ``hex``, ``stack``, ``unit``, ``game`` ..."""
    max: Count | None = None
    min: int | None = None
    side: Id | None = None
    """The side the limit binds (None: each side alike)."""
    turns: list[int] = []
    """Turns on which the limit applies (empty: every turn)."""
    counts: list[Id] = []
    """Engine keys: the ``given`` keys of an example that this limit caps (``markers``, ``attack_support`` ...): a
    list is counted (its items filtered by ``side`` through the markers' and units' sides), a number taken as is."""
    exempt: list[Id] = []
    """Counter ids the limit does not bind at all (air support markers that bombard at any range)."""
    rule: RuleRef | None = None
    note: str | None = None


class LimitRules(Base):
    """Per-turn, per-combat and per-hex counts the rules fix (markers, attacks, rebuilds ...)."""

    counts: list[Limit] = []

    @field_validator("counts")
    @classmethod
    def _unique(cls, v: list[Limit]) -> list[Limit]:
        ids = [x.id for x in v]
        if dup := sorted({i for i in ids if ids.count(i) > 1}):
            raise ValueError(f"duplicate limit ids: {', '.join(dup)}")
        return v


class Permission(Base):
    """One statement of the rules that something may, or may not, be done under a condition ("no air missions in
    rain"; "in rain the German player may fly DAS").  No engine plays these: ``forge verify`` compares them, and two
    statements of opposite ``allowed`` about a shared action, side and condition that can hold together are the
    book contradicting itself (``rule-contradiction``), unless one is recorded as the other's exception."""

    id: Id
    actions: Annotated[list[Id], Field(min_length=1)]
    """What may or may not be done, as the game's own ids (``das``, ``ground-support``): a rule that forbids a whole
    class ("air missions") lists every action of it."""
    allowed: bool
    """``true``: the statement permits (or does) the actions; ``false``: it forbids them."""
    when: Condition | None = None
    """Under which facts the statement speaks (the vocabulary of conditions; None: always)."""
    side: Id | None = None
    """The side whose units the statement is about (None: both)."""
    exception_to: list[Id] = []
    """Ids of statements of the opposite ``allowed`` that the book makes this one an exception to (its text says
    so): such a pair is no contradiction."""
    rule: RuleRef | None = None
    source_line: Annotated[int, Field(ge=1)] | None = None
    """The seed-text line of the statement."""
    summary: str | None = None
    """What the statement says, in our words (the report quotes it)."""


# ---- kit: supply, retreat and advance, victory ------------------------------------------------------------------


Blocking = Literal["always", "unless-friendly", "never"]
"""Whether something stops a supply line or a retreat: ``always``, ``unless-friendly`` (a friendly unit in the
hex lets it through), ``never``."""


class SupplyEdge(Base):
    """Map-edge hexes that are a side's supply sources (or its reinforcements' entry hexes): every hex on the
    named ``edges``, or, without ``edges``, the straight run from ``first`` to ``last``.  ``first`` and ``last``
    are the bounds the book gives."""

    side: Id
    first: str
    last: str
    edges: list[Literal["north", "south", "east", "west"]] = []
    role: Literal["source", "entry"] = "source"
    rule: RuleRef | None = None


class PetrolRule(Base):
    """Units of some types beyond a distance from a source roll on a table or go out of supply."""

    beyond: int
    """Hexes from a supply source past which a unit must roll."""
    table: Id
    unit_types: list[UnitType]
    """Types that must roll (others are exempt)."""
    rule: RuleRef | None = None


class SupplyRules(Base):
    """Supply tracing: sources, range, what blocks a line (``forge.rules.kit.supply``)."""

    trace: Count | None = None
    """Longest supply line in hexes (None: any length)."""
    trace_by_side: dict[str, Count] = {}
    """A side's own longest line, where it differs from ``trace``."""
    overland: Count | None = None
    """Longest off-road part of a line (the road part is then unlimited)."""
    overland_to_hq: Count | None = None
    """Longest off-road part of a line traced to a headquarters."""
    command_range: Count | None = None
    """Longest line from a unit to a headquarters for command (attacks needing command)."""
    enemy_units: Blocking | None = None
    """Whether enemy-held hexes stop a line (None: the book does not say; the kit will not trace)."""
    enemy_zoc: Blocking | None = None
    enemy_sources: Blocking | None = None
    blocking_terrain: list[Id] = []
    """Terrain, features or hexside features a line may not enter or cross."""
    edges: list[SupplyEdge] = []
    sources_per_side: tuple[int, int] | None = None
    """Fewest and most supply sources each side places (a scenario's legality)."""
    petrol: PetrolRule | None = None
    rule: RuleRef | None = None
    # -- engine variants (forge.rules.engine plays Hell's Gate and its variants from the data) --------------
    unsupplied_eliminated_at_end: bool = False
    """At the end of the game each side, the first side first, loses every unit that cannot trace supply (Hell's
    Gate 12.0)."""


class RetreatLimit(Base):
    """A special rule that narrows where units may retreat on some turns."""

    turns: list[int] = []
    """Turns it applies (empty: every turn)."""
    side: Id | None = None
    """The retreating side it applies to (None: both)."""
    during: Id | None = None
    """Only in this side's player turn (None: any)."""
    only_into: list[Literal["own-source", "friendly-occupied"]] = []
    """A retreat may end only in hexes of one of these kinds."""
    not_hit: bool = False
    """Not into a hex that suffered a hit earlier in the same phase."""
    rule: RuleRef | None = None


class TerrainRetreat(Base):
    """Retreat results a defender in some terrain may ignore, and those it must still obey."""

    terrain: list[Id]
    may_ignore: list[str] = []
    """Result codes (``combat.results``) the defender may ignore there."""
    must: list[str] = []
    """Retreat results it must still carry out there."""
    rule: RuleRef | None = None


class RetreatRules(Base):
    """Retreat and advance after combat: lengths, preferences, what stops them (``forge.rules.kit.retreat``)."""

    hexes: Count | None = None
    """Length of a retreat in hexes."""
    extra_if_overstacked: list[int] = []
    """Further hexes an overstacked retreating unit may go."""
    rally_stop_after: int | None = None
    """A rally point can stop a retreat after this many hexes."""
    enemy_units: Blocking | None = None
    """Whether enemy-held hexes stop a retreat (None: the book does not say; the kit will not compute one)."""
    enemy_zoc: Blocking | None = None
    prefer_outside_enemy_zoc: bool = False
    """Only when no hex outside an enemy zone is open may units retreat into one (friendly-held)."""
    enemy_sources: Blocking | None = None
    from_own_source: Literal["any", "own-source"] = "any"
    """``own-source``: units on a friendly supply source may retreat only into another one."""
    voluntary: bool | None = None
    """Whether the defender may choose to retreat instead of losing a step."""
    allowed_if: Literal["strength-at-least-losses"] | None = None
    """When the defender may retreat at all (None: whenever the result allows it); ``strength-at-least-losses``:
    only when the combat strength of the defending units in the hex is at least the losses."""
    loss_reduction_max: int | None = None
    """A retreat cuts the defender's losses by up to this much."""
    limits: list[RetreatLimit] = []
    in_terrain: list[TerrainRetreat] = []
    """Results a defender in some terrain may ignore, or must still retreat on."""
    advance: dict[str, int] = {}
    """Advance after combat: hexes by unit class (``mechanized``, ``cavalry``, ``non-mechanized`` ..., ``all``)."""
    advance_into: Literal["vacated-hex"] | None = None
    """``vacated-hex``: the victors may advance only into the defended hex the defenders left."""
    advance_after: Literal["defender-retreat"] | None = None
    """``defender-retreat``: attackers may advance only after a result that retreats the defender."""
    rule: RuleRef | None = None


VpPer = Literal[
    "hex", "enemy-step", "enemy-cs", "enemy-source", "enemy-reduced", "unit-exited", "unit-steps", "event"
]


class VictoryLevel(Base):
    """One level of victory: the score range (inclusive) a side's total must fall in, or a condition in words."""

    id: Id
    side: Id | None = None
    """The side it favours (None: a draw)."""
    min: int | None = None
    max: int | None = None
    condition: str | None = None
    """A condition the engine does not score (words)."""
    rule: RuleRef | None = None


# ---- kit: unit steps --------------------------------------------------------------------------------------------


class StepCount(UnitSelector, kw_only=True):
    """Units (by side, type, size) that may start with more steps than :attr:`StepRules.max`: one of ``counts``."""

    id: Id
    counts: Annotated[list[int], Field(min_length=1)]
    """The larger step counts such a unit may start with (``[4, 6, 8]``)."""
    only: bool = False
    """True: such a unit has one of ``counts``; False: it may also have up to :attr:`StepRules.max` steps."""
    rule: RuleRef | None = None


class StepRules(Base):
    """How many steps a unit may start with: at most ``max``, unless an entry of ``more`` covers it (first match
    wins).  The engine checks every unit whose step count the data knows against it."""

    max: Annotated[int, Field(ge=1)] | None = None
    """Most steps a unit no entry of ``more`` covers may have (None: no limit)."""
    more: list[StepCount] = []
    rule: RuleRef | None = None


# ---- kit: phases, replacements, control and holding places ------------------------------------------------------


class PhaseRule(Base):
    """What a phase of ``sequence`` (by name) allows: only some units move in it, or it is played on some turns."""

    phase: str
    """The ``sequence`` phase's ``name``."""
    mobility: list[Id] = []
    """Only units of these mobility classes move (or attack) in the phase (empty: all)."""
    unit_types: list[UnitType] = []
    """Only units of these types act in the phase (empty: all)."""
    modes: list[Id] = []
    """Only these ways of moving in the phase: ``rules.movement.modes`` ids, and ``ordinary`` for an ordinary move
    (empty: any; a rail phase lists ``[rail]``)."""
    turns: list[int] = []
    """The turns on which the phase is played (empty: every turn)."""
    rule: RuleRef | None = None


class ReplacementRules(Base):
    """Replacement points (``turns.turns[].replacements``, per side and turn) spent in the side's
    ``reinforcement`` phase: on steps of reduced units, or on eliminated units put back on the map."""

    step_cost: Annotated[int, Field(ge=1)] = 1
    """Points one step costs."""
    restore: bool = True
    """A reduced unit on the map may get a step back."""
    rebuild: bool = True
    """An eliminated unit may come back, with ``returns_with`` steps."""
    returns_with: Literal["one", "full"] = "one"
    """A unit that comes back has one step (its weakest face) or all of them (paying for each)."""
    place: list[Id] = []
    """Terrain or features (``city``) of the hexes where a returning unit may be placed."""
    place_at_entry: bool = False
    """Or at the side's entry hexes (``rules.supply.edges`` with ``role: entry``)."""
    controlled: bool = True
    """A placing hex must be controlled by the side (``rules.play.control``)."""
    communication: bool = True
    """A placing hex, and a unit getting a step back, must trace a line to a friendly source (``rules.supply``)."""
    not_in_enemy_zoc: bool = True
    """A placing hex may not be in an enemy zone."""
    carry_over: bool = False
    """Unused points are kept for the next turn (False: they are lost at the end of the phase)."""
    rule: RuleRef | None = None


class ControlRules(Base):
    """Places that change hands: each is controlled by the last side to enter it."""

    places: list[Id] = []
    """Terrain or features (``city``) whose hexes change hands."""
    hexes: list[str] = []
    """And these hexes."""
    initial: dict[Id, list[str]] = {}
    """Side -> the hexes it controls when play begins (a tracked hex not listed is nobody's)."""
    rule: RuleRef | None = None


class HoldWins(Base):
    """A side that controls all of ``hexes`` wins: at the end of the game, or at the end of any turn (sudden
    death)."""

    hexes: Annotated[list[str], Field(min_length=1)]
    side: Id | None = None
    """The side that wins by holding them (None: whichever side does)."""
    at: Literal["end", "turn-end"] = "end"
    rule: RuleRef | None = None


class PlayRules(Base):
    """What the play engine for odds-CRT games (:mod:`forge.rules.classic`) needs beyond the other sections."""

    phases: list[PhaseRule] = []
    replacements: ReplacementRules | None = None
    control: ControlRules | None = None
    hold: list[HoldWins] = []
    score: str = "difference"
    """What ``victory.levels`` are matched against: ``difference`` (the first side's VP less the second's) or a
    side id (that side's VP)."""
    rule: RuleRef | None = None


# ---- kit: the section ---------------------------------------------------------------------------------------------


class Rules(Base):
    """The rules kit's data: every section optional; a section a game leaves out is not checked."""

    movement: MovementRules | None = None
    zoc: ZocRules | None = None
    stacking: StackingRules | None = None
    limits: LimitRules | None = None
    permissions: list[Permission] = []
    """Statements that something may or may not be done under a condition (read by ``forge verify`` only)."""
    supply: SupplyRules | None = None
    retreat: RetreatRules | None = None
    steps: StepRules | None = None
    play: PlayRules | None = None


class Game(Base, kw_only=True):
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
    rules: Annotated[Rules, BeforeValidator(lambda v: {} if v is None else v)] = msgspec.field(default_factory=Rules)
    """The rules kit's data (movement, zones of control, stacking, limits, supply, retreat)."""
    examples: list[Example] = []

    def _finish(self) -> None:
        # Units read their steps in this game's notation; a step that does not fit it is refused, located, by
        # forge check (check_units), so that nothing is raised here.
        for u in self.units:
            u.__dict__["_form"] = self.game.strength_format.value

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
