"""A large table's rows files (`_rows/*.json`): written by column by the compiler
(emit/python/model.py `rows_file`), read back by the runtime's `load_rows` as exactly the rows
given — a column of one value, of at most PICKS values (one character per row), or of many; arrays
as tuples; 1, True and 1.0 kept apart; text with quotes, backslashes and control characters."""

from __future__ import annotations

import json
from pathlib import Path

from rulec.emit.python.model import PICKS, rows_file
from rulec.runtime.core import load_rows


def test_rows_round_trip_through_every_kind_of_column(tmp_path: Path) -> None:
    rows = [(f"w{i}", f"“武器”{i}\\\"\n\x00", ("DP-10",) if i % 3 else ("DP-10", "DP-11"), None, i % 2 == 0,
             1 if i % 2 else True, i % (PICKS + 1), "same", () if i % 5 else ("x",)) for i in range(2 * PICKS)]
    text = rows_file(rows)
    kinds = [next(iter(col)) for col in json.loads(text)["columns"]]
    assert kinds == ["list", "list", "values", "all", "values", "values", "list", "all", "values"]
    (tmp_path / "_rows").mkdir()
    (tmp_path / "_rows" / "t_0.json").write_text(text, encoding="utf-8")
    (tmp_path / "_rows" / "t_1.json").write_text(rows_file(rows[:3]), encoding="utf-8")
    back = load_rows(str(tmp_path / "model.py"), ["t_0.json", "t_1.json"], (2, 8))
    assert back == tuple(rows + rows[:3])
    assert [type(r[5]) for r in back[:2]] == [bool, int]  # True and 1 stay apart
