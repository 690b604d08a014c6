"""Read printed PDFs back as positioned text, and find tables in them.

``forge verify`` uses this to check that what a player will read on the cards and the map equals what the engine
uses: the PDF is the witness, not the code that drew it.
"""

from __future__ import annotations

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


def find_table(
    found: Sequence[Span], columns: Sequence[str], rows: Sequence[str], *, after: float = -1.0, page: int | None = None
) -> FoundTable | None:
    """Locate a printed table by its column headings (in order, on one line) and row labels (left of them).

    Returns None when no line carries every heading. ``after`` skips tables above that y (to find a second one)."""
    by_line: dict[tuple[int, int], list[Span]] = {}
    for s in found:
        if page is not None and s.page != page:
            continue
        by_line.setdefault((s.page, round(s.cy)), []).append(s)
    for (pno, _), line in sorted(by_line.items()):
        if line[0].cy <= after:
            continue
        heads = _match_in_order(line, columns)
        if heads is None:
            continue
        pitch = min((b.cx - a.cx for a, b in zip(heads, heads[1:], strict=False)), default=40.0)
        below = [s for s in found if s.page == pno and s.cy > heads[0].cy + 1]
        cells: dict[tuple[str, str], str] = {}
        missing: list[tuple[str, str]] = []
        row_y: dict[str, float] = {}
        for r in rows:
            cands = [s for s in below if s.text == r and s.x1 < heads[0].x0 + 2 and s.cy - heads[0].cy < 40 * len(rows)]
            if cands:
                row_y[r] = min(cands, key=lambda s: s.cy).cy
        for r in rows:
            for col, head in zip(columns, heads, strict=True):
                if r not in row_y:
                    missing.append((r, col))
                    continue
                near = [
                    s
                    for s in below
                    if abs(s.cy - row_y[r]) <= 2.5
                    and abs(s.cx - head.cx) < pitch / 2
                    and s.x0 > heads[0].x0 - pitch / 2
                ]
                if near:
                    cells[(r, col)] = " ".join(s.text for s in sorted(near, key=lambda s: s.x0))
                else:
                    missing.append((r, col))
        return FoundTable(pno, cells, missing)
    return None


def _match_in_order(line: list[Span], labels: Sequence[str]) -> list[Span] | None:
    """The spans of ``line`` whose texts are ``labels`` in left-to-right order, or None."""
    ordered = sorted(line, key=lambda s: s.x0)
    out: list[Span] = []
    i = 0
    for s in ordered:
        if i < len(labels) and _same(s.text, labels[i]):
            out.append(s)
            i += 1
    return out if i == len(labels) else None


def _same(printed: str, label: str) -> bool:
    return printed.replace(" ", "") == label.replace(" ", "")
