"""The files `rulec new pack` writes (scaffold.py fills them in). `{...}` fields are filled with
str.format: the pack's id and name, and paths relative to the file that names them."""

from __future__ import annotations

PACK = """\
# yaml-language-server: $schema={pack_schema}
kind: pack
id: {id}
name: {name}
extends: {extends}
"""

CONFIG = """\
# rulec 的项目配置：在本文件夹（或其子文件夹）里运行 rulec 时的默认值；命令行参数优先。
# 路径相对于本文件。
# rules：规则集所在的文件夹，和本扩展包；out：rulec build 的输出文件夹（不能在扩展包里面）；
# scenarios：rulec test 默认运行的场景。
rules = ["{rules}", "."]
out = "{out}"
scenarios = ["scenarios"]
"""

WEAPONS = """\
# yaml-language-server: $schema={schema}
# 自制武器。字段见 {extends} 的 ruleset.yaml（tables: weapons）；编辑器通过第一行的 schema 补全与检查
# （schema 由 rulec build 写进输出文件夹，第一次构建之后才有）。
kind: table
table: weapons
entries:
  - {{id: halberd, name: 戟, attack_type: melee, damage: 4, damage_type: lethal, strength: 4, size: 4, hands: 2, draw: move, notes: 长柄兵器。}}
  - {{id: meteor_hammer, name: 流星锤, attack_type: melee, damage: 2, damage_type: blunt, strength: 2, size: 2, can_trip: true, draw: move, notes: 软兵器，可绊摔。}}
  # 替换原有的武器要写 override: true（例：把匕首的伤害改为2）：
  # - {{id: dagger, name: 匕首, attack_type: melee, damage: 2, damage_type: lethal, strength: 1, size: 1, draw: move, override: true}}
"""

CALLED_SHOTS = """\
# yaml-language-server: $schema={schema}
# 自制的特定部位攻击。
kind: table
table: called_shots
entries:
  - {{id: hand, name: 手部, penalty: 2, net_per_point: 2, track: limb_impairment, notes: 每2点胜出数造成1点肢体妨碍。}}
"""

RULINGS = """\
# yaml-language-server: $schema={schema}
# 改动裁定：只需写 key 和 value（名称与说明沿用规则集的）；数值必须在规则集允许的范围内。
# 去掉下面一行的注释，全力一击的加值就从2变为3：
kind: rulings
rulings: []
#  - {{key: power_attack_bonus, value: 3}}
"""

SCENARIO = """\
# yaml-language-server: $schema={schema}
# 一个场景：rulec test 运行它，并检查 expect: 里的结果。
kind: scenario
ruleset: {extends}
procedure: attack
title: 持戟攻击
combatants:
  attacker: {{力量: 4, 武技: 3, 专业: 2}}
  defender: {{基础防御: 4}}
args: {{weapon: 戟}}
dice: [8, 9, 10, 2, 3, 5, 7, 8, 9, 10, 1, 1, 1, 1, 1, 1]
expect: {expect}
"""

README = """\
# {name}

`{id}` 是 `{extends}` 规则集的自制扩展包，由 `rulec new pack` 生成。

| 文件 | 内容 |
|---|---|
| `pack.yaml` | 扩展包的清单：id、名称、扩展哪个规则集 |
| `rulec.toml` | 在本文件夹运行 rulec 时的默认 `--rules` 与 `--out` |
| `weapons.yaml` | 自制武器（`table: weapons`） |
| `called_shots.yaml` | 自制的特定部位攻击 |
| `rulings.yaml` | 改动裁定的值（只需 `key` 与 `value`） |
| `scenarios/` | 场景：`rulec test` 逐个结算并检查 `expect:` |

在本文件夹里：

```text
rulec build     # 编译到 {out}（包含原规则集与本扩展包）
rulec test      # 运行 scenarios/ 里的场景
rulec resolve scenarios/first.yaml
```

每个 YAML 文件的第一行 `# yaml-language-server: $schema=...` 让编辑器（装有 YAML 语言服务器，
如 VS Code 的 YAML 插件）补全并检查字段；武器与场景的 schema 在第一次 `rulec build` 之后出现在
输出文件夹里，并且认得本扩展包的条目。

出错时 rulec 给出 `文件:行:列` 和修改建议，什么也不写。替换规则集里已有的条目要写
`override: true`；同一个扩展包里两个条目的 id 相同总是错误。
"""
