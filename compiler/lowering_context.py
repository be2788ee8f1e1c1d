"""Helpers shared by the lowering modules: diagnostics at spans, formulas and templates."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .diagnostics import Diagnostic, Span
from .formula.check import Scope, check
from .formula.render import to_chinese, to_python
from .formula.syntax import FormulaError
from .ir import Formula, Template
from .load import Document, JsonPath

LOCAL_PREFIX = "v_"  # procedure locals compile to v_<id> (see steps.target_binding)
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


@dataclass
class Reporter:
    """Collects diagnostics while lowering."""

    diags: list[Diagnostic] = field(default_factory=list)

    def error(self, span: Span, code: str, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, code, message, hint))


def value_span(doc: Document, path: JsonPath, offset: int = 0) -> Span:
    """The span of a character `offset` inside the string at `path` (quotes accounted for)."""
    span = doc.span(path)
    extra = 1 if tuple(path) in doc.quoted else 0
    if span.path != tuple(path):
        return span
    return span.at(col_offset=offset + extra)


def compile_formula(text: str | int | bool, scope: Scope, want: tuple[str, ...] | None, doc: Document,
                    path: JsonPath, rep: Reporter) -> Formula | None:
    """Check a formula; report a diagnostic at its column and return None when it is bad."""
    if isinstance(text, bool):
        text = "True" if text else "False"
    text = str(text)
    try:
        typed = check(text, scope, want=want)
    except FormulaError as exc:
        rep.error(value_span(doc, path, exc.col), "formula", exc.message, exc.hint)
        return None
    reads = frozenset(b.python[2:] for b in typed.bindings.values() if b.python.startswith(LOCAL_PREFIX))
    return Formula(text.strip(), to_python(typed), to_chinese(typed), typed.type, doc.span(path), reads, typed)


def compile_template(text: str, scope: Scope, doc: Document, path: JsonPath,
                     rep: Reporter) -> Template | None:
    """Compile a sentence with {name} holes into a Python expression that builds it: an f-string
    (the cheapest to build), or a concatenation when a hole's expression could not sit in one."""
    literals: list[str] = []  # the text between holes ('' where two holes meet)
    holes: list[tuple[str, str]] = []  # per hole: its expression as an f-string field, and as a str
    reads: set[str] = set()
    pending = ""
    pos = 0
    ok = True
    for m in _PLACEHOLDER.finditer(text):
        pending += text[pos:m.start()]
        token = m.group(0)
        if token in ("{{", "}}"):
            pending += token[0]
        elif m.group(1) is None:
            rep.error(value_span(doc, path, m.start()), "template",
                      f"unmatched '{token}' in the sentence", "write {{ or }} for a literal brace")
            ok = False
        else:
            name = m.group(1).strip()
            binding = scope.lookup(tuple(name.split("."))) if name else None
            if binding is None:
                from .diagnostics import did_you_mean

                rep.error(value_span(doc, path, m.start() + 1), "template", f"unknown name '{name}'",
                          did_you_mean(name, scope.suggestions()))
                ok = False
            else:
                # Typed formatting: whole numbers and text need no helper call in the hot path.
                if binding.type in ("int", "str"):
                    holes.append((binding.python, binding.python if binding.type == "str"
                                  else f"str({binding.python})"))
                else:
                    holes.append((f"_rt_fmt({binding.python})",) * 2)
                literals.append(pending)
                pending = ""
                if binding.python.startswith(LOCAL_PREFIX):
                    reads.add(binding.python[len(LOCAL_PREFIX):])
        pos = m.end()
    literals.append(pending + text[pos:])
    if not ok:
        return None
    return Template(text, _sentence_python(literals, holes), doc.span(path), frozenset(reads))


_FIELD_SAFE = re.compile(r"[\w.(), -]+")  # what an f-string field may hold on Python 3.8: no quotes, braces, \


def _sentence_python(literals: list[str], holes: list[tuple[str, str]]) -> str:
    if not holes:
        return repr(literals[0])
    if all(_FIELD_SAFE.fullmatch(field) for field, _ in holes):
        body = "".join(_fstring_text(lit) + "{" + field + "}" for lit, (field, _) in zip(literals, holes))
        return "f'" + body + _fstring_text(literals[-1]) + "'"
    parts: list[str] = []
    for lit, (_, expr) in zip(literals, holes):
        parts += [repr(lit), expr] if lit else [expr]
    if literals[-1]:
        parts.append(repr(literals[-1]))
    return " + ".join(parts)


def _fstring_text(text: str) -> str:
    """Literal text inside f'...': the escapes of repr, the quote escaped, braces doubled."""
    body = repr(text)[1:-1]
    if repr(text)[0] == '"':  # repr chose double quotes: the text has a ' and no "
        body = body.replace("'", "\\'")
    return body.replace("{", "{{").replace("}", "}}")
