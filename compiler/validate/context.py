"""Helpers of the validation pass: a reporter, formulas and sentences checked at their columns, and
the context a step kind's `check` works in."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..formula.check import Binding, FormulaErrors, Scope, check
from ..formula.syntax import FormulaError
from ..ir import Dice, ErrorType, Formula, Template
from ..ir import expr as ir
from ..load import Document, JsonPath
from ..messages import say
from ..record import MutableRecord, field

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


class Reporter(MutableRecord):
    """Collects diagnostics while validating."""

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
    """Check a formula; report every problem at its column and return None when it is bad."""
    try:
        expr = check(text, scope, want=want)
    except FormulaErrors as errors:
        for exc in errors.errors:
            rep.error(value_span(doc, path, exc.col), "formula", exc.message, exc.hint)
        return None
    except FormulaError as exc:
        rep.error(value_span(doc, path, exc.col), "formula", exc.message, exc.hint)
        return None
    shown = "True" if text is True else "False" if text is False else str(text)
    return Formula(shown.strip(), expr, doc.span(path))


def compile_template(text: str, scope: Scope, doc: Document, path: JsonPath, rep: Reporter) -> Template | None:
    """A sentence with {name} holes: literal text and the typed node of each hole."""
    parts: list[str | ir.Expr] = []
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
                      say("template.unmatched-sentence", token=token), say("template.write-for-literal-brace"))
            ok = False
        else:
            name = m.group(1).strip()
            binding = scope.lookup(tuple(name.split("."))) if name else None
            if binding is None:
                rep.error(value_span(doc, path, m.start() + 1), "template", say("template.unknown-name", name=name),
                          did_you_mean(name, scope.suggestions()))
                ok = False
            else:
                if pending:
                    parts.append(pending)
                pending = ""
                parts.append(binding.expr)
        pos = m.end()
    pending += text[pos:]
    if pending:
        parts.append(pending)
    return Template(text, tuple(parts), doc.span(path)) if ok else None


class StepContext:
    """What a step kind's `check` may use: the scope at its step, its document and path, the
    ruleset's error types and dice engine, and a way to define its local for later steps."""

    def __init__(self, *, doc: Document, path: JsonPath, scope: Scope, errors: Mapping[str, ErrorType],
                 rule_ids: set[str], dice: Dice, rep: Reporter, defined: dict[tuple[str, ...], bool]) -> None:
        self.doc, self.path, self.scope, self.errors = doc, path, scope, errors
        self.rule_ids, self.dice, self.rep, self.defined = rule_ids, dice, rep, defined

    @property
    def engine(self) -> str:
        return self.dice.engine

    def span(self, sub: JsonPath = ()) -> Span:
        return self.doc.span(self.path + tuple(sub))

    def error(self, sub: JsonPath, code: str, message: str, hint: str | None = None, *, key: bool = False) -> None:
        self.rep.error(self.doc.span(self.path + tuple(sub), key=key), code, message, hint)

    def formula(self, text: Any, want: tuple[str, ...], sub: JsonPath) -> Formula | None:
        return compile_formula(text, self.scope, want, self.doc, self.path + tuple(sub), self.rep)

    def template(self, text: str, sub: JsonPath) -> Template | None:
        return compile_template(text, self.scope, self.doc, self.path + tuple(sub), self.rep)

    def error_type(self, error_id: str, sub: JsonPath) -> ErrorType | None:
        found = self.errors.get(error_id)
        if found is None:
            self.error(sub, "unknown-error", say("unknown-error.no-error-type", error_id=error_id), did_you_mean(error_id, self.errors))
        return found

    def rules(self, ids: Iterable[str]) -> tuple[str, ...]:
        ids = tuple(ids)
        for rid in ids:
            if rid not in self.rule_ids:
                self.error(("rules",), "unknown-rule", say("unknown-rule.rule-id-not-rule", rid=rid),
                           did_you_mean(rid, self.rule_ids))
        return ids

    def define(self, target: str, name: str, type_: str, sub: JsonPath) -> None:
        """Make the step's local visible to the steps after it, by its id and by its name."""
        for key in ((target,), (name,)):
            if key in self.defined:
                self.error(sub, "duplicate-id", say("duplicate-id.already-defined", value=key[0]))
            elif self.scope.lookup(key) is not None:
                self.error(sub, "shadowing", say("shadowing.already-names-parameter-ruling", value=key[0]))
        self.scope.add([(target,), (name,)], Binding(ir.Local(type_, target, name)))
        self.defined[(target,)] = self.defined[(name,)] = True
