"""Every `_rt_` function the generated part of a JavaScript module calls is defined by the
runtime it carries (runtime.js, and the files its step kinds and helpers add).

A step kind's handlers call runtime functions by name; one whose file the kind left out of
`StepKind.runtime_js` would throw `ReferenceError` when called. `undefined` finds such names in
the code the emitters wrote (outside its strings and comments: they hold rule text), so the
build fails instead. The generated part has no template literals, block comments or regular
expressions (the emitters write none), which is what makes one regular expression enough.
"""

from __future__ import annotations

import re

# A string or a line comment (skipped), or a runtime name read outside them (group 1).
_TOKENS = re.compile(r"""//[^\n]*|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|(?<![\w$.])(_rt_[\w$]*)""")
_DEFINED = re.compile(r"^[ \t]*(?:function\*?|class|const|let|var)[ \t]+(_rt_[\w$]*)", re.MULTILINE)


def defined(runtime: str) -> frozenset[str]:
    """The `_rt_` names a runtime file defines (functions, classes and variables, one a line)."""
    return frozenset(_DEFINED.findall(runtime))


def _lines_with(text: str, part: str) -> list[str]:
    """The lines of `text` that hold `part`, found with `str.find` (no list of every line)."""
    out: list[str] = []
    at = text.find(part)
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        if end < 0:
            end = len(text)
        out.append(text[start:end])
        at = text.find(part, end)
    return out


def undefined(generated: str, runtime: str) -> list[str]:
    """The `_rt_` names `generated` reads that neither it nor `runtime` defines, in order. No
    string or comment of the generated part spans lines, so only its lines that hold `_rt_` at
    all are read (the data rows of a big table, most of the text, are passed over at C speed)."""
    return undefined_in([names_of(generated)], defined(runtime))


def names_of(part: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """The `_rt_` names a part of the generated code defines, and those it reads (in order, once
    each). A part is whole lines (`undefined_in`)."""
    lines = "\n".join(_lines_with(part, "_rt_"))
    used = dict.fromkeys(m.group(1) for m in _TOKENS.finditer(lines) if m.group(1))
    return defined(lines), tuple(used)


def undefined_in(parts: list[tuple[frozenset[str], tuple[str, ...]]], runtime: frozenset[str]) -> list[str]:
    """`undefined` of the parts the generated code is made of (`names_of` each, so that a build
    reads again only the parts it made again), each of whole lines: the names they read that none
    of them nor the runtime (`defined`) defines, in order."""
    known = runtime.union(*(names for names, _ in parts))
    return list(dict.fromkeys(n for _, used in parts for n in used if n not in known))
