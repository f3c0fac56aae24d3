"""The built book in a real browser: Playwright driving Debian's Chromium against a local server.

Skipped, with the reason, only when /usr/bin/chromium is missing; `.ci/run` installs it, so CI
always runs these. Screenshots of every page are saved under `_build/test-artifacts/screenshots/`.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest
from conftest import REPO

from analysis.sections import SECTIONS

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
ARTIFACTS = REPO / "_build" / "test-artifacts" / "screenshots"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is not "
                                "installed; .ci/run installs it with apt-get install -y chromium")


@pytest.fixture(scope="module")
def site(book):
    """The built book served on localhost: yields (base URL, html folder)."""
    html = book / "_build" / "html"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(html))
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", html
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


def _pages(html: Path) -> list[str]:
    return sorted(str(p.relative_to(html)) for p in html.rglob("*.html") if not p.relative_to(html).parts[0].startswith("_"))


def _collect_errors(page) -> list[str]:
    """A list that fills with the page's console errors, uncaught exceptions and failed requests
    (a function of its own, so each page's handlers append to that page's list)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None)
    return errors


def test_every_page_loads_cleanly(site, browser):
    base, html = site
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = _pages(html)
    assert {f"book/generated/{s.name}.html" for s in SECTIONS} <= set(pages)
    for rel in pages:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = _collect_errors(page)
        page.goto(base + rel, wait_until="networkidle")
        broken = page.evaluate("Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)")
        text = page.inner_text("body")
        page.screenshot(path=str(ARTIFACTS / (rel.replace("/", "_") + ".png")), full_page=True)
        page.close()
        assert not errors, f"{rel}: console errors {errors}"
        assert not broken, f"{rel}: images not loaded {broken}"
        assert "{glue" not in text and "glue:text" not in text, f"{rel}: unrendered glue placeholder"


def test_internal_links_and_anchors_resolve(site):
    base, html = site
    ids = {}
    for rel in _pages(html):
        source = (html / rel).read_text()
        ids[rel] = set(re.findall(r'\bid="([^"]+)"', source))
    for rel in ids:
        for href in re.findall(r'<a\b[^>]*\bhref="([^"]+)"', (html / rel).read_text()):
            if href.startswith(("http:", "https:", "mailto:", "javascript:")):
                continue
            target = urlparse(urljoin(base + rel, href))
            path = unquote(target.path).lstrip("/") or "index.html"
            assert (html / path).exists(), f"{rel}: link {href} -> missing {path}"
            if target.fragment and path.endswith(".html"):
                assert target.fragment in ids.get(path, set(re.findall(r'\bid="([^"]+)"', (html / path).read_text()))), \
                    f"{rel}: anchor {href} not found"


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.name)
def test_chapter_shows_glued_numbers_and_parameters_not_raw_cells(site, browser, section):
    base, _ = site
    page = browser.new_page()
    page.goto(f"{base}book/generated/{section.name}.html", wait_until="networkidle")
    pasted = page.eval_on_selector_all("span.pasted-text", "els => els.map(e => e.textContent.trim())")
    text = page.inner_text("body")
    if section.params:
        assert page.get_by_text("Parameters this chapter ran with").first.is_visible()
    page.close()
    assert pasted and all(pasted), f"{section.name}: glued numbers missing or empty"
    assert "# Parameters" not in text and "injected-parameters" not in text
    assert not re.search(r"^\s*gpus = ", text, re.M), "a parameters cell is visible"


def test_search_finds_a_chapter_by_a_word_in_it(site, browser):
    base, _ = site
    page = browser.new_page()
    page.goto(f"{base}search.html?q=recovery", wait_until="networkidle")
    page.wait_for_selector("ul.search li", timeout=15_000)
    results = page.inner_text("ul.search")
    page.close()
    assert "Capex" in results
