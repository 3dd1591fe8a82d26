// Tournament pages: the list and the create form (/tournaments), one tournament with its
// actions, your table, standings, rounds, tables and the deal checks (/tournaments/{id}).
// The account token is localStorage "laizi.token" (players.js). Text only via textContent.
import { getLang, presetName, wordPack } from "./i18n.js";
import { cardFor, cardText, howtoLink } from "./rules.js";
import { api, storedToken as token } from "./api.js";
import { showMissing } from "./missing.js";

const W = {
  zh: {
    rule_card: "规则卡", howto: "玩法说明",
    title: "武汉麻将", lobby: "大厅", tournaments: "比赛", leaderboard: "排行榜", account: "账号",
    none_yet: "还没有比赛。", create: "创建比赛", login_first: "登录账号后才能创建或报名比赛。",
    name: "名称", preset: "玩法", rounds: "轮数", hands: "每轮手数", seats: "名额", start_at: "开始时间",
    bots_fill: "空位由机器人补齐", duplicate: "复式赛（各桌同牌）", standings: "排名", final: "最终排名",
    entrants: "报名", register: "报名", unregister: "取消报名", check_in: "签到", start: "开始比赛",
    cancel: "取消比赛", your_table: "你的牌桌", sit: "入座", watch: "观战", replay: "回放",
    st_registration: "报名中", st_running: "进行中", st_finished: "已结束", st_cancelled: "已取消",
    club_event: "亲友圈赛事 · 回到亲友圈", no_entrants: "还没有人报名",
    seated_bots: "{0}/{1}（含{2}个机器人）", seated_bot: "{0}/{1}（含{2}个机器人）",
    st_playing: "对局中", st_seating: "入座中", round: "第{0}轮", table: "第{0}桌",
    points: "总分", dup_points: "复式分", best: "最大一手", h2h: "相互", escapes: "逃跑", player: "选手",
    organiser: "组织者", checked_in: "已签到", rules_line: "{0} · {1}轮 × 每轮{2}手 · {3}个名额",
    n_rounds: "{0}轮", n_round: "{0}轮", n_hands: "{0}手", n_hand: "{0}手", n_seats: "{0}个名额",
    dup_on: "复式赛：各桌同一副牌，按同位置比较", bots_on: "机器人补位",
    verify_ok: "✓ 牌墙核验通过（{0}手）", verify_bad: "✗ 核验失败：", same_walls: "各桌牌墙相同",
    commitments: "牌墙承诺（开局前公布）", seeds: "种子（本轮结束后公布）", pending: "本轮结束后公布",
    done: "已完成", created: "比赛已创建", by: "组织者：", starts: "开始：", live: "第{0}/{1}手（实时）",
    per_deal: "逐手比较（同一副牌）", deal: "第{0}手", par: "平均", pos0: "庄家牌", pos1: "下家牌", pos2: "对家牌", pos3: "上家牌",
  },
  en: {
    rule_card: "Rule card", howto: "How to play",
    title: "Wuhan Mahjong", lobby: "Lobby", tournaments: "Tournaments", leaderboard: "Leaderboard", account: "Account",
    none_yet: "No tournaments yet.", create: "Create a tournament", login_first: "Log in with an account to create or enter tournaments.",
    name: "Name", preset: "Rules", rounds: "Rounds", hands: "Hands per round", seats: "Seats", start_at: "Starts at",
    bots_fill: "Bots fill empty seats", duplicate: "Duplicate (same walls at every table)", standings: "Standings",
    final: "Final ranking", entrants: "Entrants", register: "Register", unregister: "Withdraw", check_in: "Check in",
    start: "Start", cancel: "Cancel", your_table: "Your table", sit: "Sit down", watch: "Watch", replay: "Replay",
    st_registration: "registration", st_running: "running", st_finished: "finished", st_cancelled: "cancelled",
    club_event: "A club's event · back to the club", no_entrants: "Nobody has entered yet",
    seated_bots: "{0}/{1} ({2} bots)", seated_bot: "{0}/{1} ({2} bot)",
    st_playing: "playing", st_seating: "seating", round: "Round {0}", table: "Table {0}",
    points: "Points", dup_points: "Duplicate", best: "Best hand", h2h: "H2H", escapes: "Escapes", player: "Player",
    organiser: "Organiser", checked_in: "checked in", rules_line: "{0} · {1} × {2} · {3}",
    n_rounds: "{0} rounds", n_round: "{0} round", n_hands: "{0} hands", n_hand: "{0} hand", n_seats: "{0} seats",
    dup_on: "Duplicate: every table plays the same walls, compared seat by seat", bots_on: "bots fill",
    verify_ok: "✓ walls verified ({0} hands)", verify_bad: "✗ check failed: ", same_walls: "same walls at every table",
    commitments: "Wall commitments (published before play)", seeds: "Seeds (published after the round)",
    pending: "published after the round", done: "Done", created: "Tournament created", by: "Organiser: ", starts: "Starts: ",
    live: "hand {0}/{1} (live)",
    per_deal: "Deal by deal (the same walls)", deal: "Deal {0}", par: "par", pos0: "dealer's hand", pos1: "next player's hand",
    pos2: "opposite player's hand", pos3: "previous player's hand",
  },
};
const lang = getLang();  // (this page has no language switch)
const t = wordPack(W);
const $ = id => document.getElementById(id);
const num = x => x == null ? "–" : String(Math.round(x * 100) / 100);
/** "kaikoufan · 1 round × 2 hands · 8 seats" (one and many in English; 轮 and 手 in Chinese). */
function rulesLine(s) {
  if (lang !== "en") return t("rules_line", presetName(s.preset), s.rounds, s.hands_per_round, s.seats);
  const n = (k, x) => t(x === 1 ? k : `${k}s`, x);
  return t("rules_line", presetName(s.preset), n("n_round", s.rounds), n("n_hand", s.hands_per_round), t("n_seats", s.seats));
}

function el(tag, text = "", cls = "") {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function link(href, text, cls = "") { const a = el("a", text, cls); a.href = href; return a; }

function show(msg, ok = false) {
  const box = $(ok ? "p-ok" : "p-error");
  $(ok ? "p-error" : "p-ok").classList.add("hidden");
  box.textContent = msg;
  box.classList.remove("hidden");
  setTimeout(() => box.classList.add("hidden"), 6000);
}


async function whoAmI() {
  if (!token()) return null;
  try { return await api("/api/account/me"); } catch (e) { return null; }
}

// ------------------------------------------------------------------ list + create
/** Who takes the places: the players, and the bots that filled the empty ones at the start
 *  (8/8 with 6 bots; it said 2/8). A field filled up to whole tables may pass the places asked. */
function seated(x) {
  const bots = x.bots || 0, n = x.entrants + bots, places = Math.max(x.settings.seats, n);
  return bots ? t(bots === 1 ? "seated_bot" : "seated_bots", n, places, bots) : `${n}/${places}`;
}

async function renderList() {
  $("v-list").classList.remove("hidden");
  const [data, me, presets] = await Promise.all([
    api("/api/tournaments").catch(e => { show(e.message); return { tournaments: [] }; }),
    whoAmI(), api("/api/presets").catch(() => ({ presets: ["kaikoufan"] }))]);
  $("me").textContent = me ? (me.nickname || me.username) : "";
  const ul = $("t-list");
  ul.replaceChildren();
  for (const x of data.tournaments) {
    const li = el("li");
    li.append(link("/tournaments/" + x.id, x.name), el("span", t("st_" + x.status), "t-tag " + x.status),
      el("span", `${seated(x)} · ${rulesLine(x.settings)}`, "muted"));
    if (x.settings.duplicate) li.append(el("span", t("duplicate"), "t-tag"));
    ul.appendChild(li);
  }
  $("t-none").classList.toggle("hidden", data.tournaments.length > 0);
  const acc = !!(me && me.registered);
  $("f-create").classList.toggle("hidden", !acc);
  $("c-login").classList.toggle("hidden", acc);
  const sel = $("c-preset");
  const keep = sel.value;  // (the options by their names, 开口番: they showed the ids, kaikoufan)
  sel.replaceChildren(...presets.presets.map(p => { const o = el("option", presetName(p)); o.value = p; return o; }));
  if (keep && presets.presets.includes(keep)) sel.value = keep;
}

function wireCreate() {
  $("f-create").addEventListener("submit", async ev => {
    ev.preventDefault();
    const body = {
      name: $("c-name").value, preset: $("c-preset").value,
      rounds: Number($("c-rounds").value), hands_per_round: Number($("c-hands").value),
      seats: Number($("c-seats").value), bots_fill: $("c-bots").checked, duplicate: $("c-dup").checked,
    };
    if ($("c-start").value) body.start_at = new Date($("c-start").value).toISOString();
    try {
      const out = await api("/api/tournaments", body);
      show(t("created"), true);
      location.href = "/tournaments/" + out.id;
    } catch (e) { show(e.message); }
  });
}

// ------------------------------------------------------------------ one tournament
// this module's state, in one place (tests/test_architecture.py: no module-level let)
const ST = { timer: null, names: new Map() };

function actionButton(label, path, id) {
  const b = el("button", t(label));
  b.type = "button";
  b.id = id;
  b.addEventListener("click", async () => {
    try { await api(path, {}); show(t("done"), true); } catch (e) { show(e.message); }
    await renderOne();
  });
  return b;
}

function renderHead(d) {
  $("o-name").textContent = d.name;
  const s = d.settings;
  let sub = `${t("st_" + d.status)} · ${t("by")}${d.organiser.nickname || d.organiser.player_id}`;
  if (d.start_at) sub += ` · ${t("starts")}${new Date(d.start_at).toLocaleString()}`;
  if (d.status === "running") sub += ` · ${t("round", d.current_round)}/${s.rounds}`;
  $("o-sub").textContent = sub;
  // a club's event: the way back to its club (the page had none)
  $("o-club").classList.toggle("hidden", !d.club);
  if (d.club) { $("o-club-link").textContent = t("club_event"); $("o-club-link").href = `/clubs/${d.club}`; }
  let rules = rulesLine(s);
  if (s.bots_fill) rules += " · " + t("bots_on");
  if (s.duplicate) rules += " · " + t("dup_on");
  $("o-rules").textContent = rules;
  // the rule card (规则卡) the tournament's tables play under, and its 玩法说明
  const ruleSet = { ...(s.options || {}), preset_name: s.preset };
  $("o-card-h").textContent = t("rule_card");
  $("o-howto").textContent = t("howto");
  cardFor(ruleSet).then(c => {
    $("o-card").textContent = cardText(c);
    if (c) $("o-howto").href = howtoLink(c.rules);
    $("o-card-line").classList.toggle("hidden", !c);
  });
  const box = $("o-actions");
  box.replaceChildren();
  const me = d.me;
  const base = `/api/tournaments/${d.id}/`;
  if (me && d.status === "registration") {
    if (!me.registered) box.appendChild(actionButton("register", base + "register", "b-register"));
    else {
      if (!me.checked_in) box.appendChild(actionButton("check_in", base + "check-in", "b-checkin"));
      box.appendChild(actionButton("unregister", base + "unregister", "b-unregister"));
    }
  }
  if (me && me.organiser && d.status === "registration") box.appendChild(actionButton("start", base + "start", "b-start"));
  if (me && me.organiser && (d.status === "registration" || d.status === "running")) box.appendChild(actionButton("cancel", base + "cancel", "b-cancel"));
  const mine = $("o-table");
  mine.replaceChildren();
  mine.classList.toggle("hidden", !(me && me.table));
  if (me && me.table) {
    mine.append(el("span", `${t("your_table")}: ${t("table", me.table.number)} · ${me.table.room}`),
      link("/room/" + me.table.room, t("sit")));
    mine.lastChild.id = "b-sit";
  }
}

function renderStandings(d) {
  const card = $("o-standings-card");
  card.classList.toggle("hidden", !d.standings.length);
  if (!d.standings.length) return;
  $("o-standings-title").textContent = d.final ? t("final") : t("standings");
  const dup = d.settings.duplicate;
  const head = ["#", t("player"), ...(dup ? [t("dup_points")] : []), t("points"),
    ...d.rounds.map(r => t("round", r.number)), t("best"), t("escapes")];
  const tr = el("tr");
  head.forEach((h, i) => tr.appendChild(el("th", h, i > 1 ? "num" : "")));
  $("o-standings").tHead.replaceChildren(tr);
  const body = $("o-standings").tBodies[0];
  body.replaceChildren();
  const mePid = d.me && d.me.player_id;
  for (const r of d.standings) {
    const row = el("tr");
    row.appendChild(el("td", String(r.rank)));
    const who = el("td");
    who.appendChild(r.player_id ? link("/players/" + encodeURIComponent(r.player_id), r.nickname) : el("span", r.nickname));
    if (r.player_id && r.player_id === mePid) who.classList.add("me");
    row.appendChild(who);
    if (dup) row.appendChild(el("td", num(r.dup_points), "num"));
    row.appendChild(el("td", num(r.points), "num"));
    for (let i = 0; i < d.rounds.length; i++) row.appendChild(el("td", num(r.rounds[i]), "num"));
    row.appendChild(el("td", num(r.best_hand), "num"));
    row.appendChild(el("td", String(r.escapes), "num"));
    body.appendChild(row);
  }
}

function renderVerify(card, r) {
  const v = r.verify;
  const p = el("p", "", "t-verify " + (v.ok ? "ok" : "bad"));
  p.textContent = v.ok ? t("verify_ok", v.hands_checked) : t("verify_bad") + v.problems.join("; ");
  if (v.ok && v.same_walls && r.tables.length > 1) p.textContent += " · " + t("same_walls");
  p.dataset.ok = v.ok ? "1" : "0";
  card.appendChild(p);
  const det = el("details");
  det.appendChild(el("summary", t("commitments")));
  for (const tab of r.tables) {
    det.appendChild(el("div", `${t("table", tab.number)}:`));
    tab.commitments.forEach((c, i) => det.appendChild(el("div", `#${i + 1} ${c}`, "t-hash")));
    det.appendChild(el("div", `${t("seeds")}: ${tab.seed || t("pending")}`, "t-hash"));
  }
  card.appendChild(det);
}

// The duplicate comparison: per deal, each table's result for each hand of the wall
// (dealer's, 下家's, 对家's, 上家's) and its difference from the field's average.
function renderDeals(card, deals, mePid) {
  const det = el("details", "", "t-deals");
  det.appendChild(el("summary", t("per_deal")));
  for (const dl of deals) {
    det.appendChild(el("div", `${t("deal", dl.hand)} · ${t("par")} ${dl.par.map(num).join(" / ")}`, "t-deal-h"));
    const wrap = el("div", "", "p-scroll");
    const table = el("table", "", "p-table t-deal");
    const head = el("tr");
    for (const h of ["", t("pos0"), t("pos1"), t("pos2"), t("pos3")]) head.appendChild(el("th", h));
    table.appendChild(el("thead")).appendChild(head);
    const body = el("tbody");
    for (const tab of dl.tables) {
      const row = el("tr");
      row.appendChild(el("td", t("table", tab.number)));
      for (const c of tab.positions) {
        const td = el("td", `${c.nickname || "?"} ${num(c.delta)} (${c.diff > 0 ? "+" : ""}${num(c.diff)})`);
        if (c.diff > 0) td.classList.add("up"); else if (c.diff < 0) td.classList.add("down");
        if (mePid && ST.names.get(c.entrant_id) === mePid) td.classList.add("me");
        row.appendChild(td);
      }
      body.appendChild(row);
    }
    table.appendChild(body);
    wrap.appendChild(table);
    det.appendChild(wrap);
  }
  card.appendChild(det);
}


function renderRounds(d) {
  ST.names = new Map(d.entrant_list.map(e => [e.id, e.player_id]));
  const box = $("o-rounds");
  box.replaceChildren();
  const mePid = d.me && d.me.player_id;
  for (const r of [...d.rounds].reverse()) {
    const card = el("div", "", "card");
    card.dataset.round = String(r.number);
    card.appendChild(el("h2", `${t("round", r.number)} · ${t("st_" + r.status)}`));
    const grid = el("div", "", "t-tables");
    for (const tab of r.tables) {
      const box2 = el("div", "", "t-table");
      const h = el("h3", t("table", tab.number));
      h.appendChild(el("span", t("st_" + tab.status), "t-tag"));
      if (tab.status === "playing") h.appendChild(link("/room/" + tab.room, t("watch")));
      if (tab.match_id && tab.status === "finished") h.appendChild(link(tab.replay, t("replay")));
      box2.appendChild(h);
      if (tab.live) box2.appendChild(el("div", t("live", tab.live.hand, d.settings.hands_per_round), "muted"));
      for (const s of tab.seats) {
        const line = el("div", "", "t-seat");
        const name = el("span", s.nickname || "?");
        if (s.player_id && s.player_id === mePid) name.classList.add("me");
        const score = s.score != null ? num(s.score) : tab.live ? num(tab.live.scores[s.seat]) : "";
        line.append(name, el("span", score));
        box2.appendChild(line);
      }
      grid.appendChild(box2);
    }
    card.appendChild(grid);
    if (r.deals && r.deals.length) renderDeals(card, r.deals, mePid);
    renderVerify(card, r);
    box.appendChild(card);
  }
}

async function renderOne() {
  $("v-one").classList.remove("hidden");
  const id = /^\/tournaments\/(\d+)/.exec(location.pathname)[1];
  let d;
  try { d = await api("/api/tournaments/" + id); } catch (e) {
    // (no such tournament: say so in the page, with where to go on; another failure: the toast)
    if (e.status === 404) showMissing($("v-one"), e.message, [["/tournaments", t("tournaments")], ["/", t("lobby")]]);
    else show(e.message);
    return;
  }
  renderHead(d);
  renderStandings(d);
  renderRounds(d);
  const ul = $("o-entrants");
  ul.replaceChildren(...d.entrant_list.map(e => el("li", e.nickname + (e.checked_in && d.status === "registration" ? " ✓" : ""))));
  if (!d.entrant_list.length) ul.replaceChildren(el("li", t("no_entrants"), "muted"));
  document.body.dataset.status = d.status;
  clearTimeout(ST.timer);
  if (d.status === "registration" || d.status === "running") ST.timer = setTimeout(renderOne, 3000);
}

// ------------------------------------------------------------------ start
async function start() {
  document.documentElement.lang = lang === "en" ? "en" : "zh-CN";
  for (const e of document.querySelectorAll("[data-w]")) e.textContent = t(e.dataset.w);
  wireCreate();
  if (/^\/tournaments\/\d+/.test(location.pathname)) {
    const me = await whoAmI();
    $("me").textContent = me ? (me.nickname || me.username) : "";
    await renderOne();
  } else await renderList();
  document.body.dataset.ready = "1";
}

start();
