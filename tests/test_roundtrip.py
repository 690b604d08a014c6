"""The printed-table round trip: what the cards print is what the engine uses, and a misprint is caught."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA, data_files

from forge.builder import BuildOptions
from forge.loader import load
from forge.model import Game, UnitType
from forge.render import cards
from forge.verifier.readback import check_cards, roundtrip


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_every_game_prints_what_the_engine_uses(path: Path) -> None:
    assert roundtrip(load(path)) == []


def _printed(game: Game) -> bytes:
    return cards.render(game, BuildOptions(only=("cards",)))


def _with_crt_cell(game: Game, i: int, j: int, value: str) -> Game:
    crt = game.combat.crt
    assert crt is not None
    assert isinstance(crt.cells, list)
    cells = [list(r) for r in crt.cells]
    cells[i][j] = value
    return game.model_copy(
        update={"combat": game.combat.model_copy(update={"crt": crt.model_copy(update={"cells": cells})})}
    )


def test_misprinted_crt_cell_is_named(hells_gate: Game) -> None:
    misprint = _printed(_with_crt_cell(hells_gate, 3, 4, "0/0"))  # 3:1 on a 4 printed 0/0 instead of 1/2
    (f,) = check_cards(hells_gate, misprint)
    assert f.kind == "print-mismatch"
    assert "CRT row 4, column 3:1" in f.message
    assert f.computed == "1/2"


def test_misprinted_shift_terrain_table_and_turn_track(hells_gate: Game) -> None:
    c = hells_gate.combat
    shifts = [s.model_copy(update={"shift": 1}) if s.id == "mud" else s for s in c.shifts]
    terrain = dict(hells_gate.terrain)
    terrain["woods"] = terrain["woods"].model_copy(update={"movement": {"all": 2}})
    mud = hells_gate.tables[0]
    rows = [mud.rows[0].model_copy(update={"cells": ["mud", "mud", "mud", "snow", "snow", "snow"]})]
    units = [
        u.model_copy(update={"entry": u.entry.model_copy(update={"turn": 2})}) if u.id == "ger-14pz" and u.entry else u
        for u in hells_gate.units
    ]
    wrong = hells_gate.model_copy(
        update={
            "combat": c.model_copy(update={"shifts": shifts}),
            "terrain": terrain,
            "tables": [mud.model_copy(update={"rows": rows}), *hells_gate.tables[1:]],
            "units": units,
        }
    )
    found = {(f.kind, f.ref) for f in check_cards(hells_gate, _printed(wrong))}
    assert found == {
        ("print-mismatch", "combat.shifts.mud"),
        ("print-mismatch", "terrain.woods"),
        ("print-mismatch", "tables.mud-roll"),
        ("print-mismatch", "turns"),
    }


def test_missing_table_is_reported(hells_gate: Game) -> None:
    printed = _printed(hells_gate.model_copy(update={"tables": []}))
    refs = {f.ref for f in check_cards(hells_gate, printed) if f.kind == "print-missing"}
    assert refs == {"tables.mud-roll", "tables.breakout"}


def test_map_turn_track_is_read_back(hells_gate: Game) -> None:
    from forge.render import map as map_
    from forge.verifier.readback import check_map_track

    options = BuildOptions(only=("map",), paper="tabloid")
    assert check_map_track(hells_gate, map_.render(hells_gate, options)) == []
    units = [
        u.model_copy(update={"entry": u.entry.model_copy(update={"turn": 2})}) if u.id == "ger-14pz" and u.entry else u
        for u in hells_gate.units
    ]
    misprint = map_.render(hells_gate.model_copy(update={"units": units}), options)
    found = check_map_track(hells_gate, misprint)
    assert [(f.kind, f.message.split(" is printed")[0]) for f in found] == [
        ("print-mismatch", "map.pdf: turn 1 on the turn track"),
        ("print-mismatch", "map.pdf: turn 2 on the turn track"),
    ]


def _misprinted_entry(game: Game) -> Game:
    units = [
        u.model_copy(update={"entry": u.entry.model_copy(update={"turn": 2})}) if u.id == "ger-14pz" and u.entry else u
        for u in game.units
    ]
    return game.model_copy(update={"units": units})


def test_a_turn_track_on_a_later_page_is_read(hells_gate: Game) -> None:
    """Every page is read: a track printed on page 2 is found there, not reported missing, and a misprint on that
    page is still caught."""
    import io

    from pypdf import PdfWriter

    from forge.render import map as map_
    from forge.verifier.readback import check_map_track

    options = BuildOptions(only=("map",), paper="tabloid")

    def behind_a_blank_page(pdf: bytes) -> bytes:
        w = PdfWriter()
        w.add_blank_page(612, 792)
        w.append(io.BytesIO(pdf))
        out = io.BytesIO()
        w.write(out)
        return out.getvalue()

    assert check_map_track(hells_gate, behind_a_blank_page(map_.render(hells_gate, options))) == []
    found = check_map_track(hells_gate, behind_a_blank_page(map_.render(_misprinted_entry(hells_gate), options)))
    assert {f.message.split(" is printed")[0] for f in found} == {
        "map.pdf: turn 1 on the turn track",
        "map.pdf: turn 2 on the turn track",
    }


def test_a_tiled_map_track_is_read_once(hells_gate: Game) -> None:
    """Tiled on Letter, the track is printed on several tiles; each box is read once, so nothing is doubled, and a
    misprint is caught."""
    from forge.render import map as map_
    from forge.verifier.readback import check_map_track

    options = BuildOptions(only=("map",), paper="letter")
    assert check_map_track(hells_gate, map_.render(hells_gate, options)) == []
    found = check_map_track(hells_gate, map_.render(_misprinted_entry(hells_gate), options))
    assert [f.kind for f in found] == ["print-mismatch", "print-mismatch"]


def test_a_tiled_map_track_is_read_only_where_the_drawing_placed_it(
    hells_gate: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given what the map's drawing recorded, the read-back reads only the tiles where it placed a turn number or
    a reinforcement's label, and finds what reading every tile finds: the same misprints, nothing missing (issue
    25, item 31: reading every tile's text was nearly all of verify's time on a large map)."""
    from forge import pdftext
    from forge.canvas import Recorder
    from forge.render import map as map_
    from forge.verifier.readback import check_map_track

    read: list[int] = []
    real = pdftext.Document.page

    def counting(self: pdftext.Document, index: int):  # type: ignore[no-untyped-def]
        read.append(index)
        return real(self, index)

    monkeypatch.setattr(pdftext.Document, "page", counting)
    options = BuildOptions(only=("map",), paper="letter")
    for game, misprints in ((hells_gate, 0), (_misprinted_entry(hells_gate), 2)):
        rec = Recorder("map.pdf")
        pdf = map_.render(game, options, recorder=rec)
        read.clear()
        every = check_map_track(hells_gate, pdf)
        pages = len(read)
        read.clear()
        assert check_map_track(hells_gate, pdf, rec) == every
        assert len([f for f in every if f.kind == "print-mismatch"]) == misprints
        assert 0 < len(read) < pages  # some tiles hold no part of the track
    rec = Recorder("map.pdf")
    pdf = map_.render(hells_gate, options, recorder=rec)
    rec.pages.append(rec.pages[-1])  # a recording that is not page for page the PDF's: every page is read
    read.clear()
    assert check_map_track(hells_gate, pdf, rec) == []
    assert len(read) == pages


def test_counter_strengths_are_read_back(hells_gate: Game) -> None:
    """The counter sheet prints each known strength after its unit's label, front and back; a misprinted
    strength is named with its unit."""
    from forge.render import counters
    from forge.verifier.readback import check_counters

    options = BuildOptions(only=("counters",))
    assert check_counters(hells_gate, counters.render(hells_gate, options)) == []
    known = next(u for u in hells_gate.units if u.steps[0] == "3")
    units = [u.model_copy(update={"steps": ["4", *u.steps[1:]]}) if u.id == known.id else u for u in hells_gate.units]
    found = check_counters(hells_gate, counters.render(hells_gate.model_copy(update={"units": units}), options))
    assert [(f.kind, f.ref, f.computed) for f in found] == [("print-mismatch", f"units.{known.id}", "3")]


def test_limits_are_printed_and_read_back() -> None:
    """The limits the engine checks examples against are on the cards; a misprinted count is named."""
    from forge.render import cards
    from forge.verifier.readback import check_cards

    game = load(DATA / "ukraine_43.yaml")
    assert game.rules.limits is not None
    assert game.rules.limits.counts
    first, *rest = game.rules.limits.counts
    assert isinstance(first.max, int)
    misprinted = game.rules.limits.model_copy(
        update={"counts": [first.model_copy(update={"max": first.max + 1}), *rest]}
    )
    other = game.model_copy(update={"rules": game.rules.model_copy(update={"limits": misprinted})})
    found = check_cards(game, cards.render(other, BuildOptions(only=("cards",))))
    assert [(f.kind, f.ref) for f in found] == [("print-mismatch", f"rules.limits.{first.id}")]


def _with_all_out(game: Game, **update: object) -> Game:
    crt = game.combat.crt
    assert crt is not None
    assert crt.all_out is not None
    all_out = crt.all_out.model_copy(update=update)
    return game.model_copy(
        update={"combat": game.combat.model_copy(update={"crt": crt.model_copy(update={"all_out": all_out})})}
    )


def _flat(pdf: bytes) -> str:
    import io
    import re

    import pypdf

    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages))


def test_the_crt_card_prints_the_all_out_rule_from_the_data(hells_gate: Game) -> None:
    """combat.crt.all_out is applied by the engine, so the CRT's legend says it, made from the data: the types
    flipped first, the crowded hex's size and each half's rule (the crowding's own, 7.4); once (Hell's Gate's own
    note no longer says the crowding)."""
    text = _flat(_printed(hells_gate))
    said = (
        "An all-out attack flips one full-strength attacker (armour first) (7.3); a hex of 5 or more unretreated "
        "units takes the all-out result of every attack (7.4)."
    )
    assert said in text
    assert text.count("or more unretreated") == 1  # said once, not again in the note
    changed = _with_all_out(hells_gate, flip_first=[UnitType.ARMOUR, UnitType.MECHANISED], crowded_units=None)
    text = _flat(_printed(changed))
    assert "An all-out attack flips one full-strength attacker (armour first, then mechanised) (7.3)." in text
    assert "or more unretreated" not in text
    anyone = _with_all_out(hells_gate, flip_first=[], crowded_units=7)
    assert "(the attacker's choice) (7.3); a hex of 7 or more unretreated units" in _flat(_printed(anyone))


def test_a_card_without_the_all_out_rule_is_named(hells_gate: Game) -> None:
    """The read-back finds the all-out sentence on the cards the build writes, and names its absence on cards
    printed for other all-out settings."""
    assert check_cards(hells_gate, _printed(hells_gate)) == []
    other = _printed(_with_all_out(hells_gate, crowded_units=6))
    (f,) = check_cards(hells_gate, other)
    assert (f.kind, f.ref) == ("print-missing", "combat.crt.all_out")
    assert "all-out rule under the CRT" in f.message


def test_the_print_check_reads_uncompressed_copies_with_the_same_text(
    hells_gate: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """verify's in-memory cards, counters and map are written without zlib (``forge.pdf.uncompressed``) and
    without painting the shapes drawn through forge.canvas (``forge.canvas.text_only``): no stream of theirs is
    compressed, the cards and the map hold no filled or stroked path (the counters fewer: some of their marks are
    drawn on reportlab directly), and each reads back the very text of the file a build writes.  Outside the
    print check a PDF is compressed and painted as before."""
    from forge.render import counters
    from forge.render import map as map_
    from forge.verifier import readback

    seen: dict[str, bytes] = {}

    def spying(name: str):  # type: ignore[no-untyped-def]
        real = getattr(readback, name)

        def spy(game: Game, pdf: bytes, *a: object, **kw: object):  # type: ignore[no-untyped-def]
            seen[name] = pdf
            return real(game, pdf, *a, **kw)

        return spy

    for name in ("check_cards", "check_counters", "check_map_track"):
        monkeypatch.setattr(readback, name, spying(name))
    assert roundtrip(hells_gate) == []
    built = {
        "check_cards": _printed(hells_gate),
        "check_counters": counters.render(hells_gate, BuildOptions(only=("counters",))),
        "check_map_track": map_.render(hells_gate, BuildOptions(only=("map",), paper="tabloid")),
    }
    assert set(seen) == set(built)
    for name, pdf in seen.items():
        assert b"/FlateDecode" not in pdf, name
        assert b"/FlateDecode" in built[name], name
        assert readback.printed_text(pdf) == readback.printed_text(built[name]), name
        painted = _painted_paths(pdf)
        assert painted < _painted_paths(built[name]), name
        if name != "check_counters":
            assert painted == 0, name


def _painted_paths(pdf: bytes) -> int:
    """How many path objects of the PDF (on its pages and in their forms) are filled or stroked."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    n = 0
    for i in range(len(doc)):
        for obj in doc[i].get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=15):
            fill, stroke = ctypes.c_int(), ctypes.c_int()
            raw.FPDFPath_GetDrawMode(obj, fill, stroke)
            n += bool(fill.value or stroke.value)
    return n
