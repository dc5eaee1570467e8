/* Table Banker: a player's own actions, drawn from the action contract the server sends (fields in
   order, the rule's choices, the preview sentence). Nothing here knows one action from another. The
   committing button carries the sentence that will go in the log. Names are set with textContent. */
"use strict";
(function () {
  var T = window.TB, $ = T.$, el = T.el, clear = T.clear, post = T.post, tapId = T.id;
  var open = null;     // the action being put together: {action, values, id, form}

  function say(text, bad) {
    var n = $("play-note");
    n.textContent = T.capital(text);
    n.className = "form-note" + (bad ? " bad" : "");
  }
  function button(text, cls, onTap) {
    var b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", onTap);
    return b;
  }
  var STATES = { done: "Done", declined: "Declined", expired: "Expired", refused: "Refused", cancelled: "Withdrawn" };
  function answered(m) { return (STATES[m.status] || m.status) + (m.reason ? ": " + m.reason : ""); }

  /* ---- the list of actions, and what waits for this player ------------------------------- */
  function renderPlays(p) {
    var plays = p.plays;
    if (!plays) { return; }
    $("plays").hidden = false;
    $("plays-off").textContent = plays.why_not ? T.capital(plays.why_not) + "." : "";
    $("plays-off").hidden = !plays.why_not;
    var list = clear($("play-list"));
    plays.offered.forEach(function (a) {
      var b = button(a.label, "act", function () { start(a.name); });
      b.disabled = !!plays.why_not;
      b.setAttribute("data-action", a.name);
      list.appendChild(b);
    });
    var approve = clear($("to-approve"));
    var told = plays.answered_for_me || [];
    $("approve-card").hidden = !plays.to_approve.length && !told.length;
    plays.to_approve.forEach(function (w) {
      var li = el("li", "approve");
      var ask = li.appendChild(el("p", "ask-who", w.player + " asks you to approve: "));
      var yes = button("Approve: " + w.summary, "commit", function () { answerPlay(w, "approve", { seen: w.summary }); });
      var no = button("Decline", "quiet-btn", function () { answerPlay(w, "decline", {}); });
      ask.appendChild(T.countdown(el("span", "left"), w, function () { yes.disabled = no.disabled = true; }));
      li.appendChild(yes);
      li.appendChild(no);
      approve.appendChild(li);
    });
    told.forEach(function (m) {  // what was asked of this player and is answered now: expired, say
      approve.appendChild(T.row(m.player + "\u2019s: " + m.summary, answered(m), "play " + m.status));
    });
    var mine = clear($("my-plays"));
    $("my-plays-card").hidden = !plays.mine.length;
    plays.mine.forEach(function (m) {
      var li = el("li", "play " + m.status);
      li.appendChild(el("span", "l", m.summary));
      if (m.status !== "waiting") {
        li.appendChild(el("span", "r", answered(m)));
      } else {
        var state = li.appendChild(el("span", "r", "Waiting for " + m.waiting_for.join(", ") + " \u00b7 "));
        var back = button("Withdraw", "quiet-btn", function () { answerPlay(m, "cancel", {}); });
        state.appendChild(T.countdown(el("span", "left"), m, function () { back.disabled = true; }));
        li.appendChild(back);
      }
      mine.appendChild(li);
    });
    if (open && !plays.why_not) { refresh(); }  // the table moved: the choices and the sentence follow it
  }
  function answerPlay(w, verb, body) {
    post("/api/v1/plays/" + encodeURIComponent(w.id) + "/" + verb, body).then(function () {
      say(verb === "approve" ? "Approved." : verb === "decline" ? "Declined." : "Withdrawn.");
    }).catch(function (e) { say(e.message, true); });
  }

  /* ---- one action, field by field ------------------------------------------------------------ */
  function start(name) {
    open = { action: name, values: {}, id: tapId(), form: null, drafts: {} };
    say("");
    refresh();
  }
  function close() {
    open = null;
    $("play-form").hidden = true;
    $("play-list").hidden = false;
  }
  var asking = 0;
  function refresh() {
    var mine = ++asking;
    var o = open;
    post("/api/v1/plays/form", { action: o.action, values: o.values }).then(function (form) {
      if (mine !== asking || open !== o) { return; }
      o.form = form;
      drawForm(form);
    }).catch(function (e) { if (open === o) { say(e.message, true); } });
  }
  function set(name, value) {
    if (value === "" || value === null || value === undefined) { delete open.values[name]; } else { open.values[name] = value; }
    open.id = tapId();  // another action: another tap
    refresh();
  }
  function labelFor(f) { return f.says + (f.optional ? " (if it applies)" : ""); }

  function drawChoices(f, box) {
    var choices = f.choices || [];
    if (choices.length > 12) {
      var sel = el("select", "pick");
      sel.setAttribute("aria-label", f.says);
      sel.appendChild(el("option", null, "Choose\u2026")).value = "";
      choices.forEach(function (c, i) {
        var opt = el("option", null, c.label + (c.possible ? (c.detail ? " \u2014 " + c.detail : "") : " (" + c.why_not + ")"));
        opt.value = String(i);
        opt.disabled = !c.possible;
        if (f.value !== null && c.value === f.value) { opt.selected = true; }
        sel.appendChild(opt);
      });
      sel.addEventListener("change", function () { if (sel.value !== "") { set(f.name, choices[+sel.value].value); } });
      box.appendChild(sel);
      return;
    }
    var row = el("div", "choices");
    choices.forEach(function (c) {
      var b = button(c.label, "choice" + (f.value !== null && c.value === f.value ? " chosen" : ""), function () {
        set(f.name, f.value !== null && c.value === f.value && f.optional ? null : c.value);
      });
      b.setAttribute("aria-pressed", f.value !== null && c.value === f.value ? "true" : "false");
      if (c.possible && c.detail) { b.appendChild(el("small", null, c.detail)); }
      if (!c.possible) { b.disabled = true; b.appendChild(el("small", null, c.why_not)); }
      row.appendChild(b);
    });
    box.appendChild(row);
  }
  function drawInput(f, box, kind) {
    var input = el("input", "typed");
    input.setAttribute("aria-label", f.says);
    input.maxLength = kind === "text" ? 120 : 16;
    if (kind !== "text") { input.inputMode = "numeric"; }
    typing(input, f.name, f.value === null || f.value === undefined ? "" : String(f.value), function (text) {
      set(f.name, text);
    });
    box.appendChild(input);
  }
  /* What a person types is theirs until they leave the box: a redraw of the form (the server's answer
     to an earlier tap, or another player's action moving the table) keeps the typing and the focus,
     and leaving the box hands the typing on, whether the browser calls it a change or not. */
  function typing(input, key, shown, hand) {
    var drafts = open.drafts;
    input.setAttribute("data-draft", key);
    input.value = drafts[key] !== undefined ? drafts[key] : shown;
    input.addEventListener("input", function () { drafts[key] = input.value; });
    function leave() {
      if (!input.isConnected || drafts[key] === undefined) { return; }  // a box a redraw took away is not left
      delete drafts[key];
      hand(input.value.trim());
    }
    input.addEventListener("change", leave);
    input.addEventListener("blur", leave);
  }
  function drawSide(f, box) {  // a structured field read from its schema: money and deeds of one player
    var value = f.value && typeof f.value === "object" ? JSON.parse(JSON.stringify(f.value)) : {};
    var props = (f.schema && f.schema.properties) || {};
    Object.keys(props).forEach(function (key) {
      var schema = props[key];
      var label = el("label", "side");
      label.appendChild(el("span", null, schema.title || key));
      if (schema.type === "array") {
        var deeds = f.deeds || [];
        if (!deeds.length) { label.appendChild(el("span", "form-note", "no deeds")); }
        var row = el("div", "choices");
        deeds.forEach(function (d) {
          var on = (value[key] || []).indexOf(d) >= 0;
          var b = button(d, "choice" + (on ? " chosen" : ""), function () {
            var list = (value[key] || []).filter(function (x) { return x !== d; });
            if (!on) { list.push(d); }
            if (list.length) { value[key] = list; } else { delete value[key]; }
            set(f.name, Object.keys(value).length ? value : null);
          });
          b.setAttribute("aria-pressed", on ? "true" : "false");
          row.appendChild(b);
        });
        label.appendChild(row);
      } else {
        var input = el("input", "typed");
        input.inputMode = "numeric";
        input.maxLength = 16;
        input.setAttribute("aria-label", (f.says + " " + (schema.title || key)));
        typing(input, f.name + "." + key, value[key] === undefined ? "" : String(value[key]), function (text) {
          if (text) { value[key] = text; } else { delete value[key]; }
          set(f.name, Object.keys(value).length ? value : null);
        });
        label.appendChild(input);
      }
      box.appendChild(label);
    });
  }
  function drawForm(form) {
    $("play-list").hidden = true;
    var box = $("play-form");
    box.hidden = false;
    $("play-title").textContent = form.label;
    var held = document.activeElement, typingIn = held && held.getAttribute ? held.getAttribute("data-draft") : null;
    var fields = clear($("play-fields"));
    form.fields.forEach(function (f) {
      if (f.kind === "structured" && !(f.schema && f.schema.properties)) { return; }  // told at the table instead
      var part = el("fieldset", "field" + (f.asked ? " asked" : ""));
      part.appendChild(el("legend", null, labelFor(f)));
      if (f.kind === "amount" || (f.kind === "count" && !f.choices) || f.kind === "text") {
        drawInput(f, part, f.kind);
      } else if (f.kind === "structured") {
        drawSide(f, part);
      } else if (f.choices) {
        drawChoices(f, part);
      } else if (f.value !== null) {
        part.appendChild(el("p", "chosen-value", String(f.value)));
      }
      fields.appendChild(part);
    });
    if (typingIn !== null) {  // the finger was in a box: it still is, with the caret where it was
      fields.querySelectorAll("input[data-draft]").forEach(function (box) {
        if (box.getAttribute("data-draft") === typingIn) { box.focus(); box.setSelectionRange(box.value.length, box.value.length); }
      });
    }
    var commit = $("play-commit");
    commit.disabled = !form.ready || !!form.refused;
    commit.textContent = form.ready ? (form.refused ? "Not possible now" : form.preview) : "Choose above";
    var who = form.approval || [];
    $("play-why").textContent = form.refused ? T.capital(form.refused) + "." :
      (!form.ready ? "" : who.length ? "Then " + who.map(function (w) { return w === "banker" ? "the banker" : w; }).join(" and ") +
        " approves." : "Your tap approves it.");
  }
  $("play-commit").addEventListener("click", function () {
    var o = open;
    if (!o || !o.form || !o.form.ready) { return; }
    var commit = $("play-commit");
    commit.disabled = true;
    post("/api/v1/plays", { action: o.action, values: o.values, id: o.id, seen: o.form.preview }).then(function (data) {
      say(data.play.status === "done" ? "Done: " + data.play.summary : "Waiting for " + data.play.waiting_for.join(", ") + ".");
      close();
    }).catch(function (e) { say(e.message, true); commit.disabled = false; });
  });
  $("play-cancel").addEventListener("click", function () { close(); say(""); });

  document.addEventListener("tb-page", function (e) { if (e.detail.role === "player") { renderPlays(e.detail); } });
})();
