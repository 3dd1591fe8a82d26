// Quick match (快速开始) and coins (游戏币) in the lobby: the levels (场次) with their stake and
// minimum balance, the balance and the daily top-up, the queue's status; the table is announced
// on the game's WebSocket ("quick_match") and joined like any room. Text via textContent only.
import { S, SOC, store } from "./state.js";
import * as net from "./net.js";
import { getLang, onLang, presetName, wordPack } from "./i18n.js";
import { joinCode } from "./lobby.js";
import { showError, toast } from "./ui.js";
import { api } from "./api.js";

const $ = id => document.getElementById(id);

const WORDS = {
  zh: {
    quick: "快速开始", coins: "游戏币", daily: "每日领取", daily_done: "今日已领取", cancel: "取消",
    stake: "底注 {0}", free: "免费", min: "入场 {0}", guests_no: "需注册", need: "需 {0} 币",
    waiting: "{0} · {3} 匹配中… {1} 人等待，{2} 秒后机器人补位", seated: "已入座 {0} · 房间 {1}", playing_at: "你在房间 {0} 的对局还在进行", back: "回到牌桌",
    rules: "规则", queue_n: "{0} 人等待",
    got: "领取 {0} 游戏币", guest_coins: "游客无游戏币（注册后领取）", guest_get: "注册领取", left: "已取消匹配",
    friends: "好友", invites: "邀请", add_friend: "添加好友", friend_ph: "用户名或玩家ID",
    need_account: "登录账号后可添加好友、邀请好友。", to_account: "去登录/注册",
    online: "在线", offline: "离线", in_room: "房间 {0}", playing: "对局中", join: "加入", invite: "邀请",
    accept: "接受", decline: "拒绝", remove: "删除", remove_q: "删除好友 {0}？", requested: "已发送好友请求",
    wants: "{0} 请求加你为好友", pending: "等待 {0} 同意", invited: "已邀请 {0}", invite_from: "{0} 邀请你加入房间 {1}",
    no_friends: "还没有好友", became: "{0} 已成为你的好友", declined_inv: "{0} 拒绝了邀请", invite_friends: "邀请好友",
    no_online: "没有在线好友", in_here: "已在本房间",
  },
  en: {
    quick: "Quick match", coins: "Coins", daily: "Daily coins", daily_done: "Claimed today", cancel: "Cancel",
    stake: "stake {0}", free: "free", min: "min {0}", guests_no: "account", need: "needs {0}",
    waiting: "{0} · {3}: searching… {1} waiting, bots in {2} s", seated: "Seated at {0} · room {1}", playing_at: "Your match in room {0} is still on", back: "Back to the table",
    rules: "Rules", queue_n: "{0} waiting",
    got: "Got {0} coins", guest_coins: "Guests have no coins (register)", guest_get: "register to get", left: "Search cancelled",
    friends: "Friends", invites: "Invites", add_friend: "Add friend", friend_ph: "username or player id",
    need_account: "Log in to add and invite friends.", to_account: "Log in / register",
    online: "online", offline: "offline", in_room: "room {0}", playing: "playing", join: "Join", invite: "Invite",
    accept: "Accept", decline: "Decline", remove: "Remove", remove_q: "Remove friend {0}?", requested: "Friend request sent",
    wants: "{0} wants to be your friend", pending: "waiting for {0}", invited: "Invited {0}", invite_from: "{0} invites you to room {1}",
    no_friends: "No friends yet", became: "{0} is now your friend", declined_inv: "{0} declined the invite", invite_friends: "Invite friends",
    no_online: "No friend online", in_here: "in this room",
  },
};
const LEVEL_NAMES = { en: { novice: "Beginner", junior: "Junior", senior: "Senior" } };

/** A word in the current language, {0}.. filled in. */
export const w = wordPack(WORDS);

// how many wait in each 场次 × rule set queue: {level: {preset: n}} (GET /api/levels)
const PRESET_KEY = "laizi.quickPreset";

function levelName(lv) { return getLang() === "en" ? (LEVEL_NAMES.en[lv.name] || lv.name) : lv.label; }

function renderLevels() {
  const box = $("levels");
  box.textContent = "";
  for (const lv of SOC.levels) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `level-btn lv-${lv.name}`;
    b.dataset.level = lv.name;
    const name = document.createElement("b");
    name.textContent = levelName(lv);
    const info = document.createElement("small");
    info.textContent = lv.stake ? w("stake", lv.stake) : w("free");
    b.append(name, info);
    if (lv.min_balance) {
      const min = document.createElement("small");
      min.textContent = w("min", lv.min_balance);
      b.appendChild(min);
    }
    let why = "";
    if (!lv.guests && !SOC.registered) why = w("guests_no");
    else if (lv.min_balance && (SOC.balance ?? 0) < lv.min_balance) why = w("need", lv.min_balance);
    if (why) {
      b.disabled = true;
      const n = document.createElement("small");
      n.className = "why";
      n.textContent = why;
      b.appendChild(n);
    }
    // how many wait in this 场次's queue of the chosen rule set (GET /api/levels: the cluster's)
    const n = document.createElement("small");
    n.className = "queue-n";
    n.dataset.testid = "queue-count";
    n.textContent = w("queue_n", (SOC.queues[lv.name] || {})[$("quick-preset").value || "kaikoufan"] ?? 0);
    b.appendChild(n);
    b.addEventListener("click", () => enqueue(lv.name));
    box.appendChild(b);
  }
  markWaiting(SOC.quick);
}

/** The waiting counts on the level buttons, in place (a button is not rebuilt under a tap). */
function showCounts() {
  const preset = $("quick-preset").value || "kaikoufan";
  for (const b of document.querySelectorAll("#levels .level-btn")) {
    const n = b.querySelector(".queue-n");
    if (n) n.textContent = w("queue_n", (SOC.queues[b.dataset.level] || {})[preset] ?? 0);
  }
}

function markWaiting(q) {
  for (const b of document.querySelectorAll("#levels .level-btn")) {
    const on = !!q && q.status === "waiting" && b.dataset.level === q.level;
    b.classList.toggle("waiting", on);
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

/** The rule-set picker (one line per 场次 × rule set) and the chosen set's rule card. */
function renderPresets() {
  const sel = $("quick-preset");
  $("quick-preset-l").textContent = w("rules");
  if (!SOC.presets.length) return;
  const keep = sel.value || localStorage.getItem(PRESET_KEY) || "kaikoufan";
  sel.textContent = "";
  for (const p of SOC.presets) sel.add(new Option(presetName(p.id), p.id));
  sel.value = SOC.presets.some(p => p.id === keep) ? keep : SOC.presets[0].id;
  const p = SOC.presets.find(x => x.id === sel.value);
  $("quick-rule-card").textContent = p ? (p.card[getLang() === "en" ? "en" : "zh"] || "") : "";
}

function takeLevels(d) {
  if (d.presets) { SOC.presets = d.presets; renderPresets(); }
  for (const lv of d.levels || []) if (lv.queues) SOC.queues[lv.name] = lv.queues;
  showCounts();
}

/** The waiting counts of every 场次 × rule set queue (GET /api/levels), shown on the levels. */
async function refreshQueues() {
  try {
    const d = await (await fetch("/api/levels")).json();
    for (const lv of d.levels || []) if (lv.queues) SOC.queues[lv.name] = lv.queues;  // the picker stays as it is
    showCounts();
  } catch (e) { /* offline: the counts stay */ }
}

function renderCoins(d) {
  $("quick-h").textContent = w("quick");
  $("coins-label").textContent = w("coins");
  const bal = $("coins-bal");
  bal.textContent = "";
  bal.title = "";
  if (d && d.registered) bal.textContent = String(d.balance);
  else if (d) {  // a guest: no coins, and a way to get them a phone can tap (not a hover title)
    const a = document.createElement("a");
    a.href = "/account";
    a.textContent = w("guest_get");
    a.title = w("guest_coins");
    a.dataset.testid = "coins-register";
    bal.appendChild(a);
  } else bal.textContent = "—";
  const daily = $("btn-daily");
  daily.classList.toggle("hidden", !(d && d.registered));
  daily.disabled = !!(d && d.daily && d.daily.claimed);
  daily.textContent = daily.disabled ? w("daily_done") : `${w("daily")} +${d && d.daily ? d.daily.amount : ""}`;
  $("btn-quick-leave").textContent = w("cancel");
}

/** Balance, levels and daily state from the server (after each welcome and every match). */
export async function refreshCoins() {
  if (!S.token) return;
  try {
    const d = await api("/api/coins?limit=5", null, S.token);
    SOC.registered = d.registered; SOC.balance = d.balance; SOC.levels = d.levels; SOC.me = d.player_id;
    takeLevels(d);
    renderCoins(d);
    renderLevels();
    store.emit("social");
    SOC.coinsTries = 0;
  } catch (e) {
    if (e.status === 401) { SOC.registered = false; renderCoins(null); return; }
    // offline or the server busy a moment: ask again soon (not only at the next 15 s round)
    if (++SOC.coinsTries <= 3) setTimeout(refreshCoins, 2000 * SOC.coinsTries);
  }
}

function showQuick(q) {
  SOC.quick = q;
  const st = $("quick-status");
  const leave = $("btn-quick-leave");
  clearTimeout(SOC.pollTimer);
  markWaiting(q);
  if (q && q.status === "waiting") {
    const lv = SOC.levels.find(l => l.name === q.level);
    st.textContent = w("waiting", lv ? levelName(lv) : q.level, q.waiting, Math.ceil(q.bots_in),
      presetName(q.preset || "kaikoufan"));
    leave.classList.remove("hidden");
    SOC.pollTimer = setTimeout(pollQuick, 1000);  // the countdown; the table itself comes on the socket
  } else {
    leave.classList.add("hidden");
    const lv = q && SOC.levels.find(l => l.name === q.level);
    // (seated, its match over or left: nothing to say)
    st.textContent = !q || q.status !== "seated" || q.in_play === false ? ""
      : q.level ? w("seated", lv ? levelName(lv) : q.level, q.room) : w("playing_at", q.room);
  }
  // a match still on (after a reload elsewhere, another device): the way back to it
  const back = $("btn-quick-back");
  back.textContent = w("back");
  back.classList.toggle("hidden", !(q && q.status === "seated" && q.in_play));  // (in the lobby: hidden at the table)
}

/** Where the player stands in quick match, shown (a seat at a match in play: 回到牌桌), without
 *  joining anything: on each welcome, and when a new search is refused for a table in play. */
async function checkQuick() {
  if (!S.token) return;
  try { showQuick(await api("/api/quick", null, S.token)); } catch (e) { /* shown at the next welcome */ }
}

async function pollQuick() {
  try {
    const q = await api("/api/quick", null, S.token);
    showQuick(q);
    if (q.status === "seated" && !S.room) joinCode(q.room, false);  // missed the push
  } catch (e) { showQuick(null); }
}

async function enqueue(level) {
  try {
    const preset = $("quick-preset").value || "kaikoufan";
    showQuick(await api("/api/quick", { level, preset }, S.token));
    refreshQueues();
    $("quick-status").scrollIntoView({ block: "nearest" });  // a phone held sideways: keep it in sight
  } catch (e) {
    showError(e.message);
    if (e.code === "quick_busy") checkQuick();  // (its table in play: the way back to it)
  }
}

async function leaveQueue() {
  try { await api("/api/quick/leave", {}, S.token); toast(w("left")); } catch (e) { /* gone already */ }
  showQuick(null);
}

async function claimDaily() {
  try {
    const d = await api("/api/coins/daily", {}, S.token);
    toast(w("got", d.granted));
  } catch (e) { showError(e.message); }
  refreshCoins();
}

export function initQuick() {
  $("btn-daily").addEventListener("click", claimDaily);
  $("btn-quick-leave").addEventListener("click", leaveQueue);
  $("btn-quick-back").addEventListener("click", () => { if (SOC.quick && SOC.quick.room) joinCode(SOC.quick.room, false); });
  $("quick-preset").addEventListener("change", () => {
    try { localStorage.setItem(PRESET_KEY, $("quick-preset").value); } catch (e) { /* private mode */ }
    renderPresets();
    showCounts();  // the counts of the chosen rule set's queues
  });
  net.on("quick_match", m => {
    showQuick({ status: "seated", level: m.label || m.level, room: m.room });
    joinCode(m.room, false);
  });
  let wasOk = false;
  store.on("conn", () => {  // after each welcome (the token is known): balance and levels
    const ok = S.conn === "ok";
    if (ok && !wasOk) { refreshCoins(); checkQuick(); }
    wasOk = ok;
  });
  store.on("lobby", checkQuick);  // back in the lobby: the match it left may be over, or still on
  onLang(() => { refreshCoins(); renderPresets(); showQuick(SOC.quick); });
  fetch("/api/levels").then(r => r.json()).then(d => {
    takeLevels(d);
    if (!SOC.levels.length) SOC.levels = d.levels.map(l => ({ ...l, open: l.guests }));
    renderLevels();
  }).catch(() => {});
  renderCoins(null);
  // back in the lobby (a match ended, a room left): the balance may have changed
  const lobby = $("lobby");
  let shown = !lobby.classList.contains("hidden");
  new MutationObserver(() => {
    const now = !lobby.classList.contains("hidden") && !$("pages").classList.contains("hidden");
    if (now && !shown) {
      refreshCoins();
      // left the table the queue seated us at: "已入座 … 房间 X" is over (issue 21)
      if (SOC.quick && SOC.quick.status === "seated" && !S.room) showQuick(null);
    }
    shown = now;
  }).observe(lobby, { attributes: true, attributeFilter: ["class"] });
  setInterval(() => { if (!S.room && !lobby.classList.contains("hidden") && !document.hidden) refreshCoins(); }, 15000);
  setInterval(() => { if (!S.room && !lobby.classList.contains("hidden") && !document.hidden) refreshQueues(); }, 5000);
}
