"""Fuzzing as a test (issue 9, item 5): structurally mutated seed games and fuzzed build options, in-process.

Properties, for every case (a seed game with one to three structural mutations, see ``bench/fuzz.py``):

* ``forge check``, and ``forge build`` and ``forge verify`` when the check passes, never let an exception escape;
  they exit 0, 1 or 2 (argparse's SystemExit included);
* exit 2 always comes with a message, and writes no file (no output folder content, no ``--report``);
* a game ``forge check`` accepts builds and verifies (with any good options; bad options are refused with exit 2).

The cases are derandomized (the same ones every run); ``bench/fuzz.py --cases N`` runs many more in subprocesses
with a memory cap and a timeout and writes crashers to ``tests/corpus/``, which this file replays: each must be
refused at check time with a located message (``file:line:col: ...``), or pass and then build and verify.
"""

from __future__ import annotations

import contextlib
import random
import re
import sys
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import fuzz  # noqa: E402  (bench/fuzz.py: the mutator and the in-process runner)

# On a failure, hypothesis' pytest plugin imports its patch writer, which imports libcst where it is installed, whose
# import warns (mypy_extensions.TypedDict): with filterwarnings = error that hides the falsifying example behind an
# INTERNALERROR.  Importing it here, warnings ignored, keeps a failure readable.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    with contextlib.suppress(ImportError):
        import hypothesis.extra._patching  # noqa: F401

CORPUS = sorted((ROOT / "tests" / "corpus").glob("*.yaml"))

# Corpus files that still crash: name -> why (xfail, not strict).  Empty: every crasher found so far is fixed.
KNOWN: dict[str, str] = {}

# Option values that still crash in code another part of issue 9 is fixing: left out of the generated cases (so the
# fuzz tests keep testing everything else) and run alone as xfail(strict=False): the options below, the data values
# as corpus files.
AVOID: dict[str, str] = {}

FUZZ = settings(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _assert_behaved(outcomes: list[fuzz.Outcome]) -> None:
    for o in outcomes:
        assert o.crash is None, f"forge {o.command}: {o.crash}\n{o.stderr[-2000:]}"
        assert o.status in fuzz.ALLOWED_EXITS


@settings(FUZZ, max_examples=250)
@given(seed=st.integers(0, 2**32 - 1))
def test_fuzz_check(seed: int) -> None:
    """Check alone on 250 mutated games: never a traceback; exit 0, or 2 with a message."""
    case = fuzz.make_case(random.Random(seed), avoid=AVOID)
    note(f"mutations: {case.what}")
    with tempfile.TemporaryDirectory() as d:
        game = Path(d) / "game.yaml"
        game.write_text(case.text, encoding="utf-8")
        outcome = fuzz.run_cli(["check", "-q", str(game)])
    _assert_behaved([outcome])
    assert outcome.status in (0, 2)
    if outcome.status == 2:
        assert str(game) in outcome.stderr  # every problem names the file


@settings(FUZZ, max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), light=st.booleans())
def test_fuzz_pipeline(seed: int, light: bool) -> None:
    """Check, then build and verify with fuzzed options when the check passes (handouts of at most 2 sets here;
    the bench runs any number)."""
    rng = random.Random(seed)
    case = fuzz.make_case(rng, max_sets=2, avoid=AVOID)
    if light:  # one mutation only: more cases pass the check and reach build and verify
        path = rng.choice(fuzz.seed_files())
        doc, what = fuzz.mutate_once(fuzz.seed_doc(path), rng, AVOID)
        case = fuzz.Case(path.stem, fuzz.dump(doc), case.build_argv, case.verify_argv, [path.name, what])
    note(f"mutations: {case.what}; build {case.build_argv}; verify {case.verify_argv}")
    with tempfile.TemporaryDirectory() as d:
        _assert_behaved(fuzz.run_case(case, Path(d)))


@pytest.mark.parametrize(
    "offset",
    [pytest.param(o, marks=pytest.mark.xfail(reason=why, strict=False)) for o, why in AVOID.items() if "," in o],
)
def test_avoided_options(offset: str, tmp_path: Path) -> None:
    """The option values the generated cases leave out: refused with exit 2 and a message naming the option."""
    out = tmp_path / "out"
    o = fuzz.run_cli(
        [
            "build",
            str(ROOT / "data" / "tabletop_hells_gate.yaml"),
            "--out",
            str(out),
            "-q",
            "--only",
            "counters",
            "--back-offset",
            offset,
        ],
        out,
    )
    _assert_behaved([o])
    assert o.status == 2
    assert "--back-offset" in o.stderr


def _hangs(path: Path) -> bool:
    head = path.read_text(encoding="utf-8").split("\n")[:3]
    return any(line.startswith(fuzz.FOUND) and ": hang" in line for line in head)


def _corpus_params() -> list[object]:
    return [
        # a known hang is not run in-process (it would stop the suite): bench/fuzz.py replays it under a timeout
        pytest.param(p, id=p.name, marks=[pytest.mark.xfail(reason=KNOWN[p.name], strict=False, run=not _hangs(p))])
        if p.name in KNOWN
        else pytest.param(p, id=p.name)
        for p in CORPUS
    ]


@pytest.mark.parametrize("path", _corpus_params())
def test_corpus_replays(path: Path, tmp_path: Path) -> None:
    """Every crasher the bench found: refused with a located message, or accepted and then built and verified."""
    build_argv, verify_argv = fuzz.read_corpus(path)
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    case = fuzz.Case(path.stem, text, build_argv, verify_argv, [path.name])
    outcomes = fuzz.run_case(case, tmp_path)
    _assert_behaved(outcomes)
    check = outcomes[0]
    if check.status == 2:
        first = check.stderr.splitlines()[0]
        assert re.match(re.escape(str(tmp_path / "game.yaml")) + r":\d+(:\d+)?: \S", first), first


def test_corpus_is_not_empty() -> None:
    """The replay above is not vacuous: the crashers found so far are kept."""
    assert CORPUS


def test_mutator_mutates() -> None:
    """A case differs from its seed file and the runner sees a refusal as exit 2 (else the fuzz tests prove
    nothing)."""
    rng = random.Random(0)
    texts = {fuzz.make_case(rng).text for _ in range(20)}
    seeds = {fuzz.dump(fuzz.seed_doc(p)) for p in fuzz.seed_files()}
    assert len(texts - seeds) >= 15
    with tempfile.TemporaryDirectory() as d:
        game = Path(d) / "g.yaml"
        game.write_text("format: 1\ngame: [\n", encoding="utf-8")
        assert fuzz.run_cli(["check", str(game)]).status == 2
