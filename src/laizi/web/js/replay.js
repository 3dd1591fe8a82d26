// Replay viewer: a finished match's public frames on the same table layout, with names, Chinese
// (or English) labels and step / play / scrub controls.
import { t, onLang, applyI18n, toggleLang, getLang, setPizi } from "./i18n.js";
import { showPizi } from "./tiles.js";
import { buildTable, renderTable } from "./table.js";
import { describe } from "./words.js";
import { renderSettlement } from "./settle.js";
import { cardFor, cardText, howtoLink } from "./rules.js";
import { openReview, closeReview, marksFor, renderReview, reviewSeat, foldReview, toggleReview, showCurrent, showWhole } from "./review.js";
import { openCard, openHandCard, wireCard } from "./card.js";
import { apiError } from "./api.js";

const $ = id => document.getElementById(id);
const RP = { data: null, hand: 0, pos: 0, timer: null, table: null, seats: null, card: null, mid: null };

function frames() { return RP.data && RP.data.hands[RP.hand] ? RP.data.hands[RP.hand].frames : []; }

/** The latest discard at step pos, from the frames' events (a jump back or ahead too): the last
 *  discard event up to pos, while its tile is still where it fell (a claim took none since). */
function lastDiscard(f, pos) {
  for (let j = pos; j >= 0; j--) {
    const ev = f[j].event;
    if (!ev || ev.type !== "discard") continue;
    const special = ev.as != null;  // a 赖子 or 红中 laid aside
    const count = x => { const pl = x.players[ev.seat]; return special ? (pl.special_discards || []).length : pl.river.length; };
    return count(f[pos]) === count(f[j]) ? { seat: ev.seat, special } : null;
  }
  return null;
}

function go(i) {
  const f = frames();
  if (!f.length) return;
  RP.pos = Math.max(0, Math.min(f.length - 1, i));
  $("rp-pos").value = String(RP.pos);
  $("rp-label").textContent = t("step", RP.pos + 1, f.length);
  const v = f[RP.pos];
  const seats = RP.seats.map((s, k) => ({ ...s, connected: true, seat: k }));
  setPizi(v.pizi);
  const line = v.event ? describe(v.event, seats, v.dealer, v.pizi) : "";
  renderTable(RP.table, v, { me: reviewSeat(), seats, live: false, lastLine: line, lastDiscard: lastDiscard(f, RP.pos) });  // 复盘: its seat below
  showPizi(RP.table, v.pizi);
  // narration: each step in words (谁 碰 了 什么), the settlement at the hand's end
  $("rp-say").textContent = line || "";
  const box = $("rp-settle");
  const end = RP.pos === f.length - 1 && v.phase === "over";
  box.classList.toggle("hidden", !end);
  if (end) {  // over the table, inside the screen (the page does not scroll): 关闭 shows the last table
    renderSettlement(box, v, { seats, me: null, card: cardText(RP.card), matchId: RP.mid });
    const x = document.createElement("button");
    x.type = "button";
    x.className = "rp-settle-close";
    x.dataset.testid = "replay-settle-close";
    x.textContent = t("close");
    x.addEventListener("click", () => box.classList.add("hidden"));
    box.prepend(x);
  } else box.textContent = "";
  showMarks();
}

// 复盘: the costliest decisions of the reviewed seat, marked on the hand's timeline; at a
// marked step the sentence saying why shows over the table.
function showMarks() {
  const f = frames();
  const hand = RP.data && RP.data.hands[RP.hand] ? RP.data.hands[RP.hand].hand : null;
  const marks = marksFor(hand, f);
  const strip = $("rp-marks");
  strip.textContent = "";
  strip.classList.toggle("hidden", $("rv-panel").classList.contains("hidden"));
  if (marks.size || !strip.classList.contains("hidden")) {  // the track and where the replay stands
    const cur = document.createElement("span");
    cur.className = "rp-cursor";
    strip.appendChild(cur);
    placeAt(cur, f.length > 1 ? (100 * RP.pos) / (f.length - 1) : 0);
  }
  const list = [...marks].sort((a, b) => a[0] - b[0]);  // along the timeline
  const at = spread(list.map(([i]) => (f.length > 1 ? (100 * i) / (f.length - 1) : 0)), strip.clientWidth);
  let k = 0;
  for (const [i, c] of list) {
    const m = document.createElement("button");
    m.type = "button";
    m.className = "rp-mark" + (i === RP.pos ? " on" : "");
    m.dataset.testid = "review-mark";
    m.title = `−${c.loss.toFixed(1)}`;
    m.setAttribute("aria-label", m.title);
    m.addEventListener("click", () => go(i));
    strip.appendChild(m);
    placeAt(m, ...at[k++]);
  }
  const here = marks.get(RP.pos);
  showCurrent(here || null);
  const note = $("rp-note");
  note.classList.toggle("hidden", !here);
  const words = here ? (here.why || {})[getLang()] || "" : "";
  note.textContent = words;
}

function jump(c) {
  const i = RP.data.hands.findIndex(h => h.hand === c.hand);
  if (i < 0) return;
  if (i !== RP.hand) { $("rp-hand").value = String(i); select(); }
  const marks = marksFor(c.hand, frames());
  for (const [pos, d] of marks) if (d === c) go(pos);
}

function select() {
  RP.hand = +$("rp-hand").value || 0;
  $("rp-pos").max = String(Math.max(0, frames().length - 1));
  go(0);
}

function play() {
  if (RP.timer) { clearInterval(RP.timer); RP.timer = null; $("rp-play").textContent = t("play"); return; }
  $("rp-play").textContent = t("pause");
  RP.timer = setInterval(() => { if (RP.pos >= frames().length - 1) play(); else go(RP.pos + 1); }, 700);
}

export async function openReplay(mid) {
  $("rp-title").textContent = t("replay_of", mid);
  RP.table = buildTable($("rp-table"), { live: false });
  applyI18n($("rp-table"));
  // a replay that cannot be shown says why (in the language chosen, its button still works),
  // without the controls and the empty table (style.css)
  const missing = why => {
    const say = () => { $("rp-title").textContent = t("replay_of", mid); $("rp-label").textContent = why(); };
    say();
    $("replay").classList.add("rp-missing");
    $("rp-lang").addEventListener("click", toggleLang);
    onLang(say);
  };
  $("replay").classList.remove("rp-missing");
  let r;
  try { r = await fetch(`/api/matches/${encodeURIComponent(mid)}/replay`); } catch (e) { missing(() => String(e)); return; }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }  // (a proxy's error page is not JSON)
  if (!r.ok || !data) { missing(() => apiError(r.status, data).message); return; }
  RP.data = data;
  RP.seats = data.seats;
  RP.mid = mid;
  const sel = $("rp-hand");
  sel.textContent = "";
  data.hands.forEach((h, i) => sel.add(new Option(String(h.hand), String(i))));
  sel.addEventListener("change", select);
  $("rp-first").addEventListener("click", () => go(0));
  $("rp-prev").addEventListener("click", () => go(RP.pos - 1));
  $("rp-next").addEventListener("click", () => go(RP.pos + 1));
  $("rp-last").addEventListener("click", () => go(frames().length - 1));
  $("rp-play").addEventListener("click", play);
  $("rp-lang").addEventListener("click", toggleLang);
  $("rp-pos").addEventListener("input", e => go(+e.target.value));
  // a small phone sideways shows the sentence on two lines above the table: a tap opens the
  // folded panel at its decision, the sentence whole there (over the table it covered the top seat)
  $("rp-note").addEventListener("click", showWhole);
  addEventListener("resize", () => { if (RP.data) showMarks(); });  // the marks' spacing is in px
  document.addEventListener("keydown", e => {
    if (e.key === "ArrowRight") go(RP.pos + 1);
    if (e.key === "ArrowLeft") go(RP.pos - 1);
  });
  const hooks = { jump, refresh: () => go(RP.pos) };
  $("rp-review").addEventListener("click", () => toggleReview(mid, RP.seats, hooks));
  $("rv-fold").addEventListener("click", () => foldReview(!document.body.classList.contains("rv-folded")));
  $("rv-close").addEventListener("click", closeReview);
  onLang(() => {
    $("rp-title").textContent = t("replay_of", mid);
    $("rp-rules").textContent = cardText(RP.card);
    renderReview();
    go(RP.pos);
  });
  select();
  wireCard();
  $("rp-card").addEventListener("click", () => openCard(mid, data.hands.length));
  const q = new URLSearchParams(location.search);
  const want = q.get("review");
  if (want !== null && /^[0-3]$/.test(want)) openReview(mid, RP.seats, +want, hooks);
  if (q.get("card") === "1") openCard(mid, data.hands.length);
  // a big hand's shared link: that hand at its end, its card open
  const hi = data.hands.findIndex(h => String(h.hand) === q.get("hand"));
  if (hi >= 0) {
    $("rp-hand").value = String(hi);
    select();
    go(frames().length - 1);
    if (q.get("card") === "hand") openHandCard(mid, data.hands[hi].hand);
  }
  // the rule card the match was played under (the frames carry its rules), and its 玩法说明
  const first = data.hands.length && data.hands[0].frames.length ? data.hands[0].frames[0] : null;
  if (first && first.rules) {
    RP.card = await cardFor(first.rules);
    $("rp-rules").textContent = cardText(RP.card);
    $("rp-howto").href = howtoLink(first.rules);
    $("rp-howto").classList.remove("hidden");
    go(RP.pos);
  }
}

// Two marks closer than a dot's width (20 px) lay over each other (decisions a step or two
// apart: on a phone a step is 2-4 px of the strip), and two closer than a finger's target (36 px:
// the dot's ::after) shared their taps: each keeps MARK_GAP px from the next, pushed right (and
// back left at the strip's end), so every dot shows and takes its own 36 × 40 px tap. A strip too
// short for that (five marks need 152 px) spaces them evenly, never closer than MARK_MIN (the dots
// still apart).
const MARK_GAP = 38;
const MARK_MIN = 22;

/** The marks' places (``pcts``: % of a strip ``width`` px wide, ascending) as [%, px offset]
 *  pairs, at least MARK_GAP px apart where the strip has the room (else as far apart as it allows,
 *  at least MARK_MIN). */
export function spread(pcts, width) {
  if (!width) return pcts.map(p => [p, 0]);
  const gap = pcts.length > 1 ? Math.max(MARK_MIN, Math.min(MARK_GAP, width / (pcts.length - 1))) : MARK_GAP;
  const x = pcts.map(p => (p * width) / 100);
  for (let i = 1; i < x.length; i++) x[i] = Math.max(x[i], x[i - 1] + gap);
  for (let i = x.length - 1; i >= 0; i--) {
    x[i] = Math.min(x[i], i === x.length - 1 ? width : x[i + 1] - gap);
  }
  for (let i = 0; i < x.length; i++) x[i] = Math.max(x[i], i ? x[i - 1] + gap : 0);  // (a short strip: from its start)
  return pcts.map((p, i) => [p, Math.round(x[i] - (p * width) / 100)]);
}

/** Put a mark of the timeline at ``pct`` % of its strip (and ``dx`` px beside it): a held Web
 *  Animation, no inline style (the CSP forbids style attributes). */
function placeAt(el, pct, dx = 0) {
  if (typeof el.animate !== "function") return;
  const left = dx ? `calc(${pct}% + ${dx}px)` : `${pct}%`;
  el.animate([{ left }, { left }], { duration: 1, fill: "forwards" });
}
