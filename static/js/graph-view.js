/* The graph pictures (templates/insights/partials/graph_view.html) drawn with Cytoscape.js:
   nodes coloured by type or by community, labelled edges, pending twins dashed, relations that
   ended dotted; a click on a node adds its neighbours (GET data-expand-url?uid=, session auth,
   the tenant's own entities only) to the picture and to the table; the connection finder's
   answer (#connection-path) is drawn as a thick path. The Cytoscape instance is the container's
   `cy` property, so a test can count what is drawn. */
(function () {
  "use strict";
  var TYPE_COLOURS = {
    Person: "#2d5bd7", Organization: "#067647", Location: "#b54708", Event: "#7a2e98",
    Object: "#475467", Episode: "#0e7490",
  };
  var COMMUNITY_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"];
  var NO_COMMUNITY = "#c3c9d3";
  var STYLE = [
    { selector: "node", style: {
      "background-color": "data(colour)", label: "data(name)", "font-size": 11, color: "#1d2330",
      "text-valign": "bottom", "text-margin-y": 4, "text-wrap": "ellipsis", "text-max-width": "140px",
      "text-background-color": "#ffffff", "text-background-opacity": 0.85, "text-background-padding": 1,
      width: 18, height: 18 } },
    { selector: "node.seed", style: { width: 28, height: 28, "border-width": 3, "border-color": "#1d2330",
      "font-weight": "bold" } },
    { selector: "edge", style: {
      width: 1.6, "line-color": "#7d8799", "target-arrow-color": "#7d8799", "target-arrow-shape": "triangle",
      "curve-style": "bezier", label: "data(label)", "font-size": 9, color: "#39414f",
      "text-rotation": "autorotate", "text-background-color": "#ffffff", "text-background-opacity": 0.85,
      "text-background-padding": 1 } },
    { selector: "edge.twin", style: { "line-style": "dashed", "line-color": "#d97706", width: 2.2,
      "target-arrow-shape": "none", color: "#92400e" } },
    { selector: "edge.ended", style: { "line-style": "dotted", opacity: 0.6 } },
    { selector: "edge.path", style: { "line-color": "#c11574", "target-arrow-color": "#c11574", width: 4.5,
      "z-index": 10 } },
    { selector: "node.path", style: { "border-width": 4, "border-color": "#c11574" } },
  ];

  function colour(node, by) {
    if (by === "community") {
      var c = node.community;
      return c === null || c === undefined ? NO_COMMUNITY : COMMUNITY_COLOURS[c % COMMUNITY_COLOURS.length];
    }
    return TYPE_COLOURS[node.type] || "#475467";
  }

  function edgeLabel(e) {
    if (e.kind === "twin" && typeof e.score === "number") return "possible twin " + e.score.toFixed(2);
    return e.label || "";
  }

  /* A force layout (the first one from random places, later ones from where nodes are), then
     never closer than MAX_FIT_ZOOM: a small neighbourhood is not blown up to the whole canvas. */
  var MAX_FIT_ZOOM = 1.3;
  function layout(cy, first) {
    cy.layout({ name: "cose", animate: false, randomize: !!first, nodeRepulsion: function () { return 400000; },
      idealEdgeLength: function () { return 120; }, nodeOverlap: 20, padding: 30, componentSpacing: 80 }).run();
    if (cy.zoom() > MAX_FIT_ZOOM) { cy.zoom(MAX_FIT_ZOOM); cy.center(); }
  }

  function entityLink(view, uid, name) {
    var a = document.createElement("a");
    a.href = view.dataset.entityUrl.replace("__uid__", encodeURIComponent(uid));
    a.textContent = name || uid;
    return a;
  }

  function addRow(view, e) {
    var body = view.querySelector("table.graph-edges tbody");
    var row = document.createElement("tr");
    row.dataset.edge = e.id;
    var cells = [entityLink(view, e.source, e.source_name), (e.label || "") + (e.holds === false ? " (ended)" : ""),
      entityLink(view, e.target, e.target_name),
      e.kind === "twin" ? (typeof e.score === "number" ? e.score.toFixed(2) : "") : String(e.weight)];
    cells.forEach(function (content) {
      var td = document.createElement("td");
      if (typeof content === "string") td.textContent = content; else td.appendChild(content);
      row.appendChild(td);
    });
    body.appendChild(row);
  }

  function counts(view, cy) {
    view.querySelector(".graph-node-count").textContent = cy.nodes().length;
    view.querySelector(".graph-edge-count").textContent = cy.edges().length;
  }

  /* Adds what is not drawn yet; returns how many elements were added. */
  function merge(view, cy, data, withRows) {
    var by = view.querySelector(".graph-colour-by").value;
    var added = [];
    data.nodes.forEach(function (n) {
      var old = cy.getElementById(n.id);
      if (old.nonempty()) {
        if (n.seed) old.data("degree", n.degree);
        return;
      }
      added.push({ group: "nodes", classes: n.seed && withRows === false ? "seed" : "",
        data: { id: n.id, name: n.name, type: n.type, community: n.community, degree: n.degree,
          colour: colour(n, by) } });
    });
    data.edges.forEach(function (e) {
      if (cy.getElementById(e.id).nonempty()) return;
      added.push({ group: "edges", classes: e.kind + (e.holds === false ? " ended" : ""),
        data: { id: e.id, source: e.source, target: e.target, label: edgeLabel(e), kind: e.kind } });
      if (withRows) addRow(view, e);
    });
    cy.add(added);
    return added.length;
  }

  function say(view, text) {
    view.querySelector(".graph-selected").textContent = text;
  }

  function expand(view, cy, node) {
    if (node.scratch("expanded")) return;
    node.scratch("expanded", true);
    say(view, "Adding the neighbours of " + node.data("name") + "…");
    var url = view.dataset.expandUrl + "?uid=" + encodeURIComponent(node.id());
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (answer) {
        if (!answer.ok) throw new Error(answer.body.error ? answer.body.error.message : "refused");
        var added = merge(view, cy, answer.body, true);
        if (added) layout(cy);
        counts(view, cy);
        say(view, node.data("name") + ": " + added + " added. ");
        view.querySelector(".graph-selected").appendChild(entityLink(view, node.id(), "Open " + node.data("name")));
        view.dataset.expanded = String(Number(view.dataset.expanded || 0) + 1);
      })
      .catch(function (err) {
        node.removeScratch("expanded");
        say(view, "Could not add the neighbours: " + err.message);
      });
  }

  function init(view) {
    if (view.cy || typeof window.cytoscape !== "function") return;
    var data = JSON.parse(document.getElementById(view.dataset.graphView).textContent);
    var cy = window.cytoscape({ container: view.querySelector(".graph-canvas"), style: STYLE,
      wheelSensitivity: 0.3, minZoom: 0.2, maxZoom: 3 });
    merge(view, cy, data, false);
    layout(cy, true);
    view.cy = cy;
    cy.on("tap", "node", function (evt) { expand(view, cy, evt.target); });
    view.querySelector(".graph-colour-by").addEventListener("change", function (evt) {
      cy.nodes().forEach(function (n) { n.data("colour", colour(n.data(), evt.target.value)); });
    });
    view.dataset.ready = "true";
  }

  /* The connection finder's chain, drawn into the page's picture (added where missing). */
  function drawPath(view, answer) {
    var cy = view.cy;
    if (!cy || !answer || !answer.found) return;
    cy.elements().removeClass("path");
    var names = {};
    answer.entities.forEach(function (e) { names[e.uid] = e; });
    var nodes = answer.entities.map(function (e) {
      return { id: e.uid, name: e.name, type: e.type, community: null, seed: false };
    });
    var edges = answer.steps.map(function (s) {
      var source = s.direction === "forward" ? s.from : s.to;
      var target = s.direction === "forward" ? s.to : s.from;
      return { id: source + ">" + s.predicate + ">" + target, source: source, target: target,
        label: s.predicate, kind: "related", holds: s.holds_now, weight: s.weight,
        source_name: names[source].name, target_name: names[target].name };
    });
    if (merge(view, cy, { nodes: nodes, edges: edges }, true)) layout(cy);
    nodes.forEach(function (n) { cy.getElementById(n.id).addClass("path"); });
    edges.forEach(function (e) { cy.getElementById(e.id).addClass("path"); });
    counts(view, cy);
    view.dataset.path = String(edges.length);
  }

  function initAll(root) {
    (root || document).querySelectorAll("[data-graph-view]").forEach(init);
  }

  document.addEventListener("DOMContentLoaded", function () { initAll(document); });
  document.addEventListener("htmx:load", function (evt) {
    initAll(evt.detail.elt.parentNode || document);
    var path = document.getElementById("connection-path");
    var view = document.querySelector("[data-path-view] [data-graph-view]");
    if (path && view && evt.detail.elt.contains(path)) drawPath(view, JSON.parse(path.textContent));
  });
})();
