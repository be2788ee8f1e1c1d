"""The package loader the build imports its fresh package with (the pages' odds): code compiled
once, the runtime modules from the compiler's own bytecode, and the same package either way."""

from __future__ import annotations

from pathlib import Path
from types import CodeType

import pytest

from rulec.emit.python.loader import RUNTIME_DIR, forget, import_package
from rulec.emit.python.resolved import unresolved

TINY = {
    "rulec_tiny/__init__.py": "from .model import VALUE\nfrom ._runtime.helper import twice\n",
    "rulec_tiny/model.py": "VALUE = 21\n",
    "rulec_tiny/_runtime/__init__.py": "",
    "rulec_tiny/_runtime/helper.py": "def twice(x):\n    return 2 * x\n",
}


@pytest.mark.parametrize("path", sorted(RUNTIME_DIR.glob("*.py")), ids=lambda p: p.name)
def test_every_runtime_module_compiles_and_resolves(path: Path):
    """What a build checks of every emitted module, checked once here for the runtime modules (a
    package ships them verbatim, and the build does not check them again)."""
    text = path.read_text(encoding="utf-8")
    compile(text, str(path), "exec", dont_inherit=True)
    assert unresolved(text, str(path)) == []


def test_the_build_s_code_objects_are_imported_not_compiled_again():
    asked: list[str] = []

    def code(rel: str, text: str) -> CodeType:
        asked.append(rel)
        assert text == TINY[rel]  # asked with the very text imported
        return compile(text.replace("21", "22") if rel.endswith("model.py") else text, rel, "exec")

    module, tmp = import_package("tiny", TINY, code)
    try:
        assert module.VALUE == 22 and module.twice(2) == 4  # the code object given, not the file's text
        assert "rulec_tiny/model.py" in asked and "rulec_tiny/__init__.py" in asked
    finally:
        tmp.cleanup()
        forget("tiny")
    module, tmp = import_package("tiny", TINY)  # no code objects: the text is compiled
    try:
        assert module.VALUE == 21
    finally:
        tmp.cleanup()
        forget("tiny")


def test_a_runtime_module_comes_from_the_compiler_s_own_module_only_when_its_text_is_the_same():
    core = (RUNTIME_DIR / "core.py").read_text(encoding="utf-8")
    files = {"rulec_tiny/__init__.py": "from ._runtime import core\n", "rulec_tiny/_runtime/__init__.py": "",
             "rulec_tiny/_runtime/core.py": core}
    module, tmp = import_package("tiny", files)
    try:
        assert module.core.__file__.startswith(tmp.name) and hasattr(module.core, "load_rows")
    finally:
        tmp.cleanup()
        forget("tiny")
    files["rulec_tiny/_runtime/core.py"] = "CHANGED = True\n"  # not the compiler's text: compiled as it is
    module, tmp = import_package("tiny", files)
    try:
        assert module.core.CHANGED is True
    finally:
        tmp.cleanup()
        forget("tiny")
