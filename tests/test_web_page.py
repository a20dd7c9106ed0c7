"""The website's bridge (bleu_teach.web.page) as a page calls it: each message once, and the exercise that gives a
hint before the numbers."""

from __future__ import annotations

import json
import subprocess
import sys

from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

from bleu_teach.exercises import exercise
from bleu_teach.web import page

STATE = {
    "hypothesis": "the cat sat on the mat",
    "references": ["the cat is on the mat"],
    "tokenizer": "whitespace",
    "lowercase": False,
    "max_n": "2",
    "weights": "",
    "smoothing": "method0",
    "compact": True,
    "show_settings": True,
}


def _text(html: str) -> str:
    import re

    return re.sub(r"<style>.*?</style>|<[^>]+>", "", html)


def test_a_widgets_score_is_said_once_in_its_headline():
    shown = page.widget("BleuExplorer", STATE)
    score = sentence_bleu([STATE["references"][0].split()], STATE["hypothesis"].split(), weights=(0.5, 0.5))
    assert float(shown["value"]) == score
    assert f"BLEU = {score:.4f} = BP * exp(sum of log terms)" in _text(shown["headline"])
    assert "BLEU =" not in _text(shown["html"])  # the report below it does not say it again
    assert "1-grams" in _text(shown["html"])  # and keeps everything else


def test_a_widgets_message_is_said_once_in_its_headline():
    shown = page.widget("BleuExplorer", STATE | {"hypothesis": "  "})
    assert shown["message"] == "The hypothesis is empty: type a sentence into it." and shown["value"] is None
    assert shown["html"] == ""  # the page puts the message in its headline (its live region), once
    assert json.loads(page.widget_json("BleuExplorer", "[]"))["html"] == ""


def _scores() -> tuple[str, str]:
    ex = exercise("00.2")
    (ref,), (a, b) = ex.inputs["references"], ex.inputs["hypotheses"]
    method1 = SmoothingFunction().method1
    return tuple(f"{sentence_bleu([ref.split()], h.split(), smoothing_function=method1):.4f}" for h in (a, b))


def test_00_2_gives_a_hint_first_and_the_scores_after_a_second_wrong_try():
    a, b = _scores()
    first = json.loads(page.check_json("00.2", json.dumps("A"), 1))
    assert first["verdict"] == "misconception"
    assert a not in first["html"] and b not in first["html"] and "try again" in first["html"]
    second = json.loads(page.check_json("00.2", json.dumps("same"), 2))
    assert second["verdict"] == "misconception" and a in second["html"] and b in second["html"]
    right = json.loads(page.check_json("00.2", json.dumps("B"), 1))
    assert right["verdict"] == "correct" and a in right["html"] and b in right["html"]  # right: the numbers at once
    for odd in (0, -1, True, "1", 1.5):  # a try number the page should not send: not counted as one
        assert json.loads(page.check_json("00.2", json.dumps("A"), odd))["verdict"] == "misconception"


def test_without_a_try_number_the_tries_are_counted_in_the_session():
    # A fresh Python, as a notebook's kernel (the lesson's check) or a page opened afresh (the page's Python).
    script = (
        "import json\nfrom bleu_teach.exercises import check\nfrom bleu_teach.web import page\n"
        "print(json.dumps([check('00.2', 'A').message, check('00.2', 'A').message, check('00.2', 'B').message,"
        " page.check_json('00.2', json.dumps('same'))]))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    first, second, right, on_the_page = json.loads(run.stdout)
    a, b = _scores()
    assert a not in first and b not in first  # the first wrong try: a hint
    assert a in second and b in second  # the second: the scores
    assert a in right and b in right
    assert a in on_the_page  # the same session: its third wrong try
    assert [o.hint for o in exercise("03.2").options] == [None] * len(exercise("03.2").options)  # others: no hint
