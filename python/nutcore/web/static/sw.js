// The service worker of the exported page (docs/web.md, "Offline and installed"): it keeps the
// page, all of static/ and the WebAssembly module in a cache and answers from there first, so that
// the page reloads and plays with no network. `nutcore export-web` writes this file to the folder's
// root (a worker controls the folder it lies in) with the two constants below filled in from the
// files it copied: a new export is a new VERSION, hence a new worker and a new cache.
//
// As shipped (VERSION null) it is what `nutcore serve` answers at /sw.js: a worker that removes
// itself and its caches. An exported folder once served on the same address would otherwise keep
// answering for the server's page.

const VERSION = null; // nutcore export-web: VERSION
const FILES = []; // nutcore export-web: FILES

const PREFIX = "nutcore-page-";
const CACHE = `${PREFIX}${VERSION}`;
const scope = new URL("./", self.location).href;
const urls = new Set(FILES.map((f) => new URL(f, scope).href));

async function dropCaches(keep) {
  for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== keep) await caches.delete(name);
}

async function retire() {
  await dropCaches(null);
  await self.registration.unregister();
  // The open pages came from the old cache: loaded again, they come from the server.
  for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url);
}

self.addEventListener("install", (event) => {
  if (VERSION === null) {
    self.skipWaiting();
    return;
  }
  // "no-cache": the bytes of this export, not a copy of the last one from the HTTP cache.
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([...urls].map((u) => new Request(u, { cache: "no-cache" })))),
  );
});

self.addEventListener("activate", (event) => {
  if (VERSION === null) {
    event.waitUntil(self.clients.claim().then(retire));
    return;
  }
  // The first load is controlled at once (its files are this version's); an update waits until
  // no page of the old version is open, or until offline.js asks (at a page's load).
  event.waitUntil(dropCaches(CACHE).then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  // waitUntil: the worker is not stopped before its activation has begun.
  if (event.data === "activate") event.waitUntil(self.skipWaiting());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (VERSION === null || request.method !== "GET") return;
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  // The page under any query (?engine=...) or as index.html is the cached folder root.
  const key = request.mode === "navigate" && url.href === `${scope}index.html` ? scope : url.href;
  if (!urls.has(key)) return; // anything else (other paths, other origins) goes to the network
  event.respondWith(caches.match(key, { cacheName: CACHE }).then((hit) => hit || fetch(request)));
});
