// The lobby: rules preset, number of players (as the preset allows) and who
// holds every other seat (a bot, or a person with a link of their own).
"use strict";
let PRESETS = [], BOTS = [];

function drawLabels() {
  document.getElementById("title").textContent = t("title");
  document.getElementById("lang").textContent = t("lang");
  document.getElementById("lobby-title").textContent = t("lobby");
  document.getElementById("preset-label").textContent = t("preset");
  document.getElementById("players-label").textContent = t("count");
  document.getElementById("create").textContent = t("create");
  document.getElementById("replay-link").textContent = t("replay");
  const sel = document.getElementById("preset");
  for (const opt of sel.options) opt.textContent = presetWord(opt.value);
}

function drawPlayers() {
  const preset = PRESETS.find(p => p.name === document.getElementById("preset").value);
  const sel = document.getElementById("players"), keep = Number(sel.value) || 2;
  sel.replaceChildren(...preset.players.map(n => el("option", { value: String(n), text: String(n) })));
  sel.value = String(preset.players.includes(keep) ? keep : preset.players[0]);
  drawSeats();
}

function drawSeats() {
  const n = Number(document.getElementById("players").value);
  const box = document.getElementById("seats"), old = {};
  box.querySelectorAll("input").forEach(i => { old[i.dataset.seat] = i.value; });
  box.replaceChildren();
  for (let q = 1; q < n; q++) {
    box.append(el("label", { for: "seat" + q, text: t("seat") + " " + q + ": " + t("seat_hint") }),
               el("input", { id: "seat" + q, "data-seat": String(q), list: "bot-names",
                             value: old[q] || "greedy" }));
  }
}

async function create(e) {
  e.preventDefault();
  const n = Number(document.getElementById("players").value);
  const seats = [null];
  for (let q = 1; q < n; q++) {
    const v = document.getElementById("seat" + q).value.trim();
    seats.push(v === "" || v.toLowerCase() === "person" ? null : v);
  }
  const body = { rules: document.getElementById("preset").value, players: n, seats };
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify(body) });
  const d = await r.json();
  if (!r.ok) { document.getElementById("error").textContent = d.error; return; }
  const people = d.seats.filter(s => s.link);
  if (people.length === 1) { location.href = people[0].link; return; }
  const links = el("ul", { class: "links" });
  for (const s of people) {
    const url = location.origin + s.link;
    links.append(el("li", {}, t("seat") + " " + s.seat + ": ", el("a", { href: s.link, text: url }),
                    qrImage(s.qr)));
  }
  links.append(el("li", {}, t("watch") + ": ", el("a", { href: d.watch, text: location.origin + d.watch }),
                  qrImage(d.watch_qr)));
  document.getElementById("links").replaceChildren(el("h2", { text: t("seat_links") }), links);
}

fetch("/api/presets").then(r => r.json()).then(d => {
  PRESETS = d.presets; BOTS = d.bots;
  const sel = document.getElementById("preset");
  sel.replaceChildren(...PRESETS.map(p => el("option", { value: p.name, text: presetWord(p.name) })));
  // the value is what the server reads; in Korean the bot's Korean name goes beside it
  const ko = d.bot_names_ko || {};
  document.getElementById("bot-names").replaceChildren(
    ...BOTS.concat(["person"]).map(b => el("option", LANG === "ko" && ko[b.split(":")[0]]
      ? { value: b, label: ko[b.split(":")[0]] } : { value: b })));
  if (d.replay) document.getElementById("replay-link").style.display = "";
  drawPlayers(); drawLabels();
});
document.getElementById("preset").addEventListener("change", drawPlayers);
document.getElementById("players").addEventListener("change", drawSeats);
document.getElementById("lobby").addEventListener("submit", create);
document.getElementById("lang").addEventListener("click", () => { toggleLang(); drawLabels(); drawSeats(); });

// a seat's link as a QR code (drawn by the server), so that a phone joins by scanning
function qrImage(dataUri) {
  if (!dataUri) return "";
  return el("img", { class: "qr", alt: "QR", src: dataUri });
}
