"""Balance by simulation for ``forge analyze``: many complete games played as ``forge play`` plays them, the
statistics of how they came out, and a class's own results compared with them.

Game ``i`` of a run with seed ``S`` is played with seed ``S + i`` (its choices and its dice), exactly as ``forge play
--seed S`` plays it: a game's seed depends on its index only, so the games can be split over any number of
processes (``--jobs``), or machines, and the results, put back in index order, are the same.

The turn a game is *decided*: the first turn from whose end on the eventual winner leads on victory points at
every later turn's end and at the finish (the turn it ended, when the winner did not lead on points before).
A draw is decided on no turn.
"""

from __future__ import annotations

import csv
import difflib
import math
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = [
    "ClassResult",
    "CsvError",
    "Record",
    "binomial_p",
    "chi_square_p",
    "decided_turn",
    "read_class_results",
    "simulate",
    "simulate_policies",
    "summary",
    "wilson",
]

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True)
class Record:
    """One simulated game."""

    seed: int
    winner: str | None
    vp: tuple[tuple[str, int], ...]
    """Each side's final victory points, in the game's order of sides."""
    turn: int
    """The turn it ended on."""
    decided: int | None
    """The turn it was decided on (see the module's docstring); None for a draw."""


def decided_turn(winner: str | None, scores: Sequence[tuple[int, Mapping[str, int]]]) -> int | None:
    """The first turn from whose end on ``winner`` leads every other side in every later entry of ``scores``
    (``(turn, VP by side)`` at each turn's end, the finish last); the last turn when it leads only at the end
    or not at all; None for a draw.

    >>> decided_turn("a", [(1, {"a": 0, "b": 1}), (2, {"a": 2, "b": 1}), (3, {"a": 3, "b": 1})])
    2
    >>> decided_turn("a", [(1, {"a": 1, "b": 0}), (2, {"a": 0, "b": 0}), (3, {"a": 3, "b": 1})])
    3
    """
    if winner is None or not scores:
        return None
    first: int | None = None
    for turn, vp in scores:
        leads = all(vp[winner] > v for s, v in vp.items() if s != winner)
        if not leads:
            first = None
        elif first is None:
            first = turn
    return first if first is not None else scores[-1][0]


# ================================================================================================ simulation
_WORKER: dict[str, Any] = {}


def _setup(path: str, strength: int | None) -> tuple[Any, Any, Any]:
    from .loader import load
    from .rules.engines import Assumptions, engine_for

    game = load(path)
    return game, engine_for(game), Assumptions(strength=strength)


def _init_worker(path: str, strength: int | None) -> None:
    # A worker forked from the process that already loaded the game inherits it (simulate_policies leaves it
    # here): loading and compiling the rules again would cost each worker a few tenths of a second.
    if _WORKER.get("key") != (path, strength):
        _WORKER["setup"] = _setup(path, strength)
        _WORKER["key"] = (path, strength)


def play_recorded(engine: Any, game: Any, assume: Any, seed: int, policy: str) -> Record:
    """One game played by :func:`forge.commands.play.play_one` (the same seed gives the same game as ``forge
    play``), its score followed turn by turn."""
    from .commands.play import play_one

    scores: list[tuple[int, Mapping[str, int]]] = []
    last = [None]
    score = getattr(engine, "score", None)  # an engine that cannot tell the score mid-game: decided at the end

    def seen(state: Any) -> None:
        turn = state.turn
        if last[0] is not None and turn != last[0]:
            scores.append((last[0], score(state)))
        last[0] = turn

    outcome = play_one(engine, game, assume, seed, policy, seen if score is not None else None)
    scores.append((outcome.turn, dict(outcome.vp)))
    sides = [s.id for s in game.game.sides]
    return Record(
        seed,
        outcome.winner,
        tuple((s, int(outcome.vp[s])) for s in sides),
        outcome.turn,
        decided_turn(outcome.winner, scores),
    )


def _chunk(task: tuple[int, int, str]) -> list[Record]:
    first, count, policy = task
    game, engine, assume = _WORKER["setup"]
    return [play_recorded(engine, game, assume, first + i, policy) for i in range(count)]


def jobs_for(jobs: int) -> int:
    """``--jobs``: 0 is every core."""
    return max(1, (os.cpu_count() or 1) if jobs == 0 else jobs)


def simulate(
    path: str,
    strength: int | None,
    *,
    seed: int,
    games: int,
    policy: str,
    jobs: int = 1,
    setup: Any = None,
    progress: Callable[[int], None] | None = None,
) -> list[Record]:
    """Games ``seed .. seed + games - 1`` with ``policy``, over ``jobs`` processes (0: every core), in seed order.
    ``setup``: the already loaded ``(game, engine, assumptions)`` for the games played in this process;
    ``progress``: called with the number of games finished so far."""
    return simulate_policies(
        path, strength, seed=seed, games=games, policies=(policy,), jobs=jobs, setup=setup, progress=progress
    )[policy]


def simulate_policies(
    path: str,
    strength: int | None,
    *,
    seed: int,
    games: int,
    policies: Sequence[str],
    jobs: int = 1,
    setup: Any = None,
    progress: Callable[[int], None] | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> dict[str, list[Record]]:
    """:func:`simulate` for each of ``policies`` (the same seeds for each), in one pool of ``jobs`` processes: the
    workers load the game once for all the policies, and a slow policy's chunks share the pool with a fast one's
    instead of idling a core at the end of each.  ``progress``: called with the number of games finished so far,
    over all the policies (the first policy's games counted first).  ``meanwhile``: work of the caller's that does
    not depend on the games, called once while the workers play (with one process: before the games)."""
    n = jobs_for(jobs)
    out: dict[str, list[Record]] = {p: [] for p in policies}
    if n == 1 or games < 2:
        if meanwhile is not None:
            meanwhile()
        game, engine, assume = setup or _setup(path, strength)
        done = 0
        for pol in policies:
            for i in range(games):
                out[pol].append(play_recorded(engine, game, assume, seed + i, pol))
                done += 1
                if progress:
                    progress(done)
        return out
    import concurrent.futures as cf

    # Many chunks per process (16 a policy): the last chunk still running while the other processes have nothing
    # left to do is short, whichever policy it plays.
    size = max(1, math.ceil(games / (n * 16)))
    tasks = [(seed + i, min(size, games - i), pol) for pol in policies for i in range(0, games, size)]
    if setup is not None:  # inherited by forked workers (see _init_worker); a spawned worker loads the game itself
        _WORKER["setup"], _WORKER["key"] = setup, (path, strength)
    with cf.ProcessPoolExecutor(max_workers=n, initializer=_init_worker, initargs=(path, strength)) as pool:
        done = 0
        parts = pool.map(_chunk, tasks)  # every chunk is submitted now: the workers play on while the caller works
        if meanwhile is not None:
            meanwhile()
        for (_, _, pol), part in zip(tasks, parts, strict=True):
            out[pol].extend(part)
            done += len(part)
            if progress:
                progress(done)
    return out


# ================================================================================================ statistics
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k`` of ``n`` (95 % by default).

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # rounding leaves c - h a hair above 0 when k is 0 (and c + h below 1 when k is n): the bounds hold p exactly
    return (0.0 if k == 0 else min(p, c - h)), (1.0 if k == n else max(p, c + h))


def _quantile(xs: Sequence[int], q: float) -> float:
    """The ``q`` quantile of sorted ``xs`` (linear between the two nearest ranks)."""
    pos = (len(xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summary(records: Sequence[Record], sides: Sequence[str]) -> dict[str, Any]:
    """Win rates with their 95 % intervals, the VP distribution per side and the turns games were decided and
    ended on (counts keyed by text, so that the JSON's keys sort)."""
    n = len(records)
    won = Counter(r.winner for r in records)
    out: dict[str, Any] = {"games": n, "draws": won[None], "win": {}, "vp": {}}
    for s in sides:
        lo, hi = wilson(won[s], n)
        out["win"][s] = {"games": won[s], "rate": won[s] / n, "low95": lo, "high95": hi}
        vps = sorted(dict(r.vp)[s] for r in records)
        mean = sum(vps) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in vps) / (n - 1)) if n > 1 else 0.0
        out["vp"][s] = {
            "mean": mean,
            "sd": sd,
            "min": vps[0],
            "p10": _quantile(vps, 0.1),
            "median": _quantile(vps, 0.5),
            "p90": _quantile(vps, 0.9),
            "max": vps[-1],
            "counts": {str(v): k for v, k in sorted(Counter(vps).items())},
        }
    decided = Counter(r.decided for r in records if r.decided is not None)
    out["decided"] = {str(t): k for t, k in sorted(decided.items())}
    out["ended"] = {str(t): k for t, k in sorted(Counter(r.turn for r in records).items())}
    return out


def binomial_p(k: int, n: int, p: float) -> float:
    """Two-sided exact binomial test: the probability of an outcome no more likely than ``k`` successes in ``n``
    trials of probability ``p``.

    >>> round(binomial_p(9, 10, 0.5), 4)
    0.0215
    """
    if n == 0:
        return 1.0
    probs = [math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
    own = probs[k] * (1 + 1e-9)
    return min(1.0, sum(q for q in probs if q <= own))


def chi_square_p(x: float, df: int) -> float:
    """The chi-square distribution's upper tail P(X >= x) for ``df`` degrees of freedom (whole numbers).

    >>> round(chi_square_p(3.841, 1), 3), round(chi_square_p(5.991, 2), 3)
    (0.05, 0.05)
    """
    if df <= 0:
        return 1.0
    if x <= 0:
        return 1.0
    if df % 2 == 0:  # exp(-x/2) * sum_{i < df/2} (x/2)^i / i!
        term = total = 1.0
        for i in range(1, df // 2):
            term *= (x / 2) / i
            total += term
        return min(1.0, math.exp(-x / 2) * total)
    # odd: erfc(sqrt(x/2)) + exp(-x/2) * sum over the half-integer terms
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * i + 1)
    return min(1.0, total)


# ================================================================================================ class results
class CsvError(ValueError):
    """A class-results CSV that cannot be read: each problem as ``file:line: message``."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class ClassResult:
    """One game a pair of students played (a row of the record sheet)."""

    line: int
    pair: str
    winner: str | None
    """A side's id, or None for a draw."""
    decided: int | None = None
    vp: dict[str, int] = field(default_factory=dict)


def csv_columns(sides: Sequence[str], vp: bool = True) -> list[str]:
    """The record sheet's columns, as ``forge analyze --class-results`` reads them (the header row); ``vp``: the
    game scores victory points (a game without them has no VP columns)."""
    return ["pair", "winner", "decided_turn", *[f"vp_{s}" for s in sides if vp]]


def scores_vp(game: Any) -> bool:
    """Whether the game scores victory points (its record sheet has a VP column per side)."""
    v = getattr(game, "victory", None)
    return v is not None and bool(getattr(v, "points", None))


def _near(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def read_class_results(
    path: str, sides: Sequence[str], titles: Mapping[str, str], turns: int | None, vp: bool = True
) -> list[ClassResult]:
    """The rows of a class-results CSV (:func:`csv_columns`; ``winner`` a side's id or name, or ``draw``; the
    other cells may be blank).  :class:`CsvError` with every problem, each at its line."""
    problems: list[str] = []
    want = csv_columns(sides, vp)
    winners = {s.lower(): s for s in sides} | {t.lower(): s for s, t in titles.items()}
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError) as e:
        raise CsvError([f"{path}: cannot read the class results: {getattr(e, 'strerror', None) or e}"]) from None
    except csv.Error as e:
        raise CsvError([f"{path}: not a CSV file: {e}"]) from None
    if not rows or not any(c.strip() for c in rows[0]):
        raise CsvError([f"{path}:1: expected a header row: {','.join(want)}"])
    header = [c.strip().lower() for c in rows[0]]
    for i, h in enumerate(header):
        if h not in want:
            problems.append(
                f"{path}:1:{i + 1}: unknown column {h!r}{_near(h, want)}; the columns are {', '.join(want)}"
            )
    if "winner" not in header:
        problems.append(f"{path}:1: the column 'winner' is missing; the columns are {', '.join(want)}")
    dup = [h for h, k in Counter(header).items() if k > 1 and h]
    problems += [f"{path}:1: the column {h!r} is given twice" for h in dup]
    if problems:
        raise CsvError(problems)
    out: list[ClassResult] = []
    for lineno, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if len(row) > len(header):
            problems.append(f"{path}:{lineno}: {len(row)} cells, but the header names {len(header)} columns")
            continue
        cell = dict(zip(header, [c.strip() for c in row], strict=False))
        w = cell.get("winner", "")
        if w.lower() == "draw":
            winner = None
        elif w.lower() in winners:
            winner = winners[w.lower()]
        else:
            accepted = [*sides, "draw"]
            problems.append(
                f"{path}:{lineno}: winner: {w!r} is not a side; expected one of {', '.join(accepted)}"
                f"{_near(w.lower(), accepted)}"
            )
            continue
        bad = False
        nums: dict[str, int | None] = {}
        for key in ("decided_turn", *[f"vp_{s}" for s in sides if vp]):
            text = cell.get(key, "")
            if not text:
                nums[key] = None
                continue
            try:
                v = int(text)
            except ValueError:
                problems.append(f"{path}:{lineno}: {key}: {text!r} is not a whole number")
                bad = True
                continue
            if v < 0 or (key == "decided_turn" and (v < 1 or (turns is not None and v > turns))):
                span = f"1 to {turns}" if key == "decided_turn" and turns else "0 or more"
                problems.append(f"{path}:{lineno}: {key}: {v} is out of range (expected {span})")
                bad = True
                continue
            nums[key] = v
        if bad:
            continue
        points = {s: got for s in sides if (got := nums.get(f"vp_{s}")) is not None}
        out.append(ClassResult(lineno, cell.get("pair", ""), winner, nums["decided_turn"], points))
    if problems:
        raise CsvError(problems)
    if not out:
        raise CsvError([f"{path}:2: no games recorded under the header"])
    return out


def compare(results: Sequence[ClassResult], records: Sequence[Record], sides: Sequence[str]) -> dict[str, Any]:
    """The class's results against the simulated games: winners (counts observed and expected, a chi-square test
    where the expected counts allow it, and an exact binomial test per side), VP means and decided turns."""
    n = len(results)
    sim = len(records)
    won_obs = Counter(r.winner for r in results)
    won_sim = Counter(r.winner for r in records)
    cats: list[str | None] = [*sides, None]
    rows: list[dict[str, Any]] = []
    chi = 0.0
    used = 0
    for c in cats:
        p = won_sim[c] / sim
        e = p * n
        rows.append({"winner": c or "draw", "observed": won_obs[c], "expected": e, "simulated_rate": p})
        if e > 0:
            chi += (won_obs[c] - e) ** 2 / e
            used += 1
        elif won_obs[c]:
            chi = math.inf
    out: dict[str, Any] = {"games": n, "winners": rows}
    out["chi_square"] = {
        "statistic": chi,
        "df": max(used - 1, 0),
        "p": 0.0 if math.isinf(chi) else chi_square_p(chi, used - 1),
        "rough": any(0 < r["expected"] < 5 for r in rows),
    }
    out["binomial"] = {
        s: {"observed": won_obs[s], "p_sim": won_sim[s] / sim, "p": binomial_p(won_obs[s], n, won_sim[s] / sim)}
        for s in sides
    }
    vp: dict[str, Any] = {}
    for s in sides:
        got = [r.vp[s] for r in results if s in r.vp]
        if got:
            simv = [dict(r.vp)[s] for r in records]
            m = sum(got) / len(got)
            vp[s] = {
                "games": len(got),
                "mean": m,
                "simulated_mean": sum(simv) / sim,
                "simulated_at_most": sum(1 for v in simv if v <= m) / sim,
            }
    out["vp"] = vp
    dec = [r.decided for r in results if r.decided is not None]
    if dec:
        dsim = [r.decided for r in records if r.decided is not None]
        out["decided"] = {
            "games": len(dec),
            "mean": sum(dec) / len(dec),
            "simulated_mean": sum(dsim) / len(dsim) if dsim else None,
        }
    return out


def as_float(x: Fraction | None) -> float | None:
    return None if x is None else float(x)
