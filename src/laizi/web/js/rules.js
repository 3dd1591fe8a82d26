// The create-room form's rule options, generated from GET /api/rules (the library's rule
// catalogue, laizi.rulecatalog): the preset first, then grouped toggles, selects and number
// steppers, each with its explanation a tap away (ⓘ). Only options that differ from the chosen
// preset's defaults are sent. Every word comes from the catalogue, set with textContent.
import { getLang, t } from "./i18n.js";

const $ = id => document.getElementById(id);
// this module's state, in one place (tests/test_architecture.py: no module-level let)
const ST = {
  CAT: null,
  current: {},  // option -> value shown in the form (kept across a language switch)
  template: "",  // the named template last applied ("" none)
};

const words = o => (getLang() === "zh" ? o.zh : o.en);
const help = o => (getLang() === "zh" ? o.help_zh : o.help_en);
const unit = o => (getLang() === "zh" ? o.unit_zh : o.unit_en);

/** The catalogue's name of an option in the current language ("" if it has none). */
export function optionName(name) {
  const o = ST.CAT && ST.CAT.options.find(x => x.name === name);
  return o ? words(o) : "";
}

function presetDefaults(id) {
  const p = ST.CAT.presets.find(x => x.id === id) || ST.CAT.presets[0];
  return p.defaults;
}

function formOptions() {
  const skip = new Set(["preset_name", ...(ST.CAT.room_fields || [])]);
  return ST.CAT.options.filter(o => !skip.has(o.name));
}

export async function loadRules() {
  try { ST.CAT = await (await fetch("/api/rules")).json(); } catch (e) { return; }
  const sel = $("c-preset");
  const keep = sel.value;
  sel.textContent = "";
  for (const p of ST.CAT.presets) sel.add(new Option(words(p), p.id));
  if (keep && ST.CAT.presets.some(p => p.id === keep)) sel.value = keep;
  if (!sel.dataset.rules) {
    sel.dataset.rules = "1";
    sel.addEventListener("change", () => { ST.current = {}; ST.template = ""; renderRuleForm(); });
  }
  renderRuleForm();
}

function mark(row, o) {
  const def = presetDefaults($("c-preset").value)[o.name];
  row.classList.toggle("changed", ST.current[o.name] !== def);
}

function control(o, row) {
  const set = v => { ST.current[o.name] = v; mark(row, o); };
  if (o.type === "bool") {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = !!ST.current[o.name];
    box.dataset.opt = o.name;
    box.addEventListener("change", () => set(box.checked));
    return box;
  }
  if (o.type === "choice") {
    const sel = document.createElement("select");
    sel.dataset.opt = o.name;
    for (const c of o.choices) sel.add(new Option(words(c), c.value));
    sel.value = ST.current[o.name];
    sel.addEventListener("change", () => set(sel.value));
    return sel;
  }
  // a number: − [n] + within the model's range
  const wrap = document.createElement("span");
  wrap.className = "stepper";
  const num = document.createElement("input");
  num.type = "number";
  num.className = "num";
  num.dataset.opt = o.name;
  const lo = o.ge ?? o.gt, hi = o.le ?? o.lt;
  if (lo !== undefined) num.min = String(lo);
  if (hi !== undefined) num.max = String(hi);
  num.step = o.type === "int" ? "1" : "any";
  num.value = String(ST.current[o.name]);
  const step = unit(o) && o.unit_en === "pts" ? 10 : 1;
  const clamp = v => Math.min(hi ?? v, Math.max(o.ge ?? (o.gt !== undefined ? o.gt + 0.5 : v), v));
  const read = () => (o.type === "int" ? parseInt(num.value, 10) : parseFloat(num.value));
  num.addEventListener("input", () => set(read()));
  const bump = d => () => { const v = clamp((Number.isFinite(read()) ? read() : 0) + d); num.value = String(v); set(v); };
  const minus = document.createElement("button");
  minus.type = "button"; minus.textContent = "−"; minus.className = "step"; minus.dataset.step = `${o.name}-`;
  minus.setAttribute("aria-label", `${words(o)} −${step}`);
  minus.addEventListener("click", bump(-step));
  const plus = document.createElement("button");
  plus.type = "button"; plus.textContent = "+"; plus.className = "step"; plus.dataset.step = `${o.name}+`;
  plus.setAttribute("aria-label", `${words(o)} +${step}`);
  plus.addEventListener("click", bump(step));
  wrap.append(minus, num, plus);
  if (unit(o)) { const u = document.createElement("span"); u.className = "unit"; u.textContent = unit(o); wrap.append(u); }
  return wrap;
}

/** Named templates (the library's documented option sets): choosing one sets its preset, if it
 * has one, and its options on top of that preset's defaults. */
function templateRow() {
  const row = document.createElement("div");
  row.className = "rule-opt rule-template";
  const head = document.createElement("label");
  head.className = "rule-head";
  head.htmlFor = "c-template";
  head.textContent = t("template");
  const sel = document.createElement("select");
  sel.id = "c-template";
  sel.add(new Option(t("no_template"), ""));
  for (const tp of ST.CAT.templates) sel.add(new Option(words(tp), tp.id));
  sel.value = ST.template;
  const text = document.createElement("p");
  text.className = "rule-help";
  const tp = ST.CAT.templates.find(x => x.id === ST.template);
  text.textContent = tp ? help(tp) : "";
  text.classList.toggle("hidden", !tp);
  sel.addEventListener("change", () => {
    const chosen = ST.CAT.templates.find(x => x.id === sel.value);
    ST.template = chosen ? chosen.id : "";
    if (chosen && chosen.preset) $("c-preset").value = chosen.preset;
    ST.current = chosen ? { ...chosen.options } : {};
    renderRuleForm();
  });
  row.append(head, sel, text);
  return row;
}

/** (Re)build the grouped options for the chosen preset, keeping values the player changed. */
export function renderRuleForm() {
  const box = $("c-rules");
  if (!ST.CAT || !box) return;
  const defs = presetDefaults($("c-preset").value);
  for (const o of formOptions()) if (!(o.name in ST.current)) ST.current[o.name] = defs[o.name];
  box.textContent = "";
  if (ST.CAT.templates && ST.CAT.templates.length) box.appendChild(templateRow());
  for (const g of ST.CAT.groups) {
    const opts = formOptions().filter(o => o.group === g.id);
    if (!opts.length) continue;
    const fs = document.createElement("fieldset");
    fs.className = "rule-group";
    fs.dataset.group = g.id;
    const lg = document.createElement("legend");
    lg.textContent = words(g);
    fs.appendChild(lg);
    for (const o of opts) {
      const row = document.createElement("div");
      row.className = "rule-opt";
      row.dataset.option = o.name;
      const name = document.createElement("span");
      name.className = "rule-name";
      name.textContent = words(o);
      const info = document.createElement("button");
      info.type = "button";
      info.className = "info";
      info.textContent = "ⓘ";
      info.setAttribute("aria-label", help(o));
      info.setAttribute("aria-expanded", "false");
      const text = document.createElement("p");
      text.className = "rule-help hidden";
      text.textContent = help(o);
      info.addEventListener("click", () => {
        const open = text.classList.toggle("hidden") === false;
        info.setAttribute("aria-expanded", open ? "true" : "false");
      });
      const head = document.createElement("label");
      head.className = "rule-head";
      head.append(name, info);
      row.append(head, control(o, row), text);
      mark(row, o);
      fs.appendChild(row);
    }
    box.appendChild(fs);
  }
}

/** The options that differ from the chosen preset's defaults, or an error naming the option. */
export function chosenOptions() {
  if (!ST.CAT) return { options: {} };
  const defs = presetDefaults($("c-preset").value);
  const options = {};
  for (const o of formOptions()) {
    const v = ST.current[o.name];
    if (v === undefined || v === defs[o.name]) continue;
    if ((o.type === "int" || o.type === "float") && !Number.isFinite(v)) return { bad: o.name };
    options[o.name] = v;
  }
  return { options };
}

/** The 玩法说明 page of a rule set (the room's own ``rules``, as the server sends them). */
export function howtoLink(rules) {
  return `/static/howto.html?rules=${encodeURIComponent(JSON.stringify(rules))}`;
}

const cards = new Map();  // rules JSON -> the server's words for it (GET /api/rules?rules=)
/** A rule set in words (laizi.rulecatalog.card_of on the server: the card in both languages,
 *  the changed items and every option's value); null when it cannot be had. */
export async function cardFor(rules) {
  const key = JSON.stringify(rules);
  if (!cards.has(key)) {
    cards.set(key, fetch(`/api/rules?rules=${encodeURIComponent(key)}`)
      .then(r => (r.ok ? r.json() : null)).then(d => (d ? d.card : null)).catch(() => null));
  }
  return cards.get(key);
}

/** The card of ``cardFor`` in the current language. */
export function cardText(card) { return card ? (getLang() === "zh" ? card.zh : card.en) : ""; }
