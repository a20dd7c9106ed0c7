"""The static site's build (the bleu_teach_site package) in plain Python: the learning path read from the lessons,
the live-explorer links read from the explorers' saved state, and the Python the browser runs.

The links are checked against what each notebook explorer showed when the notebook was executed (its
saved output HTML), and the browser's Python against bleu_teach and sacreBLEU as installed here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs

import nbformat
import pytest

import bleu_teach as bt
from bleu_teach.explorers import saved
from bleu_teach.views.html_writer import write_html
from bleu_teach_site import browser_python, build, live, markdown, slides
from bleu_teach_site import lessons as site_lessons

PROJECT = Path(__file__).resolve().parents[1]

LESSONS = sorted((PROJECT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
DECKS = sorted((PROJECT / "notebooks" / "slides").glob("*.ipynb"))
STATE = saved.WIDGET_STATE


def _title_cell(number: str, title: str, minutes: int) -> str:
    return (
        f"# {number} · {title}\n\n**You will learn:** what [BLEU](GLOSSARY.md#bleu) counts.\n"
        f"**You need first:** nothing.\n**Time:** about {minutes} minutes."
    )


def _manifest(folder: Path, lessons: list[tuple[str, str, int]]) -> None:
    (folder / "course.toml").write_text(
        "".join(
            f'[[lesson]]\nfile = "{name}.ipynb"\ntitle = "{title}"\nshort = "{title}"\nminutes = {minutes}\n'
            f'teaches = "it"\n\n'
            for name, title, minutes in lessons
        ),
        encoding="utf-8",
    )


def test_the_learning_path_comes_from_the_course_manifest(tmp_path: Path):
    lessons = [("00_a", "Start", 10), ("01_b", "Clipping", 20), ("02_c", "People", 35)]
    for name, title, minutes in lessons:
        notebook = nbformat.v4.new_notebook(
            cells=[nbformat.v4.new_markdown_cell(_title_cell(name[:2], title, minutes))]
        )
        nbformat.write(notebook, tmp_path / f"{name}.ipynb")
    (tmp_path / "notes.ipynb").write_text("{}")  # not a lesson: no NN_ prefix
    _manifest(tmp_path, lessons)
    found = site_lessons.lessons(tmp_path)
    assert [(x.number, x.title, x.minutes, x.page) for x in found] == [
        ("00", "Start", 10, "00_a.html"),
        ("01", "Clipping", 20, "01_b.html"),
        ("02", "People", 35, "02_c.html"),
    ]
    assert found[0].learn_html({"GLOSSARY.md": "glossary.html"}) == 'what <a href="glossary.html#bleu">BLEU</a> counts.'
    assert found[0].prev is None and found[0].next is found[1] and found[2].prev is found[1] and found[2].next is None
    assert found[2].download == "notebooks/02_c.ipynb"
    _manifest(tmp_path, [("00_a", "Start", 10), ("01_b", "Clipping", 25), ("02_c", "People", 35)])
    with pytest.raises(
        SystemExit,
        match="01_b.ipynb: its title cell says 'Clipping', about 20 minutes; the course manifest says 'Clipping', 25",
    ):
        site_lessons.lessons(tmp_path)
    _manifest(tmp_path, lessons[:2])
    with pytest.raises(SystemExit, match="add or remove the lesson in the manifest"):
        site_lessons.lessons(tmp_path)


def test_a_lesson_without_the_skeletons_time_line_is_refused(tmp_path: Path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 00 · BP\n\n**You will learn:** BP.")])
    nbformat.write(notebook, tmp_path / "00_bp.ipynb")
    _manifest(tmp_path, [("00_bp", "BP", 5)])
    with pytest.raises(SystemExit, match=r"00_bp.ipynb: the title cell has no '\*\*Time:\*\*' line"):
        site_lessons.lessons(tmp_path)


def test_every_real_lesson_is_on_the_path_in_order():
    found = site_lessons.lessons()
    assert [x.path for x in found] == LESSONS
    assert [x.number for x in found] == [p.name[:2] for p in LESSONS]
    assert all(x.minutes > 0 and x.learn for x in found)


def test_links_to_lessons_and_the_glossary_point_at_the_sites_pages():
    pages = {"01_ngrams_and_clipping.ipynb": "01_ngrams_and_clipping.html", "GLOSSARY.md": "glossary.html"}
    html = markdown.render(
        "See [01](01_ngrams_and_clipping.ipynb), [BP](GLOSSARY.md#brevity-penalty), "
        "[the guide's](notebooks/01_ngrams_and_clipping.ipynb#2.-Why) and "
        "[elsewhere](https://example.org/x.ipynb).",
        pages,
    )
    assert html.strip() == (
        '<p>See <a href="01_ngrams_and_clipping.html">01</a>, <a href="glossary.html#brevity-penalty">BP</a>, '
        '<a href="01_ngrams_and_clipping.html#2.-Why">the guide\'s</a> and '
        '<a href="https://example.org/x.ipynb">elsewhere</a>.</p>'
    )


def test_a_pages_contents_are_its_notebooks_numbered_sections_with_the_ids_nbconvert_gives_them():
    cells = [
        nbformat.v4.new_markdown_cell("# 03 · Title\n\n## 1. Why *BP*\n\ntext"),
        nbformat.v4.new_code_cell("## not a heading"),
        nbformat.v4.new_markdown_cell("### a subsection\n\n## 2. Fewer `<b>` & more\n\n## <b>unclosed"),
    ]
    assert markdown.contents(cells, {}) == [
        markdown.Section("1.-Why-BP", "1. Why BP"),
        markdown.Section("2.-Fewer-%3Cb%3E-&-more", "2. Fewer <b> & more"),
    ]


def test_an_explicit_anchor_the_heading_below_repeats_is_written_once():
    html = markdown.render('<a id="13a"></a>\n\n### 13a\n\n<a id="other"></a>\n\n### chrF', {})
    assert html.count('id="13a"') == 1 and '<a id="other"></a>' in html and 'id="chrF"' in html


# ---------------------------------------------------------------------------
# Live-explorer links: each reproduces what its notebook explorer showed
# ---------------------------------------------------------------------------


def _tokens(text: str, query: dict[str, list[str]]) -> list[str]:
    return bt.tokenize(text, query["tokenizer"][0], lowercase=query["lowercase"][0] == "1")


def _weights(query: dict[str, list[str]]) -> tuple[float, ...]:
    n = int(query["n"][0])
    typed = query.get("weights", [""])[0]
    return tuple(float(w) for w in typed.split(",")) if typed else (1 / n,) * n


def _widget_tree(models: dict, model_id: str) -> list[dict]:
    """The saved states of a widget and of all its descendants, depth first (the order shown on screen)."""
    state = models.get(model_id.removeprefix("IPY_MODEL_"), {}).get("state", {})
    return [state] + [s for child in state.get("children", []) for s in _widget_tree(models, child)]


def _saved_explorers(path: Path) -> list[tuple[int, list[dict]]]:
    """(cell index, the widget tree's saved states) for every explorer output with a Hypothesis box."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    models = notebook["metadata"].get("widgets", {}).get(STATE, {}).get("state", {})
    found = []
    for index, cell in enumerate(notebook["cells"]):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(saved.WIDGET_VIEW)
            if view:
                tree = _widget_tree(models, view["model_id"])
                if any(
                    s.get("_model_name") in ("TextModel", "TextareaModel")
                    and str(s.get("description", "")).startswith("Hypothesis")
                    for s in tree
                ):
                    found.append((index, tree))
    return found


@pytest.mark.parametrize("path", LESSONS + DECKS, ids=lambda p: p.stem)
def test_each_explorer_link_reproduces_what_the_notebook_explorer_showed(path: Path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    presets = site_lessons.notebook_presets(notebook)
    explorers = _saved_explorers(path)
    assert sorted(presets) == [index for index, _ in explorers]  # every explorer with text gets links
    for index, tree in explorers:
        shown = [s["value"] for s in tree if s.get("_model_name") == "HTMLModel" and "bleu-teach" in s.get("value", "")]
        assert len(shown) == 1, f"cell {index}: expected one output HTML widget"
        queries = [parse_qs(preset.query(), keep_blank_values=True) for preset in presets[index]]
        refs = [_tokens(r, queries[0]) for r in queries[0]["ref"]]
        weights, smoothing = _weights(queries[0]), queries[0]["smoothing"][0]
        labels = {s.get("description") for s in tree}
        if "Hypothesis A" in labels:
            a, b = (_tokens(q["hyp"][0], q) for q in queries)
            assert shown[0] == bt.compare_hypotheses(refs, a, b, weights=weights, smoothing=smoothing).to_html()
            continue
        (query,) = queries
        report = bt.explain(refs, _tokens(query["hyp"][0], query), weights=weights, smoothing=smoothing)
        if "n-gram order" in labels:
            assert shown[0] == write_html(
                report.clipping_document(int(query["n"][0]), compact="bleu-teach compact" in shown[0])
            )
        else:
            assert re.search(r'data-score="([^"]+)"', shown[0]).group(1) == repr(report.score)
            assert shown[0] == report.to_html(compact="bleu-teach compact" in shown[0])


def test_every_try_it_section_with_a_text_explorer_links_to_the_live_explorer():
    linked = []
    for path in LESSONS:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        presets = site_lessons.notebook_presets(notebook)
        explorers = dict(_saved_explorers(path))
        cells = notebook["cells"]
        for index, cell in enumerate(cells):
            if cell["cell_type"] == "markdown" and re.search(r"^## Try it", "".join(cell["source"]), re.MULTILINE):
                widget = next(i for i in range(index + 1, len(cells)) if cells[i]["cell_type"] == "code")
                if widget in explorers:
                    assert widget in presets, f"{path.name}: the Try it explorer in cell {widget} has no link"
                    linked.append(path.name)
    assert len(linked) >= 4, linked  # lessons 01, 02, 04 and 05 today


def test_a_saved_explorer_without_references_is_refused():
    data = {saved.EXPLORER_MIME: {"explorer": "BleuExplorer", "values": {"hypothesis": "the cat"}}}
    with pytest.raises(ValueError, match="The saved BleuExplorer has no 'references', 'tokenizer'"):
        saved.saved_explorer(data)


@pytest.mark.parametrize(
    ("bundle", "message"),
    [
        ({"explorer": "NoSuchExplorer", "values": {}}, "an explorer 'NoSuchExplorer' that bleu_teach does not declare"),
        ({"explorer": "BleuExplorer"}, "has no explorer name and values"),
        ("BleuExplorer", "has no explorer name and values"),
        ({"explorer": "BrevityPenaltyExplorer", "values": {"colour": "red"}}, "values 'colour' it does not declare"),
    ],
)
def test_a_saved_explorer_bundle_that_is_not_one_is_refused_by_name(bundle, message):
    with pytest.raises(ValueError, match=message):
        saved.saved_explorer({saved.EXPLORER_MIME: bundle})


def test_a_preset_url_carries_every_setting():
    preset = site_lessons.Preset("Hypothesis", "a <b> & c", ("x y", "z"), "13a", True, 2, "0.7, 0.3", "method3")
    assert parse_qs(preset.query()) == {
        "hyp": ["a <b> & c"],
        "ref": ["x y", "z"],
        "n": ["2"],
        "weights": ["0.7, 0.3"],
        "smoothing": ["method3"],
        "tokenizer": ["13a"],
        "lowercase": ["1"],
    }


# ---------------------------------------------------------------------------
# The Python the explorer page runs
# ---------------------------------------------------------------------------

RUN_ALONE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from bleu_teach.web import page
answers = [json.loads(page.widget_json("BleuExplorer", json.dumps(case))) for case in json.loads(sys.argv[2])]
loaded = sorted({name.split(".")[0] for name in sys.modules} - set(sys.stdlib_module_names) - {"__main__"})
print(json.dumps({"answers": answers, "loaded": loaded}))
"""


def test_the_pages_python_runs_on_the_standard_library_alone(tmp_path: Path):
    """The package (the wheel's files) and sacreBLEU's tokenizers folder, in a Python without site-packages."""
    import shutil
    import zipfile

    names = browser_python.write_tokenizer_zip(tmp_path / "tokenizers.zip")
    assert "sacrebleu/tokenizers/tokenizer_13a.py" in names and "sacrebleu/LICENSE.txt" in names
    assert "sacrebleu/__init__.py" not in names  # sacreBLEU's own would import NumPy: a namespace package instead
    folder = tmp_path / "site-packages"
    with zipfile.ZipFile(tmp_path / "tokenizers.zip") as archive:
        archive.extractall(folder)
    shutil.copytree(Path(bt.__file__).parent, folder / "bleu_teach", ignore=shutil.ignore_patterns("__pycache__"))
    tokenizers = browser_python.browser_tokenizers(tmp_path / "tokenizers.zip")
    assert {"whitespace", "13a", "char", "zh", "none"} <= set(tokenizers)
    assert "nltk" not in tokenizers and "intl" not in tokenizers  # intl needs regex
    hyp, refs = "The cat, it sat on the MAT.", ["the cat sat on the mat .", "a cat was sitting on the mat"]
    base = {
        "hypothesis": hyp,
        "references": refs,
        "lowercase": True,
        "max_n": "3",
        "weights": "",
        "smoothing": "method1",
        "compact": "",
        "show_settings": "1",
    }
    cases = [{**base, "tokenizer": name} for name in tokenizers]
    cases += [
        {**base, "tokenizer": "nltk"},
        {**base, "tokenizer": "13a", "max_n": "three"},
        {**base, "tokenizer": "13a", "hypothesis": " "},
        {**base, "tokenizer": "13a", "weights": "0.5, 0.5"},
    ]
    # -I -S: no site-packages at all, so neither the installed bleu_teach nor sacreBLEU, NumPy or NLTK
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", RUN_ALONE, str(folder), json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["loaded"] == ["bleu_teach", "sacrebleu"]
    answers = result["answers"]
    for case, answer in zip(cases, answers[: len(tokenizers)]):
        tokens = [bt.tokenize(text, case["tokenizer"], lowercase=True) for text in [hyp, *refs]]
        expected = bt.explain(tokens[1:], tokens[0], weights=(1 / 3,) * 3, smoothing="method1")
        assert answer["message"] == "" and answer["value"] == repr(expected.score), case["tokenizer"]
        assert answer["html"] == expected.to_html()
    assert [a["message"] for a in answers[len(tokenizers) :]] == [
        f"This page has no tokenizer 'nltk'; choose one of {', '.join(tokenizers)} (the others need packages the "
        "page does not carry).",
        "Max n must be a whole number, e.g. 4 (got 'three').",
        "The hypothesis is empty: type a sentence into it.",
        "Give 3 weights for Max n = 3 (got 2), or leave the box empty for uniform.",
    ]
    assert all(a["value"] is None for a in answers[len(tokenizers) :])


def test_the_build_never_empties_a_folder_that_holds_no_earlier_site(tmp_path: Path):
    (tmp_path / "thesis.tex").write_text("years of work")
    with pytest.raises(SystemExit, match="holds no earlier site"):
        build.build(tmp_path, tmp_path / "thesis.tex")
    assert (tmp_path / "thesis.tex").read_text() == "years of work"


def test_the_build_refuses_a_missing_or_hollow_wheel(tmp_path: Path):
    with pytest.raises(SystemExit, match="no such wheel; make dist builds it"):
        build.build(tmp_path / "site", tmp_path / "bleu_teach-0.1.0-py3-none-any.whl")
    hollow = tmp_path / "hollow-0.1.0-py3-none-any.whl"
    import zipfile

    with zipfile.ZipFile(hollow, "w") as archive:
        archive.writestr("bleu_teach/__init__.py", "")
    with pytest.raises(SystemExit, match="lacks bleu_teach/exercises/bank.toml"):
        build.build(tmp_path / "site", hollow)
    assert not (tmp_path / "site").exists()


# ---------------------------------------------------------------------------
# Figures: every image on the lesson pages and in the deck says what it shows
# ---------------------------------------------------------------------------

NBCONVERT_DEFAULT_ALT = "No description has been provided for this image"


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs))


def _images(page: Path) -> list[dict[str, str | None]]:
    parser = _Images()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.images


def _stored_alts(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        o["metadata"]["image/png"]["alt"]
        for c in cells
        for o in c.get("outputs", [])
        if "image/png" in o.get("data", {})
    ]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Path]:
    """Each lesson's page and the deck, exported as the site's build exports them: {notebook: page}."""
    out = tmp_path_factory.mktemp("site")
    found = site_lessons.lessons()
    pages = {lesson.path.name: lesson.page for lesson in found} | {"GLOSSARY.md": "glossary.html"}
    for lesson in found:
        site_lessons.export_lesson(lesson, out, pages)
    return {
        **{lesson.path: out / lesson.page for lesson in found},
        **{deck: slides.export(deck, out) for deck in DECKS},
    }


def test_every_image_on_the_lesson_pages_and_in_the_deck_has_the_figures_alt(exported: dict[Path, Path]):
    shown = 0
    for notebook, page in exported.items():
        images = _images(page)
        for image in images:
            assert image.get("alt") and image["alt"].strip(), f"{page.name}: an image without alt text"
            assert image["alt"] != NBCONVERT_DEFAULT_ALT, f"{page.name}: nbconvert's default alt text"
        # Each figure's alt is its stored description, in order (the parser has unescaped the attribute).
        figures = [image["alt"] for image in images if (image.get("src") or "").startswith("data:image/png")]
        assert figures == _stored_alts(notebook), page.name
        shown += len(figures)
    assert shown == 9  # lessons 02 (2), 03, 04, 06 and 08 (3), and the deck's


def test_a_figure_without_alt_text_stops_the_build_naming_its_notebook(tmp_path: Path):
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell(_title_cell("00", "Figures", 5)),
            nbformat.v4.new_code_cell("fig = plot_something()\nfig"),
        ]
    )
    notebook.cells[1].outputs = [
        nbformat.v4.new_output(
            "display_data", data={"image/png": "iVBORw0KGgo="}, metadata={"image/png": {"width": 640}}
        )
    ]
    nbformat.write(notebook, tmp_path / "00_figures.ipynb")
    _manifest(tmp_path, [("00_figures", "Figures", 5)])
    (lesson,) = site_lessons.lessons(tmp_path)
    with pytest.raises(
        Exception,
        match=r"No alt text for a figure in 00_figures\.ipynb: the output of the cell "
        r"'fig = plot_something\(\)' has no image/png metadata 'alt'",
    ):
        site_lessons.export_lesson(lesson, tmp_path, {})
    notebook.cells[1].outputs[0].metadata["image/png"]["alt"] = 'Bar chart titled "a <b> & c".'
    nbformat.write(notebook, tmp_path / "00_figures.ipynb")
    site_lessons.export_lesson(lesson, tmp_path, {})
    (image,) = _images(tmp_path / "00_figures.html")
    assert image["alt"] == 'Bar chart titled "a <b> & c".'  # escaped in the page, whole again when parsed
    assert "<b>" not in (tmp_path / "00_figures.html").read_text(encoding="utf-8")


def test_the_lesson_pages_read_a_typed_answer_as_the_lessons_ask_for_it():
    from bleu_teach.web import page as lesson_page

    assert lesson_page.typed(' "8/12" ') == "8/12" and lesson_page.typed("\u22126.1") == "-6.1"
    assert lesson_page.typed('"8/12') == '"8/12'  # one quote is not a pair: the bank's message says what to write
    # Lesson 01's question asks for "a fraction in quotes (e.g. "2/7")"; 10 of its 13 tokens are clipped matches.
    assert lesson_page.check("01.1", '"10/13"')["verdict"] == "correct"
    assert lesson_page.check("08.1", "\u22126.0")["verdict"] == "correct"  # the lessons print minus as U+2212
    for empty, what in (("  ", "Type your answer"), ("", "Type your answer")):
        answer = lesson_page.check("01.1", empty)
        assert answer["verdict"] == "" and what in answer["html"]
    assert "Choose one of the options" in lesson_page.check("00.1", "")["html"]
    nonsense = lesson_page.check("01.1", "<b>a lot</b>")
    assert nonsense["verdict"] == "" and "&lt;b&gt;a lot&lt;/b&gt;" in nonsense["html"]


def test_the_lesson_pages_ask_each_question_in_the_pages_words():
    """The bank's notebook wording (a Python value, run the cell) never reaches a page: each question, from its
    anchor to the end of its cell, is the bank's page wording (no options list: its radio buttons say them), and
    lesson 00's sentence on how to answer is the page's."""
    from bleu_teach.exercises import exercises
    from bleu_teach.exercises.media import how_to_answer
    from bleu_teach.exercises.practice import PRACTISED

    asked = 0
    for lesson in LESSONS:
        notebook = nbformat.read(lesson, as_version=4)
        asked += live.ask_on_the_page(notebook)
        prose = [c.source for c in notebook.cells if c.cell_type == "markdown"]
        for ex in exercises(lesson.name[:2]):
            anchor = f'<a id="{ex.anchor}"></a>'
            (cell,) = [source for source in prose if anchor in source]
            question = cell[cell.index(anchor) :]
            assert question == ex.markdown("page"), (lesson.name, ex.id)
            for words in ("run the cell", "as a string", "in quotes", "`None`", "\n* **A** "):
                assert words not in question, (lesson.name, ex.id, words)
        forms = [c.source for c in notebook.cells if c.cell_type == "raw" and "data-exercise=" in c.source]
        assert len(forms) == len(exercises(lesson.name[:2]))
        # Under each numeric exercise, its practice block in place of the notebook's Practice widget (no code shown).
        practised = [c.source for c in notebook.cells if c.cell_type == "raw" and "data-practice=" in c.source]
        assert practised == [
            f'<div class="jp-Cell live-cell celltag_practice">{live.practice_html(ex.id)}</div>'
            for ex in exercises(lesson.name[:2])
            if ex.id in PRACTISED
        ]
        assert not any("Practice(" in c.source for c in notebook.cells if c.cell_type == "code")
        if lesson.name.startswith("00"):
            assert how_to_answer("page") in "".join(prose) and how_to_answer("notebook") not in "".join(prose)
    assert asked == len(exercises())  # every exercise of the bank is asked on its lesson's page


def test_the_placeholder_course_address_gets_no_qr_code_and_the_speaker_not_the_room_is_told() -> None:
    import nbformat

    from bleu_teach_site import slides

    # A QR code for an address that does not exist: never; and the room is not shown a build instruction.
    assert slides.course_address_html(slides.DEFAULT_COURSE_URL) == ""
    assert "<svg" in slides.course_address_html("https://bleu-teach.example.org/")
    for url, told in ((slides.DEFAULT_COURSE_URL, True), ("https://bleu-teach.example.org/", False)):
        deck = nbformat.read(slides.DECKS / "bleu_in_10_minutes.ipynb", as_version=4)
        slides.add_course_address(deck, url)
        closing = next(i for i, c in enumerate(deck.cells) if slides.COURSE_TAG in c.metadata.get("tags", []))
        shown = [c.source for c in deck.cells[closing:] if c.metadata.get("slideshow", {}).get("slide_type") != "notes"]
        notes = [c.source for c in deck.cells[closing:] if c.metadata.get("slideshow", {}).get("slide_type") == "notes"]
        assert not any("COURSE_URL" in text or "make " in text for text in shown), shown
        assert ("COURSE_URL=" in notes[0] and "no QR code" in notes[0]) is told, notes
