"""`rulec resolve` and `rulec odds`: run a scenario file through a compiled ruleset.

A scenario (kind: scenario) names the ruleset and procedure, the combatants'
stats, the other arguments and optionally fixed dice faces. It is loaded and
checked like a rule file (file:line:col diagnostics, against the scenario
schema generated for its ruleset); the rules are compiled in memory and the
generated resolver is called.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import click

from .cli_shell import EXIT_INVALID, EXIT_OK, guarded, main, report
from .diagnostics import Diagnostic
from .runtime.core import shown as show_value
from .load import display_path


def _prepare(scenario: Path, rules: tuple[Path, ...], fmt: str) -> tuple[Any, dict[str, Any], Any] | None:
    # The compiler's passes are imported here, so that `rulec build` with nothing to do stays cheap.
    from .facade import compile_rules
    from .load import load_file
    from .package_loader import import_package
    from .validate.scenario_schema import scenario_schema
    from .validate.schema import diagnostics_for, validator_for

    doc, diags = load_file(scenario, display_path(scenario))
    if doc is None:
        report(diags, fmt)
        return None
    data = doc.data
    if not isinstance(data, dict) or data.get("kind") != "scenario" or not isinstance(data.get("ruleset"), str):
        report([Diagnostic(doc.span(()), "bad-scenario", "a scenario has kind: scenario and a ruleset id")], fmt)
        return None
    rid = data["ruleset"]
    paths = list(rules) or ([Path("rules") / rid] if (Path("rules") / rid / "ruleset.yaml").is_file()
                            else [Path("rules")])
    build = compile_rules(paths)
    if not build.ok:
        report(build.diagnostics, fmt)
        return None
    rs = next((r for r in build.rulesets if r.id == rid), None)
    if rs is None:
        report([Diagnostic(doc.span(("ruleset",)), "unknown-ruleset", f"no ruleset '{rid}' in {paths}")], fmt)
        return None
    problems = diagnostics_for(doc, validator_for(scenario_schema(rs))) + _stats_given_twice(doc, rs)
    if problems:
        report(problems, fmt)
        return None
    module, tmp = import_package(rs.id, build.packages[rs.id])
    proc = next(p for p in rs.procedures if p.id == data["procedure"])
    kwargs: dict[str, Any] = dict(data.get("args", {}))
    for prm in proc.params:
        if prm.type == "combatant":
            kwargs[prm.id] = module.Combatant.from_dict(data.get("combatants", {}).get(prm.id, {}))
    return module, {"data": data, "kwargs": kwargs, "proc": proc}, tmp


def _stats_given_twice(doc: Any, rs: Any) -> list[Diagnostic]:
    """A stat given by its id and by its Chinese name in one combatant is a diagnostic at the second."""
    out = []
    names = {s.name: s.id for s in rs.stats}
    for who, stats in (doc.data.get("combatants") or {}).items():
        seen: dict[str, str] = {}
        for key in stats:
            stat = names.get(key, key)
            if stat in seen:
                out.append(Diagnostic(doc.span(("combatants", who, key), key=True), "duplicate-stat",
                                      f"'{key}' gives the stat '{seen[stat]}' a second time"))
            seen[stat] = key
    return out


def _error(exc: Exception, fmt: str) -> int:
    code = getattr(exc, "code", "rule-error")
    message = getattr(exc, "message", str(exc))
    if fmt == "json":
        click.echo(json.dumps({"error": code, "message": message}, ensure_ascii=False))
    else:
        click.echo(f"error[{code}]: {message}", err=True)
    return EXIT_INVALID


@main.command()
@click.argument("scenario", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--rules", multiple=True, type=click.Path(path_type=Path), help="Rules to use (default: rules/).")
@click.option("--seed", type=int, default=None, help="Seed for the dice when the scenario gives no faces.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@guarded
def resolve(scenario: Path, rules: tuple[Path, ...], seed: int | None, as_json: bool) -> int:
    """Resolve a scenario once and print its trace (or the result as JSON)."""
    fmt = "json" if as_json else "text"
    prepared = _prepare(scenario, rules, fmt)
    if prepared is None:
        return EXIT_INVALID
    module, sc, tmp = prepared
    with tmp:
        data = sc["data"]
        faces = data.get("dice")
        dice = module.FixedDice(faces) if faces is not None else module.SeededDice(
            seed if seed is not None else data.get("seed"))
        try:
            result = getattr(module, data["procedure"])(**sc["kwargs"], dice=dice)
        except module.RuleError as exc:
            return _error(exc, fmt)
        if as_json:
            click.echo(json.dumps({"scenario": data.get("title", ""), **result.to_dict()}, ensure_ascii=False,
                                  indent=2))
            return EXIT_OK
        if data.get("title"):
            click.echo(f"【{data['title']}】")
        click.echo(result.text())
        fields = module.PROCEDURE_INFO[data["procedure"]]["fields"]
        outcome = "，".join(f"{name}={show_value(getattr(result, fid), getattr(module, kind.upper(), None))}"
                           for fid, name, kind in fields)
        click.echo(f"结果：{outcome}")
    return EXIT_OK


@main.command()
@click.argument("scenario", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--rules", multiple=True, type=click.Path(path_type=Path), help="Rules to use (default: rules/).")
@click.option("--json", "as_json", is_flag=True, help="Print the distribution as JSON.")
@guarded
def odds(scenario: Path, rules: tuple[Path, ...], as_json: bool) -> int:
    """Print a scenario's exact outcome distribution, hit chance and expected damage."""
    fmt = "json" if as_json else "text"
    prepared = _prepare(scenario, rules, fmt)
    if prepared is None:
        return EXIT_INVALID
    module, sc, tmp = prepared
    with tmp:
        data = sc["data"]
        try:
            result = getattr(module, f"{data['procedure']}_odds")(**sc["kwargs"])
        except module.RuleError as exc:
            return _error(exc, fmt)
        if as_json:
            click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
            return EXIT_OK
        if data.get("title"):
            click.echo(f"【{data['title']}】")
        if "hit" in result.fields:
            click.echo(f"命中率：{result.hit_probability * 100:.4f}%")
        if "damage" in result.fields:
            click.echo(f"期望伤害：{result.expected_damage:.4f}")
        field = "damage" if "damage" in result.fields else result.fields[0]
        name = next((o.name for o in sc["proc"].result if o.id == field), field)
        click.echo(f"{name}的分布：")
        bars = sys.stdout.isatty()
        for value, p in result.marginal(field).items():
            bar = " " + "█" * max(1 if p > 0 else 0, round(p * 40)) if bars else ""
            click.echo(f"  {show_value(value):>6}  {p * 100:9.4f}%{bar}")
        if result.dropped > 0 and not math.isclose(result.dropped, 0.0):
            click.echo(f"（加骰截断略去的尾部概率：{result.dropped:.1e}）")
    return EXIT_OK

