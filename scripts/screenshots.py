"""Write PNG screenshots of every reference page (desktop and phone width) for reviewers; a page
taller than 16,000 px is written in numbered tiles, so the whole page is seen.

    python scripts/screenshots.py [OUT_DIR]     # default: screenshots/
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import Browser  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    for page in sorted((ROOT / "generated" / "reference").glob("*.html")):
        for label, width, mobile in (("desktop", 1200, False), ("phone", 390, True)):
            with Browser() as browser:
                browser.open(page.as_uri(), width=width, height=900, mobile=mobile)
                for target in browser.screenshot(out / f"{page.stem}-{label}.png"):
                    print(target)


if __name__ == "__main__":
    main()
