"""Each HTML reference page in headless Chromium: no console errors, no requests, tables visible, and
charts wherever the manifest declares balancing odds. The pages are those of the session's build
of every ruleset (tests/every_ruleset.py), the index included."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from browser import Browser, chromium_path  # noqa: E402
from every_ruleset import RULESETS, declares_odds  # noqa: E402

PAGES = [*RULESETS, "index"]

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (.ci/install_chromium.sh)")

VISIBLE = """(() => {
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  return {
    entries: [...document.querySelectorAll('table.entries')].filter(shown).length,
    charts: [...document.querySelectorAll('svg.chart')].filter(shown).length,
    chart_lines: document.querySelectorAll('svg.chart polyline').length,
    odds_tables: [...document.querySelectorAll('table.odds')].filter(shown).length,
    scripts: document.querySelectorAll('script').length,
    title: document.title,
  };
})()"""


@pytest.mark.slow  # several seconds: CI's slow job
@pytest.mark.parametrize("name", PAGES)
def test_page_renders_cleanly(name: str, built: Path):
    page = built / "reference" / f"{name}.html"
    with Browser() as browser:
        browser.open(page.as_uri())
        info = browser.evaluate(VISIBLE)
        assert browser.problems() == []
        assert info["scripts"] == 0 and info["title"]
        if name != "index":
            assert info["entries"] > 0, "weapon and other tables are visible"
            if declares_odds(name):
                assert info["charts"] > 0 and info["chart_lines"] > 0, "odds charts are visible"
            assert info["odds_tables"] == info["charts"]
        # On a phone, in the same browser: the page body does not scroll sideways.
        browser.open(page.as_uri(), width=390, height=800, mobile=True)
        overflow = browser.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, "the page body does not scroll sideways on a phone (tables scroll inside)"
        assert browser.problems() == []
