/* What-if panels, served from the book (no network, no library). Each <div class="whatif"
   data-panel="NAME"> written by analysis.whatif.whatif_panel is filled from the grid the build
   wrote to _static/whatif/NAME.js by calling the book's Python (analysis/whatif.py). This file
   computes nothing of its own: it interpolates between grid points (multilinear; in log(x) on
   "log" axes, in 1/x on "inverse" axes; of log(value) for outputs on a log scale), exactly as
   analysis.whatif.interpolate does. */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = script ? script.src.replace(/whatif\.js(\?.*)?$/, "") : "";
  var SVG = "http://www.w3.org/2000/svg";
  window.BOOK_WHATIF = window.BOOK_WHATIF || {};

  function transform(axis, x) {
    if (axis.scale === "log") return Math.log(x);
    if (axis.scale === "inverse") return -1 / x;
    return x;
  }

  function interpolate(grid, point, key) {
    var axes = grid.axes, data = grid.values[key], corners = [], strides = [], stride = 1, i, k;
    var logValues = grid.outputs.filter(function (o) { return o.key === key; })[0].scale === "log";
    for (k = axes.length - 1; k >= 0; k--) { strides[k] = stride; stride *= axes[k].points.length; }
    for (k = 0; k < axes.length; k++) {
      var a = axes[k], pts = a.points, n = pts.length;
      var x = Math.min(Math.max(point[a.name], pts[0]), pts[n - 1]);
      var tp = pts.map(function (p) { return transform(a, p); }), tx = transform(a, x);
      i = 0;
      while (i < n - 2 && tx >= tp[i + 1]) i++;
      var t = (tx - tp[i]) / (tp[i + 1] - tp[i]);
      corners.push([[i, 1 - t], [i + 1, t]]);
    }
    var total = 0, count = 1 << axes.length;
    for (var c = 0; c < count; c++) {
      var w = 1, idx = 0;
      for (k = 0; k < axes.length; k++) {
        var pick = corners[k][(c >> (axes.length - 1 - k)) & 1];
        w *= pick[1];
        idx += pick[0] * strides[k];
      }
      if (w) total += w * (logValues ? Math.log(data[idx]) : data[idx]);
    }
    return logValues ? Math.exp(total) : total;
  }

  function fmtArg(x) {  // as analysis.whatif._fmt: integers plainly, others as %g
    if (Number.isInteger(x) && Math.abs(x) < 1e12) return String(x);
    var s = Number(x.toPrecision(6));
    if (s !== 0 && (Math.abs(s) >= 1e6 || Math.abs(s) < 1e-4)) {
      return s.toExponential().replace(/e([+-])(\d)$/, "e$10$2");
    }
    return String(s);
  }

  function fmtValue(x, output) {
    var d = output.digits, unit = output.unit;
    var text = x.toLocaleString("en-US", {minimumFractionDigits: d, maximumFractionDigits: d});
    if (unit === "USD") return "$" + text;
    if (unit === "x") return text + "\u00d7";
    if (unit === "fraction") return (x * 100).toLocaleString("en-US", {minimumFractionDigits: 1, maximumFractionDigits: 1}) + " %";
    return text + " " + unit;
  }

  function fmtInput(x, axis) {
    if (axis.unit === "fraction") return (x * 100).toFixed(0) + " %";
    if (axis.unit === "per year") return (x * 100).toFixed(0) + " % per year";
    var text = Math.abs(x) >= 1000 ? Math.round(x).toLocaleString("en-US")
      : Number(x.toPrecision(4)).toLocaleString("en-US", {maximumFractionDigits: 3});
    if (Math.abs(x) >= 1e9) text = Number(x.toPrecision(3)).toExponential().replace("e+", " \u00d7 10^");
    return axis.unit === "ratio" || axis.unit === "x" ? text + (axis.unit === "x" ? "\u00d7" : "") : text + " " + axis.unit;
  }

  function command(grid, point) {
    if (grid.command === "plan") {
      var flags = grid.fixed_flags.map(function (f) { return f[0] + " " + f[1]; });
      grid.axes.forEach(function (a) { flags.push(a.flag + " " + fmtArg(point[a.name])); });
      return "python -m analysis plan " + flags.join(" ");
    }
    return "python -m analysis run " + grid.section + " " + grid.axes.map(function (a) {
      return "-p " + a.name + " " + fmtArg(point[a.name]);
    }).join(" ");
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  // slider position <-> value: log axes slide in log10, the others in the value itself
  function toSlider(a, x) { return a.scale === "log" ? Math.log10(x) : x; }
  // The book's own value (a.value, 1,389 W say) need not lie on the step grid (50 W): within half
  // a step of it the slider lands on it exactly, so a panel can always hold the book's numbers.
  function fromSlider(a, s) {
    var x = a.scale === "log" ? Math.pow(10, s) : s;
    var half = a.step ? a.step / 2 : 0;
    if (a.step && Math.abs(x - a.value) <= half) x = a.value;
    else if (a.step) x = Math.round(x / a.step) * a.step;
    x = Number(x.toPrecision(10));
    return Math.min(Math.max(x, a.points[0]), a.points[a.points.length - 1]);
  }

  function render(root, grid) {
    var point = {}, active = 0, chartKey = grid.outputs[0].key;
    grid.axes.forEach(function (a) { point[a.name] = a.value; });
    root.textContent = "";
    root.appendChild(el("p", "whatif-title")).appendChild(el("strong", null, grid.title));
    var body = root.appendChild(el("div", "whatif-body"));
    var form = body.appendChild(el("div", "whatif-inputs"));
    var side = body.appendChild(el("div", "whatif-results"));
    var shown = {}, sliders = {};
    grid.axes.forEach(function (a, k) {
      var row = form.appendChild(el("label", "whatif-input"));
      var head = row.appendChild(el("span", "whatif-input-label", a.label + ": "));
      var val = head.appendChild(el("span", "whatif-input-value"));
      var input = row.appendChild(document.createElement("input"));
      input.type = "range";
      input.name = a.name;
      input.min = toSlider(a, a.points[0]);
      input.max = toSlider(a, a.points[a.points.length - 1]);
      input.step = "any";  /* fromSlider snaps to the step grid or to the book's value */
      input.value = toSlider(a, a.value);
      input.setAttribute("aria-label", a.label + " (" + a.unit + ")");
      shown[a.name] = val;
      sliders[a.name] = input;
      input.addEventListener("input", function () {
        point[a.name] = fromSlider(a, Number(input.value));
        active = k;
        update();
      });
    });
    var reset = form.appendChild(el("button", "whatif-reset", "Reset to the book's values"));
    reset.type = "button";
    reset.addEventListener("click", function () {
      grid.axes.forEach(function (a) { point[a.name] = a.value; sliders[a.name].value = toSlider(a, a.value); });
      active = 0;
      update();
    });
    var list = side.appendChild(el("dl", "whatif-outputs"));
    var outs = {};
    grid.outputs.forEach(function (o) {
      list.appendChild(el("dt", null, o.label));
      var dd = list.appendChild(el("dd", "whatif-value"));
      dd.setAttribute("data-key", o.key);
      outs[o.key] = dd;
    });
    var chart = side.appendChild(svg("svg", {"class": "whatif-chart", viewBox: "0 0 320 170", role: "img"}));
    var cmdBox = root.appendChild(el("p", "whatif-command-line", "Reproduce: "));
    var code = cmdBox.appendChild(el("code", "whatif-command"));
    root.appendChild(el("p", "whatif-note", "Computed by the book's Python on a grid of " +
      grid.values[chartKey].length + " points at the build; values between grid points are interpolated. " +
      (grid.note ? grid.note + " " : "") + "The command gives the exact value."));

    function drawChart() {
      while (chart.firstChild) chart.removeChild(chart.firstChild);
      var a = grid.axes[active], out = grid.outputs[0], pts = a.points, n = 48, xs = [], ys = [], i;
      var lo = toSlider(a, pts[0]), hi = toSlider(a, pts[pts.length - 1]);
      for (i = 0; i <= n; i++) {
        var q = {}, s = lo + (hi - lo) * i / n;
        Object.keys(point).forEach(function (k) { q[k] = point[k]; });
        q[a.name] = a.scale === "log" ? Math.pow(10, s) : s;
        xs.push(s);
        ys.push(interpolate(grid, q, out.key));
      }
      var cur = interpolate(grid, point, out.key);
      var ymin = Math.min.apply(null, ys.concat([cur])), ymax = Math.max.apply(null, ys.concat([cur]));
      if (ymax - ymin < 1e-12 * Math.max(1, Math.abs(ymax))) { ymin -= 1; ymax += 1; }
      var L = 46, R = 310, T = 10, B = 140;
      function px(s) { return L + (R - L) * (s - lo) / (hi - lo); }
      function py(y) { return B - (B - T) * (y - ymin) / (ymax - ymin); }
      chart.appendChild(svg("line", {x1: L, y1: B, x2: R, y2: B, "class": "whatif-axis"}));
      chart.appendChild(svg("line", {x1: L, y1: T, x2: L, y2: B, "class": "whatif-axis"}));
      chart.appendChild(svg("polyline", {"class": "whatif-line", fill: "none",
        points: xs.map(function (s, j) { return px(s).toFixed(1) + "," + py(ys[j]).toFixed(1); }).join(" ")}));
      var dot = chart.appendChild(svg("circle", {"class": "whatif-dot", r: 4,
        cx: px(toSlider(a, point[a.name])).toFixed(1), cy: py(cur).toFixed(1)}));
      dot.setAttribute("data-value", String(cur));
      function text(x, y, s, anchor) {
        var t = chart.appendChild(svg("text", {x: x, y: y, "text-anchor": anchor || "start", "class": "whatif-tick"}));
        t.textContent = s;
      }
      text(L - 4, T + 4, fmtValue(ymax, out), "end");
      text(L - 4, B, fmtValue(ymin, out), "end");
      text(L, B + 14, fmtInput(pts[0], a));
      text(R, B + 14, fmtInput(pts[pts.length - 1], a), "end");
      text((L + R) / 2, B + 28, a.label + " (slider last moved)", "middle");
      chart.setAttribute("aria-label", out.label + " against " + a.label);
    }

    function update() {
      grid.axes.forEach(function (a) { shown[a.name].textContent = fmtInput(point[a.name], a); });
      grid.outputs.forEach(function (o) {
        var v = interpolate(grid, point, o.key);
        outs[o.key].textContent = fmtValue(v, o);
        outs[o.key].setAttribute("data-value", String(v));
      });
      code.textContent = command(grid, point);
      drawChart();
    }
    update();
    root.setAttribute("data-ready", "1");
  }

  function load(root) {
    var name = root.getAttribute("data-panel");
    if (window.BOOK_WHATIF[name]) { render(root, window.BOOK_WHATIF[name]); return; }
    var s = document.createElement("script");
    s.src = base + "whatif/" + encodeURIComponent(name) + ".js";
    s.onload = function () { if (window.BOOK_WHATIF[name]) render(root, window.BOOK_WHATIF[name]); };
    document.head.appendChild(s);
  }

  window.BookWhatIf = {interpolate: interpolate, command: command};
  function init() { document.querySelectorAll("div.whatif[data-panel]").forEach(load); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
