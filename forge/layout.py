"""The layout checker: what a recording canvas placed (:class:`forge.canvas.Recorder`), checked page by page.

Rules (each violation names the component, the page, what and where, in points from the page's top-left):

- ``outside``: a text leaves the frame it was placed in (a counter face, a hex, a chart cell, a badge);
- ``overlap``: a text overlaps another text, or a symbol it is not placed on (text on its own badge is declared
  by drawing it inside the badge's frame, so it is no exception by tolerance); content placed inside a *cover*
  frame (a label patch over an overlap strip, whose content the next tile prints whole) may lie over what was
  drawn before it;
- ``mark``: a printer's mark (crop or registration) covers a text or a symbol;
- ``margin``: a text, symbol or mark lies in the margin a page declares: the printer margin
  (``forge.tiling.PRINTABLE_MARGIN``, 5 mm) of a page printed to its paper's edge, or the safe zone inside the
  trim (``forge.tiling.TRIM_SAFE_MARGIN``, 1/8 in) of a page a print shop trims (finished with a bleed).

Boxes are ink boxes: a text's box runs from its start to its advance width and from the top of its highest glyph
to the bottom of its lowest (:func:`forge.canvas.ink_extent`); boxes that only touch (:data:`TOUCH`) do not
overlap.

Cards and the class handout's player aids and sheets are drawn through the canvas (:mod:`forge.render.blocks`:
each card or page's content area and each table cell is a container) and recorded like the map and the counters
(``forge verify``'s read-back checks the cards so).  :func:`check_pdf` checks a finished PDF instead, with the boxes
PDFium gives each text object, for the two rules that need no frames (``overlap`` between texts, ``margin``): the
cards laid out one a page for a print shop (whose pages are trimmed), and any PDF.  It
cannot see clips, so it skips pages with text inside a form (map tiles, which the recording canvas checks).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .canvas import Box, Placed, Recorder
from .errors import Finding
from .tiling import PRINTABLE_MARGIN

__all__ = ["TOUCH", "Violation", "check", "check_pdf", "findings"]

TOUCH = 0.05
"""Points two boxes may share (rounding of coordinates) and still count as side by side; a text may stand out
of its frame by as much."""
_CELL = 36.0


@dataclass(frozen=True)
class Violation:
    rule: str
    """``outside``, ``overlap``, ``mark`` or ``margin``."""
    component: str
    page: str
    message: str

    def __str__(self) -> str:
        where = f"{self.component}, {self.page}" if self.component else self.page
        return f"{where}: {self.message}"


def _what(it: Placed) -> str:
    if it.kind == "text":
        t = it.label if len(it.label) <= 40 else it.label[:37] + "..."
        return f"text {t!r}"
    return f"{it.kind} {it.label!r}" if it.label else it.kind


def _buckets(items: Iterable[tuple[int, Placed]]) -> dict[tuple[int, int], list[int]]:
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, it in items:
        b = it.box
        for gx in range(int(b.x0 // _CELL), int(b.x1 // _CELL) + 1):
            for gy in range(int(b.y0 // _CELL), int(b.y1 // _CELL) + 1):
                grid[(gx, gy)].append(i)
    return grid


def _pairs(grid: dict[tuple[int, int], list[int]]) -> Iterator[tuple[int, int]]:
    seen: set[tuple[int, int]] = set()
    for members in grid.values():
        for k, a in enumerate(members):
            for b in members[k + 1 :]:
                key = (a, b) if a < b else (b, a)
                if key not in seen:
                    seen.add(key)
                    yield key


def check(rec: Recorder) -> list[Violation]:
    """Every violation of the rules above in what ``rec`` recorded, in page order."""
    items = rec.items
    out: list[Violation] = []

    def ancestors(i: int) -> list[int]:
        chain = []
        p = items[i].parent
        while p is not None and p >= 0:
            chain.append(p)
            p = items[p].parent
        return chain

    def covered(i: int) -> int | None:
        """The cover frame ``i`` is or lies in, if any."""
        return next((a for a in [i, *ancestors(i)] if items[a].cover), None)

    by_page: dict[int, list[int]] = defaultdict(list)
    for i, it in enumerate(items):
        by_page[it.page].append(i)
    for page_no in sorted(by_page):
        page = rec.pages[page_no] if 0 <= page_no < len(rec.pages) else None
        name = page.name if page is not None else f"page {page_no + 1}"

        def add(rule: str, message: str) -> None:
            out.append(Violation(rule, rec.component, name, message))  # noqa: B023 - used at once

        idx = by_page[page_no]
        for i in idx:
            it = items[i]
            if it.kind == "container":
                continue
            if page is not None and page.printable is not None and not it.box.inside(page.printable, TOUCH):
                add("margin", f"{_what(it)} at {it.box} lies in the printer margin (printable area {page.printable})")
            if it.kind == "text" and it.parent is not None and it.parent >= 0:
                frame = items[it.parent]
                if not it.box.inside(frame.box, TOUCH):
                    add("outside", f"{_what(it)} at {it.box} runs out of its {_what(frame)} at {frame.box}")
        drawn = [(i, items[i]) for i in idx if items[i].kind in ("text", "symbol", "mark")]
        for a, b in _pairs(_buckets(drawn)):
            ia, ib = items[a], items[b]
            if ia.box.overlap(ib.box) <= TOUCH:
                continue
            kinds = {ia.kind, ib.kind}
            if kinds == {"symbol"}:
                continue  # symbols side by side are drawn to share room (a city on a road)
            anc_a, anc_b = ancestors(a), ancestors(b)
            if b in anc_a or a in anc_b:
                continue  # a text on its own badge, a mark's own parts
            ca, cb = covered(a), covered(b)
            if (ca is None and cb is not None and a < cb) or (cb is None and ca is not None and b < ca):
                continue  # a cover lies over what was drawn before it, by design
            if "mark" in kinds:
                if kinds == {"mark"}:
                    continue
                mark, other = (ia, ib) if ia.kind == "mark" else (ib, ia)
                add("mark", f"{_what(mark)} at {mark.box} covers {_what(other)} at {other.box}")
            else:
                first, second = (ia, ib) if a < b else (ib, ia)
                add("overlap", f"{_what(second)} at {second.box} overlaps {_what(first)} at {first.box}")
    return out


def check_pdf(pdf: bytes, component: str, *, margin: float = PRINTABLE_MARGIN) -> list[Violation]:
    """The ``overlap`` (text on text) and ``margin`` rules on a finished PDF without clipped forms (cards).

    ``margin`` is kept clear inside each page's edge; on a page with a TrimBox (finished with a bleed, for a
    print shop that trims) the safe zone inside the trim (:data:`forge.tiling.TRIM_SAFE_MARGIN`) instead."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    from .tiling import TRIM_SAFE_MARGIN

    out: list[Violation] = []
    doc = pdfium.PdfDocument(pdf)
    try:
        for n in range(len(doc)):
            page = doc[n]
            w, h = page.get_size()
            trim = page.get_trimbox(fallback_ok=False)
            if trim is None:
                printable = Box(margin, margin, w - margin, h - margin)
            else:  # PDF coordinates (y up) to the page's top-left ones
                s, (x0, y0, x1, y1) = TRIM_SAFE_MARGIN, trim
                printable = Box(x0 + s, h - y1 + s, x1 - s, h - y0 - s)
            found = list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=4))
            if any(obj.level > 0 for obj in found):
                continue  # text in a form (a map tile): its clip is invisible here; the recording canvas checks it
            rec = Recorder(component)
            rec.page(w, h, f"page {n + 1}", margin=margin)
            for obj in found:
                left, bottom, right, top = obj.get_bounds()
                rec.add("text", Box(left, h - top, right, h - bottom), "")
            texts = rec.items
            name = f"page {n + 1}"
            for it in texts:
                if not it.box.inside(printable, TOUCH):
                    zone = "printer margin" if trim is None else "safe zone inside the trim"
                    out.append(Violation("margin", component, name, f"text at {it.box} lies in the {zone}"))
            for a, b in _pairs(_buckets(enumerate(texts))):
                if texts[a].box.overlap(texts[b].box) > TOUCH:
                    msg = f"text at {texts[b].box} overlaps text at {texts[a].box}"
                    out.append(Violation("overlap", component, name, msg))
    finally:
        doc.close()
    return out


GROUP = 10
"""More violations than this of one shape (rule, component and message with its names and coordinates left out)
are one finding: a defect of the whole drawing, such as hex labels too large for a small hex, repeated for every
hex of a large map, is one thing to fix, not 40,000 lines of a report."""

_QUOTED = re.compile(r"'([^' ]*)[^']*'|\"([^\" ]*)[^\"]*\"")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _shape(v: Violation) -> tuple[str, str, str]:
    """What violations of one kind share: a quoted name by its first word (``'hex 1,1'`` as ``hex``), no numbers."""
    text = _QUOTED.sub(lambda mt: "'" + (mt[1] if mt[1] is not None else mt[2]) + "…'", v.message)
    return (v.rule, v.component, _NUMBER.sub("#", text))


def findings(violations: Iterable[Violation]) -> list[Finding]:
    """The violations as ``forge verify`` findings (kind ``print-layout``, a warning); more than :data:`GROUP` of
    one shape as one finding that counts them and quotes the first."""
    vs = list(violations)
    shapes = [_shape(v) for v in vs]  # once each: two regular expressions over every message of a large map
    groups: dict[tuple[str, str, str], list[Violation]] = defaultdict(list)
    for v, shape in zip(vs, shapes, strict=True):
        groups[shape].append(v)
    out: list[Finding] = []
    for v, shape in zip(vs, shapes, strict=True):
        group = groups[shape]
        if len(group) <= GROUP:
            out.append(Finding("print-layout", None, str(v), ref=v.rule))
        elif group[0] is v:
            pages = list(dict.fromkeys(g.page for g in group))
            where = pages[0] if len(pages) == 1 else f"{len(pages)} pages ({pages[0]} .. {pages[-1]})"
            msg = f"{len(group):,} alike on {where}, the first: {v}"
            out.append(Finding("print-layout", None, msg, ref=v.rule))
    return out
