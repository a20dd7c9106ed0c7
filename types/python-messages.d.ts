// The messages between a page (bleu_teach_site/static/python.js) and the Python worker (python_worker.js): used by
// both tsconfig.json and tsconfig.worker.json, so that the two sides are checked against one description. The
// kinds are names.js's (written from bleu_teach/web/names.py).

/** names.js's names, as types: each kind below is its constant's own text. */
type PythonNames = typeof import("../bleu_teach_site/static/names.js");

/** Start Python with these archives (absolute URLs); answered with the Python version once they are unpacked. */
interface PythonStartRequest {
  id: number;
  kind: PythonNames["START_MESSAGE"];
  archives: string[];
}

/** Call a function of bleu_teach.web.page by its name (JSON strings in, and a try's number; a JSON string out). */
interface PythonCallRequest {
  id: number;
  kind: PythonNames["CALL_MESSAGE"];
  name: string;
  args: (string | number)[];
}

type PythonRequest = PythonStartRequest | PythonCallRequest;

/** A step of Python's start, told to each page waiting for it. */
interface PythonProgress {
  kind: PythonNames["PROGRESS_MESSAGE"];
  step: number;
  steps: number;
  text: string;
}

/** The answer to a request: its result (the Python version, or the function's JSON), or why it failed. */
type PythonAnswer =
  | { kind?: undefined; id: number; ok: true; result: string }
  | { kind?: undefined; id: number; ok: false; error: string };

type PythonReply = PythonProgress | PythonAnswer;
