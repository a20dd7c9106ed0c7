// Stand-ins for the browser's local storage and fetch, for the tests of the modules that use them (node has
// neither). Not a test file itself.

/** A local storage kept in a Map: what the page would keep, by key. */
export class FakeStorage {
  /** @param {Record<string, string>} [entries] */
  constructor(entries = {}) {
    this.kept = new Map(Object.entries(entries));
  }

  /** @param {string} key */
  getItem(key) {
    return this.kept.has(key) ? this.kept.get(key) : null;
  }

  /** @param {string} key @param {string} value */
  setItem(key, value) {
    this.kept.set(key, String(value));
  }

  /** @param {string} key */
  removeItem(key) {
    this.kept.delete(key);
  }
}

/** A storage the browser has switched off: every use throws, as Safari's private mode once did. */
export const BROKEN_STORAGE = {
  getItem() { throw new Error("storage is off"); },
  setItem() { throw new Error("storage is off"); },
  removeItem() { throw new Error("storage is off"); },
};

/**
 * A fetch that answers each call with the next of answers (a status and a JSON body, or an Error to throw, as
 * fetch does offline), and records the calls.
 * @param {...({ status: number, body?: unknown } | Error)} answers
 */
export function fakeFetch(...answers) {
  /** @type {{ url: string, options: RequestInit }[]} */
  const calls = [];
  const fetch = async (url, options) => {
    calls.push({ url, options });
    const answer = answers.shift();
    if (answer === undefined) throw new Error("no answer left in the test");
    if (answer instanceof Error) throw answer;
    return {
      status: answer.status,
      ok: answer.status >= 200 && answer.status < 300,
      json: async () => {
        if (answer.body === undefined) throw new SyntaxError("Unexpected end of JSON input");
        return answer.body;
      },
    };
  };
  return { fetch, calls };
}
