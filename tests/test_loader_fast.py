"""forge.loader's fast reading of plain game files (``_fast_document``; issue 23, start-up).

Property: ``parse_yaml`` gives the same document (data with its types and key order, marks, key marks) or the same
located messages whether a text is read by the fast loop or by the composer (``_Composer``) that has the last word;
the game files take the fast loop.  On every YAML file of the repository, on documents PyYAML's dumper writes with
tokens dropped in (anchors, tags, merges, flow collections ...) and on the fuzzer's text mutations."""

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
from tests.strategies import examples
from tests.test_yaml_c import FILES, LEAVES, TOKENS, _data, _excerpts

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import fuzz  # noqa: E402  (bench/fuzz.py: the fuzzer's text mutations)

pytestmark = pytest.mark.skipif(L._EventSource is L._Events, reason="PyYAML is built without libyaml here")


def reading(text: str, fast: bool) -> Any:
    """parse_yaml's document (data's repr, so 1 against 1.0 and True too; marks and key marks with their order),
    or its messages."""
    saved = L._fast_document
    if not fast:
        L._fast_document = lambda text: None  # type: ignore[assignment]
    try:
        doc = L.parse_yaml(text, "t.yaml")
    except LoadError as e:
        return [str(p) for p in e.problems]
    finally:
        L._fast_document = saved
    return repr(doc.data), list(doc.marks.items()), list(doc.key_marks.items())


def same(text: str) -> bool:
    """Assert both readings agree; say whether the fast loop read the text."""
    assert reading(text, True) == reading(text, False), text
    return L._fast_document(text) is not None


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_yaml_file_reads_the_same(path: Path) -> None:
    took = same(path.read_text(encoding="utf-8-sig"))
    if path.parent.name in ("data", "kits"):
        assert took, "a game file should take the fast loop"


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\n*x : 2\n",  # an alias as a key
        "a: *x\n",  # an alias before its anchor
        "a: !!str 1\n",  # a tag
        "base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n",  # a merge
        "a: 1\na: 2\n",  # a duplicate key
        "? [a]\n: 1\n",  # a key that is a list
        "a: [x?y]\n",  # '?' in a flow scalar
        "a: " + "1" * 5000 + "\n",  # too many digits for a whole number
        "a: \"\\x07\"\n",  # unprintable
        "a: 1\n---\nb: 2\n",  # two documents
        "- 1\n",  # not a mapping
        "a: [\n",  # refused
        "".join(f"{' ' * i}k:\n" for i in range(0, 140, 2)) + " " * 140 + "v\n",  # too deep
    ],
)
def test_what_is_not_plain_is_left_to_the_composer(text: str) -> None:
    assert L._fast_document(text) is None
    same(text)


@settings(max_examples=examples(150, 1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    _data(LEAVES),
    st.sampled_from([True, False, None]),
    st.sampled_from([None, '"', "'", "|"]),
    st.sampled_from([20, 80, 10**6]),
    st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(TOKENS)), max_size=3),
)
def test_dumped_documents(data: Any, flow: bool | None, style: str | None, width: int, edits: Any) -> None:
    text = yaml.dump({"game": data}, Dumper=yaml.SafeDumper, default_flow_style=flow, default_style=style,
                     width=width, allow_unicode=True)
    for at, token in edits:
        at %= len(text) + 1
        text = text[:at] + token + text[at:]
    same(text)


def test_the_fuzzers_text_mutations() -> None:
    rng = random.Random(20261129)
    seeds = _excerpts()
    took = 0
    for _ in range(120):
        text, _how = fuzz.text_mutation(rng.choice(seeds), rng)
        if rng.random() < 0.5:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        took += same(text)
    assert 10 < took < 110  # both ways were exercised
