"""A class's roster read from a spreadsheet (``bleu_teach.exercises.roster``), as ``exercises worksheet --roster``,
``class new --roster`` and ``class homework --roster`` read it.

What is checked: a first row whose header none of the reader's name columns matches ("First name / Surname", an
e-mail column alone) is refused, naming the columns found and those understood, by every command that reads a
roster, before anything is made; a list of names without a header is still read whole, a first student whose name
is made of header words ("Name Surname") included; Spanish, Italian and Dutch first and last name columns are read
as the names they hold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_teach.exercises.roster import read_roster
from bleu_teach.ui.cli import main


def _names(text: str) -> list[str]:
    return [entry.name for entry in read_roster(text, "--roster", "'class.csv'")]


@pytest.mark.parametrize(
    "text, found",
    [
        ("First name / Surname,E-mail\nZoë Ng,zoe@example.org\n", "'First name / Surname', 'E-mail'"),
        ("Given name(s);Family name(s);Group\nZoë;Ng;B\n", "'Given name(s)', 'Family name(s)', 'Group'"),
        ("Email address,Username\nzoe@example.org,zng\n", "'Email address', 'Username'"),  # no name column at all
        ("E-Mail\nzoe@example.org\n", "'E-Mail'"),  # one column, a header the reader knows: not a name
        ("Élève,Classe\nZoë Ng,3B\n", "'Élève', 'Classe'"),
        ("氏名,メール\n吴 雷,li@example.org\n", "'氏名', 'メール'"),
    ],
)
def test_a_header_without_a_name_column_the_reader_knows_is_refused_with_the_columns_found_and_understood(
    text: str, found: str
) -> None:
    with pytest.raises(ValueError) as refused:
        _names(text)
    said = str(refused.value)
    assert said.startswith(f"--roster: the first row of 'class.csv' looks like a header ({found})"), said
    assert "for the whole name full name, fullname, naam, name," in said and "for a last name achternaam" in said
    assert "kept beside the name Email address, ID, ID number, Section" in said and "link (any case)" in said


@pytest.mark.parametrize(
    "text, names",
    [
        ("Name Surname\nAda Lovelace\n", ["Name Surname", "Ada Lovelace"]),  # one column: a list of names
        ("Zoë Ng\nLi Lei\n", ["Zoë Ng", "Li Lei"]),
        ("Name Surname,name.surname@example.org\nAda Lovelace,ada@example.org\n", ["Name Surname", "Ada Lovelace"]),
        ("Nom Prénom,3B\nAda Lovelace,4C\n", ["Nom Prénom", "Ada Lovelace"]),  # data beside it: a digit
        ("Ada Lovelace,Group B\nAlan Turing,Group A\n", ["Ada Lovelace", "Alan Turing"]),  # a name is not header words
        ("Nombre,Apellidos\nAna,García López\n", ["Ana García López"]),
        ("Cognome;Nome\nRossi;Lucia\n", ["Lucia Rossi"]),
        ("Voornaam,Achternaam,E-mail\nDaan,de Vries,d@x.nl\n", ["Daan de Vries"]),
        ("Nombre\nAna García\n", ["Ana García"]),  # alone, the whole name
    ],
)
def test_names_without_a_header_and_headers_in_a_few_languages_are_read(text: str, names: list[str]) -> None:
    assert _names(text) == names


def test_every_command_that_reads_a_roster_refuses_the_header_before_making_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = tmp_path / "class.csv"
    roster.write_text("First name / Surname,E-mail\nZoë Ng,zoe@example.org\nLi Lei,li@example.org\n", "utf-8")
    database = tmp_path / "class.sqlite"
    for command in (
        ["exercises", "worksheet", "--roster", str(roster), "--no-pdf", "--out", str(tmp_path / "sheets")],
        ["class", "new", "Week 3", "--roster", str(roster), "--database", str(database)],
        ["class", "homework", "Week 4", "--due", "2031-01-06T09:00+00:00", "--roster", str(roster)]
        + ["--exercises", "03.1", "--database", str(database)],
    ):
        assert main(command) == 2, command
        out, err = capsys.readouterr()
        assert "looks like a header ('First name / Surname', 'E-mail')" in err and err.count("error:") == 1, err
        assert out == ""
    assert sorted(path.name for path in tmp_path.iterdir()) == ["class.csv"]  # no sheet, no database
