// Lesson pages: names for the saved widgets' controls that the widget renderer leaves without one.
//
// A slider's handle gets its slider's label as its accessible name, and the brevity-penalty explorer's curve
// gets a text alternative made from the numbers the explorer shows beside it (its own summary line).
// Nothing else on the page changes.

function label(root) {
  for (const handle of root.querySelectorAll('[role="slider"]:not([aria-label])')) {
    const slider = handle.closest(".widget-slider, .jupyter-widgets");
    const text = slider?.querySelector(".widget-label")?.textContent?.trim();
    if (text) handle.setAttribute("aria-label", text);
  }
  for (const image of root.querySelectorAll("img.widget-image:not([alt])")) {
    const box = image.closest(".widget-vbox, .widget-box");
    const summary = box?.querySelector(".widget-html-content")?.textContent?.trim();
    image.setAttribute("alt", summary ? `The brevity penalty curve, with the current point: ${summary}`
                                      : "A plot drawn by the widget");
  }
}

label(document);
new MutationObserver(() => label(document)).observe(document.body, { childList: true, subtree: true });
