"""One diagnostic type for every pass, and the formatters that print it.

Every problem the compiler finds in a user's rules is a `Diagnostic` pointing at
a `Span` (file, 1-based line and column, and the JSON path inside the document).
Passes collect diagnostics and return them; only the CLI decides how to print
them and which exit code to use.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .messages import Text, in_language, say


@dataclass(frozen=True, slots=True)
class Span:
    """Where something came from: a file, 1-based line and column, and a JSON path."""

    file: str
    line: int = 1
    col: int = 1
    path: tuple[str | int, ...] = ()

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def at(self, *, line_offset: int = 0, col_offset: int = 0) -> Span:
        """A span shifted inside the same file (used for columns inside a formula string)."""
        return Span(self.file, self.line + line_offset, self.col + col_offset, self.path)


# How much of a user's value a diagnostic quotes (`quote`), and how long a message or hint may be
# whatever went into it: a diagnostic is never more than a line of the input.
QUOTE_CHARS = 80
MAX_MESSAGE_CHARS = 1000


def cut(text: str, limit: int) -> str:
    """`text`, or its first `limit - 1` characters and an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """A user's value as a diagnostic shows it: text in quotes, anything else as JSON, on one line
    (line breaks escaped), cut to `limit` characters with an ellipsis. Every value of an input that
    a message names goes through here; a value too large to write as JSON is named by its type."""
    if isinstance(value, str):
        shown = value if len(value) <= limit else value[:limit]
        return cut("'" + shown.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r") + "'", limit)
    if isinstance(value, (list, dict)):
        return cut(json_prefix(value, limit), limit)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        return say("quote.long-number", digits=int(value.bit_length() * 0.30103) + 1)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = type(value).__name__
    return cut(text, limit)


def json_prefix(value: object, limit: int) -> str:
    """The start of `value` as JSON, without writing all of a large collection."""
    out: list[str] = []
    size = 0

    def put(text: str) -> bool:
        nonlocal size
        out.append(text)
        size += len(text)
        return size <= limit

    def walk(v: object, depth: int) -> bool:
        if depth > 8:
            return put("…")
        if isinstance(v, list):
            if not put("["):
                return False
            for i, item in enumerate(v):
                if (i and not put(", ")) or not walk(item, depth + 1):
                    return False
            return put("]")
        if isinstance(v, dict):
            if not put("{"):
                return False
            for i, (k, item) in enumerate(v.items()):
                if (i and not put(", ")) or not put(json.dumps(str(k)[:limit], ensure_ascii=False) + ": ") \
                        or not walk(item, depth + 1):
                    return False
            return put("}")
        if isinstance(v, str):
            return put(json.dumps(v[:limit], ensure_ascii=False))
        try:
            return put(json.dumps(v, ensure_ascii=False))
        except (TypeError, ValueError):
            return put(type(v).__name__)

    walk(value, 0)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    span: Span
    code: str
    message: str
    hint: str | None = None
    severity: str = "error"

    def __post_init__(self) -> None:  # the last guard: however a message was made, it stays short
        if len(self.message) > MAX_MESSAGE_CHARS:
            object.__setattr__(self, "message", cut(self.message, MAX_MESSAGE_CHARS))
        if self.hint is not None and len(self.hint) > MAX_MESSAGE_CHARS:
            object.__setattr__(self, "hint", cut(self.hint, MAX_MESSAGE_CHARS))

    def format(self, *, color: bool = False) -> str:
        sev = say(f"severity.{self.severity}") if self.severity in ("error", "warning") else self.severity
        if color:
            sev = ("\x1b[1;31m" if self.severity == "error" else "\x1b[1;33m") + sev + "\x1b[0m"
        text = say("diagnostic.line", location=str(self.span), severity=sev, code=self.code, message=self.message)
        return say("diagnostic.with-hint", text=text, hint=self.hint) if self.hint else text

    def in_language(self, lang: str) -> Diagnostic:
        """The same diagnostic with its message and hint in `lang` ('zh' or 'en'); the code stays."""
        return Diagnostic(self.span, self.code, in_language(self.message, lang),
                          None if self.hint is None else in_language(self.hint, lang), self.severity)

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.span.file,
            "line": self.span.line,
            "col": self.span.col,
            "path": list(self.span.path),
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


class RulesError(Exception):
    """Raised at a pass boundary when the rules cannot be compiled; carries every diagnostic."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(f"{len(self.diagnostics)} problem(s) in the rules")


def did_you_mean(word: str, choices: Iterable[str]) -> Text | None:
    """A 'did you mean ...?' hint for a misspelt key or id, or None. A short Chinese name is a
    word of two or three characters, where one wrong character (长箭 for 长剑) is already half of
    it: a choice of the same length that differs in one character is suggested too."""
    if len(word) > QUOTE_CHARS:  # no name is that long, and comparing costs its length squared
        return None
    options = list(choices)
    import difflib

    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close and 2 <= len(word) <= 3 and not word.isascii():
        close = [c for c in options if len(c) == len(word) and sum(a != b for a, b in zip(c, word)) == 1][:1]
    return say("did-you-mean", name=close[0]) if close else None


def format_text(diags: Sequence[Diagnostic], *, color: bool = False) -> str:
    lines = [d.format(color=color) for d in diags]
    errors = sum(1 for d in diags if d.severity == "error")
    if errors:
        lines.append(say("errors-count", errors=errors))
    return "\n".join(lines)


def format_json(diags: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diags], ensure_ascii=False, indent=2)
