"""The reference cards laid out again on the card of ``--card-size`` (:func:`sized_cards`), on its side or
upright, whichever takes fewer cards, and the refusal of a card too small for a chart, located at the chart's key
in the game file (:func:`refuse_card_size`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from ...canvas import Recorder
from ...model import Game
from ...pdf import render_pdf
from ...errors import BuildWarning, collect_warnings, warn
from ...templates import card_layout
from ... import tiling
from ...tiling import TRIM_SAFE_MARGIN
from ..blocks import Block, Heading, Table
from .styles import Styles
from .story import story
from .flow import Frame, flow
from .chrome import _card_chrome
from .size import card_size, CARD_SIZES, CardSizeError, _inches

if TYPE_CHECKING:  # build imports the renderers: a runtime import would be circular
    from ...builder import BuildOptions


def _charts(f: Block) -> list[float]:
    """The least widths of the charts in ``f`` that know theirs (charts side by side in a table too)."""
    out: list[float] = []
    if isinstance(f, Table):
        if f.least is not None:
            out.append(f.least())
        for row in f.rows:
            for v in row.cells:
                if v is not None:
                    out += _charts(v)
    return out


def _block_where(game: Game, title: str) -> tuple[str | int, ...]:
    """The key path in the game file of the chart headed ``title`` (empty when it is not one chart's)."""
    crt = game.combat.crt
    if crt is not None and title == crt.title:
        return ("combat", "crt")
    if title.startswith("Secondary dice"):
        return ("combat", "crt", "secondary")
    for i, t in enumerate(game.tables):
        if t.title == title:
            return ("tables", i)
    named: dict[str, tuple[str, ...]] = {
        "Results": ("combat", "results"),
        "Combat dice": ("combat", "dice_pool"),
        "Column shifts": ("combat", "shifts"),
        "Limits on shifts": ("combat", "shift_caps"),
        "Strength modifiers": ("combat", "modifiers"),
        "Combat notes": ("combat",),
        "Terrain effects": ("terrain",),
        "Sequence of play": ("sequence",),
        "Turn record": ("turns",),
        "Limits": ("rules", "limits"),
        "Stacking": ("rules", "stacking"),
        "Special rules by turn": ("special_rules",),
        "Rules in brief": ("special_rules",),
        "Victory": ("victory",),
        "Scenarios": ("scenarios",),
    }
    return named.get(title, ())


@dataclass(frozen=True)
class SizedCards:
    """The reference cards laid out on the card of ``--card-size``: one card a page, ``trim`` its size (upright or
    on its side), ``cards`` of them."""

    trim: tuple[float, float]
    pdf: bytes
    cards: int


def _sized(
    game: Game, options: BuildOptions, trim: tuple[float, float], recorder: Recorder | None = None
) -> SizedCards:
    """The cards laid out anew on pages of ``trim`` (the card), their charts ``TRIM_SAFE_MARGIN`` and the padding
    inside the cut at the template's type sizes; :class:`CardSizeError` for the first chart that does not fit.  A
    ``recorder`` notes what each card places, the safe zone its margin (:mod:`forge.layout`)."""
    st = Styles.make(options)
    inset = TRIM_SAFE_MARGIN
    w, h = trim[0] - 2 * inset, trim[1] - 2 * inset
    avail = w - 2 * card_layout().padding
    block = [""]

    def check(f: Block, card: int, frame: Frame) -> None:
        if isinstance(f, Heading):
            block[0] = f.block_title
        room = frame.width
        need = max(_charts(f), default=0.0)
        if need > room + 0.01:
            raise CardSizeError(card, "across", need, room)

    used = [0]

    def draw(c: Canvas) -> None:
        chrome = _card_chrome(game, st, trim=inset)
        region = (inset, inset, w, h)
        used[0] = flow(
            c, story(game, st, avail), regions_per_page=1, region=lambda _: region, chrome=chrome, check=check,
            recorder=recorder, margin=tiling.TRIM_SAFE_MARGIN,
        )

    try:
        pdf = render_pdf(trim, draw, title=f"{game.game.title}: reference cards")
    except CardSizeError as e:
        e.block, e.where = block[0], _block_where(game, block[0])
        raise
    return SizedCards(trim, pdf, used[0])


def sized_cards(game: Game, options: BuildOptions, *, recorder: Recorder | None = None) -> SizedCards:
    """The reference cards on the card of ``options.card_size`` (:func:`card_size`), one a page, laid out again for
    it (not scaled) at the template's type sizes: on its side (wide charts read across) and upright, whichever
    takes fewer cards (on its side when they tie; a square card has one way); a ``recorder`` gets what the way
    taken places (each way is recorded apart, :meth:`Recorder.take`).  :class:`CardSizeError` when a
    chart fits neither way: a table's columns narrower than their longest entries, or a part that cannot be split
    taller than the card, would print over its neighbours or off the card."""
    assert options.card_size is not None
    a, b = card_size(options.card_size)
    shapes = [(max(a, b), min(a, b))] + ([(min(a, b), max(a, b))] if a != b else [])
    done: list[tuple[SizedCards, list[BuildWarning], Recorder | None]] = []
    failed: list[CardSizeError] = []
    for trim in shapes:
        rec = None if recorder is None else Recorder(recorder.component)
        with collect_warnings() as said:  # only the way taken speaks: a title cut short upright, not on its side
            try:
                laid = _sized(game, options, trim, rec)
            except CardSizeError as e:
                failed.append(e)
                continue
        done.append((laid, said, rec))
    if done:
        laid, said, rec = min(done, key=lambda d: d[0].cards)
        for w in said:
            warn(w.path, w.message)
        if recorder is not None and rec is not None:
            recorder.take(rec)
        return laid
    first = failed[0]
    ways = []
    for why, way in zip(failed, ["on its side, " if a != b else "", "upright, "], strict=False):
        what = "its columns' longest entries" if why.direction == "across" else "a part that cannot be split"
        chart = f"{way}{why.block or 'a chart'!r} (reference card {why.card + 1})"
        if why.have <= 0:  # a template's padding wider than the card
            ways.append(f"{chart} has no room {why.direction}: the safe zone and the card template's padding take it")
            continue
        ways.append(
            f"{chart} needs {_inches(why.need)} in {why.direction} for {what} and gets {_inches(why.have)} in"
        )
    tpl = card_layout()
    across = first.direction == "across"
    around = 2 * TRIM_SAFE_MARGIN + (2 * tpl.padding if across else tpl.title_bar.height + 1.2 * tpl.padding)
    least = first.need + around  # the side of the card (on its side: the long one across, the short one down)
    pick = max if across else min
    fits = [n for n in CARD_SIZES if pick(card_size(n)) + 1e-6 >= least and sorted(card_size(n)) != sorted((a, b))]
    raise _Refused(
        first,
        f"a {_inches(max(a, b))} x {_inches(min(a, b))} in card is too small for the charts: {'; '.join(ways)} "
        f"(the room inside the 1/8 in safe zone and the card's padding); expected a card whose "
        f"{'long' if across else 'short'} side is at least {_inches(least)} in"
        + (f" ({', '.join(fits)})" if fits else "")
        + ", by name or as WIDTHxHEIGHT",
    )


class _Refused(CardSizeError):
    """:func:`sized_cards`' refusal: the first chart that fits no way, with the message naming both ways."""

    def __init__(self, cause: CardSizeError, message: str) -> None:
        super().__init__(cause.card, cause.direction, cause.need, cause.have)
        self.block, self.where = cause.block, cause.where
        self.args = (message,)


def refuse_card_size(game: Game, options: BuildOptions, file: str) -> None:
    """Raise :class:`forge.errors.LoadError` with one problem, located at the chart's key in ``file``, when the
    reference cards cannot be laid out on the card of ``options.card_size`` (:func:`sized_cards`): before anything
    is rendered or written, as :func:`forge.estimate.refuse` refuses a build too big."""
    if options.card_size is None or "cards" not in options.only:
        return
    from ...errors import LoadError, Problem
    from ...loader import locate_in_file
    from ...templates import use

    try:
        with use(options.templates):
            sized_cards(game, options)
    except CardSizeError as e:
        line, col, path = locate_in_file(file, e.where)
        raise LoadError([Problem(file, line, col, path, f"--card-size {options.card_size}: {e}")]) from None
