"""Files and signals: only regular files are read, bad output options are refused before anything is written,
outputs appear whole or not at all (a set of files as one), and SIGINT/SIGTERM leave no temporary and no traceback."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path, PurePath

import pytest
from conftest import DATA, ROOT

import forge.pdf
from forge.builder import MANIFEST
from forge.cli import main
from forge.pdf import commit, remove_stale, stage_file, stage_folder

HG = str(DATA / "hells_gate.yaml")
FPA = str(DATA / "first_panzer_army.yaml")
posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, signals and pids as on POSIX")


def _hidden(folder: Path) -> list[str]:
    """Every temporary (a name starting with a dot) anywhere under ``folder``; a build's manifest
    (``.hexforge-manifest.json``, the record of what it wrote: tests/test_stale_outputs.py) is no temporary."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob(".*") if p.name != MANIFEST)


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def _forge(*args: str) -> list[str]:
    return [sys.executable, "-m", "forge", *args]


# ----------------------------------------------------------------------------------------------- input files
@posix_only
def test_a_fifo_is_refused_at_once_without_blocking(tmp_path: Path) -> None:
    """Opening a FIFO for reading waits for a writer: the loader must look before it opens."""
    fifo = tmp_path / "game.yaml"
    os.mkfifo(fifo)
    r = subprocess.run(_forge("check", str(fifo)), capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 2
    assert r.stderr.splitlines()[0] == f"{fifo}: is a FIFO (named pipe), not a regular file (expected a YAML game file)"
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(
    ("path", "kind"), [(os.devnull, "a device"), ("<tmp>", "a directory")], ids=["device", "directory"]
)
def test_a_device_or_a_directory_is_refused(
    path: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if path == "<tmp>":
        path = str(tmp_path)
    elif not Path(path).is_char_device():
        pytest.skip("no character device here")
    for command in ("check", "build", "verify"):
        extra = ["--out", str(tmp_path / "out")] if command == "build" else []
        assert main([command, path, *extra]) == 2
        err = capsys.readouterr().err
        assert err.splitlines() == [
            f"{path}: is {kind}, not a regular file (expected a YAML game file)",
            f"{path}: 1 problem",
        ]
    assert not (tmp_path / "out").exists()


# ----------------------------------------------------------------------------------------------- output options
@pytest.mark.parametrize(
    ("out", "why"),
    [("file", "file is a file, not a folder"), ("file/sub", "file is a file, so no folder can be made under it")],
)
def test_out_that_cannot_be_a_folder_is_refused(
    out: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_bytes(b"mine")
    target = str(tmp_path / out)
    with pytest.raises(SystemExit) as e:
        main(["build", HG, "--out", target])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --out: {target!r}: {tmp_path}/{why} (expected a folder" in err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
    assert (tmp_path / "file").read_bytes() == b"mine"


def test_report_that_is_a_folder_or_under_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_bytes(b"mine")
    (tmp_path / "folder").mkdir()
    cases = {
        "folder": "is a folder (expected a file name",
        "file/report.md": "file is a file, not a folder (expected a file in a folder)",
        "folder/": "expected a file name",
    }
    if os.name == "posix":
        os.mkfifo(tmp_path / "fifo")
        cases["fifo"] = "is not a regular file (expected a file to write; leave --report out for standard output)"
    for rel, why in cases.items():
        report = str(tmp_path / rel) + ("/" if rel.endswith("/") else "")
        with pytest.raises(SystemExit) as e:
            main(["verify", HG, "--no-print-check", "--report", report])
        assert e.value.code == 2, rel
        err = capsys.readouterr().err
        assert "argument --report:" in err, rel
        assert why in err, rel
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["file", "folder", "fifo"][: 2 + (os.name == "posix")])
    assert list((tmp_path / "folder").iterdir()) == []


def test_a_file_where_the_game_folder_goes_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hells_gate").write_bytes(b"mine")
    assert main(["build", "-q", HG, "--out", str(tmp_path), "--only", "cards"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"forge build: cannot write {tmp_path}/hells_gate: is not a folder (the game's files go in one) "
        f"(from --out {tmp_path})"
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hells_gate"]


def test_a_folder_where_a_file_goes_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """map.pdf is a folder: refused before anything moves, so cards.pdf is not written either, and no temporary
    is left."""
    (tmp_path / "hells_gate" / "map.pdf").mkdir(parents=True)
    assert main(["build", "-q", HG, "--out", str(tmp_path), "--only", "cards,map"]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err
    assert "hells_gate/map.pdf: is a folder (a file goes there) (from --out" in err
    assert sorted(p.name for p in (tmp_path / "hells_gate").iterdir()) == ["map.pdf"]


# ----------------------------------------------------------------------------------------------- sets of files
def test_a_set_replaces_a_set_whole(tmp_path: Path) -> None:
    """The new folder takes the old one's place as a whole: no file of the old set survives next to the new."""
    target = tmp_path / "images"
    target.mkdir()
    (target / "gone.png").write_bytes(b"old")
    (target / "index.csv").write_bytes(b"old")
    staged = stage_folder(target, [(PurePath("index.csv"), b"new"), (PurePath("a/b.svg"), b"<svg/>")])
    assert _hidden(tmp_path) == [staged.name]
    assert (staged / "a" / "b.svg").read_bytes() == b"<svg/>"
    commit([(staged, target)])
    assert sorted(str(p.relative_to(target)) for p in target.rglob("*")) == ["a", "a/b.svg", "index.csv"]
    assert (target / "index.csv").read_bytes() == b"new"
    assert _hidden(tmp_path) == []


def test_outputs_honour_the_umask_in_sets_too(tmp_path: Path) -> None:
    import stat

    old = os.umask(0o027)
    try:
        folder = stage_folder(tmp_path / "images", [(PurePath("x.png"), b"x")])
        commit([(folder, tmp_path / "images")])
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "images").stat().st_mode) == 0o750
    assert stat.S_IMODE((tmp_path / "images" / "x.png").stat().st_mode) == 0o640


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, OSError], ids=["SIGINT", "disk-full"])
def test_an_interrupted_build_leaves_the_old_set(
    interrupt: type[BaseException], hells_gate: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interruption while the new files are written (here: at the 40th file) leaves every old file as it was,
    the old image set whole, and no temporary."""
    from forge.builder import BuildOptions, build

    build(hells_gate, tmp_path, BuildOptions(only=("cards", "images")))  # type: ignore[arg-type]
    folder = tmp_path / "hells_gate"
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    real = forge.pdf._write_fd
    calls = []

    def failing(fd: int, data: bytes, name: Path, mode: int | None = None) -> None:
        calls.append(name)
        if len(calls) == 40:
            os.close(fd)
            raise interrupt(28, "No space left on device") if interrupt is OSError else interrupt()
        real(fd, data, name, mode)

    monkeypatch.setattr(forge.pdf, "_write_fd", failing)
    with pytest.raises(interrupt):
        build(hells_gate, tmp_path, BuildOptions(only=("cards", "images"), greyscale=True))  # type: ignore[arg-type]
    assert len(calls) == 40
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert _hidden(tmp_path) == []
    monkeypatch.setattr(forge.pdf, "_write_fd", real)
    build(hells_gate, tmp_path, BuildOptions(only=("images",), greyscale=True))  # type: ignore[arg-type]
    after = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    # the first build's manifest survived the interruption: its cards.pdf, unchanged and not written again, goes
    assert after.keys() == before.keys() - {folder / "cards.pdf"}
    assert after[folder / "images" / "sov-29tc-front.svg"] != before[folder / "images" / "sov-29tc-front.svg"]
    assert _hidden(tmp_path) == []


# ----------------------------------------------------------------------------------------------- leftovers
@posix_only
def test_a_later_run_removes_what_a_killed_run_left(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Temporaries of a dead process (kill -9) are removed; a live process's, and files not of our naming, stay."""
    dead, live = _dead_pid(), os.getpid()
    folder = tmp_path / "hells_gate"
    folder.mkdir()
    left = [f".cards.pdf.{dead}.k2j4h5g6.tmp", f".map.pdf.{dead}.abc.tmp", f".images.{dead}.x1.old"]
    for name in left[:2]:
        (folder / name).write_bytes(b"partial")
    (folder / f".images.{dead}.x1.tmp").mkdir()
    (folder / f".images.{dead}.x1.tmp" / "a.png").write_bytes(b"partial")
    (folder / left[2]).mkdir()  # moved aside, then killed before the new set moved in ...
    (folder / left[2] / "index.csv").write_bytes(b"old set")
    kept = [f".cards.pdf.{live}.zz.tmp", f".notes.txt.{dead}.zz.tmp", ".cards.pdf.tmp"]
    for name in kept:
        (folder / name).write_bytes(b"not a leftover of ours")
    assert main(["build", "-q", HG, "--out", str(tmp_path), "--only", "cards"]) == 0
    assert capsys.readouterr().out.splitlines() == [str(folder / "cards.pdf")]
    assert _hidden(folder) == sorted(kept)
    assert (folder / "images" / "index.csv").read_bytes() == b"old set"  # ... so the old set is moved back


@posix_only
def test_remove_stale_only_touches_the_named_targets(tmp_path: Path) -> None:
    dead = _dead_pid()
    (tmp_path / f".report.md.{dead}.a1.tmp").write_bytes(b"x")
    (tmp_path / f".other.md.{dead}.a1.tmp").write_bytes(b"x")
    assert remove_stale(tmp_path, ["report.md"]) == [tmp_path / f".report.md.{dead}.a1.tmp"]
    assert _hidden(tmp_path) == [f".other.md.{dead}.a1.tmp"]
    assert remove_stale(tmp_path / "missing", ["report.md"]) == []


def test_a_staged_file_is_named_for_its_target_and_process(tmp_path: Path) -> None:
    tmp = stage_file(tmp_path / "map.pdf", b"%PDF")
    assert re.fullmatch(rf"\.map\.pdf\.{os.getpid()}\.[A-Za-z0-9_]+\.tmp", tmp.name)
    forge.pdf.discard(tmp)
    assert _hidden(tmp_path) == []


# ----------------------------------------------------------------------------------------------- signals
@posix_only
@pytest.mark.parametrize(
    ("sig", "status", "line"),
    [(signal.SIGINT, 130, "interrupted (SIGINT)"), (signal.SIGTERM, 143, "stopped by SIGTERM")],
)
def test_a_signal_during_a_build_leaves_no_temporary(sig: int, status: int, line: str, tmp_path: Path) -> None:
    folder = tmp_path / "first_panzer_army"
    folder.mkdir()
    (folder / "map.pdf").write_bytes(b"old")
    p = subprocess.Popen(
        _forge("build", FPA, "--out", str(tmp_path)),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert p.stderr is not None
    seen = []
    for text in p.stderr:  # wait until the build starts rendering (the handlers are in place), then signal
        seen.append(text)
        if text.startswith("building "):  # piped: no progress bar, this line comes just before the rendering
            p.send_signal(sig)
            break
    _, rest = p.communicate(timeout=120)
    err = "".join(seen) + rest
    assert p.returncode == status, err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == f"forge: {line}; no output was half-written"
    assert _hidden(tmp_path) == []
    written = (folder / "map.pdf").read_bytes()  # the old file, or (had the signal come late) a whole new one
    assert written == b"old" or (written.startswith(b"%PDF") and written.rstrip().endswith(b"%%EOF"))


@posix_only
def test_ctrl_c_while_importing_gives_no_traceback() -> None:
    """Ctrl-C while forge is being imported or run: one line, exit 130.

    The interpreter runs with -S (site-packages put on PYTHONPATH instead), so that the run measures forge's
    startup and not whatever .pth files a machine has; an interrupt that lands before forge's first line is the
    interpreter's own business and is recognised by a traceback without any frame in forge's functions.  The 24
    interrupts are spread over the time one uninterrupted run takes on this machine now (measured first), so that
    some land in forge however slow a loaded machine (or a parallel test run) makes the interpreter's start."""
    paths = [str(ROOT), sysconfig.get_path("purelib"), sysconfig.get_path("platlib")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    package = str(ROOT / "forge") + os.sep
    command = [sys.executable, "-S", "-m", "forge", "check", "-q", HG]
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    whole = time.perf_counter() - start
    statuses = []
    for i in range(24):
        p = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(whole * i / 24)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
        # No traceback through forge's code, except the few module-level lines run before run()'s try.
        frames = re.findall(r'File "([^"]*)", line \d+, in (\S+)', err)
        ours = [(f, fn) for f, fn in frames if f.startswith(package)]
        assert all(fn == "<module>" and f.endswith(("__init__.py", "__main__.py")) for f, fn in ours), err
        if p.returncode == 130:
            assert "Traceback" not in err
            assert err.splitlines()[-1].startswith("forge: interrupted (SIGINT)"), err
        statuses.append(p.returncode)
    assert 130 in statuses  # the interrupt did land in forge's imports or its run


# ----------------------------------------------------------------------------------------------- standard output
@posix_only
def test_a_closed_pipe_ends_quietly() -> None:
    p = subprocess.Popen(_forge("schema"), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None
    assert p.stderr is not None
    assert p.stdout.read(1) == b"{"
    p.stdout.close()
    err = p.stderr.read()
    p.stderr.close()
    assert p.wait(timeout=60) == 0
    assert err == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_a_full_disk_is_one_line() -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run(_forge("schema"), cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr == "forge schema: cannot write the output: No space left on device\n"


def test_no_catch_all_handlers() -> None:
    """Exceptions become messages in one place (the CLI's edge), for named exceptions only."""
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "forge").rglob("*.py"))
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"\s*except\s*(Exception\b|\(\s*Exception\b|:)", text)
    ]
    assert offenders == []


# ------------------------------------------------------------------------------ a folder component's place is a link
@pytest.mark.parametrize("component", ["images", "board"])
def test_a_linked_component_folder_is_refused_and_nothing_left(
    tmp_path: Path, component: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    real = tmp_path / "elsewhere"
    real.mkdir()
    (real / "keep.txt").write_text("mine")
    (out / "hells_gate").mkdir(parents=True)
    link = out / "hells_gate" / component
    link.symlink_to(real, target_is_directory=True)
    assert main(["build", HG, "--only", component, "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert "symbolic link" in err
    assert "Traceback" not in err
    assert link.is_symlink()
    assert sorted(p.name for p in real.iterdir()) == ["keep.txt"]
    assert _hidden(out / "hells_gate") == []


def test_commit_refuses_a_folder_onto_a_link_before_moving_anything(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "images"
    link.symlink_to(real, target_is_directory=True)
    tmp = stage_folder(link, [(PurePath("a.png"), b"x")])
    with pytest.raises(OSError, match="symbolic link"):
        commit([(tmp, link)])
    assert link.is_symlink()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".old")] == []


def test_commit_leaves_no_empty_old_folder_when_moving_aside_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "images"
    target.mkdir()
    (target / "old.png").write_bytes(b"old")
    tmp = stage_folder(target, [(PurePath("a.png"), b"new")])
    real_replace = os.replace

    def failing(src: object, dst: object) -> None:
        if Path(str(src)) == target:
            raise PermissionError(13, "Permission denied", str(src))
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(forge.pdf.os, "replace", failing)
    with pytest.raises(PermissionError):
        commit([(tmp, target)])
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".old")] == []
    assert (target / "old.png").read_bytes() == b"old"


def test_the_fuzz_linked_output_place_finds_no_crash(tmp_path: Path) -> None:
    """bench/fuzz.py's ``{linkout}``: a build into a game folder whose images/ and board/ are links is refused,
    the linked folder untouched, no ``.old`` or ``.tmp`` left (the crash it found before the fix)."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import fuzz
    finally:
        sys.path.remove(str(ROOT / "bench"))
    o = fuzz.run_cli_case(fuzz.CliCase(["build", "{game}", "--out", "{linkout}", "--only", "images,map"]), tmp_path)
    assert o.crash is None, o.crash
    assert o.status == 2


@posix_only
@pytest.mark.parametrize(("name", "filename"), [("cb", "<frozen importlib._bootstrap>"), ("__del__", "x.py")])
def test_an_interrupt_inside_a_callback_whose_exceptions_are_ignored_is_sent_again(name: str, filename: str) -> None:
    """Ctrl-C that lands in importlib's module-lock weakref callback (or a ``__del__``) was raised there, printed
    as "Exception ignored" with a traceback through forge, and lost: the run went on.  The handler now sends the
    signal again, to be taken once the callback has returned (a millisecond later: sent again at once, it was taken
    inside the handler, still under the callback), and puts the timer's SIGALRM handler back."""
    import types

    from forge import cli

    got: list[int] = []
    old = signal.signal(signal.SIGUSR1, lambda s, f: got.append(s))
    alarm = signal.getsignal(signal.SIGALRM)
    try:
        frame = types.SimpleNamespace(f_code=types.SimpleNamespace(co_name=name, co_filename=filename))
        cli._raise_for_signal(signal.SIGUSR1, frame)  # no exception here
        for _ in range(2000):  # the re-sent signal is taken a moment later
            if got:
                break
            time.sleep(0.001)
    finally:
        signal.signal(signal.SIGUSR1, old)
    assert got == [signal.SIGUSR1]
    assert signal.getsignal(signal.SIGALRM) == alarm


@posix_only
def test_an_interrupt_in_a_callback_that_swallows_it_comes_a_moment_later() -> None:
    """Ctrl-C landing in importlib's module-lock callback (or a ``__del__``) would be printed as ignored and lost
    (CI once saw it: 'Exception ignored in: <function _get_module_lock.<locals>.cb>'): the handler holds it back
    and a one-shot timer delivers it once the callback has returned.  Sent again at once, it was taken inside the
    handler itself, still under the callback."""
    import types

    from forge import cli

    code = types.SimpleNamespace(co_name="cb", co_filename="<frozen importlib._bootstrap>")
    callback = types.SimpleNamespace(f_code=code)
    before = signal.getsignal(signal.SIGALRM)
    with cli._signals_raised():
        cli._raise_for_signal(signal.SIGINT, callback)  # returns: nothing may be raised under the callback
        with pytest.raises(KeyboardInterrupt):
            _sleep_in_steps(2.0)
    assert signal.getsignal(signal.SIGALRM) == before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def _sleep_in_steps(seconds: float) -> None:
    for _ in range(int(seconds * 1000)):
        time.sleep(0.001)
