"""Code-generation handlers, dispatched by IR node type (as the `d20` library's roller maps node
classes to handlers): one handler per step kind, target language and form.

A step kind's module (`compiler/steps/<kind>.py`) registers its handlers with `@handler(...)`;
the emitters look them up with `handler_for`. `missing()` lists every (target, form, kind)
without one, and a test fails while that list is not empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# The forms every step kind must generate, per target language:
#   setup     inside NAME_setup(...): steps that roll nothing (let, require, note)
#   traced    NAME(...): the roll with its record and trace sentence
#   fast      NAME_fast(...): the outcome only, faces from dice.die
#   prepare   NAME_prepare(...) before its closure: per-roll arguments that need no dice
#   prepared  the closure: faces drawn inline from a SeededDice's random, or from die
#   odds      NAME_odds(...): a loop over the exact distribution of the roll
FORMS: dict[str, tuple[str, ...]] = {
    "python": ("setup", "traced", "fast", "prepare", "prepared", "odds"),
    # JavaScript: NAME_prepare is the setup once and a closure over the fast form's roll function
    # (V8 inlines it; no separate prepared body is needed to stay within 1.5x of hand-written code).
    "js": ("setup", "traced", "fast", "odds"),
}

Handler = Callable[[Any, Any], None]
_HANDLERS: dict[tuple[str, str, type], Handler] = {}


def handler(target: str, form: str, node: type) -> Callable[[Handler], Handler]:
    if form not in FORMS[target]:
        raise ValueError(f"unknown form {form!r} for {target}")

    def register(fn: Handler) -> Handler:
        _HANDLERS[(target, form, node)] = fn
        return fn

    return register


def handler_for(target: str, form: str, node: object) -> Handler:
    try:
        return _HANDLERS[(target, form, type(node))]
    except KeyError:
        raise LookupError(f"no {target} handler for the {form} form of {type(node).__name__}") from None


def _never_in_setup(step: Any, g: Any) -> None:
    raise AssertionError("a roll never runs in the setup function")


def _nothing_to_prepare(step: Any, g: Any) -> None:
    """Its roll-independent parts are prepared values of the closure (optimise/hoist.py)."""


def rolling(node: type, *, prepare: bool = False) -> None:
    """The handlers every kind that rolls shares: none in the setup function of either target (the
    plan keeps rolls out of it) and, unless it has its own (`prepare=True`), nothing to prepare."""
    handler("python", "setup", node)(_never_in_setup)
    handler("js", "setup", node)(_never_in_setup)
    if not prepare:
        handler("python", "prepare", node)(_nothing_to_prepare)


def missing(kinds: list[type]) -> list[tuple[str, str, str]]:
    return [(target, form, kind.__name__) for target, forms in FORMS.items() for form in forms
            for kind in kinds if (target, form, kind) not in _HANDLERS]
