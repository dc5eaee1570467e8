/* Table Banker phone page: renders the page JSON from /api/v1/state and keeps it live with
   server-sent events from /api/v1/events. Every name is set with textContent, never as HTML. */
"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var current = null;       // the last page received
  var source = null;        // the EventSource
  var lastHeard = 0;        // when the server last said anything (state or ping)
  var lost = false;         // the page is showing "connection lost"
  var finished = false;     // the server said this page is over (link withdrawn, game over)
  var retryDelay = 1000;
  var SVG = "http://www.w3.org/2000/svg";
  var GROUPS = {
    "brown": "#8a4b2a", "light blue": "#8fd3f5", "pink": "#d93a96", "purple": "#8e44ad",
    "orange": "#f39a1d", "red": "#e0262f", "yellow": "#f4d800", "green": "#1d9a52",
    "dark blue": "#1c5fb5", "blue": "#1c5fb5", "railroad": "#333333", "station": "#333333",
    "utility": "#9aa0a6"
  };
  var PALETTE = ["#e0262f", "#1c5fb5", "#1d9a52", "#f39a1d", "#8e44ad", "#0aa3a3", "#d93a96", "#6b6b6b"];

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function bdi(text) { return el("bdi", null, text); }
  function sentence(text) {  // a line the app wrote: left to right, isolated; its names are isolated inside it
    var b = bdi(text);
    b.dir = "ltr";
    return b;
  }
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } return node; }
  function show(node, yes) { node.hidden = !yes; }
  function hueOf(text) {
    var h = 0;
    for (var i = 0; i < text.length; i++) { h = (h * 31 + text.charCodeAt(i)) % 360; }
    return "hsl(" + h + ", 55%, 45%)";
  }
  function groupColour(group) { return GROUPS[String(group || "").toLowerCase()] || hueOf(String(group || "?")); }
  function validColour(colour) { return !!colour && /^(#[0-9a-f]{3,8}|[a-z]{3,20})$/i.test(colour); }
  function playerColour(page, name, colour) {
    if (validColour(colour)) { return colour; }
    // a player without a colour of their own gets one nobody at the table chose
    var taken = {}, given = {}, next = 0;
    page.players.forEach(function (p) { if (validColour(p.colour)) { taken[p.colour.toLowerCase()] = true; } });
    page.players.forEach(function (p) {
      if (validColour(p.colour)) { return; }
      var tries = 0;
      while (taken[PALETTE[next % PALETTE.length]] && tries < PALETTE.length) { next++; tries++; }
      given[p.name] = PALETTE[next % PALETTE.length];
      taken[given[p.name]] = true;
      next++;
    });
    return given[name] || PALETTE[0];
  }
  function dot(colour) {
    var d = el("span", "dot");
    d.style.setProperty("--c", colour);
    return d;
  }
  function row(left, right, cls) {
    var li = el("li", cls || null);
    var a = el("span", "l");
    if (typeof left === "string") { a.textContent = left; } else { a.appendChild(left); }
    li.appendChild(a);
    if (right !== undefined && right !== null) {
      var b = el("span", "r");
      if (typeof right === "string") { b.textContent = right; } else { b.appendChild(right); }
      li.appendChild(b);
    }
    return li;
  }
  function line() {  // a fragment from strings and nodes
    var f = document.createDocumentFragment();
    for (var i = 0; i < arguments.length; i++) {
      var part = arguments[i];
      f.appendChild(typeof part === "string" ? document.createTextNode(part) : part);
    }
    return f;
  }
  function memoLine(fragment, memo) {  // "... (the pizza)", the memo isolated like a name
    if (memo) { fragment.appendChild(line(" (", bdi(memo), ")")); }
    return fragment;
  }
  function turnText(page) {
    if (page.over) { return "Game over" + (page.over.winner ? ": " + page.over.winner + " wins" : ""); }
    return "Turn " + page.turn.number + (page.turn.player ? " \u00b7 " + page.turn.player + " to play" : "");
  }

  /* ---- connection ----------------------------------------------------------------------- */
  function status(text, kind) {
    var s = $("status");
    s.textContent = text;
    s.className = "status " + (kind || "");
    show(s, !!text);
  }
  function connectionLost() {
    if (finished) { return; }
    if (!lost) {
      lost = true;
      document.body.classList.add("stale");  // the figures below may be out of date
      status("Connection lost \u2014 trying again\u2026", "bad");
    }
  }
  function connectionBack() {
    if (lost) {
      lost = false;
      document.body.classList.remove("stale");
      status("Connected again \u2014 up to date", "good");
      setTimeout(function () { if (!lost && !finished) { status(""); } }, 3000);
    }
  }
  function stopStream() { if (source) { source.close(); source = null; } }
  function startStream() {
    if (finished) { return; }
    stopStream();
    source = new EventSource("/api/v1/events");
    source.addEventListener("state", function (e) {
      lastHeard = Date.now();
      retryDelay = 1000;
      try { render(JSON.parse(e.data)); } catch (err) { return; }
      connectionBack();
    });
    source.addEventListener("ping", function () { lastHeard = Date.now(); connectionBack(); });
    source.addEventListener("closed", function (e) {
      finished = true;
      stopStream();
      var reason = "";
      try { reason = JSON.parse(e.data).reason; } catch (err) { reason = ""; }
      status(reason ? reason.charAt(0).toUpperCase() + reason.slice(1) + "." : "This page is closed.", "done");
    });
    source.onerror = function () {
      connectionLost();
      if (source && source.readyState === EventSource.CLOSED) {
        stopStream();           // the browser gave up (an error status): ask why, then retry
        setTimeout(check, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 15000);
      }
    };
  }
  function check() {  // fetch the page once: first paint, and after the stream failed for good
    fetch("/api/v1/state", { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      if (r.status === 401 || r.status === 403) {
        return r.json().then(function (problem) { notJoined(problem.detail); });  // RFC 9457 problem details
      }
      if (!r.ok) { throw new Error("status " + r.status); }
      return r.json().then(function (page) { render(page); lastHeard = Date.now(); startStream(); });
    }).catch(function () {
      connectionLost();
      setTimeout(check, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 15000);
    });
  }
  function notJoined(reason) {
    finished = true;
    stopStream();
    status("");
    show($("loading"), false);
    show($("player"), false);
    show($("banker"), false);
    if (reason) { $("join-reason").textContent = reason.charAt(0).toUpperCase() + reason.slice(1) + "."; }
    show($("join"), true);
    $("app").removeAttribute("aria-busy");
  }
  setInterval(function () {  // a phone that slept, or a connection that died quietly
    if (finished || !source) { return; }
    if (Date.now() - lastHeard > 40000) { connectionLost(); startStream(); }
  }, 5000);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !finished) {
      if (!source || source.readyState === EventSource.CLOSED || Date.now() - lastHeard > 20000) { check(); }
    }
  });
  window.addEventListener("online", function () { if (!finished) { check(); } });
  window.addEventListener("offline", function () { connectionLost(); });

  /* ---- rendering ------------------------------------------------------------------------ */
  function render(page) {
    current = page;
    show($("loading"), false);
    show($("join"), false);
    $("app").removeAttribute("aria-busy");
    document.title = (page.role === "banker" ? "Banker" : page.me.name) + " \u00b7 Table Banker";
    $("foot").textContent = page.title + " \u00b7 version " + page.version;
    if (page.role === "banker") { renderBanker(page); } else { renderPlayer(page); }
    document.dispatchEvent(new CustomEvent("tb-page", { detail: page }));  // plays.js draws the player's own actions
  }

  function renderPlayer(page) {
    show($("banker"), false);
    show($("player"), true);
    var me = page.me;
    $("me-name").textContent = me.name;
    $("me-dot").style.setProperty("--c", playerColour(page, me.name, me.colour));
    $("me-cash").textContent = me.cash_text;
    $("me-worth").textContent = "Worth " + me.worth_text + " \u00b7";
    $("me-turn").textContent = turnText(page);
    var flags = [];
    if (me.bankrupt) { flags.push("Out of the game"); }
    if (me.in_jail) { flags.push("In jail"); }
    if (me.turns_to_miss) { flags.push("Misses " + me.turns_to_miss + " turn" + (me.turns_to_miss > 1 ? "s" : "")); }
    $("me-flags").textContent = flags.join(" \u00b7 ");
    show($("me-flags"), flags.length > 0);

    show($("ask-box"), page.can_request);
    show($("ask-off"), !page.can_request && !page.over && !me.bankrupt);
    fillPayees(page.payees);

    if (sentId) {  // "Sent. The banker will answer..." only while the banker has not
      var mine = page.requests.filter(function (r) { return r.id === sentId; })[0];
      if (!mine || mine.status !== "pending") { sentId = null; $("ask-note").textContent = ""; }
    }
    var reqs = clear($("my-requests"));
    page.requests.forEach(function (r) {
      var text = memoLine(line("Pay ", bdi(r.to === "bank" ? "the bank" : r.to), " " + r.amount_text), r.memo);
      var state = r.status === "pending" ? "waiting" : r.status;
      var li = row(text, state, "req " + r.status);
      if (r.reason && r.status === "declined") { li.appendChild(el("span", "why", r.reason)); }
      reqs.appendChild(li);
    });
    show($("requests-card"), page.requests.length > 0);

    chart($("chart"), me.worth_series);

    var deeds = clear($("deeds"));
    if (!me.deeds.length) { deeds.appendChild(el("li", "empty", "No deeds yet")); }
    me.deeds.forEach(function (d) {
      var li = el("li", "deed" + (d.mortgaged ? " mortgaged" : ""));
      li.style.setProperty("--g", groupColour(d.group));
      li.appendChild(el("span", "band"));
      li.appendChild(el("span", "name", d.name));
      if (d.marks.length) { li.appendChild(el("span", "marks", d.marks.join(" \u00b7 "))); }
      deeds.appendChild(li);
    });

    var loans = clear($("loans"));
    me.loans.forEach(function (l) {
      var amount = l.amount_text && l.text.indexOf(l.amount_text) < 0 ? l.amount_text : "";
      var li = row(l.text, amount, l.overdue || (l.turns_left !== null && l.turns_left <= 1) ? "soon" : "");
      if (l.due_text) { li.appendChild(el("span", "why", l.due_text)); }
      loans.appendChild(li);
    });
    show($("loans-card"), me.loans.length > 0);

    pots($("pots"), $("pots-card"), page.pots);

    var story = clear($("story"));
    if (!me.story.length) { story.appendChild(el("li", "empty", "Nothing yet")); }
    me.story.forEach(function (s) {
      story.appendChild(row(line(sentence(s.text)), s.change_text || "", s.change > 0 ? "in" : s.change < 0 ? "out" : ""));
    });

    var players = clear($("players"));
    page.players.forEach(function (p) {
      var left = line(dot(playerColour(page, p.name, p.colour)), bdi(p.name));
      var bits = [];
      if (p.deed_count !== undefined) { bits.push(p.deed_count + " deed" + (p.deed_count === 1 ? "" : "s")); }
      if (p.bankrupt) { bits.push("out"); } else if (p.in_jail) { bits.push("in jail"); }
      if (bits.length) { left.appendChild(el("small", null, " " + bits.join(" \u00b7 "))); }
      var li = row(left, p.cash_text !== undefined ? p.cash_text : "", (p.me ? "me" : "") + (p.to_play ? " to-play" : ""));
      players.appendChild(li);
    });
  }

  function pots(list, card, items) {
    clear(list);
    items.forEach(function (p) { list.appendChild(row(p.label, p.amount_text)); });
    show(card, items.length > 0);
  }

  function fillPayees(payees) {
    var select = $("ask-to");
    var chosen = select.value;
    var same = select.options.length === payees.length;
    for (var i = 0; same && i < payees.length; i++) { same = select.options[i].value === payees[i]; }
    if (same) { return; }
    clear(select);
    payees.forEach(function (name) {
      var o = el("option", null, name === "bank" ? "the bank" : name);
      o.value = name;
      select.appendChild(o);
    });
    if (payees.indexOf(chosen) >= 0) { select.value = chosen; }
  }

  function chart(box, series) {
    clear(box);
    if (!series || series.length < 2) { box.appendChild(el("p", "empty", "The chart starts after the first moves.")); return; }
    var w = 300, h = 90, pad = 4;
    var ys = series.map(function (p) { return p[1]; });
    var lo = Math.min.apply(null, ys), hi = Math.max.apply(null, ys);
    if (hi === lo) { hi = lo + 1; }
    var pts = series.map(function (p, i) {
      var x = pad + (w - 2 * pad) * i / (series.length - 1);
      var y = h - pad - (h - 2 * pad) * (p[1] - lo) / (hi - lo);
      return x.toFixed(1) + "," + y.toFixed(1);
    });
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Worth over the game, from " + series[0][1] + " to " + series[series.length - 1][1]);
    var area = document.createElementNS(SVG, "polygon");
    area.setAttribute("points", pad + "," + (h - pad) + " " + pts.join(" ") + " " + (w - pad) + "," + (h - pad));
    area.setAttribute("class", "area");
    var path = document.createElementNS(SVG, "polyline");
    path.setAttribute("points", pts.join(" "));
    path.setAttribute("class", "line");
    var start = h - pad - (h - 2 * pad) * (series[0][1] - lo) / (hi - lo);
    var base = document.createElementNS(SVG, "line");
    base.setAttribute("x1", pad); base.setAttribute("x2", w - pad);
    base.setAttribute("y1", start.toFixed(1)); base.setAttribute("y2", start.toFixed(1));
    base.setAttribute("class", "base");
    svg.appendChild(area);
    svg.appendChild(base);
    svg.appendChild(path);
    box.appendChild(svg);
    var legend = el("p", "legend");
    var me = current && current.me ? current.me : {};
    legend.appendChild(el("span", null, "start " + (me.worth_start_text || "")));
    legend.appendChild(el("span", null, "now " + (me.worth_text || "")));
    box.appendChild(legend);
  }

  function renderBanker(page) {
    show($("player"), false);
    show($("banker"), true);
    $("b-title").textContent = page.title;
    $("b-turn").textContent = turnText(page);
    var pending = clear($("pending"));
    if (!page.pending.length) { pending.appendChild(el("li", "empty", "No requests waiting")); }
    page.pending.forEach(function (r) {
      var li = el("li", "req pending");
      li.appendChild(el("span", "l")).appendChild(memoLine(line(bdi(r.player), " pays ",
        bdi(r.to === "bank" ? "the bank" : r.to), " " + r.amount_text), r.memo));
      var buttons = el("span", "buttons");
      var yes = el("button", "yes", "Approve");
      var no = el("button", "no", "Decline");
      yes.addEventListener("click", function () { answer(r.id, "approve", {}); });
      no.addEventListener("click", function () {
        var why = window.prompt("Why not? (the player sees this)", "");
        if (why !== null) { answer(r.id, "decline", { reason: why }); }
      });
      buttons.appendChild(yes);
      buttons.appendChild(no);
      li.appendChild(buttons);
      pending.appendChild(li);
    });
    var answered = clear($("answered"));
    page.answered.forEach(function (r) {
      answered.appendChild(row(memoLine(line(bdi(r.player), " \u2192 ", bdi(r.to === "bank" ? "the bank" : r.to),
        " " + r.amount_text), r.memo), r.status));
    });
    var players = clear($("b-players"));
    page.players.forEach(function (p) {
      var left = line(dot(playerColour(page, p.name, p.colour)), bdi(p.name));
      left.appendChild(el("small", null, " " + p.deed_count + " deed" + (p.deed_count === 1 ? "" : "s") + " \u00b7 worth " + p.worth_text + (p.bankrupt ? " \u00b7 out" : "")));
      players.appendChild(row(left, p.cash_text, p.to_play ? "to-play" : ""));
    });
    pots($("b-pots"), $("b-pots-card"), page.pots);
    var codes = clear($("codes"));
    page.players.forEach(function (p) {
      var b = el("button", "small", "Show code");
      b.addEventListener("click", function () { showCode(p.name); });
      var n = el("button", "small quiet", "New code");
      n.addEventListener("click", function () {
        if (window.confirm("Make a new code for " + p.name + "? The old one stops working.")) { revoke(p.name); }
      });
      var right = el("span", "buttons");
      right.appendChild(b);
      right.appendChild(n);
      codes.appendChild(row(line(bdi(p.name)), right));
    });
    var log = clear($("log"));
    page.log.forEach(function (l) { log.appendChild(row(line(sentence(l.text)), "#" + l.seq)); });
  }

  function showCode(name) {
    $("code-img").src = "/api/v1/players/" + encodeURIComponent(name) + "/qr.svg?t=" + Date.now();
    $("code-img").alt = "Join code for " + name;
    $("code-name").textContent = name;
    show($("code-view"), true);
  }

  /* ---- changes (JSON POSTs; the browser adds the Origin header the server checks) -------- */
  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) { throw new Error(data.detail || data.title || ("the server said " + r.status)); }
        return data;
      });
    });
  }
  function answer(id, verb, body) {
    post("/api/v1/requests/" + encodeURIComponent(id) + "/" + verb, body).catch(function (e) { window.alert(e.message); });
  }
  function revoke(name) {
    post("/api/v1/players/" + encodeURIComponent(name) + "/revoke", {}).then(function () { showCode(name); })
      .catch(function (e) { window.alert(e.message); });
  }
  function clientId() {
    var a = new Uint8Array(8);
    window.crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  var pendingId = null;
  var sentId = null;  // the request the "Sent." note speaks of
  $("ask").addEventListener("submit", function (e) {
    e.preventDefault();
    var note = $("ask-note");
    var body = { to: $("ask-to").value, amount: $("ask-amount").value.trim(), memo: $("ask-memo").value.trim() };
    pendingId = pendingId || clientId();  // a retry of the same form sends the same id
    body.id = pendingId;
    note.textContent = "Sending\u2026";
    post("/api/v1/requests", body).then(function (data) {
      pendingId = null;
      sentId = data.request && data.request.status === "pending" ? data.request.id : null;
      $("ask-amount").value = "";
      $("ask-memo").value = "";
      note.textContent = "Sent. The banker will answer on this page.";
    }).catch(function (err) {
      note.textContent = err.message.charAt(0).toUpperCase() + err.message.slice(1) + ".";
    });
  });
  ["ask-to", "ask-amount", "ask-memo"].forEach(function (id) {
    $(id).addEventListener("input", function () { pendingId = null; });
  });

  check();
})();
