"""`load.splice` gives exactly what `load_text` gives, or declines: random edits of a large table
file, of every kind (values, entries added and removed, comments, broken syntax, indentation,
keys, anchors, other line breaks, block-style entries)."""

from __future__ import annotations

import random

import pytest

from rulec.load.documents import load_text
from rulec.load.splice import splice


def _table(n: int = 1000, block_every: int = 0) -> str:
    lines = ["# a pack", "kind: table", "table: weapons", "entries:"]
    for i in range(n):
        if block_every and i % block_every == 3:
            lines += [f"  - id: w{i:04d}", f"    name: 武器{i}", f"    damage: {i % 9}", "    notes: 多行的", "      说明"]
            continue
        lines.append(f"  - {{id: w{i:04d}, name: 武器{i}, attack_type: melee, damage: {i % 9}, notes: 第{i}件}}")
    return "\n".join(lines) + "\n"


def _edit(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    kind = rng.randrange(17)
    line = lines[at]
    if kind < 5:  # change a value
        lines[at] = line.replace("damage: ", f"damage: {rng.randrange(10)}", 1) if "damage" in line else line + " x"
    elif kind == 5:
        lines.insert(at, f"  - {{id: new{at}, name: 新{at}, damage: 1}}")
    elif kind == 6:
        del lines[at]
    elif kind == 7:
        lines.insert(at, "  # a comment")
    elif kind == 8:
        lines[at] = line.replace("}", "", 1)  # an open bracket
    elif kind == 9:
        lines[at] = line.replace("name: ", 'name: "', 1)  # an open quote
    elif kind == 10:
        lines[at] = "  " + line  # indentation
    elif kind == 11:
        lines.insert(at, "other: 1")  # a top-level key among the entries
    elif kind == 12:
        lines[at] = line.replace("damage: 1", "damage: &a 1", 1)
    elif kind == 13:
        lines[at] = line + "\r"
    elif kind == 14:
        lines[at] = line.replace("id:", "id: x, id:", 1)  # a duplicate key
    elif kind == 15:
        lines[at:at] = ["  - id: blockish", "    name: 块", "    damage: 2"]
    else:  # added at the end, as homebrewers do
        lines[-1:] = [f"  - {{id: end{at}, name: 末{at}, damage: {at % 9}}}", ""]
    return "\n".join(lines)


def _same_as_full(old_text: str, new_text: str) -> bool:
    """Whether splice succeeded; when it did, it matches load_text in every part."""
    old, diags = load_text(old_text, "t.yaml")
    assert old is not None and not diags
    spliced = splice(old, new_text)
    if spliced is None:
        return False
    full, full_diags = load_text(new_text, "t.yaml")
    assert full is not None and not full_diags, "splice accepted a text load_text refuses"
    assert spliced.data == full.data
    assert spliced.spans == full.spans
    assert spliced.key_spans == full.key_spans
    assert spliced.quoted == full.quoted
    assert spliced.text == full.text
    return True


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_one_value_edited_is_spliced() -> None:
    text = _table()
    assert _same_as_full(text, text.replace("notes: 第300件", "notes: 第300件（改）"))
    assert _same_as_full(text, text.replace("  - {id: w0300", "  - {id: extra, name: 加的}\n  - {id: w0300"))
    assert _same_as_full(text, text.replace("notes: 第0件", "notes: 第0件改"))  # the first entry
    assert _same_as_full(text, text.replace("notes: 第999件", "notes: 第999件改"))  # the last one
    assert _same_as_full(text, text + "  - {id: added, name: 加在最后}\n")  # one added at the end
    assert _same_as_full(text, text + "  - {id: added, name: 没有换行}")  # and no line break after it
    assert _same_as_full(text, text.replace("  - {id: w0000", "  - {id: first, name: 头}\n  - {id: w0000"))


def test_what_it_cannot_vouch_for_is_declined() -> None:
    text = _table()
    old, _ = load_text(text, "t.yaml")
    assert old is not None
    assert splice(old, text.replace("notes: 第300件}", "notes: 第300件")) is None  # left open
    assert splice(old, text.replace("notes: 第300件", "notes: &x 第300件")) is None  # an anchor
    assert splice(old, text.replace("  - {id: w0300", "other: 1\n  - {id: w0300")) is None
    assert splice(old, text + "other: 1\n") is None  # a key after the entries
    assert splice(old, text + "  - {id: open, name: [\n") is None  # left open at the end


@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.slow) for s in (0, 1, 2)])
def test_random_edits_splice_exactly_or_not_at_all(seed: int) -> None:
    rng = random.Random(seed)
    text = _table(block_every=50 if seed % 2 else 0)
    spliced = 0
    for _ in range(12):
        edited = _edit(text, rng)
        spliced += _same_as_full(text, edited)
    assert spliced  # some edits are taken the quick way


@pytest.mark.slow
def test_many_random_edits() -> None:
    rng = random.Random(7)
    for n in range(400):
        text = _table(block_every=(n % 3) * 40)
        edited = text
        for _ in range(rng.randrange(1, 4)):
            edited = _edit(edited, rng)
        _same_as_full(text, edited)


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
