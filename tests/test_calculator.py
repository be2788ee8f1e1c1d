"""The calculator pages (reference/<ruleset>-calc.html) in the system Chromium, driven by Playwright:
offline (a strict CSP, no request), at phone and desktop widths, and showing the numbers the
generated Python package computes for the same inputs (DP-01 the attack contest, the pages'
balancing presets of ruleset.yaml as defaults, the URL keeping the choice)."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulec.emit.calculator import CSP, _json_block, _inline_script, CalculatorError, calc_page_name
from markupsafe import escape

from rulec.emit.until_states import expected_until_states
from rulec.runtime.fight_odds import expected_attacks
from every_ruleset import RULESETS

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/install_chromium.sh)")

WIDTHS = [(390, 844), (1280, 900)]


def test_escaping_of_data_and_script():
    block = _json_block({"name": "</script><!-- \u2028 & <b>"})
    assert "<" not in block and ">" not in block and "\u2028" not in block
    assert json.loads(str(block)) == {"name": "</script><!-- \u2028 & <b>"}
    assert str(_inline_script("var a = 1; // </SCRIPT><script><!--")) == "var a = 1; // ＜/SCRIPT>＜script>＜!--"
    with pytest.raises(CalculatorError):
        _inline_script("var a = '</script>'; // x")
    with pytest.raises(CalculatorError):
        _inline_script("<!-- x")


def test_pages_are_built_and_linked(built: Path):
    for rs in RULESETS:
        page = (built / "reference" / calc_page_name(rs)).read_text(encoding="utf-8")
        assert f'content="{escape(CSP)}"' in page
        assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page
        assert f'href="{calc_page_name(rs)}"' in (built / "reference" / f"{rs}.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (.ci/install_chromium.sh)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _open(browser: Any, page: Path, width: int, height: int, hash_: str = "") -> tuple[Any, list[str]]:
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 600,
                              has_touch=width < 600)
    pg = ctx.new_page()
    pg.set_default_timeout(5000)
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: problems.append(f"error: {e}"))
    pg.on("request", lambda r: problems.append(f"request: {r.url}") if r.url != page.as_uri() + hash_ and
          not r.url.startswith(page.as_uri()) else None)
    pg.goto(page.as_uri() + hash_)
    pg.wait_for_selector("#trace, #roll-error, #calc-error")
    return pg, problems


def _value(pg: Any, selector: str) -> float | None:
    text = pg.get_attribute(selector, "data-value")
    return None if text in (None, "") else float(text)


def _pct(p: float) -> str:
    return f"{p * 100:.2f}%"


def _num(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def _until(odds: Any, at: int) -> float | None:
    mean = expected_attacks({int(v): p for v, p in odds.marginal("damage").items()}, at)
    return None if mean is None or mean > 1000 else mean


def _check(pg: Any, odds: Any, at: int) -> None:
    assert math.isclose(_value(pg, "#hit b") or 0.0, odds.hit_probability, rel_tol=1e-9, abs_tol=1e-12)
    assert pg.inner_text("#hit b") == _pct(odds.hit_probability)
    assert math.isclose(_value(pg, "#damage b") or 0.0, odds.expected_damage, rel_tol=1e-9, abs_tol=1e-12)
    assert pg.inner_text("#damage b") == _num(odds.expected_damage)
    want = _until(odds, at)
    got = _value(pg, "#until b")
    assert (got is None) == (want is None) and (want is None or math.isclose(got or 0.0, want, rel_tol=1e-9))
    assert pg.inner_text("#until b") == _num(want)
    shown = {int(r[0]): float(r[1]) for r in pg.eval_on_selector_all(
        "#distribution tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.dataset.value))")}
    marginal = odds.marginal("damage")
    assert shown.keys() == {int(k) for k in marginal}
    assert all(math.isclose(shown[int(k)], p, rel_tol=1e-9, abs_tol=1e-15) for k, p in marginal.items())
    assert pg.locator("svg.chart rect").count() == len(marginal)


@needs_browser
@pytest.mark.slow  # several seconds: CI's slow job
@pytest.mark.parametrize("width,height", WIDTHS, ids=["phone", "desktop"])
def test_dp_defaults_match_the_python_package(browser: Any, built: Path, dp: Any, width: int, height: int):
    """DP-01: the preset of ruleset.yaml (attacker stats, distance 5, defender armour 2 and parry 1)."""
    pg, problems = _open(browser, built / "reference" / "dp-calc.html", width, height)
    attacker = dp.Combatant.from_dict({"力量": 4, "敏捷": 4, "智力": 3, "武技": 4, "运动": 3, "射击": 4, "器用": 3,
                                       "专业": 2, "攻击附加成功": 1})
    defender = dp.Combatant.from_dict({"盔甲防御": 2, "格挡防御": 1})
    weapon = pg.input_value("select[name=weapon]")
    odds = dp.attack_odds(attacker, defender, weapon, distance=5)
    _check(pg, odds, 10)
    # the defender spread of the balancing table, every row
    rows = pg.eval_on_selector_all("#spread tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.dataset.value))")
    for value, row in zip([0, 2, 4, 6, 8, 10, 12, 14], rows):
        d = dp.Combatant.from_dict({"盔甲防御": 2, "格挡防御": 1, "基础防御": value})
        o = dp.attack_odds(attacker, d, weapon, distance=5)
        assert int(row[0]) == value
        assert math.isclose(float(row[1]), o.hit_probability, rel_tol=1e-9, abs_tol=1e-12)
        assert math.isclose(float(row[2]), o.expected_damage, rel_tol=1e-9, abs_tol=1e-12)
    # the roll with its trace: the same seed gives the same dice and the same sentences
    trace = dp.attack(attacker, defender, weapon, distance=5, dice=dp.SeededDice(1)).text()
    assert pg.inner_text("#trace").strip() == trace.strip()
    assert pg.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1, "no sideways scrolling"
    assert problems == []
    pg.context.close()


@needs_browser
@pytest.mark.slow  # an integration run of several seconds: CI's slow job
@pytest.mark.parametrize("width,height", WIDTHS, ids=["phone", "desktop"])
def test_choices_are_kept_in_the_url(browser: Any, built: Path, dp: Any, width: int, height: int):
    """A shared link reopens the same choice: a weapon, changed stats, a called shot, an option, a seed."""
    page = built / "reference" / "dp-calc.html"
    pg, problems = _open(browser, page, width, height)
    weapon = next(e.id for e in dp.WEAPONS.values() if e.attack_type.id == "melee" and e.damage >= 2)
    pg.select_option("select[name=weapon]", weapon)
    pg.fill("input[name='attacker.strength']", "7")
    pg.fill("input[name='defender.basic_defense']", "3")
    pg.select_option("select[name=called_shot]", "head")
    pg.check("input[name=power_attack]")
    pg.fill("input[name=until]", "15")
    pg.fill("input[name=seed]", "42")
    link = pg.evaluate("location.hash")
    assert "weapon=" + weapon in link and "called_shot=head" in link
    pg.context.close()
    pg, problems2 = _open(browser, page, width, height, link)
    attacker = dp.Combatant.from_dict({"力量": 7, "敏捷": 4, "智力": 3, "武技": 4, "运动": 3, "射击": 4, "器用": 3,
                                       "专业": 2, "攻击附加成功": 1})
    defender = dp.Combatant.from_dict({"盔甲防御": 2, "格挡防御": 1, "基础防御": 3})
    kwargs = {"distance": 5, "called_shot": "head", "power_attack": True}
    _check(pg, dp.attack_odds(attacker, defender, weapon, **kwargs), 15)
    trace = dp.attack(attacker, defender, weapon, dice=dp.SeededDice(42), **kwargs).text()
    assert pg.inner_text("#trace").strip() == trace.strip()
    assert problems == [] and problems2 == []
    pg.context.close()


@needs_browser
@pytest.mark.slow  # several seconds of building: CI's slow job
def test_a_refused_choice_shows_the_rules_message(browser: Any, built: Path, dp: Any):
    """DP-20: past the greatest range the module's own error message is shown, no number."""
    bow = next(e for e in dp.WEAPONS.values() if e.base_range > 0 and e.attack_type.id == "bow")
    pg, problems = _open(browser, built / "reference" / "dp-calc.html", 1280, 900,
                         f"#p=attack&weapon={bow.id}&distance=100000")
    assert re.search("射程", pg.inner_text("#calc-error"))
    assert problems == []
    pg.context.close()


@needs_browser
@pytest.mark.slow  # several seconds of building: CI's slow job
@pytest.mark.parametrize("ruleset,fixture", [("d20", "d20"), ("tracks", "tracks")])
def test_other_rulesets_match(browser: Any, built: Path, request: pytest.FixtureRequest, ruleset: str, fixture: str):
    mod = request.getfixturevalue(fixture)
    rs_preset = {"d20": ({"attacker": {"力量": 16, "敏捷": 16, "熟练加值": 2}}, 5, 20),
                 "tracks": ({"attacker": {"力量": 4, "敏捷": 4, "感知": 3, "智力": 3, "格斗": 3, "武器": 3, "投掷": 3,
                                          "弓箭": 3, "能量技艺": 3}}, 3, 10)}[ruleset]
    pg, problems = _open(browser, built / "reference" / f"{ruleset}-calc.html", 390, 844)
    combatants, distance, at = rs_preset
    kwargs: dict[str, Any] = {"distance": distance}
    for pid, _name, ptype in mod.PROCEDURE_INFO["attack"]["params"]:
        if ptype == "combatant":
            kwargs[pid] = mod.Combatant.from_dict(combatants.get(pid, {}))
        elif ptype == "weapons":
            kwargs[pid] = pg.input_value(f"select[name={pid}]")
    _check(pg, mod.attack_odds(**kwargs), at)
    assert pg.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    assert problems == []
    pg.context.close()


def _states(pg: Any) -> list[tuple[str, float | None]]:
    rows = pg.eval_on_selector_all("#states tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.dataset.value))")
    return [(label, None if value == "" else float(value)) for label, value in rows]


def _same_states(got: list[tuple[str, float | None]], want: list[tuple[str, float | None]]) -> bool:
    return [g[0] for g in got] == [w[0] for w in want] and all(
        (g is None) == (w is None) and (g is None or math.isclose(g, w or 0.0, rel_tol=1e-9, abs_tol=1e-12))
        for (_, g), (_, w) in zip(got, want))


def _page_kwargs(pg: Any, mod: Any, procedure: str, combatants: dict[str, dict[str, Any]],
                 **options: Any) -> dict[str, Any]:
    """The page's inputs as the Python package takes them: the combatants' stats, each table choice
    the page made (its select), and `options`."""
    kwargs: dict[str, Any] = dict(options)
    for pid, _name, ptype in mod.PROCEDURE_INFO[procedure]["params"]:
        if ptype == "combatant":
            kwargs[pid] = mod.Combatant.from_dict(combatants.get(pid, {}))
        elif pid not in kwargs and pg.locator(f"select[name={pid}]").count():
            value = pg.input_value(f"select[name={pid}]")
            if value:
                kwargs[pid] = value
    return kwargs


@needs_browser
@pytest.mark.slow  # several seconds: CI's slow job
@pytest.mark.parametrize("width,height", WIDTHS, ids=["phone", "desktop"])
def test_tr50_tr51_attacks_until_each_state_match_until_plan(browser: Any, built: Path, tracks: Any, width: int,
                                                             height: int):
    """TR-50/TR-51: an attack on the eyes — the expected attacks until 10 damage and until 目盲 (the
    目眩 track's state), computed in the browser by the JavaScript fight's until_plan, equal the
    Python package's; the states the eyes cannot reach show "—"."""
    pg, problems = _open(browser, built / "reference" / "tracks-calc.html", width, height, "#part=eyes")
    attacker = {"力量": 4, "敏捷": 4, "感知": 3, "智力": 3, "格斗": 3, "武器": 3, "投掷": 3, "弓箭": 3, "能量技艺": 3}
    kwargs = _page_kwargs(pg, tracks, "attack", {"attacker": attacker}, distance=3, part="eyes")
    want = expected_until_states(tracks, "attack", kwargs, tracks.attack_odds(**kwargs), 10, "造成10点伤害")
    got = _states(pg)
    assert _same_states(got, want), (got, want)
    shown = dict(got)
    assert shown["目盲（目眩）"] is not None and shown["耳聋（耳鸣）"] is None
    assert "—" in pg.inner_text("#states")
    assert pg.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    assert problems == []
    pg.context.close()


@needs_browser
@pytest.mark.slow  # several seconds: CI's slow job
def test_dp_f05_trip_shows_attacks_until_prone(browser: Any, built: Path, dp: Any):
    """DP-F05: 绊摔 is offered for its condition: the expected tries until 倒地 equal the package's."""
    pg, problems = _open(browser, built / "reference" / "dp-calc.html", 1280, 900, "#p=trip")
    kwargs = _page_kwargs(pg, dp, "trip", {})
    want = expected_until_states(dp, "trip", kwargs, dp.trip_odds(**kwargs), 0, "")
    got = _states(pg)
    assert _same_states(got, want), (got, want)
    assert dict(got)["倒地"] is not None
    assert problems == []
    pg.context.close()


@needs_browser
@pytest.mark.slow  # several seconds of building: CI's slow job
def test_hostile_names_are_shown_as_text(browser: Any, tmp_path: Path):
    """Rule text that looks like markup or script reaches the page as text: nothing runs, the name is shown."""
    from rulec.build.facade import compile_rules

    rules = tmp_path / "dp"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rules" / "dp", rules)
    hostile = "</script><script>globalThis.__pwned=1</script><img src=x onerror=__pwned=2><!--"
    weapons = rules / "tables" / "weapons.yaml"
    text = weapons.read_text(encoding="utf-8")
    weapons.write_text(text.replace("{id: fist, name: 拳,", "{id: fist, name: " + json.dumps(hostile) + ",", 1),
                       encoding="utf-8")
    build = compile_rules([rules], targets=("python",))
    assert build.ok, [d.format() for d in build.diagnostics]
    page = tmp_path / "dp-calc.html"
    page.write_bytes(build.files["reference/dp-calc.html"])
    pg, problems = _open(browser, page, 1280, 900)
    assert pg.evaluate("globalThis.__pwned === undefined")
    assert pg.eval_on_selector("select[name=weapon] option[value=fist]", "o => o.textContent") == hostile
    assert problems == []
    pg.context.close()
