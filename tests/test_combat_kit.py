"""The combat part of the rules kit (issues 21 and 22): conditions as one vocabulary, rounding of multiplied
strengths, the odds floor and ceiling, the result vocabulary (exchanges, attacker's choice, advance, attacks per
phase) and the ranking of results.

The fixture is a classic intro game (odds CRT, one die) made from ``forge new``'s skeleton: its weather rule "in
mud every attack strength is halved" is a modifier with a condition, its CRT gives DE at 6:1 and DRL at 5:1.

Properties:
- a condition holds exactly when its facts do, unknown when a fact it reads is unknown (each kind of fact);
- 17 against 4 in mud, halved per total and rounded down, is 8:4 = 2:1 (4:1 in clear weather), and every other
  rounding gives what it should;
- ``forge check`` refuses a condition no rule reads, located, with the accepted forms and a close match;
- the ends of the table are data: no effect below, the last column above (odds and differential CRTs);
- an exchange in strength points is recomputed (and printed as such on the card), never "A loses ? steps";
- DE beside DRL is no inversion; DE beside a lower DR is;
- raising the attack never lowers the column; the floor and ceiling clamp every ratio.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge.errors import LoadError
from forge.loader import loads
from forge.model import Condition, Crt, Modifier, ResultCode
from forge.new import game_text
from forge.rules import combat as cb
from forge.rules.kit import conditions as cnd
from forge.verifier import verify

CRT = """\
combat:
  kind: odds
  rule: "7"
  attacks_per_unit: 1
  attacks_per_defender: 1
  crt:
    rule: "7"
    dice: 1d6
    columns: ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
    rows: ["1", "2", "3", "4", "5", "6"]
    cells:
      - [AR, DR, DR, DRL, DRL, DRL, DE]
      - [AR, AR, DR, DR, DRL, DRL, DE]
      - [AL, AR, EX, DR, DR, DRL, DE]
      - [AL, AL, AR, EX, DR, DRL, DE]
      - [AE, AL, AL, AR, EX, DRL, DE]
      - [AE, AE, AL, AL, AR, DRL, DE]
    below: {no_effect: true, rule: "7"}
    above: {column: "6:1", rule: "7"}
  results:
    NE: {meaning: No effect}
    AR: {meaning: Attacker retreats one hex, attacker_retreat: 1}
    AL: {meaning: Attacker loses a step, attacker_steps: 1}
    AE: {meaning: Attacker eliminated, attacker_eliminated: true}
    DR: {meaning: Defender retreats one hex, defender_retreat: 1, advance: attacker, advance_hexes: 1}
    DRL: {meaning: Defender loses a step and retreats, defender_steps: 1, defender_retreat: 1, advance: attacker}
    DE: {meaning: Defender eliminated, defender_eliminated: true, advance: attacker}
    EX: {meaning: "Exchange: the attacker loses at least the printed strength the defender lost", defender_steps: 1,
         exchange: strength, exchange_strength: printed}
    CH: {meaning: "Attacker's choice: DR or EX", attacker_choice: [DR, EX]}
  modifiers:
    - {id: mud-attack, role: attacker, when: "In mud every attack strength is halved", multiply: "1/2",
       rounding: down, per_unit: false, condition: mud, rule: "9"}

"""

TURNS = """\
turns:
  rule: "T2"
  weather: {states: [clear, mud], initial: clear}
  turns:
    - {number: 1, weather: clear}
    - {number: 2, weather: mud}
    - {number: 3}
    - {number: 4}
    - {number: 5}
    - {number: 6}

"""

EXAMPLES = """\
examples:
  - {id: mud-odds, rule: "9", kind: odds, summary: "17 to 4 in mud", given: {attack: 17, defense: 4, weather: mud},
     states: {odds: "2:1"}}
  - {id: mud-turn, rule: "9", kind: odds, summary: "17 to 4 on the mud turn", given: {attack: 17, defense: 4, turn: 2},
     states: {odds: "2:1"}}
  - {id: clear-odds, rule: "9", kind: odds, summary: "17 to 4 in clear weather", given: {attack: 17, defense: 4,
     weather: clear}, states: {odds: "4:1"}}
  - {id: exchange, rule: "7", kind: combat, summary: "An exchange at 3:1: the militia (2) is lost; the attacker gives up
     at least 2 printed points: the 3rd Rifles (3)", given: {column: "3:1", die: 4, defender_lost: 2,
     attackers: [blue-3, blue-1]}, states: {result: EX, attacker_loses_at_least: 2, attacker_loses: 3}}
  - {id: advance, rule: "7", kind: combat, summary: "DR lets the attacker advance one hex",
     given: {column: "2:1", die: 1}, states: {result: DR, advance_by: attacker, advance_hexes: 1}}
  - {id: second-attack, rule: "7", kind: claim, summary: "A unit that has attacked may not attack again this phase",
     given: {unit_attacks: {blue-1: 1}, hex_attacks: 0}, states: {may_attack: false}}
  - {id: choice, rule: "7", kind: claim, summary: "CH lets the attacker pick DR or EX", given: {result: CH},
     states: {attacker_choices: [DR, EX]}}
"""


def classic(*edits: tuple[str, str], crt: str = CRT) -> str:
    """The classic intro game's text, with ``edits`` (old, new) applied."""
    t = game_text("Classic Intro")
    head, rest = t.split("\ncombat:\n", 1)
    _, tail = rest.split("\nsequence:\n", 1)
    t = head + "\n" + crt + "sequence:\n" + tail
    head, rest = t.split("\nturns:\n", 1)
    _, tail = rest.split("\ncombat:\n", 1)
    t = head + "\n" + TURNS + "combat:\n" + tail
    t = t.split("\nexamples:\n", 1)[0] + "\n" + EXAMPLES
    for old, new in edits:
        assert t.count(old) == 1, old
        t = t.replace(old, new)
    return t


AGREE = ("engine", "data", "arithmetic")


@cache
def classic_crt() -> Crt:
    crt = loads(classic(), "classic.yaml").combat.crt
    assert crt is not None
    return crt


def claims(text: str) -> dict[tuple[str, str], tuple[str, str]]:
    rep = verify(loads(text, "classic.yaml"))
    return {(c.example, c.key): (c.status, c.reason) for c in rep.claims}


def refused(text: str) -> list[str]:
    with pytest.raises(LoadError) as e:
        loads(text, "classic.yaml")
    return [str(p) for p in e.value.problems]


# ================================================================================================= conditions
def test_each_kind_of_fact() -> None:
    u = cnd.UnitFacts(side="blue", unit_type="armour", mobility="mech", supplied=False, across=frozenset({"river"}))
    sit = cnd.Situation(
        weather="Mud",
        phase="Blue Combat",
        attacker_side="blue",
        defender_side="red",
        defender_terrain=frozenset({"woods"}),
        attackers=(u, cnd.UnitFacts(unit_type="infantry", supplied=True, across=frozenset())),
        defenders=(cnd.UnitFacts(supplied=True),),
    )
    yes = [
        Condition(weather=["mud"]),
        Condition(phase=["Blue Combat"]),
        Condition(attacker_side="blue", defender_side="red"),
        Condition(terrain=["woods", "city"]),
        Condition(role="attacker", across=["river"], units="at-least-half"),
        Condition(role="attacker", supply="unsupplied", units="some-not-all"),
        Condition(role="defender", supply="supplied"),
        Condition(role="attacker", unit_types=["armour"], units="any"),
    ]
    no = [
        Condition(weather=["clear"]),
        Condition(phase=["Red Combat"]),
        Condition(attacker_side="red"),
        Condition(terrain=["clear"]),
        Condition(role="attacker", across=["river"], units="all"),
        Condition(role="attacker", supply="unsupplied", units="all"),
        Condition(role="attacker", unit_types=["armour"], units="all"),
    ]
    assert [cnd.holds(c, sit).value for c in yes] == [True] * len(yes)
    assert [cnd.holds(c, sit).value for c in no] == [False] * len(no)
    # per unit: the modified unit's own facts
    assert cnd.holds(Condition(mobility=["mech"], across=["river"]), sit, unit=u).value is True
    assert cnd.holds(Condition(mobility=["foot"]), sit, unit=u).value is False
    # a fact not known leaves the verdict unknown, with the reason
    v = cnd.holds(Condition(weather=["mud"]), cnd.Situation())
    assert v.value is None
    assert "weather" in v.why
    assert cnd.holds(Condition(role="defender", supply="unsupplied"), cnd.Situation()).value is None
    # ... unless another fact already fails
    blue = cnd.Situation(attacker_side="blue")
    assert cnd.holds(Condition(weather=["mud"], attacker_side="red"), blue).value is False


def test_legacy_keys_are_names_for_facts() -> None:
    """The keys the seed games use read the same facts (a river-like hexside counts as ``river``)."""
    sit = cnd.Situation(weather="mud", attackers=(cnd.UnitFacts(supplied=False, across=frozenset({"river"})),))
    assert cnd.holds("mud", sit).value is True
    assert cnd.holds("all-across-river", sit).value is True
    assert cnd.holds("attacker-all-unsupplied", sit).value is True
    assert cnd.holds("concentric", sit).value is None  # declared facts: only a position or an example says
    assert cnd.holds("concentric", cnd.Situation(declared=frozenset({"concentric"}))).value is True
    assert cnd.holds("defender-terrain", cnd.Situation(terrain_shifts=frozenset({"woods"})), ident="woods").value
    with pytest.raises(KeyError):
        cnd.resolve("muddy")


# ============================================================================================ mud and rounding
def test_mud_halves_the_attack_in_verify() -> None:
    """17 against 4 in mud (given weather, or the turn's weather) is 2:1; in clear weather 4:1."""
    got = claims(classic())
    assert got[("mud-odds", "odds")][0] in AGREE
    assert got[("mud-turn", "odds")][0] in AGREE
    assert got[("clear-odds", "odds")][0] in AGREE
    wrong = claims(classic(('given: {attack: 17, defense: 4, weather: mud},\n     states: {odds: "2:1"}',
                            'given: {attack: 17, defense: 4, weather: mud},\n     states: {odds: "4:1"}')))
    assert wrong[("mud-odds", "odds")][0] == "mismatch"


def test_weather_not_known_is_not_guessed() -> None:
    got = claims(classic(("given: {attack: 17, defense: 4, turn: 2}", "given: {attack: 17, defense: 4, turn: 3}")))
    status, reason = got[("mud-turn", "odds")]
    assert status == "unchecked"
    assert "weather" in reason


@pytest.mark.parametrize(
    ("rounding", "per_unit", "units", "total"),
    [
        ("down", False, [17], 8),  # 8:4 = 2:1
        ("up", False, [17], 9),
        ("none", False, [17], Fraction(17, 2)),
        ("down", False, [5, 5, 5], 7),  # 15/2 rounded once
        ("up", False, [5, 5, 5], 8),
        ("down", True, [5, 5, 5], 6),  # each 5/2 rounded
        ("up", True, [5, 5, 5], 9),
        ("none", True, [5, 5, 5], Fraction(15, 2)),
    ],
)
def test_rounding_per_unit_or_total(rounding: str, per_unit: bool, units: list[int], total: Fraction) -> None:
    mud = Modifier(id="mud", role="attacker", when="mud", multiply="1/2", rounding=rounding, per_unit=per_unit,
                   condition=Condition(weather=["mud"]))
    sit = cnd.Situation(weather="mud")
    got = cb.attack_strength([cb.Fighter(v) for v in units], [mud], defender_terrain=set())
    assert got.total == sum(units)  # no situation: the condition is not known to hold, so it is not applied
    got = cb.combat_strength([cb.Fighter(v) for v in units], [mud], role="attacker", defender_terrain=set(),
                             situation=sit)
    assert got.total == total
    clear = cb.combat_strength([cb.Fighter(v) for v in units], [mud], role="attacker", defender_terrain=set(),
                               situation=cnd.Situation(weather="clear"))
    assert clear.total == sum(units)


def test_rounding_in_verify() -> None:
    """15 against 4 in mud: halved total rounded down is 7 (1:1); rounded up 8 (2:1)."""
    base = classic(('given: {attack: 17, defense: 4, weather: mud},\n     states: {odds: "2:1"}',
                    'given: {attack: 15, defense: 4, weather: mud},\n     states: {odds: "1:1"}'))
    assert claims(base)[("mud-odds", "odds")][0] in AGREE
    up = base.replace("rounding: down, per_unit: false", "rounding: up, per_unit: false")
    assert claims(up)[("mud-odds", "odds")][0] == "mismatch"
    per_unit = base.replace("rounding: down, per_unit: false", "rounding: down")
    status, reason = claims(per_unit)[("mud-odds", "odds")]
    assert status == "unchecked"
    assert "each unit" in reason


# ==================================================================================================== check
def test_check_refuses_a_condition_no_rule_reads() -> None:
    probs = refused(classic(("condition: mud, rule", "condition: muddy, rule")))
    assert len(probs) == 1
    p = probs[0]
    assert p.startswith("classic.yaml:")
    assert "combat.modifiers[0].condition" in p
    assert "did you mean 'mud'" in p
    assert "weather" in p
    assert "defender-terrain" in p


@pytest.mark.parametrize(
    ("new", "expect"),
    [
        ("condition: {weather: [rain]}", "'rain' is not a weather state of the game"),
        ("condition: {weather: [mud], attacker_side: green}", "'green' is not a side"),
        ("condition: {terrain: [swamp]}", "'swamp' is not a terrain"),
        ("condition: {across: [woods]}", "'woods' is not a terrain of kind hexside"),
        ("condition: {mobility: [tracked]}", "not a mobility class"),
        ("condition: {phase: [Combat]}", "not a phase of the sequence of play"),
        ("condition: {role: attacker}", "an empty condition holds always"),
        ("condition: {wether: [mud]}", "condition.wether: unknown key 'wether' (did you mean 'weather'?)"),
        ("condition: [mud]", "condition: expected a mapping"),
        ("condition: defender-terrain", "terrain list, which is missing"),
    ],
)
def test_check_refuses_malformed_conditions(new: str, expect: str) -> None:
    probs = refused(classic(("condition: mud, rule", new + ", rule")))
    assert len(probs) == 1, probs  # one message, in the terms of the form written (not "a valid string" too)
    assert expect in probs[0], probs
    assert "combat.modifiers[0].condition" in probs[0], probs


def test_a_list_of_one_may_be_its_value() -> None:
    game = loads(classic(("condition: mud, rule", "condition: {weather: mud}, rule")), "classic.yaml")
    assert game.combat.modifiers[0].condition == Condition(weather=["mud"])


def test_mud_key_needs_a_mud_weather_state() -> None:
    probs = refused(
        classic(
            ("states: [clear, mud]", "states: [clear, snow]"),
            ("{number: 2, weather: mud}", "{number: 2, weather: snow}"),
        )
    )
    assert any("tests the weather mud" in p for p in probs), probs


def test_check_refuses_unit_facts_of_nobody_on_a_shift() -> None:
    shift = "    - {id: oos, when: x, shift: -1, condition: {supply: unsupplied}}\n"
    crt = CRT.replace("  modifiers:\n", "  shifts:\n" + shift + "  modifiers:\n")
    probs = refused(classic(crt=crt))
    assert any("combat.shifts[0].condition.role" in p and "need the units' role" in p for p in probs), probs


def test_structured_shift_condition_in_verify() -> None:
    """A shift conditioned on the weather: the example's weather decides it, both ways, with no traceback from
    any check (a mapping is compared with keys elsewhere)."""
    shift = "    - {id: mud-shift, when: In mud, shift: -1, condition: {weather: [mud]}, rule: \"9\"}\n"
    crt = CRT.replace("  modifiers:\n", "  shifts:\n" + shift + "  modifiers:\n")
    ex = ('  - {id: shifted, rule: "9", kind: odds, summary: "s", given: {weather: mud, attack: 12, defense: 2, '
          'defender_hex: "0402"}, states: {odds: "3:1", shifts: [mud-shift], column: "2:1"}}\n')
    got = claims(classic(crt=crt) + ex)
    assert got[("shifted", "shifts")][0] in AGREE
    assert got[("shifted", "column")][0] in AGREE
    dry = claims(classic(crt=crt) + ex.replace("weather: mud, attack: 12", "weather: clear, attack: 6"))
    assert dry[("shifted", "shifts")][0] == "mismatch"  # the book applies a mud shift in clear weather


def test_structured_condition_is_applied() -> None:
    got = claims(classic(("condition: mud, rule", "condition: {weather: [mud], attacker_side: blue}, rule"),
                         ("given: {attack: 17, defense: 4, weather: mud}",
                          "given: {attack: 17, defense: 4, weather: mud, side: blue}")))
    assert got[("mud-odds", "odds")][0] in AGREE


# ========================================================================================== floor and ceiling
def test_floor_and_ceiling_are_data() -> None:
    crt = loads(classic(), "classic.yaml").combat.crt
    assert crt is not None
    low = cb.column_for_odds(crt, 1, 4)
    assert low.automatic
    assert low.result == cb.NO_EFFECT
    assert low.index is None
    high = cb.column_for_odds(crt, 40, 4)
    assert high.label == "6:1"
    assert not high.automatic
    assert cb.apply_shifts(crt.columns, 0, [-1], below=crt.below).result == cb.NO_EFFECT
    assert cb.apply_shifts(crt.columns, 6, [3], above=crt.above).label == "6:1"
    diff = Crt(columns=["-1", "0", "+1", "+2"], rows=["1"], cells=[["A", "N", "D", "D"]], below={"no_effect": True},
               above={"column": "+2"})
    assert cb.column_for_diff(diff, -5).result == cb.NO_EFFECT
    assert cb.column_for_diff(diff, 9).label == "+2"


@pytest.mark.parametrize(
    ("old", "new", "expect"),
    [
        ("below: {no_effect: true,", "below: {no_effect: true, result: AL,", "expected exactly one of"),
        ("below: {no_effect: true,", "below: {", "gives nothing"),
        ('above: {column: "6:1",', 'above: {column: "6:1", from_odds: "10:1",', "from_odds belongs to"),
        ('above: {column: "6:1",', 'above: {column: "7:1",', "'7:1' is not a known CRT column"),
    ],
)
def test_check_refuses_malformed_ends(old: str, new: str, expect: str) -> None:
    probs = refused(classic((old, new)))
    assert any(expect in p and "combat.crt." in p for p in probs), probs


@settings(deadline=None)
@given(st.integers(1, 60), st.integers(1, 60), st.integers(1, 20))
def test_more_attack_never_a_lower_column(a: int, extra: int, d: int) -> None:
    """Monotone: raising the attack never moves the column left, nor from a column to the floor's no effect."""
    crt = classic_crt()
    lo, hi = cb.column_for_odds(crt, a, d), cb.column_for_odds(crt, a + extra, d)
    if lo.index is not None:
        assert hi.index is not None
        assert hi.index >= lo.index


@settings(deadline=None)
@given(st.integers(0, 200), st.integers(1, 30))
def test_floor_and_ceiling_clamp(a: int, d: int) -> None:
    """Every ratio under 1:2 has no effect; every ratio from 6:1 up is resolved on 6:1; the rest on a column."""
    crt = classic_crt()
    pick = cb.column_for_odds(crt, a, d)
    r = Fraction(a, d)
    if r < Fraction(1, 2):
        assert pick.result == cb.NO_EFFECT
    elif r >= 6:
        assert pick.label == "6:1"
    else:
        assert pick.index is not None
        assert pick.result is None


# =================================================================================================== results
def test_exchange_losses() -> None:
    ex = ResultCode(meaning="x", exchange="strength")
    e = cb.exchange_losses(ex, 5, [2, 3, 4])
    assert (e.at_least, e.least, e.removed) == (5, 5, (0, 1))
    assert cb.exchange_losses(ex, 5).least is None
    assert cb.exchange_losses(ex, 0, [2]).least == 0
    assert cb.exchange_losses(ex, 12, [2, 3]).all_lost
    with pytest.raises(ValueError, match="not an exchange"):
        cb.exchange_losses(ResultCode(meaning="x"), 1)
    legend = {"EX": ResultCode(meaning="x", defender_steps=1, exchange="steps")}
    assert cb.code_losses("EX", legend) == cb.Losses(1, 1, exchange="steps")


def test_result_vocabulary_in_verify() -> None:
    got = claims(classic())
    for key in ("attacker_loses_at_least", "attacker_loses"):
        assert got[("exchange", key)][0] in AGREE, got[("exchange", key)]
    assert got[("advance", "advance_by")][0] in AGREE
    assert got[("advance", "advance_hexes")][0] in AGREE
    assert got[("choice", "attacker_choices")][0] in AGREE
    assert got[("second-attack", "may_attack")][0] in AGREE
    wrong = claims(classic(("attacker_loses_at_least: 2, attacker_loses: 3}", "attacker_loses_at_least: 2, "
                                                                              "attacker_loses: 4}")))
    assert wrong[("exchange", "attacker_loses")][0] == "mismatch"


@pytest.mark.parametrize(
    ("old", "new", "expect"),
    [
        ("attacker_choice: [DR, EX]", "attacker_choice: [DR, XE]", "'XE' is not a known result code"),
        ("attacker_choice: [DR, EX]", "attacker_choice: [DR, CH]", "offers itself"),
        ("exchange: strength,", "exchange: strength, attacker_steps: 1,", "expected no attacker_steps"),
        ("retreat: 1, advance: attacker, advance_hexes: 1}", "retreat: 1, advance_hexes: 1}", "needs who advances"),
        ("exchange_strength: printed", "exchange_strength: face", "exchange_strength"),
        ("attacks_per_unit: 1", "attacks_per_unit: 0", "attacks_per_unit"),
    ],
)
def test_check_refuses_malformed_results(old: str, new: str, expect: str) -> None:
    probs = refused(classic((old, new)))
    assert any(expect in p for p in probs), probs


def test_attacker_choice_advance_and_attacks_per_phase() -> None:
    game = loads(classic(), "classic.yaml")
    res = game.combat.results
    assert cb.attacker_choices("CH", res) == ["DR", "EX"]
    assert cb.advance_after("DRL", res, 2) == ("attacker", 2)
    assert cb.advance_after("DR", res, 2) == ("attacker", 1)  # the result's own length comes first
    assert cb.advance_after("AR", res) == (None, None)
    assert cb.may_attack(game.combat, unit_attacks={"blue-1": 0}, hex_attacks=0) == (True, "")
    assert cb.may_attack(game.combat, unit_attacks={"blue-1": 1}, hex_attacks=0)[0] is False
    assert cb.may_attack(game.combat, unit_attacks={}, hex_attacks=1)[0] is False


def test_exchange_legend_states_the_strength_exchange() -> None:
    """The results legend on the CRT card says what a strength exchange costs, not "A loses ? steps"."""
    import io

    import pypdf

    from forge.builder import BuildOptions
    from forge.render import cards

    game = loads(classic(), "classic.yaml")
    reader = pypdf.PdfReader(io.BytesIO(cards.render(game, BuildOptions())))
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in reader.pages)
    assert "A loses at least D's loss in printed strength points" in text
    assert "? step" not in text
    assert "attacker's choice of DR or EX" in text
    assert "A may advance 1 hex" in text
    assert "Below 1:2: no effect, no roll" in text


# =================================================================================================== ranking
def _crt_findings(text: str) -> list[str]:
    rep = verify(loads(text, "classic.yaml"))
    return [f.message for f in rep if f.kind.startswith("crt-")]


def test_elimination_is_no_inversion() -> None:
    """5:1 DRL and 6:1 DE: the elimination beats a step and a retreat; no finding (issue 22)."""
    assert [f for f in _crt_findings(classic()) if "worse for the attacker" in f] == []
    de, drl = cb.Losses(0, 0, defender_eliminated=True), cb.Losses(0, 1, 1)
    assert cb.compare_for_attacker(de, drl) == 1
    assert cb.compare_for_attacker(drl, de) == -1


def test_a_real_inversion_is_still_reported() -> None:
    """5:1 DE and 6:1 DR: the higher odds are worse on every count."""
    text = classic().replace("DRL, DE]", "DE, DR]")
    found = [f for f in _crt_findings(text) if "worse for the attacker" in f]
    assert found
    assert all("'DR'" in f or "6:1" in f for f in found)


def test_exchange_in_strength_ranks_only_where_it_must() -> None:
    ex = cb.Losses(0, 1, exchange="strength")
    assert cb.compare_for_attacker(ex, cb.Losses(1, 0)) is None  # an unknown attacker loss of at least one step
    assert cb.compare_for_attacker(cb.Losses(0, 1), ex) == 1  # the same defender loss at no cost is better
    assert cb.compare_for_attacker(cb.Losses(0, 0, attacker_eliminated=True), cb.Losses(3, 0)) == -1


losses = st.builds(
    cb.Losses,
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 2),
    st.integers(0, 2),
    st.booleans(),
    st.booleans(),
    st.sampled_from([None, "steps", "strength"]),
)


@settings(deadline=None)
@given(losses, losses, losses)
def test_ranking_is_a_partial_order(a: cb.Losses, b: cb.Losses, c: cb.Losses) -> None:
    """Antisymmetric (a better than b exactly when b is worse than a), reflexive where the counts are exact, and
    transitive."""
    ab, ba = cb.compare_for_attacker(a, b), cb.compare_for_attacker(b, a)
    assert (ab is None) == (ba is None)
    if ab is not None:
        assert ab == -ba  # type: ignore[operator]
    if cb.compare_for_attacker(a, b) in (0, 1) and cb.compare_for_attacker(b, c) in (0, 1):
        assert cb.compare_for_attacker(a, c) in (0, 1)


@settings(deadline=None)
@given(st.integers(-30, 30))
def test_differential_floor_and_ceiling_clamp(diff: int) -> None:
    crt = Crt(columns=["-1", "0", "+1", "+2"], rows=["1"], cells=[["A", "N", "D", "D"]], below={"no_effect": True},
              above={"column": "+2"})
    pick = cb.column_for_diff(crt, diff)
    if diff < -1:
        assert pick.result == cb.NO_EFFECT
    else:
        assert pick.label == ("+2" if diff >= 2 else f"{diff:+d}" if diff else "0")
