"""Scopes: which names a formula may use, and the IR node each stands for.

Every name can be written with its ASCII id or its Chinese name, and both resolve to the same node:

* in a procedure: parameters (`distance` / `距离`), earlier locals, the stats of combatant
  parameters (`attacker.strength` / `攻击方.力量`), the fields of table parameters and of the
  entries they reference (`weapon.attack_type.speed`), formula fields of those entries (called
  with the procedure's subject), the rulings (`rulings.armor_piercing_divisor` / `裁定.破甲折算`),
  the manifest's helper functions and its indexed tables (`sizes[attacker.size].square_side`);
* in an entry's formula field: the subject's stats as bare names (`力量`), the entry's own fields
  (`this.speed` / `本项.高速`), the context entries the field declares (`weapon.damage`), the rulings.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..formula.check import Binding, HelperSpec, IndexSpec, Scope
from ..ir import FieldDecl, Helper, Ruling, Stat, Table
from ..ir import expr as ir

FIELD_TYPES = {"int": ir.INT, "bool": ir.BOOL, "text": ir.STR, "enum": ir.STR, "enum_list": ir.LIST, "dice": ir.DICE}
MAX_REF_DEPTH = 2
SEP = "·"  # joins an entity's display name and a field's: 武器·武器伤害


def class_name(table_id: str) -> str:
    """The generated class for a table's entries: weapons -> Weapon, attack_types -> AttackType."""
    base = table_id[:-1] if table_id.endswith("s") and not table_id.endswith("ss") else table_id
    return "".join(part.capitalize() for part in base.split("_"))


class TableDecls:
    """The declared fields of every table of a ruleset, for building scopes."""

    def __init__(self, fields: Mapping[str, tuple[FieldDecl, ...]], names: Mapping[str, str],
                 indexes: Mapping[str, str] | None = None):
        self.fields = dict(fields)
        self.names = dict(names)
        self.indexes = dict(indexes or {})  # table id -> its index field


def base_scope(rulings: tuple[Ruling, ...], helpers: tuple[Helper, ...], decls: TableDecls) -> Scope:
    """What every formula of a ruleset may use: the rulings, the helpers, the indexed tables."""
    scope = Scope(helpers={h.id: HelperSpec(h.id, h.module, h.params, h.result, h.name) for h in helpers})
    for r in rulings:
        node = ir.Ruling(ir.BOOL if isinstance(r.value, bool) else ir.INT, r.key, r.value, f"〔{r.name}〕")
        scope.add([("rulings", r.key), ("裁定", r.name), ("rulings", r.name), ("裁定", r.key)], Binding(node))
    for table, index in decls.indexes.items():
        placeholder = ir.Param(ir.entry_type(table), "_", "")
        fields: dict[str, Binding] = {}
        sub = Scope()
        add_entity(sub, [()], placeholder, decls.names.get(table, table), table, decls, subject=None,
                   context_params={})
        for key, binding in sub.bindings.items():
            if len(key) == 1:
                fields[key[0]] = binding
        index_decl = next((f for f in decls.fields.get(table, ()) if f.id == index), None)
        key_type = FIELD_TYPES.get(index_decl.type, ir.INT) if index_decl else ir.INT
        spec = IndexSpec(table, index, key_type, decls.names.get(table, table), fields)
        scope.indexes[table] = spec
        scope.indexes[decls.names.get(table, table)] = spec
    return scope


def add_stats(scope: Scope, stats: tuple[Stat, ...], key_prefixes: list[tuple[str, ...]], base: ir.Expr,
              text_prefix: str) -> None:
    for stat in stats:
        node = ir.Attr(ir.INT if stat.type == "int" else ir.BOOL, base, stat.id,
                       f"{text_prefix}{SEP}{stat.name}" if text_prefix else stat.name)
        scope.add([p + (stat.id,) for p in key_prefixes] + [p + (stat.name,) for p in key_prefixes], Binding(node))


def add_entity(scope: Scope, key_prefixes: list[tuple[str, ...]], base: ir.Expr, text: str,
               table: str, decls: TableDecls, *, subject: ir.Expr | None,
               context_params: Mapping[str, tuple[str, ir.Expr]], depth: int = 0) -> None:
    """Bind the fields of an entry of `table` reachable as `base` (e.g. weapon.attack_type)."""
    def label(field_name: str) -> str:
        return f"{text}{SEP}{field_name}" if text else field_name

    scope.add([p + ("id",) for p in key_prefixes], Binding(ir.Attr(ir.STR, base, "id", label("编号"))))
    scope.add([p + ("name",) for p in key_prefixes] + [p + ("名称",) for p in key_prefixes],
              Binding(ir.Attr(ir.STR, base, "name", label("名称"))))
    scope.add([p + ("given",) for p in key_prefixes] + [p + ("已指定",) for p in key_prefixes],
              Binding(ir.Attr(ir.BOOL, base, "given", f"已指定{text}")))
    for decl in decls.fields.get(table, ()):
        keys = [p + (decl.id,) for p in key_prefixes] + [p + (decl.name,) for p in key_prefixes]
        if decl.type in FIELD_TYPES:
            scope.add(keys, Binding(ir.Attr(FIELD_TYPES[decl.type], base, decl.id, label(decl.name))))
        elif decl.type == "ref" and decl.table and depth < MAX_REF_DEPTH:
            sub_prefixes = [p + (decl.id,) for p in key_prefixes] + [p + (decl.name,) for p in key_prefixes]
            add_entity(scope, sub_prefixes, ir.Attr(ir.entry_type(decl.table), base, decl.id, label(decl.name)),
                       label(decl.name), decl.table, decls, subject=subject, context_params=context_params,
                       depth=depth + 1)
        elif decl.type == "formula" and subject is not None:
            args: list[ir.Expr] = [subject, base]
            for param, ctx_table in decl.context:
                found = context_params.get(param)
                if found is None or found[0] != ctx_table:
                    break
                args.append(found[1])
            else:
                scope.add(keys, Binding(ir.EntryFormula(decl.result or ir.INT, base, decl.id, tuple(args),
                                                        label(decl.name))))


def entry_formula_scope(stats: tuple[Stat, ...], base: Scope, table: str, decl: FieldDecl,
                        decls: TableDecls) -> Scope:
    """Names a formula field may use: bare subject stats, this entry, its context entries."""
    scope = base.child()
    add_stats(scope, stats, [()], ir.Param(ir.COMBATANT, "s", ""), "")
    this = ir.Param(ir.entry_type(table), "e", "本项")
    for field in decls.fields.get(table, ()):
        if field.type in FIELD_TYPES:
            scope.add([("this", field.id), ("本项", field.name), ("this", field.name), ("本项", field.id)],
                      Binding(ir.Attr(FIELD_TYPES[field.type], this, field.id, f"本项{SEP}{field.name}")))
    for param, ctx_table in decl.context:
        name = decls.names.get(ctx_table, ctx_table)
        add_entity(scope, [(param,), (name,)], ir.Param(ir.entry_type(ctx_table), param, name), name, ctx_table,
                   decls, subject=None, context_params={})
    return scope


def table_index_fields(tables: tuple[Table, ...]) -> dict[str, str]:
    return {t.id: t.index for t in tables if t.index}
