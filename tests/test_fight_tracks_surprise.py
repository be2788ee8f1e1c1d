"""TR-F01: the surprise round's end (the seed's 「到所有目标都意识到彼此的存在并且都拥有敌意时」 and a
hider's noticeable action ending it early), played through the fight API."""

from __future__ import annotations

import pytest

ALL9 = [9] * 30


def ambush(tracks):
    f = tracks.start_fight({"甲": tracks.Combatant(strength=4, fighting=3),
                            "乙": tracks.Combatant(strength=4, fighting=3, basic_defense=3),
                            "丙": tracks.Combatant(dexterity=3)}, turns=True)
    for who in ("甲", "乙", "丙"):
        _, f = f.act("surprise_round", {"character": who})
    _, f = f.act("surprise", {"target": "乙"})
    return f


def test_tr_f01_a_hiders_noticeable_action_ends_the_surprise_round_for_everyone(tracks):
    """TR-F01 (TR-01): 「拥有隐藏能力的目标在进行过能被其他角色意识到的行为后，即使该角色并没有被人发现，
    也会导致突袭轮结束并进入到战斗轮阶段」: 突袭轮结束 ends every combatant's 突袭轮 at once — the
    turns after it are six-second combat-round turns — and, by the ruling
    surprise_end_frees_surprised, the surprised 乙 is no longer 定身."""
    f = ambush(tracks)
    a, f = f.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", dice=tracks.FixedDice(ALL9))
    assert f.left("甲") == "0秒"  # a surprise-round turn: 3 s
    e, f = f.act("end_surprise", {"character": "丙"})
    assert e.result.ended and e.result.frees_surprised
    assert all(m.conditions == () for m in f.members)
    assert "乙的突袭轮结束（突袭轮结束）" in f.log and "乙的被突袭结束（突袭轮结束）" in f.log
    assert f.effective("乙").basic_defense == 3
    f = f.next_turn()  # 乙's turn: a six-second combat-round turn, and it may act
    _, f = f.act("attack", {"attacker": "乙", "defender": "甲"}, weapon="fist", dice=tracks.FixedDice(ALL9))
    assert f.left("乙") == "3秒"


def test_tr_f01_without_a_noticeable_action_the_surprise_round_lasts_its_round(tracks):
    """TR-F01: otherwise 「一般来说，当每个加入突袭轮的角色都进行过自己的回合后突袭轮就会结束」; when all
    become aware and hostile (hidden_action false) it ends the same way."""
    f = ambush(tracks)
    g = f.next_turn()
    assert [c.id for c in g.member("甲").conditions] == ["surprise_round"]
    g = g.next_turn().next_turn()  # round 2
    assert all(m.conditions == () for m in g.members)
    e, h = f.act("end_surprise", {"character": "甲"}, hidden_action=False)
    assert "所有目标都意识到彼此的存在" in e.result.text() and all(m.conditions == () for m in h.members)


@pytest.mark.slow
def test_tr_f01_everyone_goes_only_with_clear(tmp_path, monkeypatch):
    """TR-F01: `everyone: true` (end a condition on every combatant) is checked at build time: only
    a clear effect takes it."""
    import shutil
    from pathlib import Path

    from rulec.build.facade import compile_rules

    monkeypatch.setenv("RULEC_LANG", "en")
    copy = tmp_path / "tracks"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rules" / "tracks", copy)
    flow = copy / "procedures" / "flow.yaml"
    text = flow.read_text(encoding="utf-8")
    old = "      - {target: target, condition: surprised}\n"
    assert old in text
    flow.write_text(text.replace(old, "      - {target: target, condition: surprised, everyone: true}\n"),
                    encoding="utf-8")
    out = "\n".join(d.format() for d in compile_rules([copy]).diagnostics)
    assert "flow.yaml:" in out and "everyone goes only with a clear effect" in out
