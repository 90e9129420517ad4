// The service worker: keeps the page's files so that the page opens without the network (an
// app on a home screen). Files are asked of the network first, so that a new server's page is
// seen at once, and come from the cache when the network does not answer. Games (/api/) are
// never cached: the server keeps them.

const CACHE = "othello-page-v2";
// Relative to this worker's folder, so that a copy of the page (`othello serve --export`) works
// under any path of a static host, not only at the root.
const BASE = new URL("./", self.location.href);
const FILES = [
  "./",
  "app.js",
  "board.js",
  "chart.js",
  "api.js",
  "local.js",
  "worker.js",
  "style.css",
  "icon.svg",
  "icon-192.png",
  "icon-512.png",
  "manifest.webmanifest",
].map((file) => new URL(file, BASE).href);
// The WebAssembly build for offline play, when the server has it (`--wasm`; a server without it
// answers 404 and the page plays online only).
const OPTIONAL = ["wasm/othello_wasm.js", "wasm/othello_wasm_bg.wasm"].map((file) => new URL(file, BASE).href);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(FILES);
      await Promise.all(OPTIONAL.map((file) => cache.add(file).catch(() => undefined)));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.href.startsWith(new URL("api/", BASE).href)) return;
  const key = event.request.mode === "navigate" ? BASE.href : url.origin + url.pathname;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((cached) => cached ?? Response.error())),
  );
});
