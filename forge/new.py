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

import os
import re
import tempfile
import unicodedata
from importlib import resources
from pathlib import Path

__all__ = ["GRIDS", "NewGameError", "game_id", "game_text", "write"]

GRIDS = ("hex", "square")
SCHEMA = "hexforge.schema.json"
"""The JSON Schema ``forge new`` writes next to the game file, for editor completion."""


MAX_ID = 64
"""The longest game id (:data:`forge.model.Id`): ids name output folders."""

_LATIN = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i"})
"""Latin letters that no accent-stripping decomposition turns into a-z."""


class NewGameError(ValueError):
    """A name or a target ``forge new`` cannot use."""


def _short(name: str) -> str:
    """The name for a message: its repr, cut short with its length when it is long."""
    return repr(name) if len(name) <= 40 else f"{name[:30]!r}... ({len(name)} characters)"


def _checked(name: str) -> str:
    """``name``, or a :class:`NewGameError` when it is not text (bytes that are not UTF-8 reach Python's argv as
    lone surrogates) or holds a control character (a tab, a newline, an escape)."""
    bad = next((c for c in name if unicodedata.category(c) in ("Cs", "Cc") and not c.isspace()), None)
    if bad is not None:
        what = "bytes that are not UTF-8" if unicodedata.category(bad) == "Cs" else f"the control character {bad!r}"
        raise NewGameError(f"game name {_short(name)}: it holds {what}; expected letters, digits and spaces")
    return name


def game_id(name: str) -> str:
    """The game id of a name: lower case, words joined by ``_`` (``"River Crossing"`` -> ``river_crossing``); letters
    with accents lose them (``"Ärger im Tal"`` -> ``arger_im_tal``)."""
    plain = unicodedata.normalize("NFKD", _checked(name).lower().translate(_LATIN))
    words = re.findall(r"[a-z0-9]+", "".join(c for c in plain if not unicodedata.combining(c)))
    if not words or not words[0][0].isalpha():
        raise NewGameError(
            f"game name {_short(name)}: expected a name starting with a letter, such as 'River Crossing' (the game "
            "id, which names its files and folders, is made of Latin letters a-z, digits and _)"
        )
    gid = "_".join(words)
    if len(gid) > MAX_ID:
        raise NewGameError(
            f"game name {_short(name)}: its id would be {len(gid)} characters long; expected at most {MAX_ID} "
            "(the id names the game's files and folders): use a shorter name"
        )
    return gid


def _title(name: str) -> str:
    title = " ".join(name.replace("_", " ").replace("-", " ").split())
    return title if any(c.isupper() for c in title) else title.title()


def game_text(name: str, grid: str = "hex", schema: str = f"./{SCHEMA}") -> str:
    """The YAML of the new game called ``name`` on a ``grid`` (hex or square) map, pointing at ``schema``."""
    if grid not in GRIDS:
        raise NewGameError(f"--grid {grid!r}: expected one of {', '.join(GRIDS)}")
    title = _title(_checked(name))
    if any(c in title for c in "\"'\\:#") or len(title) > 80:
        raise NewGameError(f"game name {_short(name)}: expected at most 80 letters, digits and spaces")
    template = resources.files("forge.games").joinpath(f"new_{grid}.yaml").read_text(encoding="utf-8")
    return (
        template.replace("__SCHEMA__", schema, 1).replace("__ID__", game_id(name), 1).replace("__TITLE__", title, 1)
    )


def write(name: str, grid: str, out: Path, schema_json: str) -> Path:
    """Write ``<out>/<id>.yaml``, and the JSON Schema (``schema_json``, as ``forge schema`` prints it) beside it
    unless one is there; refuse to overwrite a game.  Each file is written whole to a temporary next to it and then
    linked into place, which fails when a file of that name appeared meanwhile: an interruption (Ctrl-C) or a full
    disk leaves no half-written file, and a file that exists is never replaced."""
    text = game_text(name, grid)
    target = out / f"{game_id(name)}.yaml"
    if os.path.lexists(target):
        raise NewGameError(f"{target}: a file or folder of that name exists; choose another name or --out folder")
    out.mkdir(parents=True, exist_ok=True)
    if not _place(target, text):
        raise NewGameError(f"{target}: a file or folder of that name exists; choose another name or --out folder")
    _place(out / SCHEMA, schema_json)  # the schema already there (another game's) is as good
    return target


def _place(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` unless something is there; whether it was written."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    except OSError as e:  # a read-only folder: name the file asked for, not the temporary
        e.filename = str(path)
        raise
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        mask = os.umask(0o022)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # mkstemp makes 0600: as readable as any file the user makes
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError:  # a file system without hard links (FAT, some network shares): create it, never replace
            try:
                with open(path, "x", encoding="utf-8") as fh:
                    fh.write(text)
            except FileExistsError:
                return False
        return True
    finally:
        os.unlink(tmp)
