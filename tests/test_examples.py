"""Every worked example of the three seeds ships as a scenario in examples/; each runs through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))
SCENARIOS = [p for p in EXAMPLES if "kind: scenario" in p.read_text(encoding="utf-8")]
FIGHTS = [p for p in EXAMPLES if "kind: fight" in p.read_text(encoding="utf-8")]


def rulec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulec", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_worked_example_through_the_cli(scenario: Path):
    """DP-01..07, DP-12, DP-20, D20-04, D20-21, D20-23, TR-15, TR-17: the seeds' numbers, end to end."""
    spec = yaml.safe_load(scenario.read_text(encoding="utf-8"))
    expect = spec["expect"]
    result = rulec("resolve", str(scenario.relative_to(ROOT)), "--json")
    data = json.loads(result.stdout)
    if "error" in expect:  # the expected refusal: the scenario's expectation is met, exit 0
        assert result.returncode == 0 and data["error"] == expect["error"], result.stderr
        return
    assert result.returncode == 0, result.stderr
    for key, value in expect.items():
        if key == "command":
            assert data["rolls"][0]["command"] == value
        else:
            assert data[key] == value, key


def test_rulec_test_runs_every_expectation(tmp_path: Path):
    result = rulec("test", "examples")
    total = len(SCENARIOS) + len(FIGHTS)
    assert result.returncode == 0 and result.stderr.strip().endswith(f"{total} passed, 0 failed"), result.stderr
    wrong = tmp_path / "wrong.yaml"
    text = (ROOT / "examples" / "dp" / "wang_vs_wu_miss.yaml").read_text(encoding="utf-8")
    wrong.write_text(text.replace("expect: {hit: false,", "expect: {hit: true,"), encoding="utf-8")
    result = rulec("test", str(wrong), str(ROOT / "examples" / "d20"))
    assert result.returncode == 1 and "wrong.yaml:" in result.stderr and "error[expect]: 命中 (hit): expected True, got False" in result.stderr
    assert "passed, 1 failed" in result.stderr


def test_odds_command_prints_the_distribution(monkeypatch):
    monkeypatch.setenv("RULEC_LANG", "zh")  # the lines it checks are the Chinese ones
    result = rulec("odds", "examples/d20/dagger_crit.yaml")
    assert result.returncode == 0
    assert "命中率：65.0000%" in result.stdout and "期望伤害：3.0500" in result.stdout
    data = json.loads(rulec("odds", "examples/dp/wang_vs_wu_miss.yaml", "--json").stdout)
    assert abs(sum(o["probability"] for o in data["outcomes"]) + data["dropped_tail_mass"] - 1) < 1e-12


def test_bad_scenario_gets_file_line_col(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: scenario\nruleset: dp\nprocedure: attack\ncombatants:\n  attacker: {力量: 99}\n"
                   "args: {weapon: 长剑x}\n", encoding="utf-8")
    result = rulec("resolve", str(bad))
    assert result.returncode == 1
    assert "bad.yaml:5:" in result.stderr and "99 is above the maximum 30" in result.stderr
    assert "bad.yaml:6:" in result.stderr and "长剑x" in result.stderr


@pytest.mark.parametrize("scenario", FIGHTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_worked_fight_through_the_cli(scenario: Path):
    """TR-60, TR-69: a worked sequence of actions, end to end; --json gives the fight's state."""
    spec = yaml.safe_load(scenario.read_text(encoding="utf-8"))
    result = rulec("resolve", str(scenario.relative_to(ROOT)), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    members = {m["name"]: m for m in data["members"]}
    if "until" in spec:
        assert abs(data["until"]["expected"] - spec["until"]["expect"]["expected"]) < 0.0005
    for name, want in spec.get("expect", {}).items():
        assert members[name]["counters"] == want.get("counters", members[name]["counters"])
        assert sorted(members[name]["states"]) == sorted(want.get("states", members[name]["states"]))


@pytest.mark.slow  # four resolve processes and two rebuilds of the bundled rules
def test_resolve_uses_the_built_package_and_rebuilds_it_when_stale(tmp_path: Path):
    """With an up-to-date generated/ beside rules/, resolve imports the built package (no compile);
    when rules/ changed since, it rebuilds generated/ (writing only what changed), says so, and the
    next call finds it up to date. A generated/ rulec may not write leaves the rules compiled in
    memory, and it says why."""
    import shutil

    for name in ("rules", "generated", "examples"):
        shutil.copytree(ROOT / name, tmp_path / name)
    run = lambda: subprocess.run([sys.executable, "-m", "rulec", "resolve", "examples/dp/rock_30m.yaml"],  # noqa: E731
                                 cwd=tmp_path, capture_output=True, text=True)
    fresh = run()
    assert fresh.returncode == 0 and "not up to date" not in fresh.stderr, fresh.stderr
    weapons = tmp_path / "rules" / "dp" / "tables" / "weapons.yaml"
    weapons.write_text(weapons.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    stale = run()
    assert stale.returncode == 0 and "generated was not up to date with rules/: rebuilt it" in stale.stderr
    assert stale.stdout == fresh.stdout
    again = run()
    assert again.returncode == 0 and "up to date" not in again.stderr and again.stdout == fresh.stdout
    weapons.write_text(weapons.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    (tmp_path / "generated" / ".git").mkdir()  # a folder rulec refuses to replace
    refused = run()
    assert refused.returncode == 0 and "cannot be rebuilt" in refused.stderr and refused.stdout == fresh.stdout


@pytest.mark.slow  # several seconds: CI's slow job
def test_resolve_with_broken_rules_reports_them_and_leaves_generated_alone(tmp_path: Path):
    import shutil

    for name in ("rules", "generated", "examples"):
        shutil.copytree(ROOT / name, tmp_path / name)
    weapons = tmp_path / "rules" / "dp" / "tables" / "weapons.yaml"
    weapons.write_text(weapons.read_text(encoding="utf-8").replace("damage: 3,", "damage: three,", 1), encoding="utf-8")
    stamp = (tmp_path / "generated" / ".rulec-stamp.json").read_bytes()
    result = subprocess.run([sys.executable, "-m", "rulec", "test", "examples/dp"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 1 and result.stderr.count("error[wrong-type]") == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert (tmp_path / "generated" / ".rulec-stamp.json").read_bytes() == stamp


@pytest.mark.slow  # several seconds: CI's slow job
def test_resolve_and_odds_start_without_click(tmp_path: Path):
    """`rulec resolve` and `rulec odds` with plain arguments run without importing click or
    jsonschema (entry.py, play.py, validate/quick_schema.py), and print what the click path prints."""
    scenario = "examples/dp/wang_vs_wu_miss.yaml"
    probe = ("import sys, runpy; sys.argv = ['rulec'] + sys.argv[1:]\n"
             "try:\n    runpy.run_module('rulec', run_name='__main__')\n"
             "except SystemExit as e:\n    code = e.code\n"
             "print('MODULES', 'click' in sys.modules, 'jsonschema' in sys.modules, code, file=sys.stderr)\n")
    for args in (["resolve", scenario], ["odds", scenario, "--json"], ["resolve", scenario, "--seed", "3"]):
        done = subprocess.run([sys.executable, "-c", probe, *args], cwd=ROOT, capture_output=True, text=True)
        assert "MODULES False False 0" in done.stderr, done.stderr
        from click.testing import CliRunner

        from rulec.cli.main import main

        via_click = CliRunner().invoke(main, args)
        assert via_click.exit_code == 0 and via_click.output == done.stdout
    bad = subprocess.run([sys.executable, "-c", probe, "resolve", scenario, "--bogus"], cwd=ROOT, capture_output=True,
                         text=True)
    assert "No such option" in bad.stderr  # click reports what the fast path does not take


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
