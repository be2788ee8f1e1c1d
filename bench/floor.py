"""The build floor as a whole process: what the bare libraries take for the same inputs.

    python bench/floor.py [--validators DIR] OUT RULES_DIR [RULES_DIR ...]
    python bench/floor.py --prepare DIR      # the validators' code, generated ahead

Start-up and imports are included: this is what `rulec build` is compared with, process against
process (bench/build_floor.py). It does the work a build does with libraries alone, in the
simplest way a careful programmer would write it:

* every YAML file of the given folders loaded with libyaml (`yaml.CSafeLoader`);
* each document validated with fastjsonschema: a table file against the ruleset's own table
  schema (`generated/schema/<ruleset>/<table>.schema.json`, the one rulec writes), any other
  file against `schema/<kind>.schema.json`: each schema compiled once in the process, or, with
  `--validators`, its code generated ahead and imported (the stricter floor: compiling the 29
  schemas is most of the floor's own time);
* one reference page per ruleset rendered with Jinja2, Markdown and HTML, a row and a note for
  every table entry (the row macros of bench/templates/), written to OUT.

It does not generate any code (rulec's Python and JavaScript output has no library
counterpart), so the floor is a lower bound of a build, not an equivalent of it.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import fastjsonschema
import jinja2
import yaml

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).resolve().parent / "templates"


def _schema(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _validators(ahead: Path | None) -> tuple[Any, Any]:
    """Functions giving the validator of a document kind and of a ruleset's table, each compiled
    once; with `ahead`, the validators' code was generated before (`--prepare`) and is imported."""
    def handler(uri: str) -> Any:
        return _schema(ROOT / "schema" / Path(uri).name)

    handlers = {"": handler, "https": handler}
    made: dict[Path, Any] = {}

    def validator(path: Path) -> Any:
        if path not in made:
            name = "v_" + "_".join(path.relative_to(ROOT).with_suffix("").with_suffix("").parts)
            if ahead is not None:
                if str(ahead) not in sys.path:
                    sys.path.insert(0, str(ahead))
                made[path] = __import__(name).validate
            else:
                made[path] = fastjsonschema.compile(_schema(path), handlers=handlers)
        return made[path]

    def kind(name: str) -> Any:
        path = ROOT / "schema" / f"{name}.schema.json"
        return validator(path) if path.is_file() else None

    def table(ruleset: str, name: str) -> Any:
        path = ROOT / "generated" / "schema" / ruleset / f"{name}.schema.json"
        return validator(path) if path.is_file() else kind("table")

    return kind, table


def prepare(ahead: Path) -> None:
    """The code of every validator the floor may use, generated ahead (fastjsonschema.compile_to_code)."""
    def handler(uri: str) -> Any:
        return _schema(ROOT / "schema" / Path(uri).name)

    ahead.mkdir(parents=True, exist_ok=True)
    for path in sorted((ROOT / "schema").glob("*.schema.json")) + sorted((ROOT / "generated" / "schema").rglob("*.json")):
        name = "v_" + "_".join(path.relative_to(ROOT).with_suffix("").with_suffix("").parts)
        code = fastjsonschema.compile_to_code(_schema(path), handlers={"": handler, "https": handler})
        entry = re.search(r"^def (\w+)\(", code, re.M)
        assert entry is not None
        (ahead / f"{name}.py").write_text(code + f"\n\nvalidate = {entry.group(1)}\n", encoding="utf-8")


def _environments() -> tuple[Any, Any]:
    loader = jinja2.FileSystemLoader(str(TEMPLATES))
    md = jinja2.Environment(loader=loader, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    md.filters["code"] = lambda v: f"`{v}`"
    html = jinja2.Environment(loader=loader, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              autoescape=True)
    return md.get_template("reference_rows.md.j2").module, html.get_template("reference_rows.html.j2").module


def _view(entry: dict[str, Any], table: str, where: str, origin: str) -> dict[str, Any]:
    """What a page row shows of an entry: its name, each field's value, its rules and its place."""
    cells = [{"text": "、".join(map(str, v)) if isinstance(v, list) else str(v), "link": ""}
             for k, v in entry.items() if k not in ("id", "name", "rules", "notes", "description")]
    notes = entry.get("notes")
    return {"anchor": f"{table}-{entry.get('id', '')}".replace("_", "-"), "name": entry.get("name", ""),
            "not_specified": "", "origin": origin, "cells": cells, "rules": [str(r) for r in entry.get("rules", ())],
            "where": where, "description": entry.get("description", ""),
            "notes": [{"name": "备注", "text": notes}] if isinstance(notes, str) and notes else []}


def main(argv: list[str]) -> None:
    if argv[:1] == ["--prepare"]:
        prepare(Path(argv[1]))
        return
    ahead = None
    if argv[:1] == ["--validators"]:
        ahead, argv = Path(argv[1]), argv[2:]
    out, folders = Path(argv[0]), [Path(a) for a in argv[1:]]
    kind, table = _validators(ahead)
    md, html = _environments()
    pages: dict[str, tuple[list[str], list[str]]] = {}
    files = [(folder, path) for given in folders
             for folder in ([given] if (given / "ruleset.yaml").is_file() or (given / "pack.yaml").is_file()
                            else sorted(p for p in given.iterdir() if p.is_dir()))
             for path in sorted(folder.rglob("*.yaml"))]
    rulesets: dict[Path, str] = {}
    for folder, path in files:
        if folder not in rulesets:
            manifest = folder / ("ruleset.yaml" if (folder / "ruleset.yaml").is_file() else "pack.yaml")
            head = yaml.load(manifest.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
            rulesets[folder] = str(head.get("extends") or head.get("id"))
        ruleset = rulesets[folder]
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        if not isinstance(data, dict):
            continue
        if data.get("kind") == "table":
            validate = table(ruleset, str(data.get("table")))
        else:
            validate = kind(str(data.get("kind")))
        if validate is not None:
            try:
                validate(data)
            except fastjsonschema.JsonSchemaException as exc:
                print(f"{path}: {exc}", file=sys.stderr)
        if data.get("kind") == "table":
            md_rows, html_rows = pages.setdefault(ruleset, ([], []))
            origin = "ruleset" if (folder / "ruleset.yaml").is_file() else folder.name
            for n, entry in enumerate(data.get("entries") or ()):
                if isinstance(entry, dict):
                    v = _view(entry, str(data["table"]), f"{path.name}:{n + 4}", origin)
                    md_rows += [md.row(v), md.note(v)]
                    html_rows.append(str(html.row(v)))
    out.mkdir(parents=True, exist_ok=True)
    for ruleset, (md_rows, html_rows) in pages.items():
        (out / f"{ruleset}.md").write_text("\n".join(md_rows) + "\n", encoding="utf-8")
        (out / f"{ruleset}.html").write_text("<table>\n" + "\n".join(html_rows) + "\n</table>\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
