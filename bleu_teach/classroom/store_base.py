"""What the store's parts share: the engine and its transactions, and the marking of the methods that write.

:class:`~bleu_teach.classroom.store.Store` is made of one part per kind of
record, each a class it inherits, each a :class:`Records`: the sessions and
the database itself in :mod:`~bleu_teach.classroom.store`, the students and
the roster in :mod:`~bleu_teach.classroom.store_students`, the answers in
:mod:`~bleu_teach.classroom.store_answers`, the polls and votes in
:mod:`~bleu_teach.classroom.store_polls`, the homework variants in
:mod:`~bleu_teach.classroom.store_homework`. A method that writes a session's
records is marked with :func:`notifies`, which says which session changed
once its transaction is committed.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError

from bleu_teach.classroom.schema import Session, Student

Method = TypeVar("Method", bound=Callable[..., Any])
Result = TypeVar("Result")


def notifies(session_of: Callable[..., int], none_is_no_change: bool = False) -> Callable[[Method], Method]:
    """Mark a method of the store that writes: once it has returned (its transaction committed), the session
    ``session_of(*args)`` has changed (:meth:`~bleu_teach.classroom.store.Store.changed`); with
    ``none_is_no_change``, a method that returns None wrote nothing, and nothing is said."""

    def wrap(method: Method) -> Method:
        @functools.wraps(method)
        def written(self: Any, *args: Any, **kwargs: Any) -> Any:
            result = method(self, *args, **kwargs)
            if result is not None or not none_is_no_change:
                self.changed(session_of(*args, **kwargs))
            return result

        return written  # type: ignore[return-value]

    return wrap


def session_arg(session_id: int, *_: Any, **__: Any) -> int:
    return session_id


def session_of_arg(session: Session, *_: Any, **__: Any) -> int:
    return session.id


def student_arg(student: Student, *_: Any, **__: Any) -> int:
    return student.session_id


class Records:
    """A part of the store: the engine it reads and writes and whether that is PostgreSQL (both set by
    :class:`~bleu_teach.classroom.store.Store`), and a transaction.

    On SQLite one transaction writes at a time, and a second writer waits in SQLite's busy handler, which sleeps
    and tries again (1, 2, 5, 10 ms... up to 100 ms a try): under a class's load those sleeps, not the writes,
    made an answer's slowest times. So the process's writers take turns on a lock of their own first (``writing``,
    set by the store), and each is let in the moment the one before has committed; readers never wait (WAL)."""

    engine: Engine
    #: What a read connects to: on PostgreSQL the same connections with each statement committed on its own (no
    #: BEGIN and ROLLBACK around a read: three round trips to the server fewer per read, which under 1,000 students
    #: were a large part of the server's work; each statement of a transaction sees its own snapshot anyway at
    #: PostgreSQL's READ COMMITTED, so reads see what they saw before); on SQLite the engine itself.
    reading: Engine
    postgres: bool
    writing: threading.RLock
    waiting: list[_Write[Any]]  # the writes queued for the next group commit
    leading: bool  # whether a write is leading a group now (the others wait for it)
    queue_lock: threading.Lock

    @contextmanager
    def _begin(self) -> Iterator[Any]:
        if self.postgres:
            with self.engine.begin() as connection:
                yield connection
            return
        with self.writing, self.engine.begin() as connection:
            yield connection

    def _write(self, work: Callable[[Any], Result], alone: bool = False, row: Inserted[Result] | None = None) -> Result:
        """Run ``work(connection)`` in a transaction and return what it returns (or raise what it raises), once
        the transaction is committed. ``alone``: in a transaction of its own on PostgreSQL (a write that locks
        rows: two workers' groups locking the same rows in another order would wait for each other).

        Each commit waits for the disk (SQLite with ``synchronous=FULL``; PostgreSQL's WAL flush), and a class's
        answers and votes took turns for it: at 1,000 students the commits, not the statements, were most of the
        writers' time, and answers waited seconds in line. So the writes that arrive while one commits are
        committed together (a group commit): one write leads, runs every write waiting then and commits them
        once (if one fails, the group runs again, each in a savepoint of its own, so that the one that fails is
        undone alone and raises in its own caller); each caller returns after that commit, so an acknowledged
        write is on disk as before. (On PostgreSQL each worker process groups its own writes; 1,000 students, two
        workers: answer p50 1.56 s -> 69 ms.)

        ``row``: the same write as one row inserted (:class:`Inserted`), which the group inserts with the other rows
        of its table in one statement."""
        if alone and self.postgres:
            with self._begin() as connection:
                return work(connection)
        mine = _Write(work, row)
        with self.queue_lock:
            self.waiting.append(mine)
            lead = not self.leading
            self.leading = True
        if not lead:
            mine.ready.wait()  # set once its group is committed, or when the writer before hands it the turn
            if mine.done:
                return mine.result()
        # This write leads: it commits every write waiting now (itself among them), then hands the turn to the
        # first write that arrived meanwhile. Each waiting write is woken by its own event, at once, rather than
        # passing through one lock in turn: under 1,000 students those turns (each a wait for the interpreter's
        # lock) held the next group back by as many turns as the last group had writes.
        group: list[_Write[Any]] = []
        try:
            with self.writing:  # SQLite: no other writer meanwhile (Records._begin); then every write waiting now
                with self.queue_lock:
                    group, self.waiting[:] = list(self.waiting), []
                self._run_group(group)
        finally:
            with self.queue_lock:
                if not group and mine in self.waiting:  # interrupted before it took the group: not left behind
                    self.waiting.remove(mine)
                following = self.waiting[0] if self.waiting else None
                self.leading = following is not None
            for each in group:
                each.done = True
                each.ready.set()
            if following is not None:
                following.ready.set()  # not done: it leads the next group
        return mine.result()

    def _run_group(self, group: list[_Write[Any]]) -> None:
        """Commit a group's writes together; if one fails, each in a savepoint of its own; if the commit fails, none
        is written and each write raises the commit's problem."""
        try:
            self._commit(group, alone=False)
        except _Undone:  # one of the group failed: again, each in a savepoint of its own
            try:
                self._commit(group, alone=True)
            except Exception as problem:  # noqa: BLE001 (the commit failed: none of the group is written)
                for each in group:
                    each.problem, each.value = problem, None
        except Exception as problem:  # noqa: BLE001 (the commit failed: none of the group is written)
            for each in group:
                each.problem, each.value = problem, None

    def _commit(self, group: list[_Write[Any]], alone: bool) -> None:
        """Run a group's writes in one transaction and commit it. Not ``alone``: one after the other, as they
        nearly always succeed (a savepoint each would cost two more round trips to PostgreSQL per write, which
        under a class's load were most of the writer's turn); the first that fails undoes the whole transaction
        (:class:`_Undone`), and the caller runs the group again ``alone``: each write in a savepoint of its own, so
        that one that fails is undone alone and raises in its own caller."""
        with self.engine.begin() as connection:
            if not self.postgres:
                # SQLite's own BEGIN first: without it the first savepoint would open the transaction, and
                # releasing that savepoint would commit it (and wait for the disk) alone.
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            if not alone:
                try:
                    group = self._insert_rows(connection, group)
                except Exception as problem:  # noqa: BLE001 (the group runs again, each write alone)
                    raise _Undone from problem
            for each in group:
                each.problem = None
                if not alone:
                    try:
                        each.value = each.work(connection)
                    except Exception as problem:  # noqa: BLE001 (the group runs again, each write alone)
                        raise _Undone from problem
                    continue
                try:
                    with connection.begin_nested():
                        each.value = each.work(connection)
                except Exception as problem:  # noqa: BLE001 (raised again in its own caller)
                    each.problem = problem

    def _insert_rows(self, connection: Any, group: list[_Write[Any]]) -> list[_Write[Any]]:
        """Insert the rows of the group's writes that are one row each (:class:`Inserted`), one statement per table,
        and finish those writes; the writes left to run one by one. Each statement was a round trip to the database,
        and on the way back the leading thread waited for the interpreter's lock behind the threads that wait for
        it: under 1,000 students a group of 40 answers took 150 to 400 ms, and every answer waited for its group."""
        tables: dict[Any, list[tuple[_Write[Any], Inserted[Any]]]] = {}
        others = []
        for each in group:
            if each.row is None:
                others.append(each)
            else:
                tables.setdefault(each.row.table, []).append((each, each.row))
        for table, writes in tables.items():
            first: dict[tuple[Any, ...], _Write[Any]] = {}
            for each, row in writes:  # a row sent twice at once is inserted once, for the first write that sent it
                first.setdefault(row.names(), each)
            rows = [each.row.values for each in first.values() if each.row is not None]
            # One statement, made once per table; SQLAlchemy sends the rows as one INSERT with many VALUES (its
            # "insertmanyvalues", in batches of 1,000 rows).
            made = {tuple(found) for found in connection.execute(self._inserting(table, writes[0][1].key), rows)}
            for each, row in writes:
                names = row.names()
                each.problem = None
                each.value = row.then(connection, names in made and first[names] is each)
        return others

    def _inserting(self, table: Any, key: tuple[str, ...]) -> Any:
        """INSERT into ``table`` unless the key is there, returning the keys of the rows inserted (made once)."""
        statements: dict[tuple[Any, ...], Any] = self.__dict__.setdefault("_inserts", {})
        found = statements.get((table, key))
        if found is None:
            insert = postgresql.insert if self.postgres else sqlite.insert
            found = insert(table).on_conflict_do_nothing().returning(*(table.c[name] for name in key))
            statements[(table, key)] = found
        return found


#: A connection that has waited in the pool longer than this (seconds) is tried before it is used.
PING_AFTER = 1.0


def ping_when_idle(engine: Engine, after: float = PING_AFTER) -> None:
    """Try a PostgreSQL connection before it is used only when it has waited in the pool over ``after`` seconds (a
    database that restarted meanwhile has closed it; it is then replaced, unseen by the request), instead of before
    every use (SQLAlchemy's ``pool_pre_ping``): that was a round trip to the server per read and per write, a
    seventh of a worker's time under 1,000 students. A connection in use every second is not tried: if the database
    restarts under load, the requests of that moment get a 503 to try again, and SQLAlchemy replaces every
    connection of the pool at the first one that finds the database gone. Use it with ``pool_use_lifo=True``, so
    that under light load the same few connections are used and stay in use."""

    @event.listens_for(engine, "checkin")
    def returned(_: Any, record: Any) -> None:
        record.info["returned"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def taken(dbapi_connection: Any, record: Any, _: Any) -> None:
        since = record.info.get("returned")
        if since is None or time.monotonic() - since <= after:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as problem:  # noqa: BLE001 (whatever the reason, this connection is not used)
            raise DisconnectionError(f"a pooled connection failed its ping: {problem}") from problem


class Inserted(Generic[Result]):
    """A write that is one row inserted unless its key is there already (:meth:`Records._write`'s ``row``):
    ``then(connection, inserted)`` gives the write's result once the insert is done (``inserted``: whether this
    write's row was inserted)."""

    __slots__ = ("table", "values", "key", "then")

    def __init__(
        self, table: Any, values: dict[str, Any], key: tuple[str, ...], then: Callable[[Any, bool], Result]
    ) -> None:
        self.table = table
        self.values = values
        self.key = key
        self.then = then

    def names(self) -> tuple[Any, ...]:
        """The row's key, as the insert returns it."""
        return tuple(self.values[name] for name in self.key)


class _Undone(Exception):
    """A write of a group failed: the group's transaction is undone, to be run again write by write."""


class _Write(Generic[Result]):
    """A write waiting for a group commit (:meth:`Records._write`)."""

    __slots__ = ("work", "row", "value", "problem", "done", "ready")

    def __init__(self, work: Callable[[Any], Result], row: Inserted[Result] | None = None) -> None:
        self.work = work
        self.row = row
        self.value: Result | None = None
        self.problem: BaseException | None = None
        self.done = False
        self.ready = threading.Event()  # set when done, or when it is this write's turn to lead a group

    def result(self) -> Result:
        if self.problem is not None:
            raise self.problem
        return self.value  # type: ignore[return-value]  # set when the work returned
