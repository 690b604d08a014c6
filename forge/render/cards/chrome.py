"""A reference card's chrome: where the cards stand on the page (:func:`card_regions`, two to a page), the
card's outline and title bar, or, for one card a page, its colours to the page's edges and on into the page
bleed (:func:`single_card_size`).  The measures come from templates/card.yaml."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...canvas import PdfCanvas
from ...model import Game
from ...pdf import FONT, FONT_BOLD, page_bleed, text_width
from ...templates import card_layout
from ...tiling import TRIM_SAFE_MARGIN
from ..fit import fit_line
from .styles import Styles
from .flow import Region

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ...builder import BuildOptions


# The card's measures come from templates/card.yaml (forge.templates.card_layout).
def card_regions(options: BuildOptions) -> Callable[[int], Region]:
    pw, ph = options.paper_size()
    m = card_layout().margin_pt
    h = (ph - 3 * m) / 2

    def region(i: int) -> Region:
        return (m, ph - m - (i + 1) * h - i * m, pw - 2 * m, h)

    return region


def _card_chrome(game: Game, st: Styles, *, trim: float | None = None) -> Callable[[PdfCanvas, int, Region], Region]:
    """Draw a card's frame and title; return the area its charts may use.  With ``trim`` (a single card's page,
    :func:`single_card_size`), the card has no outline: its colours fill the page, which stands ``trim`` points
    outside the region, and run on into the page bleed; the title and charts stay where they are on the region."""
    tpl = card_layout()
    bar = tpl.title_bar
    bar_h, pad, radius = bar.height, tpl.padding, tpl.corner_radius

    def chrome(c: PdfCanvas, index: int, r: Region) -> Region:
        x, y, w, h = r
        top = c.top - y - h  # the region's top, y down
        if trim is not None:
            _full_bleed_frame(c, st, r, trim, bar_h)
        else:
            c.rounded_rect(x, top, w, h, radius, fill=st.c("panel"), stroke=st.c("panel_edge"), width=tpl.edge_line)
            head = st.c("panel_head")
            with c.saved():  # the bar's top corners follow the card's
                c.clip_rect(x, top, w, bar_h)
                c.rounded_rect(x, top, w, bar_h, radius, fill=head)
            c.rect(x, top + bar_h / 2, w, bar_h / 2, fill=head)
        right = f"Reference card {index + 1}"
        rw = text_width(right, bar.label_size, FONT)
        title, fs = fit_line(
            game.game.title,
            w - 2 * pad - rw - bar.gap,
            bar.title_size,
            font=FONT_BOLD,
            where=("game", "title"),
            what="reference card title",
        )
        white = st.c("#ffffff")
        c.text(x + pad, top + bar_h - bar.title_baseline, title, font=FONT_BOLD, size=fs, fill=white)
        c.text(x + w - pad, top + bar_h - bar.label_baseline, right, size=bar.label_size, anchor="end", fill=white)
        return (x + pad, y + pad * 0.8, w - 2 * pad, h - bar_h - pad * 1.2)

    return chrome


def _full_bleed_frame(c: PdfCanvas, st: Styles, r: Region, trim: float, bar_h: float) -> None:
    """A single card's background and title bar, to the page's edges and on into the page bleed (art to the bleed,
    as card services ask): drawn ``trim`` points past the region and the bleed further, so that a cut anywhere in
    the bleed shows no white edge.  No outline: a line along the cut would show every drift of the cutter."""
    x, y, w, h = r
    top = c.top - y - h
    out = trim + page_bleed(c.c)
    c.rect(x - out, top - out, w + 2 * out, h + 2 * out, fill=st.c("panel"))
    c.rect(x - out, top - out, w + 2 * out, bar_h + out, fill=st.c("panel_head"))


def single_card_size(options: BuildOptions) -> tuple[float, float]:
    """The page (the trim) of one card with ``--cards-per-page 1``: the card of the two-up page, the same size so
    that its charts pour exactly as they do there, grown by the 1/8 in safe zone on every side
    (:data:`forge.tiling.TRIM_SAFE_MARGIN`), so that its title and charts keep that far inside the cut."""
    _, _, w, h = card_regions(options)(0)
    return (w + 2 * TRIM_SAFE_MARGIN, h + 2 * TRIM_SAFE_MARGIN)
