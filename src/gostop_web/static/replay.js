// The replay: a saved game's frames (every hand open: a record holds the deal),
// stepped with the buttons or the arrow keys.
"use strict";
let game = null, step = 0;

function draw() {
  if (!game) return;
  const f = game.frames[step], v = f.view;
  const frame = { view: v, names: game.names, names_ko: game.names_ko, you: null };
  document.getElementById("title").textContent = t("replay");
  document.getElementById("lang").textContent = t("lang");
  for (const id of ["start", "prev", "fwd", "end"]) document.getElementById(id).textContent = t(id);
  document.getElementById("field-title").textContent = t("field");
  document.getElementById("log-title").textContent = t("log");
  document.getElementById("info").textContent = headerInfo(frame) + " · " + t("hands_open");
  document.getElementById("step").textContent = step + "/" + (game.frames.length - 1);
  const marks = eventMarks(f.events);
  const opp = document.getElementById("opponents");
  opp.replaceChildren();
  for (let q = 0; q < v.players; q++) opp.append(seatPanel(frame, q, marks, { hand: f.hands[q] }));
  const field = document.getElementById("field");
  field.replaceChildren();
  for (const group of v.field_groups) {  // a ppeok stack drawn as one pile
    const imgs = group.cards.map(c => cardImg(c, marks.flipped.has(c) ? "flash" : ""));
    if (group.stack) field.append(el("div", { class: "stack", "data-stack": String(group.month) }, ...imgs,
                                      el("div", { class: "stack-label", text: t("stack") })));
    else field.append(...imgs);
  }
  document.getElementById("stock").replaceChildren(backImg(), el("div", { text: t("stock") + " " + v.stock }));
  document.getElementById("flip").replaceChildren(...(v.flip_card ? [cardImg(v.flip_card, "flash")] : []));
  document.getElementById("prompt").textContent = f.decision == null ? "" : seatNames(frame)[f.seat] + ": " + f.decision;
  const log = document.getElementById("log");
  log.replaceChildren();
  for (let i = 0; i <= step; i++) logLines(log, game.frames[i].events, i === step, seatNames(frame));
  document.getElementById("report").textContent = f.outcome
    ? (LANG === "ko" && f.outcome.report_ko ? f.outcome.report_ko : f.outcome.report).join("\n") : "";
}
function go(to) { if (game) { step = Math.max(0, Math.min(game.frames.length - 1, to)); draw(); } }
async function load(i) {
  game = await (await fetch("/api/replay/" + i)).json(); step = 0; draw();
}
fetch("/api/presets").then(r => r.json()).then(d => { setCardNames(d.card_names_ko); draw(); });
fetch("/api/replay").then(r => r.json()).then(d => {
  const sel = document.getElementById("games");
  sel.replaceChildren(...d.games.map(g => el("option", { value: String(g.index),
    text: (g.index + 1) + ". " + g.rules + ", " + g.players + "p: " + g.result })));
  sel.addEventListener("change", () => load(Number(sel.value)));
  load(0);
});
document.getElementById("start").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(step - 1);
document.getElementById("fwd").onclick = () => go(step + 1);
document.getElementById("end").onclick = () => go(1e9);
document.addEventListener("keydown", e => { if (e.key === "ArrowRight") go(step + 1); if (e.key === "ArrowLeft") go(step - 1); });
document.getElementById("lang").addEventListener("click", () => { toggleLang(); draw(); });
