// bleu_teach's Python for a page: it runs in python_worker.js, off the main thread, so that the page answers the
// learner while Python starts (seconds) and while it computes.  The explorer page, the lesson pages and the deck
// share it; with SharedWorker the pages of one site share one running Python, and the next page finds it started.

const WORKER = "python_worker.js";

/** The archives a page unpacks: its meta tag's (the wheel first), then the page's extras; absolute URLs. */
export function pageArchives() {
  const named = document.querySelector('meta[name="bleu-teach-python"]')?.content.split(/\s+/) ?? [];
  const extras = [...document.querySelectorAll("[data-python-extra]")].map((element) => element.dataset.pythonExtra);
  return [...new Set([...named, ...extras].filter(Boolean))].map((name) => new URL(name, document.baseURI).href);
}

function connect() {
  const url = new URL(WORKER, document.baseURI);
  if (typeof SharedWorker === "function") {
    // One per site build (the wheel's name in the worker's name): a page of a newer build starts its own.
    const name = `bleu-teach ${document.querySelector('meta[name="bleu-teach-python"]')?.content ?? ""}`;
    const shared = new SharedWorker(url, { type: "module", name, extendedLifetime: true });
    shared.port.start();
    return { port: shared.port, failed: shared };
  }
  const worker = new Worker(url, { type: "module" });
  return { port: worker, failed: worker };
}

/**
 * Start Python with the page's archives; resolves to { call, version } once bleu_teach is importable, where
 * call(name, ...args) resolves to what bleu_teach.web.page's function answers.  onProgress(step, steps, text) is
 * told each step of the start.
 */
export function startPython(archives, onProgress = () => {}) {
  return new Promise((resolve, reject) => {
    let link;
    try {
      link = connect();
    } catch (error) {
      reject(error); // a browser that refuses workers here (a page opened from disk)
      return;
    }
    const { port, failed } = link;
    const pending = new Map();
    let next = 0;
    const request = (message) => new Promise((done, fail) => {
      const id = ++next;
      pending.set(id, { done, fail });
      port.postMessage({ ...message, id });
    });
    port.addEventListener("message", (event) => {
      const message = event.data;
      if (message.kind === "progress") {
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
      const error = new Error(event.message || "the Python worker could not be started");
      for (const waiting of pending.values()) waiting.fail(error);
      pending.clear();
      reject(error);
    });
    const call = (name, ...args) => request({ kind: "call", name, args });
    request({ kind: "start", archives }).then((version) => resolve({ call, version }), reject);
  });
}

/** What to tell a learner when Python could not start (most often: the page was opened from disk). */
export function startFailure(error, page) {
  return `Python could not start in this browser (${error.message}). The live parts need the site served over ` +
    `http(s), not opened from disk: for example, run python -m http.server --bind 127.0.0.1 inside the site's ` +
    `folder and open ` +
    `http://127.0.0.1:8000/${page}.`;
}
