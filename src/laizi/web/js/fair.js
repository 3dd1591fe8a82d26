// Fairness (公平性): the commitment of the hand in play, the seed once revealed, and a one-tap check
// that re-derives the wall in the browser (src/laizi/game/wall.py: HMAC-SHA256 stream, Fisher-Yates,
// SHA-256 commitment) and checks the commitment and the indicator (wall[53]).
import { t } from "./i18n.js";

const DOMAIN = new TextEncoder().encode("laizi-wall-v1");
const TILE_STR = [];
for (const s of "mpsz") for (let n = 1; n <= (s === "z" ? 7 : 9); n++) TILE_STR.push(`${n}${s}`);

function hexToBytes(hex) {
  if (!/^([0-9a-f]{2})+$/i.test(hex)) throw new Error("bad hex");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}
function toHex(buf) { return [...new Uint8Array(buf)].map(b => b.toString(16).padStart(2, "0")).join(""); }

export async function deriveWall(seedHex) {
  const seed = hexToBytes(seedHex);
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const tiles = [];
  for (let k = 0; k < 34; k++) for (let c = 0; c < 4; c++) tiles.push(k);
  const words = [];
  let block = 0;
  async function more() {
    const msg = new Uint8Array(DOMAIN.length + 8);
    msg.set(DOMAIN);
    new DataView(msg.buffer).setBigUint64(DOMAIN.length, BigInt(block));
    block += 1;
    const dv = new DataView(await crypto.subtle.sign("HMAC", key, msg));
    for (let i = 0; i < 8; i++) words.push(dv.getUint32(i * 4, false));
  }
  let pos = 0;
  for (let i = 135; i >= 1; i--) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      if (pos >= words.length) await more();
      const u = words[pos++];
      if (u < limit) { const j = u % n; [tiles[i], tiles[j]] = [tiles[j], tiles[i]]; break; }
    }
  }
  return { seed, tiles };
}

export async function commitmentOf(seed, tiles) {
  const data = new Uint8Array(DOMAIN.length + seed.length + tiles.length);
  data.set(DOMAIN);
  data.set(seed, DOMAIN.length);
  data.set(Uint8Array.from(tiles), DOMAIN.length + seed.length);
  return toHex(await crypto.subtle.digest("SHA-256", data));
}

/** Verify a finished hand's view: {ok, message}. */
export async function verifyHand(v) {
  if (!v || !v.seed) return { ok: false, message: t("verify_wait") };
  if (!(window.crypto && crypto.subtle)) return { ok: false, message: t("verify_unavailable") };
  try {
    const { seed, tiles } = await deriveWall(v.seed);
    const c = await commitmentOf(seed, tiles);
    if (c !== v.commitment) return { ok: false, message: t("verify_bad", "commitment ≠ SHA-256(seed, wall)") };
    if (TILE_STR[tiles[53]] !== v.indicator) return { ok: false, message: t("verify_bad", `indicator ${v.indicator} ≠ wall[53] ${TILE_STR[tiles[53]]}`) };
    return { ok: true, message: t("verify_ok") };
  } catch (e) {
    return { ok: false, message: t("verify_bad", String(e.message || e)) };
  }
}

function row(parent, label, value, id) {
  const d = document.createElement("div");
  d.className = "fair-row";
  const b = document.createElement("b");
  b.textContent = label;
  const code = document.createElement("code");
  code.textContent = value || "—";
  if (id) code.id = id;
  d.append(b, code);
  parent.appendChild(d);
}

/** Fill the fairness panel for the hand in play (live) and the last finished hand (done). */
export function renderFair(body, live, done) {
  body.textContent = "";
  const p = document.createElement("p");
  p.textContent = t("fair_intro");
  body.appendChild(p);
  if (live) {
    const h = document.createElement("h3");
    h.textContent = t("hand_no", live.hand_no);
    body.appendChild(h);
    row(body, t("commitment"), live.commitment, "fair-commitment");
    row(body, t("seed"), live.seed || t("verify_wait"), "fair-seed");
  }
  if (done && (!live || done.hand_no !== live.hand_no || live.seed)) {
    if (!live || done.hand_no !== live.hand_no) {
      const h = document.createElement("h3");
      h.textContent = t("hand_no", done.hand_no);
      body.appendChild(h);
      row(body, t("commitment"), done.commitment);
      row(body, t("seed"), done.seed);
    }
    const btn = document.createElement("button");
    btn.className = "primary";
    btn.id = "verify-btn";
    btn.textContent = t("verify");
    const out = document.createElement("p");
    out.id = "verify-result";
    out.setAttribute("role", "status");
    btn.addEventListener("click", async () => {
      const r = await verifyHand(done);
      out.textContent = r.message;
      out.className = r.ok ? "ok" : "bad";
    });
    body.append(btn, out);
  }
}
