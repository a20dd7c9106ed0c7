"""The classroom store on both databases, for the tests that run against each (a pytest plugin, named in
``tests/conftest.py``): ``where`` is a new SQLite file or a fresh database in the module's own PostgreSQL
cluster (:mod:`tests.postgres`), ``store`` the store opened there. A module that needs another database or store
defines its own fixture of that name, which takes precedence."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.postgres import cluster, fresh_database


@pytest.fixture(scope="module")
def postgres_base() -> Iterator[str]:
    with cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "classroom.sqlite")
    return fresh_database(request.getfixturevalue("postgres_base"))


def opened_store(where: str) -> Iterator[Any]:
    """The store at ``where``, closed after the test; a change told late (PostgreSQL's NOTIFY, coalesced) is sent
    before closing."""
    from bleu_teach.classroom.store import Store

    opened = Store.open(where)
    yield opened
    while opened.notices_out.pending:
        time.sleep(0.01)
    opened.close()


@pytest.fixture
def store(where: str) -> Iterator[Any]:
    yield from opened_store(where)
