"""The rulec CLI: exit codes, --check, determinism, no-op rebuilds, atomic writes, homebrew packs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulec.cli.main import main
from rulec.build.freshness import untracked

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulec", *args], cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, **(env or {})})


@pytest.fixture()
def rules_copy(tmp_path: Path) -> Path:
    target = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", target)
    return target


@pytest.fixture(scope="module")
def _built_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled rules copied and built once by the CLI, for tests that start from a built tree."""
    top = tmp_path_factory.mktemp("built")
    shutil.copytree(ROOT / "rules", top / "rules")
    assert run("build", "--rules", str(top / "rules"), "--out", str(top / "out")).returncode == 0
    return top


@pytest.fixture()
def built_copy(_built_once: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(rules, out): a copy of the rules and of the output a CLI build wrote for them."""
    for name in ("rules", "out"):
        shutil.copytree(_built_once / name, tmp_path / name)
    return tmp_path / "rules", tmp_path / "out"


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_validate_ok_and_usage_error():
    runner = CliRunner()
    assert runner.invoke(main, ["validate", str(ROOT / "rules")]).exit_code == 0
    assert runner.invoke(main, ["build", "--no-such-option"]).exit_code == 2


def test_invalid_rules_exit_1_and_write_nothing(built_copy: tuple[Path, Path]):
    rules_copy, out = built_copy
    before = tree(out)
    weapons = rules_copy / "dp" / "tables" / "weapons.yaml"
    weapons.write_text(weapons.read_text(encoding="utf-8").replace("damage: 3,", "damage: three,", 1), encoding="utf-8")
    result = run("build", "--rules", str(rules_copy), "--out", str(out))
    assert result.returncode == 1
    assert "error[wrong-type]" in result.stderr and "Traceback" not in result.stderr
    assert tree(out) == before  # the previous output is exactly as it was


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_check_names_every_stale_file(built_copy: tuple[Path, Path]):
    rules_copy, out = built_copy  # a fresh build passes --check: CI's own step
    (out / "dp" / "rulec_dp" / "model.py").write_text("# edited by hand\n")
    (out / "extra.txt").write_text("x")
    result = run("build", "--check", "--rules", str(rules_copy), "--out", str(out))
    assert result.returncode == 1
    assert "dp/rulec_dp/model.py: changed" in result.stderr and "extra.txt: extra" in result.stderr
    assert (out / "dp" / "rulec_dp" / "model.py").read_text() == "# edited by hand\n"  # --check writes nothing


def _stamps(out: Path) -> dict[Path, int]:
    """The mtimes of the build's files: the stat record (freshness.py) is no build output, and a
    build writes it once the files are older than its two-second racy window, so it is left out."""
    return {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file() and not untracked(p.name)}


def test_unchanged_inputs_rewrite_nothing(built_copy: tuple[Path, Path]):
    rules_copy, out = built_copy
    stamps = _stamps(out)
    result = run("build", "--rules", str(rules_copy), "--out", str(out))
    assert "unchanged" in result.stderr
    assert stamps == _stamps(out)


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_unchanged_inputs_rewrite_nothing_however_long_after(built_copy: tuple[Path, Path]):
    """Two builds more than two seconds apart (files past the racy window): still nothing rewritten."""
    rules_copy, out = built_copy
    time.sleep(2.1)  # RACY_NS: now the build writes its stat record
    stamps = _stamps(out)
    result = run("build", "--rules", str(rules_copy), "--out", str(out))
    assert "unchanged" in result.stderr and stamps == _stamps(out)


@pytest.mark.slow  # two whole CLI builds; CI's `rulec build --check` runs under another seed too
def test_output_is_identical_across_hash_seeds(rules_copy: Path, tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    run("build", "--rules", str(rules_copy), "--out", str(a), env={"PYTHONHASHSEED": "1"})
    run("build", "--rules", str(rules_copy), "--out", str(b), env={"PYTHONHASHSEED": "987"})
    assert tree(a) == tree(b) and tree(a)


def test_no_color_and_json(rules_copy: Path):
    weapons = rules_copy / "dp" / "tables" / "weapons.yaml"
    weapons.write_text(weapons.read_text(encoding="utf-8").replace("damage: 3,", "damge: 3,", 1), encoding="utf-8")
    result = run("validate", str(rules_copy), env={"NO_COLOR": "1"})
    assert result.returncode == 1 and "\x1b[" not in result.stderr
    result = run("validate", "--format", "json", str(rules_copy))
    assert result.returncode == 1 and '"code": "unknown-key"' in result.stdout


def make_pack(root: Path, body: str, manifest: str = "kind: pack\nid: my_pack\nname: 我的扩展\nextends: dp\n") -> Path:
    pack = root / "my-pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(manifest, encoding="utf-8")
    (pack / "weapons.yaml").write_text(body, encoding="utf-8")
    return pack


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_homebrew_pack_adds_and_overrides(tmp_path: Path):
    pack = make_pack(tmp_path, "kind: table\ntable: weapons\nentries:\n"
                     "  - {id: halberd, name: 戟, attack_type: melee, damage: 4, damage_type: lethal, hands: 2, size: 4}\n"
                     "  - {id: long_sword, name: 精钢长剑, attack_type: melee, damage: 4, damage_type: lethal, override: true}\n")
    out = tmp_path / "build"
    result = run("build", "--rules", "rules/", "--rules", str(pack), "--out", str(out))
    assert result.returncode == 0, result.stderr
    model = (out / "dp" / "rulec_dp" / "model.py").read_text(encoding="utf-8")
    assert "'halberd', '戟'" in model and "'精钢长剑'" in model
    assert "my\\_pack" in (out / "reference" / "dp.md").read_text(encoding="utf-8")  # escaped Markdown


def test_pack_override_without_saying_so_is_a_diagnostic(tmp_path: Path):
    pack = make_pack(tmp_path, "kind: table\ntable: weapons\nentries:\n"
                     "  - {id: long_sword, name: 另一把长剑, attack_type: melee, damage: 4, damage_type: lethal}\n")
    result = run("build", "--rules", "rules/", "--rules", str(pack), "--out", str(tmp_path / "b"))
    assert result.returncode == 1
    assert "weapons.yaml:4:10: error[override-needed]: 'long_sword' already exists in 'weapons'" in result.stderr


def test_pack_without_its_ruleset(tmp_path: Path):
    pack = make_pack(tmp_path, "kind: table\ntable: weapons\nentries: []\n")
    result = run("validate", str(pack))
    assert result.returncode == 1 and "pack extends 'dp', which was not given" in result.stderr


def test_dump_ir_stops_after_lowering():
    result = run("validate", "--dump-ir", "rules/d20")
    assert result.returncode == 0
    import json

    (rs,) = json.loads(result.stdout)
    assert rs["id"] == "d20" and rs["span"].startswith("rules/d20/ruleset.yaml:")
    attack = next(p for p in rs["procedures"] if p["id"] == "attack")
    assert attack["steps"][0]["kind"] == "Let"


def test_terminal_control_characters_in_file_names_are_never_printed(rules_copy: Path):
    """A file name (or any text) holding escape codes, a carriage return or a bidi override is
    printed without them: the one filter on stdout and stderr (compiler/cli/terminal.py)."""
    evil = rules_copy / "dp" / "tables" / "x\x1b]0;pwned\x07\x1b[2J\r\u202e.yaml"
    evil.write_text("kind: table\ntable: weapons\nentries: [{id: 1}]\n", encoding="utf-8")
    result = run("validate", str(rules_copy), env={"NO_COLOR": "1"})
    assert result.returncode == 1 and "error[" in result.stderr
    assert not any(ch in result.stderr for ch in "\x1b\x07\r\u202e"), repr(result.stderr[:300])
    assert "x]0;pwned" in result.stderr  # the rest of the name is still shown


def test_a_scenario_missing_a_required_argument_or_giving_a_stat_twice(tmp_path: Path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("kind: scenario\nruleset: dp\nprocedure: attack\ncombatants:\n"
                        "  attacker: {力量: 5, strength: 30}\n  defender: {}\nargs: {distance: 3}\n", encoding="utf-8")
    result = run("resolve", str(scenario), "--rules", str(ROOT / "rules" / "dp"))
    assert result.returncode == 1
    assert "s.yaml:7:7: error[missing-key]: missing required key 'weapon'" in result.stderr
    assert "s.yaml:5:21: error[duplicate-stat]: 'strength' gives the stat '力量' a second time" in result.stderr


@pytest.mark.slow  # a large pack built by the CLI
def test_a_large_table_keeps_its_rows_as_json_and_loads_the_same(tmp_path: Path):
    """More than ROW_CHUNK entries: the Python package keeps the rows as JSON files (`_rows/`),
    read back as the same tuples; the entries and a resolution are what a small table gives."""
    import sys as _sys

    from rulec.emit.python.model import ROW_CHUNK

    count = ROW_CHUNK + 5
    rows = "".join(f"  - {{id: w{i:05d}, name: 自制“武器”{i}\\, attack_type: melee, damage: {i % 7}, "
                   f"damage_type: lethal, hands: {1 + i % 2}}}\n" for i in range(count))
    pack = make_pack(tmp_path, "kind: table\ntable: weapons\nentries:\n" + rows)
    out = tmp_path / "build"
    result = run("build", "--rules", "rules/dp", "--rules", str(pack), "--out", str(out), "--target", "python")
    assert result.returncode == 0, result.stderr
    package = out / "dp" / "rulec_dp"
    assert sorted(p.name for p in (package / "_rows").iterdir()) == ["weapons_0.json", "weapons_1.json"]
    assert not (out / "js").exists()  # --target python writes no JavaScript
    code = (f"import sys; sys.path.insert(0, {str(out / 'dp')!r}); import rulec_dp as m; "
            f"w = m.get_weapon('w{count - 1:05d}'); print(w.name, w.damage, w.hands, type(w.rules).__name__); "
            "print(m.attack(m.Combatant(), m.Combatant(), w, dice=m.FixedDice([9] * 40)).damage)")
    done = subprocess.run([_sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    name, damage, hands, rules_type, _resolved = done.stdout.split()
    assert (name, int(damage), int(hands), rules_type) == (f"自制“武器”{count - 1}\\", (count - 1) % 7,
                                                            1 + (count - 1) % 2, "tuple")


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


@pytest.mark.parametrize("line", [
    "resolve examples/dp/wang_vs_wu_miss.yaml",
    "resolve examples/dp/wang_vs_wu_miss.yaml --seed 7 --rules rules/dp --rules rules --out gen --json",
    "resolve --format=json examples/dp/wang_vs_wu_miss.yaml --seed=-3",
    "odds examples/d20/dagger_crit.yaml --until 伤害=20 --format text --out=x",
    "odds --rules=rules examples/d20/dagger_crit.yaml",
])
def test_the_click_free_start_parses_as_click_does(line: str) -> None:
    """`rulec resolve`/`odds` lines that entry.py runs without click (play_args.py's table) give the
    keywords click's commands, built from the same table, would receive."""
    from rulec.cli import play_args

    argv = line.split()
    parsed = play_args.parse(argv)
    assert parsed is not None and parsed[0] == argv[0]
    with main.commands[argv[0]].make_context(argv[0], argv[1:]) as ctx:
        assert ctx.params == parsed[1]


@pytest.mark.parametrize("line", ["resolve", "resolve a.yaml b.yaml", "resolve examples --seed 1", "resolve x.yaml --seed",
                                  "resolve x.yaml --seed x", "resolve x.yaml --until a=1", "odds x.yaml --format xml",
                                  "resolve x.yaml --json=1", "resolve x.yaml --lang en", "resolve --help", "build"])
def test_what_the_table_does_not_settle_goes_to_click(line: str) -> None:
    from rulec.cli import play_args

    assert play_args.parse(line.split()) is None


def test_an_unknown_ruleset_next_to_an_up_to_date_build_is_said_without_compiling(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """generated/ is an up-to-date build of rules/ (CI checks it): it holds every ruleset's
    schemas, so a scenario naming another ruleset is refused at once (it compiled every ruleset)."""
    import rulec.build.facade

    scenario = tmp_path / "s.yaml"
    scenario.write_text("kind: scenario\nruleset: nosuch\nprocedure: attack\ncombatants: {attacker: {}, defender: {}}\n",
                        encoding="utf-8")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled")

    from rulec.cli.play_build import _fresh

    monkeypatch.chdir(ROOT)
    if not _fresh(Path("generated"), [Path("rules")]):
        pytest.skip("generated/ is not an up-to-date build of rules/ (run `rulec build`; CI checks it)")
    monkeypatch.setattr(rulec.build.facade, "compile_rules", refuse)
    result = CliRunner().invoke(main, ["resolve", str(scenario)])
    assert result.exit_code == 1, result.output
    assert "error[unknown-ruleset]: no ruleset 'nosuch' in rules\n" in result.output
