"""rulec runtime: dice sources, dice engines, exact odds and small helpers.

This package is standard-library only. The compiler copies it verbatim into
every generated package (as `_runtime`) and imports the same code itself to
compute the odds shown on reference pages, so the dice math exists once.
"""

from __future__ import annotations
