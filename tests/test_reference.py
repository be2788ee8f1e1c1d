"""Reference pages: escaping of any text from YAML, the rule index, stable anchors, odds presets."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules
from every_ruleset import BUNDLED, INDEXED, declares_odds, folder

ROOT = Path(__file__).resolve().parent.parent
TINY = Path(__file__).resolve().parent / "cases" / "valid_tiny" / "rules" / "tiny"
NASTY = "<script>alert('x')</script> | *粗* `代码` {{ 模板 }} {% if %} [链接](http://x) 换\n行"


def test_text_from_yaml_is_escaped_everywhere(tmp_path: Path):
    rs = tmp_path / "tiny"
    shutil.copytree(TINY, rs)
    weapons = rs / "weapons.yaml"
    text = weapons.read_text(encoding="utf-8")
    nasty_yaml = NASTY.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    text = text.replace('description: "名称含 <script>alert(1)</script> | * ` 的说明"', f'description: "{nasty_yaml}"')
    text = text.replace("name: 棍,", 'name: "棍<b>|*`{{x}}",')
    weapons.write_text(text, encoding="utf-8")
    build = compile_rules([rs])
    assert build.ok, [d.format() for d in build.diagnostics]
    html = build.files["reference/tiny.html"].decode()
    md = build.files["reference/tiny.md"].decode()
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "{{ 模板 }}" in html and "{% if %}" in html  # template syntax shows as written
    assert "棍&lt;b&gt;|*`{{x}}" in html
    HTMLParser().feed(html)  # well-formed enough to parse
    assert "<script>" not in md and "&lt;script&gt;" in md
    row = next(line for line in md.splitlines() if "weapons-club" in line)
    assert row.count("|") - row.count("\\|") == 5, "a | inside a name must not add a table column"
    assert "\\*粗\\*" in md and "\\`代码\\`" in md and "换<br>行" in md
    model = build.files["tiny/rulec_tiny/model.py"].decode()
    compile(model, "model.py", "exec")  # strings reach Python only through repr


@pytest.mark.parametrize("ruleset", INDEXED)
def test_every_rule_id_is_indexed_and_described(ruleset: str, built: Path):
    """Every ruleset with a rule inventory (rules.yaml): each of its seed rule ids (DP-12, D20-03,
    TR-41, ...) is in its page's rule index, and something on the page cites it."""
    inventory = (folder(ruleset) / "rules.yaml").read_text(encoding="utf-8")
    ids = re.findall(r"\bid: ([A-Z][A-Z0-9]*-\d+)\b", inventory)
    assert ids
    page = (built / "reference" / f"{ruleset}.md").read_text(encoding="utf-8")
    index = page[page.index('<a id="rule-index"></a>'):]
    for rid in ids:
        line = next((ln for ln in index.splitlines() if f'id="rule-{rid.lower()}"' in ln), None)
        assert line is not None, f"{rid} is not in the rule index"
        assert "](#" in line, f"{rid} is indexed but nothing on the page cites it"


def test_anchors_come_from_ids_and_survive_new_entries(tmp_path: Path):
    rs = tmp_path / "tiny"
    shutil.copytree(TINY, rs)
    before = compile_rules([rs]).files["reference/tiny.md"].decode()
    weapons = rs / "weapons.yaml"
    weapons.write_text(weapons.read_text(encoding="utf-8").replace(
        "entries:\n", "entries:\n  - {id: axe, name: 斧, damage: 2}\n"), encoding="utf-8")
    after = compile_rules([rs]).files["reference/tiny.md"].decode()
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', before))
    assert anchors and anchors <= set(re.findall(r'<a id="([^"]+)"></a>', after))
    assert 'id="weapons-axe"' in after


def test_odds_tables_on_the_pages():
    page = (ROOT / "generated" / "reference" / "d20.md").read_text(encoding="utf-8")
    assert "## 武器对护甲等级的命中与期望伤害" in page
    page = page.split("## 武器对护甲等级的命中与期望伤害")[1]
    row = next(line for line in page.splitlines() if line.startswith("| [长剑](#weapons-longsword)"))
    assert "| 55.0% / 4.35 |" in row  # +5 vs AC 15: 11/20 hit for 1d8+3, 1/20 crit for 2d8+3
    assert (ROOT / "generated" / "reference" / "charts" / "d20-1-martial.svg").is_file()


def test_an_odds_preset_must_give_every_parameter_without_a_default(tmp_path: Path):
    rs = tmp_path / "d20"
    shutil.copytree(ROOT / "rules" / "d20", rs)
    attack = rs / "procedures" / "attack.yaml"
    text = attack.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if "id: thrown" in x)
    attack.write_text(text.replace(line, line.replace(", default: false", "")), encoding="utf-8")
    build = compile_rules([rs])
    assert not build.ok and not build.files
    [diag] = [d for d in build.diagnostics if d.code == "missing-arg"]
    assert diag.span.file.endswith("ruleset.yaml") and "'thrown'" in diag.message


@pytest.mark.parametrize(("old", "new", "says"), [
    ("attacker: {力量: 4,", "attacker: {力量: false,", "stat '力量' is a whole-number stat: give a whole number, not false"),
    ("attacker: {力量: 4,", "attacker: {力量: 400,", "400 is outside the range of stat '力量', 0..30"),
    ("attacker: {力量: 4,", "attacker: {力量: 4, 无助: 3,", "stat '无助' is a true/false stat: give true or false, not 3"),
    ("values: [0, 2, 4, 6, 8, 10]", "values: [0, 2, 4, 6, 8, 999]", "999 is outside the range of stat '基础防御', 0..60"),
    ("vary: {target: defender.basic_defense", "vary: {target: defender.helpless",
     "'defender.helpless' is a true/false stat: it cannot be varied over whole numbers"),
])
def test_an_odds_presets_stats_are_of_their_type_and_range(tmp_path: Path, old: str, new: str, says: str):
    """The combatants an odds preset gives, and the values it varies a stat over, are checked
    against the stats as the generated `Combatant` checks them: a file:line:col diagnostic, never
    an internal error when the pages' odds are computed (found by tests/test_fuzz.py)."""
    rs = tmp_path / "tracks"
    shutil.copytree(ROOT / "rules" / "tracks", rs)
    manifest = rs / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert old in text
    manifest.write_text(text.replace(old, new, 1), encoding="utf-8")
    build = compile_rules([rs])
    assert not build.ok and not build.files
    [diag] = build.diagnostics
    assert diag.code == "bad-stat-value" and diag.span.file.endswith("ruleset.yaml") and diag.span.line >= 44
    assert diag.message == says


def test_special_int_values_are_named_and_identical_curves_merged():
    """An int field's `labels` name its special values on the page (dp's speed −1 is 'the attack
    type's'), and weapons with the same curve are one line named together, not hidden lines."""
    page = (ROOT / "generated" / "reference" / "dp.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if "**长剑**" in line)
    assert "| 同攻击类型 |" in row and "| -1 |" not in row
    assert "曲线重合：长剑、双手剑、长矛、钩镰枪" in page
    svg = (ROOT / "generated" / "reference" / "charts" / "dp-1-melee.svg").read_text(encoding="utf-8")
    assert svg.count("<polyline") == 2 and "<title>长剑、双手剑、长矛、钩镰枪</title>" in svg


def test_what_is_not_computed_is_on_the_page():
    """No silent gaps: every sub-rule no procedure computes is declared (ruleset `not_modelled`)
    and listed on the page with its rule ids and reason; a ruling nothing reads says so too."""
    page = (ROOT / "generated" / "reference" / "dp.md").read_text(encoding="utf-8")
    assert "## 未计算的规则" in page and "| DP-52 | 射击擒抱时平分命中 | 原文没有数值 |" in page
    tracks = (ROOT / "generated" / "reference" / "tracks.md").read_text(encoding="utf-8")
    assert "按生物体型计算部位体型" in tracks
    assert "| 攻击与防御的对抗 |" in page or "攻击与防御的对抗" in page.split("## 裁定")[1].split("\n## ")[0]


def test_pages_show_the_expected_attacks_to_a_damage_total():
    """The balancing tables also give, per weapon and defender, the exact expected number of
    attacks until the damage totals the preset's `until.at` (the fight's absorbing chain)."""
    page = (ROOT / "generated" / "reference" / "d20.md").read_text(encoding="utf-8")
    assert "击倒20点生命值的目标（累计伤害达到20）所需的期望攻击次数" in page
    page = page.split("## 武器对护甲等级的命中与期望伤害")[1]
    rows = [line for line in page.splitlines() if line.startswith("| [长剑](#weapons-longsword)")]
    assert len(rows) == 2 and "| 5.50 |" in rows[1]  # +5 vs AC 15 with 1d8+3
    assert (ROOT / "generated" / "reference" / "charts" / "d20-1-martial-until.svg").is_file()


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_rows_written_in_python_equal_the_jinja_macros() -> None:
    """compiler/emit/reference_rows.py writes exactly what the Jinja row macros (kept for the bench
    floor in bench/templates/) render: every bundled entry, and views full of Markdown and HTML specials."""
    from bench.build_scaling import _row_macros
    from rulec.emit.reference_rows import html_row, md_note, md_row, odds_html_rows, odds_md_rows
    from rulec.emit.reference_view import entry_view
    from rulec.build.facade import compile_rules

    md, html = _row_macros()
    build = compile_rules([ROOT / "rules"])
    views = [entry_view(e, t, {x.id: {y.id: y.name for y in x.entries} for x in rs.tables})
             for rs in build.rulesets for t in rs.tables for e in t.entries]
    nasty = "<script>|`*_[x](y)#~{}\\&\"'\n第二行"
    views.append({"anchor": nasty, "name": nasty, "not_specified": nasty, "origin": nasty, "description": nasty,
                  "rules": [nasty, "R1"], "where": nasty, "cells": [{"text": nasty, "link": nasty},
                                                                     {"text": nasty, "link": None}],
                  "notes": [{"name": nasty, "text": nasty}]})
    views.append({**views[-1], "not_specified": None, "origin": "ruleset", "description": "", "notes": [],
                  "cells": []})
    # a row's values are quoted in one call, joined by NUL (reference_rows._quoted): CR LF pairs
    # stay whole, and a value holding NUL (never from a rule file) is quoted alone
    crlf = "甲\r\n乙\r丙|<"
    views.append({**views[-2], "name": crlf, "cells": [{"text": crlf + "\r", "link": "\n" + crlf}]})
    views.append({**views[-3], "name": "a\x00<b>", "cells": [{"text": "\x00&", "link": None}]})
    assert len(views) > 100
    for v in views:
        assert md_row(v) == str(md.row(v))
        assert md_note(v) == str(md.note(v))
        assert html_row(v) == str(html.row(v))
    groups = [g["rows"] for odds in build.odds.values() for section in odds for g in section["groups"]]
    groups.append([{"name": nasty, "anchor": nasty, "cells": [{"hit": nasty, "damage": nasty, "until": nasty}]}] * 2)
    assert len(groups) > 3
    for rows in groups:
        for until in (False, True):
            assert odds_md_rows(rows, until) == "\n".join(str(md.odds(row, until)) for row in rows)
            assert odds_html_rows(rows, until) == "\n".join(str(html.odds(row, until)) for row in rows)


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


def _section(page: str, heading: str) -> str:
    return page.split(heading, 1)[1].split("\n## ", 1)[0]


def test_the_page_opens_with_the_quick_sheet():
    """Issue 33: the quick sheet (the attack in plain sentences, the compact weapons table, called
    shots, the condition tracks) comes first, then the full reference; what no procedure computes
    comes after the reference, and the sources at the end."""
    page = (ROOT / "generated" / "reference" / "dp.md").read_text(encoding="utf-8")
    order = [page.index(h) for h in ("## 速查", "## 完整参考", "## 结算流程", "## 规则索引", "## 未计算的规则", "## 来源")]
    assert order == sorted(order)
    quick = _section(page, "## 速查")
    assert "胜出数" in quick and "**骰子：**" in quick
    assert "### 武器速查" in quick and "| [长剑](#weapons-long-sword) | 白刃 | 3 | 严重 |" in quick
    assert "### 特定部位攻击" in quick and "| [头部](#called-shots-head) | 3 | 2 | 晕眩 |" in quick
    assert "### 状态累积槽" in quick and "原文未给出：原文见3.1生存状态" in quick
    tracks = _section((ROOT / "generated" / "reference" / "tracks.md").read_text(encoding="utf-8"), "## 速查")
    assert "### 负面状态" in tracks and "彻底失去视觉" in tracks  # what each state does (TR-60)
    assert "| [目眩](#condition-tracks-dazzle) | 眼部生命槽 | 目盲 |" in tracks  # threshold and state (TR-60)
    html = (ROOT / "generated" / "reference" / "dp.html").read_text(encoding="utf-8")
    assert html.index('id="quick"') < html.index('id="procedures"') < html.index('id="not-modelled"')
    assert '<details class="part" id="procedures">' in html  # folded on a screen, printed whole


def test_sources_are_out_of_the_tables_and_the_header():
    """No `定义于` column in any table, no seed file name in the header: the locations are at the end
    (and per entry behind the HTML page's toggle)."""
    page = (ROOT / "generated" / "reference" / "dp.md").read_text(encoding="utf-8")
    assert "定义于 |" not in page and "| `rules/" not in page
    head = page.split("## 目录")[0]
    assert "000_938c96765cc2f9c8" not in head and "原文章节：攻击与防御" in head
    sources = _section(page, "## 来源")
    assert "`000_938c96765cc2f9c8.txt`" in sources and "`rules/dp/tables/weapons.yaml 第 " in sources
    html = (ROOT / "generated" / "reference" / "dp.html").read_text(encoding="utf-8")
    assert 'id="show-where"' in html and '<span class="where"><br>rules/dp/tables/weapons.yaml:' in html
    assert '<td class="where">' not in html


def test_procedures_read_as_chinese_sentences():
    page = (ROOT / "generated" / "reference" / "dp.md").read_text(encoding="utf-8")
    attack = page.split("### 攻击与防御的对抗（`attack`）")[1].split("\n### ")[0]
    assert "| 攻击方 | `attacker` | 角色 |" in attack and "| 距离 | `distance` | 整数 |" in attack
    assert "| 武器 | `weapon` | 武器中的一项 |" in attack and "| 全力一击 | `power_attack` | 是/否 |" in attack
    assert "combatant" not in attack and "| int |" not in attack and "**计算**" not in attack
    assert "1. 检查：武器·炮击伤害X = 0；否则拒绝（炮击武器）。（DP-15）" in attack
    assert "3. 算出实际用手数 = " in attack


def test_every_balancing_table_states_what_it_assumes():
    """The attacker's stats, the options, the varied defender values and the defaults (issue 33)."""
    page = (ROOT / "generated" / "reference" / "dp.md").read_text(encoding="utf-8")
    odds = _section(page, "## 武器对基础防御的命中与期望伤害")
    assert "- **攻击方**：力量 4、敏捷 4、智力 3、武技 4" in odds
    assert "- **防御方**：盔甲防御 2、格挡防御 1，其余属性取默认值；基础防御逐列变化" in odds
    assert "- **选项**：距离 5" in odds and "- **逐列**：防御方基础防御取 0、2、4、6、8、10、12、14" in odds
    assert "全力一击 否" in odds.split("- **其余参数取默认值**：")[1]
    for name in (r for r in BUNDLED if declares_odds(r)):  # every bundled page with balancing odds
        html = (ROOT / "generated" / "reference" / f"{name}.html").read_text(encoding="utf-8")
        assert html.count('<dl class="assumes">') == html.count('class="part odds-section"') > 0


def test_the_print_header_quotes_the_ruleset_name(tmp_path: Path):
    """The name goes into the print stylesheet (@page margin box) as a CSS string: nothing in it
    can end the string or the <style> element."""
    from rulec.emit.quick_sheet import css_string

    assert css_string("d20攻击规则（d20）") == '"d20攻击规则\\ff08 d20\\ff09 "'
    nasty = css_string('"}</style><script>x</script>\\')
    assert "<" not in nasty and '"' not in nasty[1:-1] and nasty.startswith('"\\22 \\7d \\3c ')
    rs = tmp_path / "tiny"
    shutil.copytree(TINY, rs)
    manifest = rs / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8")
    name = next(line for line in text.splitlines() if line.startswith("name:"))
    manifest.write_text(text.replace(name, 'name: "极小</style><script>alert(1)</script>\\"}"'), encoding="utf-8")
    build = compile_rules([rs])
    assert build.ok, [d.format() for d in build.diagnostics]
    html = build.files["reference/tiny.html"].decode()
    style = html.split("<style>")[1].split("</style>")[0]
    assert "<script>" not in html and "@top-center{content:\"极小\\3c " in style


def test_a_quick_sheet_names_real_tables_and_fields(tmp_path: Path):
    rs = tmp_path / "d20"
    shutil.copytree(ROOT / "rules" / "d20", rs)
    manifest = rs / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("columns: [attack_type, damage_dice,", "columns: [attack_typ, damage_dice,"),
                        encoding="utf-8")
    build = compile_rules([rs])
    assert not build.ok
    [diag] = [d for d in build.diagnostics if d.code == "unknown-field"]
    assert diag.span.file.endswith("ruleset.yaml") and diag.span.line > 1 and "attack_type" in (diag.hint or "")


def test_the_lean_rows_make_the_same_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing to remember rows by, a table past `_LEAN` entries has its rows written as each
    page is rendered (`_PageEntry`, issue 20's memory) and a smaller one has them made once and
    filled into the pages' skeleton: the pages are the same bytes either way."""
    from rulec.emit import reference
    from rulec.memo import Memo

    def pages() -> dict[str, bytes]:
        build = compile_rules([ROOT / "rules" / "dp"], memo=Memo())
        assert build.ok
        return {rel: data for rel, data in build.files.items() if rel.startswith("reference/")}

    filled = pages()
    monkeypatch.setattr(reference, "_PART", 1)  # each entry's rows a part of their own
    assert pages() == filled
    monkeypatch.setattr(reference, "_LEAN", 0)  # every table's rows written as each page is rendered
    assert pages() == filled
