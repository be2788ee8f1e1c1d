"""No input is an internal error: malformed scenarios, packs and SRD files given to the CLI exit 1
with `file:line:col` diagnostics (or 0 when valid), never 3, never a traceback, never a long wait
or a large output (issue 27).

The commands run in-process (click's CliRunner) in a working folder of their own that holds a copy
of the bundled rules and a fresh build of them in `generated/`, so `rulec resolve` and `rulec odds`
take their fast path (the built package, no compiling) for every scenario. The cases the issue
names are here literally; hypothesis then mutates the shipped examples at random (a larger run is
marked slow).
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.cli.main import main
from rulec.load.reading import MAX_SCENARIO_BYTES, ReadRefused, read_bounded
from test_fuzz import _paths  # every place in a YAML document, for mutations

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.yaml"))
BIG = "9" * 5000  # past Python's 4,300-digit int conversion limit
DIAGNOSTIC = re.compile(r"^\S+:\d+:\d+: error\[[a-z-]+\]: ", re.M)
MAX_OUTPUT = 20_000  # characters: no diagnostic quotes more than a line of its input


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working folder with rules/ (the bundled rules) and generated/ (built from them)."""
    folder = tmp_path_factory.mktemp("cli-fuzz")
    shutil.copytree(ROOT / "rules", folder / "rules")
    here = Path.cwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main, ["build"])
    finally:
        os.chdir(here)
    assert result.exit_code == 0, result.output
    return folder


def rulec(work: Path, *args: str, timeout: float = 20.0) -> tuple[int, str]:
    """Run `rulec ARGS` in the working folder: (exit code, everything printed). Fails on an
    internal error, a traceback, a long wait or a long output."""
    here = Path.cwd()
    os.chdir(work)
    start = time.perf_counter()
    try:
        result = CliRunner().invoke(main, list(args))
    finally:
        os.chdir(here)
    took = time.perf_counter() - start
    out = result.output
    assert result.exit_code != 3 and "internal error" not in out, out[:2000]
    assert "Traceback" not in out and not (result.exception and not isinstance(result.exception, SystemExit)), \
        (out[:2000], result.exception)
    assert len(out) < MAX_OUTPUT, f"{len(out)} characters printed: {out[:500]}"
    assert took < timeout, f"took {took:.1f} s"
    return result.exit_code, out


def refused(work: Path, *args: str, code: str | None = None, timeout: float = 20.0) -> str:
    """`rulec ARGS` exits 1 with at least one file:line:col diagnostic (of `code`)."""
    status, out = rulec(work, *args, timeout=timeout)
    assert status == 1, out
    assert DIAGNOSTIC.search(out), out
    if code is not None:
        assert f"error[{code}]" in out, out
    return out


def scenario(work: Path, name: str, text: str) -> str:
    path = work / "cases" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


DP_HEAD = "kind: scenario\nruleset: dp\nprocedure: attack\n"
DP_OK = DP_HEAD + ("combatants:\n  attacker: {力量: 5, 武技: 8}\n  defender: {基础防御: 8}\n"
                   "args: {weapon: 拳}\ndice: [8, 9, 10, 1, 2, 3, 4, 5, 6]\n")


def test_a_valid_scenario_resolves(work: Path) -> None:
    status, out = rulec(work, "resolve", scenario(work, "ok.yaml", DP_OK))
    assert status == 0, out


# Each case of issue 27, literally: (file name, text, the diagnostic code expected).
SCENARIOS = [
    ("int_seed.yaml", DP_OK + f"seed: {BIG}\n", "bad-number"),
    ("int_stat_flow.yaml", DP_OK.replace("力量: 5", f"力量: {BIG}"), "bad-number"),
    ("int_stat_block.yaml", DP_HEAD + f"combatants:\n  attacker:\n    力量: {BIG}\n  defender: {{}}\n"
     "args: {weapon: 拳}\n", "bad-number"),
    ("int_dice.yaml", DP_OK.replace("dice: [8,", f"dice: [{BIG},"), "bad-number"),
    ("int_negative.yaml", DP_OK.replace("武技: 8", f"武技: -{BIG}"), "bad-number"),
    ("int_hex.yaml", DP_OK.replace("武技: 8", "武技: 0x" + "f" * 5000), "bad-number"),
    ("int_key.yaml", DP_OK + f"args2: {{{BIG}: 1}}\n", "unknown-key"),
    ("float_big.yaml", DP_OK.replace("武技: 8", "武技: 1e400"), "bad-number"),
    ("float_long.yaml", DP_OK.replace("武技: 8", f"武技: {BIG}.5"), "bad-number"),
    ("attacker_null.yaml", DP_HEAD + "combatants:\n  attacker: null\n  defender: {}\nargs: {weapon: 拳}\n",
     "wrong-type"),
    ("combatants_list.yaml", DP_HEAD + "combatants: [1]\nargs: {weapon: 拳}\n", "wrong-type"),
    ("combatants_null.yaml", DP_HEAD + "combatants: null\nargs: {weapon: 拳}\n", None),
    ("stats_list.yaml", DP_HEAD + "combatants:\n  attacker: [1]\n  defender: {}\nargs: {weapon: 拳}\n", None),
    ("args_list.yaml", DP_HEAD + "combatants: {attacker: {}, defender: {}}\nargs: [1]\n", None),
    ("args_null.yaml", DP_HEAD + "combatants: {attacker: {}, defender: {}}\nargs: null\n", None),
    ("dice_map.yaml", DP_OK.replace("dice: [8, 9, 10, 1, 2, 3, 4, 5, 6]", "dice: {a: 1}"), None),
    ("dice_null_item.yaml", DP_OK.replace("dice: [8,", "dice: [null,"), None),
    ("expect_list.yaml", DP_OK + "expect: [1]\n", None),
    ("procedure_list.yaml", DP_OK.replace("procedure: attack", "procedure: [1]"), None),
    ("procedure_unknown.yaml", DP_OK.replace("procedure: attack", "procedure: nope"), None),
    ("ruleset_list.yaml", DP_OK.replace("ruleset: dp", "ruleset: [dp]"), "bad-scenario"),
    ("top_list.yaml", "[1, 2]\n", "bad-scenario"),
    ("empty.yaml", "", None),
    ("bad_utf8.yaml", "kind: scenario\nruleset: dp\ntitle: caf\udce9\n", None),
    ("fight_null_actions.yaml", "kind: fight\nruleset: tracks\ncombatants: {甲: {}, 乙: {}}\nactions: null\n", None),
    ("fight_actions_ints.yaml", "kind: fight\nruleset: tracks\ncombatants: {甲: {}, 乙: {}}\nactions: [1]\n", None),
    ("fight_combatants_list.yaml", "kind: fight\nruleset: tracks\ncombatants: [1]\n"
     "actions: [{procedure: attack, roles: {attacker: 甲, defender: 乙}, args: {weapon: fist}}]\n", None),
    ("fight_roles_null.yaml", "kind: fight\nruleset: tracks\ncombatants: {甲: {}, 乙: {}}\n"
     "actions: [{procedure: attack, roles: null, args: {weapon: fist}}]\n", None),
    ("fight_expect_list.yaml", "kind: fight\nruleset: tracks\ncombatants: {甲: {}, 乙: {}}\n"
     "actions: [{procedure: attack, roles: {attacker: 甲, defender: 乙}, args: {weapon: fist}}]\nexpect: {乙: [1]}\n",
     None),
]


@pytest.mark.parametrize("name,text,code", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_malformed_scenarios_are_diagnostics(work: Path, name: str, text: str, code: str | None) -> None:
    path = work / "cases" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    refused(work, "resolve", str(path), code=code)
    if name in ODDS_TOO:
        refused(work, "odds", str(path))


ODDS_TOO = {"int_seed.yaml", "attacker_null.yaml", "combatants_list.yaml", "fight_null_actions.yaml"}


@pytest.mark.parametrize("until", ["damage=²", "damage=٣", "伤害=²", f"damage={BIG}", "damage=", "=",
                                   "damage=-1", "damage=1.5", "nothing=3", "damage", "damage=3=4"])
def test_until_takes_ascii_digits_only(work: Path, until: str) -> None:
    status, out = rulec(work, "odds", scenario(work, "until.yaml", DP_OK), "--until", until)
    assert status == 1 and "error[" in out, out


def test_until_with_a_threshold_works(work: Path) -> None:
    status, out = rulec(work, "odds", scenario(work, "until.yaml", DP_OK), "--until", "damage=3")
    assert status == 0, out


def test_no_regular_file_is_read(work: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    for command in ("resolve", "odds"):
        refused(work, command, "/dev/zero", code="not-a-file")
        refused(work, command, str(fifo), code="not-a-file")
    status, out = rulec(work, "test", str(fifo))
    assert status == 1 and "not-a-file" in out, out
    folder = tmp_path / "examples"
    folder.mkdir()
    os.mkfifo(folder / "hangs.yaml")
    status, out = rulec(work, "test", str(folder))
    assert status == 1 and "not-a-file" in out, out


def test_validate_dev_zero(work: Path) -> None:
    status, out = rulec(work, "validate", "/dev/zero")
    assert status == 1 and DIAGNOSTIC.search(out), out


def test_an_oversized_scenario_is_refused_before_parsing(work: Path) -> None:
    faces = ", ".join(["1"] * (MAX_SCENARIO_BYTES // 3 + 10))
    start = time.perf_counter()
    refused(work, "resolve", scenario(work, "huge.yaml", DP_OK.replace("[8, 9, 10, 1, 2, 3, 4, 5, 6]", f"[{faces}]")),
            code="file-too-large")
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("layout", ["flow", "block", "flow-lines"])
def test_a_long_collection_is_refused_while_parsing(work: Path, layout: str) -> None:
    """20,000 dice faces (under the byte limit, past the longest list a scenario may hold): one
    short diagnostic at the list, quickly."""
    n = 20_000
    faces = {"flow": "[" + ",".join(["1"] * n) + "]", "block": "\n" + "  - 1\n" * n,
             "flow-lines": "[\n" + " 1,\n" * n + " 1]"}[layout]
    text = DP_OK.replace("[8, 9, 10, 1, 2, 3, 4, 5, 6]", faces)
    start = time.perf_counter()
    out = refused(work, "resolve", scenario(work, f"long_{layout}.yaml", text), code="bad-size")
    assert time.perf_counter() - start < 5
    assert len(out) < 1000, out


def test_a_diagnostic_quotes_at_most_a_line(work: Path) -> None:
    long_text = "长" * 100_000
    for name, text in [("long_title.yaml", DP_OK + f"title: {long_text}\n"),
                       ("long_weapon.yaml", DP_OK.replace("weapon: 拳", f"weapon: {long_text}")),
                       ("long_key.yaml", DP_OK.replace("力量: 5", f"{long_text}: 5")),
                       ("long_expect.yaml", DP_OK + f"expect: {{net: '{long_text}'}}\n"),
                       ("many_faces.yaml", DP_OK.replace("[8, 9, 10, 1, 2, 3, 4, 5, 6]",
                                                         "[" + ", ".join(["1001"] * 9000) + "]"))]:
        out = refused(work, "resolve", scenario(work, name, text))
        longest = max(len(line) for line in out.splitlines())
        assert longest < 400, (name, longest, out[:400])


# --- packs ---------------------------------------------------------------------------------------

PACK = "kind: pack\nid: fuzz_pack\nname: 模糊测试包\nextends: dp\n"
TABLE = "kind: table\ntable: weapons\nentries:\n"
ENTRY = "  - {id: halberd, name: 戟, attack_type: melee, damage: 4, damage_type: lethal, strength: 4, size: 4, hands: 2}\n"
PACK_CASES = [
    ("int", TABLE + ENTRY.replace("damage: 4", f"damage: {BIG}")),
    ("float", TABLE + ENTRY.replace("damage: 4", "damage: 1e400")),
    ("entries_ints", TABLE.replace("entries:\n", "entries: [1, null, []]\n")),
    ("entries_null", TABLE.replace("entries:\n", "entries: null\n")),
    ("not_yaml", "kind: table\ntable: [weapons\n"),
    ("alias_bomb", "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
     "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
     "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"),
    ("long_id", TABLE + ENTRY.replace("id: halberd", "id: " + "h" * 200_000)),
]


def pack_folder(root: Path, name: str, table: str) -> Path:
    pack = root / name
    (pack / "tables").mkdir(parents=True)
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    (pack / "tables" / "broken.yaml").write_text(table, encoding="utf-8")
    return pack


@pytest.mark.parametrize("name,table", PACK_CASES[:3], ids=[c[0] for c in PACK_CASES[:3]])
def test_broken_packs_are_diagnostics(work: Path, tmp_path: Path, name: str, table: str) -> None:
    out = refused(work, "validate", "rules/dp", str(pack_folder(tmp_path, name, table)))
    assert max(len(line) for line in out.splitlines()) < 400


@pytest.mark.slow
@pytest.mark.parametrize("name,table", PACK_CASES, ids=[c[0] for c in PACK_CASES])
def test_more_broken_packs_are_diagnostics(work: Path, tmp_path: Path, name: str, table: str) -> None:
    out = refused(work, "validate", "rules/dp", str(pack_folder(tmp_path, name, table)), timeout=60)
    assert max(len(line) for line in out.splitlines()) < 400
    refused(work, "build", "--rules", "rules/dp", "--rules", str(tmp_path / name), "--out", str(tmp_path / "out"),
            timeout=60)


# --- SRD files -----------------------------------------------------------------------------------

WEAPON = {"index": "club", "name": "Club", "equipment_category": {"index": "weapon"},
          "weapon_category": "Simple", "weapon_range": "Melee",
          "damage": {"damage_dice": "1d4", "damage_type": {"index": "bludgeoning"}}, "weight": 2}
SRD_CASES = [
    ("infinity", json.dumps([WEAPON]).replace('"weight": 2', '"weight": Infinity')),
    ("minus_infinity", json.dumps([WEAPON]).replace('"weight": 2', '"weight": -Infinity')),
    ("nan", json.dumps([WEAPON]).replace('"weight": 2', '"weight": NaN')),
    ("1e400", json.dumps([WEAPON]).replace('"weight": 2', '"weight": 1e400')),
    ("long_int", json.dumps([WEAPON]).replace('"weight": 2', f'"weight": {BIG}')),
    ("long_int_top", BIG),
    ("infinity_top", "Infinity"),
    ("weight_text", json.dumps([{**WEAPON, "weight": "1e400"}])),
    ("weight_huge", json.dumps([{**WEAPON, "weight": 1e308}])),
    ("weight_list", json.dumps([{**WEAPON, "weight": [1]}])),
    ("dice_long", json.dumps([{**WEAPON, "damage": {"damage_dice": BIG + "d6", "damage_type": {"index": "x"}}}])),
    ("dice_super", json.dumps([{**WEAPON, "damage": {"damage_dice": "²d6", "damage_type": {"index": "x"}}}])),
    ("damage_list", json.dumps([{**WEAPON, "damage": [1]}])),
    ("range_text", json.dumps([{**WEAPON, "weapon_range": "Ranged", "range": {"normal": "²"}}])),
    ("index_list", json.dumps([{**WEAPON, "index": [1]}])),
    ("deep", "[" * 100_000),
    ("not_json", "{"),
    ("empty", ""),
    ("items_ints", "[1, 2, 3]"),
]


def srd(work: Path, source: str, target: str | None = None) -> str:
    return refused(work, "import", "5e-srd", source, "--into", target or "rules/d20/tables/srd_fuzz.yaml")


@pytest.mark.parametrize("name,text", SRD_CASES, ids=[c[0] for c in SRD_CASES])
def test_malformed_srd_files_are_diagnostics(work: Path, tmp_path: Path, name: str, text: str) -> None:
    source = tmp_path / f"{name}.json"
    source.write_text(text, encoding="utf-8")
    out = srd(work, str(source))
    assert max(len(line) for line in out.splitlines()) < 400


def test_srd_devices_fifos_and_oversized_files(work: Path, tmp_path: Path) -> None:
    srd(work, "/dev/zero")
    fifo = tmp_path / "srd.json"
    os.mkfifo(fifo)
    srd(work, str(fifo))
    large = tmp_path / "large.json"
    with open(large, "wb") as fh:
        fh.truncate(9 * 1024 * 1024)  # sparse: nothing to write
    assert "file-too-large" in srd(work, str(large))
    good = tmp_path / "good.json"
    good.write_text(json.dumps([WEAPON]), encoding="utf-8")
    into = tmp_path / "into_fifo.yaml"
    os.mkfifo(into)
    (work / "rules" / "d20" / "tables" / "fifo_target.yaml").unlink(missing_ok=True)
    os.symlink(into, work / "rules" / "d20" / "tables" / "fifo_target.yaml")
    try:
        assert "not-a-file" in srd(work, str(good), "rules/d20/tables/fifo_target.yaml")
    finally:
        (work / "rules" / "d20" / "tables" / "fifo_target.yaml").unlink()


# --- the bounded reader itself -------------------------------------------------------------------

def test_the_bounded_reader(tmp_path: Path) -> None:
    f = tmp_path / "f.yaml"
    f.write_bytes(b"x" * 100)
    assert read_bounded(f, 100) == b"x" * 100
    with pytest.raises(ReadRefused) as err:
        read_bounded(f, 99, "shown.yaml")
    assert err.value.diagnostic.code == "file-too-large" and err.value.diagnostic.span.file == "shown.yaml"
    for path, code in [("/dev/zero", "not-a-file"), (str(tmp_path), "not-a-file"),
                       (str(tmp_path / "missing.yaml"), "unreadable")]:
        with pytest.raises(ReadRefused) as err:
            read_bounded(path, 10)
        assert err.value.diagnostic.code == code
    link = tmp_path / "link.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(ReadRefused):
        read_bounded(link, 10)


def test_the_limit_holds_on_the_bytes_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that says it is small (st_size) but reads longer is still refused past the limit."""
    import rulec.load.reading as reading

    f = tmp_path / "grows.yaml"
    f.write_bytes(b"y" * 5000)
    real_fstat = os.fstat

    class Small:
        def __init__(self, st: os.stat_result) -> None:
            self.st_mode, self.st_size = st.st_mode, 10

    monkeypatch.setattr(reading.os, "stat", lambda p: Small(os.lstat(p)))
    monkeypatch.setattr(reading.os, "fstat", lambda fd: Small(real_fstat(fd)))
    with pytest.raises(ReadRefused) as err:
        read_bounded(f, 1000)
    assert err.value.diagnostic.code == "file-too-large"


# --- random mutations of the shipped examples ----------------------------------------------------

HOSTILE = st.sampled_from([None, [], {}, [1], {"a": 1}, 0, -1, 10**9, True, "", "²", "x" * 5000, 1.5,
                           [[[[[]]]]], {"attacker": None}, "拳", "fist", int(BIG[:60])])


def _mutated_scenario(work: Path, data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(EXAMPLES))
    original = yaml.safe_load(source.read_text(encoding="utf-8"))
    mutated = copy.deepcopy(original)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(_paths(mutated))
        path = data.draw(st.sampled_from(paths))
        value = copy.deepcopy(data.draw(HOSTILE))  # the samples are shared objects: never mutate them
        if not path:
            mutated = value
            break
        parent = mutated
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
    text = yaml.safe_dump(mutated, allow_unicode=True, default_flow_style=data.draw(st.sampled_from([None, True, False])))
    if data.draw(st.integers(0, 4)) == 0:  # and sometimes a raw edit of the text
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + data.draw(st.sampled_from([BIG, "1e400", ": ", "[", "\t", "²", "- ", "&a *a", "\n  "])) \
            + text[at:]
    path = scenario(work, "mutated.yaml", text)
    command = data.draw(st.sampled_from(["resolve", "odds", "test"]))
    status, out = rulec(work, command, path)
    assert status in (0, 1), out


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
@pytest.mark.slow  # several seconds: CI's slow job
def test_mutated_examples_never_crash_the_cli(work: Path, data: st.DataObject) -> None:
    _mutated_scenario(work, data)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_many_mutated_examples_never_crash_the_cli(work: Path, data: st.DataObject) -> None:
    _mutated_scenario(work, data)


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
