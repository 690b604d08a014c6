"""One reference card a page (``--cards-per-page 1``, the print-shop preset's): the same cards as two to a page, each
on a page of its own size with its colours to the edge, and its text in the 1/8 in safe zone inside the trim.

Properties: on every data file, the N cards of the two-up pages are N single pages, in the same order, each
holding the same text at the same place on the card (pypdfium2 reads both back); print-shop pages carry the trim,
bleed and crop marks, and the card's colours run into the bleed; the same input gives the same bytes; the home
build is the two-up one (its bytes are pinned by the golden and rebuild tests)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from conftest import data_files, seed_game

from forge import layout
from forge.builder import BuildOptions, preset_options
from forge.canvas import Recorder
from forge.cli import build_parser, main
from forge.pdf import PAGE_BLEED, PageFinish, page_finish
from forge.render import cards
from forge.tiling import TRIM_SAFE_MARGIN

GAMES = [p.stem for p in data_files()]
TWO_UP = BuildOptions(only=("cards",))
ONE_UP = BuildOptions(only=("cards",), cards_per_page=1)

Placed = tuple[str, float, float, float, float]


def _texts(page: pdfium.PdfPage, box: tuple[float, float, float, float]) -> list[Placed]:
    """Each text object inside ``box`` (x, y, w, h; PDF coordinates): its text and its bounds from the box's
    lower left corner, rounded to 0.01 pt (in a sort order that rounding cannot change: the text first)."""
    x, y, w, h = box
    tp = page.get_textpage()
    out = []
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT]):
        left, bottom, right, top = obj.get_bounds()
        if left >= x - 0.1 and right <= x + w + 0.1 and bottom >= y - 0.1 and top <= y + h + 0.1:
            # stripped: pdfium may add a space after an object's last letter, or not, as the page's offset rounds
            text = tp.get_text_bounded(left=left, bottom=bottom, right=right, top=top).strip()
            out.append((text, *(round(v, 2) for v in (left - x, bottom - y, right - x, top - y))))
    return sorted(out, key=lambda t: (t[0], round(t[2]), round(t[1])))


@cache
def _rendered(name: str) -> tuple[bytes, bytes]:
    game = seed_game(name)
    return cards.render(game, TWO_UP), cards.render(game, ONE_UP)


@pytest.mark.parametrize("name", GAMES)
def test_each_card_of_the_two_up_pages_is_one_page_of_its_own(name: str) -> None:
    two, one = _rendered(name)
    region = cards.card_regions(TWO_UP)
    _, _, w, h = region(0)
    size = cards.single_card_size(TWO_UP)
    assert size == pytest.approx((w + 2 * TRIM_SAFE_MARGIN, h + 2 * TRIM_SAFE_MARGIN))

    a, b = pdfium.PdfDocument(two), pdfium.PdfDocument(one)
    try:
        on_two: list[tuple[str, list[Placed]]] = []  # each card of the two-up pages: its text, its text objects
        for i in range(len(a)):
            page = a[i]
            for slot in range(2):
                x, y, w_, h_ = region(slot)
                text = page.get_textpage().get_text_bounded(left=x, bottom=y, right=x + w_, top=y + h_)
                if text.strip():
                    on_two.append((text, _texts(page, (x, y, w_, h_))))
        assert len(a) * 2 - 1 <= len(on_two) <= len(a) * 2  # only the last page may hold a single card
        assert len(b) == len(on_two)
        inset = (TRIM_SAFE_MARGIN, TRIM_SAFE_MARGIN, w, h)
        for n, (text, placed) in enumerate(on_two, 1):
            page = b[n - 1]
            assert page.get_size() == pytest.approx(size, abs=0.01)
            mine = page.get_textpage().get_text_range()
            assert f"Reference card {n}" in mine
            # the same characters in the same order (line breaks in the extracted text depend on the page)
            assert "".join(mine.split()) == "".join(text.split()), f"card {n}"
            here = _texts(page, inset)  # every text object at the same place on the card
            assert [t[0] for t in here] == [t[0] for t in placed], f"card {n}"
            assert [t[1:] for t in here] == [pytest.approx(t[1:], abs=0.02) for t in placed], f"card {n}"
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("name", GAMES)
def test_single_cards_keep_their_text_in_the_safe_zone_inside_the_trim(name: str) -> None:
    """As drawn (the layout checker over what the cards record: every frame, cell and text, each card's page with
    the safe zone as its margin), and as printed (the PDF's text read back)."""
    rec = Recorder("cards.pdf")
    one = cards.render(seed_game(name), ONE_UP, recorder=rec)
    assert len(rec.pages) == len(pdfium.PdfDocument(one))  # every card recorded, each its own page
    assert all(p.printable is not None for p in rec.pages)
    assert layout.check(rec) == []
    assert layout.check_pdf(one, f"{name} cards", margin=TRIM_SAFE_MARGIN) == []


def test_the_check_would_find_a_title_on_the_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the safe zone around the card, the title bar's texts lie a few points from the cut: the layout
    checker reports them against the trim of a print-shop page."""
    for room in (cards.chrome, cards.pages):  # the single card's page size, and its card's place on it
        monkeypatch.setattr(room, "TRIM_SAFE_MARGIN", 0.0)
    with page_finish(PageFinish(bleed=PAGE_BLEED)):
        pdf = cards.render(seed_game("hells_gate"), preset_options("print-shop"))
    found = layout.check_pdf(pdf, "cards.pdf")
    assert found
    assert {v.rule for v in found} == {"margin"}
    assert all("safe zone inside the trim" in v.message for v in found)
    # as drawn: the recorded cards keep the safe zone as their margin whatever the layout's own inset
    rec = Recorder("cards.pdf")
    cards.render(seed_game("hells_gate"), ONE_UP, recorder=rec)
    drawn = layout.check(rec)
    assert drawn
    assert {v.rule for v in drawn} == {"margin"}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cards_single")
    assert main(["build", "-q", str(data_files()[0].parent / "hells_gate.yaml"), "--preset", "print-shop",
                 "--only", "cards", "--out", str(out)]) == 0  # fmt: skip
    return out / "hells_gate" / "cards.pdf"


def test_print_shop_cards_have_trim_bleed_and_marks(shop: Path) -> None:
    reader = pypdf.PdfReader(shop)
    size = cards.single_card_size(preset_options("print-shop"))
    _, one = _rendered("hells_gate")
    assert len(reader.pages) == len(pdfium.PdfDocument(one))
    for page in reader.pages:
        tx0, ty0, tx1, ty1 = (float(v) for v in page["/TrimBox"])
        bx0, by0, bx1, by1 = (float(v) for v in page["/BleedBox"])
        assert (tx1 - tx0, ty1 - ty0) == pytest.approx(size, abs=0.01)
        assert [tx0 - bx0, ty0 - by0, bx1 - tx1, by1 - ty1] == pytest.approx([PAGE_BLEED] * 4, abs=0.001)
        data = page.get_contents().get_data().decode("latin-1")
        assert data.count(" 1 1 1 1 K ") == 1  # the crop marks, in registration colour
    assert layout.check_pdf(shop.read_bytes(), "cards.pdf") == []  # the safe zone inside each card's trim


def test_the_cards_colours_run_into_the_bleed(shop: Path) -> None:
    """The title bar's dark and the card's cream reach the bleed box's edge (art to the bleed: a cut anywhere in
    the bleed leaves no white edge); beyond the bleed the page is white but for the marks."""
    doc = pdfium.PdfDocument(shop)
    try:
        page = doc[0]
        scale = 2.0
        image = page.render(scale=scale).to_pil().convert("RGB")
        bx0, by0, bx1, by1 = page.get_bleedbox()
        _, h = page.get_size()

        def px(x: float, y: float) -> tuple[int, int, int]:
            return image.getpixel((int(x * scale), int((h - y) * scale)))  # type: ignore[return-value]

        mid = (bx0 + bx1) / 2
        assert max(px(mid, by1 - 1)) < 90  # the title bar, at the top of the bleed
        for x, y in ((mid, by0 + 1), (bx0 + 1, (by0 + by1) / 2), (bx1 - 1, (by0 + by1) / 2)):
            r, g, b = px(x, y)
            assert (r, g, b) != (255, 255, 255), (x, y)  # the card's cream, not paper
            assert min(r, g, b) > 200, (x, y)
        assert px(mid, by0 - 2) == (255, 255, 255)
    finally:
        doc.close()


def test_same_input_same_bytes() -> None:
    game = seed_game("ferry_point")
    with page_finish(PageFinish(bleed=PAGE_BLEED)):
        first = cards.render(game, preset_options("print-shop"))
        again = cards.render(game, preset_options("print-shop"))
    assert first == again
    assert cards.render(game, ONE_UP) == cards.render(game, ONE_UP)


def test_home_stays_two_up_and_an_explicit_option_wins_over_the_preset(tmp_path: Path) -> None:
    assert BuildOptions().cards_per_page == 2
    assert preset_options("home").cards_per_page == 2
    assert preset_options("print-shop").cards_per_page == 1
    args = build_parser().parse_args(["build", "x.yaml", "--preset", "print-shop", "--cards-per-page", "2"])
    assert preset_options("print-shop", cards_per_page=args.cards_per_page).cards_per_page == 2
    assert build_parser().parse_args(["build", "x.yaml"]).cards_per_page is None  # the preset decides
    game = str(data_files()[0].parent / "ferry_point.yaml")
    assert main(["build", "-q", game, "--only", "cards", "--cards-per-page", "1", "--out", str(tmp_path)]) == 0
    pages = pypdf.PdfReader(tmp_path / "ferry_point" / "cards.pdf").pages
    size = cards.single_card_size(BuildOptions())
    assert [(float(p.mediabox.width), float(p.mediabox.height)) for p in pages] == [pytest.approx(size)] * len(pages)
    assert "/TrimBox" not in pages[0]  # no --print-marks: the page is the trim


def test_a_bad_cards_per_page_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["build", "x.yaml", "--cards-per-page", "3"])
    assert e.value.code == 2
    assert "--cards-per-page: invalid choice: 3" in capsys.readouterr().err
