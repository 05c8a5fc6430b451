// live.js keeps an experiment's progress current without reloading the
// page. It listens to the server's progress events (EventSource on
// /experiments/NAME/events: the server sends the progress when it
// changes); where the browser has no EventSource, or the stream fails for
// good, it fetches the progress as JSON every second instead. Either way
// it rewrites the totals and the two tables, and says how many runs the
// rest of the page misses, with text only (textContent), never markup, so
// names from the database cannot inject any.
(function () {
  "use strict";
  var box = document.getElementById("progress");
  if (!box || !window.fetch) { return; }
  var src = box.getAttribute("data-src");
  var events = box.getAttribute("data-events");
  var live = box.querySelector(".live");

  function cell(v) { return v === null || v === undefined ? "" : String(v); }

  function fill(name, t) {
    var holder = box.querySelector('[data-table="' + name + '"] tbody');
    if (!holder) { return; }
    var body = document.createElement("tbody");
    t.rows.forEach(function (row) {
      var tr = document.createElement("tr");
      row.forEach(function (v) {
        var td = document.createElement("td");
        td.textContent = cell(v);
        if (v === null) { td.className = "null"; }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    if (t.rows.length === 0) {
      var tr = document.createElement("tr"), td = document.createElement("td");
      td.className = "empty"; td.colSpan = t.columns.length; td.textContent = "none";
      tr.appendChild(td); body.appendChild(tr);
    }
    holder.parentNode.replaceChild(body, holder);
  }

  function show(d) {
    Object.keys(d.totals).forEach(function (k) {
      var el = box.querySelector('[data-total="' + k + '"]');
      if (el) { el.textContent = d.totals[k]; }
    });
    var bar = box.querySelector("progress");
    if (bar) { bar.max = d.planned; bar.value = d.totals.done || 0; }
    fill("configs", d.configs);
    fill("hosts", d.hosts);
    if (live) { live.hidden = false; }
    // The tables and pictures below the progress are drawn once: say how
    // many runs they miss.
    var stale = document.querySelector(".stale[data-runs]");
    if (stale) {
      var missed = (d.totals.runs || 0) - Number(stale.getAttribute("data-runs"));
      stale.querySelector("span").textContent = missed;
      stale.hidden = missed <= 0;
    }
  }

  function poll() {
    fetch(src, { headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(show)
      .catch(function () { if (live) { live.hidden = true; } })
      .then(function () { setTimeout(poll, 1000); });
  }

  if (!window.EventSource || !events) { setTimeout(poll, 1000); return; }
  var es = new EventSource(events);
  es.addEventListener("progress", function (e) { show(JSON.parse(e.data)); });
  es.onerror = function () {
    if (live) { live.hidden = true; }
    // EventSource reconnects by itself after a dropped stream; once it
    // gives up (an error answer), poll.
    if (es.readyState === EventSource.CLOSED) { setTimeout(poll, 1000); }
  };
})();
