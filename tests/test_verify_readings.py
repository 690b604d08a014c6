"""forge.verifier.readings: an example whose sentence reads several ways (``readings``).

Properties:
- a value that disagrees with the rules is an error only when every reading disagrees; where one reading agrees,
  the others are one ``example-reading`` warning that quotes each reading and what disagrees on it;
- when every reading disagrees, the first reading's errors stand and say so, with what the others give;
- the reported claims are those of the reading that agrees (its values counted, its unchecked values listed);
- the order of the readings changes which is quoted first, never the severity;
- ``forge check`` refuses a lone reading and a reading's hex off the map, located, exit status 2.
"""

from __future__ import annotations

import subprocess
from functools import cache

from forge.loader import loads
from forge.model import Game
from forge.verifier import severity, verify
from conftest import DATA, forge_run

FPA = DATA / "first_panzer_army.yaml"
R1 = '''      - reading: "1919 is where the 16th Panzer re-enters the ZOC and so stops; 9 Mech stays in 2019"
        given: {path: ["2018", "1918", "1919"], enemy_hexes: ["2019"]}
        states: {to: "1919", legal: true}
'''
R2 = '''      - reading: "1919 is where 9 Mech stands; the 16th Panzer stops in 1918, in its ZOC"
        given: {path: ["2018", "1918"], enemy_hexes: ["1919"]}
        states: {to: "1918", enemy_hex: "1919", legal: true}
'''


@cache
def text() -> str:
    t = FPA.read_text(encoding="utf-8")
    assert t.count(R1) == 1
    assert t.count(R2) == 1
    return t


def planted(*edits: tuple[str, str]) -> Game:
    t = text()
    for old, new in edits:
        assert t.count(old) == 1, old
        t = t.replace(old, new)
    return loads(t, "first_panzer_army.yaml")


def loud(game: Game, ref: str = "ex-t-move-16pz") -> list[tuple[str, str]]:
    return [(f.kind, severity(f)) for f in verify(game) if f.ref == ref and severity(f) != "info"]


def test_one_reading_agrees_so_the_other_is_a_warning_not_an_error() -> None:
    game = planted()
    assert loud(game) == [("example-reading", "warning")]
    (w,) = [f for f in verify(game) if f.kind == "example-reading"]
    assert "reads 2 ways" in w.message
    assert "On reading 1 (1919 is where the 16th Panzer re-enters" in w.message
    assert "on reading 2 (1919 is where 9 Mech stands" in w.message
    assert w.path == ("examples", 40, "readings") or w.path[-1] == "readings"


def test_every_reading_disagreeing_is_an_error_that_says_so() -> None:
    game = planted((R1, R1.replace('{to: "1919", legal: true}', '{to: "1919", enemy_hex: "1919", legal: true}')))
    found = [f for f in verify(game) if f.ref == "ex-t-move-16pz" and severity(f) == "error"]
    assert [(f.kind, f.extra["key"], f.stated, f.computed) for f in found] == [
        ("example-mismatch", "enemy_hex", "1919", "2019")
    ]
    assert "every reading disagrees with the rules" in found[0].message
    assert "reading 2 (1919 is where 9 Mech stands" in found[0].message
    assert not [f for f in verify(game) if f.kind == "example-reading"]


def test_the_order_of_the_readings_decides_nothing_but_the_order_quoted() -> None:
    swapped = planted((R1 + R2, R2 + R1))
    assert loud(swapped) == [("example-reading", "warning")]
    w = next(f for f in verify(swapped) if f.kind == "example-reading")
    assert "On reading 2 (1919 is where the 16th Panzer re-enters" in w.message


def test_readings_that_all_agree_report_nothing() -> None:
    agreeing = R2.replace('["2018", "1918"], enemy_hexes: ["1919"]', '["2018", "1918"], enemy_hexes: ["2019"]')
    agreeing = agreeing.replace('enemy_hex: "1919", ', "")
    assert loud(planted((R2, agreeing))) == []


def test_the_claims_counted_are_the_agreeing_readings() -> None:
    claims = {c.key: c.status for c in verify(planted()).claims if c.example == "ex-t-move-16pz"}
    assert set(claims) == {"to", "legal"}  # reading 1's keys: enemy_hex is reading 2's alone


def _check(tmp_path, t: str) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    bad = tmp_path / "g.yaml"
    bad.write_text(t, "utf-8")
    return forge_run("check", str(bad))


def test_check_refuses_a_lone_reading_located(tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = _check(tmp_path, text().replace(R2, ""))
    assert r.returncode == 2
    line = next(i for i, ln in enumerate(text().splitlines(), 1) if ln.strip() == "readings:")
    assert f"g.yaml:{line}:" in r.stderr
    assert "examples[40].readings" in r.stderr
    assert "at least 2" in r.stderr
    assert "Traceback" not in r.stderr


def test_check_refuses_a_readings_hex_off_the_map(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = 'given: {path: ["2018", "1918", "1919"]'
    r = _check(tmp_path, text().replace(path, path.replace("1919", "9919")))
    assert r.returncode == 2
    assert "examples[40].readings[0].given.path[2]: hex '9919' is off the map" in r.stderr
