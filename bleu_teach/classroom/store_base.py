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
from typing import Any, TypeVar

from sqlalchemy.engine import Engine

from bleu_teach.classroom.schema import Session, Student

Method = TypeVar("Method", bound=Callable[..., Any])


def notifies(session_of: Callable[..., int]) -> Callable[[Method], Method]:
    """Mark a method of the store that writes: once it has returned (its transaction committed), the session
    ``session_of(*args)`` has changed (:meth:`~bleu_teach.classroom.store.Store.changed`)."""

    def wrap(method: Method) -> Method:
        @functools.wraps(method)
        def written(self: Any, *args: Any, **kwargs: Any) -> Any:
            result = method(self, *args, **kwargs)
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

    @contextmanager
    def _begin(self) -> Iterator[Any]:
        if self.postgres:
            with self.engine.begin() as connection:
                yield connection
            return
        with self.writing, self.engine.begin() as connection:
            yield connection
