"""The store's rate-limit counters: on PostgreSQL, every worker process of the server counts a limit in the same
place, so that ``--workers 2`` does not double what one address or one student may send.

A limit counts events per key in fixed windows of its length (the window's number since the epoch, ``slot``): one
statement adds the event unless the window's count has reached the limit, so two workers can never both let in the
last one. A burst at a window's edge may get up to twice the limit over two windows' edges, which the limits'
margins allow for. Counters whose window has passed are deleted now and then.
"""

from __future__ import annotations

import random
import time
from functools import cache
from typing import cast

from sqlalchemy import create_engine, delete, text
from sqlalchemy.engine import Engine
from sqlalchemy.sql.elements import TextClause

from bleu_teach.classroom.schema import rate_counts
from bleu_teach.classroom.store_base import Records, ping_when_idle

#: One count in this many also deletes the counters whose windows have passed.
SWEEP_ONE_IN = 200


class LimitRecords(Records):
    """The rate-limit counters' method of :class:`~bleu_teach.classroom.store.Store` (PostgreSQL)."""

    def counted(self, key: str, most: int, window: float, moment: float | None = None) -> bool:
        """Count an event of ``key`` in its window of ``window`` seconds; False (nothing counted) when the window
        already holds ``most``."""
        return self.counted_all([(key, most, window)], moment)

    def counted_all(self, events: list[tuple[str, int, float]], moment: float | None = None) -> bool:
        """Count each event ``(key, most, window)`` in turn until one is over its limit (False: that one and those
        after it not counted), in one statement: each count's row is written only if the one before was let in.
        It is committed on its own, on connections that do not wait for the disk (:meth:`_counters`): a counter
        lost in a crash lets a few more requests in, nothing more; and a session's or an address's counter, which
        every answer of a class updates, is locked for that one statement only."""
        if not events:
            return True
        at = time.time() if moment is None else moment
        values: dict[str, object] = {}
        for k, (key, most, window) in enumerate(events):
            slot = int(at // window)
            values |= {f"key{k}": key[:200], f"slot{k}": slot, f"most{k}": most, f"expires{k}": (slot + 1) * window}
        statement = _counting(len(events))
        with self._counters().connect() as connection:
            let_in = bool(connection.execute(statement, values).scalar())
            if random.randrange(SWEEP_ONE_IN) == 0:
                connection.execute(delete(rate_counts).where(rate_counts.c.expires < at))
        return let_in

    def _counters(self) -> Engine:
        """The counters' own few connections: each statement committed at once, without waiting for the disk."""
        engine = getattr(self, "_counter_engine", None)
        if engine is not None:
            return cast(Engine, engine)
        with self.writing:  # made once, whichever thread asks first
            engine = getattr(self, "_counter_engine", None)
            if engine is not None:
                return cast(Engine, engine)
            engine = create_engine(
                self.engine.url,
                pool_size=8,
                max_overflow=4,
                pool_use_lifo=True,
                isolation_level="AUTOCOMMIT",
                connect_args={"options": "-c synchronous_commit=off"},
            )
            ping_when_idle(engine)
            self._counter_engine = engine
            return engine

    def _close_counters(self) -> None:
        engine = getattr(self, "_counter_engine", None)
        if engine is not None:
            engine.dispose()


@cache
def _counting(events: int) -> TextClause:
    """The statement that counts ``events`` events in turn (counted_all), made once for each number of events (every
    answer and vote runs it: made at each call, SQLAlchemy worked out its cache key from its text each time)."""
    parts = []
    for k in range(events):
        before = f" WHERE EXISTS (SELECT 1 FROM c{k - 1})" if k else ""
        parts.append(
            f"c{k} AS (INSERT INTO rate_counts (key, slot, count, expires) "
            f"SELECT :key{k}, :slot{k}, 1, :expires{k}{before} "
            f"ON CONFLICT (key, slot) DO UPDATE SET count = rate_counts.count + 1 "
            f"WHERE rate_counts.count < :most{k} RETURNING 1)"
        )
    return text(f"WITH {', '.join(parts)} SELECT EXISTS (SELECT 1 FROM c{events - 1})")
