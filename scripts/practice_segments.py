"""Write bleu_teach/exercises/segments_13a.json.gz: the WMT21 zh-en texts the practice drawers use, tokenized.

The drawers (bleu_teach.exercises.drawers) draw questions from every system
translation of zh-en with its two references, tokenized by sacreBLEU's 13a.
Tokenizing those 7,935 texts took most of the time of a learner's first
practice question on the website (Python in the browser), so they are
tokenized here, once, by ``drawers.tokenize_segments`` (sacreBLEU's own 13a
tokenizer), and shipped; tests/test_exercise_bank.py tokenizes them again
and compares.  The output is deterministic (gzip ``mtime=0``).  Run from the
project's root: python scripts/practice_segments.py
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from bleu_teach.exercises.drawers import SEGMENTS_FILE, tokenize_segments

TARGET = Path(__file__).resolve().parent.parent / "bleu_teach" / "exercises" / SEGMENTS_FILE


def main() -> None:
    text = json.dumps(tokenize_segments(), ensure_ascii=False, separators=(",", ":"))
    TARGET.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    print(f"wrote {TARGET.relative_to(Path.cwd()) if TARGET.is_relative_to(Path.cwd()) else TARGET.name}")


if __name__ == "__main__":
    main()
