"""``&``, ``<`` and ``>`` escaped in text for markup (reportlab's paragraphs, XMP), and back.

The same as :func:`xml.sax.saxutils.escape` and :func:`~xml.sax.saxutils.unescape` without their optional entity
tables; that module imports :mod:`urllib.request` (with http.client, ssl and email): 15-45 ms of every build that
lays out cards, for two string replacements (docs/PERFORMANCE.md).
"""

from __future__ import annotations

__all__ = ["escape", "unescape"]


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as ``&amp;``, ``&lt;`` and ``&gt;``."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def unescape(text: str) -> str:
    """``&lt;``, ``&gt;`` and ``&amp;`` as the characters they stand for (the ampersand last, as saxutils does)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
