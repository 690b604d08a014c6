"""``forge new``: a complete, playable game to start from, on one of two systems.

``--system hits`` (the default) writes Ferry Point's system, a teaching game written for Hexforge
(``forge/games/new_hex.yaml``; on squares, ``new_square.yaml``): a 7x5 map with woods, a river and three villages,
two sides whose every strength is known, an odds CRT of hits with column shifts, a terrain chart, a turn track with
reinforcements, victory points, its rules in the special rules, and worked examples that ``forge verify``
recomputes.  ``data/ferry_point.yaml`` is that game under its own name (a test keeps it so).

``--system classic`` writes the genre's standard rules (``new_classic_hex.yaml``, played by
:mod:`forge.rules.classic`): a 10x8 map with a stream, a road and a railway, twenty strength-movement counters
("4-4") and a set-up zone per side, movement points and terrain costs, zones of control that stop a move, rail
movement, an odds CRT of result codes (AE AR DR DE EX) with a floor and a ceiling, retreats and advances,
replacements, and a city whose holder wins.

The file written is the template with the new game's id and title; the template's own place and unit names (Ferry
Point's ferry, village and guard) become neutral words unless the new game is called by the template's own title.
A name may be in any script: the id (which names files and folders) is made of a-z, 0-9 and ``_``, transliterated
where it can be (accents dropped, Cyrillic and Greek spelled in Latin letters), with a short hash of the title added
where some letter has no such spelling (``"東京"`` -> ``game_<8 hex digits>``).  A name must start with a letter:
``"1st game"`` or an emoji alone is refused.

>>> text = game_text("River Crossing", "hex")
>>> "  id: river_crossing\\n  title: River Crossing\\n" in text
True
>>> game_id("Тихоновка"), game_id("Ärger im Tal")
('tikhonovka', 'arger_im_tal')
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import unicodedata
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

__all__ = ["GRIDS", "SYSTEMS", "NewGameError", "game_id", "game_text", "write"]

GRIDS = ("hex", "square")
SYSTEMS = ("hits", "classic")
"""The rules a new game is written on: ``hits`` (Ferry Point's, the default) or ``classic`` (the standard kit)."""
SCHEMA = "hexforge.schema.json"
"""The JSON Schema ``forge new`` writes next to the game file, for editor completion."""


@dataclass(frozen=True)
class Template:
    """One game ``forge new`` writes: its file in forge/games, its own title, and its own words (``__TOKEN__``
    -> (the word under the template's own title, the neutral word under any other))."""

    file: str
    own_title: str | None = None
    words: dict[str, tuple[str, str]] = field(default_factory=dict)


_FERRY_WORDS = {
    "__GUARD_LABEL__": ("FG", "LG"),
    "__GUARD__": ("Ferry Guard", "Landing Guard"),
    "__PLACE__": ("Ferry Point", "Landing"),
    "__CROSSING__": ("Ferry", "Ford"),
}

TEMPLATES: dict[tuple[str, str], Template] = {
    ("hits", "hex"): Template("new_hex.yaml", "Ferry Point", _FERRY_WORDS),
    ("hits", "square"): Template("new_square.yaml", "Ferry Point", _FERRY_WORDS),
    ("classic", "hex"): Template("new_classic_hex.yaml"),
}
"""The template of each (system, grid); the classic game is drawn on hexes only."""

MAX_ID = 64
"""The longest game id (:data:`forge.model.Id`): ids name output folders."""

_LATIN = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i"})
"""Latin letters that no accent-stripping decomposition turns into a-z."""

_SPELL = str.maketrans(
    {
        **dict(zip("абвгдезиклмнопрстуфыэ", "abvgdeziklmnoprstufye", strict=True)),
        **{
            "ё": "yo",
            "ж": "zh",
            "й": "y",
            "х": "kh",
            "ц": "ts",
            "ч": "ch",
            "ш": "sh",
            "щ": "shch",
            "ъ": "",
            "ь": "",
            "ю": "yu",
            "я": "ya",
            "і": "i",
            "ї": "yi",
            "є": "ye",
            "ґ": "g",
            "ў": "u",
            "ј": "j",
            "љ": "lj",
            "њ": "nj",
            "ћ": "c",
            "ђ": "dj",
            "џ": "dz",
            "ѕ": "dz",
        },
        **dict(zip("αβγδεζηικλμνξοπρσςτυφω", "avgdeziiklmnxoprsstyfo", strict=True)),
        **{"θ": "th", "χ": "ch", "ψ": "ps"},
    }
)
"""Lower-case Cyrillic and Greek letters spelled in Latin ones (a plain romanisation, for ids only)."""


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
    with accents lose them (``"Ärger im Tal"`` -> ``arger_im_tal``), Cyrillic and Greek are spelled in Latin letters
    (``"Тихоновка"`` -> ``tikhonovka``); where some letter has no such spelling (Chinese, Japanese, Arabic ...) a
    short hash of the title is added, so that two such names do not share an id (``"東京 1945"`` ->
    ``game_1945_<8 hex digits>``).  The name must start with a letter, of any script."""
    title = _title(_checked(name))
    if not title or not title[0].isalpha():
        raise NewGameError(
            f"game name {_short(name)}: expected a name starting with a letter (of any script), such as 'River "
            "Crossing' or 'Тихоновка'; digits, signs and emoji may follow the first letter"
        )
    low = unicodedata.normalize("NFC", title.lower()).translate(_LATIN).translate(_SPELL)
    plain = "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c)).translate(_SPELL)
    words = re.findall(r"[a-z0-9]+", plain)
    if not words or not words[0][0].isalpha():
        words = ["game", *words]
    if any(c.isalnum() and not c.isascii() for c in plain):  # a letter (or digit) with no Latin spelling
        words.append(hashlib.sha256(unicodedata.normalize("NFC", title).encode("utf-8")).hexdigest()[:8])
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


def template(system: str = "hits", grid: str = "hex") -> Template:
    """The template of ``system`` on ``grid``, or a :class:`NewGameError` naming the choices."""
    if system not in SYSTEMS:
        raise NewGameError(f"--system {system!r}: expected one of {', '.join(SYSTEMS)}")
    if grid not in GRIDS:
        raise NewGameError(f"--grid {grid!r}: expected one of {', '.join(GRIDS)}")
    got = TEMPLATES.get((system, grid))
    if got is None:
        grids = [g for (s, g) in TEMPLATES if s == system]
        raise NewGameError(f"--system {system} --grid {grid}: the {system} game is drawn on {', '.join(grids)} only")
    return got


def game_text(name: str, grid: str = "hex", schema: str = f"./{SCHEMA}", system: str = "hits") -> str:
    """The YAML of the new game called ``name`` on ``system``'s rules (hits or classic) and a ``grid`` (hex or
    square) map, pointing at ``schema``."""
    tpl = template(system, grid)
    title = _title(_checked(name))
    if any(c in title for c in "\"'\\:#") or len(title) > 80:
        raise NewGameError(f"game name {_short(name)}: expected at most 80 letters, digits and spaces")
    gid = game_id(name)
    text = resources.files("forge.games").joinpath(tpl.file).read_text(encoding="utf-8")
    own = title == tpl.own_title
    for token, (mine, neutral) in tpl.words.items():
        text = text.replace(token, mine if own else neutral)
    text = text.replace("__SCHEMA__", schema, 1).replace("  id: __ID__", f"  id: {_scalar(gid)}", 1)
    return text.replace("  title: __TITLE__", f"  title: {_scalar(title)}", 1).replace("__TITLE__", title)


def _scalar(text: str) -> str:
    """``text`` as a YAML value that reads back as that string: plain when it does (``River Crossing``), else in
    double quotes (``"No"``, ``"True"`` and ``"Null"`` would read as a boolean or nothing)."""
    import json

    import yaml

    try:
        plain = yaml.safe_load(f"v: {text}") == {"v": text}
    except yaml.YAMLError:
        plain = False
    return text if plain else json.dumps(text, ensure_ascii=False)


def write(name: str, grid: str, out: Path, schema_json: str, system: str = "hits") -> Path:
    """Write ``<out>/<id>.yaml``, and the JSON Schema (``schema_json``, as ``forge schema`` prints it) beside it
    unless one is there; refuse to overwrite a game.  Each file is written whole to a temporary next to it and then
    linked into place, which fails when a file of that name appeared meanwhile: an interruption (Ctrl-C) or a full
    disk leaves no half-written file, and a file that exists is never replaced."""
    text = game_text(name, grid, system=system)
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
