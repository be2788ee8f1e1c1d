"""The Jinja2 environment shared by every emitter: strict, logic-free templates."""

from __future__ import annotations

from functools import lru_cache

import jinja2


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("compiler.emit", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["pyrepr"] = repr
    return env


@lru_cache(maxsize=1)
def html_environment() -> jinja2.Environment:
    """HTML pages: autoescaping on, so text from YAML can never become markup."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("compiler.emit", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=True,
    )
    return env


def render(template_name: str, **context: object) -> str:
    return environment().get_template(template_name).render(**context)


def render_html(template_name: str, **context: object) -> str:
    return html_environment().get_template(template_name).render(**context)
