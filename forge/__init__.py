"""Hexforge: make and check hex-and-counter wargames on paper from one YAML file.

>>> import forge
>>> game = forge.load("data/hells_gate.yaml")            # doctest: +SKIP
>>> forge.build(game, Path("output"), forge.BuildOptions())  # doctest: +SKIP
>>> findings = forge.verify(game)                        # doctest: +SKIP

The names below are imported on first use, so that ``forge --version`` and ``forge --help`` stay instant.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing here would widen the window in which Ctrl-C gives a traceback
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

__all__ = ["BuildOptions", "Finding", "Game", "LoadError", "build", "load", "loads", "roundtrip", "verify"]

_WHERE = {
    "BuildOptions": "forge.builder",
    "build": "forge.builder",
    "Finding": "forge.errors",
    "LoadError": "forge.errors",
    "Game": "forge.model",
    "load": "forge.loader",
    "loads": "forge.loader",
    "roundtrip": "forge.verifier.readback",
    "verify": "forge.verifier",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'forge' has no attribute {name!r}")
