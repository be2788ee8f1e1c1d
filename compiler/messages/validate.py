"""Messages of checking the rules: declarations, tables, procedures, fights, bounds (the schema check's are in schema.py) (key: (Chinese, English)); see compiler/messages/__init__.py."""

MESSAGES: dict[str, tuple[str, str]] = {
    "bad-accumulate.accumulate-needs-tracks-track": (
        "accumulate 需要 tracks：累积槽表",
        "accumulate needs tracks: the track table",
    ),
    "bad-accumulate.procedure-must-take-combatant": (
        "流程 '{accumulate}' 必须接受（参战者、{value} 条目、当前值、获得值）并给出文本结果字段 'state'",
        "procedure '{accumulate}' must take (a combatant, a {value} entry, current, gained) and give a text outcome "
        "'state'",
    ),
    "bad-debuff.debuffs-need-accumulate-procedure": (
        "debuffs 需要 accumulate：一个带整数 'debuff' 的流程",
        "debuffs need accumulate: a procedure with a whole-number 'debuff'",
    ),
    "bad-default.bool-parameter-defaults-true": (
        "bool 参数的默认值是 true 或 false",
        "a bool parameter defaults to true or false",
    ),
    "bad-default.bool-stat-defaults-true": ("bool 属性的默认值是 true 或 false", "a bool stat defaults to true or false"),
    "bad-default.default-outside": ("默认值 {default!r} 超出 {lo}..{hi}", "default {default!r} is outside {lo}..{hi}"),
    "bad-default.default-outside-2": (
        "默认值 {default} 超出 {get}..{get2}",
        "the default {default} is outside {get}..{get2}",
    ),
    "bad-default.int-parameter-defaults-whole": ("int 参数的默认值是整数", "an int parameter defaults to a whole number"),
    "bad-effect.effect-has-exactly-one": (
        "{kind} 效果恰好有 add、subtract 中的一个",
        "a {kind} effect has exactly one of add, subtract",
    ),
    "bad-effect.effect-names-exactly-one": (
        "一个效果恰好指定 counter、track、stat、state、relation 中的一个",
        "an effect names exactly one of counter, track, stat, state, relation",
    ),
    "bad-effect.fight-section-declares-no": ("战斗一节没有声明累积槽表", "the fight section declares no tracks table"),
    "bad-effect.no-counter-fight-section": ("战斗一节中没有计数器 '{counter}'", "no counter '{counter}' in the fight section"),
    "bad-effect.no-relation-fight-section": (
        "战斗一节中没有战斗关系 '{relation}'",
        "no relation '{relation}' in the fight section",
    ),
    "bad-effect.no-state-table": ("表 '{states}' 中没有状态 '{state}'", "no state '{state}' in table '{states}'"),
    "bad-effect.no-whole-number-stat": ("没有整数属性 '{stat}'", "no whole-number stat '{stat}'"),
    "bad-effect.not-combatant-parameter": (
        "'{target}' 不是 '{id}' 的参战者参数",
        "'{target}' is not a combatant parameter of '{id}'",
    ),
    "bad-effect.not-outcome-procedure": (
        "'{name}' 不是流程 '{id}' 的{word}结果字段",
        "'{name}' is not {word} outcome of procedure '{id}'",
    ),
    "bad-effect.relation-needs-with-other": (
        "战斗关系需要 with：另一个参战者参数",
        "a relation needs with: the other combatant parameter",
    ),
    "bad-effect.track-effect-needs-points": (
        "累积槽效果恰好需要 points（获得点数的结果字段）或 recover（恢复点数的结果字段）中的一个",
        "a track effect needs exactly one of points (the outcome of points gained) or recover (of points recovered)",
    ),
    "bad-field.field-type-needs-values": (
        "{ftype} 类型的字段 '{id}' 需要 'values'",
        "field '{id}' of type {ftype} needs 'values'",
    ),
    "bad-field.field-type-ref-needs": ("ref 类型的字段 '{id}' 需要 'table'", "field '{id}' of type ref needs 'table'"),
    "bad-field.min-more-than-max": ("min {min} 大于 max {max}", "min {min} is more than max {max}"),
    "bad-field.only-applies-int-fields": ("'{key_}' 只适用于 int 字段", "'{key_}' only applies to int fields"),
    "bad-helper.takes-argument-are-declared": (
        "{module}.{id} 接受 {arity} 个参数；声明了 {n_params} 个",
        "{module}.{id} takes {arity} argument(s); {n_params} are declared",
    ),
    "bad-index.index-field-must-required": (
        "索引字段 '{index}' 必须是必填的，或有默认值",
        "the index field '{index}' must be required, or have a default",
    ),
    "bad-index.index-names-no-int": (
        "index 指定的不是 '{id}' 的 int、text 或 enum 字段",
        "index names no int, text or enum field of '{id}'",
    ),
    "bad-labels.only-int-field-may": ("只有 int 字段可以为特殊值命名", "only an int field may name special values"),
    "bad-labels.outside-field-range-so": (
        "{value} 超出字段的范围，没有条目能取这个值",
        "{value} is outside the field's range, so no entry can have it",
    ),
    "bad-on-damage.on-damage-needs-procedure": (
        "on_damage 需要一个流程，接受（参战者、{value} 条目、当前值、所受伤害），给出整数 'points' 和真/假 'awake'",
        "on_damage needs a procedure taking (a combatant, a {value} entry, current, taken) and giving a whole-number "
        "'points' and a true/false 'awake'",
    ),
    "bad-param.neither-int-parameter-nor": (
        "'{target}' 既不是 '{id}' 的 int 参数，也不是 <参战者>.<属性>",
        "'{target}' is neither an int parameter nor <combatant>.<stat> of '{id}'",
    ),
    "bad-param.not-combatant-parameter": ("'{cid}' 不是参战者参数", "'{cid}' is not a combatant parameter"),
    "bad-param.not-parameter": ("'{key_}' 不是 '{id}' 的参数", "'{key_}' is not a parameter of '{id}'"),
    "bad-param.not-parameter-that-takes": (
        "'{param}' 不是 '{id}' 中接受 '{table}' 条目的参数",
        "'{param}' is not a parameter of '{id}' that takes a '{table}' entry",
    ),
    "bad-stat-value.bool-stat-takes-true": (
        "属性 '{stat}' 是真/假属性，要给 true 或 false，得到 {value}",
        "stat '{stat}' is a true/false stat: give true or false, not {value}",
    ),
    "bad-stat-value.int-stat-takes-whole": (
        "属性 '{stat}' 是整数属性，要给整数，得到 {value}",
        "stat '{stat}' is a whole-number stat: give a whole number, not {value}",
    ),
    "bad-stat-value.outside-stat-range": (
        "{value!r} 超出属性 '{stat}' 的范围 {lo}..{hi}",
        "{value!r} is outside the range of stat '{stat}', {lo}..{hi}",
    ),
    "bad-stat-value.vary-bool-stat": (
        "'{target}' 是真/假属性，不能用整数变化",
        "'{target}' is a true/false stat: it cannot be varied over whole numbers",
    ),
    "bad-state-stats.not-true-false-field": (
        "'{flag}' 不是表 '{states}' 的真/假字段",
        "'{flag}' is not a true/false field of table '{states}'",
    ),
    "bad-state-stats.state-stats-needs-states": (
        "state_stats 需要 states：状态表",
        "state_stats needs states: the table of states",
    ),
    "bad-step.needs-exactly-one-found": ("需要 {keys} 中恰好一个；实际有 {what}", "needs exactly one of {keys}; found {what}"),
    "bad-subject.subject-not-combatant-parameter": (
        "subject '{subject_id}' 不是参战者参数",
        "subject '{subject_id}' is not a combatant parameter",
    ),
    "bad-summary.not-outcome": (
        "'{field_id}' 不是 '{id}' 的{value}结果字段",
        "'{field_id}' is not a {value} outcome of '{id}'",
    ),
    "bounds.dice-limits-ruleset": ("（规则集的 dice.limits.{limit}）", "(dice.limits.{limit} of the ruleset)"),
    "bounds.no-upper-bound": ("无上限", "no upper bound"),
    "checks.bad-penalty": (
        "'{param}' 不是流程 '{id}' 的整数参数（最小值 0、有最大值、默认值 0），不能承受检定减值",
        "'{param}' is not a whole-number parameter of procedure '{id}' (min 0, a max, default 0) to take the "
        "check's penalty",
    ),
    "checks.bad-when": (
        "'{option}: {value}' 不是流程 '{id}' 的参数及其类型的取值（表参数取条目 id）",
        "'{option}: {value}' is not a parameter of procedure '{id}' with a value of its type (an entry id for a table)",
    ),
    "checks.kind-twice": ("检定种类 '{id}' 声明了两次", "the kind of check '{id}' is declared twice"),
    "checks.need-kinds": (
        "流程的 checks 需要规则集 fight: 中的 checks：检定的种类",
        "a procedure's checks need the ruleset's fight: checks: the kinds of check",
    ),
    "checks.no-kind": ("fight: checks 中没有检定种类 '{check}'", "no kind of check '{check}' in fight: checks"),
    "checks.not-role": (
        "'{role}' 不是流程 '{id}' 的参战者参数",
        "'{role}' is not a combatant parameter of procedure '{id}'",
    ),
    "declarations.default-bool-field-true": (
        "bool 字段的默认值是 true 或 false",
        "the default of a bool field is true or false",
    ),
    "declarations.default-field-text-null": (
        "{ftype} 字段的默认值是文本或 null",
        "the default of a {ftype} field is text or null",
    ),
    "declarations.default-formula-field-formula": ("formula 字段的默认值是公式", "the default of a formula field is a formula"),
    "declarations.default-int-field-whole": ("int 字段的默认值是整数", "the default of an int field is a whole number"),
    "declarations.default-list": ("默认值是 {ids} 组成的列表", "the default is a list of {ids}"),
    "declarations.default-not-one": ("默认值 {default!r} 不在 {ids} 之中", "default {default!r} is not one of {ids}"),
    "declarations.default-outside": ("默认值 {default} 超出 {get}..{get2}", "default {default} is outside {get}..{get2}"),
    "declarations.true-false": ("真/假", "true/false"),
    "declarations.whole-number": ("整数", "a whole number"),
    "duplicate-id.add-override-true-change": (
        "若要在扩展包中修改它，请加上 override: true",
        "add override: true to change it from a pack",
    ),
    "duplicate-id.already-defined": ("'{value}' 已经定义过", "'{value}' is already defined"),
    "duplicate-id.defined-twice-first-at": (
        "{what} '{key_}' 定义了两次（首次定义于 {value}）",
        "{what} '{key_}' is defined twice (first at {value})",
    ),
    "duplicate-id.defined-twice-first-at-2": (
        "'{id}' 在 '{tid}' 中定义了两次（首次定义于 {first}）",
        "'{id}' is defined twice in '{tid}' (first at {first})",
    ),
    "duplicate-id.defined-twice-first-at-3": (
        "'{id}' 在 '{tid}' 中定义了两次（首次定义于 {first}）",
        "'{id}' is defined twice in '{tid}' (first at {first})",
    ),
    "duplicate-id.field-declared-twice-reserved": (
        "字段 '{id}' 声明了两次，或是保留名称",
        "field '{id}' is declared twice or reserved",
    ),
    "duplicate-id.function-already-exists": ("函数 '{key_}' 已经存在", "a function '{key_}' already exists"),
    "duplicate-id.outcome-listed-twice": ("结果字段 '{id}' 列了两次", "outcome '{id}' is listed twice"),
    "duplicate-id.override-true-replaces-entry": (
        "override: true 用来替换规则集或其他扩展包的条目，而不是同一扩展包里的条目：请换一个编号",
        "override: true replaces an entry of the ruleset or of another pack, not one of the same pack: choose another "
        "id",
    ),
    "duplicate-id.parameter-declared-twice": ("参数 '{pid}' 声明了两次", "parameter '{pid}' is declared twice"),
    "duplicate-id.procedure-defined-twice-first": (
        "流程 '{id}' 定义了两次（首次定义于 {value}）",
        "procedure '{id}' is defined twice (first at {value})",
    ),
    "duplicate-id.rule-listed-twice-first": (
        "规则 '{id}' 列了两次（首次列于 {value}）",
        "rule '{id}' is listed twice (first at {value})",
    ),
    "duplicate-id.ruling-defined-twice-first": (
        "裁定 '{key_}' 定义了两次（首次定义于 {span}）",
        "ruling '{key_}' is defined twice (first at {span})",
    ),
    "duplicate-id.stat-defined-twice-first": (
        "属性 '{key_}' 定义了两次（首次定义于 {value}）",
        "stat '{key_}' is defined twice (first at {value})",
    ),
    "duplicate-id.table-declared-twice": ("表 '{id}' 声明了两次", "table '{id}' is declared twice"),
    "duplicate-name.name-used-twice-first": (
        "名称 '{name}' 在 '{tid}' 中用了两次（首次用于 {value}）",
        "name '{name}' is used twice in '{tid}' (first at {value})",
    ),
    "fight.parameter-procedure-must-whole": (
        "流程 '{id2}' 的参数 '{id}' 必须是从 0 起、声明了 max 的整数：战斗会把累积槽点数限制在其中",
        "parameter '{id}' of procedure '{id2}' must be a whole number from 0 with a declared max: the fight keeps a "
        "track's points within it",
    ),
    "gaps.combatants-carry-true-false": ("参战者带有真/假属性 '{need}'", "combatants carry the true/false stat '{need}'"),
    "gaps.fight-declares": ("战斗声明了 '{need}'", "the fight declares '{need}'"),
    "gaps.fight-declares-relation": ("战斗声明了战斗关系 '{need}'", "the fight declares the relation '{need}'"),
    "gaps.fight-states-table-has": (
        "战斗的状态表 '{states}' 有状态 '{need}'",
        "the fight's states table '{states}' has the state '{need}'",
    ),
    "gaps.fight-tracks-table-has": (
        "战斗的累积槽表 '{tracks}' 有累积槽 '{need}'",
        "the fight's tracks table '{tracks}' has the track '{need}'",
    ),
    "gaps.manifest-declares-helper": ("清单声明了辅助函数 '{need}'", "the manifest declares the helper '{need}'"),
    "missing-arg.add-under-args": ("请加在 args 下：{{{id}: ...}}", "add it under args: {{{id}: ...}}"),
    "missing-arg.odds-preset-does-not": (
        "概率预设没有给出 '{id2}' 所需的 '{id}'（{name}）（它没有默认值）",
        "the odds preset does not give '{id}' ({name}), which '{id2}' needs (it has no default)",
    ),
    "missing-range.add-min-max": ("请加上 min: 和 max:", "add min: and max:"),
    "missing-range.ruling-holds-number-declare": (
        "裁定 '{key_}' 的值是数值：请声明自制规则可以设定的范围",
        "ruling '{key_}' holds a number: declare the range a homebrewer may set it to",
    ),
    "missing-ruling.add-rulings-yaml-name": (
        "请把它加到 rulings.yaml：{{key: {key_}, name: ..., value: ..., text: ...}}",
        "add it to rulings.yaml: {{key: {key_}, name: ..., value: ..., text: ...}}",
    ),
    "missing-ruling.feature-reads-ruling-which": (
        "特性 '{fid}' 读取裁定 '{key_}'，但本规则集没有定义它",
        "the feature '{fid}' reads the ruling '{key_}', which this ruleset does not define",
    ),
    "no-fight.effects-need-ruleset-fight": (
        "效果需要规则集的 fight: 一节（效果所改变的状态）",
        "effects need the ruleset's fight: section (the state they change)",
    ),
    "nothing-to-override.no-entry-override": ("'{tid}' 中没有可替换的条目 '{id}'", "no entry '{id}' in '{tid}' to override"),
    "inexact-number.formula-can-reach": (
        "这个公式的值可能达到 {text}，超过 JavaScript 能精确表示的整数（±{limit}）：Python 与 JavaScript 的结果会不同",
        "this formula can reach {text}, past the whole numbers JavaScript holds exactly (±{limit}): Python and "
        "JavaScript would give different results",
    ),
    "inexact-number.part-can-reach": (
        "这个公式（或它的某一部分）的值可能达到 {text}，超过 JavaScript 能精确表示的整数（±{limit}）：Python 与 "
        "JavaScript 的结果会不同",
        "this formula (or a part of it) can reach {text}, past the whole numbers JavaScript holds exactly (±{limit}): "
        "Python and JavaScript would give different results",
    ),
    "inexact-number.keep-it-smaller": (
        "请让它的值保持在这个范围之内（规则里的数值通常远小于它）",
        "keep its value within that range (the numbers of a rule are usually far smaller)",
    ),
    "pack-changes-ruling-text.only-value": (
        "扩展包只能改动裁定 '{key_}' 的数值；它的{keys}保持规则集的写法",
        "a pack changes only the value of ruling '{key_}'; its {keys} stay the ruleset's",
    ),
    "pack-changes-ruling-text.delete-them": (
        "删去这些键，只留 key 与 value（需要另一条裁定时，请用新的 key 并写出 name 与 text）",
        "delete those keys and keep key and value (for another ruling, use a new key with its name and text)",
    ),
    "nothing-to-override.no-ruling-override": ("没有可替换的裁定 '{key_}'", "no ruling '{key_}' to override"),
    "override-needed.add-override-true-replace": (
        "加上 override: true 以替换它，或换一个编号",
        "add override: true to replace it, or choose another id",
    ),
    "override-needed.already-exists-at": (
        "'{id}' 已存在于 '{tid}'（位于 {first}）",
        "'{id}' already exists in '{tid}' (at {first})",
    ),
    "pack-kind.homebrew-pack-may-hold": (
        "自制扩展包可以包含表和裁定，但不能包含 '{kind}'",
        "a homebrew pack may hold tables and rulings, not '{kind}'",
    ),
    "reserved-name.reserved-choose-another-id": ("'{pid}' 是保留名称；请换一个编号", "'{pid}' is reserved; choose another id"),
    "reserved-name.reserved-word": ("'{id}' 是保留字", "'{id}' is a reserved word"),
    "rule-literal.make-ruling-rulings-yaml": (
        "请把它做成裁定（rulings.yaml，以 rulings.<key> 读取），或列入该步骤的 definitional：[{{value: {value}, text: <为何它属于定义>}}]",
        "make it a ruling (rulings.yaml, read as rulings.<key>), or list it in the step's definitional: [{{value: "
        "{value}, text: <why it is part of a definition>}}]",
    ),
    "rule-literal.number-formula-encodes-rule": (
        "公式中的数字 {value} 写死了一条规则，扩展包无法修改",
        "the number {value} in this formula encodes a rule a pack cannot change",
    ),
    "second-manifest.folder-has-one-manifest": (
        "一个文件夹只有一个清单文件；这个 '{kind}' 文件不是",
        "a folder has one manifest; this '{kind}' file is not it",
    ),
    "shadowing.already-names-parameter-ruling": (
        "'{value}' 已是某个参数或裁定的名字；请换一个名字",
        "'{value}' already names a parameter or ruling; choose another name",
    ),
    "stale-definitional.remove-from-definitional": ("请把它从 definitional 中删除", "remove it from definitional"),
    "stale-definitional.step-formulas-no-longer": (
        "该步骤的公式已不再使用数字 {value}",
        "the step's formulas no longer use the number {value}",
    ),
    "stale-gap.compute-rule-with-say": ("请用它来计算这条规则，或说明还缺少什么", "compute the rule with it, or say what else it lacks"),
    "stale-gap.not-modelled-says-lacks": (
        "not_modelled '{what}' 说缺少{lacks} '{needs}'，但{where}",
        "not_modelled '{what}' says it lacks {lacks} '{needs}', but {where}",
    ),
    "unbounded-work.bound-parameters-stats-table": (
        "请限定它读取的参数、属性或表字段（设 max），或在规则集的 dice 一节提高上限",
        "bound the parameters, stats or table fields it reads (their max), or raise the limit in the ruleset's dice "
        "section",
    ),
    "unbounded-work.bound-what-formula-reads": (
        "请限定公式读取的值，或在规则集的 dice 一节提高上限",
        "bound what the formula reads, or raise the limit in the ruleset's dice section",
    ),
    "unbounded-work.can-reach-limit": (
        "{what}可达 {text} {unit}；上限为 {limit} {where}",
        "{what} can reach {text} {unit}; the limit is {limit} {where}",
    ),
    "unbounded-work.formula-can-reach-procedure": (
        "{what}的这个公式可达 {text}；流程 '{id}'（{span}）的{what2}把它当作{unit}来掷，上限为 {limit} {where}",
        "this formula of {what} can reach {text}; {what2} of procedure '{id}' ({span}) rolls it as {unit} and the "
        "limit is {limit} {where}",
    ),
    "unknown-counter.no-counter-fight-section": (
        "战斗一节中没有计数器 '{counter}'",
        "no counter '{counter}' in the fight section",
    ),
    "unknown-entry.no-track-table": ("表 '{tracks}' 中没有累积槽 '{track}'", "no track '{track}' in table '{tracks}'"),
    "unknown-error.no-error-type": ("没有错误类型 '{error_id}'", "no error type '{error_id}'"),
    "unknown-feature.no-feature": ("没有特性 '{fid}'", "no feature '{fid}'"),
    "unknown-field.table-has-no-field": ("表 '{table}' 没有字段 '{field}'", "table '{table}' has no field '{field}'"),
    "unknown-field.group-by-names-no": ("group_by 指定的不是 '{id}' 的字段", "group_by names no field of '{id}'"),
    "unknown-group.stat-group-not-declared": ("属性组 '{group}' 未声明", "stat group '{group}' is not declared"),
    "unknown-helper.runtime-module-has-no": (
        "运行时模块 '{module}' 没有辅助函数 '{id}'",
        "runtime module '{module}' has no helper '{id}'",
    ),
    "unknown-module.helper-modules": ("辅助模块：{helper_modules}", "helper modules: {helper_modules}"),
    "unknown-module.rulec-has-no-runtime": ("rulec 没有运行时模块 '{module}'", "rulec has no runtime module '{module}'"),
    "unknown-procedure.no-procedure": ("没有流程 '{procedure}'", "no procedure '{procedure}'"),
    "unknown-procedure.no-procedure-2": ("没有流程 '{accumulate}'", "no procedure '{accumulate}'"),
    "unknown-ref.choice": ("{id}（{name}）", "{id} ({name})"),
    "unknown-ref.choices": ("可选：{choices}", "the choices: {choices}"),
    "unknown-ref.default-not-entry-table": (
        "默认值 '{default}' 不是表 '{ptype}' 的条目",
        "the default '{default}' is not an entry of table '{ptype}'",
    ),
    "unknown-ref.did-you-mean": ("是不是要写 '{id}'（{name}）？", "did you mean '{id}' ({name})?"),
    "unknown-ref.no-entry-table": ("表 '{target}' 中没有条目 '{value}'", "no entry '{value}' in table '{target}'"),
    "unknown-rule.rule-id-not-rule": ("规则编号 '{rid}' 不在规则清单中", "rule id '{rid}' is not in the rule inventory"),
    "unknown-rule.rule-id-not-rule-2": ("规则编号 '{rid}' 不在规则清单中", "rule id '{rid}' is not in the rule inventory"),
    "unknown-rule.rule-id-not-rule-3": ("规则编号 '{rid}' 不在规则清单中", "rule id '{rid}' is not in the rule inventory"),
    "unknown-rule.rule-id-not-rule-4": ("规则编号 '{rid}' 不在规则清单中", "rule id '{rid}' is not in the rule inventory"),
    "unknown-section.section-not-declared": ("章节 '{section}' 未声明", "section '{section}' is not declared"),
    "unknown-stat.no-stat": ("没有属性 '{key_}'", "no stat '{key_}'"),
    "unknown-stat.no-whole-number-stat": ("没有整数属性 '{stat}'", "no whole-number stat '{stat}'"),
    "unknown-stat.no-whole-number-stat-2": ("没有整数属性 '{stat}'", "no whole-number stat '{stat}'"),
    "unknown-table.no-table": ("没有表 '{table}'", "no table '{table}'"),
    "unknown-table.no-table-2": ("没有表 '{target}'", "no table '{target}'"),
    "unknown-table.no-table-3": ("没有表 '{tid}'", "no table '{tid}'"),
    "unknown-table.ruleset-declares-no-table": ("规则集 '{id}' 没有声明表 '{tid}'", "ruleset '{id}' declares no table '{tid}'"),
    "unknown-type.not-int-bool-combatant": (
        "'{ptype}' 不是 int、bool、combatant 或表",
        "'{ptype}' is not int, bool, combatant or a table",
    ),
    "unused-error.no-procedure-raises-error": (
        "没有流程会引发错误 '{id}'（{name}）",
        "no procedure raises the error '{id}' ({name})",
    ),
    "unused-error.raise-with-require-step": ("请用 require 步骤引发它，或删除它", "raise it with a require step, or remove it"),
    "unused-field.flag-table-read-by": (
        "表 '{id2}' 的标记 '{id}'（{name}）没有被任何流程或公式读取，设置它不会有任何效果",
        "the flag '{id}' ({name}) of table '{id2}' is read by no procedure or formula, so setting it changes nothing",
    ),
    "unused-field.read-where-matters-say": (
        "请在需要的地方读取它，或用 not_modelled: <原因> 说明原因",
        "read it where it matters, or say why with not_modelled: <reason>",
    ),
    "unused-ruling.read-procedure-governs-say": (
        "请在它所管辖的流程中读取它，或用 not_modelled: <原因> 说明原因",
        "read it in the procedure it governs, or say why with not_modelled: <reason>",
    ),
    "unused-ruling.ruling-read-by-no": (
        "裁定 '{key_}'（{name}）没有被任何流程或公式读取，修改它不会有任何效果",
        "ruling '{key_}' ({name}) is read by no procedure or formula, so changing it changes nothing",
    ),
    "wrong-engine.needs-dice-engine": ("{fid} 需要 {engine} 骰子引擎", "{fid} needs the {engine} dice engine"),
}
