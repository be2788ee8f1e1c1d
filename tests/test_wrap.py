"""The line wrapper of the Python emitter only ever breaks lines where Python ignores the break.

Every simple statement of the generated packages is unparsed onto one line (as long as it comes),
wrapped again, and must give the same syntax tree; its token reader must agree with the standard
tokenize module on every generated line.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

from rulec.emit.python.wrap import WIDTH, wrap
from rulec.emit.python.wrap_tokens import _tokens, width

GENERATED = Path(__file__).resolve().parent.parent / "generated"
SOURCES = sorted(p for p in GENERATED.glob("*/rulec_*/**/*.py"))


def _statements(tree: ast.AST) -> list[ast.stmt]:
    out = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            for stmt in body if isinstance(body, list) else []:
                if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Return, ast.Expr, ast.AugAssign, ast.Assert)):
                    out.append(stmt)
    return out


INDENTS = ("", " " * 8, " " * 24)


def _rewrap_keeps_the_tree(path: Path, every_indent: bool) -> None:
    """Each statement wrapped at one indent (taken in turn), or at each of them."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checked = 0
    for n, stmt in enumerate(_statements(tree)):
        line = ast.unparse(stmt)
        if "\n" in line:
            continue
        for indent in INDENTS if every_indent else INDENTS[n % 3:n % 3 + 1]:
            lines = wrap(line, indent)
            again = ast.parse("if 1:\n" + "\n".join("    " + x for x in lines))
            assert ast.dump(again.body[0].body[0]) == ast.dump(stmt), "\n".join(lines)  # type: ignore[attr-defined]
            if width(line) + len(indent) > WIDTH:
                checked += 1
    assert checked or len(tree.body) < 50  # the big modules have long statements to wrap


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(GENERATED).as_posix())
def test_rewrapped_statements_keep_their_syntax_tree(path: Path) -> None:
    _rewrap_keeps_the_tree(path, every_indent=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(GENERATED).as_posix())
def test_rewrapped_statements_keep_their_syntax_tree_at_every_indent(path: Path) -> None:
    _rewrap_keeps_the_tree(path, every_indent=True)


def _std(line: str) -> list[tuple[str, str, int, int]] | None:
    skip = (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT)
    try:
        return [(tokenize.tok_name[t.type], t.string, t.start[1], t.end[1])
                for t in tokenize.generate_tokens(io.StringIO(line).readline) if t.type not in skip]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None


@pytest.mark.slow  # several seconds: CI's slow job
def test_the_token_reader_agrees_with_tokenize_on_generated_code() -> None:
    seen = 0
    for path in SOURCES:
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if not line or line.startswith(('"""', "'''")):
                continue
            std = _std(line)
            if std is None or any(kind == "ERRORTOKEN" for kind, *_ in std):
                continue  # a continued line, or prose inside a docstring
            ours = _tokens(line)
            assert ours is not None, line
            assert [(t.type, t.string, t.start, t.end) for t in ours] == std, line
            seen += 1
    assert seen > 5000


@pytest.mark.parametrize("line", [
    "x = f'{a}{{b}}' + 'c\\'d' + \"e\" + rb'\\x00'  # note",
    "y = (a ** -b // c @ d) if not e in f else g[1:2, ...]",
    "z: Callable[..., Any] = lambda q, *r, **s: q <= 0x1F and 1.5e-3j != 1_000",
])
def test_the_token_reader_agrees_on_odd_lines(line: str) -> None:
    ours = _tokens(line)
    assert ours is not None and [(t.type, t.string, t.start, t.end) for t in ours] == _std(line)


def test_an_unbalanced_or_foreign_text_has_no_tokens() -> None:
    assert _tokens("f(a, b") is None and _tokens("a $ b") is None


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_a_piece_of_a_line_gets_the_tokens_it_would_be_read_into():
    """Issue 34: the layout moves a bracket's inner tokens, what follows it and a statement's body
    from the tokens of the whole line instead of reading them again; each must be what `_tokens`
    reads from that piece, on every long line of the generated packages."""
    from rulec.emit.python.wrap import _Layout
    from rulec.emit.python.wrap_breaks import _groups

    checked = 0
    for path in SOURCES:
        for stmt in _statements(ast.parse(path.read_text(encoding="utf-8"))):
            line = ast.unparse(stmt)
            toks = _tokens(line)
            if not toks or len(line) < 80:
                continue
            layout = _Layout()
            for start, end in _groups(toks):
                inner = line[toks[start].end:toks[end].start]
                after = line[toks[end].end:]
                assert layout.part(inner, toks, start + 1, end, toks[start].end) == _tokens(inner)
                assert layout.part(after, toks, end + 1, len(toks), toks[end].end) == _tokens(after)
                body = line[toks[start].start:].strip()
                assert _Layout().part(body, toks, start, len(toks), toks[start].start) == _tokens(body)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("text", ["'a'", "'a' ", "'a' 'b'", "f'a'", "'a\\'b'", "\"x\"", "'a' + 'b'", "x", "'", ""])
def test_a_plain_string_is_matched_as_its_tokens_would_say(text: str):  # type: ignore[no-untyped-def]
    from rulec.emit.python.wrap import _Layout
    from rulec.emit.python.wrap_tokens import STRING

    toks = _tokens(text) or []
    assert _Layout().plain_string(text) == (len(toks) == 1 and toks[0].type == STRING and text[:1] in "'\"")


def _js_marks_by_hand(line: str) -> list[tuple[int, str, int]]:
    """What the JavaScript wrapper's scan must find, character by character (its first form)."""
    out: list[tuple[int, str, int]] = []
    depth, i, quote = 0, 0, ""
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c == "/" and line[i + 1:i + 2] == "/":
            break
        elif c in "([{":
            out.append((i, c, depth))
            depth += 1
        elif c in ")]}":
            depth -= 1
            out.append((i, c, depth))
        elif c == "," or line.startswith(("&&", "||"), i):
            out.append((i, c if c == "," else line[i:i + 2], depth))
            if c != ",":
                i += 1
        i += 1
    return out


def test_the_javascript_marks_are_those_a_character_scan_finds() -> None:
    import random

    from rulec.emit.js.wrap import _scan

    rnd = random.Random(34)
    alphabet = list("ab ,()[]{}\"'`\\/&|中")
    lines = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 16))) for _ in range(4000)]
    lines += ['f(a, "x\\"(", \'y\\\\\', `z${1}`) && g[1] || h // (c, d)', 'x = "open (', "y = 'ends \\"]
    for line in lines:
        assert _scan(line) == _js_marks_by_hand(line), line
