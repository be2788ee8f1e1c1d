"""Messages of reading rule files: YAML, characters, links and folders (key: (Chinese, English)); see compiler/messages/__init__.py."""

MESSAGES: dict[str, tuple[str, str]] = {
    "alias-limit.aliases-expand-more-than": (
        "别名展开后超过 {max_alias_nodes} 个节点；拒绝读取此文件",
        "aliases expand to more than {max_alias_nodes} nodes; refusing the file",
    ),
    "bad-character.character-u-not-allowed": (
        "YAML 中不允许字符 U+{character:04X}",
        "character U+{character:04X} is not allowed in YAML",
    ),
    "bad-character.delete-retype-text-around": (
        "请删除它；如果是粘贴进来的，请重新输入它周围的文字",
        "delete it; retype the text around it if you pasted it",
    ),
    "bad-character.not-allowed-rule-files": (
        "规则文件中不允许出现 {value}（此处以转义形式写出）",
        "{value} is not allowed in rule files (written here as an escape)",
    ),
    "bad-character.not-allowed-rule-files-2": (
        "规则文件中不允许出现{what}（它会隐藏文字或打乱文字顺序）",
        "{what} is not allowed in rule files (it hides or reorders text)",
    ),
    "bad-character.not-allowed-names": (
        "文件或文件夹的名称中不允许出现{what}（它会在页面和生成文件的开头隐藏文字或打乱文字顺序）",
        "{what} is not allowed in a file or folder name (it would hide or reorder text on the pages and in the "
        "generated files' headers)",
    ),
    "bad-character.rename-it": ("请给它改名", "rename it"),
    "bad-key.mapping-keys-must-plain": ("映射的键必须是普通文字", "mapping keys must be plain text"),
    "bad-number.not-usable-number": ("{value} 不是可用的数值", "{value} is not a usable number"),
    "bad-number.whole-number-digits-numbers": (
        "{n_value} 位的整数；此处数值至多 {max_int_digits} 位",
        "a whole number of {n_value} digits; numbers here have at most {max_int_digits}",
    ),
    "bad-size.items-limit-here": (
        "{what}有 {n_value} 项；此处上限为 {max_items}",
        "a {what} of {n_value} items; the limit here is {max_items}",
    ),
    "characters.control-character": ("控制字符", "a control character"),
    "core_schema.whole-number-more-than": (
        "超过 {max_int_digits} 位的整数",
        "a whole number of more than {max_int_digits} digits",
    ),
    "documents.expected-single-document": ("应为单个文档", "expected a single document"),
    "documents.rule-file": ("规则文件", "a rule file"),
    "duplicate-key.duplicate-key-first-defined": (
        "重复的键 '{key_}'（首次定义于第 {number} 行）",
        "duplicate key '{key_}' (first defined at line {number})",
    ),
    "empty-file.file-holds-no-yaml": ("文件中没有 YAML 文档", "the file holds no YAML document"),
    "encoding.byte-0x-not-valid": (
        "字节 0x{value:02x} 不是有效的 UTF-8；请将文件保存为 UTF-8",
        "byte 0x{value:02x} is not valid UTF-8; save the file as UTF-8",
    ),
    "file-too-large.file-bytes-limit-for": (
        "文件有 {size} 字节；{what}的上限是 {limit}",
        "the file is {size} bytes; the limit for {what} is {limit}",
    ),
    "file-too-large.split-into-several-files": ("请拆分成几个文件", "split it into several files"),
    "full-width.full-width-u-where": (
        "全角的 '{mark}'（U+{ord:04X}），YAML 此处需要 '{value}'",
        "full-width '{mark}' (U+{ord:04X}) where YAML needs '{value}'",
    ),
    "full-width.type-half-width": ("请输入半角的 '{value}'", "type a half-width '{value}'"),
    "full-width.type-half-width-space": ("请输入半角的 '{value}'，后面加一个空格", "type a half-width '{value}' followed by a space"),
    "link-outside.copy-file-into-folder": (
        "请把文件复制到文件夹里，而不是链接过去",
        "copy the file into the folder instead of linking to it",
    ),
    "link-outside.link-outside-folder-rule": (
        "'{name}' 是指向文件夹 {name2}/ 之外（{value}）的链接；规则文件必须在该文件夹内",
        "'{name}' is a link to {value} outside the folder {name2}/; rule files must be inside it",
    ),
    "merge-key.yaml-merge-keys-are": ("不支持 YAML 合并键（'<<'）", "YAML merge keys ('<<') are not supported"),
    "multiple-documents.rule-file-holds-exactly": (
        "一个规则文件只能有一个 YAML 文档",
        "a rule file holds exactly one YAML document",
    ),
    "no-ruleset.file-not-inside-folder": (
        "此文件不在含 ruleset.yaml 或 pack.yaml 的文件夹内",
        "this file is not inside a folder with ruleset.yaml or pack.yaml",
    ),
    "no-ruleset.no-ruleset-yaml-pack": (
        "此处及其子文件夹中都没有 ruleset.yaml 或 pack.yaml",
        "no ruleset.yaml or pack.yaml here or in its sub-folders",
    ),
    "no-such-path.no-such-file-folder": ("没有这个文件或文件夹", "no such file or folder"),
    "not-a-file.neither-regular-file-nor": (
        "这既不是普通文件也不是文件夹；rulec 只读取普通文件",
        "this is neither a regular file nor a folder; rulec reads only regular files",
    ),
    "not-a-file.not-regular-file-rulec": (
        "'{name}' 不是普通文件；rulec 只读取普通文件",
        "'{name}' is not a regular file; rulec reads only regular files",
    ),
    "not-a-file.not-regular-file-rulec-2": (
        "这是{what}，不是普通文件；rulec 只读取普通文件",
        "this is {what}, not a regular file; rulec reads only regular files",
    ),
    "not-a-file.replace-with-ordinary-file": ("请换成普通文件", "replace it with an ordinary file"),
    "quote-text.colon": (
        "'{key_}' 的文字中有 ':'，YAML 把它当成了下一个键：请给这段文字加上引号",
        "the text of '{key_}' holds ':', which YAML reads as another key: quote this text",
    ),
    "quote-text.comma": (
        "'{key_}' 没有值：'{before}' 的文字中的 ',' 在这里截断了文字；请给这段文字加上引号",
        "'{key_}' has no value: a ',' in the text of '{before}' ended that text here; quote this text",
    ),
    "quote-text.write": ("写成 {key_}: {text}", "write {key_}: {text}"),
    "reading.not-regular-file": ("不是普通文件", "not a regular file"),
    "reading.rule-file": ("规则文件", "a rule file"),
    "sources.missing-file": ("不存在的文件", "a missing file"),
    "sources.something": ("某处", "something"),
    "stray-file.move-into-folder-with": (
        "请把它移到含 ruleset.yaml 或 pack.yaml 的文件夹里",
        "move it into a folder with ruleset.yaml or pack.yaml",
    ),
    "stray-file.yaml-file-outside-any": (
        "YAML 文件不在任何规则集或扩展包文件夹内；它会被忽略",
        "YAML file outside any ruleset or pack folder; it would be ignored",
    ),
    "tab.tab-character-indent-separate": ("制表符；缩进和分隔请用空格", "tab character; indent and separate with spaces"),
    "too-deep.nesting-deeper-than-levels": ("嵌套超过 {max_depth} 层", "nesting deeper than {max_depth} levels"),
    "too-deep.nesting-too-deep-read": ("嵌套过深，无法读取", "nesting is too deep to read"),
    "too-deep.nesting-too-deep-read-2": ("嵌套过深，无法读取", "nesting is too deep to read"),
    "truthy.write-true-false-quote": (
        "请写 true/false；若指的是文字，请加引号",
        "write true/false, or quote it if you mean the text",
    ),
    "truthy.yaml-1-1-boolean": ("'{value}' 在 YAML 1.1 中是布尔值，含义不明确", "'{value}' is a YAML 1.1 boolean and ambiguous"),
    "unknown-tag.tag-not-allowed-rule": (
        "不允许使用标签 '{tag}'；规则文件只用普通的 YAML 值",
        "tag '{tag}' is not allowed; rule files use plain YAML values only",
    ),
    "unreadable.cannot-read-file-2": ("无法读取文件：{value}", "cannot read the file: {value}"),
    "unreadable.cannot-read-file-3": ("无法读取文件：{value}", "cannot read the file: {value}"),
    "yaml-syntax.problem": ("YAML 语法错误：{problem}", "{problem}"),
}
