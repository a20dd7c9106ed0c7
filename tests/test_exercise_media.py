"""Every exercise in every medium: each medium's text carries its own instructions and no other medium's.

The bank holds a question in no medium's words; ``bleu_teach.exercises.media`` adds a notebook's (a Python value,
run the cell), a web page's (choose or type, press Check), a quiz platform's (a decimal only) or a sheet's. Here
every question of the bank and of a class's worksheet variants is read in every medium, and so are the files a
teacher imports or prints, for words that belong to another medium or to a lesson that is not there.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from bleu_teach.exercises import Exercise, exercises
from bleu_teach.exercises.export import answer_key, gift, moodle_xml, qti_text
from bleu_teach.exercises.media import EXAMPLE_FRACTION, EXAMPLE_NUMBER, MEDIA, instructions, question_text
from bleu_teach.exercises.variants import worksheets
from bleu_teach.exercises.worksheet import worksheet, worksheet_key

#: A notebook's words for typing an answer: a Python value, a cell to run.
NOTEBOOK_WORDS = re.compile(r"run the cell|`None`|as a string|in quotes|`\"", re.I)
#: A web page's words: its buttons.
PAGE_WORDS = re.compile(r"press Check|then press|Choose one", re.I)
#: What only makes sense beside the lesson: its sections, its explorer, its cells, what is above or below.
LESSON_WORDS = re.compile(
    r"(?<!lesson \d\d, )(?<!lesson \d\d's )\bsection \d|\bexplorer\b|\bcell\b|the lesson\b|"
    r"this lesson|\b(?:above|below)(?= lists|[.:;,)]|$)",
    re.I,
)


@pytest.fixture(scope="module")
def variants() -> list[Exercise]:
    """A class of twelve students' worksheet variants: new sentences, asked the same way."""
    return [ex for sheet in worksheets(12, seed=20261126) for ex in sheet]


def _everything(variants: list[Exercise]) -> list[Exercise]:
    return list(exercises()) + variants


def test_each_medium_says_only_its_own_instructions(variants: list[Exercise]):
    for ex in _everything(variants):
        for medium in MEDIA:
            text = question_text(ex, medium)
            assert text.startswith(ex.question) or medium not in ("notebook", "page"), (ex.label, medium)
            if medium != "notebook":
                assert not NOTEBOOK_WORDS.search(text), (ex.label, medium, text)
            if medium not in ("page", "practice"):
                assert not PAGE_WORDS.search(text), (ex.label, medium, text)
            if medium in ("platform", "paper", "practice"):
                assert not LESSON_WORDS.search(text), (ex.label, medium, text)
        # The bank's own wording is no medium's.
        for words in (NOTEBOOK_WORDS, PAGE_WORDS):
            assert not words.search(ex.question), (ex.label, ex.question)
        assert not LESSON_WORDS.search(ex.question) and not LESSON_WORDS.search(ex.stand_alone_context()), ex.label


def test_the_lessons_own_words_appear_in_the_lesson_only():
    asked = [ex for ex in exercises() if ex.in_lesson]
    assert {ex.id for ex in asked} >= {"00.2", "08.1", "08.3"}
    for ex in asked:
        assert ex.in_lesson in question_text(ex, "notebook") and ex.in_lesson in question_text(ex, "page")
        assert ex.in_lesson not in question_text(ex, "platform") + question_text(ex, "paper")


def test_a_quiz_or_a_sheet_gives_what_the_lesson_showed_before_the_question():
    mqm = next(ex for ex in exercises() if ex.kind == "mqm_score")
    for medium in ("platform", "paper"):
        text = question_text(mqm, medium)
        # The two errors the lesson's table lists (the WMT21 release's categories and marked words), and the rule.
        for error in ("Style/Awkward, minor, on “No one is an island”", "Fluency/Punctuation, major, on"):
            assert error in text, (error, text)
        assert "minus the sum of its errors' weights" in text and "major 5, minor 1" in text
    assert "No one is an island" not in question_text(mqm, "notebook")  # the lesson's table shows them


def test_every_number_question_states_its_rounding_and_its_scale_in_every_medium(variants: list[Exercise]):
    for ex in _everything(variants):
        answer = ex.answer_format
        if answer.kind != "number":
            continue
        for medium in MEDIA:
            said = instructions(ex, medium)
            assert {1: "one decimal place", 3: "three decimal places"}[answer.decimals or 0] in said, (ex.label, medium)
            if ex.kind in ("bleu", "corpus_bleu"):
                assert "from 0 to 1" in said and "0-100" in said, (ex.label, medium, said)
            offers_fraction = "fraction" in said
            assert offers_fraction == (answer.fraction and medium != "platform"), (ex.label, medium, said)


def test_the_examples_a_question_shows_are_never_an_answer_it_marks():
    """The notebook and the page show an example number and fraction; none may be the right answer or a
    misconception's (a learner copying the example would be told it is right, or get a diagnosis)."""
    shown = 0
    for ex in exercises():
        text = question_text(ex, "notebook")
        if EXAMPLE_NUMBER not in text:
            continue
        shown += 1
        feedback = ex.check(None)
        marked = [float(feedback.right or 0)] + [float(m.value) for m in feedback.misconceptions]
        places = ex.decimals or 0
        for example in (float(EXAMPLE_NUMBER), float(Fraction(EXAMPLE_FRACTION))):
            assert all(round(value, places) != round(example, places) for value in marked), (ex.id, example)
    on_a_scale = [ex for ex in exercises() if ex.answer_format.kind == "number" and ex.answer_format.scale]
    assert shown == len(on_a_scale) > 0  # the numeric questions on the 0-1 scale (an MQM score has no example)


def _files(variants: list[Exercise]) -> dict[str, str]:
    sheet = [ex for ex in variants if ex.student == 1]
    return {
        "moodle.xml": moodle_xml(),
        "moodle-variants.xml": moodle_xml(variants),
        "gift": gift(),
        "gift-variants": gift(variants),
        "qti": qti_text(),
        "qti-variants": qti_text(variants),
        "answer-key.md": answer_key().to_markdown(),
        "worksheet.md": worksheet(sheet).to_markdown(),
        "worksheet-key.md": worksheet_key([sheet], seed=1).to_markdown(),
    }


def test_no_teachers_file_carries_a_notebooks_or_a_pages_instructions(variants: list[Exercise]):
    for name, text in _files(variants).items():
        assert not NOTEBOOK_WORDS.search(text), (name, NOTEBOOK_WORDS.search(text))
        assert not PAGE_WORDS.search(text), (name, PAGE_WORDS.search(text))
    # A platform's numeric question never offers a fraction, which its numerical type cannot read.
    assert "fraction" not in "".join(question_text(ex, "platform") for ex in exercises())
