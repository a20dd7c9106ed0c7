"""Derive bleu_teach/lessons/wmt21/ from the raw WMT21 TED talks MQM release (Freitag et al., 2021).

    python scripts/derive_wmt21.py data/wmt21-ted-mqm [--out DIR]

The raw folder (kept in the repository as ``data/wmt21-ted-mqm``, not
installed with the package) holds ``mqm_ted_zhen.tsv``, ``mqm_ted_ende.tsv``
(one row per annotated error, the error marked ``<v>...</v>`` in the target,
or in the source for omissions and source errors), their
``*.avg_seg_scores.tsv`` (per-segment MQM averages), ``LICENSE`` (Apache 2.0)
and a ``README.md`` naming the upstream repository and commit.  This script
writes, into ``--out`` (default: ``bleu_teach/lessons/wmt21`` beside this
script's project):

- ``zh-en.json.gz``, ``en-de.json.gz``: one gzip-compressed JSON file per
  language pair, read by ``bleu_teach.lessons.data.wmt21_ted`` with the standard
  library (layout below);
- ``LICENSE``: the Apache License 2.0 text, copied unchanged;
- ``SHA256SUMS``: the sha256 of each file written (``sha256sum -c`` format).

What is changed from the raw files (also recorded in each file's metadata):
the ``<v>``/``</v>`` markup is removed; the rows of one (system, segment)
are folded into one text and a list of error spans, each span given as
character offsets into the cleaned target (or source), taken from the
markup's position; the average scores are kept only for the rated segments
(the dropped ones are all ``None``), aligned with the sources, ``-0.0``
written as ``0.0``; ``ref``/``refB`` are called ``ref-A``/``ref-B`` as in
the score files; the comment column (en-de, 38 rows) is dropped.

The output is deterministic (sorted keys, gzip ``mtime=0``), so its
checksum only changes when the input or this script does.  Any layout the
script does not expect (two spans in one row, texts that disagree between
the rows of a segment, a dropped score that is not ``None``) stops it with
an error rather than a guess.

Layout of ``<pair>.json.gz`` (a JSON object; lists are aligned with
``sources``, segment ``i`` of every list is ``seg_ids[i]`` of the release):

    pair, metadata, seg_ids, documents, sources,
    references {ref-A[, ref-B]: [text]}, systems {name: [text]},
    mqm {name: [score or null]}, raters {name: [[rater, ...]]},
    errors {name: [[[rater, category, severity, side, start, end, text], ...]]}

``side`` is ``"target"`` or ``"source"`` (the text the offsets index), or
``"none"`` with ``start == end == 0`` for an error row without markup.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import json
import re
import shutil
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = PROJECT / "bleu_teach" / "lessons" / "wmt21"
FORMAT = 1

REPOSITORY = "google/wmt-mqm-human-evaluation"
CITATION = (
    "Markus Freitag, George Foster, David Grangier, Viresh Ratnakar, Qijun Tan and Wolfgang Macherey (2021). "
    "Experts, Errors, and Context: A Large-Scale Study of Human Evaluation for Machine Translation. "
    "Transactions of the Association for Computational Linguistics 9:1460-1474."
)

#: pair -> (raw file stem, raw reference names -> our names)
PAIRS: dict[str, tuple[str, dict[str, str]]] = {
    "zh-en": ("zhen", {"ref": "ref-A", "refB": "ref-B"}),
    "en-de": ("ende", {"ref": "ref-A"}),
}
COLUMNS = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]
NO_ERROR = "No-error"
CHANGES = [
    "<v> and </v> markup removed from targets and sources",
    "the rows of one (system, segment) folded into one text plus a list of error spans",
    "each span given as character offsets [start, end) into the cleaned target, or the cleaned source for "
    "errors marked there (omissions, source errors), taken from the position of the markup; "
    "a <v> without </v> runs to the end of the text",
    "No-error rows kept only as the segment's rater",
    "per-segment average MQM scores kept for the annotated segments only (every dropped one is None), "
    "aligned with the sources; -0.0 written as 0.0",
    "system names ref and refB renamed ref-A and ref-B, as in the score files",
    "comment column (en-de) and doc_id column dropped",
    "reshaped into one gzip-compressed JSON file per language pair",
]

_MARK = re.compile(r"(</?v>)")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def strip_markup(marked: str, where: str) -> tuple[str, tuple[int, int] | None, bool]:
    """(clean text, (start, end) of the one marked span or None, whether ``</v>`` was missing).

    >>> strip_markup("a <v>b</v> b", "t")
    ('a b b', (2, 3), False)
    >>> strip_markup("<v>ab", "t")
    ('ab', (0, 2), True)
    """
    clean: list[str] = []
    length = 0
    start: int | None = None
    span: tuple[int, int] | None = None
    for piece in _MARK.split(marked):
        if piece == "<v>":
            if start is not None or span is not None:
                raise ValueError(f"{where}: more than one <v> in {marked!r}")
            start = length
        elif piece == "</v>":
            if start is None:
                raise ValueError(f"{where}: </v> without <v> in {marked!r}")
            span, start = (start, length), None
        else:
            clean.append(piece)
            length += len(piece)
    unclosed = start is not None
    if start is not None:
        span = (start, length)
    return "".join(clean), span, unclosed


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader)
        if header[: len(COLUMNS)] != COLUMNS:
            raise ValueError(f"{path.name}: unexpected columns {header}")
        rows = []
        for number, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise ValueError(f"{path.name} line {number}: {len(row)} fields, expected {len(header)}")
            rows.append(dict(zip(header, row)))
    return rows


_SCORE_LINE = re.compile(r"([^\t]+)\t(None|-?[0-9]+(?:\.[0-9]+)?) ([0-9]+)")


def read_scores(path: Path) -> dict[tuple[str, int], float | None]:
    """``system<TAB>score seg_id`` lines (a space before seg_id), after a header line."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines[0] != "system mqm_avg_score seg_id":
        raise ValueError(f"{path.name}: unexpected header {lines[0]!r}")
    scores: dict[tuple[str, int], float | None] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        match = _SCORE_LINE.fullmatch(line)
        if match is None:
            raise ValueError(f"{path.name} line {number}: cannot read {line!r}")
        key = (match[1], int(match[3]))
        if key in scores:
            raise ValueError(f"{path.name} line {number}: {key} twice")
        scores[key] = None if match[2] == "None" else float(match[2]) + 0.0  # -0.0 -> 0.0
    return scores


def source_commit(readme: Path) -> str:
    text = readme.read_text(encoding="utf-8")
    if REPOSITORY not in text:
        raise ValueError(f"{readme} does not name {REPOSITORY}")
    commits = set(re.findall(r"\bcommit\s+([0-9a-f]{40})\b", text))
    if len(commits) != 1:
        raise ValueError(f"{readme}: expected one 40-digit commit, found {sorted(commits)}")
    return commits.pop()


def derive(raw: Path, pair: str) -> dict[str, Any]:
    stem, renames = PAIRS[pair]
    tsv = raw / f"mqm_ted_{stem}.tsv"
    score_file = raw / f"mqm_ted_{stem}.avg_seg_scores.tsv"
    rows = read_rows(tsv)
    scores = read_scores(score_file)

    sources: dict[int, str] = {}
    documents: dict[int, str] = {}
    texts: dict[tuple[str, int], str] = {}
    raters: dict[tuple[str, int], set[str]] = defaultdict(set)
    errors: dict[tuple[str, int], list[list[Any]]] = defaultdict(list)
    unclosed: list[str] = []
    for number, row in enumerate(rows, start=2):
        where = f"{tsv.name} line {number}"
        name = renames.get(row["system"], row["system"])
        seg = int(row["seg_id"])
        key = (name, seg)
        source, source_span, source_open = strip_markup(row["source"], where)
        target, target_span, target_open = strip_markup(row["target"], where)
        for known, value, what in ((sources, source, "source"), (documents, row["doc"], "document")):
            if known.setdefault(seg, value) != value:
                raise ValueError(f"{where}: segment {seg} has another {what} than before")
        if texts.setdefault(key, target) != target:
            raise ValueError(f"{where}: {name} segment {seg} has another target than before")
        raters[key].add(row["rater"])
        if row["category"] == NO_ERROR or row["severity"] == NO_ERROR:
            if (row["category"], row["severity"]) != (NO_ERROR, NO_ERROR) or source_span or target_span:
                raise ValueError(f"{where}: a No-error row with an error in it")
            continue
        if source_span and target_span:
            raise ValueError(f"{where}: spans marked in both source and target")
        side, text, span = ("source", source, source_span) if source_span else ("target", target, target_span)
        if span is None:
            side, span = "none", (0, 0)
        if source_open or target_open:
            unclosed.append(f"{name} segment {seg} ({row['rater']}): <v> without </v>, span runs to the end")
        start, end = span
        errors[key].append([row["rater"], row["category"], row["severity"], side, start, end, text[start:end]])

    seg_ids = sorted(sources)
    names = sorted({name for name, _ in texts})
    references = [n for n in renames.values()]
    systems = [n for n in names if n not in references]
    missing = [(n, s) for n in names for s in seg_ids if (n, s) not in texts]
    if missing or sorted(references) != sorted(set(names) - set(systems)):
        raise ValueError(f"{tsv.name}: not every system and reference has every segment: {missing[:5]}")
    score_names = sorted({n for n, _ in scores})
    if score_names != names:
        raise ValueError(f"{score_file.name} names {score_names}, {tsv.name} names {names}")
    dropped = {k: v for k, v in scores.items() if k[1] not in sources and v is not None}
    if dropped:
        raise ValueError(f"{score_file.name}: scores for segments without annotations: {sorted(dropped)[:5]}")

    def column(name: str) -> list[str]:
        return [texts[name, s] for s in seg_ids]

    return {
        "format": FORMAT,
        "pair": pair,
        "metadata": {
            "title": f"WMT21 TED talks, {pair}: expert MQM annotations (derived)",
            "citation": CITATION,
            "source_repository": REPOSITORY,
            "source_commit": source_commit(raw / "README.md"),
            "source_directory": f"ted/{stem}/",
            "licence": "Apache License 2.0 (LICENSE beside this file)",
            "raw_sha256": {p.name: sha256(p) for p in (tsv, score_file, raw / "LICENSE", raw / "README.md")},
            "derived_by": "scripts/derive_wmt21.py",
            "changes": CHANGES,
            "unclosed_spans": unclosed,
            "mqm": "negated error points averaged over raters: major 5, minor 1, minor Fluency/Punctuation 0.1, "
            "Non-translation 25; 0 means no error, higher is better; null where not rated",
        },
        "seg_ids": seg_ids,
        "documents": [documents[s] for s in seg_ids],
        "sources": [sources[s] for s in seg_ids],
        "references": {n: column(n) for n in references},
        "systems": {n: column(n) for n in systems},
        "mqm": {n: [scores.get((n, s)) for s in seg_ids] for n in names},
        "raters": {n: [sorted(raters[n, s]) for s in seg_ids] for n in names},
        "errors": {n: [errors[n, s] for s in seg_ids] for n in names},
    }


def encode(derived: dict[str, Any]) -> bytes:
    text = json.dumps(derived, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return gzip.compress(text.encode("utf-8") + b"\n", compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("raw", type=Path, help="the raw wmt21-ted-mqm folder (data/wmt21-ted-mqm in the repository)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"where to write (default {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    raw: Path = args.raw
    out: Path = args.out
    if not (raw / "LICENSE").is_file():
        parser.error(f"{raw} has no LICENSE: is it the wmt21-ted-mqm folder?")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for pair in PAIRS:
        path = out / f"{pair}.json.gz"
        path.write_bytes(encode(derive(raw, pair)))
        written.append(path)
    shutil.copyfile(raw / "LICENSE", out / "LICENSE")
    written.append(out / "LICENSE")
    sums = "".join(f"{sha256(p)}  {p.name}\n" for p in written)
    (out / "SHA256SUMS").write_text(sums, encoding="utf-8")
    for p in written:
        print(f"{p.stat().st_size:>9,} bytes  {p.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
