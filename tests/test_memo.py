"""compiler/memo: the build's one memo — by identity (a session keeps what a build used, and lets go
of what it did not), by name (in memory, else the store on disk), and per run of a table's entries
on disk for a one-shot build (checked on reading)."""

from __future__ import annotations

from typing import Any

from rulec.memo import RUN, Memo, Stored, current, runs, using


class Item:
    def __init__(self, key: str) -> None:
        self.key = key


def _key(item: Item) -> str:
    return item.key


class DictStore:
    """A store in a dict (the disk cache's interface)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def key(self, *parts: bytes | str) -> str:
        return "|".join(p if isinstance(p, str) else p.decode() for p in parts)

    def get(self, name: str) -> Any:
        return self.values.get(name)

    def put(self, name: str, value: Any) -> None:
        self.values[name] = value


def test_runs_are_cut_by_content_so_an_insertion_changes_one_run() -> None:
    items = [Item(f"k{i}") for i in range(20 * RUN)]
    before = runs(items, _key)
    assert sum(map(len, before)) == len(items) and all(len(r) <= 8 * RUN for r in before)
    after = runs(items[:100] + [Item("new")] + items[100:], _key)
    same = {tuple(map(id, r)) for r in before} & {tuple(map(id, r)) for r in after}
    assert len(same) >= len(before) - 2


def test_the_ends_a_resident_memo_remembers_are_the_ends_made_afresh() -> None:
    """`runs.ends` with the keys' verdicts kept from before (a resident memo's `_run_keys`) cuts
    where it cuts without them, and keeps a verdict for every key it read."""
    from rulec.memo.runs import ends

    known: dict[str, bool] = {}
    for size in (0, 1, 7, 20 * RUN, 300 * RUN):
        items = [Item(f"k{i % (size // 3 + 1)}-{i}") for i in range(size)]
        assert ends(items, _key, known) == ends(items, _key) == ends(items, _key, known)
        assert set(known) >= {i.key for i in items}
    memo = Memo(resident=True)
    items = [Item(f"x{i}") for i in range(5 * RUN)]
    memo.each_run("s", items, lambda run: len(run), _key)
    assert set(memo._run_keys) == {i.key for i in items}  # what end() bounds


def test_each_run_makes_only_the_runs_that_changed() -> None:
    memo = Memo(resident=True)
    items = [Item(f"k{i}") for i in range(10 * RUN)]
    made: list[int] = []

    def make(run: object) -> int:
        made.append(1)
        return len(run)  # type: ignore[arg-type]

    first = memo.each_run("n", items, make, _key)
    memo.end()
    made.clear()
    items[5] = Item("k5")  # an equal key, another object: its run is made again
    second = memo.each_run("n", items, make, _key)
    assert sum(first) == sum(second) == len(items) and len(made) == 1


def test_get_is_by_identity_and_a_generation_unused_is_let_go() -> None:
    memo = Memo(resident=True)
    a, b = [1], [1]
    memo.put("s", (a,), "value")
    assert memo.get("s", a) == "value" and memo.get("s", b) is None
    memo.end()
    assert memo.get("s", a) == "value"  # used by this build: kept on
    memo.end()
    memo.end()
    assert memo.get("s", a) is None
    t = memo.intern("slot", (1, 2))
    memo.end()
    assert memo.intern("slot", (1, 2)) is t and memo.latest("slot") is t


def test_a_one_shot_memo_keeps_only_what_once_makes_for_its_build() -> None:
    memo = Memo()
    memo.put("s", (1,), "v")
    assert memo.get("s", 1) is None and memo.latest("x") is None
    assert memo.each_run("s", [Item("a")], len, _key) == [1]
    key = (object(),)
    assert memo.once("o", key, list) is memo.once("o", key, list)
    memo.end()
    assert memo.once("o", key, list) is not memo.once("o", (object(),), list)


def test_outside_a_build_the_current_memo_remembers_nothing() -> None:
    memo = current()
    key = (object(),)
    assert memo.once("o", key, list) is not memo.once("o", key, list)
    memo.save("name", 1)
    assert memo.load("name") is None and len(memo) == 0
    mine = Memo(resident=True)
    with using(mine):
        assert current() is mine
    assert current() is memo


def test_by_name_a_session_holds_values_in_memory_and_writes_nothing_below() -> None:
    store = DictStore()
    store.put("old", [1])
    session = Memo(resident=True, store=store)
    assert session.load("old") == [1]  # what the disk holds, for a session's first build
    session.save("new", {1, 2})  # as the pass made it: never re-encoded for the disk
    assert session.load("new") == {1, 2} and "new" not in store.values and not session.persists
    one = Memo(store=store)
    one.save("new", [3])
    assert store.values["new"] == [3] and one.persists


def test_a_one_shot_build_finds_each_unchanged_run_on_disk_and_checks_it() -> None:
    store = DictStore()
    items = [Item(f"k{i}") for i in range(10 * RUN)]
    made: list[int] = []

    def make(run: Any) -> list[str]:
        made.append(len(run))
        return [i.key for i in run]

    def read(found: Any) -> list[str] | None:
        return found if isinstance(found, list) and all(isinstance(x, str) and "!" not in x for x in found) else None

    stored = Stored("ctx", _key, list, read)
    Memo(store=store).each_run("keys", items, make, _key, stored=stored)
    assert sum(made) == len(items) and len(made) > 1
    made.clear()
    items[7] = Item("changed")
    second = Memo(store=store).each_run("keys", items, make, _key, stored=stored)
    assert sum(map(len, second)) == len(items) and len(made) == 1  # the edited run only
    assert [k for run in second for k in run] == [i.key for i in items]
    name = next(n for n in store.values if "|changed|" in n)
    store.values[name] = ["k0!"]  # a value that fails its check is made again, never used
    made.clear()
    third = Memo(store=store).each_run("keys", items, make, _key, stored=stored)
    assert third == second and len(made) == 1
    assert Memo().each_run("keys", items, make, _key, stored=stored) == [[i.key for i in items]]  # no store
