"""forge.recache: compiled regular expressions kept per installation (issue 23; docs/PERFORMANCE.md).

Properties: a pattern made from a stored entry is the pattern ``re`` compiles (equal, and it matches the same);
a run of ``python -m forge`` stores what it compiled and the next run seeds ``re``'s cache from it, with the same
output; a missing, corrupted or foreign file is ignored.  Every test has a cache folder of its own
(``XDG_CACHE_HOME``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from forge import recache
from tests.strategies import examples

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "data" / "hells_gate.yaml"

# Pieces of regular expressions: classes (the slow ones to compile), groups, named groups, repeats, anchors.
_ATOMS = st.sampled_from(
    ["a", "b", "[a-z]", "[^\t\n\r\x20-\x7e]", "[\u00a0-\ud7ff\ue000-\U0010ffff]", r"\d", r"\w+", ".", "(x|yz)",
     "(?P<n>q)", r"\s*", "[0-9]{1,18}", "(?:ab)?", "^", "$", r"\b", "é", "[ä-ü]"]
)
_PATTERNS = st.lists(_ATOMS, min_size=1, max_size=6).map("".join)
_FLAGS = st.sampled_from([0, re.IGNORECASE, re.MULTILINE | re.DOTALL, re.VERBOSE, re.ASCII])
_TEXTS = st.text(alphabet=st.sampled_from(list("abqxyz09 \tÄéü\u00a0\U0001f600\n")), max_size=12)


@given(_PATTERNS, _FLAGS, st.lists(_TEXTS, max_size=5))
@settings(max_examples=examples(60, 400), deadline=None)
def test_a_stored_pattern_is_the_compiled_one(text: str, flags: int, samples: list[str]) -> None:
    import _sre

    try:
        compiled = re.compile(text, flags)
    except re.error:  # a named group twice
        assume(False)
    entry = recache._entry((str, text, int(flags)), compiled)
    assert entry is not None
    made = _sre.compile(text, *entry[3:])
    assert made == compiled
    assert (made.flags, made.groups, dict(made.groupindex)) == (compiled.flags, compiled.groups,
                                                                dict(compiled.groupindex))
    for s in samples:
        a, b = made.search(s), compiled.search(s)
        assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups()))


def test_an_entry_that_would_make_another_pattern_is_not_stored() -> None:
    assert recache._entry((str, "a+", 0), re.compile("b+")) is None
    assert recache._entry((str, "a+", 0), re.compile("a+", re.I)) is None


def _run(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-m", "forge", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False, timeout=300)


def _seeded(cache: Path) -> int:
    """How many patterns a fresh process seeds from ``cache``."""
    code = "from forge import recache; print(recache.preload())"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True,
                       timeout=60)
    return int(r.stdout)


def test_a_run_stores_its_patterns_and_the_next_one_uses_them(tmp_path: Path) -> None:
    first = _run(tmp_path, "check", str(GAME))
    assert first.returncode == 0, first.stderr[-2000:]
    files = list((tmp_path / "hexforge" / "regex").iterdir())
    assert len(files) == 1
    n = _seeded(tmp_path)
    assert n > 20  # PyYAML's, the standard library's and forge's own
    second = _run(tmp_path, "check", str(GAME))
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)
    assert _seeded(tmp_path) == n  # nothing new to store


def test_the_seeded_patterns_are_what_re_compiles(tmp_path: Path) -> None:
    assert _run(tmp_path, "check", str(GAME)).returncode == 0
    code = (
        "import re; from forge import recache; recache.preload(); "
        "seeded = [(k, p) for k, p in re._cache.items() if k in recache._seeded]; re.purge(); "
        "print(len(seeded), all(re.compile(k[1], k[2]) == p for k, p in seeded))"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True,
                       timeout=60)
    count, same = r.stdout.split()
    assert int(count) > 20 and same == "True"


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_a_damaged_file_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _run(tmp_path, "check", str(GAME)).returncode == 0
    path = Path(str(recache.cache_file()))
    raw = path.read_bytes()
    bad = {
        "truncate": raw[: len(raw) // 2],
        "flip": raw[:100] + bytes([raw[100] ^ 1]) + raw[101:],
        "empty": b"",
        "garbage": b"\x00" * 64,
    }[damage]
    path.write_bytes(bad)
    assert _seeded(tmp_path) == 0
    r = _run(tmp_path, "check", str(GAME))
    assert r.returncode == 0, r.stderr[-2000:]
    assert _seeded(tmp_path) > 20  # written again


def test_another_interpreters_file_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _run(tmp_path, "check", str(GAME)).returncode == 0
    assert _seeded(tmp_path) > 0
    monkeypatch.setattr(recache, "_ident", lambda: "cpython-399-00000000-sre1-4-f1")
    recache._seeded.clear()
    assert recache.preload() == 0


def test_no_home_folder_means_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(os.path, "expanduser", lambda p: p)  # "~" left as it is: no home folder
    assert recache.cache_file() is None
    assert recache.preload() == 0
    assert recache.save() == 0


def test_an_unwritable_cache_folder_only_means_compiling(tmp_path: Path) -> None:
    blocker = tmp_path / "hexforge"
    blocker.write_text("not a folder")
    r = _run(tmp_path, "check", str(GAME))
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stderr == ""
