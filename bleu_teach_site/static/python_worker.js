// bleu_teach's Python, off the page's main thread: Pyodide's core (vendor/pyodide/) with the package's wheel and
// sacreBLEU's tokenizers unpacked into its site-packages, answering the pages' calls to bleu_teach.web.page.
//
// One worker serves every page of the site that is open: the pages start it as a SharedWorker with a long
// lifetime, so that going from one lesson to the next finds Python already running (a browser without
// SharedWorker starts it as a dedicated Worker, once per page).  Starting Python takes seconds of work; here it
// never blocks the page, which keeps answering the learner and shows the steps below.
//
// Messages from a page: {id, kind: START_MESSAGE, archives: [absolute URLs]} (answered once the archives are
// unpacked, with the Python version) and {id, kind: CALL_MESSAGE, name, args} (a function of bleu_teach.web.page,
// JSON strings in and out).  To a page: {id, ok, result | error} and {kind: PROGRESS_MESSAGE, step, steps, text}
// (types/python-messages.d.ts; the kinds are names.js's).

import { CALL_MESSAGE, PROGRESS_MESSAGE, START_MESSAGE } from "./names.js";
import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

/**
 * Python once started: Pyodide, its version, and bleu_teach.web.page once imported (its functions by name).
 * @typedef {object} Python
 * @property {Awaited<ReturnType<typeof loadPyodide>>} pyodide
 * @property {string} version
 * @property {Record<string, (...args: (string | number)[]) => string> | null} page
 */

/** A page's end of the conversation: a SharedWorker's port, or the dedicated worker's own scope. */
/** @typedef {MessagePort | DedicatedWorkerGlobalScope} Port */

const STEPS = 3;
/** @type {Promise<Python> | null} */
let python = null; // Promise<{pyodide, page, version}>, made by the first start
/** @type {Map<string, Promise<void>>} */
const unpacked = new Map(); // archive URL -> Promise of its unpacking (each archive once, whichever page asks)
/** @type {Map<string, Promise<ArrayBuffer>>} */
const downloads = new Map(); // archive URL -> Promise of its bytes: started at once, while Pyodide starts
/** @type {Set<Port>} */
const listeners = new Set(); // the ports that wait for Python to start, told each step
/** @type {PythonProgress | null} */
let stepNow = null;

/**
 * Tell every page waiting for Python this step of its start (and a page that asks later, the latest step).
 * @param {number} step
 * @param {string} text
 */
function progress(step, text) {
  stepNow = { kind: PROGRESS_MESSAGE, step, steps: STEPS, text };
  for (const port of listeners) port.postMessage(stepNow);
}

/**
 * @param {string} url
 * @returns {Promise<ArrayBuffer>}
 */
function download(url) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url.split("/").pop()}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
}

/**
 * Start Pyodide from vendor/pyodide/ beside the site's pages.
 * @param {string} base the address the site's files are found from
 * @returns {Promise<Python>}
 */
async function startPython(base) {
  progress(1, "downloading Python");
  const pyodide = await loadPyodide({ indexURL: new URL("vendor/pyodide/", base).href });
  progress(2, "starting Python");
  const version = pyodide.runPython("import sys; sys.version.split()[0]");
  return { pyodide, version, page: null };
}

/**
 * Unpack the archives not unpacked yet into site-packages (each once), then import bleu_teach.web.page.
 * @param {Python} state
 * @param {string[]} archives
 */
async function unpack(state, archives) {
  const sitePackages = state.pyodide.runPython("import site; site.getsitepackages()[0]");
  const fresh = archives.filter((url) => !unpacked.has(url));
  for (const url of fresh) {
    unpacked.set(url, fetched(url).then((bytes) => {
      state.pyodide.unpackArchive(bytes, url.endsWith(".whl") ? "wheel" : "zip", { extractDir: sitePackages });
    }));
  }
  await Promise.all(archives.map((url) => unpacked.get(url)));
  if (fresh.length) state.pyodide.runPython("import importlib; importlib.invalidate_caches()");
  if (state.page === null) {
    progress(3, "loading bleu-teach");
    state.page = state.pyodide.pyimport("bleu_teach.web.page");
  }
}

/**
 * An archive's bytes, downloaded once.
 * @param {string} url
 * @returns {Promise<ArrayBuffer>}
 */
function fetched(url) {
  if (!downloads.has(url)) downloads.set(url, download(url));
  return /** @type {Promise<ArrayBuffer>} */ (downloads.get(url));
}

/**
 * Start Python (once, whichever page asks first) with these archives unpacked; resolves to its version.
 * @param {Port} port the page asking, told each step meanwhile
 * @param {string[]} archives
 * @returns {Promise<string>}
 */
async function start(port, archives) {
  for (const url of archives) if (!unpacked.has(url)) fetched(url).catch(() => {}); // downloading while Python starts (a failure is told below)
  listeners.add(port);
  if (stepNow) port.postMessage(stepNow);
  try {
    const base = new URL(archives[0] ?? "./", self.location.href).href;
    python ??= startPython(base).catch((error) => {
      python = null; // so that a later page can try to start it again
      throw error;
    });
    const state = await python;
    // A failed download is tried again by the next page that asks.
    try {
      await unpack(state, archives);
    } catch (error) {
      for (const url of archives) {
        unpacked.delete(url);
        downloads.delete(url);
      }
      throw error;
    }
    return state.version;
  } finally {
    listeners.delete(port);
  }
}

/**
 * Answer a page's request (a start, or a call of bleu_teach.web.page) with {id, ok, result | error}.
 * @param {Port} port
 * @param {PythonRequest} message
 */
async function handle(port, message) {
  const { id, kind } = message;
  try {
    if (kind === START_MESSAGE) {
      port.postMessage({ id, ok: true, result: await start(port, message.archives) });
    } else if (kind === CALL_MESSAGE) {
      const state = await python;
      if (!state?.page) throw new Error("Python has not started: start it first");
      const answer = state.page[message.name](...message.args);
      port.postMessage({ id, ok: true, result: answer });
    } else {
      throw new Error(`no such request: ${String(kind).slice(0, 40)}`);
    }
  } catch (error) {
    // Anything thrown: an Error (Pyodide's PythonError is one) says what, anything else is said as it is.
    const thrown = /** @type {{ message?: string } | null | undefined} */ (error);
    port.postMessage({ id, ok: false, error: thrown?.message ?? String(error) });
  }
}

// "connect" (a page's port) and "message" come as MessageEvents.
if (typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope) {
  self.addEventListener("connect", (event) => {
    const port = /** @type {MessageEvent} */ (event).ports[0];
    port.addEventListener("message", (message) => handle(port, message.data));
    port.start();
  });
} else {
  self.addEventListener("message", (message) => handle(self, /** @type {MessageEvent} */ (message).data));
}
