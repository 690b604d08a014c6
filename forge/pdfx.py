"""PDF/X-1a:2003 output (``forge build --pdfx``; the print-shop preset): every colour separated to CMYK through a
real output profile, and each PDF identified as PDF/X with that profile as its output intent.

Two parts, both hooked into :class:`forge.pdf.FinishedCanvas`, so that no renderer knows about them:

- :func:`enforcer` is reportlab's own colour hook (``Canvas._enforceColorSpace``, which its canvas, text objects and
  so platypus paragraphs and tables all pass every colour through): an sRGB colour becomes the DeviceCMYK colour the
  output profile gives for it (littleCMS through Pillow's ImageCms; relative colorimetric with black-point
  compensation), a neutral grey becomes black ink alone (:func:`cmyk`);
- :func:`identify` adds the PDF/X objects through reportlab's own ``pdfdoc`` objects: the OutputIntent in the
  catalog (``/S /GTS_PDFX``, the registered characterization's identifier, the ICC profile embedded) and the
  ``GTS_PDFXVersion`` / ``GTS_PDFXConformance`` keys in the Info dictionary, and the same in an XMP metadata stream
  (:func:`xmp`).  reportlab already writes the rest the standard asks for: a fixed CreationDate and ModDate
  (``invariant=1``), ``/Trapped /False`` and the trailer's ``/ID``, the same for the same input.

The profiles are in ``forge/icc/`` (README.md there says where they come from and under what licence).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfbase import pdfdoc

__all__ = [
    "DECIMALS",
    "DEFAULT_OUTPUT_INTENT",
    "ICC_DIR",
    "OUTPUT_INTENTS",
    "PDFX_VERSION",
    "OutputIntent",
    "cmyk",
    "enforcer",
    "identify",
    "xmp",
]

ICC_DIR = Path(__file__).parent / "icc"
PDFX_VERSION = "PDF/X-1a:2003"
DECIMALS = 3
"""Each ink's tint is written to a thousandth (0.1 % ink, far below what a press holds): the littleCMS result is an
8-bit value, so the same colour always gives the same digits, and the file the same bytes."""


@dataclass(frozen=True)
class OutputIntent:
    """A registered printing condition and the bundled ICC profile made from its characterization data."""

    name: str
    """The value of ``--output-intent``."""
    identifier: str
    """OutputConditionIdentifier: the condition's reference name in the ICC's registry (http://www.color.org)."""
    condition: str
    """OutputCondition: the printing condition in words."""
    info: str
    """Info: the characterization data set."""
    profile: str
    """The ICC profile's file in :data:`ICC_DIR`."""

    @property
    def path(self) -> Path:
        return ICC_DIR / self.profile


OUTPUT_INTENTS: dict[str, OutputIntent] = {
    "fogra39": OutputIntent(
        "fogra39",
        "FOGRA39",
        "Offset printing according to ISO 12647-2:2004/Amd 1, paper type 1 or 2 (coated art), 115 g/m2",
        "Coated FOGRA39 (ISO 12647-2:2004), characterization data FOGRA39L",
        "FOGRA39L_coated.icc",
    ),
    "gracol": OutputIntent(
        "gracol",
        "CGATS TR 006",
        "GRACoL 2006: sheetfed offset on grade 1 coated paper (ISO 12647-2 paper type 1)",
        "Characterization data ANSI CGATS/GRACoL TR 006-2007",
        "GRACoL_TR006_coated.icc",
    ),
}
"""``--output-intent``: the printing conditions Hexforge has a profile for.  FOGRA39 (the default) is the coated
offset condition of ISO 12647-2 that European printers and most print-on-demand services accept; GRACoL 2006 (CGATS
TR 006) is its North American twin (the two differ little)."""
DEFAULT_OUTPUT_INTENT = "fogra39"


def _intent(name: str) -> OutputIntent:
    if name not in OUTPUT_INTENTS:
        raise ValueError(f"unknown output intent {name!r} (expected one of {', '.join(OUTPUT_INTENTS)})")
    return OUTPUT_INTENTS[name]


@functools.cache
def _profile(name: str) -> bytes:
    return _intent(name).path.read_bytes()


@functools.cache
def _transforms(name: str) -> tuple[Any, list[float]]:
    """The sRGB -> CMYK transform of ``name``'s profile, and the CIE L* (relative to the paper) of black ink alone
    at each of the 256 tints (for :func:`_k_only`)."""
    import io

    from PIL import Image, ImageCms

    srgb = ImageCms.createProfile("sRGB")
    lab = ImageCms.createProfile("LAB")
    press = ImageCms.ImageCmsProfile(io.BytesIO(_profile(name)))
    relative = ImageCms.Intent.RELATIVE_COLORIMETRIC
    to_cmyk = ImageCms.buildTransform(
        srgb, press, "RGB", "CMYK", renderingIntent=relative, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION
    )
    k_ramp = Image.new("CMYK", (256, 1))
    k_ramp.putdata([(0, 0, 0, k) for k in range(256)])
    k_lab = ImageCms.applyTransform(k_ramp, ImageCms.buildTransform(press, lab, "CMYK", "LAB", relative))
    k_light = [k_lab.getpixel((k, 0))[0] * 100 / 255 for k in range(256)]  # type: ignore[index, union-attr]
    return to_cmyk, k_light


def _k_only(name: str, level: int) -> float:
    """Black ink alone for the sRGB grey ``level`` (0 .. 255): the tint whose lightness on the press is the grey's
    CIE L*, the scale between white paper and solid black ink (sRGB black is 100 % K, white no ink)."""
    _, k_light = _transforms(name)
    v = level / 255
    y = v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4  # sRGB's luminance, then CIE L*
    grey_l = 116 * y ** (1 / 3) - 16 if y > (6 / 29) ** 3 else y * (29 / 3) ** 3
    paper, solid = k_light[0], k_light[255]
    target = solid + (paper - solid) * min(100.0, max(0.0, grey_l)) / 100
    if target >= paper:
        return 0.0
    # k_light falls from paper to solid as k grows: find the tint whose lightness is the target.
    for k in range(1, 256):
        if k_light[k] <= target:
            lo, hi = k_light[k - 1], k_light[k]
            frac = (lo - target) / (lo - hi) if lo != hi else 0.0
            return (k - 1 + frac) / 255
    return 1.0


@functools.cache
def cmyk(rgb: tuple[int, int, int], intent: str = DEFAULT_OUTPUT_INTENT) -> tuple[float, float, float, float]:
    """The CMYK tints (0 .. 1, :data:`DECIMALS` decimals) the press gives the sRGB colour ``rgb`` (0 .. 255 each).

    Relative colorimetric: colours the press can print keep their measured values relative to the paper white
    (a perceptual rendering would compress every colour to make room for the out-of-gamut ones, and the game's
    palette is mostly inside the coated-paper gamut); black-point compensation maps sRGB's black to the press's
    darkest black, so dark greys keep their steps instead of clipping.  A neutral grey (``r == g == b``) is black
    ink alone: the profile would build it from all four inks (black text as 78/65/51/98 %, which blurs on press when
    the plates misregister), so it is the black tint of the same lightness (:func:`_k_only`).

    >>> cmyk((0, 0, 0)), cmyk((255, 255, 255))
    ((0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0, 0.0))
    """
    r, g, b = rgb
    if r == g == b:
        return (0.0, 0.0, 0.0, round(_k_only(intent, r), DECIMALS))
    from PIL import Image, ImageCms

    to_cmyk, _ = _transforms(intent)
    image = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), to_cmyk)
    assert image is not None  # applyTransform returns None only when told to work in place
    c, m, y, k = (round(v / 255, DECIMALS) for v in image.getpixel((0, 0)))  # type: ignore[union-attr]
    return (c, m, y, k)


def _rgb8(colour: Any) -> tuple[tuple[int, int, int], float | None]:
    """A reportlab colour (a Color, a name or ``#rrggbb``, an RGB tuple) as 8-bit sRGB, and its alpha."""
    if isinstance(colour, str):
        colour = toColor(colour)
    elif isinstance(colour, (tuple, list)):
        colour = Color(*colour)
    if not isinstance(colour, Color):
        raise ValueError(f"not a colour: {colour!r}")
    r, g, b = (min(255, max(0, round(v * 255))) for v in (colour.red, colour.green, colour.blue))
    return (r, g, b), getattr(colour, "alpha", None)


def enforcer(intent: str = DEFAULT_OUTPUT_INTENT) -> Any:
    """reportlab's colour hook (``Canvas(enforceColorSpace=...)``, ``canvas._enforceColorSpace``) that writes every
    colour as DeviceCMYK through ``intent``'s profile; a colour already CMYK is left as it is."""
    _intent(intent)
    made: dict[tuple[tuple[int, int, int], float | None], CMYKColor] = {}

    def to_cmyk(colour: Any) -> Any:
        if isinstance(colour, CMYKColor) or (isinstance(colour, (tuple, list)) and len(colour) == 4):
            return colour
        rgb, alpha = _rgb8(colour)
        got = made.get((rgb, alpha))
        if got is None:
            kw = {} if alpha is None else {"alpha": alpha}
            got = made[rgb, alpha] = CMYKColor(*cmyk(rgb, intent), **kw)
        return got

    return to_cmyk


class _Catalog(pdfdoc.PDFCatalog):
    """reportlab's catalog with an ``OutputIntents`` entry."""

    __NoDefault__: ClassVar[list[str]] = [*pdfdoc.PDFCatalog.__NoDefault__, "OutputIntents"]


class _Info(pdfdoc.PDFInfo):
    """reportlab's Info dictionary (the same entries, the same fixed dates under ``invariant=1``) with the PDF/X
    identification: ``GTS_PDFXVersion`` (and ``GTS_PDFXConformance``, which PDF/X-1a:2001 readers look for)."""

    def format(self, document: Any) -> bytes:
        date = pdfdoc.PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        entries = {
            "Title": pdfdoc.PDFString(self.title or "Hexforge"),
            "Author": pdfdoc.PDFString(self.author),
            "CreationDate": date,
            "ModDate": date,
            "Producer": pdfdoc.PDFString(self.producer),
            "Creator": pdfdoc.PDFString(self.creator),
            "Subject": pdfdoc.PDFString(self.subject),
            "Keywords": pdfdoc.PDFString(self.keywords),
            "Trapped": pdfdoc.PDFName(self.trapped),
            "GTS_PDFXVersion": pdfdoc.PDFString(PDFX_VERSION),
            "GTS_PDFXConformance": pdfdoc.PDFString(PDFX_VERSION),
        }
        return pdfdoc.PDFDictionary(entries).format(document)


def _xmp_date(document: Any) -> str:
    """The Info dictionary's date (``document._timeStamp``: fixed under ``invariant=1``) in XMP's notation."""
    ts = document._timeStamp
    y, mo, d, h, mi, s = ts.YMDhms
    sign = "-" if ts.dhh < 0 else "+"
    return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}{sign}{abs(ts.dhh):02d}:{ts.dmm:02d}"


def xmp(document: Any) -> bytes:
    """The XMP packet of a reportlab ``document``: the same title, author, subject, keywords, creator, producer,
    dates, trapping and PDF/X version as its Info dictionary (:class:`_Info`), so that the two agree."""
    from .markup import escape

    info = document.info
    date = _xmp_date(document)
    fields = [
        "<dc:format>application/pdf</dc:format>",
        f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(info.title or "Hexforge")}</rdf:li></rdf:Alt>'
        "</dc:title>",
    ]
    if info.author:
        fields.append(f"<dc:creator><rdf:Seq><rdf:li>{escape(info.author)}</rdf:li></rdf:Seq></dc:creator>")
    if info.subject:
        fields.append(
            f'<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{escape(info.subject)}</rdf:li></rdf:Alt>'
            "</dc:description>"
        )
    fields += [
        f"<xmp:CreateDate>{date}</xmp:CreateDate>",
        f"<xmp:ModifyDate>{date}</xmp:ModifyDate>",
        f"<xmp:MetadataDate>{date}</xmp:MetadataDate>",
        f"<xmp:CreatorTool>{escape(info.creator)}</xmp:CreatorTool>",
        f"<pdf:Producer>{escape(info.producer)}</pdf:Producer>",
    ]
    if info.keywords:
        fields.append(f"<pdf:Keywords>{escape(info.keywords)}</pdf:Keywords>")
    fields += [
        f"<pdf:Trapped>{escape(str(info.trapped))}</pdf:Trapped>",
        f"<pdfxid:GTS_PDFXVersion>{PDFX_VERSION}</pdfxid:GTS_PDFXVersion>",
        f"<pdfx:GTS_PDFXVersion>{PDFX_VERSION}</pdfx:GTS_PDFXVersion>",
        f"<pdfx:GTS_PDFXConformance>{PDFX_VERSION}</pdfx:GTS_PDFXConformance>",
    ]
    lines = [
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
        '<rdf:Description rdf:about=""',
        ' xmlns:dc="http://purl.org/dc/elements/1.1/"',
        ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
        ' xmlns:pdf="http://ns.adobe.com/pdf/1.3/"',
        ' xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/"',
        ' xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">',
        *fields,
        "</rdf:Description>",
        "</rdf:RDF>",
        "</x:xmpmeta>",
        '<?xpacket end="w"?>',
    ]
    return "\n".join(lines).encode("utf-8")


class _Metadata(pdfdoc.PDFObject):
    """The catalog's ``Metadata`` stream: the XMP packet (:func:`xmp`), made when the file is written (the title is
    set after :func:`identify`) and left uncompressed, as XMP is, so that a tool that does not parse PDF finds it."""

    __RefOnly__ = 1

    def format(self, document: Any) -> bytes:
        content = xmp(document)
        head = pdfdoc.PDFDictionary(
            {"Type": pdfdoc.PDFName("Metadata"), "Subtype": pdfdoc.PDFName("XML"), "Length": len(content)}
        ).format(document)
        return head + b"\nstream\n" + content + b"\nendstream\n"


def identify(canvas: Any, intent: str = DEFAULT_OUTPUT_INTENT) -> None:
    """Make the document of reportlab ``canvas`` a PDF/X-1a:2003 file: the output intent (its ICC profile embedded,
    Flate-compressed) in the catalog, the PDF/X keys in the Info dictionary, and the same identification in an XMP
    metadata stream (PDF/X-1a:2003 does not ask for one, but PDF/X-4 and some checkers do, and it costs nothing).
    Call it before anything is drawn."""
    oi = _intent(intent)
    doc = canvas._doc
    catalog = _Catalog()
    catalog.__dict__.update(doc.Catalog.__dict__)
    doc.Catalog = doc._catalog = catalog
    info = _Info()
    info.__dict__.update(doc.info.__dict__)
    doc.info = info
    profile = pdfdoc.PDFStream(
        dictionary=pdfdoc.PDFDictionary({"N": 4}), content=_profile(intent), filters=[pdfdoc.PDFZCompress]
    )
    profile.__Comment__ = f"output intent profile: {oi.profile}"
    output = pdfdoc.PDFDictionary(
        {
            "Type": pdfdoc.PDFName("OutputIntent"),
            "S": pdfdoc.PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": pdfdoc.PDFString(oi.identifier),
            "OutputCondition": pdfdoc.PDFString(oi.condition),
            "RegistryName": pdfdoc.PDFString("http://www.color.org"),
            "Info": pdfdoc.PDFString(oi.info),
            "DestOutputProfile": doc.Reference(profile, "HexforgeOutputProfile"),
        }
    )
    catalog.OutputIntents = pdfdoc.PDFArray([doc.Reference(output, "HexforgeOutputIntent")])
    catalog.Metadata = doc.Reference(_Metadata(), "HexforgeMetadata")
