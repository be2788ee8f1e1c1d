"""Write the templates compiled ahead (emit/env.py, `PRECOMPILED`): `python -m compiler.emit.precompile`.

Run it after editing a template in compiler/emit/templates/ (or upgrading Jinja2); until then the
build compiles that template itself, with the same output (tests/test_precompiled.py says which
are stale).
"""

from __future__ import annotations

from .env import PRECOMPILED, TEMPLATES, TEMPLATES_OF, environments, precompiled_path, precompiled_text


def expected() -> dict[str, str]:
    """{file name in PRECOMPILED: its text} for every template of every environment."""
    out = {}
    for kind, env in environments().items():
        for path in sorted(TEMPLATES.iterdir()):
            if path.is_file() and path.name.endswith(TEMPLATES_OF[kind]):
                out[precompiled_path(kind, path.name).name] = precompiled_text(env, kind, path.name)
    return out


def main() -> None:
    PRECOMPILED.mkdir(exist_ok=True)
    files = expected()
    for old in PRECOMPILED.glob("*.py"):
        if old.name not in files:
            old.unlink()
    for name, text in files.items():
        (PRECOMPILED / name).write_text(text, encoding="utf-8")
    print(f"{len(files)} templates precompiled into {PRECOMPILED}")


if __name__ == "__main__":
    main()
