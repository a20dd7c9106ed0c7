// python_worker.js imports ./vendor/pyodide/pyodide.mjs, which exists only in the built site and the deck: a copy of
// the npm package's pyodide.mjs (bleu_teach_site/slides.py, ASSETS).  Its types are that package's own
// (node_modules/pyodide/pyodide.d.ts).  Used by tsconfig.worker.json.
declare module "*/vendor/pyodide/pyodide.mjs" {
  export { loadPyodide } from "pyodide";
}
