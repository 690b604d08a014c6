"""Read printed PDFs back as positioned text, and find tables in them.

``forge verify`` uses this to check that what a player will read on the cards and the map equals what the engine
uses: the PDF is the witness, not the code that drew it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium


@dataclass(frozen=True, order=True)
class Span:
    """A run of text on one line of one page; coordinates in points, y measured down from the page top."""

    page: int
    top: float
    x0: float
    x1: float
    bottom: float
    text: str

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.top + self.bottom) / 2


def spans(pdf: bytes, *, join_gap: float = 2.0) -> list[Span]:
    """Every text run of every page, sorted top to bottom, left to right.

    pdfium reports one rectangle per text object; pieces drawn touching each other (a red ``2`` after ``1/``)
    are joined into one run when the gap between them is under ``join_gap`` points."""
    doc = pdfium.PdfDocument(pdf)
    out: list[Span] = []
    try:
        for pno in range(len(doc)):
            page = doc[pno]
            height = page.get_height()
            tp = page.get_textpage()
            raw = []
            for i in range(tp.count_rects()):
                left, bottom, right, top = tp.get_rect(i)
                text = tp.get_text_bounded(left, bottom, right, top).strip()
                if text:
                    raw.append(Span(pno, height - top, left, right, height - bottom, text))
            out.extend(_join(raw, join_gap))
            tp.close()
            page.close()
    finally:
        doc.close()
    return sorted(out)


def _join(raw: list[Span], gap: float) -> list[Span]:
    lines: list[list[Span]] = []
    for s in sorted(raw, key=lambda s: (s.cy, s.x0)):
        for line in lines:
            if abs(line[0].cy - s.cy) <= max(1.5, (s.bottom - s.top) * 0.35):
                line.append(s)
                break
        else:
            lines.append([s])
    out = []
    for line in lines:
        line.sort(key=lambda s: s.x0)
        cur = line[0]
        for s in line[1:]:
            if s.x0 - cur.x1 < gap:
                cur = Span(cur.page, min(cur.top, s.top), cur.x0, s.x1, max(cur.bottom, s.bottom), cur.text + s.text)
            else:
                out.append(cur)
                cur = s
        out.append(cur)
    return out


@dataclass(frozen=True)
class FoundTable:
    """A grid found on a page: the text printed at each (row label, column label)."""

    page: int
    cells: dict[tuple[str, str], str]
    missing: list[tuple[str, str]]
    bottom: float


def find_table(
    found: Sequence[Span],
    columns: Sequence[str],
    rows: Sequence[str],
    *,
    after: float = -1.0,
    page: int | None = None,
    occurrence: int = 0,
    label_column: str | None = None,
    tol: float = 4.0,
) -> FoundTable | None:
    """Locate a printed table by its column headings (in order, on one line) and read its cells.

    Row labels stand left of the first heading, or under the heading ``label_column`` when it is given (and
    then that heading is looked for in front of ``columns``).  A cell is every text run whose left edge lies in
    the column (from its heading's left edge to the next heading's) and whose top lies in the row's band (from
    its label's top to the next label's), joined in reading order — so wrapped cells and labels still read.
    ``after`` skips tables above that y; ``occurrence`` picks the n-th copy of the headings on a line (tables
    printed side by side).  Returns None when no line carries every heading."""
    heads_wanted = [label_column, *columns] if label_column else list(columns)
    by_line: dict[tuple[int, int], list[Span]] = {}
    for s in found:
        if page is not None and s.page != page:
            continue
        by_line.setdefault((s.page, round(s.cy)), []).append(s)
    for (pno, _), line in sorted(by_line.items()):
        if line[0].cy <= after:
            continue
        runs = _match_all(line, heads_wanted)
        if len(runs) <= occurrence:
            continue
        heads = runs[occurrence]
        label_head = heads[0] if label_column else None
        col_heads = heads[1:] if label_column else heads
        right_edge = runs[occurrence + 1][0].x0 - tol if len(runs) > occurrence + 1 else float("inf")
        below = [s for s in found if s.page == pno and s.top > heads[0].bottom - 1 and s.x0 < right_edge]
        if label_head is not None:
            label_lo, label_hi = label_head.x0 - tol, col_heads[0].x0 - tol
        else:
            reach = 4 * max(40.0, col_heads[0].x1 - col_heads[0].x0)
            label_lo, label_hi = col_heads[0].x0 - reach, col_heads[0].x0 - tol
        label_spans = sorted((s for s in below if label_lo <= s.x0 < label_hi), key=lambda s: s.top)
        starts: list[tuple[str, Span]] = []
        pos = 0
        for r in rows:
            for k in range(pos, len(label_spans)):
                if _starts(r, label_spans[k].text):
                    starts.append((r, label_spans[k]))
                    pos = k + 1
                    break
        cells: dict[tuple[str, str], str] = {}
        missing: list[tuple[str, str]] = []
        found_rows = {r for r, _ in starts}
        heights = [b[1].top - a[1].top for a, b in itertools.pairwise(starts)]
        typical = sorted(heights)[len(heights) // 2] if heights else 3 * (heads[0].bottom - heads[0].top)
        bottom = heads[0].bottom
        for i, (r, lab) in enumerate(starts):
            lo = lab.top - 2
            hi = starts[i + 1][1].top - 1 if i + 1 < len(starts) else lab.top + max(typical, 1.0) - 1
            band = [s for s in below if lo <= s.top < hi and s.x0 >= label_hi]
            owner = {id(s): _column_of(s, col_heads, tol, right_edge) for s in band}
            for j, col in enumerate(columns):
                inside = sorted((s for s in band if owner[id(s)] == j), key=lambda s: (round(s.top), s.x0))
                if inside:
                    cells[(r, col)] = " ".join(s.text for s in inside)
                    bottom = max(bottom, max(s.bottom for s in inside))
                else:
                    missing.append((r, col))
        missing += [(r, c) for r in rows if r not in found_rows for c in columns]
        return FoundTable(pno, cells, missing, bottom)
    return None


def _column_of(s: Span, heads: Sequence[Span], tol: float, right_edge: float) -> int | None:
    """The column a text run belongs to: the heading it is centred under, else the one its left edge falls in
    (left-aligned text wider than its heading)."""
    for j, h in enumerate(heads):
        left = heads[j - 1].cx if j else h.cx - (heads[1].cx - h.cx if len(heads) > 1 else 40.0)
        right = heads[j + 1].cx if j + 1 < len(heads) else h.cx + (h.cx - heads[j - 1].cx if j else 40.0)
        if abs(s.cx - h.cx) <= 0.35 * min(h.cx - left, right - h.cx) + 1:
            return j
    for j, h in enumerate(heads):
        hi = heads[j + 1].x0 - tol if j + 1 < len(heads) else right_edge
        if h.x0 - tol <= s.x0 < hi:
            return j
    return None


def _starts(label: str, printed: str) -> bool:
    """A printed row label matches when it is the label, or the first line of a wrapped label."""
    a, b = " ".join(label.split()), " ".join(printed.split())
    return a == b or (len(b) >= min(len(a), 6) and a.startswith(b))


def _match_all(line: list[Span], labels: Sequence[str]) -> list[list[Span]]:
    """Every run of spans of ``line`` whose texts are ``labels`` in left-to-right order."""
    runs: list[list[Span]] = []
    cur: list[Span] = []
    for s in sorted(line, key=lambda s: s.x0):
        if _same(s.text, labels[len(cur)]):
            cur.append(s)
            if len(cur) == len(labels):
                runs.append(cur)
                cur = []
    return runs


def _same(printed: str, label: str) -> bool:
    return printed.replace(" ", "") == label.replace(" ", "")
