"""One place per extension: a toy explorer, a toy numeric exercise and a toy metric, each added where
CONTRIBUTING.md's recipe says (in a temporary copy of the package, the site's build and the scripts), are picked up
by everything that should offer them, with nothing else edited: the notebook widget and its saved bundle, the
site's form and the page's answer, practice and a student's variant, the quiz exports, the guide's tables, and
lesson 09's explorer and the metric's registry entry.

The recipe's edits are made here as text, each one counted: ``PLACES`` is the figure the maintainers' guide quotes
(places touched per extension)."""

from __future__ import annotations

import inspect
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_teach.exercises import exercises
from bleu_teach.exercises.bank import KINDS
from bleu_teach.exercises.drawers import DRAWN, POOLED
from bleu_teach.explorers.definitions import EXPLORERS
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
# Hypothesis "the cat sat on the mat the cat sat" against "the cat sat on the mat": 7 trigrams, "the cat sat" twice
# but once in the reference, "the mat the" and "mat the cat" not at all: 1 + 1 + 1 + 1 = 4 of 7.
TOY_EXERCISE = """
[[exercise]]
id = "07.4"
title = "Trigram clipping"
kind = "modified_precision"
skill = "trigram clipping"
question = "Hypothesis: *the cat sat on the mat the cat sat*; reference: *the cat sat on the mat*. p<sub>3</sub>?"
references = ["the cat sat on the mat"]
hypothesis = "the cat sat on the mat the cat sat"
n = 3
decimals = 3
answer = "4/7"
working = "7 trigrams; the cat sat twice, once in the reference: 1; cat sat on, sat on the, on the mat: 1 each."
"""
TOY_METRIC = """
LENGTH = Metric(
    name="Length",
    description="hypothesis words per reference word (a toy)",
    statistics=lambda hypothesis, references: (float(len(hypothesis.split())), float(len(references[0].split()))),
    from_statistics=lambda sums, sentence: 100 * sums[0] / sums[1] if sums[1] else 0.0,
    oracle=lambda sentence=False: None,
)
"""


def _edit(path: Path, old: str, new: str) -> int:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path.name, old)
    path.write_text(text.replace(old, new), encoding="utf-8")
    return 1


@pytest.fixture(scope="module")
def toy_copy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """The package, the site's build and the scripts copied, with the three extensions added as the recipes say."""
    copy = tmp_path_factory.mktemp("toy")
    for folder in ("bleu_teach", "bleu_teach_site", "scripts"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    package = copy / "bleu_teach"
    places = {"explorer": 0, "exercise": 0, "metric": 0}
    # An explorer: its declaration (and its name in EXPLORERS), and its notebook class.
    definitions = package / "explorers" / "definitions.py"
    places["explorer"] += _edit(
        definitions, "EXPLORERS: dict[str, Explorer] = ", TOY_EXPLORER + "EXPLORERS: dict[str, Explorer] = "
    )
    places["explorer"] += _edit(definitions, "DISAGREEMENT, TWO_METRICS)}", "DISAGREEMENT, TWO_METRICS, TOY)}")
    widget_file = package / "ui" / "widgets.py"
    widget_file.write_text(widget_file.read_text(encoding="utf-8") + TOY_WIDGET, encoding="utf-8")
    places["explorer"] += 1
    # A numeric exercise: its bank record, of a kind that exists (a trigram, which the drawers never asked about).
    bank = package / "exercises" / "bank.toml"
    text = bank.read_text(encoding="utf-8")
    seven_three = text.index('id = "07.3"')
    after = text.index("[[exercise]]", seven_three)
    bank.write_text(text[:after] + TOY_EXERCISE.lstrip("\n") + "\n" + text[after:], encoding="utf-8")
    places["exercise"] += 1
    # A metric: its registry entry.
    registry = package / "metrics.py"
    places["metric"] += _edit(
        registry, "#: Every registered metric by name", TOY_METRIC + "\n\n#: Every registered metric by name"
    )
    places["metric"] += _edit(registry, "for m in (BLEU, CHRF, TER)}", "for m in (BLEU, CHRF, TER, LENGTH)}")
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
found["after a change"] = widget.result is None, widget.output.value
from bleu_teach.web.page import widget as page_widget
from bleu_teach_site.live import widget_html
shown = page_widget("WordCountExplorer", {"text": "a b", "times": 2})
found["page value"] = shown["value"]
found["form"] = widget_html(EXPLORERS["WordCountExplorer"], {"text": "a b", "times": 2}, "toy", {}, shown, {})

# The exercise: the bank, practice, a student's variant, the quiz exports, the guide's tables.
from bleu_teach.exercises import check, exercise
from bleu_teach.exercises.practice import PRACTISED, SKILLS, another
from bleu_teach.exercises.variants import VARIED, worksheets
from bleu_teach.exercises.export import gift, moodle_xml
found["check"] = check("07.4", "4/7").verdict, check("07.4", "5/7").verdict
found["practised"] = "07.4" in PRACTISED, "07.4" in VARIED, SKILLS.get("07.4")
practice = another("07.4", 1)
found["practice question"] = practice.question
found["practice answer checks"] = practice.check(practice.answer_text).verdict
sheet = worksheets(2, 1, which=("07.4",))
found["worksheet"] = [ex.id for student in sheet for ex in student]
found["gift"] = "::07.4" in gift([exercise("07.4")])
found["moodle"] = "07.4" in moodle_xml([exercise("07.4")])
sys.path.insert(0, str(copy / "scripts"))
import solutions
row = "| 07.4 | Trigram clipping |"
found["guide"] = row in solutions.guide_table(), row in solutions.minutes_table()

# The metric: the registry, lesson 09's comparison and its explorer's menus.
from bleu_teach.metrics import METRICS, metric
from bleu_teach.lessons import two_metrics
found["registry"] = list(METRICS), metric("length").name
found["lesson 09 metrics"] = list(two_metrics.METRICS)
two = EXPLORERS["TwoMetricsExplorer"]
found["lesson 09 menus"] = [[value for value, _ in two.choices(two.control(name))] for name in ("metric_a", "metric_b")]
found["score"] = METRICS["Length"].corpus_score(["a b c"], [["a b c d"]])
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
    assert "16 words" in found["after a change"][1]
    assert found["page value"] == repr(4.0)
    form = found["form"]
    assert 'data-widget="WordCountExplorer"' in form and 'name="text"' in form and 'name="times"' in form
    assert "4 words" in form
    # The exercise
    assert found["check"][0] == "correct" and found["check"][1] != "correct"
    assert found["practised"] == [True, True, "trigram clipping"]
    assert "modified trigram precision" in found["practice question"]
    assert found["practice answer checks"] == "correct"
    assert found["worksheet"] == ["07.4", "07.4"]
    assert found["gift"] and found["moodle"] and found["guide"] == [True, True]
    # The metric
    assert found["registry"] == [["BLEU", "chrF", "TER", "Length"], "Length"]
    assert found["lesson 09 metrics"] == ["BLEU", "chrF", "TER", "Length"]
    assert found["lesson 09 menus"] == [["BLEU", "chrF", "TER", "Length"]] * 2
    assert found["score"] == 75.0
    # Where each was added: the explorer in 2 files (3 places), the exercise in 1, the metric in 1 (2 places).
    assert places == {"explorer": 3, "exercise": 1, "metric": 2}


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
