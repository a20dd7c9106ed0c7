"""The terminal entry point.

    python -m bleu_teach explain --ref "the cat is on the mat" "the cat sat on the mat"

prints the step-by-step report.  Bad input prints one line starting with
``error:`` and exits with code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bleu_teach.smoothing import SMOOTHING_METHODS
from bleu_teach.tokenize import TOKENIZERS

EXIT_BAD_INPUT = 2


class _InputError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _InputError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m bleu_teach", description="Explain BLEU step by step.")
    commands = parser.add_subparsers(dest="command", metavar="explain")
    explain = commands.add_parser("explain", help="score one hypothesis and show every step")
    explain.add_argument("hypothesis", help="the hypothesis (system output) as text")
    explain.add_argument("--ref", "-r", action="append", required=True, help="a reference translation (repeat for more)")
    explain.add_argument("--tokenizer", "-t", default="whitespace", choices=list(TOKENIZERS), help="how to split text into tokens")
    explain.add_argument("--lowercase", "-l", action="store_true", help="lowercase before tokenizing")
    explain.add_argument("--max-n", "-n", type=int, default=4, help="highest n-gram order, with uniform weights (default 4)")
    explain.add_argument("--smoothing", "-s", default="method0", choices=list(SMOOTHING_METHODS), help="NLTK/Chen-Cherry smoothing method")
    explain.add_argument("--html", action="store_true", help="print HTML instead of plain text")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from bleu_teach.explain import explain
    from bleu_teach.tokenize import tokenize

    try:
        args = _parser().parse_args(argv)
        if args.command is None:
            raise _InputError("choose a command: explain (try --help)")
        if args.max_n < 1:
            raise _InputError(f"--max-n must be at least 1, got {args.max_n}")
        hyp = tokenize(args.hypothesis, args.tokenizer, lowercase=args.lowercase)
        refs = [tokenize(r, args.tokenizer, lowercase=args.lowercase) for r in args.ref]
        report = explain(refs, hyp, weights=(1 / args.max_n,) * args.max_n, smoothing=args.smoothing)
    except (_InputError, TypeError, ValueError) as problem:
        message = " ".join(str(problem).split())
        print(f"error: {message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(report._repr_html_() if args.html else report.to_text())
    return 0
