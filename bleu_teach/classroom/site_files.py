"""The course website served beside the classroom, so that a class needs one address.

A built site folder is served as it is (:class:`SiteFiles`, mounted at ``/`` by
:func:`~bleu_teach.classroom.app.create_app`), less what is never anyone's to
download: the teacher's files (the answer key and what can rebuild it) and a
database, or SQLite's files beside one. :func:`check_site` refuses, before the
server starts, a site folder that holds the classroom's own database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.responses import Response
from starlette.staticfiles import StaticFiles

from bleu_teach.classroom.store import Store

#: Files of a built site that are the teacher's, never served (the answer key and what can rebuild it).
TEACHERS_ONLY = ("answer_key", "answer-key", "worksheets.key", "worksheets.quiz", "teacher_kit", "teachers-kit")
#: A database file, or SQLite's files beside one: never served, whatever folder the site is.
DATABASE_FILES = (".sqlite", ".sqlite3", ".db", "-wal", "-shm", "-journal")


class SiteFiles(StaticFiles):
    """The course website, without the teacher's files (answer keys) or a database a built site folder might hold."""

    async def get_response(self, path: str, scope: Any) -> Response:
        lowered = path.lower()
        if any(part in lowered for part in TEACHERS_ONLY) or lowered.endswith(DATABASE_FILES):
            return Response("Not found", status_code=404, media_type="text/plain")
        return await super().get_response(path, scope)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def check_site(store: Store, site: Path) -> None:
    """Refuse a site folder that holds the database: its files would be served to anyone who asks."""
    database = store.path
    if database is not None and _inside(database, site):
        raise ValueError(
            f"--site: the database {str(database)!r} lies inside the site folder {str(site)!r}, whose "
            "files anyone may download; keep the database elsewhere (--database) or serve another "
            "folder."
        )
