// Python's files kept in the browser: a service worker that answers a Python worker's requests for Pyodide's files
// (vendor/pyodide/) and for the archives it unpacks (*.whl, *.zip beside the pages) from the Cache API, fetching
// each once.  With it, a page that starts its own Python (a browser without SharedWorker, or the first page after
// the site was closed) fetches nothing again: it only starts Python.
//
// One build, one cache.  python.js registers this file as python_cache.js?build=<the page's build> (the build the
// site's build tool names from Pyodide's lock file and the archives), and starts its Python worker as
// python_worker.js?build=<the same>.  A request is answered from the cache only when it comes from a Python worker
// of this worker's own build; anything else (another build's page still open, the pages themselves, a download of
// the notebooks) goes to the network as if this worker were not there.  Installing a newer build's worker removes
// the older builds' caches.

const BUILD = new URL(self.location.href).searchParams.get("build") ?? "";
const PREFIX = "bleu-teach-python ";
const CACHE = PREFIX + BUILD;
const WORKER_FILE = "python_worker.js";

/** @type {ServiceWorkerGlobalScope} */
const scope = /** @type {any} */ (self);

/**
 * Whether the address is one of Python's files: under vendor/pyodide/, or an archive beside the pages.
 * @param {URL} url
 * @returns {boolean}
 */
function pythonFile(url) {
  const base = scope.registration.scope;
  if (!url.href.startsWith(base) || url.search) return false;
  const path = url.href.slice(base.length);
  return path.startsWith("vendor/pyodide/") || /^[\w.-]+\.(?:whl|zip)$/.test(path);
}

/**
 * Whether the request comes from a Python worker of this build (python.js puts the build in its address).
 * @param {string} clientId
 * @returns {Promise<boolean>}
 */
async function fromOurPython(clientId) {
  const client = clientId ? await scope.clients.get(clientId) : undefined;
  if (!client) return false;
  const url = new URL(client.url);
  return url.pathname.endsWith(`/${WORKER_FILE}`) && url.searchParams.get("build") === BUILD;
}

/**
 * The cached answer, or the network's: a whole 200 is kept meanwhile (``keep`` waits for it), while the worker
 * already reads it.
 * @param {Request} request
 * @param {(promise: Promise<unknown>) => void} keep
 * @returns {Promise<Response>}
 */
async function cachedOrFetched(request, keep) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.status === 200) keep(cache.put(request, response.clone()).catch(() => {})); // no room: not kept
  return response;
}

scope.addEventListener("install", () => {
  scope.skipWaiting();
});

scope.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await scope.clients.claim();
  })());
});

scope.addEventListener("fetch", (event) => {
  const { request } = event;
  if (!BUILD || request.method !== "GET" || !pythonFile(new URL(request.url))) return;
  event.respondWith((async () => {
    if (!(await fromOurPython(event.clientId))) return fetch(request);
    return cachedOrFetched(request, (promise) => event.waitUntil(promise));
  })());
});
