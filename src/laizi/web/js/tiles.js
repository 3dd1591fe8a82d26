// Tile art: every face is an SVG drawn here (strokes, circles, sticks), no text glyphs, so a
// tile looks the same with or without a CJK font. One template per code, cloned on use.
import { t, tileName, piziList } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const RED = "#b71c1c", GREEN = "#1b6e35", BLUE = "#1d4f9c", NAVY = "#1b2440";

// Glyph strokes in a 20×20 box (drawn by this project; simplified brush forms).
const GLYPH = {
  1: "M2 10H18",
  2: "M5 6H15M2 14H18",
  3: "M5 4H15M6 10H14M2 16H18",
  4: "M3 4H17V17H3ZM8 4V9Q8 12 5 13M12 4V11Q12 12.5 14 12.5H17",
  5: "M3 3H17M10 3L8 16M4 9H14V16M2 16H18",
  6: "M10 2L11 5M2 7H18M8 10L4 17M12 10L16 17",
  7: "M2 10L18 7M8 2V15Q8 18 11 18H17L17.5 15",
  8: "M8 4Q8 12 2 17M12 4Q12 13 18 17",
  9: "M3 7H13Q13 17 15 17H18V14M9 2Q9 13 3 18",
  wan: "M2 4H18M8 4Q8 13 3 18M8 9H16Q16 17 11 17",
  z1: "M3 5H17M9 2L5 11H16M11 8V18L9 17M7 13L5 16M14 13L16 16",
  z2: "M3 4H17M10 1V4M4 7V18M4 7H16V18L14 17.5M7 8.5L8 10.5M13 8.5L12 10.5M6 12H14M6 15H14M10 12V18",
  z3: "M2 3H18M3 7V17H17V7ZM8 3V10Q8 12 5 13M12 3V11H15",
  z4: "M7 2V17M2 7H7M2 14L7 12M13 2V15Q13 17 15 17H18V14M13 9L18 6",
  z7: "M3 6H17V13H3ZM10 2V19",
  pi: "M5 5Q5 13 2 18M5 5H15L14 8M10 2V10M6 10H15Q12 15 4 18M8 12Q12 16 18 18",
  lai: "M1.5 5H8.5M5 1.5V18.5M2.2 7.5H7.8V11.5H2.2ZM4.6 12L1.5 16M5.4 12L8.5 15M13 1.5L10.8 5M12.3 3.3H17.2L16 5.6M11 7.2V14.6M11 7.2H18V14.6M14.5 9.2V13M13.6 14.8L10.6 18.5M15.4 14.8L18.5 18",
  z6: "M5 2L7 5M13 2L16 4M2 7H18M9 3Q9 12 3 18M8 11H15L7 18M9 13Q12 16 18 18",
};

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

function glyph(g, d, x, y, scale, color, width = 2.3) {
  el("path", {
    d, transform: `translate(${x} ${y}) scale(${scale})`, fill: "none", stroke: color,
    "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round",
  }, g);
}

function pip(g, x, y, r, color) {
  el("circle", { cx: x, cy: y, r, fill: color }, g);
  el("circle", { cx: x, cy: y, r: r * 0.66, fill: "none", stroke: "#fffaf0", "stroke-width": Math.max(1, r * 0.18) }, g);
  el("circle", { cx: x, cy: y, r: r * 0.25, fill: "#fffaf0" }, g);
}

const PIPS = {
  1: [[30, 40, 17, BLUE]],
  2: [[30, 22, 11, GREEN], [30, 56, 11, BLUE]],
  3: [[15, 17, 9, BLUE], [30, 40, 9, RED], [45, 63, 9, GREEN]],
  4: [[18, 22, 9.5, BLUE], [42, 22, 9.5, GREEN], [18, 58, 9.5, GREEN], [42, 58, 9.5, BLUE]],
  5: [[17, 19, 8.5, BLUE], [43, 19, 8.5, GREEN], [30, 40, 8.5, RED], [17, 61, 8.5, GREEN], [43, 61, 8.5, BLUE]],
  6: [[19, 15, 8, GREEN], [41, 15, 8, GREEN], [19, 40, 8, RED], [41, 40, 8, RED], [19, 63, 8, RED], [41, 63, 8, RED]],
  7: [[14, 13, 7, GREEN], [30, 20, 7, GREEN], [46, 27, 7, GREEN], [19, 45, 7.5, RED], [41, 45, 7.5, RED],
    [19, 64, 7.5, RED], [41, 64, 7.5, RED]],
  8: [[19, 12, 7, BLUE], [41, 12, 7, BLUE], [19, 31, 7, BLUE], [41, 31, 7, BLUE], [19, 50, 7, BLUE],
    [41, 50, 7, BLUE], [19, 68, 7, BLUE], [41, 68, 7, BLUE]],
  9: [[14, 15, 7, BLUE], [30, 15, 7, BLUE], [46, 15, 7, BLUE], [14, 40, 7, RED], [30, 40, 7, RED],
    [46, 40, 7, RED], [14, 64, 7, GREEN], [30, 64, 7, GREEN], [46, 64, 7, GREEN]],
};

const STICKS = {
  2: [[30, 23, GREEN], [30, 57, BLUE]],
  3: [[30, 23, BLUE], [19, 57, GREEN], [41, 57, GREEN]],
  4: [[19, 23, GREEN], [41, 23, BLUE], [19, 57, BLUE], [41, 57, GREEN]],
  5: [[16, 23, GREEN], [44, 23, BLUE], [30, 40, RED], [16, 57, BLUE], [44, 57, GREEN]],
  6: [[15, 23, GREEN], [30, 23, GREEN], [45, 23, GREEN], [15, 57, BLUE], [30, 57, BLUE], [45, 57, BLUE]],
  7: [[30, 15, RED], [15, 40, GREEN], [30, 40, GREEN], [45, 40, GREEN], [15, 64, BLUE], [30, 64, BLUE], [45, 64, BLUE]],
  8: [[12, 23, GREEN], [24, 23, GREEN], [36, 23, GREEN], [48, 23, GREEN], [12, 57, BLUE], [24, 57, BLUE],
    [36, 57, BLUE], [48, 57, BLUE]],
  9: [[15, 15, GREEN], [30, 15, RED], [45, 15, BLUE], [15, 40, GREEN], [30, 40, RED], [45, 40, BLUE],
    [15, 64, GREEN], [30, 64, RED], [45, 64, BLUE]],
};

function stick(g, x, y, h, color) {
  el("rect", { x: x - 3.6, y: y - h / 2, width: 7.2, height: h, rx: 3.2, fill: color }, g);
  el("line", { x1: x - 3, y1: y, x2: x + 3, y2: y, stroke: "#fffaf0", "stroke-width": 1.4 }, g);
  el("line", { x1: x, y1: y - h / 2 + 2.5, x2: x, y2: y + h / 2 - 2.5, stroke: "#fffaf0", "stroke-width": 0.9, opacity: 0.7 }, g);
}

function bird(g) { // 一条: a sparrow on a stick
  el("path", { d: "M14 58Q18 34 36 30Q50 28 50 40Q46 56 26 60Z", fill: GREEN }, g);
  el("path", { d: "M14 58L6 70L20 64L12 74L26 62Z", fill: RED }, g);
  el("circle", { cx: 44, cy: 26, r: 8, fill: RED }, g);
  el("path", { d: "M51 25L57 27L51 29Z", fill: "#d99a00" }, g);
  el("circle", { cx: 46, cy: 24, r: 1.8, fill: "#fffaf0" }, g);
  el("path", { d: "M24 46Q34 38 42 44", fill: "none", stroke: "#fffaf0", "stroke-width": 2 }, g);
  el("line", { x1: 28, y1: 62, x2: 24, y2: 74, stroke: "#6d4c1f", "stroke-width": 2 }, g);
  el("line", { x1: 36, y1: 60, x2: 38, y2: 74, stroke: "#6d4c1f", "stroke-width": 2 }, g);
}

function face(g, code) {
  const n = +code[0], s = code[1];
  if (s === "m") {
    glyph(g, GLYPH[n], 14, 7, 1.6, NAVY, 2.4);
    glyph(g, GLYPH.wan, 14, 40, 1.6, RED, 2.4);
  } else if (s === "p") {
    for (const [x, y, r, c] of PIPS[n]) pip(g, x, y, r, c);
  } else if (s === "s") {
    if (n === 1) bird(g);
    else for (const [x, y, c] of STICKS[n]) stick(g, x, y, n >= 7 ? 19 : 27, c);
  } else if (n === 5) { // 白: a framed blank
    el("rect", { x: 13, y: 14, width: 34, height: 52, rx: 3, fill: "none", stroke: BLUE, "stroke-width": 3 }, g);
    el("rect", { x: 18, y: 19, width: 24, height: 42, rx: 2, fill: "none", stroke: BLUE, "stroke-width": 1.5 }, g);
  } else {
    const color = n === 7 ? RED : n === 6 ? GREEN : NAVY;
    glyph(g, GLYPH[`z${n}`], 6, 16, 2.4, color, 2.2);
  }
}

const cache = new Map();

function template(code) {
  let svg = cache.get(code);
  if (svg) return svg;
  svg = el("svg", { viewBox: "0 0 60 80", "aria-hidden": "true", focusable: "false", class: "face" });
  if (code === null) {
    el("rect", { x: 1, y: 4, width: 58, height: 75, rx: 7, fill: "#0f4d40" }, svg);
    el("rect", { x: 1, y: 1, width: 58, height: 74, rx: 7, fill: "#1f7a63", stroke: "#0c3b31", "stroke-width": 1.5 }, svg);
    el("rect", { x: 8, y: 8, width: 44, height: 60, rx: 5, fill: "none", stroke: "#5fb79b", "stroke-width": 1.5 }, svg);
  } else {
    el("rect", { x: 1, y: 4, width: 58, height: 75, rx: 7, fill: "#c9b98e" }, svg);
    el("rect", { x: 1, y: 1, width: 58, height: 74, rx: 7, fill: "#f8f2e2", stroke: "#a8976b", "stroke-width": 1.5 }, svg);
    face(svg, code);
  }
  cache.set(code, svg);
  return svg;
}

// this module's state, in one place (tests/test_architecture.py: no module-level let)
const ST = { badge: null, pz: null };
function laiziBadge() { // 赖 in a gold disc: the laizi mark (TABLE.md), the same on every copy
  if (!ST.badge) {
    ST.badge = el("svg", { viewBox: "0 0 20 20", "aria-hidden": "true", class: "lz-badge" });
    el("circle", { cx: 10, cy: 10, r: 9.5, fill: "#f2c230", stroke: "#7a5a00", "stroke-width": 1 }, ST.badge);
    glyph(ST.badge, GLYPH.lai, 3.5, 3.5, 0.65, "#7a1d00", 2.0);  // 赖 in strokes, no font needed
  }
  return ST.badge.cloneNode(true);
}

function piziBadge() { // 皮 in a small russet disc: the 皮子 mark (七皮四赖), the same on every copy
  if (!ST.pz) {
    ST.pz = el("svg", { viewBox: "0 0 20 20", "aria-hidden": "true", class: "pz-badge" });
    el("circle", { cx: 10, cy: 10, r: 9.5, fill: "#7c2d12", stroke: "#fde68a", "stroke-width": 1 }, ST.pz);
    glyph(ST.pz, GLYPH.pi, 3.2, 3, 0.68, "#fde68a", 2.6);  // 皮 in strokes, no font needed
  }
  return ST.pz.cloneNode(true);
}

export const TILE_CODES = [];
for (const s of "mps") for (let n = 1; n <= 9; n++) TILE_CODES.push(`${n}${s}`);
for (let n = 1; n <= 7; n++) TILE_CODES.push(`${n}z`);

/** A tile element. code null → a back. opts: size ("hand"|"river"|"meld"|"back"|"mid"|"big", class t-<size>),
 *  laizi (the laizi code; the tile is marked when it matches), pizi (true: a 皮子; a list: the
 *  皮子 codes; left out, a tile drawn with a laizi — a table's tile — is marked when it is one of
 *  the table's 皮子, i18n.setPizi), sideways, extra classes. */
export function tileEl(code, opts = {}) {
  const span = document.createElement("span");
  span.className = `tile t-${opts.size || "river"}`;
  if (code) {
    span.dataset.tile = code;
    span.classList.add(`s-${code[1]}`);
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", tileName(code));
  } else {
    span.classList.add("back");
  }
  span.appendChild(template(code || null).cloneNode(true));
  if (code && opts.laizi && code === opts.laizi) {
    span.classList.add("laizi");
    span.appendChild(laiziBadge());
  } else if (code && isPizi(code, opts)) {
    span.classList.add("pizi");
    span.appendChild(piziBadge());
  }
  if (opts.sideways) span.classList.add("sideways");
  if (opts.cls) span.classList.add(...opts.cls.split(" ").filter(Boolean));
  return span;
}

function isPizi(code, opts) {
  if (opts.pizi === true) return true;
  const list = Array.isArray(opts.pizi) ? opts.pizi : opts.laizi ? piziList() : null;
  return !!list && list.includes(code);
}

/** The 皮子 in a table's centre beside 翻牌 and 赖子 (七皮四赖: one tile of each kind, marked);
 *  nothing under the other presets. */
export function showPizi(table, pizi) {
  const tiles = table && table.querySelector(".ctiles");
  if (!tiles) return;
  let box = tiles.querySelector(".pz-ctile");
  if (!pizi || !pizi.length) { if (box) box.remove(); return; }
  const key = JSON.stringify([pizi, document.documentElement.lang]);
  if (box && box.dataset.key === key) return;
  if (!box) {
    box = document.createElement("div");
    box.className = "ctile pz-ctile";
    box.dataset.testid = "pizi";
    tiles.appendChild(box);
  }
  box.dataset.key = key;
  box.textContent = "";
  const label = document.createElement("div");
  label.className = "clabel";
  label.textContent = t("pizi");
  const slot = document.createElement("div");
  slot.className = "pz-slot";
  for (const c of pizi) slot.appendChild(tileEl(c, { size: "mid", pizi: true }));
  box.append(label, slot);
}

export function tileRow(codes, opts = {}, cls = "tiles") {
  const box = document.createElement("div");
  box.className = cls;
  for (const c of codes) box.appendChild(tileEl(c, opts));
  return box;
}

/** A tile's face (``code``; null: a back) as a stand-alone SVG document, for a canvas to draw
 *  (the 战绩 cards): the same art as :func:`tileEl`, with the laizi badge when ``laizi``. */
export function tileSvgText(code, laizi = false) {
  const svg = template(code || null).cloneNode(true);
  svg.setAttribute("xmlns", NS);
  svg.setAttribute("width", "60");
  svg.setAttribute("height", "80");
  if (laizi) {
    const b = laiziBadge();
    b.setAttribute("x", "38"); b.setAttribute("y", "2"); b.setAttribute("width", "20"); b.setAttribute("height", "20");
    svg.appendChild(b);
  }
  return new XMLSerializer().serializeToString(svg);
}
