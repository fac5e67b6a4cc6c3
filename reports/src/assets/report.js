// halfcheck report: click a column header to sort a table.sortable; type in an input.filter
// to show only the rows of its table that contain the text. The tables read without it.
"use strict";
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("thead th").forEach(function (th, column) {
    th.addEventListener("click", function () {
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      table.querySelectorAll("thead th").forEach(function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var key = function (row) {
        var cell = row.cells[column];
        if (!cell) { return ""; }
        var k = cell.getAttribute("data-sort");
        return k !== null ? k : cell.textContent.trim();
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (!isNaN(nx) && !isNaN(ny) && String(nx) === x && String(ny) === y)
          ? nx - ny : x.localeCompare(y);
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
document.querySelectorAll("input.filter").forEach(function (input) {
  var table = document.getElementById(input.getAttribute("data-table"));
  if (!table) { return; }
  input.hidden = false;
  input.addEventListener("input", function () {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      var text = row.textContent.toLowerCase();
      var shown = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.classList.toggle("hidden", !shown);
    });
  });
});
