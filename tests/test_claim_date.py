"""forge.claim_keys._date: a claim's value is a date of the history (issue 23: without ``strptime`` for values that
cannot be one).  Property: the same answer as trying the three forms with ``strptime``, for any text."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from forge.claim_keys import _date
from tests.strategies import examples

ROOT = Path(__file__).resolve().parent.parent


def _strptime_date(value: object) -> bool:
    if not isinstance(value, str):
        return False
    for fmt in ("%d %b %Y", "%d %B %Y", "%Y-%m-%d"):
        try:
            dt.datetime.strptime(value.strip(), fmt)
        except ValueError:
            continue
        return True
    return False


_PIECES = st.sampled_from(["1", "12", "31", "0", "1944", "944", "19440", "-", " ", "Jan", "January", "feb", "Sept",
                           "٣", "²", "x", "DR1", "/", "2-1", "\u00a0", "  "])


@given(st.lists(_PIECES, max_size=7).map("".join) | st.text(max_size=12) | st.dates().map(str)
       | st.dates().map(lambda d: d.strftime("%d %b %Y")) | st.dates().map(lambda d: d.strftime("%d %B %Y"))
       | st.integers() | st.none())
@settings(max_examples=examples(400, 4000), deadline=None)
def test_the_same_as_strptime(value: object) -> None:
    assert _date(value) == _strptime_date(value)


def test_checking_a_game_without_a_date_claim_does_not_import_strptime() -> None:
    code = ("import sys; from forge.loader import load; load('data/hells_gate.yaml'); "
            "print('_strptime' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120)
    assert r.stdout.strip() == "False"
