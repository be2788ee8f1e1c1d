"""The odds form's joined rolls (optimise/fuse.py): two damage rolls read only as their sum are
enumerated as one roll of all their dice. Every ruleset is compiled a second time without joining,
and the odds functions of both packages are compared outcome by outcome (the same outcomes; the
probabilities equal up to rounding, since the joined distribution adds the same products in
another order). The pass's conditions are checked on d20's attack, whose weapon dice and extra
dice (额外伤害骰) are the bundled rules' one joined pair."""

from __future__ import annotations

import math
import random

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


@pytest.fixture(scope="module")
def unjoined(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Every ruleset's package built without joining, imported under the private name."""
    out = tmp_path_factory.mktemp("unjoined")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("rulec.emit.python.many_rolls.joined_sums", lambda steps, outputs, in_setup: (steps, outputs))
        result = compile_rules(SOURCES, targets=("python",))
    assert result.ok
    write_tree(out, {**result.files, STAMP: stamp_bytes("", result.files)})
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
    assert _rolls(joined) == ["natural", "__weapon_damage__extra_damage"]
    damage = next(s for s in joined if s.target == "damage")
    read = set().union(*(ir.locals_read(e) for e in damage.exprs()))
    assert "__weapon_damage__extra_damage" in read and not read & {"weapon_damage", "extra_damage"}


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
