"""The teacher's pack (forge/render/teacher.py, ``forge build --only teacher``), read back with pypdf.

* The outcome charts hold every column of every attack kind with each side's expected losses as the exact charts
  give them; the column marked is named.
* The discussion questions carry the game's own numbers, and the answer key is on a page of its own.
* The record sheet's header is exactly the CSV header ``forge analyze --class-results`` reads: the header as
  printed, with a row under it, is a CSV the command accepts.
* Greys only (a school's black-and-white printer loses nothing); the same game gives the same bytes; the build
  writes teacher.pdf.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdf
import pytest

from forge import balance as bal
from forge import crtstats as cs
from forge.builder import COMPONENTS, BuildOptions
from forge.cli import main
from forge.loader import load
from forge.render import teacher

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def hg_pdf() -> bytes:
    return teacher.render(load(ROOT / "data" / "hells_gate.yaml"), BuildOptions(only=("teacher",)))


def pages(pdf: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def test_charts_hold_every_column_and_the_expected_losses(hg_pdf: bytes) -> None:
    game = load(ROOT / "data" / "hells_gate.yaml")
    text = pages(hg_pdf)
    charts = text[0]
    assert "Normal attack" in charts
    assert "All-out attack" in charts
    for t in cs.tables(game.combat):
        for c in t.columns:  # each column's label, then the defender's and the attacker's expected losses
            assert c.defender is not None
            assert c.attacker is not None
            cell = f"{c.label} {float(c.defender):.2f} {float(c.attacker):.2f}"
            assert cell in charts, cell
    assert "the defender expects to lose a step from 6:1-7:1" in charts  # the table never charges the attacker


def test_questions_carry_the_games_numbers_and_the_key_is_apart(hg_pdf: bytes) -> None:
    text = pages(hg_pdf)
    (qpage,) = [p for p in text if "Questions for discussion" in p]
    (apage,) = [p for p in text if "Answer key" in p]
    assert qpage != apage
    assert "Why attack at 3:2 rather than 1:1?" in qpage
    assert "at 3:2: defender 0.17 steps" in qpage.replace("At 3:2", "at 3:2")
    assert "Units with 7 attack strength attack a hex defended by 3" in qpage
    assert "read on 2:1 (defender 0.33 steps" in apage  # 7 to 3 rounds down to 2:1: die 4-6 hits once = 0.33
    assert "read on 2:1" not in qpage  # the answers are not on the questions' page
    assert "5/6 (83 %)" in apage  # 3:2: no hit on 1-5


def test_record_sheet_header_is_what_analyze_reads(hg_pdf: bytes, tmp_path: Path) -> None:
    game = load(ROOT / "data" / "hells_gate.yaml")
    sides = [s.id for s in game.game.sides]
    (sheet,) = [p for p in pages(hg_pdf) if "Class results" in p]
    header = ",".join(bal.csv_columns(sides))
    assert header == "pair,winner,decided_turn,vp_soviet,vp_german"
    assert f"first line is exactly: {header}" in sheet
    assert re.search(r"pair .*winner .*decided_turn .*vp_soviet .*vp_german", sheet)  # the columns, in order
    csv = tmp_path / "class.csv"
    csv.write_text(f"{header}\n1,german,3,8,20\n")
    rows = bal.read_class_results(str(csv), sides, {s.id: s.name for s in game.game.sides}, 8)
    assert rows[0].winner == "german"
    assert rows[0].vp == {"soviet": 8, "german": 20}


def test_a_game_without_victory_points_has_no_vp_columns() -> None:
    game = load(ROOT / "data" / "escape_from_hells_gate.yaml")
    assert not bal.scores_vp(game)
    text = pages(teacher.render(game, BuildOptions(only=("teacher",))))
    (sheet,) = [p for p in text if "Class results" in p]
    assert "first line is exactly: pair,winner,decided_turn and" in sheet
    assert "vp_" not in sheet


def test_greys_only_and_the_same_bytes(hg_pdf: bytes) -> None:
    from tests.test_palette import _colours_used

    used = _colours_used(hg_pdf)
    assert used
    assert all(c[1:3] == c[3:5] == c[5:7] for c in used), used
    again = teacher.render(load(ROOT / "data" / "hells_gate.yaml"), BuildOptions(only=("teacher",)))
    assert again == hg_pdf


def test_build_only_teacher_writes_teacher_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "teacher" in COMPONENTS
    status = main(["build", str(ROOT / "data" / "halden_line.yaml"), "--only", "teacher", "--out", str(tmp_path), "-q"])
    assert status == 0, capsys.readouterr().err
    pdf = (tmp_path / "halden_line" / "teacher.pdf").read_bytes()
    text = pages(pdf)
    assert "P(defender elim.)" in text[0]  # eliminations are the table's losses: shown, not counted as steps
    assert "the attack pays from 2:1" in text[0]


def test_sets_without_only_add_the_teachers_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``forge build --sets N`` adds the handout and the teacher's pack to the default components."""
    import forge.builder as builder

    seen: list[tuple[str, ...]] = []

    def fake(game: object, out: Path, options: BuildOptions) -> builder.Built:
        seen.append(options.only)
        return builder.Built([], [])

    monkeypatch.setattr(builder, "build", fake)
    assert main(["build", str(ROOT / "data" / "ferry_point.yaml"), "--sets", "2", "--out", str(tmp_path), "-q"]) == 0
    assert seen == [("map", "counters", "cards", "handout", "teacher")]
