// The table page's passing messages: an error line (5 s) and a toast (2.5 s), both text only.
const $ = id => document.getElementById(id);
const timers = { error: null, toast: null };

function flash(id, msg, ms) {
  const e = $(id);
  e.textContent = msg;
  e.classList.remove("hidden");
  clearTimeout(timers[id]);
  timers[id] = setTimeout(() => e.classList.add("hidden"), ms);
}

export function showError(msg) { flash("error", msg, 5000); }

export function toast(msg) { flash("toast", msg, 2500); }
