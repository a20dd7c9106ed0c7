"""Alembic's entry point: runs the revisions on the connection ``Store.open`` hands over (or on a URL given to the
``alembic`` command as ``sqlalchemy.url``). SQLite alters tables in batch mode (it copies the table), which is how
Alembic changes SQLite's tables."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from bleu_teach.classroom.schema import metadata
from bleu_teach.classroom.store_migrate import VERSION_TABLE

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # the alembic command, run by a maintainer
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as made:
        context.configure(
            connection=made,
            target_metadata=metadata,
            render_as_batch=made.dialect.name == "sqlite",
            version_table=VERSION_TABLE,
        )
        context.run_migrations()
else:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        version_table=VERSION_TABLE,
    )
    with context.begin_transaction():
        context.run_migrations()
