"""Messages of `rulec resolve`, `rulec odds` and `rulec test`: scenarios and their checks (key: (Chinese, English)); see compiler/messages/__init__.py."""

MESSAGES: dict[str, tuple[str, str]] = {
    "bad-scenario.ruleset-declares-no-fight": ("规则集 '{rid}' 没有声明战斗状态", "ruleset '{rid}' declares no fight state"),
    "bad-scenario.scenario-has-kind-scenario": (
        "场景文件须有 kind: scenario（或 fight）和规则集编号",
        "a scenario has kind: scenario (or fight) and a ruleset id",
    ),
    "duplicate-arg.gives-argument-second-time": (
        "'{key_}' 第二次给出了参数 '{value}'",
        "'{key_}' gives the argument '{value}' a second time",
    ),
    "duplicate-stat.gives-stat-second-time": (
        "'{key_}' 第二次给出了属性 '{value}'",
        "'{key_}' gives the stat '{value}' a second time",
    ),
    "expect.expected-but-procedure-refused": (
        "期望 {key_} = {quote}，但流程拒绝了：{error}",
        "expected {key_} = {quote}, but the procedure refused: {error}",
    ),
    "expect.expected-got-2": ("{get}（{key_}）：期望 {quote}，实际 {quote2}", "{get} ({key_}): expected {quote}, got {quote2}"),
    "expect.not-outcome": ("'{key_}' 不是 '{procedure}' 的结果字段", "'{key_}' is not an outcome of '{procedure}'"),
    "expect.outcomes-command-error": ("结果字段：{fields}、command、error", "outcomes: {fields}, command, error"),
    "expect.procedure-refused": ("流程拒绝了：{error}", "the procedure refused: {error}"),
    "expect.conditions-expected-got": (
        "{name} 的条件：期望 {want}，实际 {got}", "{name}'s conditions: expected {want}, got {got}"),
    "expect.holds-expected-got": (
        "{name} 的{relation}：期望对 {want}，实际对 {got}", "{name}'s {relation}: expected of {want}, got of {got}"),
    "until.refused": ("计划无法计算：{exc}", "the plan cannot be computed: {exc}"),
    "until.summary": (
        "按计划行动直到达到目标所需的行动次数：期望{expected:.4f}次，中位数{median}次",
        "actions of the plan until the target: expected {expected:.4f}, median {median}"),
    "until.expected-got": (
        "期望的行动次数：期望 {want}，实际 {got:.6f}", "expected number of actions: expected {want}, got {got:.6f}"),
    "play.error": ("错误[{code}]：{message}", "error[{code}]: {message}"),
    "play.error-usage-rulec-odds": (
        "错误[usage]：rulec odds 接受单个行动的场景（kind: scenario），或带 until: 计划的战斗场景",
        "error[usage]: rulec odds takes a single-action scenario (kind: scenario), or a fight scenario with an until: plan",
    ),
    "play.error-usage-ruleset-declares": (
        "错误[usage]：规则集 '{ruleset}' 没有声明战斗状态",
        "error[usage]: ruleset '{ruleset}' declares no fight state",
    ),
    "play.error-usage-until-takes": (
        "错误[usage]：--until 的写法是 FIELD=N，FIELD 为 '{procedure}' 的整数结果字段（{whole}），N 为阈值",
        "error[usage]: --until takes FIELD=N with a whole-number outcome of '{procedure}' ({whole}) and a threshold N",
    ),
    "play.not-up-date-with": (
        "{out} 与 rules/ 不一致且无法重新构建（{exc}）；改用内存中编译的规则",
        "{out} is not up to date with rules/ and cannot be rebuilt ({exc}); using the rules compiled in memory",
    ),
    "play.not-up-date-with-own": (
        "{out} 与它的规则不一致且无法重新构建（{exc}）；改用内存中编译的规则",
        "{out} is not up to date with its rules and cannot be rebuilt ({exc}); using the rules compiled in memory",
    ),
    "play.odds.damage": ("期望伤害：{expected_damage:.4f}", "expected damage: {expected_damage:.4f}"),
    "play.odds.distribution": ("{name}的分布：", "distribution of {name}:"),
    "play.odds.dropped": (
        "（加骰截断略去的尾部概率：{dropped:.1e}）",
        "(tail probability dropped by the added-dice cut-off: {dropped:.1e})",
    ),
    "play.odds.hit": ("命中率：{number:.4f}%", "hit chance: {number:.4f}%"),
    "play.outcome": ("结果：{outcome}", "outcome: {outcome}"),
    "play.pack-build-left-as-it-is": (
        "rulec：{packs}，不是单独 rules/ 的构建：保持原样；改用内存中编译的 rules/",
        "rulec: {packs}, not of rules/ alone: left as it is; using rules/ compiled in memory",
    ),
    "play.pack-build-using-memory": (
        "rulec：{packs}，不是这些规则当前的构建：改用内存中编译的规则",
        "rulec: {packs}, not of these rules as they are: using them compiled in memory",
    ),
    "play.passed-failed": ("{passed} 个通过，{failed} 个失败", "{passed} passed, {failed} failed"),
    "play.rulec-using": ("rulec：{packs}；使用它", "rulec: {packs}; using it"),
    "play.skipped-pack-scenarios": (
        "rulec：跳过了 {folder}/ 中扩展包的 {n} 个场景，这些规则不包含该扩展包：请在那里运行 `rulec test`（使用它的 rulec.toml），"
        "或加上 --rules {folder}",
        "rulec: skipped {n} scenario(s) of the pack in {folder}/, which these rules do not include: run `rulec test` "
        "there (its rulec.toml), or add --rules {folder}",
    ),
    "play.until.row": (
        "  第{number:>3}次  {number2:9.4f}%  累计{number3:9.4f}%",
        "  {number:>3}  {number2:9.4f}%  cumulative {number3:9.4f}%",
    ),
    "play.until.summary": (
        "累计{name}达到{raw}所需的次数：期望{expected:.4f}次，中位数{median}次",
        "repeats until {name} reaches {raw}: expected {expected:.4f}, median {median}",
    ),
    "play.until.tail": (
        "（{n_probabilities}次之后仍未达到的概率：{tail:.1e}）",
        "(probability of not reaching it after {n_probabilities} repeats: {tail:.1e})",
    ),
    "play.was-not-up-date": (
        "{out} 与 rules/ 不一致：已重新构建（{n_changed} 个改动，{n_added} 个新增，{n_removed} 个删除）",
        "{out} was not up to date with rules/: rebuilt it ({n_changed} changed, {n_added} new, {n_removed} removed)",
    ),
    "play.was-not-up-date-own": (
        "{out} 与它的规则不一致：已重新构建（{n_changed} 个改动，{n_added} 个新增，{n_removed} 个删除）",
        "{out} was not up to date with its rules: rebuilt it ({n_changed} changed, {n_added} new, {n_removed} removed)",
    ),
    "unknown-ruleset.no-ruleset": ("{paths} 中没有规则集 '{rid}'", "no ruleset '{rid}' in {paths}"),
    "unknown-ruleset.not-ruleset-id-lower": (
        "{quote} 不是规则集编号（小写字母、数字和下划线，以字母开头，至多 48 个字符）",
        "{quote} is not a ruleset id (lower-case letters, digits and underscores, starting with a letter, at most 48)",
    ),
}
