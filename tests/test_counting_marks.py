"""Which hypothesis tokens a report marks as matched, against the rule written out plainly.

A report colours each hypothesis token that lies in a credited n-gram. The rule (what the counting's
``OrderCounts.marks`` keeps): an n-gram's occurrences are credited left to right, up to its clipped count
(Papineni et al. 2002, 2.1: Count_clip = min(Count, Max_Ref_Count)); a token is marked when a credited
n-gram covers it. The oracle below walks the hypothesis one place at a time, which the counting never does:
few vocabularies and long sentences make many n-grams clipped below their count (the counting numbers each
n-gram's places then), short ones make few (it finds them one by one).
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_teach.bleu.counting import count_matches, sentence_statistics


def _grams(tokens: tuple[str, ...], n: int) -> list[tuple[str, ...]]:
    return [tokens[i : i + n] for i in range(len(tokens) - n + 1)]


def _oracle(references: tuple[tuple[str, ...], ...], hypothesis: tuple[str, ...], n: int) -> tuple[list[bool], int]:
    grams = _grams(hypothesis, n)
    counts = Counter(grams)
    clip = {g: min(c, max(_grams(ref, n).count(g) for ref in references)) for g, c in counts.items()}
    used: Counter[tuple[str, ...]] = Counter()
    starts = []
    for g in grams:
        credited = used[g] < clip[g]
        used[g] += credited
        starts.append(credited)
    marks = [any(starts[i] for i in range(k - n + 1, k + 1) if 0 <= i < len(starts)) for k in range(len(hypothesis))]
    return marks, sum(starts)


def sentences(words: int, longest: int) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(st.sampled_from("abcdefgh"[:words]), max_size=longest).map(tuple)


cases = st.one_of(
    st.tuples(st.lists(sentences(3, 12), min_size=1, max_size=3), sentences(3, 12)),
    st.tuples(st.lists(sentences(2, 200), min_size=1, max_size=4), sentences(2, 200)),
    st.tuples(st.lists(sentences(8, 80), min_size=1, max_size=2), sentences(8, 80)),
)


@settings(max_examples=300, deadline=None)
@given(case=cases)
def test_marks_and_matches_follow_the_rule_left_to_right(case: tuple[list[tuple[str, ...]], tuple[str, ...]]) -> None:
    refs, hyp = tuple(case[0]), case[1]
    stats = sentence_statistics(refs, hyp, 4)
    lean = count_matches(refs, hyp, 4)
    for order in stats.orders:
        marks, matches = _oracle(refs, hyp, order.n)
        assert list(order.marks) == marks, order.n
        assert order.matches == matches == lean[order.n - 1], order.n


def test_a_word_clipped_below_its_count_marks_its_first_places_only() -> None:
    # "the" 5 times, the reference has it twice: the first two are credited; "cat" once, credited.
    stats = sentence_statistics((("the", "cat", "the"),), ("the", "the", "cat", "the", "the", "the"), 1)
    assert stats.orders[0].marks == (True, True, True, False, False, False)
    # 40 places of "a", the reference has 30: the first 30 are marked (many places: each numbered)
    stats = sentence_statistics((("a",) * 30,), ("a",) * 40, 1)
    assert stats.orders[0].marks == (True,) * 30 + (False,) * 10
