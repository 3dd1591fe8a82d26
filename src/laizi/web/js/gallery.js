// The tile gallery (/static/tiles.html): every face with its name, the back, and the laizi mark.
import { t, tileName, applyI18n, onLang, toggleLang, setLang, getLang } from "./i18n.js";
import { tileEl, TILE_CODES } from "./tiles.js";

function render() {
  const strip = document.getElementById("strip");
  strip.textContent = "";
  for (const c of TILE_CODES) strip.appendChild(tileEl(c, { size: "meld" }));
  strip.appendChild(tileEl(null, { size: "meld" }));
  strip.appendChild(tileEl("7z", { size: "meld", laizi: "7z" }));
  const box = document.getElementById("gallery");
  box.textContent = "";
  for (const c of TILE_CODES) {
    const fig = document.createElement("figure");
    fig.appendChild(tileEl(c, { size: "hand" }));
    const cap = document.createElement("figcaption");
    cap.textContent = tileName(c);
    fig.appendChild(cap);
    box.appendChild(fig);
  }
  document.title = `${t("tiles_title")} · laizi`;
}

setLang(getLang());
document.getElementById("langbtn").addEventListener("click", toggleLang);
onLang(render);
applyI18n();
render();
