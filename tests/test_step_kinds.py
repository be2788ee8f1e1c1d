"""A step kind is one module (compiler/steps/<kind>.py): every kind is used by some procedure,
nothing outside the kind modules dispatches on a step's class, and a kind whose runtime is not
declared fails the build, not the call (docs/architecture.md: adding a step kind)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulec.emit.js import code as js_code
from rulec.emit.js.resolved import undefined
from rulec.emit.python.resolved import unresolved
from rulec.build.facade import compile_rules
from rulec.steps import KINDS, NODES, kind_for
from every_ruleset import TEST_RULES
from rulec.steps.d20 import D20Kind
from rulec.steps.roll import RollKind

ROOT = Path(__file__).resolve().parent.parent
COMPILER = ROOT / "compiler"

TINY_D20 = {
    "ruleset.yaml": """kind: ruleset
id: tiny_d20
name: 最小d20规则集
version: 0.1.0
dice: {engine: d20, name: d20, layers: stack}
""",
    "stats.yaml": """kind: stats
stats:
  - {id: bonus, name: 加值, group: attribute, min: 0, max: 10, default: 2}
""",
    "rules.yaml": """kind: rule_index
rules:
  - {id: T-01, title: 攻击}
""",
    "attack.yaml": """kind: procedures
procedures:
  - id: attack
    name: 攻击
    rules: [T-01]
    summary: {hit: hit, damage: damage}
    params:
      - {id: attacker, name: 攻击方, type: combatant}
      - {id: advantage, name: 优势, type: int, min: 0, max: 3, default: 0}
      - {id: ac, name: 护甲等级, type: int, min: 1, max: 30, default: 10}
      - {id: sides, name: 伤害骰面数, type: int, min: 1, max: 20, default: 6}
    steps:
      - {d20: face, name: 骰面, advantage: advantage}
      - {roll: damage, name: 伤害, dice: "dice(1, sides)", when: "face + attacker.bonus >= ac"}
    result:
      - {id: hit, name: 命中, value: "face + attacker.bonus >= ac"}
      - {id: damage, name: 伤害, value: damage}
""",
}


def _tiny_d20(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny_d20"
    folder.mkdir()
    for name, text in TINY_D20.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _rule_folders() -> list[Path]:
    """The bundled rules, the tests' own rulesets and every valid ruleset of tests/cases (a new one
    is found here too)."""
    return [ROOT / "rules", TEST_RULES] + sorted(p / "rules" for p in (ROOT / "tests" / "cases").glob("valid_*")
                                     if (p / "rules").is_dir())


def test_every_step_kind_is_used_by_some_bundled_or_test_procedure():
    used: set[str] = set()
    for folder in _rule_folders():
        build = compile_rules([folder], stop_after="lower")
        assert build.ok, (folder, [d.format() for d in build.diagnostics])
        used |= {kind_for(s).key for rs in build.rulesets for p in rs.procedures for s in p.steps}
    assert set(KINDS) - used == set(), "a step kind no procedure uses: give it one in rules/ or tests/cases/"


def test_nothing_outside_the_kind_modules_dispatches_on_a_step_class():
    """The optimiser and emitters ask the kind (kind_for(step).runtime, .value_of, step.exprs() ...)."""
    names = "|".join(node.__name__ for node in NODES)
    pattern = re.compile(rf"isinstance\([^()]*,\s*\(?[^()]*\b({names})\b")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in COMPILER.rglob("*.py")
             if path.parent.name != "steps" for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == []


def test_every_expression_of_a_step_is_in_its_exprs():
    """A d20's net layers (an expression outside its formulas) is among its exprs()."""
    build = compile_rules([ROOT / "rules" / "d20"], stop_after="lower")
    d20 = next(s for rs in build.rulesets for p in rs.procedures for s in p.steps if kind_for(s).key == "d20")
    assert d20.layers in d20.exprs(sentences=False)  # type: ignore[attr-defined]
    assert all(f.expr in d20.exprs() for f in d20.formulas())


def test_the_tiny_d20_ruleset_builds(tmp_path: Path):
    build = compile_rules([_tiny_d20(tmp_path)])
    assert build.ok, [d.format() for d in build.diagnostics]


def test_a_kind_that_forgets_its_python_runtime_fails_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(RollKind, "runtime", ())
    build = compile_rules([_tiny_d20(tmp_path)], memo=None)
    assert not build.ok and build.files == {}
    (diag,) = build.diagnostics
    assert diag.code == "internal" and "_rt_roll_damage" in diag.message and "`runtime`" in diag.message


def test_a_kind_that_forgets_its_js_runtime_file_fails_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The d20 functions moved into a file of their own (d20.js): undeclared, the build fails;
    declared in `runtime_js`, the module carries them."""
    sources = tmp_path / "js"
    shutil.copytree(js_code._SOURCES, sources)
    runtime = (sources / "engines.js").read_text(encoding="utf-8")
    start = runtime.index("function _rt_d20_natural(")
    end = runtime.index("\n}\n", start) + 3
    (sources / "engines.js").write_text(runtime[:start] + runtime[end:], encoding="utf-8")
    (sources / "d20.js").write_text(runtime[start:end], encoding="utf-8")
    monkeypatch.setattr(js_code, "_SOURCES", sources)
    rules = _tiny_d20(tmp_path)
    build = compile_rules([rules], targets=("js",))
    assert not build.ok
    (diag,) = build.diagnostics
    assert diag.code == "internal" and "_rt_d20_natural" in diag.message and "`runtime_js`" in diag.message
    monkeypatch.setattr(D20Kind, "runtime_js", ("d20.js",))
    build = compile_rules([rules], targets=("js",))
    assert build.ok, [d.format() for d in build.diagnostics]
    assert "function _rt_d20_natural(" in build.files["js/tiny_d20/index.js"].decode()


def test_unresolved_python_names_are_found_by_scope():
    text = ("from os import path\nX = 1\n\ndef f(a):\n    y = [z for z in a if z]\n    return path, X, y, len(a), "
            "_rt_missing(a)\n\nclass C:\n    q = X\n    r = q + nope\n")
    assert unresolved(text, "m.py") == [("_rt_missing", 6), ("nope", 10)]
    assert unresolved("def f():\n    return aiter(x)\n", "m.py") == [("aiter", 2), ("x", 2)]  # not in 3.8


def test_undefined_js_runtime_names_skip_strings_and_comments():
    runtime = "function _rt_a(x) {\n  return x;\n}\nconst _rt_b = 1;\n"
    generated = ("const v = _rt_a(1) + _rt_b;  // _rt_in_comment\nconst s = '_rt_in_string' + \"_rt_too\";\n"
                 "o._rt_property; _rt_c(v);\n")
    assert undefined(generated, runtime) == ["_rt_c"]
