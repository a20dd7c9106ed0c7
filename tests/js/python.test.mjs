// bleu_teach_site/static/python.js: what a learner is told when Python cannot start (the rest of the module
// needs a page and a worker: the browser tests run it).
import assert from "node:assert/strict";
import { test } from "node:test";

import { startFailure } from "../../bleu_teach_site/static/python.js";

test("startFailure says why, and how to serve the site, with the page to open", () => {
  assert.equal(startFailure(new Error("Failed to construct 'SharedWorker'"), "03_brevity_penalty.html"),
               "Python could not start in this browser (Failed to construct 'SharedWorker'). The live parts need " +
               "the site served over http(s), not opened from disk: for example, run python -m http.server " +
               "--bind 127.0.0.1 inside the site's folder and open http://127.0.0.1:8000/03_brevity_penalty.html.");
});

test("startFailure with no page: the site's address", () => {
  assert.ok(startFailure(new Error("x"), "").endsWith(" and open http://127.0.0.1:8000/."));
});

test("startFailure on a served page: a file did not arrive, reload; never the advice for a page opened from disk", () => {
  const said = startFailure(new Error("the Python worker could not be started"), "03_brevity_penalty.html", true);
  assert.match(said, /^Python could not start in this browser \(the Python worker could not be started\): one of its files/);
  assert.match(said, /Reload the page/);
  assert.doesNotMatch(said, /opened from disk|http\.server/);
});
