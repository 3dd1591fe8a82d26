// Clubs 亲友圈 (/clubs, /clubs/{id}): my clubs, invitations, join by code, create; one club with
// its open tables (rule cards, seats, quick-seat), rule templates (the create-room rule form of
// rules.js), members with roles (approve, invite, kick, admin, hand over) and the season ranking.
// The account token is localStorage "laizi.token" (players.js). Text only via textContent.
import { getLang, setLang, wordPack, botName, botLevelName } from "./i18n.js";
import { loadRules, chosenOptions, renderRuleForm } from "./rules.js";
import { api, apiError, storedToken as token } from "./api.js";
import { showClubChat } from "./clubchat.js";
import { showClubEvents } from "./clubevents.js";
import { showMissing } from "./missing.js";

const W = {
  zh: {
    title: "武汉麻将", lobby: "大厅", clubs: "亲友圈", tournaments: "比赛", account: "账号", lang: "English",
    login_first: "亲友圈只对注册账号开放：请先登录或注册。", my_clubs: "我的亲友圈", none_yet: "还没有加入亲友圈。",
    invitations: "邀请", awaiting: "等待审核", join: "加入亲友圈", code: "圈号", join_btn: "加入",
    create: "创建亲友圈", name: "名称", avatar: "头像", description: "简介", bots: "机器人补位",
    approval: "加入需要审核", private: "私密（只有成员可见）", create_btn: "创建", settings: "圈子设置", save: "保存",
    tables: "牌桌", quick: "快速入座", no_tables: "现在没有开着的牌桌：从下面的规则模板开一桌。",
    templates: "规则模板", no_templates: "还没有规则模板。", new_template: "新建模板", preset: "玩法", rounds: "圈数",
    max_hands: "局数上限", save_template: "保存模板", members: "成员", requests: "加入申请",
    invite_who: "邀请（用户名）", invite: "邀请", ranking: "积分榜", no_ranking: "本赛季还没有成绩。",
    new_season: "开始新赛季", season: "第 {0} 赛季", no_bots: "不补机器人",
    role_owner: "圈主", role_admin: "管理员", role_member: "成员", role_pending: "待审核", role_invited: "已邀请",
    accept: "接受", decline: "拒绝", approve: "通过", reject: "拒绝", kick: "请出", make_admin: "设为管理员",
    make_member: "取消管理员", transfer: "转让圈主", leave: "退出亲友圈", open_table: "开一桌", delete: "删除",
    bots_now: "和机器人开打",
    enter: "进入", watch: "观战", empty: "空位", st_lobby: "等人中", st_playing: "对局中",
    members_n: "{0} 名成员", code_line: "圈号 {0}", your_role: "你的身份：{0}", sub_line: "{0} · 圈主 {1} · {2}",
    rank: "名次", player: "玩家", points: "积分", matches: "场数", win_rate: "胡牌率", big_hands: "大胡",
    done: "已完成", created: "亲友圈已创建", joined: "已加入", pending_now: "已申请，等待圈主审核", opened: "牌桌已开好",
    confirm_leave: "确定退出这个亲友圈？", confirm_kick: "确定请出 {0}？", confirm_transfer: "确定把圈主转让给 {0}？",
    confirm_season: "开始新赛季？本赛季的积分榜保留可查，新赛季从零开始。", bad_option: "数值不对：",
    private_tag: "私密", public_tag: "公开", approval_tag: "需审核", bots_tag: "机器人：{0}",
    ip_warning: "本圈牌桌开局前提醒同一网络的玩家", ip_tag: "同网提醒",
    picture: "圈子图片", upload: "上传图片", picture_reset: "改用头像", picture_saved: "圈子图片已更新",
    picture_hint: "PNG、JPEG、WebP 或 GIF，不超过 2 MB；服务器会裁成 128×128。", too_big: "图片超过 2 MB",
    winds: "东南西北",
  },
  en: {
    title: "Wuhan Mahjong", lobby: "Lobby", clubs: "Clubs", tournaments: "Tournaments", account: "Account", lang: "中文",
    login_first: "Clubs are for registered accounts: log in or register first.", my_clubs: "My clubs",
    none_yet: "You are in no club yet.", invitations: "Invitations", awaiting: "Awaiting approval",
    join: "Join a club", code: "Club code", join_btn: "Join", create: "Create a club", name: "Name", avatar: "Picture",
    description: "Description", bots: "Bots fill tables", approval: "Joining needs approval",
    private: "Private (members only)", create_btn: "Create", settings: "Club settings", save: "Save",
    tables: "Tables", quick: "Quick seat", no_tables: "No open table now: open one from a rule template below.",
    templates: "Rule templates", no_templates: "No rule template yet.", new_template: "New template", preset: "Rules",
    rounds: "Rounds", max_hands: "Hand limit", save_template: "Save template", members: "Members",
    requests: "Requests to join", invite_who: "Invite (username)", invite: "Invite", ranking: "Ranking",
    no_ranking: "No results this season yet.", new_season: "Start a new season", season: "Season {0}",
    no_bots: "no bots", role_owner: "owner", role_admin: "admin", role_member: "member", role_pending: "pending",
    role_invited: "invited", accept: "Accept", decline: "Decline", approve: "Approve", reject: "Reject", kick: "Remove",
    make_admin: "Make admin", make_member: "Make member", transfer: "Hand over", leave: "Leave the club",
    open_table: "Open a table", delete: "Delete", bots_now: "Play with bots now", enter: "Enter", watch: "Watch", empty: "free",
    st_lobby: "waiting", st_playing: "playing", members_n: "{0} members", code_line: "code {0}",
    your_role: "You: {0}", sub_line: "{0} · owner {1} · {2}", rank: "#", player: "Player",
    points: "Points", matches: "Matches", win_rate: "Win rate", big_hands: "Big hands", done: "Done",
    created: "Club created", joined: "Joined", pending_now: "Asked: waiting for the owner's approval",
    opened: "Table opened", confirm_leave: "Leave this club?", confirm_kick: "Remove {0}?",
    confirm_transfer: "Hand the club over to {0}?",
    confirm_season: "Start a new season? This season's ranking stays readable; the new one starts from zero.",
    bad_option: "Bad value: ", private_tag: "private", public_tag: "public", approval_tag: "approval",
    ip_warning: "Warn before a club table starts about players on one network", ip_tag: "network warning",
    picture: "Club picture", upload: "Upload a picture", picture_reset: "Use the avatar", picture_saved: "Club picture updated",
    picture_hint: "PNG, JPEG, WebP or GIF, up to 2 MB; the server crops it to 128×128.",
    too_big: "The picture is larger than 2 MB",
    bots_tag: "bots: {0}",
    winds: "ESWN",
  },
};
const AVATARS = ["zhong", "bai", "tong", "tiao", "dice", "tower", "bridge", "noodles", "lotus", "plum",
  "crane", "lantern", "fan", "cat", "panda", "fox"];
const LEVELS = ["random", "greedy", "strong", "expert"];

const lang = () => getLang();
const t = wordPack(W);
const $ = id => document.getElementById(id);

function el(tag, text = "", cls = "") {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function link(href, text, cls = "") { const a = el("a", text, cls); a.href = href; return a; }
function img(avatar, cls = "") { const i = el("img", "", cls); i.src = `/static/avatars/${AVATARS.includes(avatar) ? avatar : "zhong"}.svg`; i.alt = ""; return i; }
// A club's picture: its upload (a URL the server gave: /clubs/{id}/picture/{version}), else its drawn avatar
function clubImg(c, cls = "") {
  const i = img(c.avatar, cls);
  if (typeof c.picture === "string" && c.picture.startsWith("/clubs/")) { i.src = c.picture; i.dataset.picture = "upload"; }
  return i;
}
const MAX_PICTURE = 2 * 1024 * 1024;
function button(label, fn, cls = "") {
  const b = el("button", t(label), cls);
  b.type = "button";
  b.dataset.k = label;
  b.addEventListener("click", fn);
  return b;
}

function show(msg, ok = false) {
  const box = $(ok ? "p-ok" : "p-error");
  $(ok ? "p-error" : "p-ok").classList.add("hidden");
  box.textContent = msg;
  box.classList.remove("hidden");
  clearTimeout(ST.noteTimer);
  ST.noteTimer = setTimeout(() => box.classList.add("hidden"), 6000);
}


function applyWords() {
  document.documentElement.lang = lang() === "zh" ? "zh-CN" : "en";
  for (const e of document.querySelectorAll("[data-w]")) e.textContent = t(e.dataset.w);
  for (const e of document.querySelectorAll("button[data-k]")) e.textContent = t(e.dataset.k);
}

function levelSelect(sel, value) {
  sel.replaceChildren(new Option(t("no_bots"), ""), ...LEVELS.map(l => new Option(botLevelName(l), l)));  // (the room's words for them)
  sel.value = value || "";
}

const clubId = () => { const m = location.pathname.match(/^\/clubs\/(\d+)/); return m ? Number(m[1]) : null; };

// ------------------------------------------------------------------ list, join, create
// this module's state, in one place (tests/test_architecture.py: no module-level let): the drawn
// avatars' names (GET /api/avatars), the club shown, the timer that hides the note
// (rankSeason: the club's season when the ranking's picker was last filled)
const ST = { names: [], club: null, noteTimer: null, rankSeason: null };
function clubRow(c, extra = []) {
  const li = el("li");
  li.dataset.club = String(c.id);
  li.append(clubImg(c), link("/clubs/" + c.id, c.name), el("span", t("members_n", c.members), "muted"));
  if (c.role) li.append(el("span", t("role_" + c.role), "t-tag"));
  li.append(...extra);
  return li;
}

async function renderList() {
  $("v-list").classList.remove("hidden");
  let me = null;
  try { me = token() ? await api("/api/account/me") : null; } catch (e) { me = null; }
  $("me").textContent = me ? (me.nickname || me.username || "") : "";
  const acc = !!(me && me.registered);
  $("k-login").classList.toggle("hidden", acc);
  for (const id of ["k-mine-card", "k-join-card", "k-create-card"]) $(id).classList.toggle("hidden", !acc);
  if (!acc) return;
  const sel = $("n-avatar");
  if (!sel.options.length) {
    try { ST.names = (await api("/api/avatars")).avatars; } catch (e) { ST.names = []; }
    sel.addEventListener("change", () => { $("n-avatar-img").src = img(sel.value).src; });
  }
  const keep = sel.value || "zhong";
  sel.replaceChildren(...AVATARS.map(a => {
    const n = ST.names.find(x => x.id === a);
    return new Option(n ? n[lang()] : a, a);
  }));
  sel.value = keep;
  $("n-avatar-img").src = img(keep).src;
  levelSelect($("n-bots"), $("n-bots").value || "greedy");
  let d;
  try { d = await api("/api/clubs"); } catch (e) { show(e.message); return; }
  $("k-mine").replaceChildren(...d.clubs.map(c => clubRow(c)));
  $("k-none").classList.toggle("hidden", d.clubs.length > 0);
  $("k-invited").replaceChildren(...d.invited.map(c => clubRow(c, [
    button("accept", () => act(`/api/clubs/${c.id}/accept`, {}, renderList), "primary"),
    button("decline", () => act(`/api/clubs/${c.id}/decline`, {}, renderList))])));
  $("k-invited-box").classList.toggle("hidden", !d.invited.length);
  $("k-pending").replaceChildren(...d.pending.map(c => clubRow(c)));
  $("k-pending-box").classList.toggle("hidden", !d.pending.length);
}

async function act(path, body, then) {
  try { await api(path, body); show(t("done"), true); } catch (e) { show(e.message); }
  await then();
}

function wireList() {
  $("f-join").addEventListener("submit", async ev => {
    ev.preventDefault();
    try {
      const out = await api("/api/clubs/join", { code: $("j-code").value });
      $("j-code").value = "";
      if (out.status === "pending") { show(t("pending_now"), true); await renderList(); }
      else { show(t("joined"), true); location.href = "/clubs/" + out.club.id; }
    } catch (e) { show(e.message); }
  });
  $("f-create").addEventListener("submit", async ev => {
    ev.preventDefault();
    try {
      const out = await api("/api/clubs", {
        name: $("n-name").value, avatar: $("n-avatar").value, description: $("n-desc").value,
        bots: $("n-bots").value || null, approval: $("n-approval").checked, private: $("n-private").checked });
      show(t("created"), true);
      location.href = "/clubs/" + out.id;
    } catch (e) { show(e.message); }
  });
}

// ------------------------------------------------------------------ one club

function renderHead(c) {
  const head = clubImg(c);
  $("o-avatar").src = head.src;
  $("o-avatar").dataset.picture = head.dataset.picture || "drawn";
  $("o-name").textContent = c.name;
  const season = t("season", c.season);
  let sub = t("sub_line", t("members_n", c.members), c.owner.nickname, season);
  if (c.role) sub += " · " + t("your_role", t("role_" + c.role));
  $("o-sub").textContent = sub;
  const tags = [];
  if (c.code) tags.push(el("span", t("code_line", c.code), "k-code"));
  tags.push(el("span", t(c.private ? "private_tag" : "public_tag")));
  if (c.approval) tags.push(el("span", t("approval_tag")));
  if (c.ip_warning) tags.push(el("span", t("ip_tag")));
  tags.push(el("span", c.bots ? t("bots_tag", botLevelName(c.bots)) : t("no_bots")));
  $("o-tags").replaceChildren(...tags);
  $("o-desc").textContent = c.description || "";
  const acts = [];
  if (c.role === "invited") {
    acts.push(button("accept", () => act(`/api/clubs/${c.id}/accept`, {}, renderOne), "primary"),
      button("decline", () => act(`/api/clubs/${c.id}/decline`, {}, () => { location.href = "/clubs"; })));
  } else if (c.role && c.role !== "owner" && c.role !== "pending") {
    acts.push(button("leave", () => { if (confirm(t("confirm_leave"))) act(`/api/clubs/${c.id}/leave`, {}, () => { location.href = "/clubs"; }); }));
  }
  $("o-actions").replaceChildren(...acts);
  const owner = c.role === "owner";
  $("o-settings-card").classList.toggle("hidden", !owner);
  $("o-picture-card").classList.toggle("hidden", !staff(c));
  $("btn-picture-reset").classList.toggle("hidden", !c.picture);
  if (owner) {
    levelSelect($("s-bots"), c.bots);
    $("s-approval").checked = c.approval;
    $("s-ipwarn").checked = !!c.ip_warning;
    $("s-private").checked = c.private;
  }
}

const member = c => ["owner", "admin", "member"].includes(c.role);
const staff = c => ["owner", "admin"].includes(c.role);

/** A club table's seat as the table names it: a bot 机器人甲… (it said 机器人·简单). */
function seatText(seats, i) {
  const s = seats[i];
  if (!s) return t("empty");
  return s.bot && !s.player_id ? botName(seats, i) : (s.nickname || "?");
}

async function renderTables(c) {
  let d;
  try { d = await api(`/api/clubs/${c.id}/tables`); } catch (e) { show(e.message); return; }
  const box = $("o-tables");
  box.replaceChildren(...d.tables.map(x => {
    const div = el("div", "", "t-table");
    div.dataset.table = x.code;
    const h = el("h3");
    h.append(el("span", x.template_name || x.code), el("span", t("st_" + x.status), "t-tag"));
    if (member(c)) h.append(link("/room/" + x.code, t(x.status === "lobby" && x.free ? "enter" : "watch")));
    div.append(h, el("p", (lang() === "en" ? x.card_en : x.card).text, "k-card"));
    x.seats.forEach((s, i) => {
      const row = el("div", "", "t-seat");
      row.append(el("span", t("winds")[i]), el("span", seatText(x.seats, i), s ? "" : "muted"));
      div.append(row);
    });
    return div;
  }));
  $("o-no-tables").classList.toggle("hidden", d.tables.length > 0);
  $("btn-quick").classList.toggle("hidden", !member(c) || !d.tables.some(x => x.status === "lobby" && x.free));
}

function renderTemplates(c) {
  const ul = $("o-templates");
  ul.replaceChildren(...(c.templates || []).map(tp => {
    const li = el("li");
    li.dataset.template = String(tp.id);
    li.append(el("b", tp.name));
    if (member(c)) li.append(button("open_table", () => openTable(tp.id, false), "primary"));
    if (member(c) && c.bots) li.append(button("bots_now", () => openTable(tp.id, true)));
    if (staff(c)) li.append(button("delete", () => act(`/api/clubs/${c.id}/templates/${tp.id}/delete`, {}, renderOne)));
    li.append(el("span", (lang() === "en" ? tp.card_en : tp.card).text, "k-card"));
    return li;
  }));
  $("o-no-templates").classList.toggle("hidden", (c.templates || []).length > 0);
  $("o-new-template").classList.toggle("hidden", !staff(c));
}

async function openTable(tid, fill) {
  try {
    const out = await api(`/api/clubs/${ST.club.id}/tables`, { template: tid, fill });
    show(t("opened"), true);
    location.href = "/room/" + out.code;
  } catch (e) { show(e.message); }
}

/** A member's or a ranked player's name: its nickname, the one the tables show. */
const playerName = m => m.nickname || m.username || "?";

function memberRow(c, m) {
  const li = el("li");
  li.dataset.player = m.username || m.player_id;
  // the name the player chose, as at the tables (it showed the account's username)
  const name = playerName(m);
  li.append(el("span", name, "k-name"), el("span", t("role_" + m.role), "k-role " + m.role));
  const acts = el("span", "", "k-acts");
  li.append(acts);
  const post = (body, ask) => () => {
    if (ask && !confirm(ask)) return;
    act(`/api/clubs/${c.id}/members`, { ...body, player: m.player_id }, renderOne);
  };
  if (m.role === "pending" && staff(c)) {
    acts.append(button("approve", post({ action: "approve" }), "primary"), button("reject", post({ action: "reject" })));
  } else if (c.role === "owner" && m.role !== "owner" && m.role !== "invited") {
    acts.append(button(m.role === "admin" ? "make_member" : "make_admin",
      post({ action: "role", role: m.role === "admin" ? "member" : "admin" })),
    button("transfer", post({ action: "transfer" }, t("confirm_transfer", name))),
    button("kick", post({ action: "kick" }, t("confirm_kick", name))));
  } else if (c.role === "admin" && m.role === "member") {
    acts.append(button("kick", post({ action: "kick" }, t("confirm_kick", name))));
  }
  return li;
}

async function renderMembers(c) {
  let d;
  try { d = await api(`/api/clubs/${c.id}/members`); } catch (e) { show(e.message); return; }
  $("o-members").replaceChildren(...d.members.map(m => memberRow(c, m)), ...d.invited.map(m => memberRow(c, m)));
  $("o-pending").replaceChildren(...d.pending.map(m => memberRow(c, m)));
  $("o-pending-box").classList.toggle("hidden", !d.pending.length);
  $("f-invite").classList.toggle("hidden", !staff(c));
}

async function renderRanking(c) {
  const sel = $("r-season");
  // the season picked stays picked; a new season (started here or elsewhere) shows the new one
  // (the picker kept the old season: the ranking just reset seemed not to have)
  const want = ST.rankSeason === c.season ? Number(sel.value) || c.season : c.season;
  ST.rankSeason = c.season;
  sel.replaceChildren(...Array.from({ length: c.season }, (_, i) => new Option(t("season", c.season - i), String(c.season - i))));
  sel.value = String(Math.min(want, c.season));
  let d;
  try { d = await api(`/api/clubs/${c.id}/ranking?season=${sel.value}`); } catch (e) { show(e.message); return; }
  const cols = ["rank", "player", "points", "matches", "win_rate", "big_hands"];
  const head = el("tr");
  for (const k of cols) head.append(el("th", t(k), k === "player" ? "" : "num"));
  $("o-ranking").tHead.replaceChildren(head);
  $("o-ranking").tBodies[0].replaceChildren(...d.ranking.map(r => {
    const tr = el("tr");
    tr.dataset.player = r.username || r.player_id;
    const rate = r.hands ? `${Math.round(r.win_rate * 100)}%` : "–";  // no hand played yet
    const vals = [r.rank, playerName(r), r.points, r.matches, rate, r.big_hands];
    vals.forEach((v, i) => tr.append(el("td", String(v), i === 1 ? "" : "num")));
    return tr;
  }));
  $("o-no-ranking").classList.toggle("hidden", d.ranking.length > 0);
  $("btn-season").classList.toggle("hidden", c.role !== "owner");
}

async function renderOne() {
  $("v-one").classList.remove("hidden");
  if (!$("me").textContent && token()) {
    api("/api/account/me").then(me => { $("me").textContent = me.nickname || me.username || ""; }).catch(() => {});
  }
  if (!token()) {  // (a link to a club opened before any visit: clubs are for registered players)
    showMissing($("v-one"), t("login_first"), [["/account", t("account")], ["/", t("lobby")]]);
    return;
  }
  try { ST.club = await api(`/api/clubs/${clubId()}`); } catch (e) {
    // a guest's token or a refused one: as on the list, log in first; no such club: say so
    const login = ["clubs_guest", "token_refused", "not_logged_in"].includes(e.code);
    if (login || e.status === 404) {
      showMissing($("v-one"), login ? t("login_first") : e.message,
        login ? [["/account", t("account")], ["/", t("lobby")]] : [["/clubs", t("my_clubs")], ["/", t("lobby")]]);
    } else {  // (another failure, e.g. after an action: the toast, the club's parts put away as before)
      show(e.message);
      for (const id of ["o-tables-card", "o-templates-card", "o-members-card", "o-ranking-card", "o-chat-card", "o-events-card"]) $(id).classList.add("hidden");
    }
    return;
  }
  renderHead(ST.club);
  renderTemplates(ST.club);
  const sees = member(ST.club) || !ST.club.private;
  for (const id of ["o-tables-card", "o-members-card", "o-ranking-card"]) $(id).classList.toggle("hidden", !sees);
  if (sees) await Promise.all([renderTables(ST.club), renderMembers(ST.club), renderRanking(ST.club)]);
  await showClubChat(ST.club.id, member(ST.club));  // 圈聊: members only
  await showClubEvents(ST.club.id, sees, ["owner", "admin"].includes(ST.club.role));  // 圈内比赛
}

function wireOne() {
  $("p-file").addEventListener("change", async () => {
    const f = $("p-file").files && $("p-file").files[0];
    $("p-file").value = "";
    if (!f) return;
    if (f.size > MAX_PICTURE) { show(t("too_big")); return; }
    try {
      const r = await fetch(`/api/clubs/${ST.club.id}/picture`, { method: "POST", body: f,
        headers: { "Content-Type": f.type || "application/octet-stream", Authorization: "Bearer " + token() } });
      let data = null;
      try { data = await r.json(); } catch (e) { data = null; }
      if (!r.ok) throw apiError(r.status, data);
      show(t("picture_saved"), true);
      await renderOne();
    } catch (e) { show(e.message); }
  });
  $("btn-picture-reset").addEventListener("click", () => act(`/api/clubs/${ST.club.id}/picture/delete`, {}, renderOne));
  $("btn-quick").addEventListener("click", async () => {
    try { const out = await api(`/api/clubs/${ST.club.id}/quick`, {}); location.href = "/room/" + out.code + (out.sit ? "?sit=1" : ""); }
    catch (e) { show(e.message); }
  });
  $("f-invite").addEventListener("submit", async ev => {
    ev.preventDefault();
    await act(`/api/clubs/${ST.club.id}/members`, { action: "invite", player: $("i-name").value }, renderOne);
    $("i-name").value = "";
  });
  $("f-settings").addEventListener("submit", ev => {
    ev.preventDefault();
    act(`/api/clubs/${ST.club.id}`, { bots: $("s-bots").value || null, approval: $("s-approval").checked,
      ip_warning: $("s-ipwarn").checked,
      private: $("s-private").checked }, renderOne);
  });
  $("f-template").addEventListener("submit", async ev => {
    ev.preventDefault();
    const chosen = chosenOptions();
    if (chosen.bad) { show(t("bad_option") + chosen.bad); return; }
    const settings = { preset: $("c-preset").value, options: chosen.options, rounds: Number($("m-rounds").value) || 1 };
    if ($("m-hands").value) settings.max_hands = Number($("m-hands").value);
    await act(`/api/clubs/${ST.club.id}/templates`, { name: $("m-name").value, settings }, renderOne);
    $("m-name").value = "";
    $("o-new-template").open = false;
  });
  $("r-season").addEventListener("change", () => renderRanking(ST.club));
  $("btn-season").addEventListener("click", () => {
    if (confirm(t("confirm_season"))) act(`/api/clubs/${ST.club.id}/season`, {}, renderOne);
  });
  loadRules();
}

// ------------------------------------------------------------------ boot
function boot() {
  applyWords();
  $("k-lang").addEventListener("click", () => {
    setLang(lang() === "zh" ? "en" : "zh");
    applyWords();
    renderRuleForm();
    if (clubId()) renderOne(); else renderList();
  });
  const first = clubId() ? (wireOne(), renderOne()) : (wireList(), renderList());
  first.finally(() => { document.body.dataset.ready = "1"; });
}

boot();
