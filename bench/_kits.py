"""Synthetic games for the benchmarks, and the two kits of issue 11 written as data files in bench/kits/.

:func:`synthetic` makes the YAML text of a game of any size (a grid of hexes with varied terrain and towns, two-step
units on each side, markers, a turn track, an odds CRT); bench_build.py, bench_estimate.py and run.py use it.

The kits are the workloads of the issue's LaTeX comparison (the `wargame` package), kept as files so that anyone
can rerun either side on the same content:

- ``small.yaml``: a 7x7 hex map with a CRT and 70 double-sided counters (35 two-step units a side), built with
  ``--counter-size 1/2in`` on Letter;
- ``large.yaml``: a 30x40 = 1,200-hex map on a 22x34 in sheet and 280 double-sided counters (140 two-step units a
  side), built with ``--paper tabloid --counter-size 1/2in`` (the map is tiled over tabloid sheets).

Run ``python bench/_kits.py`` to rewrite bench/kits/ from :data:`KITS` (tests/test_bench.py checks the files are
what this writes).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
KITS_DIR = ROOT / "bench" / "kits"

TERRAINS = ["clear", "woods", "marsh", "hills"]
TYPES = ["infantry", "armour", "mechanised", "cavalry", "artillery"]


def _label(c: int, r: int, xxyy: bool) -> str:
    """The printed label of the 0-based column ``c`` and row ``r``."""
    return f"{c + 1:02d}{r + 1:02d}" if xxyy else f"{c + 1},{r + 1}"


def synthetic(
    columns: int,
    rows: int,
    units_per_side: int = 10,
    markers: int = 0,
    turns: int = 12,
    listed: int = 20_000,
    hex_size: str = "0.6in",
    *,
    sheet: str | None = None,
    setup: bool = False,
    road: bool = False,
    river: bool = False,
    game_id: str = "synthetic",
    title: str = "Synthetic Game",
    source: str = "bench/_kits.py",
) -> str:
    """YAML text of a synthetic game.

    ``columns`` x ``rows`` flat-topped hexes (the first ``listed`` with varied terrain, a town every 37th, the rest
    the default terrain), ``units_per_side`` two-step units a side (each one double-sided counter), ``markers``
    markers in 10 kinds, ``turns`` turns.  Units enter on a turn, or with ``setup`` start on the map (the red side
    from the top rows, the blue side from the bottom).  ``road`` adds a road across the map's fifth row (or its
    middle row when it has fewer), ``river`` a river along the hexsides below its middle row.  ``sheet`` is the
    printed size (default: the grid's own size)."""
    hexes: dict[str, Any] = {}
    xxyy = max(columns, rows) <= 99
    for n in range(min(listed, columns * rows)):
        c, r = n % columns, n // columns
        label = _label(c, r, xxyy)
        entry: dict[str, Any] = {"terrain": TERRAINS[(c * 7 + r * 3) % 4]}
        if (c + r) % 37 == 0:
            entry["name"] = f"Town {label}"
            entry["features"] = ["town"]
        hexes[label] = entry
    units = []
    for side in ("red", "blue"):
        for i in range(units_per_side):
            unit: dict[str, Any] = {
                "id": f"{side}-{i}",
                "side": side,
                "name": f"{i + 1}th {TYPES[i % 5].title()}",
                "label": str(i + 1),
                "type": TYPES[i % 5],
                "size": ["X", "XX", "XXX"][i % 3],
                "steps": [f"{4 + i % 5}-{3 + i % 4}-{6 + i % 3}", f"{2 + i % 3}-{1 + i % 2}-{6 + i % 3}"],
            }
            if setup:
                col = i % columns
                row = (i // columns) % rows
                unit["setup"] = _label(col, row if side == "red" else rows - 1 - row, xxyy)
            else:
                unit["entry"] = {"turn": 1 + i % turns}
            units.append(unit)
    kinds = 10 if markers else 0
    marker_list = [
        {"id": f"mk-{k}", "name": f"Marker {k}", "front": f"M{k}", "back": f"B{k}", "count": markers // kinds}
        for k in range(kinds)
    ]
    terrain: dict[str, Any] = {
        "clear": {"name": "Clear", "movement": {"all": 1}},
        "woods": {"name": "Woods", "pattern": "trees", "colour": "#9cc47f", "movement": {"all": 2}},
        "marsh": {"name": "Marsh", "pattern": "marsh", "colour": "#b7d3c8", "movement": {"all": 3}},
        "hills": {"name": "Hills", "pattern": "hills", "colour": "#d9c29a", "movement": {"all": 2}},
        "town": {"name": "Town", "kind": "feature", "symbol": "town", "movement": {"all": 1}},
    }
    game_map: dict[str, Any] = {
        "grid": {
            "kind": "hex",
            "orientation": "flat",
            "parity": "even",
            "columns": columns,
            "rows": rows,
            "labels": "xxyy" if xxyy else "col,row",
        },
    }
    if sheet is not None:
        game_map["sheet"] = sheet
    game_map |= {"hex_size": hex_size, "status": "complete", "default_terrain": "clear", "hexes": hexes}
    if river and rows > 1:
        # flat-topped hexes: (c, r) and (c, r + 1) always share a hexside, so this is one continuous river line
        r = rows // 2 - 1
        game_map["hexsides"] = [
            {"between": [_label(c, r, xxyy), _label(c, r + 1, xxyy)], "features": ["river"]} for c in range(columns)
        ]
        terrain["river"] = {
            "name": "River",
            "kind": "hexside",
            "colour": "#3b7dd8",
            "movement": {"all": 1},
            "combat": {"text": "One column left", "shift": -1},
        }
    if road:
        # (c, r) and (c + 1, r) are always neighbours on a flat-topped grid
        r = 4 if rows > 4 else rows // 2
        game_map["paths"] = [{"kind": "road", "hexes": [_label(c, r, xxyy) for c in range(columns)]}]
        terrain["road"] = {"name": "Road", "kind": "path", "colour": "#7a5a3a", "movement": {"all": 0.5}}
    game = {
        "format": 1,
        "game": {
            "id": game_id,
            "title": title,
            "source": source,
            "scale": {"km_per_hex": 10, "days_per_turn": 2},
            "sides": [
                {"id": "red", "name": "Red", "colour": "#c8102e"},
                {"id": "blue", "name": "Blue", "colour": "#1f4e9c"},
            ],
            "first_side": "red",
            "strength_format": "attack-defense-movement",
        },
        "map": game_map,
        "terrain": terrain,
        "units": units,
        "markers": marker_list,
        "turns": {"turns": [{"number": n} for n in range(1, turns + 1)]},
        "combat": {
            "kind": "odds",
            "crt": {
                "columns": ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"],
                "rows": ["1", "2", "3", "4", "5", "6"],
                "cells": [["AE", "AR", "DR", "DR", "DE", "DE", "DE"]] * 6,
            },
            "results": {
                "AE": {"meaning": "Attacker eliminated"},
                "AR": {"meaning": "Attacker retreats"},
                "DR": {"meaning": "Defender retreats"},
                "DE": {"meaning": "Defender eliminated"},
            },
        },
    }
    return yaml.safe_dump(game, sort_keys=False, default_flow_style=None, width=118)


@dataclass(frozen=True)
class Kit:
    """A benchmark workload kept as a data file: the game and the build options it is measured with."""

    name: str
    description: str
    build_args: tuple[str, ...]
    params: dict[str, Any]

    @property
    def path(self) -> Path:
        return KITS_DIR / f"{self.name}.yaml"

    def text(self) -> str:
        """The file's text: a header comment, then the game."""
        head = (
            "# yaml-language-server: $schema=../../docs/hexforge.schema.json\n"
            f"# {self.description}\n"
            f"# Built in bench/run.py with: forge build bench/kits/{self.name}.yaml {' '.join(self.build_args)}\n"
            "# Generated by bench/_kits.py (python bench/_kits.py rewrites it): edit the generator, not this file.\n"
        )
        return head + synthetic(**self.params)


KITS = {
    k.name: k
    for k in (
        Kit(
            "small",
            "Small kit (issue 11): a 7x7 hex map with a CRT and 70 double-sided 1/2 in counters.",
            ("--counter-size", "1/2in"),
            {
                "columns": 7,
                "rows": 7,
                "units_per_side": 35,
                "hex_size": "1in",
                "sheet": "7x8in",
                "setup": True,
                "road": True,
                "river": True,
                "game_id": "bench_small",
                "title": "Bench Small Kit",
                "source": "bench/_kits.py",
            },
        ),
        Kit(
            "large",
            "Large kit (issue 11): a 30x40 hex map on a 22x34 in sheet and 280 double-sided 1/2 in counters.",
            ("--paper", "tabloid", "--counter-size", "1/2in"),
            {
                "columns": 30,
                "rows": 40,
                "units_per_side": 140,
                "hex_size": "0.83in",
                "sheet": "22x34in",
                "setup": True,
                "road": True,
                "river": True,
                "game_id": "bench_large",
                "title": "Bench Large Kit",
                "source": "bench/_kits.py",
            },
        ),
    )
}


def main() -> None:
    KITS_DIR.mkdir(exist_ok=True)
    for kit in KITS.values():
        kit.path.write_text(kit.text(), encoding="utf-8")
        print(kit.path.relative_to(ROOT), file=sys.stderr)


if __name__ == "__main__":
    main()
