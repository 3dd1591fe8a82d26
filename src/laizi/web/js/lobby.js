// Lobby (nickname, create, join, room list) and the room before the start (seats, bots, link, QR).
import { S } from "./state.js";
import { send, sayHello } from "./net.js";
import { showError, clearError, toast } from "./ui.js";
import { t, getLang, windOf, presetName, botName, botLevelName } from "./i18n.js";
import { loadRules, chosenOptions, optionName } from "./rules.js";
import qrcode from "../vendor/qrcode.mjs";
import { avatarImg, showAvatar, mountMine } from "./avatar.js";

const $ = id => document.getElementById(id);

function btn(label, onClick, data = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  for (const [k, v] of Object.entries(data)) b.dataset[k] = v;
  b.addEventListener("click", onClick);
  return b;
}

export function roomLink() { return `${location.origin}/room/${S.room ? S.room.code : ""}`; }

/** The room's rule card (规则卡, rendered by the server from laizi.rulecatalog) in the current language. */
export function ruleCard(room = S.room) {
  const c = room && room.rule_card;
  return c ? (c[getLang()] || c.zh) : "";
}

/** What 复制链接 copies: the room, its rule card and its link (like the apps' share messages). */
export function shareText() {
  const r = S.room;
  return r ? t("share_text", r.code, ruleCard(r), roomLink()) : roomLink();
}

export async function copyLink() {
  const text = shareText();
  try {
    await navigator.clipboard.writeText(text);
    toast(t("copied"));
  } catch (e) {
    toast(t("copy_failed", text));
  }
}

/** The room link as a QR code (qrcode-generator, vendored), drawn as SVG rects — no innerHTML. */
export function renderQr(box, text) {
  box.textContent = "";
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `-2 -2 ${n + 4} ${n + 4}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", text);
  const bg = document.createElementNS(NS, "rect");
  for (const [k, v] of Object.entries({ x: -2, y: -2, width: n + 4, height: n + 4, fill: "#fff" })) bg.setAttribute(k, v);
  svg.appendChild(bg);
  let d = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c} ${r}h1v1h-1z`;
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.appendChild(path);
  box.appendChild(svg);
  box.dataset.text = text;
}

/** The 段位 range selects of the room form (accounts.ranks: indexes 0-10). */
export function fillRanks() {
  for (const k of ["min", "max"]) {
    const sel = $(`c-rank-${k}`);
    const keep = sel.value;
    sel.textContent = "";
    sel.add(new Option(t("any_rank"), ""));
    (t("ranks") || []).forEach((name, i) => sel.add(new Option(name, String(i))));
    sel.value = keep;
  }
}

export async function loadPresets() {
  fillRanks();  // (again after a language switch)
  try {
    const d = await (await fetch("/api/presets")).json();
    S.botLevels = d.bot_levels || S.botLevels;
    fillBotLevels();
  } catch (e) { /* offline */ }
  await loadRules();  // the preset list and the rule options, in words, from GET /api/rules
}

/** The open rooms (GET /api/rooms), in both lists: the join form's (a phone's) and the desktop's
 * card (style.css shows one of the two). */
export async function loadRooms() {
  let d;
  try { d = await (await fetch("/api/rooms")).json(); } catch (e) { return; }
  for (const id of ["roomlist", "roomlist-wide"]) fillRooms($(id), d.rooms || []);
}

function fillRooms(box, rooms) {
  box.textContent = "";
  if (!rooms.length) { box.textContent = t("no_rooms"); return; }
  for (const r of rooms) {
    const row = document.createElement("div");
    row.className = "row room-row";
    const code = document.createElement("b");
    code.textContent = r.code;
    const info = document.createElement("span");
    const seats = r.players.map((n, i) => ({ nickname: n, bot: (r.bots || [])[i] || null, player_id: (r.bots || [])[i] ? null : n }));
    const who = seats.map((x, i) => (x.bot ? botName(seats, i) : x.nickname || "—"));
    info.textContent = `${presetName(r.preset)} · ${t(`st_${r.status}`)} · ${who.join(", ")}`;
    row.append(code, info,
      btn(t("join"), () => joinCode(r.code, false)),
      btn(t("spectate"), () => joinCode(r.code, true)));
    if (r.match_id && r.status === "finished") {
      const a = document.createElement("a");
      a.href = `/replay/${r.match_id}`;
      a.textContent = t("replay");
      const rv = document.createElement("a");  // 复盘
      rv.href = `/replay/${r.match_id}?review=0`;
      rv.textContent = t("review");
      row.append(a, rv);
    }
    box.appendChild(row);
  }
}

export function fillBotLevels() {
  const sel = $("botlevel");
  const cur = sel.value;
  sel.textContent = "";
  for (const l of S.botLevels) sel.add(new Option(botLevelName(l), l));
  if (cur && S.botLevels.includes(cur)) sel.value = cur;
  else if (S.botLevels.includes("greedy")) sel.value = "greedy";
}

export function joinCode(code, spectate) {
  S.wantRoom = code;
  S.wantSpectate = spectate;
  send({ type: "join", room: code, spectate });
}

// the room form's own numbers (an empty one: its default); out of their range, refused by name
// (圈数 0 was sent as 1)
const ROOM_NUMBERS = ["c-rounds", "c-claim", "c-turn", "c-hands", "c-continue", "c-lapses"];

function createRoom() {
  clearError();  // (a refusal of the last try stayed over the room this one opened)
  const { options, bad } = chosenOptions();
  if (bad) { showError(`${t("bad_option")}${optionName(bad)}`); return; }
  const off = ROOM_NUMBERS.map(id => $(id)).find(i => i && !i.checkValidity());
  if (off) {
    const label = off.closest("label") && off.closest("label").querySelector("span");
    showError(`${t("bad_option")}${label ? label.textContent : off.id}`);
    off.focus();
    return;
  }
  const settings = {
    preset: $("c-preset").value || "kaikoufan", rounds: +$("c-rounds").value || 1,
    claim_seconds: +$("c-claim").value || 8, turn_seconds: +$("c-turn").value || 20, options,
  };
  if (+$("c-hands").value > 0) settings.max_hands = +$("c-hands").value;
  if ($("c-private").checked) settings.private = true;
  if ($("c-rated") && $("c-rated").checked) settings.rated = true;  // players: rated room
  if ($("c-ipwarn") && $("c-ipwarn").checked) settings.ip_warning = true;  // clubs: same-network warning
  const cont = $("c-continue").value.trim();
  if (cont !== "" && Number.isFinite(+cont)) settings.continue_seconds = +cont;
  if (+$("c-lapses").value > 0) settings.auto_after_lapses = +$("c-lapses").value;
  for (const k of ["min", "max"]) {  // a 段位 range: only those players sit (rank_out_of_range)
    const v = $(`c-rank-${k}`).value;
    if (v !== "") settings[`rank_${k}`] = +v;
  }
  const seed = $("c-seed").value.trim();
  if (seed) settings.seed = seed;  // a fixed deal: announced to everyone in the room
  S.sitOnJoin = true;  // the creator sits down at once (seat 0): it came to play, not to watch
  send({ type: "create", settings });
}

export function saveNick() {
  const n = $("nick").value.trim();
  if (!n) return;
  S.nick = n;
  try { localStorage.setItem("laizi.nick", n); } catch (e) { /* ignore */ }
  sayHello(undefined, true);
}

export function initLobby() {
  mountMine($("nick"), () => S.pid);
  $("btn-nick").addEventListener("click", saveNick);
  $("nick").addEventListener("keydown", e => { if (e.key === "Enter") saveNick(); });
  $("btn-create").addEventListener("click", createRoom);
  const join = spectate => { const c = $("j-code").value.trim().toUpperCase(); if (c) joinCode(c, spectate); };
  $("btn-join").addEventListener("click", () => join(false));
  $("btn-watch").addEventListener("click", () => join(true));
  $("j-code").addEventListener("keydown", e => { if (e.key === "Enter") join(false); });
  $("btn-start").addEventListener("click", () => send({ type: "start" }));
  $("btn-copy").addEventListener("click", copyLink);
  // the big buttons 创建房间 / 加入房间 open (and close) their forms under them
  $("open-create").addEventListener("click", () => togglePanel("create"));
  $("open-join").addEventListener("click", () => togglePanel("join"));
  for (const b of document.querySelectorAll(".panel-close")) b.addEventListener("click", () => togglePanel(b.dataset.panel, false));
}

/** Close the lobby's forms (a room joined: the lobby comes back on its first screen). */
export function closePanels() {
  for (const which of ["create", "join"]) {
    $(`${which}-card`).classList.add("hidden");
    $(`open-${which}`).setAttribute("aria-expanded", "false");
    $(`open-${which}`).classList.remove("on");
  }
}

/** Open (or close) the lobby's form behind a big button: "create" or "join". An opened form is
 * brought into view, its first field focused (the room code: the keyboard comes up). */
export function togglePanel(which, open) {
  const card = $(`${which}-card`), btn = $(`open-${which}`);
  const show = open ?? card.classList.contains("hidden");
  card.classList.toggle("hidden", !show);
  btn.setAttribute("aria-expanded", show ? "true" : "false");
  btn.classList.toggle("on", show);
  if (!show) { btn.focus({ preventScroll: true }); return; }
  if (which === "join") loadRooms();
  card.scrollIntoView({ block: "nearest" });
  if (which === "join") $("j-code").focus({ preventScroll: true });
}

/** The room before the start: seats with sit/stand/bot buttons. */
export function renderRoom() {
  const r = S.room;
  if (!r) return;
  $("room-code").textContent = r.code;
  $("room-rules").textContent = t("room_rules", presetName(r.settings.preset), r.settings.rounds)
    + (r.settings.max_hands ? ` · ${t(r.settings.max_hands === 1 ? "room_max_hand" : "room_max_hands", r.settings.max_hands)}` : "")  // (the table says 共 N 局)
    + (r.spectators ? ` · ${t("spectators", r.spectators)}` : "");
  $("room-card").textContent = ruleCard(r);
  const list = $("seats");
  list.textContent = "";
  const host = r.host || r.owner;
  const isHost = !!S.pid && S.pid === host;
  r.seats.forEach((s, i) => {
    const li = document.createElement("li");
    li.className = "seat-row";
    li.dataset.seat = String(i);
    const wind = document.createElement("span");
    wind.className = "wind";
    wind.textContent = windOf(i, 0);
    const who = document.createElement("span");
    who.className = "who";
    const mine = !!S.pid && s.player_id === S.pid;
    if (s.bot && !s.player_id) who.textContent = `${botName(r.seats, i)} · ${botLevelName(s.bot)}`;
    else if (s.player_id) who.textContent = s.nickname + (s.connected ? "" : " ⚡");
    else { who.textContent = t("empty"); who.classList.add("muted"); }
    if (mine) { const star = document.createElement("b"); star.textContent = " ★"; who.appendChild(star); }
    if (s.player_id && s.player_id === host) {
      const h = document.createElement("span"); h.className = "badge"; h.textContent = t("host"); who.appendChild(h);
    }
    if (s.player_id && !s.bot) {
      const rd = document.createElement("span");
      rd.className = `badge ${s.ready ? "b-seat-ready" : "b-seat-unready"}`;  // (not b-ready: the 听 line's, fan.js)
      rd.dataset.ready = s.ready ? "1" : "0";
      rd.textContent = s.ready ? t("is_ready") : t("not_ready");
      who.appendChild(rd);
    }
    const av = avatarImg();
    showAvatar(av, s);
    li.append(wind, av, who);
    const btns = document.createElement("span");
    btns.className = "seat-btns";
    if (r.status === "lobby") {
      if (!s.player_id && !s.bot) {
        btns.append(btn(t("sit"), () => send({ type: "sit", seat: i }), { sit: String(i) }));
        if (isHost) btns.append(btn(t("add_bot"), () => send({ type: "bot", seat: i, level: $("botlevel").value }), { bot: String(i) }));
      }
      if (mine) {
        const rb = btn(s.ready ? t("unready") : t("ready"), () => send({ type: "ready", on: !s.ready }));
        rb.dataset.testid = "ready";
        rb.classList.add(s.ready ? "ghost" : "primary");
        rb.setAttribute("aria-pressed", s.ready ? "true" : "false");
        btns.append(rb, btn(t("stand"), () => send({ type: "stand" })));
      }
      if (s.bot && isHost) btns.append(btn(t("remove_bot"), () => send({ type: "bot", seat: i, level: null }), { unbot: String(i) }));
      if (isHost && s.player_id && !mine) {
        btns.append(btn(t("make_host"), () => send({ type: "host", player_id: s.player_id }), { host: String(i) }),
          btn(t("kick"), () => send({ type: "kick", player_id: s.player_id }), { kick: String(i) }));
      }
    }
    li.appendChild(btns);
    list.appendChild(li);
  });
  // the host's own start counts as its 准备; every other seated player must be ready
  const unready = r.seats.some(s => s.player_id && !s.bot && !s.ready && s.player_id !== host);
  const fills = !!(r.settings && r.settings.bots_fill);  // clubs: bots take the empty seats at the start
  $("btn-start").disabled = !isHost || (!fills && r.seats.some(s => !s.player_id && !s.bot)) || unready;
  $("btn-start").textContent = !isHost ? t("wait_host") : unready ? t("need_ready") : t("start");
  $("botlevel").disabled = !isHost;
  const link = roomLink();
  if ($("qr").dataset.text !== link) renderQr($("qr"), link);
}
