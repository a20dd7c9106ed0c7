"""Practice until mastery on the static site: "Another one", a wrong answer named, three right marked mastered.

Every right answer the test types is computed here from the question the page shows, without bleu_teach: the
brevity penalty by its formula (the closest reference length, the shorter on a tie) and modified precision by
NLTK.  The time Python takes to draw the first question (it reads and tokenizes the WMT21 data in the browser)
is measured and printed.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from tests.browser.conftest import SITE_TIMINGS, Site, Visitor
from tests.browser.test_site_live import READY, _closest, live_page

QUESTION = ".live-practice-question"


def _section(page, exercise_id: str):  # noqa: ANN001, ANN202
    return page.locator(f"section[data-practice='{exercise_id}']")


def _another(page, exercise_id: str, number: int) -> tuple[str, float]:  # noqa: ANN001
    """Press Another one; wait for practice question ``number``; return its text and the milliseconds it took."""
    section = _section(page, exercise_id)
    started = page.evaluate("performance.now()")
    section.get_by_role("button", name="Another one").click()
    page.wait_for_function(
        "([id, n]) => document.querySelector(`section[data-practice='${id}'] "
        ".live-practice-question`).textContent.includes(`Practice ${n}, like`)",
        arg=[exercise_id, number],
        timeout=60_000,
    )
    took = page.evaluate("performance.now()") - started
    return section.locator(QUESTION).inner_text(), took


def _answer(page, exercise_id: str, answer: str) -> str:  # noqa: ANN001
    """Type ``answer``, press Check; return the verdict the page gives."""
    section = _section(page, exercise_id)
    feedback = section.locator(".live-feedback")
    page.evaluate(
        "id => { const f = document.querySelector(`section[data-practice='${id}'] .live-feedback`); "
        "f.textContent = ''; delete f.dataset.verdict; }",
        exercise_id,
    )
    section.get_by_label("Your answer").fill(answer)
    section.get_by_role("button", name="Check").click()
    page.wait_for_function(
        "id => document.querySelector(`section[data-practice='${id}'] .live-feedback`).textContent !== ''",
        arg=exercise_id,
    )
    return feedback.get_attribute("data-verdict") or ""


def _brevity(question: str) -> tuple[list[int], int]:
    found = re.search(r"References of ([\d, and]+) tokens; a hypothesis of (\d+) tokens", question)
    assert found, question
    return [int(x) for x in re.findall(r"\d+", found.group(1))], int(found.group(2))


def _bp(r: int, c: int) -> float:
    return 1.0 if c > r else math.exp(1 - r / c)


def test_practice_gives_another_one_names_a_mistake_and_marks_three_right_mastered(visitor: Visitor, site: Site):
    page = live_page(visitor, f"{site.url}/03_brevity_penalty.html")
    section = _section(page, "03.1")
    assert section.get_by_label("Your answer").is_disabled()  # nothing to answer before a question is drawn
    question, first_ms = _another(page, "03.1", 1)
    lengths, c = _brevity(question)
    longest = _bp(max(lengths), c)
    assert _answer(page, "03.1", f"{longest:.3f}") == "misconception"
    assert "longest" in section.locator(".live-feedback").inner_text()
    right = _bp(_closest(lengths, c), c)
    assert _answer(page, "03.1", f"{right:.3f}") == "correct"  # right now, but only the first answer counts
    assert "0 right in a row" in section.locator(".live-practice-streak").inner_text()
    for number in (2, 3, 4):
        question, _ = _another(page, "03.1", number)
        assert section.locator(".live-feedback").inner_text() == ""  # the last question's feedback is gone
        lengths, c = _brevity(question)
        assert _answer(page, "03.1", f"{_bp(_closest(lengths, c), c):.3f}") == "correct"
    streak = section.locator(".live-practice-streak").inner_text()
    assert "mastered (3 right in a row)" in streak, streak

    page.reload()  # the streak is kept, and the next question follows the last one
    page.wait_for_function(READY, timeout=90_000)
    assert "mastered" in section.locator(".live-practice-streak").inner_text()
    _another(page, "03.1", 5)
    assert "3 in a row now" in section.locator(".live-practice-streak").inner_text()  # question 4 was answered
    sixth, _ = _another(page, "03.1", 6)  # question 5 skipped: the run ends, mastery stays
    streak_text = section.locator(".live-practice-streak").inner_text()
    assert "mastered (3 right in a row); 0 in a row now" in streak_text

    page.reload()  # question 6 unanswered: the same question comes back, and the streak is as it was
    page.wait_for_function(READY, timeout=90_000)
    page.wait_for_function(
        "() => document.querySelector(`section[data-practice='03.1'] .live-practice-question`)"
        ".textContent.includes('Practice 6, like')",
        timeout=60_000,
    )
    assert section.locator(QUESTION).inner_text() == sixth
    assert section.locator(".live-practice-streak").inner_text() == streak_text
    lengths, c = _brevity(sixth)
    assert _answer(page, "03.1", f"{_bp(_closest(lengths, c), c):.3f}") == "correct"
    assert "1 in a row now" in section.locator(".live-practice-streak").inner_text()
    page.reload()  # answered: nothing comes back by itself
    page.wait_for_function(READY, timeout=90_000)
    assert "Practice 6" not in section.locator(".live-practice-question").inner_text()

    page.goto(f"{site.url}/index.html")
    progress = page.locator("li[data-lesson='03'] .progress")
    assert progress.is_visible() and "mastered in practice: the brevity penalty" in progress.inner_text()
    assert "1 skill mastered in practice" in page.locator("#progress-summary").inner_text()
    page.get_by_role("button", name="Clear my answers").click()
    page.get_by_role("button", name="Yes, clear them").click()
    assert progress.is_hidden() and page.evaluate("localStorage.getItem('bleu-teach-practice')") is None
    assert page.problems == [] and visitor.blocked == []
    SITE_TIMINGS["practice: first question drawn (03.1)"] = f"{first_ms:.0f} ms"
    page.close()


def test_a_practice_question_from_the_wmt21_sentences_is_checked_against_nltk(visitor: Visitor, site: Site):
    from nltk.translate.bleu_score import modified_precision

    page = live_page(visitor, f"{site.url}/01_ngrams_and_clipping.html")
    question, first_ms = _another(page, "01.1", 1)  # reads and tokenizes the WMT21 sentences, the first time
    quoted = re.findall(r"“([^”]*)”", question)  # the hypothesis, the two references, then the note's “The”, “the”
    hypothesis, references = quoted[0], quoted[1:3]
    assert len(references) == 2 and "modified unigram precision" in question, question
    right = Fraction(modified_precision([r.split() for r in references], hypothesis.split(), 1))
    assert _answer(page, "01.1", f"{right.numerator}/{right.denominator}") == "correct"
    assert _answer(page, "01.1", "<b>0.5</b>") == ""  # not a number: a message, no verdict, typed text as text
    assert _section(page, "01.1").locator(".live-feedback b").filter(has_text="0.5").count() == 0
    _, next_ms = _another(page, "01.1", 2)
    assert page.problems == [] and visitor.blocked == []
    SITE_TIMINGS["practice: first question drawn from the WMT21 sentences (01.1)"] = f"{first_ms:.0f} ms"
    SITE_TIMINGS["practice: the next question (01.1)"] = f"{next_ms:.0f} ms"
    page.close()
