"""Hostile text in every text field of the rules runs nothing and shows escaped (issue: safe by
construction; issue 27: one quoting path for JavaScript).

The locations are derived from the schemas, not listed by hand: every string of every rule
file — the ruleset manifests included — of every ruleset the tests run on (tests/every_ruleset.py:
the bundled ones and the tests' own) whose schema is free text (a name, a description, a
note, a message, a trace sentence; not an id, a rule id, an enum value, a dice expression or a
formula, which have their own syntax) gets hostile text of every class in `PAYLOADS`: line breaks
of every kind, the ends of a comment, a string, a template literal, a script element and a
userscript header, quotes, triple quotes and backslashes, Jinja braces, Markdown table breakers,
and JavaScript and Python that would set `globalThis.__pwned` or create a file if they ever ran.

Two levels, so that every field gets every class in the fast run:

* the rule files: each field holds as many classes as its length allows (all of them in a text
  or a sentence; a name of 80 characters holds a few, taken in rotation, and every class reaches
  some name), and one build of all the rulesets must succeed, create no file, write
  packages that import and resolve without running anything, in Python and in Node (the module
  and the SealDice script), and pages and READMEs that show the text escaped;
* the IR: each field's text is tagged in the rule files, and after loading, every string of the
  IR that carries a tag gets *all* the classes at once, line and paragraph separators and NEL
  included (the loader refuses those: this proves the emitters do not rely on it); the Python
  and JavaScript packages emitted from it must import and resolve without running anything.

The slow run builds once per class with that class in every field (the whole product).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulec.record import Record, field_names, replace
from rulec.validate.schema import _registry_and_schemas

from every_ruleset import RULESETS, folder

Resolver = Any  # referencing's resolver: follows a $ref from where it sits

ROOT = Path(__file__).resolve().parent.parent
MARKER = "PWNED"
JS_RUN = "globalThis.__pwned=1"
PY_RUN = f"__import__('os').system('touch {MARKER}')"

# Each class of hostile text: what it breaks out of, then code that would run if it did.
PAYLOADS = {
    "lf": f"\n{JS_RUN}//\n{PY_RUN}#",
    "cr": f"\r{JS_RUN}//\r{PY_RUN}#",
    "crlf": f"\r\n{JS_RUN}//",
    "comment-end": f"*/{JS_RUN}/*",
    "script-end": f"</script><script>{JS_RUN}</script><!--",
    "userscript": f"==/UserScript==\n// @require data:,{JS_RUN}\n// ==UserScript==",
    "template-literal": f"`+({JS_RUN})+`${{{JS_RUN}}}",
    "js-quotes": f"\"+({JS_RUN})+\"'+({JS_RUN})+'",
    "js-require": f'"+require("child_process").execSync("touch {MARKER}")+"',
    "backslashes": "\\\\\\\"\\u0022\\x27\\",
    "py-triple-double": f'"""+__import__("os").system("touch {MARKER}")+"""',
    "py-triple-single": f"'''+{PY_RUN}+'''\\",
    "jinja-html": "{{7*7}}{%x%}\\N{BEL}\\x00<script>alert(1)</script>",
    "markdown": "第一行\n| 注入 | 表格 |\n---|---\n# 标题",
    "markup": "</textarea>`代码` *斜* _体_ [链接](javascript:alert(1)) \\",
}
# Line terminators the loader refuses (a diagnostic at the character): they reach the emitters
# only through the IR, in `test_every_class_in_every_ir_text_runs_nothing`.
REFUSED = {
    "line-separator": f"\u2028{JS_RUN}//",
    "paragraph-separator": f"\u2029{JS_RUN}//",
    "next-line": f"\x85{JS_RUN}//",
}
# Every class in its shortest form, for the IR test, where every text gets all of them at once
# (a break-out anywhere runs the code after it or fails the import: both fail the test).
COMPACT = {
    "lf": f"\n{JS_RUN};", "cr": f"\r{JS_RUN};", "crlf": f"\r\n{JS_RUN};", "line-separator": f"\u2028{JS_RUN};",
    "paragraph-separator": f"\u2029{JS_RUN};", "next-line": f"\x85{JS_RUN};", "comment-end": f"*/{JS_RUN}/*",
    "script-end": "</script><!--", "userscript": "\n// ==/UserScript==", "template-literal": f"`${{{JS_RUN}}}`",
    "js-quotes": f"\"+({JS_RUN})+\"'+({JS_RUN})+'", "js-require": f'"+require("fs").writeFileSync("{MARKER}","")+"',
    "backslashes": "\\\\\\", "py-triple-double": f'"""+{PY_RUN}+"""', "py-triple-single": f"'''+{PY_RUN}+'''",
    "jinja-html": "{{7*7}}{%x%}<script>", "markdown": "\n| 注入 | 表格 |\n# 标题", "markup": "</textarea>`[链接](javascript:1)",
}
ALL = "".join(COMPACT.values())
SHORT = "\"'\\<|`"  # for fields of a few characters (a dice-bot prefix)


def _tag(i: int) -> str:
    return f"【P{i}】"


def _payload(i: int, kind: str, most: int, classes: list[str]) -> str:
    """The text of field `i`: the classes that fit in `most` characters (from the `i`th on, in
    rotation, when not all do), then its tag."""
    tag = _tag(i)
    room = most - len(tag)
    texts = [PAYLOADS[c] for c in classes]
    if kind == "template":  # braces are a trace sentence's holes: the rest of the payload goes in
        texts = [t.replace("{", "（").replace("}", "）") for t in texts]
    text = ""
    for k in range(len(texts)):
        piece = texts[(i + k) % len(texts)]
        if len(text) + len(piece) <= room:
            text += piece
    if not text:
        return (SHORT + str(i))[-most:]
    return text + tag


def _slots(value: Any, schema: Any, resolver: Resolver,
           path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str, int]]:
    """(path, "text" | "template", max length) of every free-text string of `value` under `schema`."""
    kind = "text"
    while isinstance(schema, dict) and "$ref" in schema:
        ref = schema["$ref"]
        if ref.endswith("/formula"):
            return
        if ref.endswith("/template"):
            kind = "template"
        resolved = resolver.lookup(ref)
        schema, resolver = resolved.contents, resolved.resolver
    if not isinstance(schema, dict):
        return
    for key in ("anyOf", "oneOf"):
        if key in schema:
            branches = [_resolved(b, resolver) for b in schema[key]]
            if isinstance(value, str) and any(b.get("type") == "integer" for b, _ in branches):
                return  # a formula field of a table: a string or a number
            chosen = next(((b, r) for b, r in branches if _matches(value, b)), None)
            if chosen is not None:
                yield from _slots(value, chosen[0], chosen[1], path)
    for part in schema.get("allOf", ()):
        if isinstance(part, dict) and "if" in part and _matches(value, part["if"]):
            then, r = _resolved(part["then"], resolver)
            yield from _slots(value, then, r, path)
    if isinstance(value, str):
        if schema.get("type") == "string" and not {"pattern", "enum", "const"} & set(schema):
            yield path, kind, int(schema.get("maxLength", 10_000))
        return
    if isinstance(value, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for k, v in value.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            if sub is not None:
                yield from _slots(v, sub, resolver, path + (k,))
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, v in enumerate(value):
            yield from _slots(v, schema["items"], resolver, path + (i,))


def _resolved(schema: Any, resolver: Resolver) -> tuple[Any, Resolver]:
    while isinstance(schema, dict) and "$ref" in schema and not schema["$ref"].endswith(("/formula", "/template")):
        found = resolver.lookup(schema["$ref"])
        schema, resolver = found.contents, found.resolver
    return schema, resolver


def _matches(value: Any, schema: Any) -> bool:
    """Whether `value` has the shape of this branch: its type, its required keys, its constants."""
    if not isinstance(schema, dict):
        return False
    if "$ref" in schema:  # a formula or a template: a string
        return isinstance(value, str)
    want = schema.get("type")
    if want is None and ("anyOf" in schema or "oneOf" in schema):
        return True
    kinds = {"string": str, "integer": int, "boolean": bool, "null": type(None), "object": dict, "array": list}
    if want is not None and not isinstance(value, kinds.get(want, object)):
        return False
    if isinstance(value, dict):
        props = schema.get("properties", {})
        if not set(schema.get("required", ())) <= set(value):
            return False
        if schema.get("additionalProperties") is False and not set(value) <= set(props):
            return False
        return all(value.get(k) == p["const"] for k, p in props.items() if isinstance(p, dict) and "const" in p
                   and k in value)
    return True


def _schema_of(data: dict[str, Any], ruleset: str, generated: Path) -> tuple[dict[str, Any], Resolver]:
    registry, schemas = _registry_and_schemas()
    if data.get("kind") == "table":
        path = generated / "schema" / ruleset / f"{data['table']}.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
    else:
        schema = schemas[str(data["kind"])]
    # a static schema has no $id: the registry names it by its file name (validate/schema.py)
    return schema, registry.resolver(base_uri=schema.get("$id", f"{data['kind']}.schema.json"))


def _set(data: Any, path: tuple[Any, ...], text: str) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = text


# The names formulas and sentences call things by (a stat, a table field, a parameter, a step's
# value, an enum value, a table, a ruling): text too, but renaming one is a rename, not a payload.
NAMED_IN_FORMULAS = {"stats", "fields", "params", "steps", "values", "tables", "rulings", "stat_groups",
                     "formulas"}


def _a_formula_name(slot: tuple[Any, ...]) -> bool:
    if slot[-1] == "name" and len(slot) >= 3 and slot[-3] in NAMED_IN_FORMULAS:
        return True
    return len(slot) == 2 and slot[0] == "rulings" and slot[1] != "description"  # rulings.yaml: key -> ruling


def poison(rules: Path, generated: Path,
           classes: list[str] | None = None) -> list[tuple[Path, tuple[Any, ...], int, str]]:
    """Put hostile text of `classes` (all by default) into every free-text location of every rule
    file under `rules` (table files by their schemas under `generated`, a clean build's output);
    returns the locations (file, path in it, longest text allowed, text)."""
    chosen = list(PAYLOADS) if classes is None else classes
    slots: list[tuple[Path, tuple[Any, ...], int, str]] = []
    for path in sorted(rules.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        schema, resolver = _schema_of(data, path.relative_to(rules).parts[0], generated)
        seen = set()
        for slot, kind, most in list(_slots(data, schema, resolver)):
            if _a_formula_name(slot):
                continue
            if slot not in seen:
                seen.add(slot)
                text = _payload(len(slots), kind, most, chosen)
                _set(data, slot, text)
                slots.append((path.relative_to(rules), slot, most, text))
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return slots


def _table_rows_are_whole(markdown: str, where: str) -> None:
    """Every row of every Markdown table has as many cells as its header (no payload split one)."""
    cells = None
    for line in markdown.splitlines():
        if line.startswith("|"):
            n = len(re.findall(r"(?<!\\)\|", line))
            cells = n if cells is None else cells
            assert n == cells, f"{where}: a table row was split: {line[:200]}"
        else:
            cells = None


def copy_rules(rules: Path) -> Path:
    """Every ruleset the tests run on (tests/every_ruleset.py), copied into `rules/<id>`."""
    for ruleset in RULESETS:
        shutil.copytree(folder(ruleset), rules / ruleset)
    return rules


SEPARATOR = "\n=====\n"
NODE_CHECK = """
const vm = await import('node:vm');
const fs = await import('node:fs');
const traces = [];
const calls = JSON.parse(process.argv[1]);
const call = (m, {proc, args}) =>
  m[proc](...args.map(a => a === null ? new m.Combatant() : a), {dice: new m.SeededDice(3)}).text();
for (let i = 2; i + 2 < process.argv.length; i += 3) {
  const m = await import(process.argv[i]);
  const g = process.argv[i + 2];
  if (globalThis.__pwned !== undefined) throw new Error('a payload ran when the module was imported');
  const t = call(m, calls[(i - 2) / 3]);
  const script = fs.readFileSync(process.argv[i + 1], 'utf8');
  const c = vm.createContext({});
  vm.runInContext(script, c);
  if (c.__pwned !== undefined) throw new Error('a payload ran in the script');
  if (call(c[g], calls[(i - 2) / 3]) !== t)
    throw new Error('the script and the module differ');
  vm.runInThisContext(script);
  if (globalThis.__pwned !== undefined || globalThis[g] === undefined) throw new Error('a payload ran in the script');
  traces.push(t + '\\n');
}
process.stdout.write(traces.join(SEPARATOR));
""".replace("SEPARATOR", json.dumps(SEPARATOR))
PYTHON_CHECK = """
import importlib, inspect, json, sys
traces, calls = [], []
for folder, ruleset in zip(sys.argv[1::2], sys.argv[2::2]):
    sys.path.insert(0, folder)
    m = importlib.import_module("rulec_" + ruleset)
    info = m.PROCEDURE_INFO
    assert info and all(v["name"] for v in info.values())
    proc = "attack" if "attack" in info else next(iter(info))  # its positional parameters get values
    types = {pid: ptype for pid, _name, ptype in info[proc]["params"]}
    args = [None if types[p.name] == "combatant" else next(iter(getattr(m, types[p.name].upper())))
            for p in inspect.signature(getattr(m, proc)).parameters.values()
            if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    t = getattr(m, proc)(*[m.Combatant() if a is None else a for a in args], dice=m.SeededDice(3)).text()
    assert "【P" in t, t
    traces.append(t + "\\n")
    calls.append({"proc": proc, "args": args})
sys.stdout.write(json.dumps(calls) + "\\n" + SEPARATOR.join(traces))
""".replace("SEPARATOR", repr(SEPARATOR))


def _resolve_everywhere(out: Path, cwd: Path) -> list[str]:
    """Import every package under `out` in Python and every JavaScript module and script in Node,
    resolve a procedure of each (its attack where it has one), and check that nothing ran; returns
    the Python traces."""
    args = [str(a) for ruleset in RULESETS for a in (out / ruleset, ruleset)]
    run = subprocess.run([sys.executable, "-c", PYTHON_CHECK, *args], cwd=cwd, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    calls, _, text = run.stdout.partition("\n")
    traces = text.split(SEPARATOR)
    assert len(traces) == len(RULESETS)
    assert not (cwd / MARKER).exists(), "a payload ran when a package was imported or resolved an attack"
    node = shutil.which("node")
    if node is None:  # CI installs Node: the JavaScript half runs there
        return traces
    scripts = [out / "js" / ruleset / f"rulec_{ruleset}.user.js" for ruleset in RULESETS]
    args = [str(a) for ruleset, script in zip(RULESETS, scripts)
            for a in ((out / "js" / ruleset / "index.js").as_uri(), script, f"rulec_{ruleset}")]
    run = subprocess.run([node, "--input-type=module", "-e", NODE_CHECK, calls, *args], cwd=cwd, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split(SEPARATOR) == traces  # the same sentences, payloads shown as text, as in Python
    for ruleset, script in zip(RULESETS, scripts):
        _userscript_header_is_whole(script.read_text(encoding="utf-8"))
        for line in (out / "js" / ruleset / "index.d.ts").read_text(encoding="utf-8").splitlines():
            assert "__pwned" not in line or line.startswith("//"), line[:200]
    assert not (cwd / MARKER).exists(), "a payload ran in the JavaScript module or script"
    return traces


def _userscript_header_is_whole(script: str) -> None:
    """The `==UserScript==` block opens on the first line, closes once, and holds `// @key value`
    lines only: no text closed it early or added a key."""
    lines = script.split("\n")
    assert lines[0] == "// ==UserScript=="
    end = lines.index("// ==/UserScript==")
    assert all(re.fullmatch(r"// @[a-z]+ +\S.*", line) for line in lines[1:end]), lines[1:end]
    assert [k.split()[1] for k in lines[1:end]] == ["@name", "@author", "@version", "@description", "@license",
                                                     "@timestamp"]
    # A header is read from comment lines: none but these two may open or close one (strings hold
    # the text as it is, and no string starts a line).
    assert sum(bool(re.search(r"==/?UserScript==", line)) for line in lines if line.lstrip().startswith("//")) == 2


def _pages_are_escaped(out: Path, classes: list[str]) -> None:
    for page in sorted((out / "reference").glob("*.html")):
        html = page.read_text(encoding="utf-8")
        assert "<script>alert(1)</script>" not in html and "</textarea>" not in html, page.name
        assert f"<script>{JS_RUN}" not in html, page.name
        if "jinja-html" in classes:
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html or page.name.startswith("index") or (
                page.name.endswith("-calc.html") and "\\u003cscript\\u003ealert(1)" in html), page.name  # its JSON
    for page in sorted((out / "reference").glob("*.md")) + sorted(out.glob("*/README.md")) + \
            sorted(out.glob("js/*/README.md")):
        text = page.read_text(encoding="utf-8")
        prose = re.sub(r"(?<!\\)`[^`]*`", "", text)  # a code span shows its text as it is
        assert "<script>" not in prose and "</textarea>" not in prose, page.name
        _table_rows_are_whole(text, page.name)


def _write(files: dict[str, bytes], out: Path) -> None:
    for rel, data in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory, built: Path) -> tuple[Path, Any]:
    """Every ruleset (the bundled ones and the tests' own) with every class of hostile text (as many
    as fit) in every free-text field, compiled in this process with no cache: (folder, build)."""
    from rulec.build.facade import compile_rules
    from rulec.memo import Memo

    tmp = tmp_path_factory.mktemp("hostile")
    rules = copy_rules(tmp / "rules")
    slots = poison(rules, built)
    assert len(slots) > 1000  # names, descriptions and notes of every entry, step and error
    where = {(file, slot) for file, slot, _most, _text in slots}
    for ruleset in RULESETS:  # the manifests' names too (the one a rotation once missed)
        assert (Path(ruleset) / "ruleset.yaml", ("name",)) in where
    for name, text in PAYLOADS.items():  # every class reaches names (80 characters) as well as texts
        assert any(text in held for _file, _slot, most, held in slots if most <= 80), name
    here = os.getcwd()
    os.chdir(tmp)  # a payload that ran would touch its file here
    try:
        build = compile_rules([rules], memo=Memo())
    finally:
        os.chdir(here)
    assert build.ok, [str(d) for d in build.diagnostics[:5]]
    assert not (tmp / MARKER).exists(), "a payload ran during the build"
    return tmp, build


@pytest.mark.slow  # several seconds: CI's slow job
def test_hostile_text_everywhere_runs_nothing_and_shows_escaped(hostile: tuple[Path, Any]) -> None:
    tmp, build = hostile
    out = tmp / "out"
    _write(build.files, out)
    traces = _resolve_everywhere(out, tmp)
    assert any("__import__" in t for t in traces)  # the sentences show the payloads as text
    _pages_are_escaped(out, list(PAYLOADS))


_TAGGED = re.compile(r"【P\d+】")


def _every_class(value: Any, done: dict[int, tuple[Any, Any]]) -> Any:
    """`value` (IR) with every class of `ALL` before each tag of every string in it."""
    found = done.get(id(value))
    if found is not None:
        return found[1]
    out = value
    if isinstance(value, str):
        out = _TAGGED.sub(lambda m: ALL + m.group(0), value) if "【P" in value else value
    elif isinstance(value, Record) or dataclasses.is_dataclass(value) and not isinstance(value, type):
        record = isinstance(value, Record)
        changes = {}
        for name in field_names(value) if record else [f.name for f in dataclasses.fields(value)]:
            old = getattr(value, name)
            new = _every_class(old, done)
            if new is not old:
                changes[name] = new
        out = value if not changes else replace(value, **changes) if record else dataclasses.replace(value, **changes)
    elif isinstance(value, (tuple, list, frozenset)):
        items = [_every_class(v, done) for v in value]
        if any(a is not b for a, b in zip(items, value)):
            out = type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    elif isinstance(value, dict):
        pairs = [(_every_class(k, done), _every_class(v, done)) for k, v in value.items()]
        if any(a is not k or b is not v for (a, b), (k, v) in zip(pairs, value.items())):
            out = type(value)(pairs)
    done[id(value)] = (value, out)
    return out


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_every_class_in_every_ir_text_runs_nothing(hostile: tuple[Path, Any]) -> None:
    """The emitters' own guarantee, whatever the loader lets through: every text of the IR that
    came from a free-text field holds every class at once (line and paragraph separators and NEL
    too), and the Python and JavaScript packages made from it run nothing."""
    from rulec.emit.js.package import emit_js
    from rulec.emit.python.package import emit_package
    from rulec.build.outputs import header

    assert set(COMPACT) == set(PAYLOADS) | set(REFUSED)
    tmp, build = hostile
    out = tmp / "ir-out"
    done: dict[int, tuple[Any, Any]] = {}
    for rs in build.rulesets:
        rs = _every_class(rs, done)
        assert ALL in rs.name
        head = header(rs, "0" * 64)
        files = {f"{rs.id}/{rel}": text for rel, text in emit_package(rs, head).items()}
        files.update({f"js/{rs.id}/{rel}": text for rel, text in emit_js(rs, head).items()})
        _write({rel: text.encode("utf-8") for rel, text in files.items()}, out)
    assert sum(isinstance(v, str) and v is not new for v, new in done.values()) > 1000
    traces = _resolve_everywhere(out, tmp)
    assert any("\u2028" in t and JS_RUN in t for t in traces)  # shown as text


def test_line_separators_in_rule_text_are_refused(tmp_path: Path) -> None:
    """The line terminators the loader refuses (so they reach the emitters only in the IR test)."""
    from rulec.build.facade import compile_rules
    from rulec.memo import Memo

    manifest = tmp_path / "d20" / "ruleset.yaml"
    shutil.copytree(ROOT / "rules" / "d20", tmp_path / "d20")
    original = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    for text in REFUSED.values():
        manifest.write_text(yaml.safe_dump({**original, "name": "甲" + text}, allow_unicode=True, sort_keys=False),
                            encoding="utf-8")
        build = compile_rules([tmp_path / "d20"], stop_after="validate", memo=Memo())
        assert not build.ok
        assert any(d.span.file.endswith("ruleset.yaml") for d in build.diagnostics), build.diagnostics[:3]


@pytest.mark.slow
@pytest.mark.parametrize("payload", sorted(PAYLOADS))
def test_each_class_in_every_field_through_the_cli(tmp_path: Path, payload: str, built: Path) -> None:
    """The whole product: one build per class, with that class in every free-text field."""
    rules = copy_rules(tmp_path / "rules")
    assert len(poison(rules, built, [payload])) > 1000
    out = tmp_path / "out"
    env = {**os.environ, "RULEC_CACHE_DIR": "off"}
    result = subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", str(rules), "--out", str(out)],
                            cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert not (tmp_path / MARKER).exists(), "a payload ran during the build"
    _resolve_everywhere(out, tmp_path)
    _pages_are_escaped(out, [payload])


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
