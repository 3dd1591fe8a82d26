// Account (login, register, log out, change password), profile and leaderboard pages.
// The account token is the same kind the game's WebSocket hello takes: it is kept in
// localStorage "laizi.token" (a guest who registers keeps its player id and history).
// User text only through textContent (CSP and XSS rules of the client, see README).

import { avatarImg, mountChooser, showAvatar } from "./avatar.js";
import { api as call } from "./api.js";
import { getLang, wordPack } from "./i18n.js";
import { showMissing } from "./missing.js";

/** This page sends a token only where it passes one (register, login: none). */
const api = (path, body = null, token = null) => call(path, body, token);

const W = {
  zh: {
    title: "武汉麻将", lobby: "大厅", leaderboard: "排行榜", account: "账号", login: "登录",
    register: "注册", username: "用户名", password: "密码",
    register_hint: "用户名 3–20 个字母、数字或 _ - .；密码 8–128 个字符。以游客身份玩过的战绩会保留。",
    logged_in_as: "已登录：", my_profile: "我的战绩", logout: "退出登录", logout_all: "退出所有设备",
    change_password: "修改密码", old_password: "当前密码", new_password: "新密码", recent: "最近对局",
    match: "对局", place: "名次", score: "得分", rating_change: "积分变化", replay: "回放",
    no_matches: "还没有打完的对局。", board_hint: "排位房间的积分（openskill：μ − 3σ）；机器人不计分。",
    player: "玩家", rating: "积分", matches: "局数", board_empty: "还没有排位对局。",
    hands: "手数", wins: "胡牌", win_rate: "胡牌率", self_draw_share: "自摸占比", big_hands: "大胡",
    points_per_hand: "平均每手得分", liability_paid: "包牌支付", escapes: "逃跑", firsts: "第一名",
    average_place: "平均名次", rated_matches: "排位局数", guest: "游客", registered: "注册玩家",
    rank: "排名", unrated: "未参加排位", tier: "段位", review_accuracy: "复盘准确率", review_acc_v: "{0}%（{1} 局）",
    f_preset: "规则", f_result: "结果", f_since: "从", f_until: "到", f_all: "全部",
    res_win: "第一名", res_loss: "非第一", res_escaped: "逃跑", no_match_found: "没有符合条件的对局。", done_login: "登录成功", done_register: "注册成功",
    done_password: "密码已修改", done_logout: "已退出", watch: "观看", since: "加入于", review: "复盘",
    coins: "游戏币", ledger: "游戏币明细", when: "时间", reason: "事项", change: "变动", balance: "余额",
    ledger_empty: "还没有游戏币记录。", r_welcome: "新手礼包", r_daily: "每日领取",
    r_hand: "对局 #{0} 第 {1} 局结算", r_escape_paid: "对局 #{0} 逃跑扣除", r_escape_got: "对局 #{0} 他人逃跑赔付",
  },
  en: {
    title: "Wuhan Mahjong", lobby: "Lobby", leaderboard: "Leaderboard", account: "Account", login: "Log in",
    register: "Register", username: "Username", password: "Password",
    register_hint: "Username: 3–20 letters, digits or _ - .; password: 8–128 characters. What you played as a guest stays yours.",
    logged_in_as: "Logged in as ", my_profile: "My profile", logout: "Log out", logout_all: "Log out everywhere",
    change_password: "Change password", old_password: "Current password", new_password: "New password",
    recent: "Recent matches", match: "Match", place: "Place", score: "Score", rating_change: "Rating change",
    replay: "Replay", no_matches: "No finished matches yet.",
    board_hint: "Ratings of rated rooms (openskill: μ − 3σ); bots are not rated.",
    player: "Player", rating: "Rating", matches: "Matches", board_empty: "No rated matches yet.",
    hands: "Hands", wins: "Wins", win_rate: "Win rate", self_draw_share: "Self-draw share", big_hands: "Big hands",
    points_per_hand: "Points per hand", liability_paid: "Liability paid", escapes: "Escapes", firsts: "Firsts",
    average_place: "Average place", rated_matches: "Rated matches", guest: "Guest", registered: "Registered",
    rank: "Rank", unrated: "Not rated yet", tier: "Tier", review_accuracy: "Review accuracy", review_acc_v: "{0}% ({1} matches)",
    f_preset: "Rules", f_result: "Result", f_since: "From", f_until: "To", f_all: "All",
    res_win: "First place", res_loss: "Not first", res_escaped: "Escaped", no_match_found: "No match fits.", done_login: "Logged in", done_register: "Registered",
    done_password: "Password changed", done_logout: "Logged out", watch: "Watch", since: "Since", review: "Review",
    coins: "Coins", ledger: "Coin history", when: "When", reason: "What", change: "Change", balance: "Balance",
    ledger_empty: "No coin entries yet.", r_welcome: "Welcome gift", r_daily: "Daily top-up",
    r_hand: "Match #{0}, hand {1} settled", r_escape_paid: "Match #{0}: escape penalty",
    r_escape_got: "Match #{0}: paid by a player who escaped",
  },
};
const lang = getLang();  // (this page has no language switch)
const t = wordPack(W);
const $ = id => document.getElementById(id);

function load(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
function save(key, value) {
  try { if (value == null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch (e) { /* ignore */ }
}

function show(msg, ok = false) {
  const el = $(ok ? "p-ok" : "p-error");
  const other = $(ok ? "p-error" : "p-ok");
  other.classList.add("hidden");
  el.textContent = msg;
  el.classList.remove("hidden");
  if (!ok) setTimeout(() => el.classList.add("hidden"), 6000);
}


function signedIn(out) {
  save("laizi.token", out.token);
  if (out.nickname) save("laizi.nick", out.nickname);
}

// ------------------------------------------------------------------ account
async function renderAccount() {
  $("v-account").classList.remove("hidden");
  const token = load("laizi.token");
  let me = null;
  if (token) { try { me = await api("/api/account/me", null, token); } catch (e) { me = null; } }
  const inAcc = !!(me && me.registered);
  $("acc-in").classList.toggle("hidden", !inAcc);
  $("acc-out").classList.toggle("hidden", inAcc);
  $("me").textContent = me ? (me.nickname || me.username) : "";
  if (inAcc) {
    $("acc-name").textContent = me.username;
    $("acc-profile").href = "/players/" + encodeURIComponent(me.player_id);
  }
}

function wireAccount() {
  $("f-login").addEventListener("submit", async ev => {
    ev.preventDefault();
    try {
      signedIn(await api("/api/account/login", { username: $("l-user").value, password: $("l-pass").value }));
      $("l-pass").value = "";
      show(t("done_login"), true);
      await renderAccount();
    } catch (e) { show(e.message); }
  });
  $("f-register").addEventListener("submit", async ev => {
    ev.preventDefault();
    const body = { username: $("r-user").value, password: $("r-pass").value };
    const guest = load("laizi.token");
    if (guest) body.token = guest;
    try {
      let out;
      try { out = await api("/api/account/register", body); } catch (e) {
        if (!guest || !["guest_token_stale", "registered_already"].includes(e.code)) throw e;
        delete body.token;  // a stale or registered token: register a new player instead
        out = await api("/api/account/register", body);
      }
      signedIn(out);
      $("r-pass").value = "";
      show(t("done_register"), true);
      await renderAccount();
    } catch (e) { show(e.message); }
  });
  $("btn-logout").addEventListener("click", () => logout("/api/account/logout"));
  $("btn-logout-all").addEventListener("click", () => logout("/api/account/logout-all"));
  $("f-password").addEventListener("submit", async ev => {
    ev.preventDefault();
    try {
      const out = await api("/api/account/password", { old_password: $("c-old").value, new_password: $("c-new").value }, load("laizi.token"));
      save("laizi.token", out.token);
      $("c-old").value = ""; $("c-new").value = "";
      show(t("done_password"), true);
    } catch (e) { show(e.message); }
  });
}

async function logout(path) {
  try { await api(path, {}, load("laizi.token")); } catch (e) { /* ended already */ }
  save("laizi.token", null);
  show(t("done_logout"), true);
  await renderAccount();
}

// ------------------------------------------------------------------ profile
const pct = x => x == null ? "–" : (Math.round(x * 1000) / 10) + "%";
const num = x => x == null ? "–" : String(Math.round(x * 100) / 100);

function cell(tr, text, cls = "") {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

// ------------------------------------------------------------------ the match list and its filter
// this module's state, in one place (tests/test_architecture.py: no module-level let)
const ST = { PRESETS: [] };  // [{id, zh, en}] from GET /api/rules (the catalogue's words)
const presetWord = id => { const x = ST.PRESETS.find(p => p.id === id); return x ? (lang === "en" ? x.en : x.zh) : id; };

function renderMatches(list, filtered) {
  const body = $("pf-matches").tBodies[0];
  body.replaceChildren();
  for (const m of list) {
    const tr = document.createElement("tr");
    cell(tr, "#" + m.match_id + " · " + m.room + (m.preset ? " · " + presetWord(m.preset) : ""));
    cell(tr, String(m.place) + (m.escaped ? " ⚑" : ""));
    cell(tr, num(m.score), "num");
    const ch = m.rating_change;
    cell(tr, ch == null ? "–" : (ch > 0 ? "+" : "") + num(ch), ch > 0 ? "num up" : ch < 0 ? "num down" : "num");
    const td = cell(tr, "");
    const a = document.createElement("a");
    a.href = m.replay; a.textContent = t("watch");
    const rv = document.createElement("a");  // 复盘 of this player's seat
    rv.href = `/replay/${m.match_id}?review=${m.seat}`; rv.textContent = t("review"); rv.className = "pf-review";
    td.append(a, " · ", rv);
    body.appendChild(tr);
  }
  $("pf-none").textContent = t(filtered ? "no_match_found" : "no_matches");
  $("pf-none").classList.toggle("hidden", list.length > 0);
}

/** The match list's filter: rule set, result, from / to (GET /api/players/{id}?preset&result&since&until). */
async function wireFilter(pid) {
  const sel = (id, items) => {
    const el = $(id);
    el.textContent = "";
    el.add(new Option(t("f_all"), ""));
    for (const [v, w] of items) el.add(new Option(w, v));
  };
  try { ST.PRESETS = (await (await fetch("/api/rules")).json()).presets || []; } catch (e) { ST.PRESETS = []; }
  sel("pf-f-preset", ST.PRESETS.map(p => [p.id, presetWord(p.id)]));
  sel("pf-f-result", ["win", "loss", "escaped"].map(r => [r, t("res_" + r)]));
  const ids = ["pf-f-preset", "pf-f-result", "pf-f-since", "pf-f-until"];
  const go = async () => {
    const q = new URLSearchParams();
    for (const [id, k] of [[ids[0], "preset"], [ids[1], "result"], [ids[2], "since"], [ids[3], "until"]]) {
      if ($(id).value) q.set(k, $(id).value);
    }
    try {
      const p = await api(`/api/players/${encodeURIComponent(pid)}?${q}`);
      renderMatches(p.recent, [...q.keys()].length > 0);
    } catch (e) { show(e.message); }
  };
  for (const id of ids) $(id).addEventListener("change", go);
}

/** A 段位 badge (accounts.ranks: the tier's name in both languages from the server). */
function tierBadge(el, tier) {
  el.textContent = tier ? (lang === "en" ? tier.en : tier.zh) : "";
  el.className = "tier" + (tier ? " tier-" + tier.key : "");
  el.title = t("tier");
  return el;
}

async function renderProfile(pid) {
  $("v-profile").classList.remove("hidden");
  let p;
  try { p = await api("/api/players/" + encodeURIComponent(pid)); } catch (e) {
    // (no such player: say so in the page, with where to go on; another failure: the toast)
    if (e.status === 404) showMissing($("v-profile"), e.message, [["/leaderboard", t("leaderboard")], ["/", t("lobby")]]);
    else show(e.message);
    return;
  }
  $("pf-name").textContent = p.nickname + (p.username ? " (@" + p.username + ")" : "");
  $("pf-sub").textContent = (p.registered ? t("registered") : t("guest")) + (p.since ? " · " + t("since") + " " + p.since.slice(0, 10) : "");
  $("pf-rating").textContent = p.rating
    ? `${t("rating")} ${num(p.rating.rating)} · ${t("rank")} ${p.rating.rank} · μ ${num(p.rating.mu)} σ ${num(p.rating.sigma)}`
    : t("unrated");
  tierBadge($("pf-tier"), p.tier);
  showAvatar($("pf-avatar"), { player_id: p.player_id || pid });
  mountOwnChooser(pid);  // one's own profile: choose or upload an avatar
  const f = p.figures;
  const rows = [
    ["matches", f.matches], ["hands", f.hands], ["wins", f.wins], ["win_rate", pct(f.win_rate)],
    ["self_draw_share", pct(f.self_draw_share)], ["big_hands", f.big_hands],
    ["points_per_hand", num(f.points_per_hand)], ["liability_paid", num(f.liability_paid)],
    ["escapes", f.escapes], ["firsts", f.firsts], ["average_place", num(f.average_place)],
    ["rated_matches", f.rated_matches],
  ];
  // 复盘 accuracy over the listed matches reviewed on this server so far (never built for this)
  if (p.review) rows.push(["review_accuracy", t("review_acc_v", num(p.review.accuracy), p.review.matches)]);
  const dl = $("pf-figures");
  dl.replaceChildren();
  for (const [k, v] of rows) {
    const d = document.createElement("div");
    d.dataset.key = k;
    const dt = document.createElement("dt"); dt.textContent = t(k);
    const dd = document.createElement("dd"); dd.textContent = String(v);
    d.append(dt, dd);
    dl.appendChild(d);
  }
  await wireFilter(pid);  // (the rule sets' words first: each match names its own)
  renderMatches(p.recent, false);
  renderCoins(pid, p);
}

// ------------------------------------------------------------------ coins (balance, own ledger)
function reasonText(e) {
  const m = e.match_id ?? "?";
  switch (e.reason) {
    case "welcome": return t("r_welcome");
    case "daily": return t("r_daily");
    case "hand": return t("r_hand", m, e.hand ?? "?");
    case "escape": return t(e.delta < 0 ? "r_escape_paid" : "r_escape_got", m);
    default: return String(e.reason);
  }
}

async function renderCoins(pid, p) {
  const bal = p.coins && typeof p.coins.balance === "number" ? p.coins.balance : null;
  $("pf-coins").classList.toggle("hidden", bal === null);
  if (bal !== null) $("pf-balance").textContent = String(bal);
  const token = load("laizi.token");
  if (!token) return;
  let c;
  try { c = await api("/api/coins?limit=50", null, token); } catch (e) { return; }
  if (!c || c.player_id !== pid) return;  // someone else's profile: the balance only
  $("pf-coins").classList.remove("hidden");
  $("pf-balance").textContent = String(c.balance);
  const body = $("pf-ledger").tBodies[0];
  body.replaceChildren();
  for (const e of c.ledger) {
    const tr = document.createElement("tr");
    tr.dataset.reason = e.reason;
    const when = cell(tr, e.at ? e.at.slice(5, 16).replace("T", " ") : "–");
    if (e.at) when.title = e.at;
    cell(tr, reasonText(e), "wrap");
    cell(tr, (e.delta > 0 ? "+" : "") + e.delta, e.delta > 0 ? "num up" : e.delta < 0 ? "num down" : "num");
    cell(tr, String(e.balance), "num");
    body.appendChild(tr);
  }
  $("pf-ledger-none").classList.toggle("hidden", c.ledger.length > 0);
  $("v-ledger").classList.remove("hidden");
}

async function mountOwnChooser(pid) {
  const token = load("laizi.token");
  if (!token) return;
  let me = null;
  try { me = await api("/api/account/me", null, token); } catch (e) { return; }
  if (!me || me.player_id !== pid) return;
  $("pf-choose").classList.remove("hidden");
  await mountChooser($("pf-choose"), { token, pid, bigImg: $("pf-avatar"), onError: m => show(m), onSaved: m => show(m, true) });
}

// ------------------------------------------------------------------ leaderboard
async function renderBoard() {
  $("v-board").classList.remove("hidden");
  let data;
  try { data = await api("/api/leaderboard?limit=100"); } catch (e) { show(e.message); return; }
  const body = $("lb").tBodies[0];
  body.replaceChildren();
  for (const r of data.players) {
    const tr = document.createElement("tr");
    cell(tr, String(r.rank));
    const td = cell(tr, "", "lb-who");
    const a = document.createElement("a");
    a.href = "/players/" + encodeURIComponent(r.player_id);
    a.textContent = r.nickname || r.username || r.player_id;
    const img = avatarImg();  // the avatar beside the name
    showAvatar(img, { player_id: r.player_id });
    td.append(img, a);
    tierBadge(cell(tr, "", "lb-tier").appendChild(document.createElement("span")), r.tier);
    cell(tr, num(r.rating), "num");
    cell(tr, String(r.matches), "num");
    body.appendChild(tr);
  }
  $("lb-none").classList.toggle("hidden", data.players.length > 0);
}

// ------------------------------------------------------------------ start
function start() {
  document.documentElement.lang = lang === "en" ? "en" : "zh-CN";
  for (const el of document.querySelectorAll("[data-w]")) el.textContent = t(el.dataset.w);
  const path = location.pathname;
  wireAccount();
  if (path.startsWith("/players/")) renderProfile(decodeURIComponent(path.slice(9)));
  else if (path === "/leaderboard") renderBoard();
  else renderAccount();
  document.body.dataset.ready = "1";
}

start();
