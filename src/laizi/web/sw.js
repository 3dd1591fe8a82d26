// Service worker of the web client, served by the server at /sw.js (scope "/": it controls the
// lobby, table, calculator and player pages). The server fills in VERSION (a hash of the client's
// files: any change makes a new worker and a fresh cache) and ASSETS (every script, style sheet,
// icon and the app's pages) — see laizi.server.swroute.
//   - install: precache ASSETS (a missing file is skipped, never fails the install);
//   - pages (navigations) and GET /api/…: network first, the cache when offline (a page of a room
//     or replay falls back to the lobby shell, a player page to the account page); API answers
//     are cached only when public (no Authorization header) and never for no-store answers;
//   - /static/…: cache first (VERSION changes with every file), then the network;
//   - anything else (WebSocket, POST, other origins) is not touched.
const VERSION = "dev";
const ASSETS = [/*assets*/];
const CACHE = "laizi-" + VERSION;

self.addEventListener("install", e => {
  e.waitUntil(caches.open(CACHE)
    .then(c => Promise.all(ASSETS.map(u => c.add(new Request(u, { cache: "reload" })).catch(() => null))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", e => {
  e.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(k => k.startsWith("laizi-") && k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

function shellFor(path) {
  if (path.startsWith("/players/")) return "/account";
  return "/";
}

function keep(req, resp) {
  if (!resp || !resp.ok || resp.type !== "basic") return;
  if (/no-store/.test(resp.headers.get("Cache-Control") || "")) return;
  const copy = resp.clone();
  caches.open(CACHE).then(c => c.put(req, copy));
}

async function networkFirst(req, fallback) {
  try {
    const resp = await fetch(req);
    keep(req, resp);
    return resp;
  } catch (err) {
    const hit = await caches.match(req, { ignoreSearch: req.mode === "navigate" });
    if (hit) return hit;
    if (fallback) { const shell = await caches.match(fallback); if (shell) return shell; }
    throw err;
  }
}

async function cacheFirst(req) {
  const hit = await caches.match(req);
  if (hit) return hit;
  const resp = await fetch(req);
  keep(req, resp);
  return resp;
}

self.addEventListener("fetch", e => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin) return;
  if (req.mode === "navigate") { e.respondWith(networkFirst(req, shellFor(url.pathname))); return; }
  if (url.pathname.startsWith("/api/")) {
    if (req.headers.has("Authorization")) return;   // private answers: the network only
    e.respondWith(networkFirst(req, null));
    return;
  }
  if (url.pathname.startsWith("/static/")) e.respondWith(cacheFirst(req));
});
