"""`rulec resolve`, `rulec odds` and `rulec test`: run scenario files through a compiled ruleset.

A scenario (kind: scenario) names the ruleset and procedure, the combatants'
stats, the other arguments and optionally fixed dice faces. It is loaded and
checked like a rule file (scenario.py); the built package in `generated/` is used
when it is up to date with `rules/`, else the rules are compiled in memory
(play_build.py), and the generated resolver is called. Nothing here imports click:
play_cmd.py wraps these functions as click commands, and entry.py runs resolve and
odds through play_args.py directly.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .output import EXIT_INVALID, EXIT_OK, echo, report
from ..messages import say
from .play_build import Where, _built, _diagnostic, _package, _Session, where_for  # noqa: F401  (_built: tests)
from .scenario import expectations, prepare_scenario

if TYPE_CHECKING:
    from ..diagnostics import Diagnostic

# What is imported here is what `rulec resolve` on an up-to-date build needs: the diagnostics, the
# YAML loader and the compiler's passes are imported where they are first needed.


def _error(exc: Exception, fmt: str) -> int:
    code = getattr(exc, "code", "rule-error")
    message = getattr(exc, "message", str(exc))
    if fmt == "json":
        echo(json.dumps({"error": code, "message": message}, ensure_ascii=False))
    else:
        echo(say("play.error", code=code, message=message), err=True)
    return EXIT_INVALID


def _shown(module: Any, value: Any, table: Any = None) -> str:
    """A value as the package's runtime shows it (its own copy of runtime/core.py)."""
    return sys.modules[module.__name__ + "._runtime.core"].shown(value, table)  # type: ignore[no-any-return]


def _run(module: Any, sc: dict[str, Any], seed: int | None) -> tuple[Any, str | None, Exception | None]:
    """Resolve a prepared scenario: (result, None, None) or (None, error code, the error)."""
    data = sc["data"]
    faces = data.get("dice")
    dice = module.FixedDice(faces) if faces is not None else module.SeededDice(
        seed if seed is not None else data.get("seed"))
    try:
        return getattr(module, data["procedure"])(**sc["kwargs"], dice=dice), None, None
    except module.RuleError as exc:
        return None, getattr(exc, "code", "rule-error"), exc


def resolve_scenario(scenario: Path, rules: tuple[Path, ...], seed: int | None, fmt: str, as_json: bool,
                     out: Path | None = None) -> int:
    """Resolve a scenario once and print its trace (or the result as JSON); exit 1 when it has an
    `expect:` that the outcome does not meet."""
    fmt = "json" if as_json else fmt
    where = where_for(rules, out, fmt)
    prepared = None if where is None else prepare_scenario(scenario, where, fmt, _Session())
    if prepared is None:
        return EXIT_INVALID
    module, sc, tmp = prepared
    with tmp:
        data = sc["data"]
        if sc.get("fight"):
            from .fight_cmd import run_fight

            problems, refused, fight = run_fight(sc["doc"], module, fmt != "json", expectations)
            extra: dict[str, Any] = {}
            if "until" in data and not refused:
                from .fight_cmd import run_until

                found, odds = run_until(sc["doc"], module, fight, fmt != "json")
                problems += found
                if odds is not None:
                    extra["until"] = {"probabilities": list(odds.probabilities), "tail": odds.tail,
                                      "expected": odds.expected, "median": odds.median}
            if fmt == "json":
                echo(json.dumps({"scenario": data.get("title", ""), **fight.to_dict(), **extra}, ensure_ascii=False,
                                      indent=2))
            report(problems, "text")
            return EXIT_INVALID if problems or refused else EXIT_OK
        result, error, exc = _run(module, sc, seed)
        differences = expectations(sc["doc"], module, data["procedure"], result, error)
        if exc is not None:
            _error(exc, fmt)
        elif fmt == "json":
            echo(json.dumps({"scenario": data.get("title", ""), **result.to_dict()}, ensure_ascii=False,
                                  indent=2))
        else:
            if data.get("title"):
                echo(f"【{data['title']}】")
            echo(result.text())
            fields = module.PROCEDURE_INFO[data["procedure"]]["fields"]
            outcome = "，".join(f"{name}={_shown(module, getattr(result, fid), getattr(module, kind.upper(), None))}"
                               for fid, name, kind in fields)
            echo(say("play.outcome", outcome=outcome))
        if differences:
            report(differences, "text")
            return EXIT_INVALID
        expected_error = isinstance(data.get("expect"), dict) and "error" in data["expect"]
        return EXIT_INVALID if exc is not None and not expected_error else EXIT_OK


def test_scenarios(paths: tuple[Path, ...], rules: tuple[Path, ...], fmt: str = "text", out: Path | None = None) -> int:
    """Run every scenario with an `expect:` under PATHS (default: the project config's `scenarios`,
    else examples/, else scenarios/) and check it: a homebrewer's worked examples as a test suite.
    With fmt "json", one JSON object on stdout: the counts and each scenario's diagnostics."""
    from ..load.paths import display_path
    from ..load.reading import MAX_SCENARIO_BYTES, ReadRefused, read_bounded

    where = where_for(rules, out, fmt)
    if where is None:
        return EXIT_INVALID
    default = where.scenarios or next(((p,) for p in (Path("examples"), Path("scenarios")) if p.is_dir()),
                                      (Path("examples"),))
    files = sorted(f for path in (paths or default)
                   for f in ([path] if not path.is_dir() else path.rglob("*.yaml")))
    session = _Session(collect=fmt == "json")
    shown: list[dict[str, Any]] = []
    passed = failed = 0
    given = {p.resolve() for p in where.rules}
    skipped: dict[Path, int] = {}
    try:
        for f in files:
            try:
                text = read_bounded(f, MAX_SCENARIO_BYTES, display_path(f), what="a scenario"
                                    ).decode("utf-8", errors="replace")
            except ReadRefused as exc:
                ok, differences = False, [exc.diagnostic]
            else:
                if "kind: scenario" not in text and "kind: fight" not in text or "expect:" not in text:
                    continue
                pack = next((d for d in f.resolve().parents if (d / "pack.yaml").is_file()), None)
                if pack is not None and pack not in given:  # these rules lack its entries: its folder runs it
                    skipped[pack] = skipped.get(pack, 0) + 1
                    continue
                ok, differences = _check_one(f, where, session)
            if session.collected is not None:
                differences, session.collected = session.collected + differences, []
                shown.append({"file": display_path(f), "ok": ok,
                              "diagnostics": [d.to_json() for d in differences]})
            elif differences:
                report(differences, "text")
            failed += not ok
            passed += ok
    finally:
        session.close()
    for pack, n in skipped.items():
        echo(say("play.skipped-pack-scenarios", n=n, folder=display_path(pack)), err=True)
    if fmt == "json":
        echo(json.dumps({"passed": passed, "failed": failed, "skipped": sum(skipped.values()), "scenarios": shown},
                        ensure_ascii=False, indent=2))
    else:
        echo(say("play.passed-failed", passed=passed, failed=failed), err=True)
    return EXIT_INVALID if failed or not passed + failed else EXIT_OK


def _check_one(f: Path, where: Where, session: _Session) -> tuple[bool, list[Diagnostic]]:
    """(passed, the differences between one scenario's `expect:` and what happens); a scenario
    that cannot be run has failed, its diagnostics reported (or collected) by the session."""
    prepared = prepare_scenario(f, where, "text", session)
    if prepared is None:
        return False, []
    module, sc, _ = prepared
    if sc.get("fight"):
        from .fight_cmd import run_fight

        differences, refused, fight = run_fight(sc["doc"], module, False, expectations)
        if "until" in sc["data"] and not refused:
            from .fight_cmd import run_until

            differences += run_until(sc["doc"], module, fight, False)[0]
    else:
        result, error, _exc = _run(module, sc, None)
        differences = expectations(sc["doc"], module, sc["data"]["procedure"], result, error)
    return not differences, differences


def _until(module: Any, sc: dict[str, Any], spec: str, fmt: str) -> int:
    """`--until FIELD=N`: the exact distribution of the number of repeats of the scenario's action
    until the running total of outcome FIELD reaches N (an absorbing chain, not sampling)."""
    data = sc["data"]
    field, _, raw = spec.partition("=")
    fields = {fid: (fname, ftype) for fid, fname, ftype in sc["info"]["fields"]}
    by_name = {fname: fid for fid, fname, _ in sc["info"]["fields"]}
    field = by_name.get(field.strip(), field.strip())
    raw = raw.strip()
    # ASCII digits only, and few of them: str.isdigit holds for '²' and '٣', which int() refuses or
    # reads, and a threshold past 10**9 is refused by until() anyway.
    if field not in fields or fields[field][1] != "int" or not (raw.isascii() and raw.isdigit() and len(raw) <= 12):
        whole = ", ".join(fid for fid, (_n, ftype) in fields.items() if ftype == "int")
        echo(say("play.error-usage-until-takes", procedure=data['procedure'], whole=whole), err=True)
        return EXIT_INVALID
    if not hasattr(module, "until"):
        echo(say("play.error-usage-ruleset-declares", ruleset=data['ruleset']), err=True)
        return EXIT_INVALID
    try:
        result = module.until(data["procedure"], field, int(raw), **sc["kwargs"])
    except module.RuleError as exc:
        return _error(exc, fmt)
    name = fields[field][0]
    if fmt == "json":
        echo(json.dumps({"field": field, "threshold": int(raw), "probabilities": list(result.probabilities),
                               "tail": result.tail, "expected": result.expected, "median": result.median},
                              ensure_ascii=False, indent=2))
        return EXIT_OK
    if data.get("title"):
        echo(f"【{data['title']}】")
    echo(say("play.until.summary", name=name, raw=raw, expected=result.expected, median=result.median))
    total = 0.0
    for k, p in enumerate(result.probabilities):
        total += p
        if p >= 1e-6:
            echo(say("play.until.row", number=k + 1, number2=p * 100, number3=total * 100))
    if result.tail > 0:
        echo(say("play.until.tail", n_probabilities=len(result.probabilities), tail=result.tail))
    return EXIT_OK


def odds_scenario(scenario: Path, rules: tuple[Path, ...], until: str | None, fmt: str, as_json: bool,
                  out: Path | None = None) -> int:
    """Print a scenario's exact outcome distribution, hit chance and expected damage (with --until,
    how many repeats reach a running total)."""
    fmt = "json" if as_json else fmt
    where = where_for(rules, out, fmt)
    prepared = None if where is None else prepare_scenario(scenario, where, fmt, _Session())
    if prepared is None:
        return EXIT_INVALID
    module, sc, tmp = prepared
    with tmp:
        data = sc["data"]
        if sc.get("fight"):
            return _fight_odds(module, sc, fmt)
        if until is not None:
            return _until(module, sc, until, fmt)
        try:
            result = getattr(module, f"{data['procedure']}_odds")(**sc["kwargs"])
        except module.RuleError as exc:
            return _error(exc, fmt)
        if fmt == "json":
            echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
            return EXIT_OK
        if data.get("title"):
            echo(f"【{data['title']}】")
        if "hit" in result.fields:
            echo(say("play.odds.hit", number=result.hit_probability * 100))
        if "damage" in result.fields:
            echo(say("play.odds.damage", expected_damage=result.expected_damage))
        field = "damage" if "damage" in result.fields else result.fields[0]
        name = next((fname for fid, fname, _ in sc["info"]["fields"] if fid == field), field)
        echo(say("play.odds.distribution", name=name))
        bars = sys.stdout.isatty()
        for value, p in result.marginal(field).items():
            bar = " " + "█" * max(1 if p > 0 else 0, round(p * 40)) if bars else ""
            echo(f"  {_shown(module, value):>6}  {p * 100:9.4f}%{bar}")
        if result.dropped > 0 and not math.isclose(result.dropped, 0.0):
            echo(say("play.odds.dropped", dropped=result.dropped))
    return EXIT_OK


def _fight_odds(module: Any, sc: dict[str, Any], fmt: str) -> int:
    """`rulec odds` of a fight scenario: its `until:` plan, from the fight after its actions."""
    from .fight_cmd import run_fight, run_until

    data = sc["data"]
    if "until" not in data:
        echo(say("play.error-usage-rulec-odds"), err=True)
        return EXIT_INVALID
    problems, refused, fight = run_fight(sc["doc"], module, False, expectations)
    if refused:
        report(problems, "text")
        return EXIT_INVALID
    if data.get("title") and fmt != "json":
        echo(f"【{data['title']}】")
    problems, odds = run_until(sc["doc"], module, fight, fmt != "json")
    if odds is not None and fmt == "json":
        echo(json.dumps({"probabilities": list(odds.probabilities), "tail": odds.tail, "expected": odds.expected,
                         "median": odds.median}, ensure_ascii=False, indent=2))
    report(problems, "text")
    return EXIT_INVALID if odds is None else EXIT_OK
