"""Streams encoded by forge instead of reportlab's ``save()`` give reportlab's bytes (issue 23, build speed).

reportlab encodes a form's text, and later the ASCII85 text of every compressed stream, with its PDFDocEncoding
charmap codec: a dictionary lookup per character, 13 % of the large bench kit's build.  forge encodes them itself
(``forge.pdf.end_form_sealed`` for every form a ``PdfCanvas`` ends and every pattern tile), to the same bytes; and
it places a form (``forge.pdf.place_form``) with the operators reportlab's four calls would write.

Properties: a form drawn through ``PdfCanvas`` is sealed when it ends (its stream is held compressed, not as text),
and the file is byte for byte the one reportlab's own ``endForm`` writes, whatever the form's text (ASCII, the
characters the codec maps elsewhere, the control characters it refuses are left to it).
"""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase import pdfdoc

from forge.canvas import PdfCanvas
from forge.pdf import new_canvas, place_form


def _document(draw: object, *, forge_forms: bool) -> tuple[bytes, object]:
    """A one-page PDF placing one form whose content ``draw(canvas)`` writes, ended by ``PdfCanvas`` or by
    reportlab; the bytes, and the form object as it was when the form ended."""
    buf = io.BytesIO()
    c = new_canvas(buf, (200, 200), title="t")
    pen = PdfCanvas(c, top=200)
    if forge_forms:
        pen.begin_form("f", 100, 100)
        draw(c)  # type: ignore[operator]
        pen.end_form()
    else:
        pen._forms()["f"] = (100, 100)
        c.beginForm("f", 0, 0, 100, 100)
        draw(c)  # type: ignore[operator]
        c.endForm()
    form = c._doc.idToObject[pdfdoc.xObjectName("f")]
    held = (form.stream, form.Contents)
    pen.use_form("f")
    c.showPage()
    c.save()
    return buf.getvalue(), held


def _encodable(ch: str) -> bool:
    try:
        pdfdoc.pdfdocEnc(ch)
    except UnicodeEncodeError:
        return False
    return True


def _shapes(c: object) -> None:
    c.setFillColorRGB(0.2, 0.4, 0.6)  # type: ignore[attr-defined]
    c.rect(10, 10, 50, 30, fill=1)  # type: ignore[attr-defined]
    c.setFont("DejaVuSans", 9)  # type: ignore[attr-defined]
    c.drawString(12, 50, "Hex 0805 (Ω ü)")  # type: ignore[attr-defined]


def test_a_form_ended_by_pdfcanvas_is_held_compressed_and_writes_reportlabs_bytes() -> None:
    mine, (text, contents) = _document(_shapes, forge_forms=True)
    theirs, (their_text, their_contents) = _document(_shapes, forge_forms=False)
    assert mine == theirs
    assert their_text is not None
    assert their_contents is None
    assert text is None
    assert contents is not None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=0x2FF), max_size=30), max_size=6))
def test_any_operators_in_a_form_write_reportlabs_bytes(lines: list[str]) -> None:
    """Raw operators (comments, so that any text is a valid stream) with any characters the codec takes."""
    lines = ["".join(ch for ch in s if _encodable(ch) and ch not in "\r\n") for s in lines]

    def draw(c: object) -> None:
        for s in lines:
            c._code.append("% " + s)  # type: ignore[attr-defined]

    assert _document(draw, forge_forms=True)[0] == _document(draw, forge_forms=False)[0]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=-5000, max_value=5000, allow_nan=False),
            st.floats(min_value=-5000, max_value=5000, allow_nan=False),
        ),
        max_size=8,
    ),
    st.booleans(),
)
def test_placing_a_form_writes_what_reportlabs_calls_write(at: list[tuple[float, float]], after_cm: bool) -> None:
    """``place_form`` (a pattern's tiles, a counter's parts) writes the operators and leaves the state that
    ``saveState``, ``translate``, ``doForm`` and ``restoreState`` write and leave, also right after a ``cm``
    (which reportlab's translate would merge into, were it not inside a ``q``)."""

    def page(fast: bool) -> tuple[list[str], list[str], dict[str, object], bytes]:
        buf = io.BytesIO()
        c = new_canvas(buf, (300, 300))
        c.beginForm("tile", 0, 0, 10, 10)
        c.rect(0, 0, 5, 5, fill=1)
        c.endForm()
        if after_cm:
            c.translate(3.25, -7)
        if fast:
            place_form(c, "tile", at)
        else:
            for dx, dy in at:
                c.saveState()
                c.translate(dx, dy)
                c.doForm("tile")
                c.restoreState()
        code, used = list(c._code), list(c._formsinuse)
        state = {k: c.__dict__[k] for k in c.STATE_ATTRIBUTES if k != "_extgstate"}
        state["_extgstate"] = vars(c._extgstate)
        state["depth"] = len(c.state_stack)
        c.showPage()
        c.save()
        return code, used, state, buf.getvalue()

    assert page(True) == page(False)

