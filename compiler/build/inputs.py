"""A build's inputs: its source folders read and loaded through the build's memo.

Each file is read once within its limit, digested from the very bytes that are compiled (the
stamp vouches for them), loaded and statically validated (by its bytes, from memory or the disk
store; an edited table file spliced from the document before it); the folders are then grouped
into base rulesets and the packs that extend them. The passes name files as outputs name them
(`SourceFolder.source_name`); `_shown` gives the diagnostics back the paths the user can open.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..load.documents import PARTIAL_BYTES
from ..load.sources import inside
from ..load import MAX_FILE_BYTES, Document, ReadRefused, SourceFolder, display_path, load_bytes, read_bounded
from .config import rules_hint
from ..memo import Memo, Store
from ..record import MutableRecord, field
from .result import Progress
from .stamp import FolderDigest
from ..validate import validate_static
from ..messages import say


class _Loaded(MutableRecord):
    folder: SourceFolder
    manifest: Document | None
    manifest_kind: str | None
    docs: list[tuple[Document, str]]
    digest: str
    broken: list[str | None] = field(default_factory=list)  # the kinds of its files that failed (None: unknown)
    # the files read but not loaded yet (shown name, bytes): `load_rest` loads them
    unread: list[tuple[str, bytes]] = field(default_factory=list)


def _load_folder(folder: SourceFolder, diags: list[Diagnostic], progress: Progress | None,
                 counter: list[int], total: int, memo: Memo, names: dict[str, str] | None = None,
                 rest: bool = True) -> _Loaded:
    """Read a source folder's files and load its manifest and, unless `rest` is false, the others
    (`load_rest` loads them later: a ruleset the build reuses whole is never loaded). Each file is
    digested from the very bytes that are loaded. Each document is named as outputs name it
    (`SourceFolder.source_name`: no absolute path, the same from any folder); `names` gets, for
    each, the path diagnostics show (`display_path`), which the facade puts back (`_shown`)."""
    hasher = FolderDigest(folder)
    loaded = _Loaded(folder, None, None, [], "")
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
        if path != folder.manifest:
            loaded.unread.append((shown, raw))
            continue
        _count(progress, counter, total)
        doc, kind, clean = _load_checked(raw, shown, diags, memo)
        if not clean:
            loaded.broken.append(kind)
        if doc is None or kind is None:
            continue
        loaded.manifest, loaded.manifest_kind = (doc, kind) if clean else (None, None)
        expected = "pack" if folder.is_pack else "ruleset"
        if kind != expected:
            diags.append(Diagnostic(doc.span(("kind",)), "bad-manifest", say("bad-manifest.must-have-kind", name=path.name, expected=expected)))
    loaded.digest = hasher.hexdigest()
    if rest:
        load_rest(loaded, diags, progress, counter, total, memo)
    return loaded


def load_rest(loaded: _Loaded, diags: list[Diagnostic], progress: Progress | None, counter: list[int], total: int,
              memo: Memo) -> None:
    """Load the files of a folder `_load_folder` read but did not load, in their order."""
    for shown, raw in loaded.unread:
        _count(progress, counter, total)
        doc, kind, clean = _load_checked(raw, shown, diags, memo)
        if not clean:
            loaded.broken.append(kind)
        if doc is not None and kind is not None and clean:  # a file with schema errors is reported, the others checked
            loaded.docs.append((doc, kind))
    loaded.unread = []


def _count(progress: Progress | None, counter: list[int], total: int) -> None:
    counter[0] += 1
    if progress:
        progress("load", counter[0], total)


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
    `RULEC_CACHE_DIR=off`). A large table file not in the store is spliced when it can be: the
    document of the version last loaded at its path is in the store (`_previous`), and only the
    entries whose lines changed are composed again (`load.splice`, as a resident build does)."""
    store = memo.store
    name = store.key("doc", raw) if store is not None else ""
    value = store.get(name) if store is not None else None
    cached = _from_store(shown, value, raw) if value is not None else None
    if cached is not None:
        if store is not None and cached[0].text is not None and cached[1] == "table":
            _last_is(store, shown, name)
        return cached[0], cached[1], True  # the same bytes may sit at another path now: the name is this one
    before = _previous(store, shown) if store is not None and len(raw) > PARTIAL_BYTES else None
    doc = _spliced(before, raw) if before is not None else None
    if doc is None:
        doc, load_diags = load_bytes(raw, shown)
        diags.extend(load_diags)
        if doc is None:
            return None, None, False
    kind, schema_diags = validate_static(doc)
    diags.extend(schema_diags)
    if store is not None and kind is not None and not schema_diags:
        store.put(name, doc.to_json(kind))
        if doc.text is not None and kind == "table":  # what a one-shot build after an edit splices
            store.put(store.key("doc-bytes", name), {"raw": raw.decode("utf-8")})
            _last_is(store, shown, name)
    return doc, kind, not schema_diags


def _from_store(shown: str, value: Any, raw: bytes) -> tuple[Document, str] | None:
    """A document kept in the store for these bytes (a partial one completed from their text)."""
    partial = isinstance(value, dict) and value.get("partial") is True
    return Document.from_json(shown, value, _text_of(raw) if partial else None)


def _last_is(store: Store, shown: str, name: str) -> None:
    """Note that the large table file at `shown` was last loaded from the bytes whose document is
    `name` (written only when it was another)."""
    pointer = store.key("last-doc", shown)
    if store.get(pointer) != {"doc": name}:
        store.put(pointer, {"doc": name})


def _previous(store: Store, shown: str) -> Document | None:
    """The document of the table file last loaded at `shown`, from the store, with the bytes it was
    loaded from (kept beside it), or None. The bytes must name the document: it is the document of
    exactly those bytes."""
    last = store.get(store.key("last-doc", shown))
    name = last.get("doc") if isinstance(last, dict) else None
    kept = store.get(store.key("doc-bytes", name)) if isinstance(name, str) else None
    raw = kept.get("raw") if isinstance(kept, dict) else None
    if not isinstance(raw, str) or store.key("doc", raw.encode("utf-8")) != name:
        return None
    value = store.get(name)
    found = _from_store(shown, value, raw.encode("utf-8")) if value is not None else None
    return found[0] if found is not None and found[1] == "table" else None


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
