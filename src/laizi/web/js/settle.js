// Settlement (结算) of a hand and the match result. The panel stays until the player presses
// 继续 — a new deal arriving does not close it (the server starts the next hand by itself; the
// panel then says so and shows the player's own countdown, when the server gives one).
import { t, tileName, windOf, bigHandName, winBy, botName } from "./i18n.js";
import { tileEl } from "./tiles.js";
import { S } from "./state.js";
import { openHandCard } from "./card.js";

function el(tag, cls, text, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function fmt(x) { const r = Math.round(x * 10) / 10; return (r > 0 ? "+" : "") + r; }

export function seatName(seats, s, me) {
  const seat = seats && seats[s];
  let name = seat ? (seat.bot && !seat.player_id ? botName(seats, s) : seat.nickname) : "";
  if (!name) name = t("seat_n", s + 1);
  if (s === me) name += ` (${t("you")})`;
  return name;
}

/** Fill body with the settlement of the finished hand in view v. */
export function renderSettlement(body, v, { seats, me, coins = null, balance = null, card = "", matchId = null }) {
  body.textContent = "";
  fillSettle(body, v, { seats, me, coins, balance });
  if (card) cardLine(body, card);
  bigHandButton(body, v, matchId ?? S.matchId);
}

/** A hand won with a big hand: its 战绩 card (GET /api/matches/{id}/hands/{n}/card), to
 *  download or share. */
function bigHandButton(body, v, matchId) {
  const sc = v.result && v.result.score;
  if (matchId == null || !sc || !(sc.big_hands || []).length) return;
  const b = el("button", "settle-card-btn", t("card_hand"));
  b.type = "button";
  b.dataset.testid = "hand-card-button";
  b.addEventListener("click", () => openHandCard(matchId, v.hand_no));
  const tags = body.querySelector(".settle-tags");
  if (tags) tags.after(b);
  else body.appendChild(b);
}

/** The rule card (规则卡) the hand was played under, at the foot of the settlement. */
function cardLine(body, card) {
  const p = el("p", "rule-card settle-rule-card", null, body);
  p.dataset.testid = "settle-rule-card";
  el("b", "", t("rule_card"), p);
  p.append(" ", card);
}

function fillSettle(body, v, { seats, me, coins, balance }) {
  const res = v.result;
  el("h2", "settle-title", `${t("hand_result")} · ${t("hand_no", v.hand_no)}`, body).id = "hand-result";
  if (!res) {
    el("p", "settle-line", t(v.drawn === "dissolved" ? "dissolved_hand" : "drawn"), body);  // 解散 or 荒庄
  } else {
    const sc = res.score || {};
    const who = `${windOf(res.winner, v.dealer)} ${seatName(seats, res.winner, me)}`;
    let how = winBy(res.by);
    if (res.by === "discard" && res.from != null) how = t("from_line", `${windOf(res.from, v.dealer)} ${seatName(seats, res.from, me)}`);
    el("p", "settle-winner", t("win_line", who, how), body);
    const tags = [];
    if (sc.big_hands && sc.big_hands.length) tags.push(`${t("big_hands")}: ${sc.big_hands.map(bigHandName).join(" · ")}`);
    else tags.push(t("small_hand"));
    tags.push(sc.hard ? t("hard") : t("soft"));
    if (res.after_kong && !(sc.big_hands || []).includes("gangkai")) tags.push(t("gangkai"));
    if (res.haidi && !(sc.big_hands || []).includes("haidi")) tags.push(t("haidi"));
    if (sc.winner_fan != null) tags.push(t("winner_fan", sc.winner_fan));
    const caps = capsOf(sc, rulesOf(v), res.winner);
    const capWords = [...new Set(caps.filter(Boolean))].sort((a, b) => CAP_ORDER.indexOf(a) - CAP_ORDER.indexOf(b));
    if (capWords.length) tags.push(capWords.map(c => t(`cap_${c}`)).join(" · "));
    if (sc.liable != null) tags.push(`${t("liable")}: ${seatName(seats, sc.liable, me)}`);
    const tagBox = el("div", "settle-tags", null, body);
    for (const x of tags) el("span", "tag", x, tagBox);
    // the winning hand laid out with its melds
    const p = v.players[res.winner];
    const hand = el("div", "settle-hand", null, body);
    hand.id = "winning-hand";
    // The stored hand already holds the winning tile (a drawn one, and a discard won on too):
    // 3k+2 tiles with the melds. It is shown once, set apart and marked (issue 21: a win on a
    // discard showed it twice, 15 tiles).
    const rest = [...(p.hand || [])];
    let winTile = true;
    if ((rest.length + 3 * p.melds.length) % 3 === 2) {
      const i = rest.lastIndexOf(res.tile);
      if (i >= 0) rest.splice(i, 1);
      else winTile = false;
    }
    for (const c of rest) hand.appendChild(tileEl(c, { size: "meld", laizi: v.laizi }));
    if (winTile) hand.appendChild(tileEl(res.tile, { size: "meld", laizi: v.laizi, cls: "win-tile" }));
    for (const m of p.melds) {
      const box = el("span", "meld", null, hand);
      for (const c of m.tiles) box.appendChild(tileEl(c, { size: "meld", laizi: v.laizi }));
    }
    for (const c of p.special_kongs) hand.appendChild(tileEl(c, { size: "meld", laizi: v.laizi, cls: "spk-tile" }));
    el("p", "muted", `${t("win_tile")}: ${tileName(res.tile)}`, body);
  }
  // every seat's fan and payment
  const table = el("table", "grid pay", null, body);
  const head = el("tr", null, null, table);
  el("th", null, t("player"), head);
  el("th", null, t("fan"), head);
  el("th", null, t("payments"), head);
  el("th", null, t("total"), head);
  if (coins) el("th", "coin-col", t("coins"), head);  // a coin table: the coins of the hand
  const pays = v.payments || [0, 0, 0, 0];
  for (let s = 0; s < 4; s++) {
    const tr = el("tr", s === me ? "mine" : null, null, table);
    el("td", null, `${windOf(s, v.dealer)} ${seatName(seats, s, me)}`, tr);
    const sc = res && res.score;
    const fan = !sc ? "" : s === res.winner ? String(sc.winner_fan ?? "") : String((sc.loser_fan || [])[s] ?? "");
    const fanCell = el("td", null, fan, tr);
    const cap = sc ? capsOf(sc, rulesOf(v), res.winner)[s] : null;
    if (cap) {  // this loser's payment was capped: 封顶, or the top-out's 金顶/阳光顶/哈顶
      const mark = el("span", "cap-mark", t(`cap_${cap}`), fanCell);
      mark.dataset.cap = cap;
    }
    el("td", pays[s] > 0 ? "pos" : pays[s] < 0 ? "neg" : "", fmt(pays[s]), tr);
    el("td", null, String(v.scores ? v.scores[s] : ""), tr);
    if (coins) el("td", `coin-col ${coins[s] > 0 ? "pos" : coins[s] < 0 ? "neg" : ""}`, fmtInt(coins[s]), tr);
  }
  if (coins && balance != null) el("p", "coin-balance", t("coin_balance", balance), body);
}

const CAP_ORDER = ["cap", "golden", "sunshine", "ha"];

/** Each seat's cap in a won hand (RULES.md §7.3), from the scorer's result: when the hand topped
 *  out (all three raw amounts reached the cap) "golden" (金顶) for an opened loser, "sunshine"
 *  (阳光顶) for an unopened one, "ha" (哈顶) for all three when none opened — as its breakdown
 *  says; otherwise "cap" (封顶) for a loser whose raw amount passed ``rules.cap``; null else. */
/** A view's rules: its own, or — a page that takes room patches gets views without them —
 *  its room's (the same within a match). */
function rulesOf(v) { return v.rules || (S.room && S.room.rules) || null; }

export function capsOf(sc, rules, winner) {
  const caps = [null, null, null, null];
  if (!sc || winner == null) return caps;
  const losers = [0, 1, 2, 3].filter(s => s !== winner);
  const lines = (sc.breakdown || []).map(String);
  const seatsIn = (line, re) => {
    const m = re.exec(line);
    return m ? m[1].split(",").map(x => +x.trim()) : null;
  };
  if (sc.topped_out) {
    if (lines.some(l => l.startsWith("哈顶"))) { for (const s of losers) caps[s] = "ha"; return caps; }
    const sun = seatsIn(lines.find(l => l.startsWith("金顶")) || "", /阳光顶[^(]*\(seats? ([\d, ]+) unopened\)/) || [];
    for (const s of losers) caps[s] = sun.includes(s) ? "sunshine" : "golden";
    return caps;
  }
  const line = lines.find(l => l.startsWith("封顶"));
  const capped = line ? seatsIn(line, /\(seats? ([\d, ]+)\)/) : null;
  const cap = rules && rules.cap;
  for (const s of losers) {
    if (capped ? capped.includes(s) : cap != null && Math.abs((sc.raw || [])[s] || 0) > cap) caps[s] = "cap";
  }
  return caps;
}

function fmtInt(x) { return (x > 0 ? "+" : "") + String(x); }

/** The match result: ranking and the per-hand table. */
export function renderMatchResult(body, v, { seats, me, coins = null }) {
  el("h2", "settle-title", t("result_title"), body).id = "match-result";
  if (v.match_end === "dissolved") el("p", "settle-line", t("dissolved"), body).dataset.testid = "match-dissolved";
  const order = [0, 1, 2, 3].sort((a, b) => (v.scores[b] - v.scores[a]) || a - b);
  const rank = el("ol", "ranking", null, body);
  rank.setAttribute("aria-label", t("rank"));
  order.forEach((s, i) => {
    const li = el("li", s === me ? "mine" : null, null, rank);
    el("span", "rk-no", String(i + 1), li);
    el("span", "rk-name", seatName(seats, s, me), li);
    el("span", v.scores[s] > 0 ? "pos" : v.scores[s] < 0 ? "neg" : "", fmt(v.scores[s]), li);
  });
  if (coins && me != null) {  // a coin table: the match's coins of this seat, the balance after
    const won = [...Object.values(coins.hands), ...coins.escapes].reduce((a, c) => a + (c[me] || 0), 0);
    const line = el("p", "coin-balance", t("coin_match", fmtInt(won)), body);
    line.dataset.testid = "match-coins";
    if (coins.balance != null) line.textContent += " · " + t("coin_balance", coins.balance);
  }
  body.appendChild(scoreTable(v, seats, me));
}

export function scoreTable(v, seats, me) {
  const table = el("table", "grid scores");
  table.id = "scoretable";
  const head = el("tr", null, null, table);
  el("th", null, "#", head);
  for (let s = 0; s < 4; s++) el("th", null, seatName(seats, s, me), head);
  for (const h of v.history || []) {
    const tr = el("tr", null, null, table);
    el("td", null, String(h.hand), tr);
    h.deltas.forEach(d => el("td", d > 0 ? "pos" : d < 0 ? "neg" : "", fmt(d), tr));
  }
  const tot = el("tr", "total", null, table);
  el("th", null, t("total"), tot);
  for (let s = 0; s < 4; s++) el("th", null, fmt(v.scores ? v.scores[s] : 0), tot);
  return table;
}
