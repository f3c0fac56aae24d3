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

  /* The book's number formats, as analysis/page/formatting.py writes them (money, count, percent,
     times, number); each axis and output carries its kind and unit text (analysis.whatif.reader_format),
     and tests/test_browser_whatif.py holds these to the Python functions. */
  function group(text) {  // thousands separators on the integer part
    var parts = text.split(".");
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return parts.join(".");
  }
  function fixed(x, decimals) { return group(Math.abs(x).toFixed(decimals)); }
  function strip(text) { return text.indexOf(".") >= 0 ? text.replace(/0+$/, "").replace(/\.$/, "") : text; }
  function sig(x, digits) {  // formatting._sig
    if (x === 0) return "0";
    var decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(x))));
    var text = strip(fixed(x, decimals));
    if (text === "0" || text === "") return "0";
    return (x < 0 ? "-" : "") + text;
  }
  var SUP = {"0": "\u2070", "1": "\u00b9", "2": "\u00b2", "3": "\u00b3", "4": "\u2074", "5": "\u2075",
             "6": "\u2076", "7": "\u2077", "8": "\u2078", "9": "\u2079", "-": "\u207b"};
  function powerOfTen(x, digits) {
    if (x === 0) return "0";
    var e = Math.floor(Math.log10(Math.abs(x))), m = Number((x / Math.pow(10, e)).toFixed(digits - 1));
    if (Math.abs(m) >= 10) { m /= 10; e += 1; }
    return e ? sig(m, digits) + " \u00d7 10" + String(e).split("").map(function (c) { return SUP[c]; }).join("") : sig(m, digits);
  }
  function number(x) {
    if (Math.abs(x) >= 1e15) return powerOfTen(x, 3);
    if (Math.abs(x) >= 100) return (x < 0 ? "-" : "") + fixed(x, 0);
    return sig(x, 3);
  }
  function money(x) {
    var sign = x < 0 ? "-" : "", v = Math.abs(x);
    if (v >= 1e4 && v < 1e6) v = Number(v.toPrecision(4));
    if (v >= 1e6) {
      var scales = [[1e12, "T"], [1e9, "B"], [1e6, "M"]];
      for (var i = 0; i < scales.length; i++) {
        if (v >= scales[i][0]) {
          if (v / scales[i][0] >= 1000) return sign + "$" + powerOfTen(v, 3);
          return sign + "$" + sig(v / scales[i][0], 3) + scales[i][1];
        }
      }
    }
    if (v >= 100) return sign + "$" + fixed(v, 0);
    if (v >= 1) return sign + "$" + fixed(v, 2);
    if (v === 0) return "$0";
    if (v >= 0.001) { var t = v.toFixed(3); return sign + "$" + (t.slice(-1) === "0" ? t.slice(0, -1) : t); }
    return sign + "$" + sig(v, 2);
  }
  function count(x) {
    var words = [[1e12, "trillion"], [1e9, "billion"], [1e6, "million"]];
    for (var i = 0; i < words.length; i++) if (Math.abs(x) >= words[i][0]) return sig(x / words[i][0], 3) + " " + words[i][1];
    if (Math.abs(x - Math.round(x)) > 1e-6 * Math.max(1, Math.abs(x)) && Math.abs(x) < 10) return sig(x, 3);
    return (x < 0 ? "-" : "") + group(String(Math.abs(Math.round(x))));
  }
  function percent(fraction) {
    var v = fraction * 100, text;
    if (v === 0) return "0 %";
    if (Math.abs(v) >= 10) text = (v < 0 ? "-" : "") + fixed(v, 1);
    else if (Math.abs(v) >= 0.1) text = Math.abs(v) < 1 ? String(Number(v.toPrecision(2))) : v.toFixed(1);
    else text = sig(v, 2);
    return strip(text) + " %";
  }
  var KINDS = {money: money, percent: percent, number: number, count: count,
               times: function (x) { return number(x) + "x"; }};
  function fmt(x, item) {  // analysis.whatif.format_reader
    var f = item.format, kind = f.kind;
    if (kind === "count" && !(Number.isInteger(x) || Math.abs(x) >= 1e6)) kind = "number";
    return KINDS[kind](x) + (x === 1 ? f.one : f.suffix);
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
      input.dataset.scale = a.scale;
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
    var caption = side.appendChild(el("p", "whatif-chart-title"));
    var chart = side.appendChild(svg("svg", {"class": "whatif-chart", role: "img"}));
    var xcaption = side.appendChild(el("p", "whatif-chart-axis"));
    var cmdBox = root.appendChild(el("p", "whatif-command-line", "Reproduce: "));
    var code = cmdBox.appendChild(el("code", "whatif-command"));
    root.appendChild(el("p", "whatif-note", "Computed by the book's Python on a grid of " +
      grid.values[chartKey].length + " points at the build; values between grid points are interpolated. " +
      (grid.note ? grid.note + " " : "") + "The command gives the exact value."));

    /* The chart is drawn in CSS pixels (its viewBox is its own width), so its text is as large on a
       phone as on a laptop, and laid out from the measured widths of its labels: the value labels
       left of the axis set where the plot starts, and the two ends of the x axis go on two rows
       when they would meet. No label leaves the chart or covers another, at any slider position. */
    var FONT = 12, LINE = 16, GAP = 8, DOT = 4;
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
      var flat = ymax - ymin < 1e-9 * Math.max(1, Math.abs(ymax));
      var W = Math.max(200, Math.round(chart.getBoundingClientRect().width || 320));
      function text(x, y, s, anchor) {
        var t = chart.appendChild(svg("text", {x: x, y: y, "text-anchor": anchor || "start", "class": "whatif-tick"}));
        t.textContent = s;
        return t;
      }
      function width(t) { return t.getComputedTextLength ? t.getComputedTextLength() : t.textContent.length * FONT * 0.6; }
      var top = text(0, 0, fmt(ymax, out), "end"), bottom = flat ? null : text(0, 0, fmt(ymin, out), "end");
      var first = text(0, 0, fmt(pts[0], a)), last = text(0, 0, fmt(pts[pts.length - 1], a), "end");
      var L = Math.ceil(Math.max(width(top), bottom ? width(bottom) : 0)) + GAP, R = W - DOT - 2;
      var rows = width(first) + width(last) + 2 * GAP > R - L ? 2 : 1;  // x ends side by side, or one above the other
      var T = FONT, B = 150, H = B + GAP + rows * LINE;
      chart.setAttribute("viewBox", "0 0 " + W + " " + H);
      chart.setAttribute("height", H);
      function px(s) { return L + (R - L) * (s - lo) / (hi - lo); }
      function py(y) { return flat ? (T + B) / 2 : B - (B - T) * (y - ymin) / (ymax - ymin); }
      top.setAttribute("x", L - GAP / 2); top.setAttribute("y", flat ? (T + B) / 2 + FONT / 3 : T + FONT / 3);
      if (bottom) { bottom.setAttribute("x", L - GAP / 2); bottom.setAttribute("y", B + FONT / 3 - 2); }
      first.setAttribute("x", L); first.setAttribute("y", B + GAP + FONT);
      last.setAttribute("x", R); last.setAttribute("y", B + GAP + rows * LINE - (LINE - FONT));
      chart.insertBefore(svg("line", {x1: L, y1: B, x2: R, y2: B, "class": "whatif-axis"}), chart.firstChild);
      chart.insertBefore(svg("line", {x1: L, y1: T - FONT / 2, x2: L, y2: B, "class": "whatif-axis"}), chart.firstChild);
      chart.appendChild(svg("polyline", {"class": "whatif-line", fill: "none",
        points: xs.map(function (s, j) { return px(s).toFixed(1) + "," + py(ys[j]).toFixed(1); }).join(" ")}));
      var dot = chart.appendChild(svg("circle", {"class": "whatif-dot", r: DOT,
        cx: px(toSlider(a, point[a.name])).toFixed(1), cy: py(cur).toFixed(1)}));
      dot.setAttribute("data-value", String(cur));
      var name = /^.[a-z]/.test(a.label) ? a.label.charAt(0).toLowerCase() + a.label.slice(1) : a.label;  // 'GPUs' stays
      caption.textContent = out.label + ", against " + name + " (the slider moved last)";
      xcaption.textContent = a.label + (a.scale === "log" ? " (log scale)" : "") + "; the value axis is linear";
      chart.setAttribute("aria-label", out.label + " against " + a.label + (a.scale === "log" ? ", log scale" : ""));
    }

    function update() {
      grid.axes.forEach(function (a) { shown[a.name].textContent = fmt(point[a.name], a); });
      grid.outputs.forEach(function (o) {
        var v = interpolate(grid, point, o.key);
        outs[o.key].textContent = fmt(v, o);
        outs[o.key].setAttribute("data-value", String(v));
      });
      code.textContent = command(grid, point);
      drawChart();
    }
    update();
    var redraw = null;  /* a new width, a new layout (a phone turned, a window resized) */
    window.addEventListener("resize", function () { clearTimeout(redraw); redraw = setTimeout(drawChart, 50); });
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

  window.BookWhatIf = {interpolate: interpolate, command: command, format: fmt};
  function init() { document.querySelectorAll("div.whatif[data-panel]").forEach(load); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
