"""The loader: every data file loads; every kind of bad input gives one located message, fast and safely."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA, data_files

from forge.errors import LoadError
from forge.loader import load, loads

HG = (DATA / "hells_gate.yaml").read_text(encoding="utf-8")


def problems(text: str | bytes, name: str = "game.yaml") -> list[str]:
    with pytest.raises(LoadError) as info:
        loads(text, name)
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.name)
def test_every_data_file_loads(path: Path) -> None:
    game = load(path)
    assert game.game.id == path.stem


# ---------------------------------------------------------------------------------------------- bad files
BAD: dict[str, bytes] = {
    "tabs": b"game:\n\tid: x\n",
    "duplicate key": b"format: 1\nformat: 2\n",
    "utf16": "format: 1\n".encode("utf-16"),
    "bad utf8": b"a: \xc3\x28\n",
    "binary": bytes(range(256)) * 4,
    "empty": b"",
    "only whitespace": b"   \n\n",
    "comment only": b"# nothing\n",
    "list at top": b"- a\n- b\n",
    "scalar at top": b"hello\n",
    "python tag": b"a: !!python/object/apply:os.system ['echo pwned']\n",
    "custom tag": b"a: !thing 3\n",
    "deep nesting": b"a: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "deep block nesting": "".join(f"{' ' * i}k{i}:\n" for i in range(300)).encode(),
    "unclosed bracket": b"a: [1, 2\n",
    "bad indentation": b"a:\n  b: 1\n c: 2\n",
    "two documents": b"a: 1\n---\nb: 2\n",
}


def _alias_bomb() -> bytes:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return ("\n".join(lines) + "\n").encode()


BAD["alias bomb"] = _alias_bomb()


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_gives_clear_located_message(name: str) -> None:
    """Each bad file: LoadError (never another exception) whose messages name the file.

    How fast this is gets measured in bench/bench_load.py, not asserted here."""
    msgs = problems(BAD[name], "bad.yaml")
    assert msgs, name
    assert all(m.startswith("bad.yaml") for m in msgs)
    assert "Traceback" not in "\n".join(msgs)


def test_python_tag_is_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\n"
    problems(text)
    assert not marker.exists()


def test_tab_message_points_at_line_and_column() -> None:
    assert problems(b"game:\n  id: x\n\ttitle: y\n") == [
        "game.yaml:3:1: a tab is used for indentation (YAML indents with spaces only)"
    ]


def test_duplicate_key_names_both_lines() -> None:
    (msg,) = problems(b"format: 1\ngame: {}\nformat: 1\n")
    assert msg.startswith("game.yaml:3:1: format: duplicate key 'format'")
    assert "line 1" in msg


def test_yaml_12_scalars_keep_labels_as_text() -> None:
    """``0805`` stays a label and ``no`` stays a word (YAML 1.1 would give 0o805 / False)."""
    from forge.loader import parse_yaml

    doc = parse_yaml("a: 0805\nb: no\nc: 0705\nd: 12\ne: true\n", "x.yaml")
    assert doc.data == {"a": "0805", "b": "no", "c": "0705", "d": 12, "e": True}


# --------------------------------------------------------------------------------------- schema and references
def test_misspelt_key_gets_suggestion_and_accepted_keys() -> None:
    bad = HG.replace("C2: {terrain: woods", "C2: {terain: woods")
    (msg,) = problems(bad)
    assert "map.hexes.C2.terain: unknown key 'terain' (did you mean 'terrain'?)" in msg
    assert "accepted keys:" in msg
    line = next(i for i, t in enumerate(bad.splitlines(), 1) if "terain" in t)
    assert msg.startswith(f"game.yaml:{line}:")


def test_bad_enum_value_lists_choices_and_suggests() -> None:
    (msg,) = problems(HG.replace("labels: letter-row", "labels: leter-row"))
    assert "'leter-row' is not allowed" in msg
    assert "did you mean 'letter-row'" in msg


def test_all_problems_reported_at_once() -> None:
    bad = HG.replace("C2: {terrain: woods", "C2: {terain: woods").replace("labels: letter-row", "labels: x")
    assert len(problems(bad)) == 2


@pytest.mark.parametrize(
    ("old", "new", "expect"),
    [
        ("setup: C6,", "setup: H9,", "hex 'H9' is off the map (the map runs from A1 to G7)"),
        ("setup: C6,", "setup: Q,", "is not a hex label"),
        ("{between: [B7, B6]", "{between: [B7, B5]", "B7 and B5 are not adjacent"),
        ("{between: [A6, A5]", "{between: [B6, B7]", "already described"),
        ("entry: {turn: 1, hex: B7}", "entry: {turn: 9, hex: B7}", "after the last turn (8)"),
        (
            "side: german, group: infantry, name: 389th",
            "side: germn, group: infantry, name: 389th",
            "'germn' is not a known side (did you mean 'german'?)",
        ),
        (
            "shifts: [def-all-oos, woods, river, mud]",
            "shifts: [def-all-oos, wood, river, mud]",
            "'wood' is not a known shift id (did you mean 'woods'?)",
        ),
        (
            '- ["0/0", "0/0", "0/0", "0/0", "0/0", "0/1", "0/1", "1/2"]',
            '- ["0/0", "0/0", "0/0", "0/0", "0/0", "0/1", "1/2"]',
            "has 7 cells; the CRT has 8 columns",
        ),
        ('"3:2", "2:1"', '"2:1", "3:2"', "columns must run from the lowest odds"),
        ('"0/0", "0/1", "0/1", "1/2"]', '"0/0", "0/1", "0/1", "x/2"]', "'x/2' is not a hits cell"),
        ('steps: ["2", "?"], setup: C6', 'steps: ["2-1", "?"], setup: C6', "written as 'attack-defense'"),
        ("C2: {terrain: woods", "C2: {terrain: river", "terrain 'river' is of kind 'hexside'"),
        ("{number: 3, marks", "{number: 4, marks", "number the turns 1, 2, 3"),
        ("table: mud-roll", "table: mud-rol", "'mud-rol' is not a known table id"),
        ('given: {column: "2:1", die: 5', 'given: {column: "9:1", die: 5', "'9:1' is not a known CRT column"),
        ("hex_size: 1.75in", "hex_size: 1.75", "is not a length"),
        ("sheet: 17x11in", "sheet: 17by11", "is not a size"),
    ],
)
def test_cross_reference_problems(old: str, new: str, expect: str) -> None:
    assert old in HG, old
    msgs = problems(HG.replace(old, new, 1))
    assert any(expect in m for m in msgs), msgs
    line = next(i for i, t in enumerate(HG.replace(old, new, 1).splitlines(), 1) if new.split("\n")[0] in t)
    assert any(m.startswith(f"game.yaml:{line}:") for m in msgs), (line, msgs)


def test_unknown_values_are_explicit(hells_gate) -> None:  # type: ignore[no-untyped-def]
    from forge.model import Unknown

    oos = next(m for m in hells_gate.markers if m.id == "oos")
    assert isinstance(oos.count, Unknown)
    assert oos.count.unknown
    assert any(not s.known for u in hells_gate.units for s in u.strengths())


def test_reinforcements_come_from_units(hells_gate) -> None:  # type: ignore[no-untyped-def]
    r = hells_gate.reinforcements()
    assert sorted(u.id for u in r[1]) == ["ger-11pz", "ger-14pz"]
    assert [u.id for u in r[4]] == ["ger-24pz"]
    assert r[4][0].entry.condition


def test_load_missing_and_directory(tmp_path: Path) -> None:
    for p, expect in ((tmp_path / "nope.yaml", "no such file"), (tmp_path, "is a directory")):
        with pytest.raises(LoadError) as info:
            load(p)
        assert expect in str(info.value)


def test_anchors_aliases_and_merge_keys() -> None:
    from forge.loader import parse_yaml

    doc = parse_yaml("base: &b {x: 1, y: 2}\nc: {<<: *b, y: 3}\nd: *b\ne: [&s 5, *s]\n", "x.yaml")
    assert doc.data == {"base": {"x": 1, "y": 2}, "c": {"x": 1, "y": 3}, "d": {"x": 1, "y": 2}, "e": [5, 5]}
    assert doc.marks[("c", "y")] == (2, 16)


def test_pure_python_parser_agrees_with_libyaml() -> None:
    """Both event sources give the same data and marks for a real game file."""
    import forge.loader as L

    c_doc = L.parse_yaml(HG, "hg.yaml")
    saved = L._EventSource
    L._EventSource = L._Events
    try:
        py_doc = L.parse_yaml(HG, "hg.yaml")
        with pytest.raises(LoadError, match="nesting deeper"):
            loads(BAD["deep nesting"], "bad.yaml")
    finally:
        L._EventSource = saved
    assert py_doc.data == c_doc.data
    assert py_doc.marks == c_doc.marks
    assert py_doc.key_marks == c_doc.key_marks
