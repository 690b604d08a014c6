"""``forge build --card-size NAME|WxH``: each reference card its own page at a card service's size, its charts laid
out again for that card (not scaled), or the build refused with one located message.

Properties: every page's trim is the product's size (on its side or upright), with the page bleed around it when
the pages are finished for a press; every text stays inside the 1/8 in safe zone and off every other text (the
layout checker reads the PDF back); a chart split over cards keeps its header on each; a card too small for a chart
is refused (exit 2, nothing written) at the chart's key in the game file, naming the card, the chart, what it
needs and what the card gives; a bad size names the option and the sizes there are; without the option nothing
changes."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from conftest import DATA, seed_game
from forge.render.blocks import Table

from forge import layout
from forge.builder import BuildOptions, preset_options
from forge.canvas import Recorder
from forge.cli import build_parser, main
from forge.pdf import PageFinish, page_finish
from forge.render import cards
from forge.tiling import TRIM_SAFE_MARGIN

IN = 72.0


@cache
def _sized(name: str, size: str) -> cards.SizedCards:
    return cards.sized_cards(seed_game(name), BuildOptions(only=("cards",), cards_per_page=1, card_size=size))


def _page_texts(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def test_card_size_names_and_lengths() -> None:
    assert cards.card_size("tarot") == (2.75 * IN, 4.75 * IN)
    assert cards.card_size(" Jumbo ") == (3.5 * IN, 5.5 * IN)
    assert cards.card_size("70x120mm") == pytest.approx((70 / 25.4 * IN, 120 / 25.4 * IN))
    assert cards.card_size("2.75inx4.75in") == (2.75 * IN, 4.75 * IN)
    for bad in ("square", "bridge", "3x", "x4in", "3inx4", "1x1in", "20x30in"):
        with pytest.raises(ValueError, match="expected one of poker, tarot, jumbo, or WIDTHxHEIGHT"):
            cards.card_size(bad)
    with pytest.raises(ValueError, match="'infmm' is not a length") as e:  # names what was typed, not '63infmm'
        cards.card_size("63xinfmm")
    assert str(e.value).count("(expected") == 1  # one "expected", not the length's and the card size's


def test_a_size_that_fits_gives_pages_whose_trim_is_the_product_and_bleed_around_it(tmp_path: Path) -> None:
    game = str(DATA / "ferry_point.yaml")
    args = ["build", "-q", game, "--preset", "print-shop", "--only", "cards", "--card-size", "tarot"]
    assert main([*args, "--page-bleed", "1/8in", "--out", str(tmp_path)]) == 0
    pdf = tmp_path / "ferry_point" / "cards.pdf"
    pages = pypdf.PdfReader(pdf).pages
    assert len(pages) > 4  # the cards' charts, poured over more and smaller cards than two to a letter page
    sizes = set()
    for page in pages:
        tx0, ty0, tx1, ty1 = (float(v) for v in page["/TrimBox"])
        bx0, by0, bx1, by1 = (float(v) for v in page["/BleedBox"])
        sizes.add((round(tx1 - tx0, 3), round(ty1 - ty0, 3)))
        assert [tx0 - bx0, ty0 - by0, bx1 - tx1, by1 - ty1] == pytest.approx([IN / 8] * 4, abs=0.001)
    assert len(sizes) == 1  # one orientation for the whole deck
    assert sorted(sizes.pop()) == [2.75 * IN, 4.75 * IN]
    assert layout.check_pdf(pdf.read_bytes(), "cards.pdf") == []  # the safe zone inside each trim, no overlaps


@pytest.mark.parametrize(
    ("name", "size"), [("hells_gate", "jumbo"), ("ukraine_43", "tarot"), ("ferry_point", "3.5x3.5in")]
)
def test_every_card_keeps_its_text_in_the_safe_zone(name: str, size: str) -> None:
    """Without print marks the page is the trim: every text object is 1/8 in inside it and on no other text."""
    sized = _sized(name, size)
    w, h = cards.card_size(size)
    assert sorted(sized.trim) == sorted((w, h))
    doc = pdfium.PdfDocument(sized.pdf)
    try:
        assert len(doc) == sized.cards
        assert [doc[i].get_size() for i in range(len(doc))] == [pytest.approx(sized.trim)] * len(doc)
    finally:
        doc.close()
    assert layout.check_pdf(sized.pdf, f"{name} cards", margin=TRIM_SAFE_MARGIN) == []
    # as drawn: the way taken is what the recorder holds (each card a page, the safe zone its margin)
    rec = Recorder("cards.pdf")
    again = cards.sized_cards(seed_game(name), BuildOptions(only=("cards",), cards_per_page=1, card_size=size),
                              recorder=rec)  # fmt: skip
    assert again.pdf == sized.pdf
    assert [(p.width, p.height) for p in rec.pages] == [pytest.approx(sized.trim)] * sized.cards
    assert layout.check(rec) == []
    texts = _page_texts(sized.pdf)
    assert all(f"Reference card {n}" in t for n, t in enumerate(texts, 1))


def test_what_the_width_check_prevents(monkeypatch: pytest.MonkeyPatch) -> None:
    """First Panzer Army's CRT is 5.5 in wide at its type size: refused on a jumbo card (5 in for its charts).  With
    the check off, its columns are squeezed into the card and reportlab breaks the result DL1+DR inside the code,
    as DL1+D over R (and R reads as another result), which the two-up card prints whole."""
    game = seed_game("first_panzer_army")
    with pytest.raises(cards.CardSizeError, match=r"'Combat Results Table' .* needs 5\.51 in across"):
        cards.sized_cards(game, BuildOptions(cards_per_page=1, card_size="jumbo"))
    whole = _page_texts(cards.render(game, BuildOptions(only=("cards",))))[0]
    assert whole.count("DL1+DR") > 10  # the table's cells and the legend below it
    monkeypatch.setattr(cards.sized, "_charts", lambda f: [])
    squeezed = _page_texts(cards.sized_cards(game, BuildOptions(cards_per_page=1, card_size="jumbo")).pdf)[0]
    assert squeezed.count("DL1+DR") == 1  # the legend alone: every cell broken
    assert squeezed.count("DL1+D") == whole.count("DL1+DR")


def test_a_chart_split_over_cards_keeps_its_header_on_each() -> None:
    texts = _page_texts(_sized("ferry_point", "3.5x3.5in").pdf)
    headed = [t for t in texts if "What happens" in t]
    assert len(headed) >= 2  # the sequence of play runs over more than one card
    assert sum("Sequence of play" in t for t in texts) == len(headed)  # its title on each, then marked continued
    assert sum("Sequence of play, continued" in t for t in texts) == len(headed) - 1
    order = [t for t in texts if "Phase" in t]
    assert "Blue Supply" in order[0]
    assert "End of Turn" in order[-1]


def test_same_input_same_bytes() -> None:
    game = seed_game("ferry_point")
    options = preset_options("print-shop", only=("cards",), card_size="tarot")
    with page_finish(PageFinish(bleed=IN / 8)):
        assert cards.render(game, options) == cards.render(game, options)


def test_a_card_too_small_for_the_crt_is_refused_at_the_crt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = DATA / "hells_gate.yaml"
    status = main(["build", "-q", str(game), "--only", "cards", "--card-size", "poker", "--out", str(tmp_path)])
    assert status == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2, err  # the problem, then the count
    crt = next(i for i, text in enumerate(game.read_text().splitlines(), 1) if text.strip() == "crt:")
    # located at combat.crt's value, the mapping that starts on the line below its key
    assert err[0].startswith(f"{game}:{crt + 1}:5: combat.crt: --card-size poker: a 3.5 x 2.5 in card is too small")
    for part in ("'Combat Results Table' (reference card 1) needs 4.5 in across", "and gets 3 in", "upright",
                 "long side is at least 5 in (jumbo)"):  # fmt: skip
        assert part in err[0]
    assert not (tmp_path / "hells_gate").exists()  # nothing written


def test_a_part_taller_than_the_card_is_refused_too() -> None:
    with pytest.raises(cards.CardSizeError) as e:
        _sized("ferry_point", "poker")
    assert e.value.where == ("special_rules",)
    assert e.value.direction == "down"
    assert e.value.need > e.value.have
    # card 17: a table that would have left two rows on an earlier card starts the next one whole (issue 25: Ferry
    # Point's rules of no particular turn are the table 'Rules in brief', without the Turn column), one card after
    # the stacking rule (issue 21), and one after the CRT legend's all-out sentence
    assert "'Rules in brief' (reference card 18) needs 2.07 in down" in str(e.value)


def test_bad_options_name_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["build", "x.yaml", "--card-size", "bridge"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--card-size" in err
    assert "poker, tarot, jumbo, or WIDTHxHEIGHT" in err
    game = str(DATA / "ferry_point.yaml")
    for extra in (["--cards-per-page", "2"], ["--only", "map"]):
        assert main(["build", game, "--card-size", "tarot", *extra, "--out", str(tmp_path)]) == 2
        assert "forge build: --card-size tarot:" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_without_the_option_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """No option, no card size (the presets set none), and the charts that know their least width draw as the
    plain tables they were: the same bytes."""
    assert build_parser().parse_args(["build", "x.yaml"]).card_size is None
    assert BuildOptions().card_size is None
    assert preset_options("print-shop").card_size is None
    help_text = build_parser()._subparsers._group_actions[0].choices["build"].format_help()  # type: ignore[union-attr]
    assert all(name in help_text for name in cards.CARD_SIZES)
    game = seed_game("ferry_point")
    now = cards.render(game, BuildOptions(only=("cards",)))
    monkeypatch.setattr(cards.tables, "Chart", lambda *a, least=None, **kw: Table(*a, **kw))
    assert cards.render(game, BuildOptions(only=("cards",))) == now


def test_only_the_way_taken_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 1.5 x 14 in card is laid out both ways; Ferry Point's title fits the bar on its side (the way taken) and
    not upright: the build must not warn of a title cut short that the PDF prints whole."""
    assert main(["build", str(DATA / "ferry_point.yaml"), "--only", "cards", "--card-size", "1.5x14in",
                 "--out", str(tmp_path), "-q"]) == 0
    assert "does not fit" not in capsys.readouterr().err
    page = pypdf.PdfReader(tmp_path / "ferry_point" / "cards.pdf").pages[0]
    x0, y0, x1, y1 = (float(v) for v in page.trimbox)
    assert (x1 - x0, y1 - y0) == pytest.approx((14 * 72, 1.5 * 72))  # on its side
    assert seed_game("ferry_point").game.title in page.extract_text()  # printed whole


def test_a_template_whose_padding_fills_the_card_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not "gets -0.42 in": the padding of the user's card template leaves the card no room at all."""
    shipped = (Path(__file__).resolve().parent.parent / "templates" / "card.yaml").read_text("utf-8")
    assert shipped.count("\npadding: 9 ") == 1
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "card.yaml").write_text(shipped.replace("\npadding: 9 ", "\npadding: 60 "), "utf-8")
    status = main(["build", "-q", str(DATA / "ferry_point.yaml"), "--only", "cards", "--card-size", "1.5x1.5in",
                   "--templates", str(tmp_path / "tpl"), "--out", str(tmp_path / "out")])  # fmt: skip
    assert status == 2
    err = capsys.readouterr().err
    assert "has no room across: the safe zone and the card template's padding take it" in err
    assert " -0." not in err
