"""Messages of checking a fight's conditions and relation rules (key: (Chinese, English)); see compiler/messages/__init__.py."""

MESSAGES: dict[str, tuple[str, str]] = {
    "bad-condition.declared-twice": ("条件 '{id}' 声明了两次", "condition '{id}' is declared twice"),
    "bad-condition.not-bool-stat": ("'{stat}' 不是是/否属性", "'{stat}' is not a true/false stat"),
    "bad-condition.not-int-stat": ("'{stat}' 不是整数属性", "'{stat}' is not a whole-number stat"),
    "bad-condition.no-option-param": (
        "没有流程有{kind}参数 '{param}'", "no procedure has a {kind} parameter '{param}'"),
    "bad-condition.no-state": ("战斗的状态表没有状态 '{id}'", "the fight's states table has no state '{id}'"),
    "bad-condition.no-procedure": ("没有流程 '{id}'", "no procedure '{id}'"),
    "bad-condition.ending-kinds": (
        "一个结束条件恰好有 {kinds} 中的一个（nth 只与 turn_start、turn_end 或 next_turn_end 一起）",
        "an ending has exactly one of {kinds} (nth only with turn_start, turn_end or next_turn_end)"),
    "bad-condition.no-condition": ("战斗一节没有条件 '{id}'", "no condition '{id}' in the fight section"),
    "bad-condition.no-relation": ("战斗一节没有关系 '{id}'", "no relation '{id}' in the fight section"),
    "bad-condition.not-role": ("'{role}' 不是 {where} 的参战者参数", "'{role}' is not a combatant parameter of {where}"),
    "bad-condition.any-procedure": ("任何流程", "any procedure"),
    "bad-condition.when-outcome": (
        "'{when}' 必须是该事件列出的每个流程的是/否结果字段（请列出流程）",
        "'{when}' must be a true/false outcome of every procedure the event names (name them)"),
    "bad-condition.not-int-outcome": ("'{value}' 不是整数结果字段", "'{value}' is not a whole-number outcome"),
    "bad-condition.not-other-role": ("'{source}' 不是另一个参战者参数", "'{source}' is not another combatant parameter"),
    "bad-condition.clear-takes-nothing": ("clear 效果不带 value 或 source", "a clear effect takes no value or source"),
    "bad-condition.everyone-clear-only": (
        "everyone 只能用于 clear 效果（结束每名参战者的这个条件）",
        "everyone goes only with a clear effect (ending the condition on every combatant)"),
    "bad-condition.not-takeable": (
        "'{what}' 不是计数、累积槽或 any_track", "'{what}' is not a counter, a track or any_track"),
    "bad-condition.pool-above-turn": (
        "turn_pools 的 '{pool}' 为 {most}，超过回合本身的 {per_turn}",
        "turn_pools sets '{pool}' to {most}, more than the turn's own {per_turn}"),
    "bad-condition.kind-bool": ("是/否", "true/false"),
    "bad-condition.kind-int": ("整数", "whole-number"),
    "bad-resource.declared-twice": ("资源 '{id}' 声明了两次", "resource '{id}' is declared twice"),
    "bad-resource.bad-amount": (
        "{key_} 的数量 {value} 必须是0至{top}的整数", "the amount {value} of {key_} must be a whole number from 0 to {top}"),
    "bad-resource.unknown-stat": (
        "{key_} 应为数字或整数属性，没有整数属性 '{stat}'",
        "{key_} must be a number or a whole-number stat; there is no whole-number stat '{stat}'"),
    "bad-resource.negative-stat": (
        "资源的数量不能取自可以为负的属性 '{stat}'", "a resource's amount cannot come from '{stat}', which can be negative"),
    "bad-resource.capacity-param": (
        "流程 '{id}' 没有整数参数 '{param}'（自0起、声明了上限）：战斗以它传入降低的累积槽",
        "procedure '{id}' has no whole-number parameter '{param}' (from 0, with a max): the fight passes the lowered "
        "capacity through it"),
    "bad-resource.effect-verb": (
        "{kind} 效果恰好需要 {verbs} 中的一个", "a {kind} effect needs exactly one of {verbs}"),
    "bad-resource.spares": (
        "spares 应为是/否结果字段（资源效果），而不是 '{name}'",
        "spares must be a true/false outcome (of a resource effect), not '{name}'"),
    "bad-resource.no-resource": ("战斗一节没有资源 '{id}'", "no resource '{id}' in the fight section"),
    "bad-resource.no-capacity-param": (
        "累积槽上限效果需要 fight: track_inputs: capacity:（累积与恢复流程的累积槽降低参数）",
        "a capacity effect needs fight: track_inputs: capacity: (the accumulation and recovery procedures' "
        "capacity-loss parameter)"),
    "fight.turn-reader": ("战斗的回合结构", "the fight's turn structure"),
    "bad-turn.pool-twice": ("回合预算 '{id}' 声明了两次", "turn pool '{id}' is declared twice"),
    "bad-turn.no-pool": ("回合结构没有预算 '{pool}'", "the turn structure has no pool '{pool}'"),
    "bad-turn.kind-twice": ("动作种类 '{kind}' 的耗费声明了两次", "the cost of action kind '{kind}' is declared twice"),
    "bad-turn.kind-never": (
        "动作种类 '{kind}' 既不能在自己的回合（own_turn）也不能在回合外（off_turn）进行",
        "action kind '{kind}' can be taken neither on its actor's turn (own_turn) nor off it (off_turn)"),
    "bad-turn.ruling": ("'{key_}' 不是是/否裁定（rulings.yaml）", "'{key_}' is not a true/false ruling (rulings.yaml)"),
    "bad-turn.undeclared-kind": (
        "流程 '{id}' 是 '{kind}'，但回合结构（fight: turn_structure:）没有声明这种动作的耗费",
        "procedure '{id}' is a '{kind}' action, but the turn structure (fight: turn_structure:) declares no cost for it"),
    "bad-turn.pool-stat": (
        "回合池 '{pool}' 的 per_turn '{stat}' 既不是数字也不是整数属性（stats.yaml）",
        "turn pool '{pool}': per_turn '{stat}' is neither a number nor a whole-number stat (stats.yaml)"),
    "bad-turn.costs-need-action": (
        "流程 '{id}' 的 costs 要与 action: 一起声明（它花费的是行动者回合里的量）",
        "procedure '{id}': costs must be declared together with action: (it spends from its actor's turn)"),
    "bad-turn.costs-field": (
        "流程 '{id}' 的 costs 中 '{pool}' 的 '{field}' 应是它的整数结果字段（结果给出花费的量）",
        "procedure '{id}': costs '{pool}' -> '{field}' must be one of its whole-number outcome fields (the amount it spends)"),
    "bad-turn.action-from": (
        "流程 '{id}' 的 action_from '{field}' 应是它的文字结果字段（结果给出所花费的动作种类），并与 action: 一起声明",
        "procedure '{id}': action_from '{field}' must be one of its text outcome fields (naming the kind of action "
        "it spends), declared together with action:"),
    "internal.unresolved-python": (
        "生成的 {rel} 读取了没有定义或导入的名字：{names}；调用运行时函数的步骤种类必须在 `runtime` 中列出它的模块"
        "（compiler/steps/）；这是 rulec 的缺陷",
        "generated {rel} reads names nothing defines or imports: {names}; a step kind that calls a runtime function "
        "must list its module in `runtime` (compiler/steps/); this is a rulec bug"),
    "internal.unresolved-js": (
        "生成的 js/{id}/index.js 调用了它的运行时文件（{files}）没有定义的函数：{missing}；调用它们的步骤种类必须在 "
        "`runtime_js` 中列出文件（compiler/steps/）；这是 rulec 的缺陷",
        "generated js/{id}/index.js calls runtime functions its runtime files ({files}) do not define: {missing}; "
        "a step kind that calls one must list its file in `runtime_js` (compiler/steps/); this is a rulec bug"),
}
