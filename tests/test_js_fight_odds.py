"""Exact odds over a plan in JavaScript agree with Python's (`until_plan`, `expected_until`,
`reached`): for every ruleset whose manifest declares a fight, plans made from what its fight rules
declare (each procedure with exact odds and effects, alone and repeated, with and without ending the
turn, after an opening of another procedure, in a cycle of two) towards every target its effects
can reach (the counters it adds to, the points and states of every track it fills, the conditions
and states it sets), from a fresh fight and from one an action has changed, run in Python and, from
the same steps, in one Node process (tests/js/fight_driver.mjs). The probabilities and the tail
agree within 1e-12, the means within 1e-12 relative, `null` where Python says None, and a refused
plan with the same error code and message.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

import pytest

from every_ruleset import FIGHTING, slow_for
from test_js_fight import NODE, _options, _stats, run_node

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")
NAMES = ("甲", "乙", "丙", "丁")


def _targets(rules: Any, spec: Any, roles: dict[str, str]) -> list[dict[str, Any]]:
    """Every target the procedure's effects can reach, for the combatant in the effect's role."""
    out: list[dict[str, Any]] = []
    for e in spec.effects:
        who = roles[e.role]
        if e.kind == "counter":
            out += [{"who": who, "counter": e.key, "at_least": n} for n in (1, 6, 15)]
        elif e.kind == "track":
            out += [{"who": who, "points": track, "at_least": 4} for track in sorted(rules.tracks)[:1]]
            out += [{"who": who, "state": state} for state in sorted(rules.state_names)[:2]]
        elif e.kind == "condition":
            out.append({"who": who, "condition": e.key})
        elif e.kind == "state":
            out.append({"who": who, "state": e.key})
    unique = {repr(sorted(t.items())): t for t in out}
    return list(unique.values())


class PlanRun:
    """One ruleset's plans, run in Python step by step: the steps for Node and the records to compare."""

    def __init__(self, m: Any, ruleset: str) -> None:
        self.m = m
        self.steps: list[dict[str, Any]] = []
        self.records: list[dict[str, Any]] = []
        self.fight: Any = None
        rules = m.FIGHT_RULES
        rng = random.Random(f"plans-{ruleset}")
        procs = sorted(k for k, a in rules.actions.items() if a.odds and a.effects)
        width = max([2] + [len(rules.actions[p].roles) for p in procs])
        names = NAMES[:width]
        combatants = [[n, _stats(m, rng)] for n in names]
        roles_of = {p: dict(zip(rules.actions[p].roles, names)) for p in procs}
        options_of = {p: _options(m, p, rng)[1] for p in procs}

        def step(p: str, end_turn: bool) -> dict[str, Any]:
            return {"procedure": p, "roles": roles_of[p], "options": options_of[p], "end_turn": end_turn}

        for changed in (False, True):
            self.run({"op": "start", "combatants": combatants}, lambda: self._start(combatants))
            if changed and procs:
                p = procs[0]
                act = {"op": "act", "proc": p, "roles": roles_of[p], "options": options_of[p], "dice": {"seed": 11}}
                self.run(act, lambda p=p: self._act(p, roles_of[p], options_of[p]))
            for i, p in enumerate(procs):
                other = procs[(i + 1) % len(procs)]
                plans: list[Any] = [[step(p, True)], [step(p, False)],
                                    {"opening": [step(other, False)], "cycle": [step(p, True)]},
                                    [step(p, False), step(other, True)]]
                for target in _targets(rules, rules.actions[p], roles_of[p]):
                    self.run({"op": "reached", "target": target}, lambda t=target: {"reached": self.fight.reached(t)})
                    for plan in plans:
                        # one step that ends the turn towards a counter: the plain chain, long; the rest short
                        single = isinstance(plan, list) and len(plan) == 1 and plan[0]["end_turn"] and "counter" in target
                        limit = 200 if single else 4
                        self.run({"op": "until_plan", "plan": plan, "target": target,
                                  "options": {"max_actions": limit}},
                                 lambda pl=plan, t=target, n=limit: _odds(self.fight.until_plan(pl, t, max_actions=n)))
                        self.run({"op": "expected_until", "plan": plan, "target": target,
                                  "options": {"max_actions": limit}},
                                 lambda pl=plan, t=target, n=limit:
                                 {"expected": self.fight.expected_until(pl, t, max_actions=n)})

    def run(self, step: dict[str, Any], fn: Callable[[], Any]) -> None:
        self.steps.append(step)
        try:
            self.records.append(fn())
        except self.m.RuleError as exc:
            self.records.append({"error": exc.code, "message": exc.message})

    def _start(self, combatants: list[list[Any]]) -> dict[str, Any]:
        self.fight = self.m.start_fight({n: self.m.Combatant(**s) for n, s in combatants})
        return {}

    def _act(self, proc: str, roles: dict[str, str], options: dict[str, Any]) -> dict[str, Any]:
        self.fight = self.fight.act(proc, roles, **options, dice=self.m.SeededDice(11))[1]
        return {}


def _odds(u: Any) -> dict[str, Any]:
    return {"probabilities": list(u.probabilities), "tail": u.tail, "expected": u.expected}


def _agree(js: dict[str, Any], py: dict[str, Any]) -> bool:
    if "probabilities" in py:
        return (len(js["probabilities"]) == len(py["probabilities"])
                and all(abs(a - b) <= 1e-12 for a, b in zip(js["probabilities"], py["probabilities"]))
                and abs(js["tail"] - py["tail"]) <= 1e-12
                and abs(js["expected"] - py["expected"]) <= 1e-12 * max(1.0, abs(py["expected"])))
    if "expected" in py:
        if py["expected"] is None or js["expected"] is None:
            return js["expected"] is py["expected"]
        return bool(abs(js["expected"] - py["expected"]) <= 1e-12 * max(1.0, abs(py["expected"])))
    return js == py


def _check(runs: list[tuple[Path, list[PlanRun]]]) -> dict[str, int]:
    node = [seq for out in run_node([(p, [r.steps for r in rs]) for p, rs in runs]) for seq in out]
    plans = [r for _, rs in runs for r in rs]
    assert len(node) == len(plans)
    seen = {"until_plan": 0, "expected_until": 0, "expected_none": 0, "reached": 0, "errors": 0}
    for r, js_records in zip(plans, node):
        assert len(js_records) == len(r.records)
        for i, (step, js, py) in enumerate(zip(r.steps, js_records, r.records)):
            where = f"step {i} {step}"[:400]
            assert "crash" not in js, f"{where}: {js['crash']}"
            if "error" in py or "error" in js:
                assert (js.get("error"), js.get("message")) == (py.get("error"), py.get("message")), \
                    f"{where}: {js} != {py}"
                seen["errors"] += 1
                continue
            if step["op"] in ("start", "act"):  # the fight itself (test_js_fight.py compares it)
                continue
            assert _agree(js, py), f"{where}: node {js} != python {py}"
            if step["op"] in seen:
                seen[step["op"]] += 1
            seen["expected_none"] += step["op"] == "expected_until" and py["expected"] is None
    return seen


# The plans of tracks (its tracks and states make long chains: 11 s on 2 cores) and d20 (4 s) run in
# the slow job, dp's and mini's in the fast one.
@pytest.mark.parametrize("ruleset", slow_for(FIGHTING, "tracks", "d20"))
def test_js_plans_agree_with_python(request: pytest.FixtureRequest, ruleset: str) -> None:
    built = request.getfixturevalue("built")
    m = request.getfixturevalue("package")(ruleset)
    seen = _check([(built / "js" / ruleset / "index.js", [PlanRun(m, ruleset)])])
    assert seen["until_plan"] > 0 and seen["expected_until"] > 0, seen


class _Growing(PlanRun):
    """A plan whose chain keeps growing: grappling, which sums damage into the state, towards a
    condition it never sets (the fuzzing of 2026-12-07 ran it for minutes)."""

    def __init__(self, m: Any) -> None:  # noqa: D107  (no plans made from the rules)
        self.m, self.steps, self.records, self.fight = m, [], [], None
        combatants: list[list[Any]] = [["甲", {}], ["乙", {}]]
        self.run({"op": "start", "combatants": combatants}, lambda: self._start(combatants))
        plan = [{"procedure": "grapple_attack", "roles": {"attacker": "甲", "defender": "乙"}}]
        target = {"who": "乙", "condition": "prone"}
        self.run({"op": "until_plan", "plan": plan, "target": target, "options": {}},
                 lambda: _odds(self.fight.until_plan(plan, target)))
        self.run({"op": "expected_until", "plan": plan, "target": target, "options": {}},
                 lambda: {"expected": self.fight.expected_until(plan, target)})


@pytest.mark.slow  # about 2 s in each language, by design: the bound is what it measures
def test_a_chain_that_keeps_growing_stops_at_its_bound_in_both_languages(request: pytest.FixtureRequest) -> None:
    built = request.getfixturevalue("built")
    run = _Growing(request.getfixturevalue("dp"))
    assert [r.get("error") for r in run.records[1:]] == ["limit-exceeded"] * 2, run.records
    assert all("状态转移" in r["message"] for r in run.records[1:])
    assert _check([(built / "js" / "dp" / "index.js", [run])])["errors"] == 2
