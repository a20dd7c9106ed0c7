"""chrF and chrF++ (bleu_teach.chrf.reports, the chrF counting in bleu_teach.bleu.counting) against sacreBLEU.

sacreBLEU's ``sacrebleu.metrics.CHRF`` is the oracle: every expected number
(scores, and the per-order [hyp, ref, match] statistics sacreBLEU extracts)
comes from it, run on the same raw strings, never from bleu_teach.
"""

from __future__ import annotations

import ast
import re
import string
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF

import bleu_teach as bt
from bleu_teach.chrf.arithmetic import chrf_from_counts
from bleu_teach.chrf.counting import (
    ChrfOrderCounts,
    chrf_ngram_counts,
    chrf_order_counts,
    chrf_sums,
    chrf_words,
    order_kinds,
)
from bleu_teach.chrf.explain import chrf_score, explain_chrf
from bleu_teach.chrf.reports import ChrfReport
from tests.conftest import examples
from tests.strategies import raw_corpus_case, raw_sentence_case, raw_strings
from tests.view_checks import assert_tables_shown, document_tables

TOL = 1e-9

# Raw strings: words that share character and word n-grams, punctuation that chrF++ splits off, Unicode
# (combining marks, a capital whose lowercase is two code points, non-ASCII spaces), repeated words.
WORDS = [
    "the",
    "The",
    "THE",
    "cat",
    "cats",
    "chased",
    "chasing",
    "dog",
    "dog.",
    "(dog)",
    '"hi"',
    "...",
    "end...",
    "isn't",
    "a",
    "a",
    "a",
    "I",
    "İstanbul",
    "naïve",
    "nai\u0308ve",
    "猫が",
    "好き",
    "Straße",
    "<script>",
    "&amp;",
    ",",
    "e-mail",
    "3.5",
    "x",
]
SEPARATORS = [" ", " ", " ", "  ", "\t", "\n", "\u00a0", "\u3000"]
CHARS = "abcAB .,!?'-\"()&;<>\t\n猫がéİ\u00a0"

raw = raw_strings(WORDS, SEPARATORS, CHARS, ["", " ", "a", ".", "ab", "the cat", "a a a", "\n", "A."])
KINDS = ["other", "other", "same", "cut", "replaced", "shuffled", "upper"]


def sentence_case() -> st.SearchStrategy[tuple[str, list[str | None]]]:
    return raw_sentence_case(raw, WORDS, KINDS)


def corpus_case() -> st.SearchStrategy[tuple[list[str], list[list[str | None]]]]:
    """Hypotheses and their references per hypothesis (None where a segment has fewer references)."""
    return raw_corpus_case(raw, WORDS, KINDS)


@st.composite
def options(draw: st.DrawFn) -> dict[str, Any]:
    """CHRF's options: chrF and chrF++ (several orders), beta, lowercase, whitespace, eps_smoothing."""
    word_order = draw(st.sampled_from([0, 0, 2, 2, 1, 3]))
    char_order = draw(st.sampled_from([6, 6, 6, 1, 2, 3, 4, 8] + ([0] if word_order else [])))
    return {
        "char_order": char_order,
        "word_order": word_order,
        "beta": draw(st.sampled_from([2, 2, 1, 3, 0.5, 0, 2.0])),
        "lowercase": draw(st.booleans()),
        "whitespace": draw(st.sampled_from([False, False, True])),
        "eps_smoothing": draw(st.booleans()),
    }


def flat(counts: tuple[ChrfOrderCounts, ...]) -> list[int]:
    """bleu_teach's counts in sacreBLEU's layout: [hyp, ref, match] for each order."""
    return [x for o in counts for x in (o.hyp_total, o.ref_total, o.matches)]


#: What sacreBLEU's chrF++ splits off a word's end or start (its CHRF._PUNCTS, read in its source: string.punctuation).
PUNCTUATION = set(string.punctuation)


def oracle_words(text: str) -> list[str]:
    """chrF++'s words as sacreBLEU splits them: one punctuation mark off the end of a longer word, else off its
    start."""
    words: list[str] = []
    for w in text.split():
        if len(w) > 1 and w[-1] in PUNCTUATION:
            words += [w[:-1], w[-1]]
        elif len(w) > 1 and w[0] in PUNCTUATION:
            words += [w[0], w[1:]]
        else:
            words.append(w)
    return words


def oracle_statistics(
    hyp: str,
    ref: str,
    char_order: int = 6,
    word_order: int = 0,
    lowercase: bool = False,
    whitespace: bool = False,
    **_: Any,
) -> list[int]:
    """chrF's statistics by the definition (Popovic 2015, 2017), counted here with Counter, in sacreBLEU's layout:
    [hypothesis n-grams, reference n-grams, matches] for each character order, then each word order.  As in
    sacreBLEU, hypothesis n-grams count 0 for an order of which the reference has none."""
    if lowercase:
        hyp, ref = hyp.lower(), ref.lower()

    def grams(text: str, n: int, words: bool) -> Counter[Any]:
        if words:
            units: Sequence[str] = oracle_words(text)
        else:
            units = text if whitespace else "".join(text.split())
        return Counter(tuple(units[i : i + n]) for i in range(len(units) - n + 1))

    found = []
    for n, words in [(n, False) for n in range(1, char_order + 1)] + [(n, True) for n in range(1, word_order + 1)]:
        h, r = grams(hyp, n, words), grams(ref, n, words)
        found += [sum(h.values()) if r else 0, sum(r.values()), sum((h & r).values())]
    return found


def branches(report: ChrfReport) -> set[str]:
    """The interesting cases a report falls into."""
    result = report.result
    found = set()
    if len(report.candidates) > 1:
        found.add("several references")
        if report.chosen > 0:
            found.add("a later reference is kept")
    if any(o.counts.hyp_left_out for o in result.orders):
        found.add("hypothesis n-grams dropped: the reference has none of that order")
    if 0 < result.effective_order < len(result.orders):
        found.add("effective order below the number of orders")
    if result.effective_order == 0:
        found.add("no order with n-grams on both sides")
    if any(o.in_average and o.matches == 0 for o in result.orders):
        found.add("an averaged order without a match")
    if any(o.f_is_eps for o in result.orders):
        found.add("an F_n replaced by eps")
    return found


DEFAULTS = {
    "char_order": 6,
    "word_order": 0,
    "beta": 2,
    "lowercase": False,
    "whitespace": False,
    "eps_smoothing": False,
}

#: One example of each branch: the property test always runs these, whatever hypothesis draws.
BRANCH_EXAMPLES = {
    "several references": ("a b", ["a b", "c"]),
    "a later reference is kept": ("a b", ["x y", "a b"]),
    "hypothesis n-grams dropped: the reference has none of that order": ("abcdefg", ["ab"]),
    "effective order below the number of orders": ("abcdefg", ["abc"]),
    "no order with n-grams on both sides": ("", ["abc"]),
    "an averaged order without a match": ("ab", ["cd"]),
    "an F_n replaced by eps": ("ab", ["cd"]),
}


@pytest.mark.parametrize("label", BRANCH_EXAMPLES)
def test_each_branch_example_takes_its_branch(label):
    hyp, refs = BRANCH_EXAMPLES[label]
    assert label in branches(explain_chrf(hyp, refs))


# --- sentence: score, per-order statistics of every reference, choice of reference -----------------


def _with_branch_examples(test):
    for hyp, refs in BRANCH_EXAMPLES.values():
        test = example(case=(hyp, list(refs)), opts=dict(DEFAULTS))(test)
    return test


@settings(max_examples=examples(1000), deadline=None)
@given(case=sentence_case(), opts=options())
@_with_branch_examples
def test_explain_chrf_equals_sacrebleu_sentence_score(case, opts, parity_counter):
    hyp, refs = case
    metric = CHRF(**opts)
    expected = metric.sentence_score(hyp, refs)
    report = explain_chrf(hyp, refs, **opts)
    assert report.score == pytest.approx(expected.score, abs=TOL, rel=0)
    assert report.name == expected.name

    # Every reference alone: the statistics of the definition and the same score as sacreBLEU's.
    present = [r for r in refs if r is not None]
    alone = [CHRF(**opts).sentence_score(hyp, [r]).score for r in present]
    for candidate, reference, score in zip(report.candidates, present, alone, strict=True):
        assert candidate.reference == reference
        assert flat(tuple(o.counts for o in candidate.result.orders)) == oracle_statistics(hyp, reference, **opts)
        assert candidate.score == pytest.approx(score, abs=TOL, rel=0)
    # The kept reference is the first with the highest chrF (as sacreBLEU keeps it), and the report's counts are its.
    assert report.chosen == alone.index(max(alone))
    assert flat(tuple(o.counts for o in report.orders)) == oracle_statistics(hyp, present[report.chosen], **opts)
    for label in sorted(branches(report)):
        event(label)
    parity_counter["chrf_sentence"] += 1


@settings(max_examples=examples(150), deadline=None)
@given(case=sentence_case(), opts=options())
def test_report_rows_add_up_to_the_counts(case, opts):
    """The n-gram tables a learner reads are the counts the score used (sacreBLEU's, tested above)."""
    hyp, refs = case
    report = explain_chrf(hyp, refs, **opts)
    for candidate in report.candidates:
        for o in candidate.result.orders:
            assert sum(r.hyp_count for r in o.rows) == o.hyp_ngrams
            assert sum(r.ref_count for r in o.rows) == o.ref_total
            assert sum(r.matched for r in o.rows) == o.matches
            assert all(r.matched == min(r.hyp_count, r.ref_count) for r in o.rows)
            assert len({r.ngram for r in o.rows}) == len(o.rows)
            assert o.hyp_total == (o.hyp_ngrams if o.ref_total else 0)
    assert_tables_shown(report)


# --- corpus: score and summed statistics, both orientations ---------------------------------------


@settings(max_examples=examples(500), deadline=None)
@given(case=corpus_case(), opts=options())
def test_chrf_score_equals_sacrebleu_corpus_score(case, opts, parity_counter):
    hyps, per_hyp = case
    streams = bt.to_sacrebleu_references(per_hyp)
    metric = CHRF(**opts)
    expected = metric.corpus_score(hyps, streams)
    segment_stats = []  # each segment's statistics: those of its first reference with the highest chrF
    segment_scores = []  # and that chrF
    for hyp, refs in zip(hyps, per_hyp, strict=True):
        present = [r for r in refs if r is not None]
        alone = [CHRF(**opts).sentence_score(hyp, [r]).score for r in present]
        segment_stats.append(oracle_statistics(hyp, present[alone.index(max(alone))], **opts))
        segment_scores.append(max(alone))

    got = chrf_score(hyps, per_hyp, **opts, orientation="per_hypothesis")
    assert got.score == pytest.approx(expected.score, abs=TOL, rel=0)
    assert got.name == expected.name
    assert [flat(s.counts) for s in got.segments] == segment_stats
    for segment, score in zip(got.segments, segment_scores, strict=True):
        assert segment.score == pytest.approx(score, abs=TOL, rel=0)
    assert flat(got.totals) == [sum(column) for column in zip(*segment_stats)]
    assert chrf_score(hyps, streams, **opts, orientation="streams").score == got.score

    n = len(hyps)
    if n >= 2 and all(len(r) == n for r in per_hyp):
        event("square corpus: orientation must be given")
        with pytest.raises(ValueError, match="orientation='streams'"):
            chrf_score(hyps, per_hyp, **opts)
    else:
        assert chrf_score(hyps, per_hyp, **opts).score == got.score
    parity_counter["chrf_corpus"] += 1


# --- the worked example and sacreBLEU's rules, with sacreBLEU's numbers ---------------------------

HYP, REF = "the cat is chasing the dog", "the cat chased the dog"


def test_worked_example(parity_counter):
    report = explain_chrf(HYP, [REF])
    expected = CHRF().sentence_score(HYP, [REF])
    assert report.score == pytest.approx(expected.score, abs=TOL, rel=0)
    assert flat(tuple(o.counts for o in report.orders)) == oracle_statistics(HYP, REF)
    assert [(o.matches, o.hyp_total, o.ref_total) for o in report.orders][0] == (16, 21, 18)
    assert report.characters == "thecatischasingthedog" and report.best.characters == "thecatchasedthedog"
    text = report.to_text()
    assert "P_n = 16/21 = 0.7619; R_n = 16/18 = 0.8889; F2_n = 0.8602" in text
    assert f"chrF2 = 100 * (1 + 4) * P * R / (4 * P + R) = {expected.score:.4f}" in text
    plus = explain_chrf(HYP, [REF], word_order=2)
    assert plus.score == pytest.approx(CHRF(word_order=2).sentence_score(HYP, [REF]).score, abs=TOL, rel=0)
    assert [o.label for o in plus.orders][-2:] == ["word 1-grams", "word 2-grams"]
    assert (plus.orders[-2].matches, plus.orders[-2].hyp_total, plus.orders[-2].ref_total) == (4, 6, 5)
    parity_counter["chrf_sentence"] += 2


def test_a_reference_without_ngrams_of_an_order_drops_the_hypothesis_ngrams_too(parity_counter):
    # "abc" has no 4-grams, so sacreBLEU reports the hypothesis's one 4-gram as 0 (not 1).
    report = explain_chrf("abcd", ["abc"], char_order=4)
    assert oracle_statistics("abcd", "abc", char_order=4)[9:] == [0, 0, 0]
    assert report.score == pytest.approx(CHRF(char_order=4).sentence_score("abcd", ["abc"]).score, abs=TOL, rel=0)
    last = report.orders[-1]
    assert (last.hyp_total, last.hyp_ngrams, last.counts.hyp_left_out) == (0, 1, 1)
    assert not last.in_average and report.result.effective_order == 3
    assert "Reference 1 has no char 4-grams" in report.to_text()
    assert report.score == pytest.approx(CHRF(char_order=4).sentence_score("abcd", ["abc"]).score, abs=TOL, rel=0)
    parity_counter["chrf_sentence"] += 1


def test_several_references_keep_the_best_and_the_first_on_a_tie(parity_counter):
    refs = ["a dog", "the cat chased the dog", "the cat chased the dog"]
    report = explain_chrf(HYP, refs)
    assert report.best.index == 1 and "tie" in report.reason
    assert report.score == pytest.approx(CHRF().sentence_score(HYP, refs).score, abs=TOL, rel=0)
    # Not BLEU's pooling: the score is that of the best reference alone.
    assert report.score == max(c.score for c in report.candidates)
    with_none = explain_chrf(HYP, [None, "a dog", REF])
    assert with_none.best.index == 2 and "Reference used: 3 (" in with_none.to_text()
    parity_counter["chrf_sentence"] += 1


def test_eps_smoothing_averages_the_per_order_f(parity_counter):
    report = explain_chrf("abc", ["abcdefg"], eps_smoothing=True)
    expected = CHRF(eps_smoothing=True).sentence_score("abc", ["abcdefg"])
    assert report.score == pytest.approx(expected.score, abs=TOL, rel=0)
    assert report.score == pytest.approx(100 * sum(o.f_score for o in report.orders) / 6, abs=TOL, rel=0)
    assert "mean of F2_n over all 6 orders" in report.to_text()
    parity_counter["chrf_sentence"] += 1


def test_whitespace_is_removed_before_character_ngrams():
    assert explain_chrf("the cat", ["thecat"]).score == 100.0
    assert explain_chrf("the cat", ["thecat"], whitespace=True).score < 100.0
    assert "␣" in explain_chrf("a b", ["a b"], whitespace=True).to_text()


def test_chrf_words_split_off_one_punctuation_mark():
    assert chrf_words("(hi) end... a. 'x'") == ("(hi", ")", "end..", ".", "a", ".", "'x", "'")
    assert oracle_words("(hi) end... a. 'x'") == list(chrf_words("(hi) end... a. 'x'"))
    for text in ["(hi) end... a. 'x'", '"quoted," he said.', "-- a-b c"]:  # the split decides chrF++'s score
        for reference in ["(hi) end. a x", "he said quoted", "a-b c --"]:
            assert explain_chrf(text, [reference], word_order=2).score == pytest.approx(
                CHRF(word_order=2).sentence_score(text, [reference]).score, abs=TOL, rel=0
            )


def test_chrf_from_counts_is_the_arithmetic_of_the_counts():
    counts = chrf_order_counts(chrf_ngram_counts("the cat", 6), chrf_ngram_counts("the hat", 6), 6)
    assert chrf_from_counts(counts).score == explain_chrf("the cat", ["the hat"]).score


def test_corpus_sums_counts_rather_than_averaging_segments(parity_counter):
    hyps = [HYP, "a bird sings"]
    refs = [[REF], ["a bird is singing", "the bird sings"]]
    got = chrf_score(hyps, refs)
    assert got.score == pytest.approx(
        CHRF().corpus_score(hyps, [[REF, "a bird is singing"], [None, "the bird sings"]]).score, abs=TOL, rel=0
    )
    assert got.mean_segment_score != pytest.approx(got.score)
    assert [s.chosen for s in got.segments] == [0, 1]
    assert "corpus (summed)" in got.to_text() and "mean of the segment scores" in repr(got)
    parity_counter["chrf_corpus"] += 1


def test_a_corpus_segment_keeps_its_counts_and_shows_them_as_a_report_does():
    hyps = [HYP, "a bird sings"]
    refs = [[REF], ["a bird is singing", None, "the bird sings"]]
    segment = chrf_score(hyps, refs, word_order=2).segments[1]
    report = explain_chrf(hyps[1], refs[1], word_order=2)
    assert (segment.index, segment.chosen, segment.n_references) == (1, 2, 2)
    assert segment.score == report.score  # the same arithmetic on the same counts
    kept = [o.counts for o in report.best.result.orders]
    assert [o[:6] for o in segment.counts] == [o[:6] for o in kept]  # all but the n-gram table
    assert all(o.rows == () for o in segment.counts)
    data = chrf_score(hyps, refs, word_order=2).to_dict()["segments"][1]
    assert list(data) == ["type", "index", "chosen", "n_references", "score", "counts"]
    assert data["score"] == report.score
    assert [(o["kind"], o["n"], o["matches"]) for o in data["counts"]] == [(o.kind, o.n, o.matches) for o in kept]
    assert repr(segment).startswith(f"ChrfSegment(index=1, chosen=2, n_references=2, score={report.score!r}, counts=(")


def test_summing_segments_counted_with_other_orders_is_refused():
    counts = [
        (o.matches, o.hyp_total, o.ref_total, o.hyp_ngrams)
        for o in chrf_order_counts(chrf_ngram_counts("the cat", 2), chrf_ngram_counts("the hat", 2), 2)
    ]
    kinds = order_kinds(2, 0)
    assert [o.matches for o in chrf_sums(kinds, [counts, counts])] == [2 * c[0] for c in counts]
    with pytest.raises(ValueError, match="same 2 orders"):
        chrf_sums(kinds, [counts, counts[:1]])
    with pytest.raises(ValueError, match="same 2 orders"):
        chrf_sums(kinds, [counts + counts[:1]])


def test_corpus_view_shows_the_first_segments_and_says_how_many_more():
    got = chrf_score(["a b"] * 25, [["a c"]] * 25)
    assert "... 5 more" in got.to_text() and "... 5 more" in got._repr_html_()


# --- views ------------------------------------------------------------------------------------------


def test_views_escape_user_text():
    evil = "<script>alert(1)</script> & <b>"
    report = explain_chrf(evil, [evil + " x", "<img src=x>"], word_order=2)
    corpus = chrf_score([evil], [[evil]])
    html = report._repr_html_()
    labels = re.sub(r"<b>(Hypothesis|Reference \d|Notes|  (characters|words|lowercased)[^<]*)</b>", "", html)
    assert "<script>" not in html and "<img" not in html and "<b>" not in labels
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;" in html and "&lt;img src=x&gt;" in html
    assert "&lt;script&gt;" in html.split("char 1-grams", 1)[1]  # in the n-gram tables too (word n-grams)
    assert "<script>" not in corpus._repr_html_()
    assert "<script>alert(1)</script>" in repr(report)


def test_control_characters_stay_on_one_line_in_tables():
    report = explain_chrf("a\tb", ["a\tb"], whitespace=True)
    cells = [c for table in document_tables(report.to_document().blocks) for row in table.rows for c in row]
    assert "a\u21e5" in cells  # the tab made visible
    assert not any("\t" in c or "\n" in c for c in cells)


def test_text_and_html_views_show_the_same_cells():
    report = explain_chrf(HYP, ["a dog", REF], word_order=2)
    assert len(list(document_tables(report.to_document().blocks))) == 2 + len(report.orders)
    assert_tables_shown(report)
    corpus = chrf_score([HYP, "x"], [[REF], ["y"]])
    assert_tables_shown(corpus)


def test_summary_text_leaves_out_the_ngram_tables():
    report = explain_chrf(HYP, [REF])
    assert "char 3-grams (hypothesis against reference 1)" in report.to_text()
    assert "char 3-grams (hypothesis against" not in report.to_text(ngram_tables=False)
    assert repr(report) == report.to_text()


# --- bad input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hyp, refs, kwargs, error, message",
    [
        (["a b"], ["a b"], {}, TypeError, "for a list of hypotheses use chrf_score"),
        ("a b", "a b", {}, TypeError, r"wrap a single reference in a list: \[reference\]"),
        ("a b", [], {}, ValueError, "at least one"),
        ("a b", [None], {}, ValueError, "at least one"),
        ("a b", [["a b"]], {}, TypeError, r"references\[0\] must be a string"),
        ("a", ["a"], {"char_order": 6.0}, TypeError, "char_order must be a whole number"),
        ("a", ["a"], {"word_order": True}, TypeError, "word_order must be a whole number"),
        ("a", ["a"], {"char_order": -1}, ValueError, "0 or more"),
        ("a", ["a"], {"char_order": 0}, ValueError, "nothing to count"),
        ("a", ["a"], {"beta": "2"}, TypeError, "beta must be a number"),
        ("a", ["a"], {"beta": -1}, ValueError, ">= 0"),
        ("a", ["a"], {"beta": float("inf")}, ValueError, "finite"),
        ("a", ["a"], {"lowercase": 1}, TypeError, "lowercase must be True or False"),
        ("a", ["a"], {"whitespace": None}, TypeError, "whitespace must be True or False"),
        ("a", ["a"], {"eps_smoothing": "no"}, TypeError, "eps_smoothing must be True or False"),
    ],
)
def test_explain_chrf_bad_input(hyp, refs, kwargs, error, message):
    with pytest.raises(error, match=message):
        explain_chrf(hyp, refs, **kwargs)


@pytest.mark.parametrize(
    "hyps, refs, kwargs, error, message",
    [
        ("a b", [["a b"]], {}, TypeError, "hypotheses must be a list of strings"),
        ([], [], {}, ValueError, "hypotheses is empty"),
        (["a", "b"], [["a"]], {}, ValueError, "2 hypotheses but 1 reference lists"),
        (["a"], ["a"], {}, TypeError, "wrap it in a list"),
        (["a"], [[None]], {}, ValueError, "no reference"),
        (["a", "b"], [["a", "b"], ["a", "b"]], {}, ValueError, "can be read two ways"),
        (["a"], [["a"]], {"orientation": "columns"}, ValueError, "'per_hypothesis'.*'streams'"),
        (["a"], [["a"]], {"beta": True}, TypeError, "beta must be a number"),
    ],
)
def test_chrf_score_bad_input(hyps, refs, kwargs, error, message):
    with pytest.raises(error, match=message):
        chrf_score(hyps, refs, **kwargs)


# --- the package's seams ------------------------------------------------------------------------------


def test_exported_and_counting_stays_in_statistics():
    for name in ("explain_chrf", "chrf_score", "ChrfReport", "ChrfCorpusScore"):
        assert name in bt.__all__
    assert bt.explain_chrf is explain_chrf and bt.chrf_score is chrf_score
    tree = ast.parse(Path(bt.chrf.__file__).read_text(encoding="utf-8"))
    assert "Counter" not in {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert not any(m and m.split(".")[0] == "sacrebleu" for m in imported)


def test_a_profile_is_matched_with_a_text_and_says_so_otherwise():
    from bleu_teach.chrf.counting import ChrfProfile

    profile = ChrfProfile("the cat", 6)
    assert profile.match("the cat") == [(m, m, m) for m in (6, 5, 4, 3, 2, 1)]
    with pytest.raises(TypeError, match="reference's text"):
        profile.match(ChrfProfile("the cat", 6))  # type: ignore[arg-type]
