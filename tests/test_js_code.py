"""The JavaScript quoting path (emit/js/code.py): every text reaches generated code as a literal
that Node reads back as exactly that text, in a module and in an ES2015 script; names are
checked; nothing but `Js` is accepted where code goes."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from rulec.emit.js.code import (Js, UnquotedValue, Writer, comment, comment_text, data, data_lines, join, js, literal,
                                meta, name, source_file, string)
from rulec.emit.js.package import checked

ROOT = Path(__file__).resolve().parent.parent

NASTY = ["", "'", '"', "`", "${process.exit(1)}", "\\", "\\u0041", "</script><script>alert(1)</script>", "<!--",
         "-->", "*/ throw 1; /*", "\n", "\r\n", "\u2028", "\u2029", "\x00", "\x1b[31m", "\u202e", "\ufeff",
         "第一行\n第二行", "\ud800", "𝕏", "'+require('child_process').execSync('touch PWNED')+'"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (CI installs it)")
def test_every_text_reads_back_exactly_in_node() -> None:
    program = "const texts = [" + ", ".join(string(t) for t in NASTY) + "];\n" + \
        "const rows = " + data([(t, -1, True, None, [t]) for t in NASTY]) + ";\n" + \
        "process.stdout.write(JSON.stringify({texts, rows}));\n"
    for line in program.splitlines():
        assert "<" not in line and "\u2028" not in line
    done = subprocess.run([str(shutil.which("node")), "-e", program], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    back = json.loads(done.stdout)
    assert back["texts"] == NASTY
    assert [r[0] for r in back["rows"]] == NASTY and all(r[1:4] == [-1, True, None] for r in back["rows"])


def test_names_and_values_are_checked() -> None:
    for bad in ("a b", "class", "1x", "x-y", "constructor()", "eval", "undefined", ""):
        with pytest.raises(UnquotedValue):
            name(bad)
    with pytest.raises(UnquotedValue):
        literal(2**60)
    with pytest.raises(UnquotedValue):
        data((object(),))
    for row in [(1.5,), (2**53,), (-(2**53),), ({"a": 1},), ("x", [1, 2.5]), (object(),)]:
        with pytest.raises(UnquotedValue):
            data_lines([("ok", 1, True, None), row])
    assert data_lines([("甲", -(2**53 - 1), False, None, [1, ["x"]])]) == ['  ["甲", -9007199254740991, false, null, [1, ["x"]]],']
    with pytest.raises(UnquotedValue):
        js("{} = 1;", "x")  # type: ignore[arg-type]
    with pytest.raises(UnquotedValue):
        join(", ", ["x"])  # type: ignore[list-item]
    assert isinstance(js("{} = {};", name("x"), string("y")), Js)


# ---- one quoting path (issue 27): no plain string can become code ----

TERMINATORS = ["\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c"]
RUN = "globalThis.__pwned = 1;"
HOSTILE = NASTY + [t + RUN + "//" for t in TERMINATORS] + [
    "*/" + RUN + "/*", "</script><script>" + RUN + "</script>", "==/UserScript==\n// @require x",
    "// ==UserScript==", "-->" + RUN, "<!--" + RUN, "`${" + RUN + "}`", "\\\n" + RUN]


def test_plain_text_is_refused_wherever_code_goes() -> None:
    w = Writer()
    for bad in ("x = 1;", Js("a") + "b", f"{Js('a')}"):  # concatenating or formatting Js gives a plain str
        with pytest.raises(UnquotedValue):
            js("{};", bad)  # type: ignore[arg-type]
        with pytest.raises(UnquotedValue):
            join(", ", [Js("a"), bad])  # type: ignore[list-item]
        with pytest.raises(UnquotedValue):
            w.line(bad)  # type: ignore[arg-type]
        with pytest.raises(UnquotedValue):
            w.extend([bad])  # type: ignore[list-item]
        with pytest.raises(UnquotedValue):
            with w.block(bad):  # type: ignore[arg-type]
                pass
        with pytest.raises(UnquotedValue):
            checked({"index.js": bad})
        with pytest.raises(UnquotedValue):
            checked({"index.d.ts": bad})
    assert checked({"README.md": "# plain", "package.json": "{}", "index.js": Js("export {};\n")})
    assert isinstance(w.text(), Js)
    for bad_name in ("../x.js", "runtime.py", "nope.js"):
        with pytest.raises(UnquotedValue):
            source_file(bad_name)


def test_no_line_terminator_or_comment_end_survives_a_comment() -> None:
    for text in HOSTILE:
        for made in (comment(text), comment_text(text), meta("description", text)):
            assert isinstance(made, Js)
            assert not set(made) & {"\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c"}, repr(made)
            for end in ("*/", "</", "<!--", "-->", "==UserScript==", "==/UserScript=="):
                assert end not in made, (text, made)
        assert "==" not in meta("name", text)
        assert meta("name", text).startswith("// @name ")
    with pytest.raises(UnquotedValue):
        meta("na\nme", "x")
    with pytest.raises(UnquotedValue):
        comment_text(None)  # type: ignore[arg-type]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (CI installs it)")
def test_hostile_comments_run_nothing_in_a_module_or_a_script() -> None:
    lines = [Js("// ==UserScript==")] + [meta("description", t) for t in HOSTILE] + [Js("// ==/UserScript==")]
    lines += [comment(t) for t in HOSTILE] + [js("void 0;  {}", comment(t)) for t in HOSTILE]
    lines += [js("/* {} */", comment_text(t)) for t in HOSTILE]
    program = join("\n", lines) + "\n"
    check = ("const vm = require('node:vm'); const src = require('node:fs').readFileSync(0, 'utf8');"
             "vm.runInThisContext(src);"
             "if (globalThis.__pwned !== undefined) throw new Error('ran'); process.stdout.write('ok');")
    done = subprocess.run([str(shutil.which("node")), "-e", check], input=program, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0 and done.stdout == "ok", done.stderr
    module = program + "if (globalThis.__pwned !== undefined) throw new Error('ran');\nexport {};\n"
    done = subprocess.run([str(shutil.which("node")), "--input-type=module", "-"], input=module, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


# Modules that write JavaScript: the emitters of emit/js and each step kind's JavaScript handler.
EMITTERS = sorted({*ROOT.joinpath("compiler", "emit", "js").glob("*.py"), *ROOT.joinpath("compiler", "steps").glob("*.py")}
                  - {ROOT / "compiler" / "emit" / "js" / "code.py"})


def _violations(path: Path) -> list[str]:
    """Where `path` could turn a plain string into code: `Js(...)` of anything but a string written
    in the source (or `Js` passed around as a function), a `js`/`join` template that is not one,
    a call of `reread` (only emit/shape.py calls it — `kept_text`, `placed_text` — on a text whose
    digest the memo checked),
    or a `Writer`'s lines touched from outside code.py."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reread":
            # text read back from an output folder is Js only through emit/shape.py, its digest checked
            out.append(f"{where}: reread called by an emitter: {ast.unparse(node)[:100]}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("Js", "js", "join"):
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)) or node.keywords:
                out.append(f"{where}: {ast.unparse(node)[:100]}")
            if node.func.id == "Js" and len(node.args) != 1:
                out.append(f"{where}: {ast.unparse(node)[:100]}")
        elif isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id == "isinstance"):
            if any(isinstance(a, ast.Name) and a.id == "Js" for a in [*node.args, *(k.value for k in node.keywords)]):
                out.append(f"{where}: Js passed as a function: {ast.unparse(node)[:100]}")
        if isinstance(node, ast.Attribute) and node.attr == "lines":
            out.append(f"{where}: a Writer's lines: {ast.unparse(node)[:100]}")
    return out


def test_emitters_make_code_only_through_the_quoting_path() -> None:
    """A future f-string in an emitter fails here (and a plain string reaching a file fails the
    build: `checked`). The checker itself is checked on what it must refuse."""
    assert len(EMITTERS) > 10
    assert not [v for path in EMITTERS for v in _violations(path)]
    bad = ROOT / "tests" / "_bad_emitter.py"
    samples = ['Js(f"x{y}")', 'Js("a" + b)', "js(template, a)", 'join(sep, [a])', "w.lines.append(a)",
               "parenthesised(a, 1, 2, Js)", 'js(f"{a}")', 'reread(f"{a}")']
    try:
        for sample in samples:
            bad.write_text(sample + "\n", encoding="utf-8")
            assert _violations(bad), sample
    finally:
        bad.unlink()
