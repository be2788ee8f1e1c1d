"""The reference pages printed on A4 by headless Chromium (issue 33): no table is clipped, no
scrollbar or control is printed, the ruleset name and page numbers are in the margins, and a phone
opens on the quick sheet instead of 64,000 px of reference.

Each page is laid out under print media at the A4 content width and every table is measured
against its container; then it is printed to PDF (`Page.printToPDF`, the page's own `@page` size)
and, when pypdfium2 is installed, every PDF page is rendered and its side margins checked for ink:
a clipped or overflowing table draws into them. Skips without Chromium, like test_browser.py.
"""

from __future__ import annotations

import base64
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from browser import Browser, chromium_path  # noqa: E402

PAGES = sorted(p for p in (ROOT / "generated" / "reference").glob("*.html")
               if p.stem != "index" and not p.stem.endswith("-calc"))  # the calculators: tests/test_calculator.py

pytestmark = [pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (.ci/install_chromium.sh)"),
              pytest.mark.skipif(not PAGES, reason="no reference pages in generated/ (rulec build)")]

MM = 96 / 25.4  # CSS px per millimetre
A4_WIDTH_MM, A4_HEIGHT_MM = 210, 297
SIDE_MARGIN_MM = 12  # the print stylesheet's left and right page margins (_style.css.j2 @page)
CONTENT_PX = int((A4_WIDTH_MM - 2 * SIDE_MARGIN_MM) * MM)

OVERFLOW = """(() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const out = [];
  const page = document.documentElement.clientWidth;
  for (const t of document.querySelectorAll('table')) {
    const box = t.parentElement;
    const r = t.getBoundingClientRect();
    if (t.scrollWidth > box.clientWidth + 1 || r.right > page + 1 || r.left < -1)
      out.push({table: (t.closest('[id]') || {}).id || '', width: Math.round(r.width), room: box.clientWidth});
  }
  const scrolling = [...document.querySelectorAll('main div, main figure, main section, main details, body')].filter(el => {
    const s = getComputedStyle(el);
    return (s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
  }).length;
  const controls = [...document.querySelectorAll('input, label.control, summary')]
    .filter(el => el.getBoundingClientRect().height > 0 && getComputedStyle(el).display !== 'none'
                  && getComputedStyle(el).visibility !== 'hidden')
    .map(el => el.tagName).filter(tag => tag !== 'SUMMARY');
  const markers = [...document.querySelectorAll('summary')]
    .filter(el => getComputedStyle(el).listStyleType !== 'none' && getComputedStyle(el).display === 'list-item').length;
  const marks = [...document.querySelectorAll('summary, summary > *')]
    .filter(el => !['none', 'normal', ''].includes(getComputedStyle(el, '::before').content)).length;
  return {overflow: out, marks, scrolling, controls, markers, width: document.documentElement.scrollWidth, page};
})()"""


def _print_layout(browser: Browser) -> dict[str, Any]:
    browser.call("Emulation.setEmulatedMedia", {"media": "print"})
    browser.call("Emulation.setDeviceMetricsOverride", {"width": CONTENT_PX, "height": 1000,
                                                        "deviceScaleFactor": 1, "mobile": False})
    return browser.evaluate(OVERFLOW)


def _pdf(browser: Browser) -> bytes:
    data = browser.call("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": True},
                        timeout=180)["data"]
    return base64.b64decode(data)


def page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def _gray_pages(pdf: bytes, scale: float = 0.75):
    """Each page of `pdf` rendered in 8-bit gray: (width, height, stride, pixels)."""
    pdfium = pytest.importorskip("pypdfium2")
    doc = pdfium.PdfDocument(pdf)
    try:
        for i in range(len(doc)):
            bitmap = doc[i].render(scale=scale, grayscale=True)
            yield bitmap.width, bitmap.height, bitmap.stride, bytes(bitmap.buffer)
    finally:
        doc.close()


def _inked_margins(pdf: bytes) -> tuple[int, list[int]]:
    """The number of pages, and those (1-based) with ink in their left or right margin strip."""
    bad, count = [], 0
    for number, (width, height, stride, pixels) in enumerate(_gray_pages(pdf), 1):
        count += 1
        strip = int(width * (SIDE_MARGIN_MM - 2) / A4_WIDTH_MM)
        for y in range(0, height, 2):
            row = pixels[y * stride: y * stride + width]
            if min(row[:strip]) < 200 or min(row[width - strip:]) < 200:
                bad.append(number)
                break
    return count, bad


@pytest.mark.slow  # an integration run of several seconds: CI's slow job
def test_every_table_fits_the_a4_width_under_print_media():
    """Each page laid out for print at the A4 content width: no table wider than its container or
    the page, no scroll container left scrolling, no control or disclosure marker shown."""
    with Browser() as browser:
        for page in PAGES:
            browser.open(page.as_uri())
            layout = _print_layout(browser)
            assert layout["overflow"] == [], f"{page.name}: every table fits the A4 content width"
            assert layout["scrolling"] == 0, f"{page.name}: no scroll container is left scrolling in print"
            assert layout["controls"] == [] and layout["markers"] == 0 and layout["marks"] == 0, \
                f"{page.name}: no control or disclosure marker is printed"
            assert layout["width"] <= layout["page"] + 1


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_printed_page_runs_into_its_margins(page: Path, tmp_path: Path):
    """The page printed to PDF, then page by page: nothing is drawn in the side margins (a
    clipped or overflowing table would be), and the page count stays that of a handbook."""
    with Browser() as browser:
        browser.open(page.as_uri())
        pdf = _pdf(browser)
    assert pdf.startswith(b"%PDF")
    pages = page_count(pdf)
    assert 1 < pages < 60
    (tmp_path / f"{page.stem}.pdf").write_bytes(pdf)
    rendered, inked = _inked_margins(pdf)
    assert rendered == pages
    assert inked == [], f"{page.name}: content runs into the side margins on pages {inked}"
    title = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8")).group(1)  # type: ignore[union-attr]
    for number, text in enumerate(_texts(pdf, (0, 1, pages - 1))):
        shown = pages if number == 2 else number + 1
        assert title in text and f"{shown} / {pages}" in text, "the margins carry the name and page numbers"


def _texts(pdf: bytes, indexes: tuple[int, ...]) -> list[str]:
    pdfium = pytest.importorskip("pypdfium2")
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].get_textpage().get_text_range() for i in indexes]
    finally:
        doc.close()


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_a_phone_opens_on_the_quick_sheet():
    """The dp page was ~64,000 px tall at phone width; the long reference sections are folded."""
    page = ROOT / "generated" / "reference" / "dp.html"
    with Browser() as browser:
        browser.open(page.as_uri(), width=390, height=800, mobile=True)
        info = browser.evaluate("""({height: document.documentElement.scrollHeight,
          quick: document.getElementById('quick').getBoundingClientRect().top,
          folded: document.querySelectorAll('details.part:not([open])').length})""")
    assert info["quick"] < 640, "the quick sheet starts on the first screen"
    assert info["folded"] >= 4
    assert info["height"] < 16000, info
