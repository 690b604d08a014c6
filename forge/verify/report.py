"""Findings as text, Markdown or JSON.

The JSON shape is stable, with sorted keys::

    {"game": "hells_gate",
     "findings": [{"kind": "...", "severity": "error|warning|info", "rule": "7.2" | null, "message": "...",
                   "stated": "..." | null, "computed": "..." | null, "ref": "example or table id" | null,
                   "extra": {"column": "3:1", "row": "4", ...}}],
     "summary": {"total": 3, "error": 0, "warning": 0, "info": 3, "by_kind": {"example-unchecked": 3},
                 "examples": {"total": 27, "checked": 20, "mismatched": 0, "unchecked": 7}, "exit": 0}}
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ..errors import Finding
from .policy import RANK, exit_code, severity

__all__ = ["render_findings"]


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
    return out


def coverage(claims: Sequence[tuple[str, str, str, str]]) -> dict[str, Any]:
    """The tally of an example set's stated values (``Findings.claims``): how many were recomputed (by the engine,
    against the encoded data, or by redoing the book's arithmetic), how many disagree, how many were not checked,
    and the share recomputed (disagreements count as recomputed: the rules gave a value)."""
    by = defaultdict(int)
    for _, _, status, _ in claims:
        by[status] += 1
    total = len(claims)
    recomputed = total - by["unchecked"]
    return {
        "total": total,
        "recomputed": recomputed,
        "engine": by["engine"],
        "data": by["data"],
        "arithmetic": by["arithmetic"],
        "mismatch": by["mismatch"],
        "unchecked": by["unchecked"],
        "percent": round(100 * recomputed / total, 1) if total else 100.0,
    }


def render_findings(findings: Sequence[Finding], fmt: str = "text", *, game: str | None = None) -> str:
    """Findings as ``text`` (one block per finding), ``markdown`` (a table) or ``json`` (see the module doc)."""
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
                }
                for f in findings
            ],
            "summary": summary,
        }
        return json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
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
            f"; claims: {cl['total']} ({cl['recomputed']} recomputed = {cl['percent']}%: {cl['engine']} by the engine, "
            f"{cl['data']} against the data, {cl['arithmetic']} by arithmetic; {cl['mismatch']} disagree; "
            f"{cl['unchecked']} not checked)"
        )
    head = (
        f"{gid or 'game'}: {summary['total']} findings ({summary['error']} errors, {summary['warning']} warnings, "
        f"{summary['info']} info){ex_txt}"
    )
    if fmt == "markdown":
        lines = [
            f"## {gid or 'game'}",
            "",
            head,
            "",
            "| severity | kind | rule | ref | finding | stated | rules give |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for f in findings:
            cells = [severity(f), f.kind, f.rule or "", f.ref or "", f.message, f.stated or "", f.computed or ""]
            lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
        return "\n".join(lines) + "\n"
    if fmt != "text":
        raise ValueError(f"{fmt!r} is not a findings format (expected 'text', 'markdown' or 'json')")
    lines = [head]
    for f in findings:
        lines.append(f"{severity(f):7} {f.kind:18} {f.rule or '-':8} {f.message}")
        if f.stated is not None or f.computed is not None:
            lines.append(f"{'':36}book: {f.stated or '-'}   rules: {f.computed or '-'}")
    return "\n".join(lines) + "\n"
