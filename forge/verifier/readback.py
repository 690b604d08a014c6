"""Printed round trip: build the reference cards, the counter sheets and the map in memory, read every page's
text back, compare with the engine.

What a player reads must be what the engine computes with: every CRT cell (section by section, and the
secondary dice), every other table's cells, every column shift's size, every terrain's movement cost and combat
shift, and every turn's reinforcements.  The PDF is read back in drawing order (a table is drawn header first,
then row by row, cell by cell), with white space removed, so the check does not depend on where things sit on
the page; a row that is not printed as the data says is then located cell by cell.

A value printed differently is an error (``print-mismatch``); something the engine uses that cannot be found in
the printed text at all is a warning (``print-missing``).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import model as m
from ..errors import Finding

if TYPE_CHECKING:
    from ..canvas import Box, Recorder
    from ..templates import Templates

WINDOW = 400
"""How far past the previous row a row may start: room for a page break with a repeated header."""


def _norm(text: str) -> str:
    return "".join(str(text).split())


def printed_text(pdf: bytes) -> str:
    """All text of the PDF in drawing order, white space removed.

    pdfium's text page keeps the characters in content-stream order, so this is the order the cards were drawn
    in (the spaces and line breaks it infers go with the rest of the white space).  pypdf gave the same text on
    every card of data/ and tests/data/, at ten to twenty times the cost, plus its import."""
    from ..pdftext import document

    parts: list[str] = []
    with document(pdf) as doc:
        for index in range(doc.count):
            with doc.page(index) as tp:
                parts.append(tp.text())
    return _norm("".join(parts))


def _num(v: object) -> str:
    if isinstance(v, m.Unknown):
        return "?"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


class _Check:
    def __init__(self, text: str, what: str = "cards.pdf") -> None:
        self.text = text
        self.what = what
        self.findings: list[Finding] = []

    def mismatch(self, rule: str | None, where: str, printed: str, engine: str, ref: str) -> None:
        self.findings.append(
            Finding(
                "print-mismatch",
                rule,
                f"{self.what}: {where} is printed {printed!r} but the engine uses {engine!r}",
                stated=printed,
                computed=engine,
                ref=ref,
            )
        )

    def missing(self, rule: str | None, where: str, ref: str) -> None:
        self.findings.append(
            Finding("print-missing", rule, f"{self.what}: {where} is not in the printed text", ref=ref)
        )

    def grid(
        self,
        columns: Sequence[str],
        rows: Sequence[str],
        cells: object,
        *,
        name: str,
        rule: str | None,
        ref: str,
        start: int = 0,
        title: str | None = None,
        row_header: str = "",
        write_in: bool = False,
    ) -> int:
        """Check a table printed title, header, then each row as its label and cells; return where it ends.
        ``write_in``: an unknown cell (``?``) is printed empty, a box to write the value in (the CRT's cells)."""
        if not isinstance(cells, list):
            return start
        text = self.text
        if title:
            t = text.find(_norm(title), start)
            if t < 0:
                self.missing(rule, f"the {name}'s title", ref)
                return start
            start = t + len(_norm(title))
        head = _norm(row_header + "".join(columns))
        at = text.find(head, start)
        if at < 0:
            self.missing(rule, f"the {name} (headings {' '.join(columns)})", ref)
            return start
        pos = at + len(head)
        def shown(cell: object) -> str:
            return "" if write_in and str(cell).strip() == "?" else str(cell)

        for label, row in zip(rows, cells, strict=True):
            want = _norm(label + "".join(shown(c) for c in row))
            found = text.find(want, pos, pos + len(want) + WINDOW)
            if found >= 0:
                pos = found + len(want)
                continue
            lab = text.find(_norm(label), pos, pos + WINDOW)
            if lab < 0:
                self.missing(rule, f"{name} row {label}", ref)
                continue
            p = lab + len(_norm(label))
            for col, cell in zip(columns, row, strict=True):
                c = _norm(shown(cell))
                if text.startswith(c, p):
                    p += len(c)
                    continue
                self.mismatch(rule, f"{name} row {label}, column {col}", text[p : p + max(len(c), 3)], str(cell), ref)
                break
            pos = p
        return pos


def check_cards(game: m.Game, pdf: bytes) -> list[Finding]:
    """Everything the reference cards print that the engine also uses."""
    chk = _Check(printed_text(pdf))
    crt = game.combat.crt
    if crt is not None:
        if isinstance(crt.cells, dict) and crt.sections:
            pos = 0
            pos = max(chk.text.find(_norm(crt.title)), 0)
            for section in crt.sections:
                pos = chk.grid(
                    crt.columns,
                    crt.rows,
                    crt.cells.get(section),
                    name=f"CRT ({section})",
                    rule=crt.rule,
                    ref="combat.crt",
                    start=pos,
                    write_in=True,
                )
        else:
            pos = chk.grid(
                crt.columns,
                crt.rows,
                crt.cells,
                name="CRT",
                rule=crt.rule,
                ref="combat.crt",
                title=crt.title,
                write_in=True,
            )
            if crt.secondary is not None:
                chk.grid(
                    crt.columns,
                    crt.secondary.rows,
                    crt.secondary.cells,
                    name="secondary dice",
                    rule=crt.rule,
                    ref="combat.crt.secondary",
                    start=pos,
                    write_in=True,
                )
        _all_out(chk, game, crt)
    for t in game.tables:
        chk.grid(
            t.columns,
            [r.label for r in t.rows],
            [r.cells for r in t.rows],
            name=f"table {t.title!r}",
            rule=t.rule,
            ref=f"tables.{t.id}",
            title=t.title,
            row_header=t.row_header,
            write_in=True,
        )
    _shifts(chk, game)
    _limits(chk, game)
    _terrain(chk, game)
    _turns(chk, game)
    return chk.findings


def _all_out(chk: _Check, game: m.Game, crt: m.Crt) -> None:
    """The CRT legend's sentence of ``combat.crt.all_out`` (which attacker flips, the crowded hex), word for word:
    the engine applies it, so a player must read it."""
    import re
    from ..markup import unescape

    from ..render.cards.combat import all_out_sentence

    sentence = all_out_sentence(game, crt)
    if sentence is None or crt.all_out is None:
        return
    if _norm(unescape(re.sub(r"<[^>]+>", "", sentence))) not in chk.text:
        chk.missing(crt.all_out.rule, "the all-out rule under the CRT", "combat.crt.all_out")


def _shifts(chk: _Check, game: m.Game) -> None:
    for sh in game.combat.shifts:
        when = _norm(sh.when)
        at = chk.text.find(when)
        if at < 0:
            chk.missing(sh.rule, f"the shift {sh.id!r} ({sh.when})", f"combat.shifts.{sh.id}")
            continue
        want = f"{abs(sh.shift)}{'R' if sh.shift > 0 else 'L'}" if sh.shift else "0"
        before = chk.text[max(0, at - 6) : at]
        if want not in before:
            chk.mismatch(sh.rule, f"the shift {sh.id!r} ({sh.when})", before, want, f"combat.shifts.{sh.id}")


def _limits(chk: _Check, game: m.Game) -> None:
    """Each limit's row of the limits table: its words, then the count the engine checks examples against."""
    from ..render.cards.limits import limit_rows

    rows = limit_rows(game)
    if not rows:
        return
    start = chk.text.find(_norm("Limits"))
    if start < 0:
        chk.missing(None, "the limits table", "rules.limits")
        return
    lim = game.rules.limits
    for x, (what, side, bound, per, _rule) in zip(lim.counts if lim else [], rows, strict=True):
        at = chk.text.find(_norm(what), start)
        if at < 0:
            chk.missing(x.rule, f"the limit {what!r}", f"rules.limits.{x.id}")
            continue
        p = at + len(_norm(what)) + len(_norm(side))
        want = _norm(bound + per)
        if not chk.text.startswith(want, p):
            chk.mismatch(x.rule, f"the limit {what!r}", chk.text[p : p + len(want)], bound, f"rules.limits.{x.id}")


_KIND_WORDS = ("feature", "hexside", "path", "inhex")


def _terrain(chk: _Check, game: m.Game) -> None:
    start = chk.text.find(_norm("Terrain effects"))
    if start < 0:
        if game.terrain:
            chk.missing(None, "the terrain effects chart", "terrain")
        return
    names = [(tid, t, _norm(t.name)) for tid, t in game.terrain.items()]
    pos = start
    for i, (tid, t, name) in enumerate(names):
        at = chk.text.find(name, pos)
        if at < 0:
            chk.missing(t.rule, f"terrain {t.name!r}", f"terrain.{tid}")
            continue
        p = at + len(name)
        for word in _KIND_WORDS:
            if chk.text.startswith(word, p):
                p += len(word)
        nxt = chk.text.find(names[i + 1][2], p) if i + 1 < len(names) else -1
        row = chk.text[p : nxt if nxt > 0 else p + 600]
        classes = game.game.mobility_classes
        costs = t.costs
        order = [*classes, *[k for k in costs if k not in classes]]
        want = (
            "".join(
                _num(costs[c]) if len(classes) == 1 and c == classes[0] else f"{c}:{_num(costs[c])}"
                for c in order
                if c in costs
            )
            or ("\u2014" if t.movement == "none" else "?")
        )
        if not row.startswith(want):
            chk.mismatch(t.rule, f"terrain {t.name!r} movement cost", row[: len(want) + 3], want, f"terrain.{tid}")
        shift = t.combat.shift
        words = f"{abs(shift)}column{'s' if abs(shift) != 1 else ''}{'left' if shift < 0 else 'right'}"
        if shift and words not in row:
            chk.mismatch(t.rule, f"terrain {t.name!r} combat shift", "-", words, f"terrain.{tid}")
        pos = p


def _turns(chk: _Check, game: m.Game) -> None:
    """Each turn's row of the turn record lists exactly the units whose entry turn it is."""
    reinf = game.reinforcements()
    if not reinf:
        return
    at = chk.text.find(_norm("Turn record"))
    if at < 0:
        chk.missing(game.turns.rule, "the turn record", "turns")
        return
    turns = game.turns.turns
    # Split the record at each turn number in order; a turn's stretch must name its own arrivals and no others.
    pos = chk.text.find("Reinforcements", at)
    bounds: list[tuple[int, int]] = []
    for t in turns:
        k = chk.text.find(str(t.number), pos)
        if k < 0:
            chk.missing(game.turns.rule, f"turn {t.number} in the turn record", "turns")
            return
        bounds.append((t.number, k))
        pos = k + len(str(t.number))
    end = chk.text.find("*", pos) if any(u.entry and u.entry.condition for us in reinf.values() for u in us) else -1
    end = end if end > 0 else pos + WINDOW
    for i, (n, k) in enumerate(bounds):
        stretch = chk.text[k + len(str(n)) : bounds[i + 1][1] if i + 1 < len(bounds) else end]
        want = sorted(_norm(u.label) for u in reinf.get(n, []))
        for lab in want:
            if lab not in stretch:
                chk.mismatch(game.turns.rule, f"turn {n} reinforcements", stretch[:40] or "-", ", ".join(want), "turns")
                break


@dataclass(frozen=True)
class _Text:
    x: float
    y: float
    size: float
    text: str


def _positioned(pdf: bytes, only: tuple[int, dict[int, list[Box]]] | None = None) -> list[list[_Text]]:
    """Text runs of every page, page by page, with their left edge, top (points, y up) and height.  With ``only``
    (the document's page count, and per page wanted the boxes, y down, where the runs sought were drawn), the other
    pages' runs are left empty and a wanted page's runs are read only near those boxes -- unless the count is not
    the document's, when every page is read whole.

    pdfium, not pypdf: a map page re-draws its terrain tiles hundreds of times and pypdf re-parses each one
    (0.7 s for Hell's Gate); pdfium reads a page's text in a few milliseconds.  ``size`` is the run's height,
    which tells the track's large turn numbers from the small unit labels.  A tile of a large map holds the whole
    sheet's text, clipped (30,000 runs for a 300 x 100 map): reading every run's text there took minutes."""
    from ..pdftext import document

    pages: list[list[_Text]] = []
    with document(pdf) as doc:
        wanted = only[1] if only is not None and only[0] == doc.count else None
        for index in range(doc.count):
            near = None
            if wanted is not None:
                if index not in wanted:
                    pages.append([])
                    continue
                near = wanted[index]
            out = []
            with doc.page(index) as tp:
                height = tp.height
                for left, bottom, right, top in tp.rects():
                    if near is not None and not any(
                        left <= b.x1 + _NEAR and right >= b.x0 - _NEAR and height - bottom >= b.y0 - _NEAR
                        and height - top <= b.y1 + _NEAR
                        for b in near
                    ):
                        continue
                    text = tp.bounded(left, bottom, right, top).strip()
                    if text:
                        out.append(_Text(left, top, top - bottom, text))
            pages.append(out)
    return pages


_NEAR = 3.0
"""Points between a text's recorded box and pdfium's rectangle of it that still count as the same place."""


def _track_on_page(texts: list[_Text], wanted: set[str], labels: set[str]) -> dict[str, list[str]]:
    """The turn boxes found on one page (turn number -> the unit labels standing in its box).

    A box is found by its turn number (the large numbers of the track); a unit label belongs to the nearest box
    above it and to its left, which is how a player reads the track.  Only the turns whose number is on this page
    are returned."""
    numbers: dict[str, _Text] = {}
    for t in texts:
        if t.text in wanted and t.size >= 7 and (t.text not in numbers or t.size > numbers[t.text].size):
            numbers[t.text] = t
    if not numbers:
        return {}
    nums = list(numbers.values())
    ys = sorted((n.y for n in nums), reverse=True)
    xs = sorted(n.x for n in nums)
    # Box pitch: the smallest gap between distinct rows / columns (numbers in one row differ by a fraction).
    row = min((d for a, b in itertools.pairwise(ys) if (d := a - b) > 3), default=120.0)
    col = min((d for a, b in itertools.pairwise(xs) if (d := b - a) > 3), default=200.0)
    found: dict[str, list[str]] = {k: [] for k in numbers}
    for t in texts:
        if t.text not in labels or t.size >= 7:
            continue
        if not (xs[0] - 5 <= t.x <= xs[-1] + col and ys[-1] - row <= t.y <= ys[0]):
            continue
        above = [n for n in nums if n.x - 5 <= t.x and n.y > t.y]
        if above:
            gap = min(n.y - t.y for n in above)  # the nearest row of boxes above the label ...
            row_nums = [n for n in above if n.y - t.y <= gap + 3]
            owner = min(row_nums, key=lambda n: t.x - n.x)  # ... and in it, the box the label stands in
            found[owner.text].append(t.text)
    return found


def track_words(game: m.Game) -> set[str]:
    """What the map's turn track prints that its read-back looks for: the turn numbers and the reinforcements'
    labels."""
    reinf = game.reinforcements()
    return {str(t.number) for t in game.turns.turns} | {u.label for us in reinf.values() for u in us}


def check_map_track(
    game: m.Game,
    pdf: bytes,
    drawn: Recorder | None = None,
    *,
    only: tuple[int, dict[int, list[Box]]] | None = None,
) -> list[Finding]:
    """The map's turn track: each turn box holds exactly the reinforcements whose entry is that turn.

    Every page is read: the track may sit on any page, and on a tiled map the same box may be printed on several
    tiles (their overlap).  A turn is read on the first page that prints its number, so that a box repeated on
    the next tile is not counted twice.  Given what the map's drawing recorded (``drawn``, page for page the
    PDF's), only the pages where it placed a turn number or a reinforcement's label are read back: reading the
    text of every tile of a large map was nearly all of ``forge verify``'s time (issue 25, item 31).  ``only``
    gives those places directly (the page count, and per page the boxes of :func:`track_words`' texts), as a
    recorder that drops each page's records after it is checked collects them."""
    chk = _Check("", "map.pdf")
    reinf = game.reinforcements()
    if not reinf:
        return []
    wanted = {str(t.number) for t in game.turns.turns}
    labels = {u.label for us in reinf.values() for u in us}
    found: dict[str, list[str]] = {}
    if drawn is not None:
        words = wanted | labels
        near: dict[int, list[Box]] = {}
        for it in drawn.items:
            if it.kind == "text" and it.label in words:
                near.setdefault(it.page, []).append(it.box)
        only = (len(drawn.pages), near)
    for texts in _positioned(pdf, only):
        for number, units in _track_on_page(texts, wanted, labels).items():
            found.setdefault(number, units)
    if set(found) != wanted:
        missing = sorted(wanted - set(found), key=int)
        chk.missing(game.turns.rule, f"the turn track's turn numbers ({', '.join(missing)})", "turns")
        return chk.findings
    for turn in game.turns.turns:
        want = sorted(u.label for u in reinf.get(turn.number, []))
        got = sorted(found[str(turn.number)])
        if got != want:
            chk.mismatch(
                game.turns.rule,
                f"turn {turn.number} on the turn track",
                ", ".join(got) or "-",
                ", ".join(want) or "-",
                "turns",
            )
    return chk.findings


def check_counters(game: m.Game, pdf: bytes) -> list[Finding]:
    """Every unit's counter prints its label with its full strength on a front page and, for a unit of several
    steps, its reduced strength on a back page.  Strengths the rulebook does not give (``?``) have nothing to
    compare.  The text runs of a counter are drawn together, so a strength is looked for among the few runs
    after its label."""
    chk = _Check("", "counters.pdf")
    fronts: list[str] = []
    backs: list[str] = []
    for texts in _positioned(pdf):
        runs = [t.text for t in texts]
        heading = " ".join(runs[:1])
        if "FRONTS" in heading:
            fronts += runs
        elif "BACKS" in heading:
            backs += runs

    def near(runs: list[str], label: str, value: str, parts: int = 1) -> str | None:
        """ "" when the value follows the label; what follows it instead; None when the label is not printed.
        A value printed in ``parts`` runs of colour is looked for as that many runs in a row."""
        at = [i for i, r in enumerate(runs) if r == label]
        if not at:
            return None
        if any(value in runs[i + 1 : i + 1 + 4] for i in at):
            return ""
        if parts > 1 and any(value == "".join(runs[j : j + parts]) for i in at for j in range(i + 1, i + 1 + 4)):
            return ""
        return " ".join(runs[at[0] + 1 : at[0] + 1 + 3]) or "-"

    for u in game.units:
        for face, runs, step in (("front", fronts, 0), ("back", backs, 1)):
            if step >= len(u.steps) or "?" in u.steps[step]:
                continue
            try:
                values = u.strengths()[step]
                printed, parts = values.plain(), len(values.runs())
            except ValueError:
                printed, parts = u.steps[step], 1
            hit = near(runs, u.label, printed, parts)
            if hit is None:
                chk.missing(None, f"the {face} of {u.name} ({u.label})", f"units.{u.id}")
            elif hit:
                chk.mismatch(None, f"the {face} of {u.name} ({u.label})", hit, printed, f"units.{u.id}")
    return chk.findings


def roundtrip(game: m.Game, *, templates: Templates | None = None) -> list[Finding]:
    """Build the cards, the counter sheets and the map in memory and check what they print against the data the
    engine uses; check the layout of all three as they are drawn (:mod:`forge.layout`: ``print-layout``).

    The map is built on one tabloid or A3 sheet when it fits, else tiled on Letter; every page is read.  Drawn with
    the layout ``templates`` (``forge verify --templates``, :func:`forge.templates.load`; None: the shipped ones),
    as ``forge build --templates`` draws them."""
    from ..canvas import text_only
    from ..templates import use

    # The PDFs are read back for their text alone: their shapes are recorded for forge.layout, not painted
    # (their operators were a tenth of verify's work, writing them and pdfium parsing them again).
    with use(templates), text_only():
        return _roundtrip(game)


def prepare() -> None:
    """Import what :func:`roundtrip` draws and reads with, register the fonts and load pdfium: what a process
    sets up once and keeps (``forge verify`` does it with the cyclic collector off, :func:`forge.cli.cmd_verify`)."""
    from .. import layout  # noqa: F401
    from ..pdf import register_fonts
    from ..pdftext import library
    from ..render import cards, counters  # noqa: F401
    from ..render import map as map_  # noqa: F401

    register_fonts()
    library()


def _roundtrip(game: m.Game) -> list[Finding]:
    from ..builder import BuildOptions
    from ..render import cards

    from ..render import counters

    from .. import layout as layout_check
    from ..canvas import Recorder
    from ..pdf import uncompressed
    from ..render import map as map_
    from ..tiling import fits
    from ..units import paper

    # The PDFs are read back in memory and dropped: their streams are left uncompressed (the same pages, fonts
    # and text, without zlib's time) -- except a tiled map's, whose tiles each hold the whole sheet's drawing:
    # uncompressed, a 1,000 x 100 map's came to 150 MB more at the peak.
    cards_rec = Recorder("cards.pdf")
    with uncompressed():
        cards_pdf = cards.render(game, BuildOptions(only=("cards",)), recorder=cards_rec)
    findings = check_cards(game, cards_pdf)
    counter_rec = Recorder("counters.pdf")
    with uncompressed():
        counters_pdf = counters.render(game, BuildOptions(only=("counters",)), recorder=counter_rec)
    findings += check_counters(game, counters_pdf)
    layout = map_.sheet_layout(game)
    sheet = next((p for p in ("tabloid", "a3") if fits(layout.sheet_w, layout.sheet_h, *paper(p))), "letter")
    # The map's pages are checked as drawn (forge.layout), each when it is done, and its records dropped: a tiled
    # map is held one tile at a time.  The places of the turn track's words are kept for its read-back.
    violations: list[layout_check.Violation] = []
    words = track_words(game)
    near: dict[int, list[Box]] = {}

    def done(rec: Recorder) -> None:
        violations.extend(layout_check.check(rec))
        for it in rec.items:
            if it.kind == "text" and it.label in words:
                near.setdefault(it.page, []).append(it.box)

    map_rec = Recorder("map.pdf", sink=done)
    options = BuildOptions(only=("map",), paper=sheet)
    with contextlib.nullcontext() if sheet == "letter" else uncompressed():
        map_pdf = map_.render(game, options, recorder=map_rec)
    map_rec.close()
    if game.reinforcements():
        if sheet == "letter":
            # Tiled (it fits neither tabloid nor A3): the track is read from the charts drawn alone, as the tiles
            # place them (each tile holds the whole sheet's drawing: too costly to read, see map.charts_pdf).
            with uncompressed():
                charts = map_.charts_pdf(game, options)
            findings += check_map_track(game, charts)
        else:
            findings += check_map_track(game, map_pdf, only=(len(map_rec.pages), near))
    # What the pages place, checked as drawn (forge.layout): text in its frame, no overlaps, marks and margins.
    findings += layout_check.findings(layout_check.check(counter_rec))
    findings += layout_check.findings(violations)
    findings += layout_check.findings(layout_check.check(cards_rec))  # drawn through forge.canvas: as placed
    return findings
