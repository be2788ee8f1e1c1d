"""Finding rule files: paths on the command line -> ruleset and pack folders.

A *source folder* holds a manifest: `ruleset.yaml` (a bundled or standalone
ruleset) or `pack.yaml` (a homebrew pack that extends one). A path may be a
source folder, a folder of source folders (like `rules/`), or a single rule
file (its source folder is used). Every `*.yaml`/`*.yml` below a source folder
belongs to it; a YAML file that belongs to no source folder is reported, never
silently skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Span
from .paths import display_path

__all__ = ["MANIFESTS", "SourceFolder", "discover", "display_path"]

MANIFESTS = ("ruleset.yaml", "pack.yaml")
YAML_SUFFIXES = (".yaml", ".yml")


@dataclass
class SourceFolder:
    root: Path
    manifest: Path
    files: list[Path] = field(default_factory=list)

    @property
    def is_pack(self) -> bool:
        return self.manifest.name == "pack.yaml"


def _manifest_of(folder: Path) -> Path | None:
    for name in MANIFESTS:
        if (folder / name).is_file():
            return folder / name
    return None


def _yaml_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in YAML_SUFFIXES and p.is_file())


def _source(folder: Path, manifest: Path) -> SourceFolder:
    return SourceFolder(folder, manifest, _yaml_files(folder))


def discover(paths: list[Path]) -> tuple[list[SourceFolder], list[Diagnostic]]:
    """Resolve command-line paths into source folders (deduplicated, in a stable order)."""
    found: dict[Path, SourceFolder] = {}
    diags: list[Diagnostic] = []
    for raw in paths:
        path = raw.resolve()
        if not path.exists():
            diags.append(Diagnostic(Span(display_path(raw)), "no-such-path", "no such file or folder"))
            continue
        if path.is_file():
            folder = next((p for p in (path.parent, *path.parent.parents) if _manifest_of(p)), None)
            if folder is None:
                diags.append(Diagnostic(Span(display_path(raw)), "no-ruleset",
                                        "this file is not inside a folder with ruleset.yaml or pack.yaml"))
                continue
            found.setdefault(folder, _source(folder, _manifest_of(folder)))  # type: ignore[arg-type]
            continue
        manifest = _manifest_of(path)
        if manifest is not None:
            found.setdefault(path, _source(path, manifest))
            continue
        children = sorted(p for p in path.iterdir() if p.is_dir() and _manifest_of(p))
        for child in children:
            found.setdefault(child, _source(child, _manifest_of(child)))  # type: ignore[arg-type]
        claimed = {f for c in children for f in _yaml_files(c)}
        for stray in _yaml_files(path):
            if stray not in claimed and not any(m in stray.parents for m in found):
                diags.append(Diagnostic(Span(display_path(stray)), "stray-file",
                                        "YAML file outside any ruleset or pack folder; it would be ignored",
                                        "move it into a folder with ruleset.yaml or pack.yaml"))
        if not children:
            diags.append(Diagnostic(Span(display_path(raw)), "no-ruleset",
                                    "no ruleset.yaml or pack.yaml here or in its sub-folders"))
    return list(found.values()), diags
