"""Fuzzing of the build options that landed in session 18 and of the data fields it added (hardening).

Three kinds of case, each run in a forked child under bench/fuzz.py's CPU and memory caps:

* an *option* case: ``forge build`` of one game (mostly the small ones: ferry_point, tabletop_hells_gate, the small
  bench kit; one case in eight a larger one) with a random combination of the new options (``--page-bleed``,
  ``--pdfx``, ``--output-intent``, ``--cards-per-page``, ``--calibration-page``, ``--only board``) and the older ones
  (``--preset``, ``--bleed``, ``--print-marks``, ``--tile``, ``--greyscale``, ``--only``, ``--sets``, ``--paper``,
  ``--counter-size``, ``--flip``, ``--back-offset``), some values bad;
* a *hostile* case: a hand-written argument list (bad values of the new options, ``--templates`` on verify and
  export, contradictory options) or a game file whose new fields (``examples[].stated_elsewhere``,
  ``rules.limits.counts[].exempt``, ``rules.movement.exit_mp``, ``special_rules[].activates``,
  ``rules.retreat.allowed_if``) hold wrong types, unknown ids, huge numbers, empty lists or keys no example has,
  run through ``forge check`` and ``forge verify``.

An outcome is ``ok`` (exit 0, every PDF opens in pypdfium2 and pypdf, a PDF/X build has no RGB operator and an
OutputIntent, a print-marks build's every page has BleedBox = TrimBox grown by the page bleed, every board PNG
opens), ``located`` (exit 2, a message naming the option or the file, nothing written), or a defect: ``traceback``,
``hang``, ``slow``, ``oom``, ``unlocated`` (exit 2 with no message naming what was refused), ``written`` (exit 2
with files written), ``status`` (another exit status), ``malformed`` (a PDF or PNG that does not read back or breaks
the rule above), ``nondeterministic`` (a rebuild with the same options gives other bytes; checked on a sample).

Session 19 added (all run with ``--only-new``, in a few minutes):

* ``--outline-text`` and ``--card-size`` (good names and sizes, and bad ones: zero, negative, NaN, huge, units
  missing or mixed, a unicode x, ``--card-size=--``) to the random option cases;
* ``--card-size`` with every name on every seed game and bench kit, with ``--outline-text``, ``--greyscale``,
  ``--preset print-shop``, ``--pdfx``, ``--page-bleed``, ``--only`` subsets and ``--sets``; odd sizes on Ferry Point;
* game files whose markers belong to formations (``markers[].group``): codes very long, unicode or blank, a group on
  a marker of a side with no groups or of no side, a text that needs many lines under its code; checked, built
  (counters and cards, with ``--outline-text``, ``--greyscale``, ``--card-size``) and verified;
* counter templates with ``marker.group_y`` at 0, 1 and between, the label moved, grown or narrowed (at every size
  or one): checked and drawn (bench/fuzz_templates.py's ``run_case``: a layout fault the check let through is
  ``silent``) with Escape and a game of long formation-marker texts, then built with them;
* bench/fuzz.py's structurally mutated games (``--mutated N``) built with ``--outline-text``;
* seed games with one of the model's quantities (``Count``, ``Amount``, ``Positive``: step losses, retreats,
  movement points, supply lengths, limits, the scale) at or past its bound of 10,000, infinite, negative or a yes/no
  (``--quantities N``), checked and verified.

Besides the checks above, a build with ``--outline-text`` must hold no font in any PDF (no font resource, descriptor
or program), one with ``--card-size`` must have every page of cards.pdf trimmed (TrimBox, else MediaBox) to the card,
either way up; and in one case in four (and a third of the --card-size cases) the output folder first holds an
earlier build, which a refusal must leave byte for byte as it was (``written`` otherwise).

Session 25 added a *wording* kind (``--wording N``, run alone with ``--only-wording``): seed games with an id holding
a look-alike character (a Cyrillic letter, a decomposed accent, a fullwidth letter, a capital, a space), a key
followed by a look-alike of ':' (fullwidth, ratio, small colon), a number written with underscores, as a word or as
a fraction, turns numbered out of order, and documents of more than 200,000 values with and without aliases.  Every
refusal, of every kind, is a defect ``worded`` when it is in a library's words (pydantic's "Input should be ...",
a raw pattern, PyYAML's message without the look-alike named, "alias bomb" for a file with no alias), and a wording
case is ``worded`` too when its message does not name what it was made to find (the character's code point, the
underscored value, the ordinal).

Session 26 added an *earlier outputs* kind (``--earlier N``, alone with ``--only-earlier``): 2 to 4 builds of a
small game into one folder, each with other ``--only`` components (``--sets``, ``--preset print-shop``, the board
now and then), the user acting on the folder between them (a file of their own beside the outputs or inside
``images/``, an earlier output edited or deleted).  After each build its manifest (``.hexforge-manifest.json``)
must list exactly the components asked for, as they are on disk, every earlier output not written again must be
gone, and every file of the user's still there byte for byte (an edited earlier output with a ``kept`` note):
``stale`` otherwise.

Run: python bench/fuzz_options.py [--cases N] [--games N] [--mutated N] [--wording N] [--seed S] [--jobs J]
  [--timeout SECONDS] [--large] [--only-hostile] [--only-new] [--only-wording] [--earlier N] [--only-earlier]
  [-v]
  prints one line per defect and a summary table of outcomes; exit 1 when a defect was found.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import yaml
from fuzz import _files, _located, run_cli, run_many, seed_doc, warm_up

from forge.builder import MANIFEST

DATA = ROOT / "data"
KITS = ROOT / "bench" / "kits"
SMALL = [DATA / "ferry_point.yaml", DATA / "tabletop_hells_gate.yaml", KITS / "small.yaml"]
LARGE = [
    DATA / "hells_gate.yaml",
    DATA / "escape_from_hells_gate.yaml",
    DATA / "first_panzer_army.yaml",
    DATA / "ukraine_43.yaml",
    KITS / "large.yaml",
]
MM = 72 / 25.4
COLOUR_OPS = {b"rg", b"RG", b"k", b"K", b"g", b"G", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"}

GOOD_BLEEDS = ["3mm", "1/8in", "1mm", "1/2in", "6mm", "9pt", "0.125in", "2mm"]
BAD_BLEEDS = ["0", "3", "-3mm", "0mm", "0.9mm", "0.6in", "1e308in", "nanmm", "infmm", "1/0in", "", "3 mm", "\u0663mm"]
BAD_OFFSETS = ["1/0in,0", "nan,0", "6,0", "a,b", "1mm,2mm,3mm"]
GOOD_CARD_SIZES = [
    "poker",
    "tarot",
    "jumbo",
    "JUMBO",
    " tarot ",
    "70x120mm",
    "3.5x5.5in",
    "3.5inx5.5in",
    "5.5x3.5in",
    "4x6in",
    "14x14in",
    "6x4in",
    "100x150mm",
    "3.5\u00d75.5in",
    "252x396pt",
    "8.5x11in",
    "5x5in",
]
BAD_CARD_SIZES = [
    "0x0in",
    "0x5in",
    "-3x-4in",
    "nanxnanin",
    "infx3in",
    "1e308x1e308in",
    "1e-400x3in",
    "3/0x4in",
    "x",
    "",
    "--",
    "3x",
    "x3in",
    "3x4",
    "3x4x5in",
    "3.5\u2715 5.5in",
    "1x1in",
    "15x3in",
    "2.5x3.5",
    "poker2",
    "\u0663x\u0665in",
    "63xinfmm",
    "63mmx88",
    "3 in x 5 in",
    "2.5x3.5in,",
    "1.5x1.5in",
    "2x3.5cm",
]


def option_argv(rng: random.Random) -> list[str]:
    """A random combination of build options: mostly good values, one bad value in about one case in six."""
    from forge.builder import COMPONENTS
    from forge.units import COUNTER_SIZES, PAPER

    bad = rng.random() < 0.16
    argv: list[str] = []

    def maybe(p: float) -> bool:
        return rng.random() < p

    if maybe(0.5):
        argv += ["--preset", rng.choice(["home", "print-shop", "greyscale-laser"])]
    if maybe(0.6):
        argv += ["--only", ",".join(rng.sample(list(COMPONENTS), rng.randint(1, 3)))]
    for flag, p in (
        ("pdfx", 0.35),
        ("print-marks", 0.4),
        ("tile", 0.35),
        ("bleed", 0.25),
        ("greyscale", 0.25),
        ("calibration-page", 0.3),
    ):
        if maybe(p):
            argv.append(f"--{flag}" if maybe(0.6) else f"--no-{flag}")
    if maybe(0.35):
        argv += ["--page-bleed", rng.choice(BAD_BLEEDS if bad and maybe(0.5) else GOOD_BLEEDS)]
    if maybe(0.25):
        argv += ["--output-intent", rng.choice(["fogra39", "gracol"] + (["FOGRA39", "swop"] if bad else []))]
    if maybe(0.3):
        argv += ["--cards-per-page", rng.choice(["1", "2"] + (["0", "3", "1.5", "-1"] if bad else []))]
    if maybe(0.3):
        argv += ["--paper", rng.choice(list(PAPER))]
    if maybe(0.25):
        argv += ["--counter-size", rng.choice(list(COUNTER_SIZES))]
    if maybe(0.2):
        argv += ["--flip", rng.choice(["long", "short"])]
    if maybe(0.2):
        argv += ["--back-offset", rng.choice(["0.5,-0.3", "1mm,0", "5,-5"] + (BAD_OFFSETS if bad else []))]
    if maybe(0.15):
        argv += ["--sets", rng.choice(["1", "2", "3"] + (["0", "201"] if bad else []))]
    if maybe(0.1):
        argv += ["--templates", str(ROOT / "templates")]  # the shipped ones, read as a user's folder
    if maybe(0.4):
        argv.append("--outline-text" if maybe(0.8) else "--no-outline-text")
    if maybe(0.35):
        sizes = BAD_CARD_SIZES if bad and maybe(0.5) else GOOD_CARD_SIZES
        size = rng.choice(sizes)
        argv += [f"--card-size={size}"] if maybe(0.5) or size.startswith("-") else ["--card-size", size]
    if not bad and maybe(0.7):  # mostly a consistent combination, so that most cases build
        argv = consistent(argv)
    return argv


def consistent(argv: list[str]) -> list[str]:
    """``argv`` with what its options ask of each other added: --print-marks for --page-bleed, --pdfx for
    --output-intent, --no-tile for --pdfx (the last given of a --x / --no-x pair wins)."""
    out = list(argv)
    if "--page-bleed" in out:
        out.append("--print-marks")
    if "--output-intent" in out:
        out.append("--pdfx")
    if "--pdfx" in out or ("--preset" in out and out[out.index("--preset") + 1] == "print-shop"):
        out.append("--no-tile")
    if any(a.startswith("--card-size") for a in out):  # one card a page: drop --cards-per-page, print the cards
        while "--cards-per-page" in out:
            i = out.index("--cards-per-page")
            del out[i : i + 2]
        if "--only" in out and "cards" not in out[out.index("--only") + 1].split(","):
            out[out.index("--only") + 1] += ",cards"
    return out


def expected_bleed(argv: list[str]) -> float | None:
    """The page bleed (points) every page must carry when the build succeeds, or None without print marks."""
    from forge.builder import page_bleed, preset_options
    from forge.cli import build_parser

    ns = build_parser().parse_args(["build", "x.yaml", *argv])
    opts = preset_options(ns.preset, print_marks=ns.print_marks, page_bleed=ns.page_bleed)
    return page_bleed(opts) if opts.print_marks else None


def pdfx_expected(argv: list[str]) -> bool:
    from forge.builder import preset_options
    from forge.cli import build_parser

    ns = build_parser().parse_args(["build", "x.yaml", *argv])
    return preset_options(ns.preset, pdfx=ns.pdfx).pdfx


def _colour_ops(data: bytes) -> set[bytes]:
    import pypdf

    stream = pypdf.generic.DecodedStreamObject()
    stream.set_data(data)
    return {op for _, op in pypdf.generic.ContentStream(stream, None).operations if op in COLOUR_OPS}


def _streams(reader: Any) -> list[bytes]:
    """Every page's and form XObject's content, decoded."""
    seen: set[int] = set()
    out: list[bytes] = []

    def forms(resources: Any) -> None:
        for ref in ((resources or {}).get("/XObject") or {}).values():
            xobj = ref.get_object()
            if xobj.get("/Subtype") != "/Form" or ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            out.append(xobj.get_data())
            forms(xobj.get("/Resources"))

    for page in reader.pages:
        contents = page.get_contents()
        if contents is not None:
            out.append(contents.get_data())
        forms(page["/Resources"].get_object())
    return out


def _translucency(reader: Any) -> str:
    """What in a PDF is translucent (PDF/X-1a forbids it): an ExtGState with an alpha below 1, a soft mask or a
    blend mode, a transparency group; empty when nothing is."""
    seen: set[int] = set()
    found: list[str] = []

    def walk(resources: Any) -> None:
        if not resources:
            return
        resources = resources.get_object()
        for name, ref in (resources.get("/ExtGState") or {}).items():
            gs = ref.get_object()
            for k in ("/CA", "/ca"):
                if k in gs and float(gs[k]) < 1:
                    found.append(f"{name} {k} {float(gs[k]):g}")
            if gs.get("/SMask", "/None") != "/None" or gs.get("/BM", "/Normal") not in ("/Normal", "/Compatible"):
                found.append(f"{name} soft mask or blend mode")
        for name, ref in (resources.get("/XObject") or {}).items():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            xobj = ref.get_object()
            if "/Group" in xobj or "/SMask" in xobj:
                found.append(f"{name}: a transparency group or soft mask")
            walk(xobj.get("/Resources"))

    for page in reader.pages:
        if "/Group" in page:
            found.append("a page transparency group")
        walk(page.get("/Resources"))
    return "; ".join(found[:3])


def outline_expected(argv: list[str]) -> bool:
    from forge.builder import preset_options
    from forge.cli import build_parser

    ns = build_parser().parse_args(["build", "x.yaml", *argv])
    return preset_options(ns.preset, outline_text=ns.outline_text).outline_text


def card_expected(argv: list[str]) -> tuple[float, float] | None:
    """The trim (points, the shorter side first) of every page of cards.pdf with --card-size, else None."""
    from forge.cli import build_parser
    from forge.render.cards import card_size

    ns = build_parser().parse_args(["build", "x.yaml", *argv])
    if ns.card_size is None:
        return None
    a, b = card_size(ns.card_size)
    return min(a, b), max(a, b)


def _fonts(reader: Any, data: bytes) -> str:
    """What in a PDF is a font (an embedded program, a descriptor, a font resource); empty when nothing is."""
    found = [k.decode() for k in (b"/FontDescriptor", b"/FontFile", b"/Type /Font", b"/Type/Font") if k in data]
    seen: set[int] = set()

    def walk(resources: Any) -> None:
        if not resources:
            return
        resources = resources.get_object()
        fonts = resources.get("/Font")
        if fonts is not None and len(fonts.get_object()):
            found.append(f"font resources {sorted(fonts.get_object())[:3]}")
        for ref in (resources.get("/XObject") or {}).values():
            if ref.idnum not in seen:
                seen.add(ref.idnum)
                walk(ref.get_object().get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return "; ".join(found[:3])


def check_outputs(
    folder: Path,
    bleed: float | None,
    pdfx: bool,
    outline: bool = False,
    card: tuple[float, float] | None = None,
    skip: frozenset[str] = frozenset(),
) -> list[str]:
    """What is wrong with the files of a successful build (empty: nothing): besides the rules of
    :mod:`bench.fuzz_options`' docstring, with ``outline`` a font in any PDF, with ``card`` a page of cards.pdf
    whose TrimBox (its MediaBox without print marks) is not the card."""
    import pypdf
    import pypdfium2 as pdfium
    from PIL import Image

    problems: list[str] = []
    for pdf in sorted(folder.rglob("*.pdf")):
        name = str(pdf.relative_to(folder))
        if name in skip:
            continue
        data = pdf.read_bytes()
        try:
            doc = pdfium.PdfDocument(data)
            n = len(doc)
            if n == 0:
                problems.append(f"{name}: no pages")
            doc[0].render(scale=0.05).to_pil()
            doc.close()
        except pdfium.PdfiumError as e:
            problems.append(f"{name}: pdfium: {e}")
            continue
        try:
            reader = pypdf.PdfReader(io.BytesIO(data), strict=True)
            pages = list(reader.pages)
        except pypdf.errors.PyPdfError as e:
            problems.append(f"{name}: pypdf: {e}")
            continue
        if len(pages) != n:
            problems.append(f"{name}: pdfium reads {n} pages, pypdf {len(pages)}")
        if outline and (fonts := _fonts(reader, data)):
            problems.append(f"{name}: --outline-text, but {fonts}")
        if card is not None and pdf.name == "cards.pdf":
            for i, page in enumerate(pages):
                box: Any = page.get("/TrimBox") or page.mediabox
                x0, y0, x1, y1 = [float(v) for v in box]
                got = (min(x1 - x0, y1 - y0), max(x1 - x0, y1 - y0))
                if abs(got[0] - card[0]) > 0.01 or abs(got[1] - card[1]) > 0.01:
                    problems.append(f"{name} page {i + 1}: trim {got[0]:.2f} x {got[1]:.2f} pt, not the card's {card}")
                    break
        if bleed is not None:
            for i, page in enumerate(pages):
                if "/TrimBox" not in page or "/BleedBox" not in page:
                    problems.append(f"{name} page {i + 1}: no TrimBox or BleedBox")
                    break
                trim: Any = page["/TrimBox"]
                bbox: Any = page["/BleedBox"]
                t, b = [float(v) for v in trim], [float(v) for v in bbox]
                widths = [t[0] - b[0], t[1] - b[1], b[2] - t[2], b[3] - t[3]]
                if any(abs(w - bleed) > 0.001 for w in widths):
                    problems.append(f"{name} page {i + 1}: BleedBox is TrimBox grown by {widths}, not {bleed:.3f}")
                    break
        if pdfx:
            try:
                root: Any = reader.trailer["/Root"]
                intents = root["/OutputIntents"]
                ok = len(intents) == 1 and intents[0].get_object()["/S"] == "/GTS_PDFX"
            except KeyError:
                ok = False
            if not ok:
                problems.append(f"{name}: PDF/X without a GTS_PDFX OutputIntent")
            ops: set[bytes] = set()
            for s in _streams(reader):
                ops |= _colour_ops(s)
            if translucent := _translucency(reader):
                problems.append(f"{name}: PDF/X with transparency: {translucent}")
            if not ops <= {b"k", b"K", b"g", b"G"}:
                problems.append(f"{name}: PDF/X with colour operators {sorted(ops)}")
    for png in sorted(p for p in folder.rglob("*.png") if str(p.relative_to(folder)) not in skip):
        try:
            with Image.open(png) as im:
                im.load()
        except OSError as e:
            problems.append(f"{png.relative_to(folder)}: {e}")
    return problems


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def _stamp(p: Path) -> tuple[int, int]:
    """A file's inode and modification time: a build replaces a file by renaming a new one onto it."""
    st = p.stat()
    return st.st_ino, st.st_mtime_ns


def classify_build(argv: list[str], workdir: Path, *, rebuild: bool = False, prefill: bool = False) -> dict[str, Any]:
    """Run ``forge build ARGV --out workdir/out -q`` and classify what it did.  With ``prefill``, the output folder
    holds a build of the same game's cards first: a refusal must leave it as it was (same files, same bytes)."""
    out = workdir / "out"
    full = ["build", *argv, "--out", str(out), "-q"]
    before = None
    kept: dict[str, bytes] = {}
    stamps: dict[str, tuple[int, int]] = {}
    if prefill:
        games = [a for a in argv if a.endswith(".yaml")]
        if games and run_cli(["build", *games, "--only", "cards", "--out", str(out), "-q"]).status == 0:
            before = _digest(out)
            kept = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}
            stamps = {k: _stamp(out / k) for k in kept}
    o = run_cli(full, None if before else out)
    res: dict[str, Any] = {"argv": argv, "status": o.status, "stderr": o.stderr[-600:]}
    if before and o.status == 2 and not o.crash and _digest(out) != before:
        return {**res, "outcome": "written", "why": f"exit 2, but the files already in {out.name}/ changed"}
    if o.crash:
        kind = "traceback" if "Traceback" in o.stderr else "written" if "written" in o.crash else "unlocated"
        if "exit status" in o.crash:
            kind = "status"
        return {**res, "outcome": kind, "why": o.crash}
    if o.status == 2:
        if not _located(o.stderr, full):
            return {**res, "outcome": "unlocated", "why": o.stderr.strip()[:300]}
        lines = [ln for ln in o.stderr.strip().splitlines() if ln.strip()]
        return {**res, "outcome": "located", "why": lines[-1][:200] if lines else ""}
    if o.status != 0:
        return {**res, "outcome": "status", "why": f"exit {o.status}"}
    left = sorted(f for f in _files(out) if f.endswith(".tmp") or ("/." in f and not f.endswith("/" + MANIFEST)))
    if left:
        return {**res, "outcome": "malformed", "why": f"temporaries left: {left[:3]}"}
    game_args = [a for a in argv if a.endswith(".yaml")]
    try:
        opts = [a for a in argv if a not in game_args]
        bleed, pdfx = expected_bleed(opts), pdfx_expected(opts)
        outline, card = outline_expected(opts), card_expected(opts)
    except SystemExit:
        return {**res, "outcome": "malformed", "why": "built, but the options do not parse"}
    same = frozenset(k for k, v in kept.items() if (out / k).is_file() and (out / k).read_bytes() == v)
    if not {k for k in _files(out) if _stamp(out / k) != stamps.get(k)}:  # a build writes (replaces) its files
        return {**res, "outcome": "malformed", "why": "exit 0, but no file written"}
    problems = check_outputs(out, bleed, pdfx, outline, card, skip=same)  # not what the prefill left untouched
    if problems:
        return {**res, "outcome": "malformed", "why": "; ".join(problems[:4])}
    if rebuild:
        first = _digest(out)
        o2 = run_cli(full, out)
        if o2.status != 0 or _digest(out) != first:
            return {**res, "outcome": "nondeterministic", "why": "a rebuild gave other bytes"}
    return {**res, "outcome": "ok", "why": ""}


def classify_cli(argv: list[str], workdir: Path, out_option: bool = True) -> dict[str, Any]:
    """Any forge command (verify, export, check): exit 0/1 fine, 2 must be located, nothing else."""
    out = workdir / "out"
    full = [a.replace("{w}", str(workdir)) for a in argv]
    o = run_cli(full, out if out_option else None)
    res: dict[str, Any] = {"argv": argv, "status": o.status, "stderr": o.stderr[-600:]}
    if o.crash:
        return {**res, "outcome": "traceback" if "Traceback" in o.stderr else "unlocated", "why": o.crash}
    if o.status == 2 and not _located(o.stderr, full) and not _located_in_file(o.stderr):
        return {**res, "outcome": "unlocated", "why": o.stderr.strip()[:300]}
    if o.status == 2 and (words := library_words(o.stderr)):
        return {**res, "outcome": "worded", "why": f"{words!r} in {o.stderr.strip()[:300]}"}
    return {**res, "outcome": "located" if o.status == 2 else "ok", "why": o.stderr.strip().splitlines()[-1:]}


LIBRARY_WORDS = (
    "Input should",
    "String should",
    "List should",
    "Dictionary should",
    "should match pattern",
    "unable to parse",
    "[type=",
    "Value error,",
    "^[a-z0-9]",
)
"""Phrases only a library writes (pydantic's messages, a raw pattern): a refusal must be in the format's words."""


def library_words(stderr: str) -> str:
    """The first library phrase in ``stderr``; empty when there is none."""
    return next((w for w in LIBRARY_WORDS if w in stderr), "")


def _located_in_file(stderr: str) -> bool:
    """A game-file problem located as ``file:line:col: path: message``."""
    import re

    return bool(re.search(r"\.yaml:\d+(:\d+)?: ", stderr))


# ------------------------------------------------------------------------------------------------ hostile cases
def hostile_options() -> list[list[str]]:
    """Hand-written build argument lists (the game file first)."""
    fp = str(DATA / "ferry_point.yaml")
    tt = str(DATA / "tabletop_hells_gate.yaml")
    kit = str(KITS / "small.yaml")
    cases: list[list[str]] = []
    for b in [*BAD_BLEEDS, "1e-400in", "\u00bdin", "3mm,3mm", "--", "-1/8in"]:
        cases.append([fp, "--preset", "print-shop", f"--page-bleed={b}"])
    cases += [
        [fp, "--page-bleed", "3mm"],  # no print marks
        [fp, "--preset", "print-shop", "--no-print-marks", "--page-bleed", "3mm"],
        [fp, "--output-intent", "gracol"],  # no --pdfx
        [fp, "--preset", "print-shop", "--no-pdfx", "--output-intent", "gracol"],
        [fp, "--pdfx"],  # tiled map
        [fp, "--pdfx", "--only", "handout"],
        [fp, "--pdfx", "--tile", "--only", "board"],
        [fp, "--pdfx", "--tile", "--only", "counters,cards,images"],
        [fp, "--preset", "print-shop", "--tile"],
        [fp, "--preset", "print-shop", "--output-intent", "gracol", "--greyscale"],
        [fp, "--pdfx", "--no-tile", "--greyscale", "--only", "map,counters,cards,handout"],
        [fp, "--cards-per-page", "0"],
        [fp, "--cards-per-page", "\u0661"],  # an Arabic-Indic one: int() takes it
        [fp, "--cards-per-page", "1", "--only", "cards", "--paper", "a3"],
        [fp, "--cards-per-page", "1", "--print-marks", "--page-bleed", "1/2in", "--only", "cards"],
        [fp, "--only", "board", "--print-marks", "--page-bleed", "1/2in"],
        [fp, "--only", "board", "--paper", "a3", "--no-tile"],
        [fp, "--only", "board,board"],
        [fp, "--only", "board", "--greyscale", "--pdfx"],
        [tt, "--only", "board", "--print-marks", "--page-bleed", "1/2in", "--counter-size", "1in"],
        [kit, "--only", "board,map", "--preset", "print-shop"],
        [fp, "--no-calibration-page", "--only", "counters", "--back-offset", "5,-5"],
        [fp, "--calibration-page", "--preset", "print-shop", "--only", "counters"],
        [fp, "--no-calibration-page", "--only", "cards"],
        [tt, "--preset", "print-shop", "--only", "handout", "--sets", "3", "--page-bleed", "1/2in"],
        [tt, "--preset", "greyscale-laser", "--pdfx", "--no-tile", "--print-marks", "--only", "map,cards"],
        [kit, "--preset", "print-shop", "--counter-size", "1/2in", "--paper", "a4", "--flip", "short"],
        ["{w}/grid112.yaml", "--preset", "print-shop"],
        ["{w}/grid112.yaml", "--only", "handout", "--no-tile"],
        ["{w}/grid112.yaml", "--only", "map", "--paper", "a3"],  # tiled: fine
        [fp, "--only", "cards", "--templates", "{w}/crt40"],
        [fp, "--preset", "print-shop", "--templates", "{w}/missing"],
        [fp, "--preset", "print-shop", "--templates", "/dev/null"],
        [fp, "--preset", "print-shop", "--templates", str(DATA / "ferry_point.yaml")],
    ]
    return cases


def hostile_commands() -> list[list[str]]:
    """verify and export with --templates."""
    fp = str(DATA / "ferry_point.yaml")
    out: list[list[str]] = []
    folders = ["{w}/missing", "/dev/null", "/dev/zero", fp, "{w}/empty", "", "\x00", "{w}/tpl", "/proc/self/fd/0"]
    for t in [*folders, "{w}/crt40"]:
        out.append(["verify", fp, "--no-print-check", "--templates", t])
        out.append(["verify", fp, "--templates", t])
        out.append(["export", "vassal", fp, "--out", "{w}/out", "--templates", t])
    return out


# ------------------------------------------------------------------- session 19: --outline-text, --card-size, groups
ALL_GAMES = sorted(DATA.glob("*.yaml")) + sorted(KITS.glob("*.yaml"))


def hostile_cards() -> list[list[str]]:
    """--card-size (every name, odd WxH) with --outline-text and the print options, on every seed game and kit."""
    fp, tt = str(DATA / "ferry_point.yaml"), str(DATA / "tabletop_hells_gate.yaml")
    cases: list[list[str]] = []
    for k, game in enumerate(ALL_GAMES):
        for j, name in enumerate(["poker", "tarot", "jumbo"]):
            extra = [["--outline-text"], ["--greyscale", "--outline-text"], ["--preset", "print-shop"]][(j + k) % 3]
            cases.append([str(game), "--only", "cards", "--card-size", name, *extra])
        cases.append([str(game), "--only", "cards,counters", "--card-size=4x6in", "--outline-text", "--print-marks"])
    for size in [
        *GOOD_CARD_SIZES,
        *BAD_CARD_SIZES,
        "-1x3in",
        "1e9x1e9in",
        "0.0001x3in",
        "3x3in\x00",
        "3\u00d7\u00d75in",
    ]:
        cases.append([fp, "--only", "cards", f"--card-size={size}", "--outline-text"])
    cases += [
        [fp, "--card-size", "jumbo", "--cards-per-page", "2"],
        [fp, "--card-size", "jumbo", "--cards-per-page", "1", "--only", "cards"],
        [fp, "--card-size", "jumbo", "--only", "map,counters"],
        [fp, "--card-size", "jumbo", "--only", "board"],
        [fp, "--card-size", "jumbo", "--preset", "print-shop", "--outline-text", "--page-bleed", "1/8in"],
        [
            fp,
            "--card-size",
            "tarot",
            "--pdfx",
            "--no-tile",
            "--outline-text",
            "--greyscale",
            "--output-intent",
            "gracol",
        ],
        [fp, "--card-size", "poker", "--only", "cards", "--templates", "{w}/crt40"],
        [fp, "--card-size", "14x14in", "--only", "cards", "--templates", "{w}/crt40"],
        [fp, "--card-size", "14x1.5in", "--only", "cards"],
        [fp, "--card-size", "jumbo", "--card-size", "poker", "--only", "cards"],
        [tt, "--card-size", "jumbo", "--sets", "2", "--only", "cards,handout", "--outline-text"],
        [tt, "--card-size", "jumbo", "--sets", "2", "--only", "cards"],
        [tt, "--preset", "print-shop", "--card-size", "8.5x11in", "--outline-text", "--only", "cards,images"],
        [tt, "--outline-text", "--no-outline-text", "--only", "cards"],
        [tt, "--outline-text", "--only", "board,map", "--no-tile"],
        [fp, "--outline-text", "--only", "handout", "--sets", "1"],
        [fp, "--outline-text", "--preset", "greyscale-laser", "--paper", "a3", "--counter-size", "3/4in"],
        [fp, "--outline-text", "--pdfx", "--no-tile", "--bleed", "--flip", "short", "--back-offset", "1,-1"],
        [fp, "--outline-text=yes"],
    ]
    return cases


GROUP_CODES = [
    "X" * 100,
    "A" * 40 + " " + "B" * 40 + " " + "C" * 40,
    "\u65e5\u672c\u8a9e",
    "\U0001f600\U0001f468\u200d\U0001f469",
    "\u05e9\u05dc\u05d5\u05dd",
    "e\u0301\u0302\u0303",
    "\u00bd \u2265 \u00d7",
    "5GTC",
    " ",
    "",
    "W",
]
LONG_TEXTS = [
    "Support fire: two columns left, once a turn, only for this corps " * 3,
    "+?",
    "Used",
    "x " * 60,
    "W" * 100,
]


def hostile_group_games() -> list[tuple[str, str, str]]:
    """Game files whose markers belong to formations: very long, unicode or blank codes, a group on a marker of a
    side with no groups or of no side, a text that needs many lines under its code. (name, text, what)."""
    out = []
    for code in GROUP_CODES:
        doc = seed_doc(DATA / "ferry_point.yaml")
        sides = doc["game"]["sides"]
        sides[0]["groups"] = {code: "#8e5ea2", "other": "#ffc58a"}
        for ti, text in enumerate(LONG_TEXTS):
            doc["markers"].append(
                {
                    "id": f"g{ti}",
                    "name": f"m{ti}",
                    "front": text,
                    "back": LONG_TEXTS[-1 - ti],
                    "side": "blue",
                    "group": code,
                    "count": 2,
                }
            )
        out.append(("ferry_point", yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), f"group code {code!r}"))
    for what, marker in (
        ("a group on a marker of a side with no groups", {"side": "red", "group": "A"}),
        ("a group on a marker of no side", {"group": "A"}),
        ("a group of an unknown side", {"side": "green", "group": "A"}),
        ("a group in the wrong case", {"side": "blue", "group": "a"}),
        ("a number as group", {"side": "blue", "group": 5}),
        ("a list as group", {"side": "blue", "group": ["A"]}),
        ("a mapping as group", {"side": "blue", "group": {"A": 1}}),
        ("an empty group", {"side": "blue", "group": ""}),
        ("a null group", {"side": "blue", "group": None}),
        ("a group with an unknown count", {"side": "blue", "group": "A", "count": "unknown"}),
        ("a group with no count", {"side": "blue", "group": "A", "count": 0}),
    ):
        doc = seed_doc(DATA / "ferry_point.yaml")
        doc["game"]["sides"][0]["groups"] = {"A": "#123456"}
        doc["markers"].append({"id": "fz", "name": "fz", "front": "Support fire " * 4, **marker})
        out.append(("ferry_point", yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), what))
    return out


def group_game_job(text: str, argv: list[str]) -> Callable[[Path], Any]:
    """check, then (when it passes) build the counters with ``argv`` and verify."""

    def job(workdir: Path) -> Any:
        game = workdir / "game.yaml"
        game.write_text(text, encoding="utf-8")
        r = classify_cli(["check", "-q", str(game)], workdir, out_option=False)
        if r["outcome"] != "ok" or r["status"] != 0:
            return [r]
        return [
            r,
            classify_build([str(game), *argv], workdir, prefill=True),
            classify_cli(["verify", str(game), "--no-print-check", "--format", "json"], workdir, False),
        ]

    return job


COUNTER_TEMPLATE_EDITS: list[tuple[str, str, str]] = [
    # (what, shipped text, replacement) in templates/counter.yaml
    ("group_y 0", "group_y: 0.25", "group_y: 0"),
    ("group_y 1", "group_y: 0.25", "group_y: 1"),
    ("group_y 0.05", "group_y: 0.25", "group_y: 0.05"),
    ("group_y 0.15", "group_y: 0.25", "group_y: 0.15"),
    ("group_y 0.9", "group_y: 0.25", "group_y: 0.9"),
    ("group_y 1.5", "group_y: 0.25", "group_y: 1.5"),
    ("group_y -0.1", "group_y: 0.25", "group_y: -0.1"),
    ("group_y nan", "group_y: 0.25", "group_y: .nan"),
    ("group_y missing", "group_y: 0.25", ""),
    ("label down", "  bottom: 0.81\n  anchor: start", "  bottom: 0.5\n  anchor: start"),
    ("label at the bottom", "  bottom: 0.81\n  anchor: start", "  bottom: 0.05\n  anchor: start"),
    ("label right", "  x: 0.075\n  bottom: 0.81\n  anchor: start", "  x: 0.93\n  bottom: 0.81\n  anchor: end"),
    ("label large", "  size: 0.17\n  width: 0.85", "  size: 0.45\n  width: 0.85"),
    ("label narrow", "  size: 0.17\n  width: 0.85", "  size: 0.17\n  width: 0.05"),
    ("group_y 0 at 1/2in", "sizes: {}", "sizes: {1/2in: {marker: {group_y: 0}}}"),
    ("group_y 1 at 3/4in", "sizes: {}", "sizes: {3/4in: {marker: {group_y: 1}}}"),
    ("label moved at 5/8in", "sizes: {}", "sizes: {5/8in: {label: {bottom: 0.6}}}"),
    ("marker box small", "  w: 0.85\n  h: 0.85", "  w: 0.85\n  h: 0.3"),
]


def template_job(what: str, text: str) -> Callable[[Path], Any]:
    """A hostile counter template: checked and drawn (fuzz_templates.run_case) with Escape from Hell's Gate and a game
    whose formation markers carry long texts; then built through the command line on the latter."""

    def job(workdir: Path) -> Any:
        import fuzz_templates

        from forge.loader import loads

        groups_text = hostile_group_games()[7][1]  # group "5GTC", long texts
        games = {"escape": seed_game("escape_from_hells_gate"), "groups": loads(groups_text, "groups.yaml")}
        case = fuzz_templates.Case("counter", text, [what])
        outcome, detail = fuzz_templates.run_case(case, workdir / "tpl", games)
        kind = {"refused": "located", "silent": "silent"}.get(outcome, outcome)
        rows = [{"argv": [what], "status": None, "outcome": kind, "why": detail[:400]}]
        game = workdir / "groups.yaml"
        game.write_text(groups_text, encoding="utf-8")
        argv = [str(game), "--only", "counters", "--templates", str(workdir / "tpl"), "--outline-text"]
        rows.append(classify_build(argv, workdir, prefill=True))
        return rows

    return job


def mutated_job(seed: int, i: int) -> Callable[[Path], Any]:
    """bench/fuzz.py's structurally mutated game (unicode, long words, huge numbers ...) built with --outline-text
    (and one case in three --card-size jumbo): check, build, verify must not crash, and the PDFs hold no font."""

    def job(workdir: Path) -> Any:
        import pypdf
        from fuzz import make_case, run_case

        rng = random.Random(f"{seed}:outline:{i}")
        case = make_case(rng)
        case.build_argv = [a for a in case.build_argv if a != "--no-outline-text"] + ["--outline-text"]
        if i % 3 == 0:
            case.build_argv = [a for a in case.build_argv if a not in ("--cards-per-page", "2")]
            case.build_argv += ["--card-size", "jumbo", "--cards-per-page", "1"]
        rows = []
        label = [*case.what, *case.build_argv]
        for o in run_case(case, workdir):
            kind = "ok" if o.crash is None else "traceback" if "Traceback" in (o.stderr + o.crash) else "unlocated"
            if o.crash and "written" in o.crash:
                kind = "written"
            rows.append({"argv": label, "status": o.status, "outcome": kind, "why": o.crash or ""})
            if o.command == "build" and o.status == 0 and o.crash is None:
                for pdf in sorted((workdir / "out").rglob("*.pdf")):
                    data = pdf.read_bytes()
                    if fonts := _fonts(pypdf.PdfReader(io.BytesIO(data)), data):
                        rows.append({"argv": label, "status": 0, "outcome": "malformed", "why": f"{pdf.name}: {fonts}"})
        return rows

    return job


QUANTITY_KEYS = {
    "km_per_hex", "days_per_turn", "attacker_steps", "defender_steps", "defender_retreat", "attacker_retreat",
    "max_attackers_per_hexside", "exit_mp", "max", "trace", "overland", "overland_to_hq", "command_range", "hexes",
    "mp",
}  # fmt: skip
QUANTITY_MAPS = {"replacements", "trace_by_side", "markers"}
QUANTITY_VALUES: list[Any] = [10**30, 2**63, 10_000, 10_001, 9_999.5, "1e400", True, False, -1, -0.5, 0, "unknown"]


def _quantities(doc: Any, path: tuple[Any, ...] = ()) -> Any:
    """The paths of the model's Count, Amount and Positive values in a seed game (by their keys)."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k in QUANTITY_KEYS and isinstance(v, int | float) and not isinstance(v, bool):
                yield (*path, k)
            if k in QUANTITY_MAPS and isinstance(v, dict) and all(isinstance(x, int) for x in v.values()):
                yield from ((*path, k, kk) for kk in v)
            yield from _quantities(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _quantities(v, (*path, i))


def hostile_quantities(n: int, seed: int) -> list[tuple[str, str, str]]:
    """``n`` seed games with one quantity (a step loss, a retreat, movement points, a scale ...) at or past its
    bound, infinite, negative, a yes/no: (name, text, what).  A value the check passes must not hang verify."""
    out = []
    paths = {g: list(_quantities(seed_doc(g))) for g in sorted(DATA.glob("*.yaml"))}
    for i in range(n):
        rng = random.Random(f"{seed}:quantity:{i}")
        game = rng.choice([g for g, ps in paths.items() if ps])
        path, value = rng.choice(paths[game]), rng.choice(QUANTITY_VALUES)
        doc = seed_doc(game)
        node = doc
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
        what = f"{'.'.join(map(str, path))} = {value!r}"
        out.append((game.name, yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), what))
    return out


def seed_game(name: str) -> Any:
    from forge.loader import load

    return load(DATA / f"{name}.yaml")


# Hostile values for the new fields: (where, value), where a path of keys/indices from the document's root; an
# index of "*" means every item; an index "+" appends a new item (a mapping made from the value).
NEW_FIELD_VALUES: list[Any] = [
    None,
    True,
    0,
    -1,
    10**30,
    2**63,
    1e308,
    float("nan"),
    "",
    "unknown",
    [],
    {},
    [None],
    ["nonexistent_counter"],
    {"x": 1},
    "\u202eevil",
    "x" * 5000,
    [[[[[1]]]]],
]


def _examples(doc: Any) -> list[dict[str, Any]]:
    return [e for e in doc.get("examples") or [] if isinstance(e, dict)]


def field_mutations(doc: Any, rng: random.Random) -> tuple[Any, str]:
    """Put a hostile value into one of the new fields of ``doc`` (a seed game as plain data)."""
    v = rng.choice(NEW_FIELD_VALUES)
    site = rng.choice(["stated_elsewhere", "exempt", "exit_mp", "activates", "allowed_if", "given"])
    rules = doc.setdefault("rules", {}) if isinstance(doc.get("rules"), dict) or "rules" not in doc else {}
    if site == "stated_elsewhere" and _examples(doc):
        ex = rng.choice(_examples(doc))
        states = list((ex.get("states") or {}).keys()) if isinstance(ex.get("states"), dict) else []
        key = rng.choice([*states, "no_such_key", "", "\x00"]) if rng.random() < 0.7 else None
        ex["stated_elsewhere"] = v if key is None else {key: v}
        return doc, f"examples[{ex.get('id')}].stated_elsewhere = {str(ex['stated_elsewhere'])[:60]}"
    if site == "exempt":
        lim = rules.setdefault("limits", {}) if isinstance(rules.get("limits", {}), dict) else {}
        counts = lim.get("counts")
        if not isinstance(counts, list) or not counts:
            counts = lim["counts"] = [{"id": "fuzz_limit", "max": 3}]
        item = rng.choice(counts)
        if isinstance(item, dict):
            item["exempt"] = v if rng.random() < 0.6 else [v, v]
        return doc, f"rules.limits.counts[].exempt = {str(v)[:60]}"
    if site == "exit_mp":
        mv = rules.setdefault("movement", {})
        if isinstance(mv, dict):
            mv["exit_mp"] = v
        return doc, f"rules.movement.exit_mp = {str(v)[:60]}"
    if site == "activates":
        srs = doc.get("special_rules")
        if isinstance(srs, list) and srs and isinstance(srs[0], dict):
            rng.choice(srs)["activates"] = rng.choice([v, "unit", "group", "all", "Group"])
        else:
            doc["special_rules"] = [{"rule": "9.9", "name": "fuzz", "activates": v}]
        return doc, f"special_rules[].activates = {str(v)[:60]}"
    if site == "allowed_if":
        rr = rules.setdefault("retreat", {})
        if isinstance(rr, dict):
            rr["allowed_if"] = rng.choice([v, "strength-at-least-losses", "always"])
        return doc, f"rules.retreat.allowed_if = {str(v)[:60]}"
    # given/states values an example may carry for the new claims
    if _examples(doc):
        ex = rng.choice(_examples(doc))
        given = ex.setdefault("given", {}) if isinstance(ex.get("given", {}), dict) else {}
        states = ex.setdefault("states", {}) if isinstance(ex.get("states", {}), dict) else {}
        k = rng.choice(["exempt", "limits", "activated", "allowed_when", "exit_mp"])
        if k in ("exempt", "limits"):
            given[k] = rng.choice(
                [v, {"x": v}, {"x": {"limit": v, "counters": v}}, {"x": {"limit": "nope", "counters": ["a"]}}]
            )
            states.setdefault("x", 1)
        else:
            states[k] = v
        return doc, f"examples[{ex.get('id')}] {k} = {str(v)[:60]}"
    return doc, "no example"


def hostile_games(n: int, seed: int) -> list[tuple[str, str, str]]:
    """``n`` game texts with hostile new-field values: (seed name, text, what)."""
    out = []
    games = [DATA / "ferry_point.yaml", DATA / "tabletop_hells_gate.yaml", DATA / "escape_from_hells_gate.yaml"]
    games += [DATA / "first_panzer_army.yaml", DATA / "hells_gate.yaml", DATA / "ukraine_43.yaml"]
    for i in range(n):
        rng = random.Random(f"{seed}:field:{i}")
        path = rng.choice(games)
        doc = seed_doc(path)
        whats = [path.name]
        for _ in range(rng.choice([1, 1, 2])):
            doc, w = field_mutations(doc, rng)
            whats.append(w)
        out.append((path.name, yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), "; ".join(whats)))
    return out


def game_job(text: str) -> Callable[[Path], Any]:
    def job(workdir: Path) -> Any:
        game = workdir / "game.yaml"
        game.write_text(text, encoding="utf-8")
        r = classify_cli(["check", "-q", str(game)], workdir, out_option=False)
        if r["outcome"] != "ok":
            return [r]
        return [r, classify_cli(["verify", str(game), "--no-print-check", "--format", "json"], workdir, False)]

    return job


# ---------------------------------------------------------------------------------------------- wording (s25)
LOOKALIKE_ID_CHARS = ["\u0435", "\u0430", "\u043e", "\u0440", "\u0301", "\uff46", "\uff11", "E", " x", "\u00e9"]
LOOKALIKE_COLONS = ["\uff1a", "\u2236", "\ufe55", "\ua789"]


def wording_cases(n: int, seed: int) -> list[tuple[str, str, str, str]]:
    """``n`` game texts made to be refused in words the format must give: (seed name, text, what, expected), where
    ``expected`` is a phrase the refusal must hold (empty: only the general rule, no library words)."""
    import re

    games = [DATA / "ferry_point.yaml", DATA / "tabletop_hells_gate.yaml", DATA / "hells_gate.yaml"]
    out = []
    for i in range(n):
        rng = random.Random(f"{seed}:wording:{i}")
        path = rng.choice(games)
        text = path.read_text(encoding="utf-8")
        kind = rng.choice(["id", "id", "colon", "number", "number", "turns", "big"])
        if kind == "id":
            spots = list(re.finditer(r"\bid: ([a-z0-9][a-z0-9_.-]*)", text))
            m = rng.choice(spots)
            ch = rng.choice(LOOKALIKE_ID_CHARS)
            at = rng.randrange(1, len(m[1]) + 1)
            new = m[1][:at] + ch + m[1][at:]
            text = text[: m.start(1)] + f'"{new}"' + text[m.end(1) :]
            code = f"U+{ord(ch.strip()[0]):04X}" if ch.strip() else "U+0020"
            out.append((path.name, text, f"id {m[1]!r} -> {new!r}", code if ch != " x" else "U+0020"))
        elif kind == "colon":
            spots = list(re.finditer(r"(?m)^( +)([a-z_]+): ", text))
            m = rng.choice(spots)
            colon = rng.choice(LOOKALIKE_COLONS)
            text = text[: m.start()] + f"{m[1]}{m[2]}{colon} " + text[m.end() :]
            out.append((path.name, text, f"{m[2]}{colon}", f"U+{ord(colon):04X}"))
        elif kind == "number":
            spots = list(re.finditer(r"\b(columns|rows|number|mp|km_per_hex|days_per_turn): (\d+)\b", text))
            # not an example's given or states values: free-form data the model keeps as written
            spots = [m for m in spots if not re.search(r"(given|states): \{", text[: m.start()].rsplit("\n", 1)[-1])]
            m = rng.choice(spots)
            written = rng.choice(["under", "word", "fraction"])
            value = {"under": "_".join(m[2]) + "_0" if len(m[2]) == 1 else "_".join(m[2]), "word": "twelve"}.get(
                written, f"{m[2]}/2"
            )
            text = text[: m.start(2)] + value + text[m.end(2) :]
            expected = "is text in YAML 1.2, not a number" if written == "under" else ""
            out.append((path.name, text, f"{m[1]}: {value}", expected))
        elif kind == "turns":
            spots = list(re.finditer(r"\{number: (\d+)", text))
            if len(spots) < 3:
                continue
            k = rng.randrange(1, len(spots))
            m = spots[k]
            text = text[: m.start(1)] + "99" + text[m.end(1) :]
            ordinal = {1: "st", 2: "nd", 3: "rd"}.get((k + 1) % 10 if not 10 <= (k + 1) % 100 <= 20 else 0, "th")
            out.append((path.name, text, f"turn {k + 1} numbered 99", f"listed {k + 1}{ordinal}"))
        else:
            aliased = rng.random() < 0.5
            if aliased:
                lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
                lines += [f"a{j}: &a{j} [{', '.join([f'*a{j - 1}'] * 10)}]" for j in range(1, 7)]
                text = "\n".join(lines) + "\n"
            else:
                text = "a: [" + "0, " * 200_001 + "0]\n"
            out.append(("big.yaml", text, f"200,001 values {'through aliases' if aliased else 'written out'}",
                        "alias bomb" if aliased else "holds more than"))
    return out


def wording_job(text: str, expected: str) -> Callable[[Path], Any]:
    def job(workdir: Path) -> Any:
        game = workdir / "game.yaml"
        game.write_text(text, encoding="utf-8")
        r = classify_cli(["check", "-q", str(game)], workdir, out_option=False)
        if r["outcome"] == "located" and expected and expected not in r["stderr"]:
            r = {**r, "outcome": "worded", "why": f"expected {expected!r} in {r['stderr'].strip()[:300]!r}"}
        if r["outcome"] == "located" and "alias bomb" in r["stderr"] and "*" not in text:
            r = {**r, "outcome": "worded", "why": "a file with no alias called an alias bomb"}
        return [r]

    return job


# ------------------------------------------------------------------------------------------- earlier outputs
EARLIER_GAMES = [DATA / "ferry_point.yaml", DATA / "tabletop_hells_gate.yaml"]
EARLIER_PARTS = ["map", "counters", "cards", "handout", "images"]


def earlier_steps(rng: random.Random) -> tuple[str, list[tuple[list[str], str]]]:
    """A game and a sequence of 2 to 4 builds of it into one folder, each with its own ``--only`` (sometimes
    ``--sets``, ``--preset print-shop``, once in a while the board), each followed by what the user does to the
    folder before the next: nothing, a file of their own beside the outputs or inside ``images/``, an earlier output
    edited (appended to, or a byte flipped at the same size), an earlier output deleted."""
    game = str(rng.choice(EARLIER_GAMES))
    steps = []
    for _ in range(rng.randint(2, 4)):
        parts = rng.sample(EARLIER_PARTS, rng.randint(1, 3))
        if game.endswith("ferry_point.yaml") and rng.random() < 0.1:
            parts.append("board")
        argv = ["--only", ",".join(parts)]
        if "handout" in parts and rng.random() < 0.5:
            argv += ["--sets", str(rng.randint(1, 3))]
        if rng.random() < 0.15:
            argv = ["--preset", "print-shop", *argv]
        steps.append((argv, rng.choice(["none", "none", "own", "own-in-images", "append", "flip", "delete"])))
    return game, steps


def _tamper(folder: Path, what: str, rng: random.Random) -> tuple[dict[str, bytes], str | None]:
    """Do ``what`` to ``folder``; return the files the user now owns (relative path: bytes) and the top-level name
    of an earlier output the user edited (None when none)."""
    listed = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
    outputs = sorted(folder / name for name in listed if "/" not in name)  # the last build's files, not the user's
    if what == "own":
        return {"my notes.txt": b"mine"}, None
    if what == "own-in-images" and (folder / "images").is_dir():
        return {"images/my-scan.png": b"mine too"}, None
    if what in ("append", "flip") and outputs:
        path = rng.choice(outputs)
        data = bytearray(path.read_bytes())
        if what == "append":
            data += b"% edited\n"
        else:
            data[len(data) // 2] ^= 1
        path.write_bytes(bytes(data))
        return {path.name: bytes(data)}, path.name
    if what == "delete" and outputs:
        rng.choice(outputs).unlink()
    return {}, None


def earlier_job(seed: int, i: int) -> Callable[[Path], Any]:
    """One sequence of :func:`earlier_steps`.  After each build: its manifest lists exactly the components asked
    for, each file as it is on disk; every earlier output it did not write again is gone unless the user owns it
    (their own file, an earlier output they edited: those stay byte for byte, an edited one with a ``kept`` note
    at the first build after the edit); no temporary is left.  A miss is ``stale``."""

    def job(workdir: Path) -> Any:
        rng = random.Random(f"{seed}:earlier:{i}")
        game, steps = earlier_steps(rng)
        out = workdir / "out"
        owned: dict[str, bytes] = {}  # the user's files, by path: never removed by a build that does not write them
        edited: str | None = None  # an earlier output edited since the last build
        rows = []
        for k, (argv, then) in enumerate(steps):
            o = run_cli(["build", game, *argv, "--out", str(out), "-q"])
            row = {"argv": [game, *argv], "status": o.status, "outcome": "ok", "why": ""}
            if o.crash or o.status != 0:
                kind = "traceback" if "Traceback" in o.stderr else "status"
                rows.append({**row, "outcome": kind, "why": o.crash or o.stderr[-300:]})
                break
            folder = next(p for p in out.iterdir() if p.is_dir())
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
            tops = {rel.split("/")[0] for rel in manifest}
            parts = argv[argv.index("--only") + 1].split(",")
            why = []
            if tops != {n if n in ("images", "board") else f"{n}.pdf" for n in parts}:
                why.append(f"the manifest lists {sorted(tops)} for --only {','.join(parts)}")
            for rel, record in manifest.items():
                data = (folder / rel).read_bytes() if (folder / rel).is_file() else b""
                if hashlib.sha256(data).hexdigest() != record["sha256"] or len(data) != record["size"]:
                    why.append(f"the manifest's {rel} is not the file there")
            owned = {rel: data for rel, data in owned.items() if rel.split("/")[0] not in tops}  # replaced
            for rel, data in owned.items():
                if not (folder / rel).is_file() or (folder / rel).read_bytes() != data:
                    why.append(f"the user's {rel} was removed or changed")
            if edited is not None and edited not in tops and f"kept {folder / edited}" not in o.stderr:
                why.append(f"{edited}, an edited earlier output, kept without a note")
            mine = {rel.split("/")[0] for rel in owned} | {MANIFEST}
            if stale := sorted(f for f in _files(folder) - set(manifest) if f.split("/")[0] not in mine):
                why.append(f"earlier outputs or temporaries left: {stale[:3]}")
            if why:
                rows.append({**row, "outcome": "stale", "why": "; ".join(why) + f" (build {k + 1})"})
                break
            rows.append(row)
            got, edited = _tamper(folder, then, rng)
            for rel, data in got.items():
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                (folder / rel).write_bytes(data)
            owned = {rel: data for rel, data in owned.items() if (folder / rel).is_file()}  # the user deleted one
            owned.update(got)
        return rows

    return job


# ---------------------------------------------------------------------------------------------------- driver
def _places(w: Path) -> None:
    """The files hostile cases name: ``{w}/grid112.yaml``, a 112 x 60 grid of 1 in hexes without ``map.sheet`` (its
    own sheet 102 in wide); ``{w}/crt40/card.yaml``, the shipped card template with a 40 pt CRT on its 10.5 pt
    leading."""
    import _kits

    (w / "grid112.yaml").write_text(_kits.synthetic(112, 60, hex_size="1in", listed=200), encoding="utf-8")
    (w / "crt40").mkdir(exist_ok=True)
    card = (ROOT / "templates" / "card.yaml").read_text(encoding="utf-8")
    (w / "crt40" / "card.yaml").write_text(card.replace("  size: 8.5", "  size: 40"), encoding="utf-8")


def _build_job(argv: list[str], rebuild: bool = False, prefill: bool = False) -> Callable[[Path], Any]:
    def job(w: Path) -> Any:
        if any("{w}" in x for x in argv):
            _places(w)
        return [classify_build([x.replace("{w}", str(w)) for x in argv], w, rebuild=rebuild, prefill=prefill)]

    return job


def _cli_job(argv: list[str]) -> Callable[[Path], Any]:
    def job(w: Path) -> Any:
        _places(w)
        (w / "empty").mkdir()
        return [classify_cli(argv, w)]

    return job


def jobs_for(a: argparse.Namespace) -> list[tuple[str, Callable[[Path], Any]]]:
    jobs: list[tuple[str, Callable[[Path], Any]]] = []
    if a.only_earlier:
        return [(f"earlier outputs {a.seed}:{i}", earlier_job(a.seed, i)) for i in range(a.earlier)]
    for name, text, what, expected in wording_cases(a.wording, a.seed):
        jobs.append((f"{name}: {what}", wording_job(text, expected)))
    if a.only_wording:
        return jobs
    if not a.only_hostile:
        for i in range(a.cases):
            rng = random.Random(f"{a.seed}:opt:{i}")
            game = rng.choice(LARGE) if a.large or i % 8 == 7 else rng.choice(SMALL)
            argv = [str(game), *option_argv(rng)]
            jobs.append((json.dumps(argv), _build_job(argv, rebuild=i % 10 == 3, prefill=i % 4 == 1)))
    s19 = [
        ["--outline-text", "--greyscale"],
        ["--outline-text", "--preset", "print-shop", "--card-size", "jumbo", "--only", "counters,cards,images"],
        ["--outline-text", "--pdfx", "--no-tile", "--only", "counters", "--counter-size", "1/2in"],
        ["--preset", "greyscale-laser", "--card-size", "tarot", "--only", "counters,cards", "--counter-size", "3/4in"],
    ]
    for k, (name, text, what) in enumerate(hostile_group_games()):
        argv = s19[k % len(s19)]
        jobs.append((f"{name}: {what} {' '.join(argv)}", group_game_job(text, argv)))
    shipped = (ROOT / "templates" / "counter.yaml").read_text(encoding="utf-8")
    for what, old, new in COUNTER_TEMPLATE_EDITS:
        assert old in shipped, what
        jobs.append((f"counter template: {what}", template_job(what, shipped.replace(old, new, 1))))
    for name, text, what in hostile_quantities(a.quantities, a.seed):
        jobs.append((f"{name}: {what}", game_job(text)))
    for i in range(a.mutated):
        jobs.append((f"mutated game {a.seed}:outline:{i} --outline-text", mutated_job(a.seed, i)))
    for k, argv in enumerate(hostile_cards()):
        jobs.append((json.dumps(argv), _build_job(argv, prefill=k % 3 == 0)))
    if a.only_new:
        return jobs
    for argv in hostile_options():
        jobs.append((json.dumps(argv), _build_job(argv)))
    for argv in hostile_commands():
        jobs.append((json.dumps(argv), _cli_job(argv)))
    for name, text, what in hostile_games(a.games, a.seed):
        jobs.append((f"{name}: {what}", game_job(text)))
    for i in range(a.earlier):  # the full run only
        jobs.append((f"earlier outputs {a.seed}:{i}", earlier_job(a.seed, i)))
    return jobs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=300, help="random option combinations (default 300)")
    ap.add_argument("--games", type=int, default=150, help="game files with hostile new-field values (default 150)")
    ap.add_argument("--mutated", type=int, default=30, help="bench/fuzz.py's mutated games with --outline-text (30)")
    ap.add_argument("--quantities", type=int, default=60, help="seed games with a quantity at or past its bound (60)")
    ap.add_argument("--wording", type=int, default=60, help="games refused for what their messages must name (60)")
    ap.add_argument("--only-wording", action="store_true", help="session 25's wording cases only")
    ap.add_argument("--earlier", type=int, default=20, help="sequences of builds into one folder (20; full run)")
    ap.add_argument("--only-earlier", action="store_true", help="the earlier-outputs sequences only")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=60, help="CPU seconds per case (default 60)")
    ap.add_argument("--memory", type=int, default=2048, help="address space per case in MB (default 2048)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--large", action="store_true", help="every option case on a larger game (default: one in eight)")
    ap.add_argument("--only-hostile", action="store_true", help="the hand-written and new-field cases only")
    ap.add_argument(
        "--only-new",
        action="store_true",
        help="session 19's cases only: the random option cases (now with --outline-text and --card-size), --card-size "
        "on every seed game and kit, formation markers' groups, counter templates' group_y and label",
    )
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case's outcome, not only defects")
    a = ap.parse_args()
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    t0 = time.monotonic()
    warm_up()
    jobs = jobs_for(a)
    tally: Counter[str] = Counter()
    defects = 0
    for i, kind, value in run_many([j for _, j in jobs], parallel=a.jobs, timeout=a.timeout, memory_mb=a.memory):
        label = jobs[i][0]
        if kind != "ok":
            tally[kind if kind in ("hang", "slow", "oom") else "traceback"] += 1
            defects += 1
            tail = str(value).strip().splitlines()[-3:]
            print(f"DEFECT {kind}: {label[:300]}\n    {tail}", flush=True)
            continue
        for r in value:
            tally[r["outcome"]] += 1
            if a.verbose:
                print(f"{r['outcome']:9s} {label[:200]}\n    {r['why']!s:.300}", flush=True)
            if r["outcome"] not in ("ok", "located"):
                defects += 1
                print(f"DEFECT {r['outcome']}: {label[:300]}\n    {r['why']!s:.400}", flush=True)
    for outcome, n in tally.most_common():
        print(f"{n:6d}  {outcome}")
    print(f"{len(jobs)} cases (seed {a.seed}), {defects} defects in {time.monotonic() - t0:.0f}s")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
