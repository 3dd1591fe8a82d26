// Table etiquette in the chat sheet (issue 26): the other players at the table, each with
// 屏蔽 (mute: the server stops delivering their chat to this player, at every table; what
// was shown already is hidden here) and 举报 (report: a reason and a few words, stored for
// the club's owner and the server's admins). Names and words are set as text. Also the
// same-network warning in the room's lobby (which seats, never addresses; the host may
// start anyway).
import { S, PAGE } from "./state.js";
import * as net from "./net.js";
import { t, onLang } from "./i18n.js";
import { toast } from "./ui.js";
import { apiError } from "./api.js";

const $ = id => document.getElementById(id);
const REASONS = ["abuse", "cheating", "spam", "other"];

function others() {
  const seats = (S.room && S.room.seats) || [];
  return seats.filter(s => s.player_id && !s.bot && s.player_id !== S.pid);
}

function hideMuted() {
  for (const d of $("chatlog").querySelectorAll("div[data-player]")) {
    d.classList.toggle("hidden", PAGE.muted.has(d.dataset.player));
  }
}

function button(text, k, pid, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "small";
  b.textContent = text;
  b.dataset.k = k;
  b.dataset.player = pid;
  b.addEventListener("click", onClick);
  return b;
}

function reportForm(pid) {
  const f = document.createElement("div");
  f.className = "report-form";
  f.dataset.testid = "report-form";
  const sel = document.createElement("select");
  sel.id = "report-reason";
  sel.setAttribute("aria-label", t("report_reason"));
  for (const r of REASONS) {
    const o = document.createElement("option");
    o.value = r;
    o.textContent = t("report_" + r);
    sel.appendChild(o);
  }
  const words = document.createElement("input");
  words.id = "report-text";
  words.maxLength = 200;
  words.placeholder = t("report_ph");
  words.setAttribute("aria-label", t("report_ph"));
  const send = button(t("report_send"), "report_send", pid, () => file(pid, sel.value, words.value));
  f.append(sel, words, send);
  return f;
}

async function file(pid, reason, text) {
  const headers = { "Content-Type": "application/json" };
  if (S.token) headers.Authorization = "Bearer " + S.token;
  let out = {};
  try {
    const r = await fetch("/api/reports", { method: "POST", headers,
      body: JSON.stringify({ player_id: pid, room: S.room && S.room.code, reason, text }) });
    out = await r.json().catch(() => ({}));
    if (!r.ok) { toast(t("report_failed", apiError(r.status, out).message)); return; }
  } catch (e) { toast(t("report_failed", "—")); return; }
  PAGE.reporting = null;
  toast(t("report_done"));
  render();
}

export function render() {
  const box = $("chat-people");
  if (!box) return;
  box.textContent = "";
  const people = others();
  box.classList.toggle("hidden", !people.length);
  for (const s of people) {
    const row = document.createElement("div");
    row.className = "chat-person";
    row.dataset.player = s.player_id;
    const name = document.createElement("span");
    name.className = "grow";
    name.textContent = s.nickname || "?";
    const on = PAGE.muted.has(s.player_id);
    row.append(name,
      button(on ? t("unmute") : t("mute"), "mute", s.player_id,
        () => net.send({ type: "mute", player_id: s.player_id, on: !on })),
      button(t("report"), "report", s.player_id, () => {
        PAGE.reporting = PAGE.reporting === s.player_id ? null : s.player_id;
        render();
      }));
    box.appendChild(row);
    if (PAGE.reporting === s.player_id) box.appendChild(reportForm(s.player_id));
  }
}

function seatLabel(i) {
  const s = S.room && S.room.seats && S.room.seats[i];
  return (s && s.nickname) || String(i + 1);
}

function netWarn(m) {
  const box = $("netwarn");
  const lines = [t("netwarn_head"), ...m.pairs.map(x => t("netwarn_line", seatLabel(x.seats[0]), seatLabel(x.seats[1]),
    t(x.same === "address" ? "net_address" : "net_network")))];
  if (m.unknown && m.unknown.length) lines.push(t("netwarn_unknown", m.unknown.map(seatLabel).join("、")));
  $("netwarn-text").textContent = lines.join(" ");
  const host = !!S.pid && S.room && (S.room.host || S.room.owner) === S.pid;
  $("netwarn-go").classList.toggle("hidden", !host);
  box.classList.remove("hidden");
}

export function initEtiquette() {
  net.on("same_network", netWarn);
  $("netwarn-go").addEventListener("click", () => {
    net.send({ type: "start", confirm: true });
    $("netwarn").classList.add("hidden");
  });
  net.on("muted", m => {
    const before = PAGE.muted;
    PAGE.muted = new Set(m.players || []);
    for (const pid of PAGE.muted) if (!before.has(pid)) toast(t("muted_note", (others().find(s => s.player_id === pid) || {}).nickname || ""));
    hideMuted();
    render();
  });
  $("btn-chat-open").addEventListener("click", render);
  new MutationObserver(hideMuted).observe($("chatlog"), { childList: true });
  onLang(render);
}
