"""How an emitter spells each kind of IR name (locals, parameters, prepared values), shared by the
Python and JavaScript expression writers: each target subclasses it with its own quoting of names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

S = TypeVar("S", bound=str)


class NameRules(Generic[S]):
    """How the function being written spells each kind of name; `default` spells the rest."""

    default: ClassVar[Any]  # the target's name function, as a staticmethod

    def __init__(self, local: Callable[[str], S], param: Callable[[str], S] | None = None,
                 hoisted: Callable[[str], S] | None = None) -> None:
        fallback: Callable[[str], S] = type(self).default
        self.local = local
        self.param = param or fallback
        self.hoisted = hoisted or fallback


def parenthesised(text: S, prec: int, need: int, kind: Callable[[str], S]) -> S:
    """`text` in brackets when its precedence `prec` is looser than the `need` of where it goes."""
    return kind(f"({text})") if prec < need else text
