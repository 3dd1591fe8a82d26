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

/** The error shown, taken away (what it was about was tried again). */
export function clearError() { clearTimeout(timers.error); $("error").classList.add("hidden"); }

export function toast(msg) { flash("toast", msg, 2500); }

/** The toast shown, taken away (its words are where the player now looks). */
export function clearToast() { clearTimeout(timers.toast); $("toast").classList.add("hidden"); }
