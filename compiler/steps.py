"""The closed vocabulary of procedure steps: one registry entry per kind.

A kind has a schema fragment (`schema/procedures.schema.json`, `<kind>_step`),
a lowering (`lower` below: YAML mapping -> `ir.Step`, defining its local in the
scope), a code template (the macros of the same name in
`emit/templates/steps.py.j2`, for the traced, fast and odds functions) and a
reference rendering (`describe`: one Chinese sentence for the rulebook).
Adding a kind means adding all four; `tests/test_steps.py` checks that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .formula.check import BOOL, DICE, INT, Binding
from .ir import Formula, Step


@dataclass(frozen=True)
class StepKind:
    key: str
    name: str  # Chinese name of the kind, for the reference page
    args: tuple[tuple[str, tuple[str, ...], str | None], ...]  # (arg, wanted types, default text)
    defines: str | None  # the type of the local it defines, or None
    describe: Callable[[Step], str]


def _arg(step: Step, name: str) -> str:
    f = step.arg(name)
    return f.chinese if f is not None else ""


def _when(step: Step) -> str:
    return f"（仅当{step.when.chinese}）" if step.when is not None else ""


def _describe_let(step: Step) -> str:
    return f"{step.name} = {_arg(step, 'value')}"


def _describe_require(step: Step) -> str:
    return f"要求：{_arg(step, 'require')}；否则拒绝（{step.error}）"


def _describe_pool(step: Step) -> str:
    extras = _arg(step, "extras")
    text = f"掷骰池：{_arg(step, 'dice')}个骰子"
    if extras and extras != "0":
        text += f"，附加成功{extras}"
    if step.arg("all_succeed") is not None:
        text += f"；当{_arg(step, 'all_succeed')}时所有骰子均视为成功且不加骰"
    return f"{text}，成功数记为{step.name}{_when(step)}"


def _describe_pool_count(step: Step) -> str:
    extras = _arg(step, "extras")
    text = f"骰池检定{_arg(step, 'times')}次：每次{_arg(step, 'dice')}个骰子"
    if extras and extras != "0":
        text += f"，附加成功{extras}"
    return f"{text}；成功数达到{_arg(step, 'at_least')}的次数记为{step.name}{_when(step)}"


def _describe_d20(step: Step) -> str:
    return (f"掷d20：优势层数{_arg(step, 'advantage') or '0'}，劣势层数"
            f"{_arg(step, 'disadvantage') or '0'}，取用的骰面记为{step.name}{_when(step)}")


def _describe_roll(step: Step) -> str:
    crit = f"；{_arg(step, 'crit')}时所有伤害骰掷两次" if step.arg("crit") is not None else ""
    return f"掷{_arg(step, 'dice')}，总和记为{step.name}{crit}{_when(step)}"


def _describe_note(step: Step) -> str:
    return f"记录：{step.say.text if step.say else ''}{_when(step)}"


REGISTRY: dict[str, StepKind] = {
    k.key: k
    for k in (
        StepKind("let", "计算", (("value", ("int", "frac", "bool", "str"), None),), "value",
                 _describe_let),
        StepKind("require", "前提", (("require", (BOOL,), None),), None, _describe_require),
        StepKind("pool", "骰池检定",
                 (("dice", (INT,), None), ("extras", (INT,), "0"), ("all_succeed", (BOOL,), None)),
                 INT, _describe_pool),
        StepKind("pool_count", "连续骰池检定",
                 (("dice", (INT,), None), ("extras", (INT,), "0"), ("times", (INT,), None),
                  ("at_least", (INT,), "1")), INT, _describe_pool_count),
        StepKind("d20", "d20检定",
                 (("advantage", (INT,), "0"), ("disadvantage", (INT,), "0")), INT, _describe_d20),
        StepKind("roll", "伤害骰", (("dice", (DICE,), None), ("crit", (BOOL,), None)), INT,
                 _describe_roll),
        StepKind("note", "记录", (), None, _describe_note),
    )
}


def step_kind_of(raw: dict[str, Any]) -> StepKind:
    for key, kind in REGISTRY.items():
        if key in raw:
            return kind
    raise KeyError("no step kind")  # the schema has already rejected this


def target_binding(kind: StepKind, target: str, name: str, value: Formula | None) -> Binding:
    """The local a step defines, as a formula binding."""
    if kind.defines == "value":
        type_ = value.type if value is not None else INT  # a bad formula was reported already
    else:
        type_ = kind.defines or INT
    return Binding(type_, f"v_{target}", name)
