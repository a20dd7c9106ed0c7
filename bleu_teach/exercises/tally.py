"""The class's misconceptions from a learning platform: every answer in a quiz's export run through the checkers.

:func:`read_responses` reads the two exports a teacher can download:

* **Moodle**, the quiz's *Responses* report (Quiz > Results > Responses,
  with "Question text" and "Response" shown, downloaded as CSV): a row per
  attempt with columns ``Question 1``, ``Response 1``, ``Question 2``, ...
* **Canvas**, the quiz's *Student Analysis* report (Quiz > Quiz Statistics >
  Student Analysis, a CSV): a row per attempt, a column per question headed
  ``<question id>: <question text>``, each followed by its points column.

:func:`tally` finds each question among the exercises the quiz was made
from (by its text, as the platform shows it), checks each response with the
exercise's checker, and counts per exercise: how many answered, how many
were right, how many made each named mistake, how many gave another wrong
answer, and how many gave something that is not an answer at all.

>>> text = "Surname,First name,State,Question 1,Response 1\\nNg,Zoe,Finished,x,0.5\\n"
>>> read_responses(text).platform, read_responses(text).attempts
('moodle', ((('x', '0.5'),),))
"""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bleu_teach.exercises.bank import Exercise
from bleu_teach.exercises.export import platform_option
from bleu_teach.exercises.media import question_text
from bleu_teach.views.document import Bars, Block, Document, Heading, Paragraph, Section
from bleu_teach.views.viewable import View

__all__ = ["Responses", "csv_rows", "read_responses", "tally", "MAX_BYTES", "MAX_ANSWER_CHARACTERS"]

#: The largest export read (a class of several hundred students is a few megabytes), and the longest response
#: checked (longer ones are counted as not an answer).
MAX_BYTES = 50_000_000
MAX_ANSWER_CHARACTERS = 200

_CANVAS_QUESTION = re.compile(r"^\s*\d+:\s*(.*)$", re.S)
_MOODLE_QUESTION = re.compile(r"^\s*Question\s+(\d+)\s*$", re.I)
_MOODLE_RESPONSE = re.compile(r"^\s*Response\s+(\d+)\s*$", re.I)
#: The verdict of an answer given 100 times too large (a percentage, or sacreBLEU's 0-100 scale).
TIMES_100 = "times 100 (a percentage, or the 0-100 scale)"
#: What a platform writes for a question left unanswered.
_BLANK = {"", "-", "--"}
#: A number followed by a percent sign (ASCII, full-width or Arabic), spaces allowed before it: "83.3%", "88,2 %".
_PERCENT = re.compile(r"^(.*\d)\s*[%\uff05\u066a]$", re.S)


@dataclass(frozen=True)
class Responses:
    """A quiz's answers: the platform, and for each attempt its (question text, response) pairs."""

    platform: str
    attempts: tuple[tuple[tuple[str, str], ...], ...]
    #: Rows left out: attempts not finished (in progress, overdue, never submitted) and summary rows.
    left_out: int = 0


def read_responses(text: str) -> Responses:
    """Moodle's Responses report or Canvas's Student Analysis report, as CSV text (the platform is told apart by
    its columns). ``ValueError`` names what is missing when the text is neither."""
    if not isinstance(text, str):
        raise TypeError(f"text must be the export's CSV text (a str), not {type(text).__name__}.")
    if len(text) > MAX_BYTES:
        raise ValueError(f"the export is larger than {MAX_BYTES:,} characters; export one quiz at a time.")
    rows = [row for _, row in csv_rows(text)]
    if not rows:
        raise ValueError(
            "the export is empty; download the quiz's Responses report (Moodle) or Student Analysis "
            "report (Canvas) as CSV."
        )
    header = rows[0]
    questions = {int(m.group(1)): k for k, cell in enumerate(header) if (m := _MOODLE_QUESTION.match(cell))}
    responses = {int(m.group(1)): k for k, cell in enumerate(header) if (m := _MOODLE_RESPONSE.match(cell))}
    if responses:
        if set(questions) != set(responses):
            raise ValueError(
                "this Moodle Responses report has no question texts: download it again with "
                '"Question text" ticked beside "Response" (Quiz > Results > Responses).'
            )
        slots = sorted(responses)
        state = next((k for k, cell in enumerate(header) if cell.strip().lower() == "state"), None)
        finished = [
            row
            for row in rows[1:]
            if len(row) > 1
            and not row[0].startswith("Overall average")
            and (state is None or _cell(row, state).strip().lower() == "finished")
        ]
        attempts = tuple(tuple((_cell(row, questions[n]), _cell(row, responses[n])) for n in slots) for row in finished)
        left = sum(1 for row in rows[1:] if len(row) > 1) - len(finished)
        return Responses("moodle", attempts, left)
    canvas = [(k, m.group(1)) for k, cell in enumerate(header) if (m := _CANVAS_QUESTION.match(cell))]
    if canvas:
        attempts = tuple(tuple((question, _cell(row, k)) for k, question in canvas) for row in rows[1:] if len(row) > 1)
        return Responses("canvas", attempts)
    raise ValueError(
        "this is neither a Moodle Responses report (columns Question 1, Response 1, ...) nor a Canvas "
        "Student Analysis report (columns headed '<id>: <question text>'); download one of them as CSV."
    )


def csv_rows(text: str) -> list[tuple[int, list[str]]]:
    """A spreadsheet's CSV text as (line number, cells) rows: commas, or the semicolons a spreadsheet saves with
    in many languages, or tabs, told apart by the text itself."""
    text = text.lstrip("\ufeff")
    try:
        dialect: Any = csv.Sniffer().sniff(text[:8192], delimiters=",;\t")
    except csv.Error:  # one column, or nothing to tell by: commas
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    return [(reader.line_num, row) for row in reader]


def _cell(row: Sequence[str], k: int) -> str:
    return row[k] if k < len(row) else ""


def _plain(text: str) -> str:
    """Text as compared: HTML tags, Markdown marks and everything but letters and digits dropped, lower case."""
    text = html.unescape(re.sub(r"<[^>]*>", " ", text))
    return "".join(c for c in text.lower() if c.isalnum())


def _find(question: str, known: Sequence[tuple[str, Exercise]]) -> Exercise | None:
    """The exercise whose platform text is this question's (or begins with it, where a report shortens it)."""
    plain = _plain(question)
    if len(plain) < 20:
        return None
    exact = [ex for text, ex in known if text == plain]
    if exact:
        return exact[0]
    starting = [ex for text, ex in known if text.startswith(plain) or plain.startswith(text)]
    return starting[0] if len(starting) == 1 else None


def _verdict(ex: Exercise, response: str) -> str:
    """What an answer is: "right", a named mistake, "another wrong answer" or "not an answer"."""
    answer = response.strip()
    if len(answer) > MAX_ANSWER_CHARACTERS:
        return "not an answer"
    if ex.options:
        plain = _plain(answer)
        letter = next(
            (
                o.letter
                for o in ex.options
                if plain in (_plain(platform_option(ex, o.letter)), _plain(o.text), o.letter.lower())
            ),
            None,
        )
        if letter is None:
            return "not an answer"
        answer = letter
    elif (percent := _PERCENT.match(answer)) is not None:
        answer = percent.group(1)  # "83.3%" is 83.3 on the 0-100 scale: the checker names it as such
    try:
        feedback = ex.check(answer)
    except (TypeError, ValueError):
        return "not an answer"
    if feedback.correct:
        return "right"
    if feedback.recognised:
        return feedback.recognised.replace("_", " ")
    if "times 100" in feedback.message:  # the checker's own words for the 0-100 scale
        return TIMES_100
    return "another wrong answer"


def tally(responses: Responses, exercises: Sequence[Exercise]) -> View:
    """How the class answered each exercise: answered, right, each named mistake, other answers (a View: text,
    Markdown, HTML with a bar chart per exercise, JSON)."""
    known = [(_plain(question_text(ex, "platform")), ex) for ex in exercises]
    counts: dict[str, dict[str, int]] = {}
    titles: dict[str, str] = {}
    unmatched: set[str] = set()
    read = 0
    for attempt in responses.attempts:
        for question, response in attempt:
            if response.strip() in _BLANK:
                continue
            ex = _find(question, known)
            if ex is None:
                unmatched.add(question[:80])
                continue
            read += 1
            titles[ex.id] = ex.title
            verdict = _verdict(ex, response)
            mine = counts.setdefault(ex.id, {})
            mine[verdict] = mine.get(verdict, 0) + 1
    blocks: list[Block] = [
        Heading("What the class answered"),
        Paragraph(
            (
                f"{len(responses.attempts)} finished attempts from a {responses.platform.capitalize()} "
                f"export, {read} answers checked with the lessons' checkers, grouped by exercise (every variant "
                "of an exercise together)."
                + (
                    f" {responses.left_out} rows left out (attempts not finished, or a summary row)."
                    if responses.left_out
                    else ""
                ),
            )
        ),
    ]
    if unmatched:
        many = len(unmatched) != 1
        blocks.append(
            Paragraph(
                (
                    f"{len(unmatched)} question{'s' if many else ''} of the export "
                    f"{'are' if many else 'is'} not among the exercises given (another quiz's, or a "
                    "worksheet quiz read without its --variants file), and "
                    f"{'were' if many else 'was'} left out.",
                )
            )
        )
    data: list[dict[str, Any]] = []
    for exercise_id in sorted(counts):
        mine = counts[exercise_id]
        answered = sum(mine.values())
        order = [
            "right",
            *sorted(
                (k for k in mine if k not in ("right", "another wrong answer", "not an answer")), key=lambda k: -mine[k]
            ),
            "another wrong answer",
            "not an answer",
        ]
        rows = tuple((name, mine[name]) for name in order if name in mine)
        blocks.append(
            Section(
                (f"{exercise_id} {titles[exercise_id]}",),
                (
                    Paragraph((f"{answered} answered, {mine.get('right', 0)} right.",)),
                    Bars(f"Answers to {exercise_id}", rows, answered),
                ),
            )
        )
        data.append({"id": exercise_id, "answered": answered, "verdicts": dict(rows)})
    if not counts:
        blocks.append(Paragraph(("No answer in the export matched an exercise.",)))
    return View(Document(tuple(blocks)), data)
