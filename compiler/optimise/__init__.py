"""Pass 4, optimise: IR -> IR (folding, the setup/per-roll plan, hoisting, the common case)."""

from __future__ import annotations

from .plan import optimise

__all__ = ["optimise"]
