"""forge.startcache: compiled regular expressions and dataclass methods kept per installation (issue 23;
docs/PERFORMANCE.md).

Properties: a pattern made from a stored entry is the pattern ``re`` compiles (equal, and it matches the same); a
dataclass made with the stored code is the dataclass made without it; a run of ``python -m forge`` stores what it
compiled and the next run uses it, with the same output; a missing, corrupted or foreign file is ignored.  Every
test has a cache folder of its own (``XDG_CACHE_HOME``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from forge import startcache
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
    import _sre  # type: ignore[import-not-found]

    try:
        compiled = re.compile(text, flags)
    except re.error:  # a named group twice
        assume(False)
    entry = startcache._entry((str, text, int(flags)), compiled)
    assert entry is not None
    made = _sre.compile(text, *entry[3:])
    assert made == compiled
    assert (made.flags, made.groups, dict(made.groupindex)) == (compiled.flags, compiled.groups,
                                                                dict(compiled.groupindex))
    for s in samples:
        a, b = made.search(s), compiled.search(s)
        assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups()))


def test_an_entry_that_would_make_another_pattern_is_not_stored() -> None:
    assert startcache._entry((str, "a+", 0), re.compile("b+")) is None
    assert startcache._entry((str, "a+", 0), re.compile("a+", re.I)) is None


def _run(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-m", "forge", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False, timeout=300)


def _probe(cache: Path, code: str) -> list[str]:
    """The words a fresh Python prints running ``code`` with ``cache`` as its cache folder."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True,
                       timeout=60)
    return r.stdout.split()


def _seeded(cache: Path, kind: str = "") -> int:
    """How many patterns (``regex``), method sources (``dataclass``) or both a fresh process finds in ``cache``."""
    code = "from forge import startcache as s; s.preload('check'); print(len(s._seeded), len(s._codes))"
    patterns, sources = (int(x) for x in _probe(cache, code))
    return {"regex": patterns, "dataclass": sources}.get(kind, patterns + sources)


def _check_twice(cache: Path) -> subprocess.CompletedProcess[str]:
    """Two checks of Hell's Gate: a pattern is stored once two runs in a row have compiled it."""
    first = _run(cache, "check", str(GAME))
    assert first.returncode == 0, first.stderr[-2000:]
    assert _run(cache, "check", str(GAME)).returncode == 0
    return first


def test_a_run_stores_its_patterns_and_the_next_one_uses_them(tmp_path: Path) -> None:
    first = _run(tmp_path, "check", str(GAME))
    assert first.returncode == 0, first.stderr[-2000:]
    assert _seeded(tmp_path, "regex") == 0  # candidates only, after one run
    assert _seeded(tmp_path, "dataclass") > 60  # forge's dataclasses' methods
    second = _run(tmp_path, "check", str(GAME))
    files = sorted(p.name.rsplit("-cpython", 1)[0] for p in (tmp_path / "hexforge" / "start").iterdir())
    assert files == ["dataclass-check", "regex-check", "regex-new-check"]
    n = _seeded(tmp_path)
    assert _seeded(tmp_path, "regex") > 20  # PyYAML's patterns, the standard library's and forge's own
    third = _run(tmp_path, "check", str(GAME))
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)
    assert (third.returncode, third.stdout, third.stderr) == (first.returncode, first.stdout, first.stderr)
    assert _seeded(tmp_path) == n  # nothing new to store


def test_a_pattern_that_changes_from_run_to_run_is_not_stored(tmp_path: Path) -> None:
    """reportlab joins a set of names into one pattern, so its text differs with every run's hash seed."""
    code = (
        "import re, sys; from forge import startcache as s; s.preload('check'); "
        "re.compile(sys.argv[1]); re.compile('stable[0-9]+'); s.save(); "
        "print(sum('volatile' in str(k[1]) for k in s._seeded), sum('stable' in str(k[1]) for k in s._seeded))"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    out = []
    for i in range(4):
        r = subprocess.run([sys.executable, "-c", code, f"volatile{i}"], cwd=ROOT, env=env, capture_output=True,
                           text=True, check=True, timeout=60)
        out.append(r.stdout.split())
    assert out == [["0", "0"], ["0", "0"], ["0", "1"], ["0", "1"]]  # stored after two runs; the other never


def test_the_seeded_patterns_are_what_re_compiles(tmp_path: Path) -> None:
    _check_twice(tmp_path)
    code = (
        "import re; from forge import startcache; startcache.preload('check'); "
        "seeded = [(k, p) for k, p in re._cache.items() if k in startcache._seeded]; re.purge(); "
        "print(len(seeded), all(re.compile(k[1], k[2]) == p for k, p in seeded))"
    )
    count, same = _probe(tmp_path, code)
    assert int(count) > 20
    assert same == "True"


@pytest.mark.parametrize("kind", ["regex", "dataclass"])
@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_a_damaged_file_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str, kind: str) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(startcache, "_command", ["check"])
    _check_twice(tmp_path)
    path = Path(str(startcache.cache_file(kind)))
    raw = path.read_bytes()
    bad = {
        "truncate": raw[: len(raw) // 2],
        "flip": raw[:100] + bytes([raw[100] ^ 1]) + raw[101:],
        "empty": b"",
        "garbage": b"\x00" * 64,
    }[damage]
    path.write_bytes(bad)
    assert _seeded(tmp_path, kind) == 0
    _check_twice(tmp_path)
    assert _seeded(tmp_path, kind) > 20  # written again


def test_another_interpreters_file_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(startcache, "_command", ["check"])
    _check_twice(tmp_path)
    assert _seeded(tmp_path) > 0
    assert startcache._read("regex") is not None
    monkeypatch.setattr(startcache, "_ident", lambda: "cpython-399-00000000-sre1-4-f1")
    assert startcache._read("regex") is None
    assert startcache._read("dataclass") is None


def test_no_home_folder_means_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(os.path, "expanduser", lambda p: p)  # "~" left as it is: no home folder
    assert startcache.cache_file() is None
    assert startcache._read("regex") is None
    assert startcache._write("regex", []) is False


def test_each_command_keeps_its_own_files(tmp_path: Path) -> None:
    """``forge check`` loads only what a check compiled, not what a build did."""
    assert _run(tmp_path, "check", "-q", str(GAME)).returncode == 0
    assert _run(tmp_path, "--version").returncode == 0  # ends in argparse's exit: nothing stored
    names = sorted(p.name.rsplit("-cpython", 1)[0] for p in (tmp_path / "hexforge" / "start").iterdir())
    assert names == ["dataclass-check", "regex-new-check"]


def test_a_refused_file_stores_nothing(tmp_path: Path) -> None:
    """A bad file is read again by the pydantic mirror, which compiles much a good file never needs: kept out of
    the files that every good run loads."""
    assert _run(tmp_path, "check", "-q", str(GAME)).returncode == 0
    n = _seeded(tmp_path)
    bad = tmp_path / "bad.yaml"
    bad.write_text(GAME.read_text(encoding="utf-8").replace("format: 1", "format: 1\nformat_x: 2", 1))
    r = _run(tmp_path, "check", str(bad))
    assert r.returncode == 2
    assert "unknown key 'format_x'" in r.stderr
    assert _seeded(tmp_path) == n


@pytest.mark.parametrize("value", ["0", "off"])
def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    """``HEXFORGE_START_CACHE=0``: nothing read, nothing written, the same output."""
    on = _check_twice(tmp_path)
    assert on.returncode == 0
    assert _seeded(tmp_path) > 0
    before = sorted((p.name, p.stat().st_mtime_ns) for p in (tmp_path / "hexforge" / "start").iterdir())
    monkeypatch.setenv("HEXFORGE_START_CACHE", value)
    off = _run(tmp_path, "check", str(GAME))
    assert (off.returncode, off.stdout, off.stderr) == (on.returncode, on.stdout, on.stderr)
    after = sorted((p.name, p.stat().st_mtime_ns) for p in (tmp_path / "hexforge" / "start").iterdir())
    assert after == before
    assert _seeded(tmp_path) == 0  # the files are there, and not read


def test_an_unwritable_cache_folder_only_means_compiling(tmp_path: Path) -> None:
    blocker = tmp_path / "hexforge"
    blocker.write_text("not a folder")
    r = _run(tmp_path, "check", str(GAME))
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stderr == ""


# --------------------------------------------------------------------------------------------- dataclass methods
_FIELD_TYPES = st.sampled_from(["int", "str", "float | None", "tuple[int, ...]", "list[str]"])
_DEFAULTS = st.sampled_from([None, "0", "'x'", "None", "field(default_factory=list)"])


@st.composite
def _dataclass_sources(draw: st.DrawFn) -> str:
    """A dataclass statement with drawn options and fields (required ones first, as dataclasses demands)."""
    opts = {k: draw(st.booleans()) for k in ("frozen", "order", "eq", "slots", "repr", "unsafe_hash")}
    if opts["order"]:
        opts["eq"] = True
    n = draw(st.integers(0, 4))
    required = draw(st.integers(0, n))
    lines = [f"@dataclass({', '.join(f'{k}={v}' for k, v in opts.items())})", "class C:"]
    for i in range(n):
        default = None if i < required else draw(_DEFAULTS.filter(lambda d: d is not None))
        lines.append(f"    f{i}: {draw(_FIELD_TYPES)}" + (f" = {default}" if default else ""))
    if n == 0:
        lines.append("    pass")
    return "\n".join(lines)


def _describe(source: str) -> tuple[object, ...]:
    """What a dataclass statement makes: its methods' code (compared as code objects), signature, and what an
    instance does (repr, equality, hash, order, frozen)."""
    import dataclasses
    import inspect

    ns: dict[str, object] = {"dataclass": dataclasses.dataclass, "field": dataclasses.field}
    exec(source, ns)
    cls: Any = ns["C"]
    methods = {k: v.__code__ for k, v in vars(cls).items() if inspect.isfunction(v)}
    fields = dataclasses.fields(cls)
    args = {f.name: (1 if "int" in str(f.type) or "float" in str(f.type) else "a") for f in fields
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    a, b = cls(**args), cls(**args)
    try:
        h: object = hash(a) if cls.__hash__ is not object.__hash__ else "identity"
    except TypeError as e:
        h = str(e)
    try:
        lt: object = a < b
    except TypeError as e:
        lt = str(e)
    try:
        a.f0 = 5
        frozen: object = False
    except (AttributeError, TypeError) as e:
        frozen = type(e).__name__
    return (methods, str(inspect.signature(cls)), re.sub(" at 0x[0-9a-f]+", "", repr(b)), a == b, h, lt, frozen,
            {k: str(v) for k, v in cls.__init__.__annotations__.items()})


@given(_dataclass_sources())
@settings(max_examples=examples(40, 300), deadline=None)
def test_a_dataclass_made_with_stored_code_is_the_same(source: str) -> None:
    import dataclasses

    plain = _describe(source)
    saved = dict(startcache._codes), set(startcache._new_codes)
    had = "exec" in vars(dataclasses)
    try:
        dataclasses.exec = startcache._exec  # type: ignore[attr-defined]
        first = _describe(source)  # compiled, and stored in _codes
        again = _describe(source)  # from the stored code
    finally:
        if not had:
            del dataclasses.exec  # type: ignore[attr-defined]
        startcache._codes.clear()
        startcache._codes.update(saved[0])
        startcache._new_codes.clear()
        startcache._new_codes.update(saved[1])
    assert first == plain
    assert again == plain


def test_the_stored_method_code_is_what_exec_compiles(tmp_path: Path) -> None:
    assert _run(tmp_path, "check", str(GAME)).returncode == 0
    code = (
        "import marshal; from forge import startcache; startcache.preload('check'); "
        "codes = startcache._codes; "
        "print(len(codes), all(marshal.loads(c) == compile(s, '<string>', 'exec', dont_inherit=True) "
        "for s, c in codes.items()))"
    )
    count, same = _probe(tmp_path, code)
    assert int(count) > 40
    assert same == "True"
