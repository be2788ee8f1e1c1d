"""The Jinja2 environments of the emitters: strict, logic-free templates, one quoting rule per language.

Every `{{ value }}` of a template goes through its language's quoting, the way autoescaping
protects HTML, so no template can let rule text through raw:

* Python templates accept only `Code` (emit/python/code.py): a plain string fails the build;
* Markdown templates escape every value (`md_escape`) unless it is `Markdown`, text the emitter
  built from already-escaped parts;
* HTML templates autoescape (markupsafe), unless a value is `Markup`.
"""

from __future__ import annotations

import io

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .python.code import require_code

TEMPLATES = Path(__file__).resolve().parent / "templates"


class Markdown(str):
    """Markdown text the emitter built from escaped parts (a table row, a code span, a link)."""

    __slots__ = ()


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~{}])")
# Any character md_escape changes: most values (names, numbers, ids) have none (a 10,000-weapon
# build escapes 300,000 of them).
_MD_CHANGED = re.compile(r"[\\`*_\[\]<>|#~{}&\r\n]").search


def _md_special(m: re.Match[str]) -> str:
    c = m.group(1)
    return "&lt;" if c == "<" else "&gt;" if c == ">" else "\\" + c


def md_escape(text: object) -> Markdown:
    """Text as literal Markdown: specials escaped, line breaks kept inside table cells."""
    if isinstance(text, Markdown):
        return text
    s = str(text)
    if _MD_CHANGED(s) is None:
        return Markdown(s)
    s = _MD_SPECIAL.sub(_md_special, s.replace("&", "&amp;"))
    return Markdown(s.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "<br>"))  # CR ends a line too


def md_code(text: object) -> Markdown:
    """A code span holding `text` (ids, file names): backticks and line breaks cannot end it."""
    s = str(text).replace("`", "'").replace("\r", " ").replace("\n", " ").replace("|", "\\|")
    return Markdown(f"`{s}`")


def _finalize_markdown(value: Any) -> Any:
    if value is None or isinstance(value, (Markdown, jinja2.Undefined)):
        return value
    return md_escape(value)


# Templates compiled ahead (`python -m compiler.emit.precompile`): the Python Jinja2 makes of a
# template for one environment, part of the compiler's own source like any module of it (never
# from the cache). Each file's first line holds the digest of what it was made from (`digest`); a
# template whose file is missing or made from other text, options or Jinja2 version is compiled as
# before (tests/test_precompiled.py says which are stale). Compiling the pages' and packages'
# templates was 0.09 s of every build.
PRECOMPILED = TEMPLATES / "_compiled"
_PRECOMPILED_HEAD = "# rulec: precompiled Jinja2 template "


def digest(env: jinja2.Environment, kind: str, source: str) -> str:
    """What a template's compiled code depends on: its text, the environment's options, Jinja2's version."""
    import hashlib

    options = (jinja2.__version__, kind, env.block_start_string, env.block_end_string, env.variable_start_string,
               env.variable_end_string, env.comment_start_string, env.comment_end_string, env.line_statement_prefix,
               env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks, env.newline_sequence,
               env.keep_trailing_newline, env.autoescape if isinstance(env.autoescape, bool) else "callable",
               getattr(env.finalize, "__qualname__", None), env.optimized, sorted(env.filters), sorted(env.tests),
               sorted(env.extensions), type(env.undefined).__name__, env.undefined.__name__)
    return hashlib.sha256(repr((options, source)).encode("utf-8")).hexdigest()


def precompiled_path(kind: str, name: str) -> Path:
    return PRECOMPILED / f"{kind}__{re.sub(r'[^A-Za-z0-9]', '_', name)}.py"


class _Loader(jinja2.FileSystemLoader):
    """The templates folder; a template's code from its precompiled module when that is current."""

    def __init__(self, kind: str) -> None:
        super().__init__(str(TEMPLATES))
        self.kind = kind

    def load(self, environment: jinja2.Environment, name: str,
             globals: Any = None) -> jinja2.Template:  # noqa: A002 (Jinja2's signature)
        source, filename, uptodate = self.get_source(environment, name)
        code = _precompiled(environment, self.kind, name, source, filename)
        if code is None:
            code = environment.compile(source, name, filename)
        return environment.template_class.from_code(environment, code, globals or {}, uptodate)


def _precompiled(env: jinja2.Environment, kind: str, name: str, source: str, filename: str | None) -> Any:
    import importlib.machinery

    path = precompiled_path(kind, name)
    try:
        with path.open(encoding="utf-8") as f:
            head = f.readline()
    except OSError:
        return None
    if head != f"{_PRECOMPILED_HEAD}{digest(env, kind, source)}\n":
        return None
    loader = importlib.machinery.SourceFileLoader(f"_rulec_template_{path.stem}", str(path))
    code = loader.get_code(loader.name)  # its bytecode when Python keeps it, as for any module
    return code.replace(co_filename=filename) if code is not None and filename else code


def precompiled_text(env: jinja2.Environment, kind: str, name: str) -> str:
    """The precompiled module of template `name` for environment `kind`."""
    assert env.loader is not None
    source, filename, _ = env.loader.get_source(env, name)
    return f"{_PRECOMPILED_HEAD}{digest(env, kind, source)}\n" + env.compile(source, name, filename, raw=True) + "\n"


def _base(kind: str, **options: Any) -> jinja2.Environment:
    return jinja2.Environment(loader=_Loader(kind), undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, **options)


@lru_cache(maxsize=1)
def python_environment() -> jinja2.Environment:
    return _base("python", finalize=require_code)


@lru_cache(maxsize=1)
def markdown_environment() -> jinja2.Environment:
    env = _base("markdown", finalize=_finalize_markdown)
    env.filters["code"] = md_code
    return env


@lru_cache(maxsize=1)
def html_environment() -> jinja2.Environment:
    return _base("html", autoescape=True)


def environments() -> dict[str, jinja2.Environment]:
    return {"python": python_environment(), "markdown": markdown_environment(), "html": html_environment()}


# The templates each environment renders or includes (what `python -m compiler.emit.precompile` writes).
TEMPLATES_OF = {"python": (".py.j2",), "markdown": (".md.j2",), "html": (".html.j2", ".css.j2")}


def render_python(template_name: str, **context: object) -> str:
    return python_environment().get_template(template_name).render(**context)


def render_markdown(template_name: str, **context: object) -> str:
    return markdown_environment().get_template(template_name).render(**context)


def render_html(template_name: str, **context: object) -> str:
    return html_environment().get_template(template_name).render(**context)


def render_bytes(kind: str, template_name: str, **context: object) -> bytes:
    """A page rendered straight into UTF-8 (kind: "markdown" or "html"): its pieces are encoded
    as the template yields them, so a 100,000-weapon page is never held as a list of pieces, a
    string and bytes at once. The same text as `render_markdown`/`render_html`, encoded."""
    env = markdown_environment() if kind == "markdown" else html_environment()
    out = io.BytesIO()
    write = out.write
    for piece in env.get_template(template_name).generate(**context):
        write(piece.encode("utf-8"))
    return out.getvalue()
