// The classroom pages' DOM builders: an element with its text (never HTML: what a student typed stays text), a
// labelled bar, and an exercise's bars. dashboard.js, projector.js, dashboard_poll.js and homework.js import them.
import { barWidth, exerciseLine } from "./text.js";

/** @type {[keyof import("./text.js").ExerciseCounts["verdicts"], string][]} the verdicts' bars, in order */
const VERDICTS = [["correct", "right"], ["misconception", "a named mistake"], ["wrong", "another wrong answer"]];

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

/**
 * An exercise's answers as the dashboard and the projector show them: its title, how many answered, a bar per
 * verdict, and a bar per named mistake.
 * @param {import("./text.js").ExerciseCounts} ex
 * @param {number | undefined} tries a homework's tries per student
 * @returns {HTMLElement}
 */
export function exerciseSection(ex, tries) {
  const section = element("section", undefined, "exercise");
  section.append(element("h3", `${ex.id} ${ex.title}`));
  section.append(element("p", exerciseLine(ex, tries)));
  for (const [verdict, label] of VERDICTS) section.append(bar(label, ex.verdicts[verdict], ex.answered, verdict));
  if (ex.mistakes.length) {
    section.append(element("h4", "The mistakes named"));
    for (const mistake of ex.mistakes) section.append(bar(mistake.name, mistake.count, ex.answered, "misconception"));
  }
  return section;
}
