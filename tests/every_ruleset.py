"""The rulesets every cross-ruleset test runs on: what `compile_rules` finds in the bundled rules/
and in tests/cases/rulesets/ (a fourth, tiny ruleset of the tests' own), with their manifests,
so that a test asserts a feature only where the manifest declares it.

Found when the tests are collected (parametrisations need the ids), by the compiler's own
discovery (`load.sources.discover`), so a ruleset added to either folder is tested everywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rulec.load.sources import discover

ROOT = Path(__file__).resolve().parent.parent
BUNDLED_RULES = ROOT / "rules"
TEST_RULES = ROOT / "tests" / "cases" / "rulesets"
SOURCES = [BUNDLED_RULES, TEST_RULES]  # what the session's one build compiles (conftest.py `built`)


def _manifests() -> dict[str, tuple[Path, dict[str, Any]]]:
    folders, diags = discover(SOURCES)
    assert not diags, [d.format() for d in diags]
    out: dict[str, tuple[Path, dict[str, Any]]] = {}
    for folder in folders:
        if not folder.is_pack:
            data = yaml.safe_load(folder.manifest.read_text(encoding="utf-8"))
            out[data["id"]] = (folder.root, data)
    return dict(sorted(out.items()))


_FOUND = _manifests()
RULESETS: tuple[str, ...] = tuple(_FOUND)  # every ruleset id, sorted
BUNDLED: tuple[str, ...] = tuple(rid for rid, (root, _) in _FOUND.items() if root.parent == BUNDLED_RULES)
assert len(RULESETS) > len(BUNDLED) > 0, RULESETS  # the test ruleset is found beside the bundled ones


def folder(ruleset: str) -> Path:
    """The source folder of a ruleset."""
    return _FOUND[ruleset][0]


def manifest(ruleset: str) -> dict[str, Any]:
    """A ruleset's manifest (ruleset.yaml) as plain data."""
    return _FOUND[ruleset][1]


def declares_odds(ruleset: str) -> bool:
    """Whether its reference pages show balancing odds (`reference.odds` in the manifest)."""
    return bool((manifest(ruleset).get("reference") or {}).get("odds"))


def declares_fight(ruleset: str) -> bool:
    """Whether its package has a fight API (`fight:` in the manifest: state carried between actions)."""
    return manifest(ruleset).get("fight") is not None


def engine(ruleset: str) -> str:
    """Its dice engine (`dice.engine` in the manifest: pool or d20)."""
    return str(manifest(ruleset)["dice"]["engine"])


def has_rule_index(ruleset: str) -> bool:
    """Whether it has a rule inventory (rules.yaml: the seed's rule ids, indexed on its page)."""
    return (folder(ruleset) / "rules.yaml").is_file()


FIGHTING: tuple[str, ...] = tuple(rid for rid in RULESETS if declares_fight(rid))
INDEXED: tuple[str, ...] = tuple(rid for rid in RULESETS if has_rule_index(rid))


def slow_for(rulesets: tuple[str, ...], *slow: str) -> list[Any]:
    """`rulesets` as parameters, those named in `slow` marked slow (the fast suite stays well under
    its 90 s; CI's slow job runs them)."""
    import pytest

    return [pytest.param(r, marks=pytest.mark.slow) if r in slow else r for r in rulesets]
