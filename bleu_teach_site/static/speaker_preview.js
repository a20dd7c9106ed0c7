// The live Voila deck's speaker view previews. reveal.js's speaker view shows the current slide and the next one in
// two frames that load the deck's address as "receivers"; for the Voila deck each frame would be a new Voila page
// that starts a kernel and runs the whole deck (blank for half a minute, then the saved example, not what the room
// has just watched being typed). The deck's page points them here instead (reveal.js's `url` setting): a page
// that draws the slide from the deck's own window (the speaker view's opener, the same origin), copied with the
// values typed into its boxes, again twice a second, and starts nothing.
//
// What the speaker view sends a frame (reveal.js's postMessage API) and what this does with it: setState (which
// slide: drawn at once), next (the upcoming frame's role comes from its address: it draws the slide after the
// state's), triggerKey (a key pressed in the speaker view goes to the deck's window, through the same API, and the
// speaker view follows the deck). The current frame tells the speaker view it is ready, as a receiver does.
// Voila's reveal.js keeps its Reveal object to itself, so the slides are found in the deck's page.
(function () {
  "use strict";

  const params = new URLSearchParams(window.location.search);
  const upcoming = !params.has("postMessageEvents"); // the speaker view asks the current frame for its events
  const REDRAW_MS = 500;
  /** @type {{ indexh: number, indexv: number } | null} */
  let state = null;
  let styled = false;

  /** @returns {Window | null} the deck's window, or null when this page was opened some other way */
  function deckWindow() {
    try {
      const opener = window.parent && window.parent !== window ? window.parent.opener : null;
      return opener && opener.document.querySelector(".reveal .slides") ? opener : null;
    } catch {
      return null; // another origin: nothing to copy
    }
  }

  /**
   * The deck's slides in order, each stack's own slides in it (reveal.js's order), and the element they are in.
   * @param {Document} page
   * @returns {{ slides: HTMLElement[], indices: string[] }}
   */
  function slidesOf(page) {
    /** @type {HTMLElement[]} */
    const slides = [];
    /** @type {string[]} */
    const indices = [];
    page.querySelectorAll(".reveal .slides > section").forEach((top, h) => {
      const inner = /** @type {NodeListOf<HTMLElement>} */ (top.querySelectorAll(":scope > section"));
      if (inner.length) {
        inner.forEach((slide, v) => {
          slides.push(slide);
          indices.push(`${h}/${v}`);
        });
      } else {
        slides.push(/** @type {HTMLElement} */ (top));
        indices.push(`${h}/0`);
      }
    });
    return { slides, indices };
  }

  /** @type {HTMLStyleElement | null} */
  let rules = null;
  let ruleCount = -1;

  /**
   * The deck's style sheets, read from the deck's address: its linked sheets once, and the rules of its style
   * elements as the browser holds them (MathJax adds the rules that draw a formula's characters through the
   * style sheet's API, never as text), again whenever their number changed.
   * @param {Window} deck
   */
  function style(deck) {
    if (!styled) {
      styled = true;
      const base = document.createElement("base");
      base.href = deck.document.baseURI;
      document.head.prepend(base);
      for (const sheet of deck.document.querySelectorAll('link[rel="stylesheet"]')) {
        document.head.append(document.importNode(sheet, true));
      }
      rules = document.createElement("style");
      document.head.append(rules);
    }
    /** @type {CSSStyleSheet[]} */
    const inline = [...deck.document.styleSheets].filter((sheet) => sheet.ownerNode?.nodeName === "STYLE");
    const count = inline.reduce((sum, sheet) => sum + sheet.cssRules.length, 0);
    if (count === ruleCount || !rules) return;
    ruleCount = count;
    rules.textContent = inline.map((sheet) => [...sheet.cssRules].map((rule) => rule.cssText).join("\n")).join("\n");
  }

  /**
   * Pass a key to the deck: first off any box the presenter typed into there (the deck leaves keys to a focused
   * control), then as reveal.js's triggerKey.
   * @param {number} keyCode
   */
  function keyToDeck(keyCode) {
    const deck = deckWindow();
    if (!deck) return;
    const focused = /** @type {HTMLElement | null} */ (deck.document.activeElement);
    if (focused && focused !== deck.document.body && typeof focused.blur === "function") focused.blur();
    deck.postMessage(JSON.stringify({ method: "triggerKey", args: [keyCode] }), window.location.origin);
  }

  /** The keys that move a deck (reveal.js's key codes): a preview that was clicked passes them on. */
  const MOVES = new Set([32, 33, 34, 35, 36, 37, 38, 39, 40]);

  /**
   * The values typed or chosen in the deck's controls, put into their copies (a copy keeps what the page was
   * written with).
   * @param {Element} from
   * @param {Element} to
   */
  function copyValues(from, to) {
    const sources = from.querySelectorAll("input, textarea, select");
    const copies = to.querySelectorAll("input, textarea, select");
    sources.forEach((source, i) => {
      const copy = /** @type {HTMLInputElement} */ (copies[i]);
      if (!copy) return;
      if (source instanceof HTMLInputElement || "checked" in source) {
        copy.checked = /** @type {HTMLInputElement} */ (source).checked;
      }
      copy.value = /** @type {HTMLInputElement} */ (source).value;
      if (copy.tagName === "TEXTAREA") copy.textContent = copy.value;
    });
    for (const canvas of to.querySelectorAll("canvas")) canvas.remove(); // a copied canvas is blank
    // An image keeps the size the deck gave it (a size in the viewport's units would follow the frame's).
    const images = from.querySelectorAll("img, svg");
    to.querySelectorAll("img, svg").forEach((copy, i) => {
      const source = images[i];
      if (!source) return;
      const box = source.getBoundingClientRect();
      const scale = from.getBoundingClientRect().width / Math.max(1, /** @type {HTMLElement} */ (from).offsetWidth);
      if (box.width > 0) {
        /** @type {HTMLElement} */ (copy).style.width = `${box.width / scale}px`;
        /** @type {HTMLElement} */ (copy).style.height = `${box.height / scale}px`;
        /** @type {HTMLElement} */ (copy).style.maxWidth = "none";
        /** @type {HTMLElement} */ (copy).style.maxHeight = "none";
      }
    });
  }

  function draw() {
    const deck = deckWindow();
    const stage = /** @type {HTMLElement} */ (document.getElementById("stage"));
    if (!deck || !state) return;
    style(deck);
    const { slides, indices } = slidesOf(deck.document);
    const at = indices.indexOf(`${state.indexh}/${state.indexv ?? 0}`);
    const slide = at < 0 ? undefined : slides[upcoming ? at + 1 : at];
    if (!slide) {
      const end = document.createElement("p");
      end.textContent = upcoming ? "The end of the deck." : "";
      end.style.cssText = "font: 32px sans-serif; padding: 1em;";
      stage.replaceChildren(end);
      return;
    }
    const copy = /** @type {HTMLElement} */ (slide.cloneNode(true));
    copyValues(slide, copy);
    for (const notes of copy.querySelectorAll("aside.notes")) notes.remove();
    copy.classList.remove("past", "future");
    copy.classList.add("present");
    copy.removeAttribute("hidden");
    copy.removeAttribute("aria-hidden");
    copy.style.display = "block";
    const holder = /** @type {HTMLElement} */ (deck.document.querySelector(".reveal .slides"));
    const width = parseFloat(holder.style.width) || holder.offsetWidth || 1280;
    const height = parseFloat(holder.style.height) || holder.offsetHeight || 720;
    const reveal = document.createElement("div");
    reveal.className = deck.document.querySelector(".reveal")?.className ?? "reveal";
    reveal.style.cssText = "position:absolute;inset:0;overflow:hidden;";
    const inner = document.createElement("div");
    inner.className = "slides";
    // The speaker view lays its "Upcoming" label and its layout button over the top of the next slide's frame.
    const top = upcoming ? Math.round(window.innerHeight * 0.1) : 0;
    const scale = Math.min(window.innerWidth / width, (window.innerHeight - top) / height);
    inner.style.cssText = `inset:auto;width:${width}px;height:${height}px;left:0;top:${top}px;margin:0;zoom:1;` +
      `transform:scale(${scale});transform-origin:0 0;position:absolute;`;
    inner.append(copy);
    reveal.append(inner);
    stage.replaceChildren(reveal);
  }

  window.addEventListener("message", (event) => {
    /** @type {{ method?: string, args?: unknown[] }} */
    let data;
    try {
      data = JSON.parse(String(event.data));
    } catch {
      return;
    }
    if (data.method === "setState" && data.args && data.args[0]) {
      state = /** @type {{ indexh: number, indexv: number }} */ (data.args[0]);
      draw();
    } else if (data.method === "triggerKey" && data.args) {
      keyToDeck(Number(data.args[0]));
    }
  });

  window.addEventListener("keydown", (event) => {
    if (!MOVES.has(event.keyCode) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    keyToDeck(event.keyCode);
  });

  /** @returns {{ indexh: number, indexv: number }} the slide the deck shows (from its page) */
  function shownNow() {
    const deck = /** @type {Window} */ (deckWindow());
    const { slides, indices } = slidesOf(deck.document);
    const at = slides.findIndex((slide) => slide.classList.contains("present"));
    const [h, v] = (indices[at] ?? "0/0").split("/").map(Number);
    return { indexh: h, indexv: v };
  }

  window.addEventListener("DOMContentLoaded", () => {
    if (!deckWindow()) {
      /** @type {HTMLElement} */ (document.getElementById("stage")).textContent =
        "This page draws a slide of the live deck inside its speaker view (press S on the deck).";
      return;
    }
    state = shownNow();
    draw();
    setInterval(draw, REDRAW_MS);
    window.addEventListener("resize", draw);
    if (!upcoming) {
      window.parent.postMessage(JSON.stringify({ namespace: "reveal", eventName: "ready", state }), "*");
    }
  });
})();
