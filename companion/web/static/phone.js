/* Table Banker phone page: renders the page JSON from /api/v1/state and keeps it live with
   server-sent events from /api/v1/events. Every name is set with textContent, never as HTML. */
"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var current = null;       // the last page received
  var previous = null;      // the page before it, to tell what changed
  var source = null;        // the EventSource
  var lastHeard = 0;        // when the server last said anything (state or ping)
  var lost = false;         // the page is showing "connection lost"
  var finished = false;     // the server said this page is over (link withdrawn, game over)
  var retryDelay = 1000;
  var skipVersion = null;   // a page already shown from a fetch: the stream's first message repeats it
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
    source = new EventSource("/api/v1/events");  // its first message is the page: no separate fetch
    source.addEventListener("state", function (e) {
      lastHeard = Date.now();
      retryDelay = 1000;
      var same = skipVersion !== null && String(skipVersion) === e.lastEventId;
      skipVersion = null;
      if (!same) {
        try { render(JSON.parse(e.data)); } catch (err) { return; }
      }
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
      if (!current && source && source.readyState === EventSource.CLOSED) {  // never opened: ask why once
        stopStream();
        check();
        return;
      }
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
      return r.json().then(function (page) {  // the stream would send the same page again: skip it once
        render(page); lastHeard = Date.now(); skipVersion = page.version; startStream();
      });
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
    var before = previous;
    previous = page;
    document.title = titleOf(page);
    $("foot").textContent = page.title + " \u00b7 version " + page.version;
    // each role's own part of the page comes with its first page: a player never loads the banker's tools
    if (page.role === "banker") {
      if (!TB.banker) { roleScript("banker.js"); return; }
      TB.banker(page, before);
    } else {
      if (!TB.player) { roleScript("player.js"); roleScript("plays.js"); return; }
      TB.player(page, before);
      document.dispatchEvent(new CustomEvent("tb-page", { detail: page }));  // plays.js draws the player's own actions
    }
  }

  function pots(list, card, items) {
    clear(list);
    items.forEach(function (p) { list.appendChild(row(p.label, p.amount_text)); });
    show(card, items.length > 0);
  }

  function capital(text) { text = String(text || ""); return text.charAt(0).toUpperCase() + text.slice(1); }

  function titleOf(page) {
    var name = (page.role === "banker" ? "Banker" : page.me.name) + " \u00b7 Table Banker";
    var waiting = page.role === "banker" ? page.pending.length : 0;
    return (waiting ? "(" + waiting + ") " : "") + name;
  }

  var lock = null;
  function wakeLock() {  // the screen stays on while the page is open (where the browser has Screen Wake Lock)
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || lock) { return; }
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { lock = null; });
  }
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") { wakeLock(); } });

  /* ---- changes (JSON POSTs; the browser adds the Origin header the server checks) -------- */
  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) { throw new Error(data.detail || data.error || data.title || ("the server said " + r.status)); }
        return data;
      });
    });
  }
  function clientId() {
    var a = new Uint8Array(8);
    window.crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function roleScript(name) {  // a role's own part of the page (player.js, banker.js...): asked for once, drawn when here
    if (roleScript[name]) { return; }
    roleScript[name] = true;
    var s = document.createElement("script");
    s.src = "/static/" + name;
    s.onload = function () { if (current) { previous = null; render(current); } };
    document.head.appendChild(s);
  }

  /* ---- a waiting action's time left, counted down on this phone ----------------------------- */
  var deadlines = {};  // play id -> when it expires by this phone's clock (the soonest the server said)
  function countdown(node, play, expired) {  // "2:35 left", then "Expired" and ``expired()``
    var at = Date.now() + play.seconds_left * 1000;
    if (!deadlines[play.id] || at < deadlines[play.id]) { deadlines[play.id] = at; }
    node.setAttribute("data-ends", deadlines[play.id]);
    node.tbExpired = expired;
    tick(node);
    return node;
  }
  function tick(node) {
    var s = Math.max(0, Math.ceil((+node.getAttribute("data-ends") - Date.now()) / 1000));
    if (s > 0) { node.textContent = Math.floor(s / 60) + ":" + ("0" + s % 60).slice(-2) + " left"; return; }
    node.removeAttribute("data-ends");
    node.textContent = "Expired: not approved in time";
    node.classList.add("expired");
    if (node.tbExpired) { node.tbExpired(); }
  }
  setInterval(function () { Array.prototype.forEach.call(document.querySelectorAll("[data-ends]"), tick); }, 1000);

  /* what plays.js and banker.js share with this page */
  window.TB = {
    $: $, el: el, bdi: bdi, sentence: sentence, clear: clear, show: show, row: row, line: line, dot: dot,
    memoLine: memoLine, turnText: turnText, playerColour: playerColour, pots: pots, capital: capital,
    post: post, id: clientId, countdown: countdown, current: function () { return current; },
    redraw: function () { if (current) { previous = null; render(current); } }
  };

  wakeLock();
  startStream();
})();
