"""The build cache (compiler/build/cache.py) only saves time: a warm build writes exactly what a build
without the cache writes, and every diagnostic is found again after an edit."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulec.build import cache
from rulec.build.facade import compile_rules
from rulec.load import Document

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "cases" / "valid_tiny" / "rules" / "tiny"


def _use_cache(monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    monkeypatch.setenv("RULEC_CACHE_DIR", setting)
    cache.cache_dir.cache_clear()
    cache.secret.cache_clear()


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # this test's own secret cache key
    _use_cache(monkeypatch, str(tmp_path / "cache"))
    yield tmp_path / "cache"
    monkeypatch.delenv("RULEC_CACHE_DIR")
    monkeypatch.delenv("XDG_CONFIG_HOME")
    cache.cache_dir.cache_clear()
    cache.secret.cache_clear()


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_a_warm_build_after_an_edit_equals_a_build_without_cache(tmp_path: Path, fresh_cache: Path,
                                                                   monkeypatch: pytest.MonkeyPatch):
    rules = tmp_path / "dp"
    shutil.copytree(ROOT / "rules" / "dp", rules)
    assert compile_rules([rules]).ok  # fills the cache
    table = next((rules / "tables").glob("*weapon*.yaml"))
    text = table.read_text(encoding="utf-8")
    table.write_text(text.replace("name: 长剑", "name: 长剑（改）", 1), encoding="utf-8")
    warm = compile_rules([rules])
    assert any(fresh_cache.iterdir()) and warm.ok
    _use_cache(monkeypatch, "off")
    cold = compile_rules([rules])
    assert warm.files == cold.files
    assert "长剑（改）" in warm.files["reference/dp.md"].decode()


def test_diagnostics_are_found_again_whatever_the_cache_holds(tmp_path: Path, fresh_cache: Path):
    rules = tmp_path / "tiny"
    shutil.copytree(TINY, rules)
    weapons = rules / "weapons.yaml"
    good = weapons.read_text(encoding="utf-8")
    assert compile_rules([rules]).ok
    weapons.write_text(good.replace("damage: 1, rules", "damage: many, rules", 1), encoding="utf-8")
    for _ in range(2):  # the second time, every other entry of the file is a remembered clean one
        build = compile_rules([rules])
        [diag] = build.diagnostics
        assert not build.ok and diag.span.file.endswith("weapons.yaml") and diag.span.line == 5
    weapons.write_text(good, encoding="utf-8")
    assert compile_rules([rules]).ok


def _corrupt(entries: list[Path], rng: random.Random) -> str:
    """Damage one cache entry the way disks, crashes and other programs do."""
    entries = [p for p in entries if p.is_file()]
    victim = rng.choice(entries)
    raw = victim.read_bytes()
    how = rng.choice(["truncate", "flip", "swap", "foreign", "folder", "empty", "same-length-text"])
    if how == "truncate":
        victim.write_bytes(raw[: rng.randrange(len(raw))])
    elif how == "flip":
        data = bytearray(raw)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        victim.write_bytes(bytes(data))
    elif how == "swap":
        other = rng.choice(entries)
        a, b = victim.read_bytes(), other.read_bytes()
        victim.write_bytes(b)
        other.write_bytes(a)
    elif how == "foreign":
        victim.write_bytes(b"0" * 64 + b"\n" + b'{"kind": "table", "data": {}, "spans": [], "keys": [], "quoted": []}')
    elif how == "folder":
        victim.unlink()
        victim.mkdir()
        (victim / "x").write_text("not an entry")
    elif how == "empty":
        victim.write_bytes(b"")
    else:  # the attack of the issue: a different name of the same length, a valid payload
        victim.write_bytes(raw.replace("长剑".encode(), "短剑".encode()))
    return f"{how} {victim.name[:12]}"


def _corruption_rounds(tmp_path: Path, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch, rounds: int) -> None:
    rules = tmp_path / "dp"
    shutil.copytree(ROOT / "rules" / "dp", rules)
    _use_cache(monkeypatch, "off")
    reference = compile_rules([rules]).files
    _use_cache(monkeypatch, str(fresh_cache))
    assert compile_rules([rules]).files == reference
    rng = random.Random(1201)
    for i in range(rounds):
        entries = sorted(p for p in fresh_cache.rglob("*") if p.is_file() and not p.name.startswith(".tmp"))
        done = [_corrupt(entries, rng) for _ in range(rng.randint(1, 3))]
        build = compile_rules([rules])
        assert build.ok, (i, done, [d.format() for d in build.diagnostics])
        assert build.files == reference, (i, done)
        for folder in [p for p in fresh_cache.rglob("*") if p.is_dir() and len(p.name) == 64]:
            shutil.rmtree(folder)  # a folder in an entry's place stays a miss until removed


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_a_corrupted_cache_never_changes_a_build(tmp_path: Path, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch):
    _corruption_rounds(tmp_path, fresh_cache, monkeypatch, 3)  # 200 in the slow run


@pytest.mark.slow
def test_a_corrupted_cache_never_changes_a_build_200_times(tmp_path: Path, fresh_cache: Path,
                                                           monkeypatch: pytest.MonkeyPatch):
    _corruption_rounds(tmp_path, fresh_cache, monkeypatch, 200)


def test_cache_entries_are_json_and_sealed(fresh_cache: Path):
    name = cache.key("test", "value")
    cache.put(name, {"a": [1, "二", None]})
    path = cache._path(fresh_cache, name)
    seal, _, payload = path.read_bytes().partition(b"\n")
    assert payload == '{"a":[1,"二",null]}'.encode() and len(seal) == 64
    assert cache.get(name) == {"a": [1, "二", None]}
    other = cache.key("test", "other")
    cache._path(fresh_cache, other).parent.mkdir(exist_ok=True)
    cache._path(fresh_cache, other).write_bytes(path.read_bytes())  # an entry under another name
    assert cache.get(other) is None
    with pytest.raises(TypeError):
        cache.put(name, {1, 2})  # only plain data is cached
    assert Document.from_json("f.yaml", {"kind": 3}) is None


def _reseal(entries: list[Path], old: bytes, new: bytes, seal) -> int:  # type: ignore[no-untyped-def]
    """Change `old` to `new` in every entry holding it and seal it again with `seal(name, payload)`."""
    done = 0
    for path in entries:
        _, _, payload = path.read_bytes().partition(b"\n")
        if old in payload:
            payload = payload.replace(old, new)
            path.write_bytes(seal(path.name, payload) + b"\n" + payload)
            done += 1
    return done


def test_an_entry_resealed_by_whoever_can_write_the_cache_is_a_miss(tmp_path: Path, fresh_cache: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    """The attack of issue 27: the seal used to be a public SHA-256, so anyone who could write the
    cache folder could change an entry and seal it again. Now it is keyed by a secret the folder
    does not hold: a public-hash seal, or one under any other key, is a miss."""
    import hashlib
    import hmac

    rules = tmp_path / "tiny"
    shutil.copytree(TINY, rules)
    _use_cache(monkeypatch, "off")
    reference = compile_rules([rules]).files
    _use_cache(monkeypatch, str(fresh_cache))
    assert compile_rules([rules]).files == reference
    entries = sorted(p for p in fresh_cache.rglob("*") if p.is_file())

    def public(name: str, payload: bytes) -> bytes:
        return hashlib.sha256(b"rulec-cache-1\n" + name.encode() + b"\n" + payload).hexdigest().encode()

    def other_key(name: str, payload: bytes) -> bytes:
        return hmac.new(b"k" * 32, cache.FORMAT + b"\n" + name.encode() + b"\n" + payload,
                        hashlib.sha256).hexdigest().encode()

    for seal in (public, other_key):
        assert _reseal(entries, "投石索".encode(), "投石器".encode(), seal)
        build = compile_rules([rules])
        assert build.ok and build.files == reference
        assert "投石器" not in build.files["reference/tiny.md"].decode()
        entries = sorted(p for p in fresh_cache.rglob("*") if p.is_file())
        _reseal(entries, "投石器".encode(), "投石索".encode(), seal)  # the next round changes them again


def test_build_check_trusts_no_cache_entry_even_one_sealed_with_the_key(tmp_path: Path, fresh_cache: Path,
                                                                         monkeypatch: pytest.MonkeyPatch):
    """Whoever holds the key (this account) is trusted like rulec itself; even so, `build --check`
    compiles with no cache at all, so a poisoned entry can never make it vouch for a wrong tree."""
    from click.testing import CliRunner

    import rulec.cli.main  # noqa: F401  (registers build)
    from rulec.cli.shell import main

    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["build", "--rules", "rules", "--out", "good"]).exit_code == 0
    entries = sorted(p for p in fresh_cache.rglob("*") if p.is_file())
    assert _reseal(entries, "投石索".encode(), "投石器".encode(), cache._seal)  # the worst case: sealed right
    poisoned = runner.invoke(main, ["build", "--rules", "rules", "--out", "poisoned"])
    assert poisoned.exit_code == 0
    check_good = runner.invoke(main, ["build", "--rules", "rules", "--out", "good", "--check"])
    assert check_good.exit_code == 0 and "up to date" in check_good.output, check_good.output
    if "投石器" in (tmp_path / "poisoned" / "reference" / "tiny.md").read_text(encoding="utf-8"):  # the key holder's power
        check_bad = runner.invoke(main, ["build", "--rules", "rules", "--out", "poisoned", "--check"])
        assert check_bad.exit_code == 1 and "reference/tiny.md" in check_bad.output, check_bad.output


def test_page_rows_come_back_from_the_cache_and_only_as_plain_rows(tmp_path: Path, fresh_cache: Path,
                                                                    monkeypatch: pytest.MonkeyPatch):
    """A one-shot build finds the pages' rows of unchanged entries in the cache (issue 34: an edit
    of one weapon of a big pack writes one run of rows again), and uses them only when they hold
    no markup but the rows' own: even an entry sealed with the key cannot put a script on a page."""
    from rulec.emit import reference

    rules = tmp_path / "tiny"
    shutil.copytree(TINY, rules)
    _use_cache(monkeypatch, "off")
    expected = compile_rules([rules]).files
    _use_cache(monkeypatch, str(fresh_cache))
    assert compile_rules([rules]).files == expected  # fills the cache
    made: list[object] = []
    real = reference._rows_of
    monkeypatch.setattr(reference, "_rows_of", lambda *a: made.append(a) or real(*a))
    assert compile_rules([rules]).files == expected and not made  # every row from the cache
    entries = sorted(p for p in fresh_cache.rglob("*") if p.is_file())
    assert _reseal(entries, "投石索</strong>".encode(), "投石索<script>alert(1)</script></strong>".encode(), cache._seal)
    build = compile_rules([rules])
    assert build.files == expected and made  # the forged rows are not rows: written again
    assert reference._markup_safe('<tr id="a"><td class="name"><strong>x</strong></td><td><a href="#b">c</a></td></tr>')
    assert not reference._markup_safe('<td><a href="javascript:x">c</a></td>')


@pytest.mark.parametrize("how", ["readable", "link", "garbage"])
def test_an_unsafe_key_file_turns_the_cache_off(tmp_path: Path, fresh_cache: Path, how: str,
                                                monkeypatch: pytest.MonkeyPatch):
    assert cache.cache_dir() is not None  # made on first use, mode 0600
    key = cache.key_file()
    assert key is not None and key.stat().st_mode & 0o777 == 0o600
    if how == "readable":
        key.chmod(0o644)
    elif how == "link":
        real = tmp_path / "real-key"
        real.write_bytes(key.read_bytes())
        real.chmod(0o600)
        key.unlink()
        key.symlink_to(real)
    else:
        key.write_text("not a key\n")
    _use_cache(monkeypatch, str(fresh_cache))
    assert cache.cache_dir() is None and cache.store() is None


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


def _mini_with(tmp_path: Path, extra_param: str, formula: str, files: dict[str, str], ruleset_tail: str = "") -> Path:
    """The tests' mini ruleset with a second parameter of its attack and the damage formula using it."""
    rules = tmp_path / "mini"
    shutil.copytree(ROOT / "tests" / "cases" / "rulesets" / "mini", rules)
    attack = rules / "attack.yaml"
    text = attack.read_text(encoding="utf-8")
    assert "      - {id: weapon, name: 武器, type: weapons}" in text and "weapon.damage - defender.defense" in text
    attack.write_text(text.replace("      - {id: weapon, name: 武器, type: weapons}",
                                   "      - {id: weapon, name: 武器, type: weapons}\n" + extra_param, 1)
                      .replace("weapon.damage - defender.defense", formula, 1), encoding="utf-8")
    if ruleset_tail:
        manifest = rules / "ruleset.yaml"
        manifest.write_text(manifest.read_text(encoding="utf-8") + ruleset_tail, encoding="utf-8")
    for name, body in files.items():
        path = rules / name
        path.write_text((path.read_text(encoding="utf-8") if path.exists() else "") + body, encoding="utf-8")
    return rules


@pytest.mark.parametrize("case", ["default entry of the same table", "default entry of a big table",
                                  "inline table after a big one"])
def test_balancing_odds_follow_every_entry_they_read(tmp_path: Path, fresh_cache: Path,
                                                     monkeypatch: pytest.MonkeyPatch, case: str):
    """The odds rows kept by the code's digest without a table's own rows: an edit of another entry
    the odds read (a parameter's default entry of that table; an entry of a small table written
    after a big one's JSON-rows line) recomputes them, as a build without the cache does."""
    many = "".join(f"  - {{id: w{i}, name: 兵{i}, damage: {i % 6}}}\n" for i in range(600))  # rows as JSON
    if case.startswith("default"):
        rules = _mini_with(tmp_path, "      - {id: offhand, name: 副手, type: weapons, default: stick}",
                           "weapon.damage + offhand.damage - defender.defense",
                           {"weapons.yaml": many} if "big" in case else {})
        table, old, new = rules / "weapons.yaml", "{id: stick, name: 木棍, damage: 1}", "{id: stick, name: 木棍, damage: 4}"
    else:
        rules = _mini_with(tmp_path, "      - {id: armor, name: 护甲, type: armors, default: plate}",
                           "weapon.damage - defender.defense - armor.soak",
                           {"weapons.yaml": many, "armors.yaml": "kind: table\ntable: armors\nentries:\n"
                                                                 "  - {id: plate, name: 板甲, soak: 1}\n"},
                           "  - id: armors\n    name: 护甲\n    fields:\n"
                           "      - {id: soak, name: 减伤, type: int, min: 0, max: 6, required: true}\n")
        table, old, new = rules / "armors.yaml", "soak: 1}", "soak: 3}"
    assert compile_rules([rules]).ok  # fills the cache
    table.write_text(table.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    warm = compile_rules([rules])
    _use_cache(monkeypatch, "off")
    cold = compile_rules([rules])
    assert warm.ok and warm.files["reference/mini.md"] == cold.files["reference/mini.md"]


@pytest.mark.parametrize("read", [False, True], ids=["prose", "read by the damage"])
def test_editing_a_weapons_prose_keeps_its_odds_unless_a_formula_reads_it(tmp_path: Path, fresh_cache: Path,
                                                                          monkeypatch: pytest.MonkeyPatch, read: bool):
    """A `text` field no formula reads (a weapon's 说明) is left out of the odds rows' keys: editing
    it recomputes no odds (and imports no package: the README's first homebrew step). Once the
    damage formula reads it, the same edit recomputes that weapon's row."""
    from rulec.emit import odds_tables

    formula = "weapon.damage + (1 if weapon.notes == '只能远射' else 0) - defender.defense" if read else \
        "weapon.damage - defender.defense"
    rules = _mini_with(tmp_path, "", formula, {})
    assert compile_rules([rules]).ok  # fills the cache
    table = rules / "weapons.yaml"
    table.write_text(table.read_text(encoding="utf-8").replace("notes: 只能远射", "notes: 只能远射（改）", 1),
                     encoding="utf-8")
    computed: list[str] = []
    real = odds_tables._Evaluator._compute
    monkeypatch.setattr(odds_tables._Evaluator, "_compute",
                        lambda self, preset, entry: computed.append(entry.id) or real(self, preset, entry))
    warm = compile_rules([rules])
    assert computed == (["bow"] if read else [])
    _use_cache(monkeypatch, "off")
    cold = compile_rules([rules])
    assert warm.ok and warm.files == cold.files
