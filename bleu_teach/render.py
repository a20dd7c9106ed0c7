"""Plain-text and HTML views of the reports in :mod:`bleu_teach.explain`.

Nothing here computes BLEU: every number comes from a report.  Every piece
of user text (tokens, n-grams) is escaped before it goes into HTML.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.explain import BleuReport, CorpusReport, HypothesisComparison, OrderReport

__all__ = ["report_text", "report_html", "corpus_text", "corpus_html", "comparison_text", "comparison_html",
           "format_number", "tokens_html"]


def format_number(value: Any, digits: int = 4) -> str:
    """A number as a learner reads it: fractions as a/b, floats rounded."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if hasattr(value, "numerator") and hasattr(value, "denominator") and not isinstance(value, float):
        return f"{value.numerator}/{value.denominator}"
    number = float(value)
    if number != 0 and abs(number) < 10 ** (-digits):
        return f"{number:.3g}"
    return f"{number:.{digits}f}"


def _join(tokens: Iterable[Hashable]) -> str:
    return " ".join(str(t) for t in tokens)


def _bp_text(report: "BleuReport") -> str:
    c, r = report.length.hyp_len, report.length.closest_ref_len
    bp = report.length.brevity_penalty
    if c == 0:
        return "BP = 0 (empty hypothesis)"
    if c > r:
        return f"c = {c} > r = {r}, so BP = 1"
    return f"c = {c} <= r = {r}, so BP = exp(1 - r/c) = exp(1 - {r}/{c}) = {format_number(bp)}"


def _table_text(header: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = []
    for row in [header, *rows]:
        cells = [str(cell).ljust(w) if i == 0 else str(cell).rjust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        lines.append(indent + "  ".join(cells).rstrip())
    return lines


def _order_rows(order: "OrderReport") -> list[list[str]]:
    return [
        [row.text, str(row.hyp_count), *map(str, row.ref_counts), str(row.max_ref_count), str(row.clipped_count)]
        for row in order.rows
    ]


def report_text(report: "BleuReport") -> str:
    """The report as plain text for a terminal."""
    lines = ["BLEU, step by step", ""]
    lines.append(f"Hypothesis ({len(report.hypothesis)} tokens): {_join(report.hypothesis)}")
    for i, ref in enumerate(report.references, start=1):
        lines.append(f"Reference {i} ({len(ref)} tokens): {_join(ref)}")
    ref_names = [f"ref{i}" for i in range(1, len(report.references) + 1)]
    for order in report.orders:
        lines += ["", f"{order.n}-grams: modified precision p_{order.n}"]
        if order.rows:
            lines += _table_text(["n-gram", "hyp", *ref_names, "max ref", "clipped"], _order_rows(order))
        else:
            lines.append(f"  (the hypothesis has no {order.n}-grams)")
        lines.append(
            f"  p_{order.n} = clipped / hypothesis {order.n}-grams = {order.clipped}/{order.total}"
            + (f" = {float(order.precision):.4f}" if order.total else " (counted as 0/1)")
        )
    length = report.length
    lines += [
        "",
        "Brevity penalty",
        f"  hypothesis length c = {length.hyp_len}; reference lengths {', '.join(map(str, length.ref_lens))}",
        f"  closest reference length r = {length.closest_ref_len} ({length.reason})",
        f"  {_bp_text(report)}",
        "",
        f"Combining (smoothing: {report.smoothing})",
    ]
    rows = [
        [f"p_{o.n}", format_number(o.weight), format_number(o.smoothed), format_number(o.log_term)]
        for o in report.orders
    ]
    lines += _table_text(["order", "weight w_n", "p_n used", "w_n * log p_n"], rows)
    if report.log_sum is not None:
        lines.append(f"  sum of log terms = {format_number(report.log_sum)}")
    lines += [
        "",
        f"BLEU = BP * exp(sum) = {format_number(report.score)}  (exact value {report.score!r})",
    ]
    if report.notes:
        lines += ["", "Notes"] + [f"  - {note}" for note in report.notes]
    return "\n".join(lines)


_STYLE = (
    "<style>.bleu-teach table{border-collapse:collapse;margin:0.3em 0 0.8em 0}"
    ".bleu-teach th,.bleu-teach td{border:1px solid #999;padding:2px 8px;text-align:right}"
    ".bleu-teach td.gram,.bleu-teach th.gram{text-align:left}"
    ".bleu-teach .match{font-weight:bold;text-decoration:underline}"
    ".bleu-teach .score{font-size:1.3em;font-weight:bold}</style>"
)


def tokens_html(tokens: Sequence[Hashable], marks: Sequence[bool] | None = None) -> str:
    """Tokens as escaped HTML; marked ones are bold, underlined and ticked (not colour alone)."""
    parts = []
    for i, token in enumerate(tokens):
        text = escape(str(token))
        if marks is not None and marks[i]:
            parts.append(f'<span class="match" title="matched">{text}&#10003;</span>')
        else:
            parts.append(f"<span>{text}</span>")
    return " ".join(parts)


def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(
        f'<th class="gram">{escape(h)}</th>' if i == 0 else f"<th>{escape(h)}</th>" for i, h in enumerate(header)
    )
    body = "".join(
        "<tr>"
        + "".join(f'<td class="gram">{escape(c)}</td>' if i == 0 else f"<td>{escape(c)}</td>" for i, c in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def report_html(report: "BleuReport") -> str:
    """The report as an HTML fragment for a notebook (all user text escaped)."""
    marks = report.matched_positions(1) if report.orders else None
    out = [_STYLE, '<div class="bleu-teach">']
    out.append(
        f'<p><b>Hypothesis</b> ({len(report.hypothesis)} tokens; '
        f'matched unigrams in bold with &#10003;): {tokens_html(report.hypothesis, marks)}</p>'
    )
    for i, ref in enumerate(report.references, start=1):
        out.append(f"<p><b>Reference {i}</b> ({len(ref)} tokens): {tokens_html(ref)}</p>")
    ref_names = [f"ref{i}" for i in range(1, len(report.references) + 1)]
    for order in report.orders:
        out.append(f"<h4>{order.n}-grams: p<sub>{order.n}</sub> = {order.clipped}/{order.total}"
                   + (f" = {float(order.precision):.4f}" if order.total else " (counted as 0/1)") + "</h4>")
        if order.rows:
            out.append(_html_table(["n-gram", "hyp", *ref_names, "max ref", "clipped"], _order_rows(order)))
        else:
            out.append(f"<p>The hypothesis has no {order.n}-grams.</p>")
    length = report.length
    out.append("<h4>Brevity penalty</h4>")
    out.append(
        f"<p>hypothesis length c = {length.hyp_len}; reference lengths "
        f"{escape(', '.join(map(str, length.ref_lens)))}; closest r = {length.closest_ref_len} "
        f"({escape(length.reason)}).<br>{escape(_bp_text(report))}</p>"
    )
    out.append(f"<h4>Combining (smoothing: {escape(report.smoothing)})</h4>")
    rows = [
        [f"p_{o.n}", format_number(o.weight), format_number(o.smoothed), format_number(o.log_term)]
        for o in report.orders
    ]
    out.append(_html_table(["order", "weight", "p_n used", "w_n * log p_n"], rows))
    out.append(f'<p class="score">BLEU = {format_number(report.score)}</p>')
    if report.notes:
        out.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in report.notes) + "</ul>")
    out.append("</div>")
    return "".join(out)


def _corpus_rows(report: "CorpusReport") -> tuple[list[str], list[list[str]]]:
    k = len(report.weights)
    header = ["sentence", "c", "r", *[f"m{n}/t{n}" for n in range(1, k + 1)], "BP", "BLEU"]
    rows = [
        [str(s.index + 1), str(s.hyp_len), str(s.closest_ref_len),
         *[f"{m}/{t}" for m, t in zip(s.clipped, s.totals)], format_number(s.brevity_penalty),
         format_number(s.sentence_score)]
        for s in report.sentences
    ]
    rows.append(["corpus (pooled)", str(report.hyp_len), str(report.ref_len),
                 *[f"{m}/{t}" for m, t in zip(report.clipped, report.totals)], format_number(report.brevity_penalty),
                 format_number(report.score)])
    return header, rows


def corpus_text(report: "CorpusReport") -> str:
    """A corpus report as plain text."""
    header, rows = _corpus_rows(report)
    lines = ["Corpus BLEU, step by step", "", "m_n = clipped n-gram matches, t_n = hypothesis n-grams"]
    lines += _table_text(header, rows)
    lines += [
        "",
        f"BP = {format_number(report.brevity_penalty)} (c = {report.hyp_len}, r = {report.ref_len})",
        f"corpus BLEU = {format_number(report.score)}; mean of sentence BLEU = {format_number(report.mean_sentence_score)}",
    ]
    if report.notes:
        lines += ["", "Notes"] + [f"  - {n}" for n in report.notes]
    return "\n".join(lines)


def corpus_html(report: "CorpusReport") -> str:
    """A corpus report as an HTML fragment."""
    header, rows = _corpus_rows(report)
    notes = "".join(f"<li>{escape(n)}</li>" for n in report.notes)
    return (
        f'{_STYLE}<div class="bleu-teach"><p>m<sub>n</sub> = clipped matches, t<sub>n</sub> = hypothesis n-grams</p>'
        f"{_html_table(header, rows)}"
        f"<p>BP = {format_number(report.brevity_penalty)} (c = {report.hyp_len}, r = {report.ref_len})</p>"
        f'<p class="score">corpus BLEU = {format_number(report.score)}; mean of sentence BLEU = '
        f"{format_number(report.mean_sentence_score)}</p>"
        + (f"<ul>{notes}</ul>" if notes else "")
        + "</div>"
    )


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
    marks = report.matched_positions(n)
    ref_names = [f"ref{i}" for i in range(1, len(report.references) + 1)]
    parts = [_STYLE, '<div class="bleu-teach">']
    parts.append(f"<p><b>Hypothesis</b> (tokens inside a clipped {n}-gram match in bold with &#10003;): "
                 f"{tokens_html(report.hypothesis, marks)}</p>")
    if order.rows:
        parts.append(_html_table(["n-gram", "hyp", *ref_names, "max ref", "clipped"], _order_rows(order)))
    else:
        parts.append(f"<p>The hypothesis is shorter than {n} tokens, so it has no {n}-grams.</p>")
    precision = f" = {float(order.precision):.4f}" if order.total else ""
    parts.append(f'<p class="score">p<sub>{n}</sub> = {order.clipped}/{order.total}{precision}</p></div>')
    return "".join(parts)


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
