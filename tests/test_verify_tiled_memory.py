"""``forge verify`` of a tiled map in bounded memory (issue 25, item 31).

A tiled map places the whole sheet's records on every tile.  The read-back holds one page's records at a time
(a recorder with a sink checks each page when it is done and drops it) and reads the turn track from the charts
drawn alone, never from a tile (a PDF reader parses the whole sheet's drawing to read any tile of it).  Nothing
here is timed: what is asserted is how much is held at once and what is read."""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT

from forge import layout
from forge.builder import BuildOptions
from forge.canvas import Recorder
from forge.loader import loads
from forge.model import Game
from forge.render import map as map_
from forge.verifier import readback
from forge.verifier.readback import check_map_track, roundtrip


def _misprinted_entry(game: Game) -> Game:
    """``game`` with its first reinforcement entering a turn later."""
    first = next(u for u in game.units if u.entry and u.entry.turn is not None)
    assert first.entry is not None
    assert first.entry.turn is not None
    later = first.entry.model_copy(update={"turn": first.entry.turn + 1})
    units = [u.model_copy(update={"entry": later}) if u.id == first.id else u for u in game.units]
    return game.model_copy(update={"units": units})


def _wide_game() -> Game:
    """An 80 x 4 map of 0.25 in hexes with reinforcements (the bench's 'wide' row, small): wider than A3, so the
    read-back tiles it on Letter; its hex labels are too large for its hexes (layout warnings on every tile)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import _kits  # bench/_kits.py: synthetic games

    return loads(_kits.synthetic(80, 4, units_per_side=3, listed=320, hex_size="0.25in", game_id="wide", title="Wide"))


def test_a_recorder_with_a_sink_holds_one_page_and_finds_what_a_whole_recording_finds() -> None:
    """A small-hexed map tiled on Letter: each tile page's records are handed over when the page is done and dropped, so
    the recorder never holds more than one page's; the layout check of the pages one by one finds exactly what the
    check of the whole recording finds, in the same order; closing drops the forms (the whole sheet's records)."""
    game = _wide_game()
    options = BuildOptions(only=("map",), paper="letter")
    whole = Recorder("map.pdf")
    pdf = map_.render(game, options, recorder=whole)
    per_page = [sum(1 for it in whole.items if it.page == p) for p in range(len(whole.pages))]
    assert len(per_page) > 3  # tiled: several pages ...
    assert max(per_page) < len(whole.items)  # ... each a part

    held: list[int] = []
    found: list[layout.Violation] = []

    def sink(rec: Recorder) -> None:
        assert {it.page for it in rec.items} == {len(rec.pages) - 1}  # the page just done, only
        held.append(len(rec.items))
        found.extend(layout.check(rec))

    streamed = Recorder("map.pdf", sink=sink)
    assert map_.render(game, options, recorder=streamed) == pdf  # recording changes no byte
    # The sheet's records, kept while tiles may still place them; not the thumbnail's (placed unrecorded) ...
    assert streamed.forms
    assert not [name for name in streamed.forms if "mini" in name]
    streamed.close()
    assert streamed.forms == {}  # ... dropped at the end
    assert streamed.items == []
    assert held == [n for n in per_page if n]
    assert found == layout.check(whole)
    assert found  # the comparison is not of two empty lists (hex labels too large for their hexes)


@pytest.mark.parametrize("name", ["hells_gate", "wide"])
def test_a_tiled_maps_charts_read_as_its_tiles_read(name: str, hells_gate: Game) -> None:
    """The sheet's charts drawn alone (map.charts_pdf) read as the tiles where the track is placed read: nothing on
    a true map, the same mismatches on a misprinted one."""
    game = hells_gate if name == "hells_gate" else _wide_game()
    options = BuildOptions(only=("map",), paper="letter")
    assert sorted(map_.page_size(game, options)) == [612.0, 792.0]  # tiled on Letter
    for g, mismatches in ((game, 0), (_misprinted_entry(game), 2)):
        rec = Recorder("map.pdf")
        pdf = map_.render(g, options, recorder=rec)
        by_charts = check_map_track(game, map_.charts_pdf(g, options))
        assert by_charts == check_map_track(game, pdf, rec)
        assert [f.kind for f in by_charts] == ["print-mismatch"] * mismatches


def test_the_track_of_a_tiled_map_is_read_from_its_charts_not_its_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The read-back of a tiled map never hands a page of the map to the PDF reader: the turn track is read from
    the sheet's charts drawn alone, and a misprint there is reported."""
    game = _wide_game()
    misprint = _misprinted_entry(game)
    from forge.canvas import text_only

    with text_only():  # as the print check draws it: its shapes recorded, not painted (its text, as ever)
        tiled = map_.render(game, BuildOptions(only=("map",), paper="letter"))
    read: list[bytes] = []
    real_positioned = readback._positioned
    rendered: list[bytes] = []
    real_render = map_.render

    def positioned(pdf: bytes, only: object = None) -> object:
        read.append(pdf)
        return real_positioned(pdf, only)  # type: ignore[arg-type]

    def render(*args: object, **kwargs: object) -> bytes:
        rendered.append(real_render(*args, **kwargs))  # type: ignore[arg-type]
        return rendered[-1]

    # What is read is the charts: drawn from a misprinted game (the map from the true one), the read-back reports
    # the misprint, and no page of the map is read.
    real_charts = map_.charts_pdf
    monkeypatch.setattr(readback, "_positioned", positioned)
    monkeypatch.setattr(map_, "render", render)
    monkeypatch.setattr(map_, "charts_pdf", lambda g, o: real_charts(misprint, o))
    assert [f.kind for f in roundtrip(game) if f.ref == "turns"] == ["print-mismatch"] * 2
    assert rendered == [tiled]
    assert read
    assert tiled not in read

