"""A resident build keeps the code objects of the generated modules by their text after the
opening comment lines (emit/python/package.compiled): the header changes with every edit (the
content hash), the code it heads need not be compiled again. Comment lines make no code; a line
that only looks like one (a carriage return or form feed in it) ends the header."""

from __future__ import annotations

from types import SimpleNamespace

from rulec.emit.python.package import comment_head, compiled
from rulec.memo import Memo, using

RS = SimpleNamespace(id="x")
BODY = '"""doc"""\n\nVALUE = 1\n\n\ndef f():\n    raise ValueError(VALUE)\n'


def test_comment_head_counts_whole_comment_lines_only() -> None:
    assert comment_head("# a\n# b\nx = 1\n") == (2, "x = 1\n")
    assert comment_head("x = 1\n# a\n") == (0, "x = 1\n# a\n")
    assert comment_head("# 中文注释\nx\n") == (1, "x\n")
    assert comment_head("# a\r# b\nx = 1\n") == (0, "# a\r# b\nx = 1\n")  # Python would read a second line
    assert comment_head("# a\x0cb\nx\n") == (0, "# a\x0cb\nx\n")
    assert comment_head("# no line end") == (0, "# no line end")


def test_a_resident_build_compiles_a_module_once_whatever_its_header_says() -> None:
    memo = Memo(resident=True)
    with using(memo):
        first = compiled(RS, "m.py", "# Content hash: sha256:aaaa\n# Sources: 3 files\n" + BODY)  # type: ignore[arg-type]
    memo.end(True)
    with using(memo):
        again = compiled(RS, "m.py", "# Content hash: sha256:bbbb\n# Sources: 3 files\n" + BODY)  # type: ignore[arg-type]
        shorter = compiled(RS, "m.py", "# Content hash: sha256:bbbb\n" + BODY)  # type: ignore[arg-type]
        tricky = compiled(RS, "m.py", "# Content hash: sha256:bbbb\r# x\n" + BODY)  # type: ignore[arg-type]
    assert again is first
    assert shorter is not first  # another number of header lines: other line numbers
    assert tricky is not first
    namespace: dict[str, object] = {}
    exec(again, namespace)  # noqa: S102  (rulec's own test module)
    try:
        namespace["f"]()  # type: ignore[operator]
    except ValueError as exc:
        assert exc.__traceback__ is not None
        assert exc.__traceback__.tb_next.tb_lineno == 9  # type: ignore[union-attr]  (the line in the text given)


def test_a_one_shot_build_compiles_each_text() -> None:
    with using(Memo()):
        a = compiled(RS, "m.py", "# one\n" + BODY)  # type: ignore[arg-type]
        b = compiled(RS, "m.py", "# two\n" + BODY)  # type: ignore[arg-type]
    assert a is not b
