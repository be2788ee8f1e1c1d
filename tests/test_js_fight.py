"""The fight in JavaScript agrees with the Python fight (issue 31): random fight sequences of every
ruleset with a fight (2 to 4 combatants with random stats; every procedure a fight resolves, those
with effects most often; turns advanced so that modifiers and conditions expire; relations started
and ended; conditions that forbid actions, so some actions are refused; seeded dice and fixed faces
recorded from a Python run, some cut short so that both run out at the same die) run in Python and,
from the same steps, in one Node process per ruleset (tests/js/fight_driver.mjs). After each step
the log, every member's status and effective stats, the round, whose turn it is and `toDict` are
equal, an action's text and what applied to it are equal, a refused or failing step has the same
error code and message; `until_state` and `until` odds agree within 1e-12. Stored fights
round-trip between the languages, and damaged ones are refused with the same OutOfBounds message.
"""

from __future__ import annotations

import copy
import inspect
import json
import random
import shutil
import subprocess
from functools import partial
from pathlib import Path
from typing import Any, Callable

import pytest

from every_ruleset import FIGHTING

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")
NAMES = ("甲", "乙", "丙", "丁", "Ann", "𝒜", "李四")


class Recording:
    """A seeded source that records every face it gives (replayed as FixedDice)."""

    def __init__(self, m: Any, seed: int) -> None:
        self.inner = m.SeededDice(seed)
        self.faces: list[int] = []

    def die(self, sides: int) -> int:
        face = self.inner.die(sides)
        self.faces.append(face)
        return face


def _stats(m: Any, rng: random.Random) -> dict[str, Any]:
    fields = m.Combatant.__dataclass_fields__
    for _ in range(5):
        stats = {f: (rng.random() < 0.15 if isinstance(v.default, bool) else max(0, v.default + rng.randint(-2, 6)))
                 for f, v in fields.items() if rng.random() < 0.5}
        try:
            m.Combatant(**stats)
            return stats
        except m.RuleError:
            continue
    return {}


def _value(m: Any, ptype: str, rng: random.Random) -> Any:
    if ptype == "bool":
        return rng.random() < 0.3
    if ptype == "int":
        return rng.choice((0, 0, 1, 1, 2, 3, 5) if rng.random() < 0.85 else (5, 10, 30))
    table = getattr(m, ptype.upper())
    entry = table[rng.choice(sorted(table))]
    return entry.id if rng.random() < 0.8 else entry.name


def _options(m: Any, proc: str, rng: random.Random, combatants: bool = False) -> tuple[list[Any], dict[str, Any]]:
    """(positional, options) of a call of `proc`: every parameter without a default, the others
    sometimes (combatants as {"$combatant": stats} when `combatants`, else left out)."""
    params = inspect.signature(getattr(m, proc)).parameters
    positional: list[Any] = []
    options: dict[str, Any] = {}
    for pid, _name, ptype in m.PROCEDURE_INFO[proc]["params"]:
        p = params[pid]
        if ptype == "combatant":
            if combatants:
                positional.append({"$combatant": _stats(m, rng)})
            continue
        if p.default is not inspect.Parameter.empty and rng.random() < 0.4:
            continue
        if combatants and p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and len(positional) == list(
                params).index(pid):
            positional.append(_value(m, ptype, rng))
        else:
            options[pid] = _value(m, ptype, rng)
    return positional, options


def _py(m: Any, v: Any) -> Any:
    return m.Combatant(**v["$combatant"]) if isinstance(v, dict) and "$combatant" in v else v


def snapshot(fight: Any) -> dict[str, Any]:
    return {"dict": json.loads(json.dumps(fight.to_dict(), ensure_ascii=False)),
            "status": {x.name: fight.status(x.name) for x in fight.members},
            "effective": {x.name: fight.effective(x.name).to_dict() for x in fight.members},
            "round": fight.round, "actor": fight.actor}


def _odds(u: Any) -> dict[str, Any]:
    return {"probabilities": list(u.probabilities), "tail": u.tail, "expected": u.expected}


class Sequence:
    """One random fight, generated and run in Python step by step (a step's dice are recorded
    from the fight as it stands): the steps for Node and the records to compare."""

    def __init__(self, m: Any, rng: random.Random, length: int, plans: bool = False) -> None:
        self.m, self.rng, self.plans = m, rng, plans
        self.steps: list[dict[str, Any]] = []
        self.records: list[dict[str, Any]] = []
        self.fight: Any = None
        rules = m.FIGHT_RULES
        self.with_effects = [k for k, a in rules.actions.items() if a.effects]
        self.plain = [k for k, a in rules.actions.items() if not a.effects]
        names = rng.sample(NAMES, rng.randint(2, 4))
        turns = rules.turn is not None and rng.random() < 0.5  # each turn a budget (fight_budget.py)
        self.run({"op": "start", "combatants": [[n, _stats(m, rng)] for n in names], "turns": turns},
                 lambda: self._set(m.start_fight({n: m.Combatant(**s) for n, s in self.steps[0]["combatants"]},
                                                 turns)))
        for _ in range(length):
            self.random_step()

    def run(self, step: dict[str, Any], fn: Callable[[], Any]) -> None:
        self.steps.append(step)
        try:
            self.records.append(fn())
        except self.m.RuleError as exc:
            self.records.append({"error": exc.code, "message": exc.message})

    def _set(self, fight: Any, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        self.fight = fight
        return {**(extra or {}), **snapshot(fight)}

    def random_step(self) -> None:
        m, rng, r = self.m, self.rng, self.rng.random()
        if r < 0.22:
            self.run({"op": "next"}, lambda: self._set(self.fight.next_turn()))
        elif r < 0.26:
            self.run({"op": "roundtrip"}, lambda: self._set(m.fight_from_dict(json.loads(json.dumps(
                self.fight.to_dict())))))
        elif r < 0.29 and any(x.states for x in self.fight.members):
            who = rng.choice([x for x in self.fight.members if x.states])
            step = {"op": "remove_state", "name": who.name, "state": rng.choice(who.states)}
            self.run(step, lambda: self._set(self.fight.remove_state(step["name"], step["state"])))
        elif r < 0.31 and self.fight.rules.turn is not None:
            kinds = [k for k, _ in self.fight.rules.turn.kinds]
            step = {"op": "ready", "name": rng.choice([x.name for x in self.fight.members]),
                    "action": rng.choice(kinds + ["nope"])}
            self.run(step, lambda: self._set(self.fight.ready(step["name"], step["action"])))
        elif r < 0.33:
            self.until_step()
        elif r < 0.37 and self.plans:  # random plans can take seconds (large odds): the slow job
            self.plan_step()
        else:
            self.act_step()

    def _roles(self, proc: str) -> dict[str, str]:
        names = [x.name for x in self.fight.members]
        roles = self.m.FIGHT_RULES.actions[proc].roles
        if len(roles) <= len(names) and self.rng.random() < 0.9:
            return dict(zip(roles, self.rng.sample(names, len(roles))))
        return {r: self.rng.choice(names) for r in roles}

    def act_step(self) -> None:
        m, rng = self.m, self.rng
        proc = rng.choice(self.with_effects if rng.random() < 0.8 or not self.plain else self.plain)
        roles = self._roles(proc)
        _, options = _options(m, proc, rng)
        if rng.random() < 0.05:  # an option the procedure does not take, or a required one left out
            if options and rng.random() < 0.5:
                del options[rng.choice(sorted(options))]
            else:
                options["no_such_option"] = 1
        seed = rng.randrange(1 << 40)
        dice: dict[str, Any] = {"seed": seed}
        if rng.random() < 0.3:
            recording = Recording(m, seed)
            try:
                self.fight.resolve(proc, roles, **options, dice=recording)
            except m.RuleError:
                pass
            faces = recording.faces
            if faces and rng.random() < 0.35:
                faces = faces[:rng.randrange(len(faces))]
            dice = {"fixed": faces}

        def act() -> dict[str, Any]:
            source = m.FixedDice(dice["fixed"]) if "fixed" in dice else m.SeededDice(dice["seed"])
            action, fight = self.fight.act(proc, roles, **options, dice=source)
            return self._set(fight, {"text": action.text(gm=True), "applied": list(action.applied),
                                     "used": [list(u) for u in action.used]})

        self.run({"op": "act", "proc": proc, "roles": roles, "options": options, "dice": dice}, act)

    def plan_step(self) -> None:
        """Exact odds over a random plan (an opening and a cycle of random actions) to a random target."""
        m, rng = self.m, self.rng
        rules = m.FIGHT_RULES
        procs = sorted(k for k, a in rules.actions.items() if a.odds and a.effects)

        def one() -> dict[str, Any]:
            proc = rng.choice(procs)
            return {"procedure": proc, "roles": self._roles(proc), "options": _options(m, proc, rng)[1],
                    "end_turn": rng.random() < 0.6}

        plan: Any = [one() for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.5:
            plan = {"opening": [one() for _ in range(rng.randint(0, 2))], "cycle": plan}
        who = rng.choice([x.name for x in self.fight.members])
        kinds = [("counter", sorted(rules.counters)), ("condition", sorted(rules.conditions)),
                 ("state", sorted(rules.state_names)), ("points", sorted(rules.tracks))]
        kind, keys = rng.choice([k for k in kinds if k[1]])
        target: dict[str, Any] = {"who": who, kind: rng.choice(keys)}
        if kind in ("counter", "points"):
            target["at_least"] = rng.randint(1, 12)
        max_actions = rng.randint(2, 5)
        step = {"op": "until_plan", "plan": plan, "target": target, "options": {"max_actions": max_actions}}
        self.run(step, lambda: _odds(self.fight.until_plan(plan, target, max_actions=max_actions)))

    def until_step(self) -> None:
        m, rng = self.m, self.rng
        rules = m.FIGHT_RULES
        tracked = [k for k, a in rules.actions.items() if a.odds and any(e.kind == "track" for e in a.effects)]
        if tracked and rules.accumulate is not None and rng.random() < 0.6:
            proc = rng.choice(tracked)
            roles = self._roles(proc)
            target = next(e.role for e in rules.actions[proc].effects if e.kind == "track")
            _, options = _options(m, proc, rng)
            if any(k in options for k in ("procedure", "roles", "target", "track")):  # until_state's own parameters
                return
            track = rng.choice(sorted(rules.tracks))
            options["max_attacks"] = rng.choice((5, 20, 60))
            step = {"op": "until_state", "proc": proc, "roles": roles, "target": target, "track": track,
                    "options": options}
            self.run(step, lambda: _odds(self.fight.until_state(proc, roles, target, track, **options)))
            return
        proc = rng.choice(sorted(k for k, a in rules.actions.items() if a.odds))
        fields = [f for f, _n, t in m.PROCEDURE_INFO[proc]["fields"] if t == "int"]
        if not fields:
            return
        positional, options = _options(m, proc, rng, combatants=True)
        field, threshold = rng.choice(fields), rng.randint(1, 25)
        options["max_attacks"] = rng.choice((5, 30))
        step = {"op": "until", "proc": proc, "field": field, "threshold": threshold, "positional": positional,
                "options": options}
        self.run(step, lambda: _odds(m.until(proc, field, threshold, *[_py(m, v) for v in positional], **options)))


class Initiative(Sequence):
    """Initiative orders (tracks R50) of random entries from seeds, as a sequence of steps."""

    def __init__(self, m: Any, rng: random.Random, count: int) -> None:  # pylint: disable=super-init-not-called
        self.m, self.rng = m, rng
        self.steps, self.records = [], []
        for _ in range(count):
            entries = [[n, rng.choice((0, 1, 2, 3)), rng.choice((0, 0, 1, -1))] for n in rng.sample(NAMES, 3)]
            if rng.random() < 0.1:
                entries[0][1] = 201  # past the pool's limit: the same error
            seed = rng.randrange(1 << 40)

            def order(entries: list[Any] = entries, seed: int = seed) -> dict[str, Any]:
                names, trace = m.initiative_order([tuple(e) for e in entries], dice=m.SeededDice(seed))
                return {"order": names, "trace": trace}

            self.run({"op": "initiative", "entries": entries, "seed": seed}, order)


def run_node(runs: list[tuple[Path, list[list[dict[str, Any]]]]]) -> list[list[list[dict[str, Any]]]]:
    """Every run (a module and its sequences) in one Node process."""
    request = json.dumps({"runs": [{"module": str(p), "sequences": seqs} for p, seqs in runs]}, ensure_ascii=False)
    done = subprocess.run([str(NODE), str(ROOT / "tests" / "js" / "fight_driver.mjs")], input=request,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out: list[list[list[dict[str, Any]]]] = json.loads(done.stdout)
    return out


def _close(js: dict[str, Any], py: dict[str, Any]) -> bool:
    return (len(js["probabilities"]) == len(py["probabilities"])
            and all(abs(a - b) <= 1e-12 for a, b in zip(js["probabilities"], py["probabilities"]))
            and abs(js["tail"] - py["tail"]) <= 1e-12 and abs(js["expected"] - py["expected"]) <= 1e-9)


def check_agree(runs: list[tuple[Path, list[Sequence]]]) -> dict[str, int]:
    node = [seq for out in run_node([(p, [s.steps for s in seqs]) for p, seqs in runs]) for seq in out]
    sequences = [s for _, seqs in runs for s in seqs]
    assert len(node) == len(sequences)
    seen = {"acts": 0, "applied": 0, "errors": 0, "refused": 0, "exhausted": 0, "odds": 0, "expired": 0}
    for s, js_records in zip(sequences, node):
        assert len(js_records) == len(s.records)
        for i, (step, js, py) in enumerate(zip(s.steps, js_records, s.records)):
            where = f"step {i} {json.dumps(step, ensure_ascii=False)[:300]}"
            assert "crash" not in js, f"{where}: {js['crash']}"
            if "error" in py or "error" in js:
                assert (js.get("error"), js.get("message")) == (py.get("error"), py.get("message")), \
                    f"{where}: {js} != {py}"
                seen["errors"] += 1
                seen["refused"] += py.get("error") == "refused"
                seen["exhausted"] += py.get("error") == "dice-exhausted"
            elif step["op"] in ("until", "until_state", "until_plan"):
                assert _close(js, py), f"{where}: {js} != {py}"
                seen["odds"] += 1
            else:
                for key in py:
                    assert js[key] == py[key], f"{where}: {key}\nnode: {js[key]}\npython: {py[key]}"
                seen["acts"] += step["op"] == "act"
                seen["applied"] += bool(py.get("applied"))
                seen["expired"] += step["op"] == "next" and any(("结束" in x or "恢复" in x) for x in py["dict"]["log"])
    return seen


FIGHTS = FIGHTING  # every ruleset found that declares a fight (the tests' own mini included)


# Plans whose exact odds take a few milliseconds (the lead's test_fight_plan.py cases): the fast test's.
ROLES = {"attacker": "甲", "defender": "乙"}
PLANS: dict[str, list[tuple[dict[str, Any], list[Any], Any]]] = {
    "dp": [({"strength": 5, "martial": 8, "specialty": 7, "attack_extras": 5, "intelligence": 6},
            [{"opening": [{"procedure": "feint", "roles": ROLES, "options": {}, "end_turn": False}],
              "cycle": [{"procedure": "attack", "roles": ROLES, "options": {"weapon": "拳"}, "end_turn": True}]},
             [{"procedure": "feint", "roles": ROLES, "end_turn": False},
              {"procedure": "attack", "roles": ROLES, "options": {"weapon": "拳", "power_attack": True}}]],
            {"who": "乙", "counter": "damage", "at_least": 12})],
    "d20": [({"dexterity": 14, "proficiency": 2},
             [[{"procedure": "attack", "roles": {"attacker": "甲", "target": "乙"}, "options": {"weapon": "dagger"},
                "end_turn": True}]], {"who": "乙", "counter": "damage", "at_least": 9})],
    "tracks": [({"strength": 6, "fighting": 5},
                [[{"procedure": "attack", "roles": ROLES, "options": {"weapon": "fist", "part": "eyes"},
                   "end_turn": True}]], {"who": "乙", "state": "blind"})],
}


class Planned(Sequence):
    """The fixed plans of PLANS from a fight of two: exact odds over the plan, and the fight itself."""

    def __init__(self, m: Any, ruleset: str) -> None:  # pylint: disable=super-init-not-called
        self.m = m
        self.steps, self.records = [], []
        for stats, plans, target in PLANS.get(ruleset, []):
            combatants = [["甲", stats], ["乙", {}]]
            self.run({"op": "start", "combatants": combatants}, partial(self._start, combatants))
            for plan in plans:
                step = {"op": "until_plan", "plan": plan, "target": target, "options": {"max_actions": 40}}
                self.run(step, partial(self._plan, plan, target))

    def _start(self, combatants: list[list[Any]]) -> dict[str, Any]:
        return self._set(self.m.start_fight({n: self.m.Combatant(**s) for n, s in combatants}))

    def _plan(self, plan: Any, target: Any) -> dict[str, Any]:
        return _odds(self.fight.until_plan(plan, target, max_actions=40))


def _runs(request: pytest.FixtureRequest, label: str, count: int, lo: int, hi: int,
          plans: bool = False) -> list[tuple[Path, list[Sequence]]]:
    built = request.getfixturevalue("built")
    runs = []
    for ruleset in FIGHTS:
        m = request.getfixturevalue("package")(ruleset)
        rng = random.Random(f"{label}-{ruleset}")
        sequences = [Sequence(m, rng, rng.randint(lo, hi), plans) for _ in range(count)]
        sequences.append(Planned(m, ruleset))
        if hasattr(m, "initiative_order"):
            sequences.append(Initiative(m, rng, count * 4))
        runs.append((built / "js" / ruleset / "index.js", sequences))
    return runs


def test_js_fight_agrees_with_python(request: pytest.FixtureRequest) -> None:
    """Every ruleset's fight, a few short sequences each, in one Node process."""
    seen = check_agree(_runs(request, "jsfight", 3, 8, 16))
    assert seen["acts"] > 20 and seen["errors"] > 0 and seen["odds"] > 0 and seen["applied"] > 0, seen


@pytest.mark.slow
def test_js_fight_agrees_with_python_at_length(request: pytest.FixtureRequest) -> None:
    seen = check_agree(_runs(request, "jsfight-slow", 30, 30, 100, plans=True))
    assert seen["refused"] > 0 and seen["exhausted"] > 0 and seen["applied"] > 0 and seen["expired"] > 0, seen


def _damaged(data: dict[str, Any], m: Any) -> list[Any]:
    """Stored fights, each with one value out of its range or of the wrong kind."""
    rules = m.FIGHT_RULES
    out: list[Any] = [[], "fight", {**data, "extra": 1}, {**data, "turn": -1}, {**data, "turn": "3"},
                      {**data, "turn": 1_000_001}, {**data, "turn": 2.5}, {**data, "members": []},
                      {**data, "members": "甲"}, {**data, "log": "text"}, {**data, "log": ["x" * 501]},
                      {**data, "log": ["\U0001d49c" * 501]},
                      {**data, "log": ["ok"] * 1001}, {**data, "relations": [["nope", "甲", "乙"]]},
                      {k: v for k, v in data.items() if k != "members"}]
    first = data["members"][0]
    name = first["name"]
    member_changes: list[dict[str, Any]] = [
        {"name": "a\u202eb"}, {"name": "x" * 101}, {"name": "\U0001d49c" * 101}, {"name": ""}, {"name": 5}, {"stats": {"nope": 1}},
        {"stats": []}, {"stats": {"size": 10 ** 12}}, {"counters": {"nope": 1}}, {"counters": {"x": True}},
        {"states": ["nope"]}, {"states": "x"}, {"modifiers": [["x", 1, 5]]}, {"modifiers": [[1, 1, 5, "x"]]},
        {"conditions": [["nope", 1, "", -1]]}, {"conditions": [[1, 2]]}, {"extra": 1},
    ]
    if rules.counters:
        member_changes.append({"counters": {next(iter(rules.counters)): 1_000_000_001}})
    if rules.tracks:
        member_changes.append({"points": {next(iter(rules.tracks)): rules.points_max + 1}})
    stat = next(iter(rules.stats))
    source = next(iter(rules.actions.values())).name
    member_changes += [{"modifiers": [[stat, 1, -2, source]]}, {"modifiers": [[stat, 1, 5, "no such procedure"]]},
                       {"modifiers": [[stat, 1, 5, source]] * 101}]
    if rules.conditions:
        cid = next(iter(rules.conditions))
        member_changes += [{"conditions": [[cid, -1, "", -1]]}, {"conditions": [[cid, 1, "", -1]] * 2},
                           {"conditions": [[cid, 1, "nobody", -1]]}, {"conditions": [[cid, 1, "", -2]]}]
    for change in member_changes:
        d = copy.deepcopy(data)
        d["members"][0] = {**first, **change}
        out.append(d)
    d = copy.deepcopy(data)
    d["members"].append(copy.deepcopy(first))  # the same name twice
    out.append(d)
    d = copy.deepcopy(data)
    del d["members"][0]["stats"]
    out.append(d)
    if rules.relations:
        out.append({**data, "relations": [[next(iter(rules.relations)), name, "nobody"]]})
        out.append({**data, "relations": [[next(iter(rules.relations)), name, name]] * 2})
    return out


def test_js_fight_stored_fights_round_trip_and_damaged_ones_are_refused(request: pytest.FixtureRequest) -> None:
    """A fight stored by JavaScript loads in Python to the same fight and back (and the other
    way); every damaged stored fight is refused in both with the same OutOfBounds message."""
    built = request.getfixturevalue("built")
    runs, expected = [], []
    for ruleset in FIGHTS:
        m = request.getfixturevalue("package")(ruleset)
        rng = random.Random(f"jsfight-stored-{ruleset}")
        fights = [Sequence(m, rng, 25) for _ in range(3)]
        stored = [s.fight.to_dict() for s in fights]
        # lines of 500 characters, one of them 1,000 UTF-16 units long: within MAX_LOG_LINE as Python counts
        stored.append({**stored[0], "log": ["\U0001d49c" * 500, "x" * 500, *stored[0]["log"]][:1000]})
        sequences = [[{"op": "load", "data": json.loads(json.dumps(d, ensure_ascii=False))}] for d in stored]
        damaged = [d for data in stored[:1] for d in _damaged(json.loads(json.dumps(data, ensure_ascii=False)), m)]
        sequences += [[{"op": "load", "data": d}] for d in damaged]
        runs.append((built / "js" / ruleset / "index.js", sequences))
        expected.append((m, len(stored)))
    node = run_node(runs)
    for (m, good), (_, sequences), records in zip(expected, runs, node):
        for i, (seq, (js,)) in enumerate(zip(sequences, records)):
            data = seq[0]["data"]
            try:
                py: dict[str, Any] = snapshot(m.fight_from_dict(data))
            except m.RuleError as exc:
                py = {"error": exc.code, "message": exc.message}
            if i < good:
                assert js == py and js["dict"] == data, (js, py)
                back = m.fight_from_dict(js["dict"])  # what JavaScript wrote, read by Python
                assert json.loads(json.dumps(back.to_dict(), ensure_ascii=False)) == js["dict"]
            else:
                assert py.get("error") == "out-of-bounds", (json.dumps(data, ensure_ascii=False)[:300], py)
                assert (js.get("error"), js.get("message")) == (py["error"], py["message"]), (
                    json.dumps(data, ensure_ascii=False)[:300], js, py)


def test_js_fight_runs_in_quickjs_as_in_python(request: pytest.FixtureRequest) -> None:
    """The single-file script's fight in an engine other than V8 (QuickJS, as SealDice's goja is
    not V8 either): a fight of every kind of step gives Python's log, statuses and toDict."""
    quickjs = pytest.importorskip("quickjs")
    built = request.getfixturevalue("built")
    m = request.getfixturevalue("package")("dp")
    seq = Sequence(m, random.Random("jsfight-quickjs"), 30)
    context = quickjs.Context()
    context.eval((built / "js" / "dp" / "rulec_dp.user.js").read_text(encoding="utf-8"))
    script = """(function (steps) {
      var m = rulec_dp, fight = null, out = [];
      steps.forEach(function (s) {
        try {
          if (s.op === 'start') fight = m.start_fight(new Map(s.combatants.map(function (nc) {
            return [nc[0], new m.Combatant(nc[1])]; })));
          else if (s.op === 'next') fight = fight.next_turn();
          else if (s.op === 'roundtrip') fight = m.fightFromDict(JSON.parse(JSON.stringify(fight)));
          else if (s.op === 'remove_state') fight = fight.remove_state(s.name, s.state);
          else if (s.op === 'act') {
            var o = Object.assign({}, s.options);
            o.dice = s.dice.fixed ? new m.FixedDice(s.dice.fixed) : new m.SeededDice(s.dice.seed);
            fight = fight.act(s.proc, s.roles, o)[1];
          } else { out.push(null); return; }
          out.push({dict: fight.toDict(), status: fight.members.map(function (x) { return fight.status(x.name); })});
        } catch (e) { out.push({error: e.code, message: e.message}); }
      });
      return JSON.stringify(out);
    })(%s)""" % json.dumps(seq.steps, ensure_ascii=False)
    got = json.loads(context.eval(script))
    compared = 0
    for step, js, py in zip(seq.steps, got, seq.records):
        if js is None:
            continue
        if "error" in py:
            assert (js.get("error"), js.get("message")) == (py["error"], py["message"]), step
        else:
            assert js["dict"] == py["dict"] and js["status"] == list(py["status"].values()), step
        compared += 1
    assert compared > 10
