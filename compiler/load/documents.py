"""Pass 1, load: rule files -> `Document`s (plain JSON-like data plus a span for every node).

The loader never trusts a file. It only composes YAML nodes (no object
construction), resolves scalars with the YAML 1.2 core schema, and turns every
surprise into a `Diagnostic` instead of an exception: syntax errors, tabs,
duplicate keys, tags outside the core schema (`!!python/...`), YAML 1.1
booleans (`yes`, `on`), alias expansion past a limit ("billion laughs"),
nesting past a limit, non-UTF-8 bytes, several documents in one file, and files
over a size limit.

The libyaml C parser is used when PyYAML was built with it, the pure-Python
parser otherwise; both give the same nodes and marks. How each problem is said (a tab, a full-width
colon, a colon inside a flow mapping's text) is yaml_problems.py's.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
import yaml.reader
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from ..diagnostics import Diagnostic, Span, quote
from . import core_schema as core
from .characters import forbidden_character
from .reading import MAX_RULE_FILE_BYTES, ReadRefused, read_bounded
from ..messages import say
from .yaml_problems import (MAX_SYNTAX_ERRORS, continue_after, decode_utf8, flow_text_problem, full_width_problem,
                            single_quoted, tab_diagnostics)

MAX_FILE_BYTES = MAX_RULE_FILE_BYTES  # declared beside the reader (the stamp digests without PyYAML)
MAX_ALIAS_NODES = 10_000
MAX_DEPTH = 64

JsonPath = tuple[str | int, ...]

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_CORE_TAGS = {_STR, _INT, _FLOAT, _BOOL, _NULL, _SEQ, _MAP}

def _text_problems(file: str, text: str) -> list[Diagnostic]:
    out = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        found = forbidden_character(line.rstrip("\r"))
        if found is not None:
            col, what = found
            out.append(Diagnostic(Span(file, lineno, col + 1), "bad-character",
                                  say("bad-character.not-allowed-rule-files-2", what=what),
                                  say("bad-character.delete-retype-text-around")))
    return out


class _CoreResolver(BaseResolver):
    """YAML 1.2 core schema: only true/false are booleans, only ~/null are nulls."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        """BaseResolver.resolve with its commonest answer first (most scalars of a table are names
        and text): a scalar that is quoted, or plain and starting with a character no implicit
        resolver is registered for, is text (tests/test_load.py checks it against BaseResolver)."""
        if kind is ScalarNode and value and (not implicit[0] or value[0] not in _RESOLVED_FIRST):
            return _STR
        return BaseResolver.resolve(self, kind, value, implicit)


_CoreResolver.yaml_implicit_resolvers = {}
for _tag, (_regex, _first) in ((_BOOL, core.BOOL), (_NULL, core.NULL), (_INT, core.INT), (_FLOAT, core.FLOAT)):
    _CoreResolver.add_implicit_resolver(_tag, re.compile(f"^(?:{_regex})$"),
                                        list(_first) + ([""] if _tag == _NULL else []))
# The first characters some implicit resolver is registered for (`_CoreResolver.resolve`; there
# is no wildcard and no path resolver).
_RESOLVED_FIRST = frozenset(k for k in _CoreResolver.yaml_implicit_resolvers if k)
assert None not in _CoreResolver.yaml_implicit_resolvers and not _CoreResolver.yaml_path_resolvers


class _PyLoader(Reader, Scanner, Parser, Composer, SafeConstructor, _CoreResolver):
    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        _CoreResolver.__init__(self)


try:
    from yaml.cyaml import CParser as _CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _CParser = None
if _CParser is not None:

    class _CLoader(_CParser, SafeConstructor, _CoreResolver):  # type: ignore[misc, valid-type]
        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            SafeConstructor.__init__(self)
            _CoreResolver.__init__(self)

    _Loader: type = _CLoader
else:  # pragma: no cover - depends on how PyYAML was built
    _Loader = _PyLoader


# A text longer than this keeps the positions of its top two levels only (a table file's entries,
# not each entry's fields: they were 80% of a 50,000-weapon build's memory); a position below is
# found by composing the text again, once, when something asks for it (a diagnostic, mostly).
PARTIAL_BYTES = 64 * 1024
PARTIAL_DEPTH = 2


@dataclass(slots=True)
class Document:
    """One loaded rule file: its data as plain Python values and where each value came from.

    Positions are kept as compact (line, column) pairs per JSON path and turned
    into `Span`s on demand. A large file (over PARTIAL_BYTES) keeps those of its top
    PARTIAL_DEPTH levels and its text, and `span()` completes them from the text when
    asked for a deeper one.
    """

    file: str
    data: Any
    spans: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    key_spans: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    quoted: set[JsonPath] = field(default_factory=set)
    text: str | None = None  # set while the positions are partial

    def to_json(self, kind: str) -> dict[str, Any]:
        """Plain JSON data for the cache (compiler/build/cache.py): the data, the positions it keeps
        (`partial`: the top levels only), the kind."""
        return {"kind": kind, "data": self.data, "partial": self.text is not None,
                "spans": [[list(p), line, col] for p, (line, col) in self.spans.items()],
                "keys": [[list(p), line, col] for p, (line, col) in self.key_spans.items()],
                "quoted": [list(p) for p in self.quoted]}

    @classmethod
    def from_json(cls, file: str, value: Any, text: str | None = None) -> tuple[Document, str] | None:
        """The inverse of `to_json` (`text`: the file's, which partial positions are completed
        from), or None for anything that is not its output."""
        try:
            kind = value["kind"]
            spans = {tuple(p): (line, col) for p, line, col in value["spans"]}
            keys = {tuple(p): (line, col) for p, line, col in value["keys"]}
            quoted = {tuple(p) for p in value["quoted"]}
            partial = value["partial"]
            if not isinstance(kind, str) or partial not in (True, False) or (partial and text is None):
                return None
            return cls(file, value["data"], spans, keys, quoted, text if partial else None), kind
        except (KeyError, TypeError, ValueError):
            return None

    def span(self, path: JsonPath = (), *, key: bool = False) -> Span:
        """The span of the value at `path` (or of its key), else of its nearest ancestor."""
        path = tuple(path)
        if self.text is not None and len(path) > PARTIAL_DEPTH:
            self._complete()
        if key and path in self.key_spans:
            line, col = self.key_spans[path]
            return Span(self.file, line, col, path)
        p = path
        while p not in self.spans and p:
            p = p[:-1]
        line, col = self.spans.get(p, (1, 1))
        return Span(self.file, line, col, p)

    def _complete(self) -> None:
        """Every position, from the text (composed again with nothing left out)."""
        text, self.text = self.text, None
        assert text is not None
        full, _ = load_text(text, self.file, partial_bytes=None)
        if full is not None:
            self.spans, self.key_spans, self.quoted = full.spans, full.key_spans, full.quoted


def _mark_span(file: str, node: Node, path: JsonPath) -> Span:
    m = node.start_mark
    return Span(file, m.line + 1, m.column + 1, path)


class _Converter:
    """Walks a composed node tree into plain values, checking what PyYAML would let through."""

    def __init__(self, file: str, doc: Document, diags: list[Diagnostic], keep_depth: int | None = None,
                 max_items: int | None = None):
        self.file = file
        self.max_items = max_items
        self.doc = doc
        self.diags = diags
        self.keep = 10**9 if keep_depth is None else keep_depth  # positions kept down to this depth
        self.seen: set[int] = set()
        self.alias_nodes = 0
        self.aborted = False

    def error(self, node: Node, path: JsonPath, code: str, msg: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(_mark_span(self.file, node, path), code, msg, hint))

    def convert(self, node: Node, path: JsonPath, depth: int, via_alias: bool) -> Any:
        if self.aborted:
            return None
        if node.__class__ is not ScalarNode:  # a scalar is a leaf: met again, it expands to nothing more
            if id(node) in self.seen:
                via_alias = True
            self.seen.add(id(node))
        if via_alias:
            self.alias_nodes += 1
            if self.alias_nodes > MAX_ALIAS_NODES:
                self.error(node, path, "alias-limit",
                           say("alias-limit.aliases-expand-more-than", max_alias_nodes=MAX_ALIAS_NODES))
                self.aborted = True
                return None
        if depth > MAX_DEPTH:
            self.error(node, path, "too-deep", say("too-deep.nesting-deeper-than-levels", max_depth=MAX_DEPTH))
            self.aborted = True
            return None
        if node.tag not in _CORE_TAGS:
            self.error(node, path, "unknown-tag",
                       say("unknown-tag.tag-not-allowed-rule", tag=node.tag))
            return None
        if not via_alias and len(path) <= self.keep:
            mark = node.start_mark
            self.doc.spans[path] = (mark.line + 1, mark.column + 1)
        if node.__class__ is ScalarNode:
            return self.scalar(node, path)
        if self.max_items is not None and len(node.value) > self.max_items:
            what = "list" if isinstance(node, SequenceNode) else "mapping"
            self.error(node, path, "bad-size", say("bad-size.items-limit-here", what=what, n_value=len(node.value), max_items=self.max_items))
            self.aborted = True
            return None
        if isinstance(node, SequenceNode):
            return [self.convert(item, path + (i,), depth + 1, via_alias)
                    for i, item in enumerate(node.value)]
        assert isinstance(node, MappingNode)
        return self.mapping(node, path, depth, via_alias)

    def text(self, node: ScalarNode, path: JsonPath, value: str) -> str:
        """A text scalar, NFC-normalised; an escape that makes a forbidden character is reported."""
        found = forbidden_character(value)
        if found is not None:
            self.error(node, path, "bad-character",
                       say("bad-character.not-allowed-rule-files", value=found[1]))
        return value if unicodedata.is_normalized("NFC", value) else unicodedata.normalize("NFC", value)

    def scalar(self, node: ScalarNode, path: JsonPath) -> Any:
        value = node.value
        tag = node.tag
        if node.style in ("'", '"'):
            if len(path) <= self.keep:
                self.doc.quoted.add(path)
            value = self.text(node, path, value)
        elif tag == _STR and not value.isascii():
            value = unicodedata.normalize("NFC", value)
        if tag == _STR:
            if not node.style and value in core.YAML11_BOOLS:
                self.error(node, path, "truthy",
                           say("truthy.yaml-1-1-boolean", value=value),
                           hint=say("truthy.write-true-false-quote"))
            return value
        if tag == _NULL:
            return None
        if tag == _BOOL:
            return value.lower() == "true"
        if tag == _INT:
            if core.int_too_long(value):
                self.error(node, path, "bad-number",
                           say("bad-number.whole-number-digits-numbers", n_value=len(value), max_int_digits=core.MAX_INT_DIGITS))
                return None
            return core.int_value(value)
        if core.unusable_float(value):
            self.error(node, path, "bad-number", say("bad-number.not-usable-number", value=quote(value)))
            return None
        return float(value)

    def mapping(self, node: MappingNode, path: JsonPath, depth: int, via_alias: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        first_seen: dict[str, Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode) or key_node.tag not in (_STR, _INT):
                self.error(key_node, path, "bad-key", say("bad-key.mapping-keys-must-plain"))
                continue
            key = self.text(key_node, path, key_node.value) if key_node.style else key_node.value
            if not key.isascii():
                key = unicodedata.normalize("NFC", key)
            if key == "<<":
                self.error(key_node, path, "merge-key", say("merge-key.yaml-merge-keys-are"))
                continue
            if node.flow_style and not key_node.style and isinstance(value_node, ScalarNode) \
                    and value_node.tag == _NULL and not value_node.value and value_node.start_mark.index == key_node.end_mark.index \
                    and first_seen:  # `{description: 又快, 又狠}`: the ',' ended the text before it
                before = list(first_seen)[-1]
                said = out.get(before)
                self.error(key_node, path + (key,), "quote-text", say("quote-text.comma", key_=key, before=before),
                           say("quote-text.write", key_=before, text=single_quoted(f"{said}, {key}"))
                           if isinstance(said, str) else None)
                continue
            if key in first_seen:
                prev = first_seen[key].start_mark
                self.error(key_node, path + (key,), "duplicate-key",
                           say("duplicate-key.duplicate-key-first-defined", key_=key, number=prev.line + 1))
                continue
            first_seen[key] = key_node
            if not via_alias and len(path) < self.keep:
                mark = key_node.start_mark
                self.doc.key_spans[path + (key,)] = (mark.line + 1, mark.column + 1)
            out[key] = self.convert(value_node, path + (key,), depth + 1, via_alias)
        return out


def load_text(text: str, file: str, *, partial_bytes: int | None = PARTIAL_BYTES, max_items: int | None = None
              ) -> tuple[Document | None, list[Diagnostic]]:
    """Compose one YAML document from text; never raises for bad input. A text over
    `partial_bytes` keeps partial positions (see Document); None keeps them all. A list or mapping
    of more than `max_items` items is a diagnostic at it (None: no limit), found before any of its
    items is converted."""
    diags = list(tab_diagnostics(file, text)) + _text_problems(file, text)
    if diags:
        return None, diags
    found: list[Diagnostic] = []
    while True:
        node, problem = _compose(text, file)
        if problem is None:
            break
        diag, text_after = problem
        found.append(diag)
        if text_after is None or len(found) >= MAX_SYNTAX_ERRORS:
            return None, found
        text = text_after
    if isinstance(node, list):
        return None, found + node
    if found:
        return None, found
    partial = partial_bytes is not None and len(text) > partial_bytes
    doc = Document(file, None, text=text if partial else None)
    if node is None:
        return None, [Diagnostic(Span(file, 1, 1), "empty-file", say("empty-file.file-holds-no-yaml"))]
    converter = _Converter(file, doc, diags, PARTIAL_DEPTH if partial else None, max_items)
    try:
        doc.data = converter.convert(node, (), 0, False)
    except RecursionError:
        diags.append(Diagnostic(Span(file, 1, 1), "too-deep", say("too-deep.nesting-too-deep-read")))
    if diags:
        return None, diags
    return doc, []


def _compose(text: str, file: str) -> tuple[Any, tuple[Diagnostic, str | None] | None]:
    """The composed node of `text` (a list of diagnostics when it cannot be read at all), or the
    syntax error that stopped it with the text to read again for more (None: nothing more)."""
    loader = None
    try:
        loader = _Loader(text)
        return loader.get_single_node(), None
    except yaml.reader.ReaderError as exc:
        before = text[: exc.position]
        line = before.count("\n") + 1
        col = len(before.rsplit("\n", 1)[-1]) + 1
        return [Diagnostic(Span(file, line, col), "bad-character",
                           say("bad-character.character-u-not-allowed", character=exc.character))], None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        if "expected a single document" in str(exc.context or ""):  # PyYAML's own words
            return [Diagnostic(Span(file, line, col), "multiple-documents",
                               say("multiple-documents.rule-file-holds-exactly"))], None
        diag = flow_text_problem(text, file, exc) or full_width_problem(text, file, line) or \
            Diagnostic(Span(file, line, col), "yaml-syntax", say("yaml-syntax.problem", problem=problem))
        return None, (diag, continue_after(text, exc))
    except yaml.YAMLError as exc:
        return [Diagnostic(Span(file, 1, 1), "yaml-syntax",
                           say("yaml-syntax.problem", problem=str(exc).splitlines()[0]))], None
    except RecursionError:
        return [Diagnostic(Span(file, 1, 1), "too-deep", say("too-deep.nesting-too-deep-read-2"))], None
    finally:
        if loader is not None:
            loader.dispose()


def load_file(path: Path, file: str | None = None, *, max_bytes: int = MAX_FILE_BYTES,
              max_items: int | None = None, what: str | None = None) -> tuple[Document | None, list[Diagnostic]]:
    """Read (`reading.read_bounded`: a regular file of at most `max_bytes` bytes) and compose one
    rule file. `file` is the name used in diagnostics."""
    shown = file or str(path)
    try:
        raw = read_bounded(path, max_bytes, shown, what=say("documents.rule-file") if what is None else what)
    except ReadRefused as exc:
        return None, [exc.diagnostic]
    return load_bytes(raw, shown, max_items=max_items)


def load_bytes(raw: bytes, file: str, *, max_items: int | None = None) -> tuple[Document | None, list[Diagnostic]]:
    """Decode (UTF-8 only) and compose one rule file's bytes."""
    text, diags = decode_utf8(file, raw)
    if text is None:
        return None, diags
    return load_text(text, file, max_items=max_items)
