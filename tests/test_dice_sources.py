"""Every dice call is bounded and every face is checked, whatever the dice source (issue 27).

Every procedure of every ruleset the tests run on (tests/every_ruleset.py), in its traced, fast and prepared forms, in Python and
in JavaScript, is called with sources that are not fair (always the highest face: the added dice
of a pool would chain for ever) or not valid (faces 0, NaN, 2.5, '5', None, sides + 1) and with
`dice=` arguments that are not dice sources at all. Each call ends at once with the package's
error (LimitExceeded, BadFace, OutOfBounds) or a result; never a hang, never a raw TypeError or
AttributeError. The mechanism under test: `sources.dice_source` (Python) and `_rt_dice_source`
(JavaScript), the one entry point of a dice argument, and the pools' cap on added dice.
"""

from __future__ import annotations

import json
import math
import random
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from every_ruleset import RULESETS, engine, manifest
from test_js_conformance import NODE, ROOT, _positional, _py_value, random_call

from rulec.diagnostics import Span
from rulec.engines import pool as pool_engine
from rulec.runtime.core import BadFace, LimitExceeded, OutOfBounds
from rulec.runtime.odds import TAIL, pool_distribution
from rulec.runtime.pool import PoolSpec, pool_successes, pool_successes_random, roll_pool
from rulec.runtime.sources import CheckedDice, FixedDice, SeededDice, dice_source

FORMS = ("traced", "fast", "prepared")


class _Constant:
    def __init__(self, face: Callable[[int], Any]) -> None:
        self.face = face

    def die(self, sides: int) -> Any:
        return self.face(sides)


# Sources that are not fair or not valid (name -> a fresh source), the same names as driver.mjs.
UNFAIR = {
    "highest": lambda: _Constant(lambda sides: sides),
    "zero": lambda: _Constant(lambda sides: 0),
    "nan": lambda: _Constant(lambda sides: float("nan")),
    "str5": lambda: _Constant(lambda sides: "5"),
    "none": lambda: _Constant(lambda sides: None),
    "half": lambda: _Constant(lambda sides: 2.5),
    "over": lambda: _Constant(lambda sides: sides + 1),
}
BAD_FACES = ("zero", "nan", "str5", "none", "half", "over")


class _NotDice:
    pass


class _DieNotCallable:
    die = 5


NOT_DICE = {"number": lambda: 5, "text": lambda: "x", "object": _NotDice, "die_not_function": _DieNotCallable}


class _Timeout(Exception):
    pass


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail (instead of hanging) when the block runs longer than `seconds`."""
    def expired(*_: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _Counting:
    def __init__(self, seed: int) -> None:
        self.inner, self.rolled = SeededDice(seed), 0

    def die(self, sides: int) -> int:
        self.rolled += 1
        return self.inner.die(sides)


def _plain_calls(m: Any, proc: str, positional: list[str]) -> Iterator[tuple[list, dict]]:
    """Calls with every option at its default: default or middling combatants, small numbers for
    required numbers, and each entry of a required table in turn."""
    import inspect

    types = {pid: ptype for pid, _name, ptype in m.PROCEDURE_INFO[proc]["params"]}
    parameters = inspect.signature(getattr(m, proc)).parameters
    required = [p.name for p in parameters.values() if p.default is inspect.Parameter.empty and p.name != "dice"]
    middling = {f: 5 for f, v in m.Combatant.__dataclass_fields__.items() if type(v.default) is int}
    choices: dict[str, list[Any]] = {}
    for pid in required:
        ptype = types[pid]
        if ptype == "combatant":
            choices[pid] = [{"$combatant": {}}, {"$combatant": middling}]
        elif ptype == "int":
            choices[pid] = [5, 1, 2]
        elif ptype == "bool":
            choices[pid] = [False, True]
        else:
            choices[pid] = sorted(getattr(m, ptype.upper()))
    for i in range(max([len(c) for c in choices.values()], default=1)):
        values = {p: parameters[p].default for p in positional if p not in choices}
        values.update({pid: c[i % len(c)] for pid, c in choices.items()})
        yield [values[p] for p in positional], {k: v for k, v in values.items() if k not in positional}


def sample_calls(m: Any, ruleset: str) -> list[dict[str, Any]]:
    """One call per procedure whose inputs are valid, rolling dice where some call does."""
    rng = random.Random(f"dice-sources-{ruleset}")
    calls = []
    for proc, info in m.PROCEDURE_INFO.items():
        positional = _positional(m, proc)
        chosen = None
        plain = list(_plain_calls(m, proc, positional))[:30]
        for attempt in range(len(plain) + 60):
            args, options = plain[attempt] if attempt < len(plain) else random_call(m, info, positional, rng)
            counting = _Counting(attempt)
            try:
                getattr(m, proc)(*[_py_value(m, v) for v in args],
                                 **{k: _py_value(m, v) for k, v in options.items()}, dice=counting)
            except m.RuleError:
                continue
            chosen = {"proc": proc, "positional": args, "options": options, "rolls": counting.rolled > 0}
            if counting.rolled:
                break
        assert chosen is not None, f"{ruleset}.{proc}: no valid call found"
        calls.append(chosen)
    return calls


def run_form(m: Any, call: dict[str, Any], form: str, source: Any) -> str:
    """'ok' or the package error's code; anything else fails the test."""
    args = [_py_value(m, v) for v in call["positional"]]
    kwargs = {k: _py_value(m, v) for k, v in call["options"].items()}
    try:
        with deadline(5.0):
            if form == "traced":
                getattr(m, call["proc"])(*args, **kwargs, dice=source)
            elif form == "fast":
                getattr(m, call["proc"] + "_fast")(*args, **kwargs, dice=source)
            else:
                getattr(m, call["proc"] + "_prepare")(*args, **kwargs)(source)
    except m.RuleError as exc:
        return str(exc.code)
    except _Timeout:
        pytest.fail(f"{call['proc']} {form}: still running after 5 s")
    return "ok"


def python_outcomes(m: Any, calls: list[dict[str, Any]]) -> dict[tuple[str, str, str], str]:
    out = {}
    for call in calls:
        for name, make in {**UNFAIR, **NOT_DICE, "null": lambda: None}.items():
            for form in FORMS:
                out[(call["proc"], name, form)] = run_form(m, call, form, make())
    return out


def check_python(ruleset: str, outcomes: dict[tuple[str, str, str], str], calls: list[dict[str, Any]]) -> None:
    rolls = {c["proc"]: c["rolls"] for c in calls}
    for (proc, name, form), got in outcomes.items():
        where = f"{ruleset}.{proc} {form} with {name}"
        if name in BAD_FACES:
            assert got == ("bad-face" if rolls[proc] else "ok"), where
        elif name == "highest":
            assert got in ("ok", "limit-exceeded"), where
        elif name == "null":
            assert got == ("ok" if form == "traced" else "out-of-bounds"), where  # traced: None is SeededDice()
        else:
            assert got == "out-of-bounds", where


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_procedure_survives_every_hostile_source(ruleset: str, request: pytest.FixtureRequest) -> None:
    m = request.getfixturevalue("package")(ruleset)
    calls = sample_calls(m, ruleset)
    assert sum(c["rolls"] for c in calls) >= len(calls) // 3
    started = time.perf_counter()
    outcomes = python_outcomes(m, calls)
    assert time.perf_counter() - started < 10
    check_python(ruleset, outcomes, calls)
    if engine(ruleset) == "pool":  # the highest face adds a die every time, so the cap is reached
        assert any(v == "limit-exceeded" for (_, name, _), v in outcomes.items() if name == "highest")
    if NODE is not None:
        check_node(ruleset, m, calls, outcomes, request.getfixturevalue("built"))


def check_node(ruleset: str, m: Any, calls: list[dict[str, Any]], py: dict[tuple[str, str, str], str],
               built: Any) -> None:
    import subprocess

    names = [*UNFAIR, *NOT_DICE, "null"]
    requests = [{"proc": c["proc"], "form": "hostile", "source": name, "positional": c["positional"],
                 "options": c["options"]} for c in calls for name in names]
    request = json.dumps({"module": str(built / "js" / ruleset / "index.js"), "calls": requests}, ensure_ascii=False)
    done = subprocess.run([NODE, str(ROOT / "tests" / "js" / "driver.mjs")], input=request, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    node = json.loads(done.stdout)
    assert len(node) == len(requests)
    for req, entry in zip(requests, node):
        for form in FORMS:
            where = f"{ruleset}.{req['proc']} {form} with {req['source']} in Node"
            assert not entry[form].startswith("crash"), f"{where}: {entry[form]}"
            assert entry[form] == py[(req["proc"], req["source"], form)], where


# ---- the mechanism, directly ----

def test_dice_source_trusts_only_the_package_sources() -> None:
    seeded, fixed = SeededDice(1), FixedDice([1])
    assert dice_source(seeded) is seeded and dice_source(fixed) is fixed
    custom = _Constant(lambda sides: 1)
    checked = dice_source(custom)
    assert isinstance(checked, CheckedDice) and dice_source(checked) is checked
    assert not hasattr(checked, "random")  # a custom source's own `random` is never read

    class Loaded(SeededDice):
        def die(self, sides: int) -> int:
            return sides + 1

    assert isinstance(dice_source(Loaded(1)), CheckedDice)  # a subclass is a source of its own
    with pytest.raises(BadFace):
        dice_source(Loaded(1)).die(6)
    for bad in (5, "x", None, _NotDice(), _DieNotCallable()):
        with pytest.raises(OutOfBounds):
            dice_source(bad)


def test_package_sources_cannot_be_changed_to_give_other_faces() -> None:
    seeded, fixed = SeededDice(1), FixedDice([1, 2])
    with pytest.raises(AttributeError):
        seeded.random = lambda: 5.0  # type: ignore[method-assign]
    with pytest.raises(AttributeError):
        seeded.die = lambda sides: 99  # type: ignore[method-assign]
    with pytest.raises(AttributeError):
        fixed.die = lambda sides: 99  # type: ignore[method-assign]


@pytest.mark.parametrize("face", [0, -1, 7, True, False, 2.0, float("nan"), "5", None, 10**5000, [1]],
                         ids=lambda face: type(face).__name__)
def test_checked_faces(face: Any) -> None:
    source = CheckedDice(_Constant(lambda sides: face))
    with pytest.raises(BadFace) as caught:
        source.die(6)
    assert len(caught.value.message) < 80  # the face is quoted short, whatever it is


def test_a_source_with_a_lying_random_is_rolled_through_its_checked_die(dp: Any) -> None:
    class Lying:
        def random(self) -> float:
            return 0.99999  # always the highest face: would chain added dice if it were read

        def die(self, sides: int) -> int:
            return 1

    wang, wu = dp.Combatant(strength=5, martial=8, specialty=7), dp.Combatant()
    assert dp.attack_fast(wang, wu, "拳", dice=Lying())[0] is False  # every face a 1: no success
    assert dp.attack_prepare(wang, wu, "拳")(Lying())[0] is False


def test_every_pool_function_stops_at_the_cap() -> None:
    spec = PoolSpec(10, 8, 10)
    highest = _Constant(lambda sides: sides)
    for run in (lambda: roll_pool(highest, spec, 3, 0, False, 50),
                lambda: pool_successes(highest.die, 3, 10, 8, 10, 50),
                lambda: pool_successes_random(lambda: 0.99, 3, 10, 8, 10, 50),
                lambda: pool_successes_random(lambda: 0.99, 3, 10, 9, 8, 50),  # failures add dice too
                lambda: roll_pool(highest, spec, 3, 0)):  # no cap given: the engine's default
        with pytest.raises(LimitExceeded):
            run()
    # exactly `max_added` added dice are allowed: 3 dice, 50 added, then a die that adds no more
    faces = [10] * 50 + [1, 1, 1]
    assert roll_pool(FixedDice(faces), spec, 3, 0, False, 50).successes == 50
    with pytest.raises(LimitExceeded):
        roll_pool(FixedDice([10] * 51 + [1, 1, 1]), spec, 3, 0, False, 50)
    assert pool_successes(FixedDice(faces).die, 3, 10, 8, 10, 50) == 50


def test_added_dice_tail() -> None:
    # one die adding on half its faces: P(more than k added) = 0.5 ** (k + 1)
    for k in (1, 3, 20, 50):
        assert math.isclose(pool_engine.added_tail(1, 0.5, k), 0.5 ** (k + 1), rel_tol=1e-6)
    assert pool_engine.added_dice_needed(1, 0.5) == 53  # 0.5 ** 54 <= 1e-16 < 0.5 ** 53


def _lower(limits: dict[str, int], add_die_at: int = 10) -> list[str]:
    found: list[str] = []
    raw = {"engine": "pool", "sides": 10, "success_at": 8, "add_die_at": add_die_at, "limits": limits}
    pool_engine.lower(raw, Span("ruleset.yaml", 1, 1), lambda path, code, message: found.append(message))
    return found


def test_a_cap_fair_dice_could_reach_is_a_diagnostic() -> None:
    assert _lower({}) == []  # the default is enough for the default pool
    assert _lower({"pool_dice": 1000}) == []
    [message] = _lower({"added_dice": 50})
    assert "added_dice 50 is too low" in message and "at least 76" in message
    assert _lower({"added_dice": 76}) == []


@pytest.mark.parametrize("ruleset", [rs for rs in RULESETS if engine(rs) == "pool"])
def test_the_odds_enumerate_only_what_a_capped_roll_can_show(ruleset: str) -> None:
    """The exact odds of the largest pool stop where the tail is under TAIL, before the cap: every
    success count they give a probability can be rolled, and the cap cuts off less mass than the
    odds leave out as `dropped` (both at most TAIL)."""
    raw = manifest(ruleset)["dice"]
    d = pool_engine.lower(raw, Span("ruleset.yaml", 1, 1), lambda *_: pytest.fail("the rulesets' dice are valid"))
    sides, success_at, add_at = (int(d.setting(k)) for k in ("sides", "success_at", "add_at_raw"))
    most = d.limits["pool_dice"]
    dist = pool_distribution(most, sides, success_at, add_at)
    assert len(dist.probs) - 1 <= most + d.limits["added_dice"]
    assert dist.dropped <= TAIL
    assert pool_engine.added_tail(most, (sides - add_at + 1) / sides, d.limits["added_dice"]) <= TAIL


def test_package_sources_still_copy_and_pickle() -> None:
    import copy
    import pickle

    seeded = SeededDice(3)
    seeded.die(6)
    for twin in (copy.deepcopy(seeded), pickle.loads(pickle.dumps(seeded))):
        assert type(twin) is SeededDice and [twin.die(6) for _ in range(5)] == [seeded.die(6) for _ in range(5)]
        seeded = SeededDice(3)
        seeded.die(6)
    assert pickle.loads(pickle.dumps(FixedDice([1, 2]))).faces == [1, 2]


def test_initiative_order_takes_its_dice_through_the_same_entry(tracks: Any) -> None:
    with deadline(5.0):
        with pytest.raises(tracks.LimitExceeded):
            tracks.initiative_order([("甲", 5, 0), ("乙", 5, 0)], dice=_Constant(lambda sides: sides))
    with pytest.raises(tracks.BadFace):
        tracks.initiative_order([("甲", 5, 0)], dice=_Constant(lambda sides: "5"))
    with pytest.raises(tracks.OutOfBounds):
        tracks.initiative_order([("甲", 5, 0)], dice=5)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
