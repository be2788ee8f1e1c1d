"""The SealDice fight plugin (examples/sealdice/rulec_fight.js and rulec_fight_<id>.js, issue 31):
one fight per group in the extension's storage, kept across a bot restart (a second host run from
the store the first left, after a JSON round trip), loaded the way SealDice loads scripts
(tests/js/seal_host.js), in Node and QuickJS. Its replies and the stored `toDict` are the Python
package's for the same actions and seed; a stored fight that fails `fight_from_dict`'s checks is
refused in Chinese and dropped.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from rulec.runtime.fight_state import MAX_LOG
from test_sealdice import NODE, SEALDICE, _files, run_node, run_quickjs

KEY = "fight:QQ-Group:1"
SEED = 5  # faces that hit, so the fight has damage to keep
SEED_SCRIPT = ("// ==UserScript==\n// @name zz_seed\n// @author test\n// @depends rulec:rulec_chat\n"
               f"// ==/UserScript==\nglobalThis.rulec_chat.options.seed = {SEED};\n")
node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")

START = ".fight 甲 力量5 武技8 / 乙 基础防御8 盔甲防御2 察觉=是"
BEFORE = [START, ".hit 甲 乙 长剑 距离=1", ".hit 甲 乙 拳", ".status", ".next", ".hit 乙 甲 拳 全力一击=是", ".status"]
AFTER = [".status", ".hit 全力防御 甲", ".next", ".hit 攻击与防御的对抗 乙 甲 长剑", ".status 乙", ".end", ".status"]


@pytest.fixture(autouse=True)
def _js_fight(built: Path) -> None:
    if "start_fight" not in (built / "js" / "dp" / "rulec_dp.user.js").read_text(encoding="utf-8"):
        pytest.skip("the generated JavaScript has no fight yet (branch jsfight)")


def _dp_files(built: Path, tmp_path: Path) -> List[Path]:
    """What a group playing dp installs (the plugins renamed to sort before their libraries, so
    only @depends orders them), and the seed the replies use."""
    out = [built / "js" / "dp" / "rulec_dp.user.js", SEALDICE / "rulec_chat.js"]
    for name in ("rulec_fight.js", "rulec_fight_dp.js"):
        shutil.copy(SEALDICE / name, tmp_path / f"a_{name}")
        out.append(tmp_path / f"a_{name}")
    (tmp_path / "zz_seed.js").write_text(SEED_SCRIPT, encoding="utf-8")
    return out + [tmp_path / "zz_seed.js"]


def _python(dp: Any) -> Tuple[List[str], List[str], List[Dict[str, Any]]]:
    """The replies to BEFORE and AFTER, and the fight's to_dict after each part, from the Python
    package: the same actions with the same seed."""
    fight = dp.start_fight({"甲": dp.Combatant.from_dict({"力量": 5, "武技": 8}),
                            "乙": dp.Combatant.from_dict({"基础防御": 8, "盔甲防御": 2, "察觉": True})})
    statuses = lambda f: [f.status(n) for n in ("甲", "乙")]  # noqa: E731

    def act(procedure: str, roles: Dict[str, str], **options: Any) -> str:
        nonlocal fight
        action, after = fight.act(procedure, roles, dice=dp.SeededDice(SEED), **options)
        weapon = f"（{dp.get_weapon(options['weapon']).name}）" if "weapon" in options else ""
        head = "→".join(roles.values()) + "：" + dp.PROCEDURE_INFO[procedure]["name"] + weapon
        lines = [head, action.text(), *[f"· {x}" for x in after.log_since(fight)], *statuses(after)]
        fight = after
        return "\n".join(lines)

    def next_turn() -> str:
        nonlocal fight
        after = fight.next_turn()
        lines = [f"第{after.round}轮，轮到{after.actor}", *[f"· {x}" for x in after.log_since(fight)],
                 *statuses(after)]
        fight = after
        return "\n".join(lines)

    turn = lambda: f"第{fight.round}轮，轮到{fight.actor}"  # noqa: E731
    before = ["\n".join([f"战斗开始（DP骰池战斗规则）：甲、乙（{turn()}）", *statuses(fight)]),
              act("attack", {"attacker": "甲", "defender": "乙"}, weapon="长剑", distance=1),
              act("attack", {"attacker": "甲", "defender": "乙"}, weapon="拳"),
              "\n".join([turn(), *statuses(fight)]),
              next_turn(),
              act("attack", {"attacker": "乙", "defender": "甲"}, weapon="拳", power_attack=True),
              "\n".join([turn(), *statuses(fight)])]
    first = fight.to_dict()
    after = ["\n".join([turn(), *statuses(fight)]),
             act("total_defense", {"defender": "甲"}),
             next_turn(),
             act("attack", {"attacker": "乙", "defender": "甲"}, weapon="长剑"),
             "\n".join([turn(), fight.status("乙")]),
             "\n".join([f"战斗结束（第{fight.round}轮）", *statuses(fight)]),
             "本群还没有战斗：先用 .fight 开始（.fight help 查看用法）"]
    return before, after, [first, fight.to_dict()]


def _stored(out: Dict[str, Any]) -> Any:
    return json.loads(out["store"]["rulec-fight"][KEY])


@node
def test_a_fight_survives_a_restart_and_matches_python(built: Path, tmp_path: Path, dp: Any) -> None:
    """.fight, .hit x N, .status, .next; a restart (a new host from the stored strings only);
    .status shows the same fight, more actions, .end. Every reply and the stored toDict are the
    Python package's."""
    files = _dp_files(built, tmp_path)
    before, after, dicts = _python(dp)
    first = run_node(files, BEFORE)
    assert first["failed"] == [] and first["loaded"].index("a_rulec_fight_dp.js") > first["loaded"].index(
        "rulec_dp.user.js")
    assert first["replies"] == before
    assert _stored(first) == {"ruleset": "dp", "fight": dicts[0]}
    store = json.loads(json.dumps(first["store"]))  # the restart: only the stored strings survive
    second = run_node(files, AFTER, store)
    assert second["replies"] == after
    assert second["replies"][0] == first["replies"][-1]  # the same fight after the restart
    assert second["store"]["rulec-fight"][KEY] == ""  # .end dropped it


@node
def test_a_fight_whose_log_is_full_still_shows_what_each_command_adds(built: Path, tmp_path: Path, dp: Any) -> None:
    """A stored fight whose log holds its MAX_LOG lines drops one for each it adds: the replies
    show the lines each command added all the same (the plugin read `log.slice(before)`, which
    showed none once the log was full), as the Python package's `log_since` gives them."""
    fight = dp.start_fight({"甲": dp.Combatant.from_dict({"力量": 5, "武技": 8}),
                            "乙": dp.Combatant.from_dict({"基础防御": 8, "盔甲防御": 2, "察觉": True})})
    while len(fight.log) < MAX_LOG:
        fight = fight.next_turn()
    assert len(fight.log) == MAX_LOG
    store = {"rulec-fight": {KEY: json.dumps({"ruleset": "dp", "fight": fight.to_dict()}, ensure_ascii=False)}}
    action, hit = fight.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="拳", dice=dp.SeededDice(SEED))
    turned = hit.next_turn()
    again = turned.next_turn()  # one of the two starts a round: a line
    expected = [[f"· {x}" for x in b.log_since(a)] for a, b in ((fight, hit), (hit, turned), (turned, again))]
    assert expected[0] and (expected[1] or expected[2]) and len(again.log) == MAX_LOG
    out = run_node(_dp_files(built, tmp_path), [".hit 甲 乙 拳", ".next", ".next"], store)
    shown = [[x for x in reply.splitlines() if x.startswith("· ")] for reply in out["replies"]]
    assert shown == expected, out["replies"]


@node
def test_help_typos_groups_and_refusals(built: Path, tmp_path: Path) -> None:
    """`.fight help` (and a bare `.fight`) show the Chinese help; a typo of a procedure, stat,
    option or name gets "是否想找" (the package's close_match); each group has its own fight."""
    lines: List[Any] = [
        ".fight help", ".fight", ".status", START, ".fight 丙 力量1",
        ".hit grapel 甲 乙 拳", ".hit 甲 乙 拳 瞄准伦数=1", ".hit 甲", ".hit 甲 乙", ".status 甲甲",
        ["QQ-Group:2", ".status"], ["QQ-Group:2", ".fight 丙 基础仿御5"], ["QQ:7", ".fight 丁 / 戊"],
        ["QQ:7", ".status"], ".hit 甲 乙 拳 距离=一", ".hit 甲 乙 长箭",
        ["QQ-Group:5", ".fight 2 / 1 / __proto__"], ["QQ-Group:5", ".hit __proto__ 1 拳"], ["QQ-Group:5", ".status"],
    ]
    out = run_node(_dp_files(built, tmp_path), lines)
    r = out["replies"]
    assert r[0] == r[1] and r[0].startswith(".fight [规则集] [回合制] 名字 属性值") and "已启用的规则集：dp（DP骰池战斗规则）" in r[0]
    assert "\ndp 的过程：攻击与防御的对抗、炮击、" in r[0] and "、擒抱、" in r[0]
    assert r[2] == "本群还没有战斗：先用 .fight 开始（.fight help 查看用法）"
    assert r[3].startswith("战斗开始（DP骰池战斗规则）：甲、乙（第1轮，轮到甲）")
    assert r[4] == "无法理解：本群已有一场战斗（甲、乙，第1轮，轮到甲）：先用 .end 结束"
    assert r[5] == "无法理解：没有名为“grapel”的过程或角色，是否想找“grapple”？"
    assert r[6] == "无法理解：“攻击与防御的对抗”没有选项“瞄准伦数”，是否想找“瞄准轮数”？"
    assert r[7] == "无法理解：“攻击与防御的对抗”要写2名角色：攻击方 防御方（.hit 攻击方 防御方 ...）"
    assert r[8] == "无法理解：缺少武器"
    assert r[9] == "无法理解：战斗中没有“甲甲”，是否想找“甲”？"
    assert r[10] == r[2]  # another group has no fight
    assert r[11] == "无法理解：没有名为“基础仿御”的属性，是否想找“基础防御”？"
    assert r[12].startswith("战斗开始（DP骰池战斗规则）：丁、戊") and r[13].startswith("第1轮，轮到丁")
    assert r[14] == "无法理解：“一”不是整数，也不是“是”或“否”"
    assert r[15].startswith("无法结算：没有名为“长箭”的武器")
    # names act in the order given, whatever they are (a Map, not an object's key order)
    assert r[16].startswith("战斗开始（DP骰池战斗规则）：2、1、__proto__（第1轮，轮到2）")
    assert r[17].startswith("__proto__→1：攻击与防御的对抗（拳）")
    assert [x.split("：")[0] for x in r[18].splitlines()] == ["第1轮，轮到2", "2", "1", "__proto__"]
    assert sorted(out["store"]["rulec-fight"]) == [KEY, "fight:QQ-Group:5", "fight:private:QQ:7"]


@node
def test_a_fight_with_the_turn_budget_refuses_what_does_not_fit(built: Path, tmp_path: Path, dp: Any) -> None:
    """`.fight 回合制 ...` starts the fight with the ruleset's turn budget (TR-F04's kind, DP-F06's
    action economy): the reply and `.status` say what the actor has left, a second standard action
    in one turn is refused in the package's own words, and the stored fight keeps the budget."""
    lines = [".fight 回合制 甲 力量5 武技8 / 乙 基础防御8 盔甲防御2", ".hit 甲 乙 拳", ".hit 甲 乙 拳", ".next",
             ".hit 乙 甲 拳", ".status"]
    out = run_node(_dp_files(built, tmp_path), lines)
    r = out["replies"]
    fight = dp.start_fight({"甲": dp.Combatant.from_dict({"力量": 5, "武技": 8}),
                            "乙": dp.Combatant.from_dict({"基础防御": 8, "盔甲防御": 2})}, turns=True)
    assert r[0].startswith(f"战斗开始（DP骰池战斗规则）：甲、乙（第1轮，轮到甲，本回合剩余{fight.left('甲')}）")
    _, after = fight.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="拳", dice=dp.SeededDice(SEED))
    with pytest.raises(dp.RuleError) as refused:
        after.resolve("attack", {"attacker": "甲", "defender": "乙"}, weapon="拳", dice=dp.SeededDice(SEED))
    assert r[2] == f"无法结算：{refused.value.message}"
    assert r[3].startswith(f"第1轮，轮到乙，本回合剩余{after.next_turn().left('乙')}")
    assert r[4].startswith("乙→甲：攻击与防御的对抗（拳）") and r[5].startswith("第1轮，轮到乙，本回合剩余")
    assert _stored(out)["fight"]["turns"] is True


@node
def test_a_tampered_stored_fight_is_refused_and_dropped(built: Path, tmp_path: Path, dp: Any) -> None:
    """Records that fail fight_from_dict's checks (a turn, a stat out of range, two combatants of
    one name, a wrong shape) or are not a record at all: the first command of the group says so
    in Chinese and drops it, the next finds no fight; the bot never fails. One group per case."""
    record = {"ruleset": "dp", "fight": _python(dp)[2][0]}  # what the plugin stores (the restart test)
    cases = []
    for change in ("turn", "stat", "name", "shape"):
        data = json.loads(json.dumps(record))
        if change == "turn":
            data["fight"]["turn"] = -3
        elif change == "stat":
            data["fight"]["members"][0]["stats"]["strength"] = 10 ** 9
        elif change == "name":
            data["fight"]["members"][1]["name"] = data["fight"]["members"][0]["name"]
        else:
            data["fight"]["members"] = "甲"
        cases.append(json.dumps(data, ensure_ascii=False))
    cases += ["{not json", json.dumps({"ruleset": "dp", "fight": None}), "[1, 2]", "x" * 600000]
    other = json.dumps({"ruleset": "tracks", "fight": record["fight"]})  # a ruleset whose plugin is not installed
    groups = [f"QQ-Group:{10 + i}" for i in range(len(cases) + 1)]
    store = {"rulec-fight": {f"fight:{g}": text for g, text in zip(groups, [*cases, other])}}
    lines: List[Any] = [[g, ".status"] for g in groups for _ in range(2)]
    out = run_node(_dp_files(built, tmp_path), [*lines, ["QQ-Group:99", ".end"], ["QQ-Group:99", ".status"]],
                   {"rulec-fight": {**store["rulec-fight"], "fight:QQ-Group:99": other}})
    replies = out["replies"][:len(lines)]
    assert out["replies"][len(lines):] == ["已删除本群无法读取的战斗记录", "本群还没有战斗：先用 .fight 开始（.fight help 查看用法）"]
    for i, text in enumerate(cases):
        first, second = replies[2 * i:2 * i + 2]
        assert first.startswith("无法理解：本群保存的战斗记录") and first.endswith("已丢弃（.fight 重新开始）"), (text, first)
        assert second == "本群还没有战斗：先用 .fight 开始（.fight help 查看用法）"
        assert out["store"]["rulec-fight"][f"fight:{groups[i]}"] == ""
    assert "未通过检查：" in replies[0]  # the library's reason is shown
    # a fight of a ruleset whose plugin is not installed is kept (the plugin may come back); .end removes it
    assert replies[-1] == replies[-2] == "无法理解：本群的战斗使用规则集“tracks”，它的战斗插件没有加载（.end 删除这场战斗）"
    assert out["store"]["rulec-fight"][f"fight:{groups[-1]}"] == other


@pytest.mark.slow
@node
def test_every_fight_plugin_together_names_the_ruleset(built: Path, tmp_path: Path) -> None:
    """With the dp, d20 and tracks fight plugins installed, `.fight <id>` picks the ruleset and
    each group keeps its own; every script loads in SealDice's order."""
    files = _files(built, tmp_path, fight=True)
    out = run_node(files, [".fight 甲 力量5", ".fight dp 甲 力量5 / 乙", ["QQ-Group:2", ".fight d20 甲 力量=16 / 乙 护甲等级=12"],
                           ["QQ-Group:3", ".fight tracks 甲 力量=6 格斗=5 / 乙 基础防御=2"], ".hit 甲 乙 拳",
                           ["QQ-Group:2", ".hit 甲 乙 longsword"], ["QQ-Group:3", ".hit 甲 乙 fist"], ".fight help"])
    assert out["failed"] == []
    r = out["replies"]
    assert r[0] == "无法理解：请指明规则集：.fight d20|dp|tracks 名字 属性值 ... / 名字 属性值 ..."
    assert r[1].startswith("战斗开始（DP骰池战斗规则）") and r[2].startswith("战斗开始（d20攻击规则）")
    assert r[3].startswith("战斗开始（计时骰池与负面点数规则）")
    assert all(not x.startswith("无法") for x in r[4:7]), r[4:7]
    assert r[7].endswith("已启用的规则集：d20（d20攻击规则）、dp（DP骰池战斗规则）、tracks（计时骰池与负面点数规则）")


def test_the_fight_plugin_runs_in_quickjs_as_in_node(built: Path, tmp_path: Path, dp: Any) -> None:
    """QuickJS (not V8): the same session, restart included, gives the Python package's replies;
    a tampered record is refused there too."""
    files = _dp_files(built, tmp_path)
    before, after, dicts = _python(dp)
    first = run_quickjs(files, BEFORE)
    assert first["failed"] == [] and first["replies"] == before
    assert _stored(first) == {"ruleset": "dp", "fight": dicts[0]}
    store = json.loads(json.dumps(first["store"]))
    bad = json.loads(store["rulec-fight"][KEY])
    bad["fight"]["turn"] = -1
    store["rulec-fight"]["fight:QQ-Group:9"] = json.dumps(bad)  # a tampered record in another group
    second = run_quickjs(files, [*AFTER, ["QQ-Group:9", ".status"], ["QQ-Group:9", ".status"]], store)
    assert second["replies"][:len(AFTER)] == after
    assert second["replies"][-2].startswith("无法理解：本群保存的战斗记录未通过检查")
    assert second["replies"][-1] == after[-1] and second["store"]["rulec-fight"]["fight:QQ-Group:9"] == ""


@node
@pytest.mark.slow
def test_random_chat_lines_never_break_the_fight_plugin(built: Path, tmp_path: Path) -> None:
    """Chat lines from strangers: random mixes of commands, names, procedures, weapons, options and
    junk (across groups, with fights started and ended on the way) are each answered with a reply
    or the help, never an exception out of a command or the plugin's internal-error line."""
    import random

    rng = random.Random(31)
    words = ["甲", "乙", "丙", "长剑", "拳", "长弓", "擒抱", "grapple", "全力防御", "aim", "瞄准", "压制对手", "vs", "/",
             "距离=1", "距离=-5", "距离=99999999999", "全力一击=是", "用手数=1", "力量5", "力量=一", "武技8", "基础防御=8",
             "察觉=是", "特定部位=头", "=", "=3", "力量==2", "help", "帮助", "dp", "d20", "tracks", "\u202e甲", "甲\u0000",
             "力量５", "x" * 300, "名" * 40, "{}", "null", "__proto__", "constructor", "toString"]
    commands = [".fight", ".hit", ".status", ".next", ".end"]
    starts = ["甲 乙", "乙 甲", "擒抱 甲 乙", "全力防御 甲", "aim 乙", "压制对手 甲 乙", "甲 乙 长剑", "乙 甲 拳", "grapple 乙 甲 拳"]
    lines: List[Any] = []
    for _ in range(400):
        group = f"QQ-Group:{rng.randrange(3)}"
        if rng.random() < 0.08:
            lines.append([group, START])
            continue
        command = rng.choices(commands, weights=[1, 8, 1, 2, 0.3])[0]
        head = [rng.choice(starts)] if command == ".hit" and rng.random() < 0.7 else []
        lines.append([group, " ".join([command, *head, *[rng.choice(words) for _ in range(rng.randrange(4))]])])
    out = run_node(_dp_files(built, tmp_path), lines)
    for line, reply in zip(lines, out["replies"]):
        assert isinstance(reply, str) and reply, line
        assert not reply.startswith("PANIC") and not reply.startswith("无法处理这条命令"), (line, reply)
        assert "\u202e" not in reply and "\u0000" not in reply


def _ruleset_files(built: Path, tmp_path: Path, rid: str) -> List[Path]:
    out = [built / "js" / rid / f"rulec_{rid}.user.js", SEALDICE / "rulec_chat.js"]
    for name in ("rulec_fight.js", f"rulec_fight_{rid}.js"):
        shutil.copy(SEALDICE / name, tmp_path / f"a_{name}")
        out.append(tmp_path / f"a_{name}")
    (tmp_path / "zz_seed.js").write_text(SEED_SCRIPT, encoding="utf-8")
    return out + [tmp_path / "zz_seed.js"]


@node
def test_what_a_hostile_chat_user_sends_is_bounded_and_never_a_message_code(built: Path, tmp_path: Path) -> None:
    """Found by an adversarial review (2026-12-07): a fight of 100 combatants cost 2 s of goja's CPU
    a command, so a chat fight holds at most 20; a user's `[CQ:...]` or `[图:...]` echoed in a reply
    would be sent as an image, a file or a mention, so its `[` is shown full-width, and a name
    holding a bracket (shown in every reply after) is refused; a whole number given in the place
    of a positional parameter is read as one."""
    many = " / ".join(f"角色{i}" for i in range(21))
    lines: List[Any] = [
        f".fight {many}", ".fight [图:x] / 乙", ".hit [CQ:at,qq=all] 乙", ".fight 甲 / 乙",
        ".hit [CQ:image,file=https://example.invalid/a.png] 乙", ".status [图:x]", ".hit 先攻检定 甲 5",
    ]
    out = run_node(_ruleset_files(built, tmp_path, "tracks"), lines)
    r = out["replies"]
    assert r[0] == "无法理解：一场战斗至多20名角色"
    assert r[1] == "无法理解：角色名不能含有方括号：“［图:x]”"
    assert r[2] == "无法理解：本群还没有战斗：先用 .fight 开始（.fight help 查看用法）" or "[CQ:" not in r[2]
    assert r[3].startswith("战斗开始")
    assert all("[CQ:" not in x and "[图:" not in x for x in r), r
    assert "［CQ:image" in r[4] and "［图:x]" in r[5]
    assert r[6].startswith("甲：先攻检定"), r[6]
