"""README's speed table quotes bench/RESULTS.md (the figures ``bench/run.py --record`` writes), not an older run:
the README once claimed 444 random games/s while RESULTS.md said 268."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
# README row (its first cell starts so) -> RESULTS.md row name, and how the README prints the figure
ROWS = {
    "| small kit": ("small", "{:.2f} s"),
    "| large kit": ("large", "{:.2f} s"),
    "| `forge build data/hells_gate.yaml`": ("build", "{:.2f} s"),
    "| `forge check data/hells_gate.yaml`": ("check", "{:.2f} s"),
    "| `forge verify data/hells_gate.yaml`": ("verify", "{:.2f} s"),
    "| random complete games of Hell's Gate": ("play", "{:.0f} games/s"),
    "| a 1,000 x 1,000 hex map": ("huge", "{:.0f} s"),
}


def _results() -> dict[str, dict[str, object]]:
    text = (ROOT / "bench" / "RESULTS.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)\n```", text, re.S)
    assert block is not None
    rows: dict[str, dict[str, object]] = json.loads(block.group(1))["rows"]
    return rows


@pytest.mark.parametrize("start", list(ROWS))
def test_readme_speed_row_quotes_results(start: str) -> None:
    name, fmt = ROWS[start]
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    line = next(x for x in readme if x.startswith(start))
    best = _results()[name]["best"]
    assert isinstance(best, float | int)
    best_cell = line.split("|")[2].strip()
    assert best_cell.startswith(fmt.format(best)), (line, best)
