/* Table Banker: the banker's own phone (requests and players' actions to approve, the pause, Undo,
   join codes, the log). Loaded only when the banker's page arrives, with its section (banker.html)
   and style (banker.css); it draws with phone.js's helpers. Names are set with textContent, never as HTML. */
"use strict";
(function () {
  var T = window.TB, $ = T.$, el = T.el, bdi = T.bdi, sentence = T.sentence, clear = T.clear, show = T.show;
  var row = T.row, line = T.line, dot = T.dot, memoLine = T.memoLine, turnText = T.turnText;
  var playerColour = T.playerColour, pots = T.pots, capital = T.capital, post = T.post, clientId = T.id;

  function main() {  // once the banker's section is in the page

    function renderBanker(page) {
      show($("player"), false);
      show($("banker"), true);
      $("b-title").textContent = page.title;
      $("b-turn").textContent = turnText(page);
      pendingList(page);
      undoButton(page);
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

    var declining = null;      // the request whose decline form is open: {id, text}
    var pendingKey = "";       // the requests the banker's list shows, so a re-render keeps a form being typed
    var seenPending = null;    // request ids the banker has been told of

    function beep() {  // a short two-note chime (the phone's media volume; nothing when audio is not allowed yet)
      try {
        var Ctx = window.AudioContext || window.webkitAudioContext;
        if (!Ctx) { return; }
        beep.ctx = beep.ctx || new Ctx();
        var ctx = beep.ctx;
        [880, 1175].forEach(function (f, i) {
          var o = ctx.createOscillator(), g = ctx.createGain();
          o.frequency.value = f;
          g.gain.setValueAtTime(0.0001, ctx.currentTime + i * 0.15);
          g.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + i * 0.15 + 0.02);
          g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + i * 0.15 + 0.14);
          o.connect(g); g.connect(ctx.destination);
          o.start(ctx.currentTime + i * 0.15); o.stop(ctx.currentTime + i * 0.15 + 0.15);
        });
        beep.count = (beep.count || 0) + 1;
      } catch (e) { /* no sound here */ }
    }
    document.addEventListener("pointerdown", function () {  // the first touch lets the page make sound later
      var Ctx = window.AudioContext || window.webkitAudioContext;
      try { if (Ctx) { beep.ctx = beep.ctx || new Ctx(); beep.ctx.resume(); } } catch (e) { /* no sound */ }
    }, { once: true });

    function bankerNews(before, page) {  // a new request: a chime, a buzz, a line, and the count in the title
      var ids = page.pending.map(function (r) { return r.id; });
      if (seenPending === null) { seenPending = ids; return; }
      var fresh = page.pending.filter(function (r) { return seenPending.indexOf(r.id) < 0; });
      seenPending = ids;
      if (!fresh.length) { return; }
      var r = fresh[fresh.length - 1];
      $("b-news").textContent = "New request: " + r.player + " pays " + (r.to === "bank" ? "the bank" : r.to) + " " + r.amount_text + ".";
      beep();
      try { if (navigator.vibrate) { navigator.vibrate([60, 80, 60]); } } catch (e) { /* not allowed */ }
    }

    function pendingList(page) {
      var plays = page.plays ? page.plays.waiting.filter(function (w) { return w.waiting_for.indexOf("banker") >= 0; }) : [];
      var key = JSON.stringify([plays.length > 0, page.pending.map(function (r) { return [r.id, r.held || ""]; })]);
      if (key === pendingKey) { return; }  // the same requests: keep what the banker is typing
      pendingKey = key;
      var pending = clear($("pending"));
      if (!page.pending.length && !plays.length) { pending.appendChild(el("li", "empty", "No requests waiting")); }
      page.pending.forEach(function (r) {
        var li = el("li", "req pending");
        li.appendChild(el("span", "l")).appendChild(memoLine(line(bdi(r.player), " pays ",
          bdi(r.to === "bank" ? "the bank" : r.to), " " + r.amount_text), r.memo));
        var buttons = el("span", "buttons");
        var yes = el("button", "yes", "Approve");
        var no = el("button", "no", "Decline");
        yes.type = no.type = "button";
        var note = el("span", "held");
        note.setAttribute("role", "status");
        if (r.held) { note.textContent = "Could not approve: " + r.held; }
        yes.addEventListener("click", function () { answer(r.id, "approve", {}, note, [yes, no]); });
        no.addEventListener("click", function () { openDecline(li, r, note, [yes, no]); });
        buttons.appendChild(yes);
        buttons.appendChild(no);
        li.appendChild(buttons);
        li.appendChild(note);
        pending.appendChild(li);
        if (declining && declining.id === r.id) { openDecline(li, r, note, [yes, no]); }
      });
    }

    function openDecline(li, r, note, buttons) {  // the reason is typed in the page: no browser prompt
      if (li.querySelector("form")) { li.querySelector("input").focus(); return; }
      declining = declining && declining.id === r.id ? declining : { id: r.id, text: "" };
      var form = el("form", "decline-form");
      var label = el("label", null, "Why not? (" + r.player + " sees this)");
      var input = el("input");
      input.maxLength = 120;
      input.value = declining.text;
      input.placeholder = "e.g. pay in cash";
      input.addEventListener("input", function () { if (declining) { declining.text = input.value; } });
      label.appendChild(input);
      var send = el("button", "no", "Decline");
      var keep = el("button", "quiet", "Cancel");
      send.type = "submit";
      keep.type = "button";
      var row2 = el("span", "buttons");
      row2.appendChild(send);
      row2.appendChild(keep);
      form.appendChild(label);
      form.appendChild(row2);
      form.addEventListener("submit", function (e) {
        e.preventDefault();
        answer(r.id, "decline", { reason: input.value.trim() }, note, buttons.concat([send, keep]));
      });
      keep.addEventListener("click", function () { declining = null; li.removeChild(form); });
      li.insertBefore(form, note);
      input.focus();
    }

    var undoWaiting = false;
    function undoButton(page) {  // the touchscreen's label: "Undo: Ann bought Boardwalk for $400"
      var button = $("b-undo");
      button.textContent = page.undo_text || "Nothing to undo";
      button.disabled = !page.undo_text || undoWaiting;
      if (!page.undo_text) { show($("b-undo-ask"), false); }
    }
    $("b-undo").addEventListener("click", function () { show($("b-undo-ask"), true); $("b-undo-yes").focus(); });
    $("b-undo-no").addEventListener("click", function () { show($("b-undo-ask"), false); });
    $("b-undo-yes").addEventListener("click", function () {
      var note = $("b-undo-note");
      show($("b-undo-ask"), false);
      undoWaiting = true;
      $("b-undo").disabled = true;
      note.textContent = "Undoing\u2026";
      post("/api/v1/actions", { action: "undo", id: "undo-" + clientId() }).then(function (data) {
        note.textContent = capital(data.summary || "Undone") + ".";
      }).catch(function (e) {
        note.textContent = capital(e.message) + ".";
      }).then(function () { undoWaiting = false; if (T.current()) { undoButton(T.current()); } });
    });


    function answer(id, verb, body, note, buttons) {
      buttons.forEach(function (b) { b.disabled = true; });
      note.textContent = verb === "approve" ? "Approving\u2026" : "Declining\u2026";
      return post("/api/v1/requests/" + encodeURIComponent(id) + "/" + verb, body).then(function () {
        note.textContent = "";
        if (verb === "decline") { declining = null; }
      }).catch(function (e) {
        buttons.forEach(function (b) { b.disabled = false; });
        note.textContent = capital(e.message) + ".";
      });
    }
    function revoke(name) {
      post("/api/v1/players/" + encodeURIComponent(name) + "/revoke", {}).then(function () { showCode(name); })
        .catch(function (e) { $("code-name").textContent = capital(e.message) + "."; show($("code-view"), true); });
    }
    /* ---- players' actions waiting for the bank's money, and the pause --------------------------- */
    function renderPlays(page) {
      var plays = page.plays;
      if (!plays) { return; }
      var list = clear($("b-plays"));
      plays.waiting.forEach(function (w) {
        if (w.waiting_for.indexOf("banker") < 0) { return; }
        var li = el("li", "req pending");
        li.appendChild(el("span", "l", w.player + "\u2019s phone: " + w.summary));
        var buttons = el("span", "buttons");
        var yes = el("button", "yes", "Approve"), no = el("button", "no", "Decline");
        yes.type = no.type = "button";
        yes.addEventListener("click", function () { answerPlay(w, "approve", { seen: w.summary }); });
        no.addEventListener("click", function () { answerPlay(w, "decline", {}); });
        buttons.appendChild(yes);
        buttons.appendChild(no);
        li.appendChild(buttons);
        li.appendChild(T.countdown(el("span", "why"), w, function () { yes.disabled = no.disabled = true; }));
        list.appendChild(li);
      });
      var pause = $("b-pause");
      pause.textContent = plays.paused ? "Let phones act" : "Pause phones";
      pause.setAttribute("aria-pressed", plays.paused ? "true" : "false");
      pause.onclick = function () {
        post("/api/v1/plays/pause", { paused: !plays.paused }).catch(function (e) { pause.textContent = e.message; });
      };
    }
    function answerPlay(w, verb, body) {
      post("/api/v1/plays/" + encodeURIComponent(w.id) + "/" + verb, body).catch(function (e) {
        $("b-news").textContent = capital(e.message) + ".";
      });
    }

    T.banker = function (page, before) {
      renderBanker(page);
      bankerNews(before, page);
      renderPlays(page);
    };
  }

  function section() {  // the banker's section, from banker.html: read as a document, never as HTML text
    fetch("/static/banker.html", { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) { throw new Error("status " + r.status); }
      return r.text();
    }).then(function (text) {
      var made = new DOMParser().parseFromString(text, "text/html").getElementById("banker");
      var here = $("banker");
      here.parentNode.replaceChild(document.importNode(made, true), here);
      main();
      T.redraw();
    }).catch(function () { setTimeout(section, 2000); });
  }
  var style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = "/static/banker.css";
  document.head.appendChild(style);
  section();
})();
