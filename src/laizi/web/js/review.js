// 复盘 in the replay viewer: one seat's review (GET /api/matches/{id}/review?seat=N, built on
// the server; 202 with its progress while it is built), its accuracy, and its costliest
// decisions marked on the timeline with the sentence saying why.
import { apiError } from "./api.js";
import { t, getLang, botName } from "./i18n.js";

const $ = id => document.getElementById(id);
const RV = { mid: null, seat: null, seats: null, data: null, hooks: null, asking: 0, items: new Map() };
// Where the panel cannot stand beside the table (a phone upright, a small phone sideways), it
// lies over the table while open and folds away (to its head, or to the bar's 复盘) when a
// decision is chosen: the table, the timeline and the sentence are then whole. The same
// screens as style.css's "复盘 folds" media queries.
const NARROW = "(orientation: portrait), (orientation: landscape) and (max-height: 599px) and (max-width: 759px)";

function narrow() { return typeof matchMedia === "function" && matchMedia(NARROW).matches; }

/** Fold the panel away (``on``) or open it again. */
export function foldReview(on) {
  document.body.classList.toggle("rv-folded", on);
  const b = $("rv-fold");
  b.textContent = t(on ? "review_unfold" : "review_fold");
  b.setAttribute("aria-expanded", String(!on));
}

/** The bar's 复盘: open the panel; on a narrow screen, fold or unfold it; else close it. */
export function toggleReview(mid, seats, hooks) {
  if ($("rv-panel").classList.contains("hidden")) openReview(mid, seats, 0, hooks);
  else if (narrow()) foldReview(!document.body.classList.contains("rv-folded"));
  else closeReview();
}

/** The frame of a hand where a decision shows: the last frame whose event is at or before it. */
export function frameOf(frames, v) {
  let at = 0;
  frames.forEach((f, i) => { if (f.event && typeof f.event.v === "number" && f.event.v <= v) at = i; });
  return at;
}

function say(text) { $("rv-status").textContent = text; }

function seatName(seats, s) {
  const x = seats && seats[s];
  if (x && x.bot && !x.player_id) return botName(seats, s);
  return (x && x.nickname) || t("seat_n", s);
}

async function fetchReview(mid, seat, ticket) {
  for (;;) {
    let r;
    try { r = await fetch(`/api/matches/${encodeURIComponent(mid)}/review?seat=${seat}`); }
    catch (e) { say(t("review_failed")); return null; }
    if (ticket !== RV.asking) return null;  // another seat was chosen meanwhile
    const data = await r.json().catch(() => ({}));
    // 202: being built (its progress); 429 / 503: too many reviews now — each says when to
    // ask again (Retry-After): the panel waits and asks, it does not give up
    if (r.status === 202 || r.status === 429 || r.status === 503) {
      say(r.status === 202 ? t("review_busy", Math.round(100 * (data.progress || 0))) : t("review_wait"));
      await new Promise(ok => setTimeout(ok, 1000 * Math.min(60, +r.headers.get("Retry-After") || 1)));
      if (ticket !== RV.asking) return null;
      continue;
    }
    if (!r.ok) { say(data.error ? apiError(r.status, data).message : t("review_failed")); return null; }
    return data;
  }
}

/** Show (or refresh, after a language change) the review panel's words. */
export function renderReview() {
  const d = RV.data;
  if (RV.seats) [...$("rv-seats").children].forEach((b, s) => { b.textContent = seatName(RV.seats, s); });
  foldReview(document.body.classList.contains("rv-folded"));  // its label in the language
  const list = $("rv-list");
  list.textContent = "";
  RV.items = new Map();
  if (!d) return;
  say(t("review_acc", Math.round(d.accuracy), d.mean_loss.toFixed(1), Math.round(d.agreement), d.decisions)
      + (d.auto_played ? t("review_auto", d.auto_played) : "")
      // (decisions the model gives no figure for — a 红中 held while the expert lays it aside —
      // are not rated: said, so that 100 % of one rated decision is read as that)
      + (d.rated != null && d.rated < d.decisions ? t("review_unrated", d.decisions - d.rated) : ""));
  $("rv-acc").textContent = `${Math.round(d.accuracy)}%`;
  if (!d.costliest.length) { const li = document.createElement("li"); li.textContent = t("review_none"); list.appendChild(li); }
  for (const c of d.costliest) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "rv-item";
    b.dataset.testid = "review-item";
    const head = document.createElement("b");
    head.textContent = t("review_item", c.hand, (c.played_words || {})[getLang()] || "", (c.expert_words || {})[getLang()] || "",
      c.loss.toFixed(1));
    const why = document.createElement("span");
    why.textContent = (c.why || {})[getLang()] || "";
    b.append(head, why);
    RV.items.set(c, b);
    b.addEventListener("click", () => { if (narrow()) foldReview(true); RV.hooks.jump(c); });
    li.appendChild(b);
    list.appendChild(li);
  }
  RV.hooks.refresh();
}

/** The decision the replay stands at (or null) is the one lit in the list, as its mark is. */
export function showCurrent(c) {
  for (const [d, b] of RV.items) {
    if (d === c) b.setAttribute("aria-current", "step");
    else b.removeAttribute("aria-current");
  }
}

/** The sentence of the step the replay stands at, whole: the panel opened (a small phone keeps it
 *  folded while the table shows) at its decision, lit and in sight. */
export function showWhole() {
  if (document.body.classList.contains("rv-folded")) foldReview(false);
  for (const b of RV.items.values()) if (b.hasAttribute("aria-current")) b.scrollIntoView({ block: "nearest" });
}

/** The reviewed seat while the panel is open (the replay turns it to the bottom), else null. */
export function reviewSeat() { return RV.hooks && !$("rv-panel").classList.contains("hidden") ? RV.seat : null; }

/** The marks of the costliest decisions on the current hand's timeline (frame index → decision). */
export function marksFor(hand, frames) {
  const out = new Map();
  if (!RV.data) return out;
  for (const c of RV.data.costliest) if (c.hand === hand) out.set(frameOf(frames, c.v), c);
  return out;
}

async function load(seat) {
  RV.seat = seat;
  RV.data = null;
  RV.hooks.refresh();
  const ticket = ++RV.asking;
  for (const b of $("rv-seats").children) b.setAttribute("aria-pressed", String(+b.dataset.seat === seat));
  $("rv-acc").textContent = "…";
  renderReview();
  say(t("review_busy", 0));
  const data = await fetchReview(RV.mid, seat, ticket);
  if (data && ticket === RV.asking) { RV.data = data; renderReview(); }
}

/** Open the panel for ``seat`` (hooks: jump(decision) and refresh() from the viewer). */
export function openReview(mid, seats, seat, hooks) {
  RV.mid = mid;
  RV.hooks = hooks;
  RV.seats = seats;
  $("rv-panel").classList.remove("hidden");
  document.body.classList.add("reviewing");
  foldReview(false);
  const box = $("rv-seats");
  box.textContent = "";
  for (let s = 0; s < 4; s++) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.seat = String(s);
    b.textContent = seatName(seats, s);
    b.addEventListener("click", () => load(s));
    box.appendChild(b);
  }
  load(seat);
}

export function closeReview() {
  RV.data = null;
  RV.asking++;
  $("rv-panel").classList.add("hidden");
  document.body.classList.remove("reviewing", "rv-folded");
  RV.hooks && RV.hooks.refresh();
}
