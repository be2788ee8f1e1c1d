"""freshness.py: the stat record that lets `rulec resolve` trust an up-to-date build without hashing
it, and how the build, the writer and `rulec resolve` treat it (issue 20)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulec.build import freshness
from rulec.cli import play
from rulec.build.freshness import RECORD, remember, snapshot, still_fresh
from rulec.build.stamp import STAMP
from rulec.build.write import diff_tree

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A rules folder and an output folder whose files may be recorded at once."""
    monkeypatch.setattr(freshness, "RACY_NS", 0)
    (tmp_path / "rules" / "x").mkdir(parents=True)
    (tmp_path / "rules" / "x" / "ruleset.yaml").write_text("id: x\n", encoding="utf-8")
    (tmp_path / "out" / "pkg").mkdir(parents=True)
    (tmp_path / "out" / STAMP).write_text("{}\n", encoding="utf-8")
    (tmp_path / "out" / "pkg" / "m.py").write_text("X = 1\n", encoding="utf-8")
    return tmp_path


def test_recorded_only_after_remember_and_until_anything_changes(project: Path) -> None:
    out, roots = project / "out", [project / "rules"]
    assert not still_fresh(out, roots)
    assert remember(out, snapshot(out, roots))
    assert still_fresh(out, roots)
    assert not still_fresh(out, roots, ("python",))  # another set of targets is another build
    assert not still_fresh(out, [project / "rules" / "x"])  # so is another set of rule folders
    (out / "pkg" / "__pycache__").mkdir()
    (out / "pkg" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    assert still_fresh(out, roots)  # Python's bytecode caches are not the build's


@pytest.mark.parametrize("change", ["edit input", "new input", "remove output", "edit output", "bad record"])
def test_any_change_falls_back_to_the_content_check(project: Path, change: str) -> None:
    out, roots = project / "out", [project / "rules"]
    assert remember(out, snapshot(out, roots))
    manifest = project / "rules" / "x" / "ruleset.yaml"
    if change == "edit input":  # same size, same second: the inode's change time still moves
        stat = manifest.stat()
        manifest.write_text("id: y\n", encoding="utf-8")
        os.utime(manifest, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    elif change == "new input":
        (project / "rules" / "x" / "more.yaml").write_text("a: 1\n", encoding="utf-8")
    elif change == "remove output":
        (out / "pkg" / "m.py").unlink()
    elif change == "edit output":
        (out / "pkg" / "m.py").write_text("X = 2\n", encoding="utf-8")
    else:
        (out / RECORD).write_text("rulec-stat 1\tnonsense\n", encoding="utf-8")
    assert not still_fresh(out, roots)


def test_a_change_during_the_content_check_is_not_vouched_for(project: Path) -> None:
    """The snapshot is taken before the content check: a file edited while the check runs no longer
    has the recorded stat data, so the record never vouches for the edit."""
    out, roots = project / "out", [project / "rules"]
    before = snapshot(out, roots)
    (project / "rules" / "x" / "ruleset.yaml").write_text("id: z\n", encoding="utf-8")  # during the check
    assert remember(out, before)
    assert not still_fresh(out, roots)


def test_young_files_are_not_vouched_for(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freshness, "RACY_NS", 60 * 10**9)
    assert not remember(project / "out", snapshot(project / "out", [project / "rules"]))
    assert not (project / "out" / RECORD).exists()


def test_a_single_rule_file_is_left_to_the_content_check(project: Path) -> None:
    assert snapshot(project / "out", [project / "rules" / "x" / "ruleset.yaml"]) is None
    assert not remember(project / "out", None)


def test_the_record_is_not_build_output(project: Path) -> None:
    out = project / "out"
    assert remember(out, snapshot(out, [project / "rules"]))
    files = {STAMP: (out / STAMP).read_bytes(), "pkg/m.py": (out / "pkg" / "m.py").read_bytes()}
    assert not diff_tree(out, files)  # neither `build --check` nor the writer sees an extra file


@pytest.mark.parametrize("later", [pytest.param((["build", "--check"], ["build"]), marks=pytest.mark.slow, id="check"),
                                   pytest.param((["build"],), id="build")])
@pytest.mark.slow  # several seconds of building: CI's slow job
def test_resolve_trusts_the_record_and_imports_no_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      later: tuple[list[str], ...]) -> None:
    """A real build: the content check records, `rulec build` (and `--check`, an uncached compile:
    the slow run) leave the record alone, and `rulec resolve` then reads the scenario without PyYAML,
    jsonschema, msgspec (the compiler's records) or the diagnostics."""
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    shutil.copy(ROOT / "examples" / "dp" / "wang_vs_wu_miss.yaml", tmp_path / "s.yaml")
    rulec = [sys.executable, "-m", "rulec"]
    assert subprocess.run(rulec + ["build"], cwd=tmp_path, capture_output=True).returncode == 0
    monkeypatch.setattr(freshness, "RACY_NS", 0)
    monkeypatch.chdir(tmp_path)
    assert play._built(Path("generated"), [Path("rules")], "dp")
    assert (tmp_path / "generated" / RECORD).is_file()
    for args in later:
        result = subprocess.run(rulec + args, cwd=tmp_path, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
    assert still_fresh(Path("generated"), [Path("rules")])
    probe = ("import sys, atexit; sys.argv = ['rulec', 'resolve', 's.yaml']\n"
             "atexit.register(lambda: print(sorted(m for m in ('yaml', 'jsonschema', 'msgspec', 'rulec.diagnostics', "
             "'rulec.build.facade') if m in sys.modules), file=sys.stderr))\n"
             "from rulec.cli.entry import main; main()")
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0 and "攻击未命中" in result.stdout, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "[]"
    weapons = tmp_path / "rules" / "dp" / "tables" / "weapons.yaml"
    weapons.write_text(weapons.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert not still_fresh(Path("generated"), [Path("rules")])
    assert not play._built(Path("generated"), [Path("rules")], "dp")


def test_an_edit_between_the_digest_and_the_compile_is_never_vouched_for(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch):
    """Issue 27: the stamp used to hold a digest taken before compiling, so a file edited between
    that read and the compile's, then edited back, left a stale output the stamp called fresh. The
    stamp now records the digest of the very bytes the build loaded (`Build.inputs`)."""
    import json

    from click.testing import CliRunner

    import rulec.cli.main as cli
    from rulec.cli.shell import main
    from rulec.build.stamp import input_digest

    shutil.copytree(ROOT / "tests" / "cases" / "valid_tiny" / "rules", tmp_path / "rules")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEC_CACHE_DIR", "off")
    weapons = tmp_path / "rules" / "tiny" / "weapons.yaml"
    before = weapons.read_text(encoding="utf-8")
    during = before.replace("name: 棍", "name: 大棍", 1)
    real_compile = cli._compile

    def edited_meanwhile(*args, **kwargs):  # type: ignore[no-untyped-def]
        weapons.write_text(during, encoding="utf-8")  # lands after `build` digested the inputs
        return real_compile(*args, **kwargs)

    monkeypatch.setattr(cli, "_compile", edited_meanwhile)
    runner = CliRunner()
    assert runner.invoke(main, ["build", "--rules", "rules", "--out", "out"]).exit_code == 0
    assert "大棍" in (tmp_path / "out" / "reference" / "tiny.md").read_text(encoding="utf-8")
    stamp = json.loads((tmp_path / "out" / STAMP).read_text(encoding="utf-8"))
    assert stamp["inputs"] == input_digest([Path("rules")])  # the bytes compiled, not the ones digested first
    monkeypatch.setattr(cli, "_compile", real_compile)
    weapons.write_text(before, encoding="utf-8")  # the edit undone
    again = runner.invoke(main, ["build", "--rules", "rules", "--out", "out"])
    assert again.exit_code == 0 and "unchanged" not in again.output, again.output
    page = (tmp_path / "out" / "reference" / "tiny.md").read_text(encoding="utf-8")
    assert "大棍" not in page and "棍" in page
    check = runner.invoke(main, ["build", "--rules", "rules", "--out", "out", "--check"])
    assert check.exit_code == 0, check.output


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
