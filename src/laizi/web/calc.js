// Score calculator page: builds a SCORE_API.md request, POSTs it to /api/score (the same
// score_json as `laizi score`), shows the answer.
const EXAMPLE = {
  preset: "kaikoufan", laizi: "6m", dealer: 0, winner: 1,
  win: { tile: "3z", by: "discard", from: 2 },
  players: [
    { hand: "", melds: ["peng 8m from 2"], special_kongs: "" },
    { hand: "444m3z", melds: ["peng 9p from 3", "peng 2s from 0", "peng 1z from 2"], special_kongs: "7z7z7z" },
    { hand: "", melds: ["chi 567p from 1"], special_kongs: "" },
    { hand: "", melds: [], special_kongs: "7z" },
  ],
};
function seatOptions(sel, withNone) {
  sel.innerHTML = "";
  if (withNone) sel.add(new Option("—", ""));
  for (let i = 0; i < 4; i++) sel.add(new Option(`${i} ${t("winds")[i]}`, String(i)));
}
function buildPlayers() {
  const tb = document.getElementById("players"); tb.innerHTML = "";
  for (let i = 0; i < 4; i++) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${i} ${t("winds")[i]}</td><td><input id="hand${i}" size="18"></td>
      <td><textarea id="melds${i}" rows="2" cols="22"></textarea></td><td><input id="spk${i}" size="8"></td>
      <td><input type="checkbox" id="ready${i}"></td>`;
    tb.appendChild(tr);
  }
}
function fill(req) {
  document.getElementById("preset").value = req.preset || "kaikoufan";
  document.getElementById("laizi").value = req.laizi || "";
  document.getElementById("dealer").value = String(req.dealer ?? 0);
  document.getElementById("winner").value = String(req.winner ?? 0);
  document.getElementById("wtile").value = req.win.tile;
  document.getElementById("wby").value = req.win.by;
  document.getElementById("wfrom").value = req.win.from == null ? "" : String(req.win.from);
  document.getElementById("after_kong").checked = !!req.win.after_kong;
  document.getElementById("haidi").checked = !!req.win.haidi;
  req.players.forEach((p, i) => {
    document.getElementById("hand" + i).value = p.hand || "";
    document.getElementById("melds" + i).value = (p.melds || []).join("\n");
    document.getElementById("spk" + i).value = p.special_kongs || "";
    document.getElementById("ready" + i).checked = !!p.ready;
  });
  document.getElementById("raw").value = JSON.stringify(req, null, 2);
}
function collect() {
  const v = id => document.getElementById(id).value.trim();
  const win = { tile: v("wtile"), by: v("wby") };
  if (win.by !== "self_draw" && v("wfrom") !== "") win.from = +v("wfrom");
  if (document.getElementById("after_kong").checked) win.after_kong = true;
  if (document.getElementById("haidi").checked) win.haidi = true;
  const players = [0, 1, 2, 3].map(i => {
    const p = { hand: v("hand" + i), melds: v("melds" + i).split("\n").map(s => s.trim()).filter(Boolean), special_kongs: v("spk" + i) };
    if (document.getElementById("ready" + i).checked) p.ready = true;
    return p;
  });
  return { preset: v("preset"), laizi: v("laizi"), dealer: +v("dealer"), winner: +v("winner"), win, players };
}
async function post(req) {
  const box = document.getElementById("result");
  box.textContent = "…";
  try {
    const r = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
    const data = await r.json();
    if (!r.ok) { box.innerHTML = `<span class="error">${escapeHtml(data.error || r.statusText)}</span>`; return; }
    render(data);
  } catch (e) { box.innerHTML = `<span class="error">${escapeHtml(e)}</span>`; }
}
function render(d) {
  const box = document.getElementById("result");
  const head = d.ok ? `<b class="pos">${t("ok_win")}</b>` : `<b class="neg">${t("not_win")}</b> (${escapeHtml(d.reason)})`;
  const kinds = d.big_hands.length ? `${t("big_hands")}: ${d.big_hands.join(", ")}` : t("small_hand");
  const pays = d.payments.map((p, i) => `<td class="${p > 0 ? "pos" : p < 0 ? "neg" : ""}">${p > 0 ? "+" : ""}${p}</td>`).join("");
  box.innerHTML = `<p id="verdict">${head} · ${kinds}${d.hard ? " · " + t("hard_win") : ""}${d.liable != null ? ` · ${t("liable")}: ${d.liable}` : ""}${d.topped_out ? " · " + t("topped") : ""}</p>
    <table class="grid"><tr><th></th>${[0, 1, 2, 3].map(i => `<th>${i} ${t("winds")[i]}</th>`).join("")}</tr>
    <tr><th>raw</th>${d.raw.map(x => `<td>${x}</td>`).join("")}</tr>
    <tr><th data-i18n="payments">${t("payments")}</th>${pays}</tr></table>
    <ul class="breakdown">${d.breakdown.map(l => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`;
}
function submitForm() { const req = collect(); document.getElementById("raw").value = JSON.stringify(req, null, 2); post(req); }
function submitRaw() {
  let req; try { req = JSON.parse(document.getElementById("raw").value); }
  catch (e) { document.getElementById("result").innerHTML = `<span class="error">JSON: ${escapeHtml(e.message)}</span>`; return; }
  post(req);
}
function loadExample() { fill(EXAMPLE); }
async function init() {
  applyI18n();
  seatOptions(document.getElementById("dealer")); seatOptions(document.getElementById("winner")); seatOptions(document.getElementById("wfrom"), true);
  buildPlayers();
  try {
    const r = await fetch("/api/presets"); const d = await r.json();
    const sel = document.getElementById("preset");
    for (const p of d.presets) sel.add(new Option(p, p));
  } catch (e) { document.getElementById("preset").add(new Option("kaikoufan", "kaikoufan")); }
  fill(EXAMPLE);
}
window.onLangChange = () => { const req = collect(); seatOptions(document.getElementById("dealer")); seatOptions(document.getElementById("winner")); seatOptions(document.getElementById("wfrom"), true); buildPlayers(); fill(req); };
init();
