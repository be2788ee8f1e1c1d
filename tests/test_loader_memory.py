"""The build imports each ruleset's package to compute its pages' odds, on the compiler's own runtime
(`import_package(share_runtime=True)`); the runtime's module-level caches (an action's facts, a
combatant's effective stats) hold objects of the package they were made from. `forget` clears
them (runtime/core.py `cache`), so that no object of the package outlives the build: a
100,000-weapon package holds tens of megabytes (issue 20's memory bound)."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

from every_ruleset import FIGHTING, declares_odds, folder
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


def test_clear_caches_empties_every_cache() -> None:
    made = core.cache()
    made["key"] = object()
    core.clear_caches()
    assert made == {}
