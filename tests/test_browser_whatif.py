"""What-if panels in a real browser (Playwright driving Debian's Chromium), offline.

A small page holding every panel (the markup of ``analysis.page.whatif.whatif_panel``, the book's
``whatif.js`` and ``whatif.css``, and the grids ``write_grids`` writes) is served on localhost; a
request to any other host fails the test. The last test looks at the built book's chapter pages.
Skipped, with the reason, only when /usr/bin/chromium is missing (as tests/test_browser.py).
"""

from __future__ import annotations

import shutil
from urllib.parse import urlparse

import pytest
from conftest import REPO, needs_chromium, open_page, serve_folder

from analysis.page import whatif

WIDTHS = (1280, 390)

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def panels_page(tmp_path_factory):
    """URL of a page with every panel, laid out as the book serves them (page two folders below
    _static, like book/generated/<chapter>.html)."""
    root = tmp_path_factory.mktemp("whatif-site")
    static = root / "_static"
    static.mkdir()
    for name in ("whatif.js", "whatif.css"):
        shutil.copy2(REPO / "book" / "static" / name, static / name)
    whatif.write_grids(static / whatif.GRID_FOLDER)
    page = root / "book" / "generated" / "panels.html"
    page.parent.mkdir(parents=True)
    body = "\n".join(whatif.whatif_panel(name) for name in whatif.PANELS)
    page.write_text('<!DOCTYPE html><html><head><meta charset="utf-8">'
                    '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
                    '<link rel="stylesheet" href="../../_static/whatif.css">'
                    '<script src="../../_static/whatif.js"></script></head>'
                    f"<body><main>{body}</main></body></html>", encoding="utf-8")
    server, base = serve_folder(root)
    yield base + "book/generated/panels.html"
    server.shutdown()



def _open(browser, url: str, width: int):
    """A page at ``url`` whose console errors, failed and off-host requests land in ``errors``."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None)
    page.on("request", lambda r: errors.append(f"off-book request {r.url}")
            if urlparse(r.url).hostname not in ("127.0.0.1", None) and not r.url.startswith("data:") else None)
    open_page(page, url)
    return page, errors


@pytest.mark.parametrize("width", WIDTHS)
def test_panels_render_offline_without_errors(browser, panels_page, width):
    page, errors = _open(browser, panels_page, width)
    ready = page.eval_on_selector_all("div.whatif", "els => els.map(e => e.getAttribute('data-ready'))")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    page.close()
    assert not errors, errors
    assert ready == ["1"] * len(whatif.PANELS)
    assert overflow <= 0, f"the panels are {overflow} px wider than a {width} px window"


def _state(page, name: str) -> dict:
    root = f"div.whatif[data-panel='{name}']"
    return page.evaluate(f"""() => {{
        const r = document.querySelector("{root}");
        return {{values: Object.fromEntries(Array.from(r.querySelectorAll('dd.whatif-value'))
                    .map(d => [d.dataset.key, Number(d.dataset.value)])),
                 command: r.querySelector('code.whatif-command').textContent,
                 dot: r.querySelector('circle.whatif-dot').getAttribute('cy'),
                 line: r.querySelector('polyline.whatif-line').getAttribute('points')}};
    }}""")


@pytest.mark.parametrize("name", list(whatif.PANELS))
def test_moving_sliders_shows_the_python_value(browser, panels_page, name):
    """Every slider pushed to its top end with the keyboard: the page shows exactly what the
    book's Python gives at that point, the chart's dot moves, and the command names the point."""
    panel = whatif.PANELS[name]
    page, errors = _open(browser, panels_page, 1280)
    before = _state(page, name)
    for axis in panel.axes:
        page.focus(f"div.whatif[data-panel='{name}'] input[name='{axis.name}']")
        page.keyboard.press("End")
    after = _state(page, name)
    page.close()
    top = {a.name: a.points[-1] for a in panel.axes}
    exact = whatif.evaluate(panel, top)
    assert not errors, errors
    for o in panel.outputs:
        assert after["values"][o.key] == pytest.approx(exact[o.key], rel=1e-9), o.key
    assert after["values"] != before["values"]
    assert (after["dot"], after["line"]) != (before["dot"], before["line"]), "the chart did not change"
    assert after["command"] == whatif.command(whatif.grid(panel), top)


@pytest.mark.parametrize("name", list(whatif.PANELS))
def test_page_interpolation_equals_python(browser, panels_page, name):
    """Off the grid, whatif.js's interpolation is analysis.page.whatif.interpolate's to 1e-12."""
    import numpy as np

    panel = whatif.PANELS[name]
    g = whatif.grid(panel)
    rng = np.random.default_rng(1)
    points = [{a.name: float(a.points[0] + (a.points[-1] - a.points[0]) * rng.random()) for a in panel.axes}
              for _ in range(5)]
    page, _ = _open(browser, panels_page, 1280)
    got = page.evaluate("([name, points, keys]) => points.map(p => keys.map(k => "
                        "window.BookWhatIf.interpolate(window.BOOK_WHATIF[name], p, k)))",
                        [name, points, [o.key for o in panel.outputs]])
    page.close()
    for p, row in zip(points, got, strict=True):
        for o, value in zip(panel.outputs, row, strict=True):
            assert value == pytest.approx(whatif.interpolate(g, p, o.key), rel=1e-12), (o.key, p)


def test_built_chapters_carry_working_panels(book, browser):
    """In the built book, each chapter page with a panel renders it, offline and without errors."""
    html = book / "_build" / "html"
    server, base = serve_folder(html)
    try:
        for panel in whatif.PANELS.values():
            page, errors = _open(browser, f"{base}book/generated/{panel.section}.html", 390)
            ready = page.eval_on_selector_all(f"div.whatif[data-panel='{panel.name}']",
                                              "els => els.map(e => e.getAttribute('data-ready'))")
            page.close()
            assert not errors, (panel.section, errors)
            assert ready == ["1"], panel.section
    finally:
        server.shutdown()


@pytest.mark.parametrize("name", list(whatif.PANELS))
def test_a_panel_holds_the_books_values_and_resets_to_them(browser, panels_page, name):
    """A panel opens at the book's values (its grid's ``value`` per axis, which may lie between
    two steps: 1,389 W on a 50 W step), a slider nudged and moved back lands on the book's value
    again, and the reset button returns every slider to it."""
    panel = whatif.PANELS[name]
    book = {a["name"]: a["value"] for a in whatif.grid(panel)["axes"]}
    page, errors = _open(browser, panels_page, 1280)
    root = f"div.whatif[data-panel='{name}']"
    opened = _state(page, name)
    for axis in panel.axes:
        page.focus(f"{root} input[name='{axis.name}']")
        page.keyboard.press("End")
    moved = _state(page, name)
    page.click(f"{root} button.whatif-reset")
    reset = _state(page, name)
    slider = f"{root} input[name='{panel.axes[0].name}']"
    back = page.evaluate(f"""() => {{  // a hand that moves the first slider off and back to where it was
        const s = document.querySelector("{slider}"), start = s.value;
        s.value = String(Number(start) + (Number(s.max) - Number(s.min)) / 1000);
        s.dispatchEvent(new Event('input'));
        s.value = start; s.dispatchEvent(new Event('input'));
        return document.querySelector("{root} code.whatif-command").textContent; }}""")
    page.close()
    assert not errors, errors
    assert opened["command"] == whatif.command(whatif.grid(panel), book)
    assert moved["values"] != opened["values"]
    assert reset["values"] == opened["values"] and reset["command"] == opened["command"]
    assert back == opened["command"]
