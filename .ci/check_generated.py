"""Check the committed generated packages: ruff, mypy --strict, Python 3.8 syntax, stdlib-only import."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"


def projects() -> list[Path]:
    """Each generated/<ruleset>/ folder is a project holding the package rulec_<ruleset>/."""
    return sorted(p for p in GENERATED.iterdir() if (p / "pyproject.toml").is_file())


def package(project: Path) -> Path:
    return project / f"rulec_{project.name}"


def main() -> int:
    failed = False
    pkgs = [package(project) for project in projects()]
    if not pkgs:
        print("no generated packages found under generated/", file=sys.stderr)
        return 1
    for pkg in pkgs:
        for path in sorted(pkg.rglob("*.py")):
            try:
                ast.parse(path.read_text(encoding="utf-8"), str(path), feature_version=(3, 8))
            except SyntaxError as exc:
                print(f"{path}:{exc.lineno}: not Python 3.8 syntax: {exc.msg}", file=sys.stderr)
                failed = True
    for pkg in pkgs:  # each project's own pyproject.toml carries its ruff settings
        result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(pkg.parent)])
        failed |= result.returncode != 0
    for pkg in pkgs:
        # mypy sees each package under its own name, from a copy outside the repo.
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(pkg, Path(tmp) / pkg.name)
            result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                                     "--python-version", "3.11", pkg.name], cwd=tmp)
            failed |= result.returncode != 0
            # Copied alone into an empty folder, it imports with only the standard library.
            env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
            code = f"import sys; sys.path.insert(0, {tmp!r}); import {pkg.name}"
            result = subprocess.run([sys.executable, "-I", "-S", "-c", code], cwd=tmp, env=env)
            if result.returncode != 0:
                print(f"{pkg.name}: does not import with -I -S", file=sys.stderr)
                failed = True
    print("generated code checks:", "FAILED" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
