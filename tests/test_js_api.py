"""The JavaScript API does not surprise a JavaScript developer, and says what Python says (issue 31):

* "did you mean" suggestions are difflib.get_close_matches' own (the same SequenceMatcher ratio and
  the same tie order), for misspelt keys of every table of every bundled ruleset;
* refusals give the Python package's message word for word, with no Python words in it (None,
  True, NoneType…), a quote inside a string shown the same;
* dice faces are checked in both languages (an integer in 1..sides, else BadFace);
* tables cannot be changed by one importer under another;
* errors keep `code` and `message` through JSON.stringify, and toJSON is toDict;
* a seed of any size (BigInt or decimal digits) gives Python's faces;
* package.json exports ./package.json, and a CommonJS program reaches the module (dynamic import).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from every_ruleset import RULESETS

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")
PYTHON_WORDS = ("None", "NoneType", "True", "False", "int", "str", "float", "bool", "dict", "list")


def run_js(module: Path, cases: list[str]) -> list[dict[str, Any]]:
    request = json.dumps({"module": str(module), "cases": cases}, ensure_ascii=False)
    assert NODE is not None
    done = subprocess.run([NODE, str(ROOT / "tests" / "js" / "eval.mjs")], input=request, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out: list[dict[str, Any]] = json.loads(done.stdout)
    assert len(out) == len(cases)
    return out


def py_outcome(m: Any, call: Any) -> dict[str, Any]:
    try:
        value = call()
    except m.RuleError as exc:
        return {"error": exc.code, "message": exc.message}
    return {"value": value}


def _misspelt(rng: random.Random, words: list[str]) -> str:
    word = rng.choice(words)
    pool = "".join(words)
    chars = list(word)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        at = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(at, len(chars) - 1)]
        elif op == 1:
            chars.insert(at, rng.choice(pool))
        elif op == 2 and chars:
            chars[min(at, len(chars) - 1)] = rng.choice(pool)
        elif len(chars) > 1:
            i = rng.randrange(len(chars) - 1)
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
    return "".join(chars) or "x"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_did_you_mean_is_difflib(ruleset: str, request: pytest.FixtureRequest) -> None:
    """Misspelt ids and Chinese names of every table: the same suggestion (or none) as difflib."""
    m = request.getfixturevalue("package")(ruleset)
    built = request.getfixturevalue("built")
    rng = random.Random(f"difflib-{ruleset}")
    cases: list[str] = []
    expect: list[dict[str, Any]] = []
    getters = sorted(n for n in dir(m) if n.startswith("get_") and callable(getattr(m, n)))
    assert getters
    for getter in getters:
        table = next(t for t in (getattr(m, n) for n in dir(m) if n.isupper())
                     if isinstance(t, dict) and t and getter == "get_" + _snake(type(next(iter(t.values())))))
        words = list(table) + [e.name for e in table.values()]
        keys = [_misspelt(rng, words) for _ in range(30)] + ["", "a", "ab", "武", "的", "x" * 210, words[0] * 3]
        for key in keys:
            cases.append(f"m.{getter}({json.dumps(key, ensure_ascii=False)}).id")
            expect.append(py_outcome(m, lambda key=key, getter=getter: getattr(m, getter)(key).id))
    got = run_js(built / "js" / ruleset / "index.js", cases)
    hints = 0
    for case, js, py in zip(cases, got, expect):
        assert js == py, case
        hints += "是否想找" in py.get("message", "")
    assert hints > min(20, len(cases) // 3), hints  # a ruleset of one small table offers fewer


def _snake(cls: type) -> str:
    name = cls.__name__
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(name))


BAD_VALUES: list[Any] = [True, False, None, "it's", 'say "hi"', "十" * 25, 2.5, [1], {"a": 1}, -1, 10**6]


def test_refusals_read_as_pythons_without_python_words(d20: Any, built: Path) -> None:
    cases: list[str] = []
    expect: list[dict[str, Any]] = []
    for value in BAD_VALUES:
        text = json.dumps(value, ensure_ascii=False)
        cases.append(f"new m.Combatant({{strength: {text}}}).strength")
        expect.append(py_outcome(d20, lambda v=value: d20.Combatant(strength=v).strength))
        if not isinstance(value, dict):
            cases.append(f"m.Combatant.fromDict({text}).strength")
            expect.append(py_outcome(d20, lambda v=value: d20.Combatant.from_dict(v).strength))
        cases.append(f"m.get_weapon({text}).id")
        expect.append(py_outcome(d20, lambda v=value: d20.get_weapon(v).id))
        cases.append(f"m.attack(new m.Combatant(), new m.Combatant(), 'longsword', {{proficient: {text}, dice: new m.SeededDice(1)}}).hit")
        expect.append(py_outcome(d20, lambda v=value: d20.attack(d20.Combatant(), d20.Combatant(), "longsword",
                                                                  proficient=v, dice=d20.SeededDice(1)).hit))
    got = run_js(built / "js" / "d20" / "index.js", cases)
    for case, js, py in zip(cases, got, expect):
        assert js == py, case
        for word in PYTHON_WORDS:
            assert word not in js.get("message", "").replace("longsword", ""), (case, js)
    assert sum("error" in e for e in expect) >= 20


FACES: list[Any] = [0, 21, 2.5, "7", None, True, -3, [4]]


def test_faces_are_checked_in_both_languages(d20: Any, built: Path) -> None:
    """A face outside 1..sides, or not an integer, is BadFace from FixedDice and from a source of
    the caller's own, with the same message in both languages; a good face is used."""
    cases: list[str] = []
    expect: list[dict[str, Any]] = []
    call = "m.attack(new m.Combatant(), new m.Combatant(), 'longsword', {{dice: {}}}).hit"
    for face in FACES + [20]:
        text = json.dumps(face)
        cases.append(call.format(f"new m.FixedDice([{text}, 4, 4, 4])"))
        expect.append(py_outcome(d20, lambda f=face: d20.attack(d20.Combatant(), d20.Combatant(), "longsword",
                                                                dice=d20.FixedDice([f, 4, 4, 4])).hit))

        class Source:
            def __init__(self, f: Any) -> None:
                self.faces = [f, 4, 4, 4]

            def die(self, sides: int) -> Any:
                return self.faces.pop(0)

        cases.append(call.format(f"{{die: (() => {{ const f = [{text}, 4, 4, 4]; return () => f.shift(); }})()}}"))
        expect.append(py_outcome(d20, lambda f=face: d20.attack(d20.Combatant(), d20.Combatant(), "longsword",
                                                                dice=Source(f)).hit))
    got = run_js(built / "js" / "d20" / "index.js", cases)
    for case, js, py in zip(cases, got, expect):
        assert js == py, case
    assert [e.get("error") for e in expect[:-2]] == ["bad-face"] * (len(expect) - 2)
    assert "value" in expect[-1] and "value" in expect[-2]


def test_tables_cannot_be_changed_by_an_importer(built: Path) -> None:
    cases = [
        "(() => { try { m.WEAPONS.delete('longsword'); } catch (e) { return e.name; } return 'deleted'; })()",
        "(() => { try { m.WEAPONS.set('x', 1); } catch (e) { return e.name; } return 'set'; })()",
        "(() => { try { m.WEAPONS.clear(); } catch (e) { return e.name; } return 'cleared'; })()",
        "(() => { try { Map.prototype.set.call(m.WEAPONS, 'x', 1); } catch (e) { return e.name; } return 'set'; })()",
        "(() => { try { Map.prototype.clear.call(m.WEAPONS); } catch (e) { return e.name; } return 'cleared'; })()",
        "(() => { 'use strict'; try { m.WEAPONS.get = () => 1; } catch (e) { return e.name; } return 'replaced'; })()",
        "(() => { 'use strict'; try { Object.getPrototypeOf(m.WEAPONS).get = () => 1; } catch (e) { return e.name; } return 'x'; })()",
        "[m.WEAPONS.size, m.WEAPONS.has('longsword'), m.get_weapon('长剑').id, Array.from(m.WEAPONS).length]",
        "[...m.WEAPONS.keys()].length === m.WEAPONS.size && m.shown('longsword', m.WEAPONS) === '长剑'",
    ]
    got = run_js(built / "js" / "d20" / "index.js", cases)
    assert [g["value"] for g in got[:7]] == ["TypeError"] * 7, got
    assert got[7]["value"][1:] == [True, "longsword", got[7]["value"][0]] and got[8]["value"] is True


def test_errors_survive_json_and_to_json_is_to_dict(d20: Any, built: Path) -> None:
    catch = "(() => {{ try {{ {} }} catch (e) {{ return [JSON.parse(JSON.stringify(e)), Object.keys(e), e.code, " \
            "e instanceof m.UnknownEntry, e instanceof Error, e.name, JSON.stringify(e.toDict()) === " \
            "JSON.stringify(e)]; }} }})()"
    got = run_js(built / "js" / "d20" / "index.js", [
        catch.format("m.get_weapon('longswrd');"),
        "(() => { const r = m.attack(new m.Combatant(), new m.Combatant(), 'longsword', {dice: new m.SeededDice(3)});"
        " return [JSON.parse(JSON.stringify(r)), r.toDict()]; })()",
        "(() => { const o = m.attack_odds(new m.Combatant(), new m.Combatant(), 'longsword');"
        " return JSON.stringify(o) === JSON.stringify(o.toDict()); })()",
        "[JSON.parse(JSON.stringify(new m.Combatant({strength: 14}))), JSON.parse(JSON.stringify(m.get_weapon('长剑')))]",
    ])
    as_json, keys, code, is_entry, is_error, name, same = got[0]["value"]
    with pytest.raises(d20.UnknownEntry) as caught:
        d20.get_weapon("longswrd")
    assert as_json == caught.value.to_dict() and code == "unknown-entry" == caught.value.code
    assert {"code", "message", "details"} <= set(keys) and is_entry and is_error and name == "UnknownEntry" and same
    assert got[1]["value"][0] == got[1]["value"][1]
    assert got[1]["value"][0] == d20.attack(d20.Combatant(), d20.Combatant(), "longsword", dice=d20.SeededDice(3)).to_dict()
    assert got[2]["value"] is True
    assert got[3]["value"] == [d20.Combatant(strength=14).to_dict(), d20.get_weapon("长剑").to_dict()]


SEEDS = [0, 1, -7, 2**32, 2**53 + 1, 2**64 - 1, 10**30 + 12345, -(10**40), 863_713_211_934_855_000, 2**200 + 3]


def test_seeds_of_any_size_give_pythons_faces(d20: Any, built: Path) -> None:
    cases = []
    expect = []
    for seed in SEEDS:
        forms = [f"{seed}n", json.dumps(str(seed))] + ([str(seed)] if abs(seed) <= 2**53 - 1 else [])
        for form in forms:
            cases.append(f"(() => {{ const d = new m.SeededDice({form}); return Array.from({{length: 12}}, (_, i) => "
                         f"d.die([20, 6, 100, 8][i % 4])); }})()")
            dice = d20.SeededDice(seed)
            expect.append({"value": [dice.die([20, 6, 100, 8][i % 4]) for i in range(12)]})
    cases += ["new m.SeededDice(2 ** 60)", "new m.SeededDice('12a')", "new m.SeededDice(1.5)", "new m.SeededDice(true)"]
    got = run_js(built / "js" / "d20" / "index.js", cases)
    assert got[:len(expect)] == expect
    for g in got[len(expect):]:
        assert g.get("error") == "out-of-bounds", g
        assert "BigInt" in g["message"]


def test_commonjs_programs_and_the_package_json_export(built: Path, tmp_path: Path) -> None:
    """`require('rulec-d20/package.json')` works, and a CommonJS program on Node gets the module
    with `await import('rulec-d20')` as docs/javascript.md says."""
    package = json.loads((built / "js" / "d20" / "package.json").read_text(encoding="utf-8"))
    assert package["exports"]["./package.json"] == "./package.json"
    shutil.copytree(built / "js" / "d20", tmp_path / "node_modules" / "rulec-d20")
    program = tmp_path / "main.cjs"
    program.write_text("const pkg = require('rulec-d20/package.json');\n"
                       "import('rulec-d20').then(m => {\n"
                       "  const r = m.attack(new m.Combatant(), new m.Combatant(), '长剑', {dice: new m.SeededDice(1)});\n"
                       "  console.log(JSON.stringify([pkg.version, m.VERSION, r.hit]));\n"
                       "});\n", encoding="utf-8")
    assert NODE is not None
    done = subprocess.run([NODE, str(program)], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    version, module_version, hit = json.loads(done.stdout)
    assert version == module_version and isinstance(hit, bool)


def test_a_seed_as_its_digits_seeds_as_the_number_and_junk_is_refused(d20: Any) -> None:
    """Python's SeededDice reads a seed's decimal digits as the JavaScript twin does (a chat id);
    any other seed, a die of no sides and fixed faces that are no list (or too many) are the
    package's own errors, before any work."""
    for seed in SEEDS:
        a, b = d20.SeededDice(seed), d20.SeededDice(str(seed))
        assert [a.die(20) for _ in range(8)] == [b.die(20) for _ in range(8)]
    for junk in (1.5, True, "12a", b"1", [1], {}, "9" * 4001, 10 ** 4000):
        with pytest.raises(d20.OutOfBounds):
            d20.SeededDice(junk)
    for sides in (0, -5, 1.5, None, "6", True, 10 ** 7):
        with pytest.raises(d20.OutOfBounds):
            d20.SeededDice(1).die(sides)
        with pytest.raises(d20.OutOfBounds):
            d20.FixedDice([1]).die(sides)
    for faces in (None, 5, "123", {1: 1}):
        with pytest.raises(d20.OutOfBounds):
            d20.FixedDice(faces)
    import itertools

    with pytest.raises(d20.LimitExceeded):
        d20.FixedDice(itertools.count(1))  # an endless supply stops at the bound
    assert d20.FixedDice(iter([3, 4])).die(6) == 3


def test_js_helpers_refuse_junk_with_their_own_errors(built: Path) -> None:
    """What the 2026-12-07 fuzzing gave raw TypeErrors, RangeErrors or minutes of work for."""
    cases = ["new m.FixedDice(null)", "new m.FixedDice(5)", "new m.FixedDice('123')",
             "new m.FixedDice({length: 2 ** 32})", "new m.FixedDice(Array(10001).fill(1))",
             "new m.FixedDice([1]).die(NaN)", "new m.SeededDice(1).die(-5)", "new m.SeededDice(1).die('6')",
             "new m.SeededDice(10n ** 5000n)",
             "m.attack_odds(new m.Combatant(), new m.Combatant(), 'club').probability(null)",
             "m.attack_odds(new m.Combatant(), new m.Combatant(), 'club').marginal('nope')",
             "m.attack_odds(new m.Combatant(), new m.Combatant(), 'club').expected('damage_type')",
             "m.chain_until(5, 5)", "m.chain_until(() => 5, 5)", "m.chain_until(() => new Map([[NaN, 1]]), 5)",
             "m.close_match('abc', null)", "m.Fight.start({turn: null}, {甲: new m.Combatant()})",
             "m.Fight.from_dict(null, {})"]
    fight = "m.start_fight({甲: new m.Combatant(), 乙: new m.Combatant()})"
    cases += [f"{fight}.{method}({junk})" for method in ("member", "status", "effective")
              for junk in ("Symbol('x')", "Object.create(null)", "'长'.repeat(50000)")]
    cases += [f"{fight}.apply(Object.assign(Object.create(m.FightAction.prototype), {{procedure: 'attack'}}))",
              f"{fight}.apply(new m.FightAction('attack', [['attacker', '甲'], ['target', '乙']], null, [], [], null))",
              f"{fight}.apply(null)"]
    got = run_js(built / "js" / "d20" / "index.js", cases)
    assert len(got) == len(cases)
    for case, g in zip(cases, got):
        assert g.get("error") in ("out-of-bounds", "limit-exceeded"), (case, g)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in g["message"]), (case, g)  # in the rules' words


def test_a_procedure_without_options_refuses_any_in_every_form(built: Path) -> None:
    forms = ["m.pin_odds(new m.Combatant(), new m.Combatant(), {nope: 1})",
             "m.pin_prepare(new m.Combatant(), new m.Combatant(), {nope: 1})",
             "m.pin_odds(new m.Combatant(), new m.Combatant(), 5)",
             "m.pool_distribution(10001, 10, 8, 10)", "m.pool_distribution(5, 10, 1, 1)"]
    got = run_js(built / "js" / "dp" / "index.js", forms)
    assert [g.get("error") for g in got] == ["out-of-bounds"] * 3 + ["limit-exceeded", "out-of-bounds"], got
    assert "没有选项" in got[0]["message"]


INHERITED_NAMES = ("__proto__", "constructor", "toString", "hasOwnProperty", "valueOf")


def test_keys_named_like_inherited_properties_are_plain_keys(built: Path) -> None:
    """The runtime keeps every dictionary keyed by a caller's text (options, roles, the arguments a
    fight passes on) in a `_rt_Dict`, whose objects inherit nothing: a key `__proto__` or
    `constructor` is refused by name as any unknown key is, never taken as the prototype, and
    nothing is polluted. (V8 keeps Object.create(null) objects in its slow dictionary mode; the
    runtime makes none.)"""
    runtime = ROOT / "compiler" / "runtime" / "js"
    made = [(p.name, line) for p in sorted(runtime.glob("*.js"))
            for line in p.read_text(encoding="utf-8").splitlines() if "Object.create(null)" in line
            and not line.strip().startswith("//")]
    assert made == [("runtime.js", "_rt_Dict.prototype = Object.freeze(Object.create(null));")], made
    fight = "m.start_fight({甲: new m.Combatant(), 乙: new m.Combatant()})"
    cases: list[str] = []
    for key in INHERITED_NAMES:
        options = f"Object.assign(JSON.parse('{{\"{key}\": 1}}'), {{dice: new m.SeededDice(1)}})"
        cases += [f"m.attack(new m.Combatant(), new m.Combatant(), 'longsword', {options})",
                  f"m.attack_odds(new m.Combatant(), new m.Combatant(), 'longsword', JSON.parse('{{\"{key}\": 1}}'))",
                  f"{fight}.resolve('attack', {{attacker: '甲', target: '乙'}}, Object.assign({options}, "
                  "{weapon: 'longsword'}))",
                  f"{fight}.act('attack', Object.assign(JSON.parse('{{\"{key}\": \"甲\"}}'), {{attacker: '甲', "
                  "target: '乙'}), {weapon: 'longsword', dice: new m.SeededDice(1)})"]
    cases += ["[Object.prototype.polluted, ({}).constructor === Object, typeof ({}).toString]"]
    got = run_js(built / "js" / "d20" / "index.js", cases)
    for case, g in zip(cases[:-1], got):
        assert g.get("error") == "out-of-bounds", (case, g)
    for key, g in zip(INHERITED_NAMES, got[0::4]):
        assert f"未知的选项“{key}”" in g["message"], g
    assert got[-1] == {"value": [None, True, "function"]}, got[-1]


def test_log_since_gives_a_commands_lines_once_the_log_is_full(d20: Any, built: Path) -> None:
    """Fight.log_since in both languages: the lines a step added, past MAX_LOG lines too (where the
    log's length no longer grows), from a fight read back from its stored dict as well; none
    between a fight and itself; anything but a Fight refused."""
    m = d20
    f = m.start_fight({"甲": m.Combatant(), "乙": m.Combatant()})
    for _ in range(2100):
        f = f.next_turn()
    g = f.next_turn()
    h = g.next_turn()
    r = m.fight_from_dict(json.loads(json.dumps(h.to_dict())))
    s = r.next_turn().next_turn()
    expected = [len(f.log), list(g.log_since(f)), list(h.log_since(f)), list(h.log_since(h)), list(f.log_since(g)),
                list(s.log_since(r))]
    assert expected[0] == 1000 and expected[2] and expected[5]
    js = ("(() => { let f = m.start_fight({甲: new m.Combatant(), 乙: new m.Combatant()}); "
          "for (let i = 0; i < 2100; i++) f = f.next_turn(); const g = f.next_turn(), h = g.next_turn(); "
          "const r = m.fight_from_dict(JSON.parse(JSON.stringify(h.toDict()))), s = r.next_turn().next_turn(); "
          "return [f.log.length, g.log_since(f), h.log_since(f), h.log_since(h), f.log_since(g), s.log_since(r)]; })()")
    got = run_js(built / "js" / "d20" / "index.js", [js, "m.start_fight({甲: new m.Combatant()}).log_since({})"])
    assert got[0] == {"value": expected}, got[0]
    assert got[1].get("error") == "out-of-bounds", got[1]
    try:
        f.log_since({})  # type: ignore[arg-type]
    except m.RuleError as exc:
        assert (exc.code, exc.message) == (got[1]["error"], got[1]["message"])
    else:
        raise AssertionError("Python took a dict for a Fight")
