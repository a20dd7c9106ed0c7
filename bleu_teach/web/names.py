"""The names the package's Python and the pages' scripts share, each written once: here.

The scripts' copy is ``names.js``, which ``python scripts/shared_names.py`` writes from this module into each
folder of scripts served on its own: the site's (``bleu_teach_site/static/``) and the classroom server's
(``bleu_teach/classroom/static/``, served at ``/class/static``). ``tests/test_shared_names.py`` fails while a copy
is not what this module says. A name belongs here when both sides use it, or when the scripts of both folders do:
the classroom server's write header (``bleu_teach.classroom.guard`` refuses a write without it, the pages send it),
the keys of what the pages keep in the browser (the site's pages, and the classroom's join page), the messages
between a page and its Python worker with the functions of :mod:`bleu_teach.web.page` it calls by name, and the
live explorer's address (``bleu_teach_site.lessons`` writes its links into the pages, the pages rewrite them and
the explorer page reads them). Each is a text, or a dict of texts; nothing is imported.
"""

from __future__ import annotations

#: The header every request that changes something on the classroom server carries (POST, PUT, PATCH, DELETE),
#: as the pages send it: the server refuses a write without it (a page of another site cannot send it).
WRITE_HEADER = "X-Bleu-Teach"
#: The write header's value.
WRITE_HEADER_VALUE = "1"

#: Local storage (this browser's; nothing is sent anywhere): the learner's checked answers by exercise id, which
#: the lesson pages write and the index reads.
ANSWERS_KEY = "bleu-teach-answers"
#: Local storage: the practice questions' records by exercise id (the question drawn, the streak, its sentence).
PRACTICE_KEY = "bleu-teach-practice"
#: Local storage: what the learner last set in each widget, by page and widget.
WIDGETS_KEY = "bleu-teach-widgets"
#: Local storage: the class this browser joined on a classroom server ({session, nickname}), which the server's
#: join page writes; the lesson pages then send each checked answer to it as well.
CLASS_KEY = "bleu-teach-class"
#: Local storage: the answers checked but not yet acknowledged by the classroom server, sent again until they are
#: (the join page empties it: an earlier session's answers are not the new one's).
OUTBOX_KEY = "bleu-teach-class-outbox"
#: Session storage (this tab's): the live explorer's example, which a reload restores when it is too long for a
#: link.
EXPLORER_KEY = "bleu-teach-explorer"

#: A page's message to its Python worker: start Python with these archives (answered with Python's version).
START_MESSAGE = "start"
#: A page's message to its Python worker: call a function of bleu_teach.web.page by its name.
CALL_MESSAGE = "call"
#: The worker's message to the pages waiting for Python: a step of its start.
PROGRESS_MESSAGE = "progress"
#: The functions of bleu_teach.web.page the lesson pages call by name (JSON in, JSON out), by what they do.
PAGE_FUNCTIONS = {
    "widget": "widget_json",
    "check": "check_json",
    "practice": "practice_json",
    "practice_check": "practice_check_json",
}

#: The live explorer's page, which its links open.
EXPLORER_PAGE = "explorer.html"
#: The live explorer's address: each query parameter's name by the BLEU explorer's control it sets, in the
#: query's order (ref once per reference; weights left out when blank, which is uniform weights).
EXPLORER_PARAMETERS = {
    "hypothesis": "hyp",
    "references": "ref",
    "max_n": "n",
    "weights": "weights",
    "smoothing": "smoothing",
    "tokenizer": "tokenizer",
    "lowercase": "lowercase",
}
