"""bleu_teach.lessons.data.wmt21_ted and the shipped WMT21 TED files (bleu_teach/lessons/wmt21/).

The shipped files' checksums, counts, alignment, clean texts, spans that
index their texts, MQM scores that follow from the spans' weights, the
loader's errors.  Against the raw release kept in the repository
(data/wmt21-ted-mqm/, checked against its SHA256SUMS): the files re-derived
by scripts/derive_wmt21.py equal the shipped ones byte for byte, and the
loaded data agree with the raw TSVs read here with csv, independently of the
script.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bleu_teach.lessons import data
from bleu_teach.lessons.data import ErrorSpan, Wmt21Ted, wmt21_ted

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "bleu_teach" / "lessons" / "wmt21"
RAW = ROOT / "data" / "wmt21-ted-mqm"
SCRIPT = ROOT / "scripts" / "derive_wmt21.py"
COMMIT = "7fadea281aff8db61cc72fc3d469a4dca78b82a6"

SYSTEMS = {
    "zh-en": [
        "Borderline",
        "DIDI-NLP",
        "Facebook-AI",
        "IIE-MT",
        "MiSS",
        "NiuTrans",
        "Online-W",
        "SMU",
        "metricsystem1",
        "metricsystem2",
        "metricsystem3",
        "metricsystem4",
        "metricsystem5",
    ],
    "en-de": [
        "Facebook-AI",
        "HuaweiTSC",
        "Nemo",
        "Online-W",
        "UEdin",
        "VolcTrans-AT",
        "VolcTrans-GLAT",
        "eTranslation",
        "metricsystem1",
        "metricsystem2",
        "metricsystem3",
        "metricsystem4",
        "metricsystem5",
    ],
}
REFERENCES = {"zh-en": ["ref-A", "ref-B"], "en-de": ["ref-A"]}
RAW_STEM = {"zh-en": "zhen", "en-de": "ende"}
RAW_NAMES = {"ref": "ref-A", "refB": "ref-B"}
PAIRS = ["zh-en", "en-de"]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def texts_of(ted: Wmt21Ted, name: str, span: ErrorSpan, i: int) -> str:
    return ted.sources[i] if span.side == "source" else ted.translations(name)[i]


# --- the shipped files --------------------------------------------------------------------------


def test_the_shipped_files_match_the_checksums_the_script_wrote():
    lines = (SHIPPED / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    sums = dict(reversed(line.split("  ", 1)) for line in lines)
    assert sorted(sums) == ["LICENSE", "en-de.json.gz", "zh-en.json.gz"]
    for name, digest in sums.items():
        assert sha256(SHIPPED / name) == digest, f"{name} changed: rerun scripts/derive_wmt21.py data/wmt21-ted-mqm"


def test_licence_and_notice_travel_with_the_data():
    licence = (SHIPPED / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in licence and "Version 2.0, January 2004" in licence
    assert "END OF TERMS AND CONDITIONS" in licence
    notice = (SHIPPED / "README.md").read_text(encoding="utf-8")
    for needed in (
        "google/wmt-mqm-human-evaluation",
        COMMIT,
        "Freitag",
        "Macherey",
        "9:1460-1474",
        "What was changed",
        "LICENSE",
    ):
        assert needed in notice


@pytest.mark.parametrize("pair", PAIRS)
def test_counts_names_and_alignment(pair):
    ted = wmt21_ted(pair)
    assert ted.pair == pair
    assert len(ted.sources) == 529
    assert list(ted.systems) == SYSTEMS[pair]
    assert list(ted.references) == REFERENCES[pair]
    everyone = sorted(SYSTEMS[pair] + REFERENCES[pair])
    assert sorted(ted.mqm) == sorted(ted.errors) == sorted(ted.raters) == everyone
    for table in (ted.systems, ted.references, ted.mqm, ted.errors, ted.raters):
        assert {name: len(column) for name, column in table.items()} == {name: 529 for name in table}
    assert len(ted.seg_ids) == len(ted.documents) == 529
    assert ted.seg_ids == sorted(set(ted.seg_ids))
    assert len(set(ted.documents)) == 5
    assert ted.source_commit == COMMIT


@pytest.mark.parametrize("pair", PAIRS)
def test_no_markup_is_left_and_no_text_is_empty(pair):
    ted = wmt21_ted(pair)
    columns = [ted.sources, *ted.systems.values(), *ted.references.values()]
    for column in columns:
        for text in column:
            assert text.strip() and "<v>" not in text and "</v>" not in text, text
    for spans in ted.errors.values():
        for segment in spans:
            assert all("<v>" not in s.text and "</v>" not in s.text for s in segment)


@pytest.mark.parametrize("pair", PAIRS)
def test_every_span_indexes_its_text(pair):
    ted = wmt21_ted(pair)
    sides: Counter[str] = Counter()
    for name, spans in ted.errors.items():
        for i, segment in enumerate(spans):
            for span in segment:
                sides[span.side] += 1
                text = texts_of(ted, name, span, i)
                assert 0 <= span.start <= span.end <= len(text), (name, i, span)
                assert text[span.start : span.end] == span.text, (name, i, span)
                assert span.rater in ted.raters[name][i]
                assert span.severity in ("Major", "Minor")
    # Omissions and source errors are marked in the source; every error row marks a span somewhere.
    assert set(sides) == {"target", "source"} and sides["source"] == {"zh-en": 349, "en-de": 14}[pair]


@pytest.mark.parametrize("pair", PAIRS)
def test_the_mqm_scores_are_minus_the_error_weights_averaged_over_raters(pair):
    # The released averages are the oracle here: they were not computed by this project.
    ted = wmt21_ted(pair)
    for name, scores in ted.mqm.items():
        for i, score in enumerate(scores):
            raters = ted.raters[name][i]
            assert score is not None and raters, (name, i)  # every system and reference is rated everywhere
            expected = -sum(span.weight for span in ted.errors[name][i]) / len(raters)
            assert abs(score - expected) < 1e-6, (name, ted.seg_ids[i], score, expected)
            assert score <= 0.0 and str(score) != "-0.0"


def test_a_segment_with_its_errors():
    ted = wmt21_ted("zh-en")
    assert ted.seg_ids[0] == 84 and ted.documents[0] == "talk.2"
    assert ted.systems["Borderline"][0].startswith("I want you to take a moment to consider the very simple fact")
    assert ted.mqm["Borderline"][0] == -20.0
    assert [(s.rater, s.category, s.severity, s.start, s.end, s.text) for s in ted.errors["Borderline"][0]] == [
        ("rater3", "Style/Awkward", "Major", 14, 27, "take a moment"),
        ("rater3", "Fluency/Grammar", "Major", 40, 43, "the"),
        ("rater3", "Style/Awkward", "Major", 66, 72, "so far"),
        ("rater3", "Accuracy/Mistranslation", "Major", 74, 117, "most of what we know about the universe has"),
    ]


def test_a_span_whose_words_occur_twice_is_the_one_marked():
    ted = wmt21_ted("zh-en")
    i = ted.seg_ids.index(827)
    assert ted.systems["metricsystem5"][i] == "Same country Same inequality measurement, problem after problem."
    # Spans may overlap; the second "Same" is the misspelt one, found from the markup, not by searching.
    assert [(s.category, s.severity, s.start, s.end, s.text) for s in ted.errors["metricsystem5"][i]] == [
        ("Fluency/Grammar", "Minor", 0, 40, "Same country Same inequality measurement"),
        ("Fluency/Spelling", "Minor", 13, 17, "Same"),
    ]
    assert ted.mqm["metricsystem5"][i] == -2.0


def test_zh_en_reference_a_is_the_talks_original_english():
    assert wmt21_ted("zh-en").references["ref-A"] == wmt21_ted("en-de").sources


def test_a_span_left_open_runs_to_the_end():
    ted = wmt21_ted("zh-en")
    i = ted.seg_ids.index(827)
    (span,) = ted.errors["MiSS"][i]
    assert (span.start, span.end) == (0, len(ted.systems["MiSS"][i]))


# --- the loader ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["zhen", "zh-de", "", "ZH-EN"])
def test_an_unknown_pair_names_the_pairs_there_are(bad):
    with pytest.raises(ValueError, match="choose one of zh-en, en-de"):
        wmt21_ted(bad)


@pytest.mark.parametrize("bad", [None, 1, ("zh", "en"), b"zh-en"])
def test_a_pair_that_is_not_a_string_is_a_type_error(bad):
    with pytest.raises(TypeError, match="pair must be a string, one of zh-en, en-de"):
        wmt21_ted(bad)


def test_an_unknown_system_names_those_there_are():
    with pytest.raises(ValueError, match=r"no system or reference 'Google' in zh-en; choose one of Borderline, "):
        wmt21_ted().translations("Google")
    assert wmt21_ted().translations("ref-B") == wmt21_ted().references["ref-B"]
    assert wmt21_ted().translations("SMU") == wmt21_ted().systems["SMU"]


def test_the_file_is_read_once_and_callers_cannot_spoil_the_cache():
    first = wmt21_ted("zh-en")
    before = data._load_wmt21.cache_info()
    first.sources.clear()
    first.systems["SMU"][0] = "changed"
    first.mqm.pop("ref-A")
    second = wmt21_ted("zh-en")
    after = data._load_wmt21.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
    assert len(second.sources) == 529 and second.systems["SMU"][0] != "changed" and "ref-A" in second.mqm
    assert second == wmt21_ted("zh-en")


def test_the_repr_is_a_summary_not_the_data():
    text = repr(wmt21_ted("en-de"))
    assert text.startswith("Wmt21Ted(pair='en-de', 529 segments, references ref-A, 13 systems: Facebook-AI")
    assert len(text) < 300


def test_importing_the_package_reads_no_data():
    code = "import bleu_teach, bleu_teach.lessons.data as d\nprint(d._load_wmt21.cache_info().currsize)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT.parent)
    assert out.stdout.strip() == "0"


def test_the_data_loads_from_another_directory(tmp_path):
    # The installed package (editable or not) finds its data files wherever Python starts.
    code = "import bleu_teach.lessons.data as d; print(len(d.wmt21_ted().sources), len(d.wmt21_ted('en-de').sources))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert out.stdout.split() == ["529", "529"]


# --- against the raw release --------------------------------------------------------------------


@pytest.fixture(scope="module")
def raw() -> Path:
    assert RAW.is_dir(), f"the raw WMT21 TED folder is missing: {RAW.relative_to(ROOT)}"
    return RAW


def test_the_raw_files_are_the_ones_taken_from_the_release(raw):
    lines = (raw / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    sums = dict(reversed(line.split("  ", 1)) for line in lines)
    assert sorted(sums) == [
        "LICENSE",
        "README.md",
        "mqm_ted_ende.avg_seg_scores.tsv",
        "mqm_ted_ende.tsv",
        "mqm_ted_zhen.avg_seg_scores.tsv",
        "mqm_ted_zhen.tsv",
    ]
    for name, digest in sums.items():
        assert sha256(raw / name) == digest, f"{name} is not the file taken from the release"
    for pair in PAIRS:  # and they are the files the shipped data were derived from
        metadata = json.loads(gzip.decompress((SHIPPED / f"{pair}.json.gz").read_bytes()))["metadata"]
        assert metadata["raw_sha256"] == {name: sums[name] for name in metadata["raw_sha256"]}
        assert len(metadata["raw_sha256"]) == 4
    provenance = (raw / "PROVENANCE.md").read_text(encoding="utf-8")
    assert all(f"    {line}\n" in provenance for line in lines)  # the checksums it lists are these
    for needed in ("google/wmt-mqm-human-evaluation", COMMIT, "Apache License 2.0", "Freitag"):
        assert needed in provenance


def raw_rows(raw: Path, pair: str) -> list[list[str]]:
    with (raw / f"mqm_ted_{RAW_STEM[pair]}.tsv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    assert rows[0][:9] == ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]
    return rows[1:]


def test_the_script_rederives_the_shipped_files_byte_for_byte(raw, tmp_path):
    subprocess.run(
        [sys.executable, str(SCRIPT), str(raw), "--out", str(tmp_path)], check=True, capture_output=True, text=True
    )
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == ["LICENSE", "SHA256SUMS", "en-de.json.gz", "zh-en.json.gz"]
    for name in made:
        if name.endswith(".gz"):
            # Compare what the files hold: another zlib may compress the same bytes differently.
            made_bytes = gzip.decompress((tmp_path / name).read_bytes())
            shipped_bytes = gzip.decompress((SHIPPED / name).read_bytes())
            assert made_bytes == shipped_bytes, f"{name} differs: rerun the script"
        elif name != "SHA256SUMS":  # the checksums of the gzip files, see above
            assert (tmp_path / name).read_bytes() == (SHIPPED / name).read_bytes(), f"{name} differs: rerun the script"
    assert (SHIPPED / "LICENSE").read_bytes() == (raw / "LICENSE").read_bytes()


def test_the_raw_readme_names_the_commit_the_notice_gives(raw):
    assert COMMIT in (raw / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("pair", PAIRS)
def test_texts_equal_the_raw_targets_without_markup(raw, pair):
    ted = wmt21_ted(pair)
    index = {seg: i for i, seg in enumerate(ted.seg_ids)}
    seen = set()
    for row in raw_rows(raw, pair):
        name, seg = RAW_NAMES.get(row[0], row[0]), int(row[3])
        i = index[seg]
        assert ted.translations(name)[i] == row[6].replace("<v>", "").replace("</v>", "")
        assert ted.sources[i] == row[5].replace("<v>", "").replace("</v>", "")
        assert ted.documents[i] == row[1]
        seen.add((name, seg))
    assert len(seen) == 529 * len(ted.mqm)


@pytest.mark.parametrize("pair", PAIRS)
def test_scores_equal_the_raw_averages(raw, pair):
    ted = wmt21_ted(pair)
    lines = (raw / f"mqm_ted_{RAW_STEM[pair]}.avg_seg_scores.tsv").read_text(encoding="utf-8").splitlines()
    checked = 0
    for line in lines[1:]:
        name, rest = line.split("\t")
        value, seg = rest.split(" ")
        if int(seg) in ted.seg_ids:
            assert ted.mqm[name][ted.seg_ids.index(int(seg))] == float(value), (name, seg)
            checked += 1
        else:
            assert value == "None", (name, seg)  # only unrated segments are left out
    assert checked == 529 * len(ted.mqm)


@pytest.mark.parametrize("pair", PAIRS)
def test_errors_equal_the_raw_rows(raw, pair):
    ted = wmt21_ted(pair)
    index = {seg: i for i, seg in enumerate(ted.seg_ids)}
    expected: Counter[tuple[str, int, str, str, str, str, int, int]] = Counter()
    rows_per_rater: Counter[tuple[str, int, str]] = Counter()
    for row in raw_rows(raw, pair):
        name, seg, rater, category, severity = RAW_NAMES.get(row[0], row[0]), int(row[3]), row[4], row[7], row[8]
        if category == "No-error":
            assert severity == "No-error" and "<v>" not in row[5] + row[6]
            assert rater in ted.raters[name][index[seg]]
            continue
        rows_per_rater[name, seg, rater] += 1
        side, marked = ("source", row[5]) if "<v>" in row[5] else ("target", row[6])
        start = marked.index("<v>")
        end = marked.index("</v>") - len("<v>") if "</v>" in marked else len(marked) - len("<v>")
        expected[name, seg, rater, category, severity, side, start, end] += 1
    found: Counter[tuple[str, int, str, str, str, str, int, int]] = Counter()
    found_per_rater: Counter[tuple[str, int, str]] = Counter()
    for name, spans in ted.errors.items():
        for i, segment in enumerate(spans):
            for s in segment:
                found[name, ted.seg_ids[i], s.rater, s.category, s.severity, s.side, s.start, s.end] += 1
                found_per_rater[name, ted.seg_ids[i], s.rater] += 1
    assert found_per_rater == rows_per_rater
    assert found == expected


def test_spans_whose_words_repeat_keep_the_marked_position(raw):
    # Offsets come from the markup: where the marked words occur earlier too, the span is not the first one.
    ted = wmt21_ted("zh-en")
    later = 0
    for row in raw_rows(raw, "zh-en"):
        match = re.search(r"<v>(.+?)</v>", row[6])
        if match and row[6].replace("<v>", "").replace("</v>", "").find(match[1]) < match.start():
            later += 1
            name, i = RAW_NAMES.get(row[0], row[0]), ted.seg_ids.index(int(row[3]))
            starts = [s.start for s in ted.errors[name][i] if s.text == match[1]]
            assert match.start() in starts
    assert later > 100
