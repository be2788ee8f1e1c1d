"""Exact outcome distributions, without sampling.

* `pool_distribution`: successes of a `.ww`-style pool. One die and its chain of
  added dice has the generating function c(x) = (p_f + p_s x) / (1 - r - q x)
  (p_f: fails without adding, p_s: succeeds without adding, q: succeeds and adds,
  r: fails and adds). A pool of n dice is c(x)^n: a binomial times a negative
  binomial series, all terms positive, so it is computed term by term in O(n·k)
  and stopped once the remaining tail mass is below `tail` (reported as
  `dropped`). Past about a thousand dice the binomial coefficients are taken from their
  logarithms; where the terms themselves could overflow (a pool whose failing faces add dice)
  they are computed as logarithms throughout. Either way the convolution is one C-level pass.
  A rolled pool stops with LimitExceeded past the ruleset's `added_dice` (pool.py); the
  compiler checks that fair dice pass that cap with probability at most `TAIL` for the largest
  pool allowed, so the outcomes a capped roll cannot show lie in the mass reported as `dropped`
  or below it, and every success count given a probability here can be rolled.
* `d20_distribution`: the kept face with N advantage or disadvantage layers.
* `dice_sum_distribution`: the total of damage dice such as 2d6+1d4.
* `Odds`: a procedure's outcome distribution with hit chance and mean damage.
"""

from __future__ import annotations

import math
from operator import add as _add, itemgetter, mul as _mul
import random
from functools import lru_cache
from typing import Any, Dict, List, Optional, Sequence, Tuple, TypeVar

from .core import NUMBERS, LimitExceeded, OutOfBounds, described

TAIL = 1e-16
# Outcomes of a roll less likely than this are not enumerated by odds functions (their mass is
# reported as dropped): they change no printed figure and make nested rolls slow.
NEGLIGIBLE = 1e-15


class PoolOdds:
    """P(successes = m) for m = 0..len(probs)-1, and the tail mass left out."""

    __slots__ = ("probs", "dropped", "skipped", "_items", "_cum")

    def __init__(self, probs: Tuple[float, ...], dropped: float) -> None:
        self.probs = probs
        self.dropped = dropped  # the tail left out of `probs`
        self._items = [(m, p) for m, p in enumerate(probs) if p >= NEGLIGIBLE]
        # What an odds function does not enumerate besides: outcomes too unlikely to change any figure.
        self.skipped = dropped + sum(p for p in probs if p < NEGLIGIBLE)
        self._cum: Any = None

    def items(self) -> List[Tuple[int, float]]:
        """The outcomes worth enumerating (`skipped` is the mass of the rest)."""
        return self._items

    def mean(self) -> float:
        return sum(m * p for m, p in enumerate(self.probs))

    def sample(self, rng: random.Random, k: int) -> List[int]:
        """k successes drawn from the exact table: the batch mode for simulations."""
        if self._cum is None:
            acc = 0.0
            cum = []
            for p in self.probs:
                acc += p
                cum.append(acc)
            self._cum = (list(range(len(self.probs))), cum)
        values, cum = self._cum
        return rng.choices(values, cum_weights=cum, k=k)


@lru_cache(maxsize=4096)
def pool_distribution(dice: int, sides: int, success_at: int, add_at: int,
                      tail: float = TAIL) -> PoolOdds:
    """Exact distribution of raw successes of `dice` dice (add_at <= 0: no added dice)."""
    if dice <= 0:
        return PoolOdds((1.0,), 0.0)
    if add_at <= 0 or add_at > sides:
        add_at = sides + 1
    succ_faces = [f >= success_at for f in range(1, sides + 1)]
    add_faces = [f >= add_at for f in range(1, sides + 1)]
    n_s = sum(1 for s, a in zip(succ_faces, add_faces) if s and not a)
    n_q = sum(1 for s, a in zip(succ_faces, add_faces) if s and a)
    n_r = sum(1 for s, a in zip(succ_faces, add_faces) if a and not s)
    n_f = sides - n_s - n_q - n_r
    if n_q + n_r >= sides:
        raise OutOfBounds("每个骰面都会加骰：这个骰池永远掷不完")
    p_f, p_s, q, r = n_f / sides, n_s / sides, n_q / sides, n_r / sides
    d = 1.0 - r
    n = dice
    ratio = q / d
    # Every A_j * B_k below is at most 1, but B_k alone reaches about (1 / (p_f + p_s))^n.
    in_floats = n * -math.log(p_f + p_s) < 600
    # A_j = C(n, j) p_f^(n-j) p_s^j : successes from the last die of each chain.
    # B_k = C(n+k-1, k) (q/d)^k / d^n : successes from added dice.
    a_terms: List[float] = []
    b_terms: List[float] = []
    if in_floats and n <= 1000:
        for j in range(n + 1):
            a_terms.append(_binom(n, j) * (p_f ** (n - j)) * (p_s**j))
        b_terms.append(d ** (-n))
        next_b = _next_b_float
    elif in_floats:  # C(n, j) alone overflows a float past about 1,030 dice: A_j from its logarithm
        for j in range(n + 1):
            a_terms.append(_exp(_log_binom(n, j) + _xlogy(n - j, p_f) + _xlogy(j, p_s)))
        b_terms.append(d ** (-n))
        next_b = _next_b_float
    else:  # logarithms: a_terms hold log A_j / d^n, b_terms log C(n+k-1, k) (q/d)^k
        for j in range(n + 1):
            a_terms.append(_log_binom(n, j) + _xlogy(n - j, p_f / d) + _xlogy(j, p_s / d))
        b_terms.append(0.0)
        next_b = _next_b_log
    probs: List[float] = []
    dropped = 0.0
    m = 0
    while True:
        while len(b_terms) <= m:
            k = len(b_terms)
            b_terms.append(next_b(b_terms[-1], n, k, ratio))
        pm = 0.0
        if in_floats:  # sum of a_j * b_(m-j): one C-level pass (a Python loop is the O(N^2) cost here)
            lo, hi = max(0, m - len(b_terms) + 1), min(n, m)
            pm = sum(map(_mul, a_terms[lo:hi + 1], reversed(b_terms[m - hi:m - lo + 1])))
        else:  # the same pass over exp(log a_j + log b_(m-j)) (a term below e^-745 is 0)
            lo, hi = max(0, m - len(b_terms) + 1), min(n, m)
            pm = sum(map(_exp, map(_add, a_terms[lo:hi + 1], reversed(b_terms[m - hi:m - lo + 1]))))
        probs.append(pm)
        m += 1
        if m > n:
            if ratio == 0.0:
                break
            # For m > n every later term shrinks by at most rho, so the tail after
            # this term is at most pm * rho / (1 - rho).
            k = m - n
            rho = (n + k) / (k + 1) * ratio
            if rho < 1.0:
                bound = pm * rho / (1.0 - rho)
                if bound <= tail:
                    dropped = bound
                    break
    while len(probs) > 1 and probs[-1] == 0.0:
        probs.pop()
    return PoolOdds(tuple(probs), dropped)


def _binom(n: int, k: int) -> float:
    return float(math.comb(n, k))


def _log_binom(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _xlogy(x: int, y: float) -> float:
    """x * log(y), with 0 * log(0) = 0 and log(0) = -inf."""
    if x == 0:
        return 0.0
    return x * math.log(y) if y > 0.0 else -math.inf


def _exp(x: float) -> float:
    return math.exp(x) if x > -745.0 else 0.0


def _next_b_float(prev: float, n: int, k: int, ratio: float) -> float:
    return prev * (n + k - 1) / k * ratio


def _next_b_log(prev: float, n: int, k: int, ratio: float) -> float:
    return prev + math.log((n + k - 1) / k) + (math.log(ratio) if ratio > 0.0 else -math.inf)


def all_succeed_distribution(dice: int) -> PoolOdds:
    """Coup-de-grace mode: every die is a success, no dice are added."""
    probs = [0.0] * (max(dice, 0) + 1)
    probs[max(dice, 0)] = 1.0
    return PoolOdds(tuple(probs), 0.0)


@lru_cache(maxsize=256)
def d20_distribution(layers: int) -> Tuple[Tuple[int, float], ...]:
    """P(kept face = v) with `layers` net advantage (>0) or disadvantage (<0) layers."""
    n = abs(layers) + 1
    out = []
    for v in range(1, 21):
        if layers >= 0:
            p = (v**n - (v - 1) ** n) / 20**n
        else:
            p = ((21 - v) ** n - (20 - v) ** n) / 20**n
        out.append((v, p))
    return tuple(out)


@lru_cache(maxsize=1024)
def dice_sum_distribution(terms: Tuple[Tuple[int, int], ...], crit: bool = False
                          ) -> Tuple[Tuple[int, float], ...]:
    """P(total = t) of the dice in `terms` (each rolled twice on a crit).

    Each die is added with a running window sum, in time proportional to the totals so far (not
    times the die's sides). The window runs from the low end up to the peak and from the high end
    down to it, so it only ever subtracts a smaller term: the tails keep their relative precision."""
    probs: List[float] = [1.0]
    low = 0  # the smallest total so far
    mult = 2 if crit else 1
    for count, sides in terms:
        for _ in range(count * mult):
            probs = _add_die(probs, sides)
            low += 1
    return tuple((low + i, p) for i, p in enumerate(probs))


def _add_die(probs: List[float], sides: int) -> List[float]:
    size, share = len(probs), 1.0 / sides
    total = size + sides - 1
    up = _window(probs, sides, total)
    down = _window(probs[::-1], sides, total)[::-1]
    peak = max(range(total), key=up.__getitem__)
    return [(up[i] if i <= peak else down[i]) * share for i in range(total)]


def _window(probs: List[float], sides: int, total: int) -> List[float]:
    out = []
    window, size = 0.0, len(probs)
    for i in range(total):
        if i < size:
            window += probs[i]
        if i >= sides:
            window -= probs[i - sides]
        out.append(window)
    return out


class Odds:
    """The exact outcome distribution of one procedure call.

    `outcomes` maps a tuple of the procedure's outcome fields (named in `fields`) to its
    probability. `hit_probability` and `expected_damage` read the fields the procedure declares
    as its hit and its damage (`hit`, `damage`; None when it declares none). `dropped` is the
    tail mass left out by truncated pool explosions.

    A generated odds function gives the fields that are the same in every outcome apart
    (`fixed`: (position, value) pairs) and keys its outcomes by the others only, so that each
    outcome it enumerates hashes a short tuple. `probability`, `marginal` and `expected` read
    that form as it is; `outcomes`, the full tuples, is made from it once, when first read.
    """

    __slots__ = ("fields", "_outcomes", "_acc", "_fixed", "dropped", "hit", "damage")

    def __init__(self, fields: Tuple[str, ...], outcomes: Dict[Tuple[Any, ...], float], dropped: float,
                 hit: Optional[str] = None, damage: Optional[str] = None,
                 fixed: Tuple[Tuple[int, Any], ...] = ()) -> None:
        self.fields = fields
        self.dropped = dropped
        self.hit = hit
        self.damage = damage
        self._acc = outcomes
        self._fixed = fixed
        self._outcomes: Optional[Dict[Tuple[Any, ...], float]] = None if fixed else outcomes

    @property
    def outcomes(self) -> Dict[Tuple[Any, ...], float]:
        if self._outcomes is None:
            values = tuple(v for _, v in self._fixed)
            whole = _expander(len(self.fields), tuple(i for i, _ in self._fixed), tuple(range(len(self.fields))))
            self._outcomes = {whole(key + values): p for key, p in self._acc.items()}
        return self._outcomes

    def project(self, at: Sequence[int]) -> List[Tuple[Tuple[Any, ...], float]]:
        """For each outcome in order, the values of the fields at the positions `at` (a tuple) and
        its probability: what `outcomes` gives, projected, made from the keys as they are (a fight
        reading the fields its effects read)."""
        values = tuple(v for _, v in self._fixed)
        pick = _expander(len(self.fields), tuple(i for i, _ in self._fixed), tuple(at))
        return [(pick(key + values), p) for key, p in self._acc.items()]

    def _place(self, field: str) -> Tuple[bool, Any]:
        """(True, the field's index in an outcome's key), or (False, its value in every outcome);
        OutOfBounds for a name that is no outcome field."""
        if field.__class__ is not str or field not in self.fields:
            raise OutOfBounds(f"没有结果字段{described(field)}", key="field")
        if not self._fixed:
            return True, self.fields.index(field)
        at = _layout(self.fields, tuple(i for i, _ in self._fixed))[field]
        keyed = len(self.fields) - len(self._fixed)
        return (True, at) if at < keyed else (False, self._fixed[at - keyed][1])

    def total(self) -> float:
        return sum(self._acc.values())

    def probability(self, **where: Any) -> float:
        idx = []
        for k, v in where.items():
            keyed, at = self._place(k)
            if keyed:
                idx.append((at, v))
            elif at != v:
                return 0
        if len(idx) == 1:  # one field asked of (a hit chance): compared directly, without a generator per outcome
            i, v = idx[0]
            return sum(p for o, p in self._acc.items() if o[i] == v)
        return sum(p for o, p in self._acc.items() if all(o[i] == v for i, v in idx))

    def marginal(self, field: str) -> Dict[Any, float]:
        keyed, i = self._place(field)
        if not keyed:
            return {i: sum(self._acc.values())} if self._acc else {}
        out: Dict[Any, float] = {}
        for o, p in self._acc.items():
            out[o[i]] = out.get(o[i], 0.0) + p
        if len({type(v) for v in out}) == 1:  # one type (the usual case): by value alone, the same order
            return dict(sorted(out.items(), key=itemgetter(0)))
        return dict(sorted(out.items(), key=lambda kv: (str(type(kv[0])), kv[0])))

    def expected(self, field: str) -> float:
        """The mean of a numeric (whole number or true/false) outcome field; OutOfBounds for any other."""
        keyed, i = self._place(field)
        if not keyed:
            if i.__class__ not in NUMBERS:
                raise OutOfBounds(f"结果字段{described(field)}不是数值", key="field")
            return sum(float(i) * p for p in self._acc.values())
        if not all(o[i].__class__ in NUMBERS for o in self._acc):
            raise OutOfBounds(f"结果字段{described(field)}不是数值", key="field")
        return sum(float(o[i]) * p for o, p in self._acc.items())

    @property
    def hit_probability(self) -> float:
        return self.probability(**{self.hit: True}) if self.hit is not None else float("nan")

    @property
    def expected_damage(self) -> float:
        return self.expected(self.damage) if self.damage is not None else float("nan")

    def to_dict(self) -> Dict[str, Any]:
        return {
            "fields": list(self.fields),
            "outcomes": [
                {"outcome": dict(zip(self.fields, o)), "probability": p}
                for o, p in sorted(self.outcomes.items(), key=lambda kv: repr(kv[0]))
            ],
            "hit_field": self.hit,
            "damage_field": self.damage,
            "hit_probability": None if self.hit is None else self.hit_probability,
            "expected_damage": None if self.damage is None else self.expected_damage,
            "dropped_tail_mass": self.dropped,
        }


def _where(n: int, fixed: Tuple[int, ...]) -> List[int]:
    """For each of `n` fields, its index in a key followed by the fixed values (`fixed`: the
    positions the key leaves out, increasing)."""
    varying = [i for i in range(n) if i not in fixed]
    where = [0] * n
    for j, i in enumerate(varying + list(fixed)):
        where[i] = j
    return where


@lru_cache(maxsize=256)
def _expander(n: int, fixed: Tuple[int, ...], at: Tuple[int, ...]) -> Any:
    """A function of a key followed by the fixed values to the tuple of the fields at positions
    `at`, in C (`itemgetter`)."""
    where = _where(n, fixed)
    order = [where[i] for i in at]
    if len(order) == 1:
        only = order[0]
        return lambda values: (values[only],)
    if not order:
        return lambda values: ()
    return itemgetter(*order)


@lru_cache(maxsize=256)
def _layout(fields: Tuple[str, ...], fixed: Tuple[int, ...]) -> Dict[str, int]:
    """Where each field of an `Odds` is in a key followed by the fixed values (`_where`); a name
    given twice is where it is first, as `fields.index` finds it."""
    out: Dict[str, int] = {}
    for name, at in zip(fields, _where(len(fields), fixed)):
        out.setdefault(name, at)
    return out


_Items = TypeVar("_Items", bound=Sequence[Tuple[Any, float]])


class OddsBuilder:
    """Accumulates weighted outcomes inside a generated odds function. Every outcome a roll's loop
    enumerates is charged to `budget` as the loop opens (`outcomes`, `each`): past it the call
    raises LimitExceeded (an enumeration too big to finish in interactive time), before the work.
    The innermost loop's body adds one outcome to `acc`, written out in the generated function and
    uncharged: bounded by the charged loops around it."""

    __slots__ = ("fields", "acc", "dropped", "hit", "damage", "left")

    def __init__(self, fields: Tuple[str, ...], hit: Optional[str] = None, damage: Optional[str] = None,
                 budget: int = 200_000) -> None:
        self.fields = fields
        self.acc: Dict[Tuple[Any, ...], float] = {}
        self.dropped = 0.0
        self.hit = hit
        self.damage = damage
        self.left = budget

    def outcomes(self, p: float, dist: PoolOdds) -> List[Tuple[int, float]]:
        """The outcomes of a roll reached with probability `p` to enumerate, charged; the rest is
        dropped (`drop`, written out: this runs once per branch of every odds function)."""
        items = dist._items
        self.left -= len(items)
        if self.left < 0:
            self._exceeded()
        if dist.skipped:  # nothing dropped (most rolls): `dropped` only ever grows from 0.0, so adding 0.0 is a no-op
            self.dropped += p * dist.skipped
        return items

    def each(self, items: _Items) -> _Items:
        """A roll's distribution (`(value, probability)` pairs) to enumerate, charged."""
        self.left -= len(items)
        if self.left < 0:
            self._exceeded()
        return items

    def drop(self, p: float) -> None:
        """Count mass left out (a distribution's tail, a negligible branch): a branch too."""
        self.left -= 1
        if self.left < 0:
            self._exceeded()
        self.dropped += p

    @staticmethod
    def _exceeded() -> None:
        raise LimitExceeded("概率枚举的分支过多（超过规则集的上限odds_branches），无法精确计算；请改用模拟")

    def build(self, fixed: Tuple[Tuple[int, Any], ...] = ()) -> Odds:
        """The distribution; `fixed`: the (position, value) of each field the enumerated keys leave
        out, the same in every outcome (see `Odds`)."""
        return Odds(self.fields, self.acc, self.dropped, self.hit, self.damage, fixed)


def count_distribution(single: PoolOdds, need: int, times: int) -> PoolOdds:
    """How many of `times` independent rolls of `single` reach `need` successes: a binomial."""
    p = sum(q for m, q in enumerate(single.probs) if m >= need)
    p = min(1.0, max(0.0, p))
    times = max(times, 0)
    if times <= 1000:  # C(times, k) fits in a float
        probs = tuple(_binom(times, k) * p**k * (1.0 - p) ** (times - k) for k in range(times + 1))
    else:
        probs = tuple(_exp(_log_binom(times, k) + _xlogy(k, p) + _xlogy(times - k, 1.0 - p))
                      for k in range(times + 1))
    return PoolOdds(probs, single.dropped * times)


CERTAIN_ZERO = PoolOdds((1.0,), 0.0)
ZERO_ITEMS: Tuple[Tuple[int, float], ...] = ((0, 1.0),)


@lru_cache(maxsize=1024)
def dice_items(terms: Tuple[Tuple[int, int], ...], flat: int, crit: bool) -> Tuple[Tuple[int, float], ...]:
    """P(total) of a damage roll including its flat bonus."""
    return tuple((t + flat, p) for t, p in dice_sum_distribution(terms, crit))
