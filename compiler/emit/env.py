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


def _base(**options: Any) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, **options)


@lru_cache(maxsize=1)
def python_environment() -> jinja2.Environment:
    return _base(finalize=require_code)


@lru_cache(maxsize=1)
def markdown_environment() -> jinja2.Environment:
    env = _base(finalize=_finalize_markdown)
    env.filters["code"] = md_code
    return env


@lru_cache(maxsize=1)
def html_environment() -> jinja2.Environment:
    return _base(autoescape=True)


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
