// Avatars (头像): the picture beside a name (table plates, room seats, profile) and the chooser
// on one's own profile (the drawn set, or an upload the server re-encodes to 128×128).
// Pictures come from /avatars/{player_id} (cached a minute by the browser; one's own picture
// carries ?v=<version> after a change, so it shows at once). Styles: /static/avatars/avatar.css,
// loaded here once (the CSP allows 'self' stylesheets). User text only through textContent.

import { getLang, wordPack } from "./i18n.js";
import { apiError } from "./api.js";

const W = {
  zh: {
    avatar: "头像", choose: "选择头像", upload: "上传图片", reset: "默认头像",
    upload_hint: "PNG、JPEG、WebP 或 GIF，不超过 2 MB；服务器会裁成 128×128。",
    too_big: "图片超过 2 MB", saved: "头像已更新", bot: "机器人", mine: "我的头像",
  },
  en: {
    avatar: "Avatar", choose: "Choose an avatar", upload: "Upload a picture", reset: "Default",
    upload_hint: "PNG, JPEG, WebP or GIF, up to 2 MB; the server crops it to 128×128.",
    too_big: "The picture is larger than 2 MB", saved: "Avatar updated", bot: "Bot", mine: "My avatar",
  },
};
const MAX_BYTES = 2 * 1024 * 1024;
const V_KEY = "laizi.avatar_v";
const BOT_URL = "/static/avatars/bot.svg";

const t = wordPack(W);

// this module's state, in one place (tests/test_architecture.py: no module-level let)
const ST = { cssLoaded: false };
function loadCss() {
  if (ST.cssLoaded) return;
  ST.cssLoaded = true;
  const l = document.createElement("link");
  l.rel = "stylesheet";
  l.href = "/static/avatars/avatar.css";
  document.head.appendChild(l);
}

function ownVersion() {
  try { return JSON.parse(localStorage.getItem(V_KEY) || "null"); } catch (e) { return null; }
}

/** The picture URL of a player (one's own with the version of its last change). */
export function avatarUrl(pid) {
  const mine = ownVersion();
  const v = mine && mine.pid === pid ? "?v=" + encodeURIComponent(mine.v) : "";
  return "/avatars/" + encodeURIComponent(pid) + v;
}

/** An empty <img class="avatar"> (decorative: the name beside it says who it is). */
export function avatarImg(cls = "") {
  loadCss();
  const img = document.createElement("img");
  img.className = "avatar" + (cls ? " " + cls : "");
  img.alt = "";
  img.decoding = "async";
  img.width = 64; img.height = 64;  // intrinsic; the CSS sets the shown size
  img.hidden = true;
  img.addEventListener("error", () => { if (!img.src.endsWith(BOT_URL)) img.hidden = true; });
  return img;
}

/** Show a seat's avatar in img: a player's picture, the bot picture, or nothing (empty seat). */
export function showAvatar(img, seat) {
  if (!img) return;
  let url = null;
  if (seat && seat.player_id) url = avatarUrl(seat.player_id);
  else if (seat && seat.bot) url = BOT_URL;
  if (img.hidden !== !url) img.hidden = !url;  // unchanged: untouched (the table redraws only what changed)
  if (url && img.getAttribute("src") !== url) img.setAttribute("src", url);
  const pid = seat && seat.player_id ? seat.player_id : "";
  if (img.dataset.player !== pid) img.dataset.player = pid;
}

/** One's own avatar as a link to one's profile (where the chooser is), put before `before`;
 *  shown once getPid() knows the player id, refreshed when the avatar changes in another tab. */
export function mountMine(before, getPid) {
  loadCss();
  const a = document.createElement("a");
  a.className = "my-avatar";
  a.hidden = true;
  a.title = t("mine");
  a.setAttribute("aria-label", t("mine"));
  a.dataset.testid = "my-avatar";
  const img = avatarImg();
  a.appendChild(img);
  before.parentNode.insertBefore(a, before);
  const update = () => {
    const pid = getPid();
    if (!pid) return false;
    a.href = "/players/" + encodeURIComponent(pid);
    showAvatar(img, { player_id: pid });
    a.hidden = false;
    return true;
  };
  if (!update()) {
    const timer = setInterval(() => { if (update()) clearInterval(timer); }, 400);
  }
  window.addEventListener("storage", ev => { if (ev.key === V_KEY) update(); });
  window.addEventListener("pageshow", update);
  return a;
}

async function post(token, body, type) {
  const r = await fetch("/api/avatar", {
    method: "POST", body, headers: { "Content-Type": type, Authorization: "Bearer " + token },
  });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw apiError(r.status, data);
  return data;
}

/** The chooser in box for the player of token: current picture, the drawn set, upload, reset.
 *  onError(message) / onSaved(message) report to the page; bigImg (optional) follows changes. */
export async function mountChooser(box, { token, pid, onError, onSaved, bigImg }) {
  loadCss();
  box.textContent = "";
  const h = document.createElement("h2");
  h.textContent = t("choose");
  const grid = document.createElement("div");
  grid.className = "av-grid";
  const row = document.createElement("div");
  row.className = "row";
  const upLabel = document.createElement("label");
  upLabel.className = "av-upload";
  const upText = document.createElement("span");
  upText.textContent = t("upload");
  const file = document.createElement("input");
  file.type = "file";
  file.accept = "image/png,image/jpeg,image/webp,image/gif";
  file.dataset.testid = "avatar-file";
  upLabel.append(upText, file);
  const reset = document.createElement("button");
  reset.type = "button";
  reset.textContent = t("reset");
  reset.dataset.testid = "avatar-reset";
  const hint = document.createElement("p");
  hint.className = "muted";
  hint.textContent = t("upload_hint");
  row.append(upLabel, reset);
  box.append(h, grid, row, hint);

  let cat, mine;
  try {
    [cat, mine] = await Promise.all([
      fetch("/api/avatars").then(r => r.json()),
      fetch("/api/avatar", { headers: { Authorization: "Bearer " + token } }).then(r => r.json()),
    ]);
  } catch (e) { onError(e.message); return; }
  const buttons = new Map();
  const mark = avatar => {
    for (const [id, b] of buttons) b.setAttribute("aria-pressed", avatar.kind === "drawn" && avatar.choice === id ? "true" : "false");
  };
  const saved = out => {
    const v = (out.avatar.url.split("?v=")[1]) || String(Date.now());
    try { localStorage.setItem(V_KEY, JSON.stringify({ pid, v })); } catch (e) { /* private mode */ }
    mark(out.avatar);
    if (bigImg) showAvatar(bigImg, { player_id: pid });
    onSaved(t("saved"));
  };
  const name = a => (getLang() === "en" ? a.en : a.zh);
  for (const a of cat.avatars) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.avatar = a.id;
    b.title = name(a);
    b.setAttribute("aria-label", name(a));
    const img = document.createElement("img");
    img.src = a.url; img.alt = ""; img.width = 44; img.height = 44;
    b.appendChild(img);
    b.addEventListener("click", async () => {
      try { saved(await post(token, JSON.stringify({ choice: a.id }), "application/json")); } catch (e) { onError(e.message); }
    });
    buttons.set(a.id, b);
    grid.appendChild(b);
  }
  mark(mine.avatar || {});
  reset.addEventListener("click", async () => {
    try { saved(await post(token, JSON.stringify({ choice: null }), "application/json")); } catch (e) { onError(e.message); }
  });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    file.value = "";
    if (!f) return;
    if (f.size > MAX_BYTES) { onError(t("too_big")); return; }
    try { saved(await post(token, f, f.type || "application/octet-stream")); } catch (e) { onError(e.message); }
  });
  box.dataset.ready = "1";
}
