"""A one-shot build reuses the outputs of unchanged rulesets, and the texts made from an edited
ruleset's unchanged shape, from the output folder it replaces (build/reuse.py): the tree it writes
is byte for byte a fresh build's, whatever was edited or tampered with in the folder, and nothing
is reused without a record of this account's cache whose digest the bytes on disk still match."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from every_ruleset import folder
from rulec.build import facade, reuse
from rulec.build.facade import compile_rules
from rulec.build.write import write_build
from rulec.emit.js import bundle as js_bundle, code as js_code
from rulec.emit.python import package as py_package
from rulec.memo import Memo

ROOT = Path(__file__).resolve().parent.parent


TINY = ROOT / "tests" / "cases" / "valid_tiny" / "rules" / "tiny"


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    """A copy of two small rulesets, to edit: the tests' mini, and tiny (which the build takes
    whole from the output folder while only mini is edited)."""
    out = tmp_path / "rules"
    shutil.copytree(folder("mini"), out / "mini")
    shutil.copytree(TINY, out / "tiny")
    return out


def _build(rules: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Build `rules` into `out` as `rulec build` does; how many rulesets were checked and how many
    procedure modules of each target were written afresh (and, under "digests", nothing: the
    build's digests are in `_build.digests`)."""
    made = {"checked": 0, "py": 0, "js": 0}
    checked, py_body, js_body = facade.check_ruleset, py_package._procedures_body, js_bundle._procedures

    def count(key: str, fn):  # type: ignore[no-untyped-def]
        def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
            made[key] += 1
            return fn(*args, **kwargs)
        return counted

    monkeypatch.setattr(facade, "check_ruleset", count("checked", checked))
    monkeypatch.setattr(py_package, "_procedures_body", count("py", py_body))
    monkeypatch.setattr(js_bundle, "_procedures", count("js", js_body))
    result = compile_rules([rules], previous=out)
    assert result.ok, [d.format() for d in result.diagnostics]
    write_build(out, result)
    _build.digests = result.digests  # type: ignore[attr-defined]
    monkeypatch.undo()
    return made


def _fresh(rules: Path, tmp: Path) -> dict[str, bytes]:
    """What a build with no cache and no previous output writes (`rulec build --check`'s build)."""
    result = compile_rules([rules], memo=Memo())
    out = tmp / "fresh"
    shutil.rmtree(out, ignore_errors=True)
    write_build(out, result)
    return _tree(out)


def _tree(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_unchanged_ruleset_is_reused_and_an_edited_one_keeps_its_procedures(rules: Path, tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    assert _build(rules, out, monkeypatch) == {"checked": 2, "py": 2, "js": 2}
    _edit(rules / "mini" / "weapons.yaml", "只能远射", "只能远射（改）")
    # tiny is taken whole from `out`; mini is checked and emitted, its procedure modules taken from `out`
    assert _build(rules, out, monkeypatch) == {"checked": 1, "py": 0, "js": 0}
    assert _tree(out) == _fresh(rules, tmp_path)
    _edit(rules / "mini" / "attack.yaml", "kind: procedures", "kind: procedures\n# 改")  # the shape: same IR
    _edit(rules / "tiny" / "ruleset.yaml", "name:", "# 改\nname:")
    assert _build(rules, out, monkeypatch)["checked"] == 2
    assert _tree(out) == _fresh(rules, tmp_path)


def _flip(path: Path) -> None:
    """One byte of the file changed, its size kept."""
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def test_a_file_changed_at_its_size_is_never_reused(rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    _build(rules, out, monkeypatch)
    _flip(out / "reference" / "tiny.md")  # a file of tiny, which the next build would take whole
    _edit(rules / "mini" / "weapons.yaml", "只能远射", "只能远射（改）")
    assert _build(rules, out, monkeypatch)["checked"] == 2  # tiny built again
    assert _tree(out) == _fresh(rules, tmp_path)


def test_a_tampered_output_is_never_reused(rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    _build(rules, out, monkeypatch)
    procedures = out / "mini" / "rulec_mini" / "procedures.py"
    procedures.write_bytes(procedures.read_bytes().replace(b"def attack(", b"def attack_(", 1))
    (out / "js" / "tiny" / "index.js").write_bytes(b"globalThis.__pwned = 1;\n")
    _edit(rules / "mini" / "weapons.yaml", "只能远射", "只能远射（改）")
    made = _build(rules, out, monkeypatch)
    # tiny built again, its Python procedures still taken from `out`, its JavaScript ones (in the
    # tampered index.js) made again; mini's Python procedures made again, its JavaScript ones taken
    assert made == {"checked": 2, "py": 1, "js": 1}
    assert _tree(out) == _fresh(rules, tmp_path)


def test_check_and_a_cache_off_build_reuse_nothing(rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record of a build is found only by a memo with the cache and the output folder: not by
    `rulec build --check`'s (no store), nor without the folder, nor with the cache off."""
    from rulec.build import cache

    out = tmp_path / "out"
    _build(rules, out, monkeypatch)
    digest, targets = _build.digests["tiny"], ("python", "js")  # type: ignore[attr-defined]
    assert reuse.reused(Memo(store=cache.store(), previous=reuse.PreviousOutputs(out)), "tiny", digest, targets)
    assert reuse.reused(Memo(previous=reuse.PreviousOutputs(out)), "tiny", digest, targets) is None  # --check
    assert reuse.reused(Memo(store=cache.store()), "tiny", digest, targets) is None
    _flip(out / "js" / "tiny" / "index.js")
    env = {**os.environ, "RULEC_CACHE_DIR": "off"}
    for extra in (["--check"], []):
        done = subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", str(rules), "--out", str(out), *extra],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == (1 if extra else 0), done.stderr
    assert _tree(out) == _fresh(rules, tmp_path)


def test_records_that_leave_the_folder_or_lie_are_refused(tmp_path: Path) -> None:
    sha = "0" * 64
    for rel in ("../x", "/etc/passwd", "a/../../x", "a//b", "a\\b", "", "a/./b", "x\x00"):
        assert reuse._files({"files": {rel: [1, sha]}}) is None, rel
        assert reuse.PreviousOutputs(tmp_path).read({"file": rel, "at": 0, "length": 1, "sha256": sha}) is None
    assert reuse._files({"files": {"a/b.py": [1, sha]}}) == {"a/b.py": (1, sha)}
    (tmp_path / "a.py").write_text("print(1)\n", encoding="utf-8")
    import hashlib

    good = {"file": "a.py", "at": 0, "length": 5, "sha256": hashlib.sha256(b"print").hexdigest()}
    assert reuse.PreviousOutputs(tmp_path).read(good) == "print"
    assert reuse.PreviousOutputs(tmp_path).read({**good, "at": 1}) is None
    assert reuse.PreviousOutputs(tmp_path).read({**good, "length": 6}) is None
    os.mkfifo(tmp_path / "fifo")
    assert reuse.PreviousOutputs(tmp_path).read({**good, "file": "fifo"}) is None  # never blocks
    assert reuse._index({"index": {"id": "x"}}) is None


def test_a_reread_text_is_javascript_only_through_its_own_function() -> None:
    """The JavaScript emitters take a text read back from the output folder as `Js` only through
    `code.reread` (the quoting checker of tests/test_js_code.py holds every other path)."""
    assert isinstance(js_code.reread("x;"), js_code.Js)
    with pytest.raises(js_code.UnquotedValue):
        js_code.require_js("x;")


def test_a_shape_digest_is_the_same_in_every_process() -> None:
    """What the kept texts are found by: no set or hash order in the IR (two hash seeds)."""
    program = ("import sys; from pathlib import Path; from rulec.build.facade import compile_rules; "
               "from rulec.emit.shape import digest, shape; "
               "print([digest(shape(rs)) for rs in compile_rules([Path(p) for p in sys.argv[1:]], "
               "stop_after='optimise').rulesets])")
    seen = {subprocess.run([sys.executable, "-c", program, str(folder("dp")), str(folder("mini"))], cwd=ROOT,
                           env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, text=True, timeout=120,
                           check=True).stdout
            for seed in ("1", "2")}
    assert len(seen) == 1, seen


def test_a_build_that_may_reuse_reports_what_one_that_may_not_reports(rules: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The files of a ruleset are loaded only once it is known not to be reused: every file of
    every other folder still is, so a pack nothing extends and a broken file are reported alike."""
    out = tmp_path / "out"
    _build(rules, out, monkeypatch)
    orphan = rules / "orphan"
    orphan.mkdir()
    (orphan / "pack.yaml").write_text("kind: pack\nid: orphan\nname: 孤儿\nextends: nope\n", encoding="utf-8")
    (orphan / "bad.yaml").write_text("kind: table\ntable: weapons\nentries: [\n", encoding="utf-8")
    _edit(rules / "mini" / "weapons.yaml", "damage: 2", "damage: 99")  # out of range
    lazy = compile_rules([rules], previous=out)
    eager = compile_rules([rules], memo=Memo())
    assert not lazy.ok and [d.format() for d in lazy.diagnostics] == [d.format() for d in eager.diagnostics]
    assert {d.code for d in lazy.diagnostics} == {"unknown-ruleset", "out-of-range", "yaml-syntax"}


@pytest.mark.slow  # a dp build with a pack, edited ten ways: CI's slow job
def test_a_one_shot_build_after_each_kind_of_edit_is_a_fresh_build(tmp_path: Path) -> None:
    """test_session's edits of every kind, one after another as someone editing would, each built
    one-shot into the same folder (reusing what it may) and without any cache."""
    from test_session import EDITS, _pack, _same

    rules = tmp_path / "dp"
    shutil.copytree(ROOT / "rules" / "dp", rules)
    paths, out = [rules, _pack(tmp_path / "pack")], tmp_path / "out"
    write_build(out, compile_rules(paths, previous=out))
    for what, rel, old, new in EDITS:
        _edit(tmp_path / rel, old, new)
        reusing = compile_rules(paths, previous=out)
        _same(reusing, compile_rules(paths, memo=Memo()))
        assert reusing.ok, what
        write_build(out, reusing)


@pytest.mark.parametrize("table, old, new", [
    pytest.param("condition_tracks", "name: 目眩", "name: 目眩（改）", marks=pytest.mark.slow),  # the tracks it counts
    pytest.param("states", "name: 目盲", "name: 目盲（改）", marks=pytest.mark.slow),  # the states it enters
    pytest.param("senses", "name: 视觉", "name: 视觉（改）", marks=pytest.mark.slow),  # a check's `when` names one
    pytest.param("weapons", "name: ", "name: 改", marks=pytest.mark.slow),  # no fight table: kept from the folder
])
def test_a_fight_module_follows_the_entries_it_reads(tmp_path: Path, table: str, old: str, new: str) -> None:
    """The fight modules (Python and JavaScript) are kept by the fight's shape, the ruleset's
    shape with the entries of the tables they read (emit/shape.py `fight_tables`): a one-shot
    build after an edit of one of those tables' entries writes them again, as a fresh build does.
    (A fight emitter reading a table left out would find it empty in every build, not only here.)"""
    rules = tmp_path / "tracks"
    shutil.copytree(ROOT / "rules" / "tracks", rules)
    out = tmp_path / "out"
    write_build(out, compile_rules([rules], previous=out))
    _edit(rules / "tables" / f"{table}.yaml", old, new)
    reusing = compile_rules([rules], previous=out)
    assert reusing.ok
    write_build(out, reusing)
    assert _tree(out) == _fresh(rules, tmp_path)


def test_the_stamp_takes_the_digests_the_build_made_of_its_outputs(rules: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that records its outputs (or reuses a ruleset's, checked by digest) gives the stamp
    each file's SHA-256 (`Build.file_digests`), made from the very bytes it writes: the stamp is
    the one a build that hashes every file itself writes."""
    import hashlib

    from rulec.build.stamp import output_digest

    out = tmp_path / "out"
    _build(rules, out, monkeypatch)
    _edit(rules / "mini" / "weapons.yaml", "只能远射", "只能远射（改）")
    result = compile_rules([rules], previous=out)
    # tiny's files reused, mini's made (the pages' index is no ruleset's: the stamp hashes it)
    assert result.ok and set(result.files) - result.file_digests.keys() == {"reference/index.md", "reference/index.html"}
    assert all(hashlib.sha256(result.files[rel]).hexdigest() == sha for rel, sha in result.file_digests.items())
    assert output_digest(result.files, result.file_digests) == output_digest(result.files)
