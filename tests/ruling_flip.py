"""Test helper: a ruleset's IR with one ruling changed by a homebrew pack, run on the oracle."""

from __future__ import annotations

from pathlib import Path

from oracle import Oracle
from rulec.build.facade import compile_rules


def flipped(tmp_path, ruleset: str, key: str, value: object):  # type: ignore[no-untyped-def]
    """The ruleset compiled to its IR twice, stock and with one ruling changed by a pack: (stock, pack)."""
    root = Path(__file__).resolve().parent.parent / "rules" / ruleset
    pack = tmp_path / "pack"
    pack.mkdir(parents=True, exist_ok=True)
    (pack / "pack.yaml").write_text(f"kind: pack\nid: flip\nname: 改判\nextends: {ruleset}\n", encoding="utf-8")
    text = str(value).lower() if isinstance(value, bool) else str(value)
    (pack / "rulings.yaml").write_text(f"kind: rulings\nrulings:\n  - {{key: {key}, value: {text}, override: true}}\n",
                                       encoding="utf-8")  # a pack changes a ruling's value only
    return tuple(compile_rules(paths, stop_after="lower").rulesets[0] for paths in ([root], [root, pack]))


def oracle_run(rs, procedure: str, args: dict, faces: list[int]) -> dict:  # type: ignore[no-untyped-def]
    """The outcome fields of `procedure` on the oracle, with combatants given as stat overrides and fixed faces."""
    proc = next(p for p in rs.procedures if p.id == procedure)
    stats = {st.id: st.default for st in rs.stats}
    args = {k: ({**stats, **v} if isinstance(v, dict) else v) for k, v in args.items()}
    it = iter(faces)
    return dict(zip([o.id for o in proc.result], Oracle(rs).run(proc, args, lambda sides: next(it))))
