// The floor page: PIN, then every table live over one WebSocket; a sound while any call waits.
"use strict";
const S = JSON.parse(document.getElementById("strings").textContent);
let lang = localStorage.getItem("floorLang") || "ko";
let snap = null, snapAt = 0, ws = null, audio = null;
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
  if (snap && snap.tables.some((tb) => tb.calls.length)) beep();
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
    const data = JSON.parse(ev.data);
    if (data.t === "tables") { snap = data; snapAt = performance.now(); render(); }
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

function render() {
  if (!snap) return;
  setLink(!!snap.broker && ws !== null);
  const late = (performance.now() - snapAt) / 1000;
  const box = $("tables");
  box.replaceChildren();
  if (!snap.tables.length) box.append(el("p", { cls: "empty", text: t("no_tables") }));
  for (const tb of snap.tables) {
    const calls = tb.calls || [];
    const card = el("article", { cls: "table" + (calls.length ? " calling" : "") + (tb.online ? "" : " offline"),
      "data-testid": "table-" + tb.table });
    card.append(el("h2", {}, tb.table, el("small", { text: tb.online ? "" : t("offline") })));
    const game = tb.game ? (S.games[tb.game] && S.games[tb.game][lang]) || tb.game : t("free");
    card.append(el("div", { cls: "game", "data-testid": "game-" + tb.table, text: game }));
    const facts = [];
    if (tb.game) {
      const phase = tb.phase ? t("phase." + tb.phase) : "";
      if (phase && !phase.startsWith("phase.")) facts.push(phase);
      facts.push(t("players", { n: tb.players }));
      facts.push(t("game_time", { d: duration(tb.game_s === null ? null : tb.game_s + late) }));
    }
    if (tb.seated_s !== null) facts.push(t("seated", { d: duration(tb.seated_s + late) }));
    card.append(el("div", { cls: "facts", "data-testid": "facts-" + tb.table, text: facts.join(" · ") }));
    for (const c of calls) {
      const row = el("div", { cls: "call", "data-testid": "call-" + tb.table },
        el("span", { text: t("reason." + c.reason) }, el("em", { text: c.waiting_s + late < 60 ? t("just_now") : t("ago", { d: duration(c.waiting_s + late) }) })),
        el("button", { cls: "primary", "data-testid": "ack-" + tb.table + "-" + c.id, text: t("ack") }));
      row.querySelector("button").addEventListener("click", () => ack(tb.table, c.id));
      card.append(row);
    }
    if (tb.content && tb.content.state) {
      card.append(el("div", { cls: "tables-content", "data-testid": "content-" + tb.table,
        text: t("content_" + tb.content.state, { detail: tb.content.message || "" }) }));
    }
    box.append(card);
  }
  if (window.floorContent) window.floorContent.update(snap.content || {});
}
setInterval(render, 1000);

labels();
me();
