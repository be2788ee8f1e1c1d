"""`rulec new pack NAME`: a pack folder that builds and whose scenario passes as written, with the
schema line every YAML file needs, and never written over anything."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def rulec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulec", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "NO_COLOR": "1"}, timeout=600)


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


@pytest.mark.slow  # an integration run of several seconds: CI's slow job
def test_a_new_pack_builds_and_its_scenario_passes(tmp_path: Path):
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    made = rulec("new", "pack", "My-Pack", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    pack = tmp_path / "My-Pack"
    names = sorted(p.relative_to(pack).as_posix() for p in pack.rglob("*") if p.is_file())
    assert names == ["README.md", "called_shots.yaml", "pack.yaml", "rulec.toml", "rulings.yaml",
                     "scenarios/first.yaml", "weapons.yaml"]
    assert "id: my_pack" in (pack / "pack.yaml").read_text(encoding="utf-8")
    assert "扩展包" in (pack / "README.md").read_text(encoding="utf-8")
    assert "#  - {key: power_attack_bonus, value: 3}" in (pack / "rulings.yaml").read_text(encoding="utf-8")
    tested = rulec("test", cwd=pack)  # builds ../build/my_pack first (rulec.toml), then runs scenarios/
    assert tested.returncode == 0 and "1 passed, 0 failed" in tested.stderr, tested.stderr
    assert (tmp_path / "build" / "my_pack" / ".rulec-stamp.json").is_file()
    built = rulec("build", cwd=pack)
    assert built.returncode == 0 and "unchanged" in built.stderr, built.stderr
    for path in [*pack.glob("*.yaml"), *pack.glob("scenarios/*.yaml")]:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        schema = (path.parent / MODELINE.fullmatch(first).group(1)).resolve()  # type: ignore[union-attr]
        assert schema.is_file(), (path, schema)
        checked = subprocess.run([sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema), str(path)],
                                 capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_new_pack_never_overwrites(tmp_path: Path):
    (tmp_path / "brew").mkdir()
    (tmp_path / "brew" / "keep.txt").write_text("mine")
    done = rulec("new", "pack", "brew", "--rules", str(ROOT / "rules"), cwd=tmp_path)
    assert done.returncode == 1 and "exists already" in done.stderr and "nothing was written" in done.stderr
    assert [p.name for p in (tmp_path / "brew").iterdir()] == ["keep.txt"]


@pytest.mark.parametrize("args,said", [
    (("new", "pack", "9lives"), "cannot make a pack id"),
    (("new", "pack", "x", "--extends", "d20"), "templates are written for dp"),
    (("new", "pack", "x", "--rules", "nowhere"), "no ruleset 'dp' in nowhere"),
])
def test_refusals_write_nothing(tmp_path: Path, args: tuple[str, ...], said: str):
    done = rulec(*args, cwd=tmp_path)
    assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []
