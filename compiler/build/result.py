"""What a build gives back: the `Build` (its rulesets' IR, its output tree as {relative path:
bytes}, every diagnostic, the digests and odds the pages and the stamp read), and the `Progress`
callback through which it reports how far each pass is.
"""

from __future__ import annotations

from collections.abc import Callable

from ..diagnostics import Diagnostic
from ..ir import Ruleset
from ..record import MutableRecord, field

Progress = Callable[[str, int, int], None]


class Build(MutableRecord):
    rulesets: list[Ruleset] = field(default_factory=list)  # those built (not those reused whole: build/reuse.py)
    files: dict[str, bytes] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    digests: dict[str, str] = field(default_factory=dict)  # ruleset id -> content hash of its inputs
    odds: dict[str, list[dict[str, object]]] = field(default_factory=dict)  # ruleset id -> odds sections
    # ruleset id -> package sources, kept only when the files do not hold them (no python target)
    packages: dict[str, dict[str, str]] = field(default_factory=dict)
    # The stamp's input digest (stamp.combined_digest) of the very bytes this build loaded, so that
    # a stamp can never vouch for bytes other than those compiled ("" when the build failed early).
    inputs: str = ""
    pack_ids: list[str] = field(default_factory=list)  # the packs built in, sorted (the stamp names them)
    # How each file the IR names (by `SourceFolder.source_name`) is shown to the user (`display_path`)
    shown: dict[str, str] = field(default_factory=dict)
    # The SHA-256 of some of `files`, from the very bytes there (what the build recorded of its
    # outputs, or checked of those it reused): the stamp takes them instead of hashing again.
    file_digests: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def package(self, ruleset_id: str) -> dict[str, str]:
        """The sources of a ruleset's Python package ({path inside the distribution: text})."""
        if ruleset_id in self.packages:
            return self.packages[ruleset_id]
        prefix = f"{ruleset_id}/"
        return {rel[len(prefix):]: data.decode("utf-8") for rel, data in self.files.items() if rel.startswith(prefix)}
