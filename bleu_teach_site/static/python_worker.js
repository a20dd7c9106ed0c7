// bleu_teach's Python, off the page's main thread: Pyodide's core (vendor/pyodide/) with the package's wheel and
// sacreBLEU's tokenizers unpacked into its site-packages, answering the pages' calls to bleu_teach.web.page.
//
// One worker serves every page of the site that is open: the pages start it as a SharedWorker with a long
// lifetime, so that going from one lesson to the next finds Python already running (a browser without
// SharedWorker starts it as a dedicated Worker, once per page).  Starting Python takes seconds of work; here it
// never blocks the page, which keeps answering the learner and shows the steps below.
//
// Messages from a page: {id, kind: "start", archives: [absolute URLs]} (answered once the archives are unpacked,
// with the Python version) and {id, kind: "call", name, args} (a function of bleu_teach.web.page, JSON strings
// in and out).  To a page: {id, ok, result | error} and {kind: "progress", step, steps, text}.

import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

const STEPS = 3;
let python = null; // Promise<{pyodide, page, version}>, made by the first start
const unpacked = new Map(); // archive URL -> Promise of its unpacking (each archive once, whichever page asks)
const downloads = new Map(); // archive URL -> Promise of its bytes: started at once, while Pyodide starts
const listeners = new Set(); // the ports that wait for Python to start, told each step
let stepNow = null;

function progress(step, text) {
  stepNow = { kind: "progress", step, steps: STEPS, text };
  for (const port of listeners) port.postMessage(stepNow);
}

function download(url) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url.split("/").pop()}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
}

async function startPython(base) {
  progress(1, "downloading Python");
  const pyodide = await loadPyodide({ indexURL: new URL("vendor/pyodide/", base).href });
  progress(2, "starting Python");
  const version = pyodide.runPython("import sys; sys.version.split()[0]");
  return { pyodide, version, page: null };
}

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

function fetched(url) {
  if (!downloads.has(url)) downloads.set(url, download(url));
  return downloads.get(url);
}

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

async function handle(port, message) {
  const { id, kind } = message;
  try {
    if (kind === "start") {
      port.postMessage({ id, ok: true, result: await start(port, message.archives) });
    } else if (kind === "call") {
      const state = await python;
      if (!state?.page) throw new Error("Python has not started: start it first");
      const answer = state.page[message.name](...message.args);
      port.postMessage({ id, ok: true, result: answer });
    } else {
      throw new Error(`no such request: ${String(kind).slice(0, 40)}`);
    }
  } catch (error) {
    port.postMessage({ id, ok: false, error: error?.message ?? String(error) });
  }
}

if (typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope) {
  self.addEventListener("connect", (event) => {
    const port = event.ports[0];
    port.addEventListener("message", (message) => handle(port, message.data));
    port.start();
  });
} else {
  self.addEventListener("message", (message) => handle(self, message.data));
}
