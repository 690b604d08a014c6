"""Findings as text, Markdown or JSON.

The JSON shape is stable, with sorted keys::

    {"game": "hells_gate",
     "findings": [{"kind": "...", "severity": "error|warning|info", "rule": "7.2" | null, "message": "...",
                   "stated": "..." | null, "computed": "..." | null, "ref": "example or table id" | null,
                   "extra": {"column": "3:1", "row": "4", "derivation": "...", ...}}],
     "summary": {"total": 3, "error": 0, "warning": 0, "info": 3, "by_kind": {"example-unchecked": 3},
                 "examples": {"total": 27, "checked": 20, "mismatched": 0, "unchecked": 7},
                 "claims": {"total": 48, "recomputed": 35, "independent": 33, "cross_check": 0, "echo": 2,
                            "checked": 33, "percent_checked": 68.8, "engine": 33, "data": 0, "arithmetic": 0,
                            "mismatch": 2, "unchecked": 13, "percent": 72.9}, "exit": 0}}

With ``--book`` the summary also has ``"book": {"statements": 21, "encoded": 6, "not_encoded": 15, "percent":
28.6}``: the rulebook's numeric and positional statements and how many a worked example encodes (or, for a count,
the data was compared with), and the text and Markdown headlines give that coverage of the book.

The Markdown report is an errata document: the errors and warnings grouped by rule number in natural order (2.2,
10.1, 13.8.1), each with what the book states, what the rules give and how the engine got its value (the
``derivation`` a handler passed as its note); then the coverage of the stated values; then every value that was not
checked, with its reason, so that silence never reads as agreement.  The text report has the same coverage line
and "Not checked" section.  Both are byte-for-byte the same for the same findings (no dates, no paths).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import Finding
from ..keypath import dotted
from .policy import RANK, exit_code, severity
from .provenance import BASES

if TYPE_CHECKING:
    from .core import Claim

__all__ = ["coverage", "echoes", "not_checked", "render_findings", "rule_key"]

WHY_LABEL = {
    "book": "the book does not give what it depends on",
    "context": "not a claim of the rules",
    "unreachable": "differing only in positions no game reaches",
    "engine": "not computed by Hexforge",
}
"""How the report names each category of :data:`.core.WHY`."""

WHY_TAG = {"book": "not in the book", "context": "not a rule", "unreachable": "unreachable", "engine": "not modelled"}
"""The tag each line of "Not checked" starts with: why the value was not recomputed."""


# =================================================================================================== summary
def _summary(findings: Sequence[Finding]) -> dict[str, Any]:
    by_sev = dict.fromkeys(RANK, 0)
    by_kind: dict[str, int] = defaultdict(int)
    for f in findings:
        by_sev[severity(f)] += 1
        by_kind[f.kind] += 1
    out: dict[str, Any] = {
        "total": len(findings),
        **by_sev,
        "by_kind": dict(sorted(by_kind.items())),
        "exit": exit_code(findings),
    }
    total = getattr(findings, "examples", None)
    if total is not None:
        ex_refs = {
            f.ref
            for f in findings
            if f.kind.startswith("example-") and f.kind not in ("example-conflict", "example-doubt")
        }
        mism = {f.ref for f in findings if f.kind == "example-mismatch"}
        unch = {f.ref for f in findings if f.kind == "example-unchecked"} - mism
        out["examples"] = {
            "total": total,
            "checked": total - len(ex_refs),
            "mismatched": len(mism),
            "unchecked": len(unch),
        }
    claims = getattr(findings, "claims", None)
    if claims:
        out["claims"] = coverage(claims)
    book = getattr(findings, "book", None)
    if book is not None:
        out["book"] = dict(book)
    return out


def coverage(claims: Sequence[Claim]) -> dict[str, Any]:
    """The tally of an example set's stated values (``Findings.claims``): how many were recomputed (by the engine,
    against the encoded data, or by redoing the book's arithmetic), how many disagree, how many were not checked,
    and the share recomputed (disagreements count as recomputed: the rules gave a value)."""
    by: dict[str, int] = defaultdict(int)
    why: dict[str, int] = dict.fromkeys(WHY_LABEL, 0)
    for c in claims:
        by[c.status] += 1
        if c.status == "unchecked":
            why[c.why or "engine"] += 1
    total = len(claims)
    recomputed = total - by["unchecked"]
    checkable = total - why["book"] - why["context"]
    basis = {b: sum(c.status != "unchecked" and c.basis == b for c in claims) for b in BASES}
    checked = basis["independent"] + basis["cross-check"]
    return {
        "independent": basis["independent"],
        "cross_check": basis["cross-check"],
        "echo": basis["echo"],
        "checked": checked,
        "percent_checked": round(100 * checked / total, 1) if total else 100.0,
        "total": total,
        "recomputed": recomputed,
        "engine": by["engine"],
        "data": by["data"],
        "data_twice": sum(c.status == "data" and c.twice for c in claims),
        "arithmetic": by["arithmetic"],
        "mismatch": by["mismatch"],
        "unchecked": by["unchecked"],
        "unchecked_book": why["book"],
        "unchecked_context": why["context"],
        "unchecked_unreachable": why["unreachable"],
        "unchecked_engine": why["engine"],
        "percent": round(100 * recomputed / total, 1) if total else 100.0,
        "percent_checkable": round(100 * recomputed / checkable, 1) if checkable else 100.0,
    }


# =================================================================================================== grouping
def rule_key(rule: str | None) -> tuple[Any, ...]:
    """Sort key for rule numbers in natural order: 2.2 < 10.1 < 13.8.1, 3 < 3.A < 3.C.2 < 4, numbers before
    words ("setup.map", "victory"), and findings without a rule last.

    >>> sorted(["13.8.1", "10.1", "2.2", "3.A", "27.1", "victory", "2"], key=rule_key)
    ['2', '2.2', '3.A', '10.1', '13.8.1', '27.1', 'victory']
    """
    if rule is None:
        return (1,)
    parts = re.findall(r"\d+|[^\W\d_]+", rule)
    return (0, tuple((0, int(p), "") if p.isdigit() else (1, 0, p.lower()) for p in parts), rule)


def _by_rule(items: Sequence[tuple[str | None, Any]]) -> list[tuple[str | None, list[Any]]]:
    groups: dict[str | None, list[Any]] = defaultdict(list)
    for rule, item in items:
        groups[rule].append(item)
    return [(r, groups[r]) for r in sorted(groups, key=rule_key)]


_NO_RULE = re.compile(r"no engine rule recomputes '(?P<key>[^']*)' for an? (?P<kind>[\w-]+) example")


def _reason(key: str, reason: str) -> str:
    """A claim's reason as a list line prints it: the engine's default reason, which repeats the key, shortened."""
    mt = _NO_RULE.fullmatch(reason)
    if mt and mt.group("key") == key:
        return f"no engine rule recomputes this ({mt.group('kind')} example)"
    return reason or "not recomputed"


NotChecked = tuple[str | None, str | None, str, "tuple[int, int] | None"]
"""One line of "Not checked": (example or ref, key, reason, the value's (line, column) in the game file)."""


def not_checked(findings: Sequence[Finding]) -> list[tuple[str | None, list[NotChecked]]]:
    """Everything not checked, grouped by rule in natural order, one ``(example, key, reason, mark)`` each: every
    unchecked claim (``Findings.claims``; ``mark`` from ``Findings.where``), and every other info finding as
    ``(ref, None, message, its line and column)``.  Without claims the ``example-unchecked`` findings stand in for
    them."""
    claims: Sequence[Claim] = getattr(findings, "claims", None) or []
    where: dict[tuple[str, str], tuple[int, int]] = getattr(findings, "where", None) or {}
    rule_of = {f.ref: f.rule for f in findings if f.kind.startswith("example-") and f.ref}
    items: list[tuple[str | None, NotChecked]] = [
        (
            rule_of.get(c.example),
            (
                c.example,
                c.key,
                f"[{WHY_TAG[c.why or 'engine']}] {_reason(c.key, c.reason)}",
                where.get((c.example, c.key)),
            ),
        )
        for c in claims
        if c.status == "unchecked"
    ]
    for f in findings:
        if severity(f) != "info" or (claims and f.kind == "example-unchecked") or f.kind in NOTE_KINDS:
            continue
        msg = _strip_ref(f)
        mark = (f.line, f.column or 0) if f.line is not None else None
        items.append((f.rule, (None if f.ref and f.ref in msg else f.ref, None, msg, mark)))
    return _by_rule(items)


NOTE_KINDS = ("data-note",)
"""Info findings that are remarks to read, not checks left undone: listed apart from "Not checked"."""


def data_notes(findings: Sequence[Finding]) -> list[tuple[str | None, list[str]]]:
    """The data notes (``data-note`` findings), grouped by rule in natural order."""
    return _by_rule(
        [
            (f.rule, f.message + (f" (data line {f.line})" if f.line is not None else ""))
            for f in findings
            if f.kind in NOTE_KINDS
        ]
    )


def _strip_ref(f: Finding) -> str:
    """The message without the ``<example id>: `` it starts with (the report names the example already)."""
    if f.ref and f.message.startswith(f"{f.ref}: "):
        return f.message[len(f.ref) + 2 :]
    return f.message


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _basis_txt(cl: dict[str, Any]) -> str:
    """The three counts of :mod:`.provenance`: what the recomputed values are evidence of."""
    return (
        f"checked {cl['checked']} = {cl['percent_checked']}%: {cl['independent']} recomputed independently, "
        f"{cl['cross_check']} cross-checks of two statements of the book; {cl['echo']} "
        f"{'echo' if cl['echo'] == 1 else 'echoes'} of their own sentence, not counted as checked"
    )


def echoes(findings: Sequence[Finding]) -> list[tuple[str, str, str, tuple[int, int] | None]]:
    """Every echo (``Findings.claims`` whose basis is ``echo``): (example, key, why, its (line, column) in the
    game file), in the order of the examples."""
    claims: Sequence[Claim] = getattr(findings, "claims", None) or []
    where: dict[tuple[str, str], tuple[int, int]] = getattr(findings, "where", None) or {}
    return [(c.example, c.key, c.echo, where.get((c.example, c.key))) for c in claims if c.basis == "echo"]


def _coverage_line(cl: dict[str, Any]) -> str:
    agree = cl["engine"] + cl["data"] + cl["arithmetic"]
    return (
        f"{_plural(cl['total'], 'stated value')}, {cl['recomputed']} recomputed ({cl['percent']}%): {agree} agree "
        f"with the book ({cl['engine']} recomputed by the engine, {cl['data']} compared with the encoded data"
        f"{_twice(cl)}, {cl['arithmetic']} by redoing the book's arithmetic) and {cl['mismatch']} disagree; "
        f"{cl['unchecked']} not checked: {_why_counts(cl)}. Of the {_checkable(cl)} values whose inputs the book "
        f"gives, {cl['percent_checkable']}% were recomputed"
    )


def _twice(cl: dict[str, Any]) -> str:
    """How many of the values compared with the data the book states twice (a real check of the book) and how many
    once (the data field was typed from the same sentence: a check of the encoding only)."""
    if not cl["data"]:
        return ""
    once = cl["data"] - cl["data_twice"]
    return f" ({cl['data_twice']} stated twice in the book; {once} stated once, so checking only their encoding)"


def _checkable(cl: dict[str, Any]) -> int:
    return int(cl["total"]) - int(cl["unchecked_book"]) - int(cl["unchecked_context"])


def _why_counts(cl: dict[str, Any]) -> str:
    return ", ".join(f"{cl['unchecked_' + w]} {label}" for w, label in WHY_LABEL.items())


# =================================================================================================== render
def render_findings(
    findings: Sequence[Finding],
    fmt: str = "text",
    *,
    game: str | None = None,
    title: str | None = None,
    file: str | None = None,
) -> str:
    """Findings as ``text`` (one block per finding, located as ``file:line:column``), ``markdown`` (an errata
    report; ``title``: the game's title for its heading) or ``json`` (see the module doc)."""
    gid = game or getattr(findings, "game", "") or ""
    summary = _summary(findings)
    if fmt == "json":
        doc = {
            "game": gid,
            "findings": [
                {
                    "kind": f.kind,
                    "severity": severity(f),
                    "rule": f.rule,
                    "message": f.message,
                    "stated": f.stated,
                    "computed": f.computed,
                    "ref": f.ref,
                    "extra": {k: v for k, v in f.extra.items() if k != "severity"},
                    "path": dotted(f.path) or None,
                    "line": f.line,
                    "column": f.column,
                    "book_line": f.book_line,
                }
                for f in findings
            ],
            "summary": summary,
        }
        return json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return _markdown(findings, summary, gid, title)
    if fmt != "text":
        raise ValueError(f"{fmt!r} is not a findings format (expected 'text', 'markdown' or 'json')")
    return _text(findings, summary, gid, file)


def _head(summary: dict[str, Any], gid: str) -> str:
    ex = summary.get("examples")
    ex_txt = (
        (
            f"; examples: {ex['total']} ({ex['checked']} checked, {ex['mismatched']} mismatched, "
            f"{ex['unchecked']} not fully recomputed)"
        )
        if ex
        else ""
    )
    cl = summary.get("claims")
    if cl:
        ex_txt += (
            f"; claims: {cl['total']} ({_basis_txt(cl)}; {cl['recomputed']} recomputed = {cl['percent']}%: "
            f"{cl['engine']} by the engine, "
            f"{cl['data']} against the data ({cl['data_twice']} stated twice in the book), {cl['arithmetic']} by "
            f"arithmetic; {cl['mismatch']} disagree; "
            f"{cl['unchecked']} not checked: {_why_counts(cl)}; {cl['percent_checkable']}% of the values whose "
            "inputs the book gives)"
        )
    return (
        f"{gid or 'game'}: {summary['total']} findings ({summary['error']} errors, {summary['warning']} warnings, "
        f"{summary['info']} info){ex_txt}{_book_txt(summary)}"
    )


def _book_txt(summary: dict[str, Any]) -> str:
    """With ``--book``: the coverage of the book, its numeric and positional statements an example encodes."""
    bk = summary.get("book")
    if not bk:
        return ""
    return (
        f"; coverage of the book: {bk['encoded']} of {_plural(bk['statements'], 'numeric or positional statement')} "
        f"encoded in an example or compared with the data ({bk['percent']}%), {bk['not_encoded']} not encoded"
    )


def located(f: Finding, file: str | None = None) -> str:
    """Where a finding is: ``file:line:column`` (or ``line L, column C`` without the file's name), its key path,
    and the rulebook line; empty when nothing is known."""
    parts = []
    if f.line is not None:
        if file:
            parts.append(":".join(str(x) for x in (file, f.line, f.column) if x is not None))
        else:
            parts.append(f"line {f.line}" + (f", column {f.column}" if f.column is not None else ""))
    if f.path:
        parts.append(dotted(f.path))
    if f.book_line is not None:
        parts.append(f"book line {f.book_line}")
    return " · ".join(parts)


def _text(findings: Sequence[Finding], summary: dict[str, Any], gid: str, file: str | None = None) -> str:
    """One block per error and warning (and per info not listed under "Not checked"), then the coverage, every
    echo, and every value not checked, grouped by rule."""
    lines = [_head(summary, gid)]  # the head has the coverage
    for f in findings:
        if severity(f) == "info":
            continue  # listed under "not checked"
        lines.append(f"{severity(f):7} {f.kind:18} {f.rule or '-':8} {f.message}")
        if f.stated is not None or f.computed is not None:
            other = f"line {f.extra.get('other_line', '?')}" if f.kind == "rule-contradiction" else "rules"
            lines.append(f"{'':36}book: {f.stated or '-'}   {other}: {f.computed or '-'}")
        if where := located(f, file):
            lines.append(f"{'':36}at {where}")
    echo_list = echoes(findings)
    if echo_list:
        n = len(echo_list)
        lines.append(f"echoes ({n}; checked only against data typed from their own sentence, not counted):")
        for ex_id, echo_key, why, echo_mark in echo_list:
            lines.append(f"  {ex_id}.{echo_key}: {why}{f' (line {echo_mark[0]})' if echo_mark else ''}")
    groups = not_checked(findings)
    if groups:
        n = sum(len(g) for _, g in groups)
        lines.append(f"not checked ({n}, by rule; none of these was found to agree or to disagree):")
        for rule, items in groups:
            for ex, key, reason, mark in items:
                what = ".".join(x for x in (ex, key) if x)
                at = f" (line {mark[0]})" if mark else ""
                lines.append(f"  {rule or '-':8} {what + ': ' if what else ''}{reason}{at}")
    notes = data_notes(findings)
    if notes:
        n = sum(len(g) for _, g in notes)
        lines.append(f"data notes ({n}, by rule; remarks the data makes to its designer, never printed):")
        for rule, messages in notes:
            lines.extend(f"  {rule or '-':8} {msg}" for msg in messages)
    return "\n".join(lines) + "\n"


# =================================================================================================== markdown
_SEV_TITLE = {"error": "Error", "warning": "Warning", "info": "Note"}
_HOW = {
    "engine": "recomputed by the engine",
    "data": "compared with the encoded data",
    "arithmetic": "the book's arithmetic redone",
}


def _md(text: str) -> str:
    """Text for a Markdown line: one line, no stray emphasis, code or HTML."""
    text = re.sub(r"([*`\\])", r"\\\1", " ".join(str(text).split()))
    return re.sub(r"<(?=[A-Za-z/!?])", r"\\<", text)


def _code(text: str) -> str:
    return f"`{str(text).replace('`', '')}`"


_DETAIL = (
    ("section", "section"),
    ("column", "column"),
    ("row", "die"),
    ("other_column", "against column"),
    ("other_row", "against die"),
    ("part", "part"),
)


_OWN = {"key", "how", "derivation", "unmodelled", "source_line", "uses", "severity", "result", "other_line"}
"""Extra keys :func:`_finding_md` renders in their own place (or, ``result``, that repeat the computed value);
every other key is listed under "Where" by its name, unless the message already has its value."""


def _finding_md(f: Finding) -> list[str]:
    """One finding as a list item: what the book states, what the rules give, and the derivation."""
    x = f.extra
    head = f"- **{_SEV_TITLE[severity(f)]}** ({_code(f.kind)})"
    if "key" in x:  # an example's stated value recomputed
        out = [f"{head}: example {_code(f.ref or '?')}, value {_code(x['key'])}"]
    else:
        out = [f"{head}{' ' + _code(f.ref) if f.ref else ''}: {_md(_strip_ref(f))}"]
    if f.stated is not None:
        out.append(f"  - The book states: {_md(f.stated)}")
    if f.computed is not None and f.kind == "example-contradiction":
        line = _md(x.get("other_line", "?"))
        out.append(f"  - The book states at line {line}, as the data has it: {_md(f.computed)}")
    elif f.computed is not None and f.kind == "rule-contradiction":
        out.append(f"  - The book states at line {_md(x.get('other_line', '?'))}: {_md(f.computed)}")
    elif f.computed is not None:
        out.append(f"  - The rules give: {_md(f.computed)}")
    if "derivation" in x:
        out.append(f"  - Derivation: {_md(x['derivation'])}")
    elif "key" in x:
        out.append(f"  - Derivation: not recorded ({_HOW.get(x.get('how', ''), 'recomputed by the engine')})")
    if "unmodelled" in x:
        out.append(f"  - Not modelled by the engine, and may explain the difference: {_md(x['unmodelled'])}")
    where = [f"{label} {_md(x[k])}" for k, label in _DETAIL if k in x]
    shown = {k for k, _ in _DETAIL} | _OWN
    where += [f"{k.replace('_', ' ')} {_md(v)}" for k, v in sorted(x.items()) if k not in shown and v not in f.message]
    if f.line is not None:
        where.append(
            f"game file line {f.line}" + (f", column {f.column}" if f.column is not None else "")
            + (f" ({_code(dotted(f.path))})" if f.path else "")
        )
    if f.book_line is not None:
        where.append(f"rulebook line {f.book_line}")
    elif "source_line" in x:
        where.append(f"rulebook line {_md(x['source_line'])}")
    if "how" in x and "key" in x:
        where.append(_HOW.get(x["how"], _md(x["how"])))
    if "uses" in x:
        where.append(f"data read: {_md(x['uses'])}")
    if where:
        out.append(f"  - Where: {'; '.join(where)}")
    return out


def _examples_line(total: int, claims: Sequence[Claim]) -> str:
    """The examples by their worst stated value: one that disagrees, else one not checked, else all recomputed."""
    worst: dict[str, int] = {}
    for c in claims:
        rank = 2 if c.status == "mismatch" else 1 if c.status == "unchecked" else 0
        worst[c.example] = max(worst.get(c.example, 0), rank)
    n = [sum(1 for r in worst.values() if r == k) for k in (0, 1, 2)]
    rest = total - len(worst)
    return (
        f"{_plural(total, 'example')}: {n[0]} recomputed in full, {n[2]} with a value that disagrees, {n[1]} with "
        f"a value not checked" + (f", {rest} stating no value" if rest else "") + "."
    )


def _markdown(findings: Sequence[Finding], summary: dict[str, Any], gid: str, title: str | None) -> str:
    name = gid or "game"
    lines = [f"# Errata report: {_md(title)} ({_code(name)})" if title else f"# Errata report: {_code(name)}", ""]
    cl = summary.get("claims")
    lines += [
        "Written by `forge verify --format markdown`. The rules engine recomputed every worked example and numeric "
        "claim the data file records from the rulebook, and checked the combat results table where the game has one. "
        "Each error and "
        "warning below is a possible erratum, in the book or in its encoding, to be confirmed against the "
        "rulebook. Errors: the rules as encoded give another value than the book, on every reading of its sentence. "
        "Warnings: the book contradicts itself (or reads two ways, one of which disagrees), or the data records a "
        "doubt about it. Values that were not checked are listed at the end with "
        "the reason; they were found neither to agree nor to disagree.",
        "",
        f"**{_plural(summary['error'], 'error')}, {_plural(summary['warning'], 'warning')}.**"
        + (f" Stated values {_basis_txt(cl)}. {_coverage_line(cl)}." if cl else "")
        + (f" Coverage of the book{_book_txt(summary).partition('of the book')[2]}." if "book" in summary else ""),
        "",
        "## Findings by rule",
        "",
    ]
    flagged = [(f.rule, f) for f in findings if severity(f) != "info"]
    if not flagged:
        lines += ["Nothing disagrees: no errors and no warnings.", ""]
    for rule, group in _by_rule(flagged):
        lines += [f"### Rule {_md(rule)}" if rule else "### No rule number", ""]
        for f in sorted(group, key=lambda f: RANK[severity(f)]):
            lines += _finding_md(f)
        lines.append("")
    lines += ["## Coverage", ""]
    if cl:
        lines += [
            "Every value an example states counts once. The values that agree with the book are counted by how "
            "they were recomputed: by the engine from the rules, by comparing them with the encoded data, or by "
            "redoing the book's arithmetic. A comparison with the data is a check of the book when the book states "
            "the fact twice (a rule and a chart, two rules: the data was typed from one, the example from the "
            "other); when it states it once, the data field and the example come from the same sentence, and the "
            "comparison only shows that the encoding still agrees with it. A value that disagrees was recomputed "
            "too; it is an error or a warning above. A value not checked is counted by why: the book does not give "
            "an input it depends on (the CRT's cells, the map, where the units stand, the roll), it is no claim "
            "of the rules (history, another game, the book's wording), the rules give another value only in "
            "positions no game reaches, or Hexforge does not compute it. The last column is the share recomputed "
            "of the values whose inputs the book gives.",
            "",
            "| game | stated values | agree: engine | agree: data, stated twice | agree: data, stated once "
            "| agree: arithmetic | disagree "
            "| not checked: book | not checked: context | not checked: unreachable | not checked: Hexforge "
            "| recomputed | of checkable |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
            f"| {_code(name)} | {cl['total']} | {cl['engine']} | {cl['data_twice']} | {cl['data'] - cl['data_twice']} "
            f"| {cl['arithmetic']} | {cl['mismatch']} "
            f"| {cl['unchecked_book']} | {cl['unchecked_context']} | {cl['unchecked_unreachable']} "
            f"| {cl['unchecked_engine']} | {cl['percent']}% | {cl['percent_checkable']}% |",
            "",
        ]
    else:
        lines += ["No example states a value.", ""]
    ex = summary.get("examples")
    if ex and cl:
        lines += [_examples_line(ex["total"], getattr(findings, "claims", [])), ""]
    if cl:
        lines += [
            "What the recomputed values are evidence of (docs/VERIFY.md, *Echoes*): a value recomputed from data "
            "typed from other statements of the book is an independent check; a value compared with a field the "
            "book states a second time (`stated_elsewhere`) is a cross-check of two statements; a value checked "
            "against data typed from its own sentence (its example's `source_line`, or `implied_by` that example) "
            'is an echo, listed under "Echoes" and never counted as checked.',
            "",
            "| game | independent | cross-check | echo | checked |",
            "| --- | ---: | ---: | ---: | ---: |",
            f"| {_code(name)} | {cl['independent']} | {cl['cross_check']} | {cl['echo']} | {cl['percent_checked']}% |",
            "",
        ]
    echo_list = echoes(findings)
    if echo_list:
        lines += [
            "## Echoes",
            "",
            f"{_plural(len(echo_list), 'value')} that agree, or disagree, only with data typed from the same "
            "sentence: what they show is that the encoding still matches that sentence, not that the book's rules "
            "give it.",
            "",
        ]
        for ex_id, echo_key, why, echo_mark in echo_list:
            at = f" (data line {echo_mark[0]})" if echo_mark else ""
            lines.append(f"- {_code(ex_id)} · {_code(echo_key)}: {_md(why)}{at}")
        lines.append("")
    lines += ["## Not checked", ""]
    groups = not_checked(findings)
    if not groups:
        lines += ["Everything was checked.", ""]
    else:
        n = sum(len(g) for _, g in groups)
        lines += [
            f"{_plural(n, 'item')}, one per line, by rule: the values no engine rule recomputed, with the reason, "
            "and the other notes (table cells the book does not print, components not read back).",
            "",
        ]
        for rule, items in groups:
            lines += [f"### Rule {_md(rule)}" if rule else "### No rule number", ""]
            for ex, key, reason, mark in items:
                what = " · ".join(_code(x) for x in (ex, key) if x)
                at = f" (data line {mark[0]})" if mark else ""
                lines.append(f"- {what + ': ' if what else ''}{_md(reason)}{at}")
            lines.append("")
    notes = data_notes(findings)
    if notes:
        lines += [
            "## Data notes",
            "",
            "Remarks the data file makes to its designer (`data_note`): where a value came from, what the rulebook "
            "leaves unknown, how something was reconstructed. No component prints them.",
            "",
        ]
        for rule, messages in notes:
            lines += [f"### Rule {_md(rule)}" if rule else "### No rule number", ""]
            lines += [f"- {_md(msg)}" for msg in messages]
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
