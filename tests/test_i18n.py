"""Chinese first, English available (issue 32): every message rulec prints comes from one catalogue
(compiler/messages) in both languages with the same placeholders; the language follows `--lang`,
`RULEC_LANG` and the locale; `--format json` carries the same codes in both; and no sentence for a
person is written outside the catalogue in compiler/ (a source scan, as tests/test_js_code.py does
for generated JavaScript)."""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulec.cli.main import main
from rulec.messages import CATALOGUE, choose, language, placeholders, say

ROOT = Path(__file__).resolve().parent.parent
COMPILER = ROOT / "compiler"
CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("RULEC_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("RULEC_CACHE_DIR", "off")
    choose(None)


# ---- the catalogue ----

def test_every_message_has_both_languages_with_the_same_placeholders():
    assert len(CATALOGUE) > 300
    for key, (zh, en) in CATALOGUE.items():
        assert zh.strip() and en.strip(), key
        assert placeholders(zh) == placeholders(en), key
        if re.search(r"[A-Za-z]{3}", re.sub(r"\{[^}]*\}|'[^']*'|`[^`]*`|[A-Za-z_./<>-]*[_./<>][A-Za-z_./<>-]*", "", zh)) \
                and not key.startswith(("help.", "cli.stage")):
            pass  # Chinese text may name keys, ids and commands in ASCII
        assert CJK.search(zh) or not re.search(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}", zh), f"{key}: Chinese side is English"
        assert not CJK.search(re.sub(r"\([^)]*\)|'[^']*'", "", en)) or key.startswith("unknown-ref."), \
            f"{key}: English side has Chinese"


def test_each_key_is_in_one_part_of_the_catalogue():
    """`say` imports only the parts it needs (the one its key's first word names first), so a key
    written in two parts could read differently by the order parts were asked for."""
    from importlib import import_module

    from rulec import messages

    seen: dict[str, str] = {}
    for part in messages._PARTS:
        for key in import_module(f"rulec.messages.{part}").MESSAGES:
            assert key not in seen, f"{key} is in {seen[key]} and {part}"
            seen[key] = part
    assert seen.keys() == CATALOGUE.keys()


def test_every_key_the_code_names_is_in_the_catalogue():
    for path in COMPILER.rglob("*.py"):
        if "messages" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for key in re.findall(r'say\("([^"]+)"', text):
            assert key in CATALOGUE, f"{path.relative_to(ROOT)}: {key}"
        for prefix in re.findall(r'say\(f"([^"{]+)\{', text):
            assert any(k.startswith(prefix) for k in CATALOGUE), f"{path.relative_to(ROOT)}: {prefix}"


def test_every_message_renders_in_both_languages():
    for key, (zh, _) in CATALOGUE.items():
        values = {name: 1 for name in placeholders(zh)}
        text = say(key, **values)
        assert text.in_language("zh") != "" and text.in_language("en") != ""


# ---- choosing the language ----

@pytest.mark.parametrize("env, want", [
    ({}, "zh"),  # no locale at all: Chinese, the audience's language
    ({"LANG": "C.UTF-8"}, "zh"), ({"LANG": "POSIX"}, "zh"),
    ({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LANG": "zh_TW.UTF-8"}, "zh"),
    ({"LANG": "en_US.UTF-8"}, "en"), ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
    ({"LC_MESSAGES": "zh_CN.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "en"),
    ({"LC_ALL": "zh_CN.UTF-8", "RULEC_LANG": "en"}, "en"),
    ({"LANG": "en_US.UTF-8", "RULEC_LANG": "zh"}, "zh"),
])
def test_the_language_follows_rulec_lang_then_the_locale(env, want, monkeypatch: pytest.MonkeyPatch):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert language() == want


def test_lang_option_wins_and_lasts_one_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("RULEC_LANG", "zh")
    runner = CliRunner()
    for args in (["--lang", "en", "validate", "--help"], ["validate", "--help", "--lang", "en"],
                 ["validate", "--lang=en", "--help"]):
        out = runner.invoke(main, args).output
        assert "Usage:" in out and "Check rule folders" in out, args
    out = runner.invoke(main, ["validate", "--help"]).output
    assert "用法：" in out and "检查规则文件夹" in out and "选项" in out


def test_help_is_chinese_by_default_and_english_on_request():
    runner = CliRunner()
    zh = runner.invoke(main, ["--help"]).output
    assert "命令" in zh and "编译" in zh and "显示本帮助并退出" in zh
    en = runner.invoke(main, ["--help", "--lang", "en"]).output
    assert "Commands" in en and "Show this message and exit." in en
    for command in ("build", "validate", "resolve", "odds", "test", "import"):
        text = runner.invoke(main, [command, "--help"]).output
        assert CJK.search(text.split("\n", 2)[2]), command
        options = text.split("选项", 1)[1]
        for line in options.splitlines():  # every option's own help is Chinese
            if line.startswith("  -") and len(line.split(None, 2)) == 3 and "[" not in line.split(None, 2)[1]:
                assert CJK.search(line), (command, line)


BROKEN = "kind: table\ntable: weapons\nentries:\n  - {id: x, name: 刀, damge: 3}\n"


def _broken_folder(tmp_path: Path) -> Path:
    import shutil

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "dp", rules / "dp")
    (rules / "dp" / "tables" / "extra.yaml").write_text(BROKEN, encoding="utf-8")
    return rules


def test_diagnostics_in_chinese_and_english_with_the_same_codes(tmp_path: Path):
    rules = _broken_folder(tmp_path)
    runner = CliRunner()
    got = {}
    for lang in ("zh", "en"):
        result = runner.invoke(main, ["--lang", lang, "validate", str(rules), "--format", "json"])
        assert result.exit_code == 1
        got[lang] = json.loads(result.stdout)
    assert [d["code"] for d in got["zh"]] == [d["code"] for d in got["en"]] and got["zh"]
    assert [(d["file"], d["line"], d["col"]) for d in got["zh"]] == [(d["file"], d["line"], d["col"]) for d in got["en"]]
    assert any(CJK.search(d["message"]) for d in got["zh"])
    assert not any(CJK.search(d["message"].replace("刀", "")) for d in got["en"] if "'" not in d["message"])
    text = runner.invoke(main, ["validate", str(rules)]).output
    first = text.splitlines()[0]
    assert re.match(r"\S+extra\.yaml:4:\d+: 错误\[[a-z-]+\]：", first), first  # file:line:col first, as compilers print


# ---- Task C: text that YAML reads as structure ----

def test_a_colon_in_flow_text_says_quote_it_and_every_line_is_reported(tmp_path: Path, monkeypatch):
    from rulec.load.documents import load_text

    text = ("kind: table\ntable: weapons\nentries:\n  - {id: a, name: 刀, description: 注意: 很快}\n"
            "  - {id: b, name: 剑}\n  - {id: c, name: 枪, notes: 小心: 很重, size: 1}\n")
    monkeypatch.setenv("RULEC_LANG", "en")
    doc, diags = load_text(text, "w.yaml")
    assert doc is None
    lines = text.split("\n")
    assert [(d.code, d.span.line) for d in diags] == [("quote-text", 4), ("quote-text", 6)]
    assert [lines[d.span.line - 1][d.span.col - 1:][:2] for d in diags] == ["注意", "小心"]  # at the text
    assert "quote this text" in diags[0].message and "description: '注意: 很快'" in diags[0].hint
    assert "请给这段文字加上引号" in diags[1].in_language("zh").message


def test_a_comma_in_flow_text_says_quote_it_not_a_list_of_keys(monkeypatch):
    from rulec.load.documents import load_text

    monkeypatch.setenv("RULEC_LANG", "en")
    doc, diags = load_text("kind: table\ntable: weapons\nentries:\n  - {id: a, name: 刀, description: 又快, 又狠}\n",
                           "w.yaml")
    assert doc is None
    (d,) = diags
    assert d.code == "quote-text" and d.span.line == 4 and "  - {id: a, name: 刀, description: 又快, 又狠}"[d.span.col - 1:][:2] == "又狠"
    assert "'又狠'" in d.message and "description: '又快, 又狠'" in d.hint


# ---- no sentence outside the catalogue ----

SINKS = {"Diagnostic", "_diagnostic", "FormulaError", "fail", "echo", "ClickException", "UsageError", "BadParameter",
         "WriteError", "_refuse", "ReadRefused", "bad"}
CODE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def _words(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.BinOp):
        return _words(node.left) + " " + _words(node.right)
    if isinstance(node, ast.BoolOp):
        return " ".join(_words(v) for v in node.values)
    if isinstance(node, ast.IfExp):
        return _words(node.body) + " " + _words(node.orelse)
    return ""


def _message_literals(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        args: list[ast.AST] = [k.value for k in node.keywords if k.arg in ("help", "message", "hint")]
        if name in SINKS or name == "error":
            args += list(node.args)
        for a in args:
            words = _words(a)
            if CODE.fullmatch(words) or not (re.search(r"[A-Za-z]{2,}", words) or CJK.search(words)):
                continue
            yield node.lineno, words


def test_no_message_literal_outside_the_catalogue():
    found = []
    for path in sorted(COMPILER.rglob("*.py")):
        parts = path.relative_to(COMPILER).parts
        if parts[0] in ("runtime", "messages"):  # the runtime answers in Chinese in generated packages
            continue
        found += [f"{path.relative_to(ROOT)}:{line}: {words[:60]!r}" for line, words in _message_literals(path)]
    assert not found, "messages written outside compiler/messages:\n" + "\n".join(found)


def test_the_scan_finds_a_literal():
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        bad = Path(folder) / "bad.py"
        bad.write_text('rep.error(span, "bad-thing", f"no such thing \'{x}\'")\necho("wrote it")\n'
                       'rep.error(span, "ok-code", say("ok.key"))\n', encoding="utf-8")
        assert [line for line, _ in _message_literals(bad)] == [1, 2]


@pytest.mark.slow  # two whole builds
def test_the_build_is_the_same_in_either_language(tmp_path: Path) -> None:
    """The pages and packages are in the rules' Chinese whatever language rulec speaks: a build
    with RULEC_LANG=en writes the same files as one in Chinese (a page text once came from `say`)."""
    import subprocess
    import sys

    trees = {}
    for lang in ("zh", "en"):
        out = tmp_path / lang
        env = {**os.environ, "RULEC_LANG": lang, "RULEC_CACHE_DIR": "off"}
        done = subprocess.run([sys.executable, "-m", "rulec", "build", "--out", str(out)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        trees[lang] = {p.relative_to(out): p.read_bytes() for p in out.rglob("*")
                       if p.is_file() and p.name != ".rulec-stamp.json"}
    assert trees["zh"].keys() == trees["en"].keys()
    assert [k for k in trees["zh"] if trees["zh"][k] != trees["en"][k]] == []
