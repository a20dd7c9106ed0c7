"""Plain-text and HTML views of reports and results: all of the package's HTML.

Nothing here counts or computes BLEU: every number comes from a report or a
result object, and each text view and its HTML twin are built from the same
row builders, so that they cannot drift apart.  Every piece of user text
(tokens, n-grams, labels) is escaped before it goes into HTML.

This module imports nothing from the package at run time: it reads reports
through their attributes (their types are imported for the type checker
only), so the report classes can import it to show themselves without an
import cycle.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.tool_comparison import ToolComparison
    from bleu_teach.bleu.reports import BleuReport, CorpusReport, HypothesisComparison, OrderReport
    from bleu_teach.chrf.arithmetic import ChrfOrder, ChrfResult
    from bleu_teach.chrf.reports import ChrfCorpusScore, ChrfReport
    from bleu_teach.lessons.settings import SettingsScores
    from bleu_teach.chrf.counting import ChrfNgramRow
    from bleu_teach.lessons.significance import ConfidenceInterval, SignificanceResults

__all__ = ["report_text", "report_html", "corpus_text", "corpus_html", "comparison_text", "comparison_html",
           "format_number", "tokens_html", "message_html", "clipping_html", "bp_summary_html", "feedback_text",
           "feedback_html", "Table", "precision_table", "settings_scores_rows", "settings_scores_text",
           "settings_scores_html", "significance_rows", "significance_text", "significance_html", "interval_rows",
           "interval_text", "interval_html"]


def format_number(value: Any, digits: int = 4) -> str:
    """A number as a learner reads it: fractions as a/b, floats rounded.

    >>> format_number(0.123456), format_number(2.2e-308), format_number(None)
    ('0.1235', '2.2e-308', '-')
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if hasattr(value, "numerator") and hasattr(value, "denominator") and not isinstance(value, float):
        return f"{value.numerator}/{value.denominator}"
    number = float(value)
    if number != number:
        return "-"
    if number != 0 and abs(number) < 10 ** (-digits):
        return f"{number:.3g}"
    return f"{number:.{digits}f}"


def _tokens_count(tokens: Sequence[Hashable]) -> str:
    return f"{len(tokens)} token" + ("" if len(tokens) == 1 else "s")


def _join(tokens: Iterable[Hashable]) -> str:
    return " ".join(str(t) for t in tokens)


_SUBSCRIPT = re.compile(r"\b([pwtm])_(\d+|n)\b")


def _math_html(text: str) -> str:
    """Escaped text with p_1, w_n, m_n, t_n written with real subscripts (for labels, never user text)."""
    return _SUBSCRIPT.sub(r"\1<sub>\2</sub>", escape(text))


# ---------------------------------------------------------------------------
# Row builders: plain strings, shared by the text and the HTML views
# ---------------------------------------------------------------------------


def _precision_line(order: "OrderReport") -> str:
    n = order.n
    if order.counted_as_one:
        return (f"p_{n} = 0/1: the hypothesis has no {n}-grams (0/0 is undefined); "
                f"NLTK counts it as one {n}-gram with no match")
    return f"p_{n} = {order.clipped}/{order.total} = {float(order.precision):.4f} (clipped matches / hypothesis {n}-grams)"


def _ngram_header(report: "BleuReport") -> list[str]:
    return ["n-gram", "hyp", *[f"ref{i}" for i in range(1, len(report.references) + 1)], "max ref", "clipped"]


def _ngram_rows(order: "OrderReport") -> list[list[str]]:
    return [
        [row.text, str(row.hyp_count), *map(str, row.ref_counts), str(row.max_ref_count), str(row.clipped_count)]
        for row in order.rows
    ]


def _bp_line(c: int, r: int, bp: Any) -> str:
    if c == 0:
        return "BP = 0 (empty hypothesis)"
    if c > r:
        return f"c = {c} > r = {r}, so BP = 1"
    return f"c = {c} <= r = {r}, so BP = exp(1 - r/c) = exp(1 - {r}/{c}) = {format_number(bp)}"


def _length_lines(report: "BleuReport") -> list[str]:
    length = report.length
    return [
        f"hypothesis length c = {length.hyp_len}; reference lengths {', '.join(map(str, length.ref_lens))}",
        f"closest reference length r = {length.closest_ref_len} ({length.reason})",
        _bp_line(length.hyp_len, length.closest_ref_len, length.brevity_penalty),
    ]


_COMBINE_HEADER = ["order", "weight w_n", "p_n as counted", "p_n used", "w_n * log p_n"]


def _combine_rows(orders: Sequence["OrderReport"]) -> list[list[str]]:
    return [
        [f"p_{o.n}", format_number(o.weight), f"{o.clipped}/{o.total}", format_number(o.smoothed),
         format_number(o.log_term) if o.log_term is not None else f"left out: {o.left_out}"]
        for o in orders
    ]


def _score_lines(report: "BleuReport") -> tuple[str, str]:
    """(the score, how it was made) for the last lines of a report."""
    if report.log_sum is None:
        how = "no unigram matches, so nothing is combined" if report.length.hyp_len else "an empty hypothesis"
    else:
        how = (f"BP * exp(sum of log terms) = {format_number(report.length.brevity_penalty)} * "
               f"exp({format_number(report.log_sum)})")
    return f"BLEU = {format_number(report.score)}", how


def _table_text(header: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = []
    for row in [header, *rows]:
        cells = [str(cell).ljust(w) if i == 0 else str(cell).rjust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        lines.append(indent + "  ".join(cells).rstrip())
    return lines


_STYLE = (
    "<style>.bleu-teach table{border-collapse:collapse;margin:0.3em 0 0.8em 0}"
    ".bleu-teach th,.bleu-teach td{border:1px solid #999;padding:2px 8px;text-align:right}"
    ".bleu-teach td.gram,.bleu-teach th.gram{text-align:left}"
    ".bleu-teach .match{font-weight:bold;text-decoration:underline}"
    ".bleu-teach .score{font-size:1.3em;font-weight:bold}</style>"
)


def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]], math_first_column: bool = False) -> str:
    """A table; header labels may carry subscripts, cells are escaped text (user text stays literal)."""
    head = "".join(
        f'<th class="gram">{_math_html(h)}</th>' if i == 0 else f"<th>{_math_html(h)}</th>" for i, h in enumerate(header)
    )
    first = _math_html if math_first_column else escape
    body = "".join(
        "<tr>"
        + "".join(f'<td class="gram">{first(c)}</td>' if i == 0 else f"<td>{escape(c)}</td>" for i, c in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def tokens_html(tokens: Sequence[Hashable], marks: Sequence[bool] | None = None) -> str:
    """Tokens as escaped HTML; marked ones are bold, underlined and ticked (not colour alone)."""
    parts = []
    for i, token in enumerate(tokens):
        text = escape(str(token))
        if marks is not None and i < len(marks) and marks[i]:
            parts.append(f'<span class="match" title="matched">{text}&#10003;</span>')
        else:
            parts.append(f"<span>{text}</span>")
    return " ".join(parts)


# ---------------------------------------------------------------------------
# Sentence reports
# ---------------------------------------------------------------------------


def report_text(report: "BleuReport") -> str:
    """The report as plain text for a terminal."""
    lines = ["BLEU, step by step", ""]
    lines.append(f"Hypothesis ({_tokens_count(report.hypothesis)}): {_join(report.hypothesis)}")
    for i, ref in enumerate(report.references, start=1):
        lines.append(f"Reference {i} ({_tokens_count(ref)}): {_join(ref)}")
    for order in report.orders:
        lines += ["", f"{order.n}-grams: modified precision p_{order.n}"]
        if order.rows:
            lines += _table_text(_ngram_header(report), _ngram_rows(order))
        lines.append("  " + _precision_line(order))
    lines += ["", "Brevity penalty"] + [f"  {line}" for line in _length_lines(report)]
    lines += ["", f"Combining (smoothing: {report.smoothing})"]
    lines += _table_text(_COMBINE_HEADER, _combine_rows(report.orders))
    if report.log_sum is not None:
        lines.append(f"  sum of log terms = {format_number(report.log_sum)}")
    score, how = _score_lines(report)
    lines += ["", f"{score}  ({how}; exact value {report.score!r})"]
    if report.notes:
        lines += ["", "Notes"] + [f"  - {note}" for note in report.notes]
    return "\n".join(lines)


_COMPACT_STYLE = (
    "<style>.bleu-teach.compact p{margin:0.2em 0}.bleu-teach.compact table{font-size:0.85em;margin:0.2em 0}"
    ".bleu-teach.compact th,.bleu-teach.compact td{padding:1px 6px}</style>"
)


def _summary_rows(report: "BleuReport") -> tuple[list[str], list[list[str]]]:
    """The compact view's table: p_n as counted and as used, the weights, and BP."""
    header = ["", *[f"p_{o.n}" for o in report.orders], "BP"]
    length = report.length
    rows = [
        ["as counted", *[f"{o.clipped}/{o.total}" for o in report.orders],
         f"c = {length.hyp_len}, r = {length.closest_ref_len}"],
        ["used", *[format_number(o.smoothed) for o in report.orders], format_number(length.brevity_penalty)],
        ["weight", *[format_number(o.weight) for o in report.orders], ""],
    ]
    return header, rows


def report_html(report: "BleuReport", compact: bool = False) -> str:
    """The report as an HTML fragment for a notebook (all user text escaped).

    ``compact=True`` puts the score, BP and the precisions first and folds
    the n-gram tables and the rest away (for slides and small screens).
    """
    marks = report.matched_positions(1) if report.orders else None
    score, how = _score_lines(report)
    headline = f'<p class="score" data-score="{report.score!r}">{escape(score)}</p>'
    hypothesis = (f'<p><b>Hypothesis</b> ({_tokens_count(report.hypothesis)}; '
                  f'matched unigrams in bold with &#10003;): {tokens_html(report.hypothesis, marks)}</p>')
    references = "".join(f"<p><b>Reference {i}</b> ({_tokens_count(ref)}): {tokens_html(ref)}</p>"
                         for i, ref in enumerate(report.references, start=1))
    steps = []
    for order in report.orders:
        steps.append(f"<h4>{order.n}-grams: {_math_html(_precision_line(order))}</h4>")
        if order.rows:
            steps.append(_html_table(_ngram_header(report), _ngram_rows(order)))
    steps.append("<h4>Brevity penalty</h4>")
    steps.append("<p>" + "<br>".join(escape(line) for line in _length_lines(report)) + "</p>")
    steps.append(f"<h4>Combining (smoothing: {escape(report.smoothing)})</h4>")
    steps.append(_html_table(_COMBINE_HEADER, _combine_rows(report.orders), math_first_column=True))
    if report.log_sum is not None:
        steps.append(f"<p>sum of log terms = {format_number(report.log_sum)}</p>")
    notes = "<ul>" + "".join(f"<li>{_math_html(n)}</li>" for n in report.notes) + "</ul>" if report.notes else ""
    if compact:
        header, rows = _summary_rows(report)
        return "".join([
            _STYLE, _COMPACT_STYLE, '<div class="bleu-teach compact">',
            f'<p><span class="score" data-score="{report.score!r}">{escape(score)}</span> = {escape(how)}</p>',
            _html_table(header, rows), hypothesis,
            "<details><summary>Every step: the references, the n-gram tables, the lengths, the sum</summary>",
            references, *steps, notes, "</details></div>",
        ])
    return "".join([_STYLE, '<div class="bleu-teach">', hypothesis, references, *steps,
                    headline, f"<p>{escape(how)}</p>", notes, "</div>"])


# ---------------------------------------------------------------------------
# Corpus reports
# ---------------------------------------------------------------------------


def _corpus_rows(report: "CorpusReport") -> tuple[list[str], list[list[str]]]:
    k = len(report.weights)
    header = ["sentence", "c", "r", *[f"m_{n}/t_{n}" for n in range(1, k + 1)], "BP", "sentence BLEU"]
    rows = [
        [str(s.index + 1), str(s.hyp_len), str(s.closest_ref_len),
         *[f"{m}/{t}" + ("*" if g == 0 else "") for m, t, g in zip(s.clipped, s.totals, s.ngrams or s.totals)],
         format_number(s.brevity_penalty),
         format_number(s.sentence_score) if s.sentence_score is not None else "cannot score alone"]
        for s in report.sentences
    ]
    rows.append(["corpus (pooled)", str(report.hyp_len), str(report.ref_len),
                 *[f"{m}/{t}" for m, t in zip(report.clipped, report.totals)], format_number(report.brevity_penalty),
                 format_number(report.score)])
    return header, rows


def _corpus_lines(report: "CorpusReport") -> list[str]:
    mean = ("mean of sentence BLEU = " + format_number(report.mean_sentence_score)
            if report.mean_sentence_score is not None else "no mean of sentence BLEU (see the notes)")
    lines = [
        "pooled: p_n = sum of m_n / sum of t_n = "
        + ", ".join(f"{m}/{t}" for m, t in zip(report.clipped, report.totals)),
        _bp_line(report.hyp_len, report.ref_len, report.brevity_penalty).replace("(empty hypothesis)", "(empty hypotheses)"),
        f"corpus BLEU = {format_number(report.score)} (exact value {report.score!r}); {mean}",
    ]
    return lines


_CORPUS_KEY = ("m_n = clipped n-gram matches, t_n = hypothesis n-grams as counted "
               "(* = the sentence has no n-grams of that order; NLTK counts it as 0/1)")


def corpus_text(report: "CorpusReport") -> str:
    """A corpus report as plain text."""
    header, rows = _corpus_rows(report)
    lines = ["Corpus BLEU, step by step", "", _CORPUS_KEY]
    lines += _table_text(header, rows)
    *details, score = _corpus_lines(report)
    lines += [""] + details
    if report.orders:
        lines += ["", f"Combining the pooled precisions (smoothing: {report.smoothing})"]
        lines += _table_text(_COMBINE_HEADER, _combine_rows(report.orders))
        if report.log_sum is not None:
            lines.append(f"  sum of log terms = {format_number(report.log_sum)}")
    lines += ["", score]
    if report.notes:
        lines += ["", "Notes"] + [f"  - {n}" for n in report.notes]
    return "\n".join(lines)


def corpus_html(report: "CorpusReport") -> str:
    """A corpus report as an HTML fragment."""
    header, rows = _corpus_rows(report)
    notes = "".join(f"<li>{_math_html(n)}</li>" for n in report.notes)
    *details, score = _corpus_lines(report)
    return (
        f'{_STYLE}<div class="bleu-teach"><p>{_math_html(_CORPUS_KEY)}</p>'
        f"{_html_table(header, rows)}"
        + "".join(f"<p>{_math_html(line)}</p>" for line in details)
        + (f"<h4>Combining the pooled precisions (smoothing: {escape(report.smoothing)})</h4>"
           + _html_table(_COMBINE_HEADER, _combine_rows(report.orders), math_first_column=True)
           if report.orders else "")
        + (f"<p>sum of log terms = {format_number(report.log_sum)}</p>" if report.log_sum is not None else "")
        + f'<p class="score">{escape(score)}</p>'
        + (f"<ul>{notes}</ul>" if notes else "")
        + "</div>"
    )


# ---------------------------------------------------------------------------
# Small views used by the widgets and exercises
# ---------------------------------------------------------------------------


def message_html(message: str) -> str:
    """A plain message for the learner (used by widgets for bad input), escaped."""
    return (
        f'{_STYLE}<div class="bleu-teach" role="alert"><p><b>&#9888; Please check the input:</b> '
        f"{escape(message)}</p></div>"
    )


def clipping_html(report: "BleuReport", n: int) -> str:
    """The clipping table for order ``n`` with the matched hypothesis tokens marked."""
    order = next((o for o in report.orders if o.n == n), None)
    if order is None:
        raise ValueError(f"The report has no order {n}.")
    parts = [_STYLE, '<div class="bleu-teach">']
    parts.append(f"<p><b>Hypothesis</b> (tokens inside a clipped {n}-gram match in bold with &#10003;): "
                 f"{tokens_html(report.hypothesis, order.marks)}</p>")
    if order.rows:
        parts.append(_html_table(_ngram_header(report), _ngram_rows(order)))
    parts.append(f'<p class="score">{_math_html(_precision_line(order))}</p></div>')
    return "".join(parts)


def bp_summary_html(c: int, r: int, bp: float) -> str:
    """One line for the brevity-penalty explorer: c, the chosen r, the rule that applies and BP."""
    return f'<p style="font-size:1.2em">closest reference length r = {r}: {escape(_bp_line(c, r, bp))}</p>'


def _feedback_mark(correct: bool | None) -> str:
    return {True: "Correct", False: "Not yet", None: "No answer yet"}[correct]


def feedback_text(correct: bool | None, message: str) -> str:
    """An exercise checker's verdict as one line of text."""
    return f"{_feedback_mark(correct)}: {message}"


def feedback_html(correct: bool | None, message: str) -> str:
    """An exercise checker's verdict as HTML (a symbol and a word, not colour alone)."""
    symbol = {True: "&#10004;", False: "&#10008;", None: "&#9998;"}[correct]
    return f'<p style="font-size:1.1em"><b>{symbol} {_feedback_mark(correct)}:</b> {escape(message)}</p>'


class Table:
    """A small table of already computed values: plain text in a terminal, HTML in a notebook."""

    def __init__(self, header: Sequence[str], rows: Sequence[Sequence[Any]], caption: str = "") -> None:
        self.header = [str(h) for h in header]
        self.rows = [[c if isinstance(c, str) else format_number(c) for c in row] for row in rows]
        self.caption = caption

    def __repr__(self) -> str:
        lines = [self.caption] if self.caption else []
        return "\n".join(lines + _table_text(self.header, self.rows, indent=""))

    def _repr_html_(self) -> str:
        caption = f"<p><b>{escape(self.caption)}</b></p>" if self.caption else ""
        return f'{_STYLE}<div class="bleu-teach">{caption}{_html_table(self.header, self.rows)}</div>'


def precision_table(reports: "dict[str, BleuReport]") -> Table:
    """p_1..p_N of several reports side by side, as exact fractions and decimals."""
    names = list(reports)
    k = max(len(r.orders) for r in reports.values())
    rows = []
    for i in range(k):
        row: list[str] = [f"p_{i + 1}"]
        for name in names:
            orders = reports[name].orders
            row.append(f"{orders[i].clipped}/{orders[i].total} = {float(orders[i].precision):.4f}" if i < len(orders) else "-")
        rows.append(row)
    rows.append(["BP", *[format_number(float(reports[n].brevity_penalty)) for n in names]])
    rows.append(["BLEU", *[format_number(reports[n].score) for n in names]])
    return Table(["", *names], rows)


def _comparison_rows(comparison: "HypothesisComparison") -> list[list[str]]:
    a, b = comparison.a, comparison.b
    rows = []
    for oa, ob in zip(a.orders, b.orders):
        more_a, more_b = comparison.deciding(oa.n)
        rows.append([
            f"p_{oa.n}", f"{oa.clipped}/{oa.total}", f"{ob.clipped}/{ob.total}",
            ", ".join(_join(g) for g in more_a) or "-", ", ".join(_join(g) for g in more_b) or "-",
        ])
    rows.append(["BP", format_number(float(a.brevity_penalty)), format_number(float(b.brevity_penalty)), "", ""])
    rows.append(["BLEU", format_number(a.score), format_number(b.score), "", ""])
    return rows


def _verdict(comparison: "HypothesisComparison") -> str:
    la, lb = comparison.labels
    winner = comparison.winner
    if winner is None:
        return f"{la} and {lb} score the same ({format_number(comparison.a.score)})."
    high, low = (comparison.a, comparison.b) if winner == la else (comparison.b, comparison.a)
    loser = lb if winner == la else la
    return f"{winner} scores higher: {format_number(high.score)} against {format_number(low.score)} for {loser}."


def _comparison_header(comparison: "HypothesisComparison") -> list[str]:
    la, lb = comparison.labels
    return ["", la, lb, f"matched more in {la}", f"matched more in {lb}"]


def comparison_text(comparison: "HypothesisComparison") -> str:
    """Two hypotheses side by side as plain text."""
    la, lb = comparison.labels
    lines = [f"{la}: {_join(comparison.a.hypothesis)}", f"{lb}: {_join(comparison.b.hypothesis)}"]
    lines += [f"Reference {i}: {_join(r)}" for i, r in enumerate(comparison.a.references, start=1)]
    lines += _table_text(_comparison_header(comparison), _comparison_rows(comparison), indent="")
    lines.append(_verdict(comparison))
    return "\n".join(lines)


def comparison_html(comparison: "HypothesisComparison") -> str:
    """Two hypotheses side by side as HTML (all user text escaped)."""
    la, lb = comparison.labels
    out = [_STYLE, '<div class="bleu-teach">']
    for label, report in ((la, comparison.a), (lb, comparison.b)):
        out.append(f"<p><b>{escape(label)}</b> (matched unigrams in bold with &#10003;): "
                   f"{tokens_html(report.hypothesis, report.matched_positions(1))}</p>")
    for i, ref in enumerate(comparison.a.references, start=1):
        out.append(f"<p><b>Reference {i}</b>: {tokens_html(ref)}</p>")
    out.append(_html_table(_comparison_header(comparison), _comparison_rows(comparison)))
    out.append(f'<p class="score">{escape(_verdict(comparison))}</p></div>')
    return "".join(out)


# ---------------------------------------------------------------------------
# sacreBLEU results: settings, significance tests, confidence intervals
# (read through attributes; the types are imported for the type checker only)
# ---------------------------------------------------------------------------


_SETTINGS_HEADER = ["setting", "BLEU", "signature"]
_SIGNIFICANCE_HEADER = ["system", "BLEU", "bootstrap mean ± 95% half-width", "p-value", "verdict"]
_INTERVAL_HEADER = ["score", "bootstrap mean", "95% interval", "resamples", "seed"]


def _plain_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    return "\n".join(_table_text(header, rows, indent=""))


def _boxed_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    return f'{_STYLE}<div class="bleu-teach">{_html_table(header, rows)}</div>'


def settings_scores_rows(result: "SettingsScores") -> list[list[str]]:
    """One row per setting: its label, BLEU (0-100) to 2 decimals, and its signature."""
    return [
        [s.setting, f"{s.score:.2f}",
         s.signature if s.signature is not None else "(none: nobody can tell how it was tokenized)"]
        for s in result.scores
    ]


def settings_scores_text(result: "SettingsScores") -> str:
    """Scores under several settings as a plain-text table."""
    return _plain_table(_SETTINGS_HEADER, settings_scores_rows(result))


def settings_scores_html(result: "SettingsScores") -> str:
    """Scores under several settings as an HTML table (all text escaped)."""
    return _boxed_table(_SETTINGS_HEADER, settings_scores_rows(result))


def significance_rows(result: "SignificanceResults") -> list[list[str]]:
    """One row per system: BLEU, bootstrap interval, p-value and a plain verdict."""
    alpha = result.alpha
    out = []
    for row in result.systems:
        interval = "-" if row.mean is None or row.half_width is None else f"{row.mean:.2f} ± {row.half_width:.2f}"
        if row.p_value is None:
            verdict, p = "baseline", "-"
        elif row.identical_to_baseline:
            p = f"{row.p_value:.4f}"
            verdict = "same output as the baseline (sacreBLEU's p-value means nothing here)"
        elif row.smallest_exact_p is not None and row.smallest_exact_p >= alpha:
            p = f"{row.p_value:.4f}"
            verdict = (f"cannot be significant: only {row.differing} sentence{'s' if row.differing != 1 else ''} "
                       f"differ, so an exact test's smallest p is 2/2^{row.differing} = {row.smallest_exact_p:.4g}; "
                       f"sacreBLEU's p is its floor (ties are not counted)")
        else:
            p = f"{row.p_value:.4f}"
            verdict = (f"differs from the baseline (p < {alpha})" if row.significant(alpha)
                       else f"no significant difference at {alpha}")
        out.append([row.name, f"{row.score:.2f}", interval, p, verdict])
    return out


def significance_text(result: "SignificanceResults") -> str:
    """A paired significance test as a plain-text table."""
    return _plain_table(_SIGNIFICANCE_HEADER, significance_rows(result))


def significance_html(result: "SignificanceResults") -> str:
    """A paired significance test as an HTML table (all text escaped)."""
    return _boxed_table(_SIGNIFICANCE_HEADER, significance_rows(result))


def interval_rows(ci: "ConfidenceInterval") -> list[list[str]]:
    """The score, the bootstrap mean and the 95% interval, to 2 decimals."""
    return [[f"{ci.score:.2f}", f"{ci.mean:.2f}", f"{ci.low:.2f} to {ci.high:.2f}", str(ci.n_samples), str(ci.seed)]]


def interval_text(ci: "ConfidenceInterval") -> str:
    """A bootstrap confidence interval as a plain-text table."""
    return _plain_table(_INTERVAL_HEADER, interval_rows(ci))


def interval_html(ci: "ConfidenceInterval") -> str:
    """A bootstrap confidence interval as an HTML table."""
    return _boxed_table(_INTERVAL_HEADER, interval_rows(ci))


# ---------------------------------------------------------------------------
# Lesson 05: a hypothesis permuted at its bigram mismatches (bleu_teach.lessons.limitations)
# Lesson 06: the bootstrap distribution and the exact randomization test (bleu_teach.lessons.significance)
# (read through attributes; the types are imported for the type checker only)
# ---------------------------------------------------------------------------

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.limitations import ChunkPermutation
    from bleu_teach.lessons.significance import BootstrapDistribution, ExactRandomization, SampledRandomization

__all__ += ["chunk_permutation_rows", "chunk_permutation_text", "chunk_permutation_html", "bootstrap_rows",
            "bootstrap_text", "bootstrap_html", "exact_randomization_rows", "exact_randomization_text",
            "exact_randomization_html", "sampled_randomization_rows", "sampled_randomization_text",
            "sampled_randomization_html"]


def _numbered_chunks(chunks: Sequence[Sequence[Hashable]]) -> list[str]:
    return [f"[{i}] {_join(chunk)}" for i, chunk in enumerate(chunks, start=1)]


def chunk_permutation_rows(result: "ChunkPermutation") -> list[list[str]]:
    """p_n as clipped/total, BP, then BLEU-1 to BLEU-N, for the original and the permuted hypothesis."""
    rows = [[f"p_{a.n}", f"{a.clipped}/{a.total}", f"{b.clipped}/{b.total}"]
            for a, b in zip(result.original.orders, result.permuted_report.orders)]
    rows.append(["BP", format_number(float(result.original.brevity_penalty)),
                 format_number(float(result.permuted_report.brevity_penalty))])
    rows += [[f"BLEU-{k}", format_number(a), format_number(b)]
             for k, (a, b) in enumerate(zip(result.original_scores, result.permuted_scores), start=1)]
    return rows


def _chunk_verdict(result: "ChunkPermutation") -> str:
    if result.new_matches:
        found = ", ".join(_join(b) for b in result.new_matches)
        return (f"A new junction forms a bigram of a reference ({found}): counts of order 2 and up can rise, "
                f"so the scores may differ.")
    same = "the same" if result.same_scores else "NOT the same (please report this)"
    return (f"No new junction forms a bigram of a reference: every count above is unchanged, and BLEU-1 to "
            f"BLEU-{len(result.original_scores)} are {same}.")


_CHUNK_HEADER = ["", "original", "permuted"]


def chunk_permutation_text(result: "ChunkPermutation") -> str:
    """A chunk permutation as plain text: chunks, new order, counts and scores side by side."""
    lines = [f"Reference {i}: {_join(r)}" for i, r in enumerate(result.references, start=1)]
    lines.append("Chunks: " + " | ".join(_numbered_chunks(result.chunks)))
    lines.append(f"Original: {_join(result.hypothesis)}")
    lines.append(f"Order {' '.join(str(i) for i in result.order)}: {_join(result.permuted)}")
    lines += _table_text(_CHUNK_HEADER, chunk_permutation_rows(result), indent="")
    lines.append(f"(smoothing: {result.smoothing}) {_chunk_verdict(result)}")
    return "\n".join(lines)


def chunk_permutation_html(result: "ChunkPermutation") -> str:
    """A chunk permutation as HTML (all user text escaped)."""
    out = [_STYLE, '<div class="bleu-teach">']
    out += [f"<p><b>Reference {i}</b>: {tokens_html(r)}</p>" for i, r in enumerate(result.references, start=1)]
    chunks = " &#124; ".join(escape(c) for c in _numbered_chunks(result.chunks))
    out.append(f"<p><b>Chunks</b> (cut wherever a bigram occurs in no reference): {chunks}</p>")
    out.append(f"<p><b>Original</b>: {tokens_html(result.hypothesis)}</p>")
    out.append(f"<p><b>Order {escape(' '.join(str(i) for i in result.order))}</b>: {tokens_html(result.permuted)}</p>")
    out.append(_html_table(_CHUNK_HEADER, chunk_permutation_rows(result), math_first_column=True))
    out.append(f"<p>(smoothing: {escape(result.smoothing)}) {escape(_chunk_verdict(result))}</p></div>")
    return "".join(out)


_BOOTSTRAP_HEADER = ["", "BLEU (0-100)"]


def bootstrap_rows(dist: "BootstrapDistribution") -> list[list[str]]:
    """The score, the resamples' mean, sacreBLEU's interval and the percentile interval, to 2 decimals."""
    n = len(dist.scores)
    low_rank = dist.rank + 1
    return [
        ["BLEU of the test set", f"{dist.score:.2f}"],
        [f"mean of the {n:,} resampled scores", f"{dist.mean:.2f}"],
        ["sacreBLEU's 95% interval: mean ± half-width", f"{dist.mean:.2f} ± {dist.half_width:.2f} = "
                                                        f"{dist.sacrebleu_low:.2f} to {dist.sacrebleu_high:.2f}"],
        [f"percentile 95% interval: {_ordinal(low_rank)} lowest to {_ordinal(low_rank)} highest resampled score",
         f"{dist.percentile_low:.2f} to {dist.percentile_high:.2f}"],
    ]


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def bootstrap_text(dist: "BootstrapDistribution") -> str:
    """A bootstrap distribution's two intervals as a plain-text table."""
    return _plain_table(_BOOTSTRAP_HEADER, bootstrap_rows(dist))


def bootstrap_html(dist: "BootstrapDistribution") -> str:
    """A bootstrap distribution's two intervals as an HTML table."""
    return _boxed_table(_BOOTSTRAP_HEADER, bootstrap_rows(dist))


def _exact_header(result: "ExactRandomization") -> list[str]:
    a, b = result.names
    return ["sentences swapped", f"BLEU of {a}'", f"BLEU of {b}'", "difference", "at least the observed one?"]


def exact_randomization_rows(result: "ExactRandomization") -> list[list[str]]:
    """One row per swap: which sentences, both pseudo-systems' BLEU, their difference, and whether it counts."""
    return [[", ".join(str(i) for i in swap.swapped) or "none", f"{swap.baseline_score:.2f}",
             f"{swap.system_score:.2f}", f"{swap.difference:.4f}", "yes" if swap.at_least_observed else "no"]
            for swap in result.swaps]


def _exact_summary(result: "ExactRandomization") -> str:
    k, total = len(result.differing), len(result.swaps)
    return (f"{result.names[1]} differs from {result.names[0]} in {k} sentence{'s' if k != 1 else ''} "
            f"({', '.join(str(i) for i in result.differing)}), so there are 2^{k} = {total} distinct swaps. "
            f"Observed difference {result.observed:.4f}; {result.count_at_least} of {total} swaps reach it, "
            f"{result.count_greater} exceed it. Exact p-value = {result.count_at_least}/{total} = {result.p_value:.4f}.")


def exact_randomization_text(result: "ExactRandomization") -> str:
    """Every swap of an exact randomization test as a plain-text table, with the exact p-value."""
    return "\n".join([*_table_text(_exact_header(result), exact_randomization_rows(result), indent=""),
                      _exact_summary(result)])


def exact_randomization_html(result: "ExactRandomization") -> str:
    """Every swap of an exact randomization test as an HTML table, with the exact p-value."""
    return (f'{_STYLE}<div class="bleu-teach">{_html_table(_exact_header(result), exact_randomization_rows(result))}'
            f"<p>{escape(_exact_summary(result))}</p></div>")


_SAMPLED_HEADER = ["trials", "seed", "larger difference", "same difference", "sacreBLEU's p: (larger + 1)/(trials + 1)",
                   "counting ties: (larger + same + 1)/(trials + 1)"]


def sampled_randomization_rows(result: "SampledRandomization") -> list[list[str]]:
    """One row per run: trials, seed, how many trials exceeded or tied the observed difference, both p-values."""
    return [[f"{run.n_samples:,}", str(run.seed), str(run.greater), str(run.ties), f"{run.p_strict:.4f}",
             f"{run.p_at_least:.4f}"] for run in result.runs]


def sampled_randomization_text(result: "SampledRandomization") -> str:
    """sacreBLEU's random swaps, counted both ways, as a plain-text table."""
    return _plain_table(_SAMPLED_HEADER, sampled_randomization_rows(result))


def sampled_randomization_html(result: "SampledRandomization") -> str:
    """sacreBLEU's random swaps, counted both ways, as an HTML table."""
    return _boxed_table(_SAMPLED_HEADER, sampled_randomization_rows(result))


# ---------------------------------------------------------------------------
# NLTK and sacreBLEU side by side, with the reasons they differ (bleu_teach.lessons.tool_comparison)
# ---------------------------------------------------------------------------


def _count_text(value: Any) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:g}"


def _tool_value(value: float, scale: int) -> str:
    return format_number(value) if scale == 1 else f"{value:.2f}"


def _tool_order_cell(order: Any, scale: int) -> str:
    counted = f"{_count_text(order.matches)}/{_count_text(order.total)}"
    if order.used is None:
        return f"{counted}, left out"
    return f"{counted} {'->' if order.smoothed else '='} {_tool_value(order.used, scale)}"


_TOOL_AGREEMENT_HEADER = ["", "NLTK (0-1)", "sacreBLEU (0-100)"]


def tool_agreement_rows(comparison: "ToolComparison") -> list[list[str]]:
    """The two tools' calls, p_n (as counted, then '=' the value used, or '->' when that is not m_n/t_n), BP and
    the scores, with bleu_teach's number on each tool's terms."""
    a, b = comparison.nltk_run, comparison.sacrebleu_run
    rows = [["called as", a.call, b.call]]
    rows += [[f"p_{x.n} = m_{x.n}/t_{x.n}", _tool_order_cell(x, a.scale), _tool_order_cell(y, b.scale)]
             for x, y in zip(a.orders, b.orders)]
    rows.append(["BP", *[f"{format_number(run.brevity_penalty)} (c = {run.hyp_len}, r = {run.ref_len})"
                         for run in (a, b)]])
    rows.append(["score", _tool_value(a.score, a.scale), _tool_value(b.score, b.scale)])
    rows.append(["exact score", repr(a.score), repr(b.score)])
    rows.append(["bleu_teach on the same terms",
                 f"{a.bleu_teach_call}: {a.bleu_teach_score!r} ({'== NLTK' if a.bleu_teach_equal else 'NOT equal to NLTK'})",
                 f"{b.bleu_teach_call}: {b.bleu_teach_score!r} "
                 f"({'within 1e-9 of sacreBLEU' if b.bleu_teach_equal else 'NOT within 1e-9 of sacreBLEU'})"])
    return rows


def _tool_title(comparison: "ToolComparison") -> str:
    n = comparison.max_n
    return (f"NLTK and sacreBLEU on the same tokens: {comparison.level} BLEU-{n} "
            f"(weights 1/{n} each; p_n as counted, then '=' or '->' the value used)")


def _tool_verdict(comparison: "ToolComparison") -> str:
    a, b = comparison.nltk_run, comparison.sacrebleu_run
    if comparison.agree:
        return (f"They agree: sacreBLEU's {_tool_value(b.score, 100)} is 100 times NLTK's "
                f"{_tool_value(a.score, 1)} (up to float rounding).")
    return (f"They differ: NLTK {_tool_value(a.score, 1)}, sacreBLEU {_tool_value(b.score, 100)} "
            f"({format_number(comparison.sacrebleu)} on NLTK's 0-1 scale).")


def tool_agreement_text(comparison: "ToolComparison") -> str:
    """NLTK and sacreBLEU side by side as plain text, with the verdict and the reasons."""
    lines = [_tool_title(comparison)]
    lines += _table_text(_TOOL_AGREEMENT_HEADER, tool_agreement_rows(comparison), indent="")
    lines += ["", _tool_verdict(comparison), "Why:" if not comparison.agree else "Why they agree:"]
    lines += [f"  - {reason}" for reason in comparison.reasons]
    lines.append(f"sacreBLEU's signature: {comparison.sacrebleu_run.signature}")
    return "\n".join(lines)


def tool_agreement_html(comparison: "ToolComparison") -> str:
    """NLTK and sacreBLEU side by side as HTML (all text escaped), with the verdict and the reasons."""
    reasons = "".join(f"<li>{_math_html(reason)}</li>" for reason in comparison.reasons)
    return (
        f'{_STYLE}<div class="bleu-teach"><p>{_math_html(_tool_title(comparison))}</p>'
        f"{_html_table(_TOOL_AGREEMENT_HEADER, tool_agreement_rows(comparison), math_first_column=True)}"
        f"<p><b>{escape(_tool_verdict(comparison))}</b></p>"
        f"<p>{'Why:' if not comparison.agree else 'Why they agree:'}</p><ul>{reasons}</ul>"
        f"<p>sacreBLEU's signature: <code>{escape(comparison.sacrebleu_run.signature)}</code></p></div>"
    )


# ---------------------------------------------------------------------------
# The precisions each smoothing method uses, side by side (lesson 04)
# ---------------------------------------------------------------------------


def smoothing_table(reports: "dict[str, BleuReport]") -> Table:
    """p_n as counted, then as each report's smoothing used it; * marks a precision WITH matches that changed.

    The reports are of the same hypothesis and references under different
    smoothing methods (the first one's counts head the table).
    """
    names = list(reports)
    first = reports[names[0]]
    rows = []
    for i, order in enumerate(first.orders):
        row = [f"p_{order.n}", f"{order.clipped}/{order.total}"]
        for name in names:
            o = reports[name].orders[i]
            changed = not o.is_zero and o.smoothed != o.precision
            row.append(format_number(float(o.smoothed)) + (" *" if changed else ""))
        rows.append(row)
    rows.append(["BP", "", *[format_number(float(reports[n].brevity_penalty)) for n in names]])
    rows.append(["BLEU", "", *[format_number(reports[n].score) for n in names]])
    return Table(["", "as counted", *names], rows,
                 caption="p_n used by each smoothing method (* = a precision with matches that the method changed)")


__all__ += ["tool_agreement_rows", "tool_agreement_text", "tool_agreement_html", "smoothing_table"]


# ---------------------------------------------------------------------------
# chrF and chrF++ (bleu_teach.chrf.reports): the sentence report and the corpus score
# (read through attributes; the types are imported for the type checker only)
# ---------------------------------------------------------------------------

__all__ += ["chrf_ngram_rows", "chrf_order_rows", "chrf_reference_rows", "chrf_score_lines", "chrf_report_text",
            "chrf_report_html", "chrf_segment_rows", "chrf_corpus_text", "chrf_corpus_html"]

_VISIBLE = {" ": "\u2423", "\t": "\u21e5", "\n": "\u21b5", "\r": "\u240d"}


def _visible(text: str, keep_spaces: bool = False) -> str:
    """Whitespace and control characters made visible, so that a table cell stays on one line."""
    out = []
    for ch in text:
        if ch == " " and keep_spaces:
            out.append(ch)
        elif ch in _VISIBLE:
            out.append(_VISIBLE[ch])
        elif ch.isspace() or not ch.isprintable():
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def _chrf_value(value: float, is_eps: bool) -> str:
    return "1e-16 (eps)" if is_eps else format_number(value)


_CHRF_NGRAM_HEADER = ["n-gram", "hyp", "ref", "matched"]


def chrf_ngram_rows(rows: Sequence["ChrfNgramRow"]) -> list[list[str]]:
    """One row per distinct n-gram (hypothesis ones first, then those only in the reference)."""
    return [[_visible(r.ngram), str(r.hyp_count), str(r.ref_count), str(r.matched)] for r in rows]


def _chrf_order_header(result: "ChrfResult") -> list[str]:
    return ["order", "matched", "hyp", "ref", "P_n", "R_n", f"F{result.beta}_n", "in the averages"]


def chrf_order_rows(result: "ChrfResult") -> list[list[str]]:
    """One row per order: matched, hypothesis and reference totals, P_n, R_n, F_n, whether it is averaged."""
    rows = []
    for o in result.orders:
        hyp = str(o.hyp_total) + (f" (of {o.hyp_ngrams})" if o.counts.hyp_left_out else "")
        rows.append([o.label, str(o.matches), hyp, str(o.ref_total), _chrf_value(o.precision, o.precision_is_eps),
                     _chrf_value(o.recall, o.recall_is_eps), _chrf_value(o.f_score, o.f_is_eps),
                     "yes" if o.in_average else "no"])
    return rows


def _chrf_order_line(o: "ChrfOrder", beta: float) -> str:
    """P_n, R_n and F_n of one order, with the counts they come from."""
    if o.precision_is_eps:
        p = ("P_n = 1e-16 (eps): " + (f"the reference has no {o.label}, so the hypothesis's {o.hyp_ngrams} count as 0"
                                      if o.counts.hyp_left_out else f"the hypothesis has no {o.label}"))
    else:
        p = f"P_n = {o.matches}/{o.hyp_total} = {format_number(o.precision)}"
    r = (f"R_n = 1e-16 (eps): the reference has no {o.label}" if o.recall_is_eps
         else f"R_n = {o.matches}/{o.ref_total} = {format_number(o.recall)}")
    f = f"F{beta}_n = " + ("1e-16 (eps: P_n and R_n are both 0)" if o.f_is_eps else format_number(o.f_score))
    return f"{p}; {r}; {f}"


def chrf_score_lines(result: "ChrfResult", name: str) -> list[str]:
    """How the orders become the score, one step a line; the last line is the score."""
    k, total = result.effective_order, len(result.orders)
    b2 = f"{result.beta_squared:g}"
    if result.eps_smoothing:
        return [f"eps_smoothing: mean of F{result.beta}_n over all {total} orders",
                f"sum of F{result.beta}_n = {format_number(result.f_sum)}",
                f"{name} = 100 * {format_number(result.f_sum)} / {total} = {result.score:.4f}"]
    if k == 0:
        return ["no order has n-grams in both the hypothesis and the reference: P = R = 0",
                f"{name} = 0"]
    lines = [f"P = mean of P_n = {format_number(result.avg_precision)}, R = mean of R_n = "
             f"{format_number(result.avg_recall)} (over the {k} of {total} orders with n-grams on both sides)"]
    if not result.avg_precision + result.avg_recall:
        return lines + [f"P + R = 0 (no match at any order), so {name} = 0"]
    return lines + [f"{name} = 100 * (1 + {b2}) * P * R / ({b2} * P + R) = {result.score:.4f}"]


def chrf_reference_rows(report: "ChrfReport") -> list[list[str]]:
    """One row per reference: its number, its text, the chrF against it alone, and whether it is kept."""
    return [[str(c.index + 1), _visible(c.reference, keep_spaces=True), f"{c.score:.4f}", "kept" if i == report.chosen else ""]
            for i, c in enumerate(report.candidates)]


def _chrf_reference_header(report: "ChrfReport") -> list[str]:
    return ["reference", "text", report.name, ""]


def _chrf_text_lines(report: "ChrfReport") -> list[tuple[str, str]]:
    """(label, text) lines for the texts compared and what their n-grams read."""
    settings = report.settings

    def block(label: str, text: str, compared: str, characters: str, words: Sequence[str]) -> list[tuple[str, str]]:
        lines = [(label, _visible(text, keep_spaces=True))]
        if settings.lowercase:
            lines.append(("  lowercased", _visible(compared, keep_spaces=True)))
        if settings.char_order:
            lines.append((f"  characters ({len(characters)})", _visible(characters)))
        if settings.word_order:
            lines.append((f"  words ({len(words)})", " | ".join(words)))
        return lines

    lines = block("Hypothesis", report.hypothesis, report.compared, report.characters, report.words)
    for c in report.candidates:
        lines += block(f"Reference {c.index + 1}", c.reference, c.compared, c.characters, c.words)
    return lines


def _chrf_title(report: "ChrfReport | ChrfCorpusScore", what: str) -> str:
    return f"{report.name} ({what}), step by step, as sacreBLEU computes it"


def chrf_report_text(report: "ChrfReport", ngram_tables: bool = True) -> str:
    """A chrF sentence report as plain text (``ngram_tables=False``: without the n-gram tables)."""
    result = report.result
    kept = report.best.index + 1
    lines = [_chrf_title(report, "one sentence"), f"Settings: {report.settings.description}", ""]
    lines += [f"{label}: {text}" for label, text in _chrf_text_lines(report)]
    lines += ["", f"Reference used: {kept} ({report.reason})"]
    if len(report.candidates) > 1:
        lines += _table_text(_chrf_reference_header(report), chrf_reference_rows(report))
    if ngram_tables:
        for o in result.orders:
            lines += ["", f"{o.label} (hypothesis against reference {kept})"]
            if o.rows:
                lines += _table_text(_CHRF_NGRAM_HEADER, chrf_ngram_rows(o.rows))
            else:
                lines.append("  (none on either side)")
            lines.append("  " + _chrf_order_line(o, result.beta))
    lines += ["", f"Every order (against reference {kept})"]
    lines += _table_text(_chrf_order_header(result), chrf_order_rows(result))
    *steps, score = chrf_score_lines(result, report.name)
    lines += [""] + steps + [f"{score}  (exact value {report.score!r})"]
    if report.notes:
        lines += ["", "Notes"] + [f"  - {n}" for n in report.notes]
    return "\n".join(lines)


def chrf_report_html(report: "ChrfReport") -> str:
    """A chrF sentence report as an HTML fragment (all user text escaped); n-gram tables fold away."""
    result = report.result
    kept = report.best.index + 1
    *steps, score = chrf_score_lines(result, report.name)
    out = [_STYLE, '<div class="bleu-teach">', f"<h4>{escape(_chrf_title(report, 'one sentence'))}</h4>",
           f"<p>Settings: {escape(report.settings.description)}</p><p>"]
    out.append("<br>".join(f"<b>{escape(label)}</b>: {escape(text)}" for label, text in _chrf_text_lines(report)))
    out.append(f"</p><p>Reference used: {kept} ({escape(report.reason)})</p>")
    if len(report.candidates) > 1:
        out.append(_html_table(_chrf_reference_header(report), chrf_reference_rows(report)))
    for o in result.orders:
        out.append(f"<details><summary>{escape(o.label)}: {escape(_chrf_order_line(o, result.beta))}</summary>")
        out.append(_html_table(_CHRF_NGRAM_HEADER, chrf_ngram_rows(o.rows)) if o.rows
                   else "<p>(none on either side)</p>")
        out.append("</details>")
    out.append(f"<h4>Every order (against reference {kept})</h4>")
    out.append(_html_table(_chrf_order_header(result), chrf_order_rows(result)))
    out += [f"<p>{escape(line)}</p>" for line in steps]
    out.append(f'<p class="score" data-score="{report.score!r}">{escape(score)}</p>')
    if report.notes:
        out.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in report.notes) + "</ul>")
    out.append("</div>")
    return "".join(out)


def _chrf_order_key(label: str) -> str:
    kind, rest = label.split(" ", 1)
    return f"{kind[0]}{rest.split('-')[0]}"


def chrf_segment_rows(corpus: "ChrfCorpusScore", max_segments: int = 20) -> list[list[str]]:
    """One row per segment (the first ``max_segments``): kept reference, segment chrF, matched/hyp/ref per order;
    then the corpus sums."""
    rows = []
    for s in corpus.segments[:max_segments]:
        rows.append([str(s.index + 1), f"{s.chosen + 1} of {s.n_references}", f"{s.score:.4f}",
                     *[f"{o.matches}/{o.hyp_total}/{o.ref_total}" for o in s.counts]])
    hidden = len(corpus.segments) - max_segments
    if hidden > 0:
        rows.append([f"... {hidden} more", "", "", *["" for _ in corpus.totals]])
    rows.append(["corpus (summed)", "", f"{corpus.score:.4f}",
                 *[f"{o.matches}/{o.hyp_total}/{o.ref_total}" for o in corpus.totals]])
    return rows


def _chrf_segment_header(corpus: "ChrfCorpusScore") -> list[str]:
    return ["segment", "reference kept", corpus.name, *[_chrf_order_key(o.label) for o in corpus.totals]]


_CHRF_SEGMENT_KEY = ("c3 = character 3-grams, w1 = word 1-grams, and so on, as matched/hypothesis/reference "
                     "n-grams against the reference kept")


def chrf_corpus_text(corpus: "ChrfCorpusScore", max_segments: int = 20) -> str:
    """Corpus chrF as plain text: segments, summed counts, the arithmetic on the sums."""
    lines = [_chrf_title(corpus, "a corpus"), f"Settings: {corpus.settings.description}", "", _CHRF_SEGMENT_KEY]
    lines += _table_text(_chrf_segment_header(corpus), chrf_segment_rows(corpus, max_segments))
    lines += ["", "Every order (summed over the corpus)"]
    lines += _table_text(_chrf_order_header(corpus.result), chrf_order_rows(corpus.result))
    *steps, score = chrf_score_lines(corpus.result, corpus.name)
    lines += [""] + steps + [f"{score}  (exact value {corpus.score!r})",
                             f"for contrast, the mean of the segment scores is {corpus.mean_segment_score:.4f}"]
    if corpus.notes:
        lines += ["", "Notes"] + [f"  - {n}" for n in corpus.notes]
    return "\n".join(lines)


def chrf_corpus_html(corpus: "ChrfCorpusScore", max_segments: int = 20) -> str:
    """Corpus chrF as an HTML fragment (all text escaped)."""
    *steps, score = chrf_score_lines(corpus.result, corpus.name)
    out = [_STYLE, '<div class="bleu-teach">', f"<h4>{escape(_chrf_title(corpus, 'a corpus'))}</h4>",
           f"<p>Settings: {escape(corpus.settings.description)}</p>", f"<p>{escape(_CHRF_SEGMENT_KEY)}</p>",
           _html_table(_chrf_segment_header(corpus), chrf_segment_rows(corpus, max_segments)),
           "<h4>Every order (summed over the corpus)</h4>",
           _html_table(_chrf_order_header(corpus.result), chrf_order_rows(corpus.result))]
    out += [f"<p>{escape(line)}</p>" for line in steps]
    out.append(f'<p class="score" data-score="{corpus.score!r}">{escape(score)}</p>')
    out.append(f"<p>for contrast, the mean of the segment scores is {corpus.mean_segment_score:.4f}</p>")
    if corpus.notes:
        out.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in corpus.notes) + "</ul>")
    out.append("</div>")
    return "".join(out)


# ---------------------------------------------------------------------------
# Metric-human agreement on WMT21 TED (bleu_teach.lessons.agreement)
# (read through attributes; the types are imported for the type checker only)
# ---------------------------------------------------------------------------

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.agreement import Correlations, SegmentTable, SystemTable

__all__ += ["system_table_rows", "system_table_text", "system_table_html", "correlations_rows", "correlations_text",
            "correlations_html", "segment_table_rows", "segment_table_text", "segment_table_html"]


def _against(pair: str, references: Sequence[str]) -> str:
    return f"{pair}, against {' and '.join(references)}"


def _metric_label(metric: str) -> str:
    return f"{metric} (lower is better)" if metric == "TER" else metric


def _system_table_header(table: "SystemTable") -> list[str]:
    return ["system", *[_metric_label(m) for m in table.metrics], "MQM (mean per segment)"]


def system_table_rows(table: "SystemTable") -> list[list[str]]:
    """One row per system (references scored as systems marked), corpus scores to 2 decimals, MQM to 3."""
    return [[f"{row.name} (human reference)" if row.is_reference else row.name,
             *[f"{s:.2f}" for s in row.scores], f"{row.mqm:.3f}"] for row in table.rows]


def _system_table_lines(table: "SystemTable") -> list[str]:
    return [f"System-level scores, {_against(table.pair, table.references_used)} ({table.segments} segments)",
            "MQM = mean of the per-segment MQM scores (negated error points: 0 = no error, higher is better)"]


def system_table_text(table: "SystemTable") -> str:
    """System-level metric and MQM scores as a plain-text table."""
    return "\n".join(_system_table_lines(table)) + "\n" + _plain_table(_system_table_header(table),
                                                                        system_table_rows(table))


def system_table_html(table: "SystemTable") -> str:
    """System-level metric and MQM scores as an HTML table (all text escaped)."""
    title, note = _system_table_lines(table)
    return (f'{_STYLE}<div class="bleu-teach"><h4>{escape(title)}</h4><p>{escape(note)}</p>'
            f"{_html_table(_system_table_header(table), system_table_rows(table))}</div>")


_CORRELATIONS_HEADER = ["metric", "Pearson r", "p-value", "Kendall tau-b", "p-value", "n"]


def _p_value(p: float) -> str:
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}"


def correlations_rows(result: "Correlations") -> list[list[str]]:
    """One row per metric: Pearson r and Kendall tau-b with MQM (4 decimals), their p-values, and n."""
    return [[f"-{c.metric} (negated)" if c.negated else c.metric, f"{c.pearson:.4f}", _p_value(c.pearson_p),
             f"{c.kendall:.4f}", _p_value(c.kendall_p), str(c.n)] for c in result.rows]


def _correlations_lines(result: "Correlations") -> list[str]:
    lines = [f"{result.level.capitalize()}-level correlation with MQM, {result.pair}, "
             f"against {'both references' if result.reference == 'both' else result.reference}"]
    if result.included:
        lines.append(f"rows include the human reference{'s' if len(result.included) > 1 else ''} "
                     f"{', '.join(result.included)} scored as a system")
    if any(c.negated for c in result.rows):
        lines.append("TER is lower-is-better, so minus TER is correlated: higher always means better agreement")
    return lines


def correlations_text(result: "Correlations") -> str:
    """Metric-MQM correlations as a plain-text table."""
    return "\n".join(_correlations_lines(result)) + "\n" + _plain_table(_CORRELATIONS_HEADER,
                                                                         correlations_rows(result))


def correlations_html(result: "Correlations") -> str:
    """Metric-MQM correlations as an HTML table (all text escaped)."""
    title, *notes = _correlations_lines(result)
    return (f'{_STYLE}<div class="bleu-teach"><h4>{escape(title)}</h4>'
            + "".join(f"<p>{escape(n)}</p>" for n in notes)
            + f"{_html_table(_CORRELATIONS_HEADER, correlations_rows(result))}</div>")


def segment_table_rows(table: "SegmentTable", max_rows: int = 10) -> list[list[str]]:
    """The first ``max_rows`` (system, segment) rows: sentence scores to 2 decimals, MQM to 1; then how many more."""
    rows = [[row.system, str(row.segment), *[f"{s:.2f}" for s in row.scores], f"{row.mqm:.1f}"]
            for row in table.rows[:max_rows]]
    hidden = len(table.rows) - max_rows
    if hidden > 0:
        rows.append([f"... {hidden} more", "", *["" for _ in table.metrics], ""])
    return rows


def _segment_table_header(table: "SegmentTable") -> list[str]:
    return ["system", "segment", *[f"sentence {m}" for m in table.metrics], "MQM"]


def _segment_table_lines(table: "SegmentTable") -> list[str]:
    lines = [f"Segment-level scores, {_against(table.pair, table.references_used)}: "
             f"{len(table.rows)} (system, segment) pairs from {len(table.systems)} systems"]
    if table.unrated:
        lines.append(f"{table.unrated} pairs without an MQM score left out")
    return lines


def segment_table_text(table: "SegmentTable", max_rows: int = 10) -> str:
    """Segment-level sentence scores and MQM as a plain-text table (the first ``max_rows`` rows)."""
    return "\n".join(_segment_table_lines(table)) + "\n" + _plain_table(_segment_table_header(table),
                                                                         segment_table_rows(table, max_rows))


def segment_table_html(table: "SegmentTable", max_rows: int = 10) -> str:
    """Segment-level sentence scores and MQM as an HTML table (all text escaped)."""
    title, *notes = _segment_table_lines(table)
    return (f'{_STYLE}<div class="bleu-teach"><h4>{escape(title)}</h4>'
            + "".join(f"<p>{escape(n)}</p>" for n in notes)
            + f"{_html_table(_segment_table_header(table), segment_table_rows(table, max_rows))}</div>")


# ---------------------------------------------------------------------------
# Expert judgements: one segment's MQM errors, and where a metric disagrees
# ---------------------------------------------------------------------------

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.agreement import Disagreement, MqmSegment
    from bleu_teach.lessons.data import ErrorSpan

__all__ += ["error_span_rows", "highlighted_html", "mqm_segment_text", "mqm_segment_html", "disagreement_text",
            "disagreement_html"]

#: How each severity is marked: a CSS class, and a background that is not the only cue (spans also carry [k]).
_SEVERITY_CLASS = {"Major": "major", "Minor": "minor"}

_MQM_STYLE = (
    "<style>.bleu-teach mark{padding:0 1px;border-bottom:2px solid #555}"
    ".bleu-teach mark.major{background:#f4b6b6}.bleu-teach mark.minor{background:#fbe7a1}"
    ".bleu-teach mark.other{background:#ddd}.bleu-teach sup.err{font-size:0.7em;font-weight:bold}"
    ".bleu-teach .segtext{text-align:left;line-height:1.7}</style>"
)


def _span_class(span: "ErrorSpan") -> str:
    if span.category.startswith("Non-translation"):
        return "major"
    return _SEVERITY_CLASS.get(span.severity, "other")


def _weight(value: float) -> str:
    return f"{value:g}"


def error_span_rows(spans: Sequence["ErrorSpan"]) -> list[list[str]]:
    """One row per error: its number, category, severity, weight (error points), where it was marked, the text."""
    return [[f"[{k}]", span.category, span.severity, _weight(span.weight), span.side,
             span.text if span.side != "none" else "(no span marked)"]
            for k, span in enumerate(spans, start=1)]


def highlighted_html(text: str, spans: Sequence[tuple[int, "ErrorSpan"]]) -> str:
    """``text`` escaped, each (number, span) marked: ``<mark>`` by severity plus a [number] after the span.

    Overlapping spans are split at every boundary; a piece covered by several
    spans takes the most severe one's colour and lists all of them in its title.
    """
    cuts = sorted({0, len(text), *[p for _, s in spans for p in (s.start, s.end) if 0 <= p <= len(text)]})
    ends: dict[int, list[int]] = {}
    for k, span in spans:
        ends.setdefault(min(span.end, len(text)), []).append(k)
    out = []
    for a, b in zip(cuts, cuts[1:]):
        piece = escape(text[a:b])
        covering = [(k, s) for k, s in spans if s.start <= a and b <= s.end and s.start < s.end]
        if covering:
            rank = {"major": 0, "minor": 1, "other": 2}
            worst = min((_span_class(s) for _, s in covering), key=lambda c: rank[c])
            title = "; ".join(f"[{k}] {s.severity} {s.category}" for k, s in covering)
            piece = f'<mark class="{worst}" title="{escape(title)}">{piece}</mark>'
        out.append(piece)
        for k in sorted(ends.get(b, [])):
            out.append(f'<sup class="err">[{k}]</sup>')
    return "".join(out)


def _mqm_sum_line(segment: "MqmSegment") -> str:
    weights = [s.weight for s in segment.errors]
    if not weights:
        return f"MQM score {_weight(segment.mqm)}: the rater ({segment.rater}) marked no error."
    terms = " + ".join(_weight(w) for w in weights)
    return (f"MQM score {_weight(segment.mqm)} = minus the error points ({terms}), "
            f"rater {segment.rater}.")


def _mqm_segment_title(segment: "MqmSegment") -> str:
    return (f"{segment.pair} segment {segment.segment} (release seg_id {segment.seg_id}), "
            f"translated by {segment.name}")


def mqm_segment_text(segment: "MqmSegment") -> str:
    """One translation with its experts' errors, as plain text."""
    lines = [_mqm_segment_title(segment), f"source: {segment.source}"]
    if segment.reference is not None:
        lines.append(f"{segment.reference_name}: {segment.reference}")
    lines += [f"translation: {segment.translation}", _mqm_sum_line(segment)]
    if segment.errors:
        lines.append(_plain_table(["", "category", "severity", "weight", "marked in", "text"],
                                  error_span_rows(segment.errors)))
    return "\n".join(lines)


def mqm_segment_html(segment: "MqmSegment") -> str:
    """One translation with its experts' errors highlighted in the text (and in the source, where marked there)."""
    numbered = list(enumerate(segment.errors, start=1))
    target = [(k, s) for k, s in numbered if s.side == "target"]
    source = [(k, s) for k, s in numbered if s.side == "source"]
    parts = [_STYLE, _MQM_STYLE, '<div class="bleu-teach">', f"<h4>{escape(_mqm_segment_title(segment))}</h4>",
             f'<p class="segtext"><b>Source</b>: {highlighted_html(segment.source, source)}</p>']
    if segment.reference is not None:
        parts.append(f'<p class="segtext"><b>{escape(segment.reference_name)}</b>: {escape(segment.reference)}</p>')
    parts.append(f'<p class="segtext"><b>Translation</b>: {highlighted_html(segment.translation, target)}</p>')
    parts.append(f'<p><span class="score" data-mqm="{segment.mqm!r}">{escape(_mqm_sum_line(segment))}</span></p>')
    if segment.errors:
        parts.append(_html_table(["", "category", "severity", "weight", "marked in", "text"],
                                 error_span_rows(segment.errors)))
        parts.append("<p>Marked errors: major in red, minor in yellow, each followed by its number.</p>")
    parts.append("</div>")
    return "".join(parts)


def disagreement_text(d: "Disagreement") -> str:
    """One line: the metric's and the experts' scores and percentiles, and the gap between them."""
    return (f"{d.system}, segment {d.segment}: sentence {d.metric} {d.score:.2f} "
            f"(percentile {d.metric_percentile:.1f}), MQM {_weight(d.mqm)} (percentile {d.mqm_percentile:.1f}), "
            f"gap {d.gap:+.1f}")


def disagreement_html(d: "Disagreement", segment: "MqmSegment", metric_report: str) -> str:
    """The explorer's view of one disagreement: the gap, the segment with its errors, the metric's report.

    ``metric_report`` is the HTML of the metric's own report for this
    sentence (a view made here, passed in by the caller).
    """
    how = ("sentence BLEU = 100 \u00d7 the score below: sacreBLEU's sentence_bleu (13a tokens, exp smoothing "
           "= NLTK's method 3, effective order = auto_reweigh)" if d.metric == "BLEU"
           else "sentence chrF, step by step (sacreBLEU's sentence_chrf)")
    return "".join([f"<p><b>{escape(disagreement_text(d))}</b></p>", mqm_segment_html(segment),
                    f"<h4>Sentence {escape(d.metric)}</h4><p>{escape(how)}</p>", metric_report])
