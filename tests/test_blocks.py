"""The blocks the cards and the handout are laid out from (:mod:`forge.render.blocks`): markup parsed into runs,
lines broken greedily (soft hyphens, long words by letters), paragraphs and tables split, tables drawn on
:mod:`forge.canvas` with their cells recorded as containers."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples

from forge.canvas import Recorder, SvgCanvas
from forge.markup import escape
from forge.pdf import FONT, FONT_BOLD, FONT_ITALIC, text_width
from forge.render import blocks as B
from forge.render.fit import soft_hyphens

STYLE = B.TextStyle(size=7.0, leading=8.4)
_EPS = 1e-6

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;:()?-/&<>'", min_size=1,
                max_size=40)  # fmt: skip
texts = st.lists(words, min_size=0, max_size=30).map(" ".join)
tags = st.sampled_from(["", "b", "i", "u"])


@st.composite
def markups(draw: st.DrawFn) -> tuple[str, str]:
    """(markup, its plain text): words escaped with soft hyphens in the long ones (as the cards' ``esc``), some in
    tags, some lines broken."""
    parts, plain = [], []
    for w in draw(st.lists(words, min_size=1, max_size=25)):
        tag = draw(tags)
        m = escape(soft_hyphens(w))
        parts.append(f"<{tag}>{m}</{tag}>" if tag else m)
        plain.append(w)
        if draw(st.integers(0, 9)) == 0:
            parts.append("<br/>")
            plain.append("\n")
    return " ".join(parts), " ".join(plain)


def _printed(lines: list[B.Line]) -> str:
    """The text of ``lines`` as a reader takes it: a hyphen the break added joins the word again."""
    out = ""
    for ln in lines:
        t = ln.text
        out += t[:-1] if ln.hyphen else t + " "
    return out


def _norm(s: str) -> str:
    return "".join(s.split())


# ------------------------------------------------------------------------------------------------ markup
def test_the_six_tags_become_runs() -> None:
    runs = B.parse('a <b>bold</b> <i>it</i> <u>under</u>&amp;<br/><font name="DejaVuSans" size="5.5">s</font>'
                   '<font color="#C8102E"><b>red</b></font>', STYLE)  # fmt: skip
    assert [(r.text, r.font, r.size, r.colour, r.underline) for r in runs] == [
        ("a ", FONT, 7.0, "#000000", False),
        ("bold", FONT_BOLD, 7.0, "#000000", False),
        (" ", FONT, 7.0, "#000000", False),
        ("it", FONT_ITALIC, 7.0, "#000000", False),
        (" ", FONT, 7.0, "#000000", False),
        ("under", FONT, 7.0, "#000000", True),
        ("&", FONT, 7.0, "#000000", False),
        ("\n", FONT, 0.0, "#000000", False),
        ("s", FONT, 5.5, "#000000", False),
        ("red", FONT_BOLD, 7.0, "#c8102e", False),
    ]
    assert runs[7] is B.BREAK


def test_a_font_name_sets_the_face_inside_a_bold_style() -> None:
    """A heading is bold; its rule number is set in the regular face by ``<font name=>``."""
    runs = B.parse(f'Stacking <font name="{FONT}" size="8">(5)</font>', STYLE.but(font=FONT_BOLD))
    assert [(r.text, r.font, r.size) for r in runs] == [("Stacking ", FONT_BOLD, 7.0), ("(5)", FONT, 8.0)]


@pytest.mark.parametrize("bad", ["<blink>x</blink>", "<b>x", "x</b>", "<b><i>x</b></i>", '<font color="red">x</font>'])
def test_markup_the_cards_never_make_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match=r"tag|unbalanced|not closed|colour"):
        B.parse(bad, STYLE)


def test_plain_text_of_markup() -> None:
    assert B.plain("<b>1</b>-2<br/>a &lt;b&gt;\xadc") == ["1-2", "a <b>c"]


# ------------------------------------------------------------------------------------------------ lines
def test_a_soft_hyphen_breaks_a_word_and_prints_its_hyphen() -> None:
    word = soft_hyphens("Korsunskaya_Shevchenkovsky", 10)
    lines = B.break_lines(B.parse(f"to {escape(word)}", STYLE), 60)
    assert len(lines) > 1
    assert lines[0].text.startswith("to Korsun")
    assert lines[0].text.endswith("-")
    assert lines[0].hyphen
    assert "\xad" not in "".join(ln.text for ln in lines)
    assert _norm(_printed(lines)) == _norm("to Korsunskaya_Shevchenkovsky")


def test_a_soft_hyphen_prints_nothing_where_the_word_fits() -> None:
    lines = B.break_lines(B.parse("a\xadb\xadc", STYLE), 100)
    assert [ln.text for ln in lines] == ["abc"]
    assert lines[0].width == pytest.approx(text_width("abc", 7.0))


def test_a_word_too_long_for_a_line_is_broken_by_letters() -> None:
    lines = B.break_lines(B.parse("Supercalifragilistic", STYLE), 25)
    assert len(lines) >= 3
    assert all(ln.text.endswith("-") for ln in lines[:-1])
    assert all(ln.width <= 25 + _EPS for ln in lines)
    assert "".join(ln.text[:-1] for ln in lines[:-1]) + lines[-1].text == "Supercalifragilistic"


def test_a_break_ends_a_line_and_spaces_collapse() -> None:
    lines = B.break_lines(B.parse("a   b<br/>c<br/><br/>d", STYLE), 500)
    assert [ln.text for ln in lines] == ["a b", "c", "", "d"]
    assert B.break_lines(B.parse("  ", STYLE), 500) == []


def test_a_space_between_runs_is_measured_in_its_run() -> None:
    line = B.break_lines(B.parse("<b>ab </b>cd", STYLE), 500)[0]
    want = text_width("ab ", 7, FONT_BOLD) + text_width("cd", 7, FONT)
    assert line.width == pytest.approx(want)
    assert [(x, t) for x, t, _ in line.frags] == [(0.0, "ab "), (pytest.approx(text_width("ab ", 7, FONT_BOLD)), "cd")]


@settings(max_examples=examples(150, 1500), deadline=None)
@given(markups(), st.floats(min_value=12, max_value=300))
def test_no_line_is_wider_than_the_width_and_text_in_is_text_out(m: tuple[str, str], width: float) -> None:
    markup, text = m
    lines = B.break_lines(B.parse(markup, STYLE), width)
    for ln in lines:
        # one letter and its hyphen wider than the width is the one exception (nothing narrower can be printed)
        assert ln.width <= width + _EPS or len(ln.text.rstrip("-")) <= 1, (ln.text, ln.width, width)
        if ln.frags:  # its spaces perhaps narrowed: the last piece ends it
            x, t, r = ln.frags[-1]
            assert ln.width == pytest.approx(x + r.width(t) - ln.squeeze * t.count(" "))
    assert _norm(_printed(lines)) == _norm(text)


@settings(max_examples=examples(100, 1000), deadline=None)
@given(markups(), st.floats(min_value=20, max_value=300), st.floats(min_value=0, max_value=200))
def test_split_paragraph_parts_add_up_to_the_whole(m: tuple[str, str], width: float, height: float) -> None:
    p = B.Para(m[0], STYLE)
    whole = p.measure(width)
    parts = p.split(width, height)
    if parts is None:
        lines = len(p.lines(width))
        assert lines * STYLE.leading <= height + _EPS or int(height / STYLE.leading) <= 1
        return
    a, b = parts
    assert a.measure(width) <= height + _EPS
    assert a.measure(width) >= 2 * STYLE.leading  # no orphan line
    assert a.measure(width) + b.measure(width) == pytest.approx(whole)
    assert isinstance(a, B.Para)
    assert isinstance(b, B.Para)
    assert a.lines(width) + b.lines(width) == p.lines(width)


def test_paragraph_metrics_are_reportlabs() -> None:
    """``leading`` a line; the first baseline ``size`` below the top; centred lines in the middle of the width."""
    p = B.Para("one two three four five six", STYLE.but(align="centre"))
    assert p.measure(40) == len(p.lines(40)) * 8.4
    assert len(p.lines(40)) > 1
    rec = Recorder()
    c = SvgCanvas(100, 100, recorder=rec)
    p.draw(c, 10, 20, 40)
    texts = [it for it in rec.items if it.kind == "text"]
    first = p.lines(40)[0]
    assert texts[0].label == first.text
    assert texts[0].box.x0 == pytest.approx(10 + (40 - first.width) / 2, abs=0.01)
    svg = c.tobytes().decode()
    assert re.search(r'y="27(\.0+)?"', svg)  # 20 + 7


# ------------------------------------------------------------------------------------------------ tables
def _table(n: int, *, head: int = 1, fixed: float | None = None, tall: int = 0) -> B.Table:
    cell = B.TextStyle(size=7.0, leading=8.4)
    rows = [B.Row([B.Para("<b>Die</b>", cell), B.Para("Result", cell)], fill="#333333")][:head]
    for i in range(n):
        text = f"result {i}" + "<br/>more" * (i % (tall + 1))
        rows.append(B.Row([B.Para(str(i), cell), B.Para(text, cell)], fill="#eeeeee" if i % 2 else None,
                          height=fixed))  # fmt: skip
    return B.Table(rows, [30.0, 90.0], head=head, pad=(1.5, 1.5, 3, 3), rule=(0.25, "#9a9a9a"),
                   outline=(0.6, "#000000"))  # fmt: skip


def test_a_row_is_its_tallest_cell_and_its_padding() -> None:
    t = _table(3, tall=2)
    assert t.row_heights() == pytest.approx([8.4 + 3, 8.4 + 3, 16.8 + 3, 25.2 + 3])
    assert _table(3, fixed=22.0).row_heights() == pytest.approx([11.4, 22.0, 22.0, 22.0])


@settings(max_examples=examples(100, 1000), deadline=None)
@given(st.integers(1, 30), st.integers(0, 3), st.floats(min_value=0, max_value=400), st.integers(0, 1))
def test_split_table_parts_add_up_and_each_has_the_header(n: int, tall: int, height: float, head: int) -> None:
    t = _table(n, tall=tall, head=head)
    whole = t.measure(200)
    parts = t.split(200, height)
    if parts is None:
        hs = t.row_heights()
        fits = sum(1 for k in range(len(hs)) if sum(hs[: k + 1]) <= height)
        assert fits <= head or fits == len(hs)
        return
    a, b = parts
    assert isinstance(a, B.Table)
    assert isinstance(b, B.Table)
    assert a.measure(200) <= height + _EPS
    hh = sum(t.row_heights()[:head])
    assert a.measure(200) + b.measure(200) == pytest.approx(whole + hh)  # the header repeated
    assert a.rows[:head] == t.rows[:head]
    assert b.rows[:head] == t.rows[:head]
    assert a.body_rows >= 1
    assert b.body_rows >= 1
    assert a.rows[head:] + b.rows[head:] == t.rows[head:]  # every body row once, in order, its fill with it
    again = b.split(200, height)  # the rest splits again the same way
    if again is not None:
        assert again[1].rows[:head] == t.rows[:head]


def test_a_table_fits_whole_or_keeps_a_row_under_its_header() -> None:
    t = _table(5)
    hs = t.row_heights()
    assert t.split(200, sum(hs)) is None  # it all fits
    assert t.split(200, hs[0] + hs[1] - 0.01) is None  # not one body row fits under the header
    a, b = t.split(200, hs[0] + hs[1] + 0.01) or (None, None)
    assert isinstance(a, B.Table)
    assert a.body_rows == 1
    assert isinstance(b, B.Table)
    assert b.body_rows == 4


def test_a_spanned_row_takes_the_whole_width() -> None:
    cell = B.TextStyle(size=7.0, leading=8.4)
    title = B.Para("A section name long enough to need more than one column", cell)
    rows = [B.Row([B.Para("x", cell), B.Para("y", cell)]), B.Row([title, None], span=True, fill="#6b6b6b")]
    t = B.Table(rows, [30.0, 300.0], pad=(1, 1, 2, 2))
    assert t.row_heights()[1] == pytest.approx(8.4 + 2)  # one line across both columns
    rec = Recorder()
    c = SvgCanvas(400, 100, recorder=rec)
    t.draw(c, 0, 0, 330)
    cells = [it for it in rec.items if it.kind == "container" and "row 2" in it.label]
    assert len(cells) == 1
    assert cells[0].box.x1 - cells[0].box.x0 == pytest.approx(330)
    text = next(it for it in rec.items if it.kind == "text" and it.label.startswith("A section"))
    assert text.box.x1 > 30  # runs on past the first column


def test_table_cells_are_recorded_as_containers_holding_their_text() -> None:
    t = _table(2)
    rec = Recorder()
    c = SvgCanvas(300, 300, recorder=rec)
    t.draw(c, 10, 10, 200)
    for it in rec.items:
        if it.kind == "text":
            parent = rec.items[it.parent] if it.parent is not None else None
            assert parent is not None
            assert parent.kind == "container"
            assert "column" in parent.label
            assert it.box.inside(parent.box)
    from forge import layout

    assert layout.check(rec) == []


def test_table_draws_fills_rules_and_outline() -> None:
    c = SvgCanvas(300, 300)
    _table(3).draw(c, 0, 0, 200)
    svg = c.tobytes().decode()
    assert 'fill="#333333"' in svg
    assert svg.count('fill="#eeeeee"') == 1
    assert svg.count('stroke="#9a9a9a"') == 4  # a rule below every row
    assert 'stroke="#000000"' in svg


class _Box(B.Piece):
    width, height, label = 12.0, 9.0, "box"

    def draw(self, c: object, x: float, y: float, width: float) -> None:
        assert isinstance(c, SvgCanvas)
        c.rect(x, y, self.width, self.height, stroke="#000000")


def test_a_piece_in_a_centred_table_is_centred_in_its_cell() -> None:
    rows = [B.Row([_Box()])]
    c = SvgCanvas(100, 100)
    B.Table(rows, [40.0], head=0, align="centre", pad=(0, 0, 2, 2)).draw(c, 0, 0, 40)
    assert 'x="14"' in c.tobytes().decode()  # 2 + (36 - 12) / 2
    c = SvgCanvas(100, 100)
    B.Table(rows, [40.0], head=0, pad=(0, 0, 2, 2)).draw(c, 0, 0, 40)
    assert 'x="2"' in c.tobytes().decode()


# ------------------------------------------------------------------------------------------------ a line's runs
def test_a_line_may_take_one_more_word_by_narrowing_its_spaces() -> None:
    """reportlab's space shrinkage (5% of the line's spaces): the line is drawn no wider than the width, with PDF
    word spacing, in one text object ending the line (T*), as reportlab's paragraphs are."""
    import io

    from forge.canvas import PdfCanvas
    from forge.pdf import new_canvas

    text = "Minor River row of the CRT when every attacker strikes"
    natural = text_width("Minor River row of the CRT when every attacker", 7.0)
    width = natural - 0.3  # the last word fits only with the spaces a little narrower
    lines = B.break_lines(B.parse(text, STYLE), width)
    assert lines[0].text == "Minor River row of the CRT when every attacker"
    assert lines[0].squeeze > 0
    assert lines[0].width == pytest.approx(width)
    assert B.break_lines(B.parse(text, STYLE), natural - 2.0)[0].text.endswith("every")  # 5% is the limit
    rl = new_canvas(io.BytesIO(), (300, 100))
    B.Para(text, STYLE).draw(PdfCanvas(rl, top=100), 10, 10, width)
    ops = " ".join(rl._code)
    assert ops.count("BT") == 2  # one text object a line
    assert " Tw " in ops
    assert "T* " in ops
    rec = Recorder()
    B.Para(text, STYLE).draw(SvgCanvas(300, 100, recorder=rec), 10, 10, width)
    words = [it for it in rec.items if it.kind == "text" and it.box.y0 < 20]
    assert [w.label for w in words] == lines[0].text.split()  # each word placed where its narrowed spaces put it
    assert words[-1].box.x1 <= 10 + width + 0.01
