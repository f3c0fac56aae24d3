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
    function update() {
      var q = (input && input.value || "").trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (tr) {
        var hit = !q || tr.textContent.toLowerCase().indexOf(q) !== -1;
        tr.hidden = !hit;
        if (hit) shown += 1;
      });
      if (counter) counter.textContent = shown === total ? total + (total === 1 ? " row" : " rows")
        : shown + " of " + total + " rows";
    }
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
