"""Validate every rule file with check-jsonschema, using the schema its first line names.

Each rule file starts with `# yaml-language-server: $schema=PATH`; this script
groups the files by that schema and runs the independent validator on them, so
the editor's view of a file and the compiler's agree.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)")


def main() -> int:
    groups: dict[Path, list[Path]] = defaultdict(list)
    missing = []
    for path in sorted((ROOT / "rules").rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0] if path.stat().st_size else ""
        m = MODELINE.match(first)
        if not m:
            missing.append(path)
            continue
        groups[(path.parent / m.group(1)).resolve()].append(path)
    for path in missing:
        print(f"{path.relative_to(ROOT)}: no yaml-language-server $schema line", file=sys.stderr)
    failed = bool(missing)
    for schema, files in sorted(groups.items()):
        if not schema.is_file():
            print(f"{schema}: schema named by {len(files)} file(s) does not exist", file=sys.stderr)
            failed = True
            continue
        # As pre-commit's hook runs it: no --base-uri (the schemas' `$ref`s resolve against the file).
        cmd = [sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema), *map(str, files)]
        result = subprocess.run(cmd, capture_output=True, text=True)
        print(f"{schema.relative_to(ROOT)}: {len(files)} file(s): {'ok' if result.returncode == 0 else 'FAILED'}")
        if result.returncode != 0:
            print(result.stdout + result.stderr, file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
