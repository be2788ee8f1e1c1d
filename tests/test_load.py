"""The loader turns every kind of bad input into a diagnostic, never an exception (issue: spine, item 2)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from rulec.load import load_bytes, load_file, load_text


def codes(text: str) -> list[str]:
    doc, diags = load_text(text, "x.yaml")
    assert doc is None
    return [d.code for d in diags]


@pytest.mark.parametrize("text, code, line", [
    ("a: [1, 2\n", "yaml-syntax", 2),
    ("a: 1\nb: 2\na: 3\n", "duplicate-key", 3),
    ("a: !!python/object/apply:os.system ['echo hi']\n", "unknown-tag", 1),
    ("a: !custom 1\n", "unknown-tag", 1),
    ("a:\n\tb: 1\n", "tab", 2),
    ("flag: yes\n", "truthy", 1),
    ("flag: On\n", "truthy", 1),
    ("a: 1\n---\nb: 2\n", "multiple-documents", 2),
    ("a: .inf\n", "bad-number", 1),
    ("<<: {a: 1}\n", "merge-key", 1),
    ("? [1, 2]\n: 3\n", "bad-key", 1),
    ("", "empty-file", 1),
])
def test_bad_yaml_is_a_diagnostic(text, code, line):
    doc, diags = load_text(text, "x.yaml")
    assert doc is None
    assert diags[0].code == code
    assert diags[0].span.line == line


def test_quoted_yes_is_text():
    doc, diags = load_text('flag: "yes"\nb: true\nc: ~\nd: 0x10\n', "x.yaml")
    assert diags == [] and doc is not None
    assert doc.data == {"flag": "yes", "b": True, "c": None, "d": 16}


def test_billion_laughs_is_refused_fast():
    lol = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for prev, name in zip("abcdefghi", "bcdefghij"):
        lol += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
    start = time.perf_counter()
    doc, diags = load_text(lol, "lol.yaml")
    assert time.perf_counter() - start < 1.0
    assert doc is None and diags[0].code == "alias-limit"


def test_recursive_alias_and_deep_nesting():
    assert codes("a: &a [*a]\n")[0] in ("too-deep", "alias-limit")
    assert codes("a: " + "[" * 200 + "]" * 200 + "\n")[0] == "too-deep"


def test_non_utf8_bytes_point_at_the_byte():
    doc, diags = load_bytes("a: 1\nb: caf\xe9\n".encode("latin-1"), "x.yaml")
    assert doc is None and diags[0].code == "encoding"
    assert (diags[0].span.line, diags[0].span.col) == (2, 7)


def test_oversized_file(tmp_path: Path):
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 2000 + "\n")
    doc, diags = load_file(big, max_bytes=1000)
    assert doc is None and diags[0].code == "file-too-large"


def test_spans_point_at_keys_and_values():
    doc, _ = load_text("entries:\n  - id: sword\n    damage: 3\n", "w.yaml")
    assert doc is not None
    assert (doc.span(("entries", 0, "damage")).line, doc.span(("entries", 0, "damage")).col) == (3, 13)
    assert doc.span(("entries", 0, "damage"), key=True).col == 5


def _big_table(n: int = 2000) -> str:
    rows = "".join(f"  - id: w{i}\n    name: 武器{i}\n    damage: {i % 7}\n" for i in range(n))
    return f"kind: table\ntable: weapons\nentries:\n{rows}"


def test_a_large_file_keeps_partial_positions_and_completes_them_on_demand():
    """Over PARTIAL_BYTES a document keeps its top two levels' positions (issue 20: memory) and
    finds a deeper one by composing its text again: the spans are the ones a full load gives."""
    from rulec.load.documents import PARTIAL_BYTES

    text = _big_table()
    assert len(text) > PARTIAL_BYTES
    doc, diags = load_text(text, "big.yaml")
    full, _ = load_text(text, "big.yaml", partial_bytes=None)
    assert doc is not None and full is not None and not diags
    assert doc.text is not None and len(doc.spans) < len(full.spans) / 3
    assert doc.span(("entries", 1500)) == full.span(("entries", 1500))  # kept: no re-composing
    assert doc.text is not None
    assert str(doc.span(("entries", 1500, "damage"))) == "big.yaml:4506:13"
    assert doc.text is None and doc.spans == full.spans and doc.key_spans == full.key_spans
    assert doc.span(("entries", 7, "name"), key=True) == full.span(("entries", 7, "name"), key=True)


def test_partial_positions_survive_the_cache():
    from rulec.load.documents import Document

    text = _big_table()
    doc, _ = load_text(text, "big.yaml")
    assert doc is not None
    value = doc.to_json("table")
    assert value["partial"] is True
    assert Document.from_json("big.yaml", value) is None  # partial positions need the text
    again, kind = Document.from_json("big.yaml", value, text)  # type: ignore[misc]
    assert kind == "table" and str(again.span(("entries", 3, "id"))) == "big.yaml:13:9"


def test_only_regular_files_are_read(tmp_path: Path):
    """A device, a FIFO, a folder or a link to one is refused before anything is read
    (load/reading.py), never read until memory runs out or waited on forever."""
    import os

    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    start = time.perf_counter()
    for path in (Path("/dev/zero"), fifo, link, tmp_path):
        doc, diags = load_file(path, "shown.yaml")
        assert doc is None and [d.code for d in diags] == ["not-a-file"] and diags[0].span.file == "shown.yaml"
    assert time.perf_counter() - start < 1


def test_a_diagnostic_quotes_a_value_in_one_short_line():
    from rulec.diagnostics import MAX_MESSAGE_CHARS, Diagnostic, Span, quote

    assert quote("拳") == "'拳'" and quote(None) == "null" and quote([1, 2]) == "[1, 2]"
    for value in ("x" * 10**6, "a\nb" * 1000, [1] * 10**6, {str(i): [i] * 100 for i in range(10**4)}, 10**5000,
                  float("inf"), object()):
        shown = quote(value)
        assert len(shown) <= 80 and "\n" not in shown, shown
    assert len(Diagnostic(Span("f"), "c", "m" * 10**6, "h" * 10**6).format()) < 2 * MAX_MESSAGE_CHARS + 100


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


def test_the_resolvers_fast_answer_is_base_resolvers() -> None:
    """`_CoreResolver.resolve` answers text for most scalars without its resolvers; every scalar's
    tag is the one BaseResolver.resolve gives, quoted or plain, whatever its first character."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode
    from yaml.resolver import BaseResolver

    from rulec.load.documents import _CoreResolver

    r = _CoreResolver()
    values = ["", "true", "True", "false", "yes", "on", "~", "null", "Null", "NULL", "0", "1", "-1", "+1", "0x1F",
              "0o17", "1_000", "1.5", ".5", "-.5", "1e3", ".inf", "-.inf", ".nan", "nan", "中文", "名字", "abc", "t",
              "n", "f", "~x", "-", "+", ".", "!", "a b", " 1", "1 ", "\t", "'1'", "«1»", "１", "٣"]
    for value in values:
        for implicit in ((True, False), (False, True), (False, False), (True, True)):
            assert r.resolve(ScalarNode, value, implicit) == BaseResolver.resolve(r, ScalarNode, value, implicit), \
                (value, implicit)
    for kind in (SequenceNode, MappingNode):
        assert r.resolve(kind, None, (True, False)) == BaseResolver.resolve(r, kind, None, (True, False))
