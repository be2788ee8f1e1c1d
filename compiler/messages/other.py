"""Messages of the rest: the facade, dice engines, steps, importers, and the diagnostics' own words (key: (Chinese, English)); see compiler/messages/__init__.py."""

MESSAGES: dict[str, tuple[str, str]] = {
    "bad-manifest.must-have-kind": ("{name} 必须写 kind: {expected}", "{name} must have kind: {expected}"),
    "diagnostic.hint-and": ("{first}；{second}", "{first}; {second}"),
    "diagnostic.line": ("{location}: {severity}[{code}]：{message}", "{location}: {severity}[{code}]: {message}"),
    "diagnostic.with-hint": ("{text}；{hint}", "{text}; {hint}"),
    "did-you-mean": ("是不是要写 '{name}'？", "did you mean '{name}'?"),
    "duplicate-id.two-rulesets-have-id": (
        "有两个规则集的编号都是 '{rid}'（{root} 和这一个）",
        "two rulesets have the id '{rid}' ({root} and this one)",
    ),
    "errors-count": ("{errors} 个错误", "{errors} error(s)"),
    "import.file-holds-no-weapons": ("文件中没有武器", "the file holds no weapons"),
    "import.file-must-inside-ruleset": (
        "文件必须位于规则集或扩展包文件夹内（含 ruleset.yaml 或 pack.yaml），以便检查导入结果",
        "the file must be inside a ruleset or pack folder (one with ruleset.yaml or pack.yaml), so the import can be "
        "checked",
    ),
    "import.file-was-not-written": (
        "此文件不是由 `rulec import 5e-srd` 写的；覆盖会丢失其中内容",
        "this file was not written by `rulec import 5e-srd`; overwriting it would lose what is in it",
    ),
    "import.import-into-table-file": (
        "请导入到单独的表文件，例如 --into {with_name}，手写的武器留在这里",
        "import into a table file of its own, e.g. --into {with_name}, and keep hand-written weapons here",
    ),
    "import.item-no-layout-importer": (
        "条目 {value} 不属于本导入器认识的任何格式（{layouts}）",
        "item {value} is in no layout this importer knows ({layouts})",
    ),
    "import.no-item-layout-importer": (
        "没有任何条目属于本导入器认识的格式（{layouts}）；这是 5e-SRD-Equipment.json 吗？",
        "no item is in a layout this importer knows ({layouts}); is this 5e-SRD-Equipment.json?",
    ),
    "import.weapon": ("武器 {index}：{message}", "weapon {index}: {message}"),
    "import.weapon-field-has-unexpected": (
        "武器 {get}：某个字段的值出乎意料（{exc}）",
        "weapon {get}: a field has an unexpected value ({exc})",
    ),
    "internal.generated-does-not-compile": (
        "生成的 {rel} 无法编译：{exc}（第 {line} 行）；这是 rulec 的缺陷",
        "generated {rel} does not compile: {exc} (line {line}); this is a rulec bug",
    ),
    "link-outside.link-something-outside-folder": (
        "'{name}' 是指向文件夹 {name2}/ 之外的链接；规则文件必须在该文件夹内",
        "'{name}' is a link to something outside the folder {name2}/; rule files must be inside it",
    ),
    "list.or": ("或", " or "),
    "list.separator": ("、", ", "),
    "pool.add-die-at-1": (
        "add_die_at 为 1 时每个骰面都会加骰，骰池永远不会结束",
        "add_die_at 1 would add a die on every face; the pool would never end",
    ),
    "pool.add-die-at-adds": (
        "add_die_at {a_at} 会在 {sides} 个骰面中的 {number} 个上加骰（超过四分之三）：加骰链过长，无法掷出或计算概率",
        "add_die_at {a_at} adds a die on {number} of {sides} faces (more than 3 in 4): chains of added dice get too "
        "long to roll or to compute odds for",
    ),
    "pool.add-die-at-more": (
        "add_die_at {a_at} 大于骰子的面数 {sides}（不加骰请用 0）",
        "add_die_at {a_at} is more than the {sides} sides (use 0 for no added dice)",
    ),
    "pool.added-dice-too-low": (
        "added_dice {added_dice} 太低：{pool_dice} 个公平骰子的骰池超过它的概率大于 {tail:g}（至少需要 {needed}）",
        "added_dice {added_dice} is too low: a pool of {pool_dice} fair dice adds more than that with probability "
        "over {tail:g} (at least {needed} is needed)",
    ),
    "pool.success-at-more-than": (
        "success_at {s_at} 大于骰子的面数 {sides}",
        "success_at {s_at} is more than the {sides} sides",
    ),
    "quote.long-number": ("约 {digits} 位的整数", "a whole number of about {digits} digits"),
    "severity.error": ("错误", "error"),
    "severity.warning": ("警告", "warning"),
    "srd.damage-dice": ("伤害骰 {dice}：{exc}", "damage dice {dice}: {exc}"),
    "srd.equipment-categories-name-neither": (
        "它的 equipment_categories 既不是 simple-weapons 也不是 martial-weapons",
        "its equipment_categories name neither simple-weapons nor martial-weapons",
    ),
    "srd.equipment-categories-name-neither-2": (
        "它的 equipment_categories 既不是 melee-weapons 也不是 ranged-weapons",
        "its equipment_categories name neither melee-weapons nor ranged-weapons",
    ),
    "srd.has-no-damage-no": ("既没有伤害也没有特殊规则", "has no damage and no special rule"),
    "srd.unknown-damage-type": ("未知的伤害类型 {dtype}", "unknown damage type {dtype}"),
    "srd.unknown-property": ("未知的武器属性 {p}", "unknown property {p}"),
    "srd.unknown-weapon-category": ("未知的 weapon_category {get}", "unknown weapon_category {get}"),
    "srd.unknown-weapon-range": ("未知的 weapon_range {get}", "unknown weapon_range {get}"),
    "srd_json.expected-json-list-equipment": (
        "应为装备条目组成的 JSON 列表，实际是 JSON {kind}",
        "expected a JSON list of equipment items, found a JSON {kind}",
    ),
    "srd_json.file-not-utf-8": (
        "文件不是 UTF-8 文本（第 {start} 字节：{reason}）",
        "the file is not UTF-8 text ({reason} at byte {start})",
    ),
    "srd_json.json-has-no-infinities": ("JSON 中没有无穷大或 NaN", "JSON has no infinities or NaN"),
    "srd_json.json-nested-too-deeply": (
        "JSON 嵌套过深，无法读取；SRD 装备条目最多只有几层",
        "the JSON is nested too deeply to read; an SRD equipment item is at most a few levels deep",
    ),
    "srd_json.not-usable-number": ("{text} 不是可用的数值：{why}", "{text} is not a usable number: {why}"),
    "srd_json.not-valid-json": ("不是有效的 JSON：{msg}", "not valid JSON: {msg}"),
    "srd_json.too-large-for-number": ("数值过大", "too large for a number"),
    "srd_json.whole-number-more-than": (
        "超过 {max_int_digits} 位的整数",
        "a whole number of more than {max_int_digits} digits",
    ),
    "unknown-ruleset.name-ruleset-too-rules": (
        "请同时给出规则集：--rules rules/ --rules {root}",
        "name the ruleset too: --rules rules/ --rules {root}",
    ),
    "unknown-ruleset.pack-extends-which-was": (
        "扩展包扩展了 '{target}'，但没有给出该规则集",
        "pack extends '{target}', which was not given",
    ),
    "unreadable.cannot-read-file": ("无法读取文件：{strerror}", "cannot read the file: {strerror}"),
    "wrong-engine.step-needs-dice-engine": (
        "'{key_}' 步骤需要 {engine} 骰子引擎；本规则集使用 {engine2}",
        "a '{key_}' step needs the {engine} dice engine; this ruleset uses {engine2}",
    ),
    "wrong-type.let-step-holds-number": ("let 步骤的值是数值、真/假或文本", "a let step holds a number, true/false or text"),
}
