// Friends (好友) and invites (邀请): the lobby's friends panel (online dot, the room a friend is in,
// join), requests in and out, and the room's invite panel; invites arrive on the game's
// WebSocket ("invite") and are also fetched every few seconds (sent while this page was closed).
// Text via textContent only.
import { S, SOC, store } from "./state.js";
import * as net from "./net.js";
import { onLang, getLang, t } from "./i18n.js";
import { joinCode } from "./lobby.js";
import { showError, toast } from "./ui.js";
import { api } from "./api.js";
import { w } from "./quick.js";

const $ = id => document.getElementById(id);
const POLL_MS = 6000;  // presence is polled (not pushed) while the panel is on screen


/** An invite names the rules it is for: the room's rule card (规则卡), fetched once per room. */
function inviteCard(code, span) {
  const show = c => { span.textContent = c ? `${t("rule_card")}${t("option_sep")}${c[getLang()] || c.zh}` : ""; };
  if (SOC.inviteCards.has(code)) { SOC.inviteCards.get(code).then(show); return; }
  const p = fetch(`/api/rooms/${encodeURIComponent(code)}`).then(r => (r.ok ? r.json() : null))
    .then(d => (d && d.rule_card) || null).catch(() => null);
  SOC.inviteCards.set(code, p);
  p.then(show);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function button(label, onClick, data = {}) {
  const b = el("button", "", label);
  b.type = "button";
  for (const [k, v] of Object.entries(data)) b.dataset[k] = v;
  b.addEventListener("click", onClick);
  return b;
}

async function op(path, body, done) {
  try {
    const out = await api(path, body, S.token);
    if (done) toast(done(out));
  } catch (e) { showError(e.message); }
  refreshFriends();
}

function who(f) { return f.username && f.username !== f.nickname ? `${f.nickname} (${f.username})` : f.nickname; }

function friendRow(f, inRoomView) {
  const li = el("li", "friend");
  li.dataset.player = f.player_id;
  li.dataset.username = f.username || "";
  const dot = el("span", `dot ${f.online ? "on" : "off"}`);
  dot.title = f.online ? w("online") : w("offline");
  dot.setAttribute("aria-label", dot.title);
  const name = el("span", "fname", who(f));
  const where = el("span", "muted where",
    f.room ? `${w("in_room", f.room)}${f.status === "playing" ? ` · ${w("playing")}` : ""}` : (f.online ? w("online") : w("offline")));
  li.append(dot, name, where);
  const btns = el("span", "fbtns");
  if (inRoomView) {
    if (S.room && f.room === S.room.code) btns.append(el("span", "muted", w("in_here")));
    else if (S.room) btns.append(button(w("invite"), () => op("/api/invites", { player: f.player_id, room: S.room.code },
      () => w("invited", f.nickname)), { invite: f.username || f.player_id }));
  } else {
    if (f.room && !S.room) btns.append(button(w("join"), () => joinCode(f.room, false), { joinFriend: f.room }));
    btns.append(button(w("remove"), () => {
      if (window.confirm(w("remove_q", f.nickname))) op("/api/friends/remove", { player: f.player_id });
    }, { remove: f.username || f.player_id }));
  }
  li.appendChild(btns);
  return li;
}

function renderFriends() {
  $("friends-h").textContent = w("friends");
  $("invites-h").textContent = w("invites");
  $("room-invite-h").textContent = w("invite_friends");
  $("btn-friend-add").textContent = w("add_friend");
  $("f-name").placeholder = w("friend_ph");
  $("f-name").setAttribute("aria-label", w("friend_ph"));
  const note = $("friends-note");
  const reqs = $("friend-requests");
  const list = $("friends");
  const room = $("room-friends");
  reqs.textContent = ""; list.textContent = ""; room.textContent = "";
  $("friend-add").classList.toggle("hidden", !SOC.registered);
  $("room-invite-card").classList.toggle("hidden", !SOC.registered);
  note.classList.toggle("hidden", SOC.registered);
  if (!SOC.registered) {
    note.textContent = `${w("need_account")} `;
    const a = el("a", "", w("to_account"));
    a.href = "/account";
    note.appendChild(a);
    return;
  }
  if (!SOC.friends) return;
  for (const r of SOC.friends.incoming) {
    const li = el("li", "friend req");
    li.append(el("span", "fname", w("wants", who(r))));
    const btns = el("span", "fbtns");
    btns.append(
      button(w("accept"), () => op("/api/friends/accept", { player: r.player_id }, () => w("became", r.nickname)), { accept: r.username || r.player_id }),
      button(w("decline"), () => op("/api/friends/decline", { player: r.player_id }), { decline: r.username || r.player_id }));
    li.appendChild(btns);
    reqs.appendChild(li);
  }
  for (const r of SOC.friends.outgoing) reqs.appendChild(el("li", "friend muted", w("pending", who(r))));
  if (!SOC.friends.friends.length) list.appendChild(el("li", "muted", w("no_friends")));
  for (const f of SOC.friends.friends) list.appendChild(friendRow(f, false));
  const online = SOC.friends.friends.filter(f => f.online);
  if (!online.length) room.appendChild(el("li", "muted", w("no_online")));
  for (const f of online) room.appendChild(friendRow(f, true));
}

function renderInvites() {
  const card = $("invites-card");
  const box = $("invites");
  box.textContent = "";
  const now = Date.now();
  SOC.invites = SOC.invites.filter(i => i.until > now);
  card.classList.toggle("hidden", !SOC.invites.length);
  for (const inv of SOC.invites) {
    const li = el("li", "friend invite");
    li.dataset.invite = String(inv.id);
    li.append(el("span", "fname", w("invite_from", inv.from.nickname, inv.room)));
    const card = el("span", "invite-card muted");
    card.dataset.testid = "invite-rule-card";
    inviteCard(inv.room, card);
    li.append(card);
    const btns = el("span", "fbtns");
    const acc = button(w("accept"), () => answer(inv, true), { acceptInvite: inv.room });
    acc.classList.add("primary");
    btns.append(acc, button(w("decline"), () => answer(inv, false)));
    li.appendChild(btns);
    box.appendChild(li);
  }
}

function addInvite(inv) {
  SOC.invites = SOC.invites.filter(i => i.id !== inv.id);
  SOC.invites.unshift({ ...inv, until: Date.now() + inv.expires_in * 1000 });
  renderInvites();
}

async function answer(inv, accept) {
  SOC.invites = SOC.invites.filter(i => i.id !== inv.id);
  renderInvites();
  try {
    const out = await api(`/api/invites/${inv.id}/${accept ? "accept" : "decline"}`, {}, S.token);
    if (accept && out.room) joinCode(out.room, false);
  } catch (e) { showError(e.message); }
}

export async function refreshFriends() {
  if (!S.token || !SOC.registered) { SOC.friends = null; renderFriends(); return; }
  try {
    SOC.friends = await api("/api/friends", null, S.token);
    const got = await api("/api/invites", null, S.token);
    for (const inv of got.invites) if (!SOC.invites.some(i => i.id === inv.id)) addInvite(inv);
  } catch (e) { SOC.friends = null; }
  renderFriends();
  renderInvites();
}

function addFriend() {
  const name = $("f-name").value.trim();
  if (!name) return;
  op("/api/friends/request", { player: name }, out => {
    $("f-name").value = "";
    return out.status === "accepted" ? w("became", out.nickname) : w("requested");
  });
}

export function initFriends() {
  $("btn-friend-add").addEventListener("click", addFriend);
  $("f-name").addEventListener("keydown", e => { if (e.key === "Enter") addFriend(); });
  net.on("invite", m => { addInvite(m.invite); toast(w("invite_from", m.invite.from.nickname, m.invite.room)); });
  net.on("invite_reply", m => { if (!m.accepted) toast(w("declined_inv", m.from.nickname)); });
  net.on("friends", m => {
    if (m.event === "request") toast(w("wants", m.from.nickname));
    else if (m.event === "accepted") toast(w("became", m.from.nickname));
    refreshFriends();
  });
  store.on("social", refreshFriends);  // the coins call told whether this player is registered
  onLang(renderFriends);
  renderFriends();
  // presence is not pushed: the panel is refreshed every few seconds while it is on screen
  setInterval(() => {
    if (document.hidden || !SOC.registered) return;
    const lobby = !$("lobby").classList.contains("hidden");
    const room = !$("roomview").classList.contains("hidden");
    if (lobby || room) refreshFriends();
    else renderInvites();
  }, POLL_MS);
}
