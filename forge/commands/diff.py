"""``forge diff OLD.yaml NEW.yaml``: the errata between two editions of a game.

Three parts, each computed from the two validated models (never from the YAML text, so that comments, key order
and values written out at their default change nothing):

* :func:`changes` -- every changed value, named as a player would name it where its key path is one a player
  knows (``CRT 3:1, die 5: DR → EX``, ``unit 1 Pz (German): set-up B4 → C4``, ``terrain Forest: movement cost
  2 → 3``); any other changed field by its key path, so that nothing is missed.  Lists whose items carry a key
  (units, examples, shifts by ``id``; turns by ``number``; special rules by ``rule``; CRT cells by column and
  die row) are matched by that key, so an insertion is one added item, not a shift of every later one.
* :func:`effects` -- what a change to the combat results table (its cells, its dice, its results legend) does to
  the outcome of each column: the exact expected losses of each side from :mod:`forge.rules.combat`.
* :func:`finding_changes` -- the ``forge verify`` findings (as ``--no-print-check``: nothing is rendered) of the
  old edition that the new one no longer has (fixed) and those it has that the old did not (introduced),
  compared by kind, example or table, key path (list items by their key) and message with line numbers left out.

Exit status: 0 the two files are the same game, 1 they differ, 2 bad input (either file; the loader's messages).
Only the standard library is imported here; ``forge.cli`` builds its parser with :mod:`forge.commands.diff_options`
(this module is imported when the command is ``diff``).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any


if TYPE_CHECKING:
    from ..errors import Finding
    from ..model import Game

__all__ = [
    "Change",
    "Diff",
    "Effect",
    "FindingChange",
    "changes",
    "compare",
    "effects",
    "finding_changes",
    "render",
    "run",
]

EXIT_SAME, EXIT_DIFFER, EXIT_BAD_INPUT = 0, 1, 2
ARROW = "→"

SECTIONS = (
    "game",
    "CRT",
    "combat results",
    "shifts",
    "modifiers",
    "combat",
    "terrain",
    "map",
    "units",
    "set-up and entry",
    "turn track",
    "special rules",
    "tables",
    "sequence",
    "victory",
    "scenarios",
    "rules",
    "examples",
    "other",
)
"""The sections of the report, in the order they print: the named forms first, the generic fallback last."""


class Key(str):
    """A list item's key (an ``id``, a turn's ``number``, a CRT row's die label): printed ``[key]``."""

    __slots__ = ()


Path = tuple[str, ...]
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()
"""The value of a key one edition does not have."""


@dataclass(frozen=True)
class Change:
    """One changed value: ``old`` or ``new`` is None where the item was added or removed."""

    section: str
    """Which part of the game (:data:`SECTIONS`)."""
    path: str
    """The key path, list items by their key: ``units[ger-1pz].setup``."""
    text: str
    """The change named as a player would name it."""
    status: str
    """``changed``, ``added`` or ``removed``."""
    old: Any = None
    new: Any = None

    def as_json(self) -> dict[str, Any]:
        return {
            "section": self.section,
            "path": self.path,
            "text": self.text,
            "status": self.status,
            "old": self.old,
            "new": self.new,
        }


@dataclass(frozen=True)
class Effect:
    """One expectation of one CRT column that the new edition changes."""

    column: str
    """The column as printed, with its terrain section and attack kind where the table has them."""
    measure: str
    """``expected defender losses``, ``expected attacker losses``, ``expected defender retreat`` ..."""
    unit: str
    """``steps``, ``hits``, ``hexes`` or ``probability``."""
    old: Fraction | None
    new: Fraction | None
    note: str = ""
    """Why a value is missing (a cell the edition does not give)."""

    @property
    def text(self) -> str:
        if self.old is None or self.new is None:
            return f"{self.column}: {self.measure}: {self.note}"
        return f"{self.column}: {self.measure} {_dec(self.old)} {ARROW} {_dec(self.new)} {self.unit}"

    def as_json(self) -> dict[str, Any]:
        return {
            "column": self.column,
            "measure": self.measure,
            "unit": self.unit,
            "text": self.text,
            "old": _frac(self.old),
            "new": _frac(self.new),
            "note": self.note,
        }


@dataclass(frozen=True)
class FindingChange:
    """A verify finding one edition has and the other does not."""

    severity: str
    kind: str
    ref: str
    path: str
    message: str
    """The message with its line numbers left out: what two editions' findings are compared by."""
    shown: str = field(default="", compare=False)
    """The message as verify printed it (the edition's own line numbers)."""

    @property
    def text(self) -> str:
        return f"{self.severity} {self.kind}{' ' + self.ref if self.ref else ''}: {self.shown or self.message}"

    def as_json(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "kind": self.kind,
            "ref": self.ref,
            "path": self.path,
            "message": self.shown or self.message,
            "text": self.text,
        }


@dataclass(frozen=True)
class Diff:
    """Everything ``forge diff`` reports."""

    old_file: str
    new_file: str
    old_title: str
    new_title: str
    changes: list[Change] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    fixed: list[FindingChange] = field(default_factory=list)
    introduced: list[FindingChange] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not self.changes


def _dec(x: Fraction) -> str:
    return f"{float(x):.2f}"


def _frac(x: Fraction | None) -> str | None:
    if x is None:
        return None
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# ================================================================================================= the trees
KEYS = ("id", "number", "label", "name", "rule", "between")
"""The fields that key a list's items, in order of preference: the first every item has, with distinct values
(``between``, a hexside's two hexes, as ``C6|C7``)."""


def _keyed(items: list[Any]) -> dict[str, Any] | None:
    """A list of mappings as a mapping by their key field (:data:`KEYS`), or None when no field keys them all."""
    if not items or not all(isinstance(x, dict) for x in items):
        return None
    for k in KEYS:
        values = [x.get(k) for x in items]
        values = ["|".join(map(str, v)) if isinstance(v, list) and v else v for v in values]
        if all(isinstance(v, str | int) and not isinstance(v, bool) for v in values) and len(set(values)) == len(
            values
        ):
            return {Key(str(v)): x for v, x in zip(values, items, strict=True)}
    return None


def _grid(cells: Any, rows: Sequence[str], columns: Sequence[str]) -> Any:
    """CRT cells as ``{die row: {column: cell}}`` so that an added column or row is one added key per cell."""
    if not isinstance(cells, list) or len(cells) != len(rows):
        return cells
    out: dict[str, Any] = {}
    for label, row in zip(rows, cells, strict=True):
        if not isinstance(row, list) or len(row) != len(columns):
            return cells
        out[Key(label)] = {Key(c): v for c, v in zip(columns, row, strict=True)}
    return out


def tree(game: Game) -> dict[str, Any]:
    """The game as plain data with every keyed list a mapping (:func:`_keyed`) and the CRT's cells by row and
    column label."""
    data = game.model_dump(mode="json")
    crt = (data.get("combat") or {}).get("crt")
    if crt is not None:
        rows, cols = crt["rows"], crt["columns"]
        if isinstance(crt["cells"], dict) and "unknown" not in crt["cells"]:
            crt["cells"] = {Key(s): _grid(g, rows, cols) for s, g in crt["cells"].items()}
        else:
            crt["cells"] = _grid(crt["cells"], rows, cols)
        sec = crt.get("secondary")
        if sec is not None:
            sec["cells"] = _grid(sec["cells"], sec["rows"], cols)

    def walk(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            keyed = _keyed(x)
            if keyed is not None:
                return {k: walk(v) for k, v in keyed.items()}
            return [walk(v) for v in x]
        return x

    out: dict[str, Any] = walk(data)
    return out


def _leaves(old: Any, new: Any, path: Path = ()) -> Iterator[tuple[Path, Any, Any]]:
    """Every place the two trees differ: (path, old, new), MISSING where one has no such key.  Mappings are
    walked key by key (the new edition's order, then keys only the old one has); lists of plain values, and lists
    of mappings of different lengths, are one value."""
    if old == new:
        return
    # A keyed list that one edition leaves empty: each of the other's items added or removed.
    if isinstance(old, dict) and new == [] and not _is_unknown(old):
        new = {}
    if isinstance(new, dict) and old == [] and not _is_unknown(new):
        old = {}
    # A section one edition does not have at all: one addition or removal, not one per field.
    if old is None and isinstance(new, dict) and not _is_unknown(new):
        old = MISSING
    if new is None and isinstance(old, dict) and not _is_unknown(old):
        new = MISSING
    if old is MISSING or new is MISSING:
        yield path, old, new
        return
    if isinstance(old, dict) and isinstance(new, dict) and not _is_unknown(old) and not _is_unknown(new):
        for k in new:
            yield from _leaves(old.get(k, MISSING), new[k], (*path, k))
        for k in old:
            if k not in new:
                yield (*path, k), old[k], MISSING
        return
    if (
        isinstance(old, list)
        and isinstance(new, list)
        and len(old) == len(new)
        and any(isinstance(v, dict | list) for v in (*old, *new))
    ):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            yield from _leaves(a, b, (*path, str(i)))
        return
    yield path, old, new


def _is_unknown(x: Any) -> bool:
    return isinstance(x, dict) and set(x) == {"unknown"}


def dotted(path: Sequence[Any]) -> str:
    """``('units', Key('ger-1pz'), 'setup')`` -> ``units[ger-1pz].setup``; list positions as ``[0]``."""
    out = ""
    for p in path:
        if isinstance(p, Key) or (isinstance(p, str) and p.isdigit()) or isinstance(p, int):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + str(p)
    return out


# ================================================================================================= values
def show(x: Any) -> str:
    """A value as the report prints it: unknown as ``unknown``, lists inline, mappings as ``key: value``."""
    if x is MISSING or x is None:
        return "none"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if _is_unknown(x):
        why = x["unknown"]
        return f"unknown ({why})" if why else "unknown"
    if isinstance(x, list):
        return "[" + ", ".join(show(v) for v in x) + "]" if x else "none"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in x.items()) + "}"
    return str(x)


LONG = 60
"""A text longer than this is printed below its change (``was:`` and ``now:``) rather than on its line."""


def _arrow(old: Any, new: Any) -> str:
    if isinstance(old, str) and isinstance(new, str) and max(len(old), len(new)) > LONG:
        return "changed"
    return f"{show(old)} {ARROW} {show(new)}"


def _signed(x: Any) -> str:
    return f"{x:+d}" if isinstance(x, int) and not isinstance(x, bool) else show(x)


# ================================================================================================= naming
@dataclass(frozen=True)
class _Subject:
    section: str
    name: str
    rest: Path
    """The key path below the subject, named by :func:`_attr`."""


WORDS = {
    "setup": "set-up",
    "setup_zone": "set-up zone",
    "start_step": "starting step",
    "entry.turn": "entry turn",
    "entry.hex": "entry hex",
    "entry.condition": "entry condition",
    "type": "type",
    "size": "size",
    "copies": "counters",
    "shift": "shift",
    "when": "condition",
    "multiply": "multiplier",
    "add": "bonus",
    "defender_steps": "defender steps",
    "attacker_steps": "attacker steps",
    "defender_retreat": "defender retreat",
    "attacker_retreat": "attacker retreat",
    "max_columns": "maximum columns",
}


def _attr(rest: Path) -> str:
    """The attribute under a subject in words: ``entry.turn`` -> ``entry turn``, an example's ``states.column`` ->
    ``stated column``; otherwise its key path."""
    if len(rest) == 2 and rest[0] in ("states", "given"):
        return f"{'stated' if rest[0] == 'states' else 'given'} {rest[1]}"
    d = dotted(rest)
    return WORDS.get(d, d)


def _find(trees: tuple[dict[str, Any], dict[str, Any]], path: Sequence[str]) -> Any:
    """The value at ``path`` in the new tree, else the old (an item one edition removed)."""
    for t in (trees[1], trees[0]):
        x: Any = t
        for p in path:
            if isinstance(x, dict) and p in x:
                x = x[p]
            else:
                x = MISSING
                break
        if x is not MISSING and x != []:
            return x
    return {}


def _side_name(trees: tuple[dict[str, Any], dict[str, Any]], side: Any) -> str:
    sides = _find(trees, ("game", "sides"))
    if isinstance(sides, dict) and side in sides:
        return str(sides[side].get("name", side))
    return str(side)


def _unit_name(trees: tuple[dict[str, Any], dict[str, Any]], uid: str) -> str:
    u = _find(trees, ("units", uid))
    label = u.get("label") or uid
    side = _side_name(trees, u.get("side"))
    return f"unit {label} ({side})" + (f" [{uid}]" if label != uid and _duplicate_label(trees, uid) else "")


def _duplicate_label(trees: tuple[dict[str, Any], dict[str, Any]], uid: str) -> bool:
    units = _find(trees, ("units",))
    if not isinstance(units, dict) or uid not in units:
        units = _find((trees[1], trees[0]), ("units",))  # the edition that has the unit
    if not isinstance(units, dict):
        return False
    me = units.get(uid, {})
    return sum(1 for u in units.values() if u.get("label") == me.get("label") and u.get("side") == me.get("side")) > 1


UNIT_SETUP = {"setup", "setup_zone", "start_step", "pool", "entry", "returns_after"}


def _subject(path: Path, trees: tuple[dict[str, Any], dict[str, Any]]) -> _Subject:
    """Who or what a changed path belongs to, in a player's words, and the attribute path below it."""
    n = len(path)
    head = path[0] if path else ""
    if head == "combat" and n >= 2:
        part = path[1]
        if part == "crt" and n >= 3:
            crt = _find(trees, ("combat", "crt"))
            if path[2] == "cells":
                sections = crt.get("sections") or []
                cells = path[3:]
                sec = ""
                if cells and cells[0] in sections:
                    sec, cells = f" ({cells[0]})", cells[1:]
                if len(cells) == 2:
                    return _Subject("CRT", f"CRT{sec} {cells[1]}, die {cells[0]}", ())
                if len(cells) == 1:
                    return _Subject("CRT", f"CRT{sec}, die {cells[0]}", ())
                return _Subject("CRT", f"CRT{sec} cells", cells)
            if path[2] == "secondary" and n >= 6 and path[3] == "cells":
                return _Subject("CRT", f"CRT secondary table {path[5]}, die {path[4]}", path[6:])
            return _Subject("CRT", "CRT", path[2:])
        if part == "results" and n >= 3:
            rc = _find(trees, path[:3])
            meaning = rc.get("meaning")
            return _Subject("combat results", f"result {path[2]}" + (f" ({meaning})" if meaning else ""), path[3:])
        if part == "shifts" and n >= 3:
            s = _find(trees, path[:3])
            return _Subject("shifts", f"shift {path[2]} ({s.get('when', '')})", path[3:])
        if part in ("shift_caps", "cap_readings") and n >= 3:
            s = _find(trees, path[:3])
            name = f"shift cap {path[2]}"
            if part == "cap_readings":
                name += f" as {s.get('source') or 'the book elsewhere'} states it"
            return _Subject("shifts", name + (f" ({s['when']})" if s.get("when") else ""), path[3:])
        if part == "modifiers" and n >= 3:
            s = _find(trees, path[:3])
            return _Subject("modifiers", f"modifier {path[2]} ({s.get('when', '')})", path[3:])
        if part == "die_modifiers" and n >= 3:
            s = _find(trees, path[:3])
            return _Subject("modifiers", f"die modifier {path[2]} ({s.get('when', '')})", path[3:])
        return _Subject("combat", "combat", path[1:])
    if head == "terrain" and n >= 2:
        t = _find(trees, path[:2])
        name = f"terrain {t.get('name', path[1])}"
        rest = path[2:]
        if rest[:1] == ("movement",) and len(rest) == 2:
            cls = rest[1]
            return _Subject("terrain", name, ("movement cost" + ("" if cls == "all" else f" ({cls})"),))
        if rest[:1] == ("combat",) and len(rest) >= 2:
            return _Subject("terrain", name, ("combat " + dotted(rest[1:]),))
        return _Subject("terrain", name, rest)
    if head == "units" and n >= 2:
        name = _unit_name(trees, path[1])
        rest = path[2:]
        if rest and rest[0] == "steps" and len(rest) == 1:
            return _Subject("units", name, ("steps",))
        section = "set-up and entry" if rest and rest[0] in UNIT_SETUP else "units"
        return _Subject(section, name, rest)
    if head == "map" and n >= 3 and path[1] == "setup_zones":
        z = _find(trees, path[:3])
        return _Subject("set-up and entry", f"set-up zone {z.get('name') or path[2]}", path[3:])
    if head == "map" and n >= 3 and path[1] == "hexsides":
        return _Subject("map", f"hexside {path[2].replace('|', '/')}", path[3:])
    if head == "map" and n >= 3 and path[1] == "hexes":
        return _Subject("set-up and entry" if path[3:] == ("setup",) else "map", f"hex {path[2]}", path[3:])
    if head == "turns" and n >= 3 and path[1] == "turns":
        return _Subject("turn track", f"turn {path[2]}", path[3:])
    if head == "turns" and n >= 2:
        return _Subject("turn track", "turn track", path[1:])
    if head == "special_rules" and n >= 2:
        r = _find(trees, path[:2])
        title = r.get("title")
        return _Subject("special rules", f"special rule {path[1]}" + (f" ({title})" if title else ""), path[2:])
    if head == "tables" and n >= 2:
        t = _find(trees, path[:2])
        name = f"table {t.get('title') or path[1]}"
        rest = path[2:]
        if len(rest) == 4 and rest[0] == "rows" and rest[2] == "cells":
            cols = t.get("columns") or []
            i = int(rest[3])
            col = cols[i] if i < len(cols) else rest[3]
            head_ = t.get("row_header") or ""
            return _Subject("tables", f"{name}, {rest[1]}, {head_ + ' ' if head_ else ''}{col}", ())
        return _Subject("tables", name, rest)
    if head == "examples" and n >= 2:
        ex = _find(trees, path[:2])
        if len(path) >= 4 and path[2] in ("states", "given"):
            path = (*path[:3], dotted(path[3:]))  # one value stated or given, by its claim key
        return _Subject(
            "examples", f"example {path[1]}" + (f" (rule {ex['rule']})" if ex.get("rule") else ""), path[2:]
        )
    if head == "scenarios" and n >= 2:
        s = _find(trees, path[:2])
        rest = path[2:]
        name = f"scenario {s.get('name') or path[1]}"
        if len(rest) == 2 and rest[0] == "setup":
            return _Subject("set-up and entry", f"{name}, {_unit_name(trees, rest[1])}", ("set-up",))
        return _Subject("scenarios", name, rest)
    if head == "sequence" and n >= 2:
        return _Subject("sequence", f"phase {path[1]}", path[2:])
    if head in ("game", "sequence", "victory", "rules"):
        return _Subject(head, head, path[1:])
    return _Subject("other", "", path)


def _unit_faces(trees: tuple[dict[str, Any], dict[str, Any]], old: Any, new: Any) -> str:
    """A unit's steps as a player reads its counter, each printed number by what it is in the game's notation
    (``game.strength_format``): ``full strength 4 → 5``, ``reduced movement 6 → 5``."""
    from ..notation import STRENGTH_FORMS, Strength

    if not (isinstance(old, list) and isinstance(new, list)):
        return f"steps {_arrow(old, new)}"
    if len(old) != len(new):
        return f"steps {show(old)} {ARROW} {show(new)} ({len(old)} {ARROW} {len(new)} steps)"
    faces = ["full strength", "reduced"] if len(new) == 2 else [f"step {i + 1}" for i in range(len(new))]
    if len(new) == 1:
        faces = ["strength"]
    forms = [str(_find((t, t), ("game", "strength_format")) or "single") for t in trees]
    out = []
    for face, a, b in zip(faces, old, new, strict=True):
        if a == b:
            continue
        fa: Strength | None
        fb: Strength | None
        try:
            fa, fb = Strength.parse(a, forms[0]), Strength.parse(b, forms[1])
        except ValueError:
            fa = fb = None
        if fa is None or fb is None or fa.form != fb.form or fa.form == "single":
            out.append(f"{face} {a} {ARROW} {b}")
            continue
        roles = STRENGTH_FORMS[fa.form]
        out.extend(
            f"{face} {role} {x} {ARROW} {y}" for role, x, y in zip(roles, fa.figures, fb.figures, strict=True) if x != y
        )
    return ", ".join(out)


def _brief(path: Path, value: Any) -> str:
    """A few words for an added or removed item."""
    if not isinstance(value, dict):
        return show(value)
    if path[:1] == ("units",) and len(path) == 2:
        where = value.get("setup") or value.get("setup_zone")
        entry = value.get("entry")
        bits = [f"steps {show(value.get('steps'))}", str(value.get("type", ""))]
        if where:
            bits.append(f"set-up {where}")
        if isinstance(entry, dict):
            bits.append(f"enters turn {show(entry.get('turn'))}" + (f" at {entry['hex']}" if entry.get("hex") else ""))
        return "; ".join(b for b in bits if b)
    if path[:2] == ("combat", "shifts") and len(path) == 3:
        return f"{_signed(value.get('shift'))} column{'s' if abs(value.get('shift') or 0) != 1 else ''}"
    if path[:1] == ("examples",) and len(path) == 2:
        return f"states {show(value.get('states', {}))}"
    return ""


def name_change(path: Path, old: Any, new: Any, trees: tuple[dict[str, Any], dict[str, Any]]) -> Change:
    """One difference of the two trees as a :class:`Change`."""
    status = "added" if old is MISSING else "removed" if new is MISSING else "changed"
    subj = _subject(path, trees)
    rest = subj.rest
    if path[:1] == ("units",) and rest == ("steps",) and status == "changed":
        text = f"{subj.name}: {_unit_faces(trees, old, new)}"
    elif not rest:
        if status == "changed":
            text = f"{subj.name}: {_arrow(old, new)}"
        else:
            b = _brief(path, new if status == "added" else old)
            text = f"{subj.name} {status}" + (f": {b}" if b else "")
    else:
        attr = _attr(rest)
        prefix = f"{subj.name}: " if subj.name else ""
        if status == "changed":
            text = f"{prefix}{attr} {_arrow(old, new)}"
        else:
            b = _brief(path, new if status == "added" else old)
            text = f"{prefix}{attr} {status}" + (f": {b}" if b else "")
    return Change(
        subj.section,
        dotted(path),
        text,
        status,
        None if old is MISSING else old,
        None if new is MISSING else new,
    )


def changes(old: Game, new: Game) -> list[Change]:
    """Every difference between the two games, by section (:data:`SECTIONS`), in each section in the new
    edition's order (then what only the old one has)."""
    trees = (tree(old), tree(new))
    found = [name_change(p, a, b, trees) for p, a, b in _leaves(*trees)]
    rank = {s: i for i, s in enumerate(SECTIONS)}
    return [c for _, c in sorted(enumerate(found), key=lambda ic: (rank[ic[1].section], ic[0]))]


# ================================================================================================= effects
def _columns(game: Game) -> dict[tuple[str | None, str, str], Any]:
    """Each (terrain section, column, attack) of the CRT with its exact expectations, or the reason there are
    none (a string)."""
    from ..model import CellFormat, Unknown
    from ..rules import combat as cb

    crt = game.combat.crt
    if crt is None:
        return {}
    sections: list[str | None] = list(crt.sections or crt.cells) if isinstance(crt.cells, dict) else [None]
    attacks = ("normal", "all-out") if crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT else ("normal",)
    out: dict[tuple[str | None, str, str], Any] = {}
    for section in sections:
        if isinstance(crt.cells, Unknown):
            continue
        for label in crt.columns:
            for attack in attacks:
                try:
                    dist = cb.losses_distribution(crt, label, game.combat.results, attack=attack, section=section)  # type: ignore[arg-type]
                except (cb.UnknownValueError, ValueError) as e:
                    out[section, label, attack] = str(e)
                    continue
                e_ = cb.expected_losses(dist)
                measures: dict[str, Fraction] = {
                    "expected attacker losses": e_.attacker,
                    "expected defender losses": e_.defender,
                    "expected defender retreat": e_.retreat,
                    "expected attacker retreat": e_.attacker_retreat,
                    "chance the defender is eliminated": sum(
                        (p for k, p in dist.items() if k.defender_eliminated), Fraction(0)
                    ),
                    "chance the attacker is eliminated": sum(
                        (p for k, p in dist.items() if k.attacker_eliminated), Fraction(0)
                    ),
                }
                out[section, label, attack] = measures
    return out


def _unit_of(measure: str, hits: bool) -> str:
    if measure.startswith("chance"):
        return ""
    if "retreat" in measure:
        return "hexes"
    return "hits" if hits and "defender" in measure else "steps"


def effects(old: Game, new: Game) -> list[Effect]:
    """The expectations of each CRT column (each terrain section and attack kind) that differ between the two
    editions: the exact distribution of one roll on the column, from the dice and the results legend."""
    from ..model import CellFormat

    a, b = _columns(old), _columns(new)
    crt = new.combat.crt
    hits = crt is not None and crt.cell_format is CellFormat.HITS_NORMAL_ALLOUT
    attacks = {k[2] for k in b}
    out: list[Effect] = []
    for key in b:
        if key not in a:
            continue
        section, label, attack = key
        name = f"CRT {label}" + (f" ({section})" if section else "")
        if len(attacks) > 1:
            name += f", {attack} attack"
        va, vb = a[key], b[key]
        if isinstance(va, str) or isinstance(vb, str):
            if isinstance(va, str) and isinstance(vb, str):
                continue
            why = f"unknown in the new edition ({vb})" if isinstance(vb, str) else f"unknown in the old edition ({va})"
            out.append(Effect(name, "outcome distribution", "", None, None, why))
            continue
        for measure, x in vb.items():
            y = va[measure]
            if x != y:
                out.append(Effect(name, measure, _unit_of(measure, hits), y, x))
    return out


# ================================================================================================= findings
_LINES = re.compile(r"\b(lines?|L)\s*\d+(\s*[-–]\s*\d+)?(\s*,\s*\d+(\s*[-–]\s*\d+)?)*", re.IGNORECASE)


def _natural(data: Any, path: Sequence[str | int]) -> str:
    """A finding's key path in the game's plain ``data`` with list positions replaced by the items' keys, as
    :func:`tree` keys them."""
    x: Any = data
    out: list[str] = []
    for p in path:
        if isinstance(p, int) and isinstance(x, list):
            keyed = _keyed(x)
            item = x[p] if 0 <= p < len(x) else None
            if keyed is not None and item is not None:
                k = next(k for k, v in keyed.items() if v is item)
                out.append(Key(k))
            else:
                out.append(str(p))
            x = item
        else:
            out.append(str(p))
            x = x.get(p) if isinstance(x, dict) else None
    return dotted(out)


def _finding_key(data: Any, f: Finding) -> FindingChange:
    from ..verifier import severity

    message = f.message
    if f.ref and message.startswith(f"{f.ref}: "):
        message = message[len(f.ref) + 2 :]  # the ref is printed before it
    key = _LINES.sub(lambda mt: mt.group(1) + " N", message)
    return FindingChange(severity(f), f.kind, f.ref or "", _natural(data, f.path), key, message)


def verify_keys(game: Game, doc: Any) -> set[FindingChange]:
    """The findings of ``forge verify --no-print-check`` as comparable keys."""
    from ..verifier import verify

    data = game.model_dump(mode="json")
    return {_finding_key(data, f) for f in verify(game, doc)}


def finding_changes(old: tuple[Game, Any], new: tuple[Game, Any]) -> tuple[list[FindingChange], list[FindingChange]]:
    """The findings the new edition fixes (the old one's that it no longer has) and those it introduces."""
    a, b = verify_keys(*old), verify_keys(*new)
    order = {"error": 0, "warning": 1, "info": 2}

    def key(x: FindingChange) -> tuple[Any, ...]:
        return order.get(x.severity, 3), x.kind, x.ref, x.path, x.message

    return sorted(a - b, key=key), sorted(b - a, key=key)


# ================================================================================================= report
def compare(old_file: str, old: tuple[Game, Any], new_file: str, new: tuple[Game, Any]) -> Diff:
    """The whole report for two loaded editions (each the game and the document it was read from)."""
    found = changes(old[0], new[0])
    if not found:  # the same game: the same findings and outcomes, so neither is computed
        return Diff(old_file, new_file, old[0].game.title, new[0].game.title)
    fixed, introduced = finding_changes(old, new)
    return Diff(
        old_file,
        new_file,
        old[0].game.title,
        new[0].game.title,
        found,
        effects(old[0], new[0]),
        fixed,
        introduced,
    )


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def render(d: Diff, fmt: str = "text") -> str:
    """The report as text, JSON (keys sorted) or Markdown; the same inputs give the same bytes."""
    if fmt == "json":
        import json  # not at the top: forge --version imports this module's options and no json (test_startup)

        return (
            json.dumps(
                {
                    "old": {"file": d.old_file, "title": d.old_title},
                    "new": {"file": d.new_file, "title": d.new_title},
                    "same": d.same,
                    "changes": [c.as_json() for c in d.changes],
                    "effects": [e.as_json() for e in d.effects],
                    "findings": {
                        "fixed": [f.as_json() for f in d.fixed],
                        "introduced": [f.as_json() for f in d.introduced],
                    },
                },
                sort_keys=True,
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )
    md = fmt == "markdown"
    lines: list[str] = []
    title = d.new_title if d.old_title == d.new_title else f"{d.old_title} {ARROW} {d.new_title}"
    if md:
        lines += [f"# Changes: {title}", "", f"`{d.old_file}` {ARROW} `{d.new_file}`", ""]
    else:
        lines.append(f"{title}: {d.old_file} {ARROW} {d.new_file}")
    if d.same:
        lines.append("The same game: no value differs.")
        return "\n".join(lines) + "\n"
    lines.append(
        f"{_n(len(d.changes), 'change')}; {_n(len(d.effects), 'changed expectation')} of the CRT; "
        f"verify findings: {len(d.fixed)} fixed, {len(d.introduced)} introduced."
    )

    def heading(text: str) -> None:
        lines.append("")
        lines.append(f"## {text}" if md else text)
        if md:
            lines.append("")

    def item(text: str) -> None:
        lines.append(f"- {text}" if md else f"  {text}")

    section = None
    for c in d.changes:
        if c.section != section:
            section = c.section
            heading(section[:1].upper() + section[1:])
        item(c.text)
        if c.status == "changed" and c.text.endswith(" changed") and isinstance(c.old, str):
            pad = "  - " if md else "    "
            lines.append(f"{pad}was: {c.old}")
            lines.append(f"{pad}now: {c.new}")
    if d.effects:
        heading("Effect on combat outcomes (one roll, exact)")
        for e in d.effects:
            item(e.text)
    for what, found in (("fixed", d.fixed), ("introduced", d.introduced)):
        heading(f"Verify findings {what} ({len(found)})")
        for f in found:
            item(f"`{f.kind}` {f.ref}: {f.message} ({f.severity})" if md else f.text)
        if not found:
            item("none")
    return "\n".join(lines) + "\n"


# ================================================================================================= command
def _load(path: str) -> tuple[Game, Any] | None:
    """The game and its document, or None after saying why not (:func:`forge.commands.load_or_say`)."""
    from . import load_or_say

    loaded: tuple[Game, Any] | None = load_or_say(path, document=True)
    return loaded


def run(args: argparse.Namespace) -> int:
    old, new = _load(args.old), _load(args.new)
    if old is None or new is None:
        return EXIT_BAD_INPUT
    d = compare(args.old, old, args.new, new)
    sys.stdout.write(render(d, args.format))
    return EXIT_SAME if d.same else EXIT_DIFFER
