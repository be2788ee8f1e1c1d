"""Scopes: which names a formula may use, and what each compiles to.

Every name can be written with its ASCII id or its Chinese name, and both
compile to the same ASCII Python expression:

* in a procedure: parameters (`distance` / `距离`), earlier locals, the stats of
  combatant parameters (`attacker.strength` / `攻击方.力量`), the fields of table
  parameters and of the entries they reference (`weapon.attack_type.speed`),
  formula fields of those entries (called with the procedure's subject), and
  the rulings (`rulings.armor_piercing_divisor` / `裁定.破甲折算`);
* in an entry's formula field: the subject's stats as bare names (`力量`), the
  entry's own fields (`this.speed` / `本项.高速`), the context entries the field
  declares (`weapon.damage`), and the rulings.
"""

from __future__ import annotations

from .formula.check import BOOL, DICE, INT, LIST, STR, Binding, Scope
from .ir import FieldDecl, Ruling, Stat

FIELD_TYPES = {"int": INT, "bool": BOOL, "text": STR, "enum": STR, "enum_list": LIST, "dice": DICE}
MAX_REF_DEPTH = 2


def class_name(table_id: str) -> str:
    """The generated class for a table's entries: weapons -> Weapon, attack_types -> AttackType."""
    base = table_id[:-1] if table_id.endswith("s") and not table_id.endswith("ss") else table_id
    return "".join(part.capitalize() for part in base.split("_"))


def ruling_constant(key: str) -> str:
    return f"R_{key.upper()}"


def formula_function(index: int) -> str:
    return f"_entry_formula_{index}"


class TableDecls:
    """The declared fields of every table of a ruleset, for building scopes."""

    def __init__(self, fields: dict[str, tuple[FieldDecl, ...]], names: dict[str, str]):
        self.fields = fields
        self.names = names


def add_stats(scope: Scope, stats: tuple[Stat, ...], key_prefixes: list[tuple[str, ...]],
              python_prefix: str, text_prefix: str) -> None:
    for stat in stats:
        binding = Binding(INT if stat.type == "int" else BOOL, f"{python_prefix}.{stat.id}",
                          f"{text_prefix}{stat.name}")
        scope.add([p + (stat.id,) for p in key_prefixes] + [p + (stat.name,) for p in key_prefixes],
                  binding)


def add_rulings(scope: Scope, rulings: tuple[Ruling, ...]) -> None:
    """Rulings are compile-time constants: formulas get their value inlined (the module still exports
    each as R_<KEY> for reference), so a resolver pays no global lookup for them."""
    for r in rulings:
        binding = Binding(BOOL if isinstance(r.value, bool) else INT, repr(r.value), f"〔{r.name}〕")
        scope.add([("rulings", r.key), ("裁定", r.name), ("rulings", r.name), ("裁定", r.key)], binding)


def add_entity(scope: Scope, key_prefixes: list[tuple[str, ...]], python: str, text: str,
               table: str, decls: TableDecls, *, subject: str | None,
               context_params: dict[str, str], depth: int = 0) -> None:
    """Bind the fields of an entry of `table` reachable as `python` (e.g. weapon.attack_type)."""
    scope.add([p + ("id",) for p in key_prefixes], Binding(STR, f"{python}.id", f"{text}编号"))
    scope.add([p + ("name",) for p in key_prefixes] + [p + ("名称",) for p in key_prefixes],
              Binding(STR, f"{python}.name", f"{text}名称"))
    scope.add([p + ("given",) for p in key_prefixes] + [p + ("已指定",) for p in key_prefixes],
              Binding(BOOL, f"{python}.given", f"已指定{text}"))
    for decl in decls.fields.get(table, ()):
        keys = [p + (decl.id,) for p in key_prefixes] + [p + (decl.name,) for p in key_prefixes]
        field_text = f"{text}{decl.name}"
        if decl.type in FIELD_TYPES:
            scope.add(keys, Binding(FIELD_TYPES[decl.type], f"{python}.{decl.id}", field_text))
        elif decl.type == "ref" and decl.table and depth < MAX_REF_DEPTH:
            sub_prefixes = [p + (decl.id,) for p in key_prefixes] + [p + (decl.name,) for p in key_prefixes]
            add_entity(scope, sub_prefixes, f"{python}.{decl.id}", field_text, decl.table, decls,
                       subject=subject, context_params=context_params, depth=depth + 1)
        elif decl.type == "formula" and subject is not None:
            args = [subject, python]
            usable = True
            for param, ctx_table in decl.context:
                if context_params.get(param) != ctx_table:
                    usable = False
                    break
                args.append(param)
            if usable:
                scope.add(keys, Binding(decl.result or INT, f"{python}.{decl.id}({', '.join(args)})",
                                        field_text))


def entry_formula_scope(stats: tuple[Stat, ...], rulings: tuple[Ruling, ...], table: str,
                        decl: FieldDecl, decls: TableDecls) -> Scope:
    """Names a formula field may use: bare subject stats, this entry, its context entries."""
    scope = Scope()
    add_stats(scope, stats, [()], "s", "")
    add_rulings(scope, rulings)
    for field in decls.fields.get(table, ()):
        if field.type in FIELD_TYPES:
            scope.add([("this", field.id), ("本项", field.name), ("this", field.name), ("本项", field.id)],
                      Binding(FIELD_TYPES[field.type], f"e.{field.id}", f"本项{field.name}"))
    for param, ctx_table in decl.context:
        name = decls.names.get(ctx_table, ctx_table)
        add_entity(scope, [(param,), (name,)], param, name, ctx_table, decls,
                   subject=None, context_params={})
    return scope
