"""Blocks: what the reference cards, the class handout and the player aids are laid out from, drawn on
:mod:`forge.canvas` (y down) without reportlab's platypus (docs/CARDS.md).

A :class:`Block` measures its height at a width, splits between lines or rows when asked for a part no taller than
a height, and draws with its top-left corner at a point.  :class:`Para` is a paragraph of runs parsed from the
markup the cards use (``<b>``, ``<i>``, ``<u>``, ``<br/>``, ``<font name= size= color=>``, entities escaped by
:func:`forge.markup.escape`), broken greedily into lines at spaces and at soft hyphens (the hyphen printed where a
line ends), a word too long for a line broken by letters.  :class:`Table` is a chart: fixed column widths, cells
that are blocks, padding, alignment, row fills, rules and an outline, whole-row spans, fixed body-row heights and
header rows repeated on every part of a split.  :class:`Piece` is a drawing of fixed size (a shift arrow, a
terrain sample, a write-in box).

The metrics are reportlab's, so that page breaks stay where they were: a paragraph is ``leading`` points a line,
its first baseline ``size`` points below its top; a table row is its tallest cell and its padding; a table splits
after the last row that fits whole.  Nothing here imports reportlab.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal, Protocol, runtime_checkable

from ..canvas import Canvas
from ..markup import unescape
from ..pdf import FONT, FONT_BOLD, FONT_ITALIC, text_width

__all__ = [
    "Block",
    "Heading",
    "Line",
    "Para",
    "Piece",
    "Row",
    "Run",
    "Spacer",
    "Table",
    "TextStyle",
    "parse",
    "plain",
]

SHY = "\xad"
_EPS = 1e-6
Align = Literal["left", "centre"]
VAlign = Literal["top", "middle"]


@runtime_checkable
class Block(Protocol):
    """What a card or a page is poured from (:func:`forge.render.cards.flow`)."""

    space_before: float
    space_after: float

    def measure(self, width: float) -> float:
        """Height at ``width`` (points)."""
        ...

    def split(self, width: float, height: float) -> tuple[Block, Block] | None:
        """A first part no taller than ``height`` and the rest; None when it cannot be split there (or need not)."""
        ...

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:
        """Draw with the top-left corner at ``(x, y)`` (y down)."""
        ...


# ------------------------------------------------------------------------------------------------ text
@dataclass(frozen=True)
class TextStyle:
    """A paragraph's type: face, size, line advance, colour (``#rrggbb``), alignment and the space a flow leaves
    above and below it."""

    font: str = FONT
    size: float = 7.0
    leading: float = 8.4
    colour: str = "#000000"
    align: Align = "left"
    space_before: float = 0.0
    space_after: float = 0.0

    def but(self, **kw: object) -> TextStyle:
        return replace(self, **kw)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Run:
    """Text in one face, size and colour, perhaps underlined."""

    text: str
    font: str
    size: float
    colour: str
    underline: bool = False

    def width(self, text: str | None = None) -> float:
        return text_width(self.text if text is None else text, self.size, self.font)


BREAK = Run("\n", FONT, 0.0, "#000000")
"""A forced line break (``<br/>``) among the runs :func:`parse` returns."""

_TOKEN = re.compile(r"<(/?)([a-zA-Z]+)((?:\s+[a-zA-Z]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>")
_ATTR = re.compile(r"([a-zA-Z]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_TAGS = ("b", "i", "u", "br", "font")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def _face(bold: bool, italic: bool) -> str:
    return FONT_BOLD if bold else FONT_ITALIC if italic else FONT  # no bold italic face: bold (as the cards had it)


def parse(markup: str, style: TextStyle) -> list[Run]:
    """The runs of ``markup`` in ``style``: ``<b>``, ``<i>``, ``<u>``, ``<br/>`` (a :data:`BREAK`) and ``<font>``
    with ``name``, ``size`` and ``color`` (``#rrggbb``); text between tags unescaped.  ValueError for any other tag
    or an unbalanced one: text gets in escaped (:func:`forge.render.cards.esc`), so a stray ``<`` is a bug."""
    bold, italic = style.font == FONT_BOLD, style.font == FONT_ITALIC
    state = (bold, italic, False, style.size, style.colour)
    stack: list[tuple[str, tuple[bool, bool, bool, float, str]]] = []
    out: list[Run] = []

    def text(t: str) -> None:
        if t:
            b, i, u, size, colour = state
            out.append(Run(unescape(t), _face(b, i), size, colour, u))

    pos = 0
    for m in _TOKEN.finditer(markup):
        text(markup[pos : m.start()])
        pos = m.end()
        closing, tag, attrs, empty = m.group(1), m.group(2).lower(), m.group(3), m.group(4)
        if tag not in _TAGS:
            raise ValueError(f"unknown tag <{tag}> in {markup[:60]!r} (expected one of {', '.join(_TAGS)})")
        if tag == "br":
            out.append(BREAK)
            continue
        if closing:
            if not stack or stack[-1][0] != tag:
                raise ValueError(f"unbalanced </{tag}> in {markup[:60]!r}")
            state = stack.pop()[1]
            continue
        stack.append((tag, state))
        b, i, u, size, colour = state
        if tag == "b":
            b = True
        elif tag == "i":
            i = True
        elif tag == "u":
            u = True
        else:
            for key, v1, v2 in _ATTR.findall(attrs):
                v = v1 or v2
                if key == "name":
                    b, i = v == FONT_BOLD, v == FONT_ITALIC
                elif key == "size":
                    size = float(v)
                elif key == "color":
                    if not _HEX.match(v):
                        raise ValueError(f"colour {v!r} in {markup[:60]!r} (expected #rrggbb)")
                    colour = v.lower()
                else:
                    raise ValueError(f"<font {key}=> in {markup[:60]!r} (expected name, size or color)")
        state = (b, i, u, size, colour)
        if empty:
            state = stack.pop()[1]
    text(markup[pos:])
    if stack:
        raise ValueError(f"<{stack[-1][0]}> not closed in {markup[:60]!r}")
    return out


def plain(markup: str) -> list[str]:
    """The text of ``markup``, one string per ``<br/>``-separated line, without tags or soft hyphens."""
    lines = [""]
    for r in parse(markup, TextStyle()):
        if r is BREAK:
            lines.append("")
        else:
            lines[-1] += r.text.replace(SHY, "")
    return lines


Frag = tuple[str, Run]
"""A piece of a word in one run."""


@dataclass(frozen=True)
class Line:
    """One line of a paragraph: its pieces (text, run), each at an x from the line's start; its width; whether
    it ends in a hyphen the break added (a soft hyphen's, or a long word's cut)."""

    frags: tuple[tuple[float, str, Run], ...]
    width: float
    hyphen: bool = False
    squeeze: float = 0.0
    """How much narrower each space is drawn (a line that took one more word, :data:`SPACE_SHRINK`)."""

    @property
    def text(self) -> str:
        return "".join(t for _, t, _ in self.frags)


class _Word(list[Frag]):
    """A word: its pieces, and the run of the space before it (that space is measured and drawn in its run)."""

    space: Run | None = None


def _space(word: Sequence[Frag], before: Sequence[Frag]) -> Run:
    """The run of the space between ``before`` and ``word``."""
    run = getattr(word, "space", None)
    return run if run is not None else before[-1][1]


def _words(runs: Sequence[Run]) -> list[list[list[Frag]]]:
    """Paragraph lines (split at breaks) of words, each word a list of pieces; spaces separate words."""
    paras: list[list[list[Frag]]] = [[]]
    word = _Word()
    space: Run | None = None

    def end_word() -> None:
        nonlocal word
        if word:
            paras[-1].append(word)
            word = _Word()
            word.space = space

    for r in runs:
        if r is BREAK:
            end_word()
            paras.append([])
            continue
        for i, part in enumerate(re.split(r"[ \t\n\r]+", r.text)):
            if i:
                space = r
                end_word()
                word.space = r
            if part:
                word.append((part, r))
    end_word()
    return paras


def _fw(frags: Sequence[Frag]) -> float:
    return sum(r.width(t.replace(SHY, "")) for t, r in frags)


def _cut(word: Sequence[Frag], at: int) -> tuple[list[Frag], list[Frag]]:
    """``word`` cut after ``at`` characters."""
    head: list[Frag] = []
    tail: list[Frag] = []
    n = at
    for t, r in word:
        if n >= len(t):
            head.append((t, r))
            n -= len(t)
        elif n > 0:
            head.append((t[:n], r))
            tail.append((t[n:], r))
            n = 0
        else:
            tail.append((t, r))
    return head, tail


def _hyphenated(word: Sequence[Frag]) -> list[Frag]:
    """``word`` with a hyphen after its last character, in its last piece's run (soft hyphens dropped)."""
    out = [(t.replace(SHY, ""), r) for t, r in word]
    while out and not out[-1][0]:
        out.pop()
    t, r = out[-1]
    out[-1] = (t + "-", r)
    return out


def _at_shy(word: Sequence[Frag], room: float) -> tuple[list[Frag], list[Frag]] | None:
    """The longest head of ``word`` ending at a soft hyphen that fits ``room`` with its hyphen printed, and the rest."""
    flat = "".join(t for t, _ in word)
    for i in range(len(flat) - 1, 0, -1):
        if flat[i] != SHY:
            continue
        head, tail = _cut(word, i + 1)
        if _fw(_hyphenated(head)) <= room + _EPS:
            return _hyphenated(head), [(t, r) for t, r in tail if t]
    return None


def _by_letters(word: Sequence[Frag], room: float) -> tuple[list[Frag], list[Frag]]:
    """The longest head of ``word`` (at least one letter) that fits ``room`` with a hyphen, and the rest."""
    flat = "".join(t for t, _ in word).replace(SHY, "")
    clean = [(t.replace(SHY, ""), r) for t, r in word]
    lo, hi = 1, len(flat) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _fw(_hyphenated(_cut(clean, mid)[0])) <= room + _EPS:
            lo = mid
        else:
            hi = mid - 1
    head, tail = _cut(clean, lo)
    return _hyphenated(head), tail


SPACE_SHRINK = 0.05
"""How much of its spaces' width a line may give up to take one more word (reportlab's ``spaceShrinkage``): the
line is then drawn with its spaces that much narrower, no wider than the width."""


def _line(words: Sequence[list[Frag]], hyphen: bool, width: float) -> Line:
    """A line of ``words`` one space apart (the space in the run of the piece before it), pieces of one run merged;
    its spaces made narrower, each as much, when the line is wider than ``width`` (:data:`SPACE_SHRINK`)."""
    pieces: list[tuple[str, Run]] = []
    for i, w in enumerate(words):
        if i:
            pieces.append((" ", _space(w, words[i - 1])))
        pieces += [(t.replace(SHY, ""), r) for t, r in w]
    natural = sum(r.width(t) for t, r in pieces)
    squeeze = (natural - width) / (len(words) - 1) if natural > width + _EPS and len(words) > 1 else 0.0
    frags: list[tuple[float, str, Run]] = []
    x = 0.0
    for t, r in pieces:
        if not t:
            continue
        if frags and frags[-1][2] == r:
            x0, t0, _ = frags[-1]
            frags[-1] = (x0, t0 + t, r)
        else:
            frags.append((x, t, r))
        x += r.width(t) - squeeze * t.count(" ")
    return Line(tuple(frags), x, hyphen, squeeze)


def break_lines(runs: Sequence[Run], width: float) -> list[Line]:
    """``runs`` broken greedily into lines no wider than ``width``: at spaces (a line may take one more word by
    narrowing its spaces a little, :data:`SPACE_SHRINK`), else at a soft hyphen (its hyphen printed), a word too
    long for a line of its own cut by letters with a hyphen.  A line of one letter wider than ``width`` is the only
    line that may be wider (there is no narrower way to print it)."""
    lines: list[Line] = []
    paras = _words(runs)
    if not any(paras):
        return []
    for para in paras:
        current: list[list[Frag]] = []
        used = spaces = 0.0
        todo = list(para)
        while todo:
            word = todo.pop(0)
            space = _space(word, current[-1]).width(" ") if current else 0.0
            ww = _fw(word)
            limit = width + SPACE_SHRINK * (spaces + space)
            if used + space + ww <= limit + _EPS:
                current.append(word)
                used += space + ww
                spaces += space
                continue
            cut = _at_shy(word, limit - used - space) if SHY in "".join(t for t, _ in word) else None
            if cut is not None:  # the head at a soft hyphen ends this line
                head = _Word(cut[0])
                head.space = getattr(word, "space", None)
                current.append(head)
                lines.append(_line(current, True, width))
                current, used, spaces = [], 0.0, 0.0
                if cut[1]:
                    todo.insert(0, cut[1])
                continue
            if current:  # the word starts the next line
                lines.append(_line(current, False, width))
                current, used, spaces = [], 0.0, 0.0
                todo.insert(0, word)
                continue
            first, tail = _by_letters(word, width)  # alone on a line and too long: cut by letters
            lines.append(_line([first], True, width))
            if tail:
                todo.insert(0, tail)
        lines.append(_line(current, False, width))
    return lines


class Para:
    """A paragraph: ``text`` (markup, :func:`parse`) in ``style``, laid out anew for each width (the last kept)."""

    def __init__(self, text: str, style: TextStyle, *, table_note: bool = False) -> None:
        self.text = text
        self.style = style
        self.table_note = table_note
        """A note that explains the table just before it: flow keeps it on the card of that table's last rows."""
        self.space_before = style.space_before
        self.space_after = style.space_after
        self._laid: tuple[float, list[Line]] | None = None
        self._given: list[Line] | None = None

    @cached_property
    def runs(self) -> list[Run]:
        return parse(self.text, self.style)

    def lines(self, width: float) -> list[Line]:
        if self._given is not None:
            return self._given
        if self._laid is None or self._laid[0] != width:
            self._laid = (width, break_lines(self.runs, width))
        return self._laid[1]

    def measure(self, width: float) -> float:
        return len(self.lines(width)) * self.style.leading

    def _part(self, lines: list[Line]) -> Para:
        p = Para(self.text, self.style, table_note=self.table_note)
        p._given = lines
        return p

    def split(self, width: float, height: float) -> tuple[Block, Block] | None:
        """By whole lines, at least two in the first part (no orphan line, as reportlab's default)."""
        lines = self.lines(width)
        s = int(height / self.style.leading) if height > _EPS else 0
        if s <= 1 or s >= len(lines):
            return None
        return self._part(lines[:s]), self._part(lines[s:])

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:
        st = self.style
        for n, line in enumerate(self.lines(width)):
            base = y + st.size + n * st.leading
            dx = (width - line.width) / 2 if st.align == "centre" else 0.0
            runs = [(fx, t, r.font, r.size, r.colour) for fx, t, r in line.frags]
            c.text_line(x + dx, base, runs, word_space=-line.squeeze)
            for fx, t, r in line.frags:
                if r.underline:
                    u = base + 0.125 * r.size
                    c.line(x + dx + fx, u, x + dx + fx + r.width(t), u, stroke=r.colour, width=r.size / 14)


class Heading(Para):
    """A heading: flow keeps ``keep_next`` points of what follows under it, and sets ``again()`` (the heading
    marked continued) above the rest of a block split onto the next card; ``block_title`` names the chart it
    heads (in ``--card-size``'s refusal)."""

    def __init__(
        self,
        text: str,
        style: TextStyle,
        *,
        again: Callable[[], Heading] | None = None,
        block_title: str = "",
        keep_next: float = 40.0,
    ) -> None:
        super().__init__(text, style)
        self.keep_next = keep_next
        self.block_title = block_title
        self.again_as = again
        """What :meth:`again` makes (None: this heading itself)."""

    def again(self) -> Heading:
        return self.again_as() if self.again_as is not None else self


@dataclass
class Spacer:
    """Empty room ``height`` points tall."""

    height: float
    space_before: float = 0.0
    space_after: float = 0.0

    def measure(self, width: float) -> float:
        return self.height

    def split(self, width: float, height: float) -> tuple[Block, Block] | None:
        return None

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:
        pass


class Piece:
    """A drawing of a fixed size (``width`` x ``height``), never split; subclasses draw it."""

    space_before = 0.0
    space_after = 0.0
    width: float = 20.0
    height: float = 10.0
    label = "drawing"

    def measure(self, width: float) -> float:
        return self.height

    def split(self, width: float, height: float) -> tuple[Block, Block] | None:
        return None

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:
        raise NotImplementedError


# ------------------------------------------------------------------------------------------------ tables
@dataclass
class Row:
    """A table row: its cells (a block, or None for an empty cell), its fill, whether its first cell spans the
    whole row, and a fixed height (None: its tallest cell's, with the padding)."""

    cells: list[Block | None]
    fill: str | None = None
    span: bool = False
    height: float | None = None


@dataclass
class Table:
    """A chart of fixed column widths.  ``head`` rows are repeated on top of every part of a split; ``pad`` is
    the cells' padding (top, bottom, left, right); ``rule`` a line (width, colour) below every row; ``outline``
    the table's box (width, colour)."""

    rows: list[Row]
    widths: list[float]
    head: int = 1
    pad: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    valign: VAlign = "middle"
    align: Align = "left"
    rule: tuple[float, str] | None = None
    outline: tuple[float, str] | None = None
    least: Callable[[], float] | None = None
    """The narrowest the chart can be without a cell's text running out of its column (``--card-size``)."""
    label: str = "table"
    open_foot: bool = False
    """The outline has no bottom edge (the first part of a split table: it goes on), as reportlab drew it."""
    space_before: float = 0.0
    space_after: float = 0.0
    _heights: list[float] | None = field(default=None, repr=False)

    @property
    def width(self) -> float:
        return sum(self.widths)

    def _inner(self, i: int, row: Row) -> float:
        w = self.width if row.span else self.widths[i]
        return w - self.pad[2] - self.pad[3]

    def row_heights(self) -> list[float]:
        """Each row's height (cached: the widths are fixed)."""
        if self._heights is None:
            out = []
            for row in self.rows:
                if row.height is not None:
                    out.append(row.height)
                    continue
                cells = row.cells[:1] if row.span else row.cells
                tallest = max(
                    (b.measure(self._inner(i, row)) for i, b in enumerate(cells) if b is not None), default=0.0
                )
                out.append(tallest + self.pad[0] + self.pad[1])
            self._heights = out
        return self._heights

    @property
    def body_rows(self) -> int:
        return len(self.rows) - self.head

    def measure(self, width: float) -> float:
        return sum(self.row_heights())

    def _part(self, rows: list[Row], heights: list[float]) -> Table:
        return replace(self, rows=rows, least=None, _heights=heights)

    def split(self, width: float, height: float) -> tuple[Block, Block] | None:
        """Between rows, after the last that fits whole; the header rows go on top of the rest too.  None when no
        body row fits, or all do."""
        hs = self.row_heights()
        h, n = 0.0, 0
        for rh in hs:
            if h + rh > height:
                break
            h += rh
            n += 1
        if n <= self.head or n >= len(self.rows):
            return None
        k = self.head
        return (
            replace(self._part(self.rows[:n], hs[:n]), open_foot=True),
            self._part(self.rows[:k] + self.rows[n:], hs[:k] + hs[n:]),
        )

    def draw(self, c: Canvas, x: float, y: float, width: float) -> None:
        hs = self.row_heights()
        total_w, total_h = self.width, sum(hs)
        top, bottom, left, _right = self.pad
        with c.frame("container", x, y, total_w, total_h, self.label):
            ry = y
            for row, rh in zip(self.rows, hs, strict=True):
                if row.fill is not None:
                    c.rect(x, ry, total_w, rh, fill=row.fill)
                ry += rh
            ry = y
            for r, (row, rh) in enumerate(zip(self.rows, hs, strict=True)):
                cx = x
                cells = row.cells[:1] if row.span else row.cells
                for i, b in enumerate(cells):
                    cw = total_w if row.span else self.widths[i]
                    if b is not None:
                        inner = self._inner(i, row)
                        bh = b.measure(inner)
                        by = ry + top + ((rh - top - bottom - bh) / 2 if self.valign == "middle" else 0.0)
                        bx = cx + left
                        if isinstance(b, Piece) and self.align == "centre":
                            bx += (inner - b.width) / 2
                        with c.frame("container", cx, ry, cw, rh, f"{self.label} row {r + 1} column {i + 1}"):
                            b.draw(c, bx, by, inner)
                    cx += cw
                ry += rh
            if self.rule is not None:
                w, colour = self.rule
                ry = y
                for rh in hs:
                    ry += rh
                    c.line(x, ry, x + total_w, ry, stroke=colour, width=w)
            if self.outline is not None:
                w, colour = self.outline
                if self.open_foot:  # three sides: it goes on below
                    for x1, y1, x2, y2 in ((x, y, x + total_w, y), (x, y, x, y + total_h),
                                           (x + total_w, y, x + total_w, y + total_h)):  # fmt: skip
                        c.line(x1, y1, x2, y2, stroke=colour, width=w)
                else:
                    c.rect(x, y, total_w, total_h, stroke=colour, width=w)
