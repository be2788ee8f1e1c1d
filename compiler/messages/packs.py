"""Messages of homebrew packs and the project config: `rulec.toml` / `[tool.rulec]`, `rulec new
pack`, a pack's ruling overrides (key: (Chinese, English)); see compiler/messages/__init__.py."""

MESSAGES: dict[str, tuple[str, str]] = {
    "config.is-a-path": ("'{name}' 应为一个路径（字符串）", "'{name}' is a path (a string)"),
    "config.is-a-path-or-list": (
        "'{name}' 应为一个路径，或由 1 到 {most} 个路径（字符串）组成的列表",
        "'{name}' is a path or a list of 1 to {most} paths (strings)",
    ),
    "config.not-utf8": ("文件不是 UTF-8 文本", "the file is not UTF-8 text"),
    "config.not-toml": ("不是有效的 TOML：{message}", "not valid TOML: {message}"),
    "config.not-a-table": ("[tool.rulec] 必须是一个表", "[tool.rulec] must be a table"),
    "config.unknown-key": ("{where} 中有未知的键 '{name}'", "unknown key '{name}' in {where}"),
    "config.keys-are": ("可用的键：{keys}", "the keys are: {keys}"),
    "config.key-is": ("{name}（{what}）", "{name} ({what})"),
    "config.key.rules": ("规则文件夹和扩展包的列表", "a list of rule folders and packs"),
    "config.key.out": ("输出文件夹", "the output folder"),
    "config.key.scenarios": (
        "`rulec test` 运行的场景文件或文件夹的列表",
        "a list of scenario files or folders for `rulec test`",
    ),
    "config.rules-hint": (
        "请同时给出规则集：--rules {typed} --rules {pack}，或在 pack.yaml 旁的 rulec.toml 中写上 "
        "rules = [\"{in_config}\", \".\"]",
        "name the ruleset too: --rules {typed} --rules {pack}, "
        "or put rules = [\"{in_config}\", \".\"] in a rulec.toml beside pack.yaml",
    ),
    "help.cmd.new": ("从模板新建内容。", "Start something new from a template."),
    "help.cmd.new-pack": (
        "写出一个可直接使用的自制扩展包文件夹：清单、rulec.toml、表、一个场景和一份 README。",
        "Write a working homebrew pack folder: manifest, rulec.toml, tables, a scenario, a README.",
    ),
    "help.new.extends": ("扩展包所扩展的规则集。", "The ruleset the pack extends."),
    "help.new.rules": (
        "规则集所在的文件夹（默认：项目配置中的，否则为 rules/）。",
        "The folder of the rulesets (default: the project config's, else rules/).",
    ),
    "help.new.id": ("扩展包编号（默认：取自文件夹名）。", "The pack id (default: from the folder's name)."),
    "new.wrote": (
        "已写入 {folder}/：{files}\n下一步：cd {folder} && rulec build && rulec test",
        "wrote {folder}/: {files}\nnext: cd {folder} && rulec build && rulec test",
    ),
    "missing-key.ruling-name-or-text": (
        "裁定要么同时有 name 和 text，要么（在扩展包中只改裁定的取值时）两者都不写",
        "a ruling has a name and a text, or (in a pack, to change a ruling's value) neither",
    ),
    "missing-key.ruling-no-name-text": ("裁定 '{key_}' 没有 name 和 text", "ruling '{key_}' has no name and text"),
    "missing-key.no-ruling-to-override": (
        "没有可替换的裁定 '{key_}'；新的裁定需要 name 和 text",
        "no ruling '{key_}' to override; a new ruling needs a name and a text",
    ),
    "missing-key.add-name-text": ("请加上 name: 和 text:", "add name: and text:"),
    "missing-key.add-name-text-new": (
        "请加上 name: 和 text: 来声明一条新裁定",
        "add name: and text: to declare a new ruling",
    ),
    "scaffold.no-pack-id": (
        "无法从“{name}”得出扩展包编号：编号由小写字母、数字与下划线组成，以字母开头，至多48个字（请用 --id 指定）",
        "cannot make a pack id from '{name}': an id is lower-case letters, digits and underscores, starting with a "
        "letter, at most 48 (give --id)"),
    "scaffold.no-template": (
        "扩展包模板只有 {templates}；“{extends}”的扩展包请自己写 pack.yaml 与表格文件（docs/packs.md）",
        "the pack templates are written for {templates}; a pack for '{extends}' is a pack.yaml and table files of its "
        "own (docs/packs.md)"),
    "scaffold.bad-pack-id": ("“{pid}”不是扩展包编号（小写字母、数字与下划线）",
                             "'{pid}' is not a pack id (lower-case letters, digits and underscores)"),
    "scaffold.exists": ("{folder} 已经存在；rulec new 从不覆盖任何文件：请换一个名字",
                        "{folder} exists already; rulec new never overwrites anything: choose another name"),
    "scaffold.no-ruleset": (
        "{rules}/ 中没有规则集“{extends}”（没有 {rules}/{extends}/ruleset.yaml）：请用 --rules 指定规则集所在的文件夹",
        "no ruleset '{extends}' in {rules}/ (no {rules}/{extends}/ruleset.yaml): give the folder of the rulesets "
        "with --rules"),
}
