// ESLint for the project's own JavaScript (make check, make test): the site's and the classroom server's scripts,
// the tests of their pure functions (tests/js/) and this file. @eslint/js's recommended rules. An .mjs file: the
// project's package.json declares no module type, and this file is an ES module.
import js from "@eslint/js";
import globals from "globals";

const SITE = "bleu_teach_site/static";
const WORKER = `${SITE}/python_worker.js`;
const CACHE_WORKER = `${SITE}/python_cache.js`;

export default [
  {
    // Not the project's own: installed packages, what the builds and the tests write, the lessons (notebooks, and
    // the deck's copies of the vendor scripts), and any vendor folder.
    ignores: ["node_modules/", "build/", "dist/", ".venv/", "test-artifacts/", "notebooks/", "**/vendor/"],
  },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: "latest", sourceType: "module" },
  },
  {
    // The pages' scripts: ES modules, except the two classic scripts below.
    files: [`${SITE}/*.js`, "bleu_teach/classroom/static/*.js"],
    ignores: [WORKER, CACHE_WORKER],
    languageOptions: { globals: globals.browser },
  },
  {
    // Classic scripts (module scripts do not run from a page opened from disk).
    files: [`${SITE}/deck.js`, `${SITE}/offline.js`, `${SITE}/speaker_preview.js`],
    languageOptions: { sourceType: "script" },
  },
  {
    // Python's module worker: a SharedWorker, or a dedicated Worker where there is none.
    files: [WORKER],
    languageOptions: { globals: { ...globals.worker, ...globals.sharedWorker } },
  },
  {
    // The service worker that keeps Python's files (a classic script).
    files: [CACHE_WORKER],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    // The tests (node --test) and this file run in Node.
    files: ["tests/js/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { globals: globals.node },
  },
];
