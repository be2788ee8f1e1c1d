"""The TypeScript type of a procedure parameter, which both the module's types (`dts.py`) and the
fight's (`fight.py`) write."""

from __future__ import annotations

from ...ir import Param
from ...validate.scopes import class_name
from .code import Js, js, name

TS = {"int": Js("number"), "bool": Js("boolean"), "str": Js("string")}


def param_type(prm: Param) -> Js:
    """A parameter's TypeScript type."""
    if prm.type in ("int", "bool"):
        return TS[prm.type]
    if prm.type == "combatant":
        return Js("Combatant")
    entry = js("{} | string", name(class_name(prm.type)))
    return js("{} | null", entry) if prm.optional else entry


def required(prm: Param) -> bool:
    """An option the call must give: no default, and not an entry that may be left out."""
    return prm.default is None and not (prm.type not in ("int", "bool") and prm.optional)
