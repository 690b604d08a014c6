"""Fonts and glyph coverage: the bundled DejaVu Sans is embedded, draws Cyrillic and Greek, and a printed character
none of its faces has is a located warning (never a silent box, never a failure)."""

from __future__ import annotations

import importlib
import io
import re
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from conftest import DATA, data_files
from forge.builder import BuildOptions
from forge.cli import main
from forge.glyphs import NOT_PRINTED, face_coverage, file_warnings, uncovered_text
from forge.loader import loads
from forge.pdf import FONT_FACES, FONTS_DIR

HELLS_GATE = (DATA / "hells_gate.yaml").read_text(encoding="utf-8")

UNIT_LINE = 'name: 29th Tank Corps, label: "29"'
PLACE = "B3: {name: Tichonovka"
GREEK_PLACE = "E2: {name: Yanovka"
SECOND_UNIT = "name: 20th Tank Corps"


def variant(*pairs: tuple[str, str]) -> str:
    """Hell's Gate with each ``old`` replaced by ``new`` (each must occur exactly once)."""
    text = HELLS_GATE
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
        renamed = re.fullmatch(r"\w+: \{name: (.+)", old), re.fullmatch(r"\w+: \{name: (.+)", new)
        if renamed[0] and renamed[1]:  # a renamed place: the special rules' effects name it too
            was, now = renamed[0].group(1), renamed[1].group(1)
            text = "\n".join(
                line.replace(was, now) if "places: [" in line else line for line in text.split("\n")
            )
    return text


def render(game, component: str) -> bytes:  # type: ignore[no-untyped-def]
    return importlib.import_module(f"forge.render.{component}").render(game, BuildOptions(only=(component,)))  # type: ignore[no-any-return]


def pdf_text(pdf: bytes) -> str:
    """Every page's text as pdfium reads it (through each font's ToUnicode map, as pypdf does; ~20x faster on the
    handout's map pages)."""
    doc = pdfium.PdfDocument(pdf)
    return "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))


def unembedded(pdf: bytes) -> set[str]:
    """Base names of the fonts a PDF uses without embedding them (no FontFile2 in their descriptor)."""
    bad = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for ref in page["/Resources"].get_object().get("/Font", {}).values():
            font = ref.get_object()
            desc = font.get("/FontDescriptor")
            if desc is None or "/FontFile2" not in desc.get_object():
                bad.add(str(font["/BaseFont"]))
    return bad


def embedded(pdf: bytes) -> set[str]:
    out = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for ref in page["/Resources"].get_object().get("/Font", {}).values():
            out.add(str(ref.get_object()["/BaseFont"]).split("+", 1)[-1])
    return out


# ------------------------------------------------------------------------------------------------ bundled fonts
def test_the_bundled_faces_and_their_licence_are_in_the_package() -> None:
    for face in FONT_FACES:
        assert (FONTS_DIR / f"{face}.ttf").stat().st_size > 100_000
    assert "Bitstream Vera" in (FONTS_DIR / "LICENSE").read_text(encoding="utf-8")
    readme = (FONTS_DIR / "README.md").read_text(encoding="utf-8")
    assert "fonts-dejavu-core 2.37-6" in readme
    assert "fonts-dejavu-extra 2.37-6" in readme


def test_the_shipped_coverage_is_the_fonts_cmaps() -> None:
    """forge/fonts/coverage.txt (what ``forge check`` reads, so that it imports no PDF library) is each face's cmap."""
    from forge.glyphs import COVERAGE_FILE, coverage_text, parsed_coverage

    parsed = parsed_coverage()
    assert face_coverage() == parsed
    assert (FONTS_DIR / COVERAGE_FILE).read_text(encoding="utf-8") == coverage_text(parsed), (
        "rerun: python -c 'from forge.glyphs import write_coverage; write_coverage()'"
    )


def test_every_face_covers_latin_greek_and_cyrillic_but_not_cjk() -> None:
    for face, cps in face_coverage().items():
        for ch in "AzÄéßŁœ–—€ΑΩαωάЖжЁёЯяЇї":
            assert ord(ch) in cps, (face, ch)
        assert ord("坦") not in cps, face


NOT_PRINTED_SENTINELS = (
    ('note: "strength [2] stated;', 'note: "Ѣ1 strength [2] stated;'),  # Unit.note
    ('note: "the Höllentor', 'note: "Ѣ2 the Höllentor'),  # HexInfo.note
    ("name: Turiya, note: ", "name: Turiya, note: Ѣ4 "),  # HexsideInfo.note (its name is printed, issue 21)
    ("  notes: >-\n    Pieces:", "  notes: >-\n    Ѣ5 Pieces:"),  # Info.notes
    ("  source: 000_", "  source: Ѣ6 000_"),  # Info.source
    ('summary: "The Germans add 10 VP', 'summary: "Ѣ7 The Germans add 10 VP'),  # Example.summary
    ('source: "the reference sheet\'s footnote"', 'source: "Ѣ8 the reference sheet\'s footnote"'),  # CapReading
)
"""Fields :data:`NOT_PRINTED` says no component prints, each given an 'Ѣ' that must then not be printed."""


@cache
def cyrillic_game():  # type: ignore[no-untyped-def]
    return loads(
        variant(
            (UNIT_LINE, 'name: 29-й танковый корпус, label: "Ж29"'),
            (PLACE, "B3: {name: Тихоновка"),
            (GREEK_PLACE, "E2: {name: Γιάνοβκα"),
            *NOT_PRINTED_SENTINELS,
        ),
        "cyrillic.yaml",
    )


@cache
def cyrillic_pdf(component: str) -> bytes:
    return render(cyrillic_game(), component)


@cache
def cyrillic_text(component: str) -> str:
    return pdf_text(cyrillic_pdf(component))


def test_cyrillic_and_greek_names_are_printed_with_embedded_fonts() -> None:
    assert uncovered_text(cyrillic_game()) == []
    counters, map_pdf = cyrillic_pdf("counters"), cyrillic_pdf("map")
    assert "Ж29" in cyrillic_text("counters")
    assert "Тихоновка" in cyrillic_text("map")
    assert "Γιάνοβκα" in cyrillic_text("map")
    for pdf in (counters, map_pdf):
        assert unembedded(pdf) == set()
        assert embedded(pdf) <= set(FONT_FACES)


def test_the_unit_name_in_cyrillic_is_printed_on_the_handout() -> None:
    assert "29-й танковый корпус" in cyrillic_text("handout")


def test_rebuilding_with_cyrillic_gives_the_same_bytes() -> None:
    assert render(cyrillic_game(), "counters") == cyrillic_pdf("counters")


def test_the_fields_counted_as_not_printed_are_not_printed() -> None:
    """A renderer that starts printing one of them must take it off ``NOT_PRINTED`` (or it would box silently)."""
    text = "".join(cyrillic_text(c) for c in ("map", "counters", "cards", "handout"))
    assert "Ж29" in text
    assert "Ѣ" not in text


# ----------------------------------------------------------------------------------------------- the warning
def test_a_cjk_unit_name_is_one_located_warning_and_the_build_still_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "cjk.yaml"
    src.write_text(variant((SECOND_UNIT, "name: 第20坦克军")), encoding="utf-8")
    line = next(i for i, ln in enumerate(src.read_text(encoding="utf-8").splitlines(), 1) if "第20坦克军" in ln)
    col = src.read_text(encoding="utf-8").splitlines()[line - 1].index("第20坦克军") + 1

    assert main(["check", "-q", str(src)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    warning = err[0]
    assert warning.startswith(f"{src}:{line}:{col}: warning: units[1].name: ")
    for ch in "第坦克军":
        assert f"'{ch}' (U+{ord(ch):04X})" in warning
    assert "'2'" not in warning  # covered characters are not listed

    assert main(["build", "-q", str(src), "--out", str(tmp_path / "out"), "--only", "counters"]) == 0
    captured = capsys.readouterr()
    assert [ln for ln in captured.err.splitlines() if "warning" in ln] == [warning]
    assert (tmp_path / "out" / "hells_gate" / "counters.pdf").is_file()


def test_a_place_name_is_located_at_its_value_and_a_places_key_at_the_key(tmp_path: Path) -> None:
    places = "  places:\n    Черкассы 城: [F6, F7]\n  hexes:\n    A1:"
    text = variant((PLACE, "B3: {name: 村"), ("  hexes:\n    A1:", places))
    src = tmp_path / "place.yaml"
    src.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    hex_line = next(i for i, ln in enumerate(lines, 1) if "name: 村" in ln)
    key_line = next(i for i, ln in enumerate(lines, 1) if "Черкассы 城:" in ln)
    warnings = file_warnings(loads(text, str(src)), str(src))
    assert [(w.line, w.column, w.path) for w in warnings] == [
        (key_line, 5, "map.places.Черкассы 城"),
        (hex_line, lines[hex_line - 1].index("村") + 1, "map.hexes.B3.name"),
    ]
    assert "'城' (U+57CE)" in warnings[0].message
    assert "Ч" not in warnings[0].message  # Cyrillic is covered
    assert "'村' (U+6751)" in warnings[1].message


def test_text_that_is_never_printed_does_not_warn() -> None:
    game = loads(
        variant(
            ('note: "strength [2] stated;', 'note: "第二十九 strength [2] stated;'),
            ('note: "the Höllentor', 'note: "村 the Höllentor'),
        )
    )
    assert uncovered_text(game) == []
    assert "*" in NOT_PRINTED["Example"]


@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_the_seed_games_give_no_warning(path: Path) -> None:
    from conftest import seed_game

    assert file_warnings(seed_game(path.stem), str(path)) == []


# ---------------------------------------------------------------------------------------------- embedding
@pytest.mark.parametrize(
    "component",
    ["map", "counters", "cards", "handout"],
)
def test_every_font_of_the_hells_gate_build_is_embedded(hells_gate, component: str) -> None:  # type: ignore[no-untyped-def]
    pdf = render(hells_gate, component)
    assert embedded(pdf) <= set(FONT_FACES)
    assert unembedded(pdf) == set()


# ---------------------------------------------------------------------------------------------- PNG images
_PNG_PROBE = """
import os, sys
from forge.render import images
cs = images._cairosvg()
def png(ch):
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60"><text x="5" y="45" '
           'font-family="DejaVu Sans" font-size="40">' + ch + '</text></svg>')
    return cs.svg2png(bytestring=svg.encode())
print(os.environ["FONTCONFIG_FILE"] == str(images.FONTCONFIG), png("Ж") != png("Ъ"), png("Ж") != png("\\u4e00"))
"""


def _png_probe(fontconfig: str | None) -> str:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}
    if fontconfig is not None:
        env["FONTCONFIG_FILE"] = fontconfig
    return subprocess.run(
        [sys.executable, "-c", _PNG_PROBE], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def test_png_images_use_the_bundled_fonts(tmp_path: Path) -> None:
    """The PNGs (cairosvg, through fontconfig) draw Cyrillic with the bundled DejaVu Sans, on any machine: the
    fontconfig file lists only forge/fonts/. Against it: a fontconfig with no fonts, which the user may choose
    (FONTCONFIG_FILE is respected), gives the same empty box for every letter."""
    assert _png_probe(None) == "True True True"  # two Cyrillic letters differ, and differ from an uncovered CJK box
    empty = tmp_path / "empty.conf"
    empty.write_text('<?xml version="1.0"?>\n<fontconfig></fontconfig>\n', encoding="utf-8")
    assert _png_probe(str(empty)) == "False False False"


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(st.characters(min_codepoint=0x20, max_codepoint=0x4FF), max_size=30),
    size=st.sampled_from([5, 7.0, 9.5, 12]),
    face=st.sampled_from(FONT_FACES),
)
def test_text_width_is_reportlabs_measure_taken_once(text: str, size: float, face: str) -> None:
    """forge.pdf.text_width is reportlab's stringWidth of the registered face, asked once per (text, size, face):
    the same width again comes from the kept answer (the card flow measures a paragraph for every break it
    tries), and a new size or face is measured anew."""
    from reportlab.pdfbase import pdfmetrics

    import forge.pdf

    forge.pdf.register_fonts()
    want = float(pdfmetrics.stringWidth(text, face, size))
    asked: list[tuple[str, str, float]] = []
    real = pdfmetrics.stringWidth

    def counting(t: str, f: str, s: float, *a: object) -> float:
        asked.append((t, f, s))
        return real(t, f, s, *a)  # type: ignore[arg-type]

    forge.pdf.text_width.cache_clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pdfmetrics, "stringWidth", counting)
        assert forge.pdf.text_width(text, size, face) == want
        assert forge.pdf.text_width(text, size, face) == want
        assert asked == [(text, face, size)]
        forge.pdf.text_width(text, size + 1, face)
        assert len(asked) == 2
