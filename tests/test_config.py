"""The project config (compiler/config.py): the nearest rulec.toml, or pyproject.toml with
[tool.rulec], sets defaults for --rules, --out and `rulec test`'s paths; flags override it; paths
are relative to the file; an unknown key or a bad value is a file:line:col diagnostic."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.build.config import ConfigError, find_config, load_config


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


def test_found_upward_and_relative_to_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "pack" / "deep").mkdir(parents=True)
    (tmp_path / "pack" / "rulec.toml").write_text('rules = ["../rules", "."]\nout = "../build/x"\n')
    monkeypatch.chdir(tmp_path / "pack" / "deep")
    config = load_config()
    assert config.file == (tmp_path / "pack" / "rulec.toml")
    assert config.rules == (Path("../../rules"), Path(".."))
    assert config.out == Path("../../build/x") and config.scenarios == ()


def test_pyproject_needs_the_table_and_rulec_toml_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    (tmp_path / "pyproject.toml").write_text('[tool.other]\nx = 1\n\n[tool.rulec]\nrules = "rules"\n')
    monkeypatch.chdir(tmp_path / "a")
    assert find_config() == tmp_path / "pyproject.toml"  # a pyproject.toml without [tool.rulec] is passed over
    assert load_config().rules == (Path("../rules"),)
    (tmp_path / "a" / "rulec.toml").write_text('out = "o"\n')
    assert load_config().out == Path("o") and load_config().rules == ()


@pytest.mark.parametrize("name,text,where,said", [
    ("rulec.toml", 'rules = ["r"]\nrulse = ["x"]\n', "rulec.toml:2:1", "did you mean 'rules'"),
    ("pyproject.toml", '[tool.rulec]\n\n  outt = "x"\n', "pyproject.toml:3:3", "unknown key 'outt'"),
    ("rulec.toml", 'out = ["a", "b"]\n', "rulec.toml:1:1", "'out' is a path"),
    ("rulec.toml", 'rules = [1]\n', "rulec.toml:1:1", "'rules' is a path or a list"),
    ("rulec.toml", 'rules = ["a"]\nout = \n', "rulec.toml:2:7", "not valid TOML"),
    ("rulec.toml", "rules = [" + ", ".join(['"x"'] * 65) + "]\n", "rulec.toml:1:1", "1 to 64 paths"),
])
def test_bad_configs_are_diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str,
                                     where: str, said: str):
    (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        load_config()
    shown = [d.format() for d in caught.value.diagnostics]
    assert any(line.startswith(where) and said in line for line in shown), shown


def test_a_huge_config_is_refused_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "rulec.toml").write_text("# " + "x" * 300_000 + "\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        load_config()
    assert caught.value.diagnostics[0].code == "file-too-large"
