"""The runtime names generated code may import (`package._runtime_names`) are read from the source
text with regular expressions, not a syntax tree: they must be exactly what the tree holds."""

from __future__ import annotations

import ast

import pytest

from compiler.emit.python.loader import RUNTIME_DIR
from compiler.emit.python.package import top_level_names


def _by_tree(source: str) -> list[str]:
    names: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return names


@pytest.mark.parametrize("path", sorted(RUNTIME_DIR.glob("*.py")), ids=lambda p: p.stem)
def test_runtime_module_names_match_the_syntax_tree(path):
    source = path.read_text(encoding="utf-8")
    assert top_level_names(source) == _by_tree(source)


def test_awkward_top_level_statements():
    source = "\n".join([
        '"""Doc.',
        'Note: not a name',
        'x = not one either',
        '"""',
        'import os',
        'from typing import Any',
        'a = b = 1',
        'c, d = 1, 2',
        'e: int',
        'f: Any = 3',
        'g = h == 1',
        'async def i(): pass',
        'def j(s="k = 1 # \'\'\'"): pass',
        'class L:',
        '    m = 1',
        'if True:',
        '    n = 1',
        'else:',
        '    o = 1',
        'try:',
        '    p = 1',
        'finally:',
        '    q = 1',
        'r = (  # s = 1',
        '    2)',
        't = {"u": 1}  # v: 1',
    ]) + "\n"
    assert top_level_names(source) == _by_tree(source)
