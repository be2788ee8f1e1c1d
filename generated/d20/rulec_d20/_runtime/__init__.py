"""rulec runtime: dice sources, dice engines, exact odds and small helpers.

This package is standard-library only. The compiler copies the modules a ruleset uses verbatim
into its package (as `_runtime`): `core`, `sources` and `odds` always, `pool`, `d20` and `damage`
where its procedures roll them, and the modules of the helpers and features its manifest
declares (`geometry`, `initiative`). The compiler imports the same code to compute the odds of
the reference pages, so the dice math exists once.
"""

from __future__ import annotations
