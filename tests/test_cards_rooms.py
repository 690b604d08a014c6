"""The reference cards' package (forge/render/cards/, issue 23 item 6): its rooms import one way, as its docstring
says, so that a newcomer finds each part in one place and no room needs the whole package to load; the package still
offers every name the single module had; and the rooms that draw nothing import nothing that draws."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import forge.render.cards as cards

ROOMS = Path(cards.__file__).resolve().parent

ALLOWED: dict[str, set[str]] = {
    # room -> the rooms it may import (one way: nothing imports a room listed after it, but story, sized, pages)
    "styles": set(),
    "flowables": {"styles"},
    "tables": {"styles"},
    "combat": {"styles", "flowables", "tables"},
    "terrain": {"styles", "flowables", "tables"},
    "turns": {"styles", "flowables", "tables"},
    "limits": {"styles", "flowables", "tables"},
    "story": {"styles", "flowables", "tables", "combat", "terrain", "turns", "limits"},
    "size": set(),
    "flow": {"styles", "flowables", "size"},
    "chrome": {"styles", "flow"},
    "sized": {"styles", "tables", "story", "flow", "chrome", "size"},
    "pages": {"styles", "story", "flow", "chrome", "sized"},
}


def _tree(room: str) -> ast.Module:
    return ast.parse((ROOMS / f"{room}.py").read_text(encoding="utf-8"))


def _siblings(room: str) -> set[str]:
    """The rooms ``room`` imports (``from .x import ...``), anywhere in its source."""
    return {
        str(node.module).split(".")[0]
        for node in ast.walk(_tree(room))
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
    }


def _modules(room: str) -> set[str]:
    """Every module ``room`` imports, relative ones resolved against forge.render.cards."""
    out: set[str] = set()
    for node in ast.walk(_tree(room)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ["forge", "render", "cards"][: 3 - node.level + 1] if node.level else []
            out.add(".".join([*base, node.module] if node.module else base))
    return out


def test_every_room_is_listed() -> None:
    assert sorted(p.stem for p in ROOMS.glob("*.py") if p.stem != "__init__") == sorted(ALLOWED)


def test_the_rooms_import_one_way() -> None:
    wrong = {room: sorted(_siblings(room) - ok) for room, ok in ALLOWED.items() if _siblings(room) - ok}
    assert wrong == {}


def test_the_allowed_imports_have_no_cycle() -> None:
    """The table above is itself one way (a cycle in it would let two rooms import each other)."""
    done: set[str] = set()

    def visit(room: str, path: tuple[str, ...]) -> None:
        assert room not in path, " -> ".join((*path, room))
        if room not in done:
            for dep in ALLOWED[room]:
                visit(dep, (*path, room))
            done.add(room)

    for room in ALLOWED:
        visit(room, ())


def test_the_size_room_draws_nothing() -> None:
    """``--card-size`` is parsed and its error made without reportlab (``forge.render.cards.size``)."""
    assert not {m for m in _modules("size") if m.startswith("reportlab")}
    assert not {m for m in _modules("size") if m.startswith("forge.render")}


def test_the_package_offers_every_name_of_its_rooms() -> None:
    """Every top-level function, class and constant of a room is importable from forge.render.cards (the single
    module's names, for the modules and tests that import them from there)."""
    missing = []
    for room in ALLOWED:
        module = importlib.import_module(f"forge.render.cards.{room}")  # (cards.story is the function, not the room)
        for node in _tree(room).body:
            names = []
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            missing += [f"{room}.{n}" for n in names if getattr(cards, n, None) is not getattr(module, n)]
    assert missing == []


def test_public_names_are_the_single_modules() -> None:
    assert set(cards.__all__) == {
        "CARD_SIZES",
        "CardBreak",
        "CardSizeError",
        "Styles",
        "card_size",
        "combat_blocks",
        "crt_blocks",
        "flow",
        "refuse_card_size",
        "render",
        "sequence_blocks",
        "shift_blocks",
        "single_card_size",
        "sized_cards",
        "story",
    }
    assert all(callable(getattr(cards, n)) or isinstance(getattr(cards, n), dict) for n in cards.__all__)
