"""forge.pdf's PDFDocEncoding: reportlab's ``pdfdocEnc`` through an ASCII fast path, the same bytes.

Properties:
- with forge.pdf imported, reportlab's pdfdoc module encodes through forge's function;
- for every ASCII character, and for any text of ASCII, Latin-1, PDFDocEncoding's extra characters and beyond,
  the bytes are reportlab's ``extpdfdoc`` codec's, and what that codec refuses is refused the same way;
- bytes pass through unchanged.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase import pdfdoc

import forge.pdf


def _reportlab(x: object) -> object:
    return x.encode("extpdfdoc") if isinstance(x, str) else x


def _same(x: object) -> None:
    try:
        want: object = _reportlab(x)
    except UnicodeEncodeError:
        with pytest.raises(UnicodeEncodeError):
            forge.pdf._pdfdoc_encoded(x)
        return
    assert forge.pdf._pdfdoc_encoded(x) == want


def test_reportlab_encodes_through_forge() -> None:
    assert pdfdoc.pdfdocEnc is forge.pdf._pdfdoc_encoded


@pytest.mark.parametrize("code", range(128))
def test_every_ascii_character(code: int) -> None:
    _same(chr(code))
    _same(f"BT /F1 9 Tf ({chr(code)}) Tj ET")


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from([chr(c) for c in range(0x80)] + ["é", "\u2022", "\u02d8", "\u20ac", "\ufb01", "字"])))
def test_any_text_gives_reportlabs_bytes(text: str) -> None:
    _same(text)


def test_bytes_pass_through() -> None:
    assert forge.pdf._pdfdoc_encoded(b"\x00\xff(x)") == b"\x00\xff(x)"
