"""lesson 05's tables, with NLTK as the oracle for every score."""

from __future__ import annotations

import warnings

from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_teach.limitations import order_table


def test_order_table_with_one_order_shows_one_score():
    # NLTK returns one number, not a list, for a list holding one weight tuple; the table copes.
    table = order_table(["a b c d"], {"reversed": "d c b a", "same": "a b c d"}, max_order=1)
    assert table.rows == [["reversed", "1.0000"], ["same", "1.0000"]]


def test_order_table_scores_are_nltks():
    table = order_table(["the cat sat on the mat"], {"h": "the cat sat on a mat"}, max_order=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [nltk_sentence_bleu([["the", "cat", "sat", "on", "the", "mat"]], "the cat sat on a mat".split(),
                                       (1 / k,) * k) for k in (1, 2, 3)]
    assert table.rows[0][1:] == [f"{s:.4f}" for s in expected]
