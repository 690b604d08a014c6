"""forge.pdftext: pdfium's text through a dozen ctypes declarations reads what pypdfium2 reads.

Properties:
- on every page of every data/ game's cards, counter sheets and map, the page text, the text rectangles and the
  text inside each rectangle are pypdfium2's (``get_text_range``, ``get_rect``, ``get_text_bounded``), byte for byte;
- the same holds after pypdfium2 has been used in the process, and pypdfium2 still works after forge.pdftext
  (one pdfium, two independent sets of declarations);
- bytes that are not a PDF are a ValueError, not a crash.
"""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from conftest import data_files, seed_render

from forge import pdftext


def _pypdfium2(pdf: bytes) -> list[tuple[str, float, list[tuple[tuple[float, float, float, float], str]]]]:
    doc = pdfium.PdfDocument(pdf)
    out = []
    for i in range(len(doc)):
        page = doc[i]
        tp = page.get_textpage()
        runs = []
        for r in range(tp.count_rects()):
            box = tp.get_rect(r)
            runs.append((box, tp.get_text_bounded(*box)))
        out.append((tp.get_text_range(), page.get_height(), runs))
        tp.close()
        page.close()
    doc.close()
    return out


def _ours(pdf: bytes) -> list[tuple[str, float, list[tuple[tuple[float, float, float, float], str]]]]:
    out = []
    with pdftext.document(pdf) as doc:
        for i in range(doc.count):
            with doc.page(i) as tp:
                out.append((tp.text(), tp.height, [(box, tp.bounded(*box)) for box in tp.rects()]))
    return out


@pytest.mark.parametrize("component", ["cards", "counters", "map"])
@pytest.mark.parametrize("path", data_files(), ids=lambda p: p.stem)
def test_pages_read_as_pypdfium2_reads_them(path, component: str) -> None:  # type: ignore[no-untyped-def]
    pdf, _ = seed_render(component, path.stem)
    ours = _ours(pdf)
    assert ours == _pypdfium2(pdf)
    assert any(text.strip() for text, _, _ in ours)  # something was read


def test_both_readers_in_one_process(hells_gate) -> None:  # type: ignore[no-untyped-def]
    pdf, _ = seed_render("cards", "hells_gate")
    first = _pypdfium2(pdf)
    assert _ours(pdf) == first
    assert _pypdfium2(pdf) == first


def test_not_a_pdf_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="could not open"), pdftext.document(b"%PDF-1.4 not really"):
        pass
