// The dashboard's projector link, for the room's computer: a new one (shown here once; the server keeps only its
// digest, and the old link stops at once, an open projector on it too), or none at all.
import { send } from "./send.js";

/** The dashboard's projector-link section (none on a page without it). */
export function startProjectorLink() {
  const box = document.getElementById("projector-link");
  if (!box) return;
  const path = String(box.dataset.path);
  const state = /** @type {HTMLElement} */ (document.getElementById("projector-link-state"));
  const status = /** @type {HTMLElement} */ (document.getElementById("projector-status"));
  const shown = /** @type {HTMLElement} */ (document.getElementById("projector-shown"));
  const address = /** @type {HTMLInputElement} */ (document.getElementById("projector-address"));
  const stop = /** @type {HTMLButtonElement} */ (document.getElementById("projector-stop"));

  /** @type {HTMLButtonElement} */ (document.getElementById("projector-new")).addEventListener("click", async () => {
    try {
      const made = /** @type {{ link: string }} */ (await send(path, {}));
      address.value = made.link;
      shown.hidden = false;
      address.focus();
      address.select();
      state.textContent = "A projector link works now; a new one stops it at once.";
      stop.disabled = false;
      status.textContent = "A new projector link: open it on the room's computer. Any earlier one has stopped.";
    } catch (error) {
      status.textContent = `Not made: ${/** @type {Error} */ (error).message}`;
    }
  });
  stop.addEventListener("click", async () => {
    try {
      await send(path, undefined, "DELETE");
      address.value = "";
      shown.hidden = true;
      stop.disabled = true;
      /** @type {HTMLButtonElement} */ (document.getElementById("projector-new")).focus();
      state.textContent = "There is no projector link now.";
      status.textContent = "The projector link has stopped: a projector open on it shows nothing more.";
    } catch (error) {
      status.textContent = `Not stopped: ${/** @type {Error} */ (error).message}`;
    }
  });
}
