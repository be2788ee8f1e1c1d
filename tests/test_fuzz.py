"""Hypothesis: arbitrary YAML and arbitrary mutations of the bundled rules never crash the compiler."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.build.facade import compile_rules
from rulec.load import load_bytes, load_text
from rulec.validate import validate_static

ROOT = Path(__file__).resolve().parent.parent

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=20),
              st.sampled_from(["yes", "on", "~", "1d6", "力量 + 武技", "weapon.damage", "__import__"])),
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.text(max_size=12), inner, max_size=5)),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash_the_loader(raw):
    doc, diags = load_bytes(raw, "fuzz.yaml")
    assert doc is not None or diags


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab: -[]{}&*!|>'\"#\n\t,?%@`1yes~")), max_size=120))
def test_arbitrary_yaml_text_never_crashes_loader_or_validator(text):
    doc, diags = load_text(text, "fuzz.yaml")
    if doc is not None:
        validate_static(doc)


@settings(max_examples=100, deadline=None)
@given(json_values, st.sampled_from(["ruleset", "stats", "rulings", "rule_index", "procedures", "table", "pack"]))
def test_arbitrary_documents_of_every_kind_validate_without_crashing(value, kind):
    data = {"kind": kind, "payload": value} if not isinstance(value, dict) else {**value, "kind": kind}
    doc, diags = load_text(yaml.safe_dump(data, allow_unicode=True), "fuzz.yaml")
    if doc is None:  # e.g. a key PyYAML dumps plain that YAML 1.2 reads as a number
        assert diags
        return
    validate_static(doc)


def _paths(node, trail=()):
    yield trail
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, trail + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, trail + (i,))


RULE_FILES = sorted((ROOT / "rules").rglob("*.yaml"))


def _mutated_rules_never_crash(tmp_path_factory, data):  # type: ignore[no-untyped-def]
    target = data.draw(st.sampled_from(RULE_FILES))
    original = yaml.safe_load(target.read_text(encoding="utf-8"))
    paths = list(_paths(original))
    path = data.draw(st.sampled_from(paths))
    mutated = copy.deepcopy(original)
    action = data.draw(st.sampled_from(["replace", "delete", "rename"]))
    new_value = data.draw(json_values)
    if not path:
        mutated = new_value
    else:
        parent = mutated
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        if action == "delete":
            del parent[last]
        elif action == "rename" and isinstance(parent, dict):
            parent[str(last) + "x"] = parent.pop(last)
        else:
            parent[last] = new_value
    workdir = tmp_path_factory.mktemp("mut")
    rel = target.relative_to(ROOT / "rules")
    ruleset = workdir / rel.parts[0]  # only the ruleset the mutated file belongs to
    shutil.copytree(ROOT / "rules" / rel.parts[0], ruleset)
    (workdir / rel).write_text(yaml.safe_dump(mutated, allow_unicode=True), encoding="utf-8")
    build = compile_rules([ruleset])  # must return, never raise
    assert build.ok or build.diagnostics


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
@pytest.mark.slow  # several seconds: CI's slow job
def test_mutated_bundled_rules_never_crash(tmp_path_factory, data):  # type: ignore[no-untyped-def]
    _mutated_rules_never_crash(tmp_path_factory, data)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_many_mutated_bundled_rules_never_crash(tmp_path_factory, data):  # type: ignore[no-untyped-def]
    _mutated_rules_never_crash(tmp_path_factory, data)


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
