"""The JavaScript quoting path (emit/js/code.py): every text reaches generated code as a literal
that Node reads back as exactly that text, in a module and in an ES2015 script; names are
checked; nothing but `Js` is accepted where code goes."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from rulec.emit.js.code import Js, UnquotedValue, data, join, js, literal, name, string

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
    with pytest.raises(UnquotedValue):
        js("{} = 1;", "x")  # type: ignore[arg-type]
    with pytest.raises(UnquotedValue):
        join(", ", ["x"])  # type: ignore[list-item]
    assert isinstance(js("{} = {};", name("x"), string("y")), Js)
