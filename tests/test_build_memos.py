"""What a build works out once and keeps (issue 23, build speed): a text's width, a counter size's name.

Properties: a kept width is reportlab's ``stringWidth`` of the same text, face and size, whatever was measured
before; asking again is answered from what was kept; a counter size's name is the one the sizes' list gives.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase import pdfmetrics

from forge import templates
from forge import units as U
from forge.pdf import FONT_FACES, register_fonts, text_width


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x3FF), max_size=12),
            st.sampled_from([5, 6.5, 7.0, 8, 9.25]),
            st.sampled_from(FONT_FACES),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_a_kept_width_is_the_fonts_width(asked: list[tuple[str, float, str]]) -> None:
    register_fonts()
    for text, size, font in asked + asked:
        assert text_width(text, size, font) == float(pdfmetrics.stringWidth(text, font, size))


def test_a_width_asked_again_is_kept() -> None:
    text_width("Hex 0805 kept", 7.0)
    hits = text_width.cache_info().hits
    assert text_width("Hex 0805 kept", 7.0) == float(pdfmetrics.stringWidth("Hex 0805 kept", FONT_FACES[0], 7.0))
    assert text_width.cache_info().hits == hits + 1


def test_a_counter_sizes_name_is_kept_and_right() -> None:
    for name in templates.SIZES:
        assert templates._size_name(U.length(name)) == name
    assert templates._size_name(U.length(templates.SIZES[0]) + 0.5) is None
    before = templates._size_name.cache_info().hits
    templates._size_name(U.length(templates.SIZES[0]))
    assert templates._size_name.cache_info().hits == before + 1
