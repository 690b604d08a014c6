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

Run: python bench/fuzz_options.py [--cases N] [--games N] [--seed S] [--jobs J] [--timeout SECONDS] [--large]
  [--only-hostile] [-v]
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


def check_outputs(folder: Path, bleed: float | None, pdfx: bool) -> list[str]:
    """What is wrong with the files of a successful build (empty: nothing)."""
    import pypdf
    import pypdfium2 as pdfium
    from PIL import Image

    problems: list[str] = []
    for pdf in sorted(folder.rglob("*.pdf")):
        name = str(pdf.relative_to(folder))
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
        if bleed is not None:
            for i, page in enumerate(pages):
                if "/TrimBox" not in page or "/BleedBox" not in page:
                    problems.append(f"{name} page {i + 1}: no TrimBox or BleedBox")
                    break
                trim: Any = page["/TrimBox"]
                box: Any = page["/BleedBox"]
                t, b = [float(v) for v in trim], [float(v) for v in box]
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
    for png in sorted(folder.rglob("*.png")):
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


def classify_build(argv: list[str], workdir: Path, *, rebuild: bool = False) -> dict[str, Any]:
    """Run ``forge build ARGV --out workdir/out -q`` and classify what it did."""
    out = workdir / "out"
    full = ["build", *argv, "--out", str(out), "-q"]
    o = run_cli(full, out)
    res: dict[str, Any] = {"argv": argv, "status": o.status, "stderr": o.stderr[-600:]}
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
    left = sorted(f for f in _files(out) if f.endswith(".tmp") or "/." in f)
    if left:
        return {**res, "outcome": "malformed", "why": f"temporaries left: {left[:3]}"}
    game_args = [a for a in argv if a.endswith(".yaml")]
    try:
        bleed = expected_bleed([a for a in argv if a not in game_args])
        pdfx = pdfx_expected([a for a in argv if a not in game_args])
    except SystemExit:
        return {**res, "outcome": "malformed", "why": "built, but the options do not parse"}
    problems = check_outputs(out, bleed, pdfx)
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
    return {**res, "outcome": "located" if o.status == 2 else "ok", "why": o.stderr.strip().splitlines()[-1:]}


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


def _build_job(argv: list[str], rebuild: bool = False) -> Callable[[Path], Any]:
    def job(w: Path) -> Any:
        if any("{w}" in x for x in argv):
            _places(w)
        return [classify_build([x.replace("{w}", str(w)) for x in argv], w, rebuild=rebuild)]

    return job


def _cli_job(argv: list[str]) -> Callable[[Path], Any]:
    def job(w: Path) -> Any:
        _places(w)
        (w / "empty").mkdir()
        return [classify_cli(argv, w)]

    return job


def jobs_for(a: argparse.Namespace) -> list[tuple[str, Callable[[Path], Any]]]:
    jobs: list[tuple[str, Callable[[Path], Any]]] = []
    if not a.only_hostile:
        for i in range(a.cases):
            rng = random.Random(f"{a.seed}:opt:{i}")
            game = rng.choice(LARGE) if a.large or i % 8 == 7 else rng.choice(SMALL)
            argv = [str(game), *option_argv(rng)]
            jobs.append((json.dumps(argv), _build_job(argv, rebuild=i % 10 == 3)))
    for argv in hostile_options():
        jobs.append((json.dumps(argv), _build_job(argv)))
    for argv in hostile_commands():
        jobs.append((json.dumps(argv), _cli_job(argv)))
    for name, text, what in hostile_games(a.games, a.seed):
        jobs.append((f"{name}: {what}", game_job(text)))
    return jobs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=300, help="random option combinations (default 300)")
    ap.add_argument("--games", type=int, default=150, help="game files with hostile new-field values (default 150)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=60, help="CPU seconds per case (default 60)")
    ap.add_argument("--memory", type=int, default=2048, help="address space per case in MB (default 2048)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--large", action="store_true", help="every option case on a larger game (default: one in eight)")
    ap.add_argument("--only-hostile", action="store_true", help="the hand-written and new-field cases only")
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
