"""A formation's own markers (``markers[].group``; Escape's support fire pools, one per organisational group, 15.1):
printed in the formation's colour with its code in the label's place, so that a player can tell the pools apart in
colour and in greyscale; `forge check` refuses a group the side does not have."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA, forge_run

from forge import templates as T
from forge.errors import LoadError
from forge.loader import load
from forge.render import counters
from forge.render.style import Palette

ESCAPE = DATA / "escape_from_hells_gate.yaml"
SHIPPED = (Path(__file__).resolve().parent.parent / "templates" / "counter.yaml").read_text("utf-8")


def _marker_faces(mode: counters.Mode) -> dict[str, counters.Face]:
    game = load(ESCAPE)
    out: dict[str, counters.Face] = {}
    for group in counters.pieces(game, mode=mode):
        for p in group:
            if p.key.startswith("marker:"):
                out.setdefault(p.key.split(":")[1].split("#")[0], p.front)
    return out


def test_a_formations_markers_wear_its_colour_and_code() -> None:
    game = load(ESCAPE)
    faces = _marker_faces("colour")
    soviet = game.side("soviet")
    for mid, group in [("sf-27a", "27A"), ("sf-5gtc", "5GTC"), ("sf-52a", "52A")]:
        assert faces[mid].label == group
        assert faces[mid].background.lower() == soviet.groups[group].lower()
    assert faces["sf-encircled"].background.lower() == game.side("german").groups["Encircled"].lower()
    # every pool its own colour: none two alike among the groups' markers
    pools = [f.background.lower() for mid, f in faces.items() if f.label]
    assert len(pools) == len(set(pools)) == 14
    # a marker of no formation keeps its side's tint and no code
    assert faces["sf-red-air"].label == ""
    assert faces["sf-red-air"].background.lower() not in pools


def test_in_greyscale_every_pool_keeps_its_code() -> None:
    """Greys run out long before 14 pools do on other games' palettes: the code, not the grey, is what holds."""
    faces = _marker_faces("greyscale")
    pools = {mid: f for mid, f in faces.items() if mid.startswith("sf-") and mid not in ("sf-red-air", "sf-luftwaffe")}
    assert len(pools) == 14
    assert all(f.label for f in pools.values())


def test_the_code_is_drawn_above_the_text(tmp_path: Path) -> None:
    """The counter sheet's text: each pool's code printed on each of its markers."""
    import pypdfium2 as pdfium

    r = forge_run("build", str(ESCAPE), "--only", "counters", "--out", str(tmp_path), "-q")
    assert r.returncode == 0, r.stderr
    assert "does not fit" not in r.stderr
    pdf = pdfium.PdfDocument(tmp_path / "escape_from_hells_gate" / "counters.pdf")
    text = " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    game = load(ESCAPE)
    for mk in game.markers:
        if mk.group:
            assert text.count(mk.group) >= mk.count, mk.id  # type: ignore[operator]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("side: soviet, group: 27A,", "side: soviet, group: 27th,", "is not a known group of side 'soviet'"),
        ("side: soviet, group: 27A,", "group: 27A,", "give the side too"),
    ],
)
def test_check_refuses_a_group_the_side_does_not_have(tmp_path: Path, old: str, new: str, expected: str) -> None:
    text = ESCAPE.read_text("utf-8")
    assert text.count(old) == 1
    bad = tmp_path / "g.yaml"
    bad.write_text(text.replace(old, new), "utf-8")
    r = forge_run("check", str(bad))
    assert r.returncode == 2
    line = next(i for i, ln in enumerate(bad.read_text("utf-8").splitlines(), 1) if new in ln)
    assert f"g.yaml:{line}:" in r.stderr
    assert f"markers[3].group: {expected}" in r.stderr or ("markers[3].group: " in r.stderr and expected in r.stderr)


def test_a_template_whose_marker_box_rises_into_the_code_is_refused(tmp_path: Path) -> None:
    # the box from the top edge down to just below the code: the text centred in it lands on the code
    marker = "  w: 0.85\n  h: 0.85\n  size: 0.2\n"
    old = "  group_y: 0.25 "
    assert SHIPPED.count(old) == 1
    assert SHIPPED.count(marker) == 1
    text = SHIPPED.replace(old, "  group_y: 0.0 ").replace(marker, marker.replace("h: 0.85", "h: 0.3"))
    (tmp_path / "counter.yaml").write_text(text, "utf-8")
    with pytest.raises(LoadError) as e:
        counters.check_template(T.load(tmp_path))
    assert any("overlaps" in str(p) and ("label" in str(p) or "marker" in str(p)) for p in e.value.problems)


def test_palette_unit_colour_is_the_groups() -> None:
    game = load(ESCAPE)
    assert Palette.unit_colour(game, "german", "Relief").lower() == "#9e9e9e"
