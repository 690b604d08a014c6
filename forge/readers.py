"""Who reads each field of the game model: nothing in the format is inert (issue 21, "nothing inert").

:data:`READERS` maps every field path of :class:`forge.model.Game` (``units[].setup_zone``,
``map.setup_zones[].per_hex``: ``[]`` stands for any item of a list or any value of a mapping) to the modules that
read it, by what they do with it:

* ``printed`` -- a renderer or an exporter puts it on a component (``render.*``, ``vassal``, ``builder`` ...);
* ``applied`` -- the play engine or the rules kit acts on it (``rules.*``, ``commands.play``);
* ``checked`` -- ``forge check`` or ``forge verify`` compares something with it (``check``, ``verifier.*``, ...);
* ``refused`` -- nothing reads it, so ``forge check`` refuses it when it is set (``check_inert``);
* ``documentation-only`` -- it is there for people, with the reason (``game.source``, a hex's ``note``).

An entry is written ``"printed: render.cards, vassal; checked: verifier.ex_units"`` (module names below
``forge``).  tests/test_readers.py walks the model (:func:`field_paths`, over :func:`fields_of`, the one place that
knows how a model class lists its fields) and asserts that every field has an entry, that every entry is a field,
and that every module named really reads the field (an attribute of that name, a string subscript or a
``getattr``).  A field added to the model therefore needs its reader here -- or a refusal in ``forge check``.

Imported by the tests and by tooling, never at start-up (forge check does not need it).
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DOCUMENTATION",
    "READERS",
    "ROLES",
    "Readers",
    "field_paths",
    "fields_of",
    "is_model",
    "nested_models",
    "parse",
    "role_of",
]

ROLES = ("printed", "applied", "checked", "refused")
"""What a reader module does with a field (see the module docstring)."""
DOCUMENTATION = "documentation-only"
"""A field kept for people: its entry is ``"documentation-only: <why>"``."""


def is_model(tp: Any) -> bool:
    """Is ``tp`` a model class (a pydantic model or a msgspec Struct)?"""
    if not isinstance(tp, type):
        return False
    return any(
        c.__module__.split(".")[0] in ("pydantic", "msgspec") and c.__name__ in ("BaseModel", "Struct")
        for c in tp.__mro__[1:]
    )


def fields_of(cls: type) -> dict[str, Any]:
    """A model class's fields and their annotations, whichever model library made it: the one adaptor."""
    pydantic_fields = getattr(cls, "model_fields", None)
    if isinstance(pydantic_fields, dict):
        # The annotations resolved here, not pydantic's: a field whose class is defined further down the module
        # stays a ForwardRef in ``model_fields`` until pydantic first validates with it, so the walk would depend on
        # what ran before it.
        hints = typing.get_type_hints(cls, include_extras=True)
        return {name: hints.get(name, f.annotation) for name, f in pydantic_fields.items()}
    import msgspec

    return {f.name: f.type for f in msgspec.structs.fields(cls)}


def nested_models(annotation: Any) -> list[type]:
    """The model classes an annotation holds (through ``list``, ``dict``, unions, ``Annotated``), in order."""
    out: list[type] = []

    def visit(tp: Any) -> None:
        if is_model(tp):
            if tp not in out:
                out.append(tp)
            return
        alias = getattr(typing, "TypeAliasType", None)  # Python 3.12's `type X = ...`
        if alias is not None and isinstance(tp, alias):
            visit(tp.__value__)
            return
        for arg in typing.get_args(tp):
            visit(arg)

    visit(annotation)
    return out


def _container(annotation: Any) -> bool:
    """Does the annotation hold its models in a list or a mapping (so that their paths take ``[]``)?"""

    def visit(tp: Any) -> bool:
        origin = typing.get_origin(tp)
        if origin in (list, dict, tuple, set, frozenset):
            return True
        return any(visit(a) for a in typing.get_args(tp))

    return visit(annotation)


def field_paths(root: type | None = None) -> dict[str, tuple[type, str]]:
    """Every field path below ``root`` (the game) -> (the class that declares the field, the field's name).

    A model class met again below itself (a condition inside a condition) is not walked twice; ``Unknown`` (a value
    the book does not give, with its reason) is one entry, ``unknown``, wherever it may stand."""
    if root is None:
        from . import model

        root = model.Game
    out: dict[str, tuple[type, str]] = {}

    def walk(cls: type, prefix: str, above: tuple[type, ...]) -> None:
        for name, ann in fields_of(cls).items():
            path = f"{prefix}.{name}" if prefix else name
            out[path] = (cls, name)
            inner = "[]" if _container(ann) else ""
            for sub in nested_models(ann):
                if sub.__name__ == "Unknown":
                    out.setdefault("unknown", (sub, "unknown"))
                elif sub not in above:
                    walk(sub, path + inner, (*above, sub))

    walk(root, "", (root,))
    return out


@dataclass(frozen=True)
class Readers:
    """One entry of :data:`READERS`, read: the modules (below ``forge``) by role, or the reason it is kept."""

    printed: tuple[str, ...] = ()
    applied: tuple[str, ...] = ()
    checked: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    documentation: str | None = None

    def modules(self) -> list[tuple[str, str]]:
        """(role, module) of every reader."""
        return [(role, mod) for role in ROLES for mod in getattr(self, role)]


def parse(entry: str) -> Readers:
    """An entry as written: ``"printed: a, b; checked: c"`` or ``"documentation-only: why"``.

    >>> parse("printed: render.cards, vassal; checked: check").printed
    ('render.cards', 'vassal')
    >>> parse("documentation-only: a remark for the designer").documentation
    'a remark for the designer'
    """
    head, _, rest = entry.partition(":")
    if head.strip() == DOCUMENTATION:
        if not rest.strip():
            raise ValueError(f"{entry!r}: a documentation-only field says why")
        return Readers(documentation=rest.strip())
    roles: dict[str, tuple[str, ...]] = {}
    for part in entry.split(";"):
        role, sep, mods = part.partition(":")
        role = role.strip()
        if not sep or role not in ROLES or role in roles:
            raise ValueError(f"{entry!r}: expected 'role: module, ...' parts, roles among {', '.join(ROLES)}")
        roles[role] = tuple(x.strip() for x in mods.split(",") if x.strip())
        if not roles[role]:
            raise ValueError(f"{entry!r}: no module for {role}")
    return Readers(
        printed=roles.get("printed", ()),
        applied=roles.get("applied", ()),
        checked=roles.get("checked", ()),
        refused=roles.get("refused", ()),
    )


def role_of(module: str) -> str | None:
    """The role a module's reads count as (``render.map.panels`` -> ``printed``); None for a shared helper
    (``turnlength``, ``hexgrid``, ``cli`` ...), whose reads count as the role its entry gives."""
    top = module.split(".")[0]
    if top in ("render", "vassal", "builder", "estimate", "templates", "impose", "layout", "canvas", "tiling"):
        return "printed"
    if top in ("rules", "commands"):
        return "applied"
    if top in ("check", "verifier", "claim_keys", "conditions"):
        return "checked"
    return None


READERS: dict[str, str] = {
    "format": "documentation-only: the format's version; the loader accepts only 1, so no later stage needs to read it",
    "game": (
        "printed: builder, cli, render.cards.chrome, render.cards.flowables, render.cards.pages, render.cards.sized, "
        "render.cards.styles, render.cards.terrain, render.counters, render.handout, render.map.base, "
        "render.map.pages, render.map.panels, render.map.sheet, render.map.tiles, render.style, turnlength, vassal; "
        "applied: commands.play, rules.board, rules.classic, rules.effects, rules.engine, rules.kit.movement, "
        "rules.kit.supply; checked: check, claim_keys, conditions, verifier, verifier.core, verifier.crosscheck, "
        "verifier.ex_claims, verifier.ex_limits, verifier.ex_movement, verifier.ex_phases, verifier.ex_rules, "
        "verifier.ex_zoc_groups, verifier.notes, verifier.provenance, verifier.readback"
    ),
    "game.id": "printed: builder, cli, vassal; checked: verifier, verifier.notes",
    "game.title": (
        "printed: cli, render.cards.chrome, render.cards.combat, render.cards.pages, render.cards.sized, "
        "render.cards.terrain, render.cards.turns, render.counters, render.handout, render.map.pages, "
        "render.map.panels, render.map.sheet, render.map.tiles, vassal; applied: commands.play; checked: "
        "verifier.ex_claims, verifier.notes"
    ),
    "game.subtitle": "printed: cli, render.map.panels",
    "game.edition": "printed: cli",
    "game.designer": "printed: render.map.panels",
    "game.publisher": "printed: render.map.panels",
    "game.year": "refused: check",
    "game.source": "documentation-only: which rulebook (seed file) the data was typed from, for the data's readers",
    "game.scale": "printed: render.map.panels, turnlength; checked: verifier.ex_claims, verifier.provenance",
    "game.scale.km_per_hex": "printed: render.map.panels; checked: verifier.ex_claims",
    "unknown": "printed: render.cards.combat; checked: verifier.tables",
    "game.scale.days_per_turn": "printed: render.map.panels, turnlength; checked: verifier.ex_claims",
    "game.scale.source_line": "checked: verifier.provenance",
    "game.sides": (
        "printed: cli, render.cards.styles, render.counters, render.handout, render.map.base, render.map.panels, "
        "render.style, vassal; applied: commands.play, rules.board, rules.classic, rules.effects, rules.engine, "
        "rules.kit.movement, rules.kit.supply; checked: check, claim_keys, conditions, verifier.core, "
        "verifier.crosscheck, verifier.ex_phases, verifier.ex_rules, verifier.ex_zoc_groups"
    ),
    "game.sides[].id": (
        "printed: cli, render.cards.combat, render.cards.limits, render.cards.styles, render.cards.turns, "
        "render.counters, render.handout, render.map.base, render.map.panels, render.style; applied: commands.play, "
        "rules.board, rules.classic, rules.effects, rules.engine, rules.kit.movement, rules.kit.supply; checked: "
        "check, claim_keys, conditions, verifier.core, verifier.crosscheck, verifier.ex_phases, verifier.ex_rules, "
        "verifier.ex_zoc_groups, verifier.notes"
    ),
    "game.sides[].name": (
        "printed: cli, render.cards.combat, render.cards.limits, render.cards.styles, render.cards.terrain, "
        "render.cards.turns, render.counters, render.handout, render.map.grid, render.map.panels, vassal; applied: "
        "rules.board; checked: verifier.crosscheck, verifier.ex_phases, verifier.ex_rules, verifier.notes"
    ),
    "game.sides[].colour": "printed: render.counters, render.map.grid, render.map.panels, render.style",
    "game.sides[].text_colour": "printed: render.counters, render.map.grid, render.map.panels",
    "game.sides[].groups": (
        "printed: render.counters, render.map.panels, render.style; checked: check, verifier.ex_zoc_groups"
    ),
    "game.first_side": "applied: rules.board, rules.classic; checked: check",
    "game.strength_format": "printed: render.handout; checked: check, verifier.ex_limits",
    "game.mobility_classes": (
        "printed: render.cards.terrain, render.map.panels; applied: rules.kit.movement; checked: check, conditions, "
        "verifier.ex_movement, verifier.ex_zoc_groups, verifier.readback"
    ),
    "game.dice": "printed: vassal",
    "game.notes": (
        "documentation-only: the game's introduction for the data's readers; no component prints it "
        "(forge.glyphs.NOT_PRINTED)"
    ),
    "map": (
        "printed: cli, estimate, render.cards.combat, render.cards.terrain, render.handout, render.map.base, "
        "render.map.grid, render.map.panels, render.map.sheet, vassal; applied: rules.board, rules.classic, "
        "rules.effects, rules.engine, rules.kit.movement, rules.kit.setup, rules.kit.supply, rules.kit.victory; "
        "checked: check, verifier.core, verifier.crosscheck, verifier.ex_claims, verifier.ex_limits, verifier.ex_map, "
        "verifier.ex_move_rules, verifier.ex_movement, verifier.ex_rules, verifier.locate, verifier.sites"
    ),
    "map.grid": (
        "printed: cli, estimate, render.handout, render.map.base, render.map.grid, render.map.panels, vassal; "
        "applied: rules.board, rules.classic, rules.effects, rules.kit.movement, rules.kit.setup, "
        "rules.kit.supply; checked: check, verifier.core, verifier.crosscheck, verifier.ex_claims, "
        "verifier.ex_movement"
    ),
    "map.grid.kind": "checked: cli, verifier.crosscheck",
    "map.grid.orientation": "printed: vassal; applied: model, hexgrid",
    "map.grid.parity": "printed: vassal; applied: model, hexgrid",
    "map.grid.columns": "printed: cli, estimate; checked: check, verifier.ex_claims",
    "map.grid.rows": "printed: cli, estimate; checked: check, verifier.ex_claims",
    "map.grid.labels": "checked: cli",
    "map.grid.first_column": "printed: vassal; applied: model, hexgrid",
    "map.grid.first_row": "printed: vassal; applied: model, hexgrid",
    "map.grid.rows_up": "printed: vassal; applied: model, hexgrid; checked: check",
    "map.sheet": "printed: estimate, render.map.panels, render.map.sheet; checked: check, verifier.ex_limits",
    "map.hex_size": "printed: estimate, render.map.grid, render.map.panels, render.map.sheet, vassal; checked: check",
    "map.status": (
        "printed: cli, render.map.panels, render.map.sheet; checked: verifier.core, verifier.ex_claims, "
        "verifier.ex_move_rules"
    ),
    "map.note": "printed: render.map.panels",
    "map.data_note": "checked: verifier.notes",
    "map.default_terrain": (
        "printed: render.map.base, render.map.grid; applied: rules.board, rules.classic, rules.kit.movement, "
        "rules.kit.victory; checked: check, verifier.core, verifier.ex_movement, verifier.sites"
    ),
    "map.hexes": (
        "printed: cli, estimate, render.map.base; applied: rules.board, rules.classic, rules.effects, "
        "rules.engine, rules.kit.movement, rules.kit.setup, rules.kit.supply, rules.kit.victory; checked: "
        "check, verifier.core, verifier.crosscheck, verifier.ex_map, verifier.ex_movement, verifier.ex_rules, "
        "verifier.locate, verifier.sites"
    ),
    "map.hexes[].terrain": (
        "printed: render.map.base; applied: rules.board, rules.classic, rules.kit.movement, "
        "rules.kit.victory; checked: check, verifier.core, verifier.sites"
    ),
    "map.hexes[].features": (
        "printed: render.map.grid, render.map.tiles; applied: rules.board, rules.classic, rules.kit.movement, "
        "rules.kit.victory; checked: check, verifier.core, verifier.sites"
    ),
    "map.hexes[].name": (
        "printed: render.map.grid, render.map.tiles; applied: rules.board, rules.effects, rules.kit.setup; "
        "checked: check, verifier.crosscheck, verifier.locate, verifier.notes"
    ),
    "map.hexes[].vp": "printed: render.map.base, render.map.grid, render.map.tiles; applied: rules.kit.victory",
    "map.hexes[].supply": (
        "printed: cli, render.map.base, render.map.grid, render.map.tiles; applied: rules.board, "
        "rules.engine, rules.kit.supply; checked: check, verifier.ex_movement"
    ),
    "map.hexes[].setup": "printed: render.map.base, render.map.grid, render.map.tiles",
    "map.hexes[].reconstructed": "printed: render.map.base, render.map.grid",
    "map.hexes[].note": (
        "documentation-only: a remark on the hex for the data's readers; no component prints it "
        "(forge.glyphs.NOT_PRINTED)"
    ),
    "map.hexsides": (
        "printed: cli, estimate, render.cards.terrain, render.map.grid; applied: rules.board, rules.kit.movement; "
        "checked: check, verifier.core"
    ),
    "map.hexsides[].between": (
        "printed: render.cards.terrain, render.map.grid; applied: rules.board, rules.kit.movement; checked: check, "
        "verifier.core"
    ),
    "map.hexsides[].features": (
        "printed: render.map.grid; applied: rules.board, rules.kit.movement; checked: check, verifier.core"
    ),
    "map.hexsides[].name": (
        "printed: render.cards.combat, render.cards.limits, render.cards.styles, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "map.hexsides[].reconstructed": "refused: check",
    "map.hexsides[].note": (
        "documentation-only: a remark on the hexside for the data's readers; no component prints it "
        "(forge.glyphs.NOT_PRINTED)"
    ),
    "map.paths": "printed: cli, estimate, render.map.grid; applied: rules.kit.movement; checked: check",
    "map.paths[].kind": "printed: render.map.grid; applied: rules.kit.movement; checked: check",
    "map.paths[].hexes": "printed: estimate, render.map.grid; applied: rules.kit.movement; checked: check",
    "map.paths[].name": "checked: verifier.notes",
    "map.paths[].reconstructed": "refused: check",
    "map.places": "applied: rules.effects, rules.kit.setup; checked: check, verifier.crosscheck, verifier.locate",
    "map.setup_zones": (
        "printed: cli, render.handout, render.map.base, render.map.grid, render.map.panels, vassal; applied: "
        "rules.engine, rules.kit.setup; checked: check"
    ),
    "map.setup_zones[].name": "printed: render.map.grid; checked: verifier.notes",
    "map.setup_zones[].side": "printed: render.map.grid; checked: check",
    "map.setup_zones[].symbol": "printed: render.handout, render.map.grid, vassal",
    "map.setup_zones[].hexes": "applied: rules.kit.setup; checked: check",
    "map.setup_zones[].within": "applied: rules.kit.setup; checked: check",
    "map.setup_zones[].within[].distance": "applied: rules.kit.setup",
    "map.setup_zones[].within[].of": "applied: rules.kit.setup; checked: check",
    "map.setup_zones[].edges": "applied: rules.kit.setup",
    "map.setup_zones[].depth": "applied: rules.kit.setup",
    "map.setup_zones[].per_hex": "printed: render.handout, render.map.panels; applied: rules.kit.setup",
    "map.setup_zones[].units": "checked: check",
    "map.setup_zones[].units.units": "printed: render.cards.limits; applied: rules.kit.stacking",
    "map.setup_zones[].units.types": "printed: render.cards.limits; applied: rules.kit.stacking",
    "map.setup_zones[].units.sizes": "printed: render.cards.limits",
    "map.setup_zones[].units.side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.kit.stacking"
    ),
    "map.setup_zones[].rule": "printed: render.handout, render.map.panels; checked: verifier.notes",
    "map.setup_zones[].data_note": "checked: verifier.notes",
    "terrain": (
        "printed: estimate, render.cards.combat, render.cards.terrain, render.map.base, render.map.grid, "
        "render.map.panels, render.style; applied: rules.classic, rules.engine, rules.kit.movement; checked: check, "
        "claim_keys, conditions, verifier.core, verifier.crosscheck, verifier.ex_combat, verifier.ex_movement, "
        "verifier.ex_scenario, verifier.ex_zoc_groups, verifier.locate, verifier.provenance, verifier.readback"
    ),
    "terrain[].name": (
        "printed: render.cards.combat, render.cards.limits, render.cards.styles, render.cards.terrain, "
        "render.cards.turns, render.map.grid, render.map.panels; checked: conditions, verifier.core, "
        "verifier.crosscheck, verifier.notes, verifier.readback"
    ),
    "terrain[].kind": (
        "printed: render.cards.combat, render.cards.flowables, render.cards.terrain, render.map.grid, "
        "render.map.panels, render.style; applied: rules.classic, rules.engine; checked: check, conditions, "
        "verifier.crosscheck, verifier.ex_movement"
    ),
    "terrain[].colour": "printed: render.cards.terrain, render.map.grid, render.style",
    "terrain[].pattern": "printed: render.cards.flowables, render.cards.terrain, render.map.grid, render.style",
    "terrain[].symbol": "printed: render.map.grid",
    "terrain[].movement": (
        "printed: render.cards.terrain, render.map.panels; applied: rules.classic, rules.kit.movement; checked: check, "
        "verifier.readback"
    ),
    "terrain[].movement_note": "printed: render.cards.terrain, render.map.panels; checked: verifier.crosscheck",
    "terrain[].combat": (
        "printed: render.cards.combat, render.cards.sized, render.cards.terrain, render.map.panels; applied: "
        "rules.classic, rules.combat, rules.engine; checked: check, verifier.crosscheck, verifier.ex_combat, "
        "verifier.readback"
    ),
    "terrain[].combat.text": (
        "printed: render.cards.flow, render.cards.limits, render.cards.terrain, render.cards.turns, render.map.panels, "
        "render.style; applied: rules.classic; checked: verifier.crosscheck, verifier.ex_combat"
    ),
    "terrain[].combat.shift": (
        "printed: render.style; applied: rules.classic, rules.combat, rules.engine; checked: "
        "verifier.crosscheck, verifier.ex_combat, verifier.readback"
    ),
    "terrain[].combat.shift_when": "printed: render.style; applied: rules.classic; checked: verifier.crosscheck",
    "terrain[].combat.defense_multiplier": (
        "printed: render.style; applied: rules.classic, rules.combat; checked: verifier.crosscheck, verifier.ex_combat"
    ),
    "terrain[].combat.defense_bonus": (
        "printed: render.style; applied: rules.classic; checked: verifier.crosscheck, verifier.ex_combat"
    ),
    "terrain[].combat.crt_row": "printed: render.style; applied: rules.classic",
    "terrain[].combat.no_concentric": "printed: render.style",
    "terrain[].combat.ignore_retreat": "printed: render.style; applied: rules.classic",
    "terrain[].combat.by_side": "printed: render.style; applied: rules.classic; checked: check, verifier.crosscheck",
    "terrain[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns, render.map.panels; checked: verifier.notes"
    ),
    "terrain[].data_note": "checked: verifier.notes",
    "terrain[].source_line": "checked: verifier.provenance",
    "units": (
        "printed: cli, estimate, render.cards.limits, render.counters, render.handout, render.style, vassal; applied: "
        "rules.board, rules.classic, rules.effects, rules.engine, rules.engines, rules.kit.limits, rules.kit.setup; "
        "checked: check, claim_keys, verifier.core, verifier.crosscheck, verifier.ex_limits, verifier.ex_rules, "
        "verifier.ex_units, verifier.locate, verifier.provenance, verifier.readback"
    ),
    "units[].id": (
        "printed: render.cards.combat, render.cards.limits, render.cards.styles, render.cards.turns, render.counters, "
        "render.map.panels, vassal; applied: rules.board, rules.classic, rules.effects, rules.engine, rules.engines, "
        "rules.kit.limits, rules.kit.setup, rules.kit.stacking, rules.state; checked: check, claim_keys, "
        "verifier.core, verifier.crosscheck, verifier.ex_limits, verifier.ex_rules, verifier.locate, verifier.notes, "
        "verifier.provenance"
    ),
    "units[].side": (
        "printed: cli, render.counters, render.handout, render.images, render.map.panels, render.style; "
        "applied: rules.board, rules.classic, rules.kit.limits, rules.kit.movement, rules.kit.stacking; "
        "checked: check, verifier.ex_combat, verifier.ex_move_rules, verifier.ex_results, verifier.ex_rules"
    ),
    "units[].name": (
        "printed: render.cards.combat, render.cards.limits, render.cards.styles, render.cards.terrain, "
        "render.cards.turns, render.handout, render.map.panels, vassal; applied: rules.combat; checked: "
        "verifier.crosscheck, verifier.locate, verifier.notes"
    ),
    "units[].label": (
        "printed: render.cards.limits, render.cards.terrain, render.cards.turns, render.counters, render.handout, "
        "render.map.panels; applied: rules.combat; checked: verifier.ex_limits, verifier.readback"
    ),
    "units[].type": (
        "printed: render.counters, render.handout, render.map.panels; applied: rules.board, rules.classic, "
        "rules.kit.movement, rules.kit.stacking, rules.kit.supply; checked: verifier.ex_combat, "
        "verifier.ex_rules"
    ),
    "units[].size": (
        "printed: render.counters, render.handout, render.map.panels; applied: rules.effects, rules.kit.stacking"
    ),
    "units[].steps": (
        "printed: cli, render.counters, render.handout; applied: rules.board, rules.classic, rules.engines, "
        "rules.kit.movement, rules.kit.setup, rules.kit.stacking, rules.kit.victory; checked: check, "
        "verifier.ex_combat, verifier.ex_limits, verifier.ex_results, verifier.readback"
    ),
    "units[].counters": "refused: check",
    "units[].setup": (
        "printed: render.counters, render.handout, vassal; applied: rules.engine, rules.kit.setup; checked: "
        "check, verifier.core, verifier.crosscheck, verifier.ex_rules"
    ),
    "units[].setup_zone": "applied: rules.engine, rules.kit.setup; checked: check",
    "units[].start_step": "printed: render.handout, vassal; applied: rules.kit.setup; checked: check",
    "units[].pool": "printed: render.handout, vassal; applied: rules.engine, rules.kit.setup; checked: check",
    "units[].pool.from_turn": "printed: render.handout, vassal; applied: rules.kit.setup; checked: check",
    "units[].pool.rule": "checked: verifier.notes",
    "units[].entry": (
        "printed: render.cards.turns, render.counters, render.handout, render.map.panels, vassal; applied: "
        "rules.classic, rules.engine, rules.kit.setup; checked: check, verifier.core, verifier.crosscheck, "
        "verifier.ex_rules, verifier.readback"
    ),
    "units[].entry.turn": (
        "printed: render.counters, render.handout, vassal; applied: rules.classic, rules.engine; checked: "
        "check, verifier.crosscheck"
    ),
    "units[].entry.hex": (
        "printed: render.cards.turns, render.counters, render.handout, render.map.panels; applied: rules.classic, "
        "rules.engine; checked: check, verifier.core, verifier.crosscheck, verifier.ex_rules"
    ),
    "units[].entry.condition": (
        "printed: render.cards.limits, render.cards.turns, render.handout, render.map.panels; applied: rules.engine; "
        "checked: verifier.crosscheck, verifier.readback"
    ),
    "units[].entry.rule": (
        "printed: render.map.panels; applied: rules.engine; checked: verifier.crosscheck, verifier.notes"
    ),
    "units[].group": "printed: render.counters, render.handout, render.map.panels, render.style; checked: check",
    "units[].copies": (
        "printed: cli, estimate, render.counters, render.handout, render.map.panels; applied: rules.classic, "
        "rules.kit.setup; checked: check, verifier.ex_combat, verifier.ex_limits, verifier.ex_results"
    ),
    "units[].returns_after": "checked: verifier.ex_scenario",
    "units[].reconstructed": (
        "documentation-only: marks a unit whose values are inferred, not stated (the counters print no mark)"
    ),
    "units[].note": (
        "documentation-only: a remark on the unit for the data's readers; no component prints it "
        "(forge.glyphs.NOT_PRINTED)"
    ),
    "units[].source_line": "checked: verifier.provenance",
    "units[].implied_by": "checked: check, verifier.provenance",
    "markers": (
        "printed: cli, estimate, render.counters, render.images, vassal; applied: rules.kit.limits, "
        "rules.kit.movement; checked: check, verifier.ex_limits, verifier.ex_scenario, verifier.locate"
    ),
    "markers[].id": (
        "printed: render.counters, render.images, vassal; applied: rules.kit.limits, rules.kit.movement; "
        "checked: check, verifier.ex_limits, verifier.ex_scenario, verifier.locate, verifier.notes"
    ),
    "markers[].name": "printed: render.counters, vassal; checked: verifier.locate, verifier.notes",
    "markers[].front": "printed: render.counters",
    "markers[].back": "printed: render.counters",
    "markers[].count": (
        "printed: estimate, render.counters, render.images; checked: check, verifier.ex_limits, verifier.ex_scenario"
    ),
    "markers[].side": "printed: render.counters, render.images; applied: rules.kit.limits; checked: check",
    "markers[].group": "printed: render.counters; checked: check",
    "markers[].rule": "checked: verifier.notes",
    "turns": (
        "printed: cli, estimate, render.cards.combat, render.cards.turns, render.handout, render.map.panels, "
        "turnlength; applied: rules.board, rules.classic, rules.effects, rules.engine, rules.state; checked: check, "
        "claim_keys, conditions, verifier.crosscheck, verifier.ex_claims, verifier.ex_combat, verifier.ex_movement, "
        "verifier.ex_rules, verifier.readback"
    ),
    "turns.turns": (
        "printed: cli, estimate, render.cards.combat, render.cards.turns, render.handout, render.map.panels, "
        "turnlength; applied: rules.board, rules.classic, rules.effects, rules.engine; checked: check, conditions, "
        "verifier.crosscheck, verifier.ex_claims, verifier.ex_combat, verifier.ex_movement, verifier.ex_rules, "
        "verifier.readback"
    ),
    "turns.turns[].number": (
        "printed: render.cards.turns, render.handout, render.map.panels, turnlength; applied: rules.board, "
        "rules.classic, rules.effects, rules.engine; checked: check, verifier.crosscheck, verifier.ex_claims, "
        "verifier.ex_combat, verifier.ex_movement, verifier.ex_rules, verifier.notes, verifier.readback"
    ),
    "turns.turns[].length": (
        "printed: render.cards.size, render.cards.turns, render.map.panels, turnlength; checked: verifier.ex_claims"
    ),
    "turns.turns[].length.days": "printed: turnlength; checked: turnlength",
    "turns.turns[].length.hours": "printed: turnlength; checked: turnlength",
    "turns.turns[].date": "printed: render.cards.turns, render.handout, render.map.panels; checked: verifier.ex_claims",
    "turns.turns[].weather": (
        "printed: render.cards.turns, render.map.panels; applied: rules.classic, rules.engine; checked: check, "
        "conditions, verifier.ex_combat, verifier.ex_movement, verifier.ex_rules"
    ),
    "turns.turns[].marks": (
        "printed: render.cards.turns, render.map.panels; applied: rules.effects; checked: verifier.crosscheck, "
        "verifier.ex_claims"
    ),
    "turns.turns[].replacements": (
        "printed: render.cards.turns, render.map.panels; applied: rules.classic; checked: check"
    ),
    "turns.turns[].note": "printed: render.cards.combat, render.cards.turns, render.map.panels",
    "turns.turns[].data_note": "checked: verifier.notes",
    "turns.weather": (
        "printed: render.cards.turns, render.map.panels; applied: rules.classic, rules.engine, rules.state; checked: "
        "check, claim_keys, conditions, verifier.ex_rules"
    ),
    "turns.weather.states": (
        "printed: render.cards.turns, render.map.panels; applied: rules.classic, rules.engine; checked: check, "
        "claim_keys, conditions, verifier.ex_rules"
    ),
    "turns.weather.initial": (
        "printed: render.cards.turns, render.map.panels; applied: rules.engine, rules.state; checked: check"
    ),
    "turns.weather.table": (
        "printed: render.cards.tables, render.cards.turns, render.map.panels; applied: rules.engine; checked: check, "
        "verifier.ex_rules"
    ),
    "turns.weather.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns, render.map.panels; checked: verifier.notes"
    ),
    "turns.weather.summary": "printed: render.cards.limits, render.cards.turns, render.map.panels",
    "turns.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns, render.map.panels; checked: verifier.notes"
    ),
    "combat": (
        "printed: cli, render.cards.combat, render.cards.sized, render.cards.terrain, vassal; applied: rules.classic, "
        "rules.effects, rules.engine, rules.engines; checked: check, verifier.core, verifier.crosscheck, "
        "verifier.ex_classic, verifier.ex_results, verifier.provenance, verifier.readback"
    ),
    "combat.kind": (
        "applied: rules.classic, rules.engine, rules.engines; checked: check, cli, verifier.ex_combat, verifier.tables"
    ),
    "combat.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "combat.crt": (
        "printed: cli, render.cards.combat, render.cards.sized, vassal; applied: rules.classic, rules.engine, "
        "rules.engines; checked: check, verifier.core, verifier.ex_classic, verifier.ex_results, verifier.provenance, "
        "verifier.readback"
    ),
    "combat.crt.title": (
        "printed: render.cards.chrome, render.cards.combat, render.cards.pages, render.cards.sized, "
        "render.cards.terrain, render.cards.turns; checked: verifier.notes, verifier.readback"
    ),
    "combat.crt.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes, verifier.readback, verifier.tables"
    ),
    "combat.crt.dice": (
        "printed: render.cards.combat, vassal; applied: rules.classic, rules.combat, rules.engine; checked: check, "
        "verifier.tables"
    ),
    "combat.crt.columns": (
        "printed: cli, render.cards.combat, render.cards.terrain; applied: rules.classic, rules.combat, rules.engine; "
        "checked: check, verifier.ex_combat, verifier.ex_results, verifier.readback, verifier.tables"
    ),
    "combat.crt.rows": (
        "printed: cli, render.cards.combat, render.cards.terrain; applied: rules.classic, rules.combat, rules.engine; "
        "checked: check, verifier.ex_classic, verifier.ex_combat, verifier.ex_results, verifier.readback, "
        "verifier.sites, verifier.tables"
    ),
    "combat.crt.cells": (
        "printed: cli, render.cards.combat, render.cards.terrain; applied: rules.classic, rules.combat, rules.engine; "
        "checked: check, verifier.readback, verifier.tables"
    ),
    "combat.crt.sections": "printed: cli, render.cards.combat; checked: check, verifier.readback, verifier.tables",
    "combat.crt.cell_format": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat, rules.engine, rules.engines; checked: "
        "check, verifier.ex_combat, verifier.ex_results, verifier.tables"
    ),
    "combat.crt.secondary": (
        "printed: render.cards.combat; checked: check, verifier.ex_combat, verifier.readback, verifier.tables"
    ),
    "combat.crt.secondary.rows": (
        "printed: render.cards.combat, render.cards.terrain; checked: check, verifier.ex_combat, verifier.readback, "
        "verifier.tables"
    ),
    "combat.crt.secondary.cells": (
        "printed: render.cards.combat, render.cards.terrain; checked: check, verifier.ex_combat, verifier.readback, "
        "verifier.tables"
    ),
    "combat.crt.below": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: check, verifier.ex_combat, "
        "verifier.tables"
    ),
    "combat.crt.below.result": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: check, verifier.tables"
    ),
    "combat.crt.below.column": "printed: glyphs, render.cards.combat; applied: rules.combat; checked: check",
    "combat.crt.below.no_effect": "applied: rules.combat; checked: check",
    "combat.crt.below.from_odds": "checked: check, verifier.ex_results",
    "combat.crt.below.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "combat.crt.below.note": "printed: render.cards.combat, render.cards.turns",
    "combat.crt.below.data_note": "checked: verifier.notes",
    "combat.crt.above": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: verifier.ex_combat"
    ),
    "combat.crt.above.result": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: check, verifier.tables"
    ),
    "combat.crt.above.column": "printed: glyphs, render.cards.combat; applied: rules.combat; checked: check",
    "combat.crt.above.no_effect": "applied: rules.combat; checked: check",
    "combat.crt.above.from_odds": "checked: check, verifier.ex_results",
    "combat.crt.above.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "combat.crt.above.note": "printed: render.cards.combat, render.cards.turns",
    "combat.crt.above.data_note": "checked: verifier.notes",
    "combat.crt.all_out": "printed: render.cards.combat; applied: rules.engine; checked: check",
    "combat.crt.all_out.flip_first": "printed: render.cards.combat; applied: rules.engine",
    "combat.crt.all_out.crowded_units": "printed: render.cards.combat; applied: rules.engine",
    "combat.crt.all_out.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns"
    ),
    "combat.crt.all_out.crowded_rule": "printed: render.cards.combat",
    "combat.crt.all_out.source_line": "documentation-only: the book line they were typed from (no provenance check)",
    "combat.crt.mandatory_retreat": (
        "printed: render.cards.combat; applied: rules.classic, rules.engine; checked: check"
    ),
    "combat.crt.mandatory_retreat.side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.engine; checked: check"
    ),
    "combat.crt.mandatory_retreat.min_hits": "printed: render.cards.combat; applied: rules.engine",
    "combat.crt.mandatory_retreat.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "combat.crt.high_odds": "applied: rules.classic; checked: verifier.ex_results",
    "combat.crt.high_odds.result": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: check, verifier.tables"
    ),
    "combat.crt.high_odds.column": "printed: glyphs, render.cards.combat; applied: rules.combat; checked: check",
    "combat.crt.high_odds.no_effect": "applied: rules.combat; checked: check",
    "combat.crt.high_odds.from_odds": "checked: check, verifier.ex_results",
    "combat.crt.high_odds.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "combat.crt.high_odds.note": "printed: render.cards.combat, render.cards.turns",
    "combat.crt.high_odds.data_note": "checked: verifier.notes",
    "combat.crt.note": "printed: render.cards.combat, render.cards.turns",
    "combat.crt.data_note": "checked: verifier.notes",
    "combat.crt.source_line": "checked: verifier.provenance",
    "combat.crt.implied_by": "checked: check, verifier.provenance",
    "combat.crt.implied_by[].column": "checked: check, glyphs, verifier.provenance",
    "combat.crt.implied_by[].row": "checked: check, verifier.provenance",
    "combat.crt.implied_by[].section": "checked: check, verifier.provenance",
    "combat.crt.implied_by[].secondary": "checked: check, verifier.provenance",
    "combat.crt.implied_by[].example": "checked: check, verifier.provenance",
    "combat.results": (
        "printed: render.cards.combat; applied: rules.classic; checked: check, verifier.ex_combat, "
        "verifier.ex_results, verifier.ex_rules, verifier.tables"
    ),
    "combat.results[].meaning": "printed: render.cards.combat",
    "combat.results[].attacker_steps": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: check"
    ),
    "combat.results[].defender_steps": "printed: render.cards.combat; applied: rules.classic, rules.combat",
    "combat.results[].defender_retreat": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: verifier.ex_rules"
    ),
    "combat.results[].attacker_retreat": "printed: render.cards.combat; applied: rules.classic, rules.combat",
    "combat.results[].defender_eliminated": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: verifier.ex_rules"
    ),
    "combat.results[].attacker_eliminated": "printed: render.cards.combat; applied: rules.classic, rules.combat",
    "combat.results[].step_instead_of_retreat": "applied: rules.classic, rules.combat",
    "combat.results[].attacker_steps_if_defender_has": "applied: rules.classic, rules.combat",
    "combat.results[].exchange": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: check, verifier.ex_classic"
    ),
    "combat.results[].exchange_strength": "printed: render.cards.combat; applied: rules.classic",
    "combat.results[].attacker_choice": "printed: render.cards.combat; applied: rules.classic; checked: check",
    "combat.results[].advance": "printed: render.cards.combat; applied: rules.classic, rules.combat",
    "combat.results[].advance_hexes": (
        "printed: render.cards.combat; applied: rules.classic, rules.combat; checked: check"
    ),
    "combat.results[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "combat.conversions": "checked: verifier.ex_results",
    "combat.conversions[].result": "applied: rules.combat",
    "combat.conversions[].becomes": "applied: rules.combat",
    "combat.conversions[].all_attackers": "applied: rules.combat",
    "combat.conversions[].rule": "applied: rules.combat; checked: verifier.notes",
    "combat.leaders": "checked: verifier.ex_combat, verifier.ex_results",
    "combat.leaders[].unit": "applied: rules.combat; checked: verifier.ex_combat, verifier.ex_results",
    "combat.leaders[].magnitude": "checked: verifier.ex_results",
    "combat.leaders[].max_magnitude": "checked: verifier.ex_results",
    "combat.leaders[].attacker_steps": "checked: verifier.ex_combat",
    "combat.leaders[].second_attack_on": "checked: verifier.ex_results",
    "combat.leaders[].range": "checked: verifier.ex_results",
    "combat.leaders[].rule": "checked: verifier.notes",
    "combat.die_modifiers": "checked: verifier.ex_combat",
    "combat.die_modifiers[].id": "checked: verifier.ex_results, verifier.notes",
    "combat.die_modifiers[].when": (
        "documentation-only: the modifier in words; the engine applies add and weather, and no component "
        "prints it (forge.glyphs.NOT_PRINTED)"
    ),
    "combat.die_modifiers[].add": "checked: verifier.ex_results, verifier.notes",
    "combat.die_modifiers[].weather": "applied: rules.combat",
    "combat.die_modifiers[].bombardment": "applied: rules.combat",
    "combat.die_modifiers[].rule": "checked: verifier.notes",
    "combat.rerolls": "checked: verifier.ex_combat",
    "combat.rerolls[].id": "checked: verifier.ex_results, verifier.notes",
    "combat.rerolls[].side": "applied: rules.combat; checked: verifier.ex_combat",
    "combat.rerolls[].faces": "applied: rules.combat",
    "combat.rerolls[].against": "applied: rules.combat",
    "combat.rerolls[].group": "applied: rules.combat; checked: verifier.ex_combat",
    "combat.rerolls[].unless_share": "applied: rules.combat",
    "combat.rerolls[].step_counts": "checked: verifier.ex_combat",
    "combat.rerolls[].rule": "checked: verifier.notes",
    "combat.shifts": (
        "printed: cli, render.cards.combat; applied: rules.classic, rules.engine; checked: check, verifier.core, "
        "verifier.crosscheck, verifier.ex_classic, verifier.ex_combat, verifier.ex_results, verifier.provenance, "
        "verifier.readback"
    ),
    "combat.shifts[].id": (
        "applied: rules.classic, rules.combat, rules.engine; checked: check, verifier.core, "
        "verifier.crosscheck, verifier.ex_classic, verifier.ex_combat, verifier.ex_results, verifier.notes, "
        "verifier.provenance"
    ),
    "combat.shifts[].when": (
        "printed: render.cards.combat, render.cards.limits; checked: verifier.crosscheck, verifier.readback"
    ),
    "combat.shifts[].shift": (
        "printed: render.cards.combat, render.cards.flowables; applied: rules.classic, rules.combat; checked: "
        "verifier.crosscheck, verifier.ex_combat, verifier.readback"
    ),
    "combat.shifts[].condition": (
        "applied: rules.classic, rules.combat, rules.engine; checked: check, verifier.crosscheck, verifier.ex_combat"
    ),
    "combat.shifts[].condition.weather": (
        "applied: rules.classic, rules.kit.conditions; checked: conditions, verifier.contradictions, verifier.ex_combat"
    ),
    "combat.shifts[].condition.terrain": "applied: rules.kit.conditions; checked: conditions, verifier.ex_combat",
    "combat.shifts[].condition.across": "applied: rules.kit.conditions; checked: conditions, verifier.ex_combat",
    "combat.shifts[].condition.attacker_side": "applied: rules.kit.conditions",
    "combat.shifts[].condition.defender_side": "applied: rules.kit.conditions",
    "combat.shifts[].condition.unit_types": "applied: rules.kit.conditions",
    "combat.shifts[].condition.mobility": "applied: rules.kit.conditions; checked: conditions",
    "combat.shifts[].condition.supply": "applied: rules.classic, rules.kit.conditions; checked: verifier.ex_combat",
    "combat.shifts[].condition.role": "applied: rules.kit.conditions; checked: conditions, verifier.ex_combat",
    "combat.shifts[].condition.units": "applied: rules.kit.conditions",
    "combat.shifts[].condition.phase": "applied: rules.kit.conditions; checked: conditions",
    "combat.shifts[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "combat.shifts[].source_line": "checked: verifier.provenance",
    "combat.shifts[].implied_by": "checked: check, verifier.provenance",
    "combat.shift_caps": (
        "printed: render.cards.combat; applied: rules.classic, rules.effects, rules.engine; checked: check, "
        "verifier.crosscheck, verifier.ex_combat"
    ),
    "combat.shift_caps[].shifts": "applied: rules.combat; checked: check",
    "combat.shift_caps[].max_columns": "printed: render.cards.combat; applied: rules.combat",
    "combat.shift_caps[].turns": "printed: render.cards.combat, render.cards.turns; applied: rules.combat",
    "combat.shift_caps[].side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.combat; checked: check"
    ),
    "combat.shift_caps[].role": "printed: render.cards.combat; applied: rules.combat",
    "combat.shift_caps[].when": (
        "printed: render.cards.combat, render.cards.limits; applied: rules.classic; checked: verifier.crosscheck"
    ),
    "combat.shift_caps[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; applied: rules.combat, rules.effects; checked: check, verifier.notes"
    ),
    "combat.cap_readings": "checked: verifier.ex_combat",
    "combat.cap_readings[].shifts": "applied: rules.combat; checked: check",
    "combat.cap_readings[].max_columns": "applied: rules.combat",
    "combat.cap_readings[].turns": "applied: rules.combat",
    "combat.cap_readings[].side": "applied: rules.combat; checked: check",
    "combat.cap_readings[].role": "applied: rules.combat",
    "combat.cap_readings[].when": (
        "documentation-only: the other statement in words; verify uses its shifts, max_columns and source"
    ),
    "combat.cap_readings[].rule": "applied: rules.combat; checked: verifier.notes",
    "combat.cap_readings[].source": "checked: verifier.ex_combat",
    "combat.modifiers": (
        "printed: cli, render.cards.combat; applied: rules.classic, rules.engine; checked: check, verifier.crosscheck, "
        "verifier.ex_combat, verifier.ex_results, verifier.ex_support, verifier.provenance"
    ),
    "combat.modifiers[].id": (
        "applied: rules.classic, rules.combat; checked: verifier.crosscheck, verifier.ex_results, "
        "verifier.ex_support, verifier.locate, verifier.notes, verifier.provenance"
    ),
    "combat.modifiers[].role": (
        "printed: render.cards.combat; applied: rules.combat; checked: verifier.crosscheck, verifier.ex_combat, "
        "verifier.ex_results, verifier.ex_support"
    ),
    "combat.modifiers[].when": "printed: render.cards.combat, render.cards.limits; checked: verifier.crosscheck",
    "combat.modifiers[].unit_types": (
        "printed: render.cards.combat; applied: rules.combat; checked: verifier.crosscheck, verifier.ex_combat"
    ),
    "combat.modifiers[].terrain": (
        "printed: render.cards.combat, render.cards.terrain; applied: rules.combat; checked: check, "
        "verifier.crosscheck, verifier.ex_combat"
    ),
    "combat.modifiers[].multiply": (
        "printed: render.cards.combat; applied: rules.combat; checked: verifier.crosscheck, verifier.ex_results"
    ),
    "combat.modifiers[].add": (
        "printed: render.cards.combat, render.cards.flow; applied: rules.combat, rules.engine; checked: "
        "verifier.crosscheck, verifier.ex_results, verifier.notes"
    ),
    "combat.modifiers[].cap": "printed: render.cards.combat; applied: rules.combat",
    "combat.modifiers[].rounding": "printed: render.cards.combat; applied: rules.combat",
    "combat.modifiers[].per_unit": (
        "printed: render.cards.combat; applied: rules.combat, rules.engine; checked: check, verifier.ex_combat"
    ),
    "combat.modifiers[].condition": (
        "applied: rules.classic, rules.combat, rules.engine; checked: check, verifier.ex_combat"
    ),
    "combat.modifiers[].condition.weather": (
        "applied: rules.classic, rules.kit.conditions; checked: conditions, verifier.contradictions, verifier.ex_combat"
    ),
    "combat.modifiers[].condition.terrain": "applied: rules.kit.conditions; checked: conditions, verifier.ex_combat",
    "combat.modifiers[].condition.across": "applied: rules.kit.conditions; checked: conditions, verifier.ex_combat",
    "combat.modifiers[].condition.attacker_side": "applied: rules.kit.conditions",
    "combat.modifiers[].condition.defender_side": "applied: rules.kit.conditions",
    "combat.modifiers[].condition.unit_types": "applied: rules.kit.conditions",
    "combat.modifiers[].condition.mobility": "applied: rules.kit.conditions; checked: conditions",
    "combat.modifiers[].condition.supply": "applied: rules.classic, rules.kit.conditions; checked: verifier.ex_combat",
    "combat.modifiers[].condition.role": "applied: rules.kit.conditions; checked: conditions, verifier.ex_combat",
    "combat.modifiers[].condition.units": "applied: rules.kit.conditions",
    "combat.modifiers[].condition.phase": "applied: rules.kit.conditions; checked: conditions",
    "combat.modifiers[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.ex_refs, verifier.notes"
    ),
    "combat.modifiers[].source_line": "checked: verifier.provenance",
    "combat.modifiers[].implied_by": "checked: check, verifier.provenance",
    "combat.dice_pool": "printed: render.cards.combat; applied: rules.engine; checked: check, verifier.ex_results",
    "combat.dice_pool.die": "printed: render.cards.combat; applied: rules.dicepool",
    "combat.dice_pool.hits_on_at_most_strength": "printed: render.cards.combat",
    "combat.dice_pool.automatic_hit_every": "printed: render.cards.combat; applied: rules.dicepool",
    "combat.dice_pool.rounding": "printed: render.cards.combat; applied: rules.dicepool",
    "combat.dice_pool.round_once": "applied: rules.dicepool",
    "combat.dice_pool.all_out_defender_losses": "applied: rules.dicepool",
    "combat.dice_pool.all_out_attacker_losses": "applied: rules.dicepool",
    "combat.dice_pool.crowded_units": "applied: rules.dicepool",
    "combat.dice_pool.crowded_defender_losses": "applied: rules.dicepool",
    "combat.dice_pool.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "combat.dice_pool.note": "printed: render.cards.combat, render.cards.turns",
    "combat.dice_pool.data_note": "checked: verifier.notes",
    "combat.max_attackers_per_hexside": (
        "printed: render.cards.combat; applied: rules.classic, rules.engine; checked: verifier.ex_claims"
    ),
    "combat.attacks_per_unit": "applied: rules.classic, rules.combat",
    "combat.attacks_per_defender": "applied: rules.classic, rules.combat",
    "combat.max_defenders": "printed: render.cards.combat; applied: rules.engine; checked: check, verifier.ex_claims",
    "combat.alone_defense": "checked: check, verifier.ex_modifiers",
    "combat.alone_defense[].units": "applied: rules.kit.stacking; checked: check, verifier.ex_move_rules",
    "combat.alone_defense[].types": "applied: rules.kit.stacking",
    "combat.alone_defense[].sizes": "applied: rules.kit.stacking",
    "combat.alone_defense[].side": "applied: rules.kit.stacking; checked: verifier.ex_move_rules",
    "combat.alone_defense[].defense": "checked: verifier.ex_modifiers",
    "combat.alone_defense[].rule": (
        "documentation-only: the rule the lone defence comes from (a finding cites its example's rule)"
    ),
    "combat.note": "printed: render.cards.combat, render.cards.turns",
    "combat.data_note": "checked: verifier.notes",
    "tables": (
        "printed: cli, render.cards.sized, render.cards.terrain, render.cards.turns; applied: rules.effects, "
        "rules.engine, rules.kit.movement; checked: check, verifier.ex_modifiers, verifier.ex_results, "
        "verifier.ex_rules, verifier.locate, verifier.readback"
    ),
    "tables[].id": (
        "printed: cli, render.cards.combat, render.cards.limits, render.cards.styles, render.cards.turns; applied: "
        "rules.effects, rules.engine, rules.kit.movement; checked: check, verifier.ex_modifiers, verifier.ex_results, "
        "verifier.ex_rules, verifier.locate, verifier.notes, verifier.readback"
    ),
    "tables[].title": (
        "printed: render.cards.chrome, render.cards.combat, render.cards.pages, render.cards.sized, "
        "render.cards.terrain, render.cards.turns; checked: verifier.notes, verifier.readback"
    ),
    "tables[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.ex_refs, verifier.notes, verifier.readback"
    ),
    "tables[].row_header": "printed: render.cards.terrain; checked: verifier.readback",
    "tables[].columns": (
        "printed: render.cards.combat, render.cards.terrain; applied: rules.effects, rules.engine, rules.kit.movement; "
        "checked: check, verifier.ex_results, verifier.ex_rules, verifier.readback"
    ),
    "tables[].rows": (
        "printed: render.cards.combat, render.cards.terrain; applied: rules.engine, rules.kit.movement; checked: "
        "check, verifier.ex_results, verifier.ex_rules, verifier.readback"
    ),
    "tables[].rows[].label": (
        "printed: render.cards.limits, render.cards.terrain, render.cards.turns; applied: rules.kit.movement; checked: "
        "verifier.ex_results, verifier.ex_rules, verifier.readback"
    ),
    "tables[].rows[].cells": (
        "printed: render.cards.combat, render.cards.terrain; applied: rules.engine, rules.kit.movement; checked: "
        "check, verifier.ex_results, verifier.ex_rules, verifier.readback"
    ),
    "tables[].notes": "printed: render.cards.terrain",
    "tables[].modifiers": "checked: verifier.ex_modifiers",
    "tables[].modifiers[].id": "checked: verifier.ex_modifiers, verifier.notes",
    "tables[].modifiers[].when": "checked: verifier.ex_modifiers",
    "tables[].modifiers[].add": "checked: verifier.ex_modifiers, verifier.notes",
    "tables[].modifiers[].rule": "checked: verifier.notes",
    "tables[].data_note": "checked: verifier.notes",
    "sequence": (
        "printed: render.cards.turns; applied: rules.board, rules.classic; checked: check, conditions, "
        "verifier.ex_combat, verifier.ex_limits, verifier.ex_phases"
    ),
    "sequence[].name": (
        "printed: render.cards.combat, render.cards.limits, render.cards.styles, render.cards.terrain, "
        "render.cards.turns; applied: rules.board, rules.classic, rules.combat; checked: check, conditions, "
        "verifier.ex_phases, verifier.notes"
    ),
    "sequence[].side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.board, rules.classic, "
        "rules.combat; checked: check, verifier.ex_limits, verifier.ex_phases"
    ),
    "sequence[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.ex_limits, verifier.notes"
    ),
    "sequence[].summary": "printed: render.cards.limits, render.cards.turns",
    "sequence[].activities": "applied: rules.board, rules.classic, rules.combat; checked: verifier.ex_limits",
    "sequence[].each_side": "applied: rules.board, rules.classic",
    "sequence[].steps": "printed: render.cards.turns; checked: verifier.ex_phases",
    "sequence[].steps[].id": "checked: verifier.ex_phases",
    "sequence[].steps[].at": "printed: render.cards.turns; checked: verifier.ex_phases",
    "sequence[].steps[].text": (
        "printed: render.cards.flow, render.cards.limits, render.cards.terrain, render.cards.turns"
    ),
    "sequence[].steps[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns"
    ),
    "victory": (
        "printed: render.cards.limits, render.handout; applied: rules.board, rules.classic, rules.kit.victory; "
        "checked: check, verifier.crosscheck, verifier.ex_rules, verifier.ex_victory"
    ),
    "victory.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns, render.handout; checked: verifier.notes"
    ),
    "victory.summary": "printed: render.cards.limits, render.cards.turns, render.handout; checked: verifier.crosscheck",
    "victory.points": (
        "printed: render.cards.limits; applied: rules.board, rules.classic, rules.kit.victory; checked: check, "
        "verifier.crosscheck, verifier.ex_rules, verifier.ex_victory"
    ),
    "victory.points[].text": (
        "printed: render.cards.flow, render.cards.limits, render.cards.terrain, render.cards.turns; applied: "
        "rules.board, rules.classic; checked: verifier.crosscheck"
    ),
    "victory.points[].vp": (
        "printed: render.cards.limits; applied: rules.board, rules.classic; checked: verifier.ex_rules, "
        "verifier.ex_victory"
    ),
    "victory.points[].side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.classic; checked: "
        "check, verifier.ex_rules"
    ),
    "victory.points[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "victory.points[].id": (
        "applied: rules.kit.victory; checked: verifier.ex_rules, verifier.ex_victory, verifier.notes"
    ),
    "victory.points[].per": "applied: rules.board, rules.classic, rules.kit.victory; checked: verifier.ex_rules",
    "victory.points[].terrain": (
        "printed: render.cards.combat, render.cards.terrain; applied: rules.board, rules.classic, rules.kit.victory; "
        "checked: check, verifier.crosscheck"
    ),
    "victory.points[].max": "applied: rules.classic; checked: verifier.ex_rules",
    "victory.handicap": (
        "printed: render.cards.limits, render.handout; applied: rules.board, rules.classic; checked: check, "
        "verifier.ex_rules"
    ),
    "victory.start": "applied: rules.classic; checked: verifier.ex_rules",
    "victory.levels": (
        "printed: render.cards.limits; applied: rules.classic, rules.kit.victory; checked: check, verifier.ex_rules"
    ),
    "victory.levels[].id": (
        "printed: render.cards.combat, render.cards.limits, render.cards.styles, render.cards.turns; applied: "
        "rules.classic, rules.kit.victory; checked: verifier.ex_rules"
    ),
    "victory.levels[].side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.classic; checked: check"
    ),
    "victory.levels[].min": (
        "printed: render.cards.limits; applied: rules.kit.victory; checked: check, verifier.ex_rules"
    ),
    "victory.levels[].max": (
        "printed: render.cards.limits; applied: rules.kit.victory; checked: check, verifier.ex_rules"
    ),
    "victory.levels[].condition": "printed: render.cards.limits, render.cards.turns; checked: check",
    "victory.levels[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns"
    ),
    "victory.data_note": "checked: verifier.notes",
    "special_rules": (
        "printed: render.cards.turns, render.map.panels; applied: rules.effects, rules.engine; checked: check, "
        "verifier.crosscheck, verifier.ex_limits, verifier.ex_rules, verifier.ex_zoc_groups"
    ),
    "special_rules[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns, render.map.panels; applied: rules.effects; checked: check, verifier.crosscheck, "
        "verifier.ex_limits, verifier.ex_rules, verifier.ex_zoc_groups, verifier.notes"
    ),
    "special_rules[].title": (
        "printed: render.cards.chrome, render.cards.combat, render.cards.pages, render.cards.sized, "
        "render.cards.terrain, render.cards.turns, render.map.panels; applied: rules.effects; checked: "
        "verifier.crosscheck, verifier.ex_limits, verifier.notes"
    ),
    "special_rules[].turns": (
        "printed: render.cards.combat, render.cards.turns; applied: rules.effects; checked: check, "
        "verifier.crosscheck, verifier.ex_limits, verifier.ex_rules"
    ),
    "special_rules[].summary": "printed: render.cards.limits, render.cards.turns; checked: verifier.crosscheck",
    "special_rules[].effects": "applied: rules.effects, rules.engine; checked: check",
    "special_rules[].effects[].kind": "applied: rules.effects; checked: check",
    "special_rules[].effects[].turns": "applied: rules.effects; checked: check",
    "special_rules[].effects[].side": "applied: rules.effects; checked: check",
    "special_rules[].effects[].places": "applied: rules.effects; checked: check",
    "special_rules[].effects[].hexes": "applied: rules.effects; checked: check",
    "special_rules[].effects[].radius": "applied: rules.effects",
    "special_rules[].effects[].released_by": "applied: rules.effects; checked: check",
    "special_rules[].effects[].length": "applied: rules.effects",
    "special_rules[].effects[].types": "applied: rules.effects",
    "special_rules[].effects[].max_units": "applied: rules.effects",
    "special_rules[].effects[].holds": "applied: rules.effects; checked: check",
    "special_rules[].effects[].units": "applied: rules.effects, rules.engine; checked: check",
    "special_rules[].effects[].sizes": "applied: rules.effects",
    "special_rules[].effects[].table": "applied: rules.effects; checked: check",
    "special_rules[].activates": "checked: verifier.ex_zoc_groups",
    "special_rules[].data_note": "checked: verifier.notes",
    "scenarios": (
        "printed: cli, render.cards.limits, render.handout; applied: rules.engine; checked: check, "
        "verifier.crosscheck, verifier.ex_scenario, verifier.locate"
    ),
    "scenarios[].id": "checked: cli, verifier.crosscheck, verifier.ex_scenario, verifier.locate, verifier.notes",
    "scenarios[].name": (
        "printed: render.cards.combat, render.cards.limits, render.cards.styles, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "scenarios[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "scenarios[].first_turn": "printed: render.cards.limits",
    "scenarios[].last_turn": "printed: render.cards.limits",
    "scenarios[].setup": "printed: render.handout; applied: rules.engine; checked: check",
    "scenarios[].markers": "checked: check, verifier.ex_scenario",
    "scenarios[].features": "checked: check, verifier.ex_scenario",
    "scenarios[].features[].feature": "checked: check, verifier.ex_scenario",
    "scenarios[].features[].side": "checked: check, verifier.ex_scenario",
    "scenarios[].features[].hexes": "checked: check, verifier.ex_scenario",
    "scenarios[].features[].rule": (
        "documentation-only: the rule the scenario feature comes from (a finding cites its example's rule)"
    ),
    "scenarios[].summary": "printed: render.cards.limits, render.cards.turns; checked: verifier.crosscheck",
    "scenarios[].data_note": "checked: verifier.notes",
    "rules": (
        "printed: render.cards.limits; applied: rules.classic, rules.engine, rules.kit.limits, rules.kit.movement, "
        "rules.kit.supply; checked: check, claim_keys, verifier.contradictions, verifier.ex_limits, "
        "verifier.ex_move_rules, verifier.ex_movement, verifier.ex_rules, verifier.ex_units, verifier.ex_zoc_groups, "
        "verifier.readback"
    ),
    "rules.movement": (
        "applied: rules.classic, rules.kit.movement; checked: check, verifier.ex_move_rules, "
        "verifier.ex_movement, verifier.ex_rules"
    ),
    "rules.movement.mobility": "applied: rules.kit.movement",
    "rules.movement.default_mobility": "applied: rules.kit.movement",
    "rules.movement.allowances": "applied: rules.classic, rules.kit.movement",
    "rules.movement.allowances[].mp": "applied: rules.classic, rules.kit.movement",
    "rules.movement.allowances[].table": "applied: rules.kit.movement",
    "rules.movement.allowances[].multiply": "applied: rules.classic, rules.kit.movement",
    "rules.movement.allowances[].rounding": "applied: rules.classic, rules.kit.movement",
    "rules.movement.allowances[].mobility": "applied: rules.kit.movement",
    "rules.movement.allowances[].unit_types": "applied: rules.kit.movement",
    "rules.movement.allowances[].side": "applied: rules.kit.movement",
    "rules.movement.allowances[].when": "applied: rules.kit.movement",
    "rules.movement.allowances[].hexes": "applied: rules.classic, rules.kit.movement",
    "rules.movement.allowances[].rule": "applied: rules.kit.movement; checked: verifier.notes",
    "rules.movement.allowances[].note": (
        "documentation-only: a remark on the allowance for the data's readers; no component prints it "
        "(forge.glyphs.NOT_PRINTED)"
    ),
    "rules.movement.bonuses": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.bonuses[].mode": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.bonuses[].add": "applied: rules.kit.movement; checked: verifier.notes",
    "rules.movement.bonuses[].when": "applied: rules.kit.movement",
    "rules.movement.bonuses[].rule": "checked: verifier.notes",
    "rules.movement.limits": "applied: rules.classic, rules.kit.movement",
    "rules.movement.limits[].terrain": "applied: rules.kit.movement",
    "rules.movement.limits[].max": "applied: rules.kit.movement",
    "rules.movement.limits[].mobility": "applied: rules.kit.movement",
    "rules.movement.limits[].unit_types": "applied: rules.kit.movement",
    "rules.movement.limits[].rule": "applied: rules.kit.movement; checked: verifier.notes",
    "rules.movement.changes": "applied: rules.classic, rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.changes[].terrain": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.changes[].when": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.changes[].add": "applied: rules.kit.movement; checked: verifier.notes",
    "rules.movement.changes[].set": "applied: rules.kit.movement",
    "rules.movement.changes[].mobility": "applied: rules.kit.movement",
    "rules.movement.changes[].rule": "checked: verifier.notes",
    "rules.movement.cancels": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.crossing_rolls": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.crossing_rolls[].hexsides": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.crossing_rolls[].table": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.crossing_rolls[].die_modifier": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.crossing_rolls[].free_when": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.crossing_rolls[].free_at": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.crossing_rolls[].optional_cost": "applied: rules.kit.movement",
    "rules.movement.crossing_rolls[].rule": "checked: verifier.notes",
    "rules.movement.crossings": "applied: rules.classic, rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.crossings[].hexside": "applied: rules.kit.movement",
    "rules.movement.crossings[].mobility": "checked: verifier.ex_movement",
    "rules.movement.crossings[].unit_types": "checked: verifier.ex_movement",
    "rules.movement.crossings[].prohibited": "applied: rules.kit.movement",
    "rules.movement.crossings[].extra": "checked: verifier.ex_movement",
    "rules.movement.crossings[].max_hexes": "checked: verifier.ex_movement",
    "rules.movement.crossings[].must_start_adjacent": "applied: rules.kit.movement",
    "rules.movement.crossings[].rule": "checked: verifier.notes",
    "rules.movement.free_zones": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.free_zones[].markers": "applied: rules.kit.movement",
    "rules.movement.free_zones[].side": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.free_zones[].radius": "applied: rules.kit.movement",
    "rules.movement.free_zones[].cost": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.free_zones[].not_when": "applied: rules.kit.movement",
    "rules.movement.free_zones[].negated_by_ezoc": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.free_zones[].rule": "checked: verifier.notes",
    "rules.movement.mobile_assault": "applied: rules.kit.movement; checked: check, verifier.ex_movement",
    "rules.movement.mobile_assault.cost": "applied: rules.kit.movement; checked: verifier.ex_movement",
    "rules.movement.mobile_assault.plus_terrain": "applied: rules.kit.movement",
    "rules.movement.mobile_assault.ignore_zoc_exit": "refused: check",
    "rules.movement.mobile_assault.road_rate": "checked: verifier.ex_movement",
    "rules.movement.mobile_assault.rule": "checked: verifier.notes",
    "rules.movement.enemy_hexes_prohibited": "applied: rules.classic, rules.kit.movement",
    "rules.movement.disrupts": "checked: verifier.ex_move_rules",
    "rules.movement.disrupts[].units": "applied: rules.kit.stacking; checked: verifier.ex_move_rules",
    "rules.movement.disrupts[].types": "applied: rules.kit.stacking; checked: verifier.ex_move_rules",
    "rules.movement.disrupts[].sizes": "applied: rules.kit.stacking",
    "rules.movement.disrupts[].side": "applied: rules.kit.stacking; checked: verifier.ex_move_rules",
    "rules.movement.disrupts[].mode": "checked: verifier.ex_move_rules",
    "rules.movement.disrupts[].over_hexes": "checked: verifier.ex_move_rules",
    "rules.movement.disrupts[].phase": "checked: verifier.ex_move_rules",
    "rules.movement.disrupts[].rule": "checked: verifier.ex_move_rules",
    "rules.movement.off_map": "checked: check, verifier.ex_move_rules",
    "rules.movement.off_map[].mode": "checked: verifier.ex_move_rules",
    "rules.movement.off_map[].side": "checked: check, verifier.ex_move_rules",
    "rules.movement.off_map[].exits": "checked: verifier.ex_move_rules",
    "rules.movement.off_map[].returns": "checked: verifier.ex_move_rules",
    "rules.movement.off_map[].both_ways": "checked: verifier.ex_move_rules",
    "rules.movement.off_map[].rule": (
        "documentation-only: the rule the off-map link comes from (a finding cites its example's rule)"
    ),
    "rules.movement.exit_mp": "checked: verifier.ex_rules",
    "rules.movement.modes": "applied: rules.classic, rules.kit.movement; checked: check",
    "rules.movement.modes[].id": "applied: rules.classic, rules.kit.movement; checked: check, verifier.notes",
    "rules.movement.modes[].path": "applied: rules.classic, rules.kit.movement; checked: check, glyphs",
    "rules.movement.modes[].hexes": "applied: rules.classic, rules.kit.movement",
    "rules.movement.modes[].rate": "applied: rules.classic, rules.kit.movement",
    "rules.movement.modes[].start_on_path": "applied: rules.classic, rules.kit.movement",
    "rules.movement.modes[].phases": "applied: rules.classic; checked: check",
    "rules.movement.modes[].not_when": "applied: rules.classic, rules.kit.movement",
    "rules.movement.modes[].ignores": "applied: rules.classic, rules.kit.movement",
    "rules.movement.modes[].enemy_zoc": "applied: rules.classic, rules.kit.movement",
    "rules.movement.modes[].rule": "applied: rules.kit.movement; checked: verifier.notes",
    "rules.movement.rule": "checked: verifier.notes",
    "rules.zoc": "applied: rules.classic, rules.kit.movement; checked: verifier.ex_movement, verifier.ex_zoc_groups",
    "rules.zoc.own_hex": "applied: rules.kit.zoc",
    "rules.zoc.not_exerted_by": "applied: rules.kit.zoc",
    "rules.zoc.blocked_by": "applied: rules.kit.movement, rules.kit.zoc",
    "rules.zoc.not_when": "applied: rules.kit.zoc",
    "rules.zoc.affects_movement": "applied: rules.classic, rules.kit.movement",
    "rules.zoc.enter_cost": "applied: rules.classic, rules.kit.movement",
    "rules.zoc.leave_cost": "applied: rules.classic, rules.kit.movement",
    "rules.zoc.stop_on_enter": "applied: rules.classic, rules.kit.movement",
    "rules.zoc.locking": "applied: rules.classic, rules.kit.movement",
    "rules.zoc.negated_by_friendly": "applied: rules.classic, rules.kit.zoc",
    "rules.zoc.no_end_in_ezoc": "applied: rules.classic, rules.kit.movement",
    "rules.zoc.infiltration": "applied: rules.classic, rules.kit.infiltration; checked: verifier.ex_zoc_groups",
    "rules.zoc.infiltration[].mobility": "applied: rules.kit.infiltration",
    "rules.zoc.infiltration[].cost": "applied: rules.classic, rules.kit.infiltration",
    "rules.zoc.infiltration[].fraction": "applied: rules.classic, rules.kit.infiltration",
    "rules.zoc.infiltration[].rounding": "applied: rules.kit.infiltration",
    "rules.zoc.infiltration[].plus_terrain": "applied: rules.kit.infiltration",
    "rules.zoc.infiltration[].rule": "checked: verifier.notes",
    "rules.zoc.rule": "applied: rules.kit.movement; checked: verifier.ex_refs, verifier.notes",
    "rules.stacking": (
        "printed: render.cards.limits; applied: rules.classic, rules.engine; checked: claim_keys, verifier.ex_limits, "
        "verifier.ex_rules"
    ),
    "rules.stacking.unlimited": "printed: render.cards.limits; applied: rules.engine, rules.kit.stacking",
    "rules.stacking.classes": (
        "printed: render.cards.limits; applied: rules.kit.stacking; checked: claim_keys, verifier.ex_limits"
    ),
    "rules.stacking.classes[].units": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.classes[].types": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.classes[].sizes": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.classes[].side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.kit.stacking"
    ),
    "rules.stacking.classes[].id": (
        "printed: render.cards.combat, render.cards.limits, render.cards.styles, render.cards.turns; applied: "
        "rules.kit.stacking; checked: claim_keys, verifier.ex_limits, verifier.notes"
    ),
    "rules.stacking.default_class": (
        "printed: render.cards.limits; applied: rules.kit.stacking; checked: claim_keys, verifier.ex_limits"
    ),
    "rules.stacking.exempt": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.exempt[].units": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.exempt[].types": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.exempt[].sizes": "printed: render.cards.limits",
    "rules.stacking.exempt[].side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.kit.stacking"
    ),
    "rules.stacking.exceptions": "applied: rules.kit.stacking",
    "rules.stacking.exceptions[].units": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.exceptions[].types": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.exceptions[].sizes": "printed: render.cards.limits",
    "rules.stacking.exceptions[].side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.kit.stacking"
    ),
    "rules.stacking.limits": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.limits[].side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.kit.stacking"
    ),
    "rules.stacking.limits[].measure": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.limits[].allow": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.limits[].allow[].max": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.limits[].allow[].min": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.limits[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "rules.stacking.enemy_together": "printed: render.cards.limits; applied: rules.kit.stacking",
    "rules.stacking.when": "printed: render.cards.combat, render.cards.limits",
    "rules.stacking.rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "rules.limits": (
        "printed: render.cards.limits; applied: rules.kit.limits; checked: check, verifier.ex_limits, verifier.readback"
    ),
    "rules.limits.counts": (
        "printed: render.cards.limits; applied: rules.kit.limits; checked: check, verifier.ex_limits, verifier.readback"
    ),
    "rules.limits.counts[].id": "applied: rules.kit.limits; checked: verifier.ex_limits, verifier.notes",
    "rules.limits.counts[].what": "printed: render.cards.limits",
    "rules.limits.counts[].per": "printed: render.cards.limits",
    "rules.limits.counts[].max": "printed: render.cards.limits; applied: rules.kit.limits",
    "rules.limits.counts[].min": "printed: render.cards.limits; applied: rules.kit.limits",
    "rules.limits.counts[].side": (
        "printed: render.cards.combat, render.cards.limits, render.cards.turns; applied: rules.kit.limits; checked: "
        "verifier.ex_limits"
    ),
    "rules.limits.counts[].turns": "applied: rules.kit.limits; checked: verifier.ex_limits",
    "rules.limits.counts[].counts": "checked: verifier.ex_limits",
    "rules.limits.counts[].exempt": "checked: check, verifier.ex_limits",
    "rules.limits.counts[].rule": (
        "printed: render.cards.combat, render.cards.limits, render.cards.tables, render.cards.terrain, "
        "render.cards.turns; checked: verifier.notes"
    ),
    "rules.limits.counts[].note": (
        "documentation-only: a remark on the limit for the data's readers; no component prints it "
        "(forge.glyphs.NOT_PRINTED)"
    ),
    "rules.permissions": "checked: check, verifier.contradictions",
    "rules.permissions[].id": "checked: check, verifier.contradictions, verifier.locate, verifier.notes",
    "rules.permissions[].actions": "checked: check, verifier.contradictions",
    "rules.permissions[].allowed": "checked: verifier.contradictions",
    "rules.permissions[].when": "checked: check, verifier.contradictions",
    "rules.permissions[].when.weather": (
        "applied: rules.classic, rules.kit.conditions; checked: conditions, verifier.contradictions, verifier.ex_combat"
    ),
    "rules.permissions[].when.terrain": "applied: rules.kit.conditions; checked: conditions, verifier.ex_combat",
    "rules.permissions[].when.across": "applied: rules.kit.conditions; checked: conditions, verifier.ex_combat",
    "rules.permissions[].when.attacker_side": "applied: rules.kit.conditions",
    "rules.permissions[].when.defender_side": "applied: rules.kit.conditions",
    "rules.permissions[].when.unit_types": "applied: rules.kit.conditions",
    "rules.permissions[].when.mobility": "applied: rules.kit.conditions; checked: conditions",
    "rules.permissions[].when.supply": "applied: rules.classic, rules.kit.conditions; checked: verifier.ex_combat",
    "rules.permissions[].when.role": "applied: rules.kit.conditions; checked: conditions, verifier.ex_combat",
    "rules.permissions[].when.units": "applied: rules.kit.conditions",
    "rules.permissions[].when.phase": "applied: rules.kit.conditions; checked: conditions",
    "rules.permissions[].side": "checked: check, verifier.contradictions",
    "rules.permissions[].exception_to": "checked: check, verifier.contradictions",
    "rules.permissions[].rule": "checked: verifier.contradictions, verifier.notes",
    "rules.permissions[].source_line": "checked: verifier.contradictions",
    "rules.permissions[].summary": "checked: verifier.contradictions",
    "rules.supply": "applied: rules.classic, rules.engine, rules.kit.supply; checked: verifier.ex_rules",
    "rules.supply.trace": "applied: rules.engine, rules.kit.supply",
    "rules.supply.trace_by_side": "applied: rules.engine, rules.kit.supply",
    "rules.supply.overland": "applied: rules.kit.supply",
    "rules.supply.overland_to_hq": "applied: rules.kit.supply",
    "rules.supply.command_range": "checked: verifier.ex_rules",
    "rules.supply.enemy_units": "applied: rules.classic, rules.engine, rules.kit.supply",
    "rules.supply.enemy_zoc": "applied: rules.classic, rules.engine, rules.kit.supply",
    "rules.supply.enemy_sources": "applied: rules.classic, rules.engine, rules.kit.supply",
    "rules.supply.blocking_terrain": "applied: rules.kit.supply",
    "rules.supply.edges": "applied: rules.kit.supply; checked: verifier.ex_rules",
    "rules.supply.edges[].side": "applied: rules.kit.supply; checked: verifier.ex_rules",
    "rules.supply.edges[].first": "checked: verifier.ex_rules",
    "rules.supply.edges[].last": "checked: verifier.ex_rules",
    "rules.supply.edges[].edges": "applied: rules.kit.supply",
    "rules.supply.edges[].role": "applied: rules.kit.supply; checked: verifier.ex_rules",
    "rules.supply.edges[].rule": "checked: verifier.notes",
    "rules.supply.sources_per_side": "checked: verifier.ex_rules",
    "rules.supply.petrol": "applied: rules.kit.supply; checked: verifier.ex_rules",
    "rules.supply.petrol.beyond": "applied: rules.kit.supply",
    "rules.supply.petrol.table": "checked: verifier.ex_rules",
    "rules.supply.petrol.unit_types": "applied: rules.kit.supply",
    "rules.supply.petrol.rule": "checked: verifier.notes",
    "rules.supply.rule": "checked: verifier.notes",
    "rules.supply.unsupplied_eliminated_at_end": "applied: rules.engine",
    "rules.retreat": "applied: rules.classic, rules.engine; checked: verifier.ex_rules",
    "rules.retreat.hexes": "checked: verifier.ex_rules",
    "rules.retreat.extra_if_overstacked": "applied: rules.classic; checked: verifier.ex_rules",
    "rules.retreat.rally_stop_after": "applied: rules.classic; checked: verifier.ex_rules",
    "rules.retreat.enemy_units": "applied: rules.classic, rules.kit.retreat",
    "rules.retreat.enemy_zoc": "applied: rules.classic, rules.kit.retreat",
    "rules.retreat.prefer_outside_enemy_zoc": "applied: rules.kit.retreat",
    "rules.retreat.enemy_sources": "applied: rules.classic, rules.kit.retreat",
    "rules.retreat.from_own_source": "applied: rules.kit.retreat",
    "rules.retreat.voluntary": "checked: verifier.ex_rules",
    "rules.retreat.allowed_if": "applied: rules.classic; checked: verifier.ex_rules",
    "rules.retreat.loss_reduction_max": "applied: rules.classic, rules.engine; checked: verifier.ex_rules",
    "rules.retreat.limits": "applied: rules.classic, rules.kit.retreat",
    "rules.retreat.limits[].turns": "applied: rules.kit.retreat",
    "rules.retreat.limits[].side": "applied: rules.kit.retreat",
    "rules.retreat.limits[].during": "applied: rules.kit.retreat",
    "rules.retreat.limits[].only_into": "applied: rules.kit.retreat",
    "rules.retreat.limits[].not_hit": "applied: rules.kit.retreat",
    "rules.retreat.limits[].rule": "checked: verifier.notes",
    "rules.retreat.in_terrain": "applied: rules.kit.retreat",
    "rules.retreat.in_terrain[].terrain": "applied: rules.kit.retreat",
    "rules.retreat.in_terrain[].may_ignore": "applied: rules.kit.retreat",
    "rules.retreat.in_terrain[].must": "applied: rules.kit.retreat",
    "rules.retreat.in_terrain[].rule": "checked: verifier.notes",
    "rules.retreat.advance": "applied: rules.kit.retreat; checked: verifier.ex_rules",
    "rules.retreat.advance_into": "checked: verifier.ex_rules",
    "rules.retreat.advance_after": "checked: verifier.ex_rules",
    "rules.retreat.rule": "checked: verifier.notes",
    "rules.steps": "checked: verifier.ex_units",
    "rules.steps.max": "applied: rules.kit.steps",
    "rules.steps.more": "applied: rules.kit.steps; checked: verifier.ex_units",
    "rules.steps.more[].units": "applied: rules.kit.stacking",
    "rules.steps.more[].types": "applied: rules.kit.stacking",
    "rules.steps.more[].sizes": "applied: rules.kit.stacking",
    "rules.steps.more[].side": "applied: rules.kit.stacking",
    "rules.steps.more[].id": "checked: verifier.ex_units, verifier.notes",
    "rules.steps.more[].counts": "applied: rules.kit.steps; checked: verifier.ex_units",
    "rules.steps.more[].only": "applied: rules.kit.steps",
    "rules.steps.more[].rule": "checked: verifier.notes",
    "rules.steps.rule": "checked: verifier.notes",
    "rules.play": "applied: rules.classic; checked: check",
    "rules.play.phases": "applied: rules.classic; checked: check",
    "rules.play.phases[].phase": "applied: rules.classic; checked: check",
    "rules.play.phases[].mobility": "applied: rules.classic",
    "rules.play.phases[].unit_types": "applied: rules.classic",
    "rules.play.phases[].modes": "applied: rules.classic; checked: check",
    "rules.play.phases[].turns": "applied: rules.classic",
    "rules.play.phases[].rule": "checked: verifier.notes",
    "rules.play.replacements": "applied: rules.classic; checked: check",
    "rules.play.replacements.step_cost": "applied: rules.classic",
    "rules.play.replacements.restore": "applied: rules.classic",
    "rules.play.replacements.rebuild": "applied: rules.classic",
    "rules.play.replacements.returns_with": "applied: rules.classic",
    "rules.play.replacements.place": "applied: rules.classic; checked: check",
    "rules.play.replacements.place_at_entry": "applied: rules.classic",
    "rules.play.replacements.controlled": "applied: rules.classic",
    "rules.play.replacements.communication": "applied: rules.classic",
    "rules.play.replacements.not_in_enemy_zoc": "applied: rules.classic",
    "rules.play.replacements.carry_over": "applied: rules.classic",
    "rules.play.replacements.rule": "checked: verifier.notes",
    "rules.play.control": "applied: rules.classic; checked: check",
    "rules.play.control.places": "applied: rules.classic; checked: check",
    "rules.play.control.hexes": "applied: rules.classic; checked: check",
    "rules.play.control.initial": "applied: rules.classic; checked: check",
    "rules.play.control.rule": "checked: verifier.notes",
    "rules.play.hold": "applied: rules.classic; checked: check",
    "rules.play.hold[].hexes": "applied: rules.classic; checked: check",
    "rules.play.hold[].side": "applied: rules.classic; checked: check",
    "rules.play.hold[].at": "applied: rules.classic",
    "rules.play.hold[].rule": "checked: verifier.notes",
    "rules.play.score": "applied: rules.classic; checked: check",
    "rules.play.rule": "checked: verifier.notes",
    "examples": (
        "checked: check, cli, verifier, verifier.contradictions, verifier.crosscheck, verifier.ex_sequence, "
        "verifier.examples, verifier.locate"
    ),
    "examples[].id": (
        "checked: check, verifier.crosscheck, verifier.ex_sequence, verifier.examples, verifier.locate, "
        "verifier.notes, verifier.provenance, verifier.readings"
    ),
    "examples[].rule": (
        "checked: verifier.ex_refs, verifier.ex_rules, verifier.ex_zoc_groups, verifier.examples, verifier.readings"
    ),
    "examples[].kind": "checked: check, claim_keys, cli, verifier.ex_movement, verifier.ex_sequence, verifier.examples",
    "examples[].summary": "checked: verifier.crosscheck",
    "examples[].given": (
        "checked: check, claim_keys, verifier.contradictions, verifier.core, verifier.crosscheck, "
        "verifier.ex_claims, verifier.ex_classic, verifier.ex_combat, verifier.ex_limits, verifier.ex_map, "
        "verifier.ex_modifiers, verifier.ex_movement, verifier.ex_results, verifier.ex_rules, "
        "verifier.ex_sequence, verifier.ex_support, verifier.ex_zoc_groups, verifier.examples, "
        "verifier.readings"
    ),
    "examples[].states": (
        "checked: check, claim_keys, verifier.core, verifier.crosscheck, verifier.ex_claims, "
        "verifier.ex_classic, verifier.ex_combat, verifier.ex_limits, verifier.ex_map, verifier.ex_modifiers, "
        "verifier.ex_move_rules, verifier.ex_movement, verifier.ex_phases, verifier.ex_refs, "
        "verifier.ex_results, verifier.ex_rules, verifier.ex_scenario, verifier.ex_sequence, "
        "verifier.ex_support, verifier.ex_units, verifier.ex_victory, verifier.ex_zoc_groups, "
        "verifier.examples, verifier.locate, verifier.readings"
    ),
    "examples[].doubt": "checked: verifier.examples, verifier.locate",
    "examples[].source_line": (
        "checked: check, verifier.examples, verifier.locate, verifier.provenance, verifier.readings"
    ),
    "examples[].stated_elsewhere": "checked: check, verifier.examples, verifier.provenance",
    "examples[].stated_otherwise": "checked: check, verifier.examples, verifier.provenance",
    "examples[].follows": "checked: check, verifier.ex_sequence",
    "examples[].readings": "checked: check, verifier.examples, verifier.locate, verifier.readings",
    "examples[].readings[].reading": "checked: verifier.readings",
    "examples[].readings[].given": "checked: check, verifier.readings",
    "examples[].readings[].states": "checked: check, verifier.locate, verifier.readings",
}
"""Field path -> its readers (see the module docstring): every field of the model, in the model's order."""
