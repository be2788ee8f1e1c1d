"""Write imported SRD weapons into a table file without losing what a user wrote.

- The target must sit in a ruleset or pack folder, so the result can be checked.
- A file the importer did not write (no import marker in its header) is never overwritten:
  hand-written weapons belong in a table file of their own, which the ruleset reads beside the
  imported one.
- Re-importing over an imported file merges by id: SRD entries are replaced, entries the SRD
  file does not have are kept (and said so); an entry edited by hand is replaced, and said so.
- The new file is checked with its whole ruleset (and the base rulesets of a pack) in a
  temporary copy first; a file that would not validate is never written.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Span
from ..load.documents import MAX_FILE_BYTES, load_bytes
from ..load.reading import ReadRefused, read_bounded
from ..load.sources import MANIFESTS, display_path
from .srd import MARKER, table_text

KEPT = "  # Kept from the previous file: not in the SRD data.\n"


@dataclasses.dataclass
class Plan:
    text: str
    imported: int
    kept: list[str]
    replaced: list[str]


def owner_folder(target: Path) -> Path | None:
    """The nearest folder above `target` holding a ruleset.yaml or pack.yaml."""
    for folder in target.resolve().parents:
        if any((folder / name).is_file() for name in MANIFESTS):
            return folder
    return None


def plan(target: Path, entries: list[dict[str, Any]]) -> tuple[Plan | None, list[Diagnostic]]:
    """The file to write over `target`, merged with what an earlier import left there."""
    shown = display_path(target)
    previous: list[dict[str, Any]] = []
    if target.exists():
        # Read like any rule file (bounded, a regular file only, by the loader that refuses alias
        # bombs and numbers no field can hold), never with yaml.safe_load.
        try:
            raw = read_bounded(target, MAX_FILE_BYTES, shown)
        except ReadRefused as exc:
            return None, [exc.diagnostic]
        old = raw[:4000].decode("utf-8", errors="replace")
        if MARKER not in old[:1000]:
            return None, [Diagnostic(
                Span(shown), "import", "this file was not written by `rulec import 5e-srd`; overwriting it "
                "would lose what is in it", "import into a table file of its own, e.g. --into "
                f"{display_path(target.with_name('srd_weapons.yaml'))}, and keep hand-written weapons here")]
        doc, diags = load_bytes(raw, shown)
        if doc is None:
            return None, diags
        data = doc.data
        listed = data.get("entries") if isinstance(data, dict) else None
        previous = [e for e in listed if isinstance(e, dict) and isinstance(e.get("id"), str)] \
            if isinstance(listed, list) else []
    new_ids = {e["id"]: e for e in entries}
    kept = [e for e in previous if e["id"] not in new_ids]
    replaced = [str(e["id"]) for e in previous if e["id"] in new_ids and e != new_ids[e["id"]]]
    text = table_text(entries)
    if kept:
        text += KEPT + table_text(kept).split("entries:\n", 1)[1]
    return Plan(text, len(entries), [str(e["id"]) for e in kept], replaced), []


def check(target: Path, text: str, bases: list[Path]) -> list[Diagnostic]:
    """Validate the ruleset (or pack) holding `target` as it would be with `text` in it."""
    from ..build.facade import compile_rules  # the whole compiler only when there is something to check

    folder = owner_folder(target)
    if folder is None:
        return [Diagnostic(Span(display_path(target)), "import", "the file must be inside a ruleset or pack "
                           "folder (one with ruleset.yaml or pack.yaml), so the import can be checked")]
    with tempfile.TemporaryDirectory(prefix="rulec-import-") as tmp:
        copy = Path(tmp) / folder.name
        shutil.copytree(folder, copy, symlinks=True)
        staged = copy / target.resolve().relative_to(folder)
        staged.parent.mkdir(parents=True, exist_ok=True)
        staged.write_text(text, encoding="utf-8")
        is_pack = (folder / "pack.yaml").is_file()
        build = compile_rules([*(bases if is_pack else []), copy], stop_after="validate")
        prefix, real = display_path(copy), display_path(folder)

        def home(text: str) -> str:  # name the user's folder, not the temporary copy
            return real + text[len(prefix):] if text.startswith(prefix) else text.replace(prefix, real)

        return [dataclasses.replace(d, span=dataclasses.replace(d.span, file=home(d.span.file)),
                                    message=home(d.message), hint=d.hint and home(d.hint))
                for d in build.diagnostics]


def write(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)
