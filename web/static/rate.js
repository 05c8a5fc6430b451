// rate.js follows a running rate on its page (/rates/ID): it fetches the
// rate as JSON every second and shows its counts (text only), and once
// the rate has ended it loads the page again, which then shows how it
// ended and what each rater did.
(function () {
  "use strict";
  var box = document.getElementById("rate");
  if (!box || !window.fetch) { return; }
  var src = box.getAttribute("data-src");
  function show(name, v) {
    var e = box.querySelector('[data-count="' + name + '"]');
    if (e) { e.textContent = String(v); }
  }
  function tick() {
    fetch(src, { headers: { Accept: "application/json" } }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (v) {
      if (v && !v.running) {
        window.location.reload();
        return;
      }
      if (v) {
        show("made", v.made);
        show("todo", v.todo);
        show("written", v.written);
      }
      window.setTimeout(tick, 1000);
    }, function () { window.setTimeout(tick, 1000); });
  }
  window.setTimeout(tick, 1000);
})();
