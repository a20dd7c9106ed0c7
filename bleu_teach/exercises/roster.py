"""A class's roster from a spreadsheet: the names, in order, and the learning platform's identifiers beside them.

Read by ``exercises worksheet --roster`` (a name on each sheet) and by the
classroom server's homework (who may join, and the gradebook's columns). The
names come from a name column, or first name + surname columns (Moodle's
participants export, French ``Nom;Prénom``), or else the first column; the
identifiers a platform's gradebook import matches students by are kept when
the roster has them: Moodle's e-mail address, Canvas's ``ID``, ``SIS User ID``,
``SIS Login ID`` and ``Section`` (its gradebook export, used as the roster).

>>> [(entry.name, entry.identifiers) for entry in read_roster("Name,Email address\\nZoë Ng,zoe@example.org\\n")]
[('Zoë Ng', {'Email address': 'zoe@example.org'})]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bleu_teach.exercises.tally import csv_rows

#: Column headers (lower case) for a whole name, a first name and a last name.
NAME_HEADERS = {"name", "names", "student", "students", "student name", "full name", "fullname", "nom", "nombre"}
FIRST_NAME_HEADERS = {"first name", "firstname", "given name", "forename", "vorname", "prénom", "prenom"}
LAST_NAME_HEADERS = {"surname", "last name", "lastname", "family name", "nachname", "nom", "nom de famille",
                     "apellido"}
#: The columns a gradebook import matches students by, as the platforms head them.
IDENTIFIER_HEADERS = {"email address": "Email address", "email": "Email address", "e-mail": "Email address",
                      "username": "Username", "id number": "ID number",
                      "id": "ID", "sis user id": "SIS User ID", "sis login id": "SIS Login ID", "section": "Section"}
#: The longest name kept.
NAME_CHARACTERS = 100


@dataclass(frozen=True)
class Entry:
    line: int
    name: str
    identifiers: dict[str, str] = field(default_factory=dict)


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
    if columns:
        rows = rows[1:]
    else:
        columns, identifiers = [0], {}
    entries = []
    where = f" of {source}" if source else ""
    for line, row in rows:
        name = " ".join(" ".join(row[k].split()) for k in columns if k < len(row)).strip()
        if name.lower() == "points possible":  # Canvas's gradebook export: the maximum points, not a student
            continue
        if not name:
            raise ValueError(f"{what}: line {line}{where} has no name in its name column")
        if len(name) > NAME_CHARACTERS or not name.isprintable():
            raise ValueError(f"{what}: the name on line {line}{where} is longer than {NAME_CHARACTERS} characters or "
                             "holds control characters")
        entries.append(Entry(line, name, {header_name: row[k].strip() for k, header_name in identifiers.items()
                                          if k < len(row)}))
    return entries
