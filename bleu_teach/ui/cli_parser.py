"""The command line's parser: its commands, their options and the help texts (``--help``).

:func:`build_parser` makes one pair of commands for every metric of
:data:`bleu_teach.metrics.METRICS` that the suite explains (one sentence,
one test set), each with the metric's own options (from its
:class:`~bleu_teach.metrics.Option` list) and the output options, then adds
the teacher's ``exercises`` and ``class`` commands.  A command line it cannot
parse raises :class:`~bleu_teach.ui.cli_input.InputError` instead of exiting,
so that :func:`bleu_teach.ui.cli.main` reports it as one ``error:`` line.

>>> build_parser().parse_args(["explain", "the cat", "--ref", "the cat", "--max-n", "2"]).max_n
2
"""

from __future__ import annotations

import argparse
from typing import Any

from bleu_teach.metrics import Metric, Option, explained_metrics
from bleu_teach.ui.classroom_command import add_classroom_commands
from bleu_teach.ui.cli_input import InputError
from bleu_teach.ui.teacher_files import add_exercise_commands
from bleu_teach.views.viewable import FORMATS

__all__ = ["PROG", "build_parser"]

PROG = "python -m bleu_teach"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(message)


# ---------------------------------------------------------------------------
# Help texts
# ---------------------------------------------------------------------------

_MAIN_EPILOG = f"""\
examples:
  {PROG} explain "the cat sat on the mat" --ref "the cat is on the mat"
  {PROG} explain - --ref-file ref.txt < hyp.txt
  {PROG} corpus hyps.txt refs.txt --tokenizer 13a
  {PROG} chrf "the cat is chasing the dog" --ref "the cat chased the dog" --word-order 2
  {PROG} corpus hyps.txt refs.txt --format latex --standalone > report.tex

Run "{PROG} COMMAND --help" for every option of a command.
"""


def _choices_text(metric: Metric) -> str:
    listed = [o for o in metric.options if o.choices]
    if not listed:
        return ""
    width = max(len(name) for o in listed for name in o.choices)
    lines: list[str] = []
    for option in listed:
        lines += ["", f"{option.help.split(' (')[0]} ({option.flag}):"]
        lines += [f"  {name:<{width}}  {text}" for name, text in option.choices.items()]
    return "\n".join(lines)


def _sentence_epilog(metric: Metric) -> str:
    command = f"{PROG} {metric.sentence_command}"
    return f"""\
examples:
  {command} "the cat sat on the mat" --ref "the cat is on the mat"
  {command} --hyp-file hyp.txt --ref-file ref.txt --ref "a cat is on the mat"
  {command} "the cat sat on the mat" --ref "the cat is on the mat" --format markdown
{_choices_text(metric)}
"""


def _corpus_epilog(metric: Metric) -> str:
    command = f"{PROG} {metric.corpus_command}"
    return f"""\
Line 1 of every reference file is a reference for line 1 of HYP_FILE, and so
on: each reference file must have exactly as many lines as HYP_FILE.  An empty
hypothesis line is allowed; an empty reference line is not.

examples:
  {command} hyps.txt refs.txt
  {command} hyps.txt refs1.txt refs2.txt --format json
  my_translator < source.txt | {command} - refs.txt
{_choices_text(metric)}
"""


class _AppendSource(argparse.Action):
    """--ref TEXT and --ref-file PATH append to one list, in command-line order."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        sources = list(getattr(namespace, self.dest, None) or [])
        sources.append((self.const, values))
        setattr(namespace, self.dest, sources)


def _flags(option: Option) -> list[str]:
    return [option.flag] + ([f"-{option.short}"] if option.short else [])


def _add_options(parser: argparse.ArgumentParser, metric: Metric) -> None:
    group = parser.add_argument_group("how to score")
    for option in metric.options:
        if option.kind is bool:
            group.add_argument(*_flags(option), dest=option.name, action="store_true", help=option.help)
            continue
        choices = list(option.choices) if option.choices and option.check is None else None
        group.add_argument(
            *_flags(option),
            dest=option.name,
            type=option.kind,
            default=option.default,
            choices=choices,
            metavar=option.name.split("_")[-1].upper(),
            help=option.help,
        )
    out = parser.add_argument_group("output")
    out.add_argument(
        "--format",
        "-f",
        choices=FORMATS,
        default="text",
        help="text (default), html, markdown (a handout or course page), latex (an exam sheet or "
        "a slide) or json (every number, for a pipeline)",
    )
    out.add_argument("--html", dest="format", action="store_const", const="html", help="the same as --format html")
    out.add_argument(
        "--standalone", action="store_true", help="with --format latex: a complete document that compiles with pdflatex"
    )


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command: each explained metric's two, then ``exercises`` and ``class``."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog=PROG,
        description="Compute BLEU (and chrF) step by step: the n-gram counts, the clipped precisions,\n"
        "the brevity penalty and how they combine into the score.",
        epilog=_MAIN_EPILOG,
        formatter_class=formatter,
    )
    commands = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    for metric in explained_metrics():
        sentence = commands.add_parser(
            metric.sentence_command,
            formatter_class=formatter,
            epilog=_sentence_epilog(metric),
            help=f"{metric.name} of one hypothesis (one sentence), every step shown",
            description=f"Score one hypothesis (a system's translation of one sentence) against one or more\n"
            f"reference translations, and show every step of sentence-level {metric.name}.\n"
            f"{metric.description}.",
        )
        sentence.add_argument(
            "hypothesis",
            nargs="?",
            metavar="HYPOTHESIS",
            help="the hypothesis as text (quote it), or - to read it from standard input",
        )
        sentence.add_argument(
            "--hyp-file", metavar="PATH", help="read the hypothesis from this UTF-8 text file instead"
        )
        refs = sentence.add_argument_group("references (give at least one; repeat for more, in any mix)")
        refs.add_argument(
            "--ref",
            "-r",
            dest="refs",
            action=_AppendSource,
            const="text",
            metavar="TEXT",
            help="a reference translation as text",
        )
        refs.add_argument(
            "--ref-file",
            dest="refs",
            action=_AppendSource,
            const="file",
            metavar="PATH",
            help="a reference translation read from a UTF-8 text file",
        )
        _add_options(sentence, metric)
        sentence.set_defaults(metric=metric.name, level="sentence")

        corpus = commands.add_parser(
            metric.corpus_command,
            formatter_class=formatter,
            epilog=_corpus_epilog(metric),
            help=f"corpus {metric.name} of a whole test set (one sentence per line)",
            description=f"Score a test set with corpus-level {metric.name}: the counts of all sentences are\n"
            f"added up first, then the score is computed once (it is not the mean of the\n"
            f"sentence scores).",
        )
        corpus.add_argument(
            "hyp_file",
            metavar="HYP_FILE",
            help="the hypotheses, one per line (UTF-8), or - to read them from standard input",
        )
        corpus.add_argument(
            "ref_files",
            nargs="+",
            metavar="REF_FILE",
            help="a reference file, one reference per line, as many lines as HYP_FILE; "
            "give several files for several references per sentence",
        )
        _add_options(corpus, metric)
        corpus.set_defaults(metric=metric.name, level="corpus")
    add_exercise_commands(commands, formatter)
    add_classroom_commands(commands, formatter)
    return parser
