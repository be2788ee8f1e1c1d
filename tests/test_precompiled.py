"""The Jinja2 templates compiled ahead (compiler/emit/templates/_compiled/, emit/env.py) are current,
and a template whose precompiled module is stale or missing is compiled from its text instead."""

from __future__ import annotations

import jinja2

from compiler.emit import env
from compiler.emit.precompile import expected


def test_precompiled_templates_are_current():
    files = {p.name: p.read_text(encoding="utf-8") for p in env.PRECOMPILED.glob("*.py")}
    stale = sorted(name for name, text in expected().items() if files.get(name) != text)
    extra = sorted(set(files) - set(expected()))
    assert not stale and not extra, f"run `python -m compiler.emit.precompile` (stale: {stale}, extra: {extra})"


def test_a_template_renders_the_same_precompiled_or_not():
    md = env.markdown_environment()
    loader = md.loader
    assert loader is not None
    source, filename, _ = loader.get_source(md, "package_readme.md.j2")
    assert env._precompiled(md, "markdown", "package_readme.md.j2", source, filename) is not None
    fresh = jinja2.Environment(loader=jinja2.FileSystemLoader(str(env.TEMPLATES)), undefined=jinja2.StrictUndefined,
                               trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                               finalize=md.finalize)
    fresh.filters["code"] = env.md_code
    a = md.get_template("reference_index.md.j2")
    b = fresh.get_template("reference_index.md.j2")
    assert a.filename == b.filename


def test_a_stale_precompiled_template_is_not_used():
    md = env.markdown_environment()
    assert env._precompiled(md, "markdown", "package_readme.md.j2", "{{ other }}", None) is None
    assert env._precompiled(md, "markdown", "no_such_template.md.j2", "", None) is None
