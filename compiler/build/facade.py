"""The facade: `compile_rules(paths) -> Build` chains the passes, and is the only place that caches.

    load      paths -> source folders -> documents with spans             (load/)
    validate  documents -> diagnostics and a checked ruleset               (validate/)
    lower     checked ruleset -> IR                                        (lower.py)
    optimise  IR -> IR: folding, the setup/per-roll plan, hoisting        (optimise/)
    emit      IR -> text: the Python package, the reference pages         (emit/)

It never exits and never prints; it returns every diagnostic and, when there are none, the
complete output tree as {relative path: bytes}; `write.write_tree` puts it on disk.

It owns the build's one memo (`compiler.memo.Memo`: a one-shot build's, or a `Session`'s for its
life), with the sealed disk cache (`cache.py`) as its store, and makes it the current memo while
the passes run. It memoises around the passes it calls: a file's load and static validation (by
its bytes; in a session, by the very bytes object), the optimiser (by the procedures and
rulings), the schemas (by the ruleset's shape and entry names). The passes take no memo
parameter: where they remember finer pieces of work (a table's runs of rows, clean entries, odds
rows, compile checks) they ask the current memo.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from . import cache
from ..diagnostics import Diagnostic, RulesError, Span, did_you_mean
from ..emit.odds_tables import compute_odds
from ..emit.python.package import emit_package
from ..emit.reference import emit_reference
from ..emit.shape import shape
from ..ir import Ruleset
from ..load.sources import inside
from ..load import (MAX_FILE_BYTES, Document, ReadRefused, SourceFolder, discover, display_path, load_bytes,
                   read_bounded)
from .config import rules_hint
from ..lower import lower
from ..optimise import optimise
from ..memo import Memo, using
from .stamp import FolderDigest, combined_digest
from ..validate.bounds import check_bounds
from ..validate.usage import check_usage, readers as ruling_readers
from ..validate import LoadedSource, check_ruleset, validate_static
from ..validate.scenario_schema import fight_schema, scenario_schema
from ..validate.table_schema import editor_table_schema
from ..messages import say

Progress = Callable[[str, int, int], None]


@dataclass
class Build:
    rulesets: list[Ruleset] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    digests: dict[str, str] = field(default_factory=dict)  # ruleset id -> content hash of its inputs
    odds: dict[str, list[dict[str, object]]] = field(default_factory=dict)  # ruleset id -> odds sections
    # ruleset id -> package sources, kept only when the files do not hold them (no python target)
    packages: dict[str, dict[str, str]] = field(default_factory=dict)
    # The stamp's input digest (stamp.combined_digest) of the very bytes this build loaded, so that
    # a stamp can never vouch for bytes other than those compiled ("" when the build failed early).
    inputs: str = ""
    pack_ids: list[str] = field(default_factory=list)  # the packs built in, sorted (the stamp names them)
    # How each file the IR names (by `SourceFolder.source_name`) is shown to the user (`display_path`)
    shown: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def package(self, ruleset_id: str) -> dict[str, str]:
        """The sources of a ruleset's Python package ({path inside the distribution: text})."""
        if ruleset_id in self.packages:
            return self.packages[ruleset_id]
        prefix = f"{ruleset_id}/"
        return {rel[len(prefix):]: data.decode("utf-8") for rel, data in self.files.items() if rel.startswith(prefix)}


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for d in sorted(diags, key=lambda d: (d.span.file, d.span.line, d.span.col, d.code, d.message)):
        key = (d.span.file, d.span.line, d.span.col, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


@dataclass
class _Loaded:
    folder: SourceFolder
    manifest: Document | None
    manifest_kind: str | None
    docs: list[tuple[Document, str]]
    digest: str
    broken: list[str | None] = field(default_factory=list)  # the kinds of its files that failed (None: unknown)


def _load_folder(folder: SourceFolder, diags: list[Diagnostic], progress: Progress | None,
                 counter: list[int], total: int, memo: Memo, names: dict[str, str] | None = None) -> _Loaded:
    """Load a source folder's files. Each document is named as outputs name it
    (`SourceFolder.source_name`: no absolute path, the same from any folder); `names` gets, for
    each, the path diagnostics show (`display_path`), which `_compile_rules` puts back."""
    hasher = FolderDigest(folder)
    manifest: Document | None = None
    manifest_kind: str | None = None
    docs: list[tuple[Document, str]] = []
    broken: list[str | None] = []
    for path in folder.files:
        display = display_path(path)
        shown = folder.source_name(path)
        if names is not None:
            names[shown] = display
        try:
            if not inside(path.resolve(), folder.root):  # a link changed since the folder was listed
                diags.append(Diagnostic(Span(display), "link-outside",
                                        say("link-outside.link-something-outside-folder", name=path.name, name2=folder.root.name)))
                continue
            raw = read_bounded(path, MAX_FILE_BYTES, display)  # a regular file, its limit held on the bytes read
        except OSError as exc:
            diags.append(Diagnostic(Span(display), "unreadable", say("unreadable.cannot-read-file", strerror=exc.strerror)))
            continue
        except ReadRefused as refused:
            diags.append(refused.diagnostic)
            continue
        hasher.add(path, raw)  # the bytes compiled are the bytes digested: the stamp vouches for them
        counter[0] += 1
        if progress:
            progress("load", counter[0], total)
        doc, kind, clean = _load_checked(raw, shown, diags, memo)
        if not clean:
            broken.append(kind)
        if doc is None or kind is None:
            continue
        if path == folder.manifest:
            manifest, manifest_kind = (doc, kind) if clean else (None, None)
            expected = "pack" if folder.is_pack else "ruleset"
            if kind != expected:
                diags.append(Diagnostic(doc.span(("kind",)), "bad-manifest", say("bad-manifest.must-have-kind", name=path.name, expected=expected)))
        elif clean:  # a file with schema errors is reported, and the others are still checked
            docs.append((doc, kind))
    return _Loaded(folder, manifest, manifest_kind, docs, hasher.hexdigest(), broken)


def _load_checked(raw: bytes, shown: str, diags: list[Diagnostic],
                  memo: Memo) -> tuple[Document | None, str | None, bool]:
    """Load and statically validate one file, through the content cache (clean results only); a
    resident build finds the document of a file whose bytes did not change in memory, and loads
    only the changed lines of an edited table file (`load.splice`)."""
    previous = memo.latest(("file", shown))
    raw = memo.intern(("file", shown), raw)
    kept = memo.get(f"doc:{shown}", raw)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    before = memo.get(f"doc:{shown}", previous) if previous is not None else None
    spliced = _spliced(before[0], raw) if before is not None and before[1] == "table" else None
    doc: Document | None
    if spliced is not None:
        kind, schema_diags = validate_static(spliced)
        diags.extend(schema_diags)
        doc, clean = spliced, kind is not None and not schema_diags
    else:
        doc, kind, clean = _load_fresh(raw, shown, diags, memo)
    if clean:
        memo.put(f"doc:{shown}", (raw,), (doc, kind, clean))
    return doc, kind, clean


def _load_fresh(raw: bytes, shown: str, diags: list[Diagnostic],
                memo: Memo) -> tuple[Document | None, str | None, bool]:
    """Load a file, through the memo's disk store unless it has none (`rulec build --check`,
    `RULEC_CACHE_DIR=off`)."""
    store = memo.store
    name = store.key("doc", raw) if store is not None else ""
    value = store.get(name) if store is not None else None
    partial = isinstance(value, dict) and value.get("partial") is True
    cached = Document.from_json(shown, value, _text_of(raw) if partial else None) if value is not None else None
    if cached is not None:
        return cached[0], cached[1], True  # the same bytes may sit at another path now: the name is this one
    doc, load_diags = load_bytes(raw, shown)
    diags.extend(load_diags)
    if doc is None:
        return None, None, False
    kind, schema_diags = validate_static(doc)
    diags.extend(schema_diags)
    if store is not None and kind is not None and not schema_diags:
        store.put(name, doc.to_json(kind))
    return doc, kind, not schema_diags


def _spliced(before: Document, raw: bytes) -> Document | None:
    from ..load.splice import splice

    text = _text_of(raw)
    return splice(before, text) if text is not None else None


def _text_of(raw: bytes) -> str | None:
    """The text of bytes a cached document was loaded from (None when they are not UTF-8: then
    they were never cached)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _shown(diags: list[Diagnostic], names: dict[str, str]) -> list[Diagnostic]:
    """Diagnostics with each file named as the user can open it (relative to the working folder,
    or absolute): passes see the names outputs use (`SourceFolder.source_name`)."""
    moved = {name: shown for name, shown in names.items() if name != shown}
    if not moved or not diags:
        return diags
    within = re.compile("|".join(re.escape(n) for n in sorted(moved, key=len, reverse=True)))

    def text(value: str | None) -> str | None:
        # (a message that names no moved file stays a catalogue Text, which can be shown in either language)
        return within.sub(lambda m: moved[m.group(0)], value) if value and within.search(value) else value

    out = []
    for d in diags:
        span = dataclasses.replace(d.span, file=moved.get(d.span.file, d.span.file))
        out.append(dataclasses.replace(d, span=span, message=text(d.message) or "", hint=text(d.hint)))
    return out


_LINE_BREAKS = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


def header(rs: Ruleset, digest: str, comment: str = "#") -> str:
    """The comment block atop every generated module (a file name cannot break out of it)."""
    shown = [f"{comment}   {_LINE_BREAKS.sub('?', f)}" for f in rs.files[:20]]
    if len(rs.files) > 20:
        shown.append(f"{comment}   ... and {len(rs.files) - 20} more")
    return "\n".join([
        f"{comment} Generated by rulec {__version__} from the rules of '{rs.id}' - do not edit.",
        f"{comment} Sources ({len(rs.files)} files):",
        *shown,
        f"{comment} Content hash: sha256:{digest}",
    ])


def pack_label(packs: list[_Loaded], digest: str) -> str:
    """The local version label of a build with homebrew packs: the pack ids and a content digest,
    so that a package built with packs is never mistaken for the stock one (`1.0.0+my.pack.1a2b3c4d`)."""
    if not packs:
        return ""
    ids = [str(p.manifest.data["id"]).replace("_", ".") for p in packs if p.manifest is not None]
    return ".".join([*ids, digest[:8]])


PASSES = ("validate", "lower", "optimise", "emit")


TARGETS = ("python", "js")


def compile_rules(paths: list[Path], *, progress: Progress | None = None, stop_after: str = "emit",
                  targets: tuple[str, ...] = TARGETS, memo: Memo | None = None) -> Build:
    """Compile the rules under `paths` (ruleset folders, folders of them, packs, files); with
    `stop_after` ("validate", "lower", "optimise"), stop there: `build.rulesets` holds the IR as
    that pass left it and nothing is emitted. `memo`: what the build remembers with — a session's
    (session.py), or `Memo()` to remember nothing (`rulec build --check`); by default a one-shot
    memo over the disk cache."""
    if stop_after not in PASSES:
        raise ValueError(f"stop_after is one of {PASSES}")
    # A build allocates millions of small objects and makes no reference cycles worth collecting:
    # the cyclic collector only rescans the growing heap (10-16% of a 10,000-50,000 weapon build,
    # more the bigger the pack). It is paused for the build and left as it was.
    was_enabled = gc.isenabled()
    gc.disable()
    if memo is None:
        memo = Memo(store=cache.store())  # nothing between builds but the disk cache (if it is on)
    try:
        with using(memo):
            return _compile_rules(paths, progress, stop_after, targets, memo)
    finally:
        if not memo.resident:
            memo.end()  # what `once` made is let go with the build (a session ends its own)
        if was_enabled:
            gc.enable()


def _group(loaded: list[_Loaded], diags: list[Diagnostic]) -> tuple[dict[str, _Loaded], dict[str, list[_Loaded]]]:
    bases: dict[str, _Loaded] = {}
    packs: dict[str, list[_Loaded]] = {}
    for item in loaded:
        if item.manifest is None or item.manifest_kind not in ("ruleset", "pack"):
            continue
        rid = item.manifest.data["id"]
        if item.manifest_kind == "ruleset":
            if rid in bases:
                diags.append(Diagnostic(item.manifest.span(("id",)), "duplicate-id",
                                        say("duplicate-id.two-rulesets-have-id", rid=rid, root=display_path(bases[rid].folder.root))))
                continue
            bases[rid] = item
        else:
            packs.setdefault(item.manifest.data["extends"], []).append(item)
    for target, items in packs.items():
        if target not in bases:
            for item in items:
                assert item.manifest is not None
                diags.append(Diagnostic(item.manifest.span(("extends",)), "unknown-ruleset",
                                        say("unknown-ruleset.pack-extends-which-was", target=target),
                                        did_you_mean(target, bases) or
                                        rules_hint(item.folder.root, str(target))))
    return bases, packs


def _compile_rules(paths: list[Path], progress: Progress | None, stop_after: str,
                   targets: tuple[str, ...], memo: Memo) -> Build:
    build = Build()
    folders, diags = discover(paths)
    total = sum(len(f.files) for f in folders)
    counter = [0]
    names: dict[str, str] = {}
    loaded = [_load_folder(f, diags, progress, counter, total, memo, names) for f in folders]
    build.inputs = combined_digest([(item.folder.name, item.digest) for item in loaded], targets)
    bases, packs = _group(loaded, diags)
    build.pack_ids = sorted(str(p.manifest.data["id"]) for items in packs.values() for p in items
                            if p.manifest is not None)
    for rid in sorted(bases):
        base = bases[rid]
        assert base.manifest is not None
        pack_items = sorted(packs.get(rid, []), key=lambda p: str(p.manifest.data["id"]) if p.manifest else "")
        digest = hashlib.sha256("".join([base.digest] + [p.digest for p in pack_items]).encode()).hexdigest()
        # A file that failed to load may have declared stats or rulings everything else reads:
        # then the rest is not checked (its every formula would only repeat the problem).
        declarations_broken = any(k in (None, "ruleset", "stats", "rulings", "rule_index")
                                  for item in [base, *pack_items] for k in item.broken)
        if progress:
            progress("validate", 0, 1)
        checked, found = check_ruleset(LoadedSource(base.folder, base.manifest, base.docs),
                                       [LoadedSource(p.folder, p.manifest, p.docs) for p in pack_items
                                        if p.manifest is not None], declarations_only=declarations_broken)
        diags.extend(found)
        base.docs = []  # the checked ruleset keeps what it needs; free the documents before emitting
        for p in pack_items:
            p.docs = []
        if checked is None or any(d.severity == "error" for d in diags) or stop_after == "validate":
            continue
        if progress:
            progress("lower", 0, 1)
        rs = lower(checked, pack_label=pack_label(pack_items, digest))
        unbounded = check_bounds(rs) + check_usage(rs)  # bounded work, and every ruling and flag read
        if unbounded:
            diags.extend(unbounded)
            continue
        rs = dataclasses.replace(rs, ruling_readers=ruling_readers(rs))  # for the pages
        if stop_after == "lower":
            build.rulesets.append(rs)
            continue
        if progress:
            progress("optimise", 0, 1)
        rs = _optimised(rs, memo)
        if stop_after == "optimise":
            build.rulesets.append(rs)
            continue
        if progress:
            progress("emit", 0, 1)
        try:
            _emit(rs, digest, build, targets, memo)
        except RulesError as exc:
            diags.extend(exc.diagnostics)
            continue
        build.rulesets.append(rs)
    build.shown = names
    build.diagnostics = _dedupe(_shown(diags, names))
    if not build.ok or stop_after != "emit":
        build.files = {}
        return build
    build.files.update(emit_reference(build.rulesets, build.digests, build.odds))
    build.files = dict(sorted(build.files.items()))
    return build


def _optimised(rs: Ruleset, memo: Memo) -> Ruleset:
    """The optimised ruleset (`optimise` reads its procedures and rulings only: a session keeps
    the procedures it made while those stay the same)."""
    procedures = memo.intern(("procedures", rs.id), rs.procedures)
    rulings = memo.intern(("rulings", rs.id), rs.rulings)
    found = memo.get("optimised", procedures, rulings)
    if found is None:
        found = memo.put("optimised", (procedures, rulings), optimise(rs).procedures)
    return dataclasses.replace(rs, procedures=found)


def _emit(rs: Ruleset, digest: str, build: Build, targets: tuple[str, ...], memo: Memo) -> None:
    build.digests[rs.id] = digest
    head = header(rs, digest)
    package = emit_package(rs, head)  # always made: the pages' odds are computed with it
    if "python" in targets:
        for rel, text in package.items():
            build.files[f"{rs.id}/{rel}"] = text.encode("utf-8")
    from ..emit.calculator import emit_calculator
    from ..emit.js.package import emit_js, global_name

    js_files = emit_js(rs, head)  # the calculator page runs its script build, with or without the js target
    if "js" in targets:
        for rel, text in js_files.items():
            build.files[f"js/{rs.id}/{rel}"] = text.encode("utf-8")
    build.files.update(emit_calculator(rs, js_files[f"{global_name(rs)}.user.js"]))  # no content hash: churn
    build.odds[rs.id] = compute_odds(rs, package, head)
    build.files.update(_schemas(rs, memo))
    if "python" not in targets:
        build.packages[rs.id] = package


def _schemas(rs: Ruleset, memo: Memo) -> dict[str, bytes]:
    """The JSON Schemas of a ruleset's scenarios, fight and table files. They read the ruleset's
    shape and each table's entry ids and names (enumerations, examples): a resident build keeps
    them while those stay the same."""
    if memo.resident:
        names = memo.intern(("entry-names", rs.id), tuple(
            (t.id, tuple(e.id for e in t.entries), tuple(e.name for e in t.entries)) for t in rs.tables))
        found = memo.get("schemas", shape(rs), names)
        if found is not None:
            return found  # type: ignore[no-any-return]
    files = {f"schema/{rs.id}/scenario.schema.json": _json_bytes(scenario_schema(rs))}
    if rs.fight is not None:
        files[f"schema/{rs.id}/fight.schema.json"] = _json_bytes(fight_schema(rs))
    for t in rs.tables:
        files[f"schema/{rs.id}/{t.id}.schema.json"] = _json_bytes(editor_table_schema(rs, t))
    if memo.resident:
        memo.put("schemas", (shape(rs), names), files)
    return files


def _json_bytes(value: Any) -> bytes:
    """Indented JSON. Not taken from the cache: a schema decides what a scenario may hold."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
