// 番 on the table (issue 23): beside each seat's plate its public table 番 (opening, each kind of
// kong; the server's laizi.views.fan) and its 阳光/金顶 standing; for the own ready hand every
// waiting tile with what a win on it scores and whether it reaches 起胡 (够番) — the scorer's
// figures in the seat's own frame (laizi.hints.ready_waits), never estimated here. A tap on a
// seat's 番 or on a wait opens its breakdown (the scorer's lines, in words). Text only.
import { t, tileName, tileShort, windOf, localizeLine, bigHandName, getLang } from "./i18n.js";
import { tileEl } from "./tiles.js";

const $ = id => document.getElementById(id);
// more waits (a laizi hand may wait on 30 kinds): "+n", all in the sheet; a phone held sideways
// has room for two beside its river
// (a short phone sideways, ≤380 px high: one, on the own plate's line; a phone sideways: two)
const SIDEWAYS = "(orientation: landscape) and (max-height: 600px)";
const maxChips = () => (matchMedia("(orientation: landscape) and (max-height: 380px)").matches ? 1
  : matchMedia(SIDEWAYS).matches ? 2 : 4);
// a phone held sideways in English: each chip in short words — the tile's short name ("8 Char"),
// its unseen copies and the points; 够番 by the chip's colour, 不够番 (or the scorer's reason) still
// in words ("8 Characters×3 · 60 pts · enough" was cut to "…eno…" at 667×375 and ran onto a second
// row at 844×390). The whole line stays on the chip's label for a screen reader, and the sheet.
const compact = () => getLang() === "en" && matchMedia(SIDEWAYS).matches;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function openSheet() {
  const sheet = $("sheet-fan");
  sheet.classList.remove("hidden");
  sheet.querySelector(".sheet-body").scrollTop = 0;
}

/** The seat's 番 badge and its 阳光/金顶 standing; the whole plate (a wide target) opens its
 *  items: ``plate`` gets the handlers, set again at each render (the view changes). */
export function fanBadge(pl, s, v, label, plate) {
  const full = t("seat_fan", pl.fan, t(pl.standing === "sunshine" ? "st_sunshine" : "st_golden"));
  const b = el("span", "badge b-fan");
  // the 番 and the standing in spans of their own: a side plate on a phone held upright is 52 px
  // wide, too narrow for "1 fan · unopened" on one line, and shows the 番 alone there (style.css);
  // the badge's colour (阳光 amber, 金顶 blue) and its title still tell the standing
  const head = t("seat_fan_n", pl.fan);
  if (full.startsWith(head) && full.length > head.length) b.append(el("span", "fan-n", head), el("span", "fan-st", full.slice(head.length)));
  else b.textContent = full;
  b.title = full;
  b.dataset.testid = `fan-${s}`;
  b.dataset.fan = String(pl.fan);
  b.dataset.standing = pl.standing;
  b.classList.toggle("sunshine", pl.standing === "sunshine");
  if (plate) {
    plate.classList.add("tappable");
    plate.setAttribute("role", "button");
    plate.tabIndex = 0;
    plate.setAttribute("aria-label", t("fan_of", `${windOf(s, v.dealer)} ${label}`, pl.fan));
    plate.onclick = () => showSeatFan(pl, s, v, label);
    plate.onkeydown = ev => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); showSeatFan(pl, s, v, label); } };
  }
  return b;
}

function showSeatFan(pl, s, v, label) {
  const body = $("fan-body");
  body.textContent = "";
  $("fan-h").textContent = t("fan_of", `${windOf(s, v.dealer)} ${label}`, pl.fan);
  const ul = el("ul", "fan-items");
  for (const [name, n] of pl.fan_items || []) ul.appendChild(el("li", "", `${localizeLine(name, v.dealer)} · ${t("n_fan", n)}`));
  if (!(pl.fan_items || []).length) ul.appendChild(el("li", "muted", t("no_fan_yet")));
  body.append(ul, el("p", "muted", t(pl.standing === "sunshine" ? "st_sunshine_help" : "st_golden_help")));
  openSheet();
}

/** What a win on a wait pays: the self-drawn total, else the one on a discard (the scorer's). */
function waitPoints(w) {
  if (w.self_draw && w.self_draw.ok) return w.self_draw.total;
  if (w.discard && w.discard.ok) return w.discard.total;
  return null;
}

/** Why a wait does not win: 不够番 below the minimum, else the scorer's reason (没有开口…). */
function shortWord(w) {
  const r = w.self_draw && w.self_draw.reason;
  if (!r || r === "below_minimum") return t("short_fan");
  const words = t(`reason_${r}`);
  return words === `reason_${r}` ? t("not_win") : words;
}

/** The own ready hand's 听 line: each wait a chip (tile × unseen · points · 够番/不够番). */
export function readyBadge(v) {
  const box = el("span", "badge b-ready");
  box.dataset.testid = "ready-line";
  box.appendChild(el("span", "rl-head", t("ting")));
  const waits = v.waits || [];
  const MAX_CHIPS = maxChips();
  waits.slice(0, MAX_CHIPS).forEach((w, i) => {
    const chip = el("button", "wait-chip");
    chip.type = "button";
    chip.dataset.testid = "wait";
    chip.dataset.tile = w.tile;
    const pts = waitPoints(w);
    const parts = [`${tileName(w.tile)}×${w.unseen}`];
    if (w.enough === undefined) chip.textContent = parts[0];
    else {
      if (pts != null) parts.push(t("points", Math.round(pts * 10) / 10));
      parts.push(w.enough ? t("enough_fan") : shortWord(w));
      chip.textContent = parts.join(" · ");
      if (compact()) {
        chip.setAttribute("aria-label", chip.textContent);
        chip.title = chip.textContent;
        const short = [`${tileShort(w.tile)}×${w.unseen}`, ...parts.slice(1, w.enough ? -1 : undefined)];
        chip.textContent = short.join(" · ");
      }
      chip.classList.add(w.enough ? "ok" : "short");
      chip.dataset.enough = w.enough ? "1" : "0";
      if (pts != null) chip.dataset.points = String(pts);
    }
    chip.addEventListener("click", ev => { ev.stopPropagation(); showWaits(v, i); });
    box.appendChild(chip);
  });
  if (waits.length > MAX_CHIPS) {
    const more = el("button", "wait-chip more", `+${waits.length - MAX_CHIPS}`);
    more.type = "button";
    more.addEventListener("click", ev => { ev.stopPropagation(); showWaits(v, MAX_CHIPS); });
    box.appendChild(more);
  }
  box.addEventListener("click", () => showWaits(v, 0));  // the line's head (and, on a short phone, the felt above it)
  return box;
}

function outcome(label, o, v) {
  const row = el("div", "wait-way");
  const head = el("p", "wait-line");
  head.appendChild(el("b", "", label));
  if (o.ok) {
    head.append(" ", t("points", Math.round(o.total * 10) / 10));
    const big = (o.big_hands || []).map(bigHandName).join("、");
    if (big) head.append(" · ", big);
  } else head.append(" ", t(`reason_${o.reason}`) === `reason_${o.reason}` ? t("not_win") : t(`reason_${o.reason}`));
  row.appendChild(head);
  if ((o.breakdown || []).length) {
    const d = el("details", "wait-breakdown");
    d.appendChild(el("summary", "", t("breakdown")));
    const ul = el("ul");
    for (const line of o.breakdown) ul.appendChild(el("li", "", localizeLine(line, v.dealer)));
    d.appendChild(ul);
    row.appendChild(d);
  }
  return row;
}

/** The waits sheet: every wait with its tile, unseen copies, both ways to win and their lines. */
export function showWaits(v, focus = 0) {
  const body = $("fan-body");
  body.textContent = "";
  $("fan-h").textContent = t("waits_title");
  (v.waits || []).forEach((w, i) => {
    const card = el("section", "wait-card");
    card.dataset.tile = w.tile;
    const head = el("div", "wait-head");
    head.appendChild(tileEl(w.tile, { size: "mid", laizi: v.laizi }));
    head.appendChild(el("span", "", `${tileName(w.tile)} · ${t("unseen_n", w.unseen)}`));
    if (w.enough !== undefined) head.appendChild(el("span", `fan-tag ${w.enough ? "ok" : "short"}`, w.enough ? t("enough_fan") : shortWord(w)));
    card.appendChild(head);
    if (w.self_draw) card.appendChild(outcome(t("by_self_draw"), w.self_draw, v));
    if (w.discard) card.appendChild(outcome(t("by_discard_worst"), w.discard, v));
    body.appendChild(card);
    if (i === focus) card.classList.add("focus");
  });
  openSheet();
  const f = body.querySelector(".wait-card.focus");
  if (f && focus > 0) f.scrollIntoView({ block: "nearest" });
}
