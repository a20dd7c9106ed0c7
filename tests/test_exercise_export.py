"""The teacher's files: the answer key (Markdown and a compiled PDF) and the Moodle XML quiz, read back and
compared with the bank; the Moodle file graded as Moodle grades a numerical answer."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree

import pytest
from markdown_it import MarkdownIt

from bleu_teach.exercises import check, exercise, exercises
from bleu_teach.exercises.bank import Exercise
from bleu_teach.exercises.media import question_text
from tests.view_checks import needs_weasyprint

BANK = exercises()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bleu_teach", "exercises", *args], capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def key_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    needs_weasyprint()  # skips (or fails under CI=true) without WeasyPrint and Pango
    out = tmp_path_factory.mktemp("key")
    run = _cli("key", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["wrote", str(out / "answer-key.md"), "wrote", str(out / "answer-key.pdf")]
    return out


def _inline_text(markdown: str) -> str:
    """The text a reader sees in rendered Markdown (markdown-it's tokens), escapes resolved."""
    parts = []
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type == "inline":
            parts.append(
                "".join(child.content for child in token.children or () if child.type in ("text", "code_inline"))
            )
    return "\n".join(parts)


def test_the_markdown_key_holds_every_answer_working_and_misconception(key_folder: Path):
    shown = _inline_text((key_folder / "answer-key.md").read_text(encoding="utf-8"))
    for ex in BANK:
        assert f"{ex.id} {ex.title}" in shown
        assert f"Answer: {ex.answer_text}." in shown
        for option in ex.options:
            assert option.misconception is None or f"misconception: {option.misconception}" in shown
        for m in check(ex.id, None).misconceptions if not ex.options else ():
            assert f"{float(m.value):.{ex.decimals}f}" in shown and m.message.replace("_", " ") in shown.replace(
                "_", " "
            )


def test_the_pdf_key_reads_back(key_folder: Path):
    text = subprocess.run(
        ["pdftotext", "answer-key.pdf", "-"], cwd=key_folder, capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())
    for ex in BANK:
        assert f"{ex.id} {ex.title}" in flat
        assert f"Answer: {ex.answer_text}." in flat


@pytest.fixture(scope="module")
def moodle(tmp_path_factory: pytest.TempPathFactory) -> ElementTree.Element:
    out = tmp_path_factory.mktemp("moodle")
    run = _cli("export", "--format", "moodle", "--out", str(out))
    assert run.returncode == 0, run.stderr
    return ElementTree.parse(out / "bleu-teach-exercises.moodle.xml").getroot()


def _shown(option_text: str, letter: str) -> str:
    """An option as a platform must show it: a bare letter naming a hypothesis said in words, a capital first."""
    if option_text == letter:
        return f"Hypothesis {letter}"
    word = option_text.split(" ")[0]  # "the same" becomes "The same"; "p<sub>2</sub> rises" stays
    return option_text[0].upper() + option_text[1:] if word.isalpha() and len(word) > 1 else option_text


def _general(ex: Exercise, rendered: bool = False) -> str:
    """The worked answer a platform shows after an attempt: the right option by its text, never a letter
    (``rendered``: its Markdown emphasis gone, as an HTML page shows it)."""
    word = ex.working.split(" ")[0]  # a sentence's capital, but never on a symbol: p_1, r
    working = ex.working[0].upper() + ex.working[1:] if word.isalpha() and len(word) > 1 else ex.working
    if ex.options:
        right = next(o for o in ex.options if o.letter == ex.answer)
        shown = _shown(right.text, right.letter)
        line = f"Answer: {shown.rstrip('.')}. {working}"
        return re.sub(r"(?<!\w)\*(\S(?:[^*]*\S)?)\*(?!\w)", r"\1", line) if rendered else line  # emphasis only
    return f"Answer: {ex.answer_text}. {working}"


def _expected_numbers(ex: Exercise) -> list[tuple[str, str, str]]:
    """A numeric question's answers as the platforms must store them: rounded as the question asks (fewer decimals
    where a mistake is matched more coarsely), with credit and feedback; then the right value times 100 where the
    checker names that mistake."""
    right = check(ex.id, ex.answer)
    rows = [(f"{float(right.right):.{ex.decimals}f}", "100", right.message)]
    rows += [
        (f"{float(m.value):.{ex.decimals - m.fewer_decimals}f}", "0", m.message)
        for m in check(ex.id, None).misconceptions
    ]
    scaled = check(ex.id, str(100 * float(right.right)))
    if "times 100" in scaled.message and scaled.recognised is None:
        rows.append((f"{100 * float(right.right):.{max(ex.decimals - 2, 0)}f}", "0", scaled.message))
    return rows


def test_the_moodle_file_holds_every_exercise_with_its_answers_and_feedback(moodle: ElementTree.Element):
    questions = [q for q in moodle.findall("question") if q.get("type") != "category"]
    assert [q.findtext("idnumber") for q in questions] == [ex.id for ex in BANK]
    for question, ex in zip(questions, BANK):
        assert question.findtext("name/text") == f"{ex.id} {ex.title}"
        assert question.findtext("generalfeedback/text") == _general(ex)
        answers = question.findall("answer")
        if ex.options:
            assert question.get("type") == "multichoice" and question.findtext("single") == "true"
            assert question.findtext("answernumbering") == "none"  # no "A. A": the texts say what each option is
            assert [a.findtext("text") for a in answers] == [_shown(o.text, o.letter) for o in ex.options]
            assert [a.get("fraction") for a in answers] == ["100" if o.letter == ex.answer else "0" for o in ex.options]
            assert [a.findtext("feedback/text") for a in answers] == [o.feedback for o in ex.options]
        else:
            assert question.get("type") == "numerical"
            assert [
                (a.findtext("text"), a.get("fraction"), a.findtext("feedback/text")) for a in answers
            ] == _expected_numbers(ex)
            assert all(len(a.findtext("text") or "") <= 8 for a in answers), ex.id  # never 0.6666666666666666


def test_moodle_grades_each_mistake_as_the_notebook_names_it(moodle: ElementTree.Element):
    """Moodle gives a numerical answer the first answer whose value is within its tolerance: each misconception's
    rounded answer must reach its own feedback, and the right answer rounded must get full marks."""
    by_id = {q.findtext("idnumber"): q for q in moodle.findall("question")}
    for ex in BANK:
        if ex.options:
            continue
        answers = [
            (float(a.findtext("text")), float(a.findtext("tolerance")), a.findtext("feedback/text"), a.get("fraction"))
            for a in by_id[ex.id].findall("answer")
        ]

        def graded(typed: float, answers=answers) -> tuple[str, str]:
            return next(
                (feedback, fraction)
                for value, tolerance, feedback, fraction in answers
                if abs(typed - value) <= tolerance + 1e-12
            )

        right = float(check(ex.id, ex.answer).right)
        assert graded(round(right, ex.decimals))[1] == "100" and graded(right)[1] == "100"
        for m in check(ex.id, None).misconceptions:
            assert graded(round(float(m.value), ex.decimals)) == (m.message, "0"), (ex.id, m.name)
        if 0 < right <= 1 and ex.id != "03.1":  # a BLEU score or a precision on the 0-100 scale: named as such
            assert "times 100" in graded(round(100 * right, ex.decimals - 2))[0], ex.id


def _gift_questions(text: str) -> list[dict[str, object]]:
    """GIFT read back as Moodle's format documentation describes it: a ``$CATEGORY`` line, questions separated by a
    blank line, ``::name::`` then the text, the answers between braces (``#`` for a numeric question), each
    answer's ``#feedback``, and ``####`` the general feedback; a backslash escapes ``~=#{}:``."""
    unescape = lambda t: re.sub(r"\\([~=#{}:\\])", r"\1", t).replace("\\n", "\n")  # noqa: E731
    found: list[dict[str, object]] = []
    category = None
    for block in re.split(r"\n\s*\n", text.strip()):
        if block.startswith("$CATEGORY:"):
            category = block.split(":", 1)[1].strip()
            continue
        assert not block.lstrip().startswith("//"), block[:60]  # a comment Moodle would drop
        match = re.fullmatch(r"::((?:[^:\\]|\\.)*)::(.*?)\{(#?)\n(.*)\}", block.strip(), re.S)
        assert match, block[:80]
        lines = [line.strip() for line in match.group(4).strip().split("\n")]
        general = [unescape(line[4:]) for line in lines if line.startswith("####")]
        answers = []
        for line in (line for line in lines if not line.startswith("####")):
            head, _, feedback = re.match(r"((?:[^#\\]|\\.)*)(#(.*))?$", line).group(1, 2, 3)  # type: ignore[union-attr]
            answers.append((head, unescape(feedback or "")))
        found.append(
            {
                "category": category,
                "name": unescape(match.group(1)),
                "numeric": match.group(3) == "#",
                "answers": answers,
                "general": general,
            }
        )
    return found


def test_the_gift_file_has_a_category_worked_answers_as_general_feedback_and_rounded_numbers(tmp_path: Path):
    run = _cli("export", "--format", "gift", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    questions = _gift_questions((tmp_path / "bleu-teach-exercises.gift.txt").read_text(encoding="utf-8"))
    assert [q["name"] for q in questions] == [f"{ex.id} {ex.title}" for ex in BANK]
    for question, ex in zip(questions, BANK):
        assert question["category"] == "$course$/bleu-teach"
        assert question["general"] == [" ".join(_general(ex).split())]
        assert question["numeric"] == (not ex.options)
        if not ex.options:
            expected = [
                (f"=%{credit}%{value}:{0.5 * 10.0 ** -(len(value.split('.')[1]) if '.' in value else 0):g}", feedback)
                for value, credit, feedback in _expected_numbers(ex)
            ]
            assert [(head, feedback) for head, feedback in question["answers"]] == expected, ex.id  # type: ignore[misc]


def test_exercises_without_a_command_says_what_to_write():
    run = _cli()
    assert run.returncode == 2 and "exercises key --out DIR" in run.stderr


def _html_text(html: str) -> str:
    """The words of an HTML fragment (text2qti's rendering of a Markdown text)."""
    import html as entities
    import re

    text = entities.unescape(re.sub(r"<[^>]+>", "", html))
    typographic = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'}  # text2qti's smart quotes
    return " ".join("".join(typographic.get(c, c) for c in text).split())


def test_the_qti_package_holds_every_exercise_with_its_right_answer_and_feedback(tmp_path: Path):
    """The QTI package text2qti makes, read back with ElementTree: one item per exercise, titled by its id."""
    import zipfile

    run = _cli("export", "--format", "qti", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    with zipfile.ZipFile(tmp_path / "bleu-teach-exercises.qti.zip") as package:
        name = next(
            n
            for n in package.namelist()
            if n.endswith(".xml") and "assessment_meta" not in n and "imsmanifest" not in n
        )
        root = ElementTree.fromstring(package.read(name))
    ns = {"q": root.tag.split("}")[0][1:]} if root.tag.startswith("{") else {}
    prefix = "q:" if ns else ""
    items = root.findall(f".//{prefix}item", ns)
    assert [item.get("title") for item in items] == [f"{ex.id} {ex.title}" for ex in BANK]
    for item, ex in zip(items, BANK):
        feedback = {
            fb.get("ident"): _html_text(fb.findtext(f".//{prefix}mattext", "", ns))
            for fb in item.findall(f"{prefix}itemfeedback", ns)
        }
        assert feedback["general_fb"] == _html_text(_general(ex, rendered=True))
        assert not re.search(r"\b[A-F]\)|Answer: [A-F]\.", feedback["general_fb"]), ex.id  # Canvas shows no letters
        if ex.options:
            labels = item.findall(f".//{prefix}response_label", ns)
            texts = [_html_text(label.findtext(f".//{prefix}mattext", "", ns)) for label in labels]
            assert texts == [_html_text(_shown(o.text, o.letter).replace("*", "")) for o in ex.options]
            scored = [
                c.findtext(f".//{prefix}varequal", "", ns)
                for c in item.findall(f".//{prefix}respcondition", ns)
                if c.find(f"{prefix}setvar", ns) is not None
            ]
            right = [label.get("ident") for label in labels]
            assert scored == [right[[o.letter for o in ex.options].index(ex.answer)]]
            for label, option in zip(labels, ex.options):
                assert feedback[f"{label.get('ident')}_fb"] == " ".join(option.feedback.split())
        else:
            # Graded as Canvas grades it: the right answer rounded as the question asks is inside the range,
            # every misconception's rounded answer outside (text2qti writes the range's ends rounded).
            bounds = [float(e.text) for e in item.iter() if e.tag.split("}")[-1] in ("vargte", "varlte")]
            low, high = min(bounds), max(bounds)
            assert low <= round(float(check(ex.id, ex.answer).right), ex.decimals) <= high, ex.id
            for m in check(ex.id, None).misconceptions:
                assert not low <= round(float(m.value), ex.decimals) <= high, (ex.id, m.name)


def test_platform_questions_do_not_offer_fractions_their_numerical_questions_reject(moodle: ElementTree.Element):
    """Moodle's and Canvas's numerical questions read decimals only, so their question texts ask for decimals."""
    texts = [q.findtext("questiontext/text") for q in moodle.findall("question") if q.get("type") == "numerical"]
    assert texts and not [t for t in texts if "fraction" in t.lower()]
    assert "fraction" in question_text(exercise("01.1"), "notebook")  # the notebook's question does offer one


def test_every_platform_text_stands_alone_and_names_no_option_by_a_letter(moodle: ElementTree.Element):
    """A quiz shows no lesson, table or explorer, and (Canvas, GIFT's shuffled options) no letters: its questions,
    feedback and worked answers carry what they refer to."""
    outside = re.compile(
        r"\b(lesson|section|notebook|explorer|the table|compare_tools)\b|\b(above|below)\b(?! (\d|its|the))", re.I
    )  # "above" a place, not "above 1"
    for question in moodle.findall("question"):
        if question.get("type") == "category":
            continue
        texts = [e.text or "" for e in question.iter("text")]
        for text in texts:
            assert not outside.search(text), (question.findtext("idnumber"), outside.search(text).group(0), text[:120])
        general = question.findtext("generalfeedback/text") or ""
        if question.get("type") == "multichoice":  # a bare letter that is not a hypothesis's or a reference's name
            assert not re.search(r"(?<![Hh]ypothesis )(?<!ref-)\b[A-F]\b(?![-'])", general.replace("BLEU-4", "")), (
                question.findtext("idnumber"),
                general[:160],
            )


# A clipping question whose right answer is an exact tie at its 3 decimals: 9 of the 16 hypothesis tokens match
# after clipping ("of" four times, twice in the reference), 9/16 = 0.5625, which a learner rounds to 0.563 (half
# up, as taught at school) or 0.562 (half to even). Both must get full credit everywhere.
TIE_INPUTS = {
    "references": ["I'm going to show you some of the separate bits of our index ."],
    "hypothesis": "Below , I will show you some of the divisions of of of our index .",
    "n": 1,
}
TIE_QUESTION = (
    "Hypothesis: “Below , I will show you some of the divisions of of of our index .”; the reference "
    "“I'm going to show you some of the separate bits of our index .”. What is the modified unigram "
    "precision?"
)


@pytest.fixture(scope="module")
def tie() -> Exercise:
    from fractions import Fraction

    from nltk.translate.bleu_score import modified_precision

    from bleu_teach.exercises.variants import rebuild

    exact = modified_precision([TIE_INPUTS["references"][0].split()], TIE_INPUTS["hypothesis"].split(), 1)
    assert Fraction(exact.numerator, exact.denominator) == Fraction(9, 16)  # NLTK, the oracle: 0.5625
    return rebuild("07.1", TIE_INPUTS, TIE_QUESTION, variant=1)


def _moodle_grade(answers: list[tuple[str, str, str]], typed: str) -> str | None:
    """The credit Moodle gives a typed number: the first answer whose interval holds it, the interval being the
    answer plus or minus its tolerance widened by 1e-14 times max(1, |answer|) (qtype_numerical_answer's
    get_tolerance_interval, nominal tolerance)."""
    for value, tolerance, credit in answers:
        margin = float(tolerance) + 1e-14 * max(1.0, abs(float(value)))
        if float(value) - margin <= float(typed) <= float(value) + margin:
            return credit
    return None


def test_an_exact_tie_gets_full_credit_rounded_either_way_on_every_platform_and_in_the_key(
    tie: Exercise, tmp_path: Path
):
    import zipfile

    from bleu_teach.exercises.export import answer_key, gift, moodle_xml, write_qti
    from bleu_teach.exercises.worksheet import worksheet_key

    assert tie.check("0.563").correct and tie.check("0.562").correct  # the checker takes both
    xml = ElementTree.fromstring(moodle_xml([tie]))
    question = next(q for q in xml.findall("question") if q.get("type") == "numerical")
    answers = [
        (a.findtext("text") or "", a.findtext("tolerance") or "", a.get("fraction") or "")
        for a in question.findall("answer")
    ]
    assert _moodle_grade(answers, "0.563") == "100" and _moodle_grade(answers, "0.562") == "100"
    block = next(q for q in _gift_questions(gift([tie])) if q["numeric"])
    gift_answers = [
        re.fullmatch(r"=%(\d+)%([-0-9.]+):([0-9.e-]+)", head).group(2, 3, 1)  # type: ignore[union-attr]
        for head, _ in block["answers"]
    ]  # type: ignore[attr-defined]
    assert _moodle_grade(gift_answers, "0.563") == "100" and _moodle_grade(gift_answers, "0.562") == "100"
    write_qti(str(tmp_path / "quiz.zip"), [tie])
    with zipfile.ZipFile(tmp_path / "quiz.zip") as package:
        name = next(
            n
            for n in package.namelist()
            if n.endswith(".xml") and "assessment_meta" not in n and "imsmanifest" not in n
        )
        root = ElementTree.fromstring(package.read(name))
    bounds = {
        e.tag.split("}")[-1]: float(e.text or "") for e in root.iter() if e.tag.split("}")[-1] in ("vargte", "varlte")
    }
    assert bounds["vargte"] <= 0.562 and 0.563 <= bounds["varlte"]  # Canvas: low <= typed <= high
    for text in (answer_key([tie]).to_text(), worksheet_key([[replace(tie, student=1, variant=None)]], 1).to_text()):
        assert "0.562 or 0.563" in " ".join(text.split())
