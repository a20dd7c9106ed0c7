"""The classroom server's structure, held to the code: every SQL statement in the store layer, every route named
and every link made from a name, the settings in one place.

The store layer is ``store.py``, its parts ``store_*.py`` and the tables in ``schema.py``: no other module of
``bleu_teach/classroom`` (read with ``ast``) runs a statement (``.execute``), opens a transaction of the engine,
builds one (SQLAlchemy's ``select``/``insert``/``update``/``delete``/``text``/``func``..., its dialects) or
imports a table: the polls' and the homework's rules call the store's methods.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from sqlalchemy import Table  # noqa: E402
from starlette.routing import Mount, Route  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from bleu_teach.classroom import schema  # noqa: E402
from bleu_teach.classroom.app import create_app, from_environment, url_path  # noqa: E402
from bleu_teach.classroom.paths import PATHS  # noqa: E402
from bleu_teach.classroom.settings import (  # noqa: E402
    DATABASE_VARIABLE,
    DEFAULTS,
    SITE_VARIABLE,
    TOKEN_VARIABLE,
    Limits,
    Settings,
    default_database,
)
from bleu_teach.classroom.store import Store  # noqa: E402

CLASSROOM = Path(__file__).resolve().parent.parent / "bleu_teach" / "classroom"
#: The store layer: the only modules that may hold SQL.
STORE_LAYER = {"store", "schema"} | {p.stem for p in CLASSROOM.glob("store_*.py")}
OUTSIDE_THE_STORE = sorted(p for p in CLASSROOM.glob("*.py") if p.stem not in STORE_LAYER)
#: The tables (schema's Table objects): a module that imports one builds statements.
TABLES = {name for name, value in vars(schema).items() if isinstance(value, Table)}
#: What of SQLAlchemy builds statements (its exceptions, events and types are anyone's to use).
STATEMENT_BUILDERS = {"select", "insert", "update", "delete", "text", "func", "literal", "and_", "or_", "exists"}
#: Calls that run SQL or open a transaction: ``connection.execute(...)``, ``engine.begin()``, ``self._begin()``.
RUNS_SQL = {"execute", "executemany", "exec_driver_sql", "_begin"}
OPENS_THE_ENGINE = {"begin", "connect", "raw_connection"}


def sql_in(source: str) -> list[str]:
    """Where ``source`` runs or builds SQL itself, one line each (``line N: what``); empty if it does not."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {alias.name for alias in node.names}
            if node.module == "sqlalchemy" and names & STATEMENT_BUILDERS:
                found.append(f"line {node.lineno}: imports {', '.join(sorted(names & STATEMENT_BUILDERS))}")
            elif node.module.startswith(("sqlalchemy.dialects", "sqlalchemy.sql")):
                found.append(f"line {node.lineno}: imports from {node.module}")
            elif node.module == "bleu_teach.classroom.schema" and names & TABLES:
                found.append(f"line {node.lineno}: imports the tables {', '.join(sorted(names & TABLES))}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("psycopg", "sqlite3") or alias.name.startswith("sqlalchemy.dialects"):
                    found.append(f"line {node.lineno}: imports {alias.name}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            called = node.func
            if called.attr in RUNS_SQL:
                found.append(f"line {node.lineno}: calls .{called.attr}()")
            elif (
                called.attr in OPENS_THE_ENGINE
                and isinstance(called.value, ast.Attribute)
                and called.value.attr == "engine"
            ):
                found.append(f"line {node.lineno}: calls .engine.{called.attr}()")
    return found


@pytest.mark.parametrize("module", OUTSIDE_THE_STORE, ids=lambda p: p.stem)
def test_no_module_outside_the_store_layer_runs_sql(module: Path) -> None:
    found = sql_in(module.read_text(encoding="utf-8"))
    assert found == [], (
        f"classroom/{module.name} runs SQL itself ({'; '.join(found)}): give the statement to the store "
        "(a method of a store_*.py part, @notifies if it writes a session's records) and call that."
    )


def test_the_sql_check_finds_what_the_polls_and_the_homework_ran_before() -> None:
    """The check can fail: the code polls.py and homework.py held before the store took their statements."""
    before = """
from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from bleu_teach.classroom.schema import homework_variants, polls, record_id, students, votes

def close(self, session_id, poll_id):
    with self.store.engine.begin() as connection:
        connection.execute(polls.update().where(polls.c.id == poll_id).values(state="closed"))

def counts(self, session_id):
    with self.store.engine.connect() as connection:
        return connection.execute(select(func.count())).all()
"""
    found = sql_in(before)
    assert [line.split(": ", 1)[1] for line in found] == [
        "imports delete, func, select",
        "imports from sqlalchemy.dialects",
        "imports the tables homework_variants, polls, students, votes",
        "calls .engine.begin()",
        "calls .execute()",
        "calls .engine.connect()",
        "calls .execute()",
    ]
    assert (
        sql_in("from sqlalchemy.exc import OperationalError\nfrom bleu_teach.classroom.schema import bounded\n") == []
    )


# --- the store's writes still say which session changed -----------------------------------------------------------


def test_each_poll_write_says_once_that_its_session_changed(tmp_path: Path) -> None:
    from bleu_teach.classroom.homework import Homework, draw
    from bleu_teach.classroom.polls import Polls

    store = Store.open(tmp_path / "class.sqlite")
    try:
        session, _ = store.create_session("week 3")
        student, _ = store.join(session, "Ann")
        heard: list[int] = []
        store.listeners.append(heard.append)
        polls = Polls(store)
        poll = polls.open(session.id, "Which?", (("A", "one"), ("B", "two")))
        assert heard == [session.id]
        assert polls.vote(student, poll.id, "v-1", "A") is True
        assert heard == [session.id] * 2
        assert polls.vote(student, poll.id, "v-1", "A") is False  # the same vote again: nothing changed, nothing said
        assert heard == [session.id] * 2
        polls.close(session.id, poll.id)
        assert heard == [session.id] * 3
        again = polls.again(session.id, poll.id)
        assert heard == [session.id] * 4
        assert (again.round, again.first_round, polls.current(session.id)) == (2, poll.id, again)
        with pytest.raises(ValueError, match="closed"):
            polls.vote(student, poll.id, "v-2", "B")  # refused: nothing written, nothing said
        with pytest.raises(LookupError):
            polls.close(session.id, poll.id + 100)
        assert heard == [session.id] * 4
        homework, _ = store.create_session("homework", "homework")
        heard.clear()
        Homework(store).save(homework, draw(["03.1"], count=2, seed=3))  # made before anyone can watch it
        assert heard == [] and Homework(store).counts(homework.id) == {"03.1": 2}
    finally:
        store.close()


# --- named routes --------------------------------------------------------------------------------------------


def test_every_route_has_a_name_and_url_path_makes_the_apps_own_paths(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "class.sqlite")
    try:
        app = create_app(store, "token").app
        routes = [r for r in app.routes if isinstance(r, Route)]
        assert {r.name: r.path for r in routes} == PATHS  # each route under its name, each name a route
        assert [r.name for r in app.routes if isinstance(r, Mount)] == ["class-static"]
        values = {"session": 12, "poll": 7, "student": 345, "action": "close", "secret": "Ab_-9", "token": "K7QM2"}
        values["link"], values["rest"] = "Xy-_8", "3/Xy-_8/more"
        for route in routes:
            params = {name: values[name] for name in route.param_convertors}
            assert url_path(route.name, **params) == app.url_path_for(route.name, **params)
        assert url_path("enter", session=3, secret="s3cr_t") == "/class/t/3/s3cr_t"
        assert url_path("remove", session=3, student=4) == "/class/api/sessions/3/students/4/remove"
        assert url_path("personal_link", session=3, link="Xy-_8") == "/class/me/3/Xy-_8"
        assert app.url_path_for("class-static", path="dashboard.js") == "/class/static/dashboard.js"
    finally:
        store.close()


def test_no_template_spells_out_a_link_to_the_classroom() -> None:
    for template in sorted((CLASSROOM / "templates").glob("*.html")):
        text = template.read_text(encoding="utf-8")
        assert '="/class' not in text, f"{template.name}: make the link with url_for('<the route's name>', ...)"


def test_no_python_module_spells_out_a_classroom_path_but_the_route_table() -> None:
    """Outside the route table (paths.PATHS, the static files' mount in app) and the classroom's prefixes (room's
    two, guard's choice of security policy), a path of the classroom in a Python string (not a docstring) is a link
    spelled by hand."""
    allowed = {("app", "/class/static"), ("room", "/class"), ("room", "/class/api/"), ("guard", "/class")}
    spelled = []
    for module in sorted(CLASSROOM.glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        table = next(
            (
                node.value
                for node in ast.walk(tree)
                if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "PATHS" for t in node.targets)
            ),
            None,
        )
        in_table = {id(node) for node in ast.walk(table)} if table is not None else set()
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith("/class")
                and id(node) not in docstrings | in_table
                and (module.stem, node.value) not in allowed
            ):
                spelled.append(f"{module.name}, line {node.lineno}: {node.value!r}")
    assert spelled == []


# --- settings ------------------------------------------------------------------------------------------------


def test_the_settings_come_from_the_environment_and_go_back_to_it() -> None:
    assert Settings.from_environment({}) == DEFAULTS == Settings()
    assert (DEFAULTS.host, DEFAULTS.port, DEFAULTS.workers, DEFAULTS.address) == (
        "127.0.0.1",
        8000,
        1,
        "http://127.0.0.1:8000",
    )
    assert DEFAULTS.limits == Limits()
    told = Settings.from_environment(
        {DATABASE_VARIABLE: "postgresql://class@db/class", TOKEN_VARIABLE: "tok", SITE_VARIABLE: "build/site"}
    )
    assert (told.database, told.teacher_token, told.site) == ("postgresql://class@db/class", "tok", Path("build/site"))
    assert Settings.from_environment(told.environment()) == told
    empty = Settings.from_environment({DATABASE_VARIABLE: "", TOKEN_VARIABLE: "", SITE_VARIABLE: ""})
    assert empty == DEFAULTS and empty.environment() == {}  # set but empty: not set
    assert told.database_or_default() == "postgresql://class@db/class"
    assert DEFAULTS.database_or_default() == default_database()
    assert Path(default_database()).name == "class.sqlite" and "bleu-teach" in Path(default_database()).parts
    served = DEFAULTS.uvicorn()
    assert (served["host"], served["port"], served["limit_concurrency"]) == ("127.0.0.1", 8000, 4000)


def test_the_workers_app_needs_the_database_and_the_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(DATABASE_VARIABLE, raising=False)
    monkeypatch.setenv(TOKEN_VARIABLE, "tok")
    with pytest.raises(RuntimeError, match=f"^{DATABASE_VARIABLE} and {TOKEN_VARIABLE} must be set"):
        from_environment()
    monkeypatch.setenv(DATABASE_VARIABLE, str(tmp_path / "class.sqlite"))
    app = from_environment()
    with TestClient(app, base_url="http://class.test") as browser:
        assert browser.get("/class/teach?token=tok", follow_redirects=False).status_code == 303


def test_the_command_lines_defaults_are_the_settings() -> None:
    from bleu_teach.ui.cli_parser import build_parser

    parser = build_parser()
    serve = parser.parse_args(["class", "serve"])
    assert (serve.host, serve.port, serve.workers) == (DEFAULTS.host, DEFAULTS.port, DEFAULTS.workers)
    assert parser.parse_args(["class", "new", "week 3"]).address == DEFAULTS.address
    assert parser.parse_args(["class", "link", "3"]).address == DEFAULTS.address


def _body_reads(source: str) -> list[str]:
    """Where ``source`` reads a request's JSON other than into a typed body (``Kind.of(await json_body(...))``, or
    ``Kind.of(json_object(...))`` in a thread), or looks into a body's dict itself (``body.get(...)``,
    ``body[...]``)."""
    found = []
    tree = ast.parse(source)
    wrapped = {
        id(node.args[0].value if isinstance(node.args[0], ast.Await) else node.args[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "of"
        and node.args
        and isinstance(node.args[0], (ast.Await, ast.Call))
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("json_body", "json_object")
        ):
            if id(node) not in wrapped:
                found.append(f"line {node.lineno}: {node.func.id}(...) not read into a typed body")
        elif isinstance(node, ast.Name) and node.id == "body" and isinstance(node.ctx, ast.Load):
            found.append(f"line {node.lineno}: looks into a request's body itself")
    return found


ROUTE_MODULES = sorted(
    p for p in CLASSROOM.glob("*.py") if p.stem in {"app", "homework_pages", "poll_routes", "teacher_routes"}
)


@pytest.mark.parametrize("module", ROUTE_MODULES, ids=lambda p: p.stem)
def test_every_json_request_is_read_into_a_typed_body(module: Path) -> None:
    """A route reads its JSON with ``bodies.<Kind>.of(await json_body(request))``: named, checked fields, one
    place per request's shape (the answer's length limit was written in three routes before)."""
    assert _body_reads(module.read_text(encoding="utf-8")) == []


def test_the_body_check_finds_what_a_route_did_before() -> None:
    before = 'async def f(request):\n    body = await json_body(request)\n    code = body.get("code")\n'
    assert _body_reads(before) == [
        "line 2: json_body(...) not read into a typed body",
        "line 3: looks into a request's body itself",
    ]
    assert _body_reads("async def f(request):\n    sent = JoinBody.of(await json_body(request))\n") == []
    assert _body_reads("def f(raw):\n    sent = JoinBody.of(json_object(raw))\n") == []
    assert _body_reads("def f(raw):\n    found = json_object(raw)\n") == [
        "line 2: json_object(...) not read into a typed body"
    ]
