"""One module per command beyond build, check and verify (``forge play`` ...): forge.cli only parses the command
line and calls the command's ``run(args)``."""

from __future__ import annotations

from typing import Any


def load_or_say(path: str, *, document: bool = False) -> Any:
    """The game in ``path`` (with ``document``: the game and the document it was read from), or None after
    printing its problems to stderr, one a line, and their count, as ``forge check`` does (the caller exits 2)."""
    import sys

    from ..errors import LoadError
    from ..loader import load, load_document

    try:
        return load_document(path) if document else load(path)
    except LoadError as e:
        for problem in e.problems:
            print(problem, file=sys.stderr)
        k = len(e.problems)
        print(f"{path or repr(path)}: {k} problem{'s' if k != 1 else ''}", file=sys.stderr)
        return None
