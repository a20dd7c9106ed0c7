// Written by scripts/shared_names.py from bleu_teach/web/names.py: do not edit. Change the Python, then run
// python scripts/shared_names.py (tests/test_shared_names.py fails while a copy differs). The names the Python
// and the pages' scripts share; the site's scripts and the classroom server's each have this same copy.

/**
 * The header every request that changes something on the classroom server carries (POST, PUT, PATCH, DELETE),
 * as the pages send it: the server refuses a write without it (a page of another site cannot send it).
 */
export const WRITE_HEADER = "X-Bleu-Teach";

/** The write header's value. */
export const WRITE_HEADER_VALUE = "1";

/**
 * Local storage (this browser's; nothing is sent anywhere): the learner's checked answers by exercise id, which
 * the lesson pages write and the index reads.
 */
export const ANSWERS_KEY = "bleu-teach-answers";

/** Local storage: the practice questions' records by exercise id (the question drawn, the streak, its sentence). */
export const PRACTICE_KEY = "bleu-teach-practice";

/** Local storage: what the learner last set in each widget, by page and widget. */
export const WIDGETS_KEY = "bleu-teach-widgets";

/**
 * Local storage: the class this browser joined on a classroom server ({session, nickname}), which the server's
 * join page writes; the lesson pages then send each checked answer to it as well.
 */
export const CLASS_KEY = "bleu-teach-class";

/**
 * Local storage: the answers checked but not yet acknowledged by the classroom server, sent again until they are
 * (the join page empties it: an earlier session's answers are not the new one's).
 */
export const OUTBOX_KEY = "bleu-teach-class-outbox";

/**
 * Session storage (this tab's): the live explorer's example, which a reload restores when it is too long for a
 * link.
 */
export const EXPLORER_KEY = "bleu-teach-explorer";

/** A page's message to its Python worker: start Python with these archives (answered with Python's version). */
export const START_MESSAGE = "start";

/** A page's message to its Python worker: call a function of bleu_teach.web.page by its name. */
export const CALL_MESSAGE = "call";

/** The worker's message to the pages waiting for Python: a step of its start. */
export const PROGRESS_MESSAGE = "progress";

/** The functions of bleu_teach.web.page the lesson pages call by name (JSON in, JSON out), by what they do. */
export const PAGE_FUNCTIONS = Object.freeze({
  widget: "widget_json",
  check: "check_json",
  practice: "practice_json",
  practice_check: "practice_check_json",
});

/** The live explorer's page, which its links open. */
export const EXPLORER_PAGE = "explorer.html";

/**
 * The live explorer's address: each query parameter's name by the BLEU explorer's control it sets, in the
 * query's order (ref once per reference; weights left out when blank, which is uniform weights).
 */
export const EXPLORER_PARAMETERS = Object.freeze({
  hypothesis: "hyp",
  references: "ref",
  max_n: "n",
  weights: "weights",
  smoothing: "smoothing",
  tokenizer: "tokenizer",
  lowercase: "lowercase",
});
