"""A small timing harness: medians and spreads of repeated runs, ratios measured in the same run.

The machines are shared and noisy, so every figure is the median of several
repeats, and every target is a ratio between two things measured side by side
(interleaved repeats), never an absolute time.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Timing:
    name: str
    per_call: float  # median seconds per call
    spread: float  # (max - min) / median over the repeats

    def human(self) -> str:
        value = self.per_call
        for unit, scale in (("s", 1), ("ms", 1e3), ("µs", 1e6), ("ns", 1e9)):
            if value * scale >= 1 or unit == "ns":
                return f"{value * scale:.3g} {unit}"
        return f"{value:.3g} s"


def _per_call(fn: Callable[[], object], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def calibrate(fn: Callable[[], object], target: float = 0.05) -> int:
    number = 1
    while True:
        elapsed = _per_call(fn, number) * number
        if elapsed >= target or number >= 1 << 22:
            return number
        number *= 2


def compare(named: dict[str, Callable[[], object]], repeats: int = 7, target: float = 0.05) -> dict[str, Timing]:
    """Time several functions with interleaved repeats; each gets its own loop count."""
    numbers = {name: calibrate(fn, target) for name, fn in named.items()}
    samples: dict[str, list[float]] = {name: [] for name in named}
    for _ in range(repeats):
        for name, fn in named.items():
            samples[name].append(_per_call(fn, numbers[name]))
    out = {}
    for name, values in samples.items():
        med = statistics.median(values)
        out[name] = Timing(name, med, (max(values) - min(values)) / med if med else 0.0)
    return out
