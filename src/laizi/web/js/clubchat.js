// Club chat (圈聊) on a club's page: the members' messages, oldest first, read every few
// seconds while the page is visible (GET /api/clubs/{id}/chat?after=N), and a line to say
// something (POST; 140 characters, the table chat's budget of 5 per 10 s). Names and words
// are set as text, never as HTML.
import { wordPack } from "./i18n.js";
import { api } from "./api.js";

const W = {
  zh: { chat: "圈聊", send: "发送", chat_ph: "和圈友说点什么…", no_chat: "还没有人说话。", chat_failed: "没发出去：" },
  en: { chat: "Club chat", send: "Send", chat_ph: "Say something to the club…", no_chat: "Nobody has said anything yet.", chat_failed: "Not sent: " },
};
const POLL_MS = 4000;
const $ = id => document.getElementById(id);
const t = wordPack(W);
// this module's state, in one place (tests/test_architecture.py: no module-level let)
const ST = { cid: null, last: 0, timer: null, wired: false };


function words() {
  $("o-chat-h").textContent = t("chat");
  $("btn-club-chat").textContent = t("send");
  $("club-chat-input").placeholder = t("chat_ph");
  $("club-chat-input").setAttribute("aria-label", t("chat"));
  $("o-no-chat").textContent = t("no_chat");
}

async function poll() {
  if (ST.cid == null || document.hidden) return;
  let d;
  try { d = await api(`/api/clubs/${ST.cid}/chat?after=${ST.last}`); } catch (e) { return; }
  const log = $("club-chatlog");
  for (const m of d.messages) {
    const line = document.createElement("div");
    line.dataset.id = String(m.id);
    const b = document.createElement("b");
    b.textContent = m.nickname;
    line.append(b, `: ${m.text}`);
    log.appendChild(line);
    ST.last = Math.max(ST.last, m.id);
  }
  if (d.messages.length) log.scrollTop = log.scrollHeight;
  $("o-no-chat").classList.toggle("hidden", log.children.length > 0);
  log.classList.toggle("hidden", !log.children.length);
}

async function send() {
  const input = $("club-chat-input");
  const text = input.value.trim();
  if (!text || ST.cid == null) return;
  try { await api(`/api/clubs/${ST.cid}/chat`, { text }); input.value = ""; }
  catch (e) { $("o-chat-error").textContent = t("chat_failed") + e.message; $("o-chat-error").classList.remove("hidden"); return; }
  $("o-chat-error").classList.add("hidden");
  poll();
}

/** Show the chat of club ``id`` (``member``: the caller may read it) and keep it fresh. */
export function showClubChat(id, member) {
  $("o-chat-card").classList.toggle("hidden", !member);
  words();
  if (!member) { ST.cid = null; clearInterval(ST.timer); return; }
  if (ST.cid !== id) { ST.cid = id; ST.last = 0; $("club-chatlog").textContent = ""; $("club-chatlog").classList.add("hidden"); }
  if (!ST.wired) {
    ST.wired = true;
    $("btn-club-chat").addEventListener("click", send);
    $("club-chat-input").addEventListener("keydown", e => { if (e.key === "Enter") send(); });
    document.addEventListener("visibilitychange", poll);
  }
  clearInterval(ST.timer);
  ST.timer = setInterval(poll, POLL_MS);
  return poll();
}
