"""Hostile input on the surfaces of session 17: layout templates (``forge build --templates``), ``forge new`` and
``forge export vassal``.  Each test is a defect found by attacking them (bench/fuzz_templates.py found the counter
template ones) and failed before its fix: bad input is one located message and exit status 2, never a traceback,
a hang, a half-written file, or a fault printed without a word."""

from __future__ import annotations

import os
import random
import signal
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import DATA, ROOT, seed_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import forge.pdf
from forge import layout, new
from forge import templates as T
from forge.builder import BuildOptions
from forge.canvas import Recorder
from forge.cli import main
from forge.errors import LoadError, Problem
from forge.loader import MAX_BYTES, loads
from forge.render import cards, counters

sys.path.insert(0, str(ROOT / "bench"))

import fuzz_templates  # bench/fuzz_templates.py: the template mutators

COUNTER = (ROOT / "templates" / "counter.yaml").read_text(encoding="utf-8")
CARD = (ROOT / "templates" / "card.yaml").read_text(encoding="utf-8")
FERRY = DATA / "ferry_point.yaml"
posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, devices and links as on POSIX")


def _folder(tmp_path: Path, name: str = "counter.yaml", text: str | None = None) -> Path:
    d = tmp_path / "tpl"
    d.mkdir(exist_ok=True)
    if text is not None:
        (d / name).write_text(text, encoding="utf-8")
    return d


def _value(text: str, part: str, key: str, value: object) -> str:
    """``text`` (a template) with ``part.key`` set to ``value`` (the key's first line under the part)."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"{part}:"))
    i = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(f"  {key}:"))
    comment = lines[i].find("#")
    lines[i] = f"  {key}: {value}" + ("   " + lines[i][comment:] if comment > 0 else "\n")
    return "".join(lines)


def _line(text: str, part: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{part}:"))


def _problems(folder: Path) -> list[str]:
    with pytest.raises(LoadError) as e:
        counters.check_template(T.load(folder))
    return [str(p) for p in e.value.problems]


# ------------------------------------------------------------------------------------- reading a template
@posix_only
@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda p: os.mkfifo(p), "is a FIFO (named pipe), not a regular file (expected a YAML layout template)"),
        (lambda p: os.symlink("/dev/zero", p), "is a device, not a regular file"),
        (lambda p: os.symlink(p.name, p), "Too many levels of symbolic links"),
        (lambda p: os.symlink("gone.yaml", p), "a symbolic link to a file that does not exist"),
    ],
    ids=["fifo", "dev-zero", "link-loop", "dangling-link"],
)
def test_a_template_that_is_no_regular_file_is_one_located_message(
    make: object, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO blocked the build for ever, /dev/zero ran it out of memory (MemoryError), and a broken link or a link
    loop was taken silently for a missing file (the shipped template printed instead of the user's)."""
    folder = _folder(tmp_path)
    make(folder / "counter.yaml")  # type: ignore[operator]
    out = tmp_path / "out"
    assert main(["build", str(FERRY), "--only", "counters", "--out", str(out), "--templates", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[0] == f"{folder / 'counter.yaml'}: " + err.splitlines()[0].split(": ", 1)[1]
    assert expected in err
    assert "Traceback" not in err
    assert not out.exists()


def test_an_empty_templates_name_is_not_the_current_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["build", str(FERRY), "--only", "counters", "--out", str(out), "--templates", ""]) == 2
    assert "'': an empty folder name (--templates expects a folder of templates)" in capsys.readouterr().err
    assert not out.exists()


def test_a_template_larger_than_a_game_file_may_be_is_refused(tmp_path: Path) -> None:
    folder = _folder(tmp_path, text=COUNTER + "#" * MAX_BYTES + "\n")
    with pytest.raises(LoadError, match="larger than 8 MiB"):
        T.load(folder)


def test_a_template_that_is_a_list_is_not_asked_for_a_game_key(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as e:
        T.load(_folder(tmp_path, text="- padding: 0.1\n"))
    assert str(e.value).endswith("counter.yaml:1:1: the top level is a list; expected a mapping of layout values")


# --------------------------------------------------------------------------------------- counter template
@pytest.mark.parametrize(
    ("part", "key", "value", "named"),
    [
        ("symbol", "x", 0.919, "symbol: the symbol runs off the counter face"),  # lands on the next counter
        ("strength", "bottom", 0.011, "strength: the strength runs off"),  # brackets reach below digits
        ("back_label", "size", 0.797, "back_label: the back_label runs off"),  # a one-letter back is not shrunk
        ("write_in", "inset", 0.12, "write_in: the write_in overlaps the strength"),  # the box on the next digit
    ],
)
def test_what_the_check_missed_on_real_counters_is_a_located_error(
    part: str, key: str, value: float, named: str, tmp_path: Path
) -> None:
    """Each of these passed the template check and printed overlapping or cut counters on the seed games without a
    word (bench/fuzz_templates.py: the layout checker on the counter sheets of Ferry Point and Hell's Gate)."""
    text = _value(COUNTER, part, key, value)
    problems = _problems(_folder(tmp_path, text=text))
    line = _line(text, part)
    assert any(p.startswith(f"{tmp_path / 'tpl' / 'counter.yaml'}:{line}:1: {named}") for p in problems), problems


def test_the_shipped_counter_template_passes_the_stricter_check() -> None:
    counters.check_template(T.load(None))


@settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rng=st.randoms(use_true_random=False), size=st.sampled_from(["1/2in", "5/8in", "3/4in"]))
def test_a_mutated_counter_template_prints_clean_or_is_refused_located(
    rng: random.Random, size: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The property bench/fuzz_templates.py checks on many more cases: a template with one to three values
    changed (bounds, extremes, wrong types, deleted keys, per-size overrides) is refused with every problem located
    in it, or its counters draw with nothing off a face and nothing overlapping."""
    case = fuzz_templates.case_from(rng, "counter")
    folder = tmp_path_factory.mktemp("tpl")
    (folder / "counter.yaml").write_text(case.text, encoding="utf-8")
    problems: list[Problem] = []
    try:
        tpl = T.load(folder)
        counters.check_template(tpl)
    except LoadError as e:
        problems = e.problems
    if problems:
        assert all(p.file == str(folder / "counter.yaml") and p.line for p in problems), case.mutations
        return
    rec = Recorder(f"ferry_point {size}")
    with T.use(tpl):
        counters.render(
            seed_game("ferry_point"), BuildOptions(only=("counters",), counter_size=size, sets=2), recorder=rec
        )
    assert layout.check(rec) == [], case.mutations


# ------------------------------------------------------------------------------------------ card template
def test_a_card_template_that_leaves_the_charts_no_room_is_refused_not_a_hang(tmp_path: Path) -> None:
    """Margin 2 in and padding 144 left a card's charts negative room: the cards were poured for ever."""
    text = CARD.replace("margin: 0.35in", "margin: 2in").replace("padding: 9 ", "padding: 144 ")
    with pytest.raises(LoadError) as e:
        T.load(_folder(tmp_path, "card.yaml", text))
    (problem,) = e.value.problems
    assert (problem.line, problem.path) == (_line(text, "padding"), "padding")
    assert "leave the charts of a card 36 x -8 pt on letter paper (expected at least 144 x 72 pt" in str(problem)


def test_the_shipped_card_template_has_room() -> None:
    assert T.check_card(T.shipped().card, T.shipped().counter_source) == []


def test_a_wide_table_padding_draws_the_cards(tmp_path: Path) -> None:
    """padding_x 8 (the schema allows 36) made reportlab refuse a CRT column narrower than its padding: a
    ValueError traceback on four of the five seed games."""
    tpl = T.load(_folder(tmp_path, "card.yaml", CARD.replace("padding_x: 3 ", "padding_x: 36 ")))
    with T.use(tpl):
        pdf = cards.render(seed_game("hells_gate"), BuildOptions(only=("cards",)))
    assert pdf.startswith(b"%PDF")


@posix_only
def test_a_card_with_no_room_at_all_ends(tmp_path: Path) -> None:
    """The last resort when nothing fits even cut short (a region of negative height): the chart is left out."""
    from reportlab.pdfgen.canvas import Canvas

    from forge.pdf import render_pdf

    st = cards.Styles.make(BuildOptions(only=("cards",)))

    def draw(c: Canvas) -> None:
        used = cards.flow(
            c,
            [cards.P("A chart", st.body)],
            regions_per_page=1,
            region=lambda i: (0.0, 0.0, 200.0, 200.0),
            chrome=lambda c, i, r: (10.0, 10.0, 180.0, -5.0),
        )
        assert used == 1

    def hung(signum: int, frame: object) -> None:  # before the fix the loop never ended (and grew without bound)
        raise AssertionError("flow() did not end")

    old = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, 20.0)
    try:
        assert render_pdf((300.0, 300.0), draw).startswith(b"%PDF")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ------------------------------------------------------------------------------------------------ forge new
@pytest.mark.parametrize(
    ("name", "gid"),
    [("Ärger im Tal", "arger_im_tal"), ("é", "e"), ("Straße", "strasse"), ("Łódź 1945", "lodz_1945")],
)
def test_accented_letters_keep_their_letter_in_the_id(name: str, gid: str) -> None:
    """'Ärger im Tal' lost its first letter (rger_im_tal) and 'é' was refused as not starting with a letter."""
    assert new.game_id(name) == gid


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ab " * 26, "its id would be 77 characters long; expected at most 64"),  # wrote a game check refuses
        ("\udcff Game", "bytes that are not UTF-8"),  # argv bytes that are not UTF-8: a traceback and empty files
        ("a\x07b", "the control character '\\x07'"),
        ("🚀", "expected a name starting with a letter"),  # Greek, Cyrillic ... are spelled in Latin letters
    ],
)
def test_a_name_forge_new_cannot_use_is_one_message_and_writes_nothing(
    name: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "--out", str(tmp_path), "--", name]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert err.startswith("forge new: game name ")
    assert expected in err
    assert list(tmp_path.iterdir()) == []


def test_a_game_that_appears_meanwhile_is_not_overwritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file is linked into place, which fails when one is there: it used to be written over when it appeared
    after the check (here: the check is told it is not there)."""
    (tmp_path / "ferry.yaml").write_text("mine\n", encoding="utf-8")
    monkeypatch.setattr(new.os.path, "lexists", lambda p: False)
    with pytest.raises(new.NewGameError, match="exists"):
        new.write("Ferry", "hex", tmp_path, "{}")
    assert (tmp_path / "ferry.yaml").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ferry.yaml"]  # no temporary, no schema


def test_a_folder_forge_new_cannot_write_in_is_named_not_its_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(**kw: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", str(tmp_path / ".river_crossing.yaml.1.x.tmp"))

    monkeypatch.setattr(new.tempfile, "mkstemp", refused)
    assert main(["new", "--out", str(tmp_path), "River Crossing"]) == 2
    err = capsys.readouterr().err
    assert err == f"forge new: cannot write {tmp_path / 'river_crossing.yaml'}: Permission denied\n"


def test_forge_new_writes_where_no_hard_link_can_be_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(src: str, dst: str) -> None:
        raise PermissionError(1, "Operation not permitted")  # FAT, some network shares

    monkeypatch.setattr(new.os, "link", no_links)
    written = new.write("Ferry", "hex", tmp_path, "{}")
    assert written.read_text(encoding="utf-8") == new.game_text("Ferry", "hex")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ferry.yaml", new.SCHEMA]
    with pytest.raises(new.NewGameError, match="exists"):
        new.write("Ferry", "hex", tmp_path, "{}")


def test_an_interrupted_forge_new_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(new.os, "link", interrupted)
    assert main(["new", "--out", str(tmp_path), "River Crossing"]) == 130
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------------------- forge export vassal
def _odd_game(tmp_path: Path) -> Path:
    """Ferry Point cut to a map of one hex, with no units, no markers and no examples, and a title in Cyrillic."""
    doc = yaml.safe_load(FERRY.read_text(encoding="utf-8"))
    doc["game"].update(id="one_hex", title="Переправа")
    doc["map"].update(sheet="2x2in", hexes={"A1": {"supply": "blue"}}, hexsides=[])
    doc["map"]["grid"].update(columns=1, rows=1, labels="letter-column", rows_up=True)
    doc["units"], doc["markers"], doc["examples"] = [], [], []
    path = tmp_path / "one_hex.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    loads(path.read_bytes(), str(path))  # a valid game
    return path


def test_an_interrupted_export_leaves_the_old_module_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _odd_game(tmp_path)
    out = tmp_path / "out"
    (out / "one_hex").mkdir(parents=True)
    (out / "one_hex" / "one_hex.vmod").write_bytes(b"old")

    def interrupted(fd: int, data: bytes, name: Path, mode: int | None = None) -> None:
        os.close(fd)
        raise KeyboardInterrupt

    monkeypatch.setattr(forge.pdf, "_write_fd", interrupted)
    assert main(["export", "vassal", str(game), "--out", str(out), "-q"]) == 130
    assert "no output was half-written" in capsys.readouterr().err
    assert [p.name for p in (out / "one_hex").iterdir()] == ["one_hex.vmod"]
    assert (out / "one_hex" / "one_hex.vmod").read_bytes() == b"old"
    monkeypatch.undo()
    from forge import vassal

    written = vassal.export(loads(game.read_bytes(), str(game)), out, dpi=40)  # and the odd game does export
    with zipfile.ZipFile(written) as z:
        assert "buildFile.xml" in z.namelist()
