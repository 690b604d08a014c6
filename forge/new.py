"""``forge new``: a complete, playable game to start from.

The game is Ferry Point, a teaching game written for Hexforge (``forge/games/new_hex.yaml``; on squares,
``new_square.yaml``): a 7x5 map with woods, a river and three villages, two sides whose every strength is known, an
odds CRT with column shifts, a terrain chart, a turn track with reinforcements, victory points, its rules in the
special rules, and worked examples that ``forge verify`` recomputes.  The file written is that game with the new
game's id and title; ``data/ferry_point.yaml`` is the same game under its own name (a test keeps it so).

>>> text = game_text("River Crossing", "hex")
>>> "  id: river_crossing\\n  title: River Crossing\\n" in text
True
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

__all__ = ["GRIDS", "NewGameError", "game_id", "game_text", "write"]

GRIDS = ("hex", "square")
SCHEMA = "hexforge.schema.json"
"""The JSON Schema ``forge new`` writes next to the game file, for editor completion."""


class NewGameError(ValueError):
    """A name or a target ``forge new`` cannot use."""


def game_id(name: str) -> str:
    """The game id of a name: lower case, words joined by ``_`` (``"River Crossing"`` -> ``river_crossing``)."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    if not words or not words[0][0].isalpha():
        raise NewGameError(f"game name {name!r}: expected a name starting with a letter, such as 'River Crossing'")
    return "_".join(words)


def _title(name: str) -> str:
    title = " ".join(name.replace("_", " ").replace("-", " ").split())
    return title if any(c.isupper() for c in title) else title.title()


def game_text(name: str, grid: str = "hex", schema: str = f"./{SCHEMA}") -> str:
    """The YAML of the new game called ``name`` on a ``grid`` (hex or square) map, pointing at ``schema``."""
    if grid not in GRIDS:
        raise NewGameError(f"--grid {grid!r}: expected one of {', '.join(GRIDS)}")
    title = _title(name)
    if any(c in title for c in "\"'\\:#") or len(title) > 80:
        raise NewGameError(f"game name {name!r}: expected at most 80 letters, digits and spaces")
    template = resources.files("forge.games").joinpath(f"new_{grid}.yaml").read_text(encoding="utf-8")
    return (
        template.replace("__SCHEMA__", schema, 1).replace("__ID__", game_id(name), 1).replace("__TITLE__", title, 1)
    )


def write(name: str, grid: str, out: Path, schema_json: str) -> Path:
    """Write ``<out>/<id>.yaml``, and the JSON Schema (``schema_json``, as ``forge schema`` prints it) beside it
    unless one is there; refuse to overwrite a game."""
    text = game_text(name, grid)
    target = out / f"{game_id(name)}.yaml"
    if target.exists():
        raise NewGameError(f"{target}: a file of that name exists; choose another name or --out folder")
    out.mkdir(parents=True, exist_ok=True)
    schema = out / SCHEMA
    if not schema.exists():
        schema.write_text(schema_json, encoding="utf-8")
    target.write_text(text, encoding="utf-8")
    return target
