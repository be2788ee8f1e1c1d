"""keep.py: what a resident build keeps, found by identity, let go after a build that did not use it."""

from __future__ import annotations

from rulec.build.keep import NO_KEEP, RUN, Keep, runs


class Item:
    def __init__(self, key: str) -> None:
        self.key = key


def _key(item: Item) -> str:
    return item.key


def test_runs_are_cut_by_content_so_an_insertion_changes_one_run() -> None:
    items = [Item(f"k{i}") for i in range(20 * RUN)]
    before = runs(items, _key)
    assert sum(map(len, before)) == len(items) and all(len(r) <= 8 * RUN for r in before)
    after = runs(items[:100] + [Item("new")] + items[100:], _key)
    same = {tuple(map(id, r)) for r in before} & {tuple(map(id, r)) for r in after}
    assert len(same) >= len(before) - 2


def test_each_run_makes_only_the_runs_that_changed() -> None:
    keep = Keep()
    items = [Item(f"k{i}") for i in range(10 * RUN)]
    made: list[int] = []

    def make(run: object) -> int:
        made.append(1)
        return len(run)  # type: ignore[arg-type]

    first = keep.each_run("n", items, make, _key)
    keep.end()
    made.clear()
    items[5] = Item("k5")  # an equal key, another object: its run is made again
    second = keep.each_run("n", items, make, _key)
    assert sum(first) == sum(second) == len(items) and len(made) == 1


def test_get_is_by_identity_and_a_generation_unused_is_let_go() -> None:
    keep = Keep()
    a, b = [1], [1]
    keep.put("s", (a,), "value")
    assert keep.get("s", a) == "value" and keep.get("s", b) is None
    keep.end()
    assert keep.get("s", a) == "value"  # used by this build: kept on
    keep.end()
    keep.end()
    assert keep.get("s", a) is None
    t = keep.intern("slot", (1, 2))
    keep.end()
    assert keep.intern("slot", (1, 2)) is t and keep.latest("slot") is t


def test_no_keep_remembers_nothing() -> None:
    NO_KEEP.put("s", (1,), "v")
    assert NO_KEEP.get("s", 1) is None and NO_KEEP.latest("x") is None
    assert NO_KEEP.each_run("s", [Item("a")], len, _key) == [1]
