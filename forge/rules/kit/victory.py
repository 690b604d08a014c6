"""Victory points and levels, and the entry schedule, data-driven (``victory`` and the units' ``entry``).

>>> from forge.model import Victory, VictoryLevel
>>> v = Victory(summary="", levels=[VictoryLevel(id="win", side="red", min=32), VictoryLevel(id="draw", min=28,
...     max=31), VictoryLevel(id="loss", side="blue", max=27)])
>>> level(v, 31).id, level(v, 40).id, level(v, -3).id
('draw', 'win', 'loss')
"""

from __future__ import annotations

import re

from ... import model as m

__all__ = ["arrivals", "find_item", "find_level", "hex_vp", "level", "level_range", "unit_steps_vp"]


def level(victory: m.Victory | None, score: int) -> m.VictoryLevel | None:
    """The first level whose inclusive ``min``..``max`` range holds ``score`` (levels in words never match)."""
    if victory is None:
        return None
    for lv in victory.levels:
        if lv.min is None and lv.max is None:
            continue
        if (lv.min is None or score >= lv.min) and (lv.max is None or score <= lv.max):
            return lv
    return None


def level_range(lv: m.VictoryLevel) -> str:
    """A level's range as a book prints it: ``28-31``, ``32+``, ``27-`` (at most)."""
    if lv.min is not None and lv.max is not None:
        return f"{lv.min}-{lv.max}" if lv.min != lv.max else str(lv.min)
    if lv.min is not None:
        return f"{lv.min}+"
    return f"{lv.max}-"


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def find_level(victory: m.Victory | None, name: str) -> m.VictoryLevel | None:
    """The level whose id is ``name`` (``soviet_win`` finds ``soviet-win``)."""
    if victory is None:
        return None
    hits = [lv for lv in victory.levels if _norm(lv.id) == _norm(name)]
    return hits[0] if len(hits) == 1 else None


def find_item(victory: m.Victory | None, key: str) -> m.VpItem | None:
    """The VP item a claim's key names: its id (``town``), with an optional ``per_`` in front
    (``per_cs_loss`` -> ``cs-loss``), or the last words of exactly one id (``destroyed`` -> ``dam-destroyed``)."""
    if victory is None:
        return None
    k = _norm(key)
    k = k[4:] if k.startswith("per_") else k
    items = [p for p in victory.points if p.id is not None]
    exact = [p for p in items if _norm(p.id or "") == k]
    if len(exact) == 1:
        return exact[0]
    tail = [p for p in items if _norm(p.id or "").endswith("_" + k)]
    return tail[0] if len(tail) == 1 else None


def hex_vp(game: m.Game, label: str) -> int | None:
    """VP for holding one hex: its own ``vp`` on the map, else the ``per: hex`` item whose terrain it has
    (None: neither, or unknown)."""
    info = game.map.hexes.get(label)
    if info is not None and isinstance(info.vp, int):
        return info.vp
    kinds = ({info.terrain} | set(info.features)) if info is not None else set()
    if game.map.default_terrain and (info is None or info.terrain is None):
        kinds.add(game.map.default_terrain)
    vps = [
        p.vp
        for p in (game.victory.points if game.victory else [])
        if p.per == "hex" and set(p.terrain) & kinds and isinstance(p.vp, int)
    ]
    return max(vps) if vps else None


def unit_steps_vp(unit: m.Unit) -> int:
    """A ``per: unit-steps`` item's value for a unit: its full number of steps."""
    return len(unit.steps)


def arrivals(game: m.Game, turn: int) -> list[str]:
    """Ids of the units whose ``entry`` turn is ``turn`` (the turn track's reinforcement box)."""
    return sorted(u.id for u in game.reinforcements().get(turn, []))
