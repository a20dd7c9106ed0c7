"""The classroom database's schema, revision by revision (Alembic): ``Store.open`` brings any database up to date.

``versions/`` holds one file per change, each frozen as it was written (never edited after a release); a new
column or table is a new revision (``alembic revision`` with ``script_location`` set to this folder, or by hand
from ``script.py.mako``), tested by ``tests/test_classroom_migrations.py`` from a database of the last release.
"""
