// The table view: four seats around a square table (own seat at the bottom, 下家 right, 对家 top,
// 上家 left), rivers in front of each seat, melds and special kongs beside it, the centre with wall
// count, hand/round, dealer, indicator and laizi. Used live (interactive) and by the replay viewer.
import { t, tileName, windOf, actionLabel, botName, getLang } from "./i18n.js";
import { tileEl, tileRow } from "./tiles.js";
import { avatarImg, showAvatar } from "./avatar.js";
import { fanBadge, readyBadge } from "./fan.js";

const POS_NAMES = ["bottom", "right", "top", "left"];

function div(cls, parent, testid) {
  const d = document.createElement("div");
  if (cls) d.className = cls;
  if (testid) d.dataset.testid = testid;
  if (parent) parent.appendChild(d);
  return d;
}

/** Build the empty table skeleton inside root; returns the table element. */
export function buildTable(root, { live }) {
  root.textContent = "";
  const table = div("table", root);
  if (live) table.id = "table";
  for (let p = 0; p < 4; p++) {
    const seat = div(`seat pos-${POS_NAMES[p]}`, table);
    seat.dataset.pos = String(p);
    const plate = div("plate", seat);
    if (p === 0 && live) div("ready-row", seat, "ready-row-box");  // the own 听 line (fan.js)
    plate.appendChild(avatarImg());
    div("wind", plate);
    div("pname", plate);
    div("pscore", plate);
    div("badges", plate);
    div("announce", seat);
    div("bubble", seat, "chat-bubble");
    div("melds", seat);
    if (p === 0 && live) {
      const hand = div("hand", seat, "own-hand");
      hand.id = "hand";
    }
    div("concealed", seat);
    const river = div(`river rpos-${POS_NAMES[p]}`, table);
    river.dataset.pos = String(p);
  }
  const center = div("center", table);
  const info = div("cinfo", center);
  div("hand-no", info);
  div("round-no", info);
  const wall = div("wall", info);
  wall.dataset.testid = "wall-count";
  if (live) wall.id = "wall-count";
  const tiles = div("ctiles", center);
  const ind = div("ctile", tiles);
  div("clabel", ind).dataset.i18n = "indicator";
  div("ind-slot", ind);
  const lz = div("ctile", tiles);
  div("clabel", lz).dataset.i18n = "laizi";
  div("lz-slot", lz);
  const claim = div("claim hidden", center, live ? "claim-prompt" : null);
  div("claim-title", claim);
  div("claim-tile", claim);
  div("claim-timer", claim);
  div("last-event", center);
  const fixed = div("fixed-deal hidden", center);  // the note in words, and short (a short screen)
  div("fd-long", fixed);
  div("fd-short", fixed);
  return table;
}

function seatLabel(ctx, s) {
  const seat = ctx.seats && ctx.seats[s];
  if (!seat) return t("seat_n", s + 1);
  if (seat.bot && !seat.player_id) return botName(ctx.seats, s);
  return seat.nickname || t("seat_n", s + 1);
}

/** Where a meld's claimed tile lies, as its owner sees the meld: from 上家 at the left end, from
 *  对家 in the middle, from 下家 at the right end (TABLE.md); -1 when nothing was claimed. A chi's
 *  tile always came from 上家: the tile it took (``claimed``) is turned and laid at the left end,
 *  the other two after it in order (a meld that does not say: its lowest). A 蓄杠 is the 碰 it
 *  grew from (three tiles, one sideways) with the fourth added on top of the sideways one. */
export function claimedIndex(m, owner) {
  if (m.type === "chi") return 0;
  if (m.from == null || m.type === "ankong") return -1;
  const rel = (m.from - owner + 4) % 4;  // 1 = 下家, 2 = 对家, 3 = 上家
  const n = m.type === "kong" ? 4 : 3;   // a 蓄杠 lies as its 碰
  return rel === 3 ? 0 : rel === 1 ? n - 1 : rel === 2 ? 1 : -1;
}

/** A meld of the seat owner drawn at screen position pos (0 bottom, 1 right, 2 top, 3 left).
 *  The bottom seat's row is seen as its owner sees it. The top seat faces us: its left end is at
 *  our right, so its row is mirrored — a tile it took from its 上家 (the seat on our right) lies at
 *  our right, next to that seat. The side seats' rows lie across the screen as the owner reads
 *  them turned upright (the left seat's left, towards the top of the screen, at our left; the
 *  right seat's left, towards us, at our left), the way their tiles are drawn. */
function meldEl(m, owner, laizi, me, pos) {
  const box = div("meld");
  box.dataset.type = m.type;
  const side = claimedIndex(m, owner);
  const tiles = m.type === "addkong" ? m.tiles.slice(0, 3) : m.tiles.slice();
  if (m.type === "chi" && m.claimed && tiles.includes(m.claimed)) {  // the taken tile first
    tiles.splice(tiles.indexOf(m.claimed), 1);
    tiles.unshift(m.claimed);
  }
  const hidden = m.type === "ankong" && owner !== me ? [0, 3] : [];
  const els = tiles.map((c, i) => {
    const e = tileEl(hidden.includes(i) ? null : c, { size: "meld", laizi, sideways: i === side });
    if (i === side) e.dataset.claimed = "1";
    return e;
  });
  if (pos === 2) els.reverse();
  if (m.type === "addkong") {  // the fourth on top of the sideways one (it follows it: .stacked)
    const at = els.findIndex(e => e.dataset.claimed);
    els.splice(at < 0 ? els.length : at + 1, 0, tileEl(m.tiles[3], { size: "meld", laizi, cls: at < 0 ? "" : "stacked" }));
  }
  for (const e of els) box.appendChild(e);
  box.setAttribute("aria-label", `${t(m.type)} ${tileName(m.tile)}`);
  return box;
}

function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
function setData(el, name, value) { if (el.dataset[name] !== value) el.dataset[name] = value; }

/** Redraw a region only when its data changed: draw(el) runs when key differs from the key the
 *  region was last drawn with (kept on the element, data-key). Returns whether it ran. */
export function redraw(el, key, draw) {
  if (el.dataset.key === key) return false;
  el.dataset.key = key;
  draw(el);
  return true;
}

/** A river as the list of its tiles: the tiles it already shows stay, the changed tail is
 *  replaced (a discard appends one tile; a claim takes the last one away). The newest discard
 *  drops in (fresh); the latest discard on the table is lit (last: at is its place, or -1). */
function renderRiver(riverEl, tiles, laizi, at) {
  const key = `${laizi}|${document.documentElement.lang}`;  // a new laizi or language: all anew
  if (riverEl.dataset.key !== key) { riverEl.textContent = ""; riverEl.dataset.key = key; }
  const shown = riverEl.children;
  const old = shown.length;
  let k = 0;
  while (k < old && k < tiles.length && shown[k].dataset.tile === tiles[k]) k++;
  while (riverEl.childElementCount > k) riverEl.lastElementChild.remove();
  if (tiles.length > k) for (const e of riverEl.querySelectorAll(".fresh")) e.classList.remove("fresh");
  for (let i = k; i < tiles.length; i++) {
    const e = tileEl(tiles[i], { size: "river", laizi });
    if (i >= old && old > 0 && i === tiles.length - 1) e.classList.add("fresh");
    riverEl.appendChild(e);
  }
  const litEl = at >= 0 ? shown[at] : null;
  for (const e of riverEl.querySelectorAll(".last")) if (e !== litEl) e.classList.remove("last");
  if (litEl) litEl.classList.add("last");
}

/** The latest discard of a hand from its events, newest last (the live table's log: a
 *  snapshot repeats the last events, so a join or a reconnect knows it too): {seat, special}
 *  while the tile lies where it fell, null once a 吃/碰/杠 took it or before the hand's first. */
export function eventsDiscard(events) {
  for (let j = events.length - 1; j >= 0; j--) {
    const ev = events[j];
    if (ev.type === "discard") return { seat: ev.seat, special: ev.as != null };
    if (ev.type === "chi" || ev.type === "peng" || ev.type === "kong" || ev.type === "start_hand"
        || ev.type === "end_hand") return null;
  }
  return null;
}

/** The latest discard on the table: {seat, special} (special: a 赖子 or 红中 laid aside, shown
 *  after the seat's river), or null. ctx.lastDiscard, when given, decides (the live table and
 *  the replay know it from their events). Otherwise (the tutorial): during a claim window the
 *  view says it (the turn seat's pending tile); else the table keeps it from render to render:
 *  the seat whose river (or laid-aside tiles) grew since the last render discarded last (of
 *  several, the nearest before the turn seat), and its tile stays lit until the next discard
 *  or until a claim takes it. */
function latestDiscard(table, v, ctx) {
  const counts = v.players.map(pl => [pl.river.length, (pl.special_discards || []).length]);
  const was = table._discard && table._discard.hand === v.hand_no ? table._discard : null;
  let last = null;
  if (ctx.lastDiscard !== undefined) last = ctx.lastDiscard;
  else if (v.phase === "claim" && v.pending) last = { seat: v.turn, special: false };
  else if (was) {
    const grew = [];
    counts.forEach(([r, sd], s) => {
      if (r > was.counts[s][0]) grew.push({ seat: s, special: false });
      if (sd > was.counts[s][1]) grew.push({ seat: s, special: true });
    });
    // more than one (frames that came together): play goes round, so the nearest before the
    // turn seat threw last (the turn seat's own 赖子/红中 is later still: it plays on)
    const age = g => g.seat === v.turn ? (g.special ? 0 : 4) : (v.turn - g.seat + 4) % 4;
    if (grew.length) last = grew.reduce((a, b) => (age(b) < age(a) ? b : a));
    else if (was.last) {  // nothing thrown since: the same tile, unless claimed
      const k = was.last.special ? 1 : 0;
      if (counts[was.last.seat][k] === was.counts[was.last.seat][k]) last = was.last;
    }
  }
  table._discard = { hand: v.hand_no, counts, last };
  return last;
}

/** Render a view into a table built by buildTable. ctx: {me, seats, live, deadlineLeft, onTile,
 *  selected}. me is the seat shown at the bottom (null for spectators and replays → seat 0).
 *  Each region (a seat's plate badges, 听 line, melds, concealed tiles, river; the centre) is
 *  redrawn only when its data changed. */
export function renderTable(table, v, ctx) {
  const me = ctx.me == null ? 0 : ctx.me;
  const laizi = v.laizi;
  const lang = document.documentElement.lang;
  const acting = new Set(v.acting || []);
  if ((v.phase === "turn" || v.phase === "replace") && v.turn != null) acting.add(v.turn);
  const lastDiscard = latestDiscard(table, v, ctx);
  for (let s = 0; s < 4; s++) {
    const p = (s - me + 4) % 4;
    const seatEl = table.querySelector(`.seat[data-pos="${p}"]`);
    const riverEl = table.querySelector(`.river[data-pos="${p}"]`);
    const pl = v.players[s];
    setData(seatEl, "seat", String(s));
    setData(seatEl, "testid", `seat-${s}`);
    setData(riverEl, "testid", `river-${s}`);
    setData(riverEl, "seat", String(s));
    seatEl.classList.toggle("me", !!ctx.live && s === ctx.me);
    seatEl.classList.toggle("turn", acting.has(s) && v.phase !== "over");
    seatEl.classList.toggle("dealer", v.dealer === s);
    setText(seatEl.querySelector(".wind"), windOf(s, v.dealer));
    const label = seatLabel(ctx, s);
    setText(seatEl.querySelector(".pname"), label);
    showAvatar(seatEl.querySelector("img.avatar"), ctx.seats && ctx.seats[s]);
    const sc = v.scores ? v.scores[s] : 0;
    setText(seatEl.querySelector(".pscore"), String(Math.round(sc * 10) / 10));
    const badges = [];
    if (v.dealer === s) badges.push([t("dealer"), "b-dealer"]);
    const tier = ctx.seats && ctx.seats[s] && ctx.seats[s].tier;  // 段位 (accounts.ranks), above 新手
    if (tier && tier.index > 0) badges.push([getLang() === "en" ? tier.en : tier.zh, `b-tier tier-${tier.key}`]);
    if (v.auto && v.auto[s]) badges.push([t("auto"), "b-auto"]);
    if (ctx.seats && ctx.seats[s] && ctx.seats[s].player_id && !ctx.seats[s].connected && !(v.escaped && v.escaped[s])) badges.push(["⚡", "b-off"]);
    if (v.escaped && v.escaped[s]) badges.push([t("leave"), "b-off"]);
    // the countdowns: their text set below (and by updateTimers once a second), not part of the key
    let timer = null;
    const secs = seatLeft(s, v, ctx);
    if (secs != null) {
      timer = t("timer", secs.left);
      badges.push(["", secs.own ? "b-timer" : "b-timer b-public"]);  // else the turn seat's public countdown
    }
    setRing(table, seatEl, secs && secs.left);
    // 番 on the table: the seat's public fan and 阳光/金顶 standing (fan.js)
    const fan = pl.fan != null ? [pl.fan, pl.standing, pl.fan_items, windOf(s, v.dealer), label] : null;
    const badgeBox = seatEl.querySelector(".badges");
    redraw(badgeBox, JSON.stringify([badges, fan, lang]), box => {
      box.textContent = "";
      for (const [txt, cls] of badges) {
        const b = document.createElement("span");
        b.className = `badge ${cls}`;
        b.textContent = txt;
        box.appendChild(b);
      }
      if (fan) box.appendChild(fanBadge(pl, s, v, label, seatEl.querySelector(".plate")));
    });
    if (timer != null) setText(badgeBox.querySelector(".b-timer"), timer);
    // 听牌: the own ready hand's winning tiles, each with its copies still unseen, the points a
    // win on it scores and 够番 (the scorer's, in the seat's own frame; without hints too).
    // Shown on a 3n+1 hand: after its draw the frame keeps the waits it had before (not sent
    // away and back each turn), and the row waits for the discard.
    const row = seatEl.querySelector(".ready-row");
    if (row) {
      const ready = ctx.live && s === ctx.me && (v.waits || []).length && v.phase !== "over"
        && (v.hand || []).length % 3 === 1;
      redraw(row, ready ? JSON.stringify([v.waits, laizi, v.dealer, lang, innerWidth, innerHeight]) : "", box => {
        box.textContent = "";
        if (ready) box.appendChild(readyBadge(v));
      });
    }
    // melds and special kongs
    const viewer = ctx.live ? ctx.me : null;
    redraw(seatEl.querySelector(".melds"), JSON.stringify([s, pl.melds, pl.special_kongs, laizi, viewer, lang]), melds => {
      melds.textContent = "";
      for (const m of pl.melds) melds.appendChild(meldEl(m, s, laizi, viewer, p));
      if (pl.special_kongs.length) {
        const sk = tileRow(pl.special_kongs, { size: "meld", laizi }, "meld spk");
        sk.setAttribute("aria-label", t("special_kong"));
        melds.appendChild(sk);
      }
    });
    // concealed tiles
    const handEl = seatEl.querySelector(".hand");
    const box = seatEl.querySelector(".concealed");
    const own = handEl && ctx.live && s === ctx.me && v.hand;
    if (own) renderHand(handEl, v, ctx);
    else if (handEl && handEl.dataset.key) { handEl.textContent = ""; handEl.dataset.key = ""; }
    const back = () => tileEl(null, { size: p === 0 ? "meld" : "back" });
    const drawn = redraw(box, own ? "" : JSON.stringify([pl.hand, p === 0, laizi, lang]), () => {
      box.textContent = "";
      if (own) return;
      box.classList.toggle("open", !!pl.hand);
      if (pl.hand) for (const c of pl.hand) box.appendChild(tileEl(c, { size: "meld", laizi }));
      else for (let i = 0; i < pl.concealed; i++) box.appendChild(back());
    });
    if (!drawn && !own && !pl.hand) {  // backs: only their number changed (a draw, a discard)
      while (box.childElementCount > pl.concealed) box.lastElementChild.remove();
      while (box.childElementCount < pl.concealed) box.appendChild(back());
    }
    // river (claimed tiles already left it); the latest discard highlighted
    const lit = lastDiscard && lastDiscard.seat === s
      ? (lastDiscard.special ? pl.river.length + (pl.special_discards || []).length : pl.river.length) - 1 : -1;
    renderRiver(riverEl, pl.river.concat(pl.special_discards || []), laizi, lit);
  }
  // centre
  setText(table.querySelector(".hand-no"), t("hand_no", v.hand_no));
  // a match capped at a number of hands (a quick table, a tournament round) counts its hands,
  // not rounds it will never reach (a one-hand table said "第 1/16 圈")
  setText(table.querySelector(".round-no"),
          v.max_hands ? t("hand_of", v.hand_no, v.max_hands) : t("round_of", v.round, v.rounds));
  setText(table.querySelector(".wall"), t("wall_left", v.wall_remaining));
  setData(table.querySelector(".wall"), "count", String(v.wall_remaining));
  const indSlot = table.querySelector(".ind-slot");
  if (indSlot.dataset.tile !== v.indicator || indSlot.dataset.lang !== document.documentElement.lang) {
    indSlot.textContent = "";
    indSlot.dataset.tile = v.indicator;
    indSlot.dataset.lang = document.documentElement.lang;
    const ind = tileEl(v.indicator, { size: "mid" });
    if (ctx.live) ind.id = "indicator";
    indSlot.appendChild(ind);
    const lzSlot = table.querySelector(".lz-slot");
    lzSlot.textContent = "";
    const lz = tileEl(laizi, { size: "mid", laizi });
    lz.dataset.testid = "laizi";
    if (ctx.live) lz.id = "laizi-tile";
    lzSlot.appendChild(lz);
  }
  // claim window: the claimed tile large in the centre
  const claim = table.querySelector(".claim");
  const showClaim = v.phase === "claim" && v.pending;
  // a decision without a discard the table would not explain by itself: 补 or 不补 after the own
  // kong (kong_draw_choice), or a kong at the 海底 (haidi_kongs: tap the lit tile, or 过)
  const legalNow = v.legal || [];
  const ask = v.phase === "replace" && legalNow.some(a => a.type === "nodraw") ? "replace_turn"
    : v.phase === "haidi" && legalNow.some(a => /kong$/.test(a.type)) ? "haidi_kong_turn" : null;
  claim.classList.toggle("hidden", !showClaim && !ask);
  claim.classList.toggle("ask", !!ask);
  if (ask) {
    setText(claim.querySelector(".claim-title"), t(ask));
    const slot = claim.querySelector(".claim-tile");
    slot.textContent = "";
    setData(slot, "tile", "");
    setText(claim.querySelector(".claim-timer"), ctx.deadlineLeft != null ? t("timer", ctx.deadlineLeft) : "");
  } else if (showClaim) {
    setText(claim.querySelector(".claim-title"), t("claim_title", `${windOf(v.turn, v.dealer)} ${seatLabel(ctx, v.turn)}`));
    const slot = claim.querySelector(".claim-tile");
    if (slot.dataset.tile !== v.pending) {
      slot.textContent = "";
      slot.dataset.tile = v.pending;
      slot.appendChild(tileEl(v.pending, { size: "big", laizi }));
    }
    setText(claim.querySelector(".claim-timer"), claimLeft(v, ctx));
  } else {
    setData(claim.querySelector(".claim-tile"), "tile", "");
    setText(claim.querySelector(".claim-timer"), "");
  }
  const last = table.querySelector(".last-event");
  setText(last, ctx.lastLine || "");
  const fixed = table.querySelector(".fixed-deal");
  fixed.classList.toggle("hidden", !ctx.fixedDeal);
  const seed = String(ctx.fixedDeal || "").slice(0, 16);
  setText(fixed.querySelector(".fd-long"), ctx.fixedDeal ? t("fixed_deal", seed) : "");
  setText(fixed.querySelector(".fd-short"), ctx.fixedDeal ? t("fixed_deal_short", seed) : "");
}

function renderHand(box, v, ctx) {
  const legal = v.legal || [];
  const tapActs = {};
  // a tile's tap plays its one move: a special tile (红中, 皮子) or a laizi tapped twice is laid
  // aside and a replacement drawn (补一张, as 新手教程 teaches) — its discard counts as the same
  // kong but draws nothing, so the tap never chooses it over the kong
  for (const a of legal) {
    if (a.type !== "discard" && a.type !== "laizi_kong" && a.type !== "special_kong") continue;
    const had = tapActs[a.tile];
    if (!had || (had.type === "discard" && a.type !== "discard")) tapActs[a.tile] = a;
  }
  const tiles = v.hand.slice();
  let drawn = null;
  if (v.last_draw && tiles.includes(v.last_draw)) {
    tiles.splice(tiles.lastIndexOf(v.last_draw), 1);
    drawn = v.last_draw;
  }
  const list = drawn ? tiles.concat([drawn]) : tiles;
  // Unchanged hand, choices and selection: keep the elements (a rebuild mid-tap loses the tap).
  const key = JSON.stringify([list, tapActs, ctx.selected, ctx.hint, v.laizi, document.documentElement.lang]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.textContent = "";
  box.classList.toggle("my-turn", Object.keys(tapActs).length > 0);
  // upright, the hand takes two rows: data-per, the tiles of its first row (style.css), so that
  // the drawn tile ends the second row right of the last one, never alone on a row of its own
  // (13 + 1 wrapped as 7, 6 and the drawn tile; 7 + 1 as 7 and the drawn tile)
  setData(box, "per", String(list.length <= 7 ? 7 : Math.min(7, Math.ceil(list.length / 2))));
  // only kongs to tap (the 海底 under haidi_kongs): the tappable tiles are lit
  box.classList.toggle("kong-taps", Object.keys(tapActs).length > 0 && !legal.some(a => a.type === "discard"));
  const hint = ctx.hint && ctx.hint.tile && tapActs[ctx.hint.tile] ? ctx.hint.tile : null;
  const hintAt = hint ? list.lastIndexOf(hint) : -1;
  list.forEach((c, i) => {
    const isDrawn = drawn != null && i === list.length - 1;
    const e = tileEl(c, { size: "hand", laizi: v.laizi });
    e.dataset.index = String(i);
    if (isDrawn) e.classList.add("drawn");
    const a = tapActs[c];
    if (a) {
      e.classList.add("clickable");
      e.dataset.act = a.type;  // what a tap plays: discard, or the kong laying it aside
      e.tabIndex = 0;
      e.setAttribute("role", "button");
      e.setAttribute("aria-label", actionLabel(a));
      if (ctx.selected === i) e.classList.add("raised");
      if (i === hintAt) e.classList.add("hint");
      let downY = null;
      let swiped = false;
      e.addEventListener("pointerdown", ev => {
        downY = ev.clientY;
        swiped = false;
        try { e.setPointerCapture(ev.pointerId); } catch (err) { /* synthetic events */ }
      });
      e.addEventListener("pointerup", ev => { // a swipe up discards at once
        if (downY != null && downY - ev.clientY > 30) { swiped = true; ctx.onTile(i, a, true); }
        downY = null;
      });
      e.addEventListener("click", () => { if (!swiped) ctx.onTile(i, a); });
      e.addEventListener("keydown", ev => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ctx.onTile(i, a, true); } });
    }
    box.appendChild(e);
  });
}

/** The claim window's countdown: the seat's own deadline when it may claim, else the public
 * window countdown (the same for everyone: it never says who may claim). */
function claimLeft(v, ctx) {
  if (v.phase !== "claim") return "";
  if (ctx.deadlineLeft != null && (v.legal || []).length) return t("timer", ctx.deadlineLeft);
  if (ctx.turnTimer && ctx.turnTimer.seat == null && ctx.turnTimer.left != null) return t("timer", ctx.turnTimer.left);
  return "";
}

/** The countdown a seat's plate shows: {left, own} — the own seat's deadline (own), or the turn
 *  seat's public one — or null. */
function seatLeft(s, v, ctx) {
  if (v.phase === "over") return null;
  if (ctx.live && s === ctx.me && ctx.deadlineLeft != null) return { left: ctx.deadlineLeft, own: true };
  if (ctx.turnTimer && ctx.turnTimer.seat === s && ctx.turnTimer.left != null) return { left: ctx.turnTimer.left, own: false };
  return null;
}

/** The countdown ring around a seat's avatar while it must act (TABLE.md, Seats): the share of
 *  its time left, from the seconds first seen of this countdown (a larger number starts anew). */
function setRing(table, seatEl, left) {
  const img = seatEl.querySelector("img.avatar");
  if (!img) return;
  const seat = seatEl.dataset.seat;
  const rings = table._rings || (table._rings = {});
  if (left == null) {
    delete rings[seat];
    img.classList.remove("timing", "low");
    delete img.dataset.ring;
    return;
  }
  const r = rings[seat];
  if (!r || left > r.last) rings[seat] = { full: Math.max(left, 1), last: left };
  else r.last = left;
  img.classList.add("timing");
  // in twelfths (style.css turns data-ring into the ring's share: scripts set no style)
  const twelfths = String(Math.round(12 * Math.max(0, Math.min(1, left / rings[seat].full))));
  if (img.dataset.ring !== twelfths) img.dataset.ring = twelfths;
  img.classList.toggle("low", left <= 5);
}

/** Once a second: only the countdown texts and rings change (rebuilding the hand would swallow taps). */
export function updateTimers(table, v, ctx) {
  for (const seatEl of table.querySelectorAll(".seat[data-seat]")) {
    const secs = seatLeft(+seatEl.dataset.seat, v, ctx);
    setRing(table, seatEl, secs && secs.left);
  }
  const left = ctx.deadlineLeft;
  const badge = table.querySelector(".seat.me .b-timer");
  if (badge) badge.textContent = left == null ? "" : t("timer", left);
  const pub = table.querySelector(".b-public");
  if (pub && ctx.turnTimer && ctx.turnTimer.left != null) pub.textContent = t("timer", ctx.turnTimer.left);
  const claim = table.querySelector(".claim-timer");
  if (claim) claim.textContent = claimLeft(v, ctx);
}

// ------------------------------------------------------------------ announcements (polish)
// 碰! 杠! 胡! appear at the free spot nearest to the seat's name plate: never over a name plate, a meld, a river
// tile, a hand (the own, the others' backs) or the centre tiles, nor over the controls around the table — the top bar's
// buttons (菜单 …), the status line, the action buttons — and always inside the screen (TABLE.md:
// a large word over the seat that made it). The table keeps changing while the word shows (≈1 s),
// so every render checks it again and moves it if something came under it or the seat moved it
// off the screen (keepAnnouncesClear).
const ANNOUNCE_BLOCKERS = ".meld, .river .tile, #hand .tile, .concealed .tile, .ctile .tile, .claim:not(.hidden), .plate, .cinfo";
const ANNOUNCE_CONTROLS = "#actions button, #game .hud button, #game .status-line";
const POP_MS = 1000;

function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

function blockersOf(table) {
  return [...[...document.querySelectorAll(ANNOUNCE_BLOCKERS)].filter(b => table.contains(b)),
          ...document.querySelectorAll(ANNOUNCE_CONTROLS)]
    .map(b => b.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0);
}

function onScreen(box) {
  return box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight;
}

/** The free box (viewport coordinates, at the pop's largest) nearest to the seat's plate. Round
 *  the word it keeps style.css --spot-gap free (2 px; 12 px for the own seat upright, whose plate
 *  stands right above the hand); where no such room is left on the table, the 2 px. */
function findSpot(el, table, blockers) {
  const gap = parseFloat(getComputedStyle(el).getPropertyValue("--spot-gap")) || 2;
  let spot = spotWith(el, table, blockers, gap);
  if (gap > 2 && (!spot || spot.cost > 0)) spot = spotWith(el, table, blockers, 2) || spot;
  return spot && spot.box;
}

/** The box of the least overlap with the blockers (the nearest of those that overlap nothing),
 *  the pop's scale and a margin of gap px round the word, and that overlap; null if none fits. */
function spotWith(el, table, blockers, gap) {
  const seat = el.parentElement;
  const w = el.offsetWidth * 1.15 + 2 * gap, h = el.offsetHeight * 1.15 + 2 * gap;
  const T = table.getBoundingClientRect();
  const plate = seat.querySelector(".plate");
  const P = (plate || seat).getBoundingClientRect();
  const cx = (P.left + P.right) / 2, cy = (P.top + P.bottom) / 2;
  const left = Math.max(T.left, 0), top = Math.max(T.top, 0);
  const right = Math.min(T.right, innerWidth), bottom = Math.min(T.bottom, innerHeight);
  const spots = [];
  for (let y = top + h / 2; y <= bottom - h / 2; y += 8)
    for (let x = left + w / 2; x <= right - w / 2; x += 8) spots.push([x, y, (x - cx) ** 2 + (y - cy) ** 2]);
  spots.sort((a, b) => a[2] - b[2]);
  let best = null, bestCost = Infinity;
  for (const [x, y] of spots) {
    const box = { left: x - w / 2, right: x + w / 2, top: y - h / 2, bottom: y + h / 2 };
    let cost = 0;
    for (const r of blockers) { cost += overlap(box, r); if (cost >= bestCost) break; }
    if (cost < bestCost) { best = box; bestCost = cost; }
    if (cost === 0) break;
  }
  return best && { box: best, cost: bestCost };
}

function popKeyframes(el, box) {
  const S = el.parentElement.getBoundingClientRect();
  const x = (box.left + box.right) / 2 - S.left, y = (box.top + box.bottom) / 2 - S.top;
  const at = (scale, lift = 0) => `translate(${x}px, ${y}px) translate(-50%, ${-50 - lift}%) scale(${scale})`;
  return matchMedia("(prefers-reduced-motion: reduce)").matches
    ? [{ opacity: 1, transform: at(1) }, { opacity: 1, transform: at(1), offset: .85 }, { opacity: 0, transform: at(1) }]
    : [{ opacity: 0, transform: at(.6) }, { opacity: 1, transform: at(1.15), offset: .15 },
       { opacity: 1, transform: at(1), offset: .7 }, { opacity: 0, transform: at(1, 10) }];
}

/** Show the announcement element el (inside its .seat, its text set) at the free spot nearest to
 *  the seat's plate, with its short pop (Web Animations: no inline style, which the CSP forbids);
 *  returns the chosen box, or null (then the CSS default place and pop apply). */
export function placeAnnounce(el) {
  const table = el.parentElement && el.parentElement.closest(".table");
  if (!table || typeof el.animate !== "function") return null;
  for (const a of el.getAnimations()) a.cancel();
  el.classList.add("placed");
  const box = findSpot(el, table, blockersOf(table));
  if (!box) { el.classList.remove("placed"); return null; }
  keepSpot(el, box);
  el.animate(popKeyframes(el, box), { duration: POP_MS, fill: "forwards" });  // linear: the keyframes time it
  return box;
}

// Chat at the seat: a speaker's message or quick phrase shows as a bubble by its plate for a few
// seconds, placed like the 碰! words (the free spot nearest the plate: never over a meld, a river
// tile, the own hand or the centre tiles). Text only (textContent).
const BUBBLE_MS = 3500;

export function showBubble(el, text) {
  const table = el && el.parentElement && el.parentElement.closest(".table");
  if (!table) return null;
  if (typeof text === "string") el.textContent = text; else el.replaceChildren(text);  // (words, or an emote's picture)
  if (typeof el.animate !== "function") return null;
  for (const a of el.getAnimations()) a.cancel();
  el.classList.add("placed");
  const box = findSpot(el, table, blockersOf(table));  // nor anyone's name (plates are blockers)
  if (!box) { el.classList.remove("placed"); return null; }
  keepSpot(el, box);
  el.animate(bubbleKeyframes(el, box), { duration: BUBBLE_MS, fill: "forwards" });
  return box;
}

function bubbleKeyframes(el, box) {
  const S = el.parentElement.getBoundingClientRect();
  const x = (box.left + box.right) / 2 - S.left, y = (box.top + box.bottom) / 2 - S.top;
  const at = `translate(${x}px, ${y}px) translate(-50%, -50%)`;
  return [{ opacity: 0, transform: at }, { opacity: 1, transform: at, offset: .06 },
          { opacity: 1, transform: at, offset: .9 }, { opacity: 0, transform: at }];
}

function keepSpot(el, box) {
  const S = el.parentElement.getBoundingClientRect();
  el.dataset.spot = [(box.left + box.right) / 2 - S.left, (box.top + box.bottom) / 2 - S.top,
    box.right - box.left, box.bottom - box.top].map(v => Math.round(v)).join(",");
}

/** After a render (a new frame, a phone turned round): a word or a chat bubble still showing
 *  whose spot is now covered or off the screen moves to a free one. */
export function keepAnnouncesClear(table) {
  if (!table) return;
  let blockers = null;
  for (const el of table.querySelectorAll(".announce.placed, .bubble.placed")) {
    const anim = el.getAnimations()[0];
    if (!anim || anim.playState !== "running" || !el.dataset.spot) continue;
    const [x, y, w, h] = el.dataset.spot.split(",").map(Number);  // relative to the seat, which may move
    const S = el.parentElement.getBoundingClientRect();
    const now = { left: S.left + x - w / 2, right: S.left + x + w / 2, top: S.top + y - h / 2, bottom: S.top + y + h / 2 };
    blockers = blockers || blockersOf(table);
    if (onScreen(now) && !blockers.some(r => overlap(now, r) > 0)) continue;
    const box = findSpot(el, table, blockers);
    if (!box) continue;
    keepSpot(el, box);
    anim.effect.setKeyframes(el.classList.contains("bubble") ? bubbleKeyframes(el, box) : popKeyframes(el, box));
  }
}

// ------------------------------------------------------------------ 场次 of a coin table (polish)
/** Show the level (场次) and stake of a quick-match table in the centre (room info "coin"). */
export function renderCoinLevel(table, coin) {
  const info = table.querySelector(".cinfo");
  if (!info) return;
  let el = info.querySelector(".coin-level");
  if (!coin) { if (el) el.remove(); return; }
  if (!el) {
    el = div("coin-level", info, "coin-level");
  }
  const name = t("lv_" + coin.level) === "lv_" + coin.level ? coin.label : t("lv_" + coin.level);
  setData(el, "level", coin.level);
  setData(el, "stake", String(coin.stake));
  setText(el, coin.stake > 0 ? t("coin_stake", name, coin.stake) : t("coin_free", name));
}
