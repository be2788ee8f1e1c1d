"""Bounded work (issue: safe by construction): every quantity that drives work is proven within
its limit at build time (interval analysis, validate/bounds.py), and checked again when it runs."""

from __future__ import annotations

import ast
import re
import shutil
import sys
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules
from rulec.ir import expr as ir
from rulec.validate.bounds import check_bounds
from rulec.validate.evaluator import Evaluator
from rulec.validate.intervals import Interval

from every_ruleset import RULESETS, SOURCES

ROOT = Path(__file__).resolve().parent.parent


def diagnostics(*paths: Path) -> list[str]:
    build = compile_rules(list(paths), stop_after="lower")
    return [d.format() for d in build.diagnostics]


def test_every_quantity_of_every_ruleset_is_proven_within_its_limit() -> None:
    build = compile_rules(SOURCES, stop_after="lower")
    assert build.ok and tuple(sorted(rs.id for rs in build.rulesets)) == RULESETS
    assert all(check_bounds(rs) == [] for rs in build.rulesets)


def test_a_pack_pool_formula_that_can_reach_thousands_of_dice_is_a_diagnostic(tmp_path: Path) -> None:
    pack = tmp_path / "evil"
    pack.mkdir()
    (pack / "pack.yaml").write_text("kind: pack\nid: evil\nname: 恶意扩展\nextends: dp\n", encoding="utf-8")
    (pack / "types.yaml").write_text(
        "kind: table\ntable: attack_types\nentries:\n"
        "  - {id: melee, name: 白刃, pool: 武器.武器伤害 * 330, action: standard, default_damage_type: lethal,"
        " override: true}\n", encoding="utf-8")
    found = diagnostics(ROOT / "rules" / "dp", pack)
    assert len(found) == 1, found  # once, at the pack's formula, not at every procedure that reads it
    assert "types.yaml:4:33: error[unbounded-work]: this formula of attack_types 'melee' can reach 2640; " \
           "this pool of procedure 'attack'" in found[0] and "the limit is 300" in found[0]


@pytest.fixture()
def d20_copy(tmp_path: Path) -> Path:
    target = tmp_path / "d20"
    shutil.copytree(ROOT / "rules" / "d20", target)
    return target


def test_a_literal_billion_advantage_layers_is_a_diagnostic_at_its_formula(d20_copy: Path) -> None:
    contests = d20_copy / "procedures" / "contests.yaml"
    text = contests.read_text(encoding="utf-8")
    contests.write_text(text.replace('advantage: "max(0, attacker.size - target.size)"', 'advantage: "1000000000", '
                                     "definitional: [{value: 1000000000, text: 测试}]", 1), encoding="utf-8")
    line = next(i for i, x in enumerate(contests.read_text(encoding="utf-8").splitlines(), 1) if "1000000000" in x)
    found = diagnostics(d20_copy)
    assert any(f"contests.yaml:{line}:" in d and "advantage layers can reach 1000000000 layers; the limit is 20" in d
               for d in found), found


def test_a_parameter_without_a_small_max_is_named_by_the_reach(d20_copy: Path) -> None:
    attack = d20_copy / "procedures" / "attack.yaml"
    text = attack.read_text(encoding="utf-8")
    attack.write_text(text.replace("{id: extra_advantage, name: 其他优势层数, type: int, min: 0, max: 10,",
                                   "{id: extra_advantage, name: 其他优势层数, type: int, min: 0, max: 100000,"),
                      encoding="utf-8")
    found = diagnostics(d20_copy)
    assert any("error[unbounded-work]" in d and "can reach 100002 layers" in d for d in found), found


def test_a_raised_limit_is_capped_by_the_schema(tmp_path: Path) -> None:
    target = tmp_path / "dp"
    shutil.copytree(ROOT / "rules" / "dp", target)
    manifest = target / "ruleset.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("pool_dice: 300", "pool_dice: 100000"),
                        encoding="utf-8")
    found = diagnostics(target)
    assert any("ruleset.yaml:" in d and "100000" in d for d in found), found


# ---- the interval evaluator ----

def _ev() -> Evaluator:
    build = compile_rules([ROOT / "rules" / "tracks"], stop_after="lower")
    ev = Evaluator(build.rulesets[0])
    ev.env = {"distance": Interval(0, 100000), "range": Interval(0, 300)}
    return ev


def test_a_condition_narrows_its_branches() -> None:
    """`floor((distance - range) / range) if range > 0 and distance > range else 0` is never negative."""
    ev = _ev()
    d, r = ir.Param(ir.INT, "distance", ""), ir.Param(ir.INT, "range", "")
    zero = ir.Const(ir.INT, 0)
    test = ir.BoolOp(ir.BOOL, "and", (ir.Compare(ir.BOOL, (">",), (r, zero)), ir.Compare(ir.BOOL, (">",), (d, r))))
    increments = ir.Cond(ir.INT, test, ir.Div(ir.INT, "floor", ir.Binary(ir.INT, "-", d, r), r), zero)
    assert ev.num(increments) == Interval(0, 99999)
    assert ev.num(ir.Binary(ir.INT, "-", d, r)) == Interval(-300, 100000)  # outside the branch: unknown order


def test_arithmetic_is_sound_at_the_corners() -> None:
    ev = _ev()
    d, r = ir.Param(ir.INT, "distance", ""), ir.Param(ir.INT, "range", "")
    assert ev.num(ir.Binary(ir.INT, "*", ir.Unary(ir.INT, "-", d), r)) == Interval(-30_000_000, 0)
    assert ev.num(ir.Call(ir.INT, "max", (ir.Binary(ir.INT, "-", r, d), ir.Const(ir.INT, 0)))) == Interval(0, 300)
    assert ev.num(ir.Div(ir.INT, "ceil", d, ir.Const(ir.INT, 7))) == Interval(0, 14286)


# ---- the same limits when the generated code runs ----

def test_an_entry_a_program_builds_itself_is_checked_when_it_runs(dp, d20) -> None:  # type: ignore[no-untyped-def]
    huge = dp.get_weapon("long_sword")._replace(damage=10_000)
    fighter, target = dp.Combatant(strength=5, martial=8, specialty=7), dp.Combatant()
    for call in (lambda: dp.attack(fighter, target, huge), lambda: dp.attack_fast(fighter, target, huge, dice=dp.SeededDice(1)),
                 lambda: dp.attack_prepare(fighter, target, huge), lambda: dp.attack_odds(fighter, target, huge)):
        with pytest.raises(dp.LimitExceeded, match="骰池骰子数.*超过规则集的上限300"):
            call()
    many = d20.get_weapon("longsword")._replace(damage_dice=d20.DiceValue("500d8", ((500, 8),), 0))
    with pytest.raises(d20.LimitExceeded, match="伤害骰数1000，超过规则集的上限200"):
        d20.attack(d20.Combatant(strength=16), d20.Combatant(armor_class=1), many)
    assert issubclass(dp.LimitExceeded, dp.RuleError)


def test_an_odds_enumeration_too_big_to_finish_raises_instead_of_hanging(dp) -> None:  # type: ignore[no-untyped-def]
    """Four blockers at the top of every range: five nested pools of 90 dice (about 10^9 branches)."""
    top = dp.Combatant(strength=30, dexterity=30, martial=30, athletics=30, specialty=30, balance=30)
    with pytest.raises(dp.LimitExceeded, match="odds_branches"):
        dp.overrun_odds(top, top, blockers=4)
    assert dp.overrun_odds(dp.Combatant(), dp.Combatant(), blockers=4).probability(success=True) > 0


_CHARGED = re.compile(r"^(?:\(.*? \? )?_odds\.(?:outcomes|each)\(")  # Python `x if c else ZERO`, JS `(c ? x : ZERO)`


def _odds_loops(built: Path, ruleset: str) -> tuple[list[str], list[str]]:
    """What every loop of every generated odds function enumerates, in Python and in JS."""
    loops: list[str] = []
    js_loops: list[str] = []
    tree = ast.parse((built / ruleset / f"rulec_{ruleset}" / "procedures.py").read_text(encoding="utf-8"))
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name.endswith("_odds"):
            loops += [ast.unparse(n.iter) for n in ast.walk(fn) if isinstance(n, (ast.For, ast.comprehension))]
    module = (built / "js" / ruleset / "index.js").read_text(encoding="utf-8")
    for body in re.findall(r"\nfunction \w+_odds\(.*?\n}\n", module, re.S):
        if "new OddsBuilder(" not in body:
            continue  # the fight's, over a procedure's odds
        js_loops += [re.sub(r"\s+", " ", re.sub(r"\(\s+", "(", body[m.end():m.end() + 300]))
                     for m in re.finditer(r"for \(const \w+ of ", body)]  # a line the writer wrapped, joined
    return loops, js_loops


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_loop_of_an_odds_function_is_charged_to_the_budget_as_it_opens(built: Path, ruleset: str) -> None:
    """The odds budget bounds the work by construction: each loop over a roll's distribution goes
    through the builder (`outcomes`, `each`), which charges its outcomes before the first one, so
    the outcome added in the innermost body needs no charge of its own."""
    loops, js_loops = _odds_loops(built, ruleset)
    assert loops and js_loops and len(loops) >= len(js_loops)  # Python's also has its unswitched variants
    for source in loops + js_loops:
        assert _CHARGED.match(source), source


def test_the_budget_is_charged_before_the_work(dp) -> None:  # type: ignore[no-untyped-def]
    odds = sys.modules["rulec_dp._runtime.odds"]
    builder = odds.OddsBuilder(("x",), budget=10)
    with pytest.raises(dp.LimitExceeded, match="odds_branches"):
        builder.outcomes(1.0, odds.pool_distribution(50, 10, 8, 10))
    builder = odds.OddsBuilder(("x",), budget=10)
    assert builder.each(((1, 0.5), (2, 0.5))) and builder.left == 8
    with pytest.raises(dp.LimitExceeded):
        builder.each(tuple((i, 0.1) for i in range(9)))

def test_initiative_entries_are_bounded(tracks) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(tracks.OutOfBounds):
        tracks.initiative_order([("甲", 10**9, 0)])
    with pytest.raises(tracks.LimitExceeded):
        tracks.initiative_order([(f"乙{i}", 1, 0) for i in range(1001)])
    with pytest.raises(tracks.RuleError):
        tracks.initiative_order([("丙", "5", 0)])  # type: ignore[list-item]


# ---- until and until_state: bounded by their declared work limit ----

def chain_lines(call) -> int:  # type: ignore[no-untyped-def]
    """Lines run in the chain's module (runtime/fight_odds.py) by `call`, which may be refused
    (OutOfBounds): millions for a chain at the limits. Counted, not timed: a loaded machine slows a
    refusal too."""
    from rulec.runtime.core import OutOfBounds

    count = 0

    def line(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal count
        if frame.f_code.co_filename.endswith("fight_odds.py"):
            count += event == "line"
            return line
        return None
    sys.settrace(line)
    try:
        call()
    except OutOfBounds:
        pass
    except Exception as exc:  # a package's own OutOfBounds (each package has its runtime)
        if type(exc).__name__ != "OutOfBounds":
            raise
    finally:
        sys.settrace(None)
    return count


def test_until_work_is_refused_before_it_starts_past_its_declared_limit(dp, tracks) -> None:  # type: ignore[no-untyped-def]
    """`until` checks threshold, max_attacks and the chain's work (MAX_CHAIN_WORK, about half a
    second at most: `python -m bench --only worst` has the rows) before it computes the chain: past
    the threshold or attack limits no odds function runs either (what an allowed call runs, below).
    Counted, not timed: a loaded machine slows a refusal too."""
    from rulec.runtime.core import OutOfBounds
    from rulec.runtime.fight_odds import MAX_ATTACKS, MAX_CHAIN_WORK, MAX_THRESHOLD, attacks_until

    def work_done(call) -> list[str]:  # type: ignore[no-untyped-def]
        ran: list[str] = []

        def seen(frame, event, arg):  # type: ignore[no-untyped-def]
            name = frame.f_code.co_name
            if event == "call" and (name.endswith("_odds") and name != "sequence_odds"  # it checks first
                                    or name in ("attacks_until", "until_plan")):
                ran.append(name)
        sys.setprofile(seen)
        try:
            call()
        except dp.OutOfBounds:
            pass
        finally:
            sys.setprofile(None)
        return ran

    fighter, target = dp.Combatant(strength=5, martial=8, specialty=7), dp.Combatant()
    assert work_done(lambda: dp.until("attack", "damage", 3, fighter, target, "长剑", max_attacks=5))
    for threshold, attacks in ((MAX_THRESHOLD + 1, 1), (1, MAX_ATTACKS + 1), (0, 1)):
        with pytest.raises(dp.OutOfBounds):
            dp.until("attack", "damage", threshold, fighter, target, "长剑", max_attacks=attacks)
        assert work_done(lambda t=threshold, n=attacks: dp.until("attack", "damage", t, fighter, target, "长剑",
                                                                 max_attacks=n)) == []
    # the chain's work is known once the action's odds are: refused before the chain's first step
    with pytest.raises(dp.OutOfBounds):
        dp.until("attack", "damage", MAX_THRESHOLD, fighter, target, "长剑", max_attacks=MAX_ATTACKS)
    refused = chain_lines(lambda: dp.until("attack", "damage", MAX_THRESHOLD, fighter, target, "长剑",
                                           max_attacks=MAX_ATTACKS))
    allowed = chain_lines(lambda: dp.until("attack", "damage", 40, fighter, target, "长剑", max_attacks=40))
    assert refused < 2000 < allowed, (refused, allowed)
    with pytest.raises(dp.OutOfBounds):
        dp.until("no_such_procedure", "damage", 10, fighter, target, "长剑")
    with pytest.raises(dp.OutOfBounds):
        dp.until("attack", "no_such_field", 10, fighter, target, "长剑")
    with pytest.raises(OutOfBounds):
        attacks_until({0: 0.5, 1: 0.5}, MAX_CHAIN_WORK // 2, 200)
    fight = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant()})
    with pytest.raises(tracks.OutOfBounds):
        fight.until_state("attack", {"attacker": "甲", "defender": "乙"}, "defender", "dizzy",
                          max_attacks=MAX_ATTACKS + 1, weapon="fist", part="jaw")


def test_a_chain_that_can_never_grow_ends_at_once() -> None:
    """Nothing added on any action (a target that can never be hit): all tail, no stepping."""
    from rulec.runtime.fight_odds import MAX_ATTACKS, attacks_until

    odds = attacks_until({0: 1.0}, 150, MAX_ATTACKS)
    assert odds.tail == 1.0 and len(odds.probabilities) == MAX_ATTACKS
    assert chain_lines(lambda: attacks_until({0: 1.0}, 150, MAX_ATTACKS)) < 200 < MAX_ATTACKS


def test_the_chain_at_its_work_limit_agrees_with_the_mean_solve() -> None:
    from rulec.runtime.fight_odds import MAX_ATTACKS, MAX_CHAIN_WORK, attacks_until, expected_attacks

    marginal = {0: 0.9, 1: 0.05, 3: 0.05}
    threshold = MAX_CHAIN_WORK // (3 * MAX_ATTACKS) - 16
    chain = attacks_until(marginal, threshold, MAX_ATTACKS)
    assert chain.tail < 1e-12
    assert abs(chain.expected - (expected_attacks(marginal, threshold) or 0)) < 1e-9


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
