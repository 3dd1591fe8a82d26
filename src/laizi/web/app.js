// laizi web client: lobby, room, table, chat, replay. Talks JSON over one WebSocket.
"use strict";
const S = {
  ws: null, token: localStorage.getItem("laizi.token"), pid: null, nick: localStorage.getItem("laizi.nick") || "",
  room: null, seat: null, v: 0, view: null, events: [], deadlineAt: null, seq: 0, phrases: {},
  botLevels: [], retry: 0, wantRoom: null, wantSpectate: false, lastHandShown: null, hints: false, hintsData: null,
};
const $ = id => document.getElementById(id);
const WINDS = () => t("winds");

function showError(msg) {
  const e = $("error"); e.textContent = msg; e.classList.remove("hidden");
  clearTimeout(showError.timer); showError.timer = setTimeout(() => e.classList.add("hidden"), 5000);
}
function show(section) {
  for (const id of ["lobby", "roomview", "game", "replay"]) $(id).classList.toggle("hidden", id !== section);
}

// ------------------------------------------------------------------ connection
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  S.ws = ws;
  $("conn").textContent = t("reconnecting");
  ws.onopen = () => {
    S.retry = 0;
    $("conn").textContent = t("connected");
    const hello = { type: "hello" };
    if (S.token) hello.token = S.token;
    if (S.nick) hello.nickname = S.nick;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = ev => { let m; try { m = JSON.parse(ev.data); } catch (e) { return; } onMessage(m); };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    $("conn").textContent = t("reconnecting");
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(connect, 300 * S.retry);
  };
}
function send(msg) {
  if (!S.ws || S.ws.readyState !== 1) { showError(t("reconnecting")); return false; }
  S.ws.send(JSON.stringify(msg)); return true;
}
function seqKey() { return `laizi.seq.${S.room && S.room.code}.${S.pid}`; }
function nextSeq() {
  S.seq = Math.max(S.seq, +(localStorage.getItem(seqKey()) || 0)) + 1;
  localStorage.setItem(seqKey(), String(S.seq));
  return S.seq;
}
function act(action) {
  send({ type: "action", seq: nextSeq(), action, version: S.v });
}

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      S.token = m.token; S.pid = m.player_id; S.nick = m.nickname; S.botLevels = m.bot_levels || []; S.phrases = m.phrases || {};
      localStorage.setItem("laizi.token", m.token); localStorage.setItem("laizi.nick", m.nickname);
      $("nick").value = m.nickname; $("me").textContent = m.nickname;
      fillBotLevels(); renderPhrases();
      if (S.wantRoom) send({ type: "join", room: S.wantRoom, spectate: S.wantSpectate });
      break;
    case "joined":
      S.room = m.room; S.seat = m.seat; S.wantRoom = m.room.code; S.v = 0; S.events = [];
      localStorage.setItem("laizi.room", m.room.code);
      if (location.pathname !== `/room/${m.room.code}`) history.replaceState(null, "", `/room/${m.room.code}`);
      $("chatlog").innerHTML = ""; (m.chat || []).forEach(addChat);
      renderRoom();
      break;
    case "room": S.room = m.room; renderRoom(); break;
    case "update": case "snapshot": onFrame(m); break;
    case "ack": if (m.seq > S.seq) S.seq = m.seq; break;
    case "chat": addChat(m); break;
    case "left":
      S.room = null; S.view = null; S.wantRoom = null; localStorage.removeItem("laizi.room");
      history.replaceState(null, "", "/"); show("lobby"); loadRooms(); break;
    case "error": onError(m); break;
    case "pong": break;
  }
}
function onError(m) {
  if (m.code === "unknown_room") { S.wantRoom = null; localStorage.removeItem("laizi.room"); history.replaceState(null, "", "/"); show("lobby"); }
  if (m.code === "stale_seq") { const last = /last applied (\d+)/.exec(m.message); if (last) { S.seq = +last[1]; localStorage.setItem(seqKey(), last[1]); } }
  showError(`${m.code}: ${m.message}`);
}

// ------------------------------------------------------------------ lobby
async function loadPresets() {
  try {
    const d = await (await fetch("/api/presets")).json();
    const sel = $("c-preset"); sel.innerHTML = "";
    for (const p of d.presets) sel.add(new Option(p, p));
    S.botLevels = d.bot_levels || S.botLevels; fillBotLevels();
  } catch (e) { /* offline */ }
}
async function loadRooms() {
  try {
    const d = await (await fetch("/api/rooms")).json();
    const box = $("roomlist");
    if (!d.rooms.length) { box.textContent = t("no_rooms"); return; }
    box.innerHTML = d.rooms.map(r => `<div class="row"><b>${r.code}</b> ${escapeHtml(r.preset)} · ${r.status}
      · ${r.players.map(p => escapeHtml(p || "—")).join(", ")}
      <button onclick="joinCode('${r.code}',false)">${t("join")}</button>
      <button onclick="joinCode('${r.code}',true)">${t("spectate")}</button>
      ${r.match_id ? `<a href="/replay/${r.match_id}">${t("replay")}</a>` : ""}</div>`).join("");
  } catch (e) { /* ignore */ }
}
function fillBotLevels() {
  const sel = $("botlevel"); const cur = sel.value; sel.innerHTML = "";
  for (const l of S.botLevels) sel.add(new Option(l, l));
  if (cur) sel.value = cur; else if (S.botLevels.includes("greedy")) sel.value = "greedy";
}
function saveNick() {
  const n = $("nick").value.trim(); if (!n) return;
  S.nick = n; localStorage.setItem("laizi.nick", n); send({ type: "hello", token: S.token, nickname: n });
}
function createRoom() {
  let options = {};
  const raw = $("c-options").value.trim();
  if (raw) { try { options = JSON.parse(raw); } catch (e) { showError("options: " + e.message); return; } }
  const settings = { preset: $("c-preset").value || "kaikoufan", rounds: +$("c-rounds").value || 1,
    claim_seconds: +$("c-claim").value || 8, turn_seconds: +$("c-turn").value || 20, options };
  send({ type: "create", settings });
}
function joinCode(code, spectate) { S.wantRoom = code; S.wantSpectate = spectate; send({ type: "join", room: code, spectate }); }
function joinRoom(spectate) { const c = $("j-code").value.trim().toUpperCase(); if (c) joinCode(c, spectate); }
function leaveRoom() {
  if (S.room && S.room.status === "playing" && S.seat != null && !confirm(t("escape_confirm"))) return;
  send({ type: "leave" });
}
function copyLink() { navigator.clipboard && navigator.clipboard.writeText(`${location.origin}/room/${S.room.code}`); }

function renderRoom() {
  const r = S.room; if (!r) return;
  if (r.status === "lobby") show("roomview"); else if (S.view) show("game");
  else show("game");
  $("room-code").textContent = r.code;
  $("room-rules").textContent = `${r.settings.preset} · ${t("rounds")} ${r.settings.rounds}`;
  const tb = $("seats"); tb.innerHTML = "";
  r.seats.forEach((s, i) => {
    const tr = document.createElement("tr"); tr.className = "seat-row"; tr.dataset.seat = i;
    const who = s.bot ? `${t("bot")} (${s.bot})` : s.player_id ? escapeHtml(s.nickname) + (s.connected ? "" : " ⌁") : `<i>${t("empty")}</i>`;
    const mine = s.player_id === S.pid;
    let btns = "";
    if (r.status === "lobby") {
      if (!s.player_id && !s.bot) btns += `<button data-sit="${i}" onclick="send({type:'sit',seat:${i}})">${t("sit")}</button>
        <button data-bot="${i}" onclick="send({type:'bot',seat:${i},level:$('botlevel').value})">${t("add_bot")}</button>`;
      if (mine) btns += `<button onclick="send({type:'stand'})">${t("stand")}</button>`;
      if (s.bot) btns += `<button onclick="send({type:'bot',seat:${i},level:null})">${t("remove_bot")}</button>`;
    }
    tr.innerHTML = `<td>${i} ${WINDS()[i]}</td><td>${who}${mine ? " ★" : ""}${s.auto ? ` <span class="tag">${t("auto_on")}</span>` : ""}</td><td>${btns}</td>`;
    tb.appendChild(tr);
  });
  $("btn-start").disabled = r.seats.some(s => !s.player_id && !s.bot);
  if (r.status !== "lobby" && S.view) renderTable();
}

// ------------------------------------------------------------------ game frames
function onFrame(m) {
  if (m.type === "update" && m.events && m.events.length && m.events[0].v !== S.v + 1) {
    send({ type: "resync" }); return;  // a gap: ask for a snapshot
  }
  S.v = m.v; S.seat = m.seat; S.view = m.view;
  if (m.last_seq != null && m.last_seq > S.seq) { S.seq = m.last_seq; localStorage.setItem(seqKey(), String(m.last_seq)); }
  S.deadlineAt = m.deadline != null ? Date.now() + m.deadline * 1000 : null;
  if (m.hints !== undefined) S.hintsData = m.hints;
  $("ver").textContent = S.v;
  for (const ev of m.events || []) onEvent(ev, m.type === "snapshot");
  show("game");
  renderTable();
}
const VOICE = { chi: "吃", peng: "碰", kong: "杠", ankong: "杠", addkong: "杠", win: "胡", tsumo: "自摸" };
function onEvent(ev, quiet) {
  const line = describe(ev);
  if (line) { S.events.push(line); if (S.events.length > 60) S.events.shift(); }
  if (!quiet && VOICE[ev.type]) speak(VOICE[ev.type]);
}
function seatName(i) {
  const s = S.room && S.room.seats[i];
  return `${WINDS()[i]}${s ? " " + (s.nickname || (s.bot ? t("bot") : "")) : ""}`;
}
function describe(ev) {
  const who = ev.seat != null ? seatName(ev.seat) : "";
  switch (ev.type) {
    case "start_hand": return `— ${t("hand_no")} ${ev.hand} · ${t("dealer")} ${seatName(ev.dealer)} · ${t("indicator")} ${ev.indicator} → ${t("laizi")} ${ev.laizi}`;
    case "discard": return `${who}: ${t("discard")} ${ev.tile}${ev.as ? " (" + t(ev.as === "laizi" ? "laizi_kong" : "special_kong") + ")" : ""}`;
    case "chi": case "peng": case "kong": case "ankong": case "addkong": case "special_kong": case "laizi_kong":
      return `${who}: ${t(ev.type)} ${ev.tile}`;
    case "draw": return ev.tile ? `${who}: +${ev.tile}` : null;
    case "win": return `${who}: ${t("winner")}! ${ev.tile} (${ev.by})`;
    case "ryukyoku": return t("drawn");
    case "auto": return `${who}: ${t("auto")} ${ev.on ? "ON" : "OFF"}`;
    case "escape": return `${who}: ${t("leave")} (-${ev.penalty})`;
    case "end_match": return t("match_over");
    default: return null;
  }
}
function posOf(seat) { const me = S.seat == null ? 0 : S.seat; return (seat - me + 4) % 4; }

function tilesRow(codes, v, opts = {}) {
  const box = document.createElement("div"); box.className = opts.cls || "discards";
  for (const c of codes) box.appendChild(tileEl(c, { small: opts.small, laizi: v.laizi, special: v.special }));
  return box;
}
function meldEl(m, v) {
  const box = document.createElement("span"); box.className = "meld"; box.title = `${m.type}${m.from != null ? " ← " + WINDS()[m.from] : ""}`;
  const tiles = m.type === "ankong" ? ["?", m.tiles[1], m.tiles[2], "?"] : m.tiles;
  for (const c of tiles) box.appendChild(tileEl(c === "?" ? null : c, { small: true }));
  return box;
}
function renderTable(v = S.view, root = document, interactive = true) {
  if (!v || !v.players) { renderScores(v); return; }
  const q = sel => root.querySelector(sel);
  const me = interactive ? S.seat : null;
  for (let s = 0; s < 4; s++) {
    const pos = interactive ? posOf(s) : s;
    const el = q(`.seat[data-pos="${pos}"]`); if (!el) continue;
    const p = v.players[s];
    el.dataset.seat = s;
    el.classList.toggle("turn", (v.acting || []).includes(s) || (v.phase === "turn" && v.turn === s));
    el.classList.toggle("me", s === me);
    const seatInfo = S.room && S.room.seats[s];
    const name = interactive ? seatName(s) : (WINDS()[s]);
    const tags = [];
    if (v.dealer === s) tags.push(t("dealer"));
    if (v.auto && v.auto[s]) tags.push(t("auto_on"));
    if (v.escaped && v.escaped[s]) tags.push(t("leave"));
    el.innerHTML = `<div class="name">${escapeHtml(name)} ${tags.map(x => `<span class="tag">${x}</span>`).join("")}
      <span class="muted" style="color:#d1fae5"> ${v.scores ? v.scores[s] : ""}</span></div>`;
    const melds = document.createElement("div"); melds.className = "melds";
    for (const m of p.melds) melds.appendChild(meldEl(m, v));
    if (p.special_kongs.length) { const sk = tilesRow(p.special_kongs, v, { small: true, cls: "meld" }); sk.title = t("special_kongs"); melds.appendChild(sk); }
    el.appendChild(melds);
    if (s === me && v.hand) {
      el.appendChild(handEl(v));
    } else if (p.hand) {
      el.appendChild(tilesRow(p.hand, v, { small: true, cls: "discards concealed" }));
    } else {
      const backs = document.createElement("div"); backs.className = "discards concealed";
      for (let i = 0; i < p.concealed; i++) backs.appendChild(tileEl(null, { small: true }));
      el.appendChild(backs);
    }
    const river = tilesRow(p.river.concat(p.special_discards), v, { small: true });
    river.classList.add("river");
    const lastTile = river.lastElementChild;
    if (lastTile && v.pending && v.turn === s && p.river[p.river.length - 1] === v.pending) lastTile.classList.add("last");
    el.appendChild(river);
  }
  const c = q("#center") || q(".center");
  if (c) {
    c.innerHTML = `<div>${t("hand_no")} ${v.hand_no} · ${t("rounds")} ${v.round}/${v.rounds}</div>
      <div class="row" style="justify-content:center"><span>${t("indicator")}</span></div>`;
    const row = c.querySelector(".row");
    const ind = tileEl(v.indicator); ind.id = interactive ? "indicator" : ""; row.appendChild(ind);
    const lab = document.createElement("span"); lab.textContent = ` → ${t("laizi")} `; row.appendChild(lab);
    const lz = tileEl(v.laizi, { laizi: v.laizi }); if (interactive) lz.id = "laizi-tile"; row.appendChild(lz);
    const info = document.createElement("div");
    info.innerHTML = `${t("wall")}: <b id="${interactive ? "wall-count" : ""}">${v.wall_remaining}</b>
      <div class="muted" style="color:#bbf7d0;font-size:.7rem">${t("commitment")}: ${String(v.commitment).slice(0, 16)}…</div>
      ${v.event ? `<div>${escapeHtml(describeReplay(v.event))}</div>` : ""}`;
    c.appendChild(info);
  }
  if (!interactive) return;
  renderActions(v);
  renderScores(v);
  $("log").innerHTML = S.events.slice(-25).map(l => `<div>${escapeHtml(l)}</div>`).join("");
  $("log").scrollTop = 1e6;
  $("auto-toggle").checked = !!(v.auto && S.seat != null && v.auto[S.seat]);
  $("auto-toggle").disabled = S.seat == null;
  renderHints();
  if (v.phase === "over" && v.result !== undefined && S.lastHandShown !== v.hand_no) { S.lastHandShown = v.hand_no; showHandResult(v); }
  if (v.phase !== "over" && S.lastHandShown != null && S.lastHandShown !== v.hand_no) closeOverlay();
  if (v.match_over) $("replaylink").innerHTML = `<a id="replay-link" href="/replay/${S.room ? S.room.match_id : ""}">${t("replay")}</a>`;
}
function describeReplay(ev) { return describe(ev) || ev.type; }
function handEl(v) {
  const box = document.createElement("div"); box.className = "discards"; box.id = "hand";
  const legalDiscards = new Set((v.legal || []).filter(a => a.type === "discard").map(a => a.tile));
  let tiles = v.hand.slice();
  let drawn = null;
  if (v.last_draw && tiles.includes(v.last_draw)) { tiles.splice(tiles.lastIndexOf(v.last_draw), 1); drawn = v.last_draw; }
  const add = (c, isDrawn) => {
    const el = tileEl(c, { laizi: v.laizi, special: v.special });
    if (isDrawn) el.classList.add("drawn");
    if (legalDiscards.has(c)) { el.classList.add("clickable"); el.onclick = () => act({ type: "discard", tile: c }); }
    box.appendChild(el);
  };
  tiles.forEach(c => add(c, false));
  if (drawn) add(drawn, true);
  return box;
}
function actionLabel(a) {
  if (a.type === "chi") { const n = +a.tile[0]; return `${t("chi")} ${n}${n + 1}${n + 2}${a.tile[1]}`; }
  if (a.type === "pass" || a.type === "tsumo") return t(a.type);
  if (a.type === "ron") return t("ron");
  return `${t(a.type)} ${a.tile || ""}`;
}
function renderActions(v) {
  const box = $("actions"); box.innerHTML = "";
  const legal = v.legal || [];
  for (const a of legal) {
    if (a.type === "discard") continue;
    const b = document.createElement("button");
    b.textContent = actionLabel(a); b.dataset.act = a.type; if (a.tile) b.dataset.tile = a.tile;
    if (a.type === "ron" || a.type === "tsumo") b.className = "win";
    b.onclick = () => act(a);
    box.appendChild(b);
  }
  if (legal.some(a => a.type === "discard")) {
    const s = document.createElement("span"); s.className = "muted"; s.id = "your-turn"; s.textContent = t("your_turn"); box.appendChild(s);
  } else if (!legal.length && v.phase !== "over" && !v.match_over) {
    const s = document.createElement("span"); s.className = "muted"; s.textContent = t("waiting"); box.appendChild(s);
  }
}
function renderScores(v) {
  if (!v) return;
  const hist = v.history || [];
  const head = `<tr><th>${t("hand_no")}</th>${[0, 1, 2, 3].map(i => `<th>${seatName(i)}</th>`).join("")}</tr>`;
  const rows = hist.map(h => `<tr><td>${h.hand}</td>${h.deltas.map(d => `<td class="${d > 0 ? "pos" : d < 0 ? "neg" : ""}">${fmt(d)}</td>`).join("")}</tr>`).join("");
  const tot = v.scores ? `<tr><th>${t("total")}</th>${v.scores.map(d => `<th>${fmt(d)}</th>`).join("")}</tr>` : "";
  $("matchtable").innerHTML = `<table class="grid" id="scoretable">${head}${rows}${tot}</table>`;
}
function fmt(x) { const r = Math.round(x * 10) / 10; return (r > 0 ? "+" : "") + r; }
function showHandResult(v) {
  const res = v.result;
  let body = `<h3 id="hand-result">${t("hand_over")} · ${t("hand_no")} ${v.hand_no}</h3>`;
  if (!res) body += `<p>${t("drawn")}</p>`;
  else {
    const sc = res.score;
    body += `<p><b>${escapeHtml(seatName(res.winner))}</b> ${t("winner")} · ${res.tile} · ${res.by}${res.from != null ? " ← " + escapeHtml(seatName(res.from)) : ""}</p>
      <p>${sc.big_hands.length ? t("big_hands") + ": " + sc.big_hands.join(", ") : t("small_hand")}${sc.hard ? " · " + t("hard_win") : ""}${sc.liable != null ? " · " + t("liable") + ": " + escapeHtml(seatName(sc.liable)) : ""}</p>
      <ul class="breakdown">${sc.breakdown.map(l => `<li>${escapeHtml(l)}</li>`).join("")}</ul>
      <div class="row">${v.players[res.winner].hand ? "" : ""}</div>`;
    const hand = document.createElement("div");
    body += `<div id="winning-hand"></div>`;
    void hand;
  }
  body += `<table class="grid"><tr>${[0, 1, 2, 3].map(i => `<th>${escapeHtml(seatName(i))}</th>`).join("")}</tr>
    <tr>${(v.payments || [0, 0, 0, 0]).map(d => `<td class="${d > 0 ? "pos" : d < 0 ? "neg" : ""}">${fmt(d)}</td>`).join("")}</tr></table>
    <p class="muted">${t("seed")}: <code>${v.seed || ""}</code><br>${t("commitment")}: <code>${v.commitment}</code></p>
    <button id="overlay-close" onclick="closeOverlay()">${v.match_over ? t("close") : t("next_hand")}</button>`;
  $("overlay-body").innerHTML = body;
  if (res && v.players[res.winner].hand) {
    const row = tilesRow(v.players[res.winner].hand, v); $("winning-hand").appendChild(row);
    for (const m of v.players[res.winner].melds) row.appendChild(meldEl(m, v));
  }
  $("overlay").classList.remove("hidden");
}
function closeOverlay() { $("overlay").classList.add("hidden"); }
function tickCountdown() {
  const el = $("countdown");
  if (S.deadlineAt && S.view && (S.view.legal || []).length) {
    const left = Math.max(0, (S.deadlineAt - Date.now()) / 1000);
    el.textContent = left.toFixed(0) + "s";
  } else el.textContent = "";
}
function toggleAuto() { send({ type: "auto", on: $("auto-toggle").checked }); }
function toggleHints() { S.hints = $("hints-toggle").checked; localStorage.setItem("laizi.hints", S.hints ? "1" : "0"); send({ type: "hints", on: S.hints }); renderHints(); }
function renderHints() {
  const box = $("hintbox");
  if (!S.hints || !S.hintsData || !(S.view && (S.view.legal || []).length)) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const h = S.hintsData;
  if (Array.isArray(h)) box.innerHTML = h.slice(0, 6).map(x => typeof x === "string" ? `<div>${escapeHtml(x)}</div>`
    : `<div>${x.recommended ? "★ " : ""}${escapeHtml(x.label || x.text || JSON.stringify(x.action || x))}</div>`).join("");
  else box.textContent = typeof h === "string" ? h : (h.text || JSON.stringify(h));
}

// ------------------------------------------------------------------ chat
function addChat(m) {
  const d = document.createElement("div");
  const text = m.phrase && S.phrases[m.phrase] ? S.phrases[m.phrase][LANG === "zh" ? 0 : 1] : m.text;
  d.innerHTML = `<b>${escapeHtml(m.from)}</b>: ${escapeHtml(text)}`;
  $("chatlog").appendChild(d); $("chatlog").scrollTop = 1e6;
}
function sendChat() {
  const v = $("chat-input").value.trim(); if (!v) return;
  if (send({ type: "chat", text: v })) $("chat-input").value = "";
}
function renderPhrases() {
  const box = $("phrases"); box.innerHTML = "";
  for (const [id, pair] of Object.entries(S.phrases)) {
    const b = document.createElement("button"); b.textContent = pair[LANG === "zh" ? 0 : 1];
    b.style.fontSize = ".75rem"; b.onclick = () => send({ type: "chat", phrase: id }); box.appendChild(b);
  }
}

// ------------------------------------------------------------------ replay
const RP = { data: null, hand: 0, pos: 0, timer: null };
async function openReplay(mid) {
  show("replay"); $("rp-mid").textContent = mid;
  const wrap = $("rp-table-wrap");
  wrap.innerHTML = `<div id="rp-table" class="" style=""><div id="table" class="rp">
    <div class="seat seat-top" data-pos="2"></div><div class="seat seat-left" data-pos="3"></div>
    <div class="center"></div><div class="seat seat-right" data-pos="1"></div><div class="seat seat-bottom" data-pos="0"></div></div></div>`;
  const r = await fetch(`/api/matches/${mid}/replay`);
  if (!r.ok) { showError((await r.json()).error || "replay"); return; }
  RP.data = await r.json();
  S.room = { seats: RP.data.seats.map(s => ({ nickname: s.nickname, bot: s.bot })) };
  const sel = $("rp-hand"); sel.innerHTML = "";
  RP.data.hands.forEach((h, i) => sel.add(new Option(String(h.hand), String(i))));
  rpSelect();
}
function rpFrames() { return RP.data && RP.data.hands[RP.hand] ? RP.data.hands[RP.hand].frames : []; }
function rpSelect() { RP.hand = +$("rp-hand").value || 0; $("rp-pos").max = Math.max(0, rpFrames().length - 1); rpGo(0); }
function rpGo(i) {
  const f = rpFrames(); if (!f.length) return;
  RP.pos = Math.max(0, Math.min(f.length - 1, i)); $("rp-pos").value = RP.pos;
  $("rp-label").textContent = `${RP.pos + 1}/${f.length}`;
  renderTable(f[RP.pos], $("rp-table-wrap"), false);
}
function rpStep(d) { rpGo(RP.pos + d); }
function rpPlay() {
  if (RP.timer) { clearInterval(RP.timer); RP.timer = null; $("rp-play").textContent = t("play"); return; }
  $("rp-play").textContent = t("pause");
  RP.timer = setInterval(() => { if (RP.pos >= rpFrames().length - 1) rpPlay(); else rpStep(1); }, 600);
}

// ------------------------------------------------------------------ boot
window.onLangChange = () => { renderPhrases(); if (S.room) renderRoom(); if (S.view) renderTable(); };
function boot() {
  applyI18n(); document.documentElement.lang = LANG === "zh" ? "zh-CN" : "en";
  $("voice").checked = localStorage.getItem("laizi.voice") === "1";
  $("voice").onchange = () => localStorage.setItem("laizi.voice", $("voice").checked ? "1" : "0");
  S.hints = localStorage.getItem("laizi.hints") === "1"; $("hints-toggle").checked = S.hints;
  $("nick").value = S.nick;
  $("chat-input").addEventListener("keydown", e => { if (e.key === "Enter") sendChat(); });
  const rp = /^\/replay\/(\d+)/.exec(location.pathname);
  if (rp) { openReplay(rp[1]); return; }
  const rm = /^\/room\/([A-Za-z0-9]+)/.exec(location.pathname);
  S.wantRoom = rm ? rm[1].toUpperCase() : null;
  loadPresets(); loadRooms();
  connect();
  setInterval(tickCountdown, 250);
  setInterval(() => { if (!S.room) loadRooms(); }, 5000);
}
boot();
