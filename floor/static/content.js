// The floor page's content form: a café's physical Watson & Holmes box → the case file (checked by the
// content loader on the floor box) → every tablet. The intro is uploaded as WAV or recorded here (the
// browser allows the microphone only on https or on this PC itself: localhost).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let recorded = null, rec = null;
  const section = $("content");

  function field(label, input) {
    const l = document.createElement("label");
    l.textContent = label; l.htmlFor = input.id;
    return [l, input];
  }
  function input(id, type, attrs) {
    const e = document.createElement(type === "select" ? "select" : "input");
    if (type !== "select") e.type = type;
    e.id = id; e.setAttribute("data-testid", id);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  function build() {
    section.replaceChildren();
    const h = document.createElement("h2"); h.id = "content-title"; section.append(h);
    const row = document.createElement("div"); row.className = "row";
    const number = input("case-number", "number", { min: 1, max: 999 });
    const diff = input("case-difficulty", "select");
    for (let i = 1; i <= 5; i++) diff.append(new Option(String(i), String(i)));
    const questions = input("case-questions", "number", { min: 1, max: 20, value: 3 });
    for (const [id, el] of [["l-number", number], ["l-difficulty", diff], ["l-questions", questions]]) {
      const box = document.createElement("div"); const [l, i] = field("", el); l.id = id; box.append(l, i); row.append(box);
    }
    section.append(row);
    for (const [id, lid] of [["case-title-ko", "l-title-ko"], ["case-title-en", "l-title-en"],
                             ["case-persons", "l-persons"], ["case-layout", "l-layout"]]) {
      const [l, i] = field("", input(id, "text")); l.id = lid; section.append(l, i);
    }
    const ll = document.createElement("label"); ll.id = "l-locations"; section.append(ll);
    const list = document.createElement("div"); list.id = "case-locations"; section.append(list);
    const add = document.createElement("button"); add.type = "button"; add.id = "add-location";
    add.setAttribute("data-testid", "add-location"); add.addEventListener("click", () => addLocation());
    section.append(add);
    const la = document.createElement("label"); la.id = "l-audio"; section.append(la);
    const audio = input("case-audio", "file", { accept: ".wav,audio/wav" }); section.append(audio);
    const recBox = document.createElement("div"); recBox.className = "row";
    const start = document.createElement("button"); start.type = "button"; start.id = "record-start";
    const stop = document.createElement("button"); stop.type = "button"; stop.id = "record-stop"; stop.disabled = true;
    const recState = document.createElement("span"); recState.id = "record-state";
    start.addEventListener("click", record); stop.addEventListener("click", stopRecording);
    recBox.append(start, stop, recState);
    recBox.hidden = !(navigator.mediaDevices && window.isSecureContext);
    section.append(recBox);
    const save = document.createElement("button"); save.type = "button"; save.id = "case-save"; save.className = "primary";
    save.setAttribute("data-testid", "case-save"); save.addEventListener("click", submit);
    const msg = document.createElement("p"); msg.id = "case-message"; msg.className = "message";
    msg.setAttribute("data-testid", "case-message");
    const items = document.createElement("p"); items.id = "case-items"; items.setAttribute("data-testid", "case-items");
    section.append(document.createElement("br"), save, msg, items);
    for (let i = 1; i <= 4; i++) addLocation();
  }
  function addLocation() {
    const list = $("case-locations"), n = list.children.length + 1;
    const row = document.createElement("div"); row.className = "row location";
    row.setAttribute("data-testid", "location-" + n);
    const num = input("loc-number-" + n, "number", { min: 1, max: 99, value: n });
    const ko = input("loc-ko-" + n, "text"); const en = input("loc-en-" + n, "text");
    ko.placeholder = window.floorT("content.name_ko"); en.placeholder = window.floorT("content.name_en");
    const flags = document.createElement("div");
    for (const f of ["no_police", "no_watson", "locked"]) {
      const lab = document.createElement("label"); const cb = input("loc-" + f + "-" + n, "checkbox");
      cb.dataset.flag = f; lab.append(cb, " " + window.floorT("content." + f)); flags.append(lab);
    }
    flags.className = "flags";
    row.append(num, ko, en, flags);
    list.append(row);
  }
  function labels() {
    if (!section.children.length) build();
    const t = window.floorT;
    $("content-title").textContent = t("content.title");
    for (const k of ["number", "difficulty", "questions", "title-ko", "title-en", "persons", "layout", "locations", "audio"])
      $("l-" + k).textContent = t("content." + k.replace("-", "_"));
    $("add-location").textContent = t("content.add_location");
    $("record-start").textContent = t("content.record");
    $("record-stop").textContent = t("content.stop");
    $("case-save").textContent = t("content.save");
  }
  function update(state) {
    if (!$("case-items")) return;
    const items = (state.items || []).map((i) => (i.title && i.title.ko) || i.id);
    $("case-items").textContent = items.length ? window.floorT("content.items", { list: items.join(", ") }) : "";
  }
  function collect() {
    const locations = [];
    for (const row of document.querySelectorAll("#case-locations .location")) {
      const inputs = row.querySelectorAll("input");
      const loc = { number: inputs[0].value, ko: inputs[1].value, en: inputs[2].value };
      for (const cb of row.querySelectorAll("input[type=checkbox]")) loc[cb.dataset.flag] = cb.checked;
      locations.push(loc);
    }
    return { number: $("case-number").value, difficulty: $("case-difficulty").value,
      questions: $("case-questions").value, title_ko: $("case-title-ko").value, title_en: $("case-title-en").value,
      persons: $("case-persons").value, layout: $("case-layout").value, locations: locations };
  }
  async function submit() {
    const form = new FormData();
    form.append("case", JSON.stringify(collect()));
    const file = $("case-audio").files[0];
    if (file) form.append("intro_audio", file, file.name);
    else if (recorded) form.append("intro_audio", recorded, "intro.wav");
    const msg = $("case-message");
    msg.className = "message"; msg.textContent = window.floorT("content.checking");
    const r = await fetch("/content", { method: "POST", body: form, credentials: "same-origin" });
    const data = await r.json().catch(() => ({ ok: false, errors: [String(r.status)] }));
    if (data.ok) { msg.className = "message good"; msg.textContent = window.floorT("content.saved", { id: data.id }); }
    else { msg.className = "message bad"; msg.textContent = window.floorT("content.refused") + "\n" + (data.errors || []).join("\n"); }
  }
  // ---- recording: PCM from the microphone, written as a 16-bit mono WAV
  async function record() {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const ctx = new AudioContext(); const src = ctx.createMediaStreamSource(stream);
    const proc = ctx.createScriptProcessor(4096, 1, 1); const chunks = [];
    proc.onaudioprocess = (e) => chunks.push(new Float32Array(e.inputBuffer.getChannelData(0)));
    src.connect(proc); proc.connect(ctx.destination);
    rec = { stream, ctx, proc, chunks };
    $("record-start").disabled = true; $("record-stop").disabled = false;
    $("record-state").textContent = window.floorT("content.recording");
  }
  function stopRecording() {
    if (!rec) return;
    rec.proc.disconnect(); rec.stream.getTracks().forEach((tr) => tr.stop());
    const n = rec.chunks.reduce((a, c) => a + c.length, 0), rate = rec.ctx.sampleRate;
    const buf = new DataView(new ArrayBuffer(44 + n * 2));
    const str = (o, s) => { for (let i = 0; i < s.length; i++) buf.setUint8(o + i, s.charCodeAt(i)); };
    str(0, "RIFF"); buf.setUint32(4, 36 + n * 2, true); str(8, "WAVEfmt "); buf.setUint32(16, 16, true);
    buf.setUint16(20, 1, true); buf.setUint16(22, 1, true); buf.setUint32(24, rate, true);
    buf.setUint32(28, rate * 2, true); buf.setUint16(32, 2, true); buf.setUint16(34, 16, true);
    str(36, "data"); buf.setUint32(40, n * 2, true);
    let o = 44;
    for (const c of rec.chunks) for (const v of c) { buf.setInt16(o, Math.max(-1, Math.min(1, v)) * 0x7fff, true); o += 2; }
    recorded = new Blob([buf], { type: "audio/wav" });
    rec.ctx.close(); rec = null;
    $("record-start").disabled = false; $("record-stop").disabled = true;
    $("record-state").textContent = window.floorT("content.recorded", { s: Math.round(n / rate) });
  }
  window.floorContent = { labels, update };
  const open = $("content-open");
  open.hidden = false;
  open.addEventListener("click", () => { section.hidden = !section.hidden; if (!section.hidden) labels(); });
})();
