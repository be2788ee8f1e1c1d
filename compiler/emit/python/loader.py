"""Import a just-generated package from memory (via a temporary folder) under a private name.

A build has already compiled most of the package's modules (the check that every module compiles:
emit/python/package.py), so the import takes those code objects instead of compiling the same
text again; a runtime module (a verbatim copy of a compiler/runtime module) is taken from the
bytecode Python keeps for the compiler's own module, as importing `compiler.runtime` would. Only
code objects made from the very text being imported are used: `code(rel, text)` is asked with
the text, and a runtime module's text is compared with its source file first.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

# A module's code object for its path inside the distribution and its text (None: compile it).
CodeFor = Callable[[str, str], "CodeType | None"]

RUNTIME_DIR = Path(__file__).resolve().parents[2] / "runtime"
_COMPILER_CORE = __name__.rsplit(".", 3)[0] + ".runtime.core"  # rulec.runtime.core
_RUNTIME_PACKAGE = __name__.rsplit(".", 3)[0] + ".runtime"  # compiler.runtime (rulec.runtime installed)


def import_package(ruleset_id: str, files: dict[str, str], code: CodeFor | None = None,
                   share_runtime: bool = False) -> tuple[ModuleType, Any]:
    """Write the distribution to a temporary folder and import its package; keep the folder object
    (a tempfile.TemporaryDirectory) alive while the module is used. `code`: the build's code
    objects of the modules it compiled already. `share_runtime`: when every runtime module of the
    package is the very text of the compiler's own (as a build writes them), the package's
    `_runtime` is the compiler's `compiler.runtime` package, each module run once a process
    instead of once a ruleset (the same code, whose caches check the identity of what they
    hold: `runtime/fight_stats.py`)."""
    import tempfile

    tmp = tempfile.TemporaryDirectory(prefix="rulec-pkg-")
    folder = Path(tmp.name)
    for rel, text in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    shared = _shared_runtime(ruleset_id, files) if share_runtime else {}
    return _import_from(ruleset_id, folder, _Compiled(folder, files, code), shared), tmp


def _shared_runtime(ruleset_id: str, files: dict[str, str]) -> dict[str, ModuleType]:
    """{private module name: the compiler's runtime module} for the package's `_runtime` and each
    of its modules, when all of them are the compiler's own source text; else nothing."""
    import importlib

    prefix = f"rulec_{ruleset_id}/_runtime/"
    modules = sorted(rel[len(prefix):-3] for rel in files if rel.startswith(prefix) and rel.endswith(".py"))
    if "__init__" not in modules:
        return {}
    for module in modules:
        try:
            if (RUNTIME_DIR / f"{module}.py").read_text(encoding="utf-8") != files[f"{prefix}{module}.py"]:
                return {}
        except OSError:
            return {}
    alias = f"_rulec_pkg_{ruleset_id}._runtime"
    return {alias if m == "__init__" else f"{alias}.{m}":
            importlib.import_module(_RUNTIME_PACKAGE if m == "__init__" else f"{_RUNTIME_PACKAGE}.{m}")
            for m in modules}


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


def forget(ruleset_id: str, empty: bool = False) -> None:
    """Drop the package imported under the private name from `sys.modules` (the build imports it to
    compute the pages' odds; a 100,000-weapon package holds tens of megabytes), and empty the
    caches of the compiler's own runtime, which a package imported with `share_runtime` ran on and
    whose entries hold that package's objects (runtime/core.py `cache`).

    With `empty` (its caller holds nothing of it), the package's own modules are emptied as they
    are dropped: a module's functions and classes make reference cycles with its globals, which
    only the cyclic collector would break, and a build runs with it paused (build/facade.py), so
    the package's tables would otherwise stay for the rest of the build. (The shared runtime's
    modules, the compiler's own, are only dropped.)"""
    alias = f"_rulec_pkg_{ruleset_id}"
    for key in [k for k in sys.modules if k == alias or k.startswith(alias + ".")]:
        module = sys.modules.pop(key)
        if empty and getattr(module, "__name__", None) == key:  # the package's own, not the compiler's runtime
            module.__dict__.clear()
    core = sys.modules.get(_COMPILER_CORE)
    if core is not None:  # never imported (`rulec resolve`): no cache of it holds anything
        core.clear_caches()


class _Compiled:
    """The code of each module of a distribution written to `folder` from `files`."""

    def __init__(self, folder: Path, files: dict[str, str], code: CodeFor | None) -> None:
        self.folder = folder
        self.files = files
        self.code = code

    def __call__(self, path: str) -> CodeType | None:
        rel = Path(path).relative_to(self.folder).as_posix()
        text = self.files.get(rel)
        if text is None:
            return None
        parts = rel.split("/")
        if len(parts) == 3 and parts[1] == "_runtime":
            source = RUNTIME_DIR / parts[2]
            try:
                same = source.read_text(encoding="utf-8") == text
            except OSError:
                same = False
            if same:  # the compiler's own module: its bytecode, as `import compiler.runtime.x` reads it
                loader = importlib.machinery.SourceFileLoader(f"rulec_runtime_{source.stem}", str(source))
                return loader.get_code(loader.name)
        return self.code(rel, text) if self.code is not None else None


class _Loader(importlib.machinery.SourceFileLoader):
    def __init__(self, fullname: str, path: str, compiled: _Compiled) -> None:
        super().__init__(fullname, path)
        self.compiled = compiled

    def get_code(self, fullname: str) -> CodeType | None:
        found = self.compiled(self.path)
        return found if found is not None else super().get_code(fullname)


class _Finder:
    """Finds the modules below the private package name in the distribution, with `_Loader` (a meta
    path finder by its `find_spec`: importlib.abc's base class would import importlib.resources,
    tempfile and shutil at the start of every `rulec resolve`)."""

    def __init__(self, alias: str, root: Path, compiled: _Compiled) -> None:
        self.alias = alias
        self.root = root
        self.compiled = compiled

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(self.alias + "."):
            return None
        where = self.root.joinpath(*fullname.split(".")[1:])
        if (where / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(
                fullname, where / "__init__.py", loader=_Loader(fullname, str(where / "__init__.py"), self.compiled),
                submodule_search_locations=[str(where)])
        module = where.with_suffix(".py")
        if module.is_file():
            return importlib.util.spec_from_file_location(fullname, module,
                                                          loader=_Loader(fullname, str(module), self.compiled))
        return None


def _import_from(ruleset_id: str, distribution: Path, compiled: _Compiled | None = None,
                 shared: dict[str, ModuleType] | None = None) -> ModuleType:
    """Import `distribution/rulec_<id>/` under the private name `_rulec_pkg_<id>` (replacing any
    module of that name), so that it never shadows an installed package of the same ruleset.
    `shared`: modules already imported, under their private names (`_shared_runtime`)."""
    package = f"rulec_{ruleset_id}"
    alias = f"_rulec_pkg_{ruleset_id}"
    forget(ruleset_id)
    sys.modules.update(shared or {})
    init = distribution / package / "__init__.py"
    loader = _Loader(alias, str(init), compiled) if compiled is not None else None
    spec = importlib.util.spec_from_file_location(alias, init, loader=loader,
                                                  submodule_search_locations=[str(distribution / package)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    finder = _Finder(alias, distribution / package, compiled) if compiled is not None else None
    if finder is not None:
        sys.meta_path.insert(0, finder)
    try:
        spec.loader.exec_module(module)
        if finder is not None and (distribution / package / "fight.py").is_file():
            # the package imports its fight when first asked (package_init.py.j2); a build asks
            # (the pages' chains), so it is imported now, from the build's code objects
            importlib.import_module(f"{alias}.fight")
    finally:
        if finder is not None:
            sys.meta_path.remove(finder)
    return module
