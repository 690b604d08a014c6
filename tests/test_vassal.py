"""The VASSAL export (forge.vassal): the module reads back with the game's own hex names, every counter, every image.

Hex names are computed here the way VASSAL computes them (HexGridNumbering / SquareGridNumbering and
RegularGridNumbering.getName in VASSAL 3.7, transcribed below) from the grid attributes read back from the
module's buildFile.xml: independently of the code that placed the pieces.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest

from forge import vassal
from forge.errors import LoadError
from forge.hexgrid import Grid, GridKind, LabelScheme, Orientation, Parity
from forge.loader import load
from forge.render import counters

DATA = Path(__file__).resolve().parent.parent / "data"
DPI = 40  # small images keep the tests fast; the geometry is the same at any resolution


def _pywargame() -> Any:
    try:
        return vassal.pywargame()
    except vassal.VassalUnavailable as e:  # pragma: no cover - the dev environment has it
        pytest.skip(str(e))


# ------------------------------------------------------------------------------------- VASSAL's naming, transcribed
def _java_round(x: float) -> int:
    return math.floor(x + 0.5)


def _java_rem(a: int, b: int) -> int:
    return int(math.fmod(a, b))


def _name(value: int, kind: str, leading: int) -> str:
    """RegularGridNumbering.getName(int, char, int)."""
    out = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        while True:
            out += "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value % 26]
            value -= 26
            if value < 0:
                return out
    while leading > 0 and value < 10**leading:
        leading -= 1
        out += "0"
    return out + str(value)


def _full_name(num: dict[str, str], row: int, col: int) -> str:
    row_name = _name(row + int(num["vOff"]), num["vType"], int(num["vLeading"]))
    col_name = _name(col + int(num["hOff"]), num["hType"], int(num["hLeading"]))
    return col_name + num["sep"] + row_name if num["first"] == "H" else row_name + num["sep"] + col_name


def vassal_location(
    kind: str, grid: dict[str, str], num: dict[str, str], board: tuple[int, int], x: int, y: int
) -> str:
    """The location name VASSAL gives board point (x, y)."""
    w, h = board
    ox, oy = int(grid["x0"]), int(grid["y0"])
    dx, dy = float(grid["dx"]), float(grid["dy"])
    h_desc, v_desc = num["hDescend"] == "true", num["vDescend"] == "true"
    if kind == "square":
        col = math.floor((x - ox) / dx + 0.5)
        if h_desc:
            col = int(w / dx + 0.5) - col
        row = int((y - oy) / dy + 0.5)
        if v_desc:
            row = int(h / dy + 0.5) - row
        return _full_name(num, row, col)
    sideways = grid["sideways"] == "true"
    stagger = num["stagger"] == "true"
    px, py = (y, x) if sideways else (x, y)  # rotateIfSideways
    max_rows = math.floor(h / dx + 0.5)
    max_cols = math.floor(w / dy + 0.5)
    raw_col = math.floor((px - ox) / dx + 0.5)
    nx = _java_round((px - ox) / dx)
    raw_row = _java_round((py - oy) / dy) if _java_rem(nx, 2) == 0 else _java_round((py - oy - dy / 2) / dy)
    col = raw_col
    if v_desc and sideways:
        col = max_rows - col
    if h_desc and not sideways:
        col = max_cols - col
    row = raw_row
    if v_desc and not sideways:
        row = max_rows - row
    if h_desc and sideways:
        row = max_cols - row
    if stagger and _java_rem(raw_col, 2) != 0:
        row += -1 if (h_desc if sideways else v_desc) else 1
    return _full_name(num, row, col)


def vassal_snap(kind: str, grid: dict[str, str], x: int, y: int) -> tuple[int, int]:
    """Where VASSAL snaps a piece dropped at board point (x, y): HexGrid.hexPoint (its first candidate, the
    rectangle test; exact for points well inside a space) and hexPointCenterFromRawIndex; SquareGrid.snapTo."""
    ox, oy = int(grid["x0"]), int(grid["y0"])
    dx, dy = float(grid["dx"]), float(grid["dy"])
    if kind == "square":
        nx, ny = 2 * _java_round((x - ox) / dx), 2 * _java_round((y - oy) / dy)
        return ox + _java_round(nx * dx / 2), oy + _java_round(ny * dy / 2)
    sideways = grid["sideways"] == "true"
    px, py = (y, x) if sideways else (x, y)
    nx = math.floor((px - ox + dx / 2) / dx)
    odd = _java_rem(nx, 2) != 0
    ny = math.floor((py - oy) / dy) if odd else math.floor((py - oy + dy / 2) / dy)
    cx = int(dx * nx + ox)
    cy = int(dy * ny + int(dy / 2) + oy) if odd else int(dy * ny + oy)
    return (cy, cx) if sideways else (cx, cy)


# ------------------------------------------------------------------------------------------------ grid_spec alone
GRIDS = [
    Grid(GridKind.HEX, 7, 7, Orientation.POINTY, Parity.EVEN, LabelScheme.LETTER_ROW, rows_up=True),  # Hell's Gate
    Grid(GridKind.HEX, 40, 7, Orientation.POINTY, Parity.ODD, LabelScheme.XXYY),
    Grid(GridKind.HEX, 47, 29, Orientation.FLAT, Parity.ODD, LabelScheme.XXYY),
    Grid(GridKind.HEX, 12, 9, Orientation.FLAT, Parity.EVEN, LabelScheme.LETTER_COLUMN, rows_up=True),
    Grid(GridKind.HEX, 30, 12, Orientation.FLAT, Parity.EVEN, LabelScheme.LETTER_ROW, first_column=0, first_row=3),
    Grid(GridKind.HEX, 9, 31, Orientation.POINTY, Parity.ODD, LabelScheme.LETTER_COLUMN, rows_up=True),
    Grid(GridKind.HEX, 120, 8, Orientation.POINTY, Parity.EVEN, LabelScheme.XXYY, first_column=5),
    Grid(GridKind.HEX, 5, 1, Orientation.POINTY, Parity.EVEN, LabelScheme.COL_ROW),
    Grid(GridKind.SQUARE, 6, 6, labels=LabelScheme.XXYY),
    Grid(GridKind.SQUARE, 30, 12, labels=LabelScheme.LETTER_ROW, rows_up=True),
    Grid(GridKind.OFFSET_SQUARE, 10, 7, parity=Parity.EVEN, labels=LabelScheme.COL_ROW, rows_up=True),
    Grid(GridKind.OFFSET_SQUARE, 10, 7, parity=Parity.ODD, labels=LabelScheme.LETTER_COLUMN),
]


@pytest.mark.parametrize("grid", GRIDS, ids=str)
def test_grid_numbering_names_every_space_as_printed(grid: Grid) -> None:
    """Property: for every space, VASSAL's name of the pixel at its centre is the game's label."""
    size, ox, oy, scale = 50.0, 37.3, 21.9, 300 / 72
    gw, gh = grid.extent(size)
    board = (math.ceil((2 * ox + gw) * scale), math.ceil((2 * oy + gh) * scale))
    spec = vassal.grid_spec(grid, size, ox, oy, scale, board)
    attrs = {"x0": str(spec.x0), "y0": str(spec.y0), "dx": str(spec.dx), "dy": str(spec.dy)}
    attrs["sideways"] = "true" if spec.sideways else "false"
    wrong = []
    for cell in grid.cells():
        cx, cy = grid.center(cell, size)
        x, y = round((ox + cx) * scale), round((oy + cy) * scale)
        got = vassal_location(spec.kind, attrs, spec.numbering, board, x, y)
        if got != grid.label(cell):
            wrong.append((grid.label(cell), got))
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("grid", GRIDS, ids=str)
@pytest.mark.parametrize("dpi", [40, 150, 300])
def test_snap_is_where_vassal_snaps_a_piece_in_that_space(grid: Grid, dpi: int) -> None:
    """Property: the point vassal.snap gives a space is VASSAL's snap of a piece dropped at its centre, a fixed
    point of VASSAL's snap, and in the space (VASSAL names it with the space's label)."""
    size, ox, oy, scale = 50.0, 37.3, 21.9, dpi / 72
    gw, gh = grid.extent(size)
    board = (math.ceil((2 * ox + gw) * scale), math.ceil((2 * oy + gh) * scale))
    spec = vassal.grid_spec(grid, size, ox, oy, scale, board)
    attrs = {"x0": str(spec.x0), "y0": str(spec.y0), "dx": str(spec.dx), "dy": str(spec.dy)}
    attrs["sideways"] = "true" if spec.sideways else "false"
    for cell in grid.cells():
        cx, cy = grid.center(cell, size)
        x, y = (ox + cx) * scale, (oy + cy) * scale
        got = vassal.snap(spec, x, y)
        assert got == vassal_snap(spec.kind, attrs, round(x), round(y)), grid.label(cell)
        assert vassal_snap(spec.kind, attrs, *got) == got
        assert vassal_location(spec.kind, attrs, spec.numbering, board, *got) == grid.label(cell)


# --------------------------------------------------------------------------------------------- the module itself
def _read(path: Path) -> tuple[Any, zipfile.ZipFile]:
    v = _pywargame()
    with v.VMod(str(path), "r") as vm:
        build = v.BuildFile(vm.getBuildFile())
    return build, zipfile.ZipFile(io.BytesIO(path.read_bytes()))


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Path]]:
    _pywargame()
    out = tmp_path_factory.mktemp("vassal")
    games = {}
    for name in ("hells_gate", "first_panzer_army"):
        game = load(str(DATA / f"{name}.yaml"))
        games[name] = (game, vassal.export(game, out, dpi=DPI))
    return games


@pytest.mark.parametrize("name", ["hells_gate", "first_panzer_army"])
def test_setup_hexes_read_back_with_their_labels(exported: dict[str, tuple[Any, Path]], name: str) -> None:
    game, path = exported[name]
    assert path.name == f"{game.game.id}.vmod"
    assert path.parent.name == game.game.id
    build, _ = _read(path)
    mod = build.getGame()
    main = mod.getMaps(asdict=True)["Map"]
    (board,) = main.getBoards(asdict=False)
    grids = board.getHexGrids(single=False) or board.getSquareGrids(single=False)
    (grid,) = grids
    kind = "hex" if "HexGrid" in grid._node.tagName else "square"
    (num,) = grid.getNumbering()
    num_attrs = {k: num[k] for k in ("first", "sep", "hType", "vType", "hLeading", "vLeading", "hOff", "vOff")}
    num_attrs |= {k: num[k] for k in ("hDescend", "vDescend")}
    num_attrs["stagger"] = num["stagger"] if kind == "hex" else "false"
    grid_attrs = {k: grid[k] for k in ("x0", "y0", "dx", "dy")}
    grid_attrs["sideways"] = grid["sideways"] if kind == "hex" else "false"
    size = (int(board["width"]), int(board["height"]))
    units = {u.id: u for u in game.units}
    placed = 0
    for stack in main.getAtStarts(single=False):
        assert stack["useGridLocation"] == "false"
        # Placed where VASSAL's own snap would put it: picking a piece up and dropping it does not move it.
        assert vassal_snap(kind, grid_attrs, int(stack["x"]), int(stack["y"])) == (int(stack["x"]), int(stack["y"]))
        where = vassal_location(kind, grid_attrs, num_attrs, size, int(stack["x"]), int(stack["y"]))
        for piece in stack.getPieces(asdict=False):
            unit = units[piece["entryName"].split("#")[0]]
            assert unit.setup == where, (piece["entryName"], unit.setup, where)
            placed += 1
    assert placed == sum(u.copies for u in game.units if u.setup is not None)


@pytest.mark.parametrize("name", ["hells_gate", "first_panzer_army"])
def test_every_counter_is_a_piece_with_its_images(exported: dict[str, tuple[Any, Path]], name: str) -> None:
    game, path = exported[name]
    build, zf = _read(path)
    mod = build.getGame()
    names = set(zf.namelist())
    pieces = [
        p for mp in mod.getMaps(asdict=False) for st in mp.getAtStarts(single=False) for p in st.getPieces(asdict=False)
    ]
    physical = [p.key for group in counters.pieces(game) for p in group]
    assert sorted(p["entryName"] for p in pieces) == sorted(physical)
    v = _pywargame()
    for p in pieces:
        traits = p.getTraits()
        (layer,) = [t for t in traits if isinstance(t, v.LayerTrait)]
        (basic,) = [t for t in traits if isinstance(t, v.BasicTrait)]
        front, back = layer["images"].split(",")
        assert front != back
        assert basic["filename"] == front
        assert {f"images/{front}", f"images/{back}"} <= names
    # Every image the buildFile names is in the zip: board, window boards, charts, faces.
    xml = zf.read("buildFile.xml").decode("utf-8")
    referenced = set(re.findall(r"(?<![/A-Za-z0-9_.-])[A-Za-z0-9_.-]+\.png", xml))  # not VASSAL's /images/...
    assert referenced
    assert {f"images/{r}" for r in referenced} <= names
    chart_files = re.findall(r'<VASSAL\.build\.widget\.Chart [^>]*fileName="([^"]+)"', xml)
    assert len(chart_files) >= 2  # the CRT card and the terrain chart at least
    assert re.search(r'<VASSAL\.build\.module\.DiceButton [^>]*nSides="6"', xml)
    assert 'mapName="Entry"' in xml or not any(u.entry for u in game.units)


def test_same_input_same_bytes(exported: dict[str, tuple[Any, Path]], tmp_path: Path) -> None:
    game, path = exported["first_panzer_army"]
    again = vassal.export(game, tmp_path, dpi=DPI)
    assert again.read_bytes() == path.read_bytes()
    with zipfile.ZipFile(again) as z:
        assert {i.date_time for i in z.infolist()} == {vassal.ZIP_DATE}


def test_a_map_too_large_is_refused_located(tmp_path: Path) -> None:
    file = str(DATA / "hells_gate.yaml")
    game = load(file)
    huge = game.model_copy(update={"map": game.map.model_copy(update={"sheet": "100x80in"})})
    with pytest.raises(LoadError) as e:
        vassal.export(huge, tmp_path, dpi=300, file=file)
    (p,) = e.value.problems
    assert p.file == file
    assert p.line is not None
    assert p.path == "map.sheet"
    assert "pixels" in p.message
    assert "dpi" in p.message
    assert not any(tmp_path.iterdir())
    vassal.refuse(game, file)  # the real sheet is fine


def test_without_pywargame_a_clear_error_and_nothing_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def missing() -> Any:
        raise vassal.VassalUnavailable(
            "forge export vassal needs the pywargame library: pip install 'hexforge[vassal]'"
        )

    monkeypatch.setattr(vassal, "pywargame", missing)
    game = load(str(DATA / "hells_gate.yaml"))
    with pytest.raises(ImportError, match=r"hexforge\[vassal\]"):
        vassal.export(game, tmp_path, dpi=DPI)
    assert not any(tmp_path.iterdir())


def test_dice_the_button_cannot_roll_are_refused() -> None:
    game = load(str(DATA / "hells_gate.yaml"))
    odd = game.model_copy(update={"game": game.game.model_copy(update={"dice": "a bag of chits"})})
    assert [path for path, _ in vassal.problems(odd, dpi=DPI)] == [("game", "dice")]
    assert vassal.problems(game, dpi=DPI) == []


# ----------------------------------------------------------------------------------- a sheet too large at 300 dpi
def test_a_large_sheet_gets_the_largest_resolution_that_fits() -> None:
    game = load(str(DATA / "ukraine_43.yaml"))
    assert vassal.problems(game, dpi=300)  # 17,074 x 9,750 px at 300 dpi: past the guard
    dpi = vassal.fit_dpi(game)
    assert vassal.MIN_DPI < dpi < 300
    assert vassal.problems(game, dpi=dpi) == []
    assert vassal.problems(game, dpi=dpi + 1)  # the largest that fits, not just any
    (_, message), *_ = vassal.problems(game, dpi=300)
    assert f"--dpi {dpi}" in message
    small = load(str(DATA / "hells_gate.yaml"))
    assert vassal.fit_dpi(small) == 300  # a sheet that fits keeps the default
    assert vassal.fit_dpi(small, 150) == 150


def test_export_without_dpi_lowers_it_to_fit_and_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line exports Ukraine '43 rather than refusing it; the guard is lowered here so that the real
    export (about 17 s and 700 MB at 207 dpi) runs at a test's size: the same path, a smaller image."""
    from forge.cli import main

    _pywargame()
    monkeypatch.setattr(vassal, "MAX_BOARD_PIXELS", 1_500_000)
    game_file = str(DATA / "ukraine_43.yaml")
    assert main(["export", "vassal", game_file, "--out", str(tmp_path), "-q"]) == 0
    err = capsys.readouterr().err
    dpi = vassal.fit_dpi(load(game_file))
    assert f"exporting at {dpi} dpi" in err
    with zipfile.ZipFile(tmp_path / "ukraine_43" / "ukraine_43.vmod") as z:
        from PIL import Image

        board = Image.open(io.BytesIO(z.read("images/ukraine_43-map.png")))
        assert board.width * board.height <= 1_500_000
    # Asked for explicitly, a resolution too large is refused, naming one that fits.
    assert main(["export", "vassal", game_file, "--out", str(tmp_path / "b"), "--dpi", "300", "-q"]) == 2
    assert f"--dpi {dpi} or less" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["hells_gate", "first_panzer_army"])
def test_every_piece_off_the_map_is_in_a_named_zone(exported: dict[str, tuple[Any, Path]], name: str) -> None:
    """The Entry, Trays and Set-up windows have no grid: each of their boxes is a zone named for the box, so VASSAL
    names a piece's location there (not "offboard")."""
    _, path = exported[name]
    build, _ = _read(path)
    windows = [mp for mp in build.getGame().getMaps(asdict=False) if mp["mapName"] != "Map"]
    assert windows
    seen = 0
    for mp in windows:
        (board,) = mp.getBoards(asdict=False)
        (zoned,) = board.getZonedGrids(single=False)
        zones = []
        for zone in zoned.getZones(asdict=False):
            assert zone["locationFormat"] == "$name$"
            xs, ys = zip(*(map(int, pt.split(",")) for pt in zone["path"].split(";")), strict=True)
            zones.append((zone["name"], min(xs), min(ys), max(xs), max(ys)))
        for stack in mp.getAtStarts(single=False):
            x, y = int(stack["x"]), int(stack["y"])
            inside = [z for z, x0, y0, x1, y1 in zones if x0 <= x <= x1 and y0 <= y <= y1]
            assert len(inside) == 1, (mp["mapName"], stack["name"], inside)
            assert stack["name"] == inside[0] or stack["name"].startswith(f"{inside[0]}: ")
            seen += 1
    assert seen


def test_date_saved_is_the_fixed_zip_date_not_zero(exported: dict[str, tuple[Any, Path]]) -> None:
    import calendar

    _, path = exported["hells_gate"]
    with zipfile.ZipFile(path) as z:
        data = z.read("moduledata").decode("utf-8")
    (saved,) = re.findall(r"<dateSaved>(\d+)</dateSaved>", data)
    assert int(saved) == calendar.timegm((*vassal.ZIP_DATE, 0, 0, 0)) * 1000 != 0
