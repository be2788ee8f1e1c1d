"""examples/bot: a chat-command handler that uses only the generated packages, end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def test_one_fight_per_chat_keeps_the_tracks():
    """The bot keeps a fight per chat between messages (as Fight.to_dict JSON) and shows each
    combatant's damage and track points after every hit."""
    out = ask(".fight tracks 甲 力量=9 格斗=9 / 乙 敏捷=1 感知=1 基础防御=4",  # 11 dice a hit: one lands
              ".hit 甲 乙 fist 部位=jaw", ".hit 甲 乙 fist 部位=jaw", ".next", ".status",
              ".hit 乙 丙 fist")
    assert "战斗开始：甲、乙（轮到甲）" in out
    assert "乙：所受伤害" in out and "眩晕" in out and "第1轮，轮到乙" in out
    assert "无法结算：战斗中没有“丙”" in out
