"""Where `rulec resolve`, `odds` and `test` get a ruleset's package: the built one in the output
folder when it is a build of exactly the rules asked for and up to date (no compiling), after
rebuilding it when it is stale and rulec may (generated/ of rules/; a project's own output folder
of its rules, project config or `--out`); else the rules compiled in memory. Nothing here imports
click or the compiler's passes until it must."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .output import echo, report
from ..messages import say

if TYPE_CHECKING:
    from ..diagnostics import Diagnostic, Span

BUNDLED_OUT = Path("generated")


class Where(NamedTuple):
    """The rules a command uses and the output folder it looks for their build in. `own`: the
    folder is the build of these rules (a project config's or `--out`), so a stale one is rebuilt."""

    rules: tuple[Path, ...] = ()
    out: Path = BUNDLED_OUT
    own: bool = False
    scenarios: tuple[Path, ...] = ()  # what `rulec test` runs when given no paths (the config's)


class _Session:
    """Builds and imported packages shared by the scenarios of one command (`rulec test` runs many)."""

    def __init__(self, collect: bool = False) -> None:
        self.builds: dict[tuple[str, ...], Any] = {}
        self.modules: dict[tuple[tuple[str, ...], str], tuple[Any, Any]] = {}
        self.collected: list[Diagnostic] | None = [] if collect else None  # `rulec test --format json`

    def report(self, diags: list[Diagnostic], fmt: str) -> None:
        """Print diagnostics, or keep them for one JSON report at the end."""
        if self.collected is not None:
            self.collected.extend(diags)
        else:
            report(diags, fmt)

    def close(self) -> None:
        for _, tmp in self.modules.values():
            tmp.cleanup()


def _diagnostic(span: Span, code: str, message: str, hint: str | None = None) -> Diagnostic:
    from ..diagnostics import Diagnostic

    return Diagnostic(span, code, message, hint)


def _no_fight(doc: Any, rid: str, fmt: str, session: _Session) -> None:
    session.report([_diagnostic(doc.span(("kind",)), "bad-scenario",
                                say("bad-scenario.ruleset-declares-no-fight", rid=rid))], fmt)


def _built(out: Path, paths: list[Path], rid: str) -> bool:
    """True when `out` holds a build of exactly `paths` that is up to date, with `rid`'s package."""
    return (out / rid / "pyproject.toml").is_file() and _fresh(out, paths)


def _fresh(out: Path, paths: list[Path]) -> bool:
    """True when `out` holds a build of exactly `paths` that is up to date: the stat record says so
    (freshness.py), or the build stamp does by content (and the stat record is written)."""
    from ..build.freshness import recorded, remember, snapshot

    now = snapshot(out, paths)
    if recorded(out, now):
        return True
    from ..build.stamp import input_digest, is_fresh

    if not is_fresh(out, input_digest(paths)):
        return False
    remember(out, now)
    return True


def _rebuild(out: Path, paths: list[Path], fmt: str, session: _Session, own: bool = False) -> bool | None:
    """`rulec build` for a stale generated/: compile the rules and write what changed, saying so.
    True when generated/ is up to date now; False when it cannot be written (the build is kept for
    the in-memory package, and it says why); None when the rules have errors (reported)."""
    from ..build.facade import compile_rules
    from ..build.write import WriteError, check_target, write_build

    build = compile_rules(paths)
    session.builds[tuple(str(x) for x in paths)] = build
    if not build.ok:
        session.report(build.diagnostics, fmt)
        return None
    try:
        check_target(out, paths)
        diff = write_build(out, build, sources=paths)  # stamped with the bytes the build read
    except WriteError as exc:
        echo(say("play.not-up-date-with-own" if own else "play.not-up-date-with", out=out, exc=exc), err=True)
        return False
    echo(say("play.was-not-up-date-own" if own else "play.was-not-up-date", out=out, n_changed=len(diff.changed),
             n_added=len(diff.added), n_removed=len(diff.removed)), err=True)
    return True


def _package(doc: Any, rid: str, where: Where, fmt: str, session: _Session
             ) -> tuple[Any, Any, dict[str, Any], Any] | None:
    """The ruleset's package and the schema of the document's kind: the built `generated/` one when
    it is a build of these rules and up to date (no compiling); a stale `generated/` of rules/ is
    rebuilt first (only changed files are written, and it says so); else the rules compiled in
    memory."""
    from ..emit.python.loader import import_folder, import_package

    kind = "fight" if doc.data["kind"] == "fight" else "scenario"
    rules, out = where.rules, where.out
    built_from = list(rules) or [Path("rules")]
    key_fast = (str(out), *map(str, built_from))
    if where.own or (out / rid / "pyproject.toml").is_file():
        if key_fast not in session.builds:  # once per command: `rulec test` runs many scenarios
            state: bool | None = _built(out, built_from, rid)
            from ..build.stamp import pack_build

            packs = pack_build(out)  # a pack build is said, and never rebuilt without its packs
            if not state and (where.own or not (rules or packs)):
                state = _rebuild(out, built_from, fmt, session, where.own)
            elif packs and (rules or not state) and not where.own:
                echo(say("play.rulec-using", packs=packs) if state else
                     say("play.pack-build-using-memory" if rules else "play.pack-build-left-as-it-is", packs=packs),
                     err=True)
            session.builds[key_fast] = state
        state = session.builds[key_fast]
        if state is None:
            return None  # the rules have errors, reported once
        if state and (out / rid / "pyproject.toml").is_file():
            schema_file = out / "schema" / rid / f"{kind}.schema.json"
            if not schema_file.is_file():
                _no_fight(doc, rid, fmt, session)
                return None
            if (key_fast, rid) not in session.modules:
                session.modules[(key_fast, rid)] = import_folder(rid, out / rid)
            module, tmp = session.modules[(key_fast, rid)]
            return module, None, json.loads(schema_file.read_text(encoding="utf-8")), tmp
    if not where.own and (out / "schema").is_dir() and not (out / "schema" / rid).is_dir() and _fresh(out, built_from):
        # an up-to-date build of these rules holds every ruleset's schemas: no need to compile them to say so
        _unknown(doc, rid, built_from, fmt, session)
        return None
    from ..build.facade import compile_rules
    from ..validate.scenario_schema import fight_schema, scenario_schema

    paths = list(rules) or ([Path("rules") / rid] if (Path("rules") / rid / "ruleset.yaml").is_file()
                            else [Path("rules")])
    if tuple(map(str, built_from)) in session.builds:  # compiled already, by `_rebuild`
        paths = built_from
    key = tuple(str(x) for x in paths)
    if key not in session.builds:
        session.builds[key] = compile_rules(paths)
    build = session.builds[key]
    if not build.ok:
        session.report(build.diagnostics, fmt)
        return None
    rs = next((r for r in build.rulesets if r.id == rid), None)
    if rs is None:
        _unknown(doc, rid, paths, fmt, session)
        return None
    if kind == "fight" and rs.fight is None:
        _no_fight(doc, rid, fmt, session)
        return None
    if (key, rs.id) not in session.modules:
        session.modules[(key, rs.id)] = import_package(rs.id, build.package(rs.id))
    module, tmp = session.modules[(key, rs.id)]
    return module, rs, fight_schema(rs) if kind == "fight" else scenario_schema(rs), tmp


def _unknown(doc: Any, rid: str, paths: list[Path], fmt: str, session: _Session) -> None:
    from ..load.paths import display_path

    shown = tuple(display_path(p) for p in paths)  # a list in the language of the message
    session.report([_diagnostic(doc.span(("ruleset",)), "unknown-ruleset",
                                say("unknown-ruleset.no-ruleset", rid=rid, paths=shown))], fmt)


def where_for(rules: tuple[Path, ...], out: Path | None, fmt: str) -> Where | None:
    """The rules and output folder of a command: its flags, else the project config's (config.py),
    else rules/ and generated/. None when the config cannot be used (reported)."""
    from .output import project_config

    config = project_config(fmt)
    if config is None:
        return None
    if out is not None:
        return Where(rules or config.rules, out, True, config.scenarios)
    if config.out is not None:  # the config's folder is the build of the config's rules
        return Where(rules or config.rules, config.out, not rules, config.scenarios)
    return Where(rules or config.rules, scenarios=config.scenarios)
