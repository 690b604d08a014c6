"""Data notes: the remarks a game file addresses to its designer or data author (``data_note``), listed by
``forge verify``.

A ``note`` is printed on the components players hold; a ``data_note`` never is.  It says where a value came from,
what the rulebook leaves unknown, or how something was derived or reconstructed -- what someone checking or
editing the data must know, and no player needs at the table.  So the verify report is where it is read: one
``data-note`` finding (severity info, :mod:`.policy`) for each, in the order of the file, citing the rule of the
item it is on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


from .. import model as m
from .core import Context

__all__ = ["check_notes", "data_notes"]


def data_notes(game: m.Game) -> list[tuple[str, str, str | None, str]]:
    """Every data note of ``game`` as ``(where, what, rule, text)``: ``where`` the key path of the item it is on
    (list items named by their id where they have one, ``tables[weather]``), ``what`` the item in words
    (``table Weather``, ``turn 3``), ``rule`` the item's rule number (or its parent's)."""
    return list(_walk(game, "", "the game", None))


def _label(obj: m.Base, key: str, parent: str) -> str:
    """The item a data note is on, as the report names it."""
    if isinstance(obj, m.Table):
        return f"table {obj.title}"
    if isinstance(obj, m.TerrainType):
        return f"terrain {obj.name}"
    if isinstance(obj, m.Turn):
        return f"turn {obj.number}"
    if isinstance(obj, m.SpecialRule):
        return f"special rule {obj.title}"
    if isinstance(obj, m.Scenario):
        return f"scenario {obj.name}"
    if isinstance(obj, m.Crt):
        return "the CRT"
    if isinstance(obj, m.AutoResult):
        return f"{parent}, {key.replace('_', ' ')}"
    if isinstance(obj, m.DicePool):
        return "the combat dice"
    if isinstance(obj, m.Combat | m.Map | m.Victory):
        return key
    name = getattr(obj, "name", None) or getattr(obj, "title", None) or getattr(obj, "id", None)
    return f"{key} {name}" if name else key


def _walk(obj: Any, path: str, what: str, rule: str | None) -> Iterator[tuple[str, str, str | None, str]]:
    if isinstance(obj, m.Example):
        return  # examples carry ``doubt``, reported by the example checks
    if isinstance(obj, m.Base):
        rule = getattr(obj, "rule", None) or rule
        note = getattr(obj, "data_note", None)
        if note:
            yield path, what, rule, note
        for name in type(obj).model_fields:
            value = getattr(obj, name)
            sub = f"{path}.{name}" if path else name
            if isinstance(value, m.Base):
                yield from _walk(value, sub, _label(value, name, what), rule)
            elif isinstance(value, list | dict):
                yield from _walk(value, sub, name, rule)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, m.Base):
                yield from _walk(v, f"{path}.{k}", _label(v, str(k), what), rule)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            if isinstance(v, m.Base):
                key = getattr(v, "id", None) or i
                yield from _walk(v, f"{path}[{key}]", _label(v, what, what), rule)


def check_notes(ctx: Context) -> None:
    """One ``data-note`` finding for each data note of the game."""
    for where, what, rule, text in data_notes(ctx.game):
        ctx.add("data-note", rule, f"data note on {what}: {' '.join(text.split())}", ref=where)
