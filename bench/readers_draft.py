"""Draft forge/readers.py entries for model fields that have none yet: which module reads each field, seen by running
the commands over the data games.

    python bench/readers_draft.py [GAME.yaml ...]      (default: data/*.yaml)

Every model class's attribute reads are recorded (the calling forge module, not forge.model itself) while
``check``, ``verify``, ``build``, ``export vassal`` and ``play`` run over each game; then, for every field path
:func:`forge.readers.field_paths` walks that :data:`forge.readers.READERS` lacks, one draft line is printed with
the modules that read it, by role (:func:`forge.readers.role_of`), keeping only the modules whose source reads the
name (what tests/test_readers.py asserts).  A field no run reads prints ``NONE``: give it a reader, a refusal in
forge check (``check_inert``), or a documentation-only reason.  A draft is a start: read it before you paste it.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forge import model as m
from forge import readers as R


def trace(games: list[Path]) -> dict[tuple[str, str], set[str]]:
    """(class name, field) -> the forge modules that read it while the commands ran over ``games``."""
    seen: dict[tuple[str, str], set[str]] = defaultdict(set)
    original = m.Base.__getattribute__

    def reading(self: Any, name: str) -> Any:
        cls = type(self)
        if not name.startswith("_") and name in cls.__pydantic_fields__:
            mod = sys._getframe(1).f_globals.get("__name__", "")
            if mod.startswith("forge.") and mod != "forge.model":
                seen[(cls.__name__, name)].add(mod.removeprefix("forge."))
        return original(self, name)

    from forge import cli

    m.Base.__getattribute__ = reading  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for g in games:
                for args in (
                    ["check", str(g)],
                    ["verify", str(g)],
                    ["build", str(g), "--out", tmp, "--only", "map,counters,cards,handout,images", "-q"],
                    ["export", "vassal", str(g), "--out", tmp],
                    ["play", str(g), "--games", "2", "--seed", "1"],
                ):
                    with (
                        contextlib.redirect_stdout(io.StringIO()),
                        contextlib.redirect_stderr(io.StringIO()),
                        contextlib.suppress(SystemExit),
                    ):
                        cli.main(args)
    finally:
        m.Base.__getattribute__ = original  # type: ignore[method-assign]
    return seen


def _reads(module: str) -> set[str]:
    import ast
    import importlib.util

    spec = importlib.util.find_spec(f"forge.{module}")
    if spec is None or spec.origin is None:
        return set()
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    return {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} | {
        str(n.slice.value) for n in ast.walk(tree) if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant)
    }


def draft(games: list[Path]) -> list[str]:
    """One ``"path": "entry",`` line for each field READERS lacks."""
    missing = {p: cf for p, cf in R.field_paths().items() if p not in R.READERS}
    if not missing:
        return []
    seen = trace(games)
    out = []
    for path, (cls, name) in missing.items():
        mods = sorted(x for x in seen.get((cls.__name__, name), ()) if name in _reads(x))
        by: dict[str, list[str]] = defaultdict(list)
        for x in mods:
            by[R.role_of(x) or "checked"].append(x)
        entry = "; ".join(f"{role}: {', '.join(by[role])}" for role in R.ROLES if role in by) or "NONE"
        out.append(f'    "{path}": "{entry}",')
    return out


if __name__ == "__main__":
    paths = [Path(a) for a in sys.argv[1:]] or sorted((ROOT / "data").glob("*.yaml"))
    lines = draft(paths)
    print("\n".join(lines) if lines else "every field has an entry in forge/readers.py READERS")
