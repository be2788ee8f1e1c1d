"""The JavaScript modules agree with the Python packages (issue 19): every procedure of every
ruleset (the bundled ones and the tests' own, tests/every_ruleset.py), on the same random inputs, with the same fixed dice faces and the same seeds,
gives the same outcome, the same rolls, the same trace text (every line, the game master's
included) and the same error kind; its exact odds agree within 1e-12.

One Node process per ruleset runs all the calls (tests/js/driver.mjs). The faces are recorded
from a Python seeded run and replayed as FixedDice in both languages, sometimes cut short so
that both run out (DiceExhausted) at the same die; the seeds are compared directly, as the
JavaScript SeededDice is CPython's Mersenne Twister.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from every_ruleset import BUNDLED, RULESETS

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")


class Recording:
    """A seeded source that records every face it gives (for replaying as FixedDice)."""

    def __init__(self, m: Any, seed: int) -> None:
        self.inner = m.SeededDice(seed)
        self.faces: list[int] = []

    def die(self, sides: int) -> int:
        face = self.inner.die(sides)
        self.faces.append(face)
        return face


def random_call(m: Any, info: dict[str, Any], positional: list[str], rng: random.Random) -> tuple[list, dict]:
    """Positional and option values for one call, as plain JSON (combatants as their stats)."""
    fields = m.Combatant.__dataclass_fields__
    values: dict[str, Any] = {}
    for pid, _name, ptype in info["params"]:
        if ptype == "combatant":
            stats = {f: (rng.choice((True, False)) if isinstance(v.default, bool) else
                         max(0, v.default + rng.randint(-3, 6)))
                     for f, v in fields.items() if rng.random() < 0.4}
            try:
                m.Combatant(**stats)
            except m.OutOfBounds:
                stats = {}
            values[pid] = {"$combatant": stats}
        elif ptype == "bool":
            values[pid] = rng.random() < 0.2
        elif ptype == "int":
            small = rng.random() < 0.8
            values[pid] = rng.choice((0, 0, 0, 1, 2, 3, 5) if small else (5, 10, 30, 60))
        else:
            table = getattr(m, ptype.upper())
            entry = table[rng.choice(sorted(table))]
            values[pid] = entry.id if rng.random() < 0.7 else entry.name
    return [values[p] for p in positional], {k: v for k, v in values.items() if k not in positional}


def _py_value(m: Any, v: Any) -> Any:
    if isinstance(v, dict) and "$from_dict" in v:
        return m.Combatant.from_dict(v["$from_dict"])
    return m.Combatant(**v["$combatant"]) if isinstance(v, dict) and "$combatant" in v else v


def run_python(m: Any, call: dict[str, Any]) -> dict[str, Any]:
    fn = getattr(m, call["proc"] + ("_odds" if call["form"] == "odds" else ""))
    args = [_py_value(m, v) for v in call["positional"]]
    kwargs = {k: _py_value(m, v) for k, v in call["options"].items()}
    try:
        if call["form"] == "odds":
            odds = fn(*args, **kwargs)
            return {"outcomes": {json.dumps(list(k), ensure_ascii=False, separators=(",", ":")): p
                                 for k, p in odds.outcomes.items()}, "dropped": odds.dropped}
        dice = call["dice"]
        source = m.FixedDice(dice["fixed"]) if "fixed" in dice else m.SeededDice(dice["seed"])
        result = fn(*args, **kwargs, dice=source)
        return {"result": result.to_dict(), "text": result.text(gm=True), "outcome": list(result.outcome())}
    except m.RuleError as exc:
        return {"error": exc.code, "message": exc.message}


def run_node(module: Path, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    request = json.dumps({"module": str(module), "calls": calls}, ensure_ascii=False)
    done = subprocess.run([NODE, str(ROOT / "tests" / "js" / "driver.mjs")], input=request, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out: list[dict[str, Any]] = json.loads(done.stdout)
    return out


def make_calls(m: Any, rng: random.Random, per_procedure: int, odds_per_procedure: int) -> list[dict[str, Any]]:
    calls = []
    for proc, info in m.PROCEDURE_INFO.items():
        positional = _positional(m, proc)
        for case in range(per_procedure):
            args, options = random_call(m, info, positional, rng)
            seed = rng.randrange(1 << 40)
            base = {"proc": proc, "form": "traced", "positional": args, "options": options}
            calls.append({**base, "dice": {"seed": seed}})
            recording = Recording(m, seed)
            try:
                getattr(m, proc)(*[_py_value(m, v) for v in args], **{k: _py_value(m, v) for k, v in options.items()},
                                 dice=recording)
            except m.RuleError:
                pass
            faces = recording.faces
            if case % 5 == 4 and faces:  # cut short: both must run out at the same die
                faces = faces[:rng.randrange(len(faces))]
            calls.append({**base, "dice": {"fixed": faces}})
        for _ in range(odds_per_procedure):
            args, options = random_call(m, info, positional, rng)
            calls.append({"proc": proc, "form": "odds", "positional": args, "options": options})
        calls += _default_odds_calls(m, info, positional)
    return calls


def _default_odds_calls(m: Any, info: dict[str, Any], positional: list[str]) -> list[dict[str, Any]]:
    """Odds at the defaults, with each of two entries of the first table parameter: the common call,
    which the odds forms' unswitched variants serve (a random call seldom is one)."""
    proc = next(p for p in m.PROCEDURE_INFO if m.PROCEDURE_INFO[p] is info)
    tables = [(pid, t) for pid, _n, t in info["params"] if t not in ("int", "bool", "combatant")]
    required = {pid: {"$combatant": {}} for pid, _n, t in info["params"] if t == "combatant"}
    choices = [sorted(getattr(m, tables[0][1].upper()))[:2]] if tables else [[None]]
    import inspect

    needed = [q.name for q in inspect.signature(getattr(m, proc + "_odds")).parameters.values()
              if q.default is inspect.Parameter.empty and q.kind is not inspect.Parameter.VAR_KEYWORD]
    calls = []
    for entry in choices[0]:
        values = {**required, **({tables[0][0]: entry} if entry is not None else {})}
        if any(p not in values for p in needed):
            continue  # a parameter with no default: the random calls give it
        calls.append({"proc": proc, "form": "odds", "positional": [values[p] for p in positional],
                      "options": {k: v for k, v in values.items() if k not in positional}})
    return calls


def _positional(m: Any, proc: str) -> list[str]:
    import inspect

    sig = inspect.signature(getattr(m, proc))
    return [p.name for p in sig.parameters.values() if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]


def check_agree(ruleset: str, m: Any, calls: list[dict[str, Any]], built: Path) -> dict[str, int]:
    node = run_node(built / "js" / ruleset / "index.js", calls)
    assert len(node) == len(calls)
    seen = {"results": 0, "errors": 0, "odds": 0}
    for call, js in zip(calls, node):
        py = run_python(m, call)
        where = f"{ruleset}.{call['proc']} {call['form']} {json.dumps(call, ensure_ascii=False)[:400]}"
        assert "crash" not in js, f"{where}: {js['crash']}"
        if "error" in py or "error" in js:
            assert js.get("error") == py.get("error"), f"{where}: {js} != {py}"
            seen["errors"] += 1
        elif call["form"] == "odds":
            assert set(js["outcomes"]) == set(py["outcomes"]), where
            for k, p in py["outcomes"].items():
                assert abs(js["outcomes"][k] - p) <= 1e-12, f"{where}: {k} {js['outcomes'][k]} != {p}"
            assert abs(js["dropped"] - py["dropped"]) <= 1e-12, where
            seen["odds"] += 1
        else:
            assert js["text"] == py["text"], f"{where}:\nnode:\n{js['text']}\npython:\n{py['text']}"
            assert js["outcome"] == py["outcome"], where
            if "seed" in call["dice"]:
                assert js["fast"] == py["outcome"] and js["prepared"] == py["outcome"], where
            assert js["result"] == py["result"], where
            seen["results"] += 1
    return seen


@pytest.mark.parametrize("ruleset", RULESETS)
def test_js_agrees_with_python(ruleset: str, request: pytest.FixtureRequest) -> None:
    m = request.getfixturevalue("package")(ruleset)
    calls = make_calls(m, random.Random(f"js-{ruleset}"), per_procedure=12, odds_per_procedure=2)
    seen = check_agree(ruleset, m, calls, request.getfixturevalue("built"))
    assert seen["results"] > 0 and seen["errors"] > 0 and seen["odds"] > 0, seen


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_js_agrees_with_python_at_length(ruleset: str, request: pytest.FixtureRequest) -> None:
    m = request.getfixturevalue("package")(ruleset)
    calls = make_calls(m, random.Random(f"js-slow-{ruleset}"), per_procedure=150, odds_per_procedure=12)
    check_agree(ruleset, m, calls, request.getfixturevalue("built"))


EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_worked_examples_pass_in_node(ruleset: str, request: pytest.FixtureRequest) -> None:
    """Every worked-example scenario of examples/ (the seeds' numbers, with their fixed faces) gives
    the expected outcome in Node too (test_examples.py runs them through the Python CLI). Every
    bundled ruleset has some; a test ruleset may have none."""
    import yaml

    built = request.getfixturevalue("built")
    m = request.getfixturevalue("package")(ruleset)
    scenarios = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in EXAMPLES
                 if f"ruleset: {ruleset}" in p.read_text(encoding="utf-8")]
    scenarios = [s for s in scenarios if s.get("kind") == "scenario"]
    if ruleset not in BUNDLED and not scenarios:
        pytest.skip(f"no worked example names the test ruleset {ruleset}")
    assert scenarios
    calls = []
    for s in scenarios:
        positional = _positional(m, s["procedure"])
        values = {**{role: {"$from_dict": stats} for role, stats in s.get("combatants", {}).items()},
                  **s.get("args", {})}
        calls.append({"proc": s["procedure"], "form": "traced", "positional": [values.pop(p) for p in positional
                                                                               if p in values],
                      "options": values,
                      "dice": {"seed": s["seed"]} if "seed" in s else {"fixed": s.get("dice", [])}})
    for s, call, js in zip(scenarios, calls, run_node(built / "js" / ruleset / "index.js", calls)):
        expect = s["expect"]
        if "error" in expect:
            assert js.get("error") == expect["error"], (s["title"], js)
            continue
        assert "result" in js, (s["title"], js)
        for key, value in expect.items():
            got = js["result"]["rolls"][0]["command"] if key == "command" else js["result"][key]
            assert got == value, (s["title"], key, got, value)
        assert {k: v for k, v in js.items() if k not in ("fast", "prepared")} == run_python(m, call), s["title"]
