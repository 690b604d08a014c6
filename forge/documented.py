"""A second copy of a forge module whose pydantic models read their fields' docstrings.

Reading the docstrings (pydantic's ``use_attribute_docstrings``) parses a module's source with ``ast`` as its classes
are made: tens of milliseconds that only the JSON Schemas need.  So :mod:`forge.model` and :mod:`forge.templates`
read them only when loaded under their "documented" name (``use_attribute_docstrings=__name__ == ...``), which
:func:`copy_of` gives them for ``forge schema`` and the template schemas (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["copy_of"]


def copy_of(name: str, path: Path) -> ModuleType:
    """The module in ``path`` loaded (once) under ``name``, registered in ``sys.modules`` (pydantic resolves the
    annotations through it); a failed load leaves no half-made module there."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a file of this package
        raise ImportError(f"cannot load {name} from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
