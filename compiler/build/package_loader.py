"""Import a just-generated package from memory (via a temporary folder) under a private name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any


def import_package(ruleset_id: str, files: dict[str, str]) -> tuple[ModuleType, Any]:
    """Write the distribution to a temporary folder and import its package; keep the folder object
    (a tempfile.TemporaryDirectory) alive while the module is used."""
    import tempfile

    tmp = tempfile.TemporaryDirectory(prefix="rulec-pkg-")
    folder = Path(tmp.name)
    for rel, text in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return _import_from(ruleset_id, folder), tmp


class _Kept:
    """Stands in for the temporary folder when the package is imported where it already is."""

    def cleanup(self) -> None:
        pass

    def __enter__(self) -> _Kept:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def import_folder(ruleset_id: str, distribution: Path) -> tuple[ModuleType, _Kept]:
    """Import the package of an up-to-date `generated/<ruleset>/` folder in place, under the same
    private name `import_package` uses."""
    return _import_from(ruleset_id, distribution), _Kept()


def forget(ruleset_id: str) -> None:
    """Drop the package imported under the private name from `sys.modules` (the build imports it to
    compute the pages' odds; a 100,000-weapon package holds tens of megabytes)."""
    alias = f"_rulec_pkg_{ruleset_id}"
    for key in [k for k in sys.modules if k == alias or k.startswith(alias + ".")]:
        del sys.modules[key]


def _import_from(ruleset_id: str, distribution: Path) -> ModuleType:
    """Import `distribution/rulec_<id>/` under the private name `_rulec_pkg_<id>` (replacing any
    module of that name), so that it never shadows an installed package of the same ruleset."""
    package = f"rulec_{ruleset_id}"
    alias = f"_rulec_pkg_{ruleset_id}"
    forget(ruleset_id)
    spec = importlib.util.spec_from_file_location(alias, distribution / package / "__init__.py",
                                                  submodule_search_locations=[str(distribution / package)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return module
