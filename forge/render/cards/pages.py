"""The component's pages (:func:`render`): two cards to a page of the paper, one card a page at the card's
own size, or one a page at the size of ``--card-size``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from ...canvas import Recorder
from ...model import Game
from ...pdf import render_pdf
from ...templates import card_layout
from ... import tiling
from ...tiling import TRIM_SAFE_MARGIN
from .styles import Styles
from .story import story
from .flow import flow
from .chrome import _card_chrome, card_regions, single_card_size
from .sized import sized_cards

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ...builder import BuildOptions


def render(game: Game, options: BuildOptions, *, recorder: Recorder | None = None) -> bytes:
    """Reference cards, two to a page of ``options.paper``; or, with ``options.cards_per_page`` 1, each card its
    own page of :func:`single_card_size`, its colours to the page's edges (and into the page bleed); or, with
    ``options.card_size``, each card its own page of that size (:func:`sized_cards`).  A ``recorder`` notes what
    the pages place (:mod:`forge.layout`): the two-up pages with the printer margin, a page that is one card with
    the safe zone inside its trim (:data:`~forge.tiling.TRIM_SAFE_MARGIN`) as its margin."""
    if options.card_size is not None:
        return sized_cards(game, options, recorder=recorder).pdf
    st = Styles.make(options)
    region = card_regions(options)
    _, _, w, h = region(0)
    avail = w - 2 * card_layout().padding
    title = f"{game.game.title}: reference cards"
    if options.cards_per_page == 1:
        inset = TRIM_SAFE_MARGIN

        def single(c: Canvas) -> None:
            chrome = _card_chrome(game, st, trim=inset)
            flow(c, story(game, st, avail), regions_per_page=1, region=lambda _: (inset, inset, w, h), chrome=chrome,
                 recorder=recorder, margin=tiling.TRIM_SAFE_MARGIN)  # the requirement, not the inset  # fmt: skip

        return render_pdf(single_card_size(options), single, title=title)

    def draw(c: Canvas) -> None:
        from ...tiling import PRINTABLE_MARGIN

        chrome = _card_chrome(game, st)
        flow(c, story(game, st, avail), regions_per_page=2, region=region, chrome=chrome, recorder=recorder,
             margin=PRINTABLE_MARGIN)  # fmt: skip

    return render_pdf(options.paper_size(), draw, title=title)
