"""The facade: `compile_rules(paths) -> Build` chains the passes, and is the only place that caches.

    load      paths -> source folders -> documents with spans             (load/)
    validate  documents -> diagnostics and a checked ruleset               (validate/)
    lower     checked ruleset -> IR                                        (lower.py)
    optimise  IR -> IR: folding, the setup/per-roll plan, hoisting        (optimise/)
    emit      IR -> text: the Python package, the reference pages         (emit/)

It never exits and never prints; it returns every diagnostic and, when there are none, the
complete output tree as {relative path: bytes}; `write.write_tree` puts it on disk.

It owns the build's one memo (`compiler.memo.Memo`: a one-shot build's, or a `Session`'s for its
life), with the sealed disk cache (`cache.py`) as its store and, for `rulec build`, the output
folder the build replaces (`reuse.py`: a ruleset whose inputs did not change is taken from it
whole, checked by digest), and makes it the current memo while the passes run. It memoises around the passes it calls: a file's load and static validation (by
its bytes; in a session, by the very bytes object), the optimiser (by the procedures and
rulings), the schemas (by the ruleset's shape and entry names). The passes take no memo
parameter: where they remember finer pieces of work (a table's runs of rows, clean entries, odds
rows, compile checks) they ask the current memo.

Its neighbours hold the two ends: `inputs.py` loads the source folders (and memoises each
file's load), `outputs.py` emits a ruleset's files (and memoises its schemas), `reuse.py` finds
and records what the output folder may give back, and `result.py` holds the `Build` it returns.
"""

from __future__ import annotations

import gc
import hashlib
from pathlib import Path

from typing import Any

from . import cache, reuse
from ..diagnostics import Diagnostic, RulesError
from ..emit.reference import emit_reference
from ..ir import Ruleset
from ..load import discover
from ..lower import lower
from ..optimise import optimise
from ..memo import Memo, using
from .inputs import _group, _Loaded, _load_folder, _shown, load_rest
from .outputs import _emit
from .result import Build, Progress
from .stamp import combined_digest
from ..record import replace
from ..validate.bounds import check_bounds
from ..validate.usage import check_usage, prose, reads_of, readers as ruling_readers
from ..validate import LoadedSource, check_ruleset


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for d in sorted(diags, key=lambda d: (d.span.file, d.span.line, d.span.col, d.code, d.message)):
        key = (d.span.file, d.span.line, d.span.col, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


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
                  targets: tuple[str, ...] = TARGETS, memo: Memo | None = None, previous: Path | None = None) -> Build:
    """Compile the rules under `paths` (ruleset folders, folders of them, packs, files); with
    `stop_after` ("validate", "lower", "optimise"), stop there: `build.rulesets` holds the IR as
    that pass left it and nothing is emitted. `memo`: what the build remembers with — a session's
    (session.py), or `Memo()` to remember nothing (`rulec build --check`); by default a one-shot
    memo over the disk cache and, given `previous` (the output folder the build will be written
    to), over that folder too: the outputs of each ruleset whose inputs did not change are taken
    from it (`reuse.py`; such a ruleset is then neither loaded, validated nor in `build.rulesets`).
    `previous` goes with the default memo only."""
    if stop_after not in PASSES:
        raise ValueError(f"stop_after is one of {PASSES}")
    # A build allocates millions of small objects and makes no reference cycles worth collecting:
    # the cyclic collector only rescans the growing heap (10-16% of a 10,000-50,000 weapon build,
    # more the bigger the pack). It is paused for the build and left as it was.
    was_enabled = gc.isenabled()
    gc.disable()
    if memo is None:  # nothing between builds but the disk cache (if it is on) and the output folder
        memo = Memo(store=cache.store(), previous=reuse.PreviousOutputs(previous) if previous is not None else None)
    elif previous is not None:
        raise ValueError("an output folder to reuse goes to the Memo given (Memo(previous=...))")
    try:
        with using(memo):
            return _compile_rules(paths, progress, stop_after, targets, memo)
    finally:
        if not memo.resident:
            memo.end()  # what `once` made is let go with the build (a session ends its own)
        if was_enabled:
            gc.enable()


def _compile_rules(paths: list[Path], progress: Progress | None, stop_after: str,
                   targets: tuple[str, ...], memo: Memo) -> Build:
    build = Build()
    folders, diags = discover(paths)
    total = sum(len(f.files) for f in folders)
    counter = [0]
    names: dict[str, str] = {}
    lazy = memo.previous is not None and stop_after == "emit"  # a ruleset reused whole is not even loaded
    loaded = [_load_folder(f, diags, progress, counter, total, memo, names, rest=not lazy) for f in folders]
    build.inputs = combined_digest([(item.folder.name, item.digest) for item in loaded], targets)
    bases, packs = _group(loaded, diags)
    build.pack_ids = sorted(str(p.manifest.data["id"]) for items in packs.values() for p in items
                            if p.manifest is not None)
    groups = {rid: (bases[rid], sorted(packs.get(rid, []), key=lambda p: str(p.manifest.data["id"]) if p.manifest else ""))
              for rid in sorted(bases)}
    digests = {rid: _digest(*group) for rid, group in groups.items()}
    # built before from these very inputs, and still so in the output folder
    kept = reuse.found(memo, digests, targets) if lazy and not diags else {}
    taken = [item for rid in kept for item in (groups[rid][0], *groups[rid][1])]
    total -= sum(len(item.unread) for item in taken)  # what the progress counts: the files loaded
    for item in loaded:
        if item.unread and not any(item is t for t in taken):
            load_rest(item, diags, progress, counter, total, memo)
    reused: dict[str, dict[str, Any]] = {}  # ruleset id -> its index line, for those taken from `previous`
    own: dict[str, list[str]] = {}  # ruleset id -> the files its outputs are (for the record)
    located: dict[str, dict[str, Any]] = {}  # where each text `memo.text` gave landed (for the record)
    for rid, (base, pack_items) in groups.items():
        assert base.manifest is not None
        digest = digests[rid]
        if rid in kept:
            build.files.update(kept[rid].files)
            build.file_digests.update(kept[rid].digests)
            build.digests[rid] = digest
            reused[rid] = kept[rid].index
            continue
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
        reads = reads_of(rs)
        unbounded = check_bounds(rs) + check_usage(rs, reads)  # bounded work, and every ruling and flag read
        if unbounded:
            diags.extend(unbounded)
            continue
        rs = replace(rs, ruling_readers=ruling_readers(rs, reads), prose=prose(rs, reads))  # for the pages and the odds
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
        before = set(build.files)
        try:
            _emit(rs, digest, build, targets, memo)
        except RulesError as exc:
            diags.extend(exc.diagnostics)
            continue
        finally:
            memo.let_go()  # nothing made once for this ruleset's outputs is read again (the pages neither)
        own[rid] = sorted(set(build.files) - before)
        located.update(reuse.locate(memo.texts(), {rel: build.files[rel] for rel in own[rid]}))
        build.rulesets.append(rs)
    build.shown = names
    build.diagnostics = _dedupe(_shown(diags, names))
    if not build.ok or stop_after != "emit":
        build.files = {}
        return build
    pages = emit_reference(build.rulesets, build.digests, build.odds, reused)
    build.files.update(pages.files)
    build.files = dict(sorted(build.files.items()))
    if not build.diagnostics:  # a ruleset with a warning is built again, to say it again
        reuse.record(memo, build, targets, {rid: files + pages.by_ruleset[rid] for rid, files in own.items()},
                     pages.index, located, memo.placed())
    return build


def _digest(base: _Loaded, packs: list[_Loaded]) -> str:
    """The content hash of a ruleset: its folder's digest and its packs', in the packs' order."""
    return hashlib.sha256("".join([base.digest] + [p.digest for p in packs]).encode()).hexdigest()


def _optimised(rs: Ruleset, memo: Memo) -> Ruleset:
    """The optimised ruleset (`optimise` reads its procedures and rulings only: a session keeps
    the procedures it made while those stay the same)."""
    procedures = memo.intern(("procedures", rs.id), rs.procedures)
    rulings = memo.intern(("rulings", rs.id), rs.rulings)
    found = memo.get("optimised", procedures, rulings)
    if found is None:
        found = memo.put("optimised", (procedures, rulings), optimise(rs).procedures)
    return replace(rs, procedures=found)
