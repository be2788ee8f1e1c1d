"""A one-shot build takes the rows of a big table's unchanged runs — the pages' Markdown and HTML
rows — from the files the build replaces, where the last build recorded they landed
(`memo.Place`, `reuse.place`, `PreviousOutputs.regions`): only while every file the record names
still hashes to it; and the Python package's unchanged rows files (`Memo.text`, each checked
against its recorded digest), whose text the JavaScript module holds too (a table of more than
`ROW_CHUNK` entries; a smaller one's JavaScript rows are placed runs as the pages' are). So the
tree it writes is byte for byte a fresh build's whatever was edited or tampered with."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from every_ruleset import folder
from rulec.build import inputs, reuse
from rulec.build.facade import compile_rules
from rulec.build.write import write_build
from rulec.emit import reference
from rulec.load.documents import PARTIAL_BYTES
from rulec.emit.js import code as js_code
from rulec.emit.python import model as py_model
from rulec.memo import Memo, Place, Stored, mark

ENTRIES = 1400  # about 45 runs (memo.RUN entries each on average), three rows files (model.ROW_CHUNK each), 80 KB


def _mini(tmp_path: Path, entries: int) -> Path:
    """The tests' mini ruleset with a weapons table of `entries` entries."""
    out = tmp_path / "rules" / "mini"
    shutil.copytree(folder("mini"), out)
    lines = [f"  - {{id: w{i:04d}, name: 武器{i}, damage: {i % 5}, notes: 第{i}件}}" for i in range(entries)]
    with (out / "weapons.yaml").open("a", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return out.parent


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return _mini(tmp_path, ENTRIES)


def _tree(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _fresh(rules: Path, tmp: Path) -> dict[str, bytes]:
    out = tmp / "fresh"
    shutil.rmtree(out, ignore_errors=True)
    write_build(out, compile_rules([rules], memo=Memo()))
    return _tree(out)


def _build(rules: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """A one-shot build into `out`; how many entries' page rows, JavaScript rows and Python rows
    files were made, and how many rule files were composed whole."""
    made = {"page": 0, "js": 0, "py": 0, "whole": 0}
    rows_of, data_lines, rows_file = reference._rows_of, js_code.data_lines, py_model.rows_file
    load_bytes = inputs.load_bytes

    def whole(raw, *args, **kwargs):  # type: ignore[no-untyped-def]
        made["whole"] += len(raw) > PARTIAL_BYTES
        return load_bytes(raw, *args, **kwargs)

    def py(rows):  # type: ignore[no-untyped-def]
        made["py"] += 1
        return rows_file(rows)

    def page(run, *args):  # type: ignore[no-untyped-def]
        made["page"] += len(run)
        return rows_of(run, *args)

    def js(rows, *args):  # type: ignore[no-untyped-def]
        made["js"] += len(rows)
        return data_lines(rows, *args)

    monkeypatch.setattr(reference, "_rows_of", page)
    import rulec.emit.js.model as js_model
    monkeypatch.setattr(js_model, "data_lines", js)
    monkeypatch.setattr(py_model, "rows_file", py)
    monkeypatch.setattr(inputs, "load_bytes", whole)
    result = compile_rules([rules], previous=out)
    assert result.ok, [d.format() for d in result.diagnostics]
    write_build(out, result)
    monkeypatch.undo()
    return made


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_edit_remakes_the_rows_of_its_run_only(rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    _edit(rules / "mini" / "weapons.yaml", "第801件", f"第801件{tmp_path.name}")  # bytes no other test loads
    first = _build(rules, out, monkeypatch)  # (page rows may come from the tests' cache)
    assert first["js"] == 0 and first["py"] == 3  # the JavaScript module holds the rows files' text
    _edit(rules / "mini" / "weapons.yaml", "第800件", "第800件（改）")
    again = _build(rules, out, monkeypatch)
    assert again["page"] < ENTRIES // 10 and again["js"] == 0  # the edited run's rows (or the cache's)
    assert again["py"] == 1  # the rows file holding the edited entry (for both packages)
    assert again["whole"] == 0  # the edited file spliced into its previous version's document
    assert _tree(out) == _fresh(rules, tmp_path)


def test_the_javascript_rows_of_a_smaller_table_are_placed_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of at most ROW_CHUNK entries has its JavaScript rows written out, one a line: a
    one-shot build takes its unchanged runs from the module it replaces, and none once that
    module changed."""
    entries = py_model.ROW_CHUNK - 200
    rules, out = _mini(tmp_path, entries), tmp_path / "out"
    _edit(rules / "mini" / "weapons.yaml", "第201件", f"第201件{tmp_path.name}")
    assert _build(rules, out, monkeypatch)["js"] >= entries
    _edit(rules / "mini" / "weapons.yaml", "第200件", "第200件（改）")
    assert 0 < _build(rules, out, monkeypatch)["js"] < entries // 4  # the edited run's
    assert _tree(out) == _fresh(rules, tmp_path)
    module = out / "js" / "mini" / "index.js"
    data = module.read_bytes()
    assert '"武器30"'.encode() in data
    module.write_bytes(data.replace('"武器30"'.encode(), '"武器3X"'.encode(), 1))  # its size kept
    _edit(rules / "mini" / "weapons.yaml", "第100件", "第100件（改）")
    assert _build(rules, out, monkeypatch)["js"] >= entries  # the changed module gives none
    assert _tree(out) == _fresh(rules, tmp_path)


@pytest.mark.parametrize("victim", ["reference/mini.md", "reference/mini.html", "js/mini/index.js",
                                    "mini/rulec_mini/_rows/weapons_0.json"])
def test_rows_are_never_taken_from_a_changed_file(rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  victim: str) -> None:
    """A row of the file changed in place (its size kept): nothing of that file's runs is taken."""
    out = tmp_path / "out"
    _build(rules, out, monkeypatch)
    path = out / victim
    data = path.read_bytes()
    at = data.index("武器30".encode())
    path.write_bytes(data[:at] + "武器3X".encode() + data[at + len("武器30".encode()):])
    _edit(rules / "mini" / "weapons.yaml", "第800件", "第800件（改）")
    given: dict[str, bool] = {}
    regions = reuse.PreviousOutputs.regions

    def spied(self: reuse.PreviousOutputs, record: Any) -> Any:
        found = regions(self, record)
        given.update({rel: found is not None for rel, _, _ in record["files"]})
        return found

    monkeypatch.setattr(reuse.PreviousOutputs, "regions", spied)
    made = _build(rules, out, monkeypatch)
    # the record naming the changed file is refused whole (both pages are one record); the others hold
    kind = victim.rsplit(".", 1)[1]
    assert given == {rel: victim not in given for rel in given}
    assert set(given) == {"reference/mini.md", "reference/mini.html"}  # the JavaScript rows are the rows files'
    assert made["js"] == 0
    assert made["py"] == (2 if kind == "json" else 1)  # the edited entry's rows file, and a changed one
    assert _tree(out) == _fresh(rules, tmp_path)


def _folder(tmp_path: Path, files: dict[str, bytes]) -> reuse.PreviousOutputs:
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    return reuse.PreviousOutputs(tmp_path)


def test_a_place_record_gives_back_exactly_what_was_written(tmp_path: Path) -> None:
    out = {"a.md": b"head\nrow1\nrow2\nrow1\ntail\n", "b.html": b"<tr>1</tr><tr>2</tr>"}
    runs = [("r1", (b"row1", b"<tr>1</tr>")), ("r2", (b"row2\nrow1", b"<tr>2</tr>")), ("empty", (b"", b"")),
            ("again", (b"row1", b"<tr>1</tr>"))]
    marked = [(name, tuple(map(mark, parts))) for name, parts in runs]
    record = reuse.place(("a.md", "b.html"), marked, out)
    assert record is not None and record["runs"]["r2"][0] == [10, 9]  # found after r1's, in order
    assert record["runs"]["again"][0] == [5, 4]  # not after the part before: found from the start
    lookup = _folder(tmp_path, out).regions(record)
    assert lookup is not None
    assert [lookup(name) for name, _ in runs] == [parts for _, parts in runs]
    assert lookup("unknown") is None
    assert reuse.place(("a.md", "c.md"), marked, out) is None  # a file the build did not write
    for bad in [(b"not there", b""), (b"row1\nrox", b"")]:  # nowhere; its first bytes there, not all of it
        missing = reuse.place(("a.md", "b.html"), [("r9", tuple(map(mark, bad)))], out)
        assert missing is not None and missing["runs"] == {}


def test_place_records_that_lie_or_leave_the_folder_are_refused(tmp_path: Path) -> None:
    out = {"a.md": b"head\nrow1\ntail\n"}
    record = reuse.place(("a.md",), [("r1", (mark(b"row1"),))], out)
    assert record is not None
    previous = _folder(tmp_path, out)
    assert previous.regions(record) is not None

    def changed(**kw: Any) -> dict[str, Any]:
        return {**record, **kw}

    (rel, size, sha), = record["files"]
    for bad in [changed(files=[["../a.md", size, sha]]), changed(files=[["/etc/passwd", size, sha]]),
                changed(files=[[rel, size + 1, sha]]), changed(files=[[rel, size, "0" * 64]]),
                changed(files=[[rel, size, sha], [rel, size, "0" * 64]]), changed(files=[]), changed(runs=[]),
                {"files": record["files"]}, None, "x"]:
        assert previous.regions(bad) is None, bad
    lookup = previous.regions(changed(runs={"r1": [[5, 400]], "r2": [[-1, 2]], "r3": [[1]], "r4": [["1", 2]]}))
    assert lookup is not None and all(lookup(n) is None for n in ("r1", "r2", "r3", "r4"))
    (tmp_path / "a.md").write_bytes(b"head\nrow2\ntail\n")  # the same size, other bytes
    assert previous.regions(record) is None


class _Store:
    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.reads = 0

    def key(self, *parts: bytes | str) -> str:
        return "|".join(p if isinstance(p, str) else p.decode() for p in parts)

    def get(self, name: str) -> Any:
        self.reads += 1
        return self.values.get(name)

    def put(self, name: str, value: Any) -> None:
        self.values[name] = value


def test_a_placed_run_of_code_is_never_stored_and_is_taken_only_from_its_place(tmp_path: Path) -> None:
    """`Stored(write=None)`: the run's text (generated code) never goes to the store; it is taken
    only from the recorded place, as `Place.value` makes it."""
    items = [f"k{i}" for i in range(200)]
    store = _Store()
    place = Place("label", ("out.txt",), lambda text: (text.encode(),), lambda parts: parts[0].decode())
    stored: Stored[str] = Stored("ctx", str, None, lambda found: None, place)
    made: list[int] = []

    def make(run: Any) -> str:
        made.append(len(run))
        return "\n".join(run)

    first = Memo(store=store).each_run("s", items, make, str, stored=stored)
    assert sum(made) == len(items) and not store.values  # nothing stored
    assert Memo(store=store).placed() == {}
    memo = Memo(store=store)
    memo.each_run("s", items, make, str, stored=stored)
    ((files, runs),) = memo.placed().values()
    text = "\n".join(first).encode()
    record = reuse.place(files, runs, {"out.txt": text})
    assert record is not None
    previous = _folder(tmp_path, {"out.txt": text})
    store.values[Memo(store=store, previous=previous).placed_name("label")] = record  # that folder's record
    made.clear()
    items[100] = "changed"
    again = Memo(store=store, previous=previous).each_run("s", items, make, str, stored=stored)
    assert "\n".join(again) == "\n".join(items) and 0 < sum(made) < len(items) // 4
    made.clear()
    elsewhere = _folder(tmp_path / "other", {"out.txt": text})  # the same bytes in another folder: its own record
    Memo(store=store, previous=elsewhere).each_run("s", items, make, str, stored=stored)
    assert sum(made) == len(items)


_PARTS = st.lists(st.binary(max_size=12).map(lambda b: b.replace(b"\n", b"")), min_size=1, max_size=30)


@settings(max_examples=150, deadline=None)
@given(parts=_PARTS, head=st.binary(max_size=8), flip=st.integers(min_value=0))
def test_every_placed_part_reads_back_as_written_and_a_changed_byte_refuses_all(
        parts: list[bytes], head: bytes, flip: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Parts written one a line after some text (repeats and empty parts included), placed by their
    marks: each found run reads back as exactly its parts, and once any byte of the file changes,
    nothing does."""
    text = head + b"\n" + b"\n".join(parts) + b"\n"
    runs = [(f"r{i}", (mark(p),)) for i, p in enumerate(parts)]
    record = reuse.place(("f.txt",), runs, {"f.txt": text})
    assert record is not None and len(record["runs"]) == len(parts)  # each part is in the text
    folder = tmp_path_factory.mktemp("placed")
    lookup = _folder(folder, {"f.txt": text}).regions(record)
    assert lookup is not None
    assert [lookup(f"r{i}") for i in range(len(parts))] == [(p,) for p in parts]
    changed = bytearray(text)
    changed[flip % len(changed)] ^= 0x20
    (folder / "f.txt").write_bytes(bytes(changed))
    assert reuse.PreviousOutputs(folder).regions(record) is None


def test_a_big_file_is_spliced_only_into_the_document_of_its_previous_bytes(rules: Path, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The record of a table file's last version names its document, beside which its bytes are
    kept; a splice takes that document only when those bytes name it. Bytes that name another
    document, a record naming a document not in the store, or any other value splice nothing: the
    file is composed whole, and the build is a fresh build's."""
    from rulec.build import cache

    out = tmp_path / "out"
    _edit(rules / "mini" / "weapons.yaml", "第801件", f"第801件{tmp_path.name}")  # bytes no other test loads
    _build(rules, out, monkeypatch)
    name = cache.key("last-doc", "rules/mini/weapons.yaml")  # the file as outputs name it
    other = "kind: table\ntable: weapons\nentries: []\n"
    for case in ["bytes of another document", "bytes not text", "no such document", "not a record"]:
        last = cache.get(name)  # the version the build before loaded
        assert isinstance(last, dict) and isinstance(last["doc"], str)
        kept = cache.key("doc-bytes", last["doc"])
        where, bad = {"bytes of another document": (kept, {"raw": other}), "bytes not text": (kept, {"raw": 1}),
                      "no such document": (name, {"doc": cache.key("doc", other.encode())}),
                      "not a record": (name, ["x"])}[case]
        cache.put(where, bad)
        _edit(rules / "mini" / "weapons.yaml", "第800件", "第800件改")
        made = _build(rules, out, monkeypatch)
        assert made["whole"] == 1, case
        assert _tree(out) == _fresh(rules, tmp_path)
