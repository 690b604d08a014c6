"""The CRT card's all-out sentence cites each half's own rule: in Hell's Gate the flipped attacker is 7.3 and the
crowded target (over-concentration) 7.4, which the card once printed as 7.3 for both (``combat.crt.all_out``'s
``crowded_rule``)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import forge_run
from forge import model as m
from forge.loader import load
from forge.render.cards import all_out_sentence

ROOT = Path(__file__).parent.parent
HG = ROOT / "data" / "hells_gate.yaml"


def _with_all_out(game: m.Game, **update: object) -> tuple[m.Game, m.Crt]:
    crt = game.combat.crt
    assert crt is not None
    assert crt.all_out is not None
    crt = crt.model_copy(update={"all_out": crt.all_out.model_copy(update=update)})
    return game.model_copy(update={"combat": game.combat.model_copy(update={"crt": crt})}), crt


def test_hells_gate_cites_7_3_for_the_flip_and_7_4_for_the_crowded_hex() -> None:
    game = load(HG)
    assert game.combat.crt is not None
    text = all_out_sentence(game, game.combat.crt)
    assert text is not None
    flip, crowded = text.split("; ")
    assert flip.endswith("(7.3)")
    assert "7.4" not in flip
    assert crowded.endswith("(7.4).")
    assert "7.3" not in crowded


def test_one_rule_for_both_halves_is_cited_once_at_the_end() -> None:
    game, crt = _with_all_out(load(HG), crowded_rule=None)
    text = all_out_sentence(game, crt)
    assert text is not None
    assert text.endswith("every attack (7.3).")
    assert text.count("(7.3)") == 1
    game, crt = _with_all_out(load(HG), crowded_rule="7.3")
    assert all_out_sentence(game, crt) == text


@settings(max_examples=60, deadline=None)
@given(
    st.from_regex(r"[0-9]{1,2}(\.[0-9]{1,2})?", fullmatch=True),
    st.none() | st.from_regex(r"[A-Z]?[0-9]{1,2}(\.[0-9]{1,2})?", fullmatch=True),
    st.none() | st.integers(1, 9),
)
def test_each_rule_is_cited_after_its_own_half(rule: str, crowded_rule: str | None, crowded: int | None) -> None:
    game, crt = _with_all_out(load(HG), rule=rule, crowded_rule=crowded_rule, crowded_units=crowded)
    text = all_out_sentence(game, crt)
    assert text is not None
    cites = re.findall(r"\(([^()]*[0-9][^()]*)\)", text)
    if crowded is None:
        assert cites == [rule]
        assert "; " not in text
    elif crowded_rule is None or crowded_rule == rule:
        assert cites == [rule]
        assert text.endswith(f"every attack ({rule}).")
    else:
        assert cites == [rule, crowded_rule]
        assert text.split("; ")[0].endswith(f"({rule})")
        assert text.endswith(f"({crowded_rule}).")


def test_check_refuses_a_crowded_rule_without_crowded_units(tmp_path: Path) -> None:
    text = HG.read_text(encoding="utf-8")
    assert "crowded_units: 5, " in text
    bad = tmp_path / "hg.yaml"
    bad.write_text(text.replace("crowded_units: 5, ", "", 1), encoding="utf-8")
    r = forge_run("check", str(bad))
    out = r.stdout + r.stderr
    assert r.returncode == 2
    assert "Traceback" not in out
    assert "combat.crt.all_out.crowded_rule" in out
    assert "crowded_units" in out
    line = text[: text.index("crowded_units: 5, ")].count("\n") + 1
    assert f"hg.yaml:{line}:" in out
