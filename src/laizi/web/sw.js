// Service worker for the static assets: precache the client, then network-first with the cache
// as the fallback (so an update is picked up at once, and the app shell opens offline).
// Served as /static/sw.js its scope is /static/; serving it at /sw.js (server route) would let it
// control the pages too.
const CACHE = "laizi-static-v1";
const ASSETS = [
  "/static/style.css", "/static/manifest.webmanifest", "/static/icons/icon.svg", "/static/icons/icon-192.png",
  "/static/js/main.js", "/static/js/net.js", "/static/js/state.js", "/static/js/i18n.js", "/static/js/tiles.js",
  "/static/js/table.js", "/static/js/settle.js", "/static/js/fair.js", "/static/js/sound.js", "/static/js/lobby.js",
  "/static/js/replay.js", "/static/js/words.js", "/static/js/calc.js", "/static/js/gallery.js",
  "/static/vendor/qrcode.mjs", "/static/js/avatar.js", "/static/avatars/avatar.css", "/static/avatars/bot.svg",
];

self.addEventListener("install", e => {
  e.waitUntil(caches.open(CACHE).then(c => c.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", e => {
  e.waitUntil(caches.keys().then(keys => Promise.all(keys.filter(k => k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", e => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== location.origin || !url.pathname.startsWith("/static/")) return;
  e.respondWith(fetch(e.request).then(r => {
    if (r.ok) { const copy = r.clone(); caches.open(CACHE).then(c => c.put(e.request, copy)); }
    return r;
  }).catch(() => caches.match(e.request)));
});
