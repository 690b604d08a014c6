"""Independent checks of the print-shop PDFs (PDF/X-1a:2003): build them, run every checker installed, print a table.

Hexforge's own tests (tests/test_pdfx.py, tests/test_presets.py) read its PDFs back with the libraries it is built
on; this script asks tools that share no code with it.  It builds ``--preset print-shop --only map,counters,cards``
of every game in data/ and of the two bench kits (bench/kits/, with the options bench/run.py builds them with),
once with the default output intent (FOGRA39) and once with ``--output-intent gracol``, into a temporary folder, and
runs on each PDF:

  qpdf        ``qpdf --check``: the file's structure (xref, objects, streams decode)
  ghostscript renders every page with the ``tiffsep`` device inside the BleedBox (``-dUseBleedBox``): no warning or
              error on stderr, only the four process separations, and the total ink of every pixel (the sum of the
              four separations) at most 300 %, the limit of the FOGRA39 and GRACoL 2006 conditions.  The crop marks
              (registration colour, 400 %) lie outside the BleedBox, where nothing is printed on the trimmed sheet.
  poppler     ``pdffonts``: every font embedded; ``pdfinfo``: the file is recognised as PDF/X-1a:2003
  mupdf       ``mutool draw -F trace``: MuPDF interprets every page's content without a warning
  pdf-preflight  the Ruby library's PDF/X-1a profile (Preflight::Profiles::PDFX1A), and a profile of its other
              press rules (total ink 300 % in any colour set, registration colour, page boxes, rotation,
              DeviceN and Separation colour spaces)
  pdf_oxide   the Python library's PDF/X validator (``PdfDocument.validate_pdf_x``; its nearest level, 1a_2001)

A finding is FAIL unless it is a rule the tool applies that PDF/X-1a:2003 does not make; those are KNOWN, with the
reason (docs/PRINTING.md, *PDF/X-1a*, gives the sources).  Checkers not installed are listed with how to install
them.  The exit status is 1 if any check FAILs.  Not part of the test suite: the tools are not on CI's machine.

Run: python bench/preflight.py [--games hells_gate,small] [--intents fogra39,gracol] [--keep DIR] [--outline-text]
                               [--checkers qpdf,ghostscript,...] [--pdf-preflight DIR] [--oxide-python PYTHON]
                               [--dpi 72]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from _kits import KITS

PDFS = ("map", "counters", "cards")
INK_LIMIT = 300.0
"""Total ink (%) of the bundled printing conditions: FOGRA39 and GRACoL 2006 (coated offset) both allow 300 %."""
PROCESS = {"Cyan", "Magenta", "Yellow", "Black"}

INSTALL = {
    "qpdf": "apt-get install qpdf",
    "ghostscript": "apt-get install ghostscript",
    "poppler": "apt-get install poppler-utils",
    "mupdf": "apt-get install mupdf-tools",
    "pdf-preflight": (
        "apt-get install ruby ruby-pdf-reader; git clone https://github.com/yob/pdf-preflight DIR (0.3.0, MIT; not a "
        "gem here: it runs as `ruby -I DIR/lib`); then give --pdf-preflight DIR or set HEXFORGE_PDF_PREFLIGHT"
    ),
    "pdf_oxide": (
        "python -m venv VENV && VENV/bin/pip install pdf-oxide; give VENV/bin/python with --oxide-python or "
        "HEXFORGE_OXIDE_PYTHON (or install it beside forge)"
    ),
}

# Findings of rules that PDF/X-1a:2003 (ISO 15930-4) does not make.  Each is (checker, pattern, reason).
KNOWN = (
    (
        "pdf-preflight",
        r"MaxVersion: PDF version should be 1.3 or lower",
        "the profile is PDF/X-1a:2001's (PDF 1.3); PDF/X-1a:2003 is based on PDF 1.4",
    ),
    (
        "pdf-preflight+",
        r"(MaxInkDensity|NoRegistrationBlack): .* c=1 m=1 y=1 k=1$",
        "registration colour of the crop marks, outside the BleedBox",
    ),
    (
        "pdf_oxide",
        r"XMETA-006\] XMP pdfxid:GTS_PDFXVersion is 'PDF/X-1a:2003' but validating against PDF/X-1a:2001",
        "pdf_oxide has no PDF/X-1a:2003 level: run at 1a_2001, it notes the file's version is 2003",
    ),
)


@dataclass(frozen=True)
class Result:
    file: str
    checker: str
    status: str
    """PASS, KNOWN (only findings of rules PDF/X-1a:2003 does not make), FAIL, or ERROR (the checker broke)."""
    detail: str = ""


def _run(cmd: list[str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)


def _verdict(file: str, checker: str, findings: list[str], ok: str = "") -> Result:
    """PASS without findings; KNOWN if every finding matches a known rule of ``checker``; else FAIL."""
    if not findings:
        return Result(file, checker, "PASS", ok)
    reasons: list[str] = []
    unknown: list[str] = []
    for f in dict.fromkeys(findings):
        hit = next((why for who, pat, why in KNOWN if who == checker and re.search(pat, f)), None)
        if hit is None:
            unknown.append(f)
        elif hit not in reasons:
            reasons.append(hit)
    if unknown:
        return Result(
            file, checker, "FAIL", "; ".join(unknown[:4]) + (f" (+{len(unknown) - 4})" if len(unknown) > 4 else "")
        )
    return Result(file, checker, "KNOWN", "; ".join(reasons))


# ------------------------------------------------------------------------------------------------ building
def build_all(out: Path, games: list[str], intents: list[str], extra: list[str]) -> list[Path]:
    """Build the print-shop PDFs of each game for each intent; return the PDFs, in order."""
    sources: dict[str, tuple[Path, tuple[str, ...]]] = {p.stem: (p, ()) for p in sorted((ROOT / "data").glob("*.yaml"))}
    for kit in KITS.values():
        sources[kit.name] = (kit.path, kit.build_args)
    wanted = games or list(sources)
    unknown = [g for g in wanted if g not in sources]
    if unknown:
        raise SystemExit(f"--games: unknown {', '.join(unknown)} (expected some of {', '.join(sources)})")
    pdfs: list[Path] = []
    for intent in intents:
        for name in wanted:
            path, args = sources[name]
            folder = out / intent
            cmd = [sys.executable, "-m", "forge", "build", str(path), "--preset", "print-shop"]
            cmd += ["--only", ",".join(PDFS), *args, *extra, "--output-intent", intent, "--out", str(folder)]
            done = _run(cmd)
            if done.returncode != 0:
                raise SystemExit(f"building {name} ({intent}) failed:\n{done.stderr}")
            made = sorted(p for p in folder.rglob("*.pdf") if p not in pdfs)
            print(f"built {name} ({intent}): {', '.join(p.name for p in made)}", file=sys.stderr)
            pdfs += made
    return pdfs


# ------------------------------------------------------------------------------------------------ checkers
def check_qpdf(pdf: Path, label: str) -> Result:
    done = _run(["qpdf", "--check", str(pdf)])
    lines = [ln for ln in (done.stdout + done.stderr).splitlines() if re.search(r"(?i)warning|error", ln)]
    lines = [
        ln for ln in lines if "No syntax or stream encoding errors" not in ln and "errors that qpdf cannot" not in ln
    ]
    if done.returncode != 0:
        lines.append(f"exit status {done.returncode}")
    return _verdict(label, "qpdf", lines, "no syntax or stream errors")


def check_ghostscript(pdf: Path, label: str, dpi: int) -> Result:
    with tempfile.TemporaryDirectory(prefix="hexforge-gs-") as tmp:
        done = _run(
            [
                "gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", f"-r{dpi}", "-dUseBleedBox",
                f"-sOutputFile={tmp}/p%04d.tif", str(pdf),
            ]
        )  # fmt: skip
        findings = [f"stderr: {ln}" for ln in done.stderr.splitlines() if ln.strip()]
        findings += [f"stdout: {ln}" for ln in done.stdout.splitlines() if ln.strip()]
        if done.returncode != 0:
            findings.append(f"exit status {done.returncode}")
        worst, pages = _ink(Path(tmp), findings)
    detail = f"{pages} pages, max total ink {worst:.1f} % inside the BleedBox, separations CMYK only"
    if worst > INK_LIMIT:
        findings.append(f"total ink {worst:.1f} % > {INK_LIMIT:.0f} %")
    return _verdict(label, "ghostscript", findings, detail)


def _ink(folder: Path, findings: list[str]) -> tuple[float, int]:
    """The largest total ink (%) of any pixel on any page tiffsep wrote to ``folder``, and the number of pages.
    tiffsep writes each separation as an 8-bit grey image where 255 is no ink and 0 solid ink."""
    import numpy as np
    from PIL import Image

    pages = sorted(p for p in folder.glob("p*.tif") if "(" not in p.name)
    worst = 0.0
    for page in pages:
        seps = sorted(folder.glob(f"{page.stem}(*).tif"))
        names = {s.name[len(page.stem) + 1 : -5] for s in seps}
        if names - PROCESS:
            findings.append(f"{page.stem}: separations beyond CMYK: {', '.join(sorted(names - PROCESS))}")
        total = None
        for sep in seps:
            with Image.open(sep) as im:
                ink = 255 - np.asarray(im.convert("L"), dtype=np.int32)
            total = ink if total is None else total + ink
        if total is not None:
            worst = max(worst, float(total.max()) * 100 / 255)
    return worst, len(pages)


def check_poppler(pdf: Path, label: str) -> Result:
    findings: list[str] = []
    fonts = _run(["pdffonts", str(pdf)])
    rows = fonts.stdout.splitlines()[2:]
    for row in rows:
        cols = row.split()
        # name type [type2] encoding emb sub uni object ID: emb is the 5th column from the end
        if len(cols) >= 7 and cols[-5] != "yes":
            findings.append(f"font not embedded: {cols[0]}")
    info = _run(["pdfinfo", str(pdf)])
    subtype = re.search(r"^PDF subtype:\s*(.+)$", info.stdout, re.M)
    if not subtype or subtype.group(1).strip() != "PDF/X-1a:2003":
        findings.append(f"pdfinfo subtype: {subtype.group(1).strip() if subtype else 'none'}")
    for done in (fonts, info):
        if done.returncode != 0 or done.stderr.strip():
            findings.append(f"{done.args[0]}: exit {done.returncode} {done.stderr.strip()[:200]}")
    return _verdict(label, "poppler", findings, f"{len(rows)} fonts, none unembedded; subtype PDF/X-1a:2003")


def check_mupdf(pdf: Path, label: str) -> Result:
    done = _run(["mutool", "draw", "-F", "trace", "-o", os.devnull, str(pdf)])
    # Debian's MuPDF is built without littleCMS and says so on every run: not about the file.
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    pages = sum(ln.startswith(f"page {pdf} ") for ln in lines)  # its progress: "page FILE N" for each page
    findings = [ln for ln in lines if not ln.startswith("page ") and "ICC support is not available" not in ln]
    if done.returncode != 0:
        findings.append(f"exit status {done.returncode}")
    return _verdict(label, "mupdf", findings, f"{pages} pages interpreted, no warning")


RUBY = r"""
require "bigdecimal"
# pdf-preflight 0.3.0 calls BigDecimal.new, which Ruby 2.7 removed (BigDecimal() is the same thing).
class BigDecimal; def self.new(*a); BigDecimal(*a); end; end unless BigDecimal.respond_to?(:new)
require "json"
require "preflight"
class HexforgePress
  include Preflight::Profile
  profile_name "hexforge-press"
  rule Preflight::Rules::MaxInkDensity, 300
  rule Preflight::Rules::NoRegistrationBlack
  rule Preflight::Rules::MediaboxAtOrigin
  rule Preflight::Rules::NoPageRotation
  rule Preflight::Rules::NoDevicen
  rule Preflight::Rules::NoSeparation
  rule Preflight::Rules::ConsistentBoxes
  rule Preflight::Rules::CropboxMatchesMediabox
end
def show(m)
  a = m.attributes || {}
  ink = a.key?(:cyan) ? " c=#{a[:cyan]} m=#{a[:magenta]} y=#{a[:yellow]} k=#{a[:k]}" : ""
  more = a.reject { |k, _| [:cyan, :magenta, :yellow, :k, :page].include?(k) }
  "#{m.rule.to_s.split('::').last}: #{m.description}#{more.empty? ? '' : ' ' + more.inspect}#{ink}"
end
out = {}
ARGV.each do |f|
  out[f] = {
    "pdfx1a" => Preflight::Profiles::PDFX1A.new.check(f).map { |m| show(m) },
    "press" => HexforgePress.new.check(f).map { |m| show(m) },
  }
end
puts JSON.generate(out)
"""


def check_pdf_preflight(pdfs: list[Path], labels: dict[Path, str], lib: Path) -> list[Result]:
    done = _run(["ruby", "-I", str(lib / "lib"), "-e", RUBY, *map(str, pdfs)], timeout=3600)
    if done.returncode != 0:
        err = done.stderr.strip().splitlines()[:3]
        return [Result(labels[p], "pdf-preflight", "ERROR", " | ".join(err)) for p in pdfs]
    got = json.loads(done.stdout)
    results = []
    for p in pdfs:
        found = got[str(p)]
        results.append(_verdict(labels[p], "pdf-preflight", found["pdfx1a"], "Preflight::Profiles::PDFX1A: no issue"))
        results.append(_verdict(labels[p], "pdf-preflight+", found["press"], "press rules: no issue"))
    return results


OXIDE = r"""
import json, sys
import pdf_oxide
out = {}
for f in sys.argv[1:]:
    r = pdf_oxide.PdfDocument(f).validate_pdf_x("1a_2001")
    out[f] = {"errors": [str(e) for e in r["errors"]], "warnings": [str(w) for w in r["warnings"]]}
print(json.dumps(out))
"""


def check_pdf_oxide(pdfs: list[Path], labels: dict[Path, str], python: str) -> list[Result]:
    done = _run([python, "-c", OXIDE, *map(str, pdfs)], timeout=3600)
    if done.returncode != 0:
        err = done.stderr.strip().splitlines()[-1:]
        return [Result(labels[p], "pdf_oxide", "ERROR", " | ".join(err)) for p in pdfs]
    got = json.loads(done.stdout)
    results = []
    for p in pdfs:
        errors, warnings = got[str(p)]["errors"], got[str(p)]["warnings"]
        result = _verdict(labels[p], "pdf_oxide", errors + warnings, "validate_pdf_x: valid, no warning")
        results.append(result)
    return results


# ------------------------------------------------------------------------------------------------ main
def available(args: argparse.Namespace) -> tuple[dict[str, bool], dict[str, str]]:
    """Which checkers can run here, and for those that cannot, why."""
    have: dict[str, bool] = {}
    why: dict[str, str] = {}

    def tool(name: str, *programs: str) -> None:
        missing = [p for p in programs if shutil.which(p) is None]
        have[name] = not missing
        if missing:
            why[name] = f"{', '.join(missing)} not found"

    tool("qpdf", "qpdf")
    tool("ghostscript", "gs")
    tool("poppler", "pdffonts", "pdfinfo")
    tool("mupdf", "mutool")
    lib = Path(args.pdf_preflight) if args.pdf_preflight else None
    if shutil.which("ruby") is None:
        have["pdf-preflight"], why["pdf-preflight"] = False, "ruby not found"
    elif lib is None or not (lib / "lib" / "preflight.rb").is_file():
        have["pdf-preflight"] = False
        why["pdf-preflight"] = "its source not given (--pdf-preflight DIR holding lib/preflight.rb)"
    else:
        probe = _run(["ruby", "-e", 'require "pdf/reader"'])
        have["pdf-preflight"] = probe.returncode == 0
        if probe.returncode:
            why["pdf-preflight"] = "the pdf-reader gem is not installed"
    probe = _run([args.oxide_python, "-c", "import pdf_oxide"])
    have["pdf_oxide"] = probe.returncode == 0
    if probe.returncode:
        why["pdf_oxide"] = f"pdf_oxide not importable by {args.oxide_python}"
    return have, why


def table(results: list[Result]) -> str:
    if not results:
        return "no checker ran"
    w_file = max(len("file"), *(len(r.file) for r in results))
    w_check = max(len("checker"), *(len(r.checker) for r in results))
    lines = [f"{'file':<{w_file}}  {'checker':<{w_check}}  {'result':<6}  detail", "-" * (w_file + w_check + 40)]
    lines += [f"{r.file:<{w_file}}  {r.checker:<{w_check}}  {r.status:<6}  {r.detail}" for r in results]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", default="", help="comma-separated game ids (data/*.yaml stems) and kits (small, large)"
    )
    parser.add_argument("--intents", default="fogra39,gracol", help="output intents to build with")
    parser.add_argument("--keep", metavar="DIR", help="build into DIR and keep the files (default: a temporary folder)")
    parser.add_argument("--pdf-preflight", metavar="DIR", default=os.environ.get("HEXFORGE_PDF_PREFLIGHT"))
    parser.add_argument(
        "--oxide-python", metavar="PYTHON", default=os.environ.get("HEXFORGE_OXIDE_PYTHON", sys.executable)
    )
    parser.add_argument("--dpi", type=int, default=72, help="Ghostscript's resolution for the ink measurement")
    parser.add_argument("--checkers", default=",".join(INSTALL), help="the checkers to run, comma-separated")
    parser.add_argument("--outline-text", action="store_true", help="build with --outline-text too (no fonts)")
    args = parser.parse_args(argv)

    have, why = available(args)
    chosen = [c for c in args.checkers.split(",") if c]
    if set(chosen) - set(INSTALL):
        parser.error(f"--checkers: expected some of {', '.join(INSTALL)}")
    have = {name: ok and name in chosen for name, ok in have.items()}
    why = {name: why[name] for name in why if name in chosen}
    games = [g for g in args.games.split(",") if g]
    intents = [i for i in args.intents.split(",") if i]
    with tempfile.TemporaryDirectory(prefix="hexforge-preflight-") as tmp:
        out = Path(args.keep) if args.keep else Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        pdfs = build_all(out, games, intents, ["--outline-text"] if args.outline_text else [])
        labels = {p: str(p.relative_to(out)) for p in pdfs}
        results: list[Result] = []
        per_file: list[tuple[str, Callable[[Path, str], Result]]] = [
            ("qpdf", check_qpdf),
            ("ghostscript", lambda p, lab: check_ghostscript(p, lab, args.dpi)),
            ("poppler", check_poppler),
            ("mupdf", check_mupdf),
        ]
        for pdf in pdfs:
            for name, check in per_file:
                if have[name]:
                    results.append(check(pdf, labels[pdf]))
            print(f"checked {labels[pdf]}", file=sys.stderr)
        if have["pdf-preflight"]:
            results += check_pdf_preflight(pdfs, labels, Path(args.pdf_preflight))
        if have["pdf_oxide"]:
            results += check_pdf_oxide(pdfs, labels, args.oxide_python)
    order = {lab: n for n, lab in enumerate(labels.values())}
    results.sort(key=lambda r: order[r.file])
    print(table(results))
    counts = {s: sum(r.status == s for r in results) for s in ("PASS", "KNOWN", "FAIL", "ERROR")}
    print("\n" + ", ".join(f"{n} {s}" for s, n in counts.items()) + f" ({len(pdfs)} PDFs)")
    reasons = {r.detail for r in results if r.status == "KNOWN"}
    if reasons:
        print("KNOWN: rules these tools apply that PDF/X-1a:2003 does not make (docs/PRINTING.md, *PDF/X-1a*):")
        for reason in sorted(reasons):
            print(f"  - {reason}")
    missing = [name for name in chosen if not have[name]]
    if missing:
        print("\nNot run (not installed):")
        for name in missing:
            print(f"  - {name}: {why[name]}. Install: {INSTALL[name]}")
    return 1 if counts["FAIL"] or counts["ERROR"] or not results else 0


if __name__ == "__main__":
    sys.exit(main())
