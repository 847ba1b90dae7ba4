// Every page: the top menu's groups (one open at a time, closed by Escape or a click elsewhere),
// and htmx's answers to refused changes (4xx) shown where the form is.
(function () {
  function closeMenus(except) {
    document.querySelectorAll("nav.mainnav details[open]").forEach(function (d) {
      if (d !== except) d.open = false;
    });
  }
  document.addEventListener("toggle", function (event) {
    var d = event.target;
    if (d.matches && d.matches("nav.mainnav details") && d.open) closeMenus(d);
  }, true);
  document.addEventListener("click", function (event) {
    if (!event.target.closest("nav.mainnav details")) closeMenus(null);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector("nav.mainnav details[open]");
    if (open) { open.open = false; open.querySelector("summary").focus(); }
  });

  // htmx 2 drops 4xx answers by default, so a refused change looked like nothing happened and
  // the control kept the value the server refused. Our views answer a refusal with the form's
  // section again (the server's state plus the message): swap it in. An answer that is a whole
  // page (a 403 page, Django's 400) is not swapped into a part of this one: its message is
  // shown beside the form instead, and the control is put back as the page was rendered.
  function refusalNote(elt, text) {
    var form = elt.closest("form") || elt;
    var note = form.nextElementSibling;
    if (!note || !note.classList.contains("htmx-refusal")) {
      note = document.createElement("p");
      note.className = "error htmx-refusal";
      note.setAttribute("role", "alert");
      form.insertAdjacentElement("afterend", note);
    }
    note.textContent = text;
    if (form.reset) form.reset();
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status < 400 || xhr.status >= 500) return;
    var body = xhr.responseText || "";
    if (/^\s*<!doctype|^\s*<html/i.test(body)) {
      var doc = new DOMParser().parseFromString(body, "text/html");
      var main = doc.querySelector("main .error, main p, main h1, title");
      var text = main ? main.textContent.trim() : "";
      refusalNote(event.detail.elt, text || ("Refused (" + xhr.status + ")"));
      event.detail.shouldSwap = false;
    } else {
      event.detail.shouldSwap = true;
    }
    event.detail.isError = false;
  });
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status >= 500) refusalNote(event.detail.elt, "The server failed (" + xhr.status + "); try again.");
  });
})();
