"""Every generated form of every procedure of every ruleset the tests run on (the bundled ones and
tests/cases/rulesets/, tests/every_ruleset.py) agrees with an independent
interpreter of the IR (tests/oracle.py) on random inputs, and the odds form with exact
enumeration over small rolls."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from oracle import Oracle, Refused, TooBig, entry_id, odds
from rulec.build.facade import compile_rules
from every_ruleset import SOURCES

ROOT = Path(__file__).resolve().parent.parent
BUILD = compile_rules(SOURCES, stop_after="lower")
RULESETS = {rs.id: rs for rs in BUILD.rulesets}
CASES = [(rs.id, p.id) for rs in BUILD.rulesets for p in rs.procedures]


def _int(rng: random.Random, lo: int, hi: int, default: Any) -> int:
    """Mostly small values near the bottom of the range (where the rules do something), some anywhere."""
    roll = rng.random()
    if roll < 0.2 and isinstance(default, int) and not isinstance(default, bool):
        return default
    if roll < 0.8:
        return min(hi, lo + rng.randrange(12))
    return rng.randint(lo, hi)


def _combatant(rs: Any, rng: random.Random) -> dict[str, Any]:
    return {s.id: _int(rng, s.min, s.max, s.default) if s.type == "int" else rng.random() < 0.5 for s in rs.stats}


def _args(rs: Any, p: Any, rng: random.Random) -> dict[str, Any]:
    """Required parameters at random; of the options, a few (0 to 3) away from their defaults."""
    varied = set(rng.sample([prm.id for prm in p.params], k=min(len(p.params), rng.randrange(4))))
    args: dict[str, Any] = {}
    for prm in p.params:
        has_default = prm.default is not None or prm.optional
        if has_default and prm.id not in varied:
            continue
        if prm.type == "int":
            args[prm.id] = _int(rng, prm.min, prm.max, prm.default)
        elif prm.type == "bool":
            args[prm.id] = rng.random() < 0.5
        elif prm.type == "combatant":
            args[prm.id] = _combatant(rs, rng)
        else:
            ids = [e.id for e in rs.table(prm.type).entries]
            args[prm.id] = rng.choice(ids + ([None] if prm.optional else []))
    return args


def _generated_args(g: Any, p: Any, args: dict[str, Any]) -> dict[str, Any]:
    return {k: g.Combatant(**v) if isinstance(v, dict) else v for k, v in args.items()}


def _outcome(run: Any) -> tuple[str, Any]:
    try:
        return "ok", run()
    except Refused as exc:
        return "refused", exc.code
    except Exception as exc:  # noqa: BLE001 - the generated package's RuleError, compared by code
        code = getattr(exc, "code", None)
        if code is None or not hasattr(type(exc), "__mro__") or "RuleError" not in [c.__name__ for c in type(exc).__mro__]:
            raise
        return "refused", code


def _same(oracle: tuple[str, Any], generated: tuple[str, Any]) -> bool:
    if oracle[0] != generated[0]:
        return False
    if oracle[0] == "refused":  # an error type of the rules, by id; any other rule error as such
        return oracle[1] == generated[1] or oracle[1] in ("rule-error", "not-specified") and generated[1] not in ()
    return tuple(entry_id(v) for v in oracle[1]) == tuple(generated[1])


CASES_PER_PROCEDURE = 15  # random calls per procedure, each in every form (the slow run checks more odds inputs)


@pytest.mark.parametrize(("ruleset", "procedure"), CASES, ids=[f"{r}.{p}" for r, p in CASES])
def test_every_form_agrees_with_the_oracle(request: pytest.FixtureRequest, ruleset: str, procedure: str) -> None:
    g = request.getfixturevalue("package")(ruleset)
    rs = RULESETS[ruleset]
    p = next(x for x in rs.procedures if x.id == procedure)
    oracle = Oracle(rs)
    rng = random.Random(f"{ruleset}.{procedure}")
    agreed = ran = 0
    for case in range(4 * CASES_PER_PROCEDURE):  # at least CASES_PER_PROCEDURE, until one got past the requirements
        if ran >= CASES_PER_PROCEDURE and agreed:
            break
        args = _args(rs, p, rng)
        seed = rng.randrange(1 << 30)
        kwargs = _generated_args(g, p, args)
        expected = _outcome(lambda a=args, sd=seed: oracle.run(p, a, g.SeededDice(sd).die))
        forms = _forms(g, p, kwargs, seed)
        for form, run in forms.items():
            got = _outcome(run)
            assert _same(expected, got), f"case {case} {form}: {args}\n oracle: {expected}\n generated: {got}"
        ran += 1
        agreed += expected[0] == "ok"
    assert ran >= CASES_PER_PROCEDURE and agreed > 0, "no case got past the procedure's requirements: widen the inputs"


def _forms(g: Any, p: Any, kwargs: dict[str, Any], seed: int) -> dict[str, Any]:
    """Every generated form of `p`, each a call with these inputs and dice seeded with `seed`."""
    return {
        "traced": lambda: getattr(g, p.id)(**kwargs, dice=g.SeededDice(seed)).outcome(),
        "fast": lambda: getattr(g, p.id + "_fast")(**kwargs, dice=g.SeededDice(seed)),
        "prepared": lambda: getattr(g, p.id + "_prepare")(**kwargs)(g.SeededDice(seed)),
        "prepared, any source": lambda: getattr(g, p.id + "_prepare")(**kwargs)(_AnySource(g.SeededDice(seed))),
    }


class _AnySource:
    """A dice source that is not a SeededDice (the prepared closure's general path)."""

    def __init__(self, inner: Any) -> None:
        self.die = inner.die


def _small_args(rs: Any, p: Any, rng: random.Random) -> dict[str, Any]:
    """Inputs whose rolls are small: stats and numbers at the bottom of their ranges."""
    args = _args(rs, p, rng)
    for prm in p.params:
        if prm.type == "combatant":
            args[prm.id] = {s.id: s.min + (rng.random() < 0.3) if s.type == "int" else rng.random() < 0.3
                            for s in rs.stats}
        elif prm.type == "int":
            args[prm.id] = prm.default if isinstance(prm.default, int) and rng.random() < 0.5 else prm.min
    return args


@pytest.mark.parametrize(("ruleset", "procedure"), CASES, ids=[f"{r}.{p}" for r, p in CASES])
def test_the_odds_form_agrees_with_exact_enumeration(request: pytest.FixtureRequest, ruleset: str,
                                                     procedure: str) -> None:
    _odds_agree(request, ruleset, procedure, cases=3, budget=3000)


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "procedure"), CASES, ids=[f"{r}.{p}" for r, p in CASES])
def test_the_odds_form_agrees_with_exact_enumeration_on_more_inputs(request: pytest.FixtureRequest, ruleset: str,
                                                                    procedure: str) -> None:
    _odds_agree(request, ruleset, procedure, cases=30, budget=30_000)


def _odds_agree(request: pytest.FixtureRequest, ruleset: str, procedure: str, *, cases: int, budget: int) -> None:
    g = request.getfixturevalue("package")(ruleset)
    rs = RULESETS[ruleset]
    p = next(x for x in rs.procedures if x.id == procedure)
    oracle = Oracle(rs)
    rng = random.Random(f"odds.{ruleset}.{procedure}")
    checked = 0
    for _ in range(cases):
        args = _small_args(rs, p, rng)
        try:
            found, left_out = odds(oracle, p, args, max_faces=7, budget=budget)
        except (Refused, TooBig):
            continue
        if left_out > 1e-3 or sum(found.values()) < 1 - 1e-3:
            continue  # too many faces to enumerate: a bigger case than this test's
        got = getattr(g, p.id + "_odds")(**_generated_args(g, p, args))
        exact = {k: float(v) for k, v in found.items()}
        for outcome in set(exact) | set(got.outcomes):
            assert abs(exact.get(outcome, 0.0) - got.outcomes.get(outcome, 0.0)) <= float(left_out) + 1e-9, (
                f"{args}: P{outcome} oracle {exact.get(outcome, 0.0)} generated {got.outcomes.get(outcome, 0.0)}")
        checked += 1
    if checked == 0:
        pytest.skip("no input small enough to enumerate every face")
