"""The tabletop post lists the steps of one attack (4.1-4.4) and then gives each its own numbered rule: the count
it states is compared with the numbered rules under the combat phase's rule, so a step added or dropped on either
side is reported."""

from __future__ import annotations

from forge.loader import loads
from forge.verifier import verify
from conftest import DATA

TABLETOP = (DATA / "tabletop_hells_gate.yaml").read_text(encoding="utf-8")


def _claim(text: str) -> tuple[str, str]:
    r = verify(loads(text, "tabletop_hells_gate.yaml"))
    c = next(c for c in r.claims if (c.example, c.key) == ("turn-structure", "attack_steps"))
    return c.status, c.reason


def test_the_four_steps_agree_with_the_numbered_rules() -> None:
    assert _claim(TABLETOP)[0] == "data"


def test_a_step_missing_from_the_rules_is_a_mismatch() -> None:
    line = next(ln for ln in TABLETOP.splitlines() if ln.startswith('  - {rule: "4.3", title: All-out attack'))
    status, _ = _claim(TABLETOP.replace(line + "\n", ""))
    assert status == "mismatch"


def test_a_stated_count_that_differs_is_a_mismatch() -> None:
    old = "states: {player_turns: 2, phases: 6, attack_steps: 4}"
    assert TABLETOP.count(old) == 1
    assert _claim(TABLETOP.replace(old, old.replace("attack_steps: 4", "attack_steps: 5")))[0] == "mismatch"


def test_no_numbered_combat_rules_leaves_it_unchecked_with_the_reason() -> None:
    text = TABLETOP.replace('{name: Attack, rule: "4",', '{name: Attack,')
    status, reason = _claim(text)
    assert status == "unchecked"
    assert "numbered sub-rules" in reason
