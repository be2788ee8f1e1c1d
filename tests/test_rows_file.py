"""A large table's rows files (`_rows/*.json`): written by column by the compiler
(emit/python/model.py `rows_file`), read back by the runtime's `load_rows` as exactly the rows
given — a column of one value, of at most PICKS values (one character per row), or of many; arrays
as tuples; 1, True and 1.0 kept apart; text with quotes, backslashes and control characters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from every_ruleset import RULESETS, folder
from rulec.emit.python.model import PICKS, rows_file
from rulec.runtime.core import load_entries, load_rows


# Every kind of column: lists, picked values (PICKS of them in the tenth column, one more than that
# in the seventh), one value (an array in the last); arrays, None, 1 and True, text with quotes,
# backslashes and controls.
ROWS = [(f"w{i}", f"“武器”{i}\\\"\n\x00", ("DP-10",) if i % 3 else ("DP-10", "DP-11"), None, i % 2 == 0,
         1 if i % 2 else True, i % (PICKS + 1), "same", () if i % 5 else ("x",), i % PICKS, ("DP-1", ("a",)))
        for i in range(2 * PICKS)]


def test_rows_round_trip_through_every_kind_of_column(tmp_path: Path) -> None:
    rows = ROWS
    text = rows_file(rows)
    kinds = [next(iter(col)) for col in json.loads(text)["columns"]]
    assert kinds == ["list", "list", "values", "all", "values", "values", "list", "all", "values", "values", "all"]
    (tmp_path / "_rows").mkdir()
    (tmp_path / "_rows" / "t_0.json").write_text(text, encoding="utf-8")
    (tmp_path / "_rows" / "t_1.json").write_text(rows_file(rows[:3]), encoding="utf-8")
    back = load_rows(str(tmp_path / "model.py"), ["t_0.json", "t_1.json"], (2, 8, 10))
    assert back == tuple(rows + rows[:3])
    assert [type(r[5]) for r in back[:2]] == [bool, int]  # True and 1 stay apart


def test_entries_are_made_from_the_columns_as_the_rows_loop_makes_them(tmp_path: Path) -> None:
    """`load_entries`: each row a `cls` with True after its first five values, a reference looked
    up (its placeholder for none or an unknown id), a converted column converted, across files."""
    from typing import Any, NamedTuple

    class Entry(NamedTuple):
        id: str
        name: str
        description: str
        rules: Any
        not_specified: Any
        given: bool
        kind: Any
        dice: Any
        n: int

    kinds = {"melee": "近战", "ranged": "远程"}
    rows = [(f"e{i}", f"条目{i}", "", ("R-1",), None, ["melee", "ranged", None, "gone"][i % 4],
             (2, 6) if i % 3 else None, i) for i in range(9)]
    (tmp_path / "_rows").mkdir()
    (tmp_path / "_rows" / "t_0.json").write_text(rows_file(rows[:5]), encoding="utf-8")
    (tmp_path / "_rows" / "t_1.json").write_text(rows_file(rows[5:]), encoding="utf-8")
    made = load_entries(Entry, str(tmp_path / "model.py"), ["t_0.json", "t_1.json"], (3, 6),
                        {5: (kinds, "无"), 6: lambda v: tuple(v) * 2 if v is not None else None})
    expected = {r[0]: Entry(*r[:5], True, kinds.get(r[5], "无") if r[5] is not None else "无",  # type: ignore[arg-type]
                            tuple(r[6]) * 2 if r[6] is not None else None, r[7]) for r in rows}
    assert made == expected and list(made) == [r[0] for r in rows]
    assert all(type(e) is Entry for e in made.values())


@pytest.mark.slow  # every bundled ruleset built again: CI's slow job
def test_entries_made_column_by_column_are_the_entries_of_the_rows(tmp_path: Path, package) -> None:  # type: ignore[no-untyped-def]
    """Every table of every ruleset with more than one row built as a large table (ROW_CHUNK 1:
    its rows as JSON, its entries made by the runtime's `load_entries`, references, dice, formulas
    and arrays included) holds, entry for entry, what the same table written as rows holds."""
    import re

    from every_ruleset import RULESETS, SOURCES
    from rulec.build.facade import compile_rules
    from rulec.emit.python import loader

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("rulec.emit.python.model.ROW_CHUNK", 1)
        build = compile_rules(SOURCES, targets=("python",))
    assert build.ok
    address = re.compile(r" at 0x[0-9a-f]+")
    for rid in RULESETS:
        files = {rel[len(rid) + 1:]: text.decode() for rel, text in build.files.items() if rel.startswith(f"{rid}/")}
        assert any("/_rows/" in rel for rel in files), rid
        big, folder = loader.import_package(rid, files)
        try:
            small = package(rid)
            tables = [n for n in dir(small.model) if n.isupper() and isinstance(getattr(small.model, n), dict)
                      and n != "RULINGS"]
            assert tables, rid
            for table in tables:
                ours, theirs = getattr(big.model, table), getattr(small.model, table)
                assert list(ours) == list(theirs), (rid, table)
                for key, entry in theirs.items():
                    assert type(ours[key]).__name__ == type(entry).__name__, (rid, table, key)
                    assert address.sub("", repr(ours[key])) == address.sub("", repr(entry)), (rid, table, key)
        finally:
            folder.cleanup()
            loader.forget(rid)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_array_columns_read_from_the_entries_are_those_of_the_rows(ruleset: str) -> None:
    """`model._array_columns` reads the columns that hold a list or tuple from the entries (a dice
    value, an enum list, the rules) without making their rows: every table of every ruleset, and
    its tables with the dice and enum-list values taken out (a column of no array is none)."""
    from rulec.build.facade import compile_rules
    from rulec.emit.python.model import _array_columns, row_value
    from rulec.memo import Memo
    from rulec.record import replace

    def by_rows(entries: list) -> set[int]:  # type: ignore[type-arg]
        return {i for i, column in enumerate(zip(*map(row_value, entries)))
                if any(isinstance(v, (list, tuple)) for v in column)}

    built = compile_rules([folder(ruleset)], stop_after="lower", memo=Memo())
    assert built.ok
    for t in built.rulesets[0].tables:
        entries = list(t.entries)
        assert _array_columns(entries) == by_rows(entries), t.id
        cleared = [replace(e, values={k: None if isinstance(v, tuple) or type(v).__name__ == "DiceExpr" else v
                                      for k, v in e.values.items()}) for e in entries]
        assert _array_columns(cleared) == by_rows(cleared), t.id
