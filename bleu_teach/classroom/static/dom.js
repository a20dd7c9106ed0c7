// The classroom pages' DOM builders: an element with its text (never HTML: what a student typed stays text), and a
// labelled bar. dashboard.js, dashboard_poll.js and homework.js import them.
import { barWidth } from "./text.js";

/**
 * A new element, with its text and its class if given.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [text]
 * @param {string} [className]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/**
 * A labelled bar: count of total, and the count.
 * @param {string} label
 * @param {number} count
 * @param {number} total
 * @param {string} className
 * @returns {HTMLElement}
 */
export function bar(label, count, total, className) {
  const row = element("div", undefined, "bar-row");
  row.append(element("span", label, "bar-label"));
  const track = element("span", undefined, "bar-track");
  const fill = element("span", undefined, `bar-fill ${className}`);
  fill.style.width = barWidth(count, total);
  track.append(fill);
  row.append(track, element("span", `${count}`, "bar-count"));
  return row;
}
