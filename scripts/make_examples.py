"""Write examples/: plain-text files for trying `python -m bleu_teach corpus` from the README.

One segment per line: the first eight sentences of system A of the built-in
test set (bleu_teach.lessons.data), and its two reference streams.  Run from the
project's root: python scripts/make_examples.py
"""

from __future__ import annotations

from pathlib import Path

from bleu_teach.lessons import data

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
COUNT = 8


def files() -> dict[str, list[str]]:
    return {
        "hyps.txt": list(data.SYSTEM_A[:COUNT]),
        "refs1.txt": list(data.REFERENCES[:COUNT]),
        "refs2.txt": list(data.SECOND_REFERENCES[:COUNT]),
    }


def main() -> None:
    EXAMPLES.mkdir(exist_ok=True)
    for name, lines in files().items():
        (EXAMPLES / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
