"""One place per extension: a toy explorer, a toy numeric exercise and a toy metric, each added where
CONTRIBUTING.md's recipe says (in a temporary copy of the package, the site's build and the scripts), are picked up
by everything that should offer them, with nothing else edited: the notebook widget and its saved bundle, the
site's form and the page's answer, practice and a student's variant, the quiz exports, the guide's tables, and
lesson 09's explorer, with the metric's numbers equal to its sacreBLEU oracle's.

The recipe's edits are made here as text, each one counted (the places the closing figures quote). A real
extension needs more than the toys: a lesson cell for an exercise (and ``make notebooks``), a test against its
oracle, a view of its own module."""

from __future__ import annotations

import inspect
import json
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bleu_teach.exercises import exercise, exercises
from bleu_teach.exercises.bank import KINDS
from bleu_teach.exercises.drawers import DRAWN, POOLED
from bleu_teach.explorers.definitions import EXPLORERS
from bleu_teach.metrics import METRICS
from bleu_teach.ui import widgets

ROOT = Path(__file__).resolve().parents[1]

TOY_EXPLORER = """
def _toy_view(values, context):
    from bleu_teach.views.document import Document, Paragraph
    from bleu_teach.views.html_writer import write_html

    words = len(values["text"].split()) * values["times"]
    return WidgetView(write_html(Document((Paragraph((f"{words} words",)),))), float(words), "words")


TOY = Explorer(
    "WordCountExplorer",
    "Word count explorer",
    (
        Control("text", "Text", "line", "the cat sat"),
        Control("times", "Times", "slider", 2, high=5),
    ),
    _toy_view,
)


"""
TOY_WIDGET = '''

class WordCountExplorer(ExplorerWidget):
    """Count the words of a text (a toy)."""

    def __init__(self, text: str = "the cat sat", times: int = 2) -> None:
        self._build(self.given(locals()))
'''
# References of 14, 6, 11 and 17 tokens, a hypothesis of 10: the closest is 11 (1 away; 6 and 14 are 4 away), c <= r,
# so BP = exp(1 - 11/10) = exp(-0.1) = 0.905. The first reference would give exp(1 - 14/10) = 0.670, the shortest 1,
# the longest exp(1 - 17/10) = 0.497, the mean length (12) exp(-0.2) = 0.819.
TOY_EXERCISE = """[[exercise]]
id = "03.3"
title = "BP with four other references"
kind = "brevity_penalty"
skill = "the brevity penalty, again"
question = "References of 14, 6, 11 and 17 tokens; a hypothesis of 10 tokens. What is BP?"
reference_lengths = [14, 6, 11, 17]
hypothesis_length = 10
decimals = 3
answer = 0.905
working = "the closest reference is 11 (1 token away); c = 10 <= r = 11, so BP = exp(1 - 11/10) = exp(-0.1)."

"""
TOY_METRIC = """
def _chrf4_statistics(hypothesis, references):
    (segment,) = chrf_score([hypothesis], [list(references)], char_order=4).segments
    return tuple(getattr(order, name) for order in segment.counts for name in _CHRF_FIELDS)


def _chrf4_oracle(sentence=False):
    from sacrebleu.metrics import CHRF as SacreCHRF

    return SacreCHRF(char_order=4)


CHRF4 = Metric(
    name="chrF4",
    description="chrF with character n-grams up to 4 (a toy)",
    statistics=_chrf4_statistics,
    from_statistics=_chrf_from_statistics,
    oracle=_chrf4_oracle,
)


"""
#: Where the recipes add a name to a registry: the tuple the registry is built from, whatever its layout.
REGISTRY_TUPLE = r"{name}: dict\[str, {kind}\] = \{{[^}}]*?\((?P<body>[^()]*?)(?P<at>,?\s*)\)\s*\}}"


def _edit(path: Path, pattern: str, new: str) -> int:
    """Put ``new`` at the one match of ``pattern`` (at its group ``at``: an empty group for "just before")."""
    text = path.read_text(encoding="utf-8")
    found = list(re.finditer(pattern, text, re.DOTALL | re.MULTILINE))
    assert len(found) == 1, f"{path.name}: the recipe's place {pattern!r} is not there once; update this test"
    start, end = found[0].span("at")
    path.write_text(text[:start] + new + text[end:], encoding="utf-8")
    return 1


@pytest.fixture(scope="module")
def toy_copy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """The package, the site's build and the scripts copied, with the three extensions added as the recipes say."""
    copy = tmp_path_factory.mktemp("toy")
    for folder in ("bleu_teach", "bleu_teach_site", "scripts"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    package = copy / "bleu_teach"
    places = {"explorer": 0, "exercise": 0, "metric": 0}
    # An explorer: its declaration (and its name in EXPLORERS), and its notebook class named as the declaration.
    definitions = package / "explorers" / "definitions.py"
    places["explorer"] += _edit(definitions, r"(?P<at>)^EXPLORERS: dict", TOY_EXPLORER.lstrip("\n"))
    places["explorer"] += _edit(definitions, REGISTRY_TUPLE.format(name="EXPLORERS", kind="Explorer"), ", TOY")
    widget_file = package / "ui" / "widgets.py"
    widget_file.write_text(widget_file.read_text(encoding="utf-8") + TOY_WIDGET, encoding="utf-8")
    places["explorer"] += 1
    # A numeric exercise: its bank record (of a kind that exists), after lesson 03's last.
    places["exercise"] += _edit(
        package / "exercises" / "bank.toml", r'id = "03\.2".*?\n(?P<at>)\[\[exercise\]\]', TOY_EXERCISE
    )
    # A metric: its registry entry, and its name in METRICS.
    registry = package / "metrics.py"
    places["metric"] += _edit(registry, r"(?P<at>)^#: Every registered metric by name", TOY_METRIC.lstrip("\n"))
    places["metric"] += _edit(registry, REGISTRY_TUPLE.format(name="METRICS", kind="Metric"), ", CHRF4")
    return copy, places


CHECKS = r"""
import json, sys
from pathlib import Path

copy = Path(sys.argv[1])
import bleu_teach
assert Path(bleu_teach.__file__).is_relative_to(copy), bleu_teach.__file__  # the copy, not the project
found = {}

# The explorer: the notebook widget, its saved bundle, the page's answer and the site's form.
from bleu_teach.explorers.definitions import EXPLORERS
from bleu_teach.explorers.saved import EXPLORER_MIME, saved_explorer
from bleu_teach.ui.widgets import WordCountExplorer
widget = WordCountExplorer("a b c d", times=3)
found["widget output"] = widget.output.value
bundle = widget._repr_mimebundle_()
found["bundle"] = bundle[EXPLORER_MIME]
found["read back"] = saved_explorer(bundle)[1]
widget.controls["times"].value = 4
found["after a change"] = widget.output.value
from bleu_teach.web.page import widget as page_widget
from bleu_teach_site.live import widget_html
shown = page_widget("WordCountExplorer", {"text": "a b", "times": 2})
found["page value"] = shown["value"]
found["form"] = widget_html(EXPLORERS["WordCountExplorer"], {"text": "a b", "times": 2}, "toy", {}, shown, {})

# The exercise: the bank, practice (twenty questions, none the same), a worksheet, the quiz exports, the guide.
from bleu_teach.exercises import check, exercise
from bleu_teach.exercises.practice import PRACTISED, SKILLS, another
from bleu_teach.exercises.variants import VARIED, worksheets
from bleu_teach.exercises.export import gift, moodle_xml
found["check"] = [check("03.3", answer).verdict for answer in ("0.905", "0.670", "1", "0.497")]
found["practised"] = "03.3" in PRACTISED, "03.3" in VARIED, SKILLS.get("03.3")
questions = [another("03.3", number) for number in range(1, 21)]
found["practice questions"] = [q.question for q in questions]
found["practice answers check"] = [q.check(q.answer_text).verdict for q in questions]
found["worksheet"] = [ex.id for student in worksheets(2, 1, which=("03.3",)) for ex in student]
found["gift"] = "::03.3" in gift([exercise("03.3")])
found["moodle"] = "03.3" in moodle_xml([exercise("03.3")])
sys.path.insert(0, str(copy / "scripts"))
import solutions
row = "| 03.3 | BP with four other references |"
found["guide"] = row in solutions.guide_table(), row in solutions.minutes_table()

# The metric: the registry, its oracle's numbers, lesson 09's comparison and its explorer's menus.
from bleu_teach.metrics import METRICS, metric
from bleu_teach.lessons import two_metrics
found["registry"] = list(METRICS), metric("CHRF4").name
hyps, refs = ["the cat sat on the mat", "a dog barks"], [["the cat is on the mat"], ["there is a dog"]]
chrf4 = METRICS["chrF4"]
found["score"] = chrf4.corpus_score(hyps, refs), chrf4.oracle().corpus_score(hyps, [[r[0] for r in refs]]).score
oracle = chrf4.oracle(sentence=True)
found["sentence"] = chrf4.sentence_score(hyps[0], refs[0]), oracle.sentence_score(hyps[0], refs[0]).score
found["lesson 09 metrics"] = list(two_metrics.METRICS)
two = EXPLORERS["TwoMetricsExplorer"]
found["lesson 09 menus"] = [[value for value, _ in two.choices(two.control(name))] for name in ("metric_a", "metric_b")]
print(json.dumps(found))
"""


def test_a_toy_explorer_exercise_and_metric_are_picked_up_from_their_one_place(toy_copy):
    copy, places = toy_copy
    run = subprocess.run(
        [sys.executable, "-c", CHECKS, str(copy)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=copy,
        env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "HOME": str(copy)},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    found = json.loads(run.stdout.splitlines()[-1])
    # The explorer
    assert "12 words" in found["widget output"]  # "a b c d", three times
    assert found["bundle"] == {"explorer": "WordCountExplorer", "values": {"text": "a b c d", "times": 3}}
    assert found["read back"] == {"text": "a b c d", "times": 3}
    assert "16 words" in found["after a change"]
    assert found["page value"] == repr(4.0)
    form = found["form"]
    assert 'data-widget="WordCountExplorer"' in form and 'name="text"' in form and 'name="times"' in form
    assert "4 words" in form
    # The exercise: right, then the first reference's, the shortest's and the longest's BP, each not right
    assert found["check"][0] == "correct" and "correct" not in found["check"][1:]
    assert found["practised"] == [True, True, "the brevity penalty, again"]
    assert len(set(found["practice questions"])) == 20 and found["practice answers check"] == ["correct"] * 20
    assert found["worksheet"] == ["03.3", "03.3"]
    assert found["gift"] and found["moodle"] and found["guide"] == [True, True]
    # The metric: last in every list, after the project's own; its numbers sacreBLEU's
    assert found["registry"] == [[*METRICS, "chrF4"], "chrF4"]
    assert found["lesson 09 metrics"] == [*METRICS, "chrF4"]
    assert found["lesson 09 menus"] == [[*METRICS, "chrF4"]] * 2
    assert found["score"][0] == pytest.approx(found["score"][1], abs=1e-9)
    assert found["sentence"][0] == pytest.approx(found["sentence"][1], abs=1e-9)
    # Where each was added: the explorer in 2 files (3 places), the exercise in 1, the metric in 1 (2 places).
    assert places == {"explorer": 3, "exercise": 1, "metric": 2}


def test_a_clipping_exercise_the_drawer_cannot_vary_is_refused_by_name():
    """The WMT21 sentences give unigram and bigram clipping questions for a whole class; a trigram one ran out after
    three practice questions. A record that asks for one is refused, saying why and what to do."""
    trigram = replace(exercise("07.1"), id="07.9", inputs={**exercise("07.1").inputs, "n": 3})
    with pytest.raises(ValueError, match=r"exercise 07\.9: .*n = 1 or 2.*n = 3"):
        DRAWN["modified_precision"](trigram)


def _plain(value: object) -> object:
    return list(value) if isinstance(value, (list, tuple)) else value


def test_every_explorer_widget_says_its_declaration_once_with_its_defaults():
    """The notebook class's signature names every declared control, with the declared default; its other
    parameters (no default) are the data an explorer of data is given."""
    classes = {
        cls.declaration.name: cls
        for cls in vars(widgets).values()
        if isinstance(cls, type) and issubclass(cls, widgets.ExplorerWidget) and cls is not widgets.ExplorerWidget
    }
    assert sorted(classes) == sorted(EXPLORERS) and all(name == cls.__name__ for name, cls in classes.items())
    for name, cls in classes.items():
        parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
        defaults = {p.name: p.default for p in parameters if p.default is not inspect.Parameter.empty}
        declared = {c.name: c.default for c in EXPLORERS[name].controls}
        assert set(defaults) == set(declared), name
        for control, default in declared.items():  # a tuple in a signature is the declared list
            assert _plain(defaults[control]) == _plain(default), (name, control)


def test_every_numeric_kind_has_its_variants_drawn_and_every_numeric_exercise_is_practised():
    from bleu_teach.exercises.practice import PRACTISED, SKILLS

    numeric = {kind for kind in KINDS if kind not in ("choice", "reference_length", "higher")}
    assert numeric == set(DRAWN) | set(POOLED) and not set(DRAWN) & set(POOLED)
    assert PRACTISED == tuple(ex.id for ex in exercises() if ex.kind in numeric)
    assert all(SKILLS[i] for i in PRACTISED)
