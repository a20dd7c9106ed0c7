"""The classroom: a server that collects a class's answers for its teacher (``python -m bleu_teach class serve``).

``store``: the records (sessions, students, answers) in SQLite or PostgreSQL.
"""
