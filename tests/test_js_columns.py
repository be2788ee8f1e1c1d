"""A table of more than ROW_CHUNK entries: the JavaScript module holds the Python package's rows
files as they are (emit/js/model.py, compiler/runtime/js/columns.js), one text made for both.
Every entry reads back in JavaScript as in Python — dice, references, lists, absent values and
hostile text included — in the module (Node) and in the script (QuickJS, an engine without a JIT
as SealDice's goja); each entry holds its own arrays; and no text that is not JSON data, nor a
whole number JavaScript cannot hold exactly, becomes code."""

from __future__ import annotations

import difflib
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rulec.build.facade import compile_rules
from rulec.build.write import write_build
from rulec.emit.js.code import UnquotedValue, data_text
from rulec.emit.python import loader
from rulec.emit.python.code import UnquotedValue as NotPlain
from rulec.emit.python.model import ROW_CHUNK, rows_file
from rulec.memo import Memo
from test_rows_file import ROWS

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
ENTRIES = ROW_CHUNK + 37  # two rows files
# Text a rule file may hold (the loader refuses control, line-separator, zero-width and bidi characters).
HOSTILE = ['</script><script>globalThis.__pwned = 1</script>', "<!-- x -->", 'q"uote\\slash', "*/ ${x} `tick`",
           "剑🗡️", "tab\there", "]}, {\"list\": [1]}"]
# What no rule file holds, for the quoting of a rows file's text alone.
REFUSED = ["a\u2028b\u2029c", "nul\x01ctl\x7f", "\ufeffbom\u200bzw\u202eltr", "\ud800"]


def _yaml_text(text: str) -> str:
    """A YAML double-quoted string of `text`: JSON's escapes, but YAML's for a character past U+FFFF."""
    def astral(m: re.Match[str]) -> str:
        return f"\\U{0x10000 + ((int(m[1], 16) - 0xD800) << 10) + int(m[2], 16) - 0xDC00:08x}"

    return re.sub(r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})", astral, json.dumps(text, ensure_ascii=True))


def _entry(i: int) -> str:
    notes = _yaml_text(HOSTILE[i % len(HOSTILE)] + str(i))
    dice = ["1d4", "2d6+1", "1d8", None][i % 4]
    props = [["light"], [], ["finesse", "thrown"], ["heavy", "two_handed", "reach"]][i % 4]
    line = (f"  - {{id: w{i:04d}, name: 武器{i}, category: simple, attack_type: {'melee' if i % 3 else 'ranged'}, "
            f"properties: [{', '.join(props)}], weight: {i * 7}, range_normal: {i % 11}, notes: {notes}")
    if dice is not None:
        line += f", damage_dice: {dice}, damage_type: {['piercing', 'slashing', 'bludgeoning'][i % 3]}"
    if i % 5 == 0:
        line += f", name_en: Weapon {i}, versatile_dice: 1d10"
    return line + "}"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("columns")
    pack = root / "rules" / "big"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text("kind: pack\nid: big\nname: 大包\nextends: d20\n", encoding="utf-8")
    (pack / "weapons.yaml").write_text("kind: table\ntable: weapons\nentries:\n"
                                       + "\n".join(_entry(i) for i in range(ENTRIES)) + "\n", encoding="utf-8")
    result = compile_rules([ROOT / "rules" / "d20", pack], memo=Memo())
    assert result.ok, [d.format() for d in result.diagnostics]
    out = root / "out"
    write_build(out, result)
    return out


def _python_entries(out: Path) -> dict[str, Any]:
    m = loader.import_folder("d20", out / "d20")[0]
    return {k: json.loads(json.dumps(v.to_dict(), ensure_ascii=False)) for k, v in m.WEAPONS.items()}


_DUMP = """  // the body of a function of `m`, the package: every entry, and whether two share an array
const entries = {};
for (const [k, v] of m.WEAPONS) entries[k] = v.toDict();
const a = m.WEAPONS.get('w0001'), b = m.WEAPONS.get('w0005');
const shared = a.properties === b.properties || (a.damage_dice !== null && b.damage_dice !== null
  && a.damage_dice.terms === b.damage_dice.terms);
return JSON.stringify({entries, shared, pwned: globalThis.__pwned === undefined ? null : globalThis.__pwned,
                frozen: Object.isFrozen(a.properties)})
"""


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")
def test_the_module_reads_every_entry_as_python_does(built: Path) -> None:
    module = (built / "js" / "d20" / "index.js").read_text(encoding="utf-8")
    assert "new _rt_LazyMap([" in module and '{"rows": 500, "columns": [' in module
    program = (f"import * as m from {json.dumps((built / 'js' / 'd20' / 'index.js').as_uri())};\n"
               f"console.log((function () {{ {_DUMP.strip()} }})());\n")
    done = subprocess.run([str(NODE), "--input-type=module", "-"], input=program, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout)
    python = _python_entries(built)
    assert len(python) > ENTRIES and got["entries"] == python
    assert got["shared"] is False and got["frozen"] is True and got["pwned"] is None


def test_the_script_reads_every_entry_as_python_does(built: Path) -> None:
    quickjs = pytest.importorskip("quickjs")
    context = quickjs.Context()
    context.eval((built / "js" / "d20" / "rulec_d20.user.js").read_text(encoding="utf-8"))
    got = json.loads(context.eval(f"(function () {{ const m = rulec_d20; {_DUMP.strip()} }})()"))
    assert got["entries"] == _python_entries(built)
    assert got["shared"] is False and got["pwned"] is None


def test_the_pages_script_holds_no_markup(built: Path) -> None:
    """The calculator page inlines the script: no text of a rows file closes or opens markup there."""
    page = (built / "reference" / "d20-calc.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script[^>]*>(.*?)</script>", page, re.S)  # each ends at the first `</script>`
    assert any("new _rt_LazyMap([" in script for script in scripts)
    assert not [script for script in scripts if "</" in script or "<!--" in script or "\u2028" in script]
    assert page.count("<script") == page.count("</script>") == len(scripts)
    assert "<script>globalThis.__pwned" not in page and "<!-- x" not in page


@pytest.mark.parametrize("text", ['{"rows": 1}); globalThis.x = 1; ({', '{"a": alert(1)}', '[1, 2]\n+ f()',
                                  '{"a": "\n"}', '"unterminated', "{'a': 1}", '{"a": 1} // x', "`x`", 42])
def test_text_that_is_not_json_data_never_becomes_code(text: Any) -> None:
    with pytest.raises(UnquotedValue):
        data_text(text)


def test_json_data_becomes_an_expression_of_the_same_value() -> None:
    value = {"rows": 2, "columns": [{"list": HOSTILE + REFUSED}, {"values": [None, True, -3, 1.5e3], "pick": "\x00\x03"}]}
    text = json.dumps(value, ensure_ascii=False, indent=1)
    expression = data_text(text)
    assert not {"<", ">", "\u2028", "\u2029", "\x01", "\x7f", "\ufeff", "\u202e", "\ud800"} & set(expression)
    assert json.loads(expression) == value  # JSON still: the escapes are JSON's own


def test_a_rows_file_holds_only_whole_numbers_javascript_holds_exactly() -> None:
    limit = 2**53 - 1
    assert rows_file([("a", limit), ("b", -limit)])
    for bad in [2**53, -(2**53), 10**30]:
        with pytest.raises(NotPlain):
            rows_file([("a", bad), ("b", 1)])
        with pytest.raises(NotPlain):
            rows_file([("a", ("x", (bad,))), ("b", ("x", (1,)))])


def _decoded_in(engine: str, texts: list[str], lazy: bool = False) -> Any:
    """`_rt_columns` of the rows files' `texts` (each through `data_text`), run in `engine`; with
    `lazy`, the rows a `_rt_LazyMap` of them makes its entries from, read whole."""
    runtime = ROOT / "compiler" / "runtime" / "js"
    chunks = "[" + ",\n".join(map(data_text, texts)) + "]"
    rows = f"Array.from(new _rt_LazyMap({chunks}, r => r).values())" if lazy else f"_rt_columns({chunks})"
    program = ("\n".join((runtime / f).read_text(encoding="utf-8") for f in ("runtime.js", "columns.js"))
               + f"\nJSON.stringify({rows});\n")
    if engine == "quickjs":
        quickjs = pytest.importorskip("quickjs")
        return json.loads(quickjs.Context().eval(program))
    if NODE is None:
        pytest.skip("Node.js is not installed (CI installs it)")
    done = subprocess.run([NODE, "-e", f"process.stdout.write(eval({json.dumps(program)}))"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("engine", ["node", "quickjs"])
def test_the_javascript_runtime_reads_a_rows_file_as_python_does(engine: str) -> None:
    """The rows of tests/test_rows_file.py (every kind of column, PICKS values and one more), in
    two rows files: `_rt_columns` gives them back, arrays as arrays, and so does a `_rt_LazyMap`
    row by row."""
    def plain(value: Any) -> Any:
        return [plain(v) for v in value] if isinstance(value, tuple) else value

    got = _decoded_in(engine, [rows_file(ROWS), rows_file(ROWS[:3])])
    assert got == [plain(row) for row in ROWS + ROWS[:3]]
    # a row at a time, as a big table makes each entry's row when first read (ids unique there)
    assert _decoded_in(engine, [rows_file(ROWS[:300]), rows_file(ROWS[300:])], lazy=True) == [plain(r) for r in ROWS]


_LAZY = r"""
let made = 0;
const make = r => { made++; return Object.freeze({id: r[0], name: r[1]}); };
const t = new _rt_LazyMap([{rows: 2, columns: [{list: ["a", "b"]}, {values: ["甲", "乙"], pick: "#$"}]},
                           {rows: 1, columns: [{all: "c"}, {all: "甲"}]}], make);  // a one-row chunk: all "all"
const out = [made];
const b = t.get("b");
out.push(made, t.get("b") === b, t.size, t.has("c"), Array.from(t.keys()), t.get("zz") === undefined, made);
out.push(_rt_named(t).byName.get("甲"), _rt_table_names(t), made);
class E {}
out.push(_rt_lookup(t, "甲", "条目", E).id, made);
let refused = false;
try { _rt_lookup(t, "丙", "条目", E); } catch (e) { refused = e instanceof UnknownEntry; }
out.push(refused, made);
const all = Array.from(t.values());
out.push(made, all[1] === b, all.map(e => e.id), JSON.stringify(t), made);
let seen = 0;
t.forEach((v, k, m) => { seen += m === t && v.id === k ? 1 : 0; });
for (const [k, v] of t) seen += v === t.get(k) ? 1 : 0;
out.push(seen, made, Object.isFrozen(t), t instanceof FrozenMap);
try { t.set("x", 1); out.push("set"); } catch (e) { out.push(e instanceof TypeError); }
JSON.stringify(out);
"""


@pytest.mark.parametrize("engine", ["node", "quickjs"])
def test_a_big_tables_entries_are_made_when_first_read(engine: str) -> None:
    """A big table's entries, and their rows, are made from its chunks' columns when first read
    (columns.js `_rt_LazyMap`, over two chunks here): `get`, `has`, `size`, `keys` and a lookup by
    name make no other entry; each entry is made once and is the same object at every read;
    reading the whole table makes the rest, once; the table stays a read-only FrozenMap."""
    runtime = ROOT / "compiler" / "runtime" / "js"
    program = "\n".join((runtime / f).read_text(encoding="utf-8") for f in ("runtime.js", "columns.js")) + _LAZY
    if engine == "quickjs":
        got = json.loads(pytest.importorskip("quickjs").Context().eval(program))
    else:
        if NODE is None:
            pytest.skip("Node.js is not installed (CI installs it)")
        done = subprocess.run([NODE, "-e", f"process.stdout.write(eval({json.dumps(program)}))"], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        got = json.loads(done.stdout)
    table = '{"a":{"id":"a","name":"甲"},"b":{"id":"b","name":"乙"},"c":{"id":"c","name":"甲"}}'
    assert got == [0, 1, True, 3, True, ["a", "b", "c"], True, 1,  # one entry made by its read alone
                   "a", ["a", "b", "c", "甲", "乙", "甲"], 1,  # the names from the rows: none made for them
                   "a", 2, True, 2,  # a lookup by name makes that entry; an unknown name, none
                   3, True, ["a", "b", "c"], table, 3,  # the whole table: the rest made, the same objects
                   6, 3, True, True, True]


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")
def test_a_big_table_is_read_by_name_and_misspelt_keys_as_python_reads_them(built: Path) -> None:
    """The JavaScript runtime finds a big table's entries by name through an index it makes once
    (`_rt_named`), and an unknown key's suggestion by decreasing bound (`_rt_close_match`): the
    same entry, error and suggestion as Python (difflib), ties among thousands of like names
    included, through `get_weapon` and the public `close_match`."""
    from test_js_api import _misspelt, py_outcome, run_js

    m = loader.import_folder("d20", built / "d20")[0]
    rng = random.Random("big-table-names")
    words = list(m.WEAPONS) + [e.name for e in m.WEAPONS.values()]
    keys = [rng.choice(words) for _ in range(20)] + [_misspelt(rng, words) for _ in range(60)]
    keys += ["武器", "武器1", "武器10000", "w00", "w100", "", "x" * 101, "长剑"]
    cases = [f"m.get_weapon({json.dumps(key, ensure_ascii=False)}).id" for key in keys]
    expect = [py_outcome(m, lambda key=key: m.get_weapon(key).id) for key in keys]
    like = [f"自制武器{i}" for i in range(3000)] + [f"自制武器{i}x" for i in range(0, 3000, 7)]
    for key in ["自制武器", "自制武器12345x", "自制武器99", "制武器1", "x自制武器7"]:
        rng.shuffle(like)
        cases.append(f"m.close_match({json.dumps(key, ensure_ascii=False)}, {json.dumps(like, ensure_ascii=False)})")
        expect.append({"value": next(iter(difflib.get_close_matches(key, like, n=1)), None)})
    got = run_js(built / "js" / "d20" / "index.js", cases)
    assert [c for c, js, py in zip(cases, got, expect) if js != py] == []
    assert sum("是否想找" in e.get("message", "") for e in expect) > 20
