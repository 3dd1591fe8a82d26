// 解散 by vote at the table: the menu's button proposes (agrees); the bar shows how many
// seated players agreed and, to those still asked, Agree / Refuse. One refusal drops it;
// when everyone agreed the match ends (the server sends the final frame — its "drawn" and
// "match_end" say 解散 to the settlement, also after a reconnect — then "dissolve" done).
// A proposal still open is sent again to a player who comes back (Hub.join).
import { S, PAGE } from "./state.js";
import * as net from "./net.js";
import { t, onLang } from "./i18n.js";
import { toast } from "./ui.js";

const $ = id => document.getElementById(id);

function seatName(seat) {
  const s = S.room && S.room.seats && S.room.seats[seat];
  return (s && s.nickname) || String(seat + 1);
}

function render() {
  const bar = $("dissolve-bar");
  if (!PAGE.dissolve) { bar.classList.add("hidden"); return; }
  const total = PAGE.dissolve.agreed.length + PAGE.dissolve.waiting.length;
  $("dissolve-text").textContent = t("dissolve_vote", PAGE.dissolve.agreed.length, total);
  const asked = S.seat != null && PAGE.dissolve.waiting.includes(S.seat);
  $("dissolve-yes").classList.toggle("hidden", !asked);
  $("dissolve-no").classList.toggle("hidden", !asked);
  bar.classList.remove("hidden");
}

// 申请解散 takes two taps: the first asks 确定解散？ (alone with bots, one tap ended the match at
// once — found by playing it, stop 48); left alone a few seconds it says 申请解散 again.
function disarm() {
  clearTimeout(PAGE.dissolveDisarm);
  const b = $("btn-dissolve");
  delete b.dataset.armed;
  b.textContent = t("dissolve");
}

export function initDissolve() {
  $("btn-dissolve").addEventListener("click", () => {
    const b = $("btn-dissolve");
    if (!b.dataset.armed) {
      b.dataset.armed = "1";
      b.textContent = t("dissolve_sure");
      clearTimeout(PAGE.dissolveDisarm);
      PAGE.dissolveDisarm = setTimeout(disarm, 4000);
      return;
    }
    disarm();
    net.send({ type: "dissolve" });
    $("sheet-menu").classList.add("hidden");
  });
  $("btn-menu").addEventListener("click", disarm);
  $("dissolve-yes").addEventListener("click", () => net.send({ type: "dissolve" }));
  $("dissolve-no").addEventListener("click", () => net.send({ type: "dissolve", on: false }));
  net.on("dissolve", m => {
    if (m.done) {
      PAGE.dissolve = null;
      toast(t("dissolved"));
    }
    else if (m.refused != null) { PAGE.dissolve = null; toast(t("dissolve_refused", seatName(m.refused))); }
    else PAGE.dissolve = m;
    render();
  });
  onLang(render);
}
