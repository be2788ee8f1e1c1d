"""The hand-written baselines of the benchmarks do the same work as the generated code they are
compared with: the same outcome, field for field, from the same seeded dice."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import baselines


def test_d20_specialised_matches_the_prepared_attack(d20):  # type: ignore[no-untyped-def]
    roll = d20.attack_prepare(d20.Combatant(strength=16, dexterity=14, proficiency=2), d20.Combatant(armor_class=15),
                              "longsword")
    a, b = d20.SeededDice(11), d20.SeededDice(11)
    assert all(roll(a) == baselines.d20_specialised(b.random) for _ in range(5000))


def test_dp_specialised_matches_the_prepared_attack(dp):  # type: ignore[no-untyped-def]
    wang = dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5)
    wu = dp.Combatant(basic_defense=8, armor_defense=4, parry_defense=6, basic_extras=2, armor_extras=1, parry_extras=1)
    roll = dp.attack_prepare(wang, wu, "fist", extra_speed=2, extra_armor_piercing=8)
    a, b = dp.SeededDice(11), dp.SeededDice(11)
    assert all(roll(a) == baselines.dp_specialised(b.random) for _ in range(5000))


def test_d20_dice_baseline_matches_the_prepared_attack(d20):  # type: ignore[no-untyped-def]
    """The fair baseline (the same dice object, `dice.die`) gives the generated outcome, roll for roll."""
    fighter = d20.Combatant(strength=16, dexterity=14, proficiency=2)
    roll = d20.attack_prepare(fighter, d20.Combatant(armor_class=15), "longsword")
    a, b = d20.SeededDice(7), d20.SeededDice(7)
    assert all(roll(a) == baselines.d20_specialised_dice(b) for _ in range(5000))


def test_js_fight_baseline_does_the_fights_work(built):  # type: ignore[no-untyped-def]
    """bench/js_bench_common.js checks, before timing, that its hand-written fight update gives
    the JS fight's counters, points, states and log over four applications (the fourth enters a
    state), and that its hand-written d20 attack gives the prepared attack's outcome: one tiny run
    of each in QuickJS (no Node needed), with the fresh build's single-file scripts."""
    import json
    from pathlib import Path

    import pytest

    quickjs = pytest.importorskip("quickjs")
    root = Path(__file__).resolve().parent.parent
    context = quickjs.Context()
    context.set_time_limit(60)
    for rs in ("d20", "tracks"):
        context.eval((built / "js" / rs / f"rulec_{rs}.user.js").read_text(encoding="utf-8"))
    if not context.eval("typeof rulec_tracks.start_fight === 'function'"):
        pytest.skip("the generated JavaScript has no fight yet")
    context.eval((root / "bench" / "js_bench_common.js").read_text(encoding="utf-8"))
    now = "function () { return Date.now() / 1000; }"
    out = json.loads(context.eval(f"JSON.stringify([preparedBench(rulec_d20, {now}, 1, 1), "
                                  f"fightBench(rulec_tracks, {now}, 1, 1)])"))
    assert set(out[0]) == {"prepared", "hand"} and set(out[1]) == {"apply", "hand_apply", "act", "hand_act"}


@pytest.mark.slow  # a build and both pages: CI's slow job
def test_the_in_process_build_floor_renders_the_pages(tmp_path: Path) -> None:
    """`python -m bench --only build` times the in-process floor, which renders rulec's own page
    templates from a view it prepares as `emit_reference` does: a field the templates come to read
    must be in that view too (the quick sheet's `source_title` once was not, and the group failed)."""
    from bench.build_scaling import ROOT, _floor
    from bench.make_pack import make_pack

    pack = tmp_path / "pack"
    make_pack(20, pack)
    assert _floor(pack, ROOT / "generated" / "schema" / "dp" / "weapons.schema.json") > 0
