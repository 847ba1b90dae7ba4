/* The task DAG (templates/tasks/partials/dag.html) laid out by dagre through Cytoscape.js: left
   to right along DEPENDS_ON, each task a box holding its whole title, the canvas as wide as the
   page and as tall as the layout needs (up to MAX_HEIGHT; drag to pan beyond). A click opens the
   task, or its level when it has subtasks. The instance is the container's `cy` property. */
(function () {
  "use strict";
  var MAX_HEIGHT = 1400;
  var MIN_ZOOM = 0.75; // whole titles stay readable; a wider DAG is panned
  var STATUS = {
    DONE: ["#eef8f0", "#3b8a4f"], FAILED: ["#fbeeee", "#b03a3a"], ACTIVE: ["#eef3fb", "#3b62b0"],
  };
  var STYLE = [
    { selector: "node", style: {
      shape: "round-rectangle", label: "data(label)", "text-wrap": "wrap", "text-max-width": "220px",
      "text-valign": "center", "text-halign": "center", "font-size": 13, color: "#111111",
      width: "label", height: "label", padding: "10px", "background-color": "data(fill)",
      "border-width": 1.5, "border-color": "data(stroke)" } },
    { selector: "node.parent", style: { "border-width": 3 } },
    { selector: "edge", style: { width: 1.4, "line-color": "#7a8599", "target-arrow-color": "#7a8599",
      "target-arrow-shape": "triangle", "curve-style": "bezier" } },
  ];

  function label(t) {
    var head = t.id + " · " + t.status;
    if (t.subtasks) head += " · " + t.subtasks_done + "/" + t.subtasks + " subtasks done";
    return head + "\n" + (t.description || "");
  }

  function init(view) {
    if (view.cy || typeof window.cytoscape !== "function") return;
    var tasks = JSON.parse(document.getElementById(view.dataset.dagView).textContent);
    var shown = {};
    tasks.forEach(function (t) { shown[t.id] = true; });
    var elements = [];
    tasks.forEach(function (t) {
      var colours = STATUS[t.status] || ["#ffffff", "#b8c0cf"];
      elements.push({ group: "nodes", classes: t.subtasks ? "parent" : "",
        data: { id: t.id, label: label(t), description: t.description, fill: colours[0], stroke: colours[1],
          subtasks: t.subtasks } });
      t.depends_on.forEach(function (d) {
        if (shown[d]) elements.push({ group: "edges", data: { id: d + ">" + t.id, source: d, target: t.id } });
      });
    });
    var canvas = view.querySelector(".dag-canvas");
    var cy = window.cytoscape({ container: canvas, elements: elements, style: STYLE, wheelSensitivity: 0.3,
      minZoom: 0.1, maxZoom: 2 });
    cy.layout({ name: "dagre", rankDir: "LR", nodeSep: 14, rankSep: 60, fit: false }).run();
    var box = cy.elements().boundingBox();
    var zoom = Math.max(MIN_ZOOM, Math.min(1, (canvas.clientWidth - 40) / box.w));
    canvas.style.height = Math.min(MAX_HEIGHT, Math.max(200, box.h * zoom + 40)) + "px";
    cy.resize();
    cy.zoom(zoom);
    cy.pan({ x: 20 - box.x1 * zoom, y: 20 - box.y1 * zoom });
    cy.on("tap", "node", function (evt) {
      var id = evt.target.id();
      window.location.href = evt.target.data("subtasks")
        ? view.dataset.levelUrl + encodeURIComponent(id)
        : view.dataset.taskUrl.replace("__id__", encodeURIComponent(id));
    });
    view.cy = cy;
    view.dataset.ready = "true";
  }

  function initAll() { document.querySelectorAll("[data-dag-view]").forEach(init); }
  document.addEventListener("DOMContentLoaded", initAll);
  document.addEventListener("htmx:load", initAll);
})();
