"""A class's roster from a spreadsheet: the names, in order, and the learning platform's identifiers beside them.

Read by ``exercises worksheet --roster`` (a name on each sheet) and by the
classroom server's homework (who may join, and the gradebook's columns). The
names come from a name column, or first name + surname columns (Moodle's
participants export, French ``Nom;Prénom``), or else, with no header, the
first column; a first row that looks like a header none of whose columns the
reader knows (``First name / Surname,E-mail``) is refused, never read as a
student (:func:`_header_like`); the
identifiers a platform's gradebook import matches students by are kept when
the roster has them: Moodle's e-mail address, Canvas's ``ID``, ``SIS User ID``,
``SIS Login ID`` and ``Section`` (its gradebook export, used as the roster).
A ``link`` column (the file ``class links`` writes) gives each student their
personal join link to the classroom server, which their worksheet prints.

>>> [(entry.name, entry.identifiers) for entry in read_roster("Name,Email address\\nZoë Ng,zoe@example.org\\n")]
[('Zoë Ng', {'Email address': 'zoe@example.org'})]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bleu_teach.exercises.tally import csv_rows
from bleu_teach.exercises.variants import MAX_STUDENTS
from bleu_teach.inputs.typed_text import character_problem

#: Column headers (lower case) for a whole name, a first name and a last name (a header in two lists is a whole name
#: alone, and a first or last name beside the other: French "Nom" beside "Prénom", Spanish "Nombre" beside
#: "Apellidos").
NAME_HEADERS = {
    "name",
    "names",
    "student",
    "students",
    "student name",
    "full name",
    "fullname",
    "nom",
    "nombre",
    "nome",
    "naam",
}
FIRST_NAME_HEADERS = {
    "first name",
    "firstname",
    "given name",
    "given names",
    "first names",
    "forename",
    "forenames",
    "vorname",
    "prénom",
    "prenom",
    "nombre",
    "nome",
    "voornaam",
    "imię",
}
LAST_NAME_HEADERS = {
    "surname",
    "last name",
    "lastname",
    "family name",
    "nachname",
    "familienname",
    "nom",
    "nom de famille",
    "apellido",
    "apellidos",
    "cognome",
    "achternaam",
    "nazwisko",
    "sobrenome",
}
#: The columns a gradebook import matches students by, as the platforms head them.
IDENTIFIER_HEADERS = {
    "email address": "Email address",
    "email": "Email address",
    "e-mail": "Email address",
    "username": "Username",
    "id number": "ID number",
    "id": "ID",
    "sis user id": "SIS User ID",
    "sis login id": "SIS Login ID",
    "section": "Section",
}
#: The words column headers are made of, in a few languages (lower case): a first row whose cells are made of them
#: alone is a header, even one this reader does not take the names from ("First name / Surname"), never a student.
HEADER_WORDS = frozenset(
    "name names first last given family full middle surname surnames forename forenames student students pupil "
    "learner s email e mail address username user login id number no nr section group class course sis "
    "nom noms prénom prénoms prenom prenoms de famille élève eleve étudiant etudiant courriel adresse groupe classe "
    "identifiant numéro numero vorname vornamen nachname familienname schüler schueler klasse gruppe benutzername "
    "kennung matrikelnummer nummer nombre nombres apellido apellidos alumno alumna estudiante correo electrónico "
    "electronico grupo clase número usuario nome cognome studente gruppo matricola sobrenome apelido aluno turma "
    "naam voornaam achternaam leerling klas groep imię imie nazwisko 氏名 名前 姓名 名字 姓 名 이름 성명".split()
)
#: Every header this reader takes a column by.
KNOWN_HEADERS = frozenset(NAME_HEADERS | FIRST_NAME_HEADERS | LAST_NAME_HEADERS | set(IDENTIFIER_HEADERS) | {"link"})
#: The longest name kept (on the sheets, in the key and in the classroom's database alike).
NAME_CHARACTERS = 100
#: The header of a student's personal join link (``class links``), and the longest link read.
LINK_HEADER = "link"
LINK_CHARACTERS = 500
#: The most names a roster lists (one worksheet or one homework place each), and the largest roster file read.
MAX_NAMES = MAX_STUDENTS
ROSTER_BYTES = 1_000_000


@dataclass(frozen=True)
class Entry:
    line: int
    name: str
    identifiers: dict[str, str] = field(default_factory=dict)
    link: str = ""  # the student's personal join link, "" when the roster has no link column


def read_roster(text: str, what: str = "roster", source: str = "") -> list[Entry]:
    """The roster's students, in order; ``ValueError`` naming the line (``what``: the option or field it came in,
    ``source``: the file, if any) for a row without a name or a name too long.

    A row that is Canvas's "Points Possible" line (no student) is skipped.
    """
    rows = [(line, row) for line, row in csv_rows(text) if any(cell.strip() for cell in row)]
    header = [" ".join(cell.lower().split()) for cell in rows[0][1]] if rows else []
    whole = [k for k, cell in enumerate(header) if cell in NAME_HEADERS]
    first = [k for k, cell in enumerate(header) if cell in FIRST_NAME_HEADERS]
    last = [k for k, cell in enumerate(header) if cell in LAST_NAME_HEADERS]
    columns = (first[:1] + last[:1]) if first and last else whole[:1]  # French "Nom" beside "Prénom" is a surname
    identifiers = {k: IDENTIFIER_HEADERS[cell] for k, cell in enumerate(header) if cell in IDENTIFIER_HEADERS}
    links = [k for k, cell in enumerate(header) if cell == LINK_HEADER][:1]
    where = f" of {source}" if source else ""
    if columns:
        rows = rows[1:]
    elif rows and _header_like(rows[0][1], wide=any(sum(bool(c.strip()) for c in row) > 1 for _, row in rows)):
        raise ValueError(_unknown_header(rows[0][1], what, where))
    else:  # no header: the names are the first column
        columns, identifiers, links = [0], {}, []
    entries = []
    for line, row in rows:
        name = " ".join(" ".join(row[k].split()) for k in columns if k < len(row)).strip()
        if name.lower() == "points possible":  # Canvas's gradebook export: the maximum points, not a student
            continue
        if not name:
            raise ValueError(f"{what}: line {line}{where} has no name in its name column")
        if len(name) > NAME_CHARACTERS:
            raise ValueError(
                f"{what}: the name on line {line}{where} has {len(name)} characters, more than the "
                f"{NAME_CHARACTERS} a name may have; shorten it"
            )
        problem = character_problem(name, name=True)
        if problem:
            raise ValueError(f"{what}: the name on line {line}{where} {problem}; delete it from the name")
        found = {header_name: row[k].strip() for k, header_name in identifiers.items() if k < len(row)}
        link = _link(row[links[0]] if links[0] < len(row) else "", what, line, where) if links else ""
        entries.append(Entry(line, name, found, link))
    return entries


def _header_like(cells: list[str], wide: bool) -> bool:
    """Whether a first row no name column was found in is a header all the same: every cell one of the headers the
    reader knows (an e-mail column without the names'), or, in a file of several columns, at least half its cells
    made of :data:`HEADER_WORDS` alone and none holding an ``@`` or a digit, as data does. A file of one column is a
    list of names: its first one may be made of such words.

    >>> _header_like(["First name / Surname", "E-mail"], wide=True), _header_like(["Email address"], wide=False)
    (True, True)
    >>> _header_like(["Name Surname", "name.surname@example.org"], wide=True), _header_like(["Name Surname"], False)
    (False, False)
    """
    filled = [" ".join(cell.lower().split()) for cell in cells if cell.strip()]
    if not filled:
        return False
    if all(cell in KNOWN_HEADERS for cell in filled):
        return True
    if not wide or any("@" in cell or any(c.isdigit() for c in cell) for cell in filled):
        return False
    worded = [cell for cell in filled if set(re.findall(r"[^\W\d_]+", cell)) <= HEADER_WORDS]
    return 2 * len(worded) >= len(filled)


def _unknown_header(cells: list[str], what: str, where: str) -> str:
    """The refusal of a header none of whose columns holds the names: the columns found, and those understood."""
    found = ", ".join(repr(cell.strip()[:40]) for cell in cells[:8] if cell.strip()) + (
        ", ..." if len(cells) > 8 else ""
    )
    return (
        f"{what}: the first row{where} looks like a header ({found}), but none of its columns is one the names are "
        "read from; head the names' column Name (the whole name), or two columns First name and Last name (or "
        "Surname), and give the file again. Understood: for the whole name "
        f"{_listed(NAME_HEADERS)}; for a first name {_listed(FIRST_NAME_HEADERS)}; for a last name "
        f"{_listed(LAST_NAME_HEADERS)}; kept beside the name {_listed(set(IDENTIFIER_HEADERS.values()))} and "
        f"{LINK_HEADER} (any case)"
    )


def _listed(headers: set[str]) -> str:
    return ", ".join(sorted(headers, key=str.lower))


def _link(cell: str, what: str, line: int, where: str) -> str:
    """A row's personal join link: an http(s) address of printable ASCII without spaces (as ``class links`` writes
    it), at most :data:`LINK_CHARACTERS` long; ``ValueError`` naming the line otherwise.

    >>> _link(" https://class.example.org/class/me/3/Ab-9 ", "--roster", 2, "")
    'https://class.example.org/class/me/3/Ab-9'
    """
    link = cell.strip()
    if not link.startswith(("https://", "http://")) or len(link) > LINK_CHARACTERS or not link.isascii():
        raise ValueError(
            f"{what}: line {line}{where} has no link in its link column (an http or https address of at most "
            f"{LINK_CHARACTERS} characters, as class links writes it); write the links again with class links"
        )
    if not link.isprintable() or " " in link:
        raise ValueError(f"{what}: the link on line {line}{where} holds spaces or control characters; write it again")
    return link


def read_text_file(path: str, limit: int, what: str) -> str:
    """A teacher's file (a roster, an export) as text: at most ``limit`` bytes of UTF-8 (a byte-order mark allowed);
    ``ValueError`` naming ``what`` and the file otherwise."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as error:
        raise ValueError(f"{what}: cannot read {path!r} ({error.strerror or error})") from None
    if len(raw) > limit:
        raise ValueError(f"{what}: {path!r} is larger than {limit:,} bytes")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{what}: {path!r} is not UTF-8 text; save or export it again as CSV (UTF-8)") from None


def load_roster(path: str, what: str = "--roster") -> list[Entry]:
    """A roster file read and checked: the one reader of ``exercises worksheet --roster`` and ``class homework
    --roster``, with one set of limits (at most :data:`ROSTER_BYTES` of UTF-8 text, 1 to :data:`MAX_NAMES` names of
    at most :data:`NAME_CHARACTERS` characters each); ``ValueError`` naming the file and, for a name, its line."""
    entries = read_roster(read_text_file(path, ROSTER_BYTES, what), what, repr(path))
    if not 1 <= len(entries) <= MAX_NAMES:
        raise ValueError(f"{what}: {path!r} must list from 1 to {MAX_NAMES} names; it lists {len(entries)}")
    return entries
