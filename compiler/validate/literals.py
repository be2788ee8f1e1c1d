"""Rule numbers are rulings, not literals.

A number written inside a procedure formula (`charge_meters <= 2 * attacker.move_speed`) encodes
a rule that no pack can change and no page lists as changeable. This check finds every whole
number other than 0 and 1 in a step's formulas and reports it unless the step lists it under
`definitional:` with the reason it is part of a definition rather than a rule
(`{value: 2, text: 体积的一半}`): make it a ruling, or say why it is not one. A listed number the
step no longer uses is reported too, so the list cannot go stale.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..ir import Formula
from ..formula import syntax
from ..load import Document
from .context import Reporter, value_span
from ..messages import say

PLAIN = (0, 1)


def numbers(text: str) -> Iterator[tuple[int, int]]:
    """(value, column) of each whole-number literal as written in a formula (a call of a declared
    formula counts its arguments, not the numbers of the declaration it expands to)."""
    stack: list[Any] = [syntax.parse(text)]
    while stack:
        x = stack.pop()
        if isinstance(x, syntax.Num):
            yield x.value, x.col
        elif isinstance(x, tuple):
            stack.extend(x)
        elif hasattr(x, "__slots__"):
            stack.extend(getattr(x, name) for name in x.__slots__ if name != "col")


def check_literals(raw: Mapping[str, Any], formulas: Mapping[str, Formula | None], doc: Document,
                   path: tuple[Any, ...], rep: Reporter) -> None:
    """Report the numbers of a step's (or an outcome's, or a declared formula's) formulas that are
    neither 0/1 nor listed in its `definitional`."""
    listed = {d["value"]: d["text"] for d in raw.get("definitional", [])}
    used: set[int] = set()
    for key, formula in formulas.items():
        if formula is None:
            continue
        for value, col in sorted(set(numbers(formula.text))):
            if value in PLAIN:
                continue
            used.add(value)
            if value in listed:
                continue
            rep.error(value_span(doc, path + (key,), col),
                          "rule-literal", say("rule-literal.number-formula-encodes-rule", value=value),
                          say("rule-literal.make-ruling-rulings-yaml", value=value))
    for i, d in enumerate(raw.get("definitional", [])):
        if d["value"] not in used:
            rep.error(doc.span(path + ("definitional", i, "value")), "stale-definitional",
                      say("stale-definitional.step-formulas-no-longer", value=d['value']), say("stale-definitional.remove-from-definitional"))
