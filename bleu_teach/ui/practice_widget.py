"""Practice until mastery in the notebook: another question like a numeric exercise, as often as the learner likes.

``Practice("03.1")`` shows the first practice question like exercise 03.1, a
box for the answer, **Check** and **Another one**, and the skill's streak.
It asks and checks through the same functions as the lesson's web page
(:func:`bleu_teach.web.page.practice_question` and
:func:`~bleu_teach.web.page.practice_check`), so the notebook and the page
give the same question for the same number, the same diagnosis of each
mistake, and the same streak rule: only the first answer to each question
counts, a question skipped ends the run, three right in a row master the skill.  The streak lives as long as
the widget (the page keeps it in the browser's storage).

>>> p = Practice("03.1")
>>> p.number, p.answer.value, "Practice 1, like question 1" in p.question.value
(1, '', True)
"""

from __future__ import annotations

from typing import Any

from bleu_teach.inputs.optional import needs

needs("ipywidgets", "The lessons' practice widget")
import ipywidgets as widgets

from bleu_teach.exercises.practice import MAX_NUMBER, PRACTISED, Streak
from bleu_teach.inputs.validation import preview, whole_number_text
from bleu_teach.web import page

__all__ = ["Practice"]


class Practice(widgets.VBox):
    """Practice questions like exercise ``exercise_id`` (a numeric one: :data:`PRACTISED`), from ``number``."""

    def __init__(self, exercise_id: Any, number: Any = 1) -> None:
        if not isinstance(exercise_id, str):
            raise TypeError(
                f"Practice: exercise_id must be a string, one of the numeric exercises "
                f"{', '.join(PRACTISED)}; not {preview(exercise_id)}."
            )
        if exercise_id not in PRACTISED:
            raise ValueError(
                f"Practice: exercise_id must be one of the numeric exercises {', '.join(PRACTISED)}, "
                f"not {preview(exercise_id)}."
            )
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(
                f"Practice: number must be a whole number from 1 (the first practice question), not {preview(number)}."
            )
        if not 1 <= number <= MAX_NUMBER:
            raise ValueError(f"Practice: number must be from 1 to {MAX_NUMBER:,}; got {whole_number_text(number)}.")
        self.exercise_id = exercise_id
        self.number = number
        self.streak: dict[str, Any] = Streak(exercise_id).to_dict()
        self.question = widgets.HTML()
        self.answer = widgets.Text(
            description="Your answer",
            continuous_update=True,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="60%"),
        )
        self.check_button = widgets.Button(description="Check", button_style="primary", tooltip="Check your answer")
        self.another_button = widgets.Button(
            description="Another one", icon="refresh", tooltip="A new question like this one"
        )
        self.feedback = widgets.HTML()
        self.streak_line = widgets.Label()  # plain text: a Label shows it as it is
        self.check_button.on_click(lambda _: self.check())
        self.answer.on_msg(self._on_answer_message)  # Enter in the box checks, as on the page
        self.another_button.on_click(lambda _: self.another())
        super().__init__(
            [
                self.question,
                widgets.HBox([self.answer, self.check_button, self.another_button]),
                self.feedback,
                self.streak_line,
            ]
        )
        self.add_class("bleu-teach-practice")
        self._ask()

    def __repr__(self) -> str:
        return f"Practice({self.exercise_id!r}, number={self.number})"

    def _ask(self, asked: dict[str, Any] | None = None) -> None:
        asked = asked or page.practice_question(self.exercise_id, self.number)
        # The last answer and its feedback go before the new question shows (each is its own message to the
        # page): an answer typed as soon as the question shows is never cleared after it.
        self.answer.value = ""
        self.feedback.value = ""
        self.answer.placeholder = asked["label"]
        self.question.value = asked["html"]
        self.streak_line.value = Streak.restore(self.exercise_id, self.streak).message()

    def _on_answer_message(self, _: Any, content: Any, buffers: Any) -> None:
        """The text box's own message when Enter is pressed in it (ipywidgets' Text sends {"event": "submit"})."""
        if isinstance(content, dict) and content.get("event") == "submit":
            self.check()

    def check(self) -> str:
        """Check the answer in the box (as the page does); return the verdict ("" when nothing was checked)."""
        result = page.practice_check(self.exercise_id, self.number, self.answer.value, self.streak)
        self.feedback.value = result["html"]
        if result["streak"] is not None:
            self.streak = result["streak"]
            self.streak_line.value = result["streak_text"]
        return str(result["verdict"])

    def another(self) -> None:
        """The next practice question (after the last there is, the first again); asking for it before answering
        the one shown ends the run, as on the page."""
        asked = page.next_practice(self.exercise_id, self.number, self.streak)
        self.number, self.streak = asked["number"], asked["streak"]
        self._ask(asked)
