"""Finding rule files: paths on the command line -> ruleset and pack folders.

A *source folder* holds a manifest: `ruleset.yaml` (a bundled or standalone
ruleset) or `pack.yaml` (a homebrew pack that extends one). A path may be a
source folder, a folder of source folders (like `rules/`), or a single rule
file (its source folder is used). Every `*.yaml`/`*.yml` below a source folder
belongs to it, but for its top-level `scenarios/` folder (scenario files, which `rulec test`
runs); a YAML file that belongs to no source folder is reported, never silently skipped.

A link below a source folder whose target lies outside it (a file or a folder) is refused with
a diagnostic naming the link: a pack from a stranger can only ever bring its own files. A link
to a folder inside it is not followed (what it holds is found at its real place).

Each source folder has a `name` that outputs call it by, never where it sits on the builder's
disk: a pack by its id (`my_pack`, from its manifest's `id:` line), so that the same pack builds
the same bytes from any folder under any folder name; a ruleset by the last part of the path it
was given by and its place below that (`rules/dp`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Span
from .paths import display_path
from ..messages import say

__all__ = ["MANIFESTS", "SourceFolder", "discover", "display_path"]

MANIFESTS = ("ruleset.yaml", "pack.yaml")
YAML_SUFFIXES = (".yaml", ".yml")


@dataclass
class SourceFolder:
    root: Path
    manifest: Path
    files: list[Path] = field(default_factory=list)
    name: str = ""  # how outputs name the folder ("rules/dp", "my-pack"): see the module docstring

    @property
    def is_pack(self) -> bool:
        return self.manifest.name == "pack.yaml"

    def source_name(self, path: Path) -> str:
        """How outputs (headers, pages) name a file of the folder: by the folder's name and the
        file's place inside it, never by an absolute path."""
        return f"{self.name or self.root.name}/{path.relative_to(self.root).as_posix()}"


def _manifest_of(folder: Path) -> Path | None:
    for name in MANIFESTS:
        if (folder / name).is_file():
            return folder / name
    return None


def inside(path: Path, root: Path) -> bool:
    """Whether `path` is `root` or below it (both resolved)."""
    return path == root or root in path.parents


SCENARIOS = "scenarios"  # a source folder's folder of scenario files: `rulec test`'s, not rule files


def _yaml_files(folder: Path, diags: list[Diagnostic] | None = None, source: bool = False) -> list[Path]:
    """The YAML files below `folder` (itself resolved), sorted. A link whose target leaves the
    folder is reported into `diags` and left out; a link to a folder inside it is not followed.
    In a `source` folder, its top-level `scenarios/` holds scenarios, not rule files: left out."""
    found: list[Path] = []
    stack = [folder]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink():
                try:
                    target = path.resolve(strict=True)
                except (OSError, RuntimeError):
                    target = None
                if target is None or not inside(target, folder):
                    if diags is not None and (target is None or target.is_dir() or path.suffix in YAML_SUFFIXES):
                        diags.append(Diagnostic(Span(display_path(path)), "link-outside",
                                                say("link-outside.link-outside-folder-rule", name=path.name, value=say("sources.missing-file") if target is None else say("sources.something"), name2=folder.name),
                                                say("link-outside.copy-file-into-folder")))
                    continue
                if target.is_dir():
                    continue  # its files are found where they are
                if path.suffix in YAML_SUFFIXES and target.is_file():
                    found.append(path)
                continue
            if entry.is_dir(follow_symlinks=False):
                if not (source and here == folder and entry.name == SCENARIOS):
                    stack.append(path)
            elif path.suffix in YAML_SUFFIXES and entry.is_file(follow_symlinks=False):
                found.append(path)
            elif path.suffix in YAML_SUFFIXES and diags is not None:  # a FIFO, device or socket: never read
                diags.append(Diagnostic(Span(display_path(path)), "not-a-file",
                                        say("not-a-file.not-regular-file-rulec", name=path.name),
                                        say("not-a-file.replace-with-ordinary-file")))
    return sorted(found)


def _source(folder: Path, manifest: Path, name: str, diags: list[Diagnostic]) -> SourceFolder:
    if manifest.name == "pack.yaml":
        name = _pack_id(manifest) or name
    return SourceFolder(folder, manifest, _yaml_files(folder, diags, source=True), name)


_PACK_ID = re.compile(r"^id:[ \t]*(['\"]?)([a-z][a-z0-9_]*)\1[ \t]*(?:#.*)?$", re.M)


def _pack_id(manifest: Path) -> str | None:
    """A pack's id from its manifest's top-level `id:` line, which names the pack in outputs: the
    same pack gives the same bytes whatever its folder is called. None when the line is not plain
    (the loader reports what is wrong with the manifest; the folder's name stands in)."""
    from .reading import ReadRefused, read_bounded

    try:
        text = read_bounded(manifest, 64 * 1024).decode("utf-8")
    except (ReadRefused, UnicodeDecodeError):
        return None
    found = _PACK_ID.findall(text)
    return found[0][1] if len(found) == 1 else None


def _named(given: Path, folder: Path, below: Path | None = None) -> str:
    """The name of a source folder found from the path `given` (see the module docstring)."""
    top = given.name or "rules"
    if below is None or folder == below:
        return top if below is not None else folder.name
    return f"{top}/{folder.relative_to(below).as_posix()}"


def discover(paths: list[Path]) -> tuple[list[SourceFolder], list[Diagnostic]]:
    """Resolve command-line paths into source folders (deduplicated, in a stable order)."""
    found: dict[Path, SourceFolder] = {}
    diags: list[Diagnostic] = []
    for raw in paths:
        path = raw.resolve()
        if not path.exists():
            diags.append(Diagnostic(Span(display_path(raw)), "no-such-path", say("no-such-path.no-such-file-folder")))
            continue
        if not path.is_file() and not path.is_dir():  # a device, FIFO or socket: never read (reading.py)
            diags.append(Diagnostic(Span(display_path(raw)), "not-a-file",
                                    say("not-a-file.neither-regular-file-nor")))
            continue
        if path.is_file():
            folder = next((p for p in (path.parent, *path.parent.parents) if _manifest_of(p)), None)
            if folder is None:
                diags.append(Diagnostic(Span(display_path(raw)), "no-ruleset",
                                        say("no-ruleset.file-not-inside-folder")))
                continue
            if folder not in found:
                found[folder] = _source(folder, _manifest_of(folder), folder.name, diags)  # type: ignore[arg-type]
            continue
        manifest = _manifest_of(path)
        if manifest is not None:
            if path not in found:
                found[path] = _source(path, manifest, _named(path, path, path), diags)
            continue
        children = sorted(p for p in path.iterdir() if p.is_dir() and not p.is_symlink() and _manifest_of(p))
        for child in children:
            if child not in found:
                found[child] = _source(child, _manifest_of(child), _named(path, child, path), diags)  # type: ignore[arg-type]
        claimed = {f for c in children for f in found[c].files}
        for stray in _yaml_files(path):
            if stray not in claimed and not any(m in stray.parents for m in found):
                diags.append(Diagnostic(Span(display_path(stray)), "stray-file",
                                        say("stray-file.yaml-file-outside-any"),
                                        say("stray-file.move-into-folder-with")))
        if not children:
            diags.append(Diagnostic(Span(display_path(raw)), "no-ruleset",
                                    say("no-ruleset.no-ruleset-yaml-pack")))
    _unique_names(list(found.values()))
    for source in found.values():
        diags += _bad_names(source)
    return list(found.values()), diags


def _unique_names(folders: list[SourceFolder]) -> None:
    """Two folders given by paths of the same name (`a/pack`, `b/pack`) are told apart by a
    number, in the order they were given, rulesets before packs: so are a name and another that
    starts with it as a folder (a pack whose id is `rules` beside the rulesets `rules/dp`, ...),
    whose files could otherwise be named alike (`rules/dp/tables/weapons.yaml`)."""
    seen: list[str] = []
    for folder in sorted(folders, key=lambda f: f.is_pack):  # a stable sort: each kind in the order given
        name, n = folder.name, 1
        while any(name == s or name.startswith(s + "/") or s.startswith(name + "/") for s in seen):
            n += 1
            name = f"{folder.name}~{n}"
        folder.name = name
        seen.append(name)


def _bad_names(folder: SourceFolder) -> list[Diagnostic]:
    """A diagnostic for each name outputs would show (the folder's, each rule file's place in it)
    that holds a character rule text may not (characters.py) or a tab or line break: it would
    hide or reorder what the pages and the generated files' headers show."""
    from .characters import FORBIDDEN, forbidden_character

    out = []
    for path in (folder.root, *folder.files):
        shown = folder.name if path == folder.root else folder.source_name(path)
        bad = next((c for c in shown if c in FORBIDDEN or c in "\t\n\r"), None)
        if bad is not None:
            what = forbidden_character(bad)[1] if bad in FORBIDDEN else repr(bad)  # type: ignore[index]
            out.append(Diagnostic(Span(display_path(path)), "bad-character",
                                  say("bad-character.not-allowed-names", what=what), say("bad-character.rename-it")))
    return out
