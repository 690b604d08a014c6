"""Nothing inert (issue 21): every field of the model has a reader, by a walk over the model (forge/readers.py).

Properties: every field path of :class:`forge.model.Game` has an entry in :data:`forge.readers.READERS` and every
entry is a field; every module an entry names exists, has the role the entry gives it, and really reads the field
(an attribute of that name, a string subscript or a ``getattr`` in its source); every field marked ``refused`` is
refused by ``forge check`` when it is set, at its line and column; a documentation-only field says why.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import re
from pathlib import Path

import pytest

from forge import model as m
from forge import readers as R
from forge.errors import LoadError
from forge.loader import loads

ROOT = Path(__file__).resolve().parent.parent
FORGE = ROOT / "forge"
HALDEN = (ROOT / "data" / "halden_line.yaml").read_text(encoding="utf-8")


@functools.cache
def _reads(module: str) -> frozenset[str]:
    """The names ``forge.<module>``'s source reads: attributes, string subscripts, getattr's constant names."""
    spec = importlib.util.find_spec(f"forge.{module}")
    assert spec is not None, f"forge.{module}: no such module"
    assert spec.origin is not None, f"forge.{module}: no source"
    names: set[str] = set()
    for node in ast.walk(ast.parse(Path(spec.origin).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            names.add(str(node.slice.value))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
        ):
            names.add(str(node.args[1].value))
    return frozenset(names)


def test_every_field_has_an_entry_and_every_entry_is_a_field() -> None:
    paths = R.field_paths()
    missing = [p for p in paths if p not in R.READERS]
    assert missing == [], f"fields with no reader listed in forge/readers.py READERS: {missing}"
    stale = [p for p in R.READERS if p not in paths]
    assert stale == [], f"READERS entries that are no field of the model: {stale}"


def test_the_walk_reaches_deep_fields_and_the_new_ones() -> None:
    """The walk goes through lists, mappings, unions and optional sections (it would pass on a shallow walk)."""
    paths = R.field_paths()
    for p in (
        "units[].setup_zone",
        "map.setup_zones[].per_hex",
        "map.setup_zones[].within[].distance",
        "turns.turns[].length.days",
        "rules.movement.modes[].rate",
        "examples[].readings[].states",
        "unknown",
    ):
        assert p in paths, p
    assert paths["turns.turns[].length.hours"] == (m.TurnLength, "hours")
    assert len(paths) > 600


@pytest.mark.parametrize("path", sorted(R.READERS))
def test_each_named_reader_reads_the_field(path: str) -> None:
    entry = R.parse(R.READERS[path])
    if entry.documentation is not None:
        assert len(entry.documentation) > 20, f"{path}: say why it is kept for people only"
        return
    name = path.rsplit(".", 1)[-1]
    assert entry.modules(), path
    for role, module in entry.modules():
        assert R.role_of(module) in (None, role, "checked" if role == "refused" else None), (
            f"{path}: forge.{module} is no {role} module"
        )
        assert name in _reads(module), f"{path}: forge.{module} never reads .{name}"


def test_the_adaptor_is_the_one_place_that_lists_fields() -> None:
    assert R.fields_of(m.TurnLength) == {
        "days": m.TurnLength.model_fields["days"].annotation,
        "hours": m.TurnLength.model_fields["hours"].annotation,
    }
    assert R.is_model(m.Game)
    assert not R.is_model(object)
    assert not R.is_model(m.StrengthFormat)
    assert R.nested_models(m.Game.model_fields["units"].annotation) == [m.Unit]


def test_the_adaptor_walks_a_msgspec_model() -> None:
    """The same walk over msgspec Structs (the model may move there): lists and mappings take ``[]``."""
    track = _msgspec_track()
    leaf = R.nested_models(R.fields_of(track)["turns"])[0]
    assert R.is_model(track)
    assert R.field_paths(track) == {
        "turns": (track, "turns"),
        "turns[].days": (leaf, "days"),
        "by_id": (track, "by_id"),
        "by_id[].days": (leaf, "days"),
    }


def _msgspec_track() -> type:
    msgspec = pytest.importorskip("msgspec")
    leaf = msgspec.defstruct("Leaf", [("days", int | None, None)])
    return msgspec.defstruct("Track", [("turns", list[leaf]), ("by_id", dict[str, leaf], {})])  # type: ignore[valid-type]


def test_parse_refuses_a_malformed_entry() -> None:
    for bad in (
        "printed render.cards",
        "shown: render.cards",
        "printed: ",
        "documentation-only:  ",
        "printed: a; printed: b",
    ):
        with pytest.raises(ValueError, match=r"expected|no module|says why"):
            R.parse(bad)


def test_doctests() -> None:
    import doctest

    assert doctest.testmod(R).failed == 0


# ------------------------------------------------------------------------------------------------ refused
SAMPLES: dict[str, tuple[str, str]] = {
    # path -> (a line of The Halden Line, the same line with the field set)
    "game.year": ("  designer: the Hexforge project\n", "  designer: the Hexforge project\n  year: 1985\n"),
    "units[].counters": ("  - {id: k-1, ", "  - {id: k-1, counters: [[0, null], [1, null]], "),
    "map.hexsides[].reconstructed": (
        '    - {between: ["0801", "0901"], features: [river], name: Sellin}',
        '    - {between: ["0801", "0901"], features: [river], name: Sellin, reconstructed: true}',
    ),
    "map.paths[].reconstructed": ("    - {kind: railway, ", "    - {kind: railway, reconstructed: true, "),
    "rules.movement.mobile_assault.ignore_zoc_exit": (
        '  movement:\n    rule: "6.1"\n',
        '  movement:\n    rule: "6.1"\n    mobile_assault: {cost: 1, ignore_zoc_exit: true}\n',
    ),
}


def test_every_refused_field_has_a_sample() -> None:
    refused = sorted(p for p, e in R.READERS.items() if R.parse(e).refused)
    assert refused == sorted(SAMPLES)


@pytest.mark.parametrize("path", sorted(SAMPLES))
def test_check_refuses_a_refused_field_located(path: str) -> None:
    old, new = SAMPLES[path]
    assert old in HALDEN, old
    text = HALDEN.replace(old, new, 1)
    assert "check" in R.parse(R.READERS[path]).refused
    with pytest.raises(LoadError) as info:
        loads(text, "halden_line.yaml")
    problems = [str(p) for p in info.value.problems]
    pattern = re.escape(path).replace(r"\[\]", r"\[\d+\]")
    hits = [p for p in problems if re.search(rf"^halden_line\.yaml:\d+:\d+: {pattern}: ", p)]
    assert hits, problems
    assert "expected" in hits[0]


def test_the_errata_report_names_the_edition(tmp_path: Path) -> None:
    """game.edition's reader: the markdown errata report's heading (errata are of one edition)."""
    from forge import cli

    game = tmp_path / "h.yaml"
    game.write_text(
        HALDEN.replace(
            "  designer: the Hexforge project\n", "  designer: the Hexforge project\n  edition: second edition\n", 1
        ),
        "utf-8",
    )
    out = tmp_path / "r.md"
    cli.main(["verify", str(game), "--no-print-check", "--format", "markdown", "--report", str(out), "-q"])
    assert out.read_text("utf-8").startswith("# Errata report: The Halden Line, second edition (")


def test_the_walk_resolves_a_field_whose_class_is_defined_further_down() -> None:
    """A field annotated with a class defined after its own (``combat.alone_defense``) is a ForwardRef in
    pydantic's ``model_fields`` until pydantic first validates with it: the walk must not depend on that (it once
    missed 38 fields, or found them, by test order)."""
    import forge.model as m

    assert R.nested_models(R.fields_of(m.Combat)["alone_defense"]) == [m.AloneDefense]
    assert "combat.alone_defense[].defense" in R.field_paths()
