// gostop web: labels (English / Korean) and the board renderer shared by the
// table and the replay.  Everything drawn comes from the state frame the
// server sent (a seat's PlayerView, or its public part).
"use strict";

const LABELS = {
  en: {
    title: "Go-Stop", lang: "한국어", field: "Field", hand: "Your hand", stock: "Stock",
    brights: "Brights", animals: "Animals", ribbons: "Ribbons", junk: "Junk",
    godori: "godori", hongdan: "hongdan", cheongdan: "cheongdan", chodan: "chodan",
    score: "score", points: "pts", go: "Go", stop: "Stop", shake: "Shake", bomb: "Bomb",
    fliponly: "Flip only", accept: "Receive the showdown", refuse: "Refuse",
    showdown: "Showdown with", nagari: "nagari", stake: "stake", shakes: "shakes",
    bombs: "bombs", ppeok: "ppeok", turn: "to move", you: "You", watching: "Watching (public view)",
    dealer: "dealer", hint: "Hint", next: "Next hand", download: "Download records",
    hand_no: "Hand", rules: "rules", players: "players", threshold: "Go/Stop at",
    choose_target: "Which field card does {card} take? Click it.",
    choose_flip: "The flipped {card}: which field card does it take? Click it.",
    your_turn: "Your turn: click a card in your hand.", wait: "Waiting for {name}…",
    over: "Hand over", log: "What happened", hint_title: "Every move, best first ({unit})",
    hint_wait: "Thinking…", seat_links: "Seat links", sits_out: "sits out", chips: "chips",
    ledger: "ledger", cards: "cards", month: "", flip_card: "flipped", played: "played",
    lobby: "New table", create: "Sit down", person: "a person (own link)",
    bot: "bot", seat_hint: "a bot, or \"person\" for someone joining with a link of their own", preset: "Rules", count: "Players", seat: "Seat", watch: "Watch link",
    brights_of: "brights", junk_to: "junk", replay: "Replay", prev: "◀ Back", fwd: "Next ▶",
    start: "◀◀ Start", end: "End ▶▶", game: "Game", hands_open: "every hand open (a record)",
    multipliers: "multipliers", none: "none", stop_value: "A Stop now pays",
    gone: "This table is no longer on the server.", refused: "The server refused this page's connection.",
    connected: "connected", disconnected: "away",
    unit_points: "points", unit_chips: "chips", unit_balance: "balance",
    no_token: "This link holds no seat or watch token: ask for your own link.",
    full: "This table admits no more watchers.", too_slow: "This page fell behind and was disconnected: reload it.",
    stack: "ppeok stack", baks: "at risk",
    bot_replaced: "plays greedy from now on", took_too_long: "took too long", failed: "failed", illegal_move: "chose an illegal move",
  },
  ko: {
    title: "고스톱", lang: "English", field: "바닥", hand: "내 패", stock: "더미",
    brights: "광", animals: "열끗", ribbons: "띠", junk: "피",
    godori: "고도리", hongdan: "홍단", cheongdan: "청단", chodan: "초단",
    score: "점수", points: "점", go: "고", stop: "스톱", shake: "흔들기", bomb: "폭탄",
    fliponly: "뒤집기만", accept: "쇼다운 받기", refuse: "거절",
    showdown: "쇼다운:", nagari: "나가리", stake: "판돈", shakes: "흔들기",
    bombs: "폭탄", ppeok: "뻑", turn: "차례", you: "나", watching: "관전 (공개 정보)",
    dealer: "선", hint: "훈수", next: "다음 판", download: "기보 받기",
    hand_no: "판", rules: "규칙", players: "명", threshold: "고/스톱",
    choose_target: "{card}(으)로 바닥의 어느 패를 먹을까요? 누르세요.",
    choose_flip: "뒤집은 {card}: 바닥의 어느 패를 먹을까요? 누르세요.",
    your_turn: "내 차례: 손패를 누르세요.", wait: "{name} 차례…",
    over: "판 끝", log: "진행", hint_title: "모든 수, 좋은 순 ({unit})",
    hint_wait: "생각 중…", seat_links: "자리 링크", sits_out: "광팔이", chips: "칩",
    ledger: "누계", cards: "장", month: "월", flip_card: "뒤집음", played: "낸 패",
    lobby: "새 판", create: "앉기", person: "사람 (링크)",
    bot: "봇", seat_hint: "봇, 또는 \"person\" (자기 링크로 앉는 사람)", preset: "규칙", count: "인원", seat: "자리", watch: "관전 링크",
    brights_of: "광", junk_to: "피", replay: "다시 보기", prev: "◀ 이전", fwd: "다음 ▶",
    start: "◀◀ 처음", end: "끝 ▶▶", game: "판", hands_open: "모든 패 공개 (기보)",
    multipliers: "배수", none: "없음", stop_value: "지금 스톱하면",
    gone: "이 판은 서버에 더 이상 없습니다.", refused: "서버가 이 연결을 거절했습니다.",
    connected: "접속 중", disconnected: "접속 끊김",
    unit_points: "점수", unit_chips: "칩", unit_balance: "잔액",
    no_token: "이 링크에는 자리나 관전 토큰이 없습니다. 자기 링크를 받으세요.",
    full: "이 판은 관전자를 더 받지 않습니다.", too_slow: "이 페이지가 뒤처져 연결이 끊겼습니다. 새로 고치세요.",
    stack: "뻑 더미", baks: "박 위험",
    bot_replaced: "이제부터 욕심쟁이 봇이 대신 둡니다", took_too_long: "시간 초과", failed: "오류", illegal_move: "규칙에 어긋난 수",
  },
};
const PRESET_WORDS = {
  en: { casual: "casual", traditional: "traditional (chips)", standard: "standard Matgo (chips)",
        family: "family (card points)" },
  ko: { casual: "캐주얼", traditional: "전통 (칩)", standard: "표준 맞고 (칩)", family: "가족 (끗수)" },
};

let LANG = localStorage.getItem("gostop-lang") || "en";
function t(key, args) {
  let s = (LABELS[LANG] && LABELS[LANG][key]) || LABELS.en[key] || key;
  for (const k in (args || {})) s = s.replace("{" + k + "}", args[k]);
  return s;
}
function toggleLang() {
  LANG = LANG === "en" ? "ko" : "en";
  localStorage.setItem("gostop-lang", LANG);
  document.documentElement.lang = LANG;
}
function presetWord(name) { return (PRESET_WORDS[LANG] || {})[name] || name; }

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const k in (attrs || {})) {
    if (k === "class") e.className = attrs[k];
    else if (k === "text") e.textContent = attrs[k];
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
    else e.setAttribute(k, attrs[k]);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}
// The Korean card names (송학 광, ...) come from the server's one table
// (gostop_core.korean, sent with /api/presets), written beside the codes in Korean.
let CARD_KO = {};
function setCardNames(names) { CARD_KO = names || {}; }
function cardLabel(code) {
  return LANG === "ko" && CARD_KO[code] ? code + "(" + CARD_KO[code] + ")" : code;
}
function cardImg(code, cls) {
  const title = LANG === "ko" && CARD_KO[code] ? code + " " + CARD_KO[code] : code;
  return el("img", { class: "card" + (cls ? " " + cls : ""),
                     src: "/cards/" + code + ".svg" + (LANG === "ko" ? "?lang=ko" : ""),
                     alt: code, title: title, "data-code": code });
}
// A card of the hand with its Korean name under it (Korean mode).
function namedCard(img, code) {
  if (LANG !== "ko" || !CARD_KO[code]) return img;
  return el("figure", { class: "named" }, img, el("figcaption", { text: CARD_KO[code] }));
}
function backImg() { return el("img", { class: "card back", src: "/cards/back.svg", alt: "?" }); }

function seatName(names, you, q) {
  return q === you ? t("you") + " (" + names[q] + ")" : names[q];
}

// Which cards just moved, for the highlight: captured by whom, stolen from whom.
function eventMarks(events) {
  const captured = new Set(), stolen = new Set(), flipped = new Set();
  for (const ev of events || []) {
    if (ev.kind === "captured" || ev.kind === "stack") ev.cards.forEach(c => captured.add(c));
    if (ev.kind === "stolen" && ev.card) stolen.add(ev.card);
    if (ev.kind === "flipped" && ev.card) flipped.add(ev.card);
  }
  return { captured, stolen, flipped };
}

// The multipliers in force for a seat and their total, and the baks it risks:
// worked out by the server (gostop_core.display), in both languages.
function multiplierText(s) {
  return LANG === "ko" ? s.multiplier.text_ko : s.multiplier.text;
}
function bakTexts(s) { return (s.baks || []).map(b => LANG === "ko" ? b.text_ko : b.text); }

function pileView(view, seat, marks, size) {
  const cap = view.seats[seat].captured;
  const piles = el("div", { class: "piles " + (size || "small") });
  for (const kind of ["brights", "animals", "ribbons", "junk"]) {
    const cards = el("div", { class: "cards" });
    for (const c of cap.piles[kind]) {
      const cls = marks.stolen.has(c) ? "stolen" : marks.captured.has(c) ? "flash" : "";
      cards.append(cardImg(c, cls));
    }
    const goal = cap.goals[kind];
    const label = el("div", { class: "label" }, t(kind) + " ",
                      el("b", { text: String(cap.counts[kind]) }),
                      view.family ? "" : "/" + goal,
                      cap.points[kind] ? " → " + cap.points[kind] : "");
    piles.append(el("div", { class: "pile", "data-pile": kind }, label, cards));
  }
  const sets = el("div", { class: "sets" });
  for (const st of cap.sets)
    sets.append(el("span", { class: st.have === st.of ? "done" : "", "data-set": st.name,
                             text: t(st.name) + " " + st.have + "/" + st.of }));
  if (!view.family) {  // family scoring counts card points, not these thresholds
    sets.append(el("span", { class: cap.bright_cards >= 3 ? "done" : "", "data-set": "brights",
                             text: t("brights_of") + " " + cap.bright_cards + "/3" }));
    sets.append(el("span", { class: cap.counts.junk >= cap.goals.junk ? "done" : "", "data-set": "junk",
                             text: t("junk_to") + " " + cap.counts.junk + "/" + cap.goals.junk }));
  }
  return el("div", {}, piles, sets);
}

// A seat's panel: name, score, Go, multipliers, hidden hand, captured piles.
function seatPanel(frame, seat, marks, opts) {
  const view = frame.view, s = view.seats[seat];
  const head = el("h2", {},
    el("span", { text: seatName(seatNames(frame), frame.you, seat) }),
    frame.connected ? el("span", { class: "link " + (frame.connected[seat] ? "on" : "off"),
                                   "data-connected": String(frame.connected[seat]),
                                   title: t(frame.connected[seat] ? "connected" : "disconnected"),
                                   text: frame.connected[seat] ? "●" : "○ " + t("disconnected") }) : null,
    seat === view.dealer ? el("span", { class: "whos", text: "(" + t("dealer") + ")" }) : null,
    el("span", { class: "score", "data-score": String(s.captured.score),
                 text: t("score") + " " + s.captured.score }),
    s.go ? el("span", { class: "go", text: t("go") + " ×" + s.go }) : null,
    s.chips ? el("span", { class: "whos", text: t("unit_" + (view.unit || "chips")) + " " + (s.chips > 0 ? "+" : "") + s.chips }) : null,
    s.sits_out ? el("span", { class: "whos", text: t("sits_out") }) : null,
    view.to_move === seat && view.phase !== "over" ? el("span", { class: "whos", text: "● " + t("turn") }) : null);
  const panel = el("div", { class: "panel seat" + (view.to_move === seat && view.phase !== "over" ? " turn" : ""),
                            "data-seat": String(seat) }, head);
  const extra = [];
  if (s.bombs) extra.push(t("bombs") + " " + s.bombs);
  if (s.ppeoks) extra.push(t("ppeok") + " " + s.ppeoks);
  if (view.unit === "chips" || extra.length)  // nothing multiplies a payment of points or balances
    panel.append(el("div", { class: "mults", "data-multipliers": String(s.multiplier.total),
                             text: (view.unit === "chips" ? t("multipliers") + ": " + multiplierText(s) : "")
                                   + (view.unit === "chips" && extra.length ? " · " : "") + extra.join(" · ") }));
  const baks = bakTexts(s);
  if (baks.length) panel.append(el("div", { class: "baks", "data-baks": s.baks.map(b => b.name).join(" "),
                                            text: baks.join(" · ") }));
  if (opts && opts.hand) {
    const h = el("div", { class: "cards small" });
    opts.hand.forEach(c => h.append(cardImg(c)));
    panel.append(h);
  } else if (!(opts && opts.noHand)) {
    const h = el("div", { class: "cards tiny", "data-hidden-hand": String(s.hand_count) });
    for (let i = 0; i < s.hand_count; i++) h.append(backImg());
    panel.append(h);
  }
  panel.append(pileView(view, seat, marks, "small"));
  return panel;
}

function headerInfo(frame) {
  const v = frame.view;
  const bits = [presetWord(v.rules), v.players + " " + t("players")];
  if (frame.hand_number) bits.push(t("hand_no") + " " + frame.hand_number);
  if (v.threshold) bits.push(t("threshold") + " " + v.threshold);
  if (v.stake_doublings) bits.push(t("nagari") + " ×" + (2 ** v.stake_doublings));
  return bits.join(" · ");
}

// An event in the page's language: the engine's English sentence, or Korean
// words for the common kinds (the rest keep the engine's sentence).
const KO_EVENTS = {
  played: (w, e) => w + " " + cardLabel(e.card) + " 냄", flipped: (w, e) => w + " " + cardLabel(e.card) + " 뒤집음",
  captured: (w, e) => w + " " + e.cards.join(" ") + " 먹음",
  stolen: (w, e, n) => w + ": " + n[e.other] + "에게서 " + cardLabel(e.card) + " 뺏음",
  bonus: (w, e) => w + " 보너스 " + e.card, drawn: (w) => w + " 한 장 더 받음",
  go: (w, e) => w + " 고 (" + e.other + ")", stop: (w) => w + " 스톱",
  bomb: (w, e) => w + " 폭탄 " + e.card + "월", shake: (w, e) => w + " 흔들기 " + e.card + "월",
  ppeok: (w, e) => w + " 뻑 (" + e.card + "월)", ttadak: (w, e) => w + " 따닥 (" + e.card + "월)",
  jjok: (w) => w + " 쪽", sseul: (w) => w + " 싹쓸이", draw: () => "나가리",
  chongtong: (w, e) => w + " 총통 (" + e.card + "월)",
};
function eventText(ev, names) {
  if (LANG !== "ko") return ev.text;
  const f = KO_EVENTS[ev.kind];
  if (!f || !names) return ev.text_ko || ev.text;  // the server's Korean (gostop_core.korean)
  return f(names[ev.player], ev, names);
}

// The seats' names in the language shown (the server sends both)
function seatNames(frame) {
  return LANG === "ko" && frame.names_ko ? frame.names_ko : frame.names;
}

function logLines(box, events, fresh, names) {
  if (fresh) for (const old of box.querySelectorAll("div.new")) old.classList.remove("new");
  for (const ev of events || []) {
    if (ev.kind === "turn_end") continue;
    const line = el("div", { class: fresh ? "new" : "", text: eventText(ev, names) });
    box.prepend(line);
  }
  while (box.childElementCount > 200) box.lastChild.remove();
}
