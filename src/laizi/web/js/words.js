// One line of words per game event (log, replay caption), in the current language.
import { t, tileName, windOf, runName, winBy, botName, kongWord } from "./i18n.js";

function name(seats, s, dealer) {
  const seat = seats && seats[s];
  let n = "";
  if (seat) n = seat.bot && !seat.player_id ? botName(seats, s) : seat.nickname || "";
  return `${windOf(s, dealer)}${n ? " " + n : ""}`;
}

/** ``pizi``: the 皮子 of the event's hand (a special kong is named by its tile: 皮子杠, 红中杠,
 *  发财杠); left out, the table's (i18n.setPizi). */
export function describe(ev, seats, dealer, pizi) {
  const who = ev.seat != null ? name(seats, ev.seat, dealer) : "";
  switch (ev.type) {
    case "start_hand":
      return t("ev_start_hand", ev.hand, name(seats, ev.dealer, ev.dealer), tileName(ev.indicator), tileName(ev.laizi));
    case "discard": return t("ev_discard", who, tileName(ev.tile));
    case "chi": return t("ev_claim", who, t("chi"), runName(ev.run || ev.tile));
    case "peng": case "kong": case "ankong": case "addkong": case "special_kong": case "laizi_kong":
      return t("ev_claim", who, kongWord(ev.type, ev.tile, pizi), tileName(ev.tile));
    case "win": {
      let how = winBy(ev.by);
      if (ev.by === "discard" && ev.from != null) how = t("from_line", name(seats, ev.from, dealer));
      return t("ev_win", who, tileName(ev.tile), how);
    }
    case "ryukyoku": case "drawn": return t(ev.reason === "dissolved" ? "ev_dissolved" : "ev_drawn");
    case "draw": return ev.tile ? t("ev_draw_tile", who, tileName(ev.tile)) : t("ev_draw", who);
    case "tsumo": return t("ev_tsumo", who);
    case "replace": return ev.draw ? null : t("ev_nodraw", who);  // 补 shows as its draw
    case "start_match": return t("ev_start_match");
    case "end_hand": return t("ev_end_hand");
    case "scores": return t("ev_scores");
    case "auto": return t(ev.on ? "ev_auto_on" : "ev_auto_off", who);
    case "escape": return t("ev_escape", who, ev.penalty);
    case "end_match": return t("ev_end_match");
    default: return null;
  }
}
