"""Where the cache folder is: `$RULEC_CACHE_DIR`, else `$XDG_CACHE_HOME/rulec`, else
`~/.cache/rulec` (`RULEC_CACHE_DIR=off`: nowhere). Standard library only, imported by the build
server's client before anything else (cli/server_link.py) as well as by the cache (cache.py)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_place() -> Path | None:
    """The cache folder's path (it may not exist), or None: turned off, or no home folder to be found."""
    setting = os.environ.get("RULEC_CACHE_DIR")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    try:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    except RuntimeError:
        return None
    return Path(base) / "rulec"
