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


# Every slider of a panel walked across its range (POSITIONS steps): after each move, no text of the
# chart leaves it or covers another, the chart is drawn 1:1 in CSS px with text >= MIN_TEXT_PX, the
# panel is no wider than its box, and no caret or e-notation is shown.
POSITIONS = 12
MIN_TEXT_PX = 11
LAYOUT_JS = r"""([name, positions, minPx]) => {
  const root = document.querySelector(`div.whatif[data-panel='${name}']`);
  const problems = [];
  function check(where) {
    const svg = root.querySelector('svg.whatif-chart'), vb = svg.viewBox.baseVal;
    const scale = svg.getBoundingClientRect().width / vb.width;
    const boxes = Array.from(svg.querySelectorAll('text')).map(t => ({t: t.textContent, b: t.getBBox(),
        px: parseFloat(getComputedStyle(t).fontSize) * scale}));
    for (const {t, b, px} of boxes) {
      if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > vb.width + 0.5 || b.y + b.height > vb.height + 0.5)
        problems.push(`${where}: '${t}' leaves the chart (${b.x.toFixed(0)}..${(b.x + b.width).toFixed(0)} of ${vb.width})`);
      if (px < minPx) problems.push(`${where}: '${t}' is ${px.toFixed(1)} px`);
    }
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].b, b = boxes[j].b;
      const across = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const down = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (across > 0.5 && down > 0.5) problems.push(`${where}: '${boxes[i].t}' overprints '${boxes[j].t}'`);
    }
    if (root.scrollWidth > root.clientWidth + 1) problems.push(`${where}: the panel is wider than its box`);
    const shown = root.innerText;
    if (/\^|\de[+-]?\d/.test(shown.replace(/python -m analysis[^\n]*/g, ''))) problems.push(`${where}: a caret or e-notation`);
  }
  check('opened');
  for (const input of root.querySelectorAll('input[type=range]')) {
    const start = input.value;
    for (let k = 0; k <= positions; k++) {
      input.value = String(Number(input.min) + (Number(input.max) - Number(input.min)) * k / positions);
      input.dispatchEvent(new Event('input'));
      check(`${input.name} at ${k}/${positions}`);
      const log = root.querySelector('.whatif-chart-axis').textContent.includes('log scale');
      if (log !== (input.dataset.scale === 'log')) problems.push(`${input.name}: the x axis says log scale: ${log}`);
    }
    input.value = start;
    input.dispatchEvent(new Event('input'));
  }
  return problems;
}"""


@pytest.mark.parametrize("width", WIDTHS)
def test_no_chart_label_is_cut_or_overprinted_at_any_slider_position(browser, panels_page, width):
    """At 1280 and 390 px, every slider of every panel at POSITIONS + 1 positions: the chart's labels
    stay inside it, apart and at least MIN_TEXT_PX high, and a log axis says it is one."""
    page, errors = _open(browser, panels_page, width)
    problems = [p for name in whatif.PANELS for p in page.evaluate(LAYOUT_JS, [name, POSITIONS, MIN_TEXT_PX])]
    page.close()
    assert not errors, errors
    assert not problems, "\n".join(problems[:20])


def test_the_page_writes_numbers_as_the_book_does(browser, panels_page):
    """whatif.js's formats are analysis.page.formatting's: every unit of every panel, at values from
    a hundredth to a hundred million."""
    from test_whatif import PANEL_VALUES

    units = sorted({item.unit for p in whatif.PANELS.values() for item in (*p.axes, *p.outputs)})
    cases = [[whatif.reader_format(u), v] for u in units for v in PANEL_VALUES]
    page, errors = _open(browser, panels_page, 1280)
    shown = page.evaluate("cases => cases.map(([f, v]) => window.BookWhatIf.format(v, {format: f}))", cases)
    page.close()
    expected = [whatif.format_reader(f, v) for f, v in cases]
    assert not errors, errors
    assert [(s, e) for s, e in zip(shown, expected, strict=True) if s != e] == []
