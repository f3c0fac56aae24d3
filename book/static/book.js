/* Sortable, filterable data tables, served from the book (no network): any
   <div class="book-datatable-wrap"> written by analysis.tables.interactive_table. */
(function () {
  "use strict";
  function cellValue(td) {
    var raw = td.getAttribute("data-sort");
    if (raw !== null && raw !== "" && !isNaN(Number(raw))) return Number(raw);
    return td.textContent.trim().toLowerCase();
  }
  function setup(wrap) {
    var table = wrap.querySelector("table.book-datatable");
    if (!table || wrap.dataset.ready) return;
    wrap.dataset.ready = "1";
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    var input = wrap.querySelector("input[type=search]");
    var counter = wrap.querySelector(".book-datatable-count");
    var total = rows.length;
    var fold = wrap.querySelector(":scope > details.book-more-rows");
    var key = rows.filter(function (tr) { return !tr.classList.contains("book-more-row"); }).length;
    function rowsText(n) { return n + (n === 1 ? " row" : " rows"); }
    /* The filter searches every row, those behind the fold too (book.css shows them while it
       filters); with no filter the fold decides. */
    function update() {
      var q = (input && input.value || "").trim().toLowerCase();
      var shown = 0;
      wrap.classList.toggle("book-filtering", q !== "");
      rows.forEach(function (tr) {
        var hit = !q || tr.textContent.toLowerCase().indexOf(q) !== -1;
        tr.hidden = !hit;
        if (hit) shown += 1;
      });
      if (!counter) return;
      if (q) counter.textContent = shown + " of " + rowsText(total);
      else if (fold && !fold.open) counter.textContent = key ? key + " of " + rowsText(total)
        : rowsText(total) + ": filter them or show all";
      else counter.textContent = rowsText(total);
    }
    if (fold) fold.addEventListener("toggle", update);
    if (input) input.addEventListener("input", update);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.title = "Sort by this column";
      function sort() {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(th.parentNode.cells, function (c) { c.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        rows.sort(function (a, b) {
          var x = cellValue(a.cells[col]), y = cellValue(b.cells[col]);
          if (typeof x !== typeof y) { x = String(x); y = String(y); }
          return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
        });
        rows.forEach(function (tr) { tbody.appendChild(tr); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
    });
    update();
  }
  function init() { document.querySelectorAll(".book-datatable-wrap").forEach(setup); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();

/* Wide tables on a phone (book.css, below 700 px): a table of five columns or more, a sortable
   data table too, is marked "book-cards" and each cell labelled with its column's heading, so it
   can be shown as one card per row; a table wider than its box says that it scrolls sideways. */
(function () {
  "use strict";
  var CARD_COLUMNS = 5;
  function label(table) {
    if (!table.tHead || !table.tHead.rows.length) return;
    var heads = Array.prototype.map.call(table.tHead.rows[0].cells, function (th) { return th.textContent.trim(); });
    if (heads.length < CARD_COLUMNS && !table.classList.contains("book-datatable")) return;
    table.classList.add("book-cards");
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (tr) {
        Array.prototype.forEach.call(tr.cells, function (td, i) {
          td.setAttribute("data-label", heads[i] || "");
          /* The card's cell is a two-column grid (label, value): its content, however many pieces
             (text, links, a fold), goes in one box, the value's column. */
          if (td.childNodes.length > 1 && !td.querySelector(":scope > .book-cell")) {
            var box = document.createElement("div");
            box.className = "book-cell";
            while (td.firstChild) box.appendChild(td.firstChild);
            td.appendChild(box);
          }
        });
      });
    });
  }
  function cue(wrap) {
    var box = wrap.querySelector(".book-datatable-scroll");
    var controls = wrap.querySelector(".book-datatable-controls");
    if (!box || !controls) return;
    var note = controls.querySelector(".book-scroll-cue");
    if (!note) {
      note = document.createElement("span");
      note.className = "book-scroll-cue";
      note.textContent = "Scroll the table sideways for more columns \u2192";
      controls.appendChild(note);
    }
    note.hidden = box.scrollWidth <= box.clientWidth + 1;
  }
  /* A table wider than its box (words are never broken inside, so a many-column table can be)
     scrolls in that box, and a line above it says so. */
  function tableCue(box) {
    var note = box.previousElementSibling;
    if (!note || !note.classList.contains("book-scroll-cue")) {
      note = document.createElement("p");
      note.className = "book-scroll-cue";
      note.textContent = "Scroll the table sideways for more columns \u2192";
      box.parentNode.insertBefore(note, box);
    }
    note.hidden = box.scrollWidth <= box.clientWidth + 1;
  }
  function init() {
    document.querySelectorAll(".bd-article table").forEach(label);
    var boxes = document.querySelectorAll(".bd-article .pst-scrollable-table-container");
    var wraps = document.querySelectorAll(".book-datatable-wrap");
    function cues() { boxes.forEach(tableCue); wraps.forEach(cue); }
    cues();
    /* Widths settle after this runs (images, web fonts and MathJax arrive later): look again
       then, and whenever the window changes size. */
    window.addEventListener("resize", cues);
    window.addEventListener("load", cues);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(cues);
    if (window.ResizeObserver) {
      var watch = new ResizeObserver(cues);
      boxes.forEach(function (box) { watch.observe(box.querySelector("table") || box); });
    }
    var root = document.documentElement.getAttribute("data-content_root");
    if (root !== null) {  /* footer links to the site's root files (analysis.appendices.footer_html) */
      document.querySelectorAll("a[data-root-path]").forEach(function (a) {
        a.setAttribute("href", root + a.getAttribute("data-root-path"));
      });
    }
    document.querySelectorAll("figure > a.image-reference").forEach(function (a) {
      a.title = "Open the figure full size";
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
