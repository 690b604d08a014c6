"""Text drawn as its glyphs' outlines (``forge build --outline-text``): PDFs that hold no font at all.

Some print services (docs/PRINTING.md, MB Print) ask for "fonts converted to outlines".  With the option on,
:class:`forge.pdf.FinishedCanvas` hands out :class:`OutlineText` as its text object, so every string drawn on it
(the canvas's ``drawString``, platypus paragraphs and tables, map labels, counters) goes through here and no
renderer knows about it.  The text object keeps reportlab's own text-state operators (``Tm``, ``Td``, ``T*``,
``TL``, ``Tc``, ``Tw``, ``Tz``, ``Ts``, ``Tr``) and colour operators as reportlab writes them; only the strings are
kept aside.  :meth:`OutlineText.getCode` then runs those operators as a PDF reader would (ISO 32000-1, 9.4) and
draws each glyph where the reader would have drawn it:

- the outline is the glyph's in the very TTF file reportlab embeds (``forge/fonts/``), read with fontTools;
  quadratic TrueType curves become cubic PDF curves exactly (``q0, q1, q2`` -> control points
  ``q0 + 2/3 (q1 - q0)`` and ``q2 + 2/3 (q1 - q2)``), composite glyphs are decomposed;
- the characters map to glyphs and advance widths as reportlab's subsets map them (``splitString``): its ``cmap``
  and its widths (``face.getCharWidth``, which it writes as the font's ``/Widths``), no-break space as space, a
  character the face lacks as code 0 (the ``.notdef`` box); reportlab applies no kerning to TrueType text, nor do
  we; character spacing (``Tc``), word spacing (``Tw``, on the space only: code 32 of a simple font), horizontal
  scaling (``Tz``) and rise (``Ts``) as the PDF standard applies them;
- each glyph is one form XObject per (face, glyph), in font units, with no colour operator (so it takes the fill
  colour the text would have had, and ``--pdfx`` and ``--greyscale`` hold through the same hooks), placed with
  ``cm`` and ``Do``; the glyph's path is written once per file, not at each occurrence (docs/PRINTING.md,
  *Outlined text*, has the measurements that chose this over inline paths).

Render modes: fill (0, the only one forge draws text with) and invisible (3, nothing to draw); the stroked and
clipping modes are refused with an error (NotImplementedError), never drawn wrong.  So is anything else forge never
draws text with: a font that is not TrueType, shaped text, an operator not listed here, and a text object that
relies on text state from another (a reader carries spacing, scale, rise, render mode and leading from one text
object to the next; forge's text objects set what they use and leave them as they found them).
"""

from __future__ import annotations

import functools
from typing import Any

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont as FontToolsFont
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.textobject import PDFTextObject


__all__ = ["Face", "OutlineText", "face"]

_SHOW = "HFshow"
"""The private operator :class:`OutlineText` writes in its operator list where reportlab writes ``Tj``: its
operand is the index of the string in the object's list of strings (never written to a file)."""


class _PathPen(BasePen):
    """Records a glyph's outline as PDF path operators in font units (y up, as PDF's)."""

    def __init__(self, glyphset: Any) -> None:
        super().__init__(glyphset)
        self.ops: list[str] = []
        self.xs: list[float] = []
        self.ys: list[float] = []

    def _pt(self, *pts: tuple[float, float]) -> str:
        for x, y in pts:
            self.xs.append(x)
            self.ys.append(y)
        return fp_str(*[v for p in pts for v in p])

    def _moveTo(self, pt: tuple[float, float]) -> None:
        self.ops.append(f"{self._pt(pt)} m")

    def _lineTo(self, pt: tuple[float, float]) -> None:
        self.ops.append(f"{self._pt(pt)} l")

    def _curveToOne(self, pt1: tuple[float, float], pt2: tuple[float, float], pt3: tuple[float, float]) -> None:
        self.ops.append(f"{self._pt(pt1, pt2, pt3)} c")

    def _qCurveToOne(self, pt1: tuple[float, float], pt2: tuple[float, float]) -> None:
        # The exact cubic of a quadratic Bezier: control points 2/3 of the way from each end to the quadratic's.
        x0, y0 = self._getCurrentPoint()
        c1 = (x0 + 2 / 3 * (pt1[0] - x0), y0 + 2 / 3 * (pt1[1] - y0))
        c2 = (pt2[0] + 2 / 3 * (pt1[0] - pt2[0]), pt2[1] + 2 / 3 * (pt1[1] - pt2[1]))
        self._curveToOne(c1, c2, pt2)

    def _closePath(self) -> None:
        self.ops.append("h")

    def _endPath(self) -> None:  # an open contour: a fill closes it all the same
        pass


class Face:
    """A registered TrueType face's glyph outlines (fontTools, from the file reportlab embeds) and reportlab's
    mapping of characters to glyphs and widths."""

    def __init__(self, name: str) -> None:
        rl = getFont(name)
        if not rl._dynamicFont:  # a standard font: nothing embedded, no outline here (forge uses none)
            raise NotImplementedError(f"--outline-text draws the bundled TrueType faces only, not {name!r}")
        self.name = name
        self._rl_face = rl.face
        self._font = FontToolsFont(rl.face.filename, lazy=True)
        self._glyphset = self._font.getGlyphSet()
        self._order = self._font.getGlyphOrder()
        self.upm: int = self._font["head"].unitsPerEm
        self._paths: dict[int, tuple[str, tuple[float, float, float, float]] | None] = {}

    def glyph(self, ch: str) -> tuple[int, float]:
        """The glyph index and the advance (in thousandths of the size) reportlab's subset gives ``ch``."""
        code = ord(ch)
        if code == 0xA0:  # reportlab prints a no-break space as the space
            code = 32
        c2g = self._rl_face.charToGlyph
        if code not in c2g:  # reportlab's subsets put a character the face lacks at code 0
            code = 0
        return c2g.get(code, 0), float(self._rl_face.getCharWidth(code))

    def path(self, gid: int) -> tuple[str, tuple[float, float, float, float]] | None:
        """Glyph ``gid``'s outline as PDF path operators in font units and its control box; None for a glyph with
        no outline (the space)."""
        if gid not in self._paths:
            pen = _PathPen(self._glyphset)
            self._glyphset[self._order[gid]].draw(pen)
            if pen.ops:
                box = (min(pen.xs), min(pen.ys), max(pen.xs), max(pen.ys))
                self._paths[gid] = (" ".join(pen.ops), box)
            else:
                self._paths[gid] = None
        return self._paths[gid]


@functools.cache
def face(name: str) -> Face:
    return Face(name)


def _glyph_form(canvas: Any, f: Face, gid: int) -> str | None:
    """The PDF name of the form XObject that draws glyph ``gid`` of ``f`` in font units (made the first time it
    is asked for in ``canvas``'s document), used by the page or form being drawn; None: nothing to draw."""
    got = f.path(gid)
    if got is None:
        return None
    ops, (x0, y0, x1, y1) = got
    doc = canvas._doc
    faces: dict[str, int] = doc.__dict__.setdefault("_hexforge_outlined_faces", {})  # numbered as first drawn
    name = f"G{faces.setdefault(f.name, len(faces))}_{gid}"
    internal = pdfdoc.xObjectName(name)
    if internal not in doc.idToObject:
        form = pdfdoc.PDFFormXObject(lowerx=x0, lowery=y0, upperx=x1, uppery=y1)
        # No colour: the fill colour in force where it is placed.  Flate alone (ASCII85 would add a quarter to a
        # stream of a few hundred bytes), and no resources: a path uses none.
        form.Contents = pdfdoc.PDFStream(content=f"{ops} f", filters=[pdfdoc.PDFZCompress])
        form.Resources = pdfdoc.PDFDictionary({})
        form.__Comment__ = f"outline of glyph {gid} of {f.name}"
        doc.Reference(form, internal)
    uses: list[str] = canvas._formsinuse  # the XObject resources of the page (or form) being drawn: once each
    listed = canvas.__dict__.get("_hexforge_glyphs_listed")
    if listed is None or listed[0] is not uses or len(listed[1]) > len(uses):  # a new page or form began
        listed = canvas.__dict__["_hexforge_glyphs_listed"] = (uses, set(uses))
    if name not in listed[1]:
        listed[1].add(name)
        uses.append(name)
    return internal


class OutlineText(PDFTextObject):
    """reportlab's text object, drawing glyph outlines instead of text (see the module's documentation).

    Everything but the strings is reportlab's own: its operators are kept as it writes them, the strings aside;
    :meth:`getCode` then turns the whole object into paths.  No font is named, so none is embedded."""

    def __init__(self, canvas: Any, x: float = 0, y: float = 0, direction: Any = None) -> None:
        self._shown: list[tuple[str, float, str]] = []
        super().__init__(canvas, x, y, direction=direction)

    def _formatText(self, text: Any) -> str:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if type(text) is not str:  # reportlab's ShapedStr (harfbuzz shaping), which forge never uses
            raise NotImplementedError("--outline-text: shaped text is not drawn as outlines")
        if not text:  # reportlab writes nothing for an empty string
            return ""
        self._shown.append((self._fontname, self._fontsize, text))
        # reportlab sets the leading with each font change it writes; T* moves by it.
        return f"{fp_str(self._leading)} TL {len(self._shown) - 1} {_SHOW}"

    def _shapedTextOut(self, text: Any, dx: Any, dy: Any) -> None:
        raise NotImplementedError("--outline-text: shaped text is not drawn as outlines")

    def getCode(self) -> str:
        if self._clipping:
            raise NotImplementedError("--outline-text: clipping text render modes are not drawn as outlines")
        return _run(self._canvas, self._code, self._shown)


_PASSED = {"rg", "RG", "g", "G", "k", "K", "cs", "CS", "sc", "SC", "scn", "SCN", "gs"}
"""Operators a text object may hold that are not text operators (colours, the alpha's graphics state): written as
they are, in their place, outside the text (they were never bound to the text object: they last past ``ET``)."""


def _run(canvas: Any, code: list[str], shown: list[tuple[str, float, str]]) -> str:
    """Run a text object's operators (``code``, beginning with ``BT``) as a PDF reader does and return the
    operators that draw its glyphs as form XObjects."""
    out: list[str] = []
    tm = lm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)  # text matrix and text line matrix
    # The text state as every text object forge draws begins and leaves it (checked at the end): a reader carries
    # it from one text object to the next, which forge never relies on.  The leading is unknown until set here.
    tc = tw = rise = 0.0
    th = 1.0
    mode = 0
    leading: float | None = None
    placed = True  # whether the text position is known (not after a T* with the leading unknown)
    operands: list[str] = []
    tokens = " ".join(code).split()
    if not tokens or tokens[0] != "BT":
        raise NotImplementedError("--outline-text: a text object must begin with BT")

    def nums() -> list[float]:
        return [float(v) for v in operands]

    for tok in tokens[1:]:
        if tok[0] in "+-.0123456789/":
            operands.append(tok)
            continue
        if tok == "Tm":
            a, b, c, d, e, f = nums()
            tm = lm = (a, b, c, d, e, f)
            placed = True
        elif tok == "Td":
            dx, dy = nums()
            a, b, c, d, e, f = lm
            tm = lm = (a, b, c, d, e + dx * a + dy * c, f + dx * b + dy * d)
        elif tok == "T*":
            a, b, c, d, e, f = lm
            if leading is None:
                placed = False
            else:
                tm = lm = (a, b, c, d, e - leading * c, f - leading * d)
        elif tok == "TL":
            (leading,) = nums()
        elif tok == "Tc":
            (tc,) = nums()
        elif tok == "Tw":
            (tw,) = nums()
        elif tok == "Tz":
            (th,) = nums()
            th /= 100
        elif tok == "Ts":
            (rise,) = nums()
        elif tok == "Tr":
            (m,) = nums()
            mode = int(m)
            if mode not in (0, 3):
                raise NotImplementedError(f"--outline-text: text render mode {mode} is not drawn as outlines")
        elif tok == _SHOW:
            (k,) = nums()
            name, size, text = shown[int(k)]
            if not placed:
                raise NotImplementedError("--outline-text: text after a new line whose leading this text never set")
            glyphs = face(name)
            scale = size / glyphs.upm
            for ch in text:
                gid, width = glyphs.glyph(ch)
                a, b, c, d, e, ff = tm
                if mode == 0:
                    form = _glyph_form(canvas, glyphs, gid)
                    if form is not None:
                        sx = th * scale
                        m = fp_str(sx * a, sx * b, scale * c, scale * d, e + rise * c, ff + rise * d)
                        out.append(f"q {m} cm /{form} Do Q")
                space = tw if ord(ch) in (32, 0xA0) else 0.0
                tx = (width / 1000 * size + tc + space) * th
                tm = (a, b, c, d, e + tx * a, ff + tx * b)
        elif tok == "ET":
            break
        elif tok in _PASSED:
            out.append(" ".join([*operands, tok]))
        else:
            raise NotImplementedError(f"--outline-text: the text operator {tok!r} is not drawn as outlines")
        operands = []
    if (tc, tw, th, rise, mode) != (0, 0, 1, 0, 0):
        raise NotImplementedError(
            "--outline-text: a text object that leaves its spacing, scale, rise or render mode set for the next"
        )
    return " ".join(out)
