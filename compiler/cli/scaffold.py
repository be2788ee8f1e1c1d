"""`rulec new pack NAME`: a working homebrew pack folder to start from, as cookiecutter would make it.

It writes `NAME/` (never into a folder that exists): the manifest, a project config (`rulec.toml`:
the rules it extends and its output folder, so that `rulec build` and `rulec test` run there with
no flags), a weapons file and a called-shot file, a rulings file with a commented override, a
scenario that passes, and a README in Chinese. Each YAML file's first line names its schema by a
path relative to the file: the static schemas of rulec for the manifest and the rulings, the pack
build's own schemas (which know the pack's entries) for the tables and the scenario. It builds and
`rulec test` passes as written (tests/test_scaffold.py).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from . import scaffold_pack as t
from ..validate.schema_dir import schema_dir
from ..messages import say

TEMPLATES = ("dp",)  # the rulesets whose tables the templates are written for
_ID = re.compile(r"[a-z][a-z0-9_]{0,47}")
EXPECT = "{hit: true, net: 6, damage: 6, command: .ww9}"  # what the template scenario gives (checked by a test)


class ScaffoldError(Exception):
    """Why the pack cannot be written (nothing was)."""


def pack_id(name: str) -> str:
    """The pack id for a folder name: lower case, '-' and spaces as '_' (`My-Pack` -> `my_pack`)."""
    pid = re.sub(r"[-\s]+", "_", name.strip().lower())
    if not _ID.fullmatch(pid):
        raise ScaffoldError(say("scaffold.no-pack-id", name=name[:80]))
    return pid


def _rel(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target, start)).as_posix()


def new_pack(folder: Path, rules: Path, extends: str = "dp", pid: str | None = None, name: str | None = None
             ) -> list[Path]:
    """Write the pack `folder` extending the ruleset `extends` found in the rules folder `rules`;
    the files written. ScaffoldError (and nothing written) when it cannot."""
    if extends not in TEMPLATES:
        raise ScaffoldError(say("scaffold.no-template", templates=", ".join(TEMPLATES), extends=extends[:48]))
    pid = pid or pack_id(folder.resolve().name)
    if not _ID.fullmatch(pid):
        raise ScaffoldError(say("scaffold.bad-pack-id", pid=pid[:80]))
    if folder.exists() or folder.is_symlink():
        raise ScaffoldError(say("scaffold.exists", folder=folder))
    if not (rules / extends / "ruleset.yaml").is_file():
        raise ScaffoldError(say("scaffold.no-ruleset", extends=extends, rules=rules))
    root = folder.resolve()
    out = root.parent / "build" / pid
    statics = schema_dir().resolve()
    generated = out / "schema" / extends
    files = {
        "pack.yaml": t.PACK.format(pack_schema=_rel(statics / "pack.schema.json", root), id=pid,
                                   name=name or f"{pid}（自制）", extends=extends),
        "rulec.toml": t.CONFIG.format(rules=_rel(rules.resolve(), root), out=_rel(out, root)),
        "weapons.yaml": t.WEAPONS.format(schema=_rel(generated / "weapons.schema.json", root), extends=extends),
        "called_shots.yaml": t.CALLED_SHOTS.format(schema=_rel(generated / "called_shots.schema.json", root)),
        "rulings.yaml": t.RULINGS.format(schema=_rel(statics / "rulings.schema.json", root)),
        "scenarios/first.yaml": t.SCENARIO.format(schema=_rel(generated / "scenario.schema.json", root / "scenarios"),
                                                  extends=extends, expect=EXPECT),
        "README.md": t.README.format(name=name or f"{pid}（自制）", id=pid, extends=extends,
                                     out=_rel(out, root) + "/"),
    }
    folder.mkdir(parents=True)  # exist_ok=False: a folder made meanwhile is refused too
    written = []
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(exist_ok=True)
        with open(path, "x", encoding="utf-8") as f:
            f.write(text)
        written.append(path)
    return written
