// The table page: one WebSocket to the server, the seat chosen by the token in
// the page's address (no token: watching).  The server sends whole state
// frames; a click sends one move, which the server checks.
"use strict";

const tableId = location.pathname.split("/").pop();
const token = new URLSearchParams(location.search).get("token") || "";
let framesSeen = 0, frame = null, pending = null, sock = null, retry = 0, lastTurns = -1, hintMoves = null;

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return proto + "//" + location.host + "/ws/" + tableId + (token ? "?token=" + encodeURIComponent(token) : "");
}

function connect() {
  sock = new WebSocket(wsUrl());
  sock.onopen = () => { retry = 0; };
  sock.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "state") {
      // a frame that changes nothing of the turn (a seat connecting, a notice)
      // keeps the card the person picked while they choose its field card
      const keep = pending !== null && frame !== null && msg.view.turns === frame.view.turns &&
        (msg.legal_moves || []).some(o => o.card === pending && o.target);
      frame = msg; if (!keep) pending = null; showError(""); render(true);
      document.body.dataset.frames = String(++framesSeen);  // for tests and tools
      document.body.dataset.moves = String(msg.moves);
    }
    else if (msg.type === "error") showError(msg.error);
    else if (msg.type === "notice") showNotice(msg);
    else if (msg.type === "hint") showHint(msg);
  };
  sock.onclose = (e) => {
    const final = { 4404: "gone", 4403: "refused", 4400: "refused", 4401: "no_token",
                    4429: "full", 4408: "too_slow" };
    if (e.code in final) {  // retrying would meet the same answer
      showError(t(final[e.code]));
      return;
    }
    setTimeout(connect, Math.min(5000, 300 * 2 ** retry++));
  };
}

function send(msg) {
  if (sock && sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify(msg));
}
function play(move) { pending = null; send({ type: "move", move: move, turn: frame.view.turns }); }
function showError(text) { document.getElementById("error").textContent = text; }

// What a move is comes from the server (frame.legal_moves: kind, card, target,
// month, labels): the page parses no move notation.
function moveInfo(m) { return (frame && frame.legal_moves || []).find(o => o.move === m); }
function moveLabel(m) {
  const o = moveInfo(m);
  if (!o) return m;
  return LANG === "ko" ? o.label_ko : o.label;
}
function isCardMove(o) { return o.kind === "play" || o.kind === "bonus"; }

function render(fresh) {
  if (!frame) return;
  const v = frame.view, you = frame.you, options = frame.legal_moves || [];
  const myTurn = options.length > 0;
  document.body.dataset.myTurn = myTurn ? "1" : "0";
  document.body.dataset.phase = v.phase;
  document.body.dataset.seat = you == null ? "watch" : String(you);
  document.getElementById("title").textContent = t("title");
  document.getElementById("info").textContent = headerInfo(frame);
  document.getElementById("lang").textContent = t("lang");
  document.getElementById("field-title").textContent = t("field");
  document.getElementById("log-title").textContent = t("log");
  for (const id of ["download", "download2"]) {
    const a = document.getElementById(id);
    a.textContent = t("download") + " (" + frame.records + ")";
    a.href = "/api/tables/" + tableId + "/records?token=" + encodeURIComponent(token);
    a.style.visibility = frame.records ? "visible" : "hidden";
  }
  const hb = document.getElementById("hint-button");
  hb.textContent = t("hint");
  hb.disabled = !myTurn || !HINTS;
  const marks = eventMarks(fresh ? frame.events : []);

  // the other seats (a watcher sees every seat here, hands hidden)
  const opp = document.getElementById("opponents");
  opp.replaceChildren();
  for (let q = 0; q < v.players; q++) if (q !== you) opp.append(seatPanel(frame, q, marks));

  // the field, the stock, the card waiting for the flip
  const targets = new Set();
  let prompt = "";
  const moveOf = new Map();  // a field card clicked -> the move it makes
  if (myTurn && v.phase === "flip") {
    options.filter(o => o.kind === "flip").forEach(o => { targets.add(o.target); moveOf.set(o.target, o.move); });
    prompt = t("choose_flip", { card: cardLabel(v.flip_card) });
  } else if (pending) {
    options.filter(o => isCardMove(o) && o.card === pending && o.target)
      .forEach(o => { targets.add(o.target); moveOf.set(o.target, o.move); });
    prompt = t("choose_target", { card: cardLabel(pending) });
  } else if (myTurn && options.some(isCardMove)) prompt = t("your_turn");
  else if (!myTurn && v.phase !== "over" && v.to_move != null)
    prompt = t("wait", { name: seatNames(frame)[v.to_move] });
  const field = document.getElementById("field");
  field.replaceChildren();
  for (const group of v.field_groups) {
    // a ppeok stack is one pile of overlapping cards with its label
    const box = group.stack ? el("div", { class: "stack", "data-stack": String(group.month),
                                          title: t("stack") }) : field;
    for (const c of group.cards) {
      const cls = [targets.has(c) ? "target" : "", marks.flipped.has(c) || c === v.played_card ? "flash" : ""].join(" ");
      const img = cardImg(c, cls.trim());
      if (targets.has(c)) img.addEventListener("click", () => play(moveOf.get(c)));
      box.append(img);
    }
    if (group.stack) {
      box.append(el("div", { class: "stack-label", text: t("stack") }));
      field.append(box);
    }
  }
  const stock = document.getElementById("stock");
  stock.replaceChildren(backImg(), el("div", { "data-stock": String(v.stock), text: t("stock") + " " + v.stock }));
  const flip = document.getElementById("flip");
  flip.replaceChildren();
  if (v.flip_card) flip.append(cardImg(v.flip_card, "flash"), el("div", { class: "caption", text: t("flip_card") }));
  document.getElementById("prompt").textContent = prompt;

  // buttons for the moves that are not a card
  const actions = document.getElementById("actions");
  actions.replaceChildren();
  if (myTurn) for (const o of options) if (!isCardMove(o) && o.kind !== "flip") {
    actions.append(el("button", { class: o.kind === "stop" || o.kind === "go" ? "primary" : "",
                                  "data-move": o.move, text: LANG === "ko" ? o.label_ko : o.label,
                                  onclick: () => play(o.move) }));
  }
  if (myTurn && v.phase === "gostop" && v.stop_value)
    actions.append(el("span", { class: "whos", text: t("stop_value") + " " + v.stop_value.pay }));

  // my own seat: hand and captured piles
  const me = document.getElementById("me");
  me.replaceChildren();
  if (you == null) {
    me.append(el("h2", { text: t("watching") }));
  } else {
    const panel = seatPanel(frame, you, marks, { noHand: true });
    const hand = el("div", { class: "cards hand", id: "hand" });
    for (const c of v.hand) {
      const moves = options.filter(o => isCardMove(o) && o.card === c).map(o => o.move);
      const img = cardImg(c, moves.length ? "playable" : "");
      if (pending === c) img.classList.add("chosen");
      if (moves.length) img.addEventListener("click", () => {
        if (moves.length === 1) play(moves[0]);
        else { pending = pending === c ? null : c; render(false); }
      });
      hand.append(namedCard(img, c));
    }
    panel.insertBefore(el("h2", { text: t("hand") }), panel.children[1] || null);
    panel.insertBefore(hand, panel.children[2] || null);
    me.append(panel);
  }

  // the log, the ledger, the hint
  if (fresh) { loggedEvents = loggedEvents.concat(frame.events || []).slice(-200);
               logLines(document.getElementById("log"), frame.events, true, seatNames(frame)); }
  if (fresh) drawRecent(frame.events, seatNames(frame));
  const ledger = document.getElementById("ledger");
  ledger.textContent = t("ledger") + ": " + seatNames(frame).map((n, q) => n + " " + frame.ledger[q]).join(" · ");
  const at = frame.hand_number + ":" + frame.moves;  // one decision
  if (at !== lastTurns) { hintMoves = null; lastTurns = at; }
  drawHint();

  // the hand-over: the engine's payment report
  const over = document.getElementById("over");
  if (frame.outcome) {
    document.getElementById("over-title").textContent = t("over");
    document.getElementById("report").textContent =
      (LANG === "ko" && frame.outcome.report_ko ? frame.outcome.report_ko : frame.outcome.report).join("\n");
    const next = document.getElementById("next");
    next.textContent = t("next");
    next.style.display = you == null ? "none" : "";
    over.classList.add("show");
  } else over.classList.remove("show");
}

// The last turn as it happened: the card played, the card flipped, what was
// captured and stolen, each shown with a short highlight.
let turnEvents = [];
let loggedEvents = [];  // what the log shows, kept to redraw it in the other language
function drawRecent(events, names) {
  const box = document.getElementById("recent");
  // a turn may come in several frames (a flip that asks for a choice, Go/Stop)
  if (turnEvents.length && turnEvents[turnEvents.length - 1].kind === "turn_end") turnEvents = [];
  turnEvents = turnEvents.concat(events || []);
  const shown = turnEvents.filter(e => ["played", "flipped", "captured", "stolen", "bomb"].includes(e.kind));
  if (!shown.length) return;
  box.replaceChildren();
  for (const ev of shown) {
    const cards = ev.kind === "captured" || ev.kind === "bomb" ? ev.cards : [ev.card];
    const step = el("div", { class: "step", "data-event": ev.kind },
                    el("div", { class: "whos", text: eventText(ev, names) }));
    const row = el("div", { class: "cards tiny" });
    cards.filter(c => c).forEach(c => row.append(cardImg(c, ev.kind === "stolen" ? "stolen" : "flash")));
    step.append(row);
    box.append(step);
  }
}

function drawHint() {
  const box = document.getElementById("hint");
  box.replaceChildren(el("h2", { text: t("hint") }));
  if (hintMoves === "wait") { box.append(el("div", { text: t("hint_wait") })); return; }
  if (!hintMoves) return;
  box.firstChild.textContent = t("hint_title", { unit: t("unit_" + hintMoves.unit) });
  const list = el("ol", { id: "hint-list" });
  hintMoves.moves.forEach((r, i) => list.append(el("li", { class: i === 0 ? "best" : "",
    "data-move": r.move, text: moveLabel(r.move) + "  " + (r.value >= 0 ? "+" : "") + r.value.toFixed(3) })));
  box.append(list);
}
function showHint(msg) {  // only for the decision still to be made
  if (frame && msg.hand_number === frame.hand_number && msg.moves_played === frame.moves) {
    hintMoves = msg; drawHint();
  }
}

let HINTS = false;
fetch("/api/presets").then(r => r.json()).then(d => {
  HINTS = d.hint; setCardNames(d.card_names_ko); render(false);
});
document.getElementById("hint-button").addEventListener("click", () => {
  hintMoves = "wait"; drawHint(); send({ type: "hint" });
});
document.getElementById("lang").addEventListener("click", () => {
  toggleLang(); render(false);
  // the log again, in the language now shown
  const box = document.getElementById("log");
  box.replaceChildren();
  if (frame) logLines(box, loggedEvents, false, seatNames(frame));
});
document.getElementById("next").addEventListener("click", () => send({ type: "next" }));
document.getElementById("over").addEventListener("click", (e) => {
  if (e.target.id === "over") e.currentTarget.classList.remove("show");
});
document.documentElement.lang = LANG;
connect();

function showNotice(msg) {  // a bot replaced by greedy: said in the log and the error line
  const who = frame ? seatNames(frame)[msg.seat] : "#" + msg.seat;
  const text = who + ": " + t(msg.problem) + " — " + t("bot_replaced");
  document.getElementById("log").prepend(el("div", { class: "new notice", text: text }));
  showError(text);
}
