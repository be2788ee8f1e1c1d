"""The SealDice plugins (examples/sealdice/) and the single-file scripts, loaded the way SealDice
loads them (issue 31): every file wrapped as its own CommonJS module function, as goja_nodejs
`require` does, in SealDice's order (file names, then `// @depends author:name`), against a stand-in
`seal` API with SealDice's shapes (tests/js/seal_host.js) — in Node and in QuickJS, an engine other
than V8 (the `quickjs` package of PyPI). The replies are the Python bot's (examples/bot/bot.py) for
the same chat line and seed.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from every_ruleset import BUNDLED

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
SEALDICE = ROOT / "examples" / "sealdice"
HOST = ROOT / "tests" / "js" / "seal_host.js"
RULESETS = BUNDLED  # examples/sealdice/ holds a plugin per bundled ruleset
SEED = 20240607

# A file with a top-level var, and one that looks for it: under SealDice's module wrapper the
# second cannot see the first.
PROBES = {
    "0_probe.js": "var rulec_probe = 1;\n",
    "1_probe_check.js": ("var ext = seal.ext.new('probe', 't', '1'); seal.ext.register(ext);\n"
                         "var cmd = seal.ext.newCmdItemInfo(); cmd.name = 'probe';\n"
                         "cmd.solve = function (ctx, msg) { seal.replyToSender(ctx, msg, typeof rulec_probe);"
                         " return seal.ext.newCmdExecuteResult(true); };\next.cmdMap.probe = cmd;\n"),
    # Loaded after rulec_chat (it depends on it): the replies use this seed, as the bot's do.
    "zz_seed.js": (f"// ==UserScript==\n// @name zz_seed\n// @author test\n// @depends rulec:rulec_chat\n"
                   f"// ==/UserScript==\nglobalThis.rulec_chat.options.seed = {SEED};\n"),
}

# (plugin line, the Python bot's line): the same attack in the two syntaxes.
LINES = [
    (".dp atk 长剑 力量=4 武技=3 专业=1 vs 基础防御=4 盔甲防御=2 距离=1", ".atk dp 长剑 力量=4 武技=3 专业=1 vs 基础防御=4 盔甲防御=2 距离=1"),
    (".dp atk 拳 力量=5 武技=8 vs 基础防御=8 盔甲防御=4", ".atk dp 拳 力量=5 武技=8 vs 基础防御=8 盔甲防御=4"),
    (".dp odds 长剑 力量=4 武技=3 vs 6", ".odds dp 长剑 力量=4 武技=3 vs 6"),
    (".dp atk 长弓 用手数=1", ".atk dp 长弓 用手数=1"),
    (".dp atk 不存在的武器", ".atk dp 不存在的武器"),
    (".dp atk 长剑 力量=四", ".atk dp 长剑 力量=四"),
    (".dp atk 长剑 力量＝４ 武技=3 vs 基础防御=4", ".atk dp 长剑 力量＝４ 武技=3 vs 基础防御=4"),
    (".d20 atk longsword 力量=16 熟练加值=2 vs 护甲等级=15", ".atk d20 longsword 力量=16 熟练加值=2 vs 护甲等级=15"),
    (".d20 odds longsword 力量=16 熟练加值=2 vs 15", ".odds d20 longsword 力量=16 熟练加值=2 vs 15"),
    (".d20 atk longswrd 力量=16", ".atk d20 longswrd 力量=16"),
    (".tracks atk fist 力量=6 格斗=5 vs 基础防御=2", ".atk tracks fist 力量=6 格斗=5 vs 基础防御=2"),
    (".tracks atk pistol 敏捷=5 枪械=20 vs 基础防御=2 连射数=6 距离=110",
     ".atk tracks pistol 敏捷=5 枪械=20 vs 基础防御=2 连射数=6 距离=110"),
    (".tracks odds fist 力量=6 格斗=5 vs 2", ".odds tracks fist 力量=6 格斗=5 vs 2"),
]
OWN_LINES = [".dp help", ".dp", ".dp akt 长剑", ".d20 atk 长剑 力量=16 熟练佳值=2", ".tracks 帮助", ".probe",
             ".no_such_command", ".dp atk 长剑 constructor=5", ".dp atk 长剑 __proto__=5",
             ".atk 长剑 15 __proto__ 5", ".atk \u202eevil\u202c 15", ".atk " + "长" * 5000 + " 15"]


def _files(built: Path, tmp_path: Path, *, renamed: bool = True, without: tuple[str, ...] = (),
           fight: bool = False) -> list[Path]:
    """The scripts a group would install, plus the probes; with `renamed`, each plugin under a name
    that sorts before its library, so only @depends can put it after; with `fight`, the fight
    plugins too (tests/test_sealdice_fight.py)."""
    out = [built / "js" / rs / f"rulec_{rs}.user.js" for rs in RULESETS]
    for plugin in sorted(SEALDICE.glob("*.js")):
        if plugin.name.startswith("rulec_fight") and not fight:
            continue
        target = tmp_path / (f"a_{plugin.name}" if renamed and plugin.name != "rulec_chat.js" else plugin.name)
        shutil.copy(plugin, target)
        out.append(target)
    for name, text in PROBES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        out.append(tmp_path / name)
    return [f for f in out if f.name not in without]


def run_node(files: list[Path], lines: list[Any], store: dict[str, Any] | None = None) -> dict[str, Any]:
    assert NODE is not None
    request = json.dumps({"files": [str(f) for f in files[::-1]], "lines": lines, "store": store or {}},
                         ensure_ascii=False)
    done = subprocess.run([NODE, str(ROOT / "tests" / "js" / "seal_run.mjs")], input=request, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def run_quickjs(files: list[Path], lines: list[Any], store: dict[str, Any] | None = None) -> dict[str, Any]:
    quickjs = pytest.importorskip("quickjs")
    context = quickjs.Context()
    context.set_time_limit(120)
    context.set_memory_limit(1 << 30)
    context.eval(HOST.read_text(encoding="utf-8"))
    texts = [[f.name, f.read_text(encoding="utf-8")] for f in files]
    out: dict[str, Any] = json.loads(context.eval(
        f"JSON.stringify(sealHost({json.dumps(texts, ensure_ascii=False)}, {json.dumps(lines, ensure_ascii=False)}, "
        f"{json.dumps(store or {}, ensure_ascii=False)}))"))
    return out


def _bot_replies(request: pytest.FixtureRequest) -> list[str]:
    for rs in RULESETS:
        request.getfixturevalue("package")(rs)  # the fresh build's packages, imported before the bot looks
    spec = importlib.util.spec_from_file_location("rulec_test_bot", ROOT / "examples" / "bot" / "bot.py")
    assert spec is not None and spec.loader is not None
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    return [bot.handle(python_line, seed=SEED) for _, python_line in LINES]


def _check_loaded(out: dict[str, Any]) -> None:
    assert out["failed"] == [], out["failed"]
    order = out["loaded"]
    for rs in RULESETS:
        assert order.index(f"rulec_{rs}.user.js") < order.index(f"a_rulec_{rs}_plugin.js")
        assert order.index("rulec_chat.js") < order.index(f"a_rulec_{rs}_plugin.js")
    assert order.index("rulec_d20.user.js") < order.index("a_rulec_atk.js")
    assert order.index("rulec_chat.js") < order.index("zz_seed.js")


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")
def test_plugins_load_as_sealdice_loads_them_and_answer_as_the_python_bot(
        built: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    files = _files(built, tmp_path)
    out = run_node(files, [line for line, _ in LINES] + OWN_LINES)
    _check_loaded(out)
    replies = out["replies"]
    assert replies[:len(LINES)] == _bot_replies(request)
    own = dict(zip(OWN_LINES, replies[len(LINES):]))
    assert own[".dp help"].startswith(".dp atk 武器") and own[".dp"] == own[".dp help"]
    assert own[".tracks 帮助"].startswith(".tracks atk 武器")
    assert own[".dp akt 长剑"] == "无法理解：没有子命令“akt”，是否想找“atk”？（.dp help 查看用法）"
    assert own[".d20 atk 长剑 力量=16 熟练佳值=2"] == "无法理解：没有名为“熟练佳值”的属性或选项，是否想找“熟练加值”？"
    assert own[".probe"] == "undefined"  # a top-level var stays in its own file, as in SealDice
    assert own[".no_such_command"] is None
    for word in ("constructor", "__proto__"):  # a word of Object.prototype is no option, nor a stat
        assert own[f".dp atk 长剑 {word}=5"].startswith(f"无法理解：没有名为“{word}”的属性或选项"), own
    assert "__proto__" in own[".atk 长剑 15 __proto__ 5"]  # refused by name, not dropped as a prototype
    assert own[".atk \u202eevil\u202c 15"] == "没有名为“evil”的武器"  # no bidirectional control comes back
    assert len(own[".atk " + "长" * 5000 + " 15"]) < 100


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")
def test_a_plugin_without_its_library_is_not_loaded(built: Path, tmp_path: Path) -> None:
    out = run_node(_files(built, tmp_path, without=("rulec_dp.user.js",)), [".dp help", ".d20 help"])
    assert out["failed"] == [["a_rulec_dp_plugin.js", "missing dependency rulec:rulec_dp"]]
    assert out["replies"][0] is None and out["replies"][1].startswith(".d20 atk")


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")
def test_the_library_alone_defines_its_global_under_the_module_wrapper(built: Path, tmp_path: Path) -> None:
    """Each script, loaded alone as a module, leaves exactly its global (and the plugin's check of
    it, in a separate file, finds it)."""
    check = tmp_path / "zz_check.js"
    check.write_text("// ==UserScript==\n// @name zz_check\n// @author test\n// @depends rulec:rulec_d20\n"
                     "// ==/UserScript==\nvar ext = seal.ext.new('check', 't', '1'); seal.ext.register(ext);\n"
                     "var cmd = seal.ext.newCmdItemInfo(); cmd.name = 'check';\n"
                     "cmd.solve = function (ctx, msg) { seal.replyToSender(ctx, msg, [typeof rulec_d20, "
                     "Object.isFrozen(rulec_d20), rulec_d20.VERSION, typeof rulec_dp].join(' '));"
                     " return seal.ext.newCmdExecuteResult(true); };\next.cmdMap.check = cmd;\n", encoding="utf-8")
    out = run_node([built / "js" / "d20" / "rulec_d20.user.js", check], [".check"])
    assert out["failed"] == [] and out["replies"][0].split(" ")[:2] == ["object", "true"]
    assert out["replies"][0].endswith(" undefined")


def test_plugins_run_in_quickjs_as_in_node(built: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """QuickJS (not V8) loads the same files in the same order and gives the Python bot's replies."""
    files = _files(built, tmp_path)
    lines = [line for line, _ in LINES]
    out = run_quickjs(files, lines + [".probe", ".dp akt 长剑"])
    _check_loaded(out)
    assert out["replies"][:len(LINES)] == _bot_replies(request)
    assert out["replies"][len(LINES):] == ["undefined", "无法理解：没有子命令“akt”，是否想找“atk”？（.dp help 查看用法）"]
