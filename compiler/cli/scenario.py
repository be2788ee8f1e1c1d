"""A scenario file (kind: scenario) -> the call it makes: loaded and checked like a rule file (against
the scenario schema generated for its ruleset, file:line:col diagnostics), its combatants built
from their stats, its dice fixed when it gives faces; and what its `expect:` says against an
outcome. Nothing here imports click; play.py runs the call."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..messages import say
from .play_build import Where, _diagnostic, _package, _Session

if TYPE_CHECKING:
    from ..diagnostics import Diagnostic, Span


_RULESET_ID = re.compile(r"[a-z][a-z0-9_]{0,47}")  # validate/table_schema.ID_PATTERN


class Scenario:
    """A scenario file read with load/plain_yaml.py: its data now, its positions (documents.py,
    which imports PyYAML) only when a diagnostic asks for one."""

    def __init__(self, raw: bytes, shown: str, data: Any) -> None:
        self.raw, self.file, self.data = raw, shown, data
        self._doc: Any = None

    def span(self, path: tuple[str | int, ...] = (), *, key: bool = False) -> Span:
        if self._doc is None:  # composed from the bytes read, never from the file again
            from ..load.documents import load_bytes

            self._doc, _ = load_bytes(self.raw, self.file)
            if self._doc is None:  # pragma: no cover - the plain reader read what documents.py refuses
                from ..diagnostics import Span

                return Span(self.file)
        return self._doc.span(path, key=key)  # type: ignore[no-any-return]


def load_scenario(scenario: Path, fmt: str, session: _Session) -> Any:
    """The scenario's document (a `Scenario` when the plain reader can read it), or None when it
    was reported. The file is read once, bounded (load/reading.py: a regular file of at most
    MAX_SCENARIO_BYTES), and no list or mapping in it may be longer than MAX_SCENARIO_ITEMS."""
    from ..load.paths import display_path
    from ..load.plain_yaml import read_bytes
    from ..load.reading import MAX_SCENARIO_BYTES, MAX_SCENARIO_ITEMS, ReadRefused, read_bounded

    shown = display_path(scenario)
    try:
        raw = read_bounded(scenario, MAX_SCENARIO_BYTES, shown, what="a scenario")
    except ReadRefused as exc:
        session.report([exc.diagnostic], fmt)
        return None
    ok, data = read_bytes(raw, max_items=MAX_SCENARIO_ITEMS)
    if ok:
        return Scenario(raw, shown, data)
    from ..load import load_bytes

    doc, diags = load_bytes(raw, shown, max_items=MAX_SCENARIO_ITEMS)
    if doc is None:
        session.report(diags, fmt)
    return doc


def prepare_scenario(scenario: Path, where: Where, fmt: str, session: _Session) -> tuple[Any, dict[str, Any], Any] | None:
    # The compiler's passes are imported only when the built package is stale, and jsonschema only
    # when jsonschema-rs finds the scenario invalid, to explain why (validate/fast_schema.py).
    from ..validate.fast_schema import fast_check

    doc = load_scenario(scenario, fmt, session)
    if doc is None:
        return None
    data = doc.data
    if not isinstance(data, dict) or data.get("kind") not in ("scenario", "fight") or \
            not isinstance(data.get("ruleset"), str):
        session.report([_diagnostic(doc.span(()), "bad-scenario",
                                    say("bad-scenario.scenario-has-kind-scenario"))], fmt)
        return None
    if not _RULESET_ID.fullmatch(data["ruleset"]):  # it names folders: never a path, never too long for one
        session.report([_diagnostic(doc.span(("ruleset",)), "unknown-ruleset",
                                    say("unknown-ruleset.not-ruleset-id-lower", quote=_quote(data["ruleset"])))],
                       fmt)
        return None
    rid = data["ruleset"]
    found = _package(doc, rid, where, fmt, session)
    if found is None:
        return None
    module, _rs, schema, tmp = found
    if fast_check(schema)(data):
        problems: list[Diagnostic] = []
    else:
        from ..validate.schema import diagnostics_for, validator_for

        problems = diagnostics_for(doc, validator_for(schema))
    if data["kind"] != "fight":
        problems += _stats_given_twice(doc, module)  # reads only what has the shape it looks for
    if problems:  # nothing below may read data that failed its schema
        session.report(problems, fmt)
        return None
    if data["kind"] == "fight":
        return module, {"data": data, "doc": doc, "fight": True}, tmp
    info = module.PROCEDURE_INFO[data["procedure"]]
    by_name = {pname: pid for pid, pname, _ in info["params"]}
    kwargs: dict[str, Any] = {by_name.get(k, k): v for k, v in (data.get("args") or {}).items()}
    for pid, _name, ptype in info["params"]:
        if ptype == "combatant":
            kwargs[pid] = module.Combatant.from_dict(data.get("combatants", {}).get(pid, {}))
    return module, {"data": data, "kwargs": kwargs, "info": info, "doc": doc}, tmp


def _stats_given_twice(doc: Any, module: Any) -> list[Diagnostic]:
    """A stat (or an argument) given by its id and by its Chinese name is a diagnostic at the second.
    It runs beside the schema's check, on data that may have failed it: it looks only at mappings
    where it expects them (`attacker: null` or `combatants: [1]` are the schema's to report)."""
    out: list[Diagnostic] = []
    procedure = doc.data.get("procedure")
    info = module.PROCEDURE_INFO.get(procedure) if isinstance(procedure, str) else None
    by_name = {pname: pid for pid, pname, _ in info["params"]} if info is not None else {}
    given: dict[Any, str] = {}
    args = doc.data.get("args")
    for key in args if isinstance(args, dict) else {}:
        pid = by_name.get(key, key)
        if pid in given:
            out.append(_diagnostic(doc.span(("args", key), key=True), "duplicate-arg",
                                  say("duplicate-arg.gives-argument-second-time", key_=key, value=given[pid])))
        given[pid] = key
    names = dict(module.STAT_NAMES)
    combatants = doc.data.get("combatants")
    for who, stats in combatants.items() if isinstance(combatants, dict) else ():
        seen: dict[Any, str] = {}
        for key in stats if isinstance(stats, dict) else ():
            stat = names.get(key, key)
            if stat in seen:
                out.append(_diagnostic(doc.span(("combatants", who, key), key=True), "duplicate-stat",
                                      say("duplicate-stat.gives-stat-second-time", key_=key, value=seen[stat])))
            seen[stat] = key
    return out


def expectations(doc: Any, module: Any, procedure: str, result: Any, error: str | None,
                  where: tuple[Any, ...] = ("expect",), expect: Any = None) -> list[Diagnostic]:
    """Every difference between a scenario's `expect:` (or an action's, at `where`) and what
    happened, at the line of its key: outcome fields by id, `command` (the first roll's dice-bot
    command), `error` (an error code)."""
    expect = doc.data.get("expect") if expect is None and where == ("expect",) else expect
    if not isinstance(expect, dict):
        return []
    fields = {fid: name for fid, name, _ in module.PROCEDURE_INFO[procedure]["fields"]}
    out = []
    for key, want in expect.items():
        at = where + (key,)
        if key == "error":
            got: Any = error
        elif error is not None:
            out.append(_diagnostic(doc.span(at), "expect",
                                  say("expect.expected-but-procedure-refused", key_=key, quote=_quote(want), error=error)))
            continue
        elif key == "command":
            got = result.rolls[0].command if result.rolls else None
        elif key in fields:
            got = getattr(result, key)
        else:
            out.append(_diagnostic(doc.span(where + (key,), key=True), "expect",
                                  say("expect.not-outcome", key_=key, procedure=procedure),
                                  say("expect.outcomes-command-error", fields=', '.join(fields))))
            continue
        if got != want:
            out.append(_diagnostic(doc.span(at), "expect",
                                  say("expect.expected-got-2", get=fields.get(key, key), key_=key, quote=_quote(want), quote2=_quote(got))))
    if "error" not in expect and error is not None and not out:
        out.append(_diagnostic(doc.span(where), "expect", say("expect.procedure-refused", error=error)))
    return out


def _quote(value: Any) -> str:
    """A value of the scenario (or of a result) in a message: repr for a short one, as before, and
    diagnostics.quote's line for anything longer."""
    from ..diagnostics import QUOTE_CHARS, quote

    if isinstance(value, (str, int, float, bool)) or value is None:
        text = quote(value) if isinstance(value, int) and value.bit_length() > 256 else repr(value)
        return text if len(text) <= QUOTE_CHARS else quote(value)
    return quote(value)
