"""The reference cards' type: the paragraph styles of one build (:class:`Styles`, from templates/card.yaml),
text escaped for a paragraph (:func:`esc`), numbers and side names as printed, and the paragraphs every block is
made of: :func:`P`, :func:`heading` (kept with what follows, set again marked continued) and :func:`note`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
import re
from typing import Any, TYPE_CHECKING
from ...markup import escape, unescape

from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.platypus import Paragraph

from ...model import Game, Unknown
from ...pdf import FONT, FONT_BOLD, FONT_ITALIC, register_fonts
from ...templates import Heading, card_layout
from ..fit import MIN_TEXT_PT, soft_hyphens
from ..style import DEFAULT_COLORS, colour

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ...builder import BuildOptions


UNKNOWN_NOTE = "? = not given by the rules"
NO_MOVE_EFFECT = "\u2014"
"""The terrain chart's movement cost of a terrain with no movement effect of its own (``movement: none``)."""
NO_MOVE_EFFECT_NOTE = f"{NO_MOVE_EFFECT} = no movement effect of its own: the hex's terrain counts"


def _fonts() -> None:
    register_fonts()
    registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT_ITALIC, boldItalic=FONT_BOLD)


def esc(text: object) -> str:
    """``text`` escaped for a paragraph, its very long words breakable with a hyphen (:func:`soft_hyphens`)."""
    return escape(soft_hyphens(str(text)))


def _rule(rule: str | None) -> str:
    return f"({esc(rule)})" if rule else ""


def _num(v: object) -> str:
    """Numbers as printed: unknown as ``?``, whole floats without a point."""
    if isinstance(v, Unknown):
        return "?"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _turn_list(turns: Sequence[int]) -> str:
    ts = sorted(turns)
    if len(ts) > 2 and ts == list(range(ts[0], ts[-1] + 1)):
        return f"{ts[0]}-{ts[-1]}"
    return ", ".join(str(t) for t in ts)


def _side_name(game: Game, sid: str | None) -> str:
    if sid is None:
        return "both"
    for s in game.game.sides:
        if s.id == sid:
            return s.name
    return sid


# ------------------------------------------------------------------------------------------------ styles
@dataclass
class Styles:
    """Paragraph styles and colours for one build (greyscale-aware)."""

    options: BuildOptions
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_c: ParagraphStyle
    head: ParagraphStyle
    head_c: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle

    @classmethod
    def make(cls, options: BuildOptions, *, scale: float = 1.0) -> Styles:
        _fonts()
        ink = colour(DEFAULT_COLORS["ink"], options)
        white = colour("#ffffff", options)

        tpl = card_layout()  # templates/card.yaml
        fonts = {"regular": FONT, "bold": FONT_BOLD}

        def ps(name: str, **kw: Any) -> ParagraphStyle:
            style = getattr(tpl.styles, name)
            size = max(MIN_TEXT_PT, style.size * scale)
            if isinstance(style, Heading):
                kw.update(spaceBefore=style.space_before, spaceAfter=style.space_after)
            return ParagraphStyle(
                name,
                fontName=fonts[style.font],
                fontSize=size,
                leading=size * tpl.leading,
                textColor=kw.pop("textColor", ink),
                **kw,
            )

        return cls(
            options=options,
            body=ps("body"),
            small=ps("small"),
            cell=ps("cell"),
            cell_c=ps("cell_c", alignment=1),
            head=ps("head", textColor=white),
            head_c=ps("head_c", textColor=white, alignment=1),
            h1=ps("h1"),
            h2=ps("h2"),
        )

    def c(self, role_or_hex: str) -> Color:
        return colour(DEFAULT_COLORS.get(role_or_hex, role_or_hex), self.options)

    @property
    def greyscale(self) -> bool:
        return bool(self.options.greyscale)


class _Para(Paragraph):
    """A paragraph that remembers its last wrap: :func:`flow` measures what is to come (a heading with its table,
    a table with its notes) at the very width and height the frame then wraps it at, and a paragraph's wrap
    (breaking its lines) is the costly part of laying out cards.  Wrapping again with other arguments, or a split,
    recomputes as before."""

    _wrapped: tuple[float, float] | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self._wrapped == (availWidth, availHeight):
            return self.width, self.height
        out = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, availHeight)
        return out


def P(text: str, style: ParagraphStyle) -> Paragraph:
    return _Para(text, style)


_TAG = re.compile(r"<[^>]+>")


def _plain_lines(markup: str) -> list[str]:
    return [unescape(_TAG.sub("", part)) for part in re.split(r"<br\s*/?>", markup)]


def heading(st: Styles, text: str, rule: str | None = None, *, level: int = 1, continued: bool = False) -> Paragraph:
    """A heading that :func:`flow` keeps with at least a few lines of what follows.  Its ``again()`` is the same
    heading marked continued ("Stacking limits (5), continued"), which :func:`flow` sets above the rest of a block
    split onto the next card."""
    style = st.h1 if level == 1 else st.h2
    small = f'<font name="{FONT}" size="{style.fontSize - 1.5:g}">'
    r = f" {small}{_rule(rule)}</font>" if rule else ""
    more = f"{small}, continued</font>" if continued else ""
    p = P(f"{esc(text)}{r}{more}", style)
    p.keep_next = 40.0
    p.block_title = text  # the chart it heads, named in --card-size's refusal (:func:`sized_cards`)
    p.again = lambda: heading(st, text, rule, level=level, continued=True)
    return p


def note(st: Styles, text: str, *, table_note: bool = False) -> Paragraph:
    """A note in small type.  ``table_note``: it explains the table just before it (a column, a mark, an empty
    cell), and :func:`flow` keeps it on the card of that table's last rows."""
    p = P(text, st.small)
    if table_note:
        p.table_note = True
    return p
