// The slide deck's own behaviour, for the static deck (bleu_teach_site/slides.py) and the live Voila deck
// (make deck): the slide size for the screen's shape, and the clicker's keys beside the slides' controls.
// A classic script (module scripts do not run from disk); it computes nothing: the live forms are
// lesson_live.js's, the widgets of the Voila deck are Python's.
//
// The keys. A presenter's clicker sends PageDown and PageUp (some send the arrow keys); the deck's controls also
// use the keyboard. The rule:
// * PageDown and PageUp always change slide, wherever the focus is (they edit nothing on a slide).
// * In a text box, the arrow keys move the caret while there is somewhere to move: Right at the end of the text
//   (or Left at its start), with nothing selected, changes slide. A held key (auto-repeat) never leaves the box.
//   Space types a space.
// * Any other control (a slider, a menu, a tick box, a button) keeps the arrow keys and Space only when the
//   keyboard brought the focus to it (Tab): it is being used with the keyboard. Focused by a click, the keys
//   change slide, as a clicker expects.
// * Esc leaves a control (the next key goes to the slides); with no control focused it is reveal.js's overview.
// Changing slide from a control first takes the focus off it, so the next key goes to the slides too.
(function () {
  "use strict";

  /** Slide sizes (CSS px) for a 4:3 and a 16:9 screen: a wide screen gets a wider slide, not wider margins. */
  const SIZES = { standard: { width: 1024, height: 768 }, wide: { width: 1280, height: 720 } };

  /** @returns {DeckSize} */
  function size() {
    return window.innerWidth / Math.max(1, window.innerHeight) >= 1.5 ? SIZES.wide : SIZES.standard;
  }

  /**
   * Start reveal.js on the static deck, at the size for this screen (and again when its shape changes).
   * @param {RevealApi} Reveal
   * @param {unknown[]} plugins
   */
  function start(Reveal, plugins) {
    let chosen = size();
    Reveal.initialize({
      controls: true, progress: true, history: true, transition: "none",
      slideNumber: "c/t", showSlideNumber: "all",
      center: false, width: chosen.width, height: chosen.height, margin: 0.04,
      plugins,
    });
    window.addEventListener("resize", () => {
      const now = size();
      if (now !== chosen) {
        chosen = now;
        Reveal.configure({ width: now.width, height: now.height });
      }
    });
    // MathJax 2 typesets slides hidden from view with no size: set them again once shown.
    Reveal.on("slidechanged", () => {
      const hub = window.MathJax && window.MathJax.Hub;
      if (hub && hub.getAllJax(Reveal.getCurrentSlide()).length) hub.Rerender(Reveal.getCurrentSlide());
    });
  }

  // --- the keys ---------------------------------------------------------------------------------------------------

  const NAVIGATION = new Set(["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "PageDown", "PageUp", " "]);
  const FORWARD = new Set(["ArrowRight", "ArrowDown", "PageDown", " "]);
  const TEXT_TYPES = new Set(["text", "search", "url", "email", "tel", "password", "number"]);

  // How each control got the focus: "pointer" (a click or a tap) or "keyboard" (Tab).
  /** @type {WeakMap<EventTarget, "pointer" | "keyboard">} */
  const focusedBy = new WeakMap();
  let pointer = false;
  window.addEventListener("pointerdown", () => { pointer = true; }, true);
  window.addEventListener("keydown", () => { pointer = false; }, true);
  window.addEventListener("focusin", (event) => {
    focusedBy.set(/** @type {Element} */ (event.target), pointer ? "pointer" : "keyboard");
  }, true);

  /**
   * A text box: a textarea, an input that takes text, or something made editable.
   * @param {HTMLElement} element
   * @returns {boolean}
   */
  function isTextBox(element) {
    return element.tagName === "TEXTAREA" || element.isContentEditable ||
      (element.tagName === "INPUT" && TEXT_TYPES.has(/** @type {HTMLInputElement} */ (element).type));
  }

  /**
   * Whether the focused control keeps this key (it is being edited with the keyboard).
   * @param {HTMLElement} element
   * @param {KeyboardEvent} event
   * @returns {boolean}
   */
  function keeps(element, event) {
    const key = event.key;
    if (key === "PageDown" || key === "PageUp") return false;
    if (isTextBox(element)) {
      if (key === " " || key === "ArrowUp" || key === "ArrowDown" || event.repeat) return true;
      // An input or a textarea has a selection (null in a number box); an element made editable has none.
      const { selectionStart: start, selectionEnd: end } =
        /** @type {{ selectionStart?: number | null, selectionEnd?: number | null }} */ (element);
      if (typeof start !== "number" || start !== end) return true; // a number box, or a selection to collapse
      return key === "ArrowRight" ? end < /** @type {HTMLInputElement | HTMLTextAreaElement} */ (element).value.length
        : start > 0;
    }
    return focusedBy.get(element) === "keyboard";
  }

  /**
   * The next or the previous slide: reveal.js's API on the static deck, its own arrows on the Voila deck.
   * @param {boolean} forward
   */
  function go(forward) {
    const reveal = window.Reveal;
    if (reveal && typeof reveal.next === "function" && typeof reveal.isReady === "function" && reveal.isReady()) {
      if (forward) reveal.next();
      else reveal.prev();
      return;
    }
    const arrow = /** @type {HTMLElement | null} */ (
      document.querySelector(`.reveal .controls .navigate-${forward ? "right" : "left"}`));
    if (arrow) arrow.click();
  }

  /** @type {WeakSet<KeyboardEvent>} */
  const kept = new WeakSet();

  window.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const element = /** @type {HTMLElement | null} */ (document.activeElement); // the slides' controls are HTML
    if (!element || element === document.body || !element.closest(".reveal .slides")) return;
    if (event.key === "Escape") {
      element.blur();
      event.preventDefault();
      event.stopImmediatePropagation(); // leaving a control is all Esc does: no overview
      return;
    }
    if (!NAVIGATION.has(event.key)) return;
    if (keeps(element, event)) {
      kept.add(event);
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation(); // neither the control nor reveal.js acts on it: the slide changes once
    element.blur();
    go(event.key === " " ? !event.shiftKey : FORWARD.has(event.key));
  }, true);

  // A key a control keeps stops before the document, where reveal.js listens (it already leaves text boxes alone,
  // not menus or the Voila deck's sliders).
  function stopKeptKeys() {
    document.body.addEventListener("keydown", (event) => {
      if (kept.has(event)) event.stopPropagation();
    });
  }
  if (document.body) stopKeptKeys();
  else document.addEventListener("DOMContentLoaded", stopKeptKeys);

  window.BleuDeck = { start, size, SIZES };
})();
