"""Messages of the command line: help texts, progress, watch and build lines, output folders (key: (Chinese, English)); see compiler/messages/__init__.py."""

MESSAGES: dict[str, tuple[str, str]] = {
    "cli.build-failed-nothing-was": ("构建失败；未写入任何文件", "build failed; nothing was written"),
    "cli.build-failed-nothing-was-2": (
        "构建失败；未写入任何文件（等待下一次改动）",
        "build failed; nothing was written (waiting for the next edit)",
    ),
    "cli.import-failed-nothing-was": ("导入失败；未写入任何文件", "import failed; nothing was written"),
    "cli.kept-entries-that-are": (
        "保留了 {n_kept} 个不在 SRD 文件中的条目：{kept}",
        "kept {n_kept} entries that are not in the SRD file: {kept}",
    ),
    "cli.ok-ruleset-valid": ("通过：{n_rulesets} 个规则集有效", "ok: {n_rulesets} ruleset(s) valid"),
    "cli.replaced-entries-that-differed": (
        "替换了 {n_replaced} 个与 SRD 数据不同的条目：{replaced}",
        "replaced {n_replaced} entries that differed from the SRD data: {replaced}",
    ),
    "cli.rulec": ("rulec：{note}", "rulec: {note}"),
    "cli.rulec-2": ("rulec：{exc}", "rulec: {exc}"),
    "cli.rulec-3": ("rulec：{exc}", "rulec: {exc}"),
    "cli.config-out-holds-another-build": (
        "rulec：配置文件 {file} 指定的输出文件夹 {out} 存放着另一次构建（扩展包：{packs}）；若确要替换它，请在命令行上写明 --out；未写入任何文件",
        "rulec: the output folder {out} that {file} names holds another build (packs: {packs}); to replace it, say "
        "--out on the command line; nothing was written",
    ),
    "cli.no-packs": ("无，内置规则", "none, the bundled rules"),
    "cli.rulec-build-with-homebrew": (
        "rulec：带自制扩展包（{packs}）的构建需要单独的输出文件夹：请加上 --out DIR（generated/ 存放内置规则的构建）；未写入任何文件",
        "rulec: a build with homebrew packs ({packs}) needs an output folder of its own: add --out DIR (generated/ "
        "holds the build of the bundled rules); nothing was written",
    ),
    "cli.rulec-nothing-was-written": ("rulec：{exc}；未写入任何文件", "rulec: {exc}; nothing was written"),
    "cli.rulec-stopped-watching": ("rulec：已停止监视", "rulec: stopped watching"),
    "cli.rulec-unknown-target-targets": (
        "rulec：未知的目标 {value}；可选目标为 python 和 js",
        "rulec: unknown target {value}; the targets are python and js",
    ),
    "cli.rulec-watch-writes-cannot": (
        "rulec：--watch 会写入文件，不能与 --check 同用",
        "rulec: --watch writes; it cannot be combined with --check",
    ),
    "cli.rulec-watching-ctrl-c": ("rulec：正在监视 {names}（Ctrl-C 停止）", "rulec: watching {names} (Ctrl-C stops)"),
    "cli.watch-changed": ("[{time}] 已改动：{names}{more}", "[{time}] changed: {names}{more}"),
    "cli.watch-more": ("，另有 {n} 个", " and {n} more"),
    "cli.stage.emit": ("写出包和页面", "writing packages and pages"),
    "cli.stage.load": ("读取规则文件", "reading rule files"),
    "cli.stage.lower": ("构建 IR", "building the IR"),
    "cli.stage.optimise": ("优化", "optimising"),
    "cli.stage.validate": ("检查规则", "checking the rules"),
    "cli.stale-file-differ-from": (
        "{out} 已过期：{n_lines} 个文件与全新构建不同；请运行 `rulec build`",
        "{out} is stale: {n_lines} file(s) differ from a fresh build; run `rulec build`",
    ),
    "cli.took": ("，用时 {ms:.0f} 毫秒（{time}）", " in {ms:.0f} ms at {time}"),
    "cli.unchanged-files-stamp-with": (
        "{out} 无变化（{number} 个文件，含构建标记）{took}",
        "{out} unchanged ({number} files, the stamp with them){took}",
    ),
    "cli.unchanged-inputs-outputs-match": (
        "{out} 无变化（输入与输出均与其构建标记相符）",
        "{out} unchanged (inputs and outputs match its build stamp)",
    ),
    "cli.up-date-files-stamp": (
        "{out} 是最新的（{number} 个文件，含构建标记）",
        "{out} is up to date ({number} files, the stamp with them)",
    ),
    "cli.wrote-changed-new-removed": (
        "已写入 {out}：{n_changed} 个改动，{n_added} 个新增，{n_removed} 个删除{took}",
        "wrote {out}: {n_changed} changed, {n_added} new, {n_removed} removed{took}",
    ),
    "cli.wrote-weapons-from-srd": (
        "已写入 {into}：来自 SRD 的 {imported} 件武器",
        "wrote {into}: {imported} weapons from the SRD",
    ),
    "expect.expected-got": (
        "{name} 的 {key_}：期望 {value}，实际 {counter}",
        "{name} {key_}: expected {value}, got {counter}",
    ),
    "expect.no-combatant-fight": ("战斗中没有名为 '{name}' 的参战者", "no combatant '{name}' in the fight"),
    "expect.points-expected-got": (
        "{name} 的 {key_} 点数：期望 {value}，实际 {track_points}",
        "{name} {key_} points: expected {value}, got {track_points}",
    ),
    "expect.states-expected-got": (
        "{name} 的状态：期望 {sorted}，实际 {sorted2}",
        "{name} states: expected {sorted}, got {sorted2}",
    ),
    "fight.step": ("— 第{number}步：{name}（{who}）", "— step {number}: {name} ({who})"),
    "fight.refused": ("  × 未进行：{reason}", "  × not taken: {reason}"),
    "diff.cannot-write": ("rulec diff：无法写入 {file}：{reason}", "rulec diff: cannot write {file}: {reason}"),
    "diff.failed": ("rulec diff：{exc}", "rulec diff: {exc}"),
    "help.cli.keep-running-build-now": (
        "持续运行：先构建一次，此后每当规则文件改动就重新构建（Ctrl-C 停止）。重新构建只重做改动涉及的部分。",
        "Keep running: build now, then again each time a rule file changes (Ctrl-C stops). A rebuild redoes only the "
        "work the edit touched.",
    ),
    "help.cli.output-folder-belongs-build": (
        "输出文件夹，归本次构建所有。默认：generated/（带扩展包的构建须另指定）。",
        "Output folder; it belongs to the build. Default: generated/ (a build with packs must name its own).",
    ),
    "help.cli.packages-write-comma-separated": (
        "要生成的包，逗号分隔：python（generated/<规则集>/）、js（generated/js/<规则集>/）。",
        "The packages to write, comma-separated: python (generated/<ruleset>/), js (generated/js/<ruleset>/).",
    ),
    "help.cli.print-lowered-ir-each": (
        "以 JSON 打印每个规则集降级后的 IR（降级后即停止）。",
        "Print the lowered IR of each ruleset as JSON (stop after lowering).",
    ),
    "help.cli.rules-folder-ruleset-folder": (
        "规则文件夹、规则集文件夹或自制扩展包（可重复）。默认：rules/",
        "A rules folder, ruleset folder or homebrew pack (repeatable). Default: rules/",
    ),
    "help.cli.ruleset-folders-packs-as": (
        "规则集文件夹与扩展包，同 build（与作为参数给出相同）。",
        "Ruleset folders and packs, as for build (the same as giving them as arguments).",
    ),
    "help.cli.table-file-write-inside": (
        "要写入的表文件，须在规则集或扩展包文件夹内，例如 rules/d20/tables/weapons.yaml。",
        "The table file to write, inside a ruleset or pack folder, e.g. rules/d20/tables/weapons.yaml.",
    ),
    "help.cli.when-into-pack-rulesets": (
        "当 --into 位于扩展包内：它所扩展的规则集（默认：rules/）。",
        "When --into is in a pack: the rulesets it extends (default: rules/).",
    ),
    "help.cli.with-watch-seconds-between": (
        "配合 --watch：每隔多少秒查看一次规则文件。",
        "With --watch: seconds between looks at the rule files.",
    ),
    "help.cli.write-nothing-exit-1": (
        "不写入任何文件；有不同的文件时退出码为 1 并逐一列出。",
        "Write nothing; exit 1 and list every file that differs.",
    ),
    "help.cmd.build": (
        "把规则编译成 Python 和 JavaScript 包以及参考页面。",
        "Compile rules into Python and JavaScript packages and reference pages.",
    ),
    "help.cmd.server": (
        "构建服务（设 RULEC_SERVER=on 时启用）：常驻进程保留上次的构建，改动后 rulec build 只重做受影响的部分。",
        "The build server (on with RULEC_SERVER=on): a resident process keeps the last build, so that `rulec build` "
        "after an edit redoes only what the edit touches.",
    ),
    "help.cmd.server-stop": (
        "停止本文件夹和本环境的构建服务（它闲置 15 分钟后也会自己退出）。",
        "Stop the build server of this folder and environment (it also exits after 15 minutes without a build).",
    ),
    "cli.server-stopped": ("rulec：构建服务已停止", "rulec: the build server has stopped"),
    "cli.server-none": ("rulec：这里没有正在运行的构建服务", "rulec: no build server is running here"),
    "help.cmd.diff": (
        "比较两个规则文件夹、扩展包或 git 版本（HEAD~1、main:rules）：新增、删除和改动的条目，改动的裁定，"
        "以及每个改动的武器、攻击类型和特定部位攻击对页面所用防御方分布的命中率、期望伤害和期望攻击次数的变化。"
        "退出码 0：无改动，1：有改动，2：出错。",
        "Compare two rule folders, packs or git revisions (HEAD~1, main:rules): entries added, removed and changed, "
        "rulings changed, and the change in hit chance, expected damage and expected attacks of every changed "
        "weapon, attack type and called shot against the pages' defender spread. Exit 0: no change, 1: changes, "
        "2: an error.",
    ),
    "help.cmd.import": ("把第三方数据转换成规则 YAML。", "Turn third-party data into rules YAML."),
    "help.cmd.import-srd": (
        "把 5e SRD 装备 JSON 文件（2014 或 2024 格式）中的武器导入 d20 武器表文件。重新导入时按编号合并；手写的文件永不覆盖；无法通过检查的结果永不写入。",
        "Import the weapons of a 5e SRD equipment JSON file (2014 or 2024 layout) into a d20 weapons table file. "
        "Re-importing merges by id; a hand-written file is never overwritten; a result that would not validate is "
        "never written.",
    ),
    "help.cmd.odds": (
        "打印场景结果的精确分布、命中率和期望伤害（配合 --until：重复多少次才能使累计值达到目标）。",
        "Print a scenario's exact outcome distribution, hit chance and expected damage (with --until, how many "
        "repeats reach a running total).",
    ),
    "help.cmd.resolve": (
        "裁定一个场景一次并打印过程（或以 JSON 打印结果）；场景的 `expect:` 未满足时退出码为 1。",
        "Resolve a scenario once and print its trace (or the result as JSON); exit 1 when it has an `expect:` that "
        "the outcome does not meet.",
    ),
    "help.cmd.test": (
        "运行 PATHS（默认：examples/）下每个带 `expect:` 的场景并检查：把自制规则的示例当作测试。",
        "Run every scenario with an `expect:` under PATHS (default: examples/) and check it: a homebrewer's worked "
        "examples as a test suite.",
    ),
    "help.cmd.validate": (
        "检查规则文件夹或文件（默认：rules/），列出每一个问题。",
        "Check rule folders or files (default: rules/) and print every problem.",
    ),
    "help.diff.html": (
        "同时把比较结果写成带图表的 HTML 页面，保存到这个文件。",
        "Also write the comparison as an HTML page with charts to this file.",
    ),
    "help.diff.rules": (
        "当一侧是自制扩展包时：它所扩展的规则集（默认：rules/）。",
        "When a side is a homebrew pack: the rulesets it extends (default: rules/).",
    ),
    "help.main": (
        "rulec：把桌面角色扮演游戏的战斗规则（YAML）编译成 Python 裁定器、JavaScript 模块和参考页面。",
        "rulec: compile tabletop combat rules (YAML) into Python resolvers and reference pages.",
    ),
    "help.play.build-use-rebuilt-stale": (
        "使用的构建，过期时会重新构建（默认：项目配置中的，否则为 generated/）。",
        "The build to use, rebuilt when stale (default: the project config's, else generated/).",
    ),
    "help.play.exact-distribution-repeats-until": (
        "重复执行直到结果字段 FIELD 的累计值达到 N 所需次数的精确分布。",
        "The exact distribution of repeats until the running total of outcome FIELD reaches N.",
    ),
    "help.play.rules-use-default-rules": (
        "使用的规则（默认：项目配置中的，否则为 rules/）。",
        "Rules to use (default: the project config's, else rules/).",
    ),
    "help.play.same-as-format-json": ("等同于 --format json。", "The same as --format json."),
    "help.play.seed-for-dice-when": ("场景未给出骰面时所用的随机种子。", "Seed for the dice when the scenario gives no faces."),
    "help.shell.commands": ("命令", "Commands"),
    "help.shell.help": ("显示本帮助并退出。", "Show this message and exit."),
    "help.shell.how-print-diagnostics-results": ("诊断与结果的输出方式。", "How to print diagnostics and results."),
    "help.shell.lang": (
        "输出语言：zh（中文）或 en（英文）；默认取 RULEC_LANG，再看系统语言环境，都没有时为中文。",
        "The language of messages: zh (Chinese) or en (English); by default RULEC_LANG, then the locale, else Chinese.",
    ),
    "help.shell.options": ("选项", "Options"),
    "help.shell.usage": ("用法：", "Usage: "),
    "help.shell.version": ("显示版本并退出。", "Show the version and exit."),
    "output.interrupted-nothing-was-written": ("已中断；未写入任何文件", "interrupted; nothing was written"),
    "output.rulec-internal-error-rulec": (
        "rulec：内部错误：{name__}：{exc}（这是 rulec 的缺陷；设置 RULEC_DEBUG=1 查看详情）",
        "rulec: internal error: {name__}: {exc} (this is a rulec bug; set RULEC_DEBUG=1 for details)",
    ),
    "refused.action": ("第 {number} 个行动（{procedure}）：{exc}", "action {number} ({procedure}): {exc}"),
    "stamp.holds-build-with-packs": ("{out} 存放的是带扩展包 {packs} 的构建", "{out} holds a build with the packs {packs}"),
    "write.another-rulec-build-has": (
        "{shown}：另一个 rulec 构建已在此写入 {lock_timeout:.0f} 秒；请待其完成后再试",
        "{shown}: another rulec build has been writing here for {lock_timeout:.0f} s; try again when it is done",
    ),
    "write.cannot-resolve-output-folder": (
        "{shown}：无法解析输出文件夹（{exc}）",
        "{shown}: cannot resolve the output folder ({exc})",
    ),
    "write.cannot-write-previous-output": (
        "无法写入 {shown}：{value}{detail}；原有输出保持不变",
        "cannot write {shown}: {value}{detail}; the previous output was left as it was",
    ),
    "write.current-folder-one-parents": (
        "{shown} 是当前文件夹或其上级；构建会替换它（请用单独的文件夹，例如 generated/）",
        "{shown} is the current folder or one of its parents; the build would replace it (use a folder of its own, "
        "such as generated/)",
    ),
    "write.file-not-folder-choose": (
        "{shown} 是文件而不是文件夹；请为输出选择一个文件夹",
        "{shown} is a file, not a folder; choose a folder for the output",
    ),
    "write.not-empty-was-not": (
        "{shown} 不是空文件夹，也不是 rulec 写的（没有 {stamp}）；请选择新的或空的文件夹",
        "{shown} is not empty and was not written by rulec (no {stamp}); choose a new or empty folder",
    ),
    "write.removed-left-by-interrupted": ("已删除 {name}（中断的构建留下的）", "removed {name}, left by an interrupted build"),
    "write.restored-from-left-by": (
        "已从 {name} 恢复 {out}（中断的构建留下的）",
        "restored {out} from {name}, left by an interrupted build",
    ),
    "write.root-folder": ("{shown} 是根文件夹", "{shown} is the root folder"),
    "write.rules-folder-output-needs": (
        "{shown} {relation}规则文件夹 {source}；输出需要单独的文件夹",
        "{shown} {relation} the rules folder {source}; the output needs a folder of its own",
    ),
    "write.version-control-root-build": (
        "{shown} 是版本库根目录（{marker}）；构建会替换它",
        "{shown} is a version-control root ({marker}); the build would replace it",
    ),
    "write.your-home-folder-one": ("{shown} 是你的主文件夹或其上级", "{shown} is your home folder or one of its parents"),
}
