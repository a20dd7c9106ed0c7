"""``python -m bleu_teach class ...``: the classroom server and its sessions from the command line.

``class serve`` starts the server (uvicorn, one process; SQLite by default,
PostgreSQL with ``--database postgresql://...``) and prints where it keeps
its records, the teacher page's link and, on a classroom network, the address
and a QR code for the projector. ``class new`` creates a session without the
teacher page and ``class homework`` a homework (each student's own questions,
checked on the server, with its late policy: ``--late``); ``class list``,
``class link`` (a new teacher link), ``class extend`` (a homework student's own
due time), ``class close``, ``class archive`` (one zip of the course) and
``class delete`` manage them; ``class links`` makes each roster name's personal join link (``links_command``:
also how ``new`` and ``homework`` read their ``--roster``); ``class term`` shows the class over a term;
``class nginx`` prints the configuration of an nginx in front of a department's server.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import sys
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bleu_teach.classroom.settings import DEFAULTS, OLD_DEFAULT_DATABASE, TOKEN_VARIABLE, Settings
from bleu_teach.exercises.variants import VARIED
from bleu_teach.ui.archive_command import add_archive_commands, run_archive
from bleu_teach.ui.links_command import ROSTER_HELP, add_links_command, keep_roster, roster_names, run_links
from bleu_teach.ui.lti_command import LTI_CREATING, add_lti_command, run_lti
from bleu_teach.ui.term_command import add_term_command, run_term

#: The commands that may make a new database; the others only open one that is there.
CREATING = ("serve", "new", "homework")
#: The exercises a homework has unless told otherwise: every numeric exercise, each of which has variants.
HOMEWORK_EXERCISES = VARIED


def add_classroom_commands(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    room = commands.add_parser(
        "class",
        formatter_class=formatter,
        help="the classroom server: live answers of the class for the teacher (needs bleu-teach[classroom])",
        description="A classroom server: students join a session with a code and a nickname, their answers\n"
        "on the lesson pages are sent to it, and the teacher's dashboard shows live which\n"
        "mistakes the class makes. Every command uses the same database (one per user, wherever\n"
        "it runs; --database for another) and prints where it is; give --address (the address\n"
        "students use) to those that print links.",
    )
    what = room.add_subparsers(dest="class_command", title="what to do", metavar="WHAT")
    serve = what.add_parser("serve", help="start the classroom server")
    serve.add_argument(
        "--host",
        default=DEFAULTS.host,
        help=f"the address to listen on (default {DEFAULTS.host}: this computer only; 0.0.0.0 for a classroom network)",
    )
    serve.add_argument("--port", type=int, default=DEFAULTS.port, help=f"the port (default {DEFAULTS.port})")
    serve.add_argument(
        "--site",
        metavar="FOLDER",
        help="the built course website to serve beside the classroom (make site: build/site)",
    )
    serve.add_argument(
        "--address", metavar="URL", help="the address students type, if not http://HOST:PORT (behind a proxy)"
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=DEFAULTS.workers,
        metavar="N",
        help=f"worker processes (default {DEFAULTS.workers}); more than 1 needs PostgreSQL (--database postgresql://...)",
    )
    new = what.add_parser("new", help="create a session")
    new.add_argument("title", help="the session's title, as the students see it")
    new.add_argument(
        "--address",
        metavar="URL",
        default=DEFAULTS.address,
        help=f"the server's address, for the teacher link (default {DEFAULTS.address})",
    )
    new.add_argument("--roster", metavar="CSV", help=ROSTER_HELP)
    homework = what.add_parser(
        "homework", help="create a homework: each student's own questions, checked on the server"
    )
    homework.add_argument("title", help="the homework's title, as the students see it")
    homework.add_argument(
        "--due",
        required=True,
        metavar="TIME",
        help="when it is due, with its time zone: 2026-12-01T09:00+01:00 (later answers: --late)",
    )
    homework.add_argument(
        "--late",
        default="accept",
        metavar="POLICY",
        help="an answer after the due time (or a student's extension): accept (counted in full, marked late; the "
        "default), refuse (the homework closes for the student), or penalty:N (N percent off its points)",
    )
    homework.add_argument("--roster", metavar="CSV", help=ROSTER_HELP)
    homework.add_argument(
        "--exercises",
        metavar="IDS",
        default=",".join(HOMEWORK_EXERCISES),
        help=f"which numeric exercises (default {','.join(HOMEWORK_EXERCISES)})",
    )
    homework.add_argument(
        "--avoid",
        metavar="FILE",
        help="the worksheets.quiz.json that 'exercises worksheet' wrote: no question is then one of "
        "those paper sheets' or that quiz's",
    )
    homework.add_argument(
        "--tries",
        type=int,
        default=10,
        metavar="N",
        help="answers each student may send per question (default 10: enough to correct a slip, "
        "too few to find a number by trying)",
    )
    homework.add_argument(
        "--variants",
        type=int,
        default=40,
        metavar="N",
        help="how many variants of each exercise to draw (default 40; students beyond share them)",
    )
    homework.add_argument(
        "--address",
        metavar="URL",
        default=DEFAULTS.address,
        help=f"the server's address, for the links (default {DEFAULTS.address})",
    )
    nginx = what.add_parser(
        "nginx",
        help="print the nginx configuration for a department's server (TLS, timeouts, limits) in front of class serve",
    )
    nginx.add_argument(
        "--server-name",
        required=True,
        metavar="NAME",
        help="the server's name in the students' address, e.g. class.cs.example.edu",
    )
    nginx.add_argument(
        "--certificate",
        required=True,
        metavar="PEM",
        help="the TLS certificate (chain) file, e.g. /etc/letsencrypt/live/NAME/fullchain.pem",
    )
    nginx.add_argument("--key", required=True, metavar="PEM", help="the certificate's private key file")
    nginx.add_argument(
        "--port",
        type=int,
        default=DEFAULTS.port,
        help=f"the port class serve listens on, on 127.0.0.1 (default {DEFAULTS.port})",
    )
    nginx.add_argument("--https-port", type=int, default=443, help="nginx's https port (default 443)")
    nginx.add_argument("--http-port", type=int, default=80, help="nginx's http port, which redirects (default 80)")
    nginx.add_argument(
        "--connections-per-address",
        type=int,
        default=1000,
        metavar="N",
        help="connections one address may hold (default 1000: a lecture hall behind one address)",
    )
    listing = what.add_parser("list", help="the sessions in the database")
    link = what.add_parser("link", help="a new teacher link for a session (the old one stops working)")
    link.add_argument("session", type=int, help="the session's number (class list shows them)")
    link.add_argument(
        "--address",
        metavar="URL",
        default=DEFAULTS.address,
        help=f"the server's address, for the link (default {DEFAULTS.address})",
    )
    extend = what.add_parser("extend", help="give a homework's student more time: a due time of their own")
    extend.add_argument("session", type=int, help="the homework's number (class list shows them)")
    extend.add_argument("name", help="the student's name as the roster has it (or the nickname they joined under)")
    extend.add_argument(
        "--until", required=True, metavar="TIME", help="their due time, with its time zone: 2026-12-03T09:00+01:00"
    )
    close = what.add_parser("close", help="stop a session taking answers")
    close.add_argument("session", type=int, help="the session's number (class list shows them)")
    commands_with_database = [serve, new, homework, listing, link, extend, close, *add_archive_commands(what)]
    commands_with_database += [*add_lti_command(what), add_term_command(what), add_links_command(what)]
    for command in commands_with_database:
        command.add_argument(
            "--database",
            metavar="PATH_OR_URL",
            help="a SQLite file or a postgresql:// URL (default: $BLEU_TEACH_DATABASE, else one file "
            "per user, ~/.local/share/bleu-teach/class.sqlite on Linux; every command prints "
            "which)",
        )


def _network_address() -> str:
    """This computer's address on its network (the one a route out would use; nothing is sent)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # UDP: connecting sends no packet
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _qr(text: str) -> str:
    """A QR code of ``text`` drawn with text characters, for a terminal shown on the projector (segno)."""
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def _store(database: str | None, create: bool) -> Any:
    """The store the command works on; says on stderr where it is (and where the old default's file lies)."""
    try:
        from bleu_teach.classroom.store import Store
    except ImportError as missing:
        raise ValueError(f"the classroom server needs {missing.name}: pip install 'bleu-teach[classroom]'") from None
    if database is None:
        database = Settings.from_environment().database_or_default()  # $BLEU_TEACH_DATABASE, else the user's file
        if "://" not in database and create:  # a SQLite file: its folder is made (not for a PostgreSQL URL)
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        if Path(OLD_DEFAULT_DATABASE).is_file() and Path(OLD_DEFAULT_DATABASE).resolve() != Path(database).resolve():
            print(
                f"note: {OLD_DEFAULT_DATABASE} in this folder holds records of an earlier version; use them with "
                f"--database {OLD_DEFAULT_DATABASE}",
                file=sys.stderr,
            )
    try:
        store = Store.open(database, create=create)
    except LookupError as missing:
        raise ValueError(str(missing).strip("'\"")) from None
    return store


def _where(store: Any) -> str:
    """Where the records are, as every command prints it: the SQLite file, or the PostgreSQL URL without password."""
    return store.path and str(store.path) or store.url()


def nginx_configuration(
    server_name: str,
    certificate: str,
    key: str,
    upstream_port: int = DEFAULTS.port,
    https_port: int = 443,
    http_port: int = 80,
    connections_per_address: int = 1000,
) -> str:
    """The project's nginx configuration (``classroom/deploy/nginx.conf``) for this server, every value checked so
    that nothing typed can add a directive of its own."""
    import re
    from importlib.resources import files

    if not re.fullmatch(r"[A-Za-z0-9.-]{1,253}", server_name):
        raise ValueError(f"--server-name: a host name such as class.cs.example.edu, not {server_name[:60]!r}")
    for name, path in (("--certificate", certificate), ("--key", key)):
        if not re.fullmatch(r"[A-Za-z0-9_./@+-]{1,500}", path) or not path.startswith("/"):
            raise ValueError(f"{name}: an absolute path of letters, digits and _./@+- only, not {path[:60]!r}")
    for name, port in (("--port", upstream_port), ("--https-port", https_port), ("--http-port", http_port)):
        if not 1 <= port <= 65535:
            raise ValueError(f"{name}: 1 to 65535, not {port}")
    if https_port == http_port:
        raise ValueError(f"--https-port and --http-port: two different ports, not {https_port} twice")
    if not 1 <= connections_per_address <= 100_000:
        raise ValueError(f"--connections-per-address: 1 to 100000, not {connections_per_address}")
    text = files("bleu_teach.classroom").joinpath("deploy/nginx.conf").read_text(encoding="utf-8")
    values = {
        "server_name": server_name,
        "certificate": certificate,
        "certificate_key": key,
        "upstream_port": upstream_port,
        "https_port": https_port,
        "http_port": http_port,
        "connections_per_address": connections_per_address,
        "https_suffix": "" if https_port == 443 else f":{https_port}",
    }
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def run_classroom(args: argparse.Namespace) -> int:
    """Run ``class ...``; return the exit code."""
    if args.class_command is None:
        raise ValueError(
            "choose one: class serve, new, homework, list, term, link, links, extend, nginx, lti, close, archive or "
            "delete"
        )
    if args.class_command == "nginx":  # no database: a file for the department's web server
        print(
            nginx_configuration(
                args.server_name,
                args.certificate,
                args.key,
                args.port,
                args.https_port,
                args.http_port,
                args.connections_per_address,
            ),
            end="",
        )
        return 0
    if args.class_command == "lti" and args.lti_command in ("setup", None):  # no database: what to enter where
        run_lti(args, None)
        return 0
    # A homework's options, roster and variants are checked and drawn before the records are opened: a refused
    # roster leaves no database behind.
    plan = _homework_plan(args) if args.class_command == "homework" else None
    names = roster_names(args.roster) if args.class_command == "new" and args.roster else []  # a live one's
    creating = args.class_command in CREATING or (args.class_command == "lti" and args.lti_command in LTI_CREATING)
    store = _store(args.database, creating)
    if args.class_command != "serve":  # serve says it in its banner
        print(f"records: {_where(store)}", file=sys.stderr, flush=True)
    try:
        if args.class_command == "serve":
            return _serve(args, store)
        if args.class_command == "new":
            session, secret = store.create_session(args.title)
            keep_roster(store, session.id, names)
            listed = f" (only the {len(names)} names of the roster: class links makes their own links)"
            print(
                f"Session {session.id}: {session.title}\n"
                f"  students join at {_link(args.address, 'join_page')} with the code {session.code}"
                f"{listed if names else ''}\n"
                "  your teacher link (keep it; it is shown only now): "
                f"{_link(args.address, 'enter', session=session.id, secret=secret)}"
            )
        elif args.class_command == "lti":
            run_lti(args, store)
        elif args.class_command == "homework":
            assert plan is not None
            _homework(args, store, plan)
        elif args.class_command == "link":
            secret = store.new_teacher_secret(args.session)
            print(
                f"Session {args.session}: your new teacher link (the old one no longer works): "
                f"{_link(args.address, 'enter', session=args.session, secret=secret)}"
            )
        elif args.class_command == "extend":
            _extend(args, store)
        elif args.class_command == "list":
            _list_sessions(store)
        elif args.class_command == "close":
            store.session(args.session)  # says so if there is none
            store.close_session(args.session)
            print(f"Session {args.session} closed.")
        elif args.class_command in ("archive", "delete"):
            run_archive(args, store)
        elif args.class_command == "term":
            run_term(args, store)
        elif args.class_command == "links":
            run_links(args, store)
    except LookupError as missing:
        raise ValueError(str(missing).strip("'\"") + " (class list shows the sessions)") from None
    finally:
        if args.class_command != "serve":
            store.close()
    return 0


def _homework_plan(args: argparse.Namespace) -> dict[str, Any]:
    """A homework's due time, roster and variants, checked and drawn (a minute or so) before anything is made."""
    import time

    from bleu_teach.classroom.grading import LatePolicy
    from bleu_teach.classroom.homework import avoided, draw

    due = _moment(args.due, "--due")
    late = LatePolicy.parse(args.late, "--late")
    if due < datetime.now(due.tzinfo):
        told = "no answer will be taken" if late.rule == "refuse" else "every answer will be marked late"
        print(f"note: --due {args.due} is already past: {told}", file=sys.stderr)
    if not 1 <= args.variants <= 200:
        raise ValueError(f"--variants: 1 to 200, not {args.variants}")
    if not 1 <= args.tries <= 100:
        raise ValueError(f"--tries: 1 to 100, not {args.tries}")
    names = roster_names(args.roster) if args.roster else []  # read as the worksheets read it, before drawing
    which = [part.strip() for part in args.exercises.split(",") if part.strip()]
    avoid = avoided(args.avoid) if args.avoid else []
    started = time.perf_counter()
    print(
        f"drawing up to {args.variants} variants of {len(which)} exercises"
        f"{f', none of the {len(avoid)} in {args.avoid}' if avoid else ''} (this can take a minute)...",
        file=sys.stderr,
        flush=True,
    )
    variants = draw(which, avoid, args.variants)
    left = {exercise_id: sum(v.id == exercise_id for v in variants) for exercise_id in which}
    if not any(left.values()):
        raise ValueError(
            f"no variant of {', '.join(which)} is left that is no near-copy of "
            f"{'the sheets and quiz in ' + repr(args.avoid) if avoid else 'another'}; nothing was made: "
            "choose other --exercises"
        )
    others = (
        "a paper sheet's or the quiz's question (or of another student's)" if avoid else "another student's question"
    )
    for exercise_id, count in left.items():  # said, never dropped in silence (the worksheet command says it too)
        if count == 0:
            print(
                f"note: no variant of {exercise_id} is left that is no near-copy of {others}: the homework leaves "
                "it out",
                file=sys.stderr,
            )
        elif count < args.variants:
            print(
                f"note: only {count} variant{'s' if count > 1 else ''} of {exercise_id} {'are' if count > 1 else 'is'}"
                f" left that {'are' if count > 1 else 'is'} no near-copy of {others}, of the {args.variants} asked "
                f"for: students share {'them' if count > 1 else 'it'} in turn",
                file=sys.stderr,
            )
    return {"due": due, "late": late, "names": names, "variants": variants, "started": started}


def _homework(args: argparse.Namespace, store: Any, plan: dict[str, Any]) -> None:
    """Make the session with its roster and the variants the plan drew."""
    import time

    from bleu_teach.classroom.homework import Homework

    due, late, names, variants, started = (plan[key] for key in ("due", "late", "names", "variants", "started"))
    session, secret = store.create_session(args.title, "homework", due, args.tries, str(late))
    keep_roster(store, session.id, names)
    homework = Homework(store)
    homework.save(session, variants)
    drawn = homework.counts(session.id)
    print(
        f"Homework {session.id}: {session.title} (due {due.isoformat()}, {args.tries} tries per question, "
        f"{late.said()}), "
        f"{time.perf_counter() - started:.0f} s to draw\n"
        f"  variants: {', '.join(f'{k} {v}' for k, v in sorted(drawn.items()))}\n"
        f"  students join at {_link(args.address, 'join_page')} with the code {session.code}"
        f"{f' (only the {len(names)} names of the roster: class links makes their own links)' if names else ''}, "
        "then answer at "
        f"{_link(args.address, 'homework_page')}\n"
        "  your teacher link (keep it; it is shown only now): "
        f"{_link(args.address, 'enter', session=session.id, secret=secret)}"
    )


def _list_sessions(store: Any) -> None:
    """``class list``: each session on a line (its number, join code, state, when it was made in UTC, its title);
    under a homework, its due time, tries and late policy, as ``class homework`` set them."""
    from bleu_teach.classroom.grading import LatePolicy

    for session in store.sessions():
        state = "open" if session.open else "closed"
        print(f"{session.id:>4}  {session.code}  {state:<6}  {session.created:%Y-%m-%d %H:%M} UTC  {session.title}")
        if session.kind == "homework":
            due = session.due.isoformat(timespec="minutes") if session.due is not None else "no due time"
            print(f"{'':6}homework: due {due}, {session.tries} tries per question, {LatePolicy.of(session).said()}")


def _moment(text: str, option: str) -> datetime:
    """A time given on the command line, with its zone (compared in UTC)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{option}: {text[:40]!r} is not a time such as 2026-12-01T09:00+01:00") from None
    if moment.tzinfo is None:
        raise ValueError(f"{option}: give the time zone too, e.g. 2026-12-01T09:00+01:00 or 2026-12-01T08:00Z")
    return moment


def _extend(args: argparse.Namespace, store: Any) -> None:
    """A homework's student may answer until their own time (``class extend``)."""
    until = _moment(args.until, "--until")
    session = store.session(args.session)  # says so if there is none
    if session.kind == "homework" and session.due is not None and until <= session.due:
        raise ValueError(
            f"--until: {args.until} is not after the homework's due time, {session.due.isoformat(timespec='minutes')}"
            "; an extension gives more time"
        )
    name = store.extend(session.id, args.name, until)
    print(
        f"Homework {session.id}: {name} may answer until {until.isoformat(timespec='minutes')} "
        f"({until.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC); the homework is due "
        f"{session.due:%Y-%m-%d %H:%M} UTC for the others."
    )


def _link(base: str, name: str, **params: Any) -> str:
    """The address at ``base`` of the server's route ``name`` (the route table's names: classroom.app.PATHS)."""
    from bleu_teach.classroom.app import url_path

    return base.rstrip("/") + url_path(name, **params)


def _serve(args: argparse.Namespace, store: Any) -> int:
    import uvicorn

    from bleu_teach.classroom.app import create_app
    from bleu_teach.classroom.site_files import check_site

    site = Path(args.site) if args.site else None
    if site is not None and not (site / "index.html").is_file():
        raise ValueError(f"--site: {args.site!r} holds no index.html; build the website first (make site)")
    if site is not None:
        check_site(store, site)  # before any link is printed
    if not 1 <= args.port <= 65535:
        raise ValueError(f"--port: 1 to 65535, not {args.port}")
    if not 1 <= args.workers <= 64:
        raise ValueError(f"--workers: 1 to 64, not {args.workers}")
    if args.workers > 1 and not store.postgres:
        raise ValueError("--workers: several workers need PostgreSQL (--database postgresql://...); SQLite takes one")
    import socket

    with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:  # before any link is shown
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a restart right away works
        try:
            probe.bind((args.host, args.port))
        except OSError as problem:
            raise ValueError(
                f"--port: cannot listen on {args.host}:{args.port} ({problem.strerror or problem}); "
                "is another server using it? Choose another --port."
            ) from None
    told = Settings.from_environment()
    token = told.teacher_token or secrets.token_urlsafe(24)  # $BLEU_TEACH_TEACHER_TOKEN, else a new one
    settings = replace(
        told,
        database=store.url(hide_password=False),
        teacher_token=token,
        site=site,
        host=args.host,
        port=args.port,
        workers=args.workers,
    )
    shown_host = _network_address() if args.host in ("0.0.0.0", "::") else args.host
    base = args.address or f"http://{shown_host}:{args.port}"
    print(
        f"bleu-teach classroom server\n  records: {_where(store)}\n"
        f"  teacher page (keep this link to yourself; a new one at each start, unless "
        f"{TOKEN_VARIABLE} is set): {_link(base, 'teach')}?token={token}\n"
        f"  students join at: {_link(base, 'join_page')}",
        flush=True,
    )
    if not _is_loopback(args.host):
        print(
            f"  WARNING: listening on {args.host}: anyone on this network can reach the server. Students "
            f"type the join address above (or scan this code):\n{_qr(_link(base, 'join_page'))}",
            file=sys.stderr,
            flush=True,
        )
    if args.workers > 1:  # each worker makes the app from the environment; they share the database
        store.close()
        os.environ.update(settings.environment())
        uvicorn.run(
            "bleu_teach.classroom.app:from_environment", factory=True, workers=settings.workers, **settings.uvicorn()
        )
        return 0
    app = create_app(store, token, site, settings.limits)
    try:
        uvicorn.run(app, **settings.uvicorn())
    finally:
        store.close()  # the SQLite file whole on its own: its log merged back
    return 0
