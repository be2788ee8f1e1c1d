"""A resident build (`session.Session`, `rulec build --watch`) writes byte for byte what a one-shot
build writes, after edits of every kind: it only keeps work whose inputs did not change (issue 20)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules
from rulec.build.result import Build
from rulec.build.session import Session
from rulec.memo import Memo

ROOT = Path(__file__).resolve().parent.parent


def _pack(folder: Path, files: int = 3, per_file: int = 30) -> Path:
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text("kind: pack\nid: armoury\nname: 军械库\nextends: dp\n", encoding="utf-8")
    attacks = [("melee", "lethal", 0), ("thrown", "blunt", 10), ("bow", "pierce", 20)]
    for k in range(files):
        lines = ["kind: table", "table: weapons", "entries:"]
        for i in range(k * per_file, (k + 1) * per_file):
            attack, dtype, base = attacks[i % 3]
            lines.append(f"  - {{id: w{i:04d}, name: 自制武器{i}, attack_type: {attack}, damage: {i % 7}, "
                         f"damage_type: {dtype}, strength: {i % 5}, size: {i % 4}, hands: {1 + i % 2}, "
                         f"base_range: {base}, notes: 第{i}件}}")
        (folder / f"weapons_{k}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _same(a: Build, b: Build) -> None:
    assert [d.format() for d in a.diagnostics] == [d.format() for d in b.diagnostics]
    assert a.ok == b.ok
    differing = sorted(rel for rel in set(a.files) | set(b.files) if a.files.get(rel) != b.files.get(rel))
    assert not differing, f"the resident build differs from a fresh one in {differing[:5]}"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture()
def project(tmp_path: Path) -> tuple[Path, Path]:
    rules = tmp_path / "dp"
    shutil.copytree(ROOT / "rules" / "dp", rules)
    return rules, _pack(tmp_path / "pack")


EDITS = [
    ("a weapon's notes", "pack/weapons_1.yaml", "notes: 第31件", "notes: 第31件（改）"),
    ("a weapon's name", "pack/weapons_1.yaml", "name: 自制武器40,", "name: 新名字,"),
    ("a ref field", "pack/weapons_2.yaml", "id: w0061, name: 自制武器61, attack_type: thrown",
     "id: w0061, name: 自制武器61, attack_type: melee"),
    ("a number that widens a range", "pack/weapons_0.yaml", "damage: 3,", "damage: 40,"),
    ("a weapon added", "pack/weapons_0.yaml", "entries:\n", "entries:\n  - {id: extra, name: 加出来的, "
     "attack_type: melee, damage: 2, damage_type: lethal}\n"),
    ("a weapon removed", "pack/weapons_2.yaml", "  - {id: w0089,", "  # - {id: w0089,"),
    ("lines shifted", "pack/weapons_1.yaml", "entries:\n", "# a comment\nentries:\n"),
    ("a bundled weapon", "dp/tables/weapons.yaml", "name: 匕首,", "name: 短匕,"),
    ("a ruling", "dp/rulings.yaml", "name: 瞄准加值上限, value: 3,", "name: 瞄准加值上限, value: 4,"),
    ("a bundled formula table", "dp/ruleset.yaml", "name: 检定组成", "name: 检定的组成"),
]


@pytest.mark.parametrize("edits", [pytest.param(EDITS[:7], marks=pytest.mark.slow),
                                   pytest.param([EDITS[7], EDITS[9]], marks=pytest.mark.slow),
                                   pytest.param([EDITS[8]], marks=pytest.mark.slow)],
                         ids=["pack", "ruleset", "ruling"])
def test_a_resident_build_after_an_edit_is_a_fresh_build(project: tuple[Path, Path],
                                                          edits: list[tuple[str, str, str, str]]) -> None:
    rules, pack = project
    paths = [rules, pack]
    session = Session(paths)
    first = session.build()
    assert first.ok, [d.format() for d in first.diagnostics]
    for what, rel, old, new in edits:  # one after another, as someone editing would
        _edit(rules.parent / rel, old, new)
        resident, fresh = session.build(), compile_rules(paths)
        assert fresh.ok, what
        _same(resident, fresh)


def test_the_odds_rows_a_rebuild_keeps_are_kept_for_the_next(project: tuple[Path, Path],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit past the weapons the odds tables show keeps every odds section (nothing is computed,
    nothing read); the next edit, of a weapon shown, computes that weapon's row only: the record of
    the rows is not lost in between (emit/odds_tables.py `_Evaluator.close`)."""
    from rulec.emit import odds_tables

    rules, pack = project
    _edit(rules / "ruleset.yaml", "      table: weapons\n      procedure: attack\n",
          "      table: weapons\n      procedure: attack\n      max_entries: 20\n")
    computed: list[str] = []
    compute = odds_tables._Evaluator._compute
    monkeypatch.setattr(odds_tables._Evaluator, "_compute",
                        lambda self, preset, entry: (computed.append(entry.id), compute(self, preset, entry))[1])
    session = Session([rules, pack])
    assert session.build().ok
    assert len(computed) == 20
    computed.clear()
    _edit(pack / "weapons_2.yaml", "damage: 3,", "damage: 4,")  # a weapon past the first 20: none shown
    assert session.build().ok
    assert computed == []
    _edit(rules / "tables" / "weapons.yaml", "name: 匕首,", "name: 短匕,")  # shown: only its name changed
    _edit(rules / "tables" / "weapons.yaml", "{id: knuckles, name: 手指虎, attack_type: unarmed, damage: 1,",
          "{id: knuckles, name: 手指虎, attack_type: unarmed, damage: 2,")
    assert session.build().ok
    assert computed == ["knuckles"]


@pytest.mark.slow  # several seconds: CI's slow job
def test_the_entries_of_unchanged_files_are_kept(project: tuple[Path, Path]) -> None:
    rules, pack = project
    session = Session([rules, pack])
    first = session.build().rulesets[0].table("weapons").entries
    _edit(pack / "weapons_1.yaml", "notes: 第31件", "notes: 第31件（改）")
    second = session.build().rulesets[0].table("weapons").entries
    assert len(first) == len(second)
    changed = [e.id for e, f in zip(first, second) if e is not f]
    assert changed == ["w0031"]  # every other entry is the object the first build made, its rows with it


@pytest.mark.slow  # several seconds: CI's slow job
def test_a_broken_file_and_its_fix(project: tuple[Path, Path]) -> None:
    rules, pack = project
    paths = [rules, pack]
    session = Session(paths)
    session.build()
    target = pack / "weapons_1.yaml"
    good = target.read_text(encoding="utf-8")
    _edit(target, "damage: 3,", "damage: [3,")
    broken = session.build()
    assert not broken.ok and not broken.files
    _same(broken, compile_rules(paths))
    _edit(target, "name: 自制武器31,", "name: 自制武器30,")  # a second problem while the first stands
    _same(session.build(), compile_rules(paths))
    target.write_text(good, encoding="utf-8")
    _same(session.build(), compile_rules(paths))


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_a_session_holds_one_build_of_work(project: tuple[Path, Path]) -> None:
    rules, pack = project
    session = Session([rules, pack])
    session.build()
    held = len(session.memo)
    for i in range(4):
        _edit(pack / "weapons_1.yaml", f"notes: 第31件{'改' * i}", f"notes: 第31件{'改' * (i + 1)}")
        session.build()
    assert len(session.memo) <= held * 1.1


@pytest.mark.slow
def test_every_bundled_table_edited_in_a_session() -> None:
    paths = [ROOT / "rules"]
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        rules = Path(tmp) / "rules"
        shutil.copytree(ROOT / "rules", rules)
        session = Session([rules])
        session.build()
        for table in sorted(rules.glob("*/tables/*.yaml")):
            text = table.read_text(encoding="utf-8")
            table.write_text(text.replace("name: ", "name: 改", 1), encoding="utf-8")
            _same(session.build(), compile_rules([rules]))
    assert paths


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_build_watch_rebuilds_after_each_edit(project: tuple[Path, Path], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from rulec.cli.main import _watch

    rules, pack = project
    out = tmp_path / "out"
    looks = []

    def stop() -> bool:  # the watcher looks before each poll; edits land between builds
        looks.append(None)
        if len(looks) == 2:
            _edit(pack / "weapons_1.yaml", "notes: 第31件", "notes: 第31件（改）")
        if len(looks) == 4:
            _edit(pack / "weapons_1.yaml", "damage: 3,", "damage: [3,")
        return len(looks) > 6

    assert _watch([rules, pack], out, ("python", "js"), "text", 0.05, stop) == 0
    said = capsys.readouterr().err
    assert said.count(f"wrote {out}") == 2 and "build failed; nothing was written" in said, said
    assert not compile_rules([rules, pack]).ok  # the last edit broke the pack: the output is the build before
    _edit(pack / "weapons_1.yaml", "damage: [3,", "damage: 3,")
    fresh = compile_rules([rules, pack])
    on_disk = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert {rel: data for rel, data in on_disk.items() if not rel.startswith(".rulec")} == fresh.files


def test_watch_and_check_do_not_mix() -> None:
    from click.testing import CliRunner

    import rulec.cli.main  # noqa: F401  (registers build)
    from rulec.cli.shell import main

    result = CliRunner().invoke(main, ["build", "--watch", "--check"])
    assert result.exit_code == 1 and "cannot be combined with --check" in result.output


@pytest.mark.slow  # a 10,000-entry pack built twice (tests/test_splice.py holds the splice itself to load_text)
def test_a_large_table_file_edited_is_spliced_and_still_a_fresh_build(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A table file over 64 KiB is composed again only where it changed (load/splice.py): a value
    edited in the middle and a weapon added at the end, each a build equal to a fresh one."""
    import rulec.load.splice as splice_module

    rules = tmp_path / "dp"
    shutil.copytree(ROOT / "rules" / "dp", rules)
    pack = _pack(tmp_path / "pack", files=1, per_file=700)
    target = pack / "weapons_0.yaml"
    assert target.stat().st_size > 64 * 1024
    spliced: list[bool] = []
    real = splice_module.splice

    def spy(old: object, text: str) -> object:
        made = real(old, text)  # type: ignore[arg-type]
        spliced.append(made is not None)
        return made

    monkeypatch.setattr(splice_module, "splice", spy)
    session = Session([rules, pack])
    assert session.build().ok
    for old, new in (("notes: 第350件}", "notes: 第350件（改）}"), ("notes: 第699件}\n", "notes: 第699件}\n"
                                                                 "  - {id: extra, name: 新加的, attack_type: melee, "
                                                                 "damage: 2, damage_type: lethal}\n")):
        _edit(target, old, new)
        _same(session.build(), compile_rules([rules, pack], memo=Memo()))  # a build that keeps nothing
    assert spliced == [True, True]


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


def test_an_entry_edit_fills_the_kept_page_skeleton(project: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """After an edit of one weapon, the pages are the kept skeleton filled with this build's rows:
    the templates are not rendered again (nothing in the skeleton may differ from build to build,
    such as the page cells' functions, made afresh each build)."""
    from rulec.emit import skeleton

    rules, pack = project
    session = Session([rules, pack])
    assert session.build().ok
    rendered: list[str] = []
    real = skeleton.render_markdown
    monkeypatch.setattr(skeleton, "render_markdown", lambda *a, **k: rendered.append(a[0]) or real(*a, **k))
    _edit(pack / "weapons_1.yaml", "notes: 第31件", "notes: 第31件（改）")
    assert session.build().ok
    assert rendered == []


def test_a_resident_build_keeps_freed_memory_where_the_allocator_is_glibc() -> None:
    """A session asks glibc's malloc, once a process, to keep what a build frees for the next one
    (session.py `keep_freed_memory`); a one-shot build never asks. In a fresh process, so that the
    setting reaches no other test."""
    import platform
    import subprocess
    import sys

    code = ("import sys; from rulec.build import session; from rulec.build.facade import compile_rules; "
            "print(session._KEPT); session.Session([]); print(session._KEPT, session.keep_freed_memory())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    glibc = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert done.stdout.split("\n")[:2] == ["[]", f"[{glibc}] {glibc}"], done.stdout
