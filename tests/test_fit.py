"""Text fitting (forge.render.fit): shrink, wrap, break long words, report what still does not fit; every
renderer builds with the longest word check allows (issue 9 reported a 350-letter one; check now refuses words over
100 characters) in its text fields and draws no text outside its box."""

from __future__ import annotations

import importlib
import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas
from test_render_counters import page_texts

from forge.builder import BuildOptions
from forge.cli import main
from forge.errors import BuildWarning, collect_warnings, warn
from forge.loader import load, loads
from forge.model import Game
from forge.pdf import FONT, FONT_BOLD, render_pdf, text_width
from forge.render import cards, counters
from forge.render.fit import ELLIPSIS, MIN_TEXT_PT, break_word, fit, fit_line, wrap

WORD = "Xy" * 45  # 90 letters, no space (with "Clear" 95): within check.MAX_WORD (100), far wider than any box
DATA = Path(__file__).resolve().parent.parent / "data"


# ------------------------------------------------------------------------------------------------ the routine
def test_fits_at_the_preferred_size() -> None:
    r = fit("Korsun", 100, 20, 8)
    assert r.lines == ("Korsun",)
    assert r.size == 8
    assert r.complete


def test_shrinks_one_line_before_wrapping() -> None:
    width = text_width("Korsun supply", 7.0, FONT_BOLD)  # fits on one line at 7 pt, not at 8
    r = fit("Korsun supply", width, 40, 8, font=FONT_BOLD, shrink=0.5)
    assert r.lines == ("Korsun supply",)
    assert 7.0 <= r.size < 8
    wrapped = fit("Korsun supply", width, 40, 8, font=FONT_BOLD)  # the default wraps at the size it was given
    assert wrapped.lines == ("Korsun", "supply")
    assert wrapped.size == 8
    assert fit_line("Korsun supply", width, 8, font=FONT_BOLD)[0] == "Korsun supply"  # a one-line box shrinks


def test_wraps_at_spaces_when_shrinking_is_not_enough() -> None:
    r = fit("No German entry (turn 2)", 31, 31, 7, font=FONT_BOLD)
    assert len(r.lines) > 1
    assert r.complete
    assert r.size >= MIN_TEXT_PT
    assert " ".join(r.lines) == "No German entry (turn 2)"


@pytest.mark.parametrize("width", [6.0, 20.0, 31.0, 80.0])
def test_long_word_is_broken_with_hyphens_never_clipped(width: float) -> None:
    pieces = break_word(WORD, width, 5, FONT)
    assert "".join(p.rstrip("-") for p in pieces) == WORD
    assert all(p.endswith("-") for p in pieces[:-1])
    assert all(text_width(p, 5, FONT) <= width + 1e-6 for p in pieces if len(p) > 2)
    lines = wrap(f"a {WORD} b", width, 5)
    assert all(text_width(ln, 5, FONT) <= width + 1e-6 for ln in lines if len(ln) > 2)


def test_never_wider_or_taller_than_the_box() -> None:
    for width, height in [(30.0, 6.0), (30.0, 31.0), (200.0, 12.0), (12.0, 100.0)]:
        r = fit(f"No German {WORD} entry (turn 2)", width, height, 9, font=FONT_BOLD)
        assert all(text_width(ln, r.size, FONT_BOLD) <= width + 1e-6 for ln in r.lines)
        assert len(r.lines) == 1 or r.height <= height + 1e-6
        assert r.size >= MIN_TEXT_PT


def test_what_does_not_fit_is_marked_and_reported_with_its_key_path() -> None:
    with collect_warnings() as found:
        r = fit(f"Tanks {WORD}", 30, 12, 8, where=("terrain", "clear", "name"), what="somewhere")
    assert not r.complete
    assert r.lines[-1].endswith(ELLIPSIS)
    assert len(found) == 1
    assert found[0].path == ("terrain", "clear", "name")
    assert found[0].message.startswith("somewhere: ")
    with collect_warnings() as found:
        assert fit_line("Korsun", 100, 8, where=("x",)) == ("Korsun", 8)
        fit_line(WORD, 30, 8, report=False)
    assert found == []


def test_warnings_are_collected_once_and_only_inside_a_collection() -> None:
    warn(("a",), "dropped: nobody collects")
    with collect_warnings() as outer:
        warn(("a",), "one")
        warn(("a",), "one")
        with collect_warnings() as inner:
            warn(("b",), "two")
    assert outer == [BuildWarning(("a",), "one")]
    assert inner == [BuildWarning(("b",), "two")]


# -------------------------------------------------------------------------------------------- long-word games
def _long_source() -> str:
    src = (DATA / "hells_gate.yaml").read_text(encoding="utf-8")
    edits = [
        ('title: "Hell\'s Gate"', f'title: "Hell\'s Gate {" ".join([WORD] * 6)}"'),  # too long for one line
        ("    name: Clear\n", f"    name: Clear{WORD}\n"),
        ('combat: {text: "Tanks attack at triple strength"}', f'combat: {{text: "Tanks attack {WORD} at triple"}}'),
        ('summary: "No German entry into', f'summary: "No German {WORD} entry into'),
        ('front: "No German entry (turn 2)"', f'front: "No German {WORD} entry (turn 2)"'),
        ('label: "29"', f'label: "29{WORD}"'),
    ]
    for old, new in edits:
        assert src.count(old) >= 1, f"hells_gate.yaml changed: {old!r} not found"
        src = src.replace(old, new, 1)
    return src


@pytest.fixture(scope="module")
def long_game() -> Game:
    return loads(_long_source(), "long.yaml")


@pytest.fixture(scope="module")
def built(long_game: Game) -> dict[str, tuple[bytes, list[BuildWarning]]]:
    out = {}
    for name in ("counters", "cards", "map", "handout"):
        module = importlib.import_module(f"forge.render.{name}")
        with collect_warnings() as found:
            pdf = module.render(long_game, BuildOptions(counter_size="1/2in", sets=1))
        out[name] = (pdf, found)
    return out


@pytest.mark.parametrize("name", ["counters", "cards", "map", "handout"])
def test_a_long_word_builds_every_component(
    built: dict[str, tuple[bytes, list[BuildWarning]]], name: str
) -> None:
    pdf, found = built[name]
    assert pdf.startswith(b"%PDF")
    assert ("game", "title") in {w.path for w in found}  # the title is cut somewhere on every component


def test_counter_warnings_name_the_fields(built: dict[str, tuple[bytes, list[BuildWarning]]]) -> None:
    paths = {w.path for w in built["counters"][1]}
    assert ("units", 0, "label") in paths
    assert ("markers", 3, "front") in paths
    assert all(w.message for w in built["counters"][1])


def test_cards_break_long_words_in_tables_without_warning(built: dict[str, tuple[bytes, list[BuildWarning]]]) -> None:
    # Table cells wrap and break words (soft hyphens): only the one-line card title is cut.
    assert {w.path for w in built["cards"][1]} == {("game", "title")}


def _inside(t: object, x0: float, y0: float, x1: float, y1: float, tol: float = 0.6) -> bool:
    w = text_width(t.text, t.size, t.font)  # type: ignore[attr-defined]
    xs = (t.x, t.x + t.ux * w)  # type: ignore[attr-defined]
    ys = (t.y, t.y + t.uy * w)  # type: ignore[attr-defined]
    return min(xs) >= x0 - tol and max(xs) <= x1 + tol and min(ys) >= y0 - tol and max(ys) <= y1 + tol


@pytest.mark.parametrize("s", [36.0, 45.0])
def test_counter_face_text_stays_on_the_counter(long_game: Game, s: float) -> None:
    faces = [p.front for group in counters.pieces(long_game) for p in group]
    faces += [p.back for group in counters.pieces(long_game, mode="class", set_code="S01") for p in group]
    faces = [*list(dict.fromkeys(f for f in faces if f.kind != "plain" or f.label)), replace(faces[0], set_code="S12")]

    def draw(c: Canvas) -> None:
        for f in faces:
            counters.draw_face(c, f, s=s)
            c.showPage()

    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(render_pdf((s, s), draw)))
    for i in range(len(faces)):
        texts = page_texts(reader, i)
        assert texts, faces[i]
        bad = [t.text for t in texts if not _inside(t, 0, 0, s, s)]
        assert not bad, (faces[i].label or faces[i].text, bad)


def test_card_text_stays_in_its_card(built: dict[str, tuple[bytes, list[BuildWarning]]]) -> None:
    import pypdf

    pdf = built["cards"][0]
    regions = [cards.card_regions(BuildOptions())(i) for i in range(2)]
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    for page in range(len(reader.pages)):
        for t in page_texts(reader, page):
            t_text = t.text.replace("\xad", "")
            assert any(_inside(replace(t, text=t_text), x, y, x + w, y + h) for x, y, w, h in regions), t_text


# ----------------------------------------------------------------------------------------------------- the CLI
def test_cli_prints_a_located_warning_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _long_source()
    game_file = tmp_path / "long.yaml"
    game_file.write_text(src, encoding="utf-8")
    line = next(i for i, ln in enumerate(src.splitlines(), 1) if f'label: "29{WORD[:10]}' in ln)
    assert main(["build", str(game_file), "--out", str(tmp_path / "out"), "--only", "counters", "-q"]) == 0
    err = capsys.readouterr().err
    assert re.search(
        rf"^{re.escape(str(game_file))}:{line}:\d+: warning: units\[0\]\.label: counter label: ", err, re.M
    )
    assert "Traceback" not in err


# ---------------------------------------------------------------------------------------------- the seed games
@pytest.mark.parametrize("stem", sorted(p.stem for p in DATA.glob("*.yaml")))
def test_seed_games_fit_without_warnings(stem: str) -> None:
    game = load(DATA / f"{stem}.yaml")
    with collect_warnings() as found:
        for name in ("counters", "cards", "map", "handout"):
            module = importlib.import_module(f"forge.render.{name}")
            module.render(game, BuildOptions(counter_size="1/2in", sets=1))
    assert found == []
