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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from sqlalchemy.engine import Engine

from bleu_teach.classroom.schema import Session, Student

Method = TypeVar("Method", bound=Callable[..., Any])


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

    def _write(self, work: Callable[[Any], Result], alone: bool = False) -> Result:
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
        workers: answer p50 1.56 s -> 69 ms.)"""
        if alone and self.postgres:
            with self._begin() as connection:
                return work(connection)
        mine = _Write(work)
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


class _Undone(Exception):
    """A write of a group failed: the group's transaction is undone, to be run again write by write."""


Result = TypeVar("Result")


class _Write(Generic[Result]):
    """A write waiting for a group commit (:meth:`Records._write`)."""

    __slots__ = ("work", "value", "problem", "done", "ready")

    def __init__(self, work: Callable[[Any], Result]) -> None:
        self.work = work
        self.value: Result | None = None
        self.problem: BaseException | None = None
        self.done = False
        self.ready = threading.Event()  # set when done, or when it is this write's turn to lead a group

    def result(self) -> Result:
        if self.problem is not None:
            raise self.problem
        return self.value  # type: ignore[return-value]  # set when the work returned
