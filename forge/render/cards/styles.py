"""The reference cards' type: the paragraph styles of one build (:class:`Styles`, from templates/card.yaml),
text escaped for a paragraph (:func:`esc`), numbers and side names as printed, and the paragraphs every block is
made of: :func:`P`, :func:`heading` (kept with what follows, set again marked continued) and :func:`note`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
import re
from typing import Any, TYPE_CHECKING
from ...markup import escape, unescape

from ...model import Game, Unknown
from ...pdf import FONT, FONT_BOLD, register_fonts
from ...templates import Heading as HeadingTemplate, card_layout
from ..blocks import Heading, Para, TextStyle
from ..fit import MIN_TEXT_PT, soft_hyphens
from ..style import DEFAULT_COLORS, grey

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ...builder import BuildOptions


UNKNOWN_NOTE = "? = not given by the rules"
NO_MOVE_EFFECT = "\u2014"
"""The terrain chart's movement cost of a terrain with no movement effect of its own (``movement: none``)."""
NO_MOVE_EFFECT_NOTE = f"{NO_MOVE_EFFECT} = no movement effect of its own: the hex's terrain counts"


def _fonts() -> None:
    register_fonts()


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
    body: TextStyle
    small: TextStyle
    cell: TextStyle
    cell_c: TextStyle
    head: TextStyle
    head_c: TextStyle
    h1: TextStyle
    h2: TextStyle

    @classmethod
    def make(cls, options: BuildOptions, *, scale: float = 1.0) -> Styles:
        _fonts()
        ink = _printed(DEFAULT_COLORS["ink"], options)
        white = _printed("#ffffff", options)

        tpl = card_layout()  # templates/card.yaml
        fonts = {"regular": FONT, "bold": FONT_BOLD}

        def ps(name: str, **kw: Any) -> TextStyle:
            style = getattr(tpl.styles, name)
            size = max(MIN_TEXT_PT, style.size * scale)
            if isinstance(style, HeadingTemplate):
                kw.update(space_before=style.space_before, space_after=style.space_after)
            return TextStyle(
                font=fonts[style.font],
                size=size,
                leading=size * tpl.leading,
                colour=kw.pop("colour", ink),
                **kw,
            )

        return cls(
            options=options,
            body=ps("body"),
            small=ps("small"),
            cell=ps("cell"),
            cell_c=ps("cell_c", align="centre"),
            head=ps("head", colour=white),
            head_c=ps("head_c", colour=white, align="centre"),
            h1=ps("h1"),
            h2=ps("h2"),
        )

    def c(self, role_or_hex: str) -> str:
        """A role (``ink``, ``panel``: :data:`~forge.render.style.DEFAULT_COLORS`) or ``#rrggbb`` as the ``#rrggbb``
        printed (its grey with ``--greyscale``)."""
        return _printed(DEFAULT_COLORS.get(role_or_hex, role_or_hex), self.options)

    @property
    def greyscale(self) -> bool:
        return bool(self.options.greyscale)


def _printed(hex_colour: str, options: object) -> str:
    """``hex_colour`` as printed: lower case, its grey with ``options.greyscale``."""
    return (grey(hex_colour) if getattr(options, "greyscale", False) else hex_colour).lower()


_Para = Para
"""The paragraph block (:class:`forge.render.blocks.Para`), which keeps its lines for the last width it was laid
out at: :func:`flow` measures what is to come at the very width it then places it at."""


def P(text: str, style: TextStyle) -> Para:
    return Para(text, style)


_TAG = re.compile(r"<[^>]+>")


def _plain_lines(markup: str) -> list[str]:
    """The text of ``markup`` line by line, tags dropped, soft hyphens kept (the column widths are measured with
    them, as they always were: the cards' layout stays where it was)."""
    return [unescape(_TAG.sub("", part)) for part in re.split(r"<br\s*/?>", markup)]


def heading(st: Styles, text: str, rule: str | None = None, *, level: int = 1, continued: bool = False) -> Heading:
    """A heading that :func:`flow` keeps with at least a few lines of what follows.  Its ``again()`` is the same
    heading marked continued ("Stacking limits (5), continued"), which :func:`flow` sets above the rest of a block
    split onto the next card."""
    style = st.h1 if level == 1 else st.h2
    small = f'<font name="{FONT}" size="{style.size - 1.5:g}">'
    r = f" {small}{_rule(rule)}</font>" if rule else ""
    more = f"{small}, continued</font>" if continued else ""
    return Heading(
        f"{esc(text)}{r}{more}",
        style,
        again=lambda: heading(st, text, rule, level=level, continued=True),
        block_title=text,  # the chart it heads, named in --card-size's refusal (:func:`sized_cards`)
    )


def note(st: Styles, text: str, *, table_note: bool = False) -> Para:
    """A note in small type.  ``table_note``: it explains the table just before it (a column, a mark, an empty
    cell), and :func:`flow` keeps it on the card of that table's last rows."""
    return Para(text, st.small, table_note=table_note)
