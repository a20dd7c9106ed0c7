"""The store's LTI records: the platforms an administrator registered, the tool's keys, the logins waiting for their
launch and the nonces already used, which session each platform link opens, who each launched student is on their
platform, and the teachers a launch let in (:mod:`~bleu_teach.classroom.lti` checks the messages themselves)."""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from joserfc.jwk import RSAKey
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from bleu_teach.classroom.lti import STATE_SECONDS, LaunchRefused, Platform, new_key
from bleu_teach.classroom.schema import (
    MAX_NICKNAME,
    Session,
    Student,
    digest,
    fold,
    lti_deployments,
    lti_keys,
    lti_links,
    lti_nonces,
    lti_offers,
    lti_platforms,
    lti_scores,
    lti_states,
    lti_teachers,
    lti_users,
    now,
    roster,
    students,
)
from bleu_teach.classroom.store_base import Records, notifies, session_of_arg
from bleu_teach.classroom.store_students import add_device, add_student, named_by

#: How long a retired key stays published (a platform may hold an assertion it signed for a few minutes; a day is
#: far more than any of them needs).
RETIRED_KEYS_PUBLISHED = timedelta(days=1)
#: How long a teacher's launch opens the dashboard (the teacher launches again from the course after that): a
#: teacher the course no longer has keeps no access.
TEACHER_LAUNCH = timedelta(hours=12)


def endpoint(url: str, what: str) -> str:
    """``url`` checked as a platform's endpoint: https (http only on this computer, for a test platform)."""
    if not isinstance(url, str) or not url or len(url) > 1000 or any(c.isspace() for c in url):
        raise ValueError(f"{what}: give the platform's address (https://...), without spaces.")
    parts = urlsplit(url)
    local = parts.hostname in ("localhost",) or _loopback(parts.hostname or "")
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        raise ValueError(f"{what}: an https:// address ({url[:80]!r} is not; http only for this computer).")
    if not parts.hostname:
        raise ValueError(f"{what}: {url[:80]!r} names no host.")
    return url


#: The roster's identifier column that holds a platform member's id (filled from the platform's members).
MEMBER_ID = "LMS user id"


def _roster_subject(identifier: str) -> str | None:
    try:
        found = json.loads(identifier or "{}")
    except ValueError:
        return None
    return found.get(MEMBER_ID) if isinstance(found, dict) else None


def roster_of(members: list[Any]) -> list[tuple[str, str]]:
    """A homework's roster from a course's members (NRPS): the active learners, in the platform's order, each with
    their e-mail address and platform id for the gradebook; two of one name told apart as "Name (2)"."""
    names: list[tuple[str, str]] = []
    seen: set[str] = set()
    for member in members:
        if not member.learner or not member.active:
            continue
        base = member.name or member.email or member.subject
        name, count = base, 1
        while fold(name) in seen:
            count += 1
            name = f"{base} ({count})"
        seen.add(fold(name))
        ids = {"Email address": member.email, MEMBER_ID: member.subject}
        identifier = json.dumps(ids, ensure_ascii=False)
        if len(identifier) > 200:  # the roster keeps 200 characters: the platform's id first
            identifier = json.dumps({MEMBER_ID: member.subject}, ensure_ascii=False)[:200]
        names.append((name, identifier))
    return names


def _private_key(kept: str) -> RSAKey:
    key = RSAKey.import_key(json.loads(kept))
    assert isinstance(key, RSAKey)
    return key


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class LtiRecords(Records):
    """LTI's part of :class:`~bleu_teach.classroom.store.Store`."""

    # --- platforms ------------------------------------------------------------------------------------------

    def add_platform(
        self,
        issuer: str,
        client_id: str,
        login_url: str,
        token_url: str,
        jwks_url: str,
        deployments: list[str],
    ) -> Platform:
        """Register a platform (or add deployments to one registered with the same issuer and client id)."""
        issuer = endpoint(issuer, "issuer")
        if not isinstance(client_id, str) or not client_id.strip() or len(client_id) > 255:
            raise ValueError("client_id: give the client id the platform gave this tool (at most 255 characters).")
        urls = [endpoint(login_url, "login_url"), endpoint(token_url, "token_url"), endpoint(jwks_url, "jwks_url")]
        if not deployments or not all(isinstance(d, str) and d.strip() and len(d) <= 255 for d in deployments):
            raise ValueError("deployment: give at least one deployment id (at most 255 characters each).")
        with self._begin() as connection:
            found = connection.execute(
                select(lti_platforms.c.id).where(
                    lti_platforms.c.issuer == issuer, lti_platforms.c.client_id == client_id
                )
            ).scalar()
            if found is None:
                found = connection.execute(
                    lti_platforms.insert().values(
                        issuer=issuer,
                        client_id=client_id,
                        login_url=urls[0],
                        token_url=urls[1],
                        jwks_url=urls[2],
                        created=now(),
                    )
                ).inserted_primary_key[0]
            else:
                connection.execute(
                    lti_platforms.update()
                    .where(lti_platforms.c.id == found)
                    .values(login_url=urls[0], token_url=urls[1], jwks_url=urls[2])
                )
            known = set(
                connection.execute(
                    select(lti_deployments.c.deployment_id).where(lti_deployments.c.platform_id == found)
                ).scalars()
            )
            for deployment in dict.fromkeys(deployments):
                if deployment not in known:
                    connection.execute(lti_deployments.insert().values(platform_id=found, deployment_id=deployment))
        return self.platform(found)

    def platform(self, platform_id: int) -> Platform:
        found = [p for p in self.platforms() if p.id == platform_id]
        if not found:
            raise LookupError(f"no platform {platform_id}")
        return found[0]

    def platforms(self) -> list[Platform]:
        with self.reading.connect() as connection:
            rows = connection.execute(select(lti_platforms).order_by(lti_platforms.c.id)).all()
            deployed = connection.execute(select(lti_deployments)).all()
        return [
            Platform(
                id=row.id,
                issuer=row.issuer,
                client_id=row.client_id,
                login_url=row.login_url,
                token_url=row.token_url,
                jwks_url=row.jwks_url,
                deployments=tuple(sorted(d.deployment_id for d in deployed if d.platform_id == row.id)),
            )
            for row in rows
        ]

    def platform_for(self, issuer: str, client_id: str | None) -> Platform:
        """The registered platform that sent a login (by its issuer and, when it says, this tool's client id)."""
        found = [p for p in self.platforms() if p.issuer == issuer and client_id in (None, p.client_id)]
        if not found:
            raise LaunchRefused(
                f"The platform {str(issuer)[:100]!r} is not registered with this tool"
                + (f" for client id {str(client_id)[:60]!r}" if client_id else "")
                + "; its administrator registers it with class lti add."
            )
        if len(found) > 1:
            raise LaunchRefused(
                f"Several registrations of {issuer!r}: the platform must say which client id it launches."
            )
        return found[0]

    def remove_platform(self, platform_id: int) -> None:
        with self._begin() as connection:
            for table in (lti_states, lti_nonces, lti_users, lti_offers, lti_scores, lti_links, lti_deployments):
                connection.execute(delete(table).where(table.c.platform_id == platform_id))
            if not connection.execute(delete(lti_platforms).where(lti_platforms.c.id == platform_id)).rowcount:
                raise ValueError(f"platform: there is no platform {platform_id} (class lti list shows them).")

    # --- the tool's keys ------------------------------------------------------------------------------------

    def signing_key(self) -> RSAKey:
        """The key the tool signs with (the newest not retired), made the first time it is asked for."""
        with self.reading.connect() as connection:
            kept = connection.execute(
                select(lti_keys.c.private_jwk)
                .where(lti_keys.c.retired.is_(None))
                .order_by(lti_keys.c.created.desc())
                .limit(1)
            ).scalar()
        if kept is not None:
            return _private_key(kept)
        return self.rotate_key()

    def rotate_key(self) -> RSAKey:
        """A new signing key; the one before it is retired (and stays published for a day)."""
        key = new_key()
        with self._begin() as connection:
            connection.execute(lti_keys.update().where(lti_keys.c.retired.is_(None)).values(retired=now()))
            connection.execute(
                lti_keys.insert().values(
                    kid=key.kid, private_jwk=json.dumps(key.as_dict(private=True)), created=now(), retired=None
                )
            )
        return key

    def published_keys(self) -> list[RSAKey]:
        """The keys a platform may check the tool's signatures with: the current one, and those retired less than
        :data:`RETIRED_KEYS_PUBLISHED` ago."""
        since = now() - RETIRED_KEYS_PUBLISHED
        with self.reading.connect() as connection:
            rows = connection.execute(
                select(lti_keys.c.private_jwk)
                .where((lti_keys.c.retired.is_(None)) | (lti_keys.c.retired > since))
                .order_by(lti_keys.c.created.desc())
            ).scalars()
            return [_private_key(row) for row in rows]

    # --- logins and launches --------------------------------------------------------------------------------

    def remember_login(self, platform: Platform, state: str, nonce: str, browser: str) -> None:
        """A login sent on to the platform: its state (kept as a digest), nonce and the digest of the cookie its
        browser got (``browser``) wait for the launch."""
        moment = now()
        with self._begin() as connection:
            connection.execute(
                delete(lti_states).where(lti_states.c.created < moment - timedelta(seconds=STATE_SECONDS))
            )
            connection.execute(
                lti_states.insert().values(
                    state=digest(state), nonce=nonce, browser=digest(browser), platform_id=platform.id, created=moment
                )
            )

    def take_login(self, state: str, browser: str | None) -> tuple[Platform, str]:
        """The platform and nonce of the login ``state`` answers; the state is used up. :class:`LaunchRefused` if
        there was no such login, it was used, it is older than :data:`STATE_SECONDS`, or (``browser``: the
        login's cookie as the launch's browser sent it; None where no cookie can be asked for) the launch comes
        from another browser than the login's."""
        if not isinstance(state, str) or not 10 <= len(state) <= 200:
            raise LaunchRefused("state: the launch does not answer a login of this tool; launch again from the course.")
        with self._begin() as connection:
            row = connection.execute(select(lti_states).where(lti_states.c.state == digest(state))).first()
            if row is not None:
                connection.execute(delete(lti_states).where(lti_states.c.state == digest(state)))
        if row is None:
            raise LaunchRefused(
                "state: the launch does not answer a login of this tool (or was used already); launch again from "
                "the course."
            )
        if now() - row.created > timedelta(seconds=STATE_SECONDS):
            raise LaunchRefused("state: the login was too long ago; launch again from the course.")
        if browser is not None and not hmac.compare_digest(row.browser, digest(browser)):
            raise LaunchRefused(
                "state: the launch comes from another browser than its login (a launch form sent on by someone "
                "else); launch again from the course."
            )
        return self.platform(row.platform_id), row.nonce

    def use_nonce(self, platform: Platform, nonce: str, expires: datetime) -> None:
        """Record that the id_token with ``nonce`` was used (:class:`LaunchRefused` if it was before)."""
        try:
            with self._begin() as connection:
                connection.execute(delete(lti_nonces).where(lti_nonces.c.expires < now()))
                connection.execute(
                    lti_nonces.insert().values(platform_id=platform.id, nonce=nonce[:255], expires=expires)
                )
        except IntegrityError:
            raise LaunchRefused(
                "id_token: it was used already (a replayed launch); launch again from the course."
            ) from None

    # --- links, students and teachers ------------------------------------------------------------------------

    def link_session(self, platform: Platform, resource_link_id: str, context_id: str, session_id: int) -> None:
        """The platform's link ``resource_link_id`` opens ``session_id`` from now on."""
        with self._begin() as connection:
            connection.execute(
                delete(lti_links).where(
                    lti_links.c.platform_id == platform.id, lti_links.c.resource_link_id == resource_link_id
                )
            )
            connection.execute(
                lti_links.insert().values(
                    platform_id=platform.id,
                    resource_link_id=resource_link_id,
                    session_id=session_id,
                    context_id=context_id,
                    line_item_url="",
                    finished=False,
                )
            )

    def offer(self, platform: Platform, context_id: str, session_id: int) -> None:
        """The course ``context_id`` may open ``session_id`` (its teacher chose it, or a teacher's launch made it)."""
        with self._begin() as connection:
            known = connection.execute(
                select(func.count())
                .select_from(lti_offers)
                .where(
                    lti_offers.c.platform_id == platform.id,
                    lti_offers.c.context_id == context_id,
                    lti_offers.c.session_id == session_id,
                )
            ).scalar()
            if not known:
                connection.execute(
                    lti_offers.insert().values(platform_id=platform.id, context_id=context_id, session_id=session_id)
                )

    def offered(self, platform: Platform, context_id: str) -> list[int]:
        """The sessions offered to the course, oldest first."""
        with self.reading.connect() as connection:
            return list(
                connection.execute(
                    select(lti_offers.c.session_id)
                    .where(lti_offers.c.platform_id == platform.id, lti_offers.c.context_id == context_id)
                    .order_by(lti_offers.c.session_id)
                ).scalars()
            )

    def linked_session(self, platform: Platform, resource_link_id: str) -> int | None:
        with self.reading.connect() as connection:
            return connection.execute(
                select(lti_links.c.session_id).where(
                    lti_links.c.platform_id == platform.id, lti_links.c.resource_link_id == resource_link_id
                )
            ).scalar()

    @notifies(session_of_arg)
    def launched_student(
        self, session: Session, platform: Platform, subject: str, name: str, context_id: str = ""
    ) -> tuple[Student, str]:
        """The student the platform's user ``subject`` is in ``session`` (made at their first launch, named as the
        platform names them), and a new token for this browser.

        A later launch (another device, or the same one again: its cross-site form carries no cookie of this
        server, so the tool cannot tell) lets the same student in on one more device, as a personal link does
        (:func:`~bleu_teach.classroom.store_students.add_device`): the devices already in stay in, the first one
        and the newest others."""
        token = secrets.token_urlsafe(24)
        with self._begin() as connection:
            known = connection.execute(
                select(lti_users.c.student_id, students.c.nickname)
                .join(students, students.c.id == lti_users.c.student_id)
                .where(
                    lti_users.c.session_id == session.id,
                    lti_users.c.platform_id == platform.id,
                    lti_users.c.subject == subject,
                )
                .with_for_update(of=lti_users)  # PostgreSQL: two launches at once add their devices in turn
            ).first()
            if known is not None:
                add_device(connection, known.student_id, session.id, token)
                return Student(known.student_id, session.id, known.nickname), token
            listed = connection.execute(
                select(roster.c.name, roster.c.folded, roster.c.identifier).where(
                    roster.c.session_id == session.id, roster.c.student_id.is_(None)
                )
            ).all()
            mine = next((row for row in listed if _roster_subject(row.identifier) == subject), None)
            base = mine.name if mine is not None else " ".join(name.split())[: MAX_NICKNAME - 5] or "student"
            nickname, count = base, 1
            while named_by(connection, session.id, students.c.folded, fold(nickname)) is not None:
                count += 1  # two people of one name in a course: the second is "Name (2)"
                nickname = f"{base} ({count})"
            student_id = add_student(connection, session.id, nickname, token)
            connection.execute(
                lti_users.insert().values(
                    session_id=session.id,
                    platform_id=platform.id,
                    subject=subject,
                    student_id=student_id,
                    context_id=context_id,
                )
            )
            if mine is not None:  # their roster row (from the platform's members): the gradebook's row is theirs
                connection.execute(
                    roster.update()
                    .where(roster.c.session_id == session.id, roster.c.folded == mine.folded)
                    .values(student_id=student_id, student_removed=False)
                )
        return Student(student_id, session.id, nickname), token

    def launched_teacher(self, session_id: int) -> str:
        """A teacher secret of this launch's own for the session (its digest kept): it opens the dashboard as the
        teacher link does, and leaves the teacher link working."""
        secret = secrets.token_urlsafe(24)
        moment = now()
        with self._begin() as connection:
            connection.execute(delete(lti_teachers).where(lti_teachers.c.created <= moment - TEACHER_LAUNCH))
            connection.execute(
                lti_teachers.insert().values(session_id=session_id, digest=digest(secret), created=moment)
            )
        return secret

    def is_launched_teacher(self, session_id: int, secret: str) -> bool:
        """Whether ``secret`` is one a teacher's launch got for the session in the last :data:`TEACHER_LAUNCH`."""
        with self.reading.connect() as connection:
            kept = connection.execute(
                select(lti_teachers.c.digest).where(
                    lti_teachers.c.session_id == session_id,
                    lti_teachers.c.digest == digest(str(secret)),
                    lti_teachers.c.created > now() - TEACHER_LAUNCH,
                )
            ).scalar()
        return kept is not None and hmac.compare_digest(kept, digest(str(secret)))
