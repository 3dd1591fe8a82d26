// Club events (圈内比赛) on a club's page: the club's tournaments (GET /api/clubs/{id}/events,
// each linked to its page /tournaments/{id}) and, for the owner and admins, a short form that
// creates one (POST /api/tournaments {club, name, rounds, seats, bots_fill, duplicate}): only the
// club's members may register. Text only via textContent.
import { wordPack } from "./i18n.js";
import { api } from "./api.js";

const W = {
  zh: { events: "圈内比赛", no_events: "还没有圈内比赛。", new_event: "办一场圈内比赛", name: "名称", rounds: "轮数",
    seats: "名额", bots_fill: "空位由机器人补齐", duplicate: "复式赛（各桌同牌）", create: "创建比赛", members_only: "只有圈内成员可以报名",
    entrants: "{0} 人报名", bots: "{0}个机器人", bot: "1个机器人", st_registration: "报名中", st_running: "进行中", st_finished: "已结束", st_cancelled: "已取消",
    failed: "没有成功：" },
  en: { events: "Club events", no_events: "No club event yet.", new_event: "Hold a club event", name: "Name", rounds: "Rounds",
    seats: "Seats", bots_fill: "Bots fill empty seats", duplicate: "Duplicate (same walls at every table)", create: "Create the event", members_only: "Only the club's members may enter",
    entrants: "{0} entered", bots: "{0} bots", bot: "1 bot", st_registration: "open", st_running: "playing", st_finished: "finished", st_cancelled: "cancelled",
    failed: "That did not work: " },
};
const $ = id => document.getElementById(id);
const t = wordPack(W);
// this module's state, in one place (tests/test_architecture.py: no module-level let)
const ST = { cid: null, wired: false };


function words() {
  for (const e of document.querySelectorAll("[data-ev]")) e.textContent = t(e.dataset.ev);
}

async function list() {
  let d;
  try { d = await api(`/api/clubs/${ST.cid}/events`); } catch (e) { $("o-events-card").classList.add("hidden"); return; }
  const ul = $("o-events");
  ul.textContent = "";
  for (const ev of d.events) {
    const li = document.createElement("li");
    li.dataset.event = String(ev.id);
    const a = document.createElement("a");
    a.href = `/tournaments/${ev.id}`;
    a.textContent = ev.name;
    const st = document.createElement("span");
    st.className = "t-tag";
    st.textContent = t("st_" + ev.status);
    const n = document.createElement("span");
    n.className = "muted";
    n.textContent = t("entrants", ev.entrants);  // and the bots that filled the empty places
    if (ev.bots) n.textContent += " · " + t(ev.bots === 1 ? "bot" : "bots", ev.bots);
    li.append(a, st, n);
    ul.appendChild(li);
  }
  $("o-no-events").classList.toggle("hidden", d.events.length > 0);
}

async function create(ev) {
  ev.preventDefault();
  const body = { club: ST.cid, name: $("e-name").value, rounds: Number($("e-rounds").value) || 1,
    seats: Number($("e-seats").value) || 4, bots_fill: $("e-bots").checked, duplicate: $("e-dup").checked };
  try { const out = await api("/api/tournaments", body); location.href = `/tournaments/${out.id}`; }
  catch (e) { $("o-events-error").textContent = t("failed") + e.message; $("o-events-error").classList.remove("hidden"); }
}

/** The events of club ``id``: shown to whoever may see the club; ``staff`` may create one. */
export function showClubEvents(id, sees, staff) {
  $("o-events-card").classList.toggle("hidden", !sees);
  $("o-new-event").classList.toggle("hidden", !staff);
  words();
  if (!sees) return Promise.resolve();
  ST.cid = id;
  if (!ST.wired) { ST.wired = true; $("f-event").addEventListener("submit", create); }
  return list();
}
