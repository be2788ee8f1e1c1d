"""Exact odds over a plan (issue 29): `Fight.until_plan` for every configuration the pages show
(each odds preset's entries against its defender spread, one attack a turn until the preset's
damage total), and the worked plans of examples/ (a feint, then attacks; an attack from hiding,
then ordinary ones). Target: each configuration ≤ 50 ms.

CPU time per call, the median and the slowest over the configurations of each ruleset.
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

Row = tuple[str, str, str, str, str]


def _page_configurations(mod: ModuleType, rs_id: str) -> list[Callable[[], object]]:
    """One call per (preset, entry, varied value) of the ruleset's odds presets with a damage total."""
    import yaml

    from bench.run import ROOT
    from rulec.emit.until_states import one_attack_a_turn

    manifest = yaml.safe_load((ROOT / "rules" / rs_id / "ruleset.yaml").read_text(encoding="utf-8"))
    rules = mod.fight.FIGHT_RULES
    calls: list[Callable[[], object]] = []
    for preset in (manifest.get("reference") or {}).get("odds") or []:
        until = preset.get("until")
        spec = rules.actions.get(preset["procedure"])
        if not until or spec is None:
            continue
        counter = next((e for e in spec.effects if e.kind == "counter" and e.field == "damage"), None)
        if counter is None:
            continue
        base = {role: mod.Combatant.from_dict(dict(preset.get("combatants", {}).get(role, {}))) for role in spec.roles}
        head, _, stat = preset["vary"]["target"].partition(".")
        table = getattr(mod, preset["table"].upper())
        for entry in table:
            for value in preset["vary"]["values"]:
                kwargs = dict(base)
                kwargs[head] = dataclasses.replace(base[head], **{mod.STAT_NAMES.get(stat, stat): value})
                kwargs.update(preset.get("args", {}))
                kwargs[preset["param"]] = entry
                fight, step = one_attack_a_turn(mod, spec, preset["procedure"], kwargs)
                target = {"who": step["roles"][counter.role], "counter": counter.key, "at_least": until["at"]}
                calls.append(lambda f=fight, s=step, t=target: f.until_plan([s], t, max_actions=1000))
    return calls


def _cpu(fn: Callable[[], object], repeats: int) -> float:
    best = []
    for _ in range(repeats):
        start = time.process_time()
        try:
            fn()
        except Exception:  # a configuration the procedure refuses (the page shows "—")
            pass
        best.append(time.process_time() - start)
    return min(best)


def bench_plans(load_generated: Callable[[str], ModuleType], repeats: int) -> list[Row]:
    rows: list[Row] = []
    for rs_id in ("dp", "d20", "tracks"):
        mod = load_generated(rs_id)
        calls = _page_configurations(mod, rs_id)
        if not calls:
            continue
        times = [_cpu(fn, max(1, repeats // 3)) for fn in calls]
        rows.append((f"`until_plan`, `{rs_id}` page configurations", f"{len(calls)} configurations, median / slowest",
                     f"{statistics.median(times) * 1e3:.1f} / {max(times) * 1e3:.1f} ms", "", "≤ 50 ms each"))
    dp = load_generated("dp")
    a = dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5, intelligence=6)
    fight = dp.start_fight({"甲": a, "乙": dp.Combatant(basic_defense=2, parry_defense=6)})
    roles = {"attacker": "甲", "defender": "乙"}
    plan: Any = {"opening": [{"procedure": "feint", "roles": roles}],
                 "cycle": [{"procedure": "attack", "roles": roles, "options": {"weapon": "拳"}, "end_turn": True}]}
    seconds = _cpu(lambda: fight.until_plan(plan, {"who": "乙", "counter": "damage", "at_least": 12}), repeats)
    rows.append(("`until_plan`, dp feint then attacks", "to 12 damage (examples/dp/feint_then_attack.yaml)",
                 f"{seconds * 1e3:.1f} ms", "", "≤ 50 ms"))
    return rows
