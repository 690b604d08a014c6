"""libyaml's parser against PyYAML's pure-Python one (forge.loader.parse_yaml; docs/PERFORMANCE.md, start-up).

The loader reads a document with libyaml (about 4x faster) only where the two parsers read it the same way; the
pure-Python parser is the reference.  Properties, on every YAML file of the repository, on generated documents and
on the fuzzer's text mutations:

- a document the libyaml path keeps (not sent to the pure-Python parser) gives the same events in both parsers:
  type, value, tag, implicit flags, style, anchor, and the index, line and column of both ends;
- ``parse_yaml`` gives the same data, marks and key marks with libyaml as without it, or both refuse the document.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import forge.loader as L
from forge.errors import LoadError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import fuzz  # noqa: E402  (bench/fuzz.py: the fuzzer's text mutations)

pytestmark = pytest.mark.skipif(L._EventSource is L._Events, reason="PyYAML is built without libyaml here")

FILES = sorted(
    p
    for folder in ("data", "tests/corpus", "tests/data", "bench/kits", "templates")
    for p in (ROOT / folder).glob("*.yaml")
)


def events(source: Any, text: str) -> list[tuple[Any, ...]] | None:
    """Every event of ``text`` as the parser ``source`` gives it, None when it refuses the text.  Two fields are
    compared as the loader reads them: a plain scalar's style (libyaml '', PyYAML None) and flow_style (libyaml
    False for a block collection, PyYAML None)."""
    parser = None
    try:
        parser = source(text)  # PyYAML's pure-Python reader checks the characters here
        out = []
        while (ev := parser.get_event()) is not None:
            row: list[Any] = [type(ev).__name__]
            for mark in (ev.start_mark, ev.end_mark):
                row += [mark.index, mark.line, mark.column]
            for name in ("anchor", "tag", "implicit", "value", "explicit", "version", "tags"):
                row.append(getattr(ev, name, None))
            row += [getattr(ev, "style", None) or "", bool(getattr(ev, "flow_style", None))]
            out.append(tuple(row))
            if isinstance(ev, yaml.StreamEndEvent):
                break
        return out
    except yaml.YAMLError:
        return None
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose:
            dispose()


def outcome(source: Any, text: str) -> Any:
    """What parse_yaml makes of ``text`` with only the parser ``source``: the document's data and marks, or
    "refused"."""
    saved = L._EventSource
    L._EventSource = source
    try:
        doc = L.parse_yaml(text, "t.yaml")
    except LoadError:
        return "refused"
    finally:
        L._EventSource = saved
    return doc.data, doc.marks, doc.key_marks


def libyaml_reading(text: str) -> str:
    """How parse_yaml reads ``text``: "libyaml" (it keeps libyaml's reading), "refused" (forge refuses what libyaml
    read, before the end: too deep, a key that is a list ...) or "pure Python" (it hands the text over)."""
    if not text.endswith("\n") or "\t" in text or "\ufeff" in text:
        return "pure Python"
    try:
        L._compose(L._CEvents, text, "t.yaml")
    except (L._PurePython, L._Syntax):  # _Syntax: libyaml refused it, the pure-Python parser reads it again
        return "pure Python"
    except LoadError:
        return "refused"
    return "libyaml"


def agree(text: str, outcomes: bool = True) -> str:
    """Assert the properties on ``text``; say which way parse_yaml read it.  (``outcomes``: compare parse_yaml's
    results too; where libyaml's reading is kept they follow from the events, which the loader composes alike.)"""
    if outcomes:
        assert outcome(L._CEvents, text) == outcome(L._Events, text), text
    way = libyaml_reading(text)
    if way != "libyaml":
        return way
    c_events, py_events = events(L._CEvents, text), events(L._Events, text)
    assert c_events is not None
    if py_events is None:
        # libyaml accepts what PyYAML refuses only with a tag forge refuses anyway ("!a!b", "!:!")
        assert outcome(L._CEvents, text) == "refused", text
        return "refused"
    assert c_events == py_events, text
    return "libyaml"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_yaml_file_reads_the_same_with_libyaml(path: Path) -> None:
    text = L._decode(path.read_bytes(), str(path))
    assert agree(text, outcomes=False) == "libyaml"  # and the fast path is taken for every real file


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("a: 1\n", "libyaml"),
        ("a: 'ω😀'\nb: [1, {c: 2}]\nd: |\n  x\n", "libyaml"),
        ("a: 1\r\nb: [x]\r\n", "libyaml"),
        ("a: 1\x85b: 2\u2028c: 3\n", "libyaml"),
        ("a: 1", "pure Python"),  # no final line break: libyaml marks the ends a line further
        ("a:\t1\n", "pure Python"),  # libyaml takes a tab as a separator, PyYAML refuses it
        ("a: 1\n\ufeffb: 2\n", "pure Python"),  # a byte-order mark inside the text
        ("e: {n: }\n", "pure Python"),  # an empty value in a flow mapping: marked elsewhere
        ("[a: ]\n", "pure Python"),
        ("[x?y]\n", "pure Python"),  # libyaml takes '?' inside a flow scalar, PyYAML refuses it
        ("a: ! 5\n", "pure Python"),  # the non-specific tag: libyaml a string, PyYAML resolved (5)
        ("- ! [a]\n", "pure Python"),
        ("[!a, b]\n", "pure Python"),  # libyaml ends the tag at the comma, PyYAML does not
        ('a: "x\\ud800"\n', "pure Python"),  # libyaml refuses the escape; PyYAML reads it (forge then refuses)
        ("format: 1\ngame: {id: x, title: [}\n", "pure Python"),  # refused by both
    ],
)
def test_the_constructs_the_parsers_read_differently_go_to_the_pure_python_parser(text: str, way: str) -> None:
    assert agree(text) == way


def test_a_document_libyaml_refuses_keeps_libyamls_message() -> None:
    """Both parsers refuse it: the message is libyaml's (the one forge gave before), located."""
    with pytest.raises(LoadError, match=r"^t\.yaml:2:23: invalid YAML: .*did not find expected node content"):
        L.parse_yaml("format: 1\ngame: {id: x, title: [}\n", "t.yaml")


def test_a_character_the_pure_python_reader_refuses_is_located() -> None:
    """PyYAML's reader checks the characters when it is made: still a located error, never a traceback."""
    saved = L._EventSource
    L._EventSource = L._Events
    try:
        with pytest.raises(LoadError, match=r"^t\.yaml:2:5: character U\+000C is not allowed"):
            L.parse_yaml("a: 1\nb: x\x0c\n", "t.yaml")
    finally:
        L._EventSource = saved


TOKENS = [
    *("a", "b c", "1", "-2", "0.5", "~", "null", "true", "ω", "😀", "\u3000", "\xa0", "\\x41"),
    *(":", ": ", "-", "- ", "?", "? ", "[", "]", "{", "}", ",", ", ", "#", " # c", "&a ", "*a", "<<: "),
    *("!", "! ", "!!str ", "!!int ", "!<tag:yaml.org,2002:str> ", "!<!> ", "!e!str ", "%TAG !e! tag:yaml.org,2002:\n"),
    *("|", ">", "|-\n  t\n", ">+\n  t\n\n", "'", '"', "'it''s'", '"a\\tb"', '"\\u00e9"', '"\\ud800"', "%YAML 1.1\n"),
    *(" ", "  ", "\n", "\r\n", "\n  ", "\n- ", "---\n", "...\n", "\x85", "\u2028", "\ufeff", "\t", "%", "@", "`"),
]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=30), st.booleans())
def test_token_soup(tokens: list[str], end_line: bool) -> None:
    """Random YAML-ish text: mostly refused, often by one parser only, sometimes read differently."""
    text = "".join(tokens)
    agree(text + "\n" if end_line and not text.endswith("\n") else text)


def _data(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text("ab :-#'\"ωé\n?", max_size=6), inner, max_size=4)
        ),
        max_leaves=12,
    )


LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text("ab :-#'\"\\ωé😀\n\t?!&*", max_size=8)
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    _data(LEAVES),
    st.sampled_from([True, False, None]),
    st.sampled_from([None, '"', "'", "|"]),
    st.booleans(),
    st.sampled_from([20, 80, 10**6]),
    st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(TOKENS)), max_size=3),
)
def test_dumped_documents(
    data: Any, flow: bool | None, style: str | None, canonical: bool, width: int, edits: Any
) -> None:
    """Whatever PyYAML's dumper writes (block, flow, canonical, quoted), then up to three tokens dropped in."""
    text = yaml.dump(
        data,
        Dumper=yaml.SafeDumper,
        default_flow_style=flow,
        default_style=style,
        canonical=canonical,
        width=width,
        allow_unicode=True,
    )
    for at, token in edits:
        at %= len(text) + 1
        text = text[:at] + token + text[at:]
    agree(text)


def _excerpts() -> list[str]:
    """The start of each seed game, cut at a line break (the fuzzer's mutations on a few thousand characters)."""
    out = []
    for path in fuzz.seed_files():
        text = path.read_text(encoding="utf-8")[:4000]
        out.append(text[: text.rindex("\n") + 1])
    return out


def test_the_fuzzers_text_mutations() -> None:
    """bench/fuzz.py's text mutations (duplicate keys, tabs, truncation, escapes, recursive aliases, merges, BOMs,
    control characters) and character edits, on the seed games' first lines."""
    rng = random.Random(20261124)
    seeds = _excerpts()
    ways: dict[str, int] = {}
    for _ in range(80):
        text, _how = fuzz.text_mutation(rng.choice(seeds), rng)
        if rng.random() < 0.5:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        way = agree(text)
        ways[way] = ways.get(way, 0) + 1
    assert ways.get("libyaml", 0) + ways.get("refused", 0) > 15, ways  # both paths were exercised
    assert ways.get("pure Python", 0) > 15, ways
