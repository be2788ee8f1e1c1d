"""Hostile text in every text field of the rules runs nothing and shows escaped (issue: safe by
construction).

The locations are derived from the schemas, not listed by hand: every string of every bundled
rule file whose schema is free text (a name, a description, a note, a message, a trace sentence;
not an id, a rule id, an enum value, a dice expression or a formula, which have their own syntax)
gets a hostile payload — quotes of every kind, triple quotes, backslashes, newlines, Jinja
braces, `<script>`, Markdown table breakers, and Python that would create a file if it ever ran.
One build of all the bundled rulesets must succeed, create no file, write packages that compile
and import without running anything, and pages and package READMEs that show the text escaped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from rulec.validate.schema import _registry_and_schemas

Resolver = Any  # referencing's resolver: follows a $ref from where it sits

ROOT = Path(__file__).resolve().parent.parent
MARKER = "PWNED"

PAYLOADS = (
    f'"""+__import__("os").system("touch {MARKER}")+"""',
    f"'''+__import__('os').system('touch {MARKER}')+'''\\",
    "{{7*7}}{%x%}\\N{BEL}\\x00<script>alert(1)</script>",
    "第一行\n| 注入 | 表格 |\n---|---\n# 标题",
    "</textarea>`代码` *斜* _体_ [链接](javascript:alert(1)) \\",
    # JavaScript: a string, a template literal and a comment broken out of, then code that would run
    f'"+require("child_process").execSync("touch {MARKER}")+"\'+`${{require("fs").writeFileSync("{MARKER}","")}}`*/',
)


SHORT = "\"'\\<|`"  # for fields of a few characters (a dice-bot prefix)


def _payload(i: int, kind: str, most: int) -> str:
    text = PAYLOADS[i % len(PAYLOADS)]
    if kind == "template":  # braces are a trace sentence's holes: the rest of the payload goes in
        text = text.replace("{", "（").replace("}", "）")
    text = f"{text}#{i}"
    return text if len(text) <= most else (SHORT + str(i))[-most:]


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


def _schema_of(data: dict[str, Any], ruleset: str) -> tuple[dict[str, Any], Resolver]:
    registry, schemas = _registry_and_schemas()
    if data.get("kind") == "table":
        path = ROOT / "generated" / "schema" / ruleset / f"{data['table']}.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
    else:
        schema = schemas[str(data["kind"])]
    return schema, registry.resolver(base_uri=schema.get("$id", ""))


def _set(data: Any, path: tuple[Any, ...], text: str) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = text


# The names formulas and sentences call things by (a stat, a table field, a parameter, a step's
# value, an enum value, a table, a ruling): text too, but renaming one is a rename, not a payload.
NAMED_IN_FORMULAS = {"stats", "fields", "params", "steps", "values", "tables", "rulings", "stat_groups"}


def _a_formula_name(slot: tuple[Any, ...]) -> bool:
    if slot[-1] == "name" and len(slot) >= 3 and slot[-3] in NAMED_IN_FORMULAS:
        return True
    return len(slot) == 2 and slot[0] == "rulings" and slot[1] != "description"  # rulings.yaml: key -> ruling


def poison(rules: Path) -> int:
    """Put a payload into every free-text location of every rule file under `rules`; returns how many."""
    count = 0
    for path in sorted(rules.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        schema, resolver = _schema_of(data, path.relative_to(rules).parts[0])
        seen = set()
        for slot, kind, most in list(_slots(data, schema, resolver)):
            if _a_formula_name(slot):
                continue
            if slot not in seen:
                seen.add(slot)
                _set(data, slot, _payload(count, kind, most))
                count += 1
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return count


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


def test_hostile_text_everywhere_runs_nothing_and_shows_escaped(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    count = poison(rules)
    assert count > 1000  # names, descriptions and notes of every entry, step and error
    out = tmp_path / "out"
    env = {**os.environ, "RULEC_CACHE_DIR": "off"}
    result = subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", str(rules), "--out", str(out)],
                            cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert not (tmp_path / MARKER).exists(), "a payload ran during the build"
    traces: list[str] = []
    for ruleset in ("dp", "d20", "tracks"):
        code = (f"import sys; sys.path.insert(0, {str(out / ruleset)!r}); import rulec_{ruleset} as m; "
                "info = m.PROCEDURE_INFO; assert info and all(v['name'] for v in info.values()); "
                "w = next(iter(m.WEAPONS)); r = m.attack(m.Combatant(), m.Combatant(), w, dice=m.SeededDice(3)); "
                "t = r.text(); print(t); assert '#' in t, t")
        run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr[-2000:]
        traces.append(run.stdout)
    assert not (tmp_path / MARKER).exists(), "a payload ran when a package was imported or resolved an attack"
    node = shutil.which("node")
    if node is not None:  # the JavaScript target: the module and the single-file script
        for ruleset, python_trace in zip(("dp", "d20", "tracks"), traces):
            js = out / "js" / ruleset
            script = ("const m = await import(process.argv[1]); const vm = await import('node:vm');"
                      "const fs = await import('node:fs');"
                      "const w = m.WEAPONS.keys().next().value;"
                      "const t = m.attack(new m.Combatant(), new m.Combatant(), w, {dice: new m.SeededDice(3)}).text();"
                      "if (!t.includes('#')) throw new Error(t);"
                      "const c = vm.createContext({}); vm.runInContext(fs.readFileSync(process.argv[2], 'utf8'), c);"
                      f"if (c.rulec_{ruleset}.attack(new c.rulec_{ruleset}.Combatant(), "
                      f"new c.rulec_{ruleset}.Combatant(), w).text().length < 1) throw new Error('empty');"
                      "console.log(t);")
            run = subprocess.run([node, "--input-type=module", "-e", script, (js / "index.js").as_uri(),
                                  str(js / f"rulec_{ruleset}.user.js")], cwd=tmp_path, capture_output=True, text=True,
                                 timeout=120)
            assert run.returncode == 0, run.stderr[-2000:]
            assert run.stdout == python_trace  # the same sentences, payloads shown as text, as in Python
        assert not (tmp_path / MARKER).exists(), "a payload ran in the JavaScript module or script"
    assert any("__import__" in t for t in traces)  # the sentences show the payloads as text
    for page in sorted((out / "reference").glob("*.html")):
        html = page.read_text(encoding="utf-8")
        assert "<script>alert(1)</script>" not in html and "</textarea>" not in html, page.name
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html or page.name.startswith("index"), page.name
    for page in sorted((out / "reference").glob("*.md")) + sorted(out.glob("*/README.md")) + \
            sorted(out.glob("js/*/README.md")):
        text = page.read_text(encoding="utf-8")
        prose = re.sub(r"(?<!\\)`[^`]*`", "", text)  # a code span shows its text as it is
        assert "<script>" not in prose and "</textarea>" not in prose, page.name
        _table_rows_are_whole(text, page.name)
