// Review keys: y confirm, n reject, s skip, j/k move, x select, u undo, ? help; on a cluster,
// g splits it as grouped.
(function () {
  function rows() { return Array.from(document.querySelectorAll("#queue-list li[data-uid]")); }
  function markCurrent() {
    var article = document.querySelector("#pair article[data-pair]");
    var uid = article ? article.dataset.pair : null;
    rows().forEach(function (li) { li.classList.toggle("current", li.dataset.uid === uid); });
  }
  function move(step) {
    // The pair can be in view before htmx:afterSettle marked its row: then mark it from the pair.
    if (!document.querySelector("#queue-list li.current")) markCurrent();
    var all = rows();
    if (!all.length) return;
    var i = all.findIndex(function (li) { return li.classList.contains("current"); });
    var next = all[Math.min(Math.max(i + step, 0), all.length - 1)];
    if (next && next !== all[i]) {
      // Mark the row now, not after the swap settles: a second key pressed quickly moves from here.
      all.forEach(function (li) { li.classList.toggle("current", li === next); });
      activate(next.querySelector("a"));
      next.scrollIntoView({ block: "nearest" });
    }
  }
  // A key can arrive before htmx has initialised freshly swapped content; process it first
  // (a no-op when already done) so the click is never lost.
  function activate(el) { if (window.htmx) window.htmx.process(el); el.click(); }
  function press(selector) { var el = document.querySelector(selector); if (el) activate(el); }
  document.addEventListener("keydown", function (event) {
    var t = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    var help = document.getElementById("review-help");
    if (help && help.open) return;
    switch (event.key) {
      case "y": press('#pair [data-decide="confirm"]'); break;
      case "n": press('#pair [data-decide="reject"]'); break;
      case "s": press('#pair [data-decide="skip"]'); break;
      case "g": press('#pair [data-decide="split"]'); break;
      case "j": move(1); break;
      case "k": move(-1); break;
      case "u": press("#undo-last"); break;
      case "x": var box = document.querySelector("#queue-list li.current input[type=checkbox]");
        if (box) box.checked = !box.checked; break;
      case "?": if (help) help.showModal(); break;
      default: return;
    }
    event.preventDefault();
  });
  // A decision asks for the pair below the decided one in the queue (the one above for the
  // last), so the reviewer goes on down the list instead of jumping back to the top.
  document.addEventListener("htmx:configRequest", function (event) {
    if (!event.detail.elt.closest || !event.detail.elt.closest("#pair [data-decide]")) return;
    var article = document.querySelector("#pair article[data-pair]");
    var all = rows();
    var i = all.findIndex(function (li) { return article && li.dataset.uid === article.dataset.pair; });
    var next = i < 0 ? null : (all[i + 1] || all[i - 1]);
    if (next) event.detail.parameters.after = next.dataset.uid;
  });
  document.addEventListener("htmx:afterSettle", markCurrent);
  document.addEventListener("DOMContentLoaded", markCurrent);
})();
