"""Every rule that spans actions is accounted for (FIGHT-RULES DP-F/D20-F/TR-F, listed in each
ruleset's rule index under the section `fight`), in every ruleset with a fight section and a rule
index: modelled — named by a condition or relation of the fight section, or by a fight test or
`kind: fight` scenario that plays it — or declared `not_modelled` with its reason (shown on the
page). A new fight id can be neither silently."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from every_ruleset import FIGHTING, folder, has_rule_index, manifest

ROOT = Path(__file__).resolve().parent.parent
NAMED = re.compile(r"\b[A-Z][A-Z0-9]*-F\d\d\b")


def _named_by_tests() -> set[str]:
    out: set[str] = set()
    for path in [*ROOT.glob("tests/test_fight*.py"), *ROOT.glob("examples/*/*.yaml")]:
        if path.name == Path(__file__).name:
            continue
        out |= set(NAMED.findall(path.read_text(encoding="utf-8")))
    return out


@pytest.mark.parametrize("ruleset", [rs for rs in FIGHTING if has_rule_index(rs)])
def test_every_fight_rule_is_modelled_or_declared(ruleset: str) -> None:
    tested = _named_by_tests()
    index = yaml.safe_load((folder(ruleset) / "rules.yaml").read_text(encoding="utf-8"))
    ids = {r["id"] for r in index["rules"] if r["section"] == "fight"}
    assert ids, f"{ruleset} declares a fight but its rule index has no section `fight`"
    fight = manifest(ruleset)["fight"]
    by_data = {i for c in fight.get("conditions", []) + fight.get("relations", []) for i in c.get("rules", [])}
    declared = {i for g in manifest(ruleset).get("not_modelled", []) for i in g["rules"]}
    missing = sorted(ids - tested - declared)
    assert not missing, f"{ruleset}: fight rules neither played by a test nor declared: {missing}"
    untested = sorted(by_data - tested - declared)
    assert not untested, f"{ruleset}: conditions name rules no fight test plays: {untested}"
