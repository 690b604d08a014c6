"""Code health: no import cycle among forge's modules.

Property: the graph of forge's imports that run when a module is imported (top level, not under ``TYPE_CHECKING``)
has no cycle at all; the graph of every import, deferred ones inside functions included, has no cycle other than
the known ones listed in ``KNOWN_DEFERRED`` (each with the reason it is deferred rather than removed).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "forge"

# Cycles through imports inside functions that are known and accepted: {modules: why it is deferred, not removed}.
# None today: forge.check and forge.loader share forge.keypath; rules.state and rules.engine share rules.board.
KNOWN_DEFERRED: dict[frozenset[str], str] = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_pkg: bool, modules: set[str]) -> set[str]:
    """The forge modules an import statement loads (``from . import x`` loads the submodule x when there is one)."""
    out: set[str] = set()
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = module.split(".") if is_pkg else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = [prefix] + [f"{prefix}.{a.name}" for a in node.names]
    for name in names:
        if name in modules:
            out.add(name)
    return out


@cache  # the sources are parsed once per process for each kind of graph; no test changes a graph
def import_graph(*, deferred: bool) -> dict[str, set[str]]:
    """Module -> the forge modules it imports (at import time only, or everywhere when ``deferred``)."""
    files = {_module_name(p): p for p in PKG.rglob("*.py")}
    modules = set(files)
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()

        def visit(node: ast.AST, top: bool, module: str = module, path: Path = path, edges: set[str] = edges) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _is_type_checking(child):
                    continue
                if isinstance(child, ast.Import | ast.ImportFrom) and (top or deferred):
                    edges.update(_targets(child, module, path.name == "__init__.py", modules))
                inner = top and not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                visit(child, inner)

        visit(tree, True)
        edges.discard(module)
        # importing a.b.c first imports the packages a and a.b
        graph[module] = edges | {p for e in edges for p in _parents(e) if p in modules and p != module}
    return graph


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def _cycles_without_package_edges(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Cycles, ignoring a package's ``__init__`` re-exporting its own submodules (that is not a cycle in use)."""
    trimmed = {m: {e for e in es if not e.startswith(m + ".") and not m.startswith(e + ".")} for m, es in graph.items()}
    return cycles(trimmed)


def test_the_graph_sees_the_imports() -> None:
    """The scanner finds real edges, or the cycle tests below would pass vacuously."""
    g = import_graph(deferred=True)
    assert "forge.model" in g["forge.loader"]
    assert "forge.keypath" in g["forge.check"]
    assert "forge.builder" in g["forge.cli"]  # a deferred import (inside a function)
    assert "forge.builder" not in import_graph(deferred=False)["forge.cli"]


def test_check_and_loader_share_key_paths_without_importing_each_other() -> None:
    """The loader runs the cross-reference checks; the checks use the key-path helpers from forge.keypath, not from
    the loader (they were a deferred cycle)."""
    g = import_graph(deferred=True)
    assert "forge.check" in g["forge.loader"]
    assert "forge.loader" not in g["forge.check"]
    from forge import keypath, loader

    assert loader.dotted is keypath.dotted  # the loader's names still work
    assert loader.Document is keypath.Document


def test_no_import_cycle_at_import_time() -> None:
    assert _cycles_without_package_edges(import_graph(deferred=False)) == []


def test_no_import_cycle_but_the_known_deferred_ones() -> None:
    found = set(_cycles_without_package_edges(import_graph(deferred=True)))
    new = sorted(sorted(c) for c in found - set(KNOWN_DEFERRED))
    assert new == [], f"new import cycles (break them, or list them in KNOWN_DEFERRED with a reason): {new}"
    gone = sorted(sorted(c) for c in set(KNOWN_DEFERRED) - found)
    assert gone == [], f"cycles listed as known are gone; remove them from KNOWN_DEFERRED: {gone}"


def test_cycle_finder() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset({"a", "b", "c"})]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run and the README's test command install the same extra and run the same lint, type check and tests."""
    root = PKG.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    ci = (root / ".ci" / "run").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if "python -m pytest" in x and "pip install" in x)
    for step in ("pip install -q -e '.[dev]'", "ruff check forge tests bench", "mypy", "python -m pytest -n auto"):
        assert step in line, f"README.md's test command lacks {step!r}"
        assert step in ci, f".ci/run lacks {step!r}"
    assert line.index("ruff check") < line.index("mypy") < line.index("python -m pytest")


def test_public_names_stay_functions_after_their_modules_are_imported():
    """`forge.load`, `forge.build` and `forge.verify` are functions even once their modules are imported: the modules
    are named loader, builder and verifier, so importing them cannot rebind the package attribute."""
    import importlib

    import forge

    for name in ("load", "loads", "build", "verify", "roundtrip"):
        importlib.import_module(forge._WHERE[name])
        assert callable(getattr(forge, name)), name
    import forge.builder
    import forge.loader
    import forge.verifier

    assert callable(forge.load)
    assert callable(forge.build)
    assert callable(forge.verify)
