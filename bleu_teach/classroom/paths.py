"""Every route of the classroom server by its name: the one place where its paths are spelled.

The route table (:func:`~bleu_teach.classroom.app.create_app`) gives each
route its handler under its name, and a link to a route is made from its
name: ``request.url_for`` and ``url_path_for`` in the routes, ``url_for`` in
the templates, :func:`~bleu_teach.classroom.app.url_path` on the command
line; the notebook's client (:mod:`~bleu_teach.classroom.client`) reads the
two paths it posts to from here. ``{session:id}`` is a record's number (1 to 9
digits), ``{secret:str}`` a session's teacher secret, ``{token:str}`` its
projector link's token, ``{link:str}`` a student's personal link's token,
``{rest:path}`` whatever follows (slashes too).

Standard library only (no Starlette): the notebook's client imports it.
"""

from __future__ import annotations

#: Every route's name and path.
PATHS = {
    "home": "/",
    "join_page": "/class",
    "join": "/class/api/join",
    "me": "/class/api/me",
    # A student's personal join link (class links): its token in the path; its page's button posts the token here.
    "personal_link": "/class/me/{session:id}/{link:str}",
    "join_by_link": "/class/me",
    # The same address opened again (a bookmark, a restored tab of the page after joining): how to come back; and
    # any other address under it (a link cut short or run on): the page a link that opens nothing gets.
    "joined_by_link": "/class/me",
    "not_a_link": "/class/me/{rest:path}",
    "answer": "/class/api/answers",
    "teach": "/class/teach",
    "create": "/class/api/sessions",
    "enter": "/class/t/{session:id}/{secret:str}",
    "dashboard": "/class/dashboard/{session:id}",
    "projector": "/class/projector/{session:id}",
    # The projector link, for the room's computer: its token in the path, no teacher secret; made and stopped by the
    # teacher.
    "room_projector": "/class/projector/{session:id}/{token:str}",
    "room_events": "/class/api/projector/{session:id}/{token:str}/events",
    "room_join_qr": "/class/api/projector/{session:id}/{token:str}/join.svg",
    "new_projector_link": "/class/api/sessions/{session:id}/projector-link",
    "stop_projector_link": "/class/api/sessions/{session:id}/projector-link",
    "join_qr": "/class/api/sessions/{session:id}/join.svg",
    "tally": "/class/api/sessions/{session:id}/tally",
    "events": "/class/api/sessions/{session:id}/events",
    "close": "/class/api/sessions/{session:id}/close",
    "delete": "/class/api/sessions/{session:id}",
    "export": "/class/api/sessions/{session:id}/export.csv",
    "polls_export": "/class/api/sessions/{session:id}/polls.csv",
    "remove": "/class/api/sessions/{session:id}/students/{student:id}/remove",
    "poll_page": "/class/poll",
    "poll": "/class/api/poll",
    "vote": "/class/api/poll/vote",
    "open_poll": "/class/api/sessions/{session:id}/polls",
    "poll_questions": "/class/api/sessions/{session:id}/polls/questions",
    "change_poll": "/class/api/sessions/{session:id}/polls/{poll:id}/{action:str}",
    "homework_page": "/class/homework",
    "homework": "/class/api/homework",
    "homework_answer": "/class/api/homework/answer",
    "grades": "/class/api/sessions/{session:id}/grades.csv",
    "reopen": "/class/api/sessions/{session:id}/roster/reopen",
    # LTI 1.3: the tool's keys, the platform's login (sent as a link or a form), the launch, and a teacher's choice
    "lti_jwks": "/class/lti/jwks",
    "lti_login": "/class/lti/login",
    "lti_login_form": "/class/lti/login",
    "lti_launch": "/class/lti/launch",
    "lti_deep_link": "/class/lti/deep-link",
}
