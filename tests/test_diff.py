"""`rulec diff OLD NEW`: entries, rulings and the balance (DP-01 the attack contest, DP-32 called
shots) between two rule folders, packs or git revisions; exit 0 / 1 / 2 as diff(1)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulec.cli.main import main
from rulec.cli.diff import compare, render
from rulec.cli.diff.sides import SideError, side
from rulec.runtime.fight_odds import expected_attacks

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"

ATTACKER = {"力量": 4, "敏捷": 4, "智力": 3, "武技": 4, "运动": 3, "射击": 4, "器用": 3, "专业": 2, "攻击附加成功": 1}
DEFENDER = {"盔甲防御": 2, "格挡防御": 1}
SPREAD = [0, 2, 4, 6, 8, 10, 12, 14]


def _copy(tmp: Path, name: str) -> Path:
    target = tmp / name / "dp"
    shutil.copytree(RULES / "dp", target)
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _report(old: Path, new: Path) -> dict[str, Any]:
    return compare.report(compare.compile_side("old", [old]), compare.compile_side("new", [new]))


def _expected(dp: Any, weapon: Any, **kwargs: Any) -> list[list[float | None]]:
    """Hit chance, expected damage and expected attacks to 10 damage over the defender spread, from
    the generated Python package (the attack's own odds and the fight runtime's chain)."""
    attacker = dp.Combatant.from_dict(ATTACKER)
    rows: list[list[float | None]] = [[], [], []]
    for value in SPREAD:
        odds = dp.attack_odds(attacker, dp.Combatant.from_dict({**DEFENDER, "基础防御": value}), weapon,
                              distance=5, **kwargs)
        rows[0].append(odds.hit_probability)
        rows[1].append(odds.expected_damage)
        mean = expected_attacks({int(v): p for v, p in odds.marginal("damage").items()}, 10)
        rows[2].append(None if mean is None or mean > 1000 else mean)
    return rows


def _close(got: list[float | None], want: list[float | None]) -> bool:
    return all((g is None) == (w is None) and (g is None or math.isclose(g, w or 0.0, rel_tol=1e-9, abs_tol=1e-12))
               for g, w in zip(got, want, strict=True))


@pytest.fixture(scope="module")
def damage_edit(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("diff-damage")
    new = _copy(tmp, "new")
    _edit(new / "tables" / "weapons.yaml", "{id: long_sword, name: 长剑, attack_type: melee, damage: 3,",
          "{id: long_sword, name: 长剑, attack_type: melee, damage: 4,")
    return _report(RULES / "dp", new)


def test_one_weapon_damage_edit_shows_exactly_that_weapon(damage_edit: dict[str, Any], dp: Any):
    """DP-01: the long sword's damage 3 -> 4, and nothing else, with the deltas the package gives."""
    assert damage_edit["changed"]
    (rs,) = damage_edit["rulesets"]
    assert rs["status"] == "changed" and rs["rulings"] == []
    (entry,) = rs["entries"]
    assert (entry["table"], entry["id"], entry["change"]) == ("weapons", "long_sword", "changed")
    assert entry["fields"] == [{"field": "damage", "name": "武器伤害", "old": 3, "new": 4}]
    (odds,) = entry["odds"]
    before = dp.WEAPONS["long_sword"]
    old = _expected(dp, before)
    new = _expected(dp, before._replace(damage=4))
    for k, metric in enumerate(("hit", "damage", "until")):
        assert _close(odds[metric]["old"], old[k]) and _close(odds[metric]["new"], new[k])
        want = [None if a is None or b is None else b - a for a, b in zip(old[k], new[k])]
        assert _close(odds[metric]["delta"], want)
    assert new[1][0] > old[1][0]  # more damage, as it should
    text = render.text(damage_edit)
    assert "长剑" in text and "武器伤害 3→4" in text and "命中率" in text and "期望攻击次数" in text
    assert text.count("修改  ") == 1


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_added_removed_ruling_and_called_shot(tmp_path: Path, dp: Any):
    """Entries added and removed, a ruling changed, and a called shot (DP-32) measured with the
    preset's first weapon."""
    new = _copy(tmp_path, "new")
    weapons = new / "tables" / "weapons.yaml"
    text = weapons.read_text(encoding="utf-8")
    knuckles = next(line for line in text.splitlines() if "{id: knuckles," in line)
    weapons.write_text(text.replace(knuckles + "\n", "") + "  - {id: club, name: 短棍, attack_type: melee, damage: 2, "
                       "damage_type: blunt, strength: 1, size: 1, rules: [DP-11]}\n", encoding="utf-8")
    _edit(new / "rulings.yaml", "{key: power_attack_bonus, ruling: R11, name: 全力一击加值, value: 2,",
          "{key: power_attack_bonus, ruling: R11, name: 全力一击加值, value: 3,")
    _edit(new / "tables" / "called_shots.yaml", "{id: head, name: 头部, penalty: 3,", "{id: head, name: 头部, penalty: 4,")
    result = _report(RULES / "dp", new)
    (rs,) = result["rulesets"]
    by_id = {(e["table"], e["id"]): e for e in rs["entries"]}
    assert by_id[("weapons", "club")]["change"] == "added" and by_id[("weapons", "club")]["odds"]
    assert by_id[("weapons", "knuckles")]["change"] == "removed"
    head = by_id[("called_shots", "head")]
    assert head["fields"] == [{"field": "penalty", "name": "减值", "old": 3, "new": 4}]
    assert rs["presets"][0]["reference"] == "拳"
    (odds,) = head["odds"]
    assert _close(odds["hit"]["old"], _expected(dp, "fist", called_shot="head")[0])
    assert set(by_id) == {("weapons", "club"), ("weapons", "knuckles"), ("called_shots", "head")}
    (ruling,) = rs["rulings"]
    assert (ruling["key"], ruling["old"], ruling["new"], ruling["change"]) == ("power_attack_bonus", 2, 3, "changed")
    assert rs["counts"] == {"added": 1, "removed": 1, "changed": 1}
    page = render.html(result)
    assert "<svg" in page and "短棍" in page and "<script" not in page


TRACKS_ATTACKER = {"力量": 4, "敏捷": 4, "感知": 3, "智力": 3, "格斗": 3, "武器": 3, "投掷": 3, "弓箭": 3, "能量技艺": 3}
TRACKS_SPREAD = [0, 2, 4, 6, 8, 10]


def _until_state(pkg: Any, weapon: str, part: str, target: dict[str, Any]) -> list[float | None]:
    """Expected attacks, one a turn, until `target` over the tracks preset's spread: the package's
    own fight (`until_plan`), as a GM would ask it."""
    out: list[float | None] = []
    for value in TRACKS_SPREAD:
        fight = pkg.start_fight({"角色1": pkg.Combatant.from_dict(TRACKS_ATTACKER),
                                 "角色2": pkg.Combatant.from_dict({"基础防御": value})})
        step = {"procedure": "attack", "roles": {"attacker": "角色1", "defender": "角色2"}, "end_turn": True,
                "options": {"weapon": weapon, "distance": 3, "part": part}}
        chain = fight.until_plan([step], {"who": "角色2", **target}, max_actions=200)
        out.append(chain.expected if chain.tail <= 1e-9 else None)
    return out


@pytest.mark.slow  # two builds of the tracks ruleset and its chains: CI's slow job
def test_tr50_tr51_called_part_shows_attacks_until_each_state(tmp_path: Path, tracks: Any):
    """TR-50/TR-51: the eyes' size offset 3 -> 2 changes the expected attacks until 目盲 (the 目眩
    track's state) and until the damage total, each equal to the package's until_plan; states the
    eyes cannot reach (耳聋 of the ears' 耳鸣) are listed with no number ("—")."""
    new = tmp_path / "new" / "tracks"
    shutil.copytree(RULES / "tracks", new)
    _edit(new / "tables" / "body_parts.yaml", "{id: eyes, name: 眼睛, size_offset: 3,", "{id: eyes, name: 眼睛, size_offset: 2,")
    result = compare.report(compare.compile_side("old", [RULES / "tracks"]), compare.compile_side("new", [new]))
    (rs,) = result["rulesets"]
    eyes = next(e for e in rs["entries"] if (e["table"], e["id"]) == ("body_parts", "eyes"))
    odds = next(o for o in eyes["odds"] if o["preset"] == 0)
    weapon = next(e.id for e in tracks.WEAPONS.values() if e.name == rs["presets"][0]["reference"])
    blind = odds["states"]["目盲（目眩）"]
    assert _close(blind["old"], _until_state(tracks, weapon, "eyes", {"state": "blind"}))
    known = [d for d in blind["delta"] if d is not None]
    assert known and all(d < 0 for d in known)  # a smaller penalty: 目盲 sooner
    assert blind["old"][2] is None and blind["new"][2] is not None  # and now within reach against 4
    total = odds["states"]["造成10点伤害"]
    assert _close(total["old"], _until_state(tracks, weapon, "eyes", {"counter": "damage", "at_least": 10}))
    assert _close(total["old"], odds["until"]["old"])
    deaf = odds["states"]["耳聋（耳鸣）"]
    assert deaf["old"] == deaf["new"] == [None] * len(TRACKS_SPREAD)
    text = render.text(result)
    assert "目盲（目眩） 7.08→5.44（-1.64）" in text and "耳聋" not in text  # the states neither side reaches: JSON only
    assert "目盲（目眩）所需的期望攻击次数" in render.html(result)


def test_states_cell_shows_the_states_either_side_reaches():
    """The terminal cell of the states: each state's mean old→new (change); one neither side reaches
    and the damage total (a column of its own) are left out; "—" when nothing is left."""
    odds = {"states": {"造成10点伤害": {"old": [4.0, 5.0], "new": [4.0, 5.0], "delta": [0.0, 0.0]},
                       "目盲（目眩）": {"old": [4.0, 6.0], "new": [3.0, 5.0], "delta": [-1.0, -1.0]},
                       "定身（麻痹）": {"old": [None, None], "new": [None, 8.0], "delta": [None, None]},
                       "耳聋（耳鸣）": {"old": [None, None], "new": [None, None], "delta": [None, None]}}}
    assert render.states_cell(odds, "造成10点伤害") == "目盲（目眩） 5.00→4.00（-1.00）；定身（麻痹） —→8.00"
    assert render.states_cell({"states": {}}) == "—"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(repo), "PATH": "/usr/bin:/bin"})


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.slow  # an integration run of several seconds: CI's slow job
def test_git_revisions_json_and_exit_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """HEAD~1 against HEAD (a revision alone means its rules/), and REV:PATH; --format json; the
    exit status 0 / 1 / 2; --html writes the page."""
    repo = tmp_path / "repo"
    shutil.copytree(RULES / "d20", repo / "rules" / "d20")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    weapons = repo / "rules" / "d20" / "tables" / "weapons.yaml"
    text = weapons.read_text(encoding="utf-8")
    weapons.write_text(text.replace("attack_type: melee, damage_dice: 1d8,", "attack_type: melee, damage_dice: 1d10,", 1), encoding="utf-8")
    assert weapons.read_text(encoding="utf-8") != text
    _git(repo, "commit", "-qam", "two")
    monkeypatch.chdir(repo)
    runner = CliRunner()
    out = runner.invoke(main, ["diff", "HEAD~1", "HEAD:rules", "--format", "json", "--html", "diff.html"])
    assert out.exit_code == 1, out.output
    data = json.loads(out.stdout)
    assert set(data) == {"old", "new", "changed", "rulesets"} and data["changed"] is True
    (rs,) = data["rulesets"]
    assert set(rs) >= {"id", "name", "status", "presets", "counts", "entries", "rulings", "truncated"}
    changed = [e for e in rs["entries"] if e["fields"]]
    assert len(changed) == 1 and changed[0]["fields"][0]["old"] == "1d8" and changed[0]["fields"][0]["new"] == "1d10"
    (odds,) = changed[0]["odds"]
    assert set(odds) == {"preset", "hit", "damage", "until", "states"}
    assert all(d is None or d > 0 for d in odds["damage"]["delta"])
    assert (repo / "diff.html").read_text(encoding="utf-8").count("<svg") >= 1
    same = runner.invoke(main, ["diff", "HEAD", "rules"])
    assert same.exit_code == 0, same.output
    assert "没有变化" in same.stdout
    bad = runner.invoke(main, ["diff", "HEAD", "no-such-revision"])
    assert bad.exit_code == 2 and "no such revision" in bad.output


def test_a_side_that_does_not_compile_is_exit_2(tmp_path: Path):
    new = _copy(tmp_path, "new")
    _edit(new / "tables" / "called_shots.yaml", "{id: head, name: 头部, penalty: 3,", "{id: head, name: 头部, penalty: 300,")
    out = CliRunner().invoke(main, ["diff", str(RULES / "dp"), str(new)])
    assert out.exit_code == 2
    assert "called_shots.yaml" in out.output


def test_revision_arguments_are_checked(tmp_path: Path):
    with pytest.raises(SideError):
        side("-rf", tmp_path)
    with pytest.raises(SideError):
        side("HEAD:../etc", ROOT)
    with pytest.raises(SideError):
        side("x" * 600, ROOT)
