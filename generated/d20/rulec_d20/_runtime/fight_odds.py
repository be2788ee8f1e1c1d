"""Exact sequences of actions: how many identical actions until an outcome's running total reaches a
threshold, as an absorbing chain over the total (not sampling).

Bounded by declaration: thresholds up to `MAX_THRESHOLD`, at most `MAX_ATTACKS` actions, and
threshold x outcomes x actions at most `MAX_CHAIN_WORK` (checked before the work it bounds), so
every call ends within about half a second (`python -m bench --only worst`).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from .core import NUMBERS, OutOfBounds, cache, described

MAX_ATTACKS = 10_000
MAX_THRESHOLD = 100_000
# The work an exact sequence computation may do, in elements of its list operations: actions x the
# sum over runs of totals that share a step of (outcomes + 1) x (totals + 16, a list operation's own
# cost), checked before the work starts. A unit is about 60 ns: 2,000,000 is about 0.15 s on a quiet
# 2-core machine (0.5 s when it is loaded five deep). It was threshold x outcomes x actions up to
# 20,000,000, 2.5 s, more than one chat command may cost; this still admits 200 actions to a
# 300-point state over 30 outcomes, or 800 actions to 100 damage over 20.
MAX_CHAIN_WORK = 2_000_000


class UntilOdds(NamedTuple):
    """The distribution of the number of actions until a running total reaches a threshold."""

    probabilities: Tuple[float, ...]  # P(reached at action k + 1), k = 0 ..
    tail: float  # P(not reached within len(probabilities) actions)
    threshold: int

    @property
    def expected(self) -> float:
        """The mean number of actions, counting the tail as reached at the cut-off (a lower bound
        when `tail` > 0)."""
        n = len(self.probabilities)
        return sum((k + 1) * p for k, p in enumerate(self.probabilities)) + (n + 1) * self.tail

    def at_most(self, n: int) -> float:
        """P(reached within n actions)."""
        if n.__class__ is not int:
            raise OutOfBounds(f"次数必须是整数，得到{described(n)}", key="n")
        return sum(self.probabilities[:max(0, n)])

    @property
    def median(self) -> int:
        total = 0.0
        for k, p in enumerate(self.probabilities):
            total += p
            if total >= 0.5:
                return k + 1
        return len(self.probabilities) + 1


def _check(threshold: Any, max_attacks: Any) -> None:
    if type(threshold) is not int or not 1 <= threshold <= MAX_THRESHOLD:
        raise OutOfBounds(f"阈值必须是1至{MAX_THRESHOLD}的整数", key="threshold")
    if type(max_attacks) is not int or not 1 <= max_attacks <= MAX_ATTACKS:
        raise OutOfBounds(f"最多攻击次数必须是1至{MAX_ATTACKS}的整数", key="max_attacks")


def attacks_until(marginal: Mapping[int, float], threshold: int, max_attacks: int = 200,
                  negligible: float = 1e-15) -> UntilOdds:
    """Exactly: the number of independent actions, each adding a value drawn from `marginal`
    (value -> probability), until the running total reaches `threshold`. The chain's state is the
    total so far (capped at the threshold, which absorbs); it stops at `max_attacks` or when the
    mass still unabsorbed is below `negligible`, and reports that mass as `tail`."""
    if any(type(v) is not int or v < 0 for v in marginal):
        raise OutOfBounds("累计的结果必须是非负整数", key="marginal")
    _check(threshold, max_attacks)
    return _chain([(0, threshold, _row(marginal))], threshold, max_attacks, negligible)


# One total's step: the values an action adds (each > 0), their probabilities, and the probability
# that it adds nothing (the mass stays where it is).
_Row = Tuple[Tuple[int, ...], Tuple[float, ...], float]
# A run of consecutive totals [start, stop) that share one step.
_Run = Tuple[int, int, _Row]
# What one vectorised operation costs beyond its elements, in elements (the chain's work unit).
_OVERHEAD = 16


def _finite(x: Any) -> bool:
    return bool(x - x == 0)  # not inf, not nan


def _row(gains: Mapping[int, float]) -> _Row:
    if not isinstance(gains, Mapping):
        raise OutOfBounds(f"每次行动的增量必须是从增量到概率的映射，得到{described(gains)}", key="gains")
    values: List[int] = []
    probs: List[float] = []
    stay = 0.0
    for v, p in gains.items():
        if v.__class__ not in NUMBERS or p.__class__ not in NUMBERS or not (_finite(v) and _finite(p)):
            raise OutOfBounds("每次行动的增量和概率必须是有限的数", key="gains")
        gained, chance = max(0, int(v)), float(p)
        if chance <= 0.0:
            continue
        if gained == 0:
            stay += chance
        else:
            values.append(gained)
            probs.append(chance)
    return tuple(values), tuple(probs), stay


def _too_much(work: int) -> OutOfBounds:
    return OutOfBounds(f"阈值×结果种数×攻击次数的计算量{work}超过{MAX_CHAIN_WORK}：请降低阈值或最多攻击次数",
                       key="threshold")


def chain_until(gains: Callable[[int], Mapping[int, float]], threshold: int, max_attacks: int = 200,
                negligible: float = 1e-15) -> UntilOdds:
    """`attacks_until` where each running total has its own distribution of what one more action
    adds (`gains(total)`, called once per total; a total that returns the same mapping object as
    the one before shares its step): the absorbing chain over the total, exactly."""
    _check(threshold, max_attacks)
    if not callable(gains):
        raise OutOfBounds(f"gains必须是函数，得到{described(gains)}", key="gains")
    if threshold * max_attacks > MAX_CHAIN_WORK:  # before any total's step is computed
        raise _too_much(threshold * max_attacks)
    rows: Dict[int, Tuple[Mapping[int, float], _Row]] = {}  # id of a mapping -> (it, its row)
    runs: List[_Run] = []
    for total in range(threshold):
        g = gains(total)
        kept = rows.get(id(g))
        if kept is None or kept[0] is not g:
            kept = rows[id(g)] = (g, _row(g))
        if runs and runs[-1][2] is kept[1]:
            runs[-1] = (runs[-1][0], total + 1, kept[1])
        else:
            runs.append((total, total + 1, kept[1]))
    return _chain(runs, threshold, max_attacks, negligible)


def _chain(runs: Sequence[_Run], threshold: int, max_attacks: int, negligible: float) -> UntilOdds:
    """The chain over totals 0 .. threshold - 1 (everything past them is one absorbing state).
    Each step moves the mass of a run of totals that share a step as whole lists (one list
    operation per run and outcome); only the totals the chain can have reached are stepped
    through; a chain whose live totals can no longer grow ends at once (the rest is tail)."""
    work = max_attacks * sum((len(r[0]) + 1) * (stop - start + _OVERHEAD) for start, stop, r in runs)
    if work > MAX_CHAIN_WORK:
        raise _too_much(work)
    top = max([0, *(v for _, _, r in runs for v in r[0])])
    dist = [0.0] * threshold
    dist[0] = 1.0
    hi = 0  # the highest total that may hold mass
    out: List[float] = []
    alive = 1.0
    for step in range(max_attacks):
        nxt = [0.0] * threshold
        absorbed = 0.0
        moved = False
        fresh = 0  # totals below this may already hold mass of this step
        for start, stop, (values, probs, stay) in runs:
            if start > hi:
                break
            stop = min(stop, hi + 1)
            seg = dist[start:stop]
            n = stop - start
            if stay and start >= fresh:  # nothing has moved onto these totals yet
                nxt[start:stop] = [stay * y for y in seg]
            elif stay:
                nxt[start:stop] = [x + stay * y for x, y in zip(nxt[start:stop], seg)]
            fresh = stop + top
            for v, p in zip(values, probs):
                moved = True
                at = start + v
                inside = threshold - at  # how many of the run's totals stay below the threshold
                if inside > 0:
                    nxt[at:at + n] = [x + p * y for x, y in zip(nxt[at:at + n], seg)]
                if inside < n:
                    absorbed += p * sum(seg[max(0, inside):])
        if not moved:  # nothing can grow any more: every later action adds nothing
            out += [0.0] * (max_attacks - step)
            break
        out.append(absorbed)
        dist = nxt
        hi = min(threshold - 1, hi + top)
        alive = sum(dist)
        if alive < negligible:
            break
    return UntilOdds(tuple(out), max(0.0, alive), threshold)


def expected_attacks(marginal: Mapping[int, float], threshold: int) -> Optional[float]:
    """The exact mean number of actions until the running total reaches `threshold`, without the
    distribution: E(t) = (1 + sum over v > 0 of p_v E(t + v)) / (1 - p_0), E(>= threshold) = 0, from
    the top total down (O(threshold x outcomes)). None when the total can never grow."""
    _check(threshold, 1)
    stay = sum(p for v, p in marginal.items() if v <= 0)
    steps = [(int(v), float(p)) for v, p in marginal.items() if v > 0 and p > 0]
    if threshold * max(1, len(steps)) > MAX_CHAIN_WORK:
        raise OutOfBounds(f"阈值×结果种数超过{MAX_CHAIN_WORK}", key="threshold")
    key = (stay, tuple(steps), threshold)  # all the answer is made from, in its order
    try:
        return _EXPECTED[key]
    except KeyError:
        pass
    if len(_EXPECTED) >= 4096:
        _EXPECTED.clear()
    found = _EXPECTED[key] = _expected(stay, steps, threshold)
    return found


def _expected(stay: float, steps: List[Tuple[int, float]], threshold: int) -> Optional[float]:
    """`expected_attacks` from the chance of no gain and the gains with their chances."""
    if not steps or stay >= 1.0:
        return None
    scale = 1.0 - stay
    # A step of the threshold or more ends the chain from any total, so it adds p x 0.0 to every
    # sum: left out, which changes no bit (adding +0.0 to a sum of terms >= 0 is exact).
    low = [(v, p) for v, p in steps if v < threshold]
    e = [0.0] * (2 * threshold)  # e[t]: from total t; 0 from the threshold on
    for t in range(threshold - 1, -1, -1):
        e[t] = (1.0 + sum([p * e[t + v] for v, p in low])) / scale
    return e[0]


_EXPECTED: Dict[Tuple[Any, ...], Optional[float]] = cache()  # expected_attacks' answers (the pages ask again and again)


def sequence_odds(odds: Callable[..., Any], field: str, threshold: int, max_attacks: int,
                  args: Sequence[Any], kwargs: Mapping[str, Any]) -> UntilOdds:
    """`attacks_until` over the marginal of `field` in the exact odds of one action. The limits are
    checked before the action's odds are computed."""
    _check(threshold, max_attacks)
    if type(field) is not str or len(field) > 100:
        raise OutOfBounds("结果字段必须是文字", key="field")
    try:
        result = odds(*args, **kwargs)
    except TypeError:  # an argument left out, or one the procedure does not take (as Fight.resolve says)
        raise OutOfBounds("过程的参数不全或有误", key="args") from None
    if field not in result.fields:
        raise OutOfBounds(f"没有结果{described(field)}", key=field)
    marginal = result.marginal(field)
    if any(type(v) is not int for v in marginal):
        raise OutOfBounds(f"{described(field)}不是整数结果，无法累计", key=field)
    return attacks_until(marginal, threshold, max_attacks)
