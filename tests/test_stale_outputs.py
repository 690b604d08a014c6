"""Outputs of earlier builds (issue 25, item 32): a build removes what an earlier build wrote in ``OUT/<game>/``
(listed in its manifest, unchanged since) and it did not write again; nothing else, and never half-way."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import DATA

import forge.builder
import forge.pdf
import forge.render.cards
from forge.builder import MANIFEST, BuildOptions, build, read_manifest
from forge.cli import main

HG = str(DATA / "hells_gate.yaml")


def _names(folder: Path) -> list[str]:
    """Every file and folder under ``folder``, relative, the manifest included."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def _top(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_handout_of_an_earlier_sets_build_is_removed(hells_gate: object, tmp_path: Path) -> None:
    build(hells_gate, tmp_path, BuildOptions(only=("map", "handout"), sets=2))  # type: ignore[arg-type]
    folder = tmp_path / "hells_gate"
    assert _top(folder) == [MANIFEST, "handout.pdf", "map.pdf"]
    built = build(hells_gate, tmp_path, BuildOptions(only=("map",)))  # type: ignore[arg-type]
    assert _top(folder) == [MANIFEST, "map.pdf"]
    assert built.removed == [folder / "handout.pdf"]
    assert built.warnings == []
    assert list(read_manifest(folder)) == ["map.pdf"]


def test_images_of_a_print_shop_build_are_removed(hells_gate: object, tmp_path: Path) -> None:
    build(hells_gate, tmp_path, BuildOptions(only=("cards", "images"), bleed=True))  # type: ignore[arg-type]
    folder = tmp_path / "hells_gate"
    assert (folder / "images" / "index.csv").is_file()
    assert any(rel.startswith("images/") for rel in read_manifest(folder))
    build(hells_gate, tmp_path, BuildOptions(only=("cards",)))  # type: ignore[arg-type]
    assert _top(folder) == [MANIFEST, "cards.pdf"]
    assert not [p for p in folder.iterdir() if p.name.endswith((".old", ".tmp"))]


def test_counters_are_removed_after_only_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "-q", HG, "--out", str(tmp_path)]) == 0
    folder = tmp_path / "hells_gate"
    assert _top(folder) == [MANIFEST, "cards.pdf", "counters.pdf", "map.pdf"]
    capsys.readouterr()
    assert main(["build", "-q", HG, "--out", str(tmp_path), "--only", "map"]) == 0
    assert _top(folder) == [MANIFEST, "map.pdf"]
    assert capsys.readouterr().err.count("removed ") == 2  # each removal said (the test below names them)


def test_a_users_own_files_are_kept(hells_gate: object, tmp_path: Path) -> None:
    """A file of the user's next to the outputs, one named like a component the manifest never listed, and one the
    user put inside an earlier build's images/ (which keeps that folder whole)."""
    folder = tmp_path / "hells_gate"
    folder.mkdir()
    (folder / "notes.txt").write_bytes(b"mine")
    (folder / "handout.pdf").write_bytes(b"my own handout, not a build's")
    build(hells_gate, tmp_path, BuildOptions(only=("counters", "images")))  # type: ignore[arg-type]
    (folder / "images" / "my-scan.png").write_bytes(b"mine too")
    built = build(hells_gate, tmp_path, BuildOptions(only=("map",)))  # type: ignore[arg-type]
    assert _top(folder) == [MANIFEST, "handout.pdf", "images", "map.pdf", "notes.txt"]
    assert (folder / "notes.txt").read_bytes() == b"mine"
    assert (folder / "handout.pdf").read_bytes() == b"my own handout, not a build's"
    assert (folder / "images" / "my-scan.png").read_bytes() == b"mine too"
    assert (folder / "images" / "index.csv").is_file()
    assert built.removed == [folder / "counters.pdf"]
    assert [w.message for w in built.warnings] == [
        f"kept {folder / 'images'}/: an earlier build wrote it, and it has changed since (remove it yourself if it "
        "is no longer wanted)"
    ]
    assert list(read_manifest(folder)) == ["map.pdf"]  # no longer a build's: the next build leaves it alone too
    assert build(hells_gate, tmp_path, BuildOptions(only=("map",))).warnings == []  # type: ignore[arg-type]
    assert (folder / "images" / "index.csv").is_file()


def test_a_manifest_never_removes_anything_but_a_component(hells_gate: object, tmp_path: Path) -> None:
    """A hand-edited (or hostile) manifest listing a user's file, or a path outside the folder, removes nothing."""
    folder = tmp_path / "hells_gate"
    folder.mkdir()
    (folder / "notes.txt").write_bytes(b"mine")
    (tmp_path / "outside.pdf").write_bytes(b"x")
    digest = {"size": 4, "sha256": "2c1b9ed4ff0b27c8e9dbba2d2e8a74896f2a4d9eb15a7e1d1e5f07a7ab9cc5fe"}
    listed = {"notes.txt": digest, "../outside.pdf": {"size": 1}, "images/../../outside.pdf": {"size": 1}}
    manifest = {"format": forge.builder.MANIFEST_FORMAT, "files": listed}
    (folder / MANIFEST).write_text(json.dumps(manifest))
    build(hells_gate, tmp_path, BuildOptions(only=("counters",)))  # type: ignore[arg-type]
    assert _top(folder) == [MANIFEST, "counters.pdf", "notes.txt"]
    assert (tmp_path / "outside.pdf").is_file()


def test_a_changed_earlier_output_is_kept_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "-q", HG, "--out", str(tmp_path), "--only", "map,counters"]) == 0
    folder = tmp_path / "hells_gate"
    counters = folder / "counters.pdf"
    counters.write_bytes(counters.read_bytes() + b"% annotated by hand\n")
    capsys.readouterr()
    assert main(["build", "-q", HG, "--out", str(tmp_path), "--only", "map"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"{HG}: warning: kept {counters}: an earlier build wrote it, and it has changed since (remove it yourself "
        "if it is no longer wanted)"
    ]
    assert _top(folder) == [MANIFEST, "counters.pdf", "map.pdf"]
    assert counters.read_bytes().endswith(b"% annotated by hand\n")


def test_a_file_of_the_same_size_but_other_bytes_is_kept(hells_gate: object, tmp_path: Path) -> None:
    build(hells_gate, tmp_path, BuildOptions(only=("map", "counters")))  # type: ignore[arg-type]
    counters = tmp_path / "hells_gate" / "counters.pdf"
    data = bytearray(counters.read_bytes())
    data[-10] ^= 1
    counters.write_bytes(bytes(data))
    built = build(hells_gate, tmp_path, BuildOptions(only=("map",)))  # type: ignore[arg-type]
    assert counters.is_file()
    assert built.removed == []


@pytest.mark.parametrize("where", ["render", "stage", "commit"])
def test_an_interrupted_build_leaves_the_previous_manifest_and_files(
    where: str, hells_gate: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception while rendering (the second component), while writing the temporaries (the manifest's), or
    while moving the first file into place: the previous files and manifest are all there, byte for byte, and no
    earlier output is removed."""
    build(hells_gate, tmp_path, BuildOptions(only=("counters", "handout"), sets=2))  # type: ignore[arg-type]
    folder = tmp_path / "hells_gate"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(before) == [MANIFEST, "counters.pdf", "handout.pdf"]
    if where == "render":

        def broken(*_: object) -> bytes:
            raise RuntimeError("renderer failed")

        monkeypatch.setattr(forge.render.cards, "render", broken)
    elif where == "stage":
        real = forge.pdf._write_fd

        def failing(fd: int, data: bytes, name: Path, mode: int | None = None) -> None:
            if name.name == MANIFEST:
                os.close(fd)
                raise OSError(28, "No space left on device")
            real(fd, data, name, mode)

        monkeypatch.setattr(forge.pdf, "_write_fd", failing)
    else:
        real_replace = os.replace

        def refused(src: str | Path, dst: str | Path) -> None:  # the earlier outputs are moved aside by then
            if Path(dst).name == "cards.pdf":
                raise OSError(13, "Permission denied")
            real_replace(src, dst)

        monkeypatch.setattr(os, "replace", refused)
    with pytest.raises((RuntimeError, OSError)):
        build(hells_gate, tmp_path, BuildOptions(only=("map", "cards")))  # type: ignore[arg-type]
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name != "map.pdf"} == before


def test_an_earlier_output_moved_aside_by_a_killed_build_comes_back(tmp_path: Path) -> None:
    """kill -9 between moving an earlier output aside and deleting it: the next build puts it back in its place
    (its manifest may still list it), and removes it only if that build's own rule says so."""
    import subprocess
    import sys

    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    folder = tmp_path / "hells_gate"
    folder.mkdir()
    (folder / f".handout.pdf.{p.pid}.ab12.old").write_bytes(b"%PDF earlier handout")
    assert main(["build", "-q", HG, "--out", str(tmp_path), "--only", "counters"]) == 0
    assert _top(folder) == [MANIFEST, "counters.pdf", "handout.pdf"]
    assert (folder / "handout.pdf").read_bytes() == b"%PDF earlier handout"


@pytest.mark.parametrize("case", [0, 4])
def test_the_earlier_outputs_fuzz_kind_finds_nothing(case: int, tmp_path: Path) -> None:
    """bench/fuzz_options.py's earlier-outputs kind, in process, on two of its sequences (an earlier output edited,
    an earlier output deleted, a file of the user's)."""
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import fuzz_options
    finally:
        sys.path.remove(str(ROOT / "bench"))
    rows = fuzz_options.earlier_job(0, case)(tmp_path)
    assert len(rows) >= 2
    assert [r["why"] for r in rows if r["outcome"] != "ok"] == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_an_unreadable_folder_of_an_earlier_build_is_kept(hells_gate: object, tmp_path: Path) -> None:
    """A folder added inside an earlier build's images/, unreadable: the images are kept (never a traceback)."""
    build(hells_gate, tmp_path, BuildOptions(only=("images",)))  # type: ignore[arg-type]
    sub = tmp_path / "hells_gate" / "images" / "locked"
    sub.mkdir()
    sub.chmod(0)
    try:
        built = build(hells_gate, tmp_path, BuildOptions(only=("counters",)))  # type: ignore[arg-type]
    finally:
        sub.chmod(0o755)
    assert built.removed == []
    assert (tmp_path / "hells_gate" / "images" / "index.csv").is_file()


def test_the_command_says_which_earlier_outputs_it_removed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file gone from the folder is never a surprise: each removal is one line on standard error."""
    assert main(["build", "-q", HG, "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["build", "-q", HG, "--out", str(tmp_path), "--only", "map"]) == 0
    err = capsys.readouterr().err
    for name in ("counters.pdf", "cards.pdf"):
        assert f"removed {tmp_path / 'hells_gate' / name} (an earlier build's output" in err
