// 战绩 card: a finished match's result as a PNG drawn in the browser (players, avatars, totals,
// the rule card line), to download or to share by its link (/replay/{id}?card=1).
import { t, getLang, botName, presetName } from "./i18n.js";

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

/** Draw the card of ``data`` (GET /api/matches/{id}/card; ``hands``: hands played). */
export async function drawCard(canvas, data, hands) {
  canvas.width = W;
  canvas.height = H;
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
  g.fillText(t("card_match", data.match_id, hands), W - 56 - qrSide, 60);
  g.textAlign = "left";
  const rule = (data.rule_card || {})[getLang()] || presetName(data.preset);
  g.font = font(26);
  g.fillText(rule.length > 70 ? rule.slice(0, 69) + "…" : rule, 56, 112, W - 112 - qrSide);
  const seats = data.seats || [];
  const order = [0, 1, 2, 3].sort((a, b) => (data.scores[b] || 0) - (data.scores[a] || 0) || a - b);
  const pics = await Promise.all(order.map(s => avatar((seats[s] || {}).player_id)));
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
}

export function shareLink(mid) { return `${location.origin}/replay/${mid}?card=1`; }

/** Open the card sheet of match ``mid`` (``hands``: hands played). */
export async function openCard(mid, hands) {
  const sheet = $("card-sheet");
  sheet.classList.remove("hidden");
  $("card-status").textContent = "…";
  let r;
  try { r = await fetch(`/api/matches/${encodeURIComponent(mid)}/card?origin=${encodeURIComponent(location.origin)}`); } catch (e) { $("card-status").textContent = String(e); return; }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { $("card-status").textContent = data.error || t("card_failed"); return; }
  const canvas = $("card-img");
  await drawCard(canvas, data, hands);
  const url = canvas.toDataURL("image/png");
  canvas.dataset.drawn = "1";
  const dl = $("card-download");
  dl.href = url;
  dl.download = `laizi-match-${mid}.png`;
  $("card-link").value = shareLink(mid);
  $("card-status").textContent = "";
}

export function wireCard() {
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
