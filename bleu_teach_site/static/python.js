// Starting bleu_teach's Python in the browser: Pyodide's core (vendor/pyodide/, from the npm registry), with the
// package installed from its own wheel and sacreBLEU's tokenizers beside it, both unpacked into Pyodide's
// site-packages.  The explorer page and the lesson pages share it.

import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

function download(name) {
  return fetch(name).then((response) => {
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
}

/** The archives a page unpacks: its meta tag's (the wheel first), then the page's extras. */
export function pageArchives() {
  const named = document.querySelector('meta[name="bleu-teach-python"]')?.content.split(/\s+/) ?? [];
  const extras = [...document.querySelectorAll("[data-python-extra]")].map((element) => element.dataset.pythonExtra);
  return [...new Set([...named, ...extras].filter(Boolean))];
}

/** Pyodide with the named archives (a wheel, or zips) installed; resolves to { pyodide, version }. */
export async function startPython(archives) {
  const downloads = archives.map(download); // the archives download while Pyodide starts
  const pyodide = await loadPyodide({ indexURL: new URL("vendor/pyodide/", document.baseURI).href });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const [index, data] of downloads.entries()) {
    const format = archives[index].endsWith(".whl") ? "wheel" : "zip";
    pyodide.unpackArchive(await data, format, { extractDir: sitePackages });
  }
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  return { pyodide, version: pyodide.runPython("import sys; sys.version.split()[0]") };
}

/** What to tell a learner when Python could not start (most often: the page was opened from disk). */
export function startFailure(error, page) {
  return `Python could not start in this browser (${error.message}). The live parts need the site served over ` +
    `http(s), not opened from disk: for example, run python -m http.server --bind 127.0.0.1 inside the site's ` +
    `folder and open ` +
    `http://127.0.0.1:8000/${page}.`;
}
