/* TableHost: a player's phone as their private screen. Shows exactly this seat's view, pushed live, and
   sends this seat's inputs. Everything is drawn with textContent (names are typed by guests).
   After a key exchange (fresh X25519 keys on both sides for each connection, the kiosk's committed to
   first) every message is sealed with TweetNaCl under a key made from that exchange and the seat's pass:
   the token in the QR code's fragment (never sent) and the device key the seat gave this phone; a typed
   code rides in a box under the exchange's key alone. The protocol: kiosk/phones/README.md. */
(function () {
  'use strict';
  var S = JSON.parse(document.getElementById('strings').textContent || '{}');
  var store = window.localStorage;
  var lang = (store && store.getItem('th_lang')) || 'ko';
  var ws = null, token = null, device = null, hello = null, lastHello = null, state = null;
  var tries = 0, timer = null, pingTimer = null, lastHeard = 0, everJoined = false, stopped = false;
  var paused = 0;  // the tablet paused the game (a restart, a recovery): refusals to wait out before giving up
  var pendingCode = null, pick = null, sending = false, netTimer = null, setup = null, asking = null;
  var chal = null, commit = null, pair = null, serverPk = null, shared = null, key = null, upN = 0, downN = 0;
  var enc = new TextEncoder(), dec = new TextDecoder();

  function $(id) { return document.getElementById(id); }
  function t(key, params) {
    var e = S[key], s = e ? (e[lang] || e.ko) : key;
    if (params) { Object.keys(params).forEach(function (n) { s = s.split('{' + n + '}').join(String(params[n])); }); }
    return s;
  }
  function L(x) {
    if (x && typeof x === 'object') { return x[lang] || x.ko || ''; }
    return x === null || x === undefined ? '' : String(x);
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } return node; }
  function show(node, on) { node.classList.toggle('hidden', !on); }
  function save(k, v) { try { if (v === null) { store.removeItem(k); } else { store.setItem(k, v); } } catch (e) { /* private mode */ } }
  function load(k) { try { return store.getItem(k); } catch (e) { return null; } }

  // ------------------------------------------------------------------ connection
  function readToken() {
    var m = /[#&]t=([A-Za-z0-9_-]{10,64})/.exec(location.hash || '');
    if (m) {
      if (m[1] !== load('th_token')) { save('th_device', null); }
      save('th_token', m[1]);
      history.replaceState(null, '', location.pathname);
    }
    token = load('th_token');
    device = load('th_device') || '';
  }

  // ------------------------------------------------------------------ sealing
  function b64e(u8) { var s = ''; for (var i = 0; i < u8.length; i++) { s += String.fromCharCode(u8[i]); } return btoa(s); }
  function b64d(s) { var b = atob(s), u = new Uint8Array(b.length); for (var i = 0; i < b.length; i++) { u[i] = b.charCodeAt(i); } return u; }
  function half(bytes) { return nacl.hash(bytes).subarray(0, 32); }
  function cat(list) {
    var n = 0, at = 0;
    list.forEach(function (u) { n += u.length; });
    var out = new Uint8Array(n);
    list.forEach(function (u) { out.set(u, at); at += u.length; });
    return out;
  }
  function same(a, b) { if (a.length !== b.length) { return false; } var d = 0; for (var i = 0; i < a.length; i++) { d |= a[i] ^ b[i]; } return d === 0; }
  // the seat's pass: SHA-512(token)[:32] and SHA-512(device key)[:32] (zeros for a phone new to the seat;
  // both zeros for a typed code)
  function passOf(tok, dev) {
    return cat([tok ? half(enc.encode(tok)) : new Uint8Array(32), dev ? half(enc.encode(dev)) : new Uint8Array(32)]);
  }
  function keyFor(pass) {
    return nacl.hash(cat([enc.encode('tablehost/2'), shared, pair.publicKey, serverPk, nacl.hash(enc.encode(chal)), pass])).subarray(0, 32);
  }
  function numberOf(k) {  // the four digits the tablet shows too (seal.number_of)
    var h = nacl.hash(cat([enc.encode('tablehost/number'), k]));
    var n = ((h[0] * 16777216) + (h[1] * 65536) + (h[2] * 256) + h[3]) % 10000;
    return ('000' + n).slice(-4);
  }
  function seal(m) {
    upN += 1;
    var n = nacl.randomBytes(24);
    var box = nacl.secretbox(enc.encode(JSON.stringify({ c: chal, i: upN, d: 'up', m: m })), n, key);
    var out = new Uint8Array(24 + box.length);
    out.set(n); out.set(box, 24);
    return b64e(out);
  }
  function unseal(text) {
    try {
      var u = b64d(text);
      var plain = nacl.secretbox.open(u.subarray(24), u.subarray(0, 24), key);
      if (!plain) { return null; }
      var o = JSON.parse(dec.decode(plain));
      if (o.d !== 'dn' || o.c !== chal || !(o.i > downN)) { return null; }
      downN = o.i;
      return o.m;
    } catch (e) { return null; }
  }
  function send(m) {
    if (ws && ws.readyState === 1 && key && (hello || asking)) { ws.send(JSON.stringify({ box: seal(m) })); return true; }
    return false;
  }
  function joinNow() {
    if (!ws || ws.readyState !== 1 || !shared || hello || asking) { return false; }
    if (token) {
      key = keyFor(passOf(token, device));
      ws.send(JSON.stringify({ t: 'join', via: 'qr', box: seal({ t: 'join' }) }));
    } else if (pendingCode) {
      key = keyFor(passOf('', ''));
      ws.send(JSON.stringify({ t: 'join', via: 'code', box: seal({ t: 'join', code: pendingCode }) }));
    } else { return false; }
    return true;
  }

  function net(text, ok) {
    var n = $('net');
    clearTimeout(netTimer);
    if (!text) { show(n, false); return; }
    n.textContent = text;
    n.classList.toggle('ok', !!ok);
    show(n, true);
    if (ok) { netTimer = setTimeout(function () { show(n, false); }, 2500); }
  }

  function message(text) {
    var m = $('msg');
    if (!text) { show(m, false); return; }
    m.textContent = text;
    show(m, true);
  }

  function connect() {
    clearTimeout(timer);
    if (stopped || ws || !(token || pendingCode)) { return; }  // nothing to join with: no socket
    var proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    try { ws = new WebSocket(proto + '//' + location.host + '/ws'); } catch (e) { ws = null; retry(); return; }
    if (!everJoined) { render(); }
    ws.onopen = function () { lastHeard = Date.now(); };  // the server greets first
    ws.onmessage = function (ev) {
      lastHeard = Date.now();
      var m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m && m.t === 'hi') {  // a fresh key pair for this connection; the kiosk's comes after ours
        chal = m.c; commit = m.h; serverPk = null; shared = null; key = null; upN = 0; downN = 0;
        pair = nacl.box.keyPair();
        ws.send(JSON.stringify({ t: 'key', pk: b64e(pair.publicKey) }));
        return;
      }
      if (m && m.t === 'key' && !shared) {
        var pk = b64d(String(m.pk || ''));
        if (pk.length !== 32 || !same(half(pk), b64d(String(commit || '')))) { ws.close(); return; }  // not the key it committed to
        serverPk = pk;
        shared = nacl.box.before(serverPk, pair.secretKey);
        pair.secretKey.fill(0);
        if (!joinNow()) { net('', false); showJoin(''); }
        return;
      }
      if (m && typeof m.box === 'string') {
        if (!key) { return; }
        m = unseal(m.box);
        if (!m) { return; }  // not for this connection: ignored
      }
      handle(m);
    };
    ws.onclose = function () {
      ws = null; hello = null; asking = null; sending = false; key = null; chal = null; shared = null;
      drawWho();
      if (stopped || !(token || pendingCode)) { return; }
      net(paused ? '' : t('lost'), false);
      render();
      retry();
    };
    ws.onerror = function () { /* onclose follows */ };
  }

  function retry() {
    tries += 1;
    var delay = Math.min(8000, 500 * Math.pow(2, Math.min(tries, 4))) + Math.floor(Math.random() * 300);
    clearTimeout(timer);
    timer = setTimeout(connect, delay);
  }

  function keepAlive() {
    clearInterval(pingTimer);
    pingTimer = setInterval(function () {
      if (!ws || ws.readyState !== 1) { return; }
      if (Date.now() - lastHeard > 25000) { ws.close(); return; }
      if (!send({ t: 'ping' })) { ws.send(JSON.stringify({ t: 'ping' })); }
    }, 8000);
  }

  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible' && !ws && !stopped) { tries = 0; connect(); }
  });
  window.addEventListener('online', function () { if (!ws && !stopped) { tries = 0; connect(); } });

  function handle(m) {
    if (m.t === 'hello') {
      hello = m; lastHello = m; asking = null; paused = 0; token = m.token; device = m.device; tries = 0; pendingCode = null;
      save('th_token', token); save('th_device', device);
      show($('join'), false);
      net(everJoined ? t('back') : '', true);
      everJoined = true;
      message('');
      render();
    } else if (m.t === 'asking') {  // a phone new to the seat: the tablet asks its owner, with our digits
      asking = { name: m.name, seat: m.seat, number: numberOf(key) };
      net('', false); message('');
      show($('join'), false);
      render();
    } else if (m.t === 'setup') {
      state = null; setup = m;
      if (hello) { hello.name = m.name; lastHello = hello; }
      drawSetup();
    } else if (m.t === 'state') {
      state = m; setup = null;
      document.body.setAttribute('data-v', String(m.v));  // which push is on screen (tests read it)
      if (pick) { pick = rematch(pick, m); }
      Object.keys(cascade).forEach(function (g) {
        if (!(m.actions || []).some(function (e) { return e.group === g; })) { delete cascade[g]; }
      });
      render();
    } else if (m.t === 'done') {
      sending = false; pick = null;
      message('');
      net(t('sent'), true);
      render();
    } else if (m.t === 'error') {
      sending = false;
      if (!shared && m.code === 'rate_limited' && ws) { ws.close(); return; }  // no key yet: try again later
      if (!hello && !asking && m.code === 'bad_token' && token && paused > 0) {
        paused -= 1; key = null;  // the game is not back yet: keep the pass, try again a little later
        if (ws) { ws.close(); }
        return;
      }
      if (!hello && !asking && m.code === 'bad_token' && token && device) {
        device = ''; save('th_device', null);  // a device key the seat no longer knows: ask as a new phone
        key = null; joinNow();
        return;
      }
      if (!hello && !asking) {  // the join was refused: the key was not taken, and it says why once
        key = null; net('', false); message('');
        if (m.code === 'bad_token') { save('th_token', null); save('th_device', null); token = null; }
        pendingCode = null;
        showJoin(L(m));
      } else { message(L(m)); }
      render();
    } else if (m.t === 'bye') {
      paused = m.code === 'paused' ? 12 : 0;  // the phone comes back by itself once the game does
      stopped = m.code !== 'flood' && m.code !== 'paused';
      hello = null; asking = null; state = null; pick = null; setup = null;
      show($('setup'), false);
      var gone = m.code === 'revoked' || m.code === 'reissued' || m.code === 'ended' || m.code === 'declined';
      if (gone) { save('th_token', null); save('th_device', null); token = null; device = ''; }
      net('', false);
      message(gone || paused ? '' : L(m));  // paused: the wait line says it
      render();
      if (gone) { showJoin(L(m)); }
      if (m.code === 'flood') { retry(); }
    } else if (m.t === 'nudge') {
      var mine = $('mine');
      mine.classList.remove('nudge'); void mine.offsetWidth; mine.classList.add('nudge');
      if (navigator.vibrate) { try { navigator.vibrate(150); } catch (e) { /* not allowed */ } }
    }
  }

  // ------------------------------------------------------------------ joining by code
  function showJoin(why) {
    $('join_title').textContent = t('join_title');
    $('join_hint').textContent = why || t('join_hint');
    $('join_go').textContent = t('join_go');
    show($('join'), true);
    show($('mine'), false); show($('acts'), false); show($('all'), false); show($('wait'), false);
  }
  $('join_go').addEventListener('click', function () {
    var code = $('code').value.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
    if (code.length < 4) { message(t('code_short')); return; }
    pendingCode = code; token = null; stopped = false; message('');
    save('th_device', null); device = '';
    if (!joinNow()) { tries = 0; connect(); }
  });

  // ------------------------------------------------------------------ set-up: the player's own name
  function drawSetup() {
    drawWho();
    drawWait(t('wait_start'));
    $('setup_title').textContent = t('setup_title');
    $('setup_hint').textContent = t('setup_hint');
    $('setup_save').textContent = t('setup_save');
    var input = $('setup_name');
    input.maxLength = setup.max || 12;
    if (document.activeElement !== input) { input.value = setup.name; }
    show($('setup'), true);
    show($('join'), false); show($('mine'), false); show($('acts'), false); show($('all'), false);
  }
  function saveName() {
    var name = $('setup_name').value.trim();
    if (!name) { message(t('setup_empty')); return; }
    message('');
    if (!send({ t: 'name', name: name })) { message(t('lost')); }
    $('setup_name').blur();
  }
  $('setup_save').addEventListener('click', saveName);
  $('setup_name').addEventListener('keydown', function (ev) { if (ev.key === 'Enter') { saveName(); } });

  // ------------------------------------------------------------------ drawing the view
  function drawWho() {
    var who = clear($('who'));
    var dot = el('span', 'dot' + (hello ? ' on' : ''));
    who.appendChild(dot);
    var h = hello || asking || (state ? lastHello : null);
    if (h) { who.appendChild(document.createTextNode(t('seat_of', { name: h.name, n: h.seat + 1 }))); }
    else { who.appendChild(document.createTextNode(t('title'))); }
    $('lang').textContent = t('lang_other');
  }
  $('lang').addEventListener('click', function () {
    lang = lang === 'ko' ? 'en' : 'ko';
    save('th_lang', lang);
    document.documentElement.lang = lang;
    drawWho(); render();
    if (!$('join').classList.contains('hidden')) { showJoin(''); }
    if (setup) { drawSetup(); }
  });

  // ------------------------------------------------------------------ the table at a glance
  // From the view's typed shared part only (players, prompts, scores): who the game waits for and the
  // score. Everything else public is on the tablet in front of everyone.
  // What the phone is waiting for, always in words at the top (never a blank page): the tablet's OK,
  // the game's start, the player's own turn, other players by name, the table, the next step.
  function drawWait(line, number) {
    var w = clear($('wait'));
    if (!line) { show(w, false); return; }
    w.appendChild(el('div', 'big-line', line));
    if (number) {
      w.appendChild(el('div', 'number', number.split('').join(' ')));
      w.appendChild(el('div', 'muted', t('wait_number')));
    }
    show(w, true);
  }
  function turnLine() {
    var c = (state.view && state.view.common) || {}, players = c.players || [], me = state.seat;
    var nameAt = function (s) { var p = players.filter(function (x) { return x.seat === s; })[0]; return p ? p.name : ''; };
    var waits = [], tableWaits = false;
    (c.prompts || []).forEach(function (p) {
      if (p.seat < 0) { tableWaits = true; } else if (waits.indexOf(p.seat) < 0) { waits.push(p.seat); }
    });
    if (state.over) { return t('wait_over'); }
    if (waits.indexOf(me) >= 0) { return waits.length > 1 ? t('turn_me_too', { names: waits.filter(function (s) { return s !== me; }).map(nameAt).join(', ') }) : t('turn_me'); }
    if (waits.length) { return t('wait_turn_of', { names: waits.map(nameAt).join(', ') }); }
    if (tableWaits) { return t('turn_table'); }
    return (state.actions || []).length ? t('turn_can') : t('wait_next');
  }
  function drawTable(box) {
    var c = (state.view && state.view.common) || {}, players = c.players || [], me = state.seat;
    var scores = c.scores || [];
    if (!(scores.length === players.length && players.length)) { return false; }
    box.appendChild(el('h3', '', t('scores_title')));
    var chips = el('div', 'chips');
    players.forEach(function (p, i) {
      chips.appendChild(el('span', 'chip' + (p.seat === me ? ' me' : ''), p.name + ' ' + scores[i]));
    });
    box.appendChild(chips);
    return true;
  }

  // ------------------------------------------------------------------ the seat's private part
  // Display parts the engine declares for this seat (engines/parts.py: Card, Items, Reveal), every text
  // already in both languages: drawn by kind, knowing no game.
  function lines(box, list) { (list || []).forEach(function (w) { box.appendChild(el('div', 'small text', L(w))); }); }
  function drawCard(p) {
    var c = el('div', 'card' + (p.tone === 'secret' ? ' joker' : ''));
    c.appendChild(el('div', 'kicker', L(p.label)));
    c.appendChild(el('div', 'big', L(p.title)));
    lines(c, p.lines);
    return c;
  }
  function drawList(p) {
    var box = el('div', 'panel');
    box.appendChild(el('h2', '', L(p.label)));
    if ((p.items || []).length) {
      var chips = el('div', 'chips');
      p.items.forEach(function (w) { chips.appendChild(el('span', 'chip', L(w))); });
      box.appendChild(chips);
    }
    (p.cards || []).forEach(function (c) {
      var sub = el('div', 'sub');
      sub.appendChild(el('h3', '', (L(c.label) ? L(c.label) + ' · ' : '') + L(c.title)));
      lines(sub, c.lines);
      box.appendChild(sub);
    });
    return box;
  }
  function drawReveal(p) {  // covered until held down: a neighbour's glance catches nothing
    var box = el('div', 'reveal');
    var inner = drawCard({ label: p.label, title: p.title, lines: p.lines, tone: 'secret' });
    var hold = el('button', 'hold', t('hold_to_see'));
    hold.type = 'button';
    hold.setAttribute('data-testid', 'reveal-hold');
    inner.classList.add('covered');
    function on(ev) { if (ev) { ev.preventDefault(); } inner.classList.remove('covered'); }
    function off() { inner.classList.add('covered'); }
    hold.addEventListener('pointerdown', on);
    ['pointerup', 'pointerleave', 'pointercancel', 'blur'].forEach(function (n) { hold.addEventListener(n, off); });
    hold.addEventListener('contextmenu', function (ev) { ev.preventDefault(); });
    box.appendChild(inner);
    box.appendChild(hold);
    return box;
  }
  var PARTS = { card: drawCard, list: drawList, reveal: drawReveal };
  function drawPart(p) {
    var f = PARTS[p && p.kind];
    if (f) { return f(p); }
    var box = el('div', 'panel');  // a kind this page does not know yet: its words, plainly
    box.appendChild(el('h2', '', L(p && p.label)));
    if (p && p.title) { box.appendChild(el('div', 'text', L(p.title))); }
    lines(box, p && p.lines);
    return box;
  }

  function render() {
    drawWho();
    var mine = $('mine'), acts = $('acts'), all = $('all');
    if (asking) { drawWait(t('wait_tablet'), asking.number); }
    else if (setup) { drawWait(t('wait_start')); }
    else if (state) { drawWait(turnLine()); }
    else if (hello) { drawWait(t('wait_start')); }
    else if (paused) { drawWait(t('wait_paused')); }
    else if (ws && (token || pendingCode)) { drawWait(t('connecting')); }
    else if (!everJoined) { drawWait(''); }
    if (!state || asking) { show(mine, false); show(acts, false); show(all, false); return; }
    show($('join'), false); show($('setup'), false);
    clear(mine);
    var head = el('div', 'panel secret');
    head.appendChild(el('h2', '', t('mine_title')));
    var parts = state.mine || [];
    if (!parts.length) { head.appendChild(el('div', 'muted', t('mine_none'))); }
    parts.forEach(function (p) { head.appendChild(drawPart(p)); });
    if (state.over) { head.appendChild(el('div', 'muted', t('over'))); }
    mine.appendChild(head);
    show(mine, true);
    drawActions(clear(acts));
    show(acts, true);
    var body = clear($('all_body'));
    $('all_title').textContent = t('table_title');
    show(all, drawTable(body));
  }

  // ------------------------------------------------------------------ inputs
  function groupsOf(entries) {
    var order = [], by = {};
    entries.forEach(function (e) {
      if (!by[e.group]) { by[e.group] = []; order.push(e.group); }
      by[e.group].push(e);
    });
    return order.map(function (g) { return by[g]; });
  }

  function varying(entries) {
    if (entries.length < 2) { return []; }
    var fields = [];
    entries[0].parts.forEach(function (p, i) {
      if (entries.some(function (e) { return !e.parts[i] || e.parts[i].k !== p.k; })) { fields.push(i); }
    });
    return fields;
  }

  function button(text, cls, testid, fn) {
    var b = el('button', cls || '', text);
    b.type = 'button';
    if (testid) { b.setAttribute('data-testid', testid); }
    b.disabled = sending || (!hello && cls !== 'ghost');
    b.addEventListener('click', fn);
    return b;
  }

  function drawActions(box) {
    var entries = state.actions || [];
    box.appendChild(el('h2', 'actions-title', t('actions_title')));
    if (!entries.length) { box.appendChild(el('div', 'panel muted', state.over ? t('over') : t('nothing'))); return; }
    if (!hello) { box.appendChild(el('div', 'muted', t('offline'))); }
    if (pick) { drawConfirm(box); return; }
    groupsOf(entries).forEach(function (group) {
      var panel = el('div', 'panel');
      var g = group[0];
      panel.appendChild(el('h2', '', L(g.glabel)));
      var vary = varying(group);
      if (g.free && g.free.length) {
        drawForm(panel, g);
      } else if (group.length === 1) {
        g.parts.forEach(function (p) { panel.appendChild(el('div', 'muted', L(p.flabel) + ': ' + L(p.label))); });
        panel.appendChild(button(L(g.glabel), 'primary', 'act-' + g.group, function () { choose(g, L(g.glabel)); }));
      } else if (vary.length <= 1) {
        group.forEach(function (e) {
          var label = vary.length ? L(e.parts[vary[0]].label) : L(e.glabel);
          panel.appendChild(button(label, '', 'act-' + e.group + '-' + (vary.length ? e.parts[vary[0]].k : e.id), function () {
            choose(e, L(e.glabel) + ': ' + label);
          }));
        });
      } else {
        drawCascade(panel, group, vary);
      }
      box.appendChild(panel);
    });
  }

  var cascade = {};
  function drawCascade(panel, group, vary) {
    var name = group[0].group;
    var chosen = cascade[name] || (cascade[name] = {});
    var left = group.filter(function (e) {
      return vary.every(function (i) { return chosen[i] === undefined || e.parts[i].k === chosen[i]; });
    });
    var next = vary.filter(function (i) { return chosen[i] === undefined; })[0];
    vary.forEach(function (i) {
      if (chosen[i] !== undefined) {
        var e0 = left[0] || group[0];
        panel.appendChild(el('div', 'muted', L(e0.parts[i].flabel) + ': ' + L(e0.parts[i].label)));
      }
    });
    if (next === undefined || left.length === 1) {
      var e = left[0];
      if (e) {
        var words = vary.map(function (i) { return L(e.parts[i].label); }).join(' · ');
        panel.appendChild(button(t('next'), 'primary', 'act-' + name + '-go', function () { choose(e, L(e.glabel) + ': ' + words); }));
      }
    } else {
      panel.appendChild(el('div', '', L(left[0].parts[next].flabel)));
      var seen = {};
      left.forEach(function (e) {
        var p = e.parts[next];
        if (seen[p.k]) { return; }
        seen[p.k] = true;
        panel.appendChild(button(L(p.label), '', 'act-' + name + '-' + p.field + '-' + p.k, function () {
          chosen[next] = p.k; render();
        }));
      });
    }
    if (Object.keys(chosen).length) {
      panel.appendChild(button(t('start_over'), 'ghost', 'act-' + name + '-reset', function () { cascade[name] = {}; render(); }));
    }
  }

  function drawForm(panel, e) {
    var inputs = [];
    e.parts.forEach(function (p) { panel.appendChild(el('div', 'muted', L(p.flabel) + ': ' + L(p.label))); });
    e.free.forEach(function (spec) {
      var n = spec.count === null ? 1 : spec.count;
      for (var i = 0; i < n; i++) {
        panel.appendChild(el('div', '', L(spec.flabel) + (spec.count === null ? '' : ' ' + (i + 1))));
        var input = el('input');
        input.maxLength = 200;
        input.setAttribute('data-testid', 'free-' + e.group + '-' + spec.field + '-' + i);
        panel.appendChild(input);
        inputs.push({ field: spec.field, list: spec.count !== null, input: input });
      }
    });
    panel.appendChild(button(t('next'), 'primary', 'act-' + e.group + '-go', function () {
      var free = {};
      inputs.forEach(function (x) {
        var v = x.input.value.trim();
        if (x.list) { (free[x.field] = free[x.field] || []).push(v); } else { free[x.field] = v; }
      });
      choose(e, L(e.glabel), free);
    }));
  }

  function sig(e) { return e.group + '|' + e.parts.map(function (p) { return p.field + '=' + L(p.label); }).join('|'); }

  // A new state came while the guest was confirming: keep the choice if it is still offered.
  function rematch(p, m) {
    var want = sig(p.entry);
    var same = (m.actions || []).filter(function (e) { return sig(e) === want; })[0];
    if (!same) { return null; }
    p.entry = same; p.version = m.v;
    return p;
  }

  // Only an action the engine marks FINAL asks before it is sent (as on the tablet and by voice).
  function choose(entry, what, free) {
    message('');
    if (!entry.final) { submit(entry, free || null, state.v, false); return; }
    pick = { entry: entry, what: what, free: free || null, version: state.v };
    render();
  }

  // `confirmed`: the guest said yes to a FINAL action here (the table applies a FINAL action only then).
  function submit(entry, free, version, confirmed) {
    if (sending) { return; }
    var m = { t: 'act', v: version, id: entry.id };
    if (free) { m.free = free; }
    if (confirmed) { m.confirmed = true; }
    if (send(m)) { sending = true; cascade = {}; render(); } else { message(t('lost')); }
  }

  function drawConfirm(box) {
    var c = el('div', 'confirm');
    c.appendChild(el('div', 'what', pick.what));
    if (pick.free) {
      Object.keys(pick.free).forEach(function (k) {
        var v = pick.free[k];
        c.appendChild(el('div', 'text', Array.isArray(v) ? v.join(' / ') : v));
      });
    }
    c.appendChild(el('div', 'muted', t('confirm_hint')));
    c.appendChild(button(sending ? t('sending') : t('send'), 'primary', 'send', function () {
      submit(pick.entry, pick.free, pick.version, true);
    }));
    c.appendChild(button(t('cancel'), 'ghost', 'cancel', function () { pick = null; render(); }));
    box.appendChild(c);
  }

  // ------------------------------------------------------------------ start
  document.documentElement.lang = lang;
  readToken();
  drawWho();
  keepAlive();
  if (token) { connect(); } else { showJoin(''); }  // without a code there is nothing to connect for
}());
