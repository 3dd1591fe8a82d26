// 战绩 card: a finished match's result as a PNG drawn in the browser (players, avatars, totals,
// the rule card line), to download or to share by its link (/replay/{id}?card=1); and the
// big-hand card of a won hand (the winning hand in the project's SVG tiles, its 番 and their
// breakdown, the payments, the rule card line), shared as /replay/{id}?hand=N&card=hand.
import { apiError } from "./api.js";
import { t, getLang, botName, presetName, bigHandName, winBy, windOf, localizeLine, tileName } from "./i18n.js";
import { tileSvgText } from "./tiles.js";

const $ = id => document.getElementById(id);
const W = 1200, H = 630;
const MEDAL = ["#f59e0b", "#9ca3af", "#b45309", "#4b5563"];

function nameOf(seats, s) {
  const x = seats[s] || {};
  if (x.bot && !x.player_id) return botName(seats, s);
  return x.nickname || t("seat_n", s);
}

function avatar(pid) {
  return new Promise(ok => {
    if (pid == null) { ok(null); return; }
    const img = new Image();
    img.onload = () => ok(img);
    img.onerror = () => ok(null);
    img.src = `/avatars/${encodeURIComponent(pid)}`;
  });
}

function fmt(x) { const n = Math.round(Number(x) * 10) / 10; return (n > 0 ? "+" : "") + n; }

/** The QR code ``rows`` ("0"/"1" strings, GET …/card?origin=: segno on the server) drawn on
 *  white with its 4-module quiet zone, right-aligned at ``right``, ``top``, at most ``max`` px
 *  square, whole pixels per module; the width it took. */
function drawQr(g, rows, right, top, max) {
  const n = rows.length;
  const px = Math.max(1, Math.floor(max / (n + 8)));
  const side = px * (n + 8);
  const x0 = right - side;
  g.fillStyle = "#fff";
  g.fillRect(x0, top, side, side);
  g.fillStyle = "#000";
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] === "1") g.fillRect(x0 + (x + 4) * px, top + (y + 4) * px, px, px);
  });
  return side;
}

/** Draw the card of ``data`` (GET /api/matches/{id}/card; ``hands``: hands played): the
 *  avatars loaded first, then every pixel at once, unless ``wanted()`` has turned false
 *  meanwhile (a later card asked for the canvas). Whether it drew. */
export async function drawCard(canvas, data, hands, wanted = () => true) {
  const seats = data.seats || [];
  const order = [0, 1, 2, 3].sort((a, b) => (data.scores[b] || 0) - (data.scores[a] || 0) || a - b);
  const pics = await Promise.all(order.map(s => avatar((seats[s] || {}).player_id)));
  if (!wanted()) return false;
  canvas.width = W;
  canvas.height = H;
  delete canvas.dataset.slots;  // the big-hand card's record of its tiles
  delete canvas.dataset.plain;
  const g = canvas.getContext("2d");
  const bg = g.createLinearGradient(0, 0, W, H);
  bg.addColorStop(0, "#0f5132");
  bg.addColorStop(1, "#0b3d26");
  g.fillStyle = bg;
  g.fillRect(0, 0, W, H);
  g.strokeStyle = "#fde68a";
  g.lineWidth = 6;
  g.strokeRect(18, 18, W - 36, H - 36);
  const font = (px, bold) => `${bold ? "700 " : ""}${px}px system-ui, "Noto Sans CJK SC", sans-serif`;
  g.fillStyle = "#fde68a";
  g.font = font(46, true);
  g.textBaseline = "top";
  g.fillText(t("card_title"), 56, 48);
  const qrSide = data.qr ? drawQr(g, data.qr.rows, W - 40, 30, 128) : 0;  // top right: the share link
  g.font = font(28);
  g.fillStyle = "#d1fae5";
  g.textAlign = "right";
  g.fillText(t(hands === 1 ? "card_match_one" : "card_match", data.match_id, hands), W - 56 - qrSide, 60);
  g.textAlign = "left";
  const rule = (data.rule_card || {})[getLang()] || presetName(data.preset);
  g.font = font(26);
  g.fillText(rule.length > 70 ? rule.slice(0, 69) + "…" : rule, 56, 112, W - 112 - qrSide);
  order.forEach((s, i) => {
    const y = 170 + i * 92;
    g.fillStyle = i % 2 ? "rgba(255,255,255,.05)" : "rgba(255,255,255,.1)";
    g.fillRect(48, y, W - 96, 80);
    g.fillStyle = MEDAL[i];
    g.beginPath(); g.arc(98, y + 40, 26, 0, 2 * Math.PI); g.fill();
    g.fillStyle = "#fff";
    g.font = font(30, true);
    g.textAlign = "center";
    g.fillText(String(i + 1), 98, y + 24);
    const name = nameOf(seats, s);
    g.save();
    g.beginPath(); g.arc(176, y + 40, 30, 0, 2 * Math.PI); g.clip();
    if (pics[i]) g.drawImage(pics[i], 146, y + 10, 60, 60);
    else { g.fillStyle = "#fef3c7"; g.fillRect(146, y + 10, 60, 60); g.fillStyle = "#7c2d12"; g.font = font(30, true);
      g.fillText([...name][0] || "?", 176, y + 24); }
    g.restore();
    g.textAlign = "left";
    g.fillStyle = "#f4f1e6";
    g.font = font(34, true);
    g.fillText(name.length > 16 ? name.slice(0, 15) + "…" : name, 226, y + 22);
    const sc = data.scores[s] || 0;
    g.textAlign = "right";
    g.fillStyle = sc > 0 ? "#fde047" : sc < 0 ? "#fca5a5" : "#e5e7eb";
    g.font = font(40, true);
    g.fillText(fmt(sc), W - 80, y + 18);
    g.textAlign = "left";
  });
  g.fillStyle = "#a7f3d0";
  g.font = font(22);
  const when = data.finished_at ? new Date(data.finished_at).toLocaleString(getLang() === "zh" ? "zh-CN" : "en-GB") : "";
  g.fillText(`${t("title")} · ${when}`, 56, H - 72);
  g.textAlign = "right";
  g.fillText(shareLink(data.match_id).replace(/^https?:\/\//, ""), W - 56, H - 72);
  g.textAlign = "left";
  return true;
}

export function shareLink(mid) { return `${location.origin}/replay/${mid}?card=1`; }

/** Open the card sheet of match ``mid`` (``hands``: hands played). */
export async function openCard(mid, hands) {
  wireCard();
  const sheet = $("card-sheet");
  sheet.classList.remove("hidden", "card-refused");
  forgetLast();
  $("card-h").textContent = t("card");
  delete $("card-img").dataset.drawn;
  $("card-status").textContent = "…";
  const mine = ++ST.seq;
  let r;
  try { r = await fetch(`/api/matches/${encodeURIComponent(mid)}/card?origin=${encodeURIComponent(location.origin)}`); } catch (e) { refused(t("card_failed")); return; }
  const data = await r.json().catch(() => ({}));
  if (mine !== ST.seq) return;
  if (!r.ok) { refused(data.error ? apiError(r.status, data).message : t("card_failed")); return; }
  const canvas = $("card-img");
  if (!await drawCard(canvas, data, hands, () => mine === ST.seq)) return;  // a later card draws
  const url = canvas.toDataURL("image/png");
  canvas.dataset.drawn = "1";
  const dl = $("card-download");
  dl.href = url;
  dl.download = `laizi-match-${mid}.png`;
  $("card-link").value = shareLink(mid);
  $("card-status").textContent = "";
}

// ------------------------------------------------------------------ the big-hand card
/** The tile ``code`` as an image (its SVG art via a blob URL: the CSP allows blob: images). */
function tileImage(code, laizi) {
  return new Promise(ok => {
    const url = URL.createObjectURL(new Blob([tileSvgText(code, laizi)], { type: "image/svg+xml" }));
    const img = new Image();
    img.onload = () => { ok(img); URL.revokeObjectURL(url); };
    img.onerror = () => { ok(null); URL.revokeObjectURL(url); };
    img.src = url;
  });
}

/** The winner's tiles in drawing order: the concealed ones (the winning tile set apart at
 *  their end), each meld, the special kongs; null between groups. */
function handGroups(data) {
  const rest = [...(data.tiles || [])];
  const i = rest.lastIndexOf(data.tile);
  if (i >= 0) rest.splice(i, 1);
  const out = [...rest, null, { code: data.tile, win: true }];
  for (const m of data.melds || []) out.push(null, ...m.tiles);
  if ((data.special_kongs || []).length) out.push(null, ...data.special_kongs);
  return out.map(x => (x === null || typeof x === "object" ? x : { code: x }));
}

/** The tile's face where its art could not be made (an image the browser refused): an ivory
 *  tile with the tile's name, so no slot of the card is ever empty. */
function plainTile(g, code, x, y, w, h) {
  g.fillStyle = "#f8f2e2";
  g.strokeStyle = "#a8976b";
  g.lineWidth = 1.5;
  g.beginPath();
  if (g.roundRect) g.roundRect(x, y, w, h, Math.max(2, w / 9));
  else g.rect(x, y, w, h);
  g.fill();
  g.stroke();
  g.fillStyle = "#1b2440";
  g.textAlign = "center";
  g.font = `700 ${Math.max(10, Math.round(w / 3.2))}px system-ui, "Noto Sans CJK SC", sans-serif`;
  g.fillText(code ? tileName(code) : "?", x + w / 2, y + h / 2 - w / 6, w - 4);
  g.textAlign = "left";
}

/** Draw the big-hand card of ``data`` (GET /api/matches/{id}/hands/{n}/card): every tile's
 *  image loaded first, then every pixel at once, unless ``wanted()`` has turned false meanwhile.
 *  The canvas records where each tile went (``data-slots``: [x, y, w, h, code]) and how many
 *  lacked their art (``data-plain``: drawn as named ivory tiles). Whether it drew. */
export async function drawHandCard(canvas, data, wanted = () => true) {
  const groups = handGroups(data);
  const imgs = await Promise.all(groups.filter(Boolean).map(x => tileImage(x.code, x.code === data.laizi)));
  if (!wanted()) return false;
  canvas.width = W;
  canvas.height = H;
  const g = canvas.getContext("2d");
  const bg = g.createLinearGradient(0, 0, W, H);
  bg.addColorStop(0, "#7f1d1d");
  bg.addColorStop(1, "#3f0d0d");
  g.fillStyle = bg;
  g.fillRect(0, 0, W, H);
  g.strokeStyle = "#fde68a";
  g.lineWidth = 6;
  g.strokeRect(18, 18, W - 36, H - 36);
  const font = (px, bold) => `${bold ? "700 " : ""}${px}px system-ui, "Noto Sans CJK SC", sans-serif`;
  g.textBaseline = "top";
  const qrSide = data.qr ? drawQr(g, data.qr.rows, W - 40, 30, 128) : 0;
  g.fillStyle = "#fecaca";
  g.font = font(24);
  g.fillText(`${t("card_hand_title")} · ${t("card_hand_of", data.match_id, data.hand)}`, 56, 44, W - 130 - qrSide);
  const sc = data.score || {};
  const bigs = (sc.big_hands || []).map(bigHandName);
  g.fillStyle = "#fde68a";
  g.font = font(54, true);
  g.fillText(bigs.length ? bigs.join(" · ") : t("card_no_big"), 56, 80, W - 130 - qrSide);
  const seats = data.seats || [];
  const who = `${windOf(data.winner, data.dealer)} ${nameOf(seats, data.winner)}`;
  const how = data.by === "discard" && data.from != null
    ? t("from_line", `${windOf(data.from, data.dealer)} ${nameOf(seats, data.from)}`) : winBy(data.by);
  g.fillStyle = "#fff7ed";
  g.font = font(28, true);
  g.fillText(`${t("win_line", who, how)} · ${t("winner_fan", sc.winner_fan ?? "")}`, 56, 150, W - 130 - qrSide);
  // the winning hand
  const n = imgs.length;
  const gaps = groups.length - n;
  const tw = Math.min(66, Math.floor((W - 112 - gaps * 18) / Math.max(1, n)));
  const th = Math.round(tw * 80 / 60);
  let x = 56, k = 0, plain = 0;
  const y = 200, slots = [];
  for (const item of groups) {
    if (!item) { x += 18; continue; }
    const img = imgs[k++];
    const ty = item.win ? y - 10 : y;
    if (img) g.drawImage(img, x, ty, tw - 2, th);
    else { plainTile(g, item.code, x, ty, tw - 2, th); plain++; }
    slots.push([x, ty, tw - 2, th, item.code]);
    if (item.win) { g.strokeStyle = "#fde047"; g.lineWidth = 4; g.strokeRect(x - 2, ty - 2, tw + 2, th + 4); }
    x += tw;
  }
  canvas.dataset.slots = JSON.stringify(slots);
  canvas.dataset.plain = String(plain);
  // the 番 breakdown (the scorer's lines, in words), two columns
  const lines = (sc.breakdown || []).map(l => localizeLine(l, data.dealer)).filter(Boolean);
  g.font = font(21);
  g.fillStyle = "#fee2e2";
  const top = y + th + 22, per = 6, colW = (W - 112) / 2;
  lines.slice(0, 2 * per).forEach((l, i) => {
    const cx = 56 + Math.floor(i / per) * colW, cy = top + (i % per) * 28;
    g.fillText(l.length > 44 ? l.slice(0, 43) + "…" : l, cx, cy, colW - 16);
  });
  // the payments
  const py = H - 150;
  const pays = data.payments || [0, 0, 0, 0];
  for (let s = 0; s < 4; s++) {
    const cx = 56 + s * ((W - 112) / 4);
    g.fillStyle = s === data.winner ? "rgba(253,230,138,.22)" : "rgba(255,255,255,.08)";
    g.fillRect(cx, py, (W - 112) / 4 - 10, 60);
    g.fillStyle = "#fff7ed";
    g.font = font(20);
    const name = `${windOf(s, data.dealer)} ${nameOf(seats, s)}`;
    g.fillText(name.length > 14 ? name.slice(0, 13) + "…" : name, cx + 10, py + 6, (W - 112) / 4 - 30);
    g.fillStyle = pays[s] > 0 ? "#fde047" : pays[s] < 0 ? "#fca5a5" : "#e5e7eb";
    g.font = font(24, true);
    g.fillText(fmt(pays[s]), cx + 10, py + 30);
  }
  g.fillStyle = "#fecaca";
  g.font = font(20);
  const rule = (data.rule_card || {})[getLang()] || presetName(data.preset);
  g.fillText(rule.length > 90 ? rule.slice(0, 89) + "…" : rule, 56, H - 78, W - 112);
  g.textAlign = "right";
  g.fillText(handLink(data.match_id, data.hand).replace(/^https?:\/\//, ""), W - 56, H - 50);
  g.textAlign = "left";
  g.fillText(t("title"), 56, H - 50);
  return true;
}

export function handLink(mid, hand) { return `${location.origin}/replay/${mid}?hand=${hand}&card=hand`; }

/** Open the big-hand card sheet of hand ``hand`` of match ``mid`` (a hand just over may not be
 *  written yet: asked again a few times). */
export async function openHandCard(mid, hand) {
  wireCard();
  const sheet = $("card-sheet");
  sheet.classList.remove("hidden", "card-refused");
  forgetLast();
  $("card-h").textContent = t("card_hand");
  $("card-status").textContent = "…";
  const canvas = $("card-img");
  delete canvas.dataset.drawn;
  const mine = ++ST.seq;
  let r, data = {};
  for (let i = 0; i < 5; i++) {
    try { r = await fetch(`/api/matches/${encodeURIComponent(mid)}/hands/${encodeURIComponent(hand)}/card?origin=${encodeURIComponent(location.origin)}`); } catch (e) { refused(t("card_failed")); return; }
    data = await r.json().catch(() => ({}));
    if (r.status !== 409 || data.code !== "hand_not_over") break;  // (the hand's end not yet stored)
    await new Promise(ok => setTimeout(ok, 800));
  }
  if (mine !== ST.seq) return;
  if (!r.ok) { refused(data.error ? apiError(r.status, data).message : t("card_failed")); return; }
  if (!await drawHandCard(canvas, data, () => mine === ST.seq)) return;  // a later card draws
  const dl = $("card-download");
  dl.href = canvas.toDataURL("image/png");
  dl.download = `laizi-match-${mid}-hand-${hand}.png`;
  canvas.dataset.drawn = "1";
  $("card-link").value = handLink(mid, hand);
  $("card-status").textContent = "";
}

/** A card opening: the last one's download and link are not offered for it meanwhile. */
function forgetLast() {
  $("card-download").removeAttribute("href");
  $("card-link").value = "";
}

/** No card to show (a hand not won, a match in play, a refusal): the words alone, without an
 *  empty picture, its download and its link. */
function refused(words) {
  $("card-sheet").classList.add("card-refused");
  $("card-status").textContent = words;
}

// this module's state, in one place (tests/test_architecture.py: no module-level let)
// (seq: the card sheet's latest request; an earlier one still loading gives way to it)
const ST = { wired: false, seq: 0 };
export function wireCard() {
  if (ST.wired) return;
  ST.wired = true;
  $("card-close").addEventListener("click", () => $("card-sheet").classList.add("hidden"));
  $("card-copy").addEventListener("click", async () => {
    const link = $("card-link").value;
    try {
      if (navigator.share) await navigator.share({ title: t("card_title"), url: link });
      else await navigator.clipboard.writeText(link);
      $("card-status").textContent = t("card_copied");
    } catch (e) {
      $("card-link").select();
      $("card-status").textContent = t("card_copy_hint");
    }
  });
}
