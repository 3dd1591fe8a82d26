// Sound effects (Web Audio, synthesized, mutable) and optional voice lines (speech synthesis).
import { getLang } from "./i18n.js";

// this module's state, in one place (tests/test_architecture.py: no module-level let)
const ST = { ctx: null, soundOn: true, voiceOn: false };
try {
  ST.soundOn = localStorage.getItem("laizi.sound") !== "0";
  ST.voiceOn = localStorage.getItem("laizi.voice") === "1";
} catch (e) { /* ignore */ }

export function soundEnabled() { return ST.soundOn; }
export function voiceEnabled() { return ST.voiceOn; }
export function setSound(on) { ST.soundOn = on; try { localStorage.setItem("laizi.sound", on ? "1" : "0"); } catch (e) { /* */ } }
export function setVoice(on) { ST.voiceOn = on; try { localStorage.setItem("laizi.voice", on ? "1" : "0"); } catch (e) { /* */ } }

function audio() {
  if (!ST.ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ST.ctx = new AC();
  }
  if (ST.ctx.state === "suspended") ST.ctx.resume().catch(() => {});
  return ST.ctx;
}

function tone(freq, dur, type = "triangle", gain = 0.12, when = 0) {
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + when;
  const o = a.createOscillator(), g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  g.gain.setValueAtTime(gain, t0);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(a.destination);
  o.start(t0);
  o.stop(t0 + dur + 0.02);
}

const SFX = {
  draw: () => tone(660, 0.06, "sine", 0.06),
  discard: () => { tone(180, 0.07, "square", 0.08); tone(120, 0.09, "triangle", 0.1, 0.01); },
  claim: () => { tone(520, 0.1); tone(780, 0.14, "triangle", 0.12, 0.08); },
  win: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, 0.22, "triangle", 0.13, i * 0.1)),
  turn: () => tone(880, 0.08, "sine", 0.07),
};

export function sfx(name) {
  if (!ST.soundOn || !SFX[name]) return;
  try { SFX[name](); } catch (e) { /* audio blocked until a gesture */ }
}

const VOICE = {
  zh: { chi: "吃", peng: "碰", kong: "杠", ankong: "杠", addkong: "杠", special_kong: "杠", laizi_kong: "杠", win: "胡", tsumo: "自摸" },
  en: { chi: "chow", peng: "pung", kong: "kong", ankong: "kong", addkong: "kong", special_kong: "kong", laizi_kong: "kong", win: "win", tsumo: "self-draw" },
};

export function speak(kind) {
  if (!ST.voiceOn || !("speechSynthesis" in window)) return;
  const lang = getLang();
  const text = VOICE[lang][kind];
  if (!text) return;
  try {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = lang === "zh" ? "zh-CN" : "en-US";
    u.rate = 1.1;
    speechSynthesis.speak(u);
  } catch (e) { /* optional */ }
}
