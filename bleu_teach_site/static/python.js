// bleu_teach's Python for a page: it runs in python_worker.js, off the main thread, so that the page answers the
// learner while Python starts (seconds) and while it computes.  The explorer page, the lesson pages and the deck
// share it; with SharedWorker the pages of one site share one running Python, and the next page finds it started.
// Where the browser allows a service worker (https, or this machine), python_cache.js keeps Python's files, so that a
// page that must start its own Python (no SharedWorker, or the last page of the site was closed) fetches nothing.
// The messages both ways: types/python-messages.d.ts, their kinds names.js's.

import { CALL_MESSAGE, PROGRESS_MESSAGE, START_MESSAGE } from "./names.js";

const WORKER = "python_worker.js";
const CACHE_WORKER = "python_cache.js";
/** How long a page waits for python_cache.js to take charge of it before it starts Python without it. */
const CACHE_WAIT_MS = 3000;

/** @returns {HTMLMetaElement | null} the page's meta tag that names its Python's archives and their build */
function pythonMeta() {
  return document.querySelector('meta[name="bleu-teach-python"]');
}

/**
 * The build the page's Python files belong to (its meta tag's data-build): the name their cache and the shared
 * Python go by, so that a page of another build gets neither.
 * @returns {string}
 */
function pageBuild() {
  return pythonMeta()?.dataset.build ?? "";
}

/**
 * The archives a page unpacks: its meta tag's (the wheel first), then the page's extras; absolute URLs.
 * @returns {string[]}
 */
export function pageArchives() {
  const named = pythonMeta()?.content.split(/\s+/) ?? [];
  const extras = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-python-extra]"))]
    .map((element) => element.dataset.pythonExtra);
  return [...new Set([...named, ...extras].filter(Boolean))]
    .map((name) => new URL(/** @type {string} */ (name), document.baseURI).href);
}

/**
 * The worker, shared by the site's pages where the browser can: the port to talk to it, and what fires "error"
 * if it cannot start.
 * @returns {{ port: MessagePort | Worker, failed: SharedWorker | Worker }}
 */
function connect() {
  // The build in the worker's address: python_cache.js serves a worker only its own build's files.
  const url = new URL(`${WORKER}?build=${encodeURIComponent(pageBuild())}`, document.baseURI);
  if (typeof SharedWorker === "function") {
    // One per site build (the build in the worker's name): a page of a newer build starts its own.
    const name = `bleu-teach ${pageBuild()} ${pythonMeta()?.content ?? ""}`;
    const shared = new SharedWorker(url, { type: "module", name, extendedLifetime: true });
    shared.port.start();
    return { port: shared.port, failed: shared };
  }
  const worker = new Worker(url, { type: "module" });
  return { port: worker, failed: worker };
}

/**
 * Ask python_cache.js to keep this build's Python files, and wait (at most CACHE_WAIT_MS) until it is in charge of
 * the page, so that the worker started next fetches through it.  Where there is no service worker (plain http on
 * another machine, a private window, a page without a build), nothing to wait for: Python starts as before.
 * @returns {Promise<void>}
 */
async function cacheInCharge() {
  const build = pageBuild();
  if (!build || !window.isSecureContext || !("serviceWorker" in navigator)) return;
  const workers = navigator.serviceWorker;
  const url = new URL(`${CACHE_WORKER}?build=${encodeURIComponent(build)}`, document.baseURI);
  const ours = () => workers.controller?.scriptURL === url.href;
  /** @type {ServiceWorkerRegistration} */
  let registration;
  try {
    registration = await workers.register(url, { scope: "./" });
  } catch {
    return; // refused (a browser's settings): Python fetches its files itself
  }
  if (ours()) return;
  // Only a worker of this build on its way (installing, the first visit or a new build) takes charge of the page
  // soon; an active one that is not in charge (a reload that bypassed it) never does: no wait then.
  const coming = registration.installing ?? registration.waiting;
  if (coming?.scriptURL !== url.href) return;
  await new Promise((done) => {
    const timer = setTimeout(done, CACHE_WAIT_MS);
    workers.addEventListener("controllerchange", () => {
      if (ours()) {
        clearTimeout(timer);
        done(undefined);
      }
    });
  });
}

/**
 * A function of bleu_teach.web.page, called by its name in the worker with its arguments (JSON strings, and a
 * try's number): resolves to what it answers (JSON).
 * @typedef {(name: string, ...args: (string | number)[]) => Promise<string>} PythonCall
 */

/**
 * Start Python with the page's archives; resolves to { call, version } once bleu_teach is importable, where
 * call(name, ...args) resolves to what bleu_teach.web.page's function answers.  onProgress(step, steps, text) is
 * told each step of the start.
 * @param {string[]} archives
 * @param {(step: number, steps: number, text: string) => void} [onProgress]
 * @returns {Promise<{ call: PythonCall, version: string }>}
 */
export async function startPython(archives, onProgress = () => {}) {
  await cacheInCharge();
  return new Promise((resolve, reject) => {
    let link;
    try {
      link = connect();
    } catch (error) {
      reject(error); // a browser that refuses workers here (a page opened from disk)
      return;
    }
    const { port, failed } = link;
    /** @type {Map<number, { done: (result: string) => void, fail: (error: Error) => void }>} */
    const pending = new Map();
    let next = 0;
    /** @type {(message: Omit<PythonStartRequest, "id"> | Omit<PythonCallRequest, "id">) => Promise<string>} */
    const request = (message) => new Promise((done, fail) => {
      const id = ++next;
      pending.set(id, { done, fail });
      port.postMessage({ ...message, id });
    });
    port.addEventListener("message", (event) => {
      /** @type {PythonReply} */
      const message = /** @type {MessageEvent} */ (event).data;
      if (message.kind === PROGRESS_MESSAGE) {
        onProgress(message.step, message.steps, message.text);
        return;
      }
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.ok) waiting.done(message.result);
      else waiting.fail(new Error(message.error));
    });
    failed.addEventListener("error", (event) => {
      // An ErrorEvent when the worker's script fails, a plain Event when it cannot be loaded at all.
      const error = new Error(/** @type {{ message?: string }} */ (event).message ||
                              "the Python worker could not be started");
      for (const waiting of pending.values()) waiting.fail(error);
      pending.clear();
      reject(error);
    });
    /** @type {PythonCall} */
    const call = (name, ...args) => request({ kind: CALL_MESSAGE, name, args });
    request({ kind: START_MESSAGE, archives }).then((version) => resolve({ call, version }), reject);
  });
}

/**
 * What to tell a learner when Python could not start: opened from disk, how to serve the site; served, that a
 * file of Python's did not arrive, and what to do.
 * @param {Error} error
 * @param {string} page the page's file name, for the address to open
 * @param {boolean} [served] whether the page came over http(s) (not opened from disk)
 * @returns {string}
 */
export function startFailure(error, page, served = false) {
  if (served) {
    return `Python could not start in this browser (${error.message}): one of its files could not be loaded ` +
      "from this site. Reload the page; if it happens again, check the connection, or tell whoever runs the site " +
      "(its files may be missing).";
  }
  return `Python could not start in this browser (${error.message}). The live parts need the site served over ` +
    `http(s), not opened from disk: for example, run python -m http.server --bind 127.0.0.1 inside the site's ` +
    `folder and open ` +
    `http://127.0.0.1:8000/${page}.`;
}
