"""The Jinja2 environments shared by every emitter: strict, logic-free templates."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import jinja2

from ..emit.specialise import specialise

_ATOM = re.compile(r"[\w.]+|'[^'\\]*'")


def group(python: str) -> str:
    """A Python expression safe to embed as an operand of `x if c else y`: names, numbers and
    attribute chains stay as they are, anything else gets parentheses."""
    return python if _ATOM.fullmatch(python) else f"({python})"


@lru_cache(maxsize=2)
def _environment(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).resolve().parent / "templates")),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=autoescape,
    )
    env.filters["pyrepr"] = repr
    env.filters["group"] = group
    env.filters["specialise"] = lambda code, common: specialise(code, common["known"], common["truthy"])
    return env


def environment() -> jinja2.Environment:
    """Python and Markdown output: no autoescaping (Python text goes through repr, Markdown through md_escape)."""
    return _environment(False)


def html_environment() -> jinja2.Environment:
    """HTML pages: autoescaping on, so text from YAML can never become markup."""
    return _environment(True)


def render(template_name: str, **context: object) -> str:
    return environment().get_template(template_name).render(**context)


def render_html(template_name: str, **context: object) -> str:
    return html_environment().get_template(template_name).render(**context)
