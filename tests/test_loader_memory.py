"""The build imports each ruleset's package to compute its pages' odds, on the compiler's own runtime
(`import_package(share_runtime=True)`); the runtime's module-level caches (an action's facts, a
combatant's effective stats) hold objects of the package they were made from. `forget` clears
them (runtime/core.py `cache`), so that no object of the package outlives the build: a
100,000-weapon package holds tens of megabytes (issue 20's memory bound)."""

from __future__ import annotations

import gc
import sys
import weakref
from typing import Any

import pytest

from every_ruleset import FIGHTING, declares_odds, folder
from rulec.build import facade
from rulec.build.facade import compile_rules
from rulec.emit import odds_tables
from rulec.memo import Memo
from rulec.runtime import core

WITH_ODDS = [rid for rid in FIGHTING if declares_odds(rid)]


@pytest.mark.parametrize("ruleset", WITH_ODDS[:1])
def test_no_object_of_an_imported_package_outlives_the_build(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    imported: list[Any] = []
    real = odds_tables.import_package

    def recorded(*args: Any, **kwargs: Any) -> Any:
        module, kept = real(*args, **kwargs)
        imported.append(weakref.ref(module.Combatant))  # every function and object of the package reaches it
        return module, kept

    monkeypatch.setattr(odds_tables, "import_package", recorded)
    build = compile_rules([folder(ruleset)], memo=Memo())  # no cache: the odds are computed
    assert build.ok and imported
    del build
    gc.collect()
    assert [ref() for ref in imported] == [None] * len(imported)


class _Probe:
    """An object only the package's model module holds."""


@pytest.mark.parametrize("ruleset", WITH_ODDS[:1])
def test_the_package_is_freed_during_the_build(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build runs with the cyclic collector paused: the package's modules, whose functions and
    classes make cycles with their globals, are emptied when the odds are done, so its tables go
    by reference counting alone, before the pages are made (not at the end of the build)."""
    probes: list[Any] = []
    real = odds_tables.import_package

    def probed(*args: Any, **kwargs: Any) -> Any:
        module, kept = real(*args, **kwargs)
        probe = _Probe()
        vars(sys.modules[module.Combatant.__module__])["_probe"] = probe
        probes.append(weakref.ref(probe))
        return module, kept

    seen: list[Any] = []
    real_pages = facade.emit_reference

    def pages(*args: Any, **kwargs: Any) -> Any:
        seen.extend(ref() for ref in probes)
        return real_pages(*args, **kwargs)

    monkeypatch.setattr(odds_tables, "import_package", probed)
    monkeypatch.setattr(facade, "emit_reference", pages)
    assert compile_rules([folder(ruleset)], memo=Memo()).ok and probes
    assert seen == [None] * len(probes)


def test_clear_caches_empties_every_cache() -> None:
    made = core.cache()
    made["key"] = object()
    core.clear_caches()
    assert made == {}
