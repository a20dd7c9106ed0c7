"""``class links``: each roster name's personal join link, and the roster a session is made with.

``class links SESSION --out FILE.csv`` makes a new link for every name of the session's roster (a session made by
``class new`` or ``class homework`` with ``--roster``) and writes it beside the name and the platform's identifier
columns, in a CSV file that ``exercises worksheet --roster FILE.csv`` reads to print each student's link, and its
QR code, on their sheet. A student who opens their link is in, on any device, without typing a code or a name.
The file holds secrets (each link lets its student in, as the teacher link lets the teacher in): it is readable by
its owner only (0600), never written over a file unless ``--force``, and all or nothing: it is written whole
beside its name before the new links are kept, so that a file that cannot be written (a full disk, a folder that
takes no file) changes no link, and a failure to keep them deletes it. Every earlier link of the session stops
working; the devices students already joined on stay in, unless ``--everyone-out`` (a links file that leaked):
then every student is out on every device until they open their new link. ``--name NAME`` makes a new link for
that one student (a lost sheet), puts them out on every device and prints it; the others' links keep working.

:func:`roster_names` and :func:`keep_roster` are how ``class new`` and ``class homework`` read a ``--roster`` and
keep it with their session.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import ipaddress
import json
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit

from bleu_teach.classroom.settings import DEFAULTS
from bleu_teach.ui.archive_command import private_path, put_in_place, write_beside

#: The column of the links in the file (``exercises.roster`` reads it back by this header).
LINK_COLUMN = "link"
#: ``--roster``'s help, for ``class new`` and ``class homework`` alike.
ROSTER_HELP = (
    "the class's names (only they may join, each once; class links makes each their own join link); a Moodle "
    "participants export or Canvas's gradebook export keeps the columns its gradebook import needs"
)


def add_links_command(what: Any) -> argparse.ArgumentParser:
    """The ``class links`` command (it then gets ``--database``)."""
    links: argparse.ArgumentParser = what.add_parser(
        "links",
        help="each roster name's personal join link, in a CSV file for the worksheets' QR codes (old links stop)",
    )
    links.add_argument("session", type=int, help="the session's number (class list shows them); it has a roster")
    links.add_argument(
        "--out",
        metavar="FILE.csv",
        help="the CSV file to write: the names, their identifier columns and their links (readable by you only; "
        "give it to exercises worksheet --roster)",
    )
    links.add_argument(
        "--name",
        metavar="NAME",
        help="only this student's new link, printed (a lost sheet): the others' links keep working",
    )
    links.add_argument(
        "--address",
        metavar="URL",
        default=DEFAULTS.address,
        help=f"the server's address as the students' phones reach it (default {DEFAULTS.address})",
    )
    links.add_argument("--force", action="store_true", help="replace FILE.csv if it exists")
    links.add_argument(
        "--everyone-out",
        action="store_true",
        help="also put every student out on every device they joined on (a links file that leaked): each is in "
        "again, with their answers, once they open their new link",
    )
    return links


def roster_names(path: str) -> list[tuple[str, str]]:
    """A ``--roster`` file's names and their platform identifiers (as JSON), read as the worksheets read it, with
    the same limits (:func:`~bleu_teach.exercises.roster.load_roster`); a ``ValueError`` for two names the join
    page would take for one."""
    from bleu_teach.classroom.store import fold
    from bleu_teach.exercises.roster import load_roster

    entries = load_roster(path)
    first: dict[str, tuple[str, int]] = {}
    for entry in entries:  # a name once, as the join compares names
        if fold(entry.name) in first:
            name, line = first[fold(entry.name)]
            raise ValueError(
                f"--roster: {name!r} (line {line}) and {entry.name!r} (line {entry.line}) are the "
                "same name to the join page; each student needs a name of their own (add a middle "
                "initial, or the student number), then run the command again"
            )
        first[fold(entry.name)] = (entry.name, entry.line)
    return [(entry.name, json.dumps(entry.identifiers)) for entry in entries]


def keep_roster(store: Any, session_id: int, names: list[tuple[str, str]]) -> None:
    """Keep the roster ``names`` with the session just made (none: nothing to keep), or delete the session: no
    half-made session (open to anyone, without its roster) is left behind. Names written alike are said."""
    if not names:
        return
    try:
        alike = store.set_roster(session_id, names)
    except BaseException:
        store.delete_session(session_id)
        raise
    for group in alike:  # found by a loose spelling, one of them could take another's name: each types it exactly
        print(
            f"note: {_listed(group)} on the roster differ only in accents, apostrophes, hyphens or the order of the "
            "names: these students must type their name as the roster has it (only its case and spaces may "
            "differ)",
            file=sys.stderr,
        )


def _listed(names: list[str]) -> str:
    """Names said in a sentence: 'A' and 'B', or 'A', 'B' and 'C'."""
    quoted = [repr(name) for name in names]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _address(address: str) -> str:
    """``--address`` checked: an http(s) address (a link on paper must be one a phone opens); a note when only
    this computer reaches it."""
    parts = urlsplit(address)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(
            f"--address: give the server's address as the students' phones reach it, such as "
            f"https://class.example.org, not {address[:60]!r}"
        )
    try:
        loopback = parts.hostname == "localhost" or ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        print(
            f"note: --address {address} is this computer's own: the links open only here; give the address the "
            "students' phones reach (class serve prints it), e.g. --address http://192.168.1.20:8000",
            file=sys.stderr,
        )
    return address.rstrip("/")


def _url(base: str, session_id: int, token: str) -> str:
    from bleu_teach.classroom.app import url_path

    return base + url_path("personal_link", session=session_id, link=token)


def links_csv(links: list[Any], urls: list[str]) -> str:
    """The links file: a row per name (Name, the platform's identifier columns the roster had, link), a header
    that ``exercises.roster`` reads back (the name, the identifiers and the link)."""
    identifiers = [json.loads(link.identifier or "{}") for link in links]
    identifiers = [found if isinstance(found, dict) else {} for found in identifiers]
    columns = list(dict.fromkeys(key for found in identifiers for key in found))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Name", *columns, LINK_COLUMN])
    for link, found, url in zip(links, identifiers, urls):
        writer.writerow([link.name, *(str(found.get(key, "")) for key in columns), url])
    return out.getvalue()


def run_links(args: argparse.Namespace, store: Any) -> None:
    """Run ``class links`` on ``store``."""
    if args.name is None and not args.out:
        raise ValueError("--out: give the CSV file to write the links into (or --name NAME for one student's link)")
    if args.name is not None and args.out:
        raise ValueError(
            "--out: with --name only that student's link is made, and printed; leave --out out (the class's file "
            "keeps the others' links, which go on working)"
        )
    if args.name is not None and args.everyone_out:
        raise ValueError(
            "--everyone-out: with --name only that student's link is made again, and they are out on every device "
            "already; leave --everyone-out out (or give --out FILE.csv to make every link again)"
        )
    base = _address(args.address)
    path = private_path(args.out, args.force, "the CSV file's") if args.out else None  # before any link changes
    session = store.session(args.session)  # says so if there is none
    if not session.open:
        raise ValueError(f"session {session.id} is closed: its links would let no one in; make a new session")
    if path is None:
        links = store.issue_links(session.id, args.name)
        print(
            f"{links[0].name}'s new link to session {session.id} ({session.title}): "
            f"{_url(base, session.id, links[0].token)}\n"
            "  their earlier link no longer works, and each device they had joined on is out until it opens this "
            "one (their answers stay theirs)"
        )
        return
    written: list[Path] = []

    def write(links: list[Any]) -> None:  # before the new links are kept: a file that cannot be written changes none
        text = links_csv(links, [_url(base, session.id, link.token) for link in links]).encode("utf-8")

        def fill(file: BinaryIO) -> None:
            file.write(text)

        try:
            written.append(write_beside(path, fill))
        except OSError as problem:
            raise ValueError(
                f"--out: {str(path)!r} could not be written ({problem.strerror or problem}); no link was made "
                "again: the earlier links still work"
            ) from None

    try:
        links = store.issue_links(session.id, everyone_out=args.everyone_out, before_commit=write)
    except BaseException as problem:  # not kept: neither is the file
        for partial in written:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(partial)
        if isinstance(problem, (ValueError, LookupError)) or not isinstance(problem, Exception):
            raise
        raise ValueError(  # the database's own failure (a full disk at the commit): said as what it means here
            f"the new links could not be kept ({type(problem).__name__}: {str(problem)[:200]}); no link was made "
            f"again and {str(path)!r} is not written: the earlier links still work"
        ) from problem
    try:
        put_in_place(written[0], path, args.force)
    except (OSError, ValueError) as problem:
        said = problem.strerror or problem if isinstance(problem, OSError) else problem
        raise ValueError(
            f"--out: the new links are made (the earlier ones no longer work) and written to {str(written[0])!r}, "
            f"which could not take the name {str(path)!r} ({said}): rename that file yourself, and keep it as you "
            "keep your teacher link"
        ) from None
    print(
        f"{len(links)} personal link{'' if len(links) == 1 else 's'} to session {session.id} ({session.title}) "
        f"written to {path} (readable by you only: keep it as you keep your teacher link). Earlier links to this "
        "session no longer work.\n"
        + (
            "  every student is out on every device they had joined on, until they open their new link (their "
            "answers stay theirs)\n"
            if args.everyone_out
            else "  the devices students already joined on stay in: if a links file leaked, run the command again "
            "with --everyone-out to put everyone out until they open their new link\n"
        )
        + f"  each student's link and its QR code on their sheet: python -m bleu_teach exercises worksheet "
        f"--roster {Path(path).name} --out DIR"
    )
