// Starting bleu_teach's Python in the browser: Pyodide's core (vendor/pyodide/, from the npm registry) and the
// site's zips of Python, unpacked into one folder on Python's path.  The explorer page and the lesson pages share it.

import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

const FOLDER = "/home/pyodide/bleu_teach_site";

function download(name) {
  return fetch(name).then((response) => {
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
}

/** Pyodide with the named zips unpacked and importable; resolves to { pyodide, version }. */
export async function startPython(zips) {
  const downloads = zips.map(download); // the zips download while Pyodide starts
  const pyodide = await loadPyodide({ indexURL: new URL("vendor/pyodide/", document.baseURI).href });
  for (const data of downloads) pyodide.unpackArchive(await data, "zip", { extractDir: FOLDER });
  pyodide.runPython(`import sys; sys.path.insert(0, '${FOLDER}')`);
  return { pyodide, version: pyodide.runPython("import sys; sys.version.split()[0]") };
}

/** What to tell a learner when Python could not start (most often: the page was opened from disk). */
export function startFailure(error, page) {
  return `Python could not start in this browser (${error.message}). The live parts need the site served over ` +
    `http(s), not opened from disk: for example, run python -m http.server --bind 127.0.0.1 inside the site's ` +
    `folder and open ` +
    `http://127.0.0.1:8000/${page}.`;
}
