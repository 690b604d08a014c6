"""How a ``forge build`` process spends its overheads (issue 23, build speed; docs/PERFORMANCE.md).

Properties: the game is loaded with the cyclic collector paused, and the collector is running and nothing is
left frozen when the build returns (an in-process caller keeps its own collector).
"""

from __future__ import annotations

import gc
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
