/* Table Banker: a player's own page (cash, news of money, the story, the worth chart, deeds, loans,
   asking the banker to pay). Loaded with a player's first page; it draws with phone.js's helpers.
   Every name is set with textContent, never as HTML. */
"use strict";
(function () {
  var T = window.TB, $ = T.$, el = T.el, bdi = T.bdi, sentence = T.sentence, clear = T.clear, show = T.show;
  var row = T.row, line = T.line, dot = T.dot, memoLine = T.memoLine, turnText = T.turnText;
  var playerColour = T.playerColour, pots = T.pots, capital = T.capital, post = T.post, clientId = T.id;
  var SVG = "http://www.w3.org/2000/svg";
  var GROUPS = {
    "brown": "#8a4b2a", "light blue": "#8fd3f5", "pink": "#d93a96", "purple": "#8e44ad",
    "orange": "#f39a1d", "red": "#e0262f", "yellow": "#f4d800", "green": "#1d9a52",
    "dark blue": "#1c5fb5", "blue": "#1c5fb5", "railroad": "#333333", "station": "#333333",
    "utility": "#9aa0a6"
  };
  function hueOf(text) {
    var h = 0;
    for (var i = 0; i < text.length; i++) { h = (h * 31 + text.charCodeAt(i)) % 360; }
    return "hsl(" + h + ", 55%, 45%)";
  }
  function groupColour(group) { return GROUPS[String(group || "").toLowerCase()] || hueOf(String(group || "?")); }
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
    amountKeys(page.currency);

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
      if (r.held && r.status === "pending") { li.appendChild(el("span", "held", "The banker could not approve it: " + r.held)); }
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
    me.story.forEach(function (s) { story.appendChild(storyRow(s)); });

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

  function chart(box, series) {  // drawn by worthChart (below), to the box's own width
    lastSeries = series;
    worthChart(box, series, T.current());
  }


  var lastSeries = null;
  function money(n, currency) {  // the game's own style, as the server writes it (for the chart's scale)
    var cur = currency || { symbol: "$", style: "plain" };
    var sign = n < 0 ? "-" : "";
    n = Math.abs(Math.round(n));
    var body;
    if (cur.style === "short" && n >= 1000000) {
      body = (n / 1000000).toFixed(cur.places === undefined ? 2 : cur.places).replace(/\.?0+$/, "") + "M";
    } else if (cur.style === "short" && n >= 1000) {
      body = (n / 1000).toFixed(3).replace(/\.?0+$/, "") + "K";
    } else {
      body = n.toLocaleString("en-US");
    }
    return sign + (cur.symbol || "") + body;
  }

  function niceStep(span) {  // 1, 2 or 5 times a power of ten
    var p = Math.pow(10, Math.floor(Math.log(span) / Math.LN10));
    var f = span / p;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
  }

  function worthChart(box, series, page) {
    clear(box);
    if (!series || series.length < 2) { box.appendChild(el("p", "empty", "The chart starts after the first moves.")); return; }
    var currency = page && page.currency;
    var ys = series.map(function (p) { return p[1]; });
    var start = ys[0], now = ys[ys.length - 1];
    var lo = Math.min.apply(null, ys), hi = Math.max.apply(null, ys);
    // the scale spans at least half of the largest worth: a 3% change moves the line a little, not across the box
    var least = Math.max(Math.abs(hi), Math.abs(lo), 1) * 0.5;
    if (hi - lo < least) { var grow = (least - (hi - lo)) / 2; lo -= grow; hi += grow; }
    if (lo < 0 && Math.min.apply(null, ys) >= 0) { hi -= lo; lo = 0; }
    var step = niceStep((hi - lo) / 3);
    lo = Math.floor(lo / step) * step;
    hi = Math.ceil(hi / step) * step;
    var w = Math.max(box.clientWidth || 280, 200), h = 144, left = 8, right = 8, top = 10, bottom = 22;
    var ticks = [];
    for (var t = lo; t <= hi + step / 2; t += step) { ticks.push(t); }
    var widest = 0;
    ticks.forEach(function (t) { widest = Math.max(widest, money(t, currency).length); });
    left = Math.min(8 + widest * 7.2, w * 0.4);
    var x = function (i) { return left + (w - left - right) * i / (series.length - 1); };
    var y = function (v) { return top + (h - top - bottom) * (hi - v) / (hi - lo); };
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "worth");
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    svg.setAttribute("width", w);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Worth over the game: started at " + money(start, currency) + ", now " + money(now, currency) +
      "; lowest " + money(Math.min.apply(null, ys), currency) + ", highest " + money(Math.max.apply(null, ys), currency) + ".");
    function node(tag, attrs, text) {
      var n = document.createElementNS(SVG, tag);
      Object.keys(attrs).forEach(function (k) { n.setAttribute(k, attrs[k]); });
      if (text !== undefined) { n.textContent = text; }
      svg.appendChild(n);
      return n;
    }
    ticks.forEach(function (t) {
      node("line", { x1: left, x2: w - right, y1: y(t).toFixed(1), y2: y(t).toFixed(1), "class": "tick" });
      node("text", { x: left - 6, y: (y(t) + 4).toFixed(1), "text-anchor": "end", "class": "tick-label" }, money(t, currency));
    });
    var pts = series.map(function (p, i) { return x(i).toFixed(1) + "," + y(p[1]).toFixed(1); });
    node("polygon", { points: x(0).toFixed(1) + "," + y(lo).toFixed(1) + " " + pts.join(" ") + " " +
      x(series.length - 1).toFixed(1) + "," + y(lo).toFixed(1), "class": "area" });
    node("line", { x1: left, x2: w - right, y1: y(start).toFixed(1), y2: y(start).toFixed(1), "class": "base" });
    node("polyline", { points: pts.join(" "), "class": "line" });
    node("circle", { cx: x(series.length - 1).toFixed(1), cy: y(now).toFixed(1), r: 3.5, "class": "now" });
    node("text", { x: left + 4, y: (y(start) + (y(start) - top < 16 ? 14 : -5)).toFixed(1), "class": "start-label" }, "where you started");
    node("text", { x: left, y: h - 5, "class": "tick-label" }, "first move");
    node("text", { x: w - right, y: h - 5, "text-anchor": "end", "class": "tick-label" }, "now");
    box.appendChild(svg);
    var legend = el("p", "legend");
    var me = page && page.me ? page.me : {};
    legend.appendChild(el("span", "sum", "start " + (me.worth_start_text || money(start, currency))));
    legend.appendChild(el("span", "sum", "now " + (me.worth_text || money(now, currency))));
    box.appendChild(legend);
  }
  var resizeTimer = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () {
      var page = T.current();
      if (page && page.role === "player" && lastSeries) { worthChart($("chart"), lastSeries, page); }
      fitSums();
    }, 120);
  });

  function fitSums() {  // each sum on one line: the cash steps down through the type sizes until it fits
    ["me-cash"].forEach(function (id) {
      var node = $(id);
      if (!node || node.offsetParent === null) { return; }
      for (var step = 0; step <= 4; step++) {
        node.classList.remove("step-1", "step-2", "step-3", "step-4");
        if (step) { node.classList.add("step-" + step); }
        if (node.scrollWidth <= node.clientWidth + 1) { return; }
      }
    });
  }

  function storyRow(s) {
    var left = line();
    if (s.turn !== undefined && s.turn !== null) { left.appendChild(el("span", "turn", "Turn " + s.turn)); }
    left.appendChild(sentence(s.text));
    return row(left, s.change_text || "", s.change > 0 ? "in" : s.change < 0 ? "out" : "");
  }

  function moneyMoved(before, page) {  // the changed figure marked, a short line of what happened, a buzz
    if (!before || before.role !== "player" || before.me.name !== page.me.name) { return; }
    var was = before.me.cash, is = page.me.cash;
    var newest = page.me.story[0], known = before.me.story[0];
    var fresh = newest && (!known || newest.seq !== known.seq || newest.text !== known.text);
    if (was === is && !fresh) { return; }
    var cash = $("me-cash");
    if (was !== is) {
      cash.classList.remove("moved-up", "moved-down");
      void cash.offsetWidth;  // restart the mark
      cash.classList.add(is > was ? "moved-up" : "moved-down");
      try { if (navigator.vibrate) { navigator.vibrate(is > was ? [40] : [40, 60, 40]); } } catch (e) { /* not allowed */ }
    }
    var news = clear($("me-news"));
    if (fresh) {
      news.appendChild(sentence(newest.text));
      if (newest.change_text) { news.appendChild(el("span", "amount", newest.change_text)); }
      var first = $("story").firstChild;
      if (first) { first.classList.add("fresh"); }
    } else {
      news.textContent = "Your cash is now " + page.me.cash_text;
    }
  }

  function amountKeys(currency) {  // a keypad that takes the game's K and M where it has them
    var input = $("ask-amount");
    var short = currency && currency.style === "short";
    input.setAttribute("inputmode", short ? "text" : "decimal");
    input.placeholder = short ? "250K" : "50";
    $("ask-hint").textContent = short ? "Amounts like 250K or 1.5M." : "";
    show($("ask-hint"), short);
  }

  function askAdvice(message) {  // the server's reason, and what to do about it
    var text = capital(message) + ".";
    if (/many times/.test(message)) { return text; }
    if (/amount|money|whole/i.test(message)) { return text + " Fix the amount and ask again."; }
    if (/have \S+, not/.test(message)) { return text + " Ask for less."; }
    if (/waiting/.test(message)) { return text + " Wait for the banker's answer."; }
    return text;
  }

  document.getElementById("whole-game").addEventListener("click", function () {
    var button = this, list = $("whole");
    if (!list.hidden) {
      list.hidden = true;
      $("story").classList.add("short");
      button.setAttribute("aria-expanded", "false");
      button.textContent = "The whole game";
      return;
    }
    button.disabled = true;
    button.textContent = "Reading the game\u2026";
    fetch("/api/v1/story", { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      if (!r.ok) { throw new Error("status " + r.status); }
      return r.json();
    }).then(function (data) {
      clear(list);
      data.lines.forEach(function (s) { list.appendChild(storyRow(s)); });
      if (!data.lines.length) { list.appendChild(el("li", "empty", "Nothing yet")); }
      list.hidden = false;
      $("story").classList.add("short");  // the whole game below holds every line, the newest first
      button.setAttribute("aria-expanded", "true");
      button.textContent = "Hide the whole game";
    }).catch(function () {
      button.textContent = "Could not read the game; tap to try again";
    }).then(function () { button.disabled = false; });
  });

  var pendingId = null;
  var sentId = null;  // the request the "Sent." note speaks of
  var sending = false;
  var sentAt = 0;
  $("ask").addEventListener("submit", function (e) {
    e.preventDefault();
    if (sending) { return; }  // a second tap while the first is on its way sends nothing
    var note = $("ask-note");
    var send = $("ask-send");
    var body = { to: $("ask-to").value, amount: $("ask-amount").value.trim(), memo: $("ask-memo").value.trim() };
    pendingId = pendingId || clientId();  // a retry of the same form sends the same id
    body.id = pendingId;
    sending = true;
    send.disabled = true;
    send.textContent = "Sending\u2026";
    note.textContent = "Sending to the banker\u2026";
    post("/api/v1/requests", body).then(function (data) {
      pendingId = null;
      sentId = data.request && data.request.status === "pending" ? data.request.id : null;
      $("ask-amount").value = "";
      $("ask-memo").value = "";
      note.textContent = "Sent. The banker will answer on this page.";
      sentAt = Date.now();
    }).catch(function (err) {
      note.textContent = askAdvice(err.message);
    }).then(function () {
      sending = false;
      send.disabled = false;
      send.textContent = "Ask the banker";
    });
  });
  $("ask").addEventListener("invalid", function (e) {  // the browser's own bubble says little: say what to do
    e.preventDefault();
    if (Date.now() - sentAt < 3000) { return; }  // the second tap of a double tap: "Sent." stands
    if (e.target.id === "ask-amount") { $("ask-note").textContent = "Type an amount, such as " + $("ask-amount").placeholder + "."; }
  }, true);
  ["ask-to", "ask-amount", "ask-memo"].forEach(function (id) {
    $(id).addEventListener("input", function () { pendingId = null; });
  });

  T.player = function (page, before) {
    renderPlayer(page);
    moneyMoved(before, page);
    fitSums();
  };
})();
