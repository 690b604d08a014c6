"""``forge verify --book RULES``: the rulebook itself read and checked where a machine can check it.

The rulebook is the user's file (.txt, .md or .pdf) and is never stored in the project: it is read, checked and
forgotten.  The pure functions here parse it into numbered lines (:func:`read_book`, :func:`parse_book`), numbered
rules and headings (:func:`headings`), the table of contents (:func:`contents`), cross-references
(:func:`cross_refs`), places given with a hex (:func:`place_mentions`), arithmetic (:func:`arithmetic`) and counts
(:func:`counts`); :func:`check_book` turns them into findings against a game's data:

=====================  ========  ==================================================================================
kind                   severity  meaning
=====================  ========  ==================================================================================
``book-numbering``     warning   a rule number given twice, or skipped (the book contradicts itself)
``book-order``         info      a case that comes before its predecessor in the text (an extraction may read a box
                                 or column late: listed, not claimed)
``book-contents``      warning   the table of contents lists a rule the body does not have, or under another title
``book-xref``          error     a cross-reference to a rule the book does not have
``book-xref-unchecked`` info     a cross-reference beyond the book's last rule (a scenario booklet, the standard
                                 rules), or to a case of a rule the text numbers no case of: not checked
``book-xref-topic``    warning   a cross-reference whose target is about something else than the citing sentence,
                                 while another rule's heading fits it (both quoted)
``book-place``         error     the book puts a place the map names in another hex than the map
``book-place-twice``   warning   the book gives one place two different hexes (both lines quoted)
``book-arithmetic``    error     a sum, difference, product, quotient or odds ratio in the text that is wrong
``book-count``         error     a count (game length in turns, counters) that differs from the data's
``book-not-encoded``   info      a numeric or positional statement no worked example encodes (no example's
                                 ``source_line`` within :data:`NEAR` lines of its sentence)
=====================  ========  ==================================================================================

The topic match of a cross-reference is deliberately conservative: the citing sentence's content words are
compared with the target's heading and first sentences, weighted by how rare each word is in the book; a mismatch
is reported only when no word of the target's heading is in the sentence, the target shares little with it, and
another rule's heading names what the sentence is about.  Anything less clear is no finding.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .. import model as m
from ..errors import Finding

__all__ = [
    "NEAR",
    "Arith",
    "Book",
    "BookError",
    "Count",
    "Heading",
    "PlaceMention",
    "Ref",
    "Statement",
    "arithmetic",
    "book_coverage",
    "check_book",
    "contents",
    "counts",
    "cross_refs",
    "headings",
    "numbering",
    "parse_book",
    "place_mentions",
    "read_book",
    "topic_mismatch",
]

NEAR = 3
"""A statement counts as encoded when an example's ``source_line`` (or a ``stated_elsewhere`` line) is this close."""


class BookError(Exception):
    """A rulebook that cannot be read (missing, unreadable, no text, a format other than .txt, .md, .pdf)."""


# =================================================================================================== reading
_ARTEFACT = re.compile(r"<\|[^|>]*\|>")
"""Markers a text extraction leaves in a line (``<|...|>``): not the book's words."""


@dataclass(frozen=True)
class Book:
    """A rulebook as numbered lines (line 1 is the first)."""

    lines: tuple[str, ...]
    name: str = "book"

    def line(self, no: int) -> str:
        return self.lines[no - 1] if 1 <= no <= len(self.lines) else ""


def parse_book(text: str, name: str = "book") -> Book:
    """A book from its text: one entry per line, extraction markers removed.

    >>> parse_book("a\\nb").lines
    ('a', 'b')
    """
    return Book(tuple(_ARTEFACT.sub("", ln).rstrip() for ln in text.replace("\r\n", "\n").split("\n")), name)


def read_book(path: str | Path) -> Book:
    """Read a rulebook: .txt and .md as UTF-8 text, .pdf by pypdf's text extraction (pages one after another)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".txt", ".md", ".pdf"):
        raise BookError(f"{p}: a rulebook must be a .txt, .md or .pdf file, not {suffix or 'a file without suffix'}")
    if p.is_dir():
        raise BookError(f"{p}: is a directory, not a rulebook file")
    if not p.is_file():
        raise BookError(f"{p}: no such file")
    try:
        if suffix == ".pdf":
            from pypdf import PdfReader
            from pypdf.errors import PyPdfError

            try:
                reader = PdfReader(str(p))
                text = "\n".join(page.extract_text() or "" for page in reader.pages)
            except (PyPdfError, ValueError, KeyError) as e:
                raise BookError(f"{p}: not a readable PDF ({e})") from None
        else:
            text = p.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError as e:
        raise BookError(f"{p}: {e.strerror or e}") from None
    if not text.strip():
        raise BookError(f"{p}: no text in the file (a scanned PDF needs OCR first)")
    return parse_book(text, p.name)


# =================================================================================================== headings
@dataclass(frozen=True)
class Heading:
    """A numbered rule or case: ``7.6 Retreats``."""

    number: str
    """As printed (``7.6``, ``10.0``, ``4.``)."""
    title: str
    line: int
    body: str = ""
    """The heading's own line after the title and the lines up to the next heading (the rule's first text)."""

    @property
    def key(self) -> str:
        return norm(self.number)


def norm(number: str) -> str:
    """A rule number as a key: ``7.0`` and ``7.`` are rule 7, ``4.10`` stays ``4.10``.

    >>> [norm(x) for x in ("7.0", "7.", "10.0", "4.10", "7.1.0")]
    ['7', '7', '10', '4.10', '7.1']
    """
    parts = number.strip(".").split(".")
    while len(parts) > 1 and parts[-1] == "0":
        parts.pop()
    return ".".join(str(int(p)) for p in parts)


def _tuple(key: str) -> tuple[int, ...]:
    return tuple(int(p) for p in key.split("."))


_MD = re.compile(r"^(#{1,6})\s+(.*)$")
_NUM = re.compile(
    r"^\s*(?:\[(?P<b>\d{1,2}(?:\.\d{1,2}){1,3})\]|(?P<n>\d{1,2}(?:\.\d{1,2}){1,3})\.?|(?P<s>\d{1,2})\.)"
    r"(?=\s)\s+(?P<t>\S.*)$"
)
_LETTER = re.compile(r"^\s*[A-Z]\.\s+\S")
_TOC_LINE = re.compile(r"\.{3,}|\t")


def _title_and_rest(text: str) -> tuple[str, str]:
    """Split ``Retreats: Except in ...`` into the title and the rest; a heading line without a colon is all title
    when it is short, else its first few words."""
    text = text.strip()
    if ":" in text[:60]:
        t, _, rest = text.partition(":")
        return t.strip(), rest.strip()
    return text, ""


_UNIT_WORDS = frozenset(
    re.findall(r"\S+", "MP MPs VP VPs mp mps vp vps hex hexes points point miles km x times turns steps")
)
"""Words that follow a quantity, not a rule number: "1.5 MP per hex" (case-sensitive: "Hex Control" is a title)."""


def _looks_like_title(title: str, rest: str) -> bool:
    """A plain-text heading's title: short, most of its longer words capitalised, not a quantity's unit.

    >>> [_looks_like_title(t, "") for t in ("Combat Resolution", "How to Read Units", "MP per hex", "units move")]
    [True, True, False, False]
    """
    words = title.split()
    if not words or words[0] in _UNIT_WORDS or (len(title) > 60 and not rest):
        return False
    long = [w for w in words if len(w) > 3]
    return len(words) <= 10 and (not long or sum(w[0].isupper() for w in long) * 2 >= len(long))


def headings(book: Book) -> list[Heading]:
    """The numbered headings of the book, in order.

    A heading is a line that starts with a rule number -- ``[7.6] Retreats:``, ``7.6 Combat Resolution``,
    ``## 5.1 Stacking Limits`` -- followed by a capitalised title.  A number without a dot after it (``1. Soviet
    Supply``) is a heading only as a Markdown heading that is not a step under an unnumbered or lettered heading
    (``## C. SOVIET PLAYER TURN`` / ``### 1. INITIAL SUPPLY PHASE`` is a step of a sequence, not rule 1).  Lines of a
    table of contents (dot leaders, tabs) are not headings.
    """
    out: list[tuple[Heading, int]] = []
    stack: list[tuple[int, bool]] = []  # markdown (level, numbered rule?) of the open headings
    for no, raw in enumerate(book.lines, 1):
        if _TOC_LINE.search(raw):
            continue
        md = _MD.match(raw)
        text = md.group(2) if md else raw
        level = len(md.group(1)) if md else 0
        mt = _NUM.match(text)
        is_rule = False
        if mt:
            number = mt.group("b") or mt.group("n") or mt.group("s")
            rest = mt.group("t")
            single = mt.group("s") is not None
            if (
                not (rest[:1].isupper() or re.match(r"\d+(?:ST|ND|RD|TH)\b", rest))
                or (single and not md)
                or (len(rest) > 200 and not mt.group("b"))
            ):
                mt = None
            elif single:
                parent = next((numbered for lv, numbered in reversed(stack) if lv < level), True)
                is_rule = parent
                mt = mt if parent else None
            else:
                is_rule = True
            if mt and is_rule:
                title, first = _title_and_rest(rest)
                if not md and not mt.group("b") and not _looks_like_title(title, first):
                    is_rule = False  # a sentence or a table row that starts with a decimal ("1.5 MP per hex")
                else:
                    out.append((Heading(number, title, no, first), no))
        if md:
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, is_rule))
    # the body: the text up to the next heading
    result = []
    for i, (h, no) in enumerate(out):
        end = out[i + 1][1] if i + 1 < len(out) else len(book.lines) + 1
        body = " ".join([h.body, *(book.lines[k - 1].strip() for k in range(no + 1, min(end, no + 40)))])
        result.append(Heading(h.number, h.title, h.line, " ".join(body.split())))
    return result


@dataclass(frozen=True)
class Issue:
    """A problem of the book's own structure (numbering, contents)."""

    kind: str
    line: int
    message: str
    other: int | None = None


def numbering(hs: list[Heading]) -> list[Issue]:
    """Rule numbers given twice, out of order or with a gap, among ``hs`` (in book order).

    Order is checked between siblings: 7.7.2 before 7.7.1 is out of order; 8.4 after 8.2 leaves out 8.3.  A case
    numbered under a rule the book has no heading for is not a gap (its rule may be printed as a title only).
    """
    out: list[Issue] = []
    first: dict[str, Heading] = {}
    last_child: dict[str, Heading] = {}
    every = {h.key for h in hs}
    for h in hs:
        key = h.key
        if key in first:
            o = first[key]
            out.append(
                Issue(
                    "book-numbering",
                    h.line,
                    f"rule {h.number} '{h.title}' (line {h.line}) repeats the number of {o.number} '{o.title}' "
                    f"(line {o.line})",
                    o.line,
                )
            )
            continue
        first[key] = h
        t = _tuple(key)
        parent = ".".join(map(str, t[:-1])) or ""
        prev = last_child.get(parent)
        if prev is not None:
            pt = _tuple(prev.key)[-1]
            if t[-1] < pt:
                out.append(
                    Issue(
                        "book-order",
                        h.line,
                        f"rule {h.number} '{h.title}' (line {h.line}) comes after {prev.number} '{prev.title}' "
                        f"(line {prev.line}): out of order in the text (a box or column the extraction read "
                        "late may explain it; not checked against the page)",
                        prev.line,
                    )
                )
                continue
            missing = ".".join(map(str, (*t[:-1], pt + 1)))
            if t[-1] > pt + 1 and missing not in every:  # 19.0 printed after 20.0 is out of order, not missing
                out.append(
                    Issue(
                        "book-numbering",
                        h.line,
                        f"rule {h.number} '{h.title}' (line {h.line}) follows {prev.number} (line {prev.line}): "
                        f"no rule {missing}",
                        prev.line,
                    )
                )
        last_child[parent] = h
    return out


_TOC_ENTRY = re.compile(r"(?:^|\t|\s{2,})(\d{1,2}(?:\.\d{1,2})*)\.?\s+([^\t.]+?)\s*\.{3,}\s*\d+")


def contents(book: Book) -> list[tuple[str, str, int]]:
    """The table of contents, when the book has one: (number, title, line) of every numbered entry with dot
    leaders and a page number (``4. Movement ..... 3``)."""
    out = []
    for no, raw in enumerate(book.lines, 1):
        for mt in _TOC_ENTRY.finditer(raw):
            out.append((mt.group(1), mt.group(2).strip(), no))
    return out


def _words(text: str) -> set[str]:
    out = {_stem(w) for w in re.findall(r"[a-zà-ÿ]+", text.casefold()) if w not in _STOP and len(w) > 2}
    # EZOC, EZOCs: the enemy's ZOC, a wargame's usual abbreviation
    out |= {a.casefold() for a in re.findall(r"\bE([A-Z]{2,5})s?\b", text)}
    return out


def contents_issues(book: Book, hs: list[Heading]) -> list[Issue]:
    """Entries of the table of contents that the body does not have, or has under a title sharing no word."""
    by_key = {h.key: h for h in hs}
    cases: dict[str, set[str]] = defaultdict(set)
    for c in hs:
        if "." in c.key:
            cases[c.key.split(".")[0]] |= _words(c.title)
    out = []
    for number, title, line in contents(book):
        h = by_key.get(norm(number))
        if h is None:
            out.append(Issue("book-contents", line, f"the contents list {number} '{title}', which the body lacks"))
        elif _words(title) and not _words(title) & (_words(h.title) | _words(h.body[:200]) | cases.get(h.key, set())):
            out.append(
                Issue(
                    "book-contents",
                    line,
                    f"the contents list {number} as '{title}', the body's {h.number} (line {h.line}) is '{h.title}'",
                    h.line,
                )
            )
    return out


# =================================================================================================== sentences
def _flow(book: Book) -> tuple[str, list[int]]:
    """The book as one text (lines joined by a space, blank lines as a paragraph break) and each line's start."""
    parts: list[str] = []
    starts: list[int] = []
    pos = 0
    lines = book.lines
    for i, ln in enumerate(lines):
        starts.append(pos)
        s = ln.strip() + ("\n" if not ln.strip() else " ")
        if s == "\n" and _mid_sentence(lines, i):
            s = " "  # a page or column break inside a sentence
        if _LEGEND.match(s) and parts and parts[-1].endswith(" "):
            parts[-1] = parts[-1][:-1] + "\n"  # the same length: the offsets stay right
        parts.append(s)
        pos += len(s)
    return "".join(parts), starts


def _mid_sentence(lines: tuple[str, ...], i: int) -> bool:
    """Is blank line ``i`` inside a sentence: the text before it ends without a stop, and either the text after it
    goes on in lower case ("of any given KG's / (blank) / range negates ...") or the text before ends in a lower-case
    word or a comma (a heading, in capitals, is not continued; nor is a blank line followed by a heading)."""
    before = next((x.strip() for x in reversed(lines[:i]) if x.strip()), "")
    after = next((x.strip() for x in lines[i + 1 : i + 4] if x.strip()), "")
    if not before or not after or before[-1] in ".!?:)" or _NUM.match(after) or after[:1] in "#[":
        return False
    # goes on in lower case, or a sentence broken after a lower-case word ("the rest of the 88th / Division in D2")
    return after[:1].islower() or before[-1].islower() or before[-1] in ",;"


_LEGEND = re.compile(r"^\S{1,10}(?:\s\S{1,3})?\s*=\s")
"""A line of a key or legend (``Red # = If Soviet defenders ...``): a statement of its own, whatever precedes it."""


def _line_of(starts: list[int], pos: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= pos:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


_SENT_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z\[(#*])|\n|(?<=\S)\s+(?=\[\d+\.\d+\])")


def _bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence of ``text`` around ``start:end`` begins and ends."""
    left = 0
    for mt in _SENT_END.finditer(text, max(0, start - 2000), start):
        left = mt.end()
    mt2 = _SENT_END.search(text, end)
    return left, (mt2.start() if mt2 else len(text))


# =================================================================================================== cross-references
@dataclass(frozen=True)
class Ref:
    """A cross-reference: the rule it names, where, and the sentence that cites it."""

    target: str
    line: int
    sentence: str
    text: str
    """The reference as printed: ``(see 7.5)``."""
    clause: str = ""
    """The part of the sentence this reference belongs to: from the previous reference in the sentence (or the
    sentence's start) to this one ("limits on units in a hex (7.1.1) and a risk of overconcentration (7.4)")."""


_PAREN = re.compile(r"[(\[]([^()\[\]]{1,60})[)\]]")
_PAREN_OK = re.compile(
    r"^\s*(?:(?:see(?:\s+also)?|cf\.?|rule|rules|case|section|per|also|and|&|or|,|;|–|-|to|\d{1,2}(?:\.\d{1,2}){1,3})\s*)+$",
    re.I,
)
_WORD_REF = re.compile(r"\b(?:[Rr]ules?|[Cc]ase|[Ss]ection)\s+(\d{1,2}(?:\.\d{1,2}){0,3})\b(?!\s*(?:mm|in|%))")
_REF_NUM = re.compile(r"\d{1,2}(?:\.\d{1,2}){1,3}")


def cross_refs(book: Book) -> list[Ref]:
    """Every cross-reference: a bracket holding only rule numbers, optionally after "see" or "rule" -- ``(see
    7.5)``, ``(14.9)``, ``(7.1.2, 7.2)``, ``[19.1]`` -- and "rule 8.5", "Rule 10.0", "rule 25" in running text.
    A heading's own number is not a reference; ranges (``16.2 – 16.5``) give their two ends."""
    text, starts = _flow(book)
    heads = {h.line for h in headings(book)}
    found: list[tuple[int, int, str, str]] = []
    seen: set[tuple[int, str]] = set()

    def add(target: str, pos: int, end: int, printed: str) -> None:
        line = _line_of(starts, pos)
        if line in heads and book.line(line).lstrip(" #[").startswith(target) and pos - starts[line - 1] < 8:
            return
        if (pos, target) in seen or _DEFINES.match(text, end):
            return  # "Rule 4.1 is the first Case of ...": the book explains its numbering, it cites nothing
        seen.add((pos, target))
        found.append((pos, end, target, printed))

    for mt in _PAREN.finditer(text):
        inner = mt.group(1)
        if _PAREN_OK.match(inner) and _REF_NUM.search(inner) and not _UNIT_AFTER.match(text, mt.end()):
            for n in _REF_NUM.finditer(inner):
                add(n.group(0), mt.start(), mt.end(), mt.group(0))
    for mt in _WORD_REF.finditer(text):
        add(mt.group(1), mt.start(), mt.end(), mt.group(0))
    found.sort()
    out: list[Ref] = []
    prev_end = 0
    for pos, end, target, printed in found:
        left, right = _bounds(text, pos, end)
        start = max(left, prev_end if prev_end <= pos else left)
        clause = " ".join(text[start:end].split()[-_WINDOW:])
        out.append(Ref(target, _line_of(starts, pos), " ".join(text[left:right].split()), printed, clause))
        if end > prev_end:
            prev_end = end
    out.sort(key=lambda r: (r.line, r.text))
    return out


_UNIT_AFTER = re.compile(r"\s*(?:MPs?|VPs?|hex(?:es)?|points?|miles|km|times|%)(?!\w)")
"""A bracketed number followed by a unit is a value ("one and a half (1.5) MP"), not a reference."""

_WINDOW = 14
"""Words before a reference that say what it is cited for (a long sentence may change topic before it)."""

_DEFINES = re.compile(r"\s+is\s+(?:the|a)\s+(?:first|second|third|\w+th)?\s*(?:rule|case|subcase)\b", re.I)


_STOP = frozenset(
    {
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "your",
        "with",
        "this",
        "that",
        "these",
        "those",
        "from",
        "into",
        "onto",
        "than",
        "then",
        "there",
        "their",
        "they",
        "them",
        "its",
        "it's",
        "has",
        "have",
        "had",
        "was",
        "were",
        "will",
        "shall",
        "may",
        "must",
        "can",
        "cannot",
        "could",
        "would",
        "should",
        "also",
        "any",
        "all",
        "each",
        "every",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "other",
        "another",
        "such",
        "same",
        "only",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "what",
        "how",
        "why",
        "see",
        "rule",
        "rules",
        "case",
        "cases",
        "section",
        "page",
        "example",
        "examples",
        "following",
        "follows",
        "below",
        "above",
        "per",
        "unit",
        "units",
        "player",
        "players",
        "game",
        "turn",
        "turns",
        "phase",
        "phases",
        "hex",
        "hexes",
        "side",
        "sides",
        "number",
        "numbers",
        "table",
        "tables",
        "chart",
        "charts",
        "more",
        "most",
        "less",
        "least",
        "very",
        "just",
        "even",
        "still",
        "being",
        "been",
        "does",
        "did",
        "done",
        "doing",
        "use",
        "used",
        "using",
        "after",
        "before",
        "during",
        "under",
        "over",
        "about",
        "between",
        "through",
        "against",
        "without",
        "within",
        "upon",
        "some",
        "many",
        "much",
        "both",
        "either",
        "neither",
        "nor",
        "yet",
        "friendly",
        "enemy",
        "given",
        "give",
        "gives",
        "apply",
        "applies",
        "applied",
        "effect",
        "effects",
        "note",
        "notes",
        "called",
        "call",
        "play",
        "played",
        "playing",
    }
)


def _stem(w: str) -> str:
    """A crude English stem, enough to match retreat/retreats/retreating/retreated, disrupted/disruption,
    city/cities, move/moving, flip/flipped, ZOC/ZOCs.

    >>> [_stem(w) for w in ("retreats", "retreated", "disruption", "cities", "moving", "move", "flipped", "zocs")]
    ['retreat', 'retreat', 'disrupt', 'city', 'mov', 'mov', 'flip', 'zoc']
    """
    for suf in ("ments", "ment", "ions", "ion", "ings", "ing", "ies", "ied", "es", "ed", "s"):
        if len(w) - len(suf) >= 3 and w.endswith(suf) and not w.endswith("ss"):
            w = w[: -len(suf)]
            if suf in ("ies", "ied"):
                w += "y"
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "ls":
        w = w[:-1]
    return w


def _acronyms(title: str, body: str) -> set[str]:
    """Short names of a heading's topic: its initials ("Zones of Control" -> zoc) and a capitalised abbreviation
    its first sentence introduces in brackets or quotes ("(or “ZOC”)")."""
    out = set()
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", title)).casefold()
    if len(initials) >= 2:
        out.add(initials)
    for a in re.findall(r"[(“\"]\s*(?:or\s+)?[“\"]?([A-Z]{2,6})[”\")]", _first_sentences(body, 2)):
        out.add(a.casefold())
    return out


def _first_sentences(body: str, n: int = 2) -> str:
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z])", body)
    return " ".join(parts[:n])[:400]


@dataclass
class _Topics:
    """The words of each rule's heading and first sentences, and how rare each word is in the book."""

    heads: list[Heading]
    title: dict[str, set[str]] = field(default_factory=dict)
    own: dict[str, set[str]] = field(default_factory=dict)
    """The words of the rule's own heading only (no case's, no parent's)."""
    lead: dict[str, set[str]] = field(default_factory=dict)
    pairs: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    """Content words side by side in the rule's heading and text."""
    body: dict[str, set[str]] = field(default_factory=dict)
    df: dict[str, int] = field(default_factory=dict)
    """How many rules' texts hold each word."""
    idf: dict[str, float] = field(default_factory=dict)
    heads_by_key: dict[str, Heading] = field(default_factory=dict)

    def __post_init__(self) -> None:
        df: dict[str, int] = defaultdict(int)
        children: dict[str, list[Heading]] = defaultdict(list)
        for h in self.heads:
            if "." in h.key:
                children[h.key.rsplit(".", 1)[0]].append(h)
        for h in self.heads:
            if h.key in self.title:
                continue
            self.title[h.key] = _words(h.title) | _acronyms(h.title, h.body)
            self.own[h.key] = _words(h.title)
            self.lead[h.key] = _words(_first_sentences(h.body))
            self.pairs[h.key] = _pairs(h.title + " " + h.body)
            self.body[h.key] = _words(h.body)
            for c in children.get(h.key, []):
                self.title[h.key] |= _words(c.title)
        by_key = self.heads_by_key = {h.key: h for h in self.heads}
        for key in list(self.title):
            parts = key.split(".")
            for i in range(1, len(parts)):  # "13.1 Procedure" is the procedure of "13 Mobile Assaults"
                if (up := by_key.get(".".join(parts[:i]))) is not None:
                    self.title[key] = self.title[key] | _words(up.title)
        for h in self.heads:
            for w in _words(h.title + " " + h.body):
                df[w] += 1
        self.df = dict(df)
        n = max(len(self.heads), 1)
        self.idf = {w: math.log((n + 1) / (d + 0.5)) for w, d in df.items()}

    def weight(self, w: str) -> float:
        return max(self.idf.get(w, math.log(len(self.heads) + 1)), 0.0)

    def score(self, key: str, words: set[str]) -> float:
        t, lead = self.title.get(key, set()), self.lead.get(key, set())
        return sum(2 * self.weight(w) for w in words & t) + sum(self.weight(w) for w in (words & lead) - t)


def topic_mismatch(
    topics: _Topics, ref: Ref, cited_too: Iterable[str] = (), own: str | None = None, shared: bool = False
) -> list[Heading]:
    """The rules whose headings fit the citing clause clearly better than the cited rule's (the best, equally
    good ones), or an empty list.

    Reported only when (a) the target's own heading has content words and none of them, nor of its rule's or its
    cases' headings, is anywhere in the sentence; (b) no two content words side by side in the clause just before
    the reference (:attr:`Ref.clause`, cut at commas, "and", "or") stand side by side in the target's text, nor
    is a word of the clause that at most :data:`RARE` rules use in it; (c) another
    rule's heading shares a word with that clause, that rule being neither the target's own rule or case, nor the
    rule the sentence stands in (``own``) or its rule or cases; and (d) it scores at least :data:`CLEARLY` times
    the target on heading and first sentences, each shared word weighted by how rare it is in the book.  A
    reference citing several rules at once (``cited_too``) is never judged: its sentence spans them.

    Two more ways find the rule meant, in place of (a) to (d), from the words the reference is cited for (its own
    part of the sentence, :attr:`Ref.clause`, where the sentence cites rules in several places, ``shared``: "a Line
    of Supply (14.3) cannot be traced through two consecutive vacant hexes in an enemy ZOC (14.5)"; else the whole
    sentence): the clause names the whole heading of another case of the cited rule's rule word for word ("General
    Supply"), and no other of those words is in the target's headings (:func:`_named_heading`); or, in a shared
    sentence whose part for this reference has no word of the target's headings, the part repeats
    :data:`SAID` words in a row of another rule's text, and no three of the target's (:func:`_said_elsewhere`)."""
    key = norm(ref.target)
    title = topics.title.get(key)
    if len(set(cited_too)) > 1 or not topics.own.get(key) or not title:
        return []
    whole = _words(_strip_refs(ref.sentence))
    part = _strip_refs(ref.clause or ref.sentence)
    cited_for = _words(part) | (set() if shared else whole)  # the words this reference is cited for
    if named := _named_heading(topics, key, part, cited_for, own):
        return named
    if shared and not cited_for & title and (said := _said_elsewhere(topics, key, part, own)):
        return said
    near_text = _last_clause(part)
    near = _words(near_text)
    implied = {_stem(t) for w, t in IMPLIES.items() if w in near_text.casefold()}
    if not near or (whole | implied) & title or _pairs(near_text) & topics.pairs.get(key, set()):
        return []
    if any(topics.df.get(w, 0) <= RARE for w in near & topics.body.get(key, set())):
        return []  # a word only a rule or two use ("interdicted") is in the target's text
    mine = topics.score(key, near)
    scored: list[tuple[float, Heading]] = []
    for h in topics.heads:
        related = h.key == key or h.key.startswith(key + ".") or key.startswith(h.key + ".")
        mine_rule = own is not None and (h.key == own or own.startswith(h.key + ".") or h.key.startswith(own + "."))
        if related or mine_rule or not near & _words(h.title):
            continue
        scored.append((topics.score(h.key, near), h))
    if not scored:
        return []
    top = max(sc for sc, _ in scored)
    if top < CLEARLY * max(mine, 0.8):
        return []
    best = [h for sc, h in scored if sc == top]
    # the most specific of equals: 18.5 Pontoon Bridges rather than 18 Major River Assaults and Pontoon Bridges
    return [h for h in best if not any(o.key.startswith(h.key + ".") for o in best)][:3]


def _cited_in(ref: Ref, width: int = 200) -> str:
    """The sentence of a reference to quote: its first ``width`` characters, or, where the reference stands
    beyond them (a long list read as one sentence), the ``width`` characters that end with it."""
    at = ref.sentence.find(ref.clause) if ref.clause else -1
    end = at + len(ref.clause)
    if at < 0 or end <= width:
        return ref.sentence[:width]
    return "…" + ref.sentence[end - width : end].split(" ", 1)[-1]  # from a word's start


def _unrelated(key: str, other: str, own: str | None) -> bool:
    """Is rule ``other`` neither the cited rule ``key`` (its rule or cases) nor the rule the sentence stands in?"""
    related = other == key or other.startswith(key + ".") or key.startswith(other + ".")
    mine = own is not None and (other == own or own.startswith(other + ".") or other.startswith(own + "."))
    return not (related or mine)


def _seq(text: str) -> list[str]:
    """The content words of ``text`` in order, stemmed."""
    return [_stem(w) for w in re.findall(r"[a-zà-ÿ]+", text.casefold()) if w not in _STOP and len(w) > 2]


def _named_heading(topics: _Topics, key: str, part: str, cited_for: set[str], own: str | None) -> list[Heading]:
    """The cases of the cited rule's own rule whose whole heading (two content words or more) the clause ``part``
    names word for word, where no other word the reference is cited for (``cited_for``) is in the cited rule's
    headings, and the clause does not name the cited rule's own heading: "Check for General Supply for all Soviet
    units (14.6)", 14.4 being General Supply and 14.6 Isolation and Attrition of Out of Supply Units, names 14.4
    (the one word it shares with 14.6, supply, is General Supply's).  Only a case of the same rule counts (a
    neighbouring number, the usual slip): a heading of another rule named in passing ("the Terrain Effects Chart
    (see 8.2)") may be what the cited rule explains."""
    text = f" {' '.join(_seq(part))} "
    if f" {' '.join(_seq(topics.heads_by_key[key].title))} " in text:
        return []
    top = key.split(".")[0]
    found = []
    for h in topics.heads:
        name = _seq(h.title)
        same_rule = h.key.split(".")[0] == top
        named = len(name) >= 2 and same_rule and _unrelated(key, h.key, own) and f" {' '.join(name)} " in text
        if named and not (cited_for - set(name)) & topics.title[key]:
            found.append(h)
    return [h for h in found if not any(o.key.startswith(h.key + ".") for o in found)][:3]


SAID = 8
"""Words in a row (articles and all) that a clause and another rule's text must share for the clause to repeat it:
"two consecutive vacant hexes in an enemy ZOC" (a common phrase such as "in an enemy zone of control" is six)."""


def _run(a: list[str], b: list[str]) -> int:
    """The length of the longest run of words ``a`` and ``b`` share."""
    best = 0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


def _raw(text: str) -> list[str]:
    return re.findall(r"[a-zà-ÿ]+", text.casefold())


def _said_elsewhere(topics: _Topics, key: str, part: str, own: str | None) -> list[Heading]:
    """The rules whose text repeats the clause ``part`` best (:data:`SAID` words in a row or more; the first three
    of equals), where the cited rule's text shares no three words in a row with it."""
    words = _raw(part)
    if len(words) < SAID or _run(words, _raw(topics.heads_by_key[key].body)) >= 3:
        return []
    scored = [(_run(words, _raw(h.body)), h) for h in topics.heads if _unrelated(key, h.key, own)]
    top = max((n for n, _ in scored), default=0)
    best = [h for n, h in scored if n == top]
    return best[:3] if top >= SAID else []


def _last_clause(text: str) -> str:
    """The words a reference at the end of ``text`` is cited for: after the last comma, semicolon, "and", "or"."""
    parts = re.split(r"[,;:]|\s(?:and|or|but|then)\s", text.strip().rstrip(" ([").strip())
    tail = [p for p in parts if _words(p)]
    return tail[-1] if tail else ""


def _pairs(text: str) -> set[tuple[str, str]]:
    """Content words side by side in the text (stemmed): "the Mobile Movement Phase" -> (mobil, movement)."""
    ws = [(w, _stem(w)) for w in re.findall(r"[a-zà-ÿ]+", text.casefold())]
    return {
        (a[1], b[1])
        for a, b in itertools.pairwise(ws)
        if a[0] not in _STOP and b[0] not in _STOP and len(a[0]) > 2 and len(b[0]) > 2
    }


IMPLIES = {"phase": "sequence"}
"""Words of a clause that point at a topic a heading names otherwise: a phase is defined in the sequence of play
(a "(see 4.1)" after "the Mobile Movement Phase" cites the sequence outline)."""

RARE = 2
"""A word in at most this many rules' texts is a topic of its own: found in the target's text, it matches."""

CLEARLY = 2.5
"""How many times better another rule must fit a citing sentence than the cited one for a topic warning."""


def _strip_refs(text: str) -> str:
    return re.sub(r"\([^()]*\)|\[[^\[\]]*\]", " ", text)


# =================================================================================================== places
@dataclass(frozen=True)
class PlaceMention:
    """A name given with one or more hexes: ``Cherkassy (F6)``, ``Korsun at E3``, ``hex 1919`` (no name)."""

    name: str | None
    hexes: tuple[str, ...]
    line: int
    text: str


_CLAIM = re.compile(r"((?:[A-ZÀ-Þ][\w'’-]*\s+){0,3}[A-ZÀ-Þ][\w'’-]*)(\s+hex(?:es)?)?\s*\(([^()]{1,80})\)")
_AT = re.compile(r"((?:[A-ZÀ-Þ][\w'’-]*\s+){0,3}[A-ZÀ-Þ][\w'’-]*)\s+(?:at|in hex|in)\s+([A-Z]{1,2}\d{1,3}|\d{4})\b")
_HEXWORD = re.compile(
    r"\bhex(?:es)?\s+((?:[A-Z]{1,2}\d{1,3}|\d{3,4})(?:\s*(?:,\s*(?:and|or)?|and|or|&)\s*(?:[A-Z]{1,2}\d{1,3}|\d{3,4}))*)"
)
_SPLIT = re.compile(r"\s*(?:/|,\s*(?:and|or)\b|,|\bor\b|\band\b|&)\s*")
_BEARING = re.compile(
    r"\b(?:north|south|east|west|beyond|behind|outside|near)(?:-?\w+)?\s+(?:of\s+)?(?:the\s+)?$", re.I
)


def place_mentions(book: Book, is_hex: Callable[[str], bool]) -> list[PlaceMention]:
    """Every name given with hexes (every hex in the brackets must be a hex: ``is_hex``), and every ``hex X``."""
    text, starts = _flow(book)
    out: list[PlaceMention] = []
    taken: list[tuple[int, int]] = []  # spans already read as a named place's hexes
    for mt in _CLAIM.finditer(text):
        inner = re.sub(r"^hex(?:es)?\s+", "", mt.group(3).strip())  # "Shenderovka (hex D3)"
        parts = [p for p in _SPLIT.split(inner) if p]
        if (
            not parts
            or not all(is_hex(p) for p in parts)
            or _BEARING.search(text[max(0, mt.start(1) - 40) : mt.start(1)])
        ):
            continue
        out.append(PlaceMention(mt.group(1), tuple(parts), _line_of(starts, mt.start(3)), mt.group(0)))
        taken.append(mt.span(3))
    for mt in _AT.finditer(text):
        if is_hex(mt.group(2)) and not _BEARING.search(text[max(0, mt.start(1) - 40) : mt.start(1)]):
            out.append(PlaceMention(mt.group(1), (mt.group(2),), _line_of(starts, mt.start(2)), mt.group(0)))
            taken.append(mt.span(2))
    for mt in _HEXWORD.finditer(text):
        if any(a <= mt.start(1) < b for a, b in taken):
            continue
        parts = [p for p in _SPLIT.split(mt.group(1)) if p]
        if all(is_hex(p) for p in parts):
            out.append(PlaceMention(None, tuple(parts), _line_of(starts, mt.start(1)), mt.group(0)))
    out.sort(key=lambda p: (p.line, p.text))
    return out


def _candidates(name: str) -> list[str]:
    """``Vacant Cherkassy`` -> ``Vacant Cherkassy``, ``Cherkassy``: the name may start after a capitalised word."""
    words = name.split()
    return [" ".join(words[i:]) for i in range(len(words))]


# =================================================================================================== arithmetic
@dataclass(frozen=True)
class Arith:
    """A calculation the book writes out, and its value recomputed."""

    line: int
    text: str
    stated: str
    computed: str
    ok: bool


_NUMTOK = r"\d+(?:\.\d+)?"
_OP = r"\s*(?:[+×x*÷]|(?<=\s)[-–−](?=\s))\s*"
_EXPR = re.compile(rf"(?<![\w.:/-])({_NUMTOK}(?:{_OP}{_NUMTOK})+)\s*=\s*({_NUMTOK})(?![\w:/.]\d|\s*:\s*\d|%)")
_VS = re.compile(
    rf"(?<![\w.:/-])({_NUMTOK})\s*(?:vs\.?|versus|against|to)\s*({_NUMTOK})\s*=\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)"
)
_REDUCED = re.compile(
    r"(?<![\w.])(\d+)\s+(?:reduced|cut|drops?|falls?)\s+to\s+(\d+)\s*(?:=|,|:)?\s*(?:a\s+)?loss\s+of\s+(\d+)", re.I
)


def _eval(expr: str) -> Fraction | None:
    """``2 x 3 + 1`` with × and ÷ before + and −; None when it is not plain arithmetic."""
    toks = re.findall(rf"{_NUMTOK}|[+×x*÷\-–−]", expr)
    if len(toks) < 3 or len(toks) % 2 == 0:
        return None
    nums = [Fraction(t) for t in toks[0::2]]
    ops = ["-" if o in "–−" else "*" if o in "×x" else "/" if o == "÷" else o for o in toks[1::2]]
    terms: list[Fraction] = [nums[0]]
    signs: list[int] = [1]
    for op, n in zip(ops, nums[1:], strict=True):
        if op == "*":
            terms[-1] *= n
        elif op == "/":
            if n == 0:
                return None
            terms[-1] /= n
        else:
            terms.append(n)
            signs.append(1 if op == "+" else -1)
    return sum((s * t for s, t in zip(signs, terms, strict=True)), Fraction(0))


def _agrees(stated: str, value: Fraction) -> bool:
    """The stated result equals the value, to the decimals it gives (rounded or cut off)."""
    s = Fraction(stated)
    if "." in stated:
        d = len(stated.split(".")[1])
        scale = 10**d
        return s in (Fraction(round(value * scale), scale), Fraction(math.floor(value * scale), scale))
    return s == value


def _show(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.4f}".rstrip("0").rstrip(".")


def arithmetic(book: Book) -> list[Arith]:
    """Every calculation written out in the text: ``3 + 2 = 5``, ``27÷7=3.71``, ``16 vs 4 = 4:1`` (odds: wrong only
    when the stated ratio is higher than the strengths give, since odds are rounded down to a column), ``9 reduced
    to 4 = loss of 5``."""
    out = []
    for no, raw in enumerate(book.lines, 1):
        for mt in _EXPR.finditer(raw):
            v = _eval(mt.group(1))
            if v is None or ("x" in mt.group(1) and not re.search(r"\d\s*x\s*\d", mt.group(1))):
                continue
            stated = mt.group(2)
            out.append(Arith(no, mt.group(0), stated, _show(v), _agrees(stated, v)))
        for mt in _VS.finditer(raw):
            a, d, x, y = (Fraction(mt.group(i)) for i in range(1, 5))
            if d == 0 or y == 0:
                continue
            ratio = a / d
            ok = x / y <= ratio
            out.append(Arith(no, mt.group(0), f"{mt.group(3)}:{mt.group(4)}", f"{_show(ratio)}:1", ok))
        for mt in _REDUCED.finditer(raw):
            before, after, loss = (int(mt.group(i)) for i in range(1, 4))
            out.append(Arith(no, mt.group(0), str(loss), str(before - after), before - after == loss))
    return out


# =================================================================================================== counts
@dataclass(frozen=True)
class Count:
    """A count the book states: the game's length in turns, or its counters."""

    line: int
    text: str
    what: str
    """``turns`` or ``counters``."""
    n: int


_NUMBERS = {
    w: i
    for i, w in enumerate(
        re.findall(
            r"\w+",
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen twenty",
        )
    )
}
_N = r"(\d{1,3}|" + "|".join(_NUMBERS) + r")"
_LENGTH = re.compile(
    r"\b(?:(?:game|scenario|campaign)\s+length\s*:?|length\s*:|(?:game|scenario|campaign)\s+(?:\w+\s+){0,2}?"
    r"(?:lasts?|consists? of|is played (?:in|over)|runs? (?:for|over)))\s*(?:of\s+|for\s+)?"
    rf"{_N}\s+(?:game\s+)?turns\b",
    re.I,
)
"""The game's length: "Scenario Length: 12 game turns", "the game lasts seven turns"; not "a marker lasts two
turns"."""
_COUNTERS = re.compile(
    rf"\b(?:there are\s+{_N}\s+(?:die-cut\s+|unit\s+)?counters\s+(?:included|in (?:the|this) game|supplied)"
    r"|(?:game|box|countersheet|counter sheet)\s+(?:\w+\s+){0,2}?(?:has|contains|includes|comes with|holds)\s+"
    rf"{_N}\s+(?:die-cut\s+|unit\s+)?counters)\b",
    re.I,
)
"""The game's whole counter mix ("There are 280 counters included with ..."), not "two counters labeled 266th"."""


def _int(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


def _first(mt: re.Match[str]) -> str:
    return next(g for g in mt.groups() if g is not None)


def counts(book: Book) -> list[Count]:
    """Statements of the game's length (``Scenario Length: 12 game turns``, ``the game lasts seven turns``) and of
    its counters (``There are 280 counters``)."""
    out = []
    for no, raw in enumerate(book.lines, 1):
        for mt in _LENGTH.finditer(raw):
            out.append(Count(no, mt.group(0), "turns", _int(mt.group(1))))
        for mt in _COUNTERS.finditer(raw):
            out.append(Count(no, mt.group(0), "counters", _int(_first(mt))))
    return out


# =================================================================================================== the check
@dataclass(frozen=True)
class Statement:
    """A numeric or positional statement of the book, and whether an example encodes it (or, for a count, the
    data's count was compared with it)."""

    line: int
    what: str
    text: str
    encoded: bool


def _example_lines(game: m.Game) -> list[int]:
    lines = []
    for ex in game.examples:
        if ex.source_line is not None:
            lines.append(ex.source_line)
        lines.extend(ex.stated_elsewhere.values())
    return sorted(lines)


def _sentence_lines(book: Book) -> Callable[[int], tuple[int, int]]:
    """Line -> the first and last line of the sentence that holds the line's start."""
    text, starts = _flow(book)

    def span(line: int) -> tuple[int, int]:
        pos = starts[line - 1]
        left, right = _bounds(text, pos, pos)
        return _line_of(starts, left), _line_of(starts, max(left, right - 1))

    return span


def _near(lines: list[int], span: tuple[int, int]) -> bool:
    """Is an example's line within :data:`NEAR` lines of the statement's sentence (a worked example's sentence may
    run over several lines, and the example cites one of them)?"""
    return any(span[0] - NEAR <= x <= span[1] + NEAR for x in lines)


def _gist(h: Heading, hs: list[Heading]) -> str:
    """What a rule is about, for a message: its first sentence, or the titles of its cases when it has no text."""
    first = _first_sentences(h.body, 1)[:120]
    if first:
        return f"“{first}”"
    cases = [
        f"{c.number} {c.title}"
        for c in hs
        if c.key.startswith(h.key + ".") and c.key.count(".") == 1 + h.key.count(".")
    ]
    return "its cases: " + "; ".join(cases[:6]) if cases else "no text"


def _quote(book: Book, line: int) -> str:
    return " ".join(book.line(line).split())[:160]


def check_book(game: m.Game, book: Book) -> tuple[list[Finding], list[Statement]]:
    """Every finding the book gives against ``game``, and its numeric and positional statements (for coverage)."""
    from .core import Context
    from .crosscheck import hex_names, place_hexes

    ctx = Context(game)
    src = book.name
    hs = headings(book)

    # Findings are grouped by rule: a numbering finding under the heading's number, a cross-reference under the
    # rule it cites, the others under no rule (a line of the book is not always inside a numbered rule: reference
    # sheets, examples, sequences of play); every message gives the book's line.
    at = {h.line: h.number for h in hs}
    for issue in numbering(hs) + contents_issues(book, hs):
        ctx.add(issue.kind, at.get(issue.line), f"{src} line {issue.line}: {issue.message}", book_line=issue.line)
    # cross-references: only a book with numbered rules can be cited by number
    by_key = {h.key: h for h in hs}
    if len(hs) >= 5:
        topics = _Topics(hs)
        last_rule = max(_tuple(h.key)[0] for h in hs)
        has_cases = {h.key.rsplit(".", 1)[0] for h in hs if "." in h.key}
        head_lines = {h.line for h in hs}
        refs = cross_refs(book)
        together: dict[tuple[int, str], list[str]] = defaultdict(list)
        places: dict[str, set[tuple[int, str]]] = defaultdict(set)  # the references of each sentence
        for ref in refs:
            together[(ref.line, ref.text)].append(ref.target)
            places[ref.sentence].add((ref.line, ref.text))
        for ref in refs:
            key = norm(ref.target)
            h = by_key.get(key)
            parent = key.rsplit(".", 1)[0] if "." in key else None
            if h is None and (_tuple(key)[0] > last_rule or (parent in by_key and parent not in has_cases)):
                why = (
                    f"beyond the book's last rule ({last_rule}): another booklet (scenarios, standard rules) may "
                    "hold it"
                    if _tuple(key)[0] > last_rule
                    else f"rule {by_key[str(parent)].number} numbers no case in the text (its cases may be charts)"
                )
                ctx.add(
                    "book-xref-unchecked",
                    ref.target,
                    f"{src} line {ref.line}: {ref.text} cites rule {ref.target}, {why}; not checked: "
                    f"“{ref.sentence[:200]}”",
                    book_line=ref.line,
                )
                continue
            if h is None:
                ctx.add(
                    "book-xref",
                    ref.target,
                    f"{src} line {ref.line}: {ref.text} cites rule {ref.target}, which the book does not have: "
                    f"“{ref.sentence[:200]}”",
                    book_line=ref.line,
                )
                continue
            if ref.line in head_lines:
                continue  # a heading that mentions another rule ("Rule 24 was combined with rule 23")
            own = next((x.key for x in reversed(hs) if x.line <= ref.line), None)
            shared = len(places[ref.sentence]) > 1
            better = topic_mismatch(topics, ref, together[(ref.line, ref.text)], own, shared)
            if better:
                fits = " or ".join(f"{b.number} '{b.title}' (line {b.line})" for b in better)
                ctx.add(
                    "book-xref-topic",
                    ref.target,
                    f"{src} line {ref.line}: {ref.text} cites {h.number} '{h.title}' (line {h.line}: "
                    f"{_gist(h, hs)}), but the sentence is about what {fits} "
                    f"covers: “{_cited_in(ref)}”",
                    book_line=ref.line,
                    fits=", ".join(b.number for b in better),
                )
    # places
    grid = ctx.grid

    def is_hex(label: str) -> bool:
        label = label.strip()
        if re.fullmatch(r"(19|20)\d\d", label):
            return False  # a year, not a hex
        return ctx.cell(label) is not None

    def canon(label: str) -> str:
        c = ctx.cell(label)
        return grid.label(c) if c is not None else label

    names = hex_names(ctx)
    known = {n.casefold() for n in names.values()} | {p.casefold() for p in game.map.places}
    mentions = place_mentions(book, is_hex)
    given: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    multi: set[str] = set()
    wrong: list[tuple[Any, str, list[str], list[str], Any]] = []
    for pm in mentions:
        if pm.name is None:
            continue
        name = next((c for c in _candidates(pm.name) if c.casefold() in known), None)
        if name is None:
            continue
        labels = [canon(x) for x in pm.hexes]
        if len(labels) > 1:
            multi.add(name.casefold())
        for lb in labels:
            given[name.casefold()][lb].append(pm.line)
        expected = place_hexes(ctx, name)
        bad = [lb for lb in labels if lb not in expected]
        if bad:
            wrong.append((pm, name, labels, bad, expected))
    agrees = {
        name.casefold() for _, name, _, _, expected in wrong if any(lb in expected for lb in given[name.casefold()])
    }
    for pm, name, _labels, bad, expected in wrong:
        if name.casefold() in agrees and name.casefold() not in multi:
            # The book also puts the place where the map does: it contradicts itself (book-place-twice, a warning),
            # which is no error of the data.
            continue
        if bad:
            ctx.add(
                "book-place",
                None,
                f"{src} line {pm.line}: the book puts {name} in {', '.join(bad)}, the map names "
                f"{', '.join(sorted(expected))} {name}: “{_quote(book, pm.line)}”",
                stated=", ".join(bad),
                computed=", ".join(sorted(expected)),
                book_line=pm.line,
            )
    for key, where in sorted(given.items()):
        if len(where) < 2 or key in multi:
            continue
        shown = next(n for n in [*names.values(), *game.map.places] if n.casefold() == key)
        ranked = sorted(where.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        main_hex, main_lines = ranked[0]
        for lb, lines in ranked[1:]:
            ctx.add(
                "book-place-twice",
                None,
                f"{src} line {lines[0]}: the book gives {shown} as {lb} (“{_quote(book, lines[0])}”) but as "
                f"{main_hex} at line{'s' if len(main_lines) > 1 else ''} {', '.join(map(str, main_lines))} "
                f"(“{_quote(book, main_lines[0])}”)",
                book_line=lines[0],
            )
    # arithmetic and counts
    ex_lines = _example_lines(game)
    span = _sentence_lines(book)
    statements: list[Statement] = []
    for a in arithmetic(book):
        statements.append(Statement(a.line, "arithmetic", a.text, _near(ex_lines, span(a.line))))
        if not a.ok:
            ctx.add(
                "book-arithmetic",
                None,
                f"{src} line {a.line}: “{a.text}” gives {a.computed}, not {a.stated}: “{_quote(book, a.line)}”",
                stated=a.stated,
                computed=a.computed,
                book_line=a.line,
            )
    n_turns = len(game.turns.turns)
    # a scenario may be shorter than the turn track: the book's length may be any scenario's
    lengths = {n_turns} | {
        (sc.last_turn or n_turns) - sc.first_turn + 1
        for sc in game.scenarios
        if sc.first_turn <= (sc.last_turn or n_turns)
    }
    n_counters = sum(u.copies for u in game.units)
    n_pieces = n_counters + sum(k.count for k in game.markers if isinstance(k.count, int))
    for c in counts(book):
        data = n_turns if c.what == "turns" else n_counters
        compared = not (c.what == "counters" and data < c.n)  # the data may not hold every counter
        if c.what == "counters" and c.n == n_pieces:
            data = c.n  # the book counts the markers too
        if c.what == "turns" and c.n in lengths:
            data = c.n
        statements.append(Statement(c.line, f"count of {c.what}", c.text, compared or _near(ex_lines, span(c.line))))
        if not compared:
            continue
        if data != c.n:
            ctx.add(
                "book-count",
                None,
                f"{src} line {c.line}: the book says {c.n} {c.what} (“{c.text}”), the data holds {data}"
                + (
                    f" (scenarios: {', '.join(map(str, sorted(lengths - {n_turns})))})"
                    if c.what == "turns" and len(lengths) > 1
                    else ""
                ),
                stated=c.n,
                computed=data,
                book_line=c.line,
            )
    for pm in mentions:
        what = (
            "hex"
            if pm.name is None
            else "place"
            if any(c.casefold() in known for c in _candidates(pm.name))
            else "position"
        )
        statements.append(Statement(pm.line, what, pm.text, _near(ex_lines, span(pm.line))))
    for st in _dedupe(statements):
        if not st.encoded:
            ctx.add(
                "book-not-encoded",
                None,
                f"{src} line {st.line}: {st.what} “{st.text}” is in no worked example of the data",
                book_line=st.line,
            )
    return ctx.findings, _dedupe(statements)


def _dedupe(statements: Iterable[Statement]) -> list[Statement]:
    seen: dict[tuple[int, str], Statement] = {}
    for s in statements:
        seen.setdefault((s.line, s.text), s)
    return sorted(seen.values(), key=lambda s: (s.line, s.text))


def book_coverage(statements: list[Statement]) -> dict[str, int | float]:
    """How many of the book's numeric and positional statements a worked example encodes."""
    total = len(statements)
    enc = sum(s.encoded for s in statements)
    return {
        "statements": total,
        "encoded": enc,
        "not_encoded": total - enc,
        "percent": round(100 * enc / total, 1) if total else 100.0,
    }
