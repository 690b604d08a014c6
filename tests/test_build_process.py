"""How a ``forge build`` process spends its overheads (issue 23, build speed; docs/PERFORMANCE.md).

Properties: the game is loaded with the cyclic collector paused, and the collector is running and nothing is
left frozen when the build returns (an in-process caller keeps its own collector); the process of ``forge build``
ends without the interpreter's teardown (an ``atexit`` handler does not run), with its exit status, its standard
output complete and its files written, while other commands, and ``run()`` called by a program, end as before.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from forge import cli, loader

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "data" / "hells_gate.yaml"


def test_the_game_is_loaded_with_the_collector_paused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    real = loader.load_document

    def load_document(path: str):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real(path)

    monkeypatch.setattr(loader, "load_document", load_document)
    assert gc.isenabled()
    status = cli.main(["build", "-q", str(GAME), "--only", "counters", "--out", str(tmp_path)])
    assert status == 0
    assert seen == [False]
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    assert (tmp_path / "hells_gate" / "counters.pdf").stat().st_size > 1000


def test_a_bad_file_leaves_the_collector_running(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\ngame: [\n", encoding="utf-8")
    assert cli.main(["build", "-q", str(bad), "--out", str(tmp_path / "out")]) == 2
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


_SCRIPT = """
import atexit, sys
atexit.register(lambda: sys.stderr.write("TEARDOWN\\n"))
from forge.__main__ import run
sys.argv = ["forge", *sys.argv[1:]]
sys.exit(run())
"""


def _forge(*args: str) -> subprocess.CompletedProcess[str]:
    """``forge ARGS`` as the console script runs it (``sys.exit(run())`` at a program's top level)."""
    return subprocess.run(
        [sys.executable, "-c", _SCRIPT, *args], capture_output=True, text=True, cwd=ROOT, check=False, timeout=120
    )


def test_a_build_process_ends_without_the_interpreters_teardown(tmp_path: Path) -> None:
    r = _forge("build", str(GAME), "--out", str(tmp_path), "--only", "map,counters")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "TEARDOWN" not in r.stderr  # os._exit: no atexit handler, no module teardown
    assert r.stdout.splitlines() == [str(tmp_path / "hells_gate" / f"{n}.pdf") for n in ("map", "counters")]
    assert "done in" in r.stderr
    for name in ("map", "counters"):
        assert (tmp_path / "hells_gate" / f"{name}.pdf").read_bytes().endswith(b"%%EOF\n")


def test_a_failed_build_ends_early_with_its_status_too(tmp_path: Path) -> None:
    r = _forge("build", str(tmp_path / "missing.yaml"), "--out", str(tmp_path))
    assert r.returncode == 2
    assert "TEARDOWN" not in r.stderr
    assert "missing.yaml" in r.stderr


def test_other_commands_end_as_before() -> None:
    r = _forge("check", str(GAME))
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stderr.endswith("TEARDOWN\n")
