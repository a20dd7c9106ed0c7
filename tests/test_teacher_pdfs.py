"""The teacher's PDFs are tagged and keep every character: read back with pypdf (the structure) and poppler's
pdftotext (the text), neither of them the library that wrote them.

* Tagged: a structure tree, /MarkInfo Marked, /Lang, /Title, headings without gaps; every piece of text on every
  page sits in marked content that the structure tree reaches (or is marked as an artifact), and the tree visits
  it in the order it is printed (the reading order).
* A4 by default, Letter on request; each answer space a form field with its accessible name (/TU).
* Every script the course uses (Latin with diacritics, Greek, Chinese) comes back from the extracted text.
* A class of 60: each sheet at most 60 KB (its fields' font a cut of DejaVu Sans, not the whole font).
"""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bleu_teach.exercises.media import question_text
from bleu_teach.exercises.variants import worksheets
from tests.view_checks import needs_weasyprint

pytest.importorskip("pypdf")
from pypdf import PdfReader  # noqa: E402
from pypdf.generic import ContentStream  # noqa: E402

pytestmark = pytest.mark.slow

#: A class in which student 12's lesson-08 question quotes Chinese (checked below, not assumed).
STUDENTS, SEED, CHINESE_STUDENT = 12, 13, 12
#: A roster with names in the scripts a class may have: Latin with diacritics, Greek, Chinese, Korean, Japanese,
#: Persian.
NAMES = [
    "Zoë Ñúñez",
    "Αλέξανδρος Παπαδόπουλος",
    "李雷",
    "김민준",
    "佐藤はるか",
    "Dương Văn Minh",
    "Ελένη Κ.",
    "韩梅梅",
    "Jürgen Groß",
    "مریم رضایی",
    "İlkay Gündoğan",
    "Łucja Żółć",
]
#: The language each name in another script is read in (the others are read as the document's English).
LANGUAGES = {
    "Αλέξανδρος Παπαδόπουλος": "el",
    "李雷": "zh",
    "김민준": "ko",
    "佐藤はるか": "ja",
    "Ελένη Κ.": "el",
    "韩梅梅": "zh",
    "مریم رضایی": "fa",
}
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def _run(*args: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bleu_teach", "exercises", *args], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    needs_weasyprint()
    out = tmp_path_factory.mktemp("pdfs")
    roster = out / "class.csv"
    roster.write_text("name\n" + "\n".join(NAMES), encoding="utf-8")
    _run("worksheet", "--roster", str(roster), "--seed", str(SEED), "--out", str(out / "sheets-a4"))
    _run("key", "--out", str(out / "key-letter"), "--paper", "letter")
    return out


#: The class size of the size test, and the largest sheet it allows.
CLASS, SHEET_BYTES = 60, 60_000


@pytest.fixture(scope="module")
def class_of_60(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A worksheet run for a class of 60 (no roster), A4."""
    needs_weasyprint()
    out = tmp_path_factory.mktemp("class")
    _run("worksheet", "--students", str(CLASS), "--seed", str(SEED), "--out", str(out))
    return out


@cache
def _roster_sheets() -> list[list[Any]]:
    """``worksheets(STUDENTS, SEED)``, the roster's sheets: drawn once for the tests that read them."""
    return worksheets(STUDENTS, SEED)


@cache
def _text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def _squashed(text: str) -> str:
    """Text without white space (a printed line breaks where the source has a space) and without hyphens (pdftotext
    joins a line that ends in one to the next, dropping it), in Unicode's NFC form."""
    return re.sub(r"[\s-]+", "", unicodedata.normalize("NFC", text))


def _plain(question: str) -> str:
    """A question as it prints: its Markdown's emphasis and code marks dropped."""
    return question.replace("`", "").replace("**", "").replace("\\", "")


def _pdfs(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.pdf"))


def _walk(
    node: Any,
    page_ids: dict[int, int],
    found: list[tuple[int, int]],
    kinds: list[str],
    labels: set[tuple[int, int]] | None = None,
) -> None:
    """The structure tree depth first: each marked content reference as (page number, MCID), each element's type;
    ``labels`` gathers the references inside list labels (the bullets, printed after their item's text)."""
    node = node.get_object() if hasattr(node, "get_object") else node
    labels = set() if labels is None else labels
    if isinstance(node, int):  # an MCID on the enclosing element's page
        found.append((-1, node))
        return
    if not isinstance(node, dict):
        return
    if "/S" in node:
        kinds.append(str(node["/S"]))
    if node.get("/Type") == "/MCR":
        found.append((page_ids[node.raw_get("/Pg").idnum], int(node["/MCID"])))
        return
    kids = node.get("/K")
    if kids is None:
        return
    page = page_ids.get(node.raw_get("/Pg").idnum) if "/Pg" in node else None
    for kid in kids if isinstance(kids, list) else [kids]:
        before = len(found)
        _walk(kid, page_ids, found, kinds, labels)
        found[before:] = [(page if p == -1 else p, m) for p, m in found[before:]]  # type: ignore[misc]
        if node.get("/S") == "/Lbl":
            labels.update(found[before:])


def _marked_text(reader: PdfReader, number: int) -> tuple[list[int], int]:
    """A page's MCIDs in the order their text is printed, and how many text-showing operators sit outside both
    marked content with an MCID and an artifact (untagged text a screen reader would miss)."""
    stack: list[tuple[str, int | None]] = []
    order: list[int] = []
    untagged = 0
    for operands, operator in ContentStream(reader.pages[number].get_contents(), reader).operations:
        if operator == b"BMC":
            stack.append((str(operands[0]), None))
        elif operator == b"BDC":
            props = operands[1] if isinstance(operands[1], dict) else {}
            stack.append((str(operands[0]), props.get("/MCID")))
        elif operator == b"EMC":
            stack.pop()
        elif operator in (b"Tj", b"TJ", b"'", b'"'):
            ids = [mcid for _, mcid in stack if mcid is not None]
            if ids:
                if not order or order[-1] != ids[-1]:
                    order.append(int(ids[-1]))
            elif not any(tag == "/Artifact" for tag, _ in stack):
                untagged += 1
    return order, untagged


def test_every_pdf_is_tagged_with_its_language_title_and_a_tree_that_reaches_all_its_text_in_order(folder: Path):
    checked = 0
    for path in _pdfs(folder):
        reader = PdfReader(path)
        root = reader.trailer["/Root"]
        assert bool(root["/MarkInfo"]["/Marked"]) and root["/Lang"] == "en", path.name
        assert reader.metadata is not None and str(reader.metadata.title).startswith("bleu-teach"), path.name
        page_ids = {page.indirect_reference.idnum: k for k, page in enumerate(reader.pages)}  # type: ignore[union-attr]
        found: list[tuple[int, int]] = []
        kinds: list[str] = []
        labels: set[tuple[int, int]] = set()
        _walk(root["/StructTreeRoot"], page_ids, found, kinds, labels)
        levels = [int(kind[2]) for kind in kinds if re.fullmatch(r"/H[1-6]", kind)]
        assert levels[0] == 1 and all(b <= a + 1 for a, b in zip(levels, levels[1:])), (path.name, levels)
        assert "/L" in kinds and "/LI" in kinds or "/Form" in kinds, path.name  # the key's lists, the sheets' fields
        if path.name == "worksheet-key.pdf":
            assert {"/Table", "/TH", "/TD", "/L", "/LI"} <= set(kinds)  # its tables have header cells
        for number in range(len(reader.pages)):
            printed, untagged = _marked_text(reader, number)
            assert untagged == 0, (path.name, number)
            in_tree = [mcid for page, mcid in found if page == number]
            assert set(printed) <= set(in_tree), (path.name, number, sorted(set(printed) - set(in_tree))[:5])
            bullets = {mcid for page, mcid in labels if page == number}
            text_in_tree = [mcid for mcid in in_tree if mcid in set(printed) and mcid not in bullets]
            assert text_in_tree == [mcid for mcid in printed if mcid not in bullets], (path.name, number)
        checked += 1
    assert checked == STUDENTS + 2


def test_paper_is_a4_by_default_and_letter_on_request(folder: Path):
    for path in _pdfs(folder):
        box = PdfReader(path).pages[0].mediabox
        expected = LETTER if "letter" in str(path.parent) else A4
        assert (round(float(box.width), 2), round(float(box.height), 2)) == expected, path.name


def test_each_answer_space_is_a_form_field_named_for_a_screen_reader(folder: Path):
    sheets = _roster_sheets()
    for sheet in sheets:
        reader = PdfReader(folder / "sheets-a4" / "sheets" / f"student-{sheet[0].student:02d}.pdf")
        fields = [annot.get_object() for page in reader.pages for annot in page.get("/Annots", [])]
        assert len(fields) == 2 * len(sheet)  # each question's working and answer (the roster printed the name)
        names = [str(field["/TU"]) for field in fields]
        for number in range(1, len(sheet) + 1):
            title = f"Question {number}"
            assert names[2 * number - 2 : 2 * number] == [f"Working ({title})", f"Answer ({title})"]


def test_every_script_comes_back_from_the_extracted_text(folder: Path):
    sheets = _roster_sheets()
    chinese = 0
    for sheet, name in zip(sheets, NAMES):
        text = _squashed(_text(folder / "sheets-a4" / "sheets" / f"student-{sheet[0].student:02d}.pdf"))
        assert _squashed(name) in text, name  # every script of the roster's names
        for ex in sheet:
            question = _squashed(_plain(question_text(ex, "paper")))
            assert question in text, (ex.label, question[:80])
            chinese += len(re.findall("[\u4e00-\u9fff]", question))
    assert chinese > 0 and re.search(
        "[\u4e00-\u9fff]", " ".join(question_text(ex, "paper") for ex in sheets[CHINESE_STUDENT - 1])
    )
    chinese_pdf = PdfReader(folder / "sheets-a4" / "sheets" / f"student-{CHINESE_STUDENT:02d}.pdf")
    fonts = {
        str(font.get_object()["/BaseFont"])
        for page in chinese_pdf.pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert any(name in font for font in fonts for name in ("Droid-Sans-Fallback", "NotoSansCJK", "bleu-teach-CJK")), (
        fonts
    )  # real glyphs (the last: ui.pdf's cut of Noto Sans CJK)
    from bleu_teach.exercises.export import answer_key

    key = _text(folder / "key-letter" / "answer-key.pdf")
    special = {c for c in answer_key().to_text() if ord(c) > 127}
    assert {"α", "ε", "×"} <= special and special <= set(key), sorted(special - set(key))
    for path in _pdfs(folder):
        assert "[U+" not in _text(path) and "\ufffd" not in _text(path) and "\ufb00" not in _text(path), path.name


def _field_fonts(reader: PdfReader) -> list[Any]:
    """The fonts the form fields draw with (named in each field's /DA, found in the AcroForm's resources): each
    the embedded font program."""
    resources = reader.trailer["/Root"]["/AcroForm"]["/DR"]["/Font"]
    names = {
        re.search(r"/(\S+) [\d.]+ Tf", str(field.get_object()["/DA"])).group(1)  # type: ignore[union-attr]
        for field in reader.trailer["/Root"]["/AcroForm"]["/Fields"]
    }
    found = []
    for name in names:
        font = resources[f"/{name}"].get_object()
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        descriptor = descendant["/FontDescriptor"].get_object()
        found.append(
            next(descriptor[key].get_object() for key in ("/FontFile2", "/FontFile3", "/FontFile") if key in descriptor)
        )
    return found


def test_a_class_of_60_gets_sheets_of_at_most_60_kb_whose_fields_still_take_an_answer(class_of_60: Path):
    from fontTools.ttLib import TTFont

    sheets = sorted((class_of_60 / "sheets").glob("student-*.pdf"))
    assert len(sheets) == CLASS
    sizes = {path.name: path.stat().st_size for path in sheets}
    print(f"{CLASS} sheets: {sum(sizes.values()):,} bytes, the largest {max(sizes.values()):,}")
    assert max(sizes.values()) <= SHEET_BYTES, sorted(sizes.items(), key=lambda item: -item[1])[:3]
    import io

    for path in sheets[:3]:
        fonts = _field_fonts(PdfReader(path))
        assert fonts
        for program in fonts:  # what a student types: an answer, a fraction, a name with accents, the signs
            covered = set(TTFont(io.BytesIO(program.get_data()), fontNumber=0).getBestCmap())
            assert {ord(c) for c in "0123456789.,/()+-=×−≈≤ABCxyzÀÉÖßçğŁłőșțđươάαβπ"} <= covered, path.name


def _elements(reader: PdfReader) -> list[Any]:
    """Every structure element, depth first in reading order."""
    found: list[Any] = []

    def walk(node: Any) -> None:
        node = node.get_object() if hasattr(node, "get_object") else node
        if not isinstance(node, dict):
            return
        if node.get("/Type") == "/StructElem" or "/S" in node:
            found.append(node)
        kids = node.get("/K")
        for kid in kids if isinstance(kids, list) else [] if kids is None else [kids]:
            walk(kid)

    walk(reader.trailer["/Root"]["/StructTreeRoot"])
    return found


def test_a_name_in_another_script_carries_its_language_in_the_structure_tree(folder: Path):
    sheets = _roster_sheets()
    for sheet, name in zip(sheets, NAMES):
        path = folder / "sheets-a4" / "sheets" / f"student-{sheet[0].student:02d}.pdf"
        tagged = [(str(e["/S"]), str(e["/Lang"])) for e in _elements(PdfReader(path)) if "/Lang" in e]
        assert tagged == ([("/Span", LANGUAGES[name])] if name in LANGUAGES else []), (name, tagged)
    key = [str(e["/Lang"]) for e in _elements(PdfReader(folder / "sheets-a4" / "worksheet-key.pdf")) if "/Lang" in e]
    assert key == [LANGUAGES[name] for name in NAMES if name in LANGUAGES]


def test_no_row_of_the_key_splits_across_pages(class_of_60: Path):
    """A row split by a page break is two /TR elements, one on each page: the key has as many body rows (rows of
    data cells) as it has rows to show, one for each exercise and one for each student's question."""
    sheets = worksheets(CLASS, SEED)
    reader = PdfReader(class_of_60 / "worksheet-key.pdf")
    rows = [
        e for e in _elements(reader) if e["/S"] == "/TR" and any(kid.get_object().get("/S") == "/TD" for kid in e["/K"])
    ]
    assert len(reader.pages) > 10
    assert len(rows) == len(sheets[0]) + sum(len(sheet) for sheet in sheets)


def test_the_keys_header_ids_are_in_an_idtree(folder: Path, class_of_60: Path):
    for path in (class_of_60 / "worksheet-key.pdf", folder / "key-letter" / "answer-key.pdf"):
        reader = PdfReader(path)
        elements = _elements(reader)
        headers = [e for e in elements if e["/S"] == "/TH"]
        if not headers:
            continue
        tree = reader.trailer["/Root"]["/StructTreeRoot"]["/IDTree"]
        names = tree["/Names"]
        pairs = {str(names[k]): names[k + 1].get_object() for k in range(0, len(names), 2)}
        keys = [str(names[k]).encode("utf-8") for k in range(0, len(names), 2)]
        assert keys == sorted(keys), path.name  # a name tree's keys in order
        assert all(pairs[str(th["/ID"])] is th or pairs[str(th["/ID"])] == th for th in headers), path.name
        cited = {str(h) for e in elements if e["/S"] == "/TD" for h in e["/A"].get("/Headers", [])}
        assert cited and cited <= set(pairs), path.name


#: Scripts whose fonts Debian installs with none of the packages .ci/run names: one of them is uncovered here.
RARE_NAMES = ["ᱥᱟᱱᱛᱟᱲ ᱢᱩᱨᱢᱩ", "ᏣᎳᎩ ᎠᏕᎳ", "𞤀𞤣𞤤𞤢𞤥 𞤄𞤢𞥄"]  # Ol Chiki, Cherokee, Adlam


def test_a_name_no_installed_font_prints_is_named_with_its_characters_before_printing(tmp_path: Path):
    needs_weasyprint()

    def uncovered(c: str) -> bool:
        return not subprocess.run(
            ["fc-list", f":charset={ord(c):x}", "family"], capture_output=True, text=True, check=True
        ).stdout.strip()

    rare = next((name for name in RARE_NAMES if all(uncovered(c) for c in name if not c.isspace())), None)
    if rare is None:
        pytest.skip(f"a font for each of {RARE_NAMES} is installed here")
    roster = tmp_path / "class.csv"
    roster.write_text(f"name\nZoë Ñúñez\n{rare}\n김민준\n", encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "exercises",
            "worksheet",
            "--roster",
            str(roster),
            "--seed",
            "3",
            "--exercises",
            "01.1",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    warned = [line for line in run.stderr.splitlines() if "no installed font" in line]
    assert len(warned) == 1 and "student 02" in warned[0] and rare in warned[0], run.stderr
    assert all(c in warned[0] for c in rare if not c.isspace())
    assert _squashed("김민준") in _squashed(_text(tmp_path / "out" / "sheets" / "student-03.pdf"))
