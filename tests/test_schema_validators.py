"""The schemas resolve in every common validator without extra flags: check-jsonschema as pre-commit
runs it (`--schemafile`, no `--base-uri`, from any working folder), `jsonschema` given the schema's
file URI, and the YAML language server's way (the modeline's path relative to the YAML file, each
`$ref` relative to the schema file, since no static schema has an `$id` to override it)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin, urlparse
from urllib.request import url2pathname

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parent.parent
MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)")
STATIC = ROOT / "schema"


def _static_files() -> list[tuple[Path, Path]]:
    """(rule file, the static schema its modeline names) for every bundled rule file on one."""
    out = []
    for path in sorted((ROOT / "rules").rglob("*.yaml")):
        m = MODELINE.match(path.read_text(encoding="utf-8").split("\n", 1)[0])
        if m:
            schema = (path.parent / m.group(1)).resolve()
            if schema.parent == STATIC:
                out.append((path, schema))
    return out


FILES = _static_files()


def test_every_rule_kind_is_covered():
    assert {s.name for _, s in FILES} >= {"rulings.schema.json", "procedures.schema.json", "stats.schema.json",
                                          "ruleset.schema.json", "rule_index.schema.json"}


@pytest.mark.slow  # an integration run of several seconds: CI's slow job
def test_check_jsonschema_without_base_uri(tmp_path: Path):
    """As the pre-commit hook runs it: one run per schema, from an unrelated working folder."""
    by_schema: dict[Path, list[str]] = {}
    for path, schema in FILES:
        by_schema.setdefault(schema, []).append(str(path))
    for schema, files in sorted(by_schema.items()):
        done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema), *files],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr


def _from_file(uri: str) -> Resource:
    assert uri.startswith("file:"), f"a $ref left the file system: {uri}"
    path = Path(url2pathname(urlparse(uri).path))
    return Resource.from_contents(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.slow  # an integration run of several seconds: CI's slow job
@pytest.mark.parametrize("rule_file,schema", FILES[::2], ids=lambda p: p.name)
def test_jsonschema_with_a_file_uri(rule_file: Path, schema: Path):
    registry: Registry = Registry(retrieve=_from_file)  # type: ignore[call-arg]
    validator = Draft202012Validator({"$ref": schema.as_uri()}, registry=registry)
    data = yaml.safe_load(rule_file.read_text(encoding="utf-8"))
    assert not list(validator.iter_errors(data))
    broken = dict(data, kind="nonsense")
    assert list(validator.iter_errors(broken))  # it does check


def _refs(node: object):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                yield v
            else:
                yield from _refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from _refs(v)


def test_yaml_language_server_resolution():
    """The language server reads the modeline relative to the YAML file and resolves each `$ref`
    against the schema's `$id` when it has one, else against the schema file's URI."""
    for path, schema in FILES:
        contents = json.loads(schema.read_text(encoding="utf-8"))
        assert "$id" not in contents, f"{schema.name}: an $id would replace the file URI as the base"
        for ref in set(_refs(contents)):
            target, _, pointer = urljoin(schema.as_uri(), ref).partition("#")
            doc = json.loads(Path(url2pathname(urlparse(target).path)).read_text(encoding="utf-8"))
            for part in pointer.strip("/").split("/") if pointer else ():
                doc = doc[part]
            assert isinstance(doc, dict), (path, ref)
