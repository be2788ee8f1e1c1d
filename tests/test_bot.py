"""examples/bot: a chat-command handler that uses only the generated packages, end to end."""

from __future__ import annotations

import importlib.util
import random
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from every_ruleset import BUNDLED

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "examples" / "bot" / "bot.py"


def ask(*lines: str) -> str:
    """Run the bot as a separate program on stdin, without rulec's compiler on the path."""
    code = ("import sys, runpy; sys.argv = ['bot']; runpy.run_path(%r, run_name='__main__');"
            "import sys as s; assert not any(m == 'rulec' or m.startswith('rulec.') for m in s.modules), "
            "'the bot imported the compiler'" % str(BOT))
    result = subprocess.run([sys.executable, "-I", "-c", code], input="\n".join(lines) + "\n", text=True,
                            capture_output=True, cwd=ROOT / "examples")
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_attack_command_prints_the_trace():
    out = ask(".atk dp 长剑 力量=4 武技=3 专业=1 vs 基础防御=4 距离=1")
    assert "攻击与防御的对抗（长剑）" in out and "掷.ww" in out and "命中=" in out
    assert "伤害类型=严重" in out  # dp lethal damage is called 严重


def test_full_width_input_reads_as_ascii():
    out = ask(".atk dp 长剑 力量＝４ 武技=3 vs 基础防御=4", ".atk dp 长剑 力量=四")
    assert "攻击与防御的对抗（长剑）" in out
    assert "无法理解：“四”不是整数" in out


def test_odds_command_for_d20():
    out = ask(".odds d20 longsword 力量=16 熟练加值=2 vs 15")
    assert "长剑：命中率 55.0%" in out and "期望伤害" in out


def test_tracks_firearm_goes_through_burst_fire():
    out = ask(".atk tracks pistol 敏捷=5 枪械=20 vs 基础防御=2 连射数=6 距离=110")
    assert "枪械射击与连射" in out and "每次命中检定−21" in out


def test_refusals_and_nonsense_are_answered_in_chinese():
    out = ask(".atk dp 长弓 用手数=1", ".atk dp 不存在的武器", ".atk xx 长剑", "hello")
    assert "无法结算：“长弓”无法单手使用" in out
    assert "无法结算：没有名为“不存在的武器”的武器" in out
    assert "未知的规则集“xx”" in out


def test_a_message_code_from_the_chat_is_never_sent_back_as_one():
    """A user's `[CQ:...]` (OneBot, OlivaDice) or `[图:...]` (SealDice) echoed in a reply would be
    sent as an image, a file or a mention: its `[` comes back full-width (as rulec_chat.js does)."""
    out = ask(".atk dp [CQ:image,file=file:///etc/passwd]", ".atk [图:data/x.yaml] 长剑")
    assert "[CQ:" not in out and "[图:" not in out
    assert "［CQ:image" in out or "［图:" in out


def test_one_fight_per_chat_keeps_the_tracks():
    """The bot keeps a fight per chat between messages (as Fight.to_dict JSON) and shows each
    combatant's damage and track points after every hit."""
    out = ask(".fight tracks 甲 力量=9 格斗=9 / 乙 敏捷=1 感知=1 基础防御=4",  # 11 dice a hit: one lands
              ".hit 甲 乙 fist 部位=jaw", ".hit 甲 乙 fist 部位=jaw", ".next", ".status",
              ".hit 乙 丙 fist")
    assert "战斗开始：甲、乙（轮到甲）" in out
    assert "乙：所受伤害" in out and "眩晕" in out and "第1轮，轮到乙" in out
    assert "无法结算：战斗中没有“丙”" in out


def test_a_fight_with_the_turn_budget_refuses_a_second_standard_action():
    """`.fight 规则集 回合制 ...` counts each turn as the ruleset's turn structure declares (dp: one
    standard action): a second attack in 甲's turn is refused in Chinese, and 乙 acts after `.next`."""
    out = ask(".fight dp 回合制 甲 力量=4 武技=3 / 乙 基础防御=4", ".hit 甲 乙 拳", ".hit 甲 乙 拳", ".next",
              ".hit 乙 甲 拳", ".fight dp 回合制")
    assert "战斗开始：甲、乙（轮到甲）" in out
    assert "无法结算：甲本回合剩余标准动作0次" in out and "乙用去标准动作1次" in out
    assert "用法：.fight 规则集 [回合制]" in out


# ---- chat lines from strangers: handle() never raises, replies never echo hidden characters ----

HIDDEN = "\u202e\u0000\u200b\u2066\u0007\ufeff\u2028"


@pytest.fixture(scope="module")
def bot(package):  # type: ignore[no-untyped-def]
    """The bot's module, in this process, over the packages of this session's build (it knows the
    bundled rulesets)."""
    for ruleset in BUNDLED:
        package(ruleset)
    spec = importlib.util.spec_from_file_location("rulec_example_bot", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _visible(reply: str) -> bool:
    return not any(ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp")
                   for ch in reply)


def test_a_weapon_given_as_an_option_is_a_usage_line(bot):  # type: ignore[no-untyped-def]
    chat = "weapon-option"
    assert "战斗开始" in bot.handle(".fight tracks 甲 力量=6 格斗=5 / 乙 敏捷=1", chat=chat)
    for line in (".hit 甲 乙 fist weapon=fist", ".hit 甲 乙 fist 武器=拳", ".hit 甲 乙 fist attacker=3",
                 ".hit 甲 乙 weapon=fist", ".atk dp 长剑 weapon=长剑", ".hit 甲 乙 fist 部位=jaw 部位=eyes"):
        reply = bot.handle(line, chat=chat, seed=1)
        assert reply.startswith(("无法理解：", "用法：")), (line, reply)


def test_replies_never_echo_control_bidi_or_zero_width_characters(bot):  # type: ignore[no-untyped-def]
    for line in (f".atk dp 长剑{HIDDEN} 力量=4", f".atk dp 长剑 力量=4{HIDDEN}", f".fight tracks 甲{HIDDEN} 力量=1",
                 ".fight tracks 甲 力量=1 / 乙\u202e 敏捷=1", ".hit 甲\u202e 乙 fist", f".odds xx{HIDDEN} 长剑"):
        reply = bot.handle(line, chat="hidden", seed=1)
        assert reply is not None and _visible(reply), (line, reply)
        assert bot.INTERNAL not in reply


def test_a_fight_with_many_heavy_hits_keeps_answering(bot):  # type: ignore[no-untyped-def]
    """Eleven heavy hits used to push 目眩 past add_points' range; every later .hit then failed."""
    chat = "heavy"
    bot.handle(".fight tracks 甲 力量=30 格斗=30 / 乙", chat=chat)
    for i in range(15):
        reply = bot.handle(".hit 甲 乙 fist 部位=eyes 额外伤害=1000", chat=chat, seed=i)
        assert not reply.startswith(("无法", "用法")), reply
    assert "目眩10000" in reply and "已达上限10000" in bot.handle(".hit 甲 乙 fist 部位=eyes 额外伤害=1000",
                                                                 chat=chat, seed=99)


def _random_line(rng: random.Random) -> str:
    words = [".atk", ".odds", ".fight", ".hit", ".status", ".next", "dp", "d20", "tracks", "xx", "长剑", "longsword",
             "fist", "拳", "pistol", "长弓", "vs", "/", "甲", "乙", "丙", "=", "==", "力量=", "=5", "力量=4", "力量=99",
             "力量=-1", "力量=是", "武技=3", "敏捷=1", "基础防御=4", "距离=1", "距离=100000", "部位=jaw", "部位=nope",
             "weapon=fist", "武器=拳", "attacker=1", "defender=甲", "连射数=500", "连射数=0", "额外伤害=1000",
             "9" * 30, "1e9", "四", "力量＝４", HIDDEN, "\u202e甲", "甲\u200b", "x=" + "9" * 5000, "是", "否"]
    return " ".join(rng.choice(words) for _ in range(rng.randint(0, 9)))


def test_random_chat_lines_never_raise_out_of_handle(bot):  # type: ignore[no-untyped-def]
    """A small fuzz: random lines of command words, keys, values and hidden characters, in chats
    with and without a fight; every command gets a visible reply that is not the bot's internal-error
    line."""
    rng = random.Random(27)
    for chat in ("fuzz-a", "fuzz-b"):
        bot.handle(".fight tracks 甲 力量=9 格斗=9 / 乙 敏捷=1 感知=1", chat=chat)
    for i in range(400):
        line = _random_line(rng)
        if rng.random() < 0.5:
            line = rng.choice([".atk", ".odds", ".fight", ".hit", ".next"]) + " " + line
        reply = bot.handle(line, chat=rng.choice(["fuzz-a", "fuzz-b", "fuzz-none"]), seed=i)
        if reply is not None:
            assert _visible(reply) and bot.INTERNAL not in reply, (line, reply)


def test_the_full_width_stop_of_a_chinese_input_method_starts_a_command():
    out = ask("。atk dp 长剑 力量=4 武技=3 vs 基础防御=4", "｡odds dp 长剑 力量=4 vs 4")
    assert "攻击与防御的对抗（长剑）" in out and "长剑：命中率" in out


def test_a_repeated_vs_defense_or_stat_is_refused_not_overwritten():
    out = ask(".atk dp 长剑 力量=4 vs 4 vs 5", ".atk dp 长剑 vs 4 基础防御=5", ".atk dp 长剑 力量=4 strength=5",
              ".atk dp 长剑 vs 4 5")
    assert "无法理解：“vs”只能出现一次" in out
    assert "无法理解：属性“基础防御”给出了两次" in out
    assert "无法理解：属性“strength”给出了两次" in out
    assert "无法理解：防御方的主要防御给出了两次（“5”）" in out
    assert "攻击与防御的对抗" not in out


def test_odds_histogram_shows_the_values_that_carry_probability():
    out = ask(".odds dp 双手剑 力量=30 武技=20 专业=10 vs 1")
    rows = [line for line in out.splitlines() if line.rstrip().endswith("%") and "命中率" not in line]
    assert len(rows) == 12 and all(not row.endswith(" 0.0%") for row in rows), out
    values = [int(row.split()[0]) for row in rows]
    assert values == sorted(values) and min(values) > 10  # not the lowest (0.0%) values of the distribution
    assert re.search(r"（其余\d+个值共 \d+\.\d%）", out)
