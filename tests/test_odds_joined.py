"""The odds form's joined rolls (optimise/fuse.py): two damage rolls read only as their sum are
enumerated as one roll of all their dice. Every ruleset is compiled a second time without joining,
and the odds functions of both packages are compared outcome by outcome (the same outcomes; the
probabilities equal up to rounding, since the joined distribution adds the same products in
another order). The pass's conditions are checked on d20's attack, whose weapon dice and extra
dice (额外伤害骰) are the bundled rules' one joined pair."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from every_ruleset import RULESETS, SOURCES, slow_for
from rulec.build.facade import compile_rules
from rulec.build.stamp import STAMP, stamp_bytes
from rulec.build.write import write_tree
from rulec.emit.python import loader
from rulec.ir import expr as ir
from rulec.optimise.fuse import joined_sums
from rulec.record import replace
from test_forms_agree import _outcome, _random_call


def _build(sources: list[Path], out: Path, *, joined: bool, targets: tuple[str, ...] = ("python",)) -> Path:
    """The sources built into `out`, the Python package's odds with its rolls joined or nested."""
    with pytest.MonkeyPatch.context() as mp:
        if not joined:
            mp.setattr("rulec.emit.python.many_rolls.joined_sums", lambda steps, outputs, in_setup: (steps, outputs))
        result = compile_rules(sources, targets=targets)
    assert result.ok, [d.format() for d in result.diagnostics]
    write_tree(out, {**result.files, STAMP: stamp_bytes("", result.files)})
    return out


@pytest.fixture(scope="module")
def unjoined(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Every ruleset's package built without joining, imported under the private name."""
    out = _build(SOURCES, tmp_path_factory.mktemp("unjoined"), joined=False)
    packages = {rid: loader.import_folder(rid, out / rid)[0] for rid in RULESETS}
    yield packages
    for rid in RULESETS:
        loader.forget(rid)


def _same(joined, nested) -> None:  # type: ignore[no-untyped-def]
    if isinstance(nested, type) or isinstance(joined, type):  # the same error (each package's own class)
        assert isinstance(joined, type) and isinstance(nested, type) and joined.__name__ == nested.__name__
        return
    a, b = dict(joined.outcomes), dict(nested.outcomes)
    assert a.keys() == b.keys()
    for key, p in b.items():
        assert math.isclose(a[key], p, rel_tol=1e-9, abs_tol=1e-15), key
    assert math.isclose(joined.dropped, nested.dropped, abs_tol=1e-12)


def _attack(m):  # type: ignore[no-untyped-def]
    return m.procedures.attack_odds.__code__.co_names


def test_d20s_attack_joins_its_weapon_and_extra_dice(package):  # type: ignore[no-untyped-def]
    """The comparisons below are not vacuous, and the JavaScript package joins the same rolls."""
    assert "_rt_join_dice" in _attack(package("d20"))
    from every_ruleset import ROOT
    js = (ROOT / "generated" / "js" / "d20" / "index.js").read_text(encoding="utf-8")
    body = js[js.index("function attack_odds("):]
    assert "_rt_join_dice(" in body[:body.index("\nfunction ")]


@pytest.mark.parametrize("weapon", ["unarmed_strike", "dagger", "greatsword"])
def test_the_joined_attack_gives_the_nested_distribution(package, unjoined, weapon):  # type: ignore[no-untyped-def]
    m, g = package("d20"), unjoined["d20"]
    assert "_rt_join_dice" not in _attack(g)
    for crit_range in (1, 20):
        for sneak in (0, 1, 3, 20):
            for options in ({}, {"extra_advantage": 2}, {"offhand": True, "extra_disadvantage": 1},
                            {"guessed_wrong": True}):
                args = (m.Combatant(crit_range=crit_range, strength=14), m.Combatant(armor_class=12))
                nested_args = (g.Combatant(crit_range=crit_range, strength=14), g.Combatant(armor_class=12))
                _same(_outcome(m.attack_odds, *args, weapon, sneak_dice=sneak, **options),
                      _outcome(g.attack_odds, *nested_args, weapon, sneak_dice=sneak, **options))


# dp's and d20's run in the slow job, tracks' and mini's in the fast one.
@pytest.mark.parametrize("ruleset", slow_for(RULESETS, "dp", "d20"))
def test_every_odds_function_gives_the_nested_distribution(ruleset, package, unjoined):  # type: ignore[no-untyped-def]
    m, g = package(ruleset), unjoined[ruleset]
    rng = random.Random(20261207)
    fields = m.Combatant.__dataclass_fields__
    for proc, info in m.PROCEDURE_INFO.items():
        entity_ids = {pid for pid, _n, t in info["params"] if t not in ("int", "bool", "combatant")}
        for _ in range(30):
            args, kwargs = _random_call(m, info, rng)
            same = [g.Combatant(**{f: getattr(a, f) for f in fields}) for a in args]  # all combatants
            by_id = {k: (v.id if k in entity_ids else v) for k, v in kwargs.items()}
            _same(_outcome(getattr(m, f"{proc}_odds"), *args, **kwargs),
                  _outcome(getattr(g, f"{proc}_odds"), *same, **by_id))


# ---- the pass's conditions, on d20's attack ----
@pytest.fixture(scope="module")
def attack():  # type: ignore[no-untyped-def]
    build = compile_rules([SOURCES[0]], stop_after="optimise")
    rs = next(r for r in build.rulesets if r.id == "d20")
    p = next(p for p in rs.procedures if p.id == "attack")
    return p.plan.per_roll, p.plan.outputs


def _rolls(steps) -> list[str]:  # type: ignore[no-untyped-def]
    return [s.target for s in steps if s.rolls()]


def test_the_pair_is_joined_and_its_sum_read_as_one_local(attack):  # type: ignore[no-untyped-def]
    steps, outputs = attack
    steps = tuple(s for s in steps if s.target or s.rolls())  # the notes: the odds form writes none
    joined, _ = joined_sums(steps, outputs, lambda s: True)
    assert _rolls(joined) == ["natural", "__weapon_damage_PLUS_extra_damage"]
    damage = next(s for s in joined if s.target == "damage")
    read = set().union(*(ir.locals_read(e) for e in damage.exprs()))
    assert "__weapon_damage_PLUS_extra_damage" in read and not read & {"weapon_damage", "extra_damage"}


def test_no_join_when_a_roll_is_read_outside_the_sum(attack):  # type: ignore[no-untyped-def]
    steps, outputs = attack
    steps = tuple(s for s in steps if s.target or s.rolls())
    alone = ir.Local(ir.INT, "weapon_damage", "武器伤害骰")
    assert joined_sums(steps, outputs + (alone,), lambda s: True)[0] == steps


def test_no_join_when_a_count_is_checked_per_roll(attack):  # type: ignore[no-untyped-def]
    steps, outputs = attack
    steps = tuple(s for s in steps if s.target or s.rolls())
    assert joined_sums(steps, outputs, lambda s: s.target != "extra_damage")[0] == steps


def test_no_join_when_the_crits_differ_or_the_second_reads_the_first(attack):  # type: ignore[no-untyped-def]
    steps, outputs = attack
    steps = tuple(s for s in steps if s.target or s.rolls())
    i = next(i for i, s in enumerate(steps) if s.target == "extra_damage")
    extra = steps[i]
    no_crit = replace(extra, crit=None)
    assert joined_sums(steps[:i] + (no_crit,) + steps[i + 1:], outputs, lambda s: True)[0][i] == no_crit
    reads = replace(extra, when=replace(extra.when, expr=ir.Compare(
        ir.BOOL, (">",), (ir.Local(ir.INT, "weapon_damage", "武器伤害骰"), ir.Const(ir.INT, 0)))))
    assert joined_sums(steps[:i] + (reads,) + steps[i + 1:], outputs, lambda s: True)[0][i] == reads


# ---- a homebrewer's rolls: ids with `__`, three rolls in a row, a roll whose dice exist only when it happens ----
MINI = SOURCES[1] / "mini"
PARAMS = """    params:
      - {id: attacker, name: 攻击方, type: combatant}
      - {id: defender, name: 防御方, type: combatant}
      - {id: weapon, name: 武器, type: weapons}
      - {id: x, name: 甲数, type: int, min: 0, max: 6, default: 1}
      - {id: y, name: 乙数, type: int, min: 0, max: 6, default: 1}
      - {id: sa, name: 甲面, type: int, min: 1, max: 8, default: 6}
      - {id: need, name: 重击线, type: int, min: 0, max: 6, default: 2}
    steps:
      - {let: dice, name: 掷骰数, value: "max(0, attacker.strength + weapon.damage - defender.defense)"}
      - {pool: hits, name: 检定, dice: dice}
      - {let: crit, name: 重击, value: "hits >= need"}
"""
PROCEDURES = {
    # `a` + `b__c` and `a__b` + `c` once both joined as `__a__b__c`: the second loop shadowed the first
    "collide": """      - {roll: a, name: 甲伤, dice: "dice(x, sa)", crit: crit}
      - {roll: b__c, name: 乙伤, dice: "dice(y, sa)", crit: crit}
      - {roll: a__b, name: 丙伤, dice: "dice(y, sa)", crit: crit}
      - {roll: c, name: 丁伤, dice: "dice(x, sa)", crit: crit}
    result:
      - {id: hit, name: 命中, value: hits > 0}
      - {id: damage, name: 伤害, value: a + b__c}
      - {id: other, name: 其他, value: c + a__b}
""",
    "chain": """      - {roll: a, name: 甲伤, dice: "dice(x, sa)", crit: crit, when: hits > 0}
      - {roll: b, name: 乙伤, dice: "dice(y, sa)", crit: crit}
      - {roll: c, name: 丙伤, dice: "dice(x, sa)", crit: crit, when: hits > need}
    result:
      - {id: hit, name: 命中, value: hits > 0}
      - {id: damage, name: 伤害, value: a + b + c}
""",
    # sums written in any order and grouping, beside other terms
    "spread": """      - {roll: a, name: 甲伤, dice: "dice(x, sa)", crit: crit}
      - {roll: b, name: 乙伤, dice: "dice(y, sa)", crit: crit}
    result:
      - {id: hit, name: 命中, value: hits > 0}
      - {id: damage, name: 伤害, value: "max(0, need + a + y + b)"}
      - {id: other, name: 其他, value: "b + (y + a)"}
""",
    # one of them read twice in a sum: not joined
    "twice": """      - {roll: a, name: 甲伤, dice: "dice(x, sa)", crit: crit}
      - {roll: b, name: 乙伤, dice: "dice(y, sa)", crit: crit}
    result:
      - {id: hit, name: 命中, value: hits > 0}
      - {id: damage, name: 伤害, value: a + b + a}
""",
    # its dice (a negative count) only exist when it happens: no form computes them otherwise
    "single": """      - {roll: b, name: 乙伤, dice: "dice(y - hits, sa)", when: y >= hits}
    result:
      - {id: hit, name: 命中, value: hits > 0}
      - {id: damage, name: 伤害, value: b}
""",
}


@pytest.fixture(scope="module")
def homebrew(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The tests' mini ruleset with the procedures above, built joined (Python and JavaScript) and
    nested (Python), each package imported."""
    root = tmp_path_factory.mktemp("homebrew")
    src = root / "mini"
    shutil.copytree(MINI, src)
    text = "kind: procedures\nprocedures:\n" + "".join(
        f"  - id: {pid}\n    name: 测试{i}\n    summary: {{hit: hit, damage: damage}}\n" + PARAMS + body
        for i, (pid, body) in enumerate(PROCEDURES.items()))
    (src / "extra.yaml").write_text(text, encoding="utf-8")
    out = {"joined": _build([src], root / "joined", joined=True, targets=("python", "js")),
           "nested": _build([src], root / "nested", joined=False)}
    packages = {}
    for side in ("joined", "nested"):
        packages[side] = loader.import_folder("mini", out[side] / "mini")[0]
        loader.forget("mini")
    return packages, out["joined"]


def _homebrew_calls() -> list[tuple[dict[str, int], dict[str, int], str, dict[str, int]]]:
    rng = random.Random(20261207)
    return [({"strength": rng.randint(0, 6)}, {"defense": rng.randint(0, 6)}, rng.choice(["stick", "bow"]),
             {k: rng.randint(lo, hi) for k, lo, hi in (("x", 0, 6), ("y", 0, 6), ("sa", 1, 8), ("need", 0, 6))})
            for _ in range(12)]


@pytest.mark.parametrize("procedure", sorted(PROCEDURES))
def test_a_homebrewers_rolls_give_the_nested_distribution(homebrew, procedure):  # type: ignore[no-untyped-def]
    (packages, _) = homebrew
    m, g = packages["joined"], packages["nested"]
    joins = "_rt_join_dice" in getattr(m.procedures, f"{procedure}_odds").__code__.co_names
    assert joins == (procedure not in ("single", "twice"))
    compared = 0
    for a, d, w, kw in _homebrew_calls():
        joined = _outcome(getattr(m, f"{procedure}_odds"), m.Combatant(**a), m.Combatant(**d), w, **kw)
        nested = _outcome(getattr(g, f"{procedure}_odds"), g.Combatant(**a), g.Combatant(**d), w, **kw)
        if isinstance(nested, type) and nested.__name__ == "LimitExceeded" and not isinstance(joined, type):
            continue  # four rolls nested pass the odds budget; joined, they enumerate far fewer outcomes
        _same(joined, nested)
        compared += 1
    assert compared >= 6
    # the single roll: its odds raise where its traced form does not (they did before)
    if procedure == "single":
        a, d = m.Combatant(strength=6), m.Combatant(defense=0)
        assert m.single(a, d, "stick", y=0, dice=m.FixedDice([4] * 40)).damage == 0  # every die a hit: y < hits
        assert m.single_odds(a, d, "stick", y=0).probability(damage=0) == pytest.approx(1.0)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (CI installs it)")
def test_a_homebrewers_joined_rolls_agree_in_javascript(homebrew):  # type: ignore[no-untyped-def]
    (packages, joined) = homebrew
    m = packages["joined"]
    calls = _homebrew_calls()
    script = ("const m = require(process.argv[1]); const calls = JSON.parse(process.argv[2]); const out = [];\n"
              "for (const [proc, a, d, w, kw] of calls) {\n"
              "  try { const r = m[proc + '_odds'](new m.Combatant(a), new m.Combatant(d), w, kw);\n"
              "        out.push([r.outcomes.map(([k, p]) => [JSON.stringify(k), p]), r.dropped]); }\n"
              "  catch (e) { out.push([e.constructor.name, String(e.message)]); } }\n"
              "console.log(JSON.stringify(out));")
    todo = [[proc, a, d, w, kw] for proc in sorted(PROCEDURES) for a, d, w, kw in calls]
    done = subprocess.run([shutil.which("node"), "-e", script, str(joined / "js" / "mini" / "index.js"),
                           json.dumps(todo)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    for (proc, a, d, w, kw), theirs in zip(todo, json.loads(done.stdout)):
        ours = _outcome(getattr(m, f"{proc}_odds"), m.Combatant(**a), m.Combatant(**d), w, **kw)
        if isinstance(ours, type):
            assert theirs[0] == ours.__name__, (proc, a, d, w, kw, theirs)
            continue
        mine = {json.dumps(list(k), ensure_ascii=False, separators=(",", ":")): p for k, p in ours.outcomes.items()}
        js_outcomes = dict(theirs[0])
        assert mine.keys() == js_outcomes.keys(), (proc, kw)
        for k, p in mine.items():
            assert math.isclose(js_outcomes[k], p, rel_tol=1e-12, abs_tol=1e-15), (proc, kw, k)
