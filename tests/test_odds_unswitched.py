"""The odds form's unswitched variant (optimise/unswitch.py) gives the general body's distribution,
bit for bit: every ruleset is compiled a second time with no variant, and every odds function of
both packages is called on the same random inputs (mostly the defaults, under which the variant's
guard holds), their outcomes compared with `==`."""

from __future__ import annotations

import ast
import inspect
import random
import sys

import pytest

from every_ruleset import RULESETS, SOURCES, slow_for
from rulec.build.facade import compile_rules
from rulec.build.stamp import STAMP, stamp_bytes
from rulec.build.write import write_tree
from rulec.emit.python import loader
from test_forms_agree import _outcome, _random_call


@pytest.fixture(scope="module")
def general(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Every ruleset's package built without the odds variant, imported under the private name."""
    out = tmp_path_factory.mktemp("general")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("rulec.optimise.plan.unswitched", lambda body, p: None)
        result = compile_rules(SOURCES, targets=("python",))
    assert result.ok
    write_tree(out, {**result.files, STAMP: stamp_bytes("", result.files)})
    packages = {rid: loader.import_folder(rid, out / rid)[0] for rid in RULESETS}
    yield packages
    for rid in RULESETS:
        loader.forget(rid)


def test_some_odds_function_has_a_variant(package):  # type: ignore[no-untyped-def]
    """The comparison below is not vacuous: dp's called-shot contest, d20's sneak dice and a
    helpless defender's roll are each folded away by a variant."""
    sources = {rid: package(rid).procedures.__loader__.get_source(package(rid).procedures.__name__)
               for rid in RULESETS}
    assert "if not _contested:" in sources["dp"]
    assert "if not _sneak_dice_gt_0:" in sources["d20"]


def _variants(module) -> dict[int, str]:  # type: ignore[no-untyped-def]
    """The first line of each unswitched variant's body in a package's procedures module (an `if`
    at the top of an odds function whose body returns the distribution), by line: its function."""
    source = inspect.getsource(module)
    out = {}
    for fn in ast.parse(source).body:
        if isinstance(fn, ast.FunctionDef) and fn.name.endswith("_odds"):
            for node in fn.body:
                if isinstance(node, ast.If) and ast.unparse(node.body[-1]).startswith("return _odds.build("):
                    out[node.body[0].lineno] = fn.name
    return out


def _calls(m, info, rng):  # type: ignore[no-untyped-def]
    """Random calls (test_forms_agree's), then one at the defaults with each of a few entries."""
    for _ in range(60):
        yield _random_call(m, info, rng)
    entity = [(pid, t) for pid, _n, t in info["params"] if t not in ("int", "bool", "combatant")]
    combatants = [m.Combatant() for pid, _n, t in info["params"] if t == "combatant"]
    for pid, t in entity[:1]:
        for entry in list(getattr(m, t.upper()).values())[:8]:
            yield combatants, {pid: entry}
    if not entity:
        yield combatants, {}


# dp's and d20's (4 s on 2 cores) run in the slow job, tracks' and mini's in the fast one.
@pytest.mark.parametrize("ruleset", slow_for(RULESETS, "dp", "d20"))
def test_the_variant_gives_the_general_distribution_exactly(ruleset, package, general):  # type: ignore[no-untyped-def]
    m, g = package(ruleset), general[ruleset]
    rng = random.Random(20261206)
    fields = m.Combatant.__dataclass_fields__
    variants = _variants(m.procedures)
    ran: set[int] = set()
    path = inspect.getsourcefile(m.procedures)

    def trace(frame, event, arg):  # type: ignore[no-untyped-def]
        if frame.f_code.co_filename == path and frame.f_code.co_name.endswith("_odds"):
            if event == "line" and frame.f_lineno in variants:
                ran.add(frame.f_lineno)
            return trace
        return None

    for proc, info in m.PROCEDURE_INFO.items():
        entity_ids = {pid for pid, _n, t in info["params"] if t not in ("int", "bool", "combatant")}
        for args, kwargs in _calls(m, info, rng):
            sys.settrace(trace)
            try:
                ours = _outcome(getattr(m, f"{proc}_odds"), *args, **kwargs)
            finally:
                sys.settrace(None)
            same = [g.Combatant(**{f: getattr(a, f) for f in fields}) for a in args]  # all combatants
            by_id = {k: (v.id if k in entity_ids else v) for k, v in kwargs.items()}
            theirs = _outcome(getattr(g, f"{proc}_odds"), *same, **by_id)
            if isinstance(ours, type):
                assert isinstance(theirs, type) and ours.__name__ == theirs.__name__, (proc, args, kwargs)
            else:
                assert ours.fields == theirs.fields and ours.outcomes == theirs.outcomes, (proc, args, kwargs)
    common = {"dp": "attack_odds", "d20": "attack_odds"}.get(ruleset)  # the variants of the common call
    assert common is None or common in {variants[line] for line in ran}, (ruleset, sorted(variants.values()))


def test_a_deciding_constant_decides_an_and_of_true_false_names() -> None:
    """`b and False` folds to False (and `b or True` to True) when each `b` is a true/false name;
    an operand of another type is kept, for `x and False` is `x` when `x` is 0."""
    from rulec.ir import expr as ir
    from rulec.optimise.fold import Known, fold

    b, n = ir.Local(ir.BOOL, "b", "b"), ir.Local(ir.INT, "n", "n")
    off, on = ir.Const(ir.BOOL, False), ir.Const(ir.BOOL, True)
    assert fold(ir.BoolOp(ir.BOOL, "and", (b, off)), Known({})) == off
    assert fold(ir.BoolOp(ir.BOOL, "or", (b, on)), Known({})) == on
    assert fold(ir.BoolOp(ir.INT, "and", (n, off)), Known({})) == ir.BoolOp(ir.INT, "and", (n, off))
