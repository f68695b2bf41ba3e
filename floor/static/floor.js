// The floor page: PIN, then every table live over one WebSocket; a sound while any call waits.
"use strict";
const S = JSON.parse(document.getElementById("strings").textContent);
let lang = localStorage.getItem("floorLang") || "ko";
// tables: id → {view, rx (performance.now() when its view came)}; cards: id → its element
const tables = new Map(), cards = new Map();
let link = { broker: false, content: {} }, ws = null, audio = null, order = "";
window.floorBeeps = 0;

function t(key, params) {
  let s = (S[lang] && S[lang][key]) || S.ko[key] || key;
  for (const [k, v] of Object.entries(params || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}
window.floorT = t;
const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else if (k === "cls") e.className = v; else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid) e.append(kid);
  return e;
}

function duration(sec) {
  if (sec === null || sec === undefined) return "–";
  const m = Math.floor(sec / 60), h = Math.floor(m / 60);
  return h ? t("hours", { h: h, m: m % 60 }) : t("minutes", { m: m });
}

function labels() {
  document.documentElement.lang = lang;
  $("title").textContent = t("title");
  $("pin-label").textContent = t("pin");
  $("login-go").textContent = t("login");
  $("csv").textContent = t("csv");
  $("csv").setAttribute("href", "/stats.csv?lang=" + lang);
  $("lang").textContent = t("other_lang");
  $("logout").textContent = t("logout");
  $("sound").textContent = t("sound_on");
  $("content-open").textContent = t("content_open");
  if (window.floorContent && !$("content").hidden) window.floorContent.labels();
  render();
}

// ---------------------------------------------------------------- login
async function me() {
  let r = null;
  try { r = await fetch("/me", { credentials: "same-origin", cache: "no-store" }); } catch (e) { r = null; }
  if (r && r.ok) start(); else if (r && r.status === 403) showLogin(); else setTimeout(me, 1000);
}
function showLogin() {
  $("login").hidden = false; $("tables").hidden = true; $("tools").hidden = true; $("content").hidden = true;
  $("branches").hidden = true;
  $("pin").value = ""; $("pin").focus();
}
$("login").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  unlockAudio();
  const r = await fetch("/login", { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pin: $("pin").value }) });
  const data = await r.json().catch(() => ({}));
  if (r.ok && data.ok) { $("login-error").textContent = ""; start(); return; }
  $("pin").value = "";
  $("login-error").textContent = data.locked ? t("locked", { n: data.locked }) : t("wrong_pin");
});
$("logout").addEventListener("click", async () => {
  await fetch("/logout", { method: "POST", credentials: "same-origin" });
  if (ws) { ws.onclose = null; ws.close(); ws = null; }
  showLogin();
});
$("lang").addEventListener("click", () => {
  lang = lang === "ko" ? "en" : "ko"; localStorage.setItem("floorLang", lang); labels();
});

// ---------------------------------------------------------------- sound
function unlockAudio() {
  try {
    if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
  } catch (e) { audio = null; }
  $("sound").hidden = !!audio && audio.state === "running";
}
$("sound").addEventListener("click", unlockAudio);
document.addEventListener("pointerdown", unlockAudio, { once: true });
function beep() {
  window.floorBeeps += 1;
  if (!audio || audio.state !== "running") { $("sound").hidden = false; return; }
  const now = audio.currentTime;
  for (const [i, f] of [[0, 880], [1, 660]]) {
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = f; o.type = "sine";
    g.gain.setValueAtTime(0.0001, now + i * 0.22);
    g.gain.exponentialRampToValueAtTime(0.4, now + i * 0.22 + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.22 + 0.2);
    o.connect(g).connect(audio.destination); o.start(now + i * 0.22); o.stop(now + i * 0.22 + 0.21);
  }
}
setInterval(() => {
  for (const { view } of tables.values()) if (view.calls.length) { beep(); return; }
}, 2000);

// ---------------------------------------------------------------- live tables
function start() {
  $("login").hidden = true; $("tables").hidden = false; $("tools").hidden = false;
  connect();
}
// The service or the network may go away (a restart, an update): retry for ever, a little slower each time;
// the session outlives a restart, so the page comes back by itself. Only a refused session shows the login.
let retries = 0;
function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { retries = 0; };
  ws.onmessage = (ev) => {
    const data = JSON.parse(ev.data), now = performance.now();
    if (data.t !== "tables" && data.t !== "diff") return;
    if (data.t === "tables") { tables.clear(); for (const card of cards.values()) card.remove(); cards.clear(); }
    const changed = [];
    for (const view of data.tables) { tables.set(view.table, { view: view, rx: now }); changed.push(view.table); }
    link = { broker: data.broker, content: data.content || {} };
    render(changed);
  };
  ws.onclose = () => { ws = null; setLink(false); later(); };
}
function later() { setTimeout(reconnect, Math.min(5000, 250 * 2 ** retries++)); }
async function reconnect() {
  let r = null;
  try { r = await fetch("/me", { credentials: "same-origin", cache: "no-store" }); } catch (e) { r = null; }
  if (r && r.ok) connect();
  else if (r && r.status === 403) showLogin();
  else later();
}
function setLink(up) {
  const link = $("link");
  link.textContent = ws === null ? t("service_down") : up ? t("broker_up") : t("broker_down");
  link.className = up ? "up" : "down";
}
function ack(table, call) {
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ t: "ack", table: table, call: call }));
}

// Calls first (the longest waiting at the top), then the other tables by name.
function waited(entry, now) {
  const calls = entry.view.calls;
  return calls.length ? Math.max(...calls.map((c) => c.waiting_s)) + (now - entry.rx) / 1000 : -1;
}
function clocks(entry, card, now) {
  const tb = entry.view, late = (now - entry.rx) / 1000, facts = [];
  if (tb.game) {
    const phase = tb.phase ? t("phase." + tb.phase) : "";
    if (phase && !phase.startsWith("phase.")) facts.push(phase);
    facts.push(t("players", { n: tb.players }));
    facts.push(t("game_time", { d: duration(tb.game_s === null ? null : tb.game_s + late) }));
  }
  if (tb.seated_s !== null) facts.push(t("seated", { d: duration(tb.seated_s + late) }));
  if (tb.dropped) facts.push(t("dropped", { n: tb.dropped }));
  card.querySelector(".facts").textContent = facts.join(" · ");
  card.querySelectorAll(".call em").forEach((em, i) => {
    const w = tb.calls[i].waiting_s + late;
    em.textContent = w < 60 ? t("just_now") : t("ago", { d: duration(w) });
  });
}
function card(tb) {
  const calls = tb.calls || [];
  const box = el("article", { cls: "table" + (calls.length ? " calling" : "") + (tb.online ? "" : " offline"),
    "data-testid": "table-" + tb.table });
  box.append(el("h2", {}, tb.table, el("small", { text: tb.online ? "" : t("offline") })));
  const game = tb.game ? (S.games[tb.game] && S.games[tb.game][lang]) || tb.game : t("free");
  box.append(el("div", { cls: "game", "data-testid": "game-" + tb.table, text: game }));
  box.append(el("div", { cls: "facts", "data-testid": "facts-" + tb.table }));
  for (const c of calls) {
    const row = el("div", { cls: "call", "data-testid": "call-" + tb.table, "data-call": c.id },
      el("span", { text: t("reason." + c.reason) }, el("em", {})),
      el("button", { cls: "primary", "data-testid": "ack-" + tb.table + "-" + c.id, text: t("ack") }));
    row.querySelector("button").addEventListener("click", () => ack(tb.table, c.id));
    box.append(row);
  }
  if (tb.content && tb.content.state) {
    box.append(el("div", { cls: "tables-content", "data-testid": "content-" + tb.table,
      text: t("content_" + tb.content.state, { detail: tb.content.message || "" }) }));
  }
  return box;
}
// Rebuild the cards of `changed` tables (all of them when not given), keep the rest, put them in order.
function render(changed) {
  setLink(!!link.broker && ws !== null);
  const box = $("tables"), now = performance.now();
  for (const id of changed || tables.keys()) {
    const entry = tables.get(id), old = cards.get(id), fresh = card(entry.view);
    clocks(entry, fresh, now);
    if (old) old.replaceWith(fresh); else box.append(fresh);
    cards.set(id, fresh);
  }
  const ids = [...tables.keys()].sort((a, b) => (waited(tables.get(b), now) - waited(tables.get(a), now)) ||
    (a < b ? -1 : a > b ? 1 : 0));
  const key = ids.map((id) => id + (tables.get(id).view.calls.length ? "!" : "")).join(",");
  if (key !== order) { order = key; for (const id of ids) box.append(cards.get(id)); }
  branches();
  let empty = box.querySelector(".empty");
  if (!tables.size && !empty) box.append(el("p", { cls: "empty", text: t("no_tables") }));
  if (tables.size && empty) empty.remove();
  if (window.floorContent) window.floorContent.update(link.content || {});
}
// A head office (tables keyed branch/table): one line per branch and one for them all.
function branches() {
  const sums = new Map();
  for (const [id, { view }] of tables) {
    if (!id.includes("/")) continue;
    for (const key of [id.split("/")[0], ""]) {
      const s = sums.get(key) || { n: 0, playing: 0, calls: 0 };
      s.n += 1; s.playing += view.game ? 1 : 0; s.calls += view.calls.length;
      sums.set(key, s);
    }
  }
  const box = $("branches");
  box.hidden = !sums.size;
  box.replaceChildren(...[...sums.keys()].sort((a, b) => (a === "") - (b === "") || (a < b ? -1 : 1)).map((key) =>
    el("span", { cls: "branch" + (sums.get(key).calls ? " calling" : ""), "data-testid": "branch-" + (key || "all"),
      text: t("branch_line", { branch: key || t("all_branches"), ...sums.get(key) }) })));
}
function tick() {
  const now = performance.now();
  for (const [id, entry] of tables) if (cards.has(id)) clocks(entry, cards.get(id), now);
}
setInterval(tick, 1000);

labels();
me();
