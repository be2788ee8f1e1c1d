"""The declaration documents every other check reads: stats (and their groups), rulings (each a
value within its range) and the rule inventory (sections and the seed's rule ids), merged over a
ruleset and its packs; and the check that a rule id named anywhere is in the inventory. Part of
pass 2, validate."""

from __future__ import annotations

from typing import Any

from ..diagnostics import did_you_mean
from ..ir import (
    RuleRef,
    Ruling,
    Section,
    Stat,
    StatGroup,
)
from ..load import Document
from .context import Reporter
from .reserved import reserved
from .names import identity
from ..messages import say


def check_rule_ids(ids: tuple[str, ...], known: set[str], span: Any, rep: Reporter) -> None:
    for rid in ids:
        if rid not in known:
            rep.error(span, "unknown-rule", say("unknown-rule.rule-id-not-rule-2", rid=rid),
                      did_you_mean(rid, known))


def check_stats(docs: list[tuple[Document, str]], rep: Reporter) -> tuple[tuple[StatGroup, ...], tuple[Stat, ...]]:
    groups: list[StatGroup] = []
    stats: list[Stat] = []
    keys: dict[str, Any] = {}  # ids and names: a combatant is given by either, so they share one namespace
    for doc, _origin in docs:
        for g in doc.data.get("groups", []):
            groups.append(StatGroup(g["id"], g["name"]))
        for i, s in enumerate(doc.data["stats"]):
            span = doc.span(("stats", i))
            if s["id"] in reserved("stat"):
                rep.error(doc.span(("stats", i, "id")), "reserved-name", say("reserved-name.reserved-word", id=s['id']))
            for key in {identity(s["id"]), identity(s["name"])}:
                if key in keys:
                    rep.error(span, "duplicate-id", say("duplicate-id.stat-defined-twice-first", key_=key, value=keys[key]))
                keys[key] = span
            stype = s.get("type", "int")
            lo, hi = s.get("min", 0 if stype == "int" else 0), s.get("max", 1000 if stype == "int" else 1)
            default = s.get("default", False if stype == "bool" else max(lo, min(0, hi)))
            if stype == "int" and (isinstance(default, bool) or not lo <= default <= hi):
                rep.error(doc.span(("stats", i, "default")), "bad-default",
                          say("bad-default.default-outside", default=default, lo=lo, hi=hi))
            if stype == "bool" and not isinstance(default, bool):
                rep.error(doc.span(("stats", i, "default")), "bad-default", say("bad-default.bool-stat-defaults-true"))
            stats.append(Stat(s["id"], s["name"], s["group"], stype, lo, hi, default,
                              s.get("description", ""), tuple(s.get("rules", [])), span))
    known_groups = {g.id for g in groups}
    for s in stats:
        if groups and s.group not in known_groups:
            rep.error(s.span, "unknown-group", say("unknown-group.stat-group-not-declared", group=s.group),
                      did_you_mean(s.group, known_groups))
    return tuple(groups), tuple(stats)


def check_rulings(docs: list[tuple[Document, str]], rep: Reporter) -> tuple[Ruling, ...]:
    """Rulings of the ruleset, then the packs' overrides. A whole-number ruling of a ruleset declares
    the range a homebrewer may set it to (min, max), and a pack's override must stay inside it: a
    pack that builds must never make a resolver roll a billion dice or divide by zero."""
    out: dict[str, Ruling] = {}
    for doc, origin in docs:
        for i, r in enumerate(doc.data["rulings"]):
            span = doc.span(("rulings", i))
            value = r["value"]
            lo, hi = r.get("min"), r.get("max")
            if isinstance(value, int) and not isinstance(value, bool):
                if lo is not None and value < lo:
                    rep.error(doc.span(("rulings", i, "value")), "out-of-range", say("out-of-range.below", value=value, lo=lo))
                if hi is not None and value > hi:
                    rep.error(doc.span(("rulings", i, "value")), "out-of-range", say("out-of-range.above", value=value, hi=hi))
                if origin == "ruleset" and (lo is None or hi is None):
                    rep.error(span, "missing-range", say("missing-range.ruling-holds-number-declare", key_=r['key']), say("missing-range.add-min-max"))
            bare = "name" not in r and "text" not in r  # {key, value}: in a pack, an override of that ruling
            kept = [k for k in _RULESET_OWNS if k in r]
            if origin != "ruleset" and r["key"] in out and (r.get("override") or bare) and kept:
                rep.error(doc.span(("rulings", i, kept[0]), key=True), "pack-changes-ruling-text",  # its value only
                          say("pack-changes-ruling-text.only-value", key_=r["key"], keys="/".join(kept)),
                          say("pack-changes-ruling-text.delete-them"))
                continue
            if ("name" in r) != ("text" in r):
                missing = "text" if "name" in r else "name"
                rep.error(span, "missing-key", say("missing-key.missing-required-key", key_=missing),
                          say("missing-key.ruling-name-or-text"))
                continue
            if bare and (origin == "ruleset" or r["key"] not in out):
                rep.error(span, "missing-key", say("missing-key.ruling-no-name-text", key_=r["key"])
                          if origin == "ruleset" else say("missing-key.no-ruling-to-override", key_=r["key"]),
                          say("missing-key.add-name-text") if origin == "ruleset" else
                          did_you_mean(r["key"], out) or say("missing-key.add-name-text-new"))
                continue
            ruling = Ruling(r["key"], r.get("ruling", ""), r.get("name", ""), value, r.get("text", ""),
                            tuple(r.get("rules", [])), span, lo, hi, r.get("not_modelled", ""))
            if r["key"] in out:
                if origin != "ruleset" and (r.get("override") or bare):
                    old = out[r["key"]]
                    if type(old.value) is not type(value):
                        rep.error(doc.span(("rulings", i, "value")), "wrong-type",
                                  say("wrong-type.ruling-holds", key_=r['key'], value=say("declarations.true-false") if isinstance(old.value, bool) else say("declarations.whole-number")))
                    elif isinstance(value, int) and not isinstance(value, bool) and (
                            (old.min is not None and value < old.min) or (old.max is not None and value > old.max)):
                        rep.error(doc.span(("rulings", i, "value")), "out-of-range",
                                  say("out-of-range.outside-range-ruleset-allows", value=value, min=old.min, max=old.max, key_=r['key'], span=old.span))
                    out[r["key"]] = Ruling(old.key, old.ruling, old.name, value, old.text, old.rules,
                                           span, old.min, old.max, old.not_modelled)
                    continue
                rep.error(span, "duplicate-id", say("duplicate-id.ruling-defined-twice-first", key_=r['key'], span=out[r['key']].span),
                          say("duplicate-id.add-override-true-change") if origin != "ruleset" else None)
                continue
            if r.get("override"):
                rep.error(span, "nothing-to-override", say("nothing-to-override.no-ruling-override", key_=r['key']))
            out[r["key"]] = ruling
    return tuple(out.values())


# What a ruling's own ruleset says of it, which a pack that changes its value leaves as it is
# (docs/packs.md): its name, its text, the rule ids, its range, what it does not model.
_RULESET_OWNS = ("name", "text", "ruling", "rules", "min", "max", "not_modelled")


def check_rule_index(docs: list[Document], rep: Reporter) -> tuple[tuple[Section, ...], tuple[RuleRef, ...]]:
    sections: list[Section] = []
    rules: list[RuleRef] = []
    seen: dict[str, Any] = {}
    for doc in docs:
        sections += [Section(s["id"], s["name"]) for s in doc.data.get("sections", [])]
        for i, r in enumerate(doc.data["rules"]):
            span = doc.span(("rules", i))
            if r["id"] in seen:
                rep.error(span, "duplicate-id", say("duplicate-id.rule-listed-twice-first", id=r['id'], value=seen[r['id']]))
                continue
            seen[r["id"]] = span
            rules.append(RuleRef(r["id"], r["title"], r.get("section"), r.get("summary", ""),
                                 bool(r.get("referee_call", False)), span))
    known = {s.id for s in sections}
    for r in rules:
        if r.section is not None and r.section not in known:
            rep.error(r.span, "unknown-section", say("unknown-section.section-not-declared", section=r.section),
                      did_you_mean(r.section, known))
    return tuple(sections), tuple(rules)
