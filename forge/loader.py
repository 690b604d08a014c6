"""The only YAML reader: bytes -> checked :class:`forge.model.Game`, or a :class:`LoadError` listing every problem.

Reading is safe by construction: the document is composed into nodes with PyYAML's safe machinery, each node is
converted here (no tags beyond the standard ones, no object construction), aliases are expanded under a budget,
nesting depth is bounded, and every value keeps the line and column it came from so that schema and
cross-reference problems can be reported as ``file:line:col: key.path: message``.

Scalars follow YAML 1.2's core schema rather than PyYAML's 1.1 defaults: ``yes``/``no``/``on``/``off`` stay strings
and ``0805`` stays the hex label ``"0805"`` instead of becoming an octal number.
"""

from __future__ import annotations

import datetime as _dt
import re
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import model as m
from .check import cross_check
from .errors import LoadError, Problem, suggest
from .keypath import Document, Mark, PathT, dotted

if typing.TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

__all__ = [
    "Document",
    "Mark",
    "PathT",
    "dotted",
    "iter_paths",
    "load",
    "load_document",
    "loads",
    "loads_document",
    "parse_yaml",
]

MAX_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 200_000

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:merge",
}


class _Resolver(yaml.resolver.BaseResolver):
    """YAML 1.2 core-schema resolution of plain scalars."""


_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?(?:0|[1-9][0-9]*))$"), list("-+0123456789")
)
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:[0-9][0-9]*)?\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+)$"),
    list("-+0123456789."),
)
_Resolver.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
_Resolver.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])


class _Events(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, _Resolver):
    """Pure-Python event parser (used when libyaml is missing)."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _Resolver.__init__(self)


if getattr(yaml, "__with_libyaml__", False):
    from yaml._yaml import CParser

    class _CEvents(CParser, _Resolver):  # libyaml's parser: events only, no recursion, no construction
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            _Resolver.__init__(self)

    _EventSource: Any = _CEvents
else:  # pragma: no cover
    _EventSource = _Events
"""The parser tried first: libyaml's where PyYAML has it (about 4x faster on a game file), else the pure-Python one.
PyYAML's pure-Python parser is the reference: libyaml's events are used only for documents it reads the same way
(:func:`parse_yaml`; tests/test_yaml_c.py compares the two)."""


class _Stop(Exception):
    """A problem that ends reading at once (too deep, too large)."""

    def __init__(self, mark: Any, message: str) -> None:
        self.mark = mark
        self.message = message


_REREAD_MAX = 1 << 20
"""A text libyaml refuses is read again by the pure-Python parser up to this many characters (game files are
about 100 KB; a refusal at the end of an 8 MiB text would otherwise take tens of seconds)."""


class _PurePython(Exception):
    """libyaml's events for this document may differ from PyYAML's: read it with the pure-Python parser instead."""


class _Syntax(Exception):
    """The parser refused the document (its own message, located): ``error`` is the LoadError to report."""

    def __init__(self, error: LoadError) -> None:
        self.error = error


@dataclass
class _Frame:
    container: Any
    path: PathT
    anchor: str | None
    size: int = 1
    key: str | None = None
    key_is_merge: bool = False
    merged: set[str] = field(default_factory=set)
    seen: dict[str, int] = field(default_factory=dict)
    flow: bool = False


class _Composer:
    """Turns parser events into plain data with marks, iteratively (no recursion, so no depth limit but ours).

    Aliases share the anchored value; the number of values an alias stands for is charged to a budget, so an
    alias bomb stops early instead of expanding."""

    def __init__(self, file: str, libyaml: bool = False) -> None:
        self.file = file
        self.libyaml = libyaml  # stop where libyaml reads differently from PyYAML (_PurePython)
        self.doc = Document(None)
        self.problems: list[Problem] = []
        self.budget = MAX_NODES
        self.aliases = 0  # aliases read: a document past the budget without one is large, not an alias bomb
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.stack: list[_Frame] = []
        self.done = False

    def problem(self, mark: Any, path: PathT, msg: str) -> None:
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        self.problems.append(Problem(self.file, line, col, dotted(path), msg))

    def run(self, events: Any) -> None:
        ev: Any
        while True:
            ev = events.get_event()
            if ev is None or isinstance(ev, yaml.StreamEndEvent):
                return
            if isinstance(ev, yaml.DocumentStartEvent) and self.done:
                raise _Stop(ev.start_mark, "the file holds more than one YAML document (expected one mapping)")
            if isinstance(ev, yaml.ScalarEvent):
                value = self.scalar(ev, events)
                if ev.anchor is not None:
                    self.anchors[ev.anchor] = (value, 1)
                self.deliver(value, 1, ev, is_scalar=True, merge=self._is_merge(ev, events))
            elif isinstance(ev, yaml.SequenceStartEvent | yaml.MappingStartEvent):
                self.check_tag(ev)
                if len(self.stack) >= MAX_DEPTH:
                    raise _Stop(ev.start_mark, f"nesting deeper than {MAX_DEPTH} levels")
                path = self.child_path(ev)
                container: Any = [] if isinstance(ev, yaml.SequenceStartEvent) else {}
                if self.libyaml and ev.tag == "!":
                    raise _PurePython
                flow = bool(ev.flow_style) or bool(self.stack and self.stack[-1].flow)
                self.stack.append(_Frame(container, path, ev.anchor, flow=flow))
                self.doc.marks.setdefault(path, (ev.start_mark.line + 1, ev.start_mark.column + 1))  # type: ignore[union-attr]
            elif isinstance(ev, yaml.SequenceEndEvent | yaml.MappingEndEvent):
                frame = self.stack.pop()
                if frame.anchor is not None:
                    self.anchors[frame.anchor] = (frame.container, frame.size)
                self.deliver(
                    frame.container, frame.size, ev, is_scalar=False, merge=False, placed=True, frame_path=frame.path
                )
            elif isinstance(ev, yaml.AliasEvent):
                self.aliases += 1
                if ev.anchor not in self.anchors:
                    raise _Stop(ev.start_mark, f"alias *{ev.anchor} refers to no anchor defined before it")
                value, size = self.anchors[ev.anchor]
                self.deliver(value, size, ev, is_scalar=not isinstance(value, dict | list), merge=False)
            elif isinstance(ev, yaml.DocumentEndEvent):
                self.done = True

    @staticmethod
    def _is_merge(ev: Any, events: Any) -> bool:
        return bool(ev.value == "<<" and ev.implicit[0] and not ev.style)

    def check_tag(self, ev: Any) -> None:
        tag = ev.tag
        if tag is not None and tag not in _STANDARD_TAGS and tag != "!":
            self.problem(ev.start_mark, self.peek_path(), f"tag {tag!r} is not allowed (plain YAML values only)")

    def scalar(self, ev: Any, events: Any) -> Any:
        v = ev.value
        in_flow = bool(self.stack and self.stack[-1].flow)
        if self.libyaml and (ev.tag == "!" or (in_flow and not ev.style and (not v or "?" in v))):
            # Where libyaml and PyYAML part (tests/test_yaml_c.py): the non-specific tag "!" (libyaml: a string,
            # PyYAML: resolved); an empty plain value in a flow collection ("{x: }": marked at the next token, not
            # after the colon); "?" inside a plain value in a flow collection (PyYAML refuses "[x?]").
            raise _PurePython
        self.check_tag(ev)
        if ev.tag is not None and ev.tag != "!":
            tag = ev.tag
        elif not ev.style and ev.implicit[0]:
            tag = events.resolve(yaml.ScalarNode, v, (True, False))
        else:
            tag = "tag:yaml.org,2002:str"
        if tag == "tag:yaml.org,2002:null":
            return None
        if tag == "tag:yaml.org,2002:bool":
            return v.lower() == "true"
        if tag == "tag:yaml.org,2002:int":
            try:
                return int(v)
            except ValueError:
                why = "has too many digits for a whole number" if v.lstrip("+-").isdigit() else "is not a whole number"
                self.problem(ev.start_mark, self.peek_path(), f"{_short(v)} {why}")
                return None
        if tag == "tag:yaml.org,2002:float":
            try:
                return float(v)
            except ValueError:
                self.problem(ev.start_mark, self.peek_path(), f"{_short(v)} is not a number")
                return None
        bad = _UNPRINTABLE.search(v) or _FOREIGN_BREAK.search(v)
        if bad:  # only an escape in quotes can write one (the reader refuses them raw); no page can print them
            self.problem(
                ev.start_mark,
                self.peek_path(),
                f"character U+{ord(bad.group()):04X} cannot be printed (expected text without control characters "
                "or Unicode noncharacters; the one line break in a text is \\n)",
            )
            return None
        return v

    def peek_path(self) -> PathT:
        if not self.stack:
            return ()
        top = self.stack[-1]
        if isinstance(top.container, list):
            return (*top.path, len(top.container))
        return (*top.path, top.key) if top.key is not None else top.path

    def child_path(self, ev: Any) -> PathT:
        if not self.stack:
            return ()
        top = self.stack[-1]
        if isinstance(top.container, dict) and top.key is None:
            raise _Stop(ev.start_mark, "a key must be a plain value, not a list or mapping")
        return self.peek_path()

    def deliver(
        self,
        value: Any,
        size: int,
        ev: Any,
        *,
        is_scalar: bool,
        merge: bool,
        placed: bool = False,
        frame_path: PathT | None = None,
    ) -> None:
        self.budget -= size if not placed else 0
        if self.budget < 0:
            if self.aliases:
                raise _Stop(
                    ev.start_mark, f"the document expands to more than {MAX_NODES:,} values through its aliases "
                    "(an alias bomb?)"
                )
            raise _Stop(
                ev.start_mark,
                f"the document holds more than {MAX_NODES:,} values (expected a game file of at most that many)",
            )
        mark = (ev.start_mark.line + 1, ev.start_mark.column + 1)
        if not self.stack:
            self.doc.data = value
            self.doc.marks.setdefault((), mark)
            return
        top = self.stack[-1]
        top.size += size
        if isinstance(top.container, list):
            path = (*top.path, len(top.container))
            if not placed:
                self.doc.marks.setdefault(path, mark)
            top.container.append(value)
            return
        if top.key is None and not top.key_is_merge:  # this value is a key
            if merge:
                top.key_is_merge = True
                return
            if not is_scalar:
                raise _Stop(ev.start_mark, "a key must be a plain value, not a list or mapping")
            key = "null" if value is None else str(value)
            kpath = (*top.path, key)
            if key in top.seen:
                self.problem(ev.start_mark, kpath, f"duplicate key {key!r} (first defined on line {top.seen[key]})")
                key = f"\x00dup{len(top.seen)}"  # read the value, then drop it
            else:
                top.seen[key] = mark[0]
                self.doc.key_marks[kpath] = mark
            top.key = key
            return
        if top.key_is_merge:
            top.key_is_merge = False
            sources = value if isinstance(value, list) else [value]
            for src in sources:
                if not isinstance(src, dict):
                    self.problem(ev.start_mark, top.path, "'<<' must merge a mapping or a list of mappings")
                    continue
                for k, v in src.items():
                    if k not in top.seen:
                        top.container[k] = v
                        top.merged.add(k)
            return
        key = top.key or ""
        top.key = None
        if key.startswith("\x00dup"):
            return
        if not placed:
            self.doc.marks.setdefault((*top.path, key), mark)
        top.container[key] = value
        top.merged.discard(key)


_NONCHARACTERS = "\ufdd0-\ufdef\ufffe\uffff" + "".join(
    chr(p * 0x10000 + 0xFFFE) + chr(p * 0x10000 + 0xFFFF) for p in range(1, 17)
)
# The complement of YAML's printable set, spelled out: the same characters as [^\t\n\r\x20-\x7e\x85\xa0-\ud7ff
# \ue000-\U0010ffff], but compiled in 0.6 ms instead of 3.5 ms on every run (tests/test_startup.py checks they agree).
_UNPRINTABLE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff{_NONCHARACTERS}]")
"""A character outside YAML's printable set (which the YAML reader refuses raw) or a noncharacter (which the PDF and
SVG writers cannot encode), as a double-quoted escape can still write them: \\0, \\e, \\uFFFF, \\U0010FFFF."""

_FOREIGN_BREAK = re.compile("[\r\x85\u2028\u2029]")
"""Line breaks other than \\n that a double-quoted escape (\\r, \\N, \\L, \\P) still writes into a value: one
decision for every printed text, the page, the SVG and the VASSAL module alike: refused where the file says it, so
that "\\n" is the one way a text breaks its line (a carriage return in a title once crashed the VASSAL export)."""

_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
"""YAML's line breaks (str.splitlines also breaks at form feeds and other separators, which YAML does not)."""


_COLON_LOOKALIKES = "\uff1a\ufe55\ufe13\u2236\ua789\u02d0\u0589\u05c3"
"""Characters that look like ':' (fullwidth, small, ratio, modifier letter ...), which YAML reads as text."""


def _colon_hint(text: str, e: Any) -> str:
    """When the lines a YAML syntax error spans hold a look-alike of ':' (a fullwidth colon typed with a CJK input
    method), say where and what to write instead: PyYAML's bare "could not find expected ':'" does not."""
    marks = [mk for mk in (e.context_mark, e.problem_mark) if mk is not None]
    if not marks:
        return ""
    lines = text.splitlines()
    first, last = min(mk.line for mk in marks), max(mk.line for mk in marks)
    for n in range(max(0, first - 1), min(len(lines), last + 1)):
        hit = next((ch for ch in lines[n] if ch in _COLON_LOOKALIKES), None)
        if hit:
            return f" (line {n + 1}, column {lines[n].index(hit) + 1} has {_colon_note(hit)})"
    return ""


def _colon_note(ch: str) -> str:
    """What a look-alike of ':' is and what to write instead."""
    return (
        f"{_char(ch)}, which YAML reads as text, not as the ':' that separates a key from its value: write ':' "
        "followed by a space"
    )


def _compose(source: Any, text: str, file: str) -> _Composer:
    """``text`` read with the event parser ``source``.  Raises :class:`_Syntax` when the parser refuses it,
    :class:`LoadError` for what forge refuses in it, and (libyaml only) :class:`_PurePython`."""
    libyaml = source is not _Events  # libyaml counts a ReaderError's offset in UTF-8 bytes
    events: Any = None
    comp = _Composer(file, libyaml)
    try:
        events = source(text)  # PyYAML's pure-Python reader checks every character here
        comp.run(events)
    except _Stop as e:
        raise LoadError([Problem(file, e.mark.line + 1, e.mark.column + 1, "", e.message)]) from None
    except UnicodeEncodeError:  # a lone surrogate in a str (never from _decode): libyaml cannot take it
        if not libyaml:
            raise
        raise _PurePython from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        what = " ".join(x for x in (e.context, e.problem) if x)
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        what += _colon_hint(text, e)
        raise _Syntax(LoadError([Problem(file, line, col, "", f"invalid YAML: {what}")])) from None
    except yaml.reader.ReaderError as e:  # a character YAML does not allow, at a character offset
        prefix = text.encode("utf-8")[: e.position].decode("utf-8", "ignore") if libyaml else text[: e.position]
        before = _LINE_BREAK.split(prefix)
        line, col = len(before), len(before[-1]) + 1
        code = e.character if isinstance(e.character, int) else ord(str(e.character)[:1] or "?")
        msg = f"character U+{code:04X} is not allowed in YAML (no control characters but tab and line breaks; "
        msg += "use an escape in quotes)"
        raise _Syntax(LoadError([Problem(file, line, col, "", msg)])) from None
    except yaml.YAMLError as e:
        raise _Syntax(LoadError([Problem(file, None, None, "", f"invalid YAML: {e}")])) from None
    finally:
        dispose = getattr(events, "dispose", None)
        if dispose:
            dispose()
    if comp.problems:
        raise LoadError(comp.problems)
    return comp


def _fast_document(text: str) -> Document | None:
    """The document of a plain game file read from libyaml's events in one tight loop, or None as soon as it meets
    anything that is not plain: a tag or merge key, an alias used as a key or before its anchor, a duplicate key, a
    key that is not a plain value, a scalar :meth:`_Composer.scalar` would refuse or send to the pure-Python
    parser, nesting past :data:`MAX_DEPTH`, more than :data:`MAX_NODES` values, more than one document, a top
    level that is not a mapping, or any error of the parser.  Then :class:`_Composer` reads the text again and has
    the last word (its messages, its choice of parser).  For the documents it reads, the data and the marks are
    :class:`_Composer`'s (tests/test_loader_fast.py compares them): game files take this path, about twice as
    fast."""
    scalar_event, map_start, seq_start = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
    map_end, seq_end, doc_end = yaml.MappingEndEvent, yaml.SequenceEndEvent, yaml.DocumentEndEvent
    stream_start, doc_start, stream_end = yaml.StreamStartEvent, yaml.DocumentStartEvent, yaml.StreamEndEvent
    alias_event = yaml.AliasEvent
    unprintable, foreign_break = _UNPRINTABLE.search, _FOREIGN_BREAK.search
    resolved: dict[str, Any] = {}  # plain scalar -> its value (None, bool, int, float or the text)
    doc = Document(None)
    marks, key_marks = doc.marks, doc.key_marks
    # a frame: [container, path, is_mapping, key awaiting its value (or None), flow, anchor, size]
    stack: list[list[Any]] = []
    anchors: dict[str, tuple[Any, int]] = {}  # as the composer keeps them: the value and how many values it holds
    values = 0
    started = False
    events: Any = _CEvents(text)
    ev: Any
    top: Any
    value: Any
    try:
        while True:
            ev = events.get_event()
            kind = type(ev)
            if kind is scalar_event:
                if ev.tag is not None or not stack:
                    return None
                v = ev.value
                top = stack[-1]
                if not ev.style:
                    if top[4] and (not v or "?" in v):
                        return None
                    if v in resolved:
                        value = resolved[v]
                    else:
                        tag = events.resolve(yaml.ScalarNode, v, (True, False))
                        if tag == "tag:yaml.org,2002:null":
                            value = None
                        elif tag == "tag:yaml.org,2002:bool":
                            value = v.lower() == "true"
                        elif tag == "tag:yaml.org,2002:int":
                            value = int(v)  # ValueError (too many digits): the composer says so
                        elif tag == "tag:yaml.org,2002:float":
                            value = float(v)
                        elif tag == "tag:yaml.org,2002:merge":
                            return None
                        else:
                            if unprintable(v) or foreign_break(v):
                                return None
                            value = v
                        resolved[v] = value
                else:
                    if unprintable(v) or foreign_break(v):
                        return None
                    value = v
                values += 1
                if values > MAX_NODES:
                    return None
                if ev.anchor is not None:
                    anchors[ev.anchor] = (value, 1)
                top[6] += 1
                sm = ev.start_mark
                mark = (sm.line + 1, sm.column + 1)
                container = top[0]
                if not top[2]:
                    marks.setdefault((*top[1], len(container)), mark)
                    container.append(value)
                elif top[3] is None:  # a key
                    key = "null" if value is None else str(value)
                    if key in container:
                        return None
                    key_marks[(*top[1], key)] = mark
                    top[3] = key
                else:
                    key = top[3]
                    marks.setdefault((*top[1], key), mark)
                    container[key] = value
                    top[3] = None
            elif kind is map_start or kind is seq_start:
                if ev.tag is not None or len(stack) >= MAX_DEPTH:
                    return None
                if not stack:
                    if started:
                        return None
                    path: PathT = ()
                    flow = bool(ev.flow_style)
                else:
                    top = stack[-1]
                    if not top[2]:
                        path = (*top[1], len(top[0]))
                    elif top[3] is None:  # a list or mapping as a key
                        return None
                    else:
                        path = (*top[1], top[3])
                    flow = bool(ev.flow_style) or top[4]
                sm = ev.start_mark
                marks.setdefault(path, (sm.line + 1, sm.column + 1))
                is_map = kind is map_start
                stack.append([{} if is_map else [], path, is_map, None, flow, ev.anchor, 1])
                started = True
            elif kind is map_end or kind is seq_end:
                frame = stack.pop()
                value = frame[0]
                if frame[5] is not None:
                    anchors[frame[5]] = (value, frame[6])
                if not stack:
                    doc.data = value
                    continue
                top = stack[-1]
                top[6] += frame[6]
                if not top[2]:
                    top[0].append(value)
                else:
                    top[0][top[3]] = value
                    top[3] = None
            elif kind is doc_end:
                continue
            elif kind is stream_start or kind is doc_start:
                if doc.data is not None:  # a second document
                    return None
            elif kind is stream_end or ev is None:
                break
            elif kind is alias_event:
                top = stack[-1] if stack else None
                if top is None or ev.anchor not in anchors or (top[2] and top[3] is None):  # (an alias as a key)
                    return None
                value, size = anchors[ev.anchor]
                values += size
                if values > MAX_NODES:
                    return None
                top[6] += size
                sm = ev.start_mark
                mark = (sm.line + 1, sm.column + 1)
                if not top[2]:
                    marks.setdefault((*top[1], len(top[0])), mark)
                    top[0].append(value)
                else:
                    marks.setdefault((*top[1], top[3]), mark)
                    top[0][top[3]] = value
                    top[3] = None
            else:
                return None
    except (yaml.YAMLError, ValueError):  # the parser's refusal, a number too long, a lone surrogate (encoding)
        return None
    finally:
        events.dispose()
    return doc if isinstance(doc.data, dict) else None


def _short(v: str) -> str:
    """A value for a message: its repr, cut to 30 characters with its length when it is longer than 40."""
    return repr(v) if len(v) <= 40 else f"{v[:30]!r}... ({len(v)} characters)"


def _decode(raw: bytes, file: str) -> str:
    if not raw.strip():
        raise LoadError(
            [Problem(file, None, None, "", "the file is empty (expected a YAML mapping with a 'game' key)")]
        )
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LoadError([Problem(file, 1, 1, "", "the file is UTF-16; save it as UTF-8")])
    if b"\x00" in raw:
        raise LoadError([Problem(file, None, None, "", "this is a binary file, not YAML text (it contains NUL bytes)")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        before = raw[: e.start]
        line = before.count(b"\n") + 1
        col = e.start - (before.rfind(b"\n") + 1) + 1
        raise LoadError(
            [Problem(file, line, col, "", f"byte 0x{raw[e.start]:02x} is not UTF-8 (save the file as UTF-8)")]
        ) from None
    for i, line_text in enumerate(_LINE_BREAK.split(text), 1):
        stripped = line_text.lstrip(" ")
        if stripped.startswith("\t"):
            col = len(line_text) - len(stripped) + 1
            raise LoadError(
                [Problem(file, i, col, "", "a tab is used for indentation (YAML indents with spaces only)")]
            )
    return text


def parse_yaml(text: str, file: str, top: str = "a mapping with a 'game' key") -> Document:
    """Parse one YAML document into plain data with marks; raise LoadError on any syntax problem (or when the top
    level is not a mapping: ``top`` says what was expected there).

    PyYAML's pure-Python parser decides what a document means.  libyaml's, about 4x faster, reads it first where it
    is installed, and its reading stands where the two are known to agree (tests/test_yaml_c.py compares their
    events): a text that ends with a line break and holds no tab and no byte-order mark (past the first character;
    :func:`_decode` drops that one), and whose events avoid the few constructs they read differently
    (:meth:`_Composer.scalar`).  Otherwise the pure-Python parser reads it.  A document libyaml refuses is read again
    by the pure-Python parser, which has the last word: its data when it accepts the document, else libyaml's
    message (the one forge gives with libyaml installed); past :data:`_REREAD_MAX` characters libyaml's refusal
    stands (the pure-Python parser reads about 1 MB a second)."""
    comp: _Composer | None = None
    if _EventSource is not _Events and text.endswith("\n") and "\t" not in text and "\ufeff" not in text:
        fast = _fast_document(text)
        if fast is not None:
            return fast
        try:
            comp = _compose(_EventSource, text, file)
        except _PurePython:
            pass
        except _Syntax as refused:
            if len(text) > _REREAD_MAX:
                raise refused.error from None
            try:
                comp = _compose(_Events, text, file)
            except (_Syntax, LoadError):
                raise refused.error from None
    if comp is None:
        try:
            comp = _compose(_Events, text, file)
        except _Syntax as refused:
            raise refused.error from None
    if comp.doc.data is None and not comp.done:
        raise LoadError([Problem(file, None, None, "", "the file holds no YAML document (expected a mapping)")])
    if not isinstance(comp.doc.data, dict):
        kind = "a list" if isinstance(comp.doc.data, list) else "a single value"
        if comp.doc.data is None:
            raise LoadError([Problem(file, None, None, "", "the file holds no YAML document (expected a mapping)")])
        raise LoadError([Problem(file, 1, 1, "", f"the top level is {kind}; expected {top}")])
    return comp.doc


# ------------------------------------------------------------------------------------------- schema validation
def _model_at(path: PathT, root: type[BaseModel] | None = None) -> type[BaseModel] | None:
    """The pydantic model class that describes the mapping at ``path`` (from ``root``, the game by default), for
    listing accepted keys."""
    tp: Any = root or _mirror(m.Game)
    for p in path:
        tp = _descend(tp, p)
        if tp is None:
            return None
    return _as_model(tp)


def _mirror(cls: type[m.Base]) -> type[BaseModel]:
    """The pydantic mirror of a model class (forge.modelmirror), whose errors a bad file's messages are made of."""
    from .modelmirror import mirror_of

    return mirror_of(cls)


def _as_model(tp: Any) -> type[BaseModel] | None:
    from pydantic import BaseModel

    tp = _strip(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    models = [got for arg in (typing.get_args(tp) if _is_union(tp) else ()) if (got := _as_model(arg)) is not None]
    # another model before Unknown (``Foo | Unknown``); Unknown's own keys for a number that may be unknown
    return next((got for got in models if got is not m.Unknown), models[0] if models else None)


def _is_union(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType)


def _strip(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _descend(tp: Any, key: str | int) -> Any:
    tp = _strip(tp)
    if _is_union(tp):
        for arg in typing.get_args(tp):
            got = _descend(arg, key)
            if got is not None:
                return got
        return None
    from pydantic import BaseModel

    origin = typing.get_origin(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        f = tp.model_fields.get(str(key))
        return f.annotation if f else None
    if origin in (list, tuple) and isinstance(key, int):
        args = typing.get_args(tp)
        return args[0] if origin is list or (len(args) == 2 and args[1] is Ellipsis) else args[min(key, len(args) - 1)]
    if origin is dict:
        return typing.get_args(tp)[1]
    return None


def _clean_loc(data: Any, loc: tuple[Any, ...]) -> PathT:
    """Drop pydantic's union-member tags from an error location, keeping only real keys and indices."""
    out: list[str | int] = []
    cur = data
    for p in loc:
        if isinstance(cur, dict) and str(p) in cur:
            out.append(str(p))
            cur = cur[str(p)]
        elif isinstance(cur, list) and isinstance(p, int) and 0 <= p < len(cur):
            out.append(p)
            cur = cur[p]
        elif (
            isinstance(cur, dict)
            and not isinstance(p, int)
            and p not in ("function-after", "function-before")
            and not str(p).startswith("constrained-")  # a union member's tag (constrained-float), not a key
        ):
            # a missing or extra key names a place one level down
            if p and str(p)[0].islower() and "[" not in str(p) and str(p) not in ("int", "float", "str", "bool"):
                out.append(str(p))
                break
        else:
            continue
    return tuple(out)


_PATTERNS = {
    r"^[a-z0-9][a-z0-9_.\-]*$": (
        "an id",
        "lowercase ASCII letters a-z, digits 0-9, '_', '.' and '-', starting with a letter or digit",
    ),
    r"^#[0-9a-fA-F]{6}$": ("a colour", "#rrggbb, six hexadecimal digits"),
    r"^[0-9A-Za-z][0-9A-Za-z.\-/ ]*$": (
        "a rule number",
        "ASCII letters, digits, '.', '-', '/' and spaces, starting with a letter or digit, e.g. 7.2",
    ),
}
"""The patterns of the model's constrained texts (forge.model: ``Id``, ``Colour``, ``RuleRef``) in words."""


def _char(ch: str) -> str:
    """``'е' (U+0435 CYRILLIC SMALL LETTER IE)``: a character as a message names it, visible when it looks like
    another (a Cyrillic letter, a combining accent, a fullwidth form)."""
    import unicodedata

    name = unicodedata.name(ch, "")
    shown = repr(ch) if unicodedata.category(ch)[0] not in "MC" else "a combining or control character"
    return f"{shown} (U+{ord(ch):04X}{' ' + name if name else ''})"


def _first_refused(pattern: str, text: str) -> int | None:
    """The index of the first character of ``text`` at which ``pattern`` (anchored, and refusing no prefix of a
    text it accepts, as the model's are) stops matching; None when no prefix is refused (the text is too short,
    or the pattern is not of that kind)."""
    rx = re.compile(pattern)
    for i in range(1, len(text) + 1):
        if rx.fullmatch(text[:i]) is None:
            return i - 1 if (i == 1 or rx.fullmatch(text[: i - 1])) else None
    return None


def _plain_message(e: Any) -> str:
    """A pydantic error in the format's words (what was expected, the value given, and for a text refused by a
    pattern the offending character), or empty to keep pydantic's."""
    typ, given, ctx = e["type"], e.get("input"), e.get("ctx", {})
    shown = _short(str(given)) if isinstance(given, str) else repr(given)
    if typ in ("int_parsing", "int_type", "int_from_float", "int_parsing_size"):
        return f"expected a whole number, got {shown}"
    if typ in ("float_parsing", "float_type", "finite_number"):
        return f"expected a {'finite ' if typ == 'finite_number' else ''}number, got {shown}"
    if typ in ("bool_parsing", "bool_type"):
        return f"expected true or false, got {shown}"
    if typ == "string_type":
        return f"expected text, got {shown}"
    if typ in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        bound = {"greater_than": "more than", "greater_than_equal": "at least", "less_than": "less than"}
        limit = next(iter(ctx.values()), "")
        limit = f"{limit:g}" if isinstance(limit, int | float) else limit
        return f"expected {bound.get(typ, 'at most')} {limit}, got {shown}"
    if typ in ("too_short", "too_long"):
        n = ctx.get("min_length" if typ == "too_short" else "max_length")
        return f"expected {'at least' if typ == 'too_short' else 'at most'} {n} item{'s' if n != 1 else ''}"
    if typ == "string_pattern_mismatch" and isinstance(given, str):
        pattern = str(ctx.get("pattern", ""))
        noun, expected = _PATTERNS.get(pattern, ("this text", f"text matching {pattern}"))
        if not given:
            return f"an empty text is not {noun} (expected {expected})"
        i = _first_refused(pattern, given)
        if i is None:
            return f"{shown} is not {noun} (expected {expected})"
        return f"{shown}: character {i + 1}, {_char(given[i])}, is not allowed in {noun} (expected {expected})"
    return ""


def _schema_problems(
    doc: Document, file: str, err: ValidationError, root: type[BaseModel] | None = None
) -> list[Problem]:
    """``err`` as located problems; ``root``: the model validated (the game's by default; a layout template's)."""
    by_path: dict[PathT, list[str]] = {}
    extra: dict[PathT, None] = {}
    missing: dict[PathT, list[str]] = {}
    unknown_too: set[PathT] = set()
    for e in err.errors(include_url=False):
        path = _clean_loc(doc.data, tuple(e["loc"]))
        typ = e["type"]
        if typ == "extra_forbidden":
            extra[path] = None
            continue
        msg = e["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, ") :]
        if typ == "missing":
            missing.setdefault(path[:-1], []).append(str(path[-1]) if path else "")
            continue
        elif typ in ("enum", "literal_error"):
            expected = e.get("ctx", {}).get("expected", "")
            choices = re.findall(r"'([^']*)'", expected)
            msg = f"{e['input']!r} is not allowed (expected {expected}){suggest(str(e['input']), choices)}"
        elif typ == "model_type" and e["loc"] and e["loc"][-1] == "Unknown":
            unknown_too.add(path)  # a value the rules may leave unknown: say so once, not "expected a mapping"
            continue
        elif typ == "model_type" or typ == "dict_type":
            msg = "expected a mapping"
        elif typ == "list_type":
            msg = "expected a list"
        else:
            msg = _plain_message(e) or msg
        msgs = by_path.setdefault(path, [])
        if msg not in msgs:
            msgs.append(msg)
    problems = []
    for path, model_path in ((p, p[:-1]) for p in extra):
        cls = _model_at(model_path, root)
        accepted = sorted(cls.model_fields) if cls else []
        key = str(path[-1]) if path else ""
        mk = doc.mark(path, key=True)
        problems.append(
            Problem(
                file,
                mk[0] if mk else None,
                mk[1] if mk else None,
                dotted(path),
                f"unknown key {key!r}{suggest(key, accepted)} (accepted keys: {', '.join(accepted)})"
                + "".join(f"; the key holds {_colon_note(ch)}" for ch in dict.fromkeys(key) if ch in _COLON_LOOKALIKES),
            )
        )
    for path, keys in missing.items():
        mk = doc.mark(path, key=True)
        names = ", ".join(repr(k) for k in keys)
        msg = f"missing required key{'s' if len(keys) > 1 else ''} {names}"
        problems.append(Problem(file, mk[0] if mk else None, mk[1] if mk else None, dotted(path), msg))
    for path, msgs in by_path.items():
        mk = doc.mark(path, key=True)
        text = msgs[0] if len(msgs) == 1 else "; or ".join(msgs)
        if any("unknown" in x for x in msgs) and len(msgs) > 1:
            text = "expected a number or 'unknown' (" + text + ")"
        elif path in unknown_too:
            head, got, tail = text.partition(", got ")
            text = f"{head} or 'unknown', got {tail}" if got else text + ", or 'unknown'"
        problems.append(Problem(file, mk[0] if mk else None, mk[1] if mk else None, dotted(path), text))
    return problems


# ------------------------------------------------------------------------------------------------- public API
def load(path: str | Path) -> m.Game:
    """Load and check one game file; raise :class:`LoadError` with every problem found."""
    return loads(read_regular(path), str(path))


def read_regular(path: str | Path, expected: str = "a YAML game file") -> bytes:
    """The bytes of ``path``, a regular file of at most :data:`MAX_BYTES` (a game file, a layout template), or a
    :class:`LoadError` naming it and what was ``expected`` there."""
    import os

    file = str(path)
    p = Path(path)
    if not file:  # Path("") is the current folder: say what was given instead
        raise LoadError([Problem("''", None, None, "", f"an empty file name (expected {expected})")])
    if "\0" in file:
        raise LoadError([Problem(file, None, None, "", "a file name cannot contain a NUL character")])
    try:
        # Only a regular file is read: a FIFO would block the open, a device (/dev/zero) never ends.  Stat
        # first, then open without blocking and stat the open file, in case another file took its place.
        _regular(file, os.stat(p).st_mode, expected)
        with os.fdopen(os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as fh:
            _regular(file, os.fstat(fh.fileno()).st_mode, expected)
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        what = "a symbolic link to a file that does not exist" if os.path.islink(p) else "no such file"
        raise LoadError([Problem(file, None, None, "", what + _near_file(p))]) from None
    except OSError as e:
        raise LoadError([Problem(file, None, None, "", f"cannot read the file ({e.strerror})")]) from None
    if len(raw) > MAX_BYTES:
        raise LoadError([Problem(file, None, None, "", f"the file is larger than {MAX_BYTES // 1024 // 1024} MiB")])
    return raw


def _near_file(path: Path) -> str:
    """`` (did you mean 'data/hells_gate.yaml'?)``: a file in ``path``'s folder whose name is close to the one
    given, written as the path was; empty when none is, or the folder cannot be listed."""
    import difflib
    import os

    try:
        with os.scandir(path.parent) as it:
            names = sorted(e.name for e in it if e.is_file() and not e.name.startswith("."))[:5000]
    except OSError:
        return ""
    close = difflib.get_close_matches(path.name, names, n=1, cutoff=0.6)
    if not close:
        return ""
    return f" (did you mean {str(path.with_name(close[0]))!r}?)"


def _regular(file: str, mode: int, expected: str = "a YAML game file") -> None:
    """Raise a :class:`LoadError` unless ``mode`` is a regular file's."""
    import stat

    if stat.S_ISREG(mode):
        return
    kinds = [
        (stat.S_ISDIR(mode), "a directory"),
        (stat.S_ISFIFO(mode), "a FIFO (named pipe)"),
        (stat.S_ISCHR(mode) or stat.S_ISBLK(mode), "a device"),
        (stat.S_ISSOCK(mode), "a socket"),
    ]
    kind = next((name for hit, name in kinds if hit), "not a file")
    raise LoadError([Problem(file, None, None, "", f"is {kind}, not a regular file (expected {expected})")])


def loads(raw: bytes | str, file: str = "<string>") -> m.Game:
    """Load a game from bytes or text (``file`` names it in messages)."""
    return loads_document(raw, file)[0]


def load_document(path: str | Path) -> tuple[m.Game, Document]:
    """Load and check one game file, as :func:`load`, with the document it was read from: its marks locate any
    key path of the file (``forge verify`` locates its findings with them)."""
    return loads_document(read_regular(path), str(path))


def loads_document(raw: bytes | str, file: str = "<string>") -> tuple[m.Game, Document]:
    """:func:`loads` with the document (plain data and the line and column of every value)."""
    text = _decode(raw.encode("utf-8") if isinstance(raw, str) else raw, file)
    doc = parse_yaml(text, file)
    try:
        game = m.Game.model_validate(doc.data)
    except ValueError as e:  # pydantic's ValidationError, from the model's mirror (forge.modelkit)
        from pydantic import ValidationError

        if not isinstance(e, ValidationError):
            raise
        raise LoadError(_schema_problems(doc, file, e)) from None
    problems = _underscored_numbers(game, doc, file)  # first: the checks below would see 50 for "5_0"
    if problems:
        raise LoadError(problems)
    problems = list(cross_check(game, doc, file))
    if problems:
        raise LoadError(problems)
    return game, doc


_UNDERSCORED = re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9_]*)?$")


def _underscored_numbers(game: m.Game, doc: Document, file: str) -> list[Problem]:
    """A value such as ``5_0`` where a number is expected: YAML 1.2 (docs/FORMAT.md) reads it as the text "5_0", but
    pydantic would turn that text into 50 as Python does.  Refused at the value, so the format reads as documented.
    (A text field keeps such a value as text: only a value the model holds as a number is refused.)"""
    out = []
    for path, value in iter_paths(doc.data):
        if not (isinstance(value, str) and "_" in value and _UNDERSCORED.match(value)):
            continue
        held = _held(game, path)
        if isinstance(held, int | float) and not isinstance(held, bool):
            mk = doc.mark(path)
            out.append(
                Problem(
                    file,
                    mk[0] if mk else None,
                    mk[1] if mk else None,
                    dotted(path),
                    f"{_short(value)} is text in YAML 1.2, not a number: underscores are not digits (expected a "
                    f"number written without them, e.g. {value.replace('_', '')})",
                )
            )
    return out


def _held(game: m.Game, path: PathT) -> Any:
    """The validated value at the document's ``path`` (model fields, mapping keys, list items); None when the model
    holds it in another shape."""
    obj: Any = game
    for key in path:
        if isinstance(obj, m.Base):
            obj = getattr(obj, str(key), None) if str(key) in type(obj).__struct_fields__ else None
        elif isinstance(obj, dict):
            obj = obj.get(key)
        elif isinstance(obj, list | tuple) and isinstance(key, int) and 0 <= key < len(obj):
            obj = obj[key]
        else:
            return None
        if obj is None:
            return None
    return obj


def iter_paths(data: Any, path: PathT = ()) -> Iterator[tuple[PathT, Any]]:
    """Every (path, value) in plain data, depth first."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from iter_paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from iter_paths(v, (*path, i))


_ = _dt  # dates stay text: the turn track prints them as written


def locate_in_file(file: str, path: PathT) -> tuple[int | None, int | None, str]:
    """Line and column of ``path`` in ``file``, read again (only when something is refused after loading: the
    build estimate, a card too small, a VASSAL board too large), and the dotted path."""
    from .keypath import dotted

    try:
        with open(file, "rb") as fh:
            doc = parse_yaml(_decode(fh.read(), file), file)
    except (OSError, LoadError):
        return None, None, dotted(path)
    mk = doc.mark(path)
    return (mk[0], mk[1], dotted(path)) if mk else (None, None, dotted(path))
