// Boot and wiring: protocol messages → state → views. The state lives in state.js (S, PAGE).
import { applyPatch, newHeld, takeSnapshot, takeTables, takeUpdate } from "./delta.js";
import { S, PAGE, store, save, load } from "./state.js";
import * as net from "./net.js";
import { t, applyI18n, setLang, toggleLang, onLang, getLang, actionLabel, errorText, setPizi, kongWord } from "./i18n.js";
import { buildTable, eventsDiscard, renderTable, redraw, updateTimers, placeAnnounce, keepAnnouncesClear, renderCoinLevel, showBubble } from "./table.js";
import { renderSettlement, renderMatchResult, scoreTable } from "./settle.js";
import { renderFair } from "./fair.js";
import { sfx, speak, setSound, setVoice, soundEnabled, voiceEnabled } from "./sound.js";
import { describe } from "./words.js";
import { showPizi, tileEl } from "./tiles.js";
import { optionName, howtoLink } from "./rules.js";
import { initLobby, renderRoom, loadPresets, loadRooms, fillBotLevels, copyLink, ruleCard, closePanels } from "./lobby.js";
import { showError, clearError, toast, clearToast } from "./ui.js";
import { initQuick } from "./quick.js";      // social: quick match, coins
import { initFriends } from "./friends.js";  // social: friends, invites
import { openReplay } from "./replay.js";
import { initDissolve } from "./dissolve.js";  // clubs: 解散 by vote
import { initEtiquette } from "./etiquette.js";  // clubs: mute and report in the chat sheet
import { initEmotes, emoteImg, emoteText } from "./emotes.js";  // clubs: emotes in the chat

const $ = id => document.getElementById(id);

function showPage(id) {
  const was = ["lobby", "roomview", "replay"].find(p => !$(p).classList.contains("hidden"));
  for (const p of ["lobby", "roomview", "replay"]) $(p).classList.toggle("hidden", p !== id);
  if (was !== id && id !== "game") window.scrollTo(0, 0);  // a new page opens at its top
  const inGame = id === "game";
  $("game").classList.toggle("hidden", !inGame);
  $("pages").classList.toggle("hidden", inGame);
  $("topbar").classList.toggle("hidden", inGame || id === "replay");
  document.body.classList.toggle("in-game", inGame);
  document.body.classList.toggle("in-replay", id === "replay");
  if (id === "lobby") store.emit("lobby");
}

// ------------------------------------------------------------------ identity
// The browser's token (localStorage "laizi.token") that this page did not say hello with: an
// account registered or logged in to in another page of this browser — or in the page just
// before this one, whose save can reach this page only after it said hello (a new guest then).
// A page that holds no seat follows it: a new socket says hello with it (a connection's identity
// is fixed). A seated page keeps its player until it is reloaded (its seat is not given up).
function adoptStoredToken() {
  const stored = load("laizi.token");
  if (!stored || stored === S.token || stored === S.helloToken) return false;
  if (S.seat != null || (S.room && S.room.seats.some(s => s.player_id && s.player_id === S.pid))) return false;
  S.token = stored;
  S.nick = load("laizi.nick", "") || S.nick;
  net.dropConnection();
  return true;
}
window.addEventListener("storage", e => { if (e.key === "laizi.token") adoptStoredToken(); });

/** The welcome's frame tables and quick phrases — sent, or named by the id of those this
 * browser keeps (S.kept, said in the hello): taken, and kept for the next hello. */
function keepWelcome(m) {
  const k = S.kept;
  let changed = false;
  if (Array.isArray(m.keys) && typeof m.tables_id === "string") {
    Object.assign(k, { tables_id: m.tables_id, keys: m.keys, shapes: m.shapes || [] }); changed = true;
  }
  if (m.phrases && typeof m.phrases_id === "string") { Object.assign(k, { phrases_id: m.phrases_id, phrases: m.phrases }); changed = true; }
  takeTables(held, m.keys ? m : m.tables_id && m.tables_id === k.tables_id ? k : {});
  S.phrases = m.phrases || (m.phrases_id && m.phrases_id === k.phrases_id ? k.phrases : {});
  if (changed) save("laizi.kept", JSON.stringify(k));
}

// ------------------------------------------------------------------ protocol
net.on("welcome", m => {
  keepWelcome(m);
  S.token = m.token; S.pid = m.player_id; S.nick = m.nickname;
  S.botLevels = m.bot_levels || [];
  // the browser's token, unless another tab logged in or registered since this socket's hello
  // (a reconnect here must not log that tab out: this page keeps its own player until reloaded)
  const stored = load("laizi.token");
  if (!stored || stored === S.helloToken || stored === m.token) { save("laizi.token", m.token); save("laizi.nick", m.nickname); }
  else if (adoptStoredToken()) return;  // (this welcome's guest is left behind: a new socket says hello)
  $("nick").value = m.nickname;
  $("me").textContent = m.nickname;
  fillBotLevels(); renderPhrases();
  if (S.wantRoom) net.send({ type: "join", room: S.wantRoom, spectate: S.wantSpectate });
  else net.markSynced();
});

net.on("joined", m => {
  const newRoom = !S.room || S.room.code !== m.room.code;
  S.room = m.room; S.seat = m.seat; S.wantRoom = m.room.code; S.v = 0;
  PAGE.tableGone = false; PAGE.leaving = false;
  closePanels();  // (the form did its work: back in the lobby, its first screen)
  if (newRoom) { S.log = []; S.logV = 0; S.settleClosed = new Set(); S.settleHand = null; S.view = null; S.seq = 0; PAGE.lastOver = null; PAGE.logPizi = null; }
  save("laizi.room", m.room.code);
  if (location.pathname !== `/room/${m.room.code}`) history.replaceState(null, "", `/room/${m.room.code}`);
  $("chatlog").textContent = "";
  for (const c of m.chat || []) addChat(c, true);
  if (m.room.status === "lobby" || !m.room.match_id) { showPage("roomview"); renderRoom(); net.markSynced(); }
  if (S.sitOnJoin) {  // a room this page just created (or ?sit): take the first free seat
    S.sitOnJoin = false;
    const free = m.room.seats.findIndex(s => !s.player_id && !s.bot);
    const go = m.room.status === "lobby" && m.seat == null && free >= 0;
    if (go) net.send({ type: "sit", seat: free });
    document.body.dataset.autosit = go ? "sent" : "skipped";
  }
});

net.on("room", m => {
  if (m.p) {  // (hello room_patch) a patch of the room held; one that does not fit: all again
    if (!S.room) return;  // (a room left meanwhile)
    try { S.room = applyPatch(S.room, m.p); } catch (e) { net.send({ type: "resync" }); return; }
  } else S.room = m.room;
  if (S.room.status === "lobby") { showPage("roomview"); renderRoom(); }
  else if (S.view) render();
});

net.on("update", onFrame);
net.on("snapshot", onFrame);
net.on("ack", m => net.noteSeq(m.seq));
net.on("chat", m => addChat(m, false));
net.on("pong", () => {});
net.on("hints", m => {  // the answer to switching hints on: for the version on screen only
  if (!S.view || m.v !== S.v) return;
  S.hintsData = Array.isArray(m.hints) ? m.hints : null;
  render();
});
net.on("settle", m => {  // someone pressed 继续 (the next hand waits for the others)
  S.settle = { ...m, at: Date.now() + (m.left || 0) * 1000 };
  updateSettleNext();
});
net.on("rematch", m => { S.rematch = m.accepted || []; if (S.view) fillSettleButtons(S.view); });
// A coin table: what each seat won or paid in coins for a hand (or an escape), one's own balance
// after it. Kept per match; the open settlement shows it at once.
net.on("coins", m => {
  if (!S.coins || S.coins.match !== m.match_id) S.coins = { match: m.match_id, hands: {}, escapes: [], balance: null };
  if (m.reason === "hand") S.coins.hands[m.hand] = m.coins; else S.coins.escapes.push(m.coins);
  if (m.balance != null) S.coins.balance = m.balance;
  if (S.settleHand != null && S.settleView) fillSettlement(S.settleView);
});
net.on("kicked", () => { showError(t("kicked")); leftRoom(false); });
net.on("left", () => { clearError(); leftRoom(true); });  // (a word about the table stays with it)
/** Out of the room: to the lobby — or, leaving a club's table (回大厅, 离开), back to that
 *  club's page (the room's settings name its club, after a reload too). */
function leftRoom(toClub) {
  const club = toClub && S.room && S.room.settings ? S.room.settings.club : null;
  S.room = null; S.view = null; S.wantRoom = null; S.seat = null; PAGE.leaving = false;
  save("laizi.room", null);
  closeSettlement();
  if (club) { location.assign(`/clubs/${club}`); return; }
  history.replaceState(null, "", "/");
  showPage("lobby"); loadRooms();
}
net.on("error", m => {
  // 再来一局 (or a word) on a finished match's results after its room left the server's memory
  // (FINISHED_LINGER after the end): the socket is in no room any more. The table is gone —
  // said so, and 再来一局 no longer offered — not "join a room first" under a live-looking button
  if (m.code === "no_room" && S.view && S.view.match_over) {
    if (PAGE.leaving) { leftRoom(true); return; }  // 回大厅: the room had gone already (it stayed on the table)
    PAGE.tableGone = true;
    fillSettleButtons(S.view);
    updateSettleNext();  // in the results, right above their buttons (#error does not show over the table)
    const card = $("settlement").querySelector(".settle-card");
    card.scrollTop = card.scrollHeight;  // (the words end the card, under a long match table)
    return;
  }
  if (m.code === "unknown_room" || m.code === "room_finished") {
    S.wantRoom = null; save("laizi.room", null); history.replaceState(null, "", "/"); showPage("lobby"); net.markSynced();
  }
  if (m.code === "stale_version") {
    // the move met a table that had moved on: the snapshot that follows says whether there is
    // still something to try again (not when the hand ended meanwhile: a CI run showed 请重试
    // over the settlement, and then over the lobby)
    PAGE.staleMove = true;
    return;
  }
  if (m.code === "stale_seq") {
    const last = /last applied (\d+)/.exec(m.message || "");
    if (last) net.noteSeq(+last[1]);
  }
  // A move's race at the table (a tap as the turn passed, a resend): the table shows what is
  // true now; a word about it would only alarm (it was never shown there: #error sat inside
  // the hidden pages)
  if (document.body.classList.contains("in-game") && MOVE_RACES.has(m.code)) return;
  // words from the code (and the rule option at fault, by its name); the server's English message is for logs
  showError(errorText(m.code) + (m.option && optionName(m.option) ? `${t("option_sep")}${optionName(m.option)}` : ""));
  $("error").dataset.code = m.code;
});

const MOVE_RACES = new Set(["not_your_turn", "illegal_action", "stale_seq", "match_over", "not_playing", "not_started"]);
const held = newHeld();  // the frame stream as delta.js follows it
function onFrame(m) {
  // An update is a patch on the view of the frame before (delta.js makes it whole): a lost
  // frame (or a patch that does not fit) → ask for a snapshot, and wait for it.
  if (m.type === "update") {
    if (PAGE.resyncing) return;
    let full = null;
    try { if (S.view) full = takeUpdate(held, m); } catch (e) { full = null; }
    if (!full) { PAGE.resyncing = true; document.body.dataset.resyncs = String(++PAGE.resyncs); net.send({ type: "resync" }); return; }
    m = full;
  } else { PAGE.resyncing = false; m = takeSnapshot(held, m); }
  const prev = S.view;
  if (S.matchId != null && m.match_id !== S.matchId) {  // a rematch: a new match in this room
    closeSettlement();
    S.settleClosed = new Set(); S.log = []; S.logV = 0; PAGE.lastOver = null; PAGE.logPizi = null;
  }
  S.v = m.v; S.seat = m.seat; S.view = m.view; S.matchId = m.match_id;
  const now = Date.now();
  S.timer = m.timer ? { seat: m.timer.seat, at: now + m.timer.left * 1000 } : null;
  S.settle = m.settle ? { ...m.settle, at: now + (m.settle.left || 0) * 1000 } : null;
  S.rematch = m.rematch || null;
  if (m.last_seq != null) net.noteSeq(m.last_seq);
  S.deadlineAt = m.deadline != null ? Date.now() + m.deadline * 1000 : null;
  S.hintsData = m.hints !== undefined ? m.hints : null;
  S.fixedDeal = m.fixed_deal || null;
  if (!prev || prev.hand_no !== m.view.hand_no || JSON.stringify(prev.legal) !== JSON.stringify(m.view.legal)) S.selected = null;
  const quiet = m.type === "snapshot";
  // A snapshot (join, reconnect, resync) repeats the last events: each is taken once, by its
  // version (issue 21: a resync once repeated a block of the log).
  if (quiet && m.v < S.logV) { S.log = []; S.logV = 0; }  // a stream that started again
  if (quiet) PAGE.logPizi = null;  // a snapshot: the view's 皮子 unless its events start a hand
  for (const ev of m.events || []) {
    if (ev.v != null && ev.v <= S.logV) continue;
    if (ev.v != null) S.logV = ev.v;
    onEvent(ev, quiet);
  }
  if (m.view.phase === "over" && m.view.seed) PAGE.lastOver = m.view;
  if (!prev || !prev.legal || !prev.legal.length) { if ((m.view.legal || []).length && !quiet) sfx("turn"); }
  if (PAGE.staleMove && quiet) {
    PAGE.staleMove = false;
    const again = (m.view.legal || []).length > 0 && m.view.phase !== "over";
    if (again) { showError(errorText("stale_version")); $("error").dataset.code = "stale_version"; }
    document.body.dataset.stale = again ? "shown" : "quiet";  // (for tests, as data-resyncs)
  }
  showPage("game");
  render();
  net.markSynced();
}

const CLAIMS = new Set(["chi", "peng", "kong", "ankong", "addkong", "special_kong", "laizi_kong"]);
function onEvent(ev, quiet) {
  const dealer = ev.type === "start_hand" ? ev.dealer : S.view ? S.view.dealer : 0;
  if (ev.type === "start_hand") PAGE.logPizi = ev.pizi || [];  // the hand's 皮子: its kongs' words
  const pizi = PAGE.logPizi || (S.view && S.view.pizi) || [];
  if (describe(ev, null, dealer, pizi)) { // kept as events: the words follow the language of the moment
    S.log.push({ ev, dealer, pizi });
    if (S.log.length > 120) S.log.shift();
  }
  if (quiet) return;
  if (ev.type === "discard") sfx("discard");
  else if (ev.type === "draw" && ev.seat === S.seat) sfx("draw");
  else if (CLAIMS.has(ev.type)) { sfx("claim"); speak(ev.type); announce(ev.seat, kongWord(ev.type, ev.tile, pizi)); }
  else if (ev.type === "win") {
    sfx("win");
    speak(ev.by === "self_draw" ? "tsumo" : "win");
    announce(ev.seat, ev.by === "self_draw" ? t("tsumo") : t("ron"));
  }
}

function announce(seat, word) {
  PAGE.announce.push([seat, word]);
}

function flushAnnouncements() {
  const table = PAGE.table;
  for (const [seat, word] of PAGE.announce) {
    const el = table && table.querySelector(`.seat[data-seat="${seat}"] .announce`);
    if (!el) continue;
    el.textContent = `${word}!`;
    placeAnnounce(el);
    el.classList.remove("show");
    void el.offsetWidth;
    el.classList.add("show");
  }
  PAGE.announce = [];
}

// ------------------------------------------------------------------ rendering
function logLine(item) { return item ? describe(item.ev, S.room && S.room.seats, item.dealer, item.pizi) || "" : ""; }

function deadlineLeft() {
  if (S.deadlineAt == null) return null;
  return Math.max(0, Math.ceil((S.deadlineAt - Date.now()) / 1000));
}

function secondsTo(at) { return at == null ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000)); }

/** The public countdown: the turn seat's, or a claim window's (seat null). */
function turnTimer() { return S.timer ? { seat: S.timer.seat, left: secondsTo(S.timer.at) } : null; }

function ctx() {
  return {
    me: S.seat, seats: S.room && S.room.seats, live: true, deadlineLeft: deadlineLeft(), turnTimer: turnTimer(),
    selected: S.selected, onTile, lastLine: logLine(S.log[S.log.length - 1]), lastDiscard: eventsDiscard(S.log.map(x => x.ev)), fixedDeal: S.fixedDeal, hint: recommended(),
  };
}

function onTile(i, a, direct) {
  if (direct || S.selected === i) {
    S.selected = null;
    net.act(a);
  } else {
    S.selected = i;
  }
  render();
}

function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
function setAttr(el, name, value) { if (el.getAttribute(name) !== value) el.setAttribute(name, value); }

/** The log: the last 40 events; new ones are appended (the oldest leave), the lines on screen
 *  stay — all anew only when the words change (language, seat names) or the log started again. */
function renderLog() {
  const log = $("log");
  const items = S.log.slice(-40);
  const key = JSON.stringify([getLang(), S.room && S.room.seats]);
  const shown = PAGE.logShown;
  let keep = shown.length ? items.lastIndexOf(shown[shown.length - 1]) + 1 : 0;  // items already on screen
  for (let i = 0; i < keep; i++) if (shown[shown.length - keep + i] !== items[i]) { keep = 0; break; }
  if (log.dataset.key !== key || log.childElementCount !== shown.length || (shown.length && !keep)) {
    log.textContent = "";
    log.dataset.key = key;
    PAGE.logShown = [];
    keep = 0;
  }
  const drop = PAGE.logShown.length - keep;
  if (!drop && keep === items.length) return;
  for (let i = 0; i < drop; i++) log.firstElementChild.remove();
  for (const item of items.slice(keep)) {
    const d = document.createElement("div");
    d.textContent = logLine(item);
    if (item.ev.v != null) d.dataset.v = String(item.ev.v);
    log.appendChild(d);
  }
  PAGE.logShown = items;
  log.scrollTop = log.scrollHeight;
}

function render() {
  const v = S.view;
  if (!v) return;
  if (!PAGE.table) {
    PAGE.table = buildTable($("game-table"), { live: true });
    applyI18n(PAGE.table);
    PAGE.table.querySelector(".seat.pos-bottom").appendChild($("actions")); // anchored just above the own hand
  }
  const table = PAGE.table;
  setPizi(v.pizi);  // 七皮四赖: the 皮子 marked on every copy, named in the words
  renderTable(table, v, ctx());
  showPizi(table, v.pizi);
  renderCoinLevel(table, S.room && S.room.coin);
  renderActions(v);
  renderStatus(v);
  renderHints(v);
  layoutHints();
  keepAnnouncesClear(table);
  flushAnnouncements();
  renderSettlementState(v);
  setText($("ver"), String(S.v));
  $("auto-toggle").checked = !!(v.auto && S.seat != null && v.auto[S.seat]);
  if ($("auto-toggle").disabled !== (S.seat == null)) $("auto-toggle").disabled = S.seat == null;
  const seats = S.room && S.room.seats;
  redraw($("matchtable"), JSON.stringify([v.history, v.scores, seats, S.seat, getLang()]), mt => {
    mt.textContent = "";
    mt.appendChild(scoreTable(v, seats, S.seat));
  });
  renderLog();
  setText($("menu-card"), ruleCard());  // 规则卡 and 玩法说明 of the room's own rules
  if (S.room && S.room.rules) setAttr($("menu-howto"), "href", howtoLink(S.room.rules));
  const rl = $("replay-link");
  rl.classList.toggle("hidden", !v.match_over);
  $("replay-link-sep").classList.toggle("hidden", !v.match_over);  // (no "版本 6 ·" before a hidden link)
  if (v.match_over) setAttr(rl, "href", `/replay/${S.matchId}`);
  if (!$("sheet-fair").classList.contains("hidden")) renderFair($("fair-body"), v, PAGE.lastOver);
}

const ORDER = ["chi", "peng", "kong", "ankong", "addkong", "ron", "tsumo", "draw", "nodraw", "pass"];
/** Claims of one button: every 吃 is one 吃, every 杠 (直杠, 暗杠, 蓄杠) one 杠. */
const GROUP = { chi: "chi", kong: "kong", ankong: "kong", addkong: "kong" };

/** A choice's tiles as the meld it makes: a chow's run, a kong's four. */
function choiceTiles(a) {
  if (a.type === "chi") return [0, 1, 2].map(k => `${+a.tile[0] + k}${a.tile[1]}`);
  return [a.tile, a.tile, a.tile, a.tile];
}

function renderActions(v) {
  const box = $("actions");
  const auto = v.auto && S.seat != null && v.auto[S.seat];
  // under 托管 the bot decides: no claim buttons beside 取消托管 (they moved it from under the
  // finger, and a tap on them raced the bot)
  const legal = auto ? [] : (v.legal || []).filter(a => ORDER.includes(a.type));
  legal.sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
  // several 吃 (or 杠) at once: one button, whose tap shows the choices as tile groups
  const groups = {};
  for (const a of legal) if (GROUP[a.type]) (groups[GROUP[a.type]] = groups[GROUP[a.type]] || []).push(a);
  if (S.choosing && !((groups[S.choosing] || []).length > 1)) S.choosing = null;
  const key = JSON.stringify([legal, !!auto, getLang(), S.choosing]);
  if (box.dataset.key === key) return;  // the same buttons: untouched
  box.dataset.key = key;
  // 取消托管 stays the same element while 托管 lasts (a button rebuilt at every frame would
  // slip from under the finger); everything else is rebuilt
  let cancel = box.querySelector(".cancel-auto");
  for (const c of [...box.children]) if (c !== cancel) c.remove();
  if (auto && !cancel) {
    cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "cancel-auto";
    cancel.dataset.testid = "cancel-auto";
    cancel.addEventListener("click", () => net.send({ type: "auto", on: false }));
    box.appendChild(cancel);
  } else if (!auto && cancel) {
    cancel.remove();
  }
  if (auto) cancel.textContent = t("cancel_auto");
  box.classList.toggle("choosing", !!S.choosing);
  if (S.choosing) {  // the second tap: each choice as the tiles it melds, and 返回
    for (const a of groups[S.choosing]) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.act = a.type;
      b.dataset.tile = a.tile;
      b.className = `act choice act-${a.type}`;
      b.setAttribute("aria-label", actionLabel(a));
      let claimed = a.type === "chi" || a.type === "kong" ? v.pending : null;  // the discard taken: marked
      for (const c of choiceTiles(a)) {
        b.appendChild(tileEl(c, { size: "meld", laizi: v.laizi, cls: c === claimed ? "claimed" : "" }));
        if (c === claimed) claimed = null;
      }
      b.addEventListener("click", () => { S.choosing = null; net.act(a); });
      box.appendChild(b);
    }
    const back = document.createElement("button");
    back.type = "button";
    back.className = "act act-back";
    back.dataset.choose = "back";
    back.textContent = t("back");
    back.addEventListener("click", () => { S.choosing = null; renderActions(S.view); });
    box.appendChild(back);
    box.classList.toggle("empty", false);
    return;
  }
  const shown = new Set();
  for (const a of legal) {
    const g = GROUP[a.type];
    const several = g && groups[g].length > 1;
    if (several && shown.has(g)) continue;
    const b = document.createElement("button");
    b.type = "button";
    if (several) {  // 吃 / 杠 with a mark that more follow
      shown.add(g);
      b.textContent = `${t(g)} ▾`;
      b.dataset.choose = g;
      b.setAttribute("aria-label", groups[g].map(actionLabel).join(" / "));
      b.className = `act act-${g} act-choose`;
      b.addEventListener("click", () => { S.choosing = g; renderActions(S.view); });
    } else {
      b.textContent = actionLabel(a);
      b.dataset.act = a.type;
      if (a.tile) b.dataset.tile = a.tile;
      b.className = `act act-${a.type}` + (a.type === "ron" || a.type === "tsumo" ? " win" : "");
      b.addEventListener("click", () => net.act(a));
    }
    box.appendChild(b);
  }
  box.classList.toggle("empty", !box.childElementCount);
}

function renderStatus(v) {
  const el = $("status-line");
  const left = deadlineLeft();
  let text = "";
  let mine = false;
  const auto = S.seat != null && v.auto && v.auto[S.seat];
  if (S.seat == null) text = t("spectator");
  else if (auto && v.phase !== "over") text = t("auto_on");  // the bot plays: not "请出牌" (a tap takes 托管 back)
  else if ((v.legal || []).some(a => a.type === "discard")) mine = true;
  else if ((v.legal || []).length) text = "";
  else if (v.phase !== "over") text = t("waiting");
  const count = left != null && !auto && (v.legal || []).length ? ` ${t("timer", left)}` : null;
  redraw(el, JSON.stringify([text, mine, count, getLang()]), () => {
    el.textContent = "";
    if (mine) {
      const s = document.createElement("span");
      s.id = "your-turn";
      s.textContent = t("your_turn");
      el.appendChild(s);
    }
    if (text) el.append(text);
    if (count != null) {
      const c = document.createElement("span");
      c.className = "countdown";
      c.textContent = count;
      el.appendChild(c);
    }
  });
}

function recommended() {
  const h = S.hintsData;
  if (!S.hints || !Array.isArray(h)) return null;
  const r = h.find(x => x.recommended);
  return r && r.action ? r.action : null;
}

function renderHints(v) {
  const box = $("hintbox");
  const h = S.hintsData;
  const auto = S.seat != null && v.auto && v.auto[S.seat];  // 托管 decides: no advice beside it
  if (!S.hints || auto || !Array.isArray(h) || !h.length || !(v.legal || []).length) { box.classList.toggle("hidden", true); return; }
  box.classList.toggle("hidden", false);
  const lang = document.documentElement.lang;
  if (box.dataset.key === JSON.stringify([h, lang])) return;  // the same advice: untouched
  box.dataset.key = JSON.stringify([h, lang]);
  box.textContent = "";
  const rec = recommended();
  box.dataset.recType = rec ? rec.type : "";
  box.dataset.recTile = rec && rec.tile ? rec.tile : "";
  for (const x of h.slice(0, 3)) {
    const d = document.createElement("div");
    let line = `${x.recommended ? "★ " : ""}${x.action ? actionLabel(x.action) : ""}`;
    // a discard's or a claim's 向听: the one its words below give (shanten_258: with a 2/5/8
    // pair; a claim's after its discard), not the any-pair count of shanten / shanten_after
    // ("向听 1" over "二向听"; "碰 · 向听 -1", the claimed hand before its discard, over 一向听)
    const own = x.kind === "claim" ? x.shanten_after : x.shanten;
    const sh = own != null && x.shanten_258 != null ? x.shanten_258 : own;
    // ready: the waits that win now (the scorer's), else the words' own count — the shape's
    // waits counted tiles a 2/5/8 pair refuses ("听 7 张" over "一向听"; "听 13 张" over "胡牌张 7 张")
    const wins = (x.waits || []).filter(w => (w.self_draw && w.self_draw.ok) || (w.discard && w.discard.ok));
    if (wins.length) line += ` · ${t("waits", wins.reduce((n, w) => n + (w.unseen || 0), 0))}`;
    else if (sh != null && sh <= 0 && x.improving_unseen != null) line += ` · ${t("waits", x.improving_unseen)}`;
    else if (sh != null) line += ` · ${t("shanten", Math.max(0, sh))}`;
    else if (x.unseen_total) line += ` · ${t("waits", x.unseen_total)}`;
    d.textContent = line;
    // the reasoning in words, with the numbers (win chance, expected points, danger)
    const why = x.reason && x.reason[document.documentElement.lang.startsWith("zh") ? "zh" : "en"];
    if (why) {
      const r = document.createElement("div");
      r.className = "hint-why";
      r.textContent = why;
      d.appendChild(r);
    }
    box.appendChild(d);
  }
  // The ★ is the expert bot's choice, the figures another model's (hints.py): when another
  // option shows more expected points, the ★'s entry says why they differ.
  const star = h.find(x => x.recommended);
  const differs = star && star.differs && star.differs[document.documentElement.lang.startsWith("zh") ? "zh" : "en"];
  if (differs) {
    const n = document.createElement("div");
    n.className = "hint-why hint-note";
    n.dataset.testid = "hint-differs";
    n.textContent = differs;
    box.appendChild(n);
  }
}

// The hint panel has room of its own while hints are on (issue 21: it covered the top or right
// seat, the wall count and the claim card): a band under the buttons in portrait, a column on the
// right in landscape, ending above the own hand and the action buttons (style.css, .has-hint).
function layoutHints() {
  const on = !!(S.hints && S.seat != null && S.view && S.view.phase !== "over");
  $("game").classList.toggle("has-hint", on);
  const b = $("btn-hints");  // the one-tap switch, for a seated player
  b.classList.toggle("hidden", S.seat == null);
  setAttr(b, "aria-pressed", S.hints ? "true" : "false");
  $("hints-toggle").checked = S.hints;
}

// ------------------------------------------------------------------ settlement
function fillSettlement(v) {
  const seats = S.room && S.room.seats;
  const money = S.coins && S.room && S.coins.match === S.room.match_id ? S.coins : null;
  renderSettlement($("settle-body"), v, { seats, me: S.seat, coins: money && money.hands[v.hand_no],
                                           balance: money && money.balance, card: ruleCard() });
  const mb = $("match-body");
  mb.textContent = "";
  if (v.match_over) renderMatchResult(mb, v, { seats, me: S.seat, coins: money });
  fillSettleButtons(v);
}

/** 继续 while the match goes on; 再来一局 and 回大厅 once it is over. */
function fillSettleButtons(v) {
  const over = !!v.match_over;
  $("btn-lobby").classList.toggle("hidden", !over);
  // a club's table leads back to its club (leftRoom), and says so
  const back = S.room && S.room.settings && S.room.settings.club ? "back_club" : "back_lobby";
  $("btn-lobby").dataset.i18n = back;
  $("btn-lobby").textContent = t(back);
  const seated = S.seat != null;
  const rm = $("btn-rematch");
  rm.classList.toggle("hidden", !over || !seated || PAGE.tableGone);
  const accepted = (S.rematch || []).includes(S.seat);
  rm.disabled = accepted;
  const humans = S.room ? S.room.seats.filter(s => s.player_id && !s.bot && !s.escaped).length : 0;
  // (the others' agreement shows before one's own too: the host saw a bare 再来一局)
  const agreed = (S.rematch || []).length;
  rm.textContent = accepted ? t("rematch_wait", agreed, humans) : agreed ? t("rematch_some", agreed, humans) : t("rematch");
  const host = S.room && (S.room.host || S.room.owner);
  $("btn-rematch-force").classList.toggle("hidden", !over || !S.pid || S.pid !== host || humans < 2 || PAGE.tableGone);
  $("overlay-close").classList.toggle("hidden", over);
  const rv = $("btn-review");  // 复盘: the replay viewer with this seat's review open
  rv.classList.toggle("hidden", !over || S.matchId == null);
  if (over && S.matchId != null) rv.href = `/replay/${S.matchId}?review=${S.seat != null ? S.seat : 0}`;
  const cd = $("btn-card");  // 战绩: the result card
  cd.classList.toggle("hidden", !over || S.matchId == null);
  if (over && S.matchId != null) cd.href = `/replay/${S.matchId}?card=1`;
}

function renderSettlementState(v) {
  if (S.settleHand != null && S.seat != null && v.hand_no !== S.settleHand) closeSettlement();  // dealt
  // The match may end after its last hand's settlement was shown, with no hand in play (解散
  // agreed between hands): that settlement is shown again, now with the match's result.
  const shown = S.settleView;
  const ended = v.match_over && !(shown && shown.match_over && shown.hand_no === v.hand_no);
  const fresh = !S.settleClosed.has(v.hand_no) && S.settleHand !== v.hand_no;
  if (v.phase === "over" && "result" in v && (fresh || ended)) {
    S.settleClosed.delete(v.hand_no);
    S.settleHand = v.hand_no;
    S.settleView = v;
    fillSettlement(v);
    $("settlement").classList.remove("hidden");
    $("overlay-close").focus({ preventScroll: true });
  }
  updateSettleNext();
}

function updateSettleNext() {
  const v = S.view;
  const p = $("settle-next");
  // the countdown also on the 继续 button itself (in sight on a landscape phone)
  const secs = S.settle && S.settle.at != null && v && !v.match_over ? secondsTo(S.settle.at) : null;
  setText($("overlay-close"), secs == null ? t("continue") : `${t("continue")} (${secs})`);
  if (S.settleHand == null || !v) { p.classList.toggle("hidden", true); return; }
  if (v.hand_no !== S.settleHand) {  // a spectator who kept the panel open
    setText(p, t("next_started"));
  } else if (S.settle && S.settle.at != null && !v.match_over) {
    const mine = S.seat != null && (S.settle.continued || []).includes(S.seat);
    setText(p, t("settle_left", secondsTo(S.settle.at)) + (mine ? ` · ${t("wait_continue")}` : ""));
  } else if (v.match_over && PAGE.tableGone) {
    setText(p, t("table_gone"));
  } else { p.classList.toggle("hidden", true); return; }
  p.classList.toggle("hidden", false);
}

/** 继续: a seated player tells the server (the panel stays until the next deal); a spectator
 * just closes the panel. */
function pressContinue() {
  const v = S.view;
  if (S.seat != null && v && v.phase === "over" && !v.match_over && v.hand_no === S.settleHand) {
    if (net.send({ type: "continue" })) {
      S.settle = { ...(S.settle || {}), continued: [...new Set([...((S.settle || {}).continued || []), S.seat])] };
      $("overlay-close").disabled = true;
      updateSettleNext();
    }
    return;
  }
  closeSettlement();
}

function closeSettlement() {
  $("overlay-close").disabled = false;
  if (S.settleHand != null) S.settleClosed.add(S.settleHand);
  S.settleHand = null;
  $("settlement").classList.add("hidden");
}

// ------------------------------------------------------------------ chat
function addChat(m, old) {
  const d = document.createElement("div");
  const pair = m.phrase && S.phrases[m.phrase];
  // (an emote: its name in the page's language — the server's text is the Chinese one)
  const text = pair ? pair[getLang() === "zh" ? 0 : 1] : (m.emote && emoteText(m.emote)) || m.text;
  const b = document.createElement("b");
  b.textContent = m.from;
  const pic = m.emote ? emoteImg(m.emote) : null;  // clubs: an emote shows its picture
  if (pic) d.append(b, ": ", pic); else d.append(b, `: ${text}`);
  if (m.player_id) d.dataset.player = m.player_id;  // clubs: hidden when muted (etiquette.js)
  $("chatlog").appendChild(d);
  $("chatlog").scrollTop = $("chatlog").scrollHeight;
  const bubbled = !old && bubbleAt(m.player_id, (m.emote && emoteImg(m.emote)) || text);  // an emote: its picture at the seat
  if (!old && $("sheet-chat").classList.contains("hidden") && !$("game").classList.contains("hidden")) {
    PAGE.unread += 1;
    $("btn-chat-open").dataset.unread = String(PAGE.unread);
    // said by its plate: not a second time in a toast over the rivers (a spectator's words
    // have no seat, and a bubble with no free spot does not show: those still come as a toast)
    if (!bubbled) toast(`${m.from}: ${text}`);
  }
}

// A seated speaker's words also show by its plate on the table (chat at the seat); whether they did.
function bubbleAt(pid, text) {
  if (!pid || !S.room || $("game").classList.contains("hidden")) return false;
  const seat = (S.room.seats || []).findIndex(s => s.player_id === pid && !s.escaped);
  const table = $("table");
  const el = seat >= 0 && table && table.querySelector(`.seat[data-seat="${seat}"] .bubble`);
  return !!(el && showBubble(el, text));
}

function sendChat() {
  const v = $("chat-input").value.trim();
  if (!v) return;
  if (net.send({ type: "chat", text: v })) $("chat-input").value = "";
}

function renderPhrases() {
  const box = $("phrases");
  box.textContent = "";
  for (const [id, pair] of Object.entries(S.phrases)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "phrase";
    b.textContent = pair[getLang() === "zh" ? 0 : 1];
    b.addEventListener("click", () => net.send({ type: "chat", phrase: id }));
    box.appendChild(b);
  }
}

// ------------------------------------------------------------------ sheets, menu
function openSheet(id) {  // opens at its top (离开 and the switches), not where it was last scrolled
  $(id).classList.remove("hidden");
  const body = $(id).querySelector(".sheet-body");
  if (body) body.scrollTop = 0;
}
function closeSheet(id) { $(id).classList.add("hidden"); }

function leaveRoom() {
  if (S.room && S.room.status === "playing" && S.seat != null && !(S.view && S.view.match_over)
      && !window.confirm(t("escape_confirm"))) return;
  net.send({ type: "leave" });
  closeSheet("sheet-menu");
}

// Hints are a switch on the connection (the server then adds them to every frame where the seat
// has a decision): ask once per socket and room, never in answer to a frame ("conn ok" follows
// every frame, and asking each time flooded the connection: issue 21).
function askHints() {
  if (S.conn !== "ok" || !S.room || !S.hints) return;
  const key = `${net.socketGeneration()}:${S.room.code}`;
  if (PAGE.hintsAsked === key) return;
  if (net.send({ type: "hints", on: true })) PAGE.hintsAsked = key;
}

function wire() {
  $("langbtn").addEventListener("click", toggleLang);
  $("menu-lang").addEventListener("click", toggleLang);
  $("btn-menu").addEventListener("click", () => openSheet("sheet-menu"));
  $("btn-chat-open").addEventListener("click", () => {
    PAGE.unread = 0;
    delete $("btn-chat-open").dataset.unread;
    clearToast();  // (a message's toast lay over the phrases: the sheet's log shows it)
    openSheet("sheet-chat");
  });
  const openFair = () => { renderFair($("fair-body"), S.view, PAGE.lastOver); openSheet("sheet-fair"); };
  $("btn-fair").addEventListener("click", openFair);
  $("btn-settle-fair").addEventListener("click", openFair);
  for (const b of document.querySelectorAll("[data-close]")) b.addEventListener("click", () => closeSheet(b.dataset.close));
  for (const s of document.querySelectorAll(".sheet")) s.addEventListener("click", e => { if (e.target === s) closeSheet(s.id); });
  document.addEventListener("keydown", e => { if (e.key === "Escape") for (const s of document.querySelectorAll(".sheet")) closeSheet(s.id); });
  $("btn-chat").addEventListener("click", sendChat);
  $("chat-input").addEventListener("keydown", e => { if (e.key === "Enter") sendChat(); });
  $("auto-toggle").addEventListener("change", () => net.send({ type: "auto", on: $("auto-toggle").checked }));
  // hints: the switch in the menu and the one-tap 提示 button on the table are one setting
  const setHints = on => {
    S.hints = on;
    save("laizi.hints", S.hints ? "1" : "0");
    PAGE.hintsAsked = null;
    if (S.hints) askHints();
    else { net.send({ type: "hints", on: false }); S.hintsData = null; }
    if (S.view) render();
  };
  $("hints-toggle").checked = S.hints;
  $("hints-toggle").addEventListener("change", () => setHints($("hints-toggle").checked));
  $("btn-hints").addEventListener("click", () => setHints(!S.hints));
  $("sound-toggle").checked = soundEnabled();
  $("sound-toggle").addEventListener("change", () => setSound($("sound-toggle").checked));
  $("voice-toggle").checked = voiceEnabled();
  $("voice-toggle").addEventListener("change", () => setVoice($("voice-toggle").checked));
  $("menu-copy").addEventListener("click", copyLink);
  // A phone turned round (or a window resized): the 听 line chooses its chips and words for the
  // new size, and a 碰! still showing moves to a free spot of the new table — a render, once a
  // frame, nothing sent.
  let resized = 0;
  addEventListener("resize", () => {
    if (resized) return;
    resized = requestAnimationFrame(() => { resized = 0; if (S.view && !$("game").classList.contains("hidden")) render(); });
  });
  $("btn-leave").addEventListener("click", leaveRoom);
  $("btn-leave2").addEventListener("click", leaveRoom);
  $("overlay-close").addEventListener("click", pressContinue);
  $("btn-rematch").addEventListener("click", () => net.send({ type: "rematch" }));
  initDissolve();  // clubs: 解散 by vote
  initEtiquette();  // clubs: mute and report
  initEmotes();  // clubs: emotes
  $("btn-rematch-force").addEventListener("click", () => net.send({ type: "rematch", force: true }));
  $("btn-lobby").addEventListener("click", () => {
    closeSettlement();
    if (PAGE.tableGone) { leftRoom(true); return; }  // the room left the server already: nothing to tell it
    PAGE.leaving = true;
    net.send({ type: "leave" });
  });
  store.on("conn", () => {
    $("conn-lost").classList.toggle("hidden", S.conn !== "lost");
    askHints();
  });
  onLang(() => {
    renderPhrases();
    loadPresets();
    if (!S.room) loadRooms();
    if (S.room && S.room.status === "lobby") renderRoom();
    if (S.settleHand != null && S.settleView) fillSettlement(S.settleView);
    if (S.view) render();
  });
  setInterval(tick, 250);
}

function tick() {
  const pub = turnTimer();
  const left = `${deadlineLeft()}/${pub ? pub.left : ""}/${S.settle ? secondsTo(S.settle.at) : ""}`;
  if (left === PAGE.lastShown || !S.view) return;
  PAGE.lastShown = left;
  if (PAGE.table) updateTimers(PAGE.table, S.view, ctx());
  renderStatus(S.view);
  updateSettleNext();
}

function boot() {
  setLang(getLang());
  initLobby();
  initQuick();    // social
  initFriends();  // social
  wire();
  $("nick").value = S.nick;
  const rp = /^\/replay\/(\d+)/.exec(location.pathname);
  if (rp) { showPage("replay"); openReplay(rp[1]); return; }
  const rm = /^\/room\/([A-Za-z0-9]+)/.exec(location.pathname);
  S.wantRoom = rm ? rm[1].toUpperCase() : null;
  if (rm && new URLSearchParams(location.search).has("sit")) S.sitOnJoin = true;  // a club quick-seat on another node
  showPage("lobby");
  loadPresets();
  loadRooms();
  net.connect();
  setInterval(() => { if (!S.room && !document.hidden && !$("lobby").classList.contains("hidden")) loadRooms(); }, 5000);
  registerWorker();
}

// The service worker at /sw.js (scope "/": the pages work offline after a first visit); the old
// registration of /static/sw.js (scope /static/, which controlled no page) is removed.
function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.getRegistrations()
    .then(rs => rs.filter(r => new URL(r.scope).pathname === "/static/").forEach(r => r.unregister()))
    .catch(() => {});
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

boot();
