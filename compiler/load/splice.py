"""Loading an edited table file by composing only the lines that changed (a resident build).

Editing one weapon of a 1,000-weapon file changes one line; composing the whole file again
takes a tenth of a second. `splice(old, text)` takes the document loaded from the file's
previous text (a large one, whose positions are kept to the entries: see `Document`) and the
new text, composes only the entries whose lines changed, at their own line numbers, and splices
them in among the old ones — or returns None, and the caller loads the whole text, whenever it
cannot be sure that gives exactly what `load_text(text)` gives:

* the document is a top-level mapping whose last key is `entries`, a block sequence with every
  item on lines of its own, and the changed lines start at the first entry or below (an entry
  added at the end, the commonest edit, included);
* the changed lines, widened to whole entries, compose on their own as the items of `entries:`
  into a list, with no diagnostic, each item where the others are (the same `-` column and the
  same column after it): a construct left open (a quote, a bracket) fails there instead of
  reading on, and a line that belongs to no item (a top-level key, a document marker) fails too;
* nothing in the text could make one part's meaning depend on another's: no anchors or aliases
  (`&`, `*`), no directives (`%`), and no line breaks but `\\n` (`\\r`, NEL and the Unicode
  separators break lines in YAML too, and would shift the line numbers).

The lines that did not change were checked when they were loaded; the changed ones are checked
by `load_text` like any text. tests/test_splice.py holds the result to `load_text` on random
edits of every kind, those it declines included.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from .documents import PARTIAL_BYTES, Document, JsonPath, load_text

_UNSAFE = ("\r", "\x85", "\u2028", "\u2029", "&", "*", "%")


def splice(old: Document, text: str) -> Document | None:
    before = old.text
    if (before is None or len(text) <= PARTIAL_BYTES or not isinstance(old.data, dict)
            or not isinstance(old.data.get("entries"), list) or any(c in text for c in _UNSAFE)):
        return None
    entries = old.data["entries"]
    key_line, key_col = old.key_spans.get(("entries",), (0, 0))
    if key_col != 1 or any(line > key_line for path, (line, _) in old.key_spans.items() if path != ("entries",)):
        return None  # `entries` is not a top-level key, or not the last one
    starts = [old.spans.get(("entries", i), (0, 0)) for i in range(len(entries))]
    lines = [line for line, _ in starts]
    if len(entries) < 2 or lines != sorted(set(lines)) or lines[0] <= key_line or len({c for _, c in starts}) != 1:
        return None  # not a block sequence of entries on lines of their own (a flow sequence, say)
    old_lines, new_lines = before.split("\n"), text.split("\n")
    dash = _dash(old_lines[lines[0] - 1])
    limit = min(len(old_lines), len(new_lines))
    head = 0
    while head < limit and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while tail < limit - head and old_lines[-1 - tail] == new_lines[-1 - tail]:
        tail += 1
    # The changed lines of the old text are [head + 1, after) (1-based), widened to whole
    # entries: from the start of the entry they begin in to the start of the first one after.
    after = len(old_lines) - tail + 1
    i0 = bisect_right(lines, head + 1) - 1
    i1 = bisect_left(lines, after)
    if i0 < 0 or dash is None:
        return None  # above the first entry
    shift = len(new_lines) - len(old_lines)
    # The new lines [top, bottom) hold the new items: up to the next unchanged entry, or to the end
    # of the text when the changes reach past the last entry (`entries` is the last key).
    top = lines[i0]
    bottom = lines[i1] + shift if i1 < len(entries) else len(new_lines) + 1
    region = "\n".join(new_lines[top - 1:bottom - 1])
    snippet = "\n" * (top - 2) + "entries:\n" + region + ("\n" if i1 < len(entries) else "")
    part, diags = load_text(snippet, old.file, partial_bytes=0)
    if part is None or diags or not isinstance(part.data, dict) or list(part.data) != ["entries"]:
        return None
    items = part.data["entries"]
    if not isinstance(items, list) or not items:
        return None
    col = starts[0][1]
    for j in range(len(items)):
        line, item_col = part.spans[("entries", j)]
        if item_col != col or _dash(new_lines[line - 1]) != dash:
            return None
    spans: dict[JsonPath, tuple[int, int]] = {}
    for path, (line, c) in old.spans.items():
        if len(path) != 2 or path[0] != "entries":
            spans[path] = (line, c)  # the root, the top-level keys, the sequence: all above
    if i0 == 0:  # a block sequence starts at the `-` of its first item
        spans[("entries",)] = (part.spans[("entries", 0)][0], dash + 1)
    for i in range(i0):
        spans[("entries", i)] = starts[i]
    for j in range(len(items)):
        spans[("entries", i0 + j)] = part.spans[("entries", j)]
    moved = len(items) - (i1 - i0)
    for i in range(i1, len(entries)):
        spans[("entries", i + moved)] = (starts[i][0] + shift, starts[i][1])
    quoted = {p for p in old.quoted if len(p) < 2 or p[0] != "entries"}
    quoted |= {p for p in old.quoted if len(p) == 2 and p[0] == "entries" and isinstance(p[1], int) and p[1] < i0}
    quoted |= {("entries", p[1] + moved) for p in old.quoted
               if len(p) == 2 and p[0] == "entries" and isinstance(p[1], int) and p[1] >= i1}
    quoted |= {("entries", i0 + p[1]) for p in part.quoted if len(p) == 2 and isinstance(p[1], int)}
    data = {**old.data, "entries": entries[:i0] + items + entries[i1:]}
    return Document(old.file, data, spans, dict(old.key_spans), quoted, text)


def _dash(line: str) -> int | None:
    """The column of the `-` that starts a block sequence item on this line (None: it does not)."""
    rest = line.lstrip(" ")
    return len(line) - len(rest) if rest.startswith("- ") or rest == "-" else None
