"""The store's LTI grades (Assignment and Grade Services 2.0): the grade column (line item) of each platform link,
and the scores' outbox: a score queued when an answer is judged or a homework falls due (a student with an
extension: when it ends), claimed by one worker, sent, and kept queued (tried again later and later) while the
platform does not take it. A score is the student's points as :func:`~bleu_teach.classroom.grading.mark` gives
them (a late answer's penalty applied) out of the homework's questions, as in the gradebook file."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, select

from bleu_teach.classroom.grading import LatePolicy, Mark, counted, mark, score_number
from bleu_teach.classroom.lti import Platform
from bleu_teach.classroom.schema import (
    Session,
    answer_of,
    answers,
    extensions,
    homework_variants,
    lti_links,
    lti_scores,
    lti_users,
    now,
    sessions,
    students,
)
from bleu_teach.classroom.store_base import Records


class ScoreRecords(Records):
    """The grades' part of :class:`~bleu_teach.classroom.store.Store`."""

    if TYPE_CHECKING:

        def session(self, session_id: int) -> Session: ...  # the store's: store.Store.session

    # --- grades (AGS 2.0): the line item of each link, the scores' outbox ----------------------------------------

    def set_line_item(self, platform: Platform, resource_link_id: str, url: str) -> None:
        """The grade column (line item) the platform's link ``resource_link_id`` posts its scores to."""
        with self._begin() as connection:
            connection.execute(
                lti_links.update()
                .where(lti_links.c.platform_id == platform.id, lti_links.c.resource_link_id == resource_link_id)
                .values(line_item_url=url)
            )

    def line_item_of(self, platform: Platform, resource_link_id: str) -> str:
        with self.reading.connect() as connection:
            return str(
                connection.execute(
                    select(lti_links.c.line_item_url).where(
                        lti_links.c.platform_id == platform.id, lti_links.c.resource_link_id == resource_link_id
                    )
                ).scalar()
                or ""
            )

    def questions(self, session_id: int) -> list[str]:
        """A homework's questions: the exercises it drew variants of, in the course's order (one point each)."""
        with self.reading.connect() as connection:
            return sorted(
                connection.execute(
                    select(func.distinct(homework_variants.c.exercise)).where(
                        homework_variants.c.session_id == session_id
                    )
                ).scalars()
            )

    def mark_of(self, session: Session, student_id: int) -> Mark:
        """A homework student's mark (:func:`~bleu_teach.classroom.grading.mark`): each question's last answer
        the checker could read counts, a late one with the homework's penalty."""
        with self.reading.connect() as connection:
            rows = (
                connection.execute(
                    select(answers)
                    .where(answers.c.session_id == session.id, answers.c.student_id == student_id)
                    .order_by(answers.c.at, answers.c.answer_id)
                )
                .mappings()
                .all()
            )
        last = {exercise: answer for (_, exercise), answer in counted(answer_of(row) for row in rows).items()}
        return mark(last, self.questions(session.id), LatePolicy.of(session))

    def queue_scores(self, session_id: int, student_id: int | None = None, final: bool = False) -> int:
        """Queue the score of one student (``student_id``) or of every launched student who answered, for each
        platform link of the session that has a grade column; a score not yet sent for the same column and
        student is replaced. ``final``: the due time has come (``Completed``); a student whose extension has
        not ended yet is left for its end (:meth:`extensions_due`), when ``student_id`` is not given. How many
        were queued."""
        session = self.session(session_id)
        moment = now()
        extended = {folded: until for folded, until in self._extension_times(session_id)}
        with self.reading.connect() as connection:
            targets = connection.execute(
                select(
                    lti_links.c.platform_id,
                    lti_links.c.line_item_url,
                    lti_users.c.subject,
                    lti_users.c.student_id,
                    students.c.folded,
                )
                .select_from(lti_links)
                .join(
                    lti_users,
                    and_(
                        lti_users.c.session_id == lti_links.c.session_id,
                        lti_users.c.platform_id == lti_links.c.platform_id,
                        lti_users.c.context_id == lti_links.c.context_id,  # their own course's column only
                    ),
                )
                .join(students, students.c.id == lti_users.c.student_id)
                .where(
                    lti_links.c.session_id == session_id,
                    lti_links.c.line_item_url != "",
                    *([lti_users.c.student_id == student_id] if student_id is not None else []),
                )
            ).all()
        queued = 0
        for target in dict.fromkeys(targets):
            until = extended.get(target.folded)
            if final and student_id is None and until is not None and until > moment:
                continue  # their final score is sent when their extension ends
            got = self.mark_of(session, target.student_id)
            if got.maximum == 0 or not got.started:  # nothing answered: the column stays blank, not 0
                continue
            body = {
                "userId": target.subject,
                "scoreGiven": score_number(got.points),
                "scoreMaximum": got.maximum,
                "activityProgress": "Completed" if final or got.answered == got.maximum else "InProgress",
                "gradingProgress": "FullyGraded",
                "timestamp": now().isoformat(timespec="milliseconds"),
            }
            moment = now()
            with self._begin() as connection:
                connection.execute(
                    lti_scores.update()
                    .where(
                        lti_scores.c.line_item_url == target.line_item_url,
                        lti_scores.c.subject == target.subject,
                        lti_scores.c.sent.is_(None),
                    )
                    .values(sent=moment, problem="replaced by a newer score")
                )
                connection.execute(
                    lti_scores.insert().values(
                        platform_id=target.platform_id,
                        session_id=session_id,
                        line_item_url=target.line_item_url,
                        subject=target.subject,
                        body=json.dumps(body),
                        created=moment,
                        next_try=moment,
                        tries=0,
                        sent=None,
                        problem="",
                    )
                )
            queued += 1
        return queued

    def claim_scores(self, most: int = 20, hold: timedelta = timedelta(seconds=60)) -> list[Any]:
        """Scores due to be sent, claimed for ``hold`` (another worker takes none of them meanwhile)."""
        moment = now()
        with self._begin() as connection:
            due = list(
                connection.execute(
                    select(lti_scores.c.id)
                    .where(lti_scores.c.sent.is_(None), lti_scores.c.next_try <= moment)
                    .order_by(lti_scores.c.id)
                    .limit(most)
                ).scalars()
            )
            if not due:
                return []
            return list(
                connection.execute(
                    lti_scores.update()
                    .where(lti_scores.c.id.in_(due), lti_scores.c.sent.is_(None), lti_scores.c.next_try <= moment)
                    .values(next_try=moment + hold)
                    .returning(
                        lti_scores.c.id,
                        lti_scores.c.platform_id,
                        lti_scores.c.line_item_url,
                        lti_scores.c.body,
                        lti_scores.c.tries,
                    )
                ).all()
            )

    def score_sent(self, score_id: int) -> None:
        with self._begin() as connection:
            connection.execute(lti_scores.update().where(lti_scores.c.id == score_id).values(sent=now(), problem=""))

    def score_failed(self, score_id: int, tries: int, problem: str, permanent: bool = False) -> None:
        """The score stays queued; it is tried again later and later (half a minute, doubling, at most an hour);
        ``permanent``: the platform refused it (a 4xx): kept with what it said, not tried again."""
        wait = timedelta(seconds=min(3600, 30 * 2 ** min(tries, 7)))
        with self._begin() as connection:
            connection.execute(
                lti_scores.update()
                .where(lti_scores.c.id == score_id)
                .values(
                    tries=tries + 1,
                    next_try=now() + wait,
                    problem=("refused: " if permanent else "") + problem[:290],
                    **({"sent": now()} if permanent else {}),
                )
            )

    def scores(self, session_id: int) -> list[Any]:
        """The session's scores, queued and sent (for the teacher, and the tests)."""
        with self.reading.connect() as connection:
            return list(
                connection.execute(
                    select(lti_scores).where(lti_scores.c.session_id == session_id).order_by(lti_scores.c.id)
                ).all()
            )

    def finish_due(self) -> list[int]:
        """The homeworks whose due time has passed and whose final scores were not queued yet: marked, and their
        sessions' numbers given (the caller queues the final scores)."""
        moment = now()
        with self._begin() as connection:
            due = list(
                connection.execute(
                    select(lti_links.c.platform_id, lti_links.c.resource_link_id, lti_links.c.session_id)
                    .join(sessions, sessions.c.id == lti_links.c.session_id)
                    .where(
                        lti_links.c.finished.is_(False),
                        lti_links.c.line_item_url != "",
                        sessions.c.kind == "homework",
                        sessions.c.due.is_not(None),
                        sessions.c.due <= moment,
                    )
                ).all()
            )
            for row in due:
                connection.execute(
                    lti_links.update()
                    .where(
                        lti_links.c.platform_id == row.platform_id,
                        lti_links.c.resource_link_id == row.resource_link_id,
                    )
                    .values(finished=True)
                )
        return sorted({row.session_id for row in due})

    def _extension_times(self, session_id: int) -> list[Any]:
        with self.reading.connect() as connection:
            return list(
                connection.execute(
                    select(extensions.c.folded, extensions.c.until).where(extensions.c.session_id == session_id)
                ).all()
            )

    def extensions_due(self) -> list[tuple[int, int]]:
        """The extensions that have ended since their final score was queued: marked, and (session, student) given
        for each whose student has joined (the caller queues their final score)."""
        moment = now()
        with self._begin() as connection:
            ended = list(
                connection.execute(
                    select(extensions.c.session_id, extensions.c.folded, students.c.id)
                    .select_from(extensions)
                    .outerjoin(
                        students,
                        and_(
                            students.c.session_id == extensions.c.session_id,
                            students.c.folded == extensions.c.folded,
                            students.c.removed.is_(None),
                        ),
                    )
                    .where(extensions.c.finished.is_(False), extensions.c.until <= moment)
                ).all()
            )
            for row in ended:
                connection.execute(
                    extensions.update()
                    .where(extensions.c.session_id == row.session_id, extensions.c.folded == row.folded)
                    .values(finished=True)
                )
        return sorted({(row.session_id, row.id) for row in ended if row.id is not None})
