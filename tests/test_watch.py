"""``forge watch`` (issue 24, item 5): a save rebuilds only the components whose inputs changed (a CRT edit the
cards, not the map); a file with an error prints its problems and the watch goes on; one real watchfiles test."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from forge import model as m
from forge import watch
from forge.builder import COMPONENT_INPUTS, BuildOptions, build, inputs_of
from forge.cli import main
from forge.loader import load

DATA = Path(__file__).resolve().parent.parent / "data"


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "ferry_point.yaml"
    shutil.copy(DATA / "ferry_point.yaml", path)
    return path


def _edit_crt(path: Path) -> None:
    """Change one CRT cell of Ferry Point (a die row's first result)."""
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    i = next(i for i, line in enumerate(lines) if line.lstrip().startswith("cells:")) + 1
    assert lines[i].lstrip().startswith("- [")
    first = lines[i].index('"') + 1
    old = lines[i][first : lines[i].index('"', first)]
    lines[i] = lines[i][:first] + ("9/9" if old != "9/9" else "8/8") + lines[i][first + len(old) :]
    path.write_text("".join(lines))


def _edit_title(path: Path) -> None:
    text = path.read_text()
    assert "title: Ferry Point" in text
    path.write_text(text.replace("title: Ferry Point", "title: Ferry Point Revised", 1))


def _watcher(path: Path, out: Path, only: tuple[str, ...], log: list[str]) -> watch.Watcher:
    options = BuildOptions(only=only)

    def load_or_none(p: str) -> m.Game | None:
        try:
            return load(p)
        except Exception as e:  # the CLI prints a LoadError's problems; here they are kept
            log.append(f"error: {e}")
            return None

    return watch.Watcher(
        str(path),
        options,
        load=load_or_none,
        build=lambda game, opts, keep: build(game, out, opts, keep=keep),
        echo=log.append,
    )


def _edits(path: Path, *edits: Any) -> Iterator[object]:
    """A fake event stream: each batch is yielded after its edit is made, as watchfiles yields after a save."""
    for edit in edits:
        edit(path)
        yield {("modified", str(path))}


def test_a_crt_edit_rebuilds_the_cards_not_the_map(tmp_path: Path) -> None:
    path, out, log = _copy(tmp_path), tmp_path / "out", []
    w = _watcher(path, out, ("map", "counters", "cards"), log)
    rounds = watch.run(w, _edits(path, _edit_crt))
    assert rounds == 2
    assert w.rebuilds == [("map", "counters", "cards"), ("cards",)]
    assert "built cards in" in log[-1]
    folder = out / "ferry_point"
    assert {p.name for p in folder.glob("*.pdf")} == {"map.pdf", "counters.pdf", "cards.pdf"}  # the map kept
    fresh = build(load(path), tmp_path / "fresh", BuildOptions(only=("map", "counters", "cards")))
    for name in ("map", "counters", "cards"):  # every file is what a build from scratch of the edit writes
        assert (folder / f"{name}.pdf").read_bytes() == fresh.rendered[name], name


def test_a_title_edit_rebuilds_everything_and_no_edit_nothing(tmp_path: Path) -> None:
    path, out, log = _copy(tmp_path), tmp_path / "out", []
    w = _watcher(path, out, ("map", "cards"), log)
    watch.run(w, _edits(path, lambda p: p.write_text(p.read_text() + "\n# a comment\n"), _edit_title))
    assert w.rebuilds == [("map", "cards"), (), ("map", "cards")]
    assert "nothing rebuilt" in log[1]


def test_an_error_is_printed_and_the_watch_goes_on(tmp_path: Path) -> None:
    path, out, log = _copy(tmp_path), tmp_path / "out", []
    good = path.read_text()
    w = _watcher(path, out, ("map", "cards"), log)

    def bad(p: Path) -> None:
        p.write_text(good.replace("format: 1", "format: [1", 1))

    def fixed(p: Path) -> None:
        p.write_text(good)
        _edit_crt(p)

    rounds = watch.run(w, _edits(path, bad, fixed))
    assert rounds == 3
    assert any(line.startswith("error:") for line in log)
    assert w.rebuilds == [("map", "cards"), ("cards",)]  # the failed round rebuilt nothing; the next went on


def test_max_rounds_stops_the_loop() -> None:
    calls: list[int] = []

    class Once(watch.Watcher):
        def __init__(self) -> None:
            pass

        def step(self) -> tuple[str, ...]:
            calls.append(1)
            return ()

    assert watch.run(Once(), iter(range(100)), max_rounds=3) == 3
    assert len(calls) == 3


def test_fingerprints_change_only_with_the_sections_read() -> None:
    game = load(DATA / "hells_gate.yaml")
    before = watch.fingerprints(game, ("map", "counters", "cards", "handout"))
    crt = game.combat.crt
    assert crt is not None
    edited = game.model_copy(update={"combat": game.combat.model_copy(update={"note": "changed"})})
    after = watch.fingerprints(edited, ("map", "counters", "cards", "handout"))
    assert after["map"] == before["map"]
    assert after["counters"] == before["counters"]
    assert after["cards"] != before["cards"]
    assert after["handout"] != before["handout"]


@pytest.mark.parametrize("name", ["hells_gate", "escape_from_hells_gate"])
@pytest.mark.parametrize("component", sorted(COMPONENT_INPUTS))
def test_a_component_reads_only_the_sections_it_is_said_to(
    component: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every section a renderer reads is one :data:`COMPONENT_INPUTS` names: else an edit of it would not rebuild
    the component.  Recorded by watching the game's attributes while it renders (Escape: scenarios, set-up zones,
    markers of formations)."""
    import importlib

    game = load(DATA / f"{name}.yaml")
    fields = set(m.Game.model_fields)
    read: set[str] = set()
    plain = m.Game.__getattribute__

    def spy(self: m.Game, name: str) -> Any:
        if name in fields and self is game:
            read.add(name)
        return plain(self, name)

    module = importlib.import_module(f"forge.render.{component}")
    monkeypatch.setattr(m.Game, "__getattribute__", spy)
    module.render(game, BuildOptions(only=(component,)))
    monkeypatch.undo()
    assert read
    assert read <= set(inputs_of(component)), read - set(inputs_of(component))


def test_forge_watch_command_builds_then_rebuilds_on_a_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, out = _copy(tmp_path), tmp_path / "out"
    monkeypatch.setattr(watch, "changes", lambda p: _edits(Path(p), _edit_crt))
    status = main(["watch", str(path), "--only", "map,cards", "--out", str(out)])
    captured = capsys.readouterr()
    assert status == 0
    lines = captured.out.splitlines()
    assert len(lines) == 2
    assert "built map, cards in" in lines[0]
    assert "built cards in" in lines[1]
    assert "Traceback" not in captured.err


def test_forge_watch_ctrl_c_exits_0_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _copy(tmp_path)

    def interrupted(p: str) -> Iterator[object]:
        raise KeyboardInterrupt
        yield  # pragma: no cover

    monkeypatch.setattr(watch, "changes", interrupted)
    assert main(["watch", str(path), "--only", "cards", "--out", str(tmp_path / "out")]) == 0
    assert "interrupted" not in capsys.readouterr().err


def test_forge_watch_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", str(DATA / "ferry_point.yaml"), str(DATA / "hells_gate.yaml")]) == 2
    assert "one game file" in capsys.readouterr().err


def test_a_real_save_is_seen_by_watchfiles(tmp_path: Path) -> None:
    path, out, log = _copy(tmp_path), tmp_path / "out", []
    w = _watcher(path, out, ("cards",), log)
    stop = threading.Event()
    done: list[int] = []
    thread = threading.Thread(
        target=lambda: done.append(watch.run(w, watch.changes(str(path), stop=stop), max_rounds=2)), daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 60
    while not w.rebuilds and time.monotonic() < deadline:  # the first build
        time.sleep(0.05)
    while thread.is_alive() and time.monotonic() < deadline:  # saved again until seen: the watcher starts after
        _edit_crt(path)  # the first build, at a moment the test does not know
        thread.join(timeout=3)
    stop.set()
    assert done == [2]
    assert w.rebuilds == [("cards",), ("cards",)]
