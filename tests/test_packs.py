"""Packs are safe to share: the same pack builds the same bytes (and version) from any folder, with
no path of the builder's in them; a link that leaves a pack is refused; a pack build never lands
in the bundled generated/ unasked, and `rulec resolve` says which build it uses and never rebuilds
a pack build without its packs. (A same-pack duplicate id: tests/cases/bad_pack_sibling.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules
from rulec.build.write import write_build

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "cases" / "valid_tiny" / "rules" / "tiny"
PACK = """kind: pack
id: brew
name: 自制
extends: tiny
"""
WEAPONS = """kind: table
table: weapons
entries:
  - {id: hammer, name: 锤, damage: 2}
  - {id: club, name: 大棍, damage: 2, override: true}
"""
SCENARIO = """kind: scenario
ruleset: tiny
procedure: attack
combatants:
  attacker: {力量: 3}
  defender: {}
args: {weapon: club}
dice: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
"""


def rulec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulec", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "NO_COLOR": "1", "RULEC_CACHE_DIR": "off"})


def _project(where: Path) -> Path:
    """A project folder with the tiny ruleset in rules/ and the pack in brew/."""
    shutil.copytree(TINY, where / "rules" / "tiny")
    (where / "brew").mkdir(parents=True)
    (where / "brew" / "pack.yaml").write_text(PACK, encoding="utf-8")
    (where / "brew" / "weapons.yaml").write_text(WEAPONS, encoding="utf-8")
    return where


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and p.name != ".rulec-stat"}


def test_a_pack_builds_the_same_bytes_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    one = _project(tmp_path / "alice" / "home" / "games")
    two = _project(tmp_path / "bob")
    (two / "brew").rename(two / "brew-main")  # a clone under another folder name: still the pack `brew`
    # one builds from inside its project, the other from elsewhere with absolute paths
    monkeypatch.chdir(one)
    first = compile_rules([Path("rules"), Path("brew")])
    assert first.ok, [d.format() for d in first.diagnostics]
    write_build(Path("out"), first)
    monkeypatch.chdir(tmp_path)
    second = compile_rules([two / "rules", two / "brew-main"])
    assert second.ok, [d.format() for d in second.diagnostics]
    write_build(two / "out", second)
    a, b = _tree(one / "out"), _tree(two / "out")
    assert sorted(a) == sorted(b) and len(a) > 20
    assert [rel for rel in a if a[rel] != b[rel]] == []  # every file, the stamp too
    for files, base in ((a, one), (b, two)):
        for rel, data in files.items():
            for leak in (str(tmp_path), str(base), str(Path.home())):
                assert leak.encode() not in data, (rel, leak)
    assert b'version = "0.1.0+brew.' in a["tiny/pyproject.toml"] or b"+brew." in a["tiny/pyproject.toml"]
    assert b"brew/weapons.yaml:4" in a["reference/tiny.html"]  # the pack's files named by the pack's id


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_a_link_out_of_a_pack_is_refused_naming_the_link(tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch):
    project = _project(tmp_path / "p")
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "weapons.yaml").write_text(WEAPONS.replace("hammer", "stolen"), encoding="utf-8")
    if kind == "file":
        (project / "brew" / "more.yaml").symlink_to(secret / "weapons.yaml")
        link = "brew/more.yaml"
    else:
        (project / "brew" / "more").symlink_to(secret, target_is_directory=True)
        link = "brew/more"
    monkeypatch.chdir(project)
    build = compile_rules([Path("rules"), Path("brew")])
    assert not build.ok and not build.files
    assert [d.format().split(": ")[0:2] for d in build.diagnostics] == [[f"{link}:1:1", "error[link-outside]"]]
    assert "stolen" not in repr(build.rulesets)


def test_a_link_inside_a_pack_is_read_where_it_points(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project = _project(tmp_path / "p")
    (project / "brew" / "tables").mkdir()
    (project / "brew" / "tables" / "w.yaml").write_text(WEAPONS.replace("hammer", "maul").replace(
        "  - {id: club, name: 大棍, damage: 2, override: true}\n", "").replace("锤", "大锤"), encoding="utf-8")
    (project / "brew" / "again").symlink_to(project / "brew" / "tables", target_is_directory=True)
    monkeypatch.chdir(project)
    build = compile_rules([Path("rules"), Path("brew")], stop_after="validate")
    assert build.ok, [d.format() for d in build.diagnostics]  # the folder link is not followed: maul once


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_a_pack_build_never_lands_in_generated_unasked_and_resolve_says_which_build(tmp_path: Path):
    project = _project(tmp_path / "p")
    (project / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    assert rulec("build", cwd=project).returncode == 0  # the bundled build
    bundled = _tree(project / "generated")
    refused = rulec("build", "--rules", "rules", "--rules", "brew", cwd=project)
    assert refused.returncode == 1 and "--out" in refused.stderr and "nothing was written" in refused.stderr
    assert _tree(project / "generated") == bundled
    # asked for by name, a pack build may go there; then a plain resolve neither takes it for the
    # bundled build nor rebuilds it without the pack
    assert rulec("build", "--rules", "rules", "--rules", "brew", "--out", "generated", cwd=project).returncode == 0
    with_pack = _tree(project / "generated")
    assert b'"packs": [\n    "brew"\n  ]' in with_pack[".rulec-stamp.json"]
    plain = rulec("resolve", "s.yaml", cwd=project)
    assert plain.returncode == 0, plain.stderr
    notes = [line for line in plain.stderr.splitlines() if line.startswith("rulec:")]
    assert len(notes) == 1 and "packs brew" in notes[0] and "compiled in memory" in notes[0], plain.stderr
    assert ".ww4a6" in plain.stdout  # the bundled club (damage 1), not the pack's (damage 2)
    assert _tree(project / "generated") == with_pack
    packed = rulec("resolve", "s.yaml", "--rules", "rules", "--rules", "brew", cwd=project)
    assert packed.returncode == 0 and ".ww5a6" in packed.stdout, packed.stderr
    assert "packs brew; using it" in packed.stderr


def test_a_fifo_in_a_rules_folder_is_a_diagnostic_not_skipped(tmp_path: Path) -> None:
    """A YAML name that is a FIFO is reported (`not-a-file`), never read and never silently left out."""
    from rulec.load.sources import discover

    pack = tmp_path / "brew"
    pack.mkdir()
    (pack / "pack.yaml").write_text("kind: pack\nid: brew\nextends: dp\n", encoding="utf-8")
    os.mkfifo(pack / "weapons.yaml")
    folders, diags = discover([pack])
    assert [d.code for d in diags] == ["not-a-file"] and "weapons.yaml" in diags[0].span.file
    assert all(p.name != "weapons.yaml" for f in folders for p in f.files)


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


@pytest.mark.slow  # an integration run of several seconds: CI's slow job
def test_the_example_pack_builds_and_its_scenarios_pass(tmp_path: Path):
    """examples/packs/wuxia, run as its README says: `rulec test` in its folder (its rulec.toml
    names ../../../rules and its output folder, which the command builds first)."""
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "examples" / "packs")
    shutil.copytree(ROOT / "schema", tmp_path / "schema")
    pack = tmp_path / "examples" / "packs" / "wuxia"
    tested = rulec("test", "--format", "json", cwd=pack)
    assert tested.returncode == 0, tested.stderr
    report = json.loads(tested.stdout)
    assert report["passed"] == 2 and report["failed"] == 0 and report["skipped"] == 0
    page = (tmp_path / "build" / "packs" / "wuxia" / "reference" / "dp.md").read_text(encoding="utf-8")
    assert "铁扇" in page and "穴位" in page and "| 全力一击加值 | `3` |" in page  # the override, by key and value
    # from the repository's root, the pack's scenarios are not run with rules/ alone: said, not failed
    (tmp_path / "examples" / "dp").mkdir()
    shutil.copy(ROOT / "examples" / "dp" / "rock_10m.yaml", tmp_path / "examples" / "dp")
    root = rulec("test", "examples", cwd=tmp_path)
    assert root.returncode == 0 and "skipped 2 scenario(s) of the pack in examples/packs/wuxia/" in root.stderr


def test_scenarios_in_a_pack_are_not_rule_files_and_an_override_needs_key_and_value(tmp_path: Path):
    project = _project(tmp_path)
    (project / "brew" / "scenarios").mkdir()
    (project / "brew" / "scenarios" / "club.yaml").write_text(SCENARIO + "expect: {}\n", encoding="utf-8")
    (project / "brew" / "misplaced.yaml").write_text(SCENARIO, encoding="utf-8")
    built = compile_rules([project / "rules", project / "brew"])
    shown = [d.format() for d in built.diagnostics]
    assert len(shown) == 1 and "misplaced.yaml:1:7: error[bad-value]: unknown kind" in shown[0], shown
    assert "put it in the folder's scenarios/" in shown[0]
    (project / "brew" / "misplaced.yaml").unlink()
    (project / "rules" / "tiny" / "rulings.yaml").write_text(
        "kind: rulings\nrulings:\n  - {key: step, name: 步长, value: 1, min: 0, max: 5, text: 示例, not_modelled: 示例}\n",
        encoding="utf-8")
    (project / "brew" / "rulings.yaml").write_text(
        "kind: rulings\nrulings:\n  - {key: step, value: 4}\n"
        "  - {key: no_such_ruling, value: 1}\n  - {key: half, name: 半, value: 1}\n", encoding="utf-8")
    built = compile_rules([project / "rules", project / "brew"], stop_after="lower")
    shown = [d.format() for d in built.diagnostics]
    assert len(shown) == 2, shown
    assert "rulings.yaml:4:5: error[missing-key]: no ruling 'no_such_ruling' to override" in shown[0]
    assert "rulings.yaml:5:5: error[missing-key]: missing required key 'text'" in shown[1]
    (project / "brew" / "rulings.yaml").write_text("kind: rulings\nrulings:\n  - {key: step, value: 4}\n")
    built = compile_rules([project / "rules", project / "brew"], stop_after="lower")
    assert built.ok, [d.format() for d in built.diagnostics]
    (step,) = built.rulesets[0].rulings
    assert (step.name, step.value, step.text) == ("步长", 4, "示例")  # the name and text stay the ruleset's


def test_the_hint_for_a_pack_alone_names_the_rules_from_where_the_user_is(tmp_path: Path):
    project = _project(tmp_path)
    inside = rulec("validate", "--rules", ".", cwd=project / "brew")
    assert "--rules ../rules/ --rules ." in inside.stderr and 'rules = ["../rules", "."]' in inside.stderr
    beside = rulec("validate", "brew", cwd=project)
    assert "--rules rules/ --rules brew" in beside.stderr, beside.stderr


def test_build_watch_says_when_and_which_file_changed(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    from rulec.cli.main import _watch

    project = _project(tmp_path)
    looks: list[None] = []

    def stop() -> bool:
        looks.append(None)
        if len(looks) == 2:
            weapons = project / "brew" / "weapons.yaml"
            weapons.write_text(weapons.read_text(encoding="utf-8").replace("name: 锤", "name: 大锤"), encoding="utf-8")
        return len(looks) > 3

    assert _watch([project / "rules", project / "brew"], tmp_path / "out", ("python",), "text", 0.05, stop) == 0
    said = capsys.readouterr().err
    assert re.search(r"^\[\d\d:\d\d:\d\d\] changed: brew/weapons\.yaml$", said, re.M), said
    assert re.search(r"wrote .*out: \d+ changed.* in \d+ ms at \d\d:\d\d:\d\d", said), said
