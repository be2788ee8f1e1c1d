"""A chat-command handler for dice bots that uses only the generated packages (not the compiler).

Commands (the way a QQ dice-bot plugin would take them):

    .atk dp 长剑 力量=4 武技=3 专业=1 vs 基础防御=4 盔甲防御=2 距离=1
    .atk d20 longsword 力量=16 熟练加值=2 vs 护甲等级=15
    .odds d20 longsword 力量=16 vs 15
    .odds dp 长剑 力量=4 武技=3 vs 6

A fight per chat (the state between messages is kept as `Fight.to_dict()` JSON,
as a bot would store it):

    .fight tracks 甲 力量=6 格斗=5 / 乙 敏捷=1 感知=1 基础防御=2
    .hit 甲 乙 fist 部位=jaw        # resolve in the fight, apply the effects, show each combatant
    .status                          # every combatant's damage, track points, states, modifiers
    .next                            # the next combatant's turn

It is a stdin loop: run `python examples/bot/bot.py`, type a command per line, and it prints the
reply (a real bot calls `handle(message)` from its chat library instead). A line may begin with
the full-width stop a Chinese input method types (`。atk`).

Chat lines come from strangers: a malformed line is answered with a Chinese usage or error
line, never an exception out of `handle()`, and every reply goes through one filter (`_clean`)
that removes control, bidirectional and zero-width characters echoed from the chat.

`vs` separates the attacker's stats from the defender's; a bare number after
`vs` is the defender's main defense (dp 基础防御, d20 护甲等级, tracks 基础防御).
Keys that name a parameter of the attack procedure (距离, 瞄准轮数, ...) are
options. Full-width characters from an input method (`力量＝４`) read as
their ASCII forms.

Each ruleset's package is imported as `rulec_<ruleset>`: copy the
`generated/<ruleset>/rulec_<ruleset>/` folder next to this file, or
`pip install generated/<ruleset>`; nothing else is needed.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Tuple

# Run from the repository, the packages are in ../../generated/<ruleset>/rulec_<ruleset>.
GENERATED = Path(__file__).resolve().parents[2] / "generated"

PROCEDURE = {"dp": "attack", "d20": "attack", "tracks": "attack"}
MAIN_DEFENSE = {"dp": "basic_defense", "d20": "armor_class", "tracks": "basic_defense"}
FIREARM_PROCEDURE = {"tracks": ("firearm", "hit_fixed")}
MAX_MESSAGE = 2000  # characters of a chat line the bot reads
MAX_REPLY = 4000  # characters of a reply
HISTOGRAM_ROWS = 12  # damage values an .odds reply shows: the likeliest ones
POSITIONAL = ("weapon", "武器")  # given as a word of the command, never as 键=值


def _hidden(ch: str) -> bool:
    """A control (but a line break), format (bidirectional, zero-width), private-use, surrogate or
    unassigned character, or a line/paragraph separator."""
    return ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp")


# The `[` that opens a message code a user's words could carry back out in a reply (OlivaDice and
# other OneBot hosts read `[CQ:image,file=...]`, SealDice also `[图:...]`): made a full-width `［`.
_CODE = re.compile(r"\[(?=[^\[\]\s:：]{1,20}[:：])")


def _clean(text: str) -> str:
    """A reply as the chat shows it: without hidden characters or message codes, and at most
    MAX_REPLY long (as rulec_chat.js's clean)."""
    out = _CODE.sub("\uff3b", "".join(ch for ch in text if not _hidden(ch)))
    return out if len(out) <= MAX_REPLY else out[:MAX_REPLY - 1] + "…"


def _ruleset(name: str) -> ModuleType:
    if name not in PROCEDURE:
        raise ValueError(f"未知的规则集“{name}”，可用：{'、'.join(PROCEDURE)}")
    folder = GENERATED / name
    if folder.is_dir() and str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(f"rulec_{name}")


def _value(text: str) -> Any:
    if text in ("是", "true", "True"):
        return True
    if text in ("否", "false", "False"):
        return False
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"“{text}”不是整数，也不是“是”或“否”") from None


def _shown(module: ModuleType, value: Any, kind: str) -> str:
    """An outcome value in the rules' words: 是/否, or the name of the entry an id names."""
    table = getattr(module, kind.upper(), None) if kind not in ("int", "bool", "str") else None
    return str(module.shown(value, table))


def parse(module: ModuleType, procedure: str, tokens: List[str]) -> Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]:
    """Split `k=v` tokens into attacker stats, defender stats and procedure options."""
    params = {pid: pid for pid, _, _ in module.PROCEDURE_INFO[procedure]["params"]}
    params.update({name: pid for pid, name, _ in module.PROCEDURE_INFO[procedure]["params"]})
    attacker: Dict[str, Any] = {}
    defender: Dict[str, Any] = {}
    options: Dict[str, Any] = {}
    roles = {pid for pid, _, ptype in module.PROCEDURE_INFO[procedure]["params"] if ptype == "combatant"}
    roles |= {name for pid, name, ptype in module.PROCEDURE_INFO[procedure]["params"] if ptype == "combatant"}
    side = attacker
    for token in tokens:
        if token == "vs":
            if side is defender:
                raise ValueError("“vs”只能出现一次（vs 之后是防御方的属性）")
            side = defender
            continue
        if "=" not in token:
            if MAIN_DEFENSE[module.RULESET_ID] in defender:
                raise ValueError(f"防御方的主要防御给出了两次（“{token}”）")
            defender[MAIN_DEFENSE[module.RULESET_ID]] = _value(token)
            continue
        key, _, raw = token.partition("=")
        if not key:
            raise ValueError(f"“{token}”缺少名称（应为 名称=值）")
        if key in POSITIONAL or key in roles:
            raise ValueError(f"“{key}”不是选项：武器写在命令里（.hit 攻击者 防御者 武器 选项=值），角色由名字给出")
        if key in params:
            if params[key] in options:
                raise ValueError(f"选项“{key}”给出了两次")
            options[params[key]] = raw if key in ("weapon", "武器", "called_shot", "特定部位", "part", "部位") else _value(raw)
        else:
            stat = _stat_id(module, key)
            if any(_stat_id(module, k) == stat for k in side):
                raise ValueError(f"属性“{key}”给出了两次")
            side[key] = _value(raw)
    return attacker, defender, options


def _stat_id(module: ModuleType, key: str) -> str:
    """A stat's id, given by id or by Chinese name (a key that is neither is itself)."""
    return str(dict(module.STAT_NAMES).get(key, key))


def _call_args(module: ModuleType, procedure: str, weapon: str, tokens: List[str]) -> Dict[str, Any]:
    attacker, defender, options = parse(module, procedure, tokens)
    combatants = [pid for pid, _, ptype in module.PROCEDURE_INFO[procedure]["params"] if ptype == "combatant"]
    args = {combatants[0]: module.Combatant.from_dict(attacker),
            combatants[1]: module.Combatant.from_dict(defender), "weapon": weapon}
    args.update(options)
    return args


def _procedure_for(module: ModuleType, weapon: str) -> str:
    special = FIREARM_PROCEDURE.get(module.RULESET_ID)
    if special is not None and module.get_weapon(weapon).attack_type.mode == special[1]:
        return special[0]
    return PROCEDURE[module.RULESET_ID]


FIGHTS: Dict[str, Tuple[str, str]] = {}  # chat -> (ruleset id, the fight as JSON), as a bot would store it


def _fight_command(parts: List[str], chat: str, seed: Optional[int]) -> str:
    if parts[0] == ".fight":
        if len(parts) < 3:
            return "用法：.fight 规则集 [回合制] 名字 属性=值 ... / 名字 属性=值 ..."
        module = _ruleset(parts[1])
        if not hasattr(module, "start_fight"):
            return f"规则集“{parts[1]}”没有战斗状态"
        turns = parts[2] == "回合制"  # each turn the budget the ruleset's turn structure declares
        combatants: Dict[str, Any] = {}
        for chunk in " ".join(parts[3 if turns else 2:]).split("/"):
            words = chunk.split()
            if not words:
                continue
            if "=" in words[0]:
                raise ValueError(f"每名角色先写名字，再写 属性=值：“{words[0]}”")
            if words[0] in combatants:
                raise ValueError(f"角色“{words[0]}”出现了两次")
            stats = {}
            for token in words[1:]:
                key, eq, raw = token.partition("=")
                if not eq or not key:
                    raise ValueError(f"“{token}”应为 属性=值")
                stats[key] = _value(raw)
            combatants[words[0]] = module.Combatant.from_dict(stats)
        if not combatants:
            return "用法：.fight 规则集 [回合制] 名字 属性=值 ... / 名字 属性=值 ..."
        fight = module.start_fight(combatants, turns=turns)
        FIGHTS[chat] = (parts[1], json.dumps(fight.to_dict(), ensure_ascii=False))
        return f"战斗开始：{'、'.join(combatants)}（轮到{fight.actor}）"
    if chat not in FIGHTS:
        return "这个聊天还没有战斗：先用 .fight 开始"
    ruleset, stored = FIGHTS[chat]
    module = _ruleset(ruleset)
    fight = module.fight_from_dict(json.loads(stored))
    lines: List[str] = []
    before = fight
    if parts[0] == ".hit":
        if len(parts) < 4 or "=" in parts[3]:
            return "用法：.hit 攻击者 防御者 武器 [选项=值 ...]"
        procedure = _procedure_for(module, parts[3])
        _, _, options = parse(module, procedure, parts[4:])
        roles = [pid for pid, _, ptype in module.PROCEDURE_INFO[procedure]["params"] if ptype == "combatant"]
        action, fight = fight.act(procedure, {roles[0]: parts[1], roles[1]: parts[2]}, weapon=parts[3],
                                  dice=module.SeededDice(seed), **options)
        lines.append(action.result.text())
    elif parts[0] == ".next":
        fight = fight.next_turn()
        lines.append(f"第{fight.round}轮，轮到{fight.actor}")
    lines += [f"· {line}" for line in fight.log_since(before)]  # not log[n:]: a full log drops a line for each it adds
    lines += [fight.status(m.name) for m in fight.members]
    FIGHTS[chat] = (ruleset, json.dumps(fight.to_dict(), ensure_ascii=False))
    return "\n".join(lines)


def handle(message: str, seed: Optional[int] = None, chat: str = "default") -> Optional[str]:
    """Answer one chat message; None when the message is not a command for this bot. Never raises
    on a chat line: a malformed one gets a Chinese usage or error line; every reply is `_clean`."""
    if not isinstance(message, str):
        return None
    if len(message) > MAX_MESSAGE:
        return "无法理解：消息过长" if message.lstrip().startswith(".") else None
    text = unicodedata.normalize("NFKC", message).strip()
    if text.startswith("。"):  # the full stop a Chinese input method types for "."
        text = "." + text[1:]
    parts = text.split()
    if parts and parts[0] in (".fight", ".hit", ".status", ".next"):
        return _clean(_answer(lambda: _fight_command(parts, chat, seed)))
    if not parts or parts[0] not in (".atk", ".odds"):
        return None
    return _clean(_answer(lambda: _roll_command(parts, seed)))


INTERNAL = "无法处理这条命令"


def _answer(command: Callable[[], str]) -> str:
    """A command's reply, or the reason it cannot be answered, in the rules' language."""
    try:
        return command()
    except ValueError as exc:  # the bot's own parsing: a message in Chinese
        return f"无法理解：{exc}"
    except Exception as exc:  # the generated packages' errors carry a message in the rules' language
        message_text = getattr(exc, "message", None)
        if isinstance(message_text, str):
            return f"无法结算：{message_text}"
        # Not a rule error: a bug of this bot. A chat line must never take the bot down, so it is
        # answered too (tests/test_bot.py fuzzes chat lines and asserts this line never appears).
        return f"{INTERNAL}（{type(exc).__name__}）"


def _roll_command(parts: List[str], seed: Optional[int]) -> str:
    if len(parts) < 3:
        return "用法：.atk 规则集 武器 [属性=值 ...] [vs 防御方属性=值 ...]"
    module = _ruleset(parts[1])
    procedure = _procedure_for(module, parts[2])
    args = _call_args(module, procedure, parts[2], parts[3:])
    if parts[0] == ".atk":
        result = getattr(module, procedure)(**args, dice=module.SeededDice(seed))
        info = module.PROCEDURE_INFO[procedure]
        summary = "，".join(f"{name}={_shown(module, getattr(result, fid), kind)}"
                           for fid, name, kind in info["fields"][:4])
        return f"{info['name']}（{module.get_weapon(parts[2]).name}）\n{result.text()}\n{summary}"
    odds = getattr(module, f"{procedure}_odds")(**args)
    lines = [f"{module.get_weapon(parts[2]).name}：命中率 {odds.hit_probability * 100:.1f}%，"
             f"期望伤害 {odds.expected_damage:.2f}"]
    marginal = odds.marginal("damage")
    shown = sorted(sorted(marginal, key=lambda v: -marginal[v])[:HISTOGRAM_ROWS])  # the likeliest, in order
    for value in shown:
        p = marginal[value]
        lines.append(f"{value:>4} {'█' * round(p * 30)} {p * 100:.1f}%")
    rest = sum(p for v, p in marginal.items() if v not in shown)
    if len(marginal) > len(shown):
        lines.append(f"（其余{len(marginal) - len(shown)}个值共 {rest * 100:.1f}%）")
    return "\n".join(lines)


if __name__ == "__main__":
    for line in sys.stdin:
        reply = handle(line)
        if reply is not None:
            print(reply, flush=True)
