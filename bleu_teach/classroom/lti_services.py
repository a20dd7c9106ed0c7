"""What the tool asks of a learning platform over HTTP: its public keys (to check a launch), an access token (OAuth 2
client credentials with the tool's signed assertion, Security Framework §4.1), the course's members (Names and
Role Provisioning Services 2.0) and its grade columns and scores (Assignment and Grade Services 2.0).

Every address asked is one the platform's registration or a checked launch gave, on the platform's own host
(:meth:`~bleu_teach.classroom.lti.Platform.owns`); every answer is read as untrusted: a clear
:class:`~bleu_teach.classroom.lti.LaunchRefused` (or :class:`ServiceFailed`) instead of a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from joserfc.errors import JoseError
from joserfc.jwk import KeySet, RSAKey

from bleu_teach.classroom.lti import (
    SCOPE_LINE_ITEM,
    SCOPE_MEMBERSHIP,
    SCOPE_SCORE,
    LaunchRefused,
    Platform,
    client_assertion,
)

#: How long a platform's public keys are kept before they are read again (a key the platform has just added is
#: read at once: an unknown key id reads them again, at most once a :data:`KEYS_AGAIN_AFTER`).
KEYS_KEPT = 3600.0
KEYS_AGAIN_AFTER = 10.0
TIMEOUT = httpx.Timeout(10.0)
#: The most pages of members read (NRPS pages with ``Link: rel="next"``): a course of 100,000 at 100 a page.
MOST_PAGES = 1000
MEMBERS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
LINE_ITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
LINE_ITEMS_TYPE = "application/vnd.ims.lis.v2.lineitemcontainer+json"


#: How often the score sender looks for scores to send besides those queued in its own process.
SEND_EVERY = 5.0
log = logging.getLogger("bleu_teach.classroom")


class ServiceFailed(RuntimeError):
    """A platform's service did not do what was asked (it was down, refused, or answered nonsense); ``permanent``:
    it refused what was sent (trying again would be refused again)."""

    def __init__(self, message: str, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


@dataclass(frozen=True)
class Member:
    """A course member as the platform's roster gives them (NRPS 2.0 §3.6.2.1)."""

    subject: str  # their "user_id": the same "sub" their launches carry
    name: str
    email: str
    learner: bool
    active: bool


class PlatformClient:
    """The tool's HTTP client for the platforms (one per server process): keys kept for an hour, tokens until they
    expire. ``transport`` lets the tests put a platform built from the specifications behind it."""

    def __init__(self, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.transport = transport
        self.keys_kept: dict[int, tuple[float, KeySet]] = {}
        self.tokens: dict[tuple[int, str], tuple[float, str]] = {}

    def _client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(timeout=TIMEOUT, transport=self.transport, follow_redirects=False)

    async def keys(self, platform: Platform, kid: str | None) -> KeySet:
        """The platform's public keys (kept; read again when ``kid`` is not among them, or after an hour)."""
        kept = self.keys_kept.get(platform.id)
        moment = time.monotonic()
        if kept is not None and moment - kept[0] < KEYS_KEPT:
            if any(key.kid == kid for key in kept[1].keys) or moment - kept[0] < KEYS_AGAIN_AFTER:
                return kept[1]
        try:
            async with self._client() as client:
                reply = await client.get(platform.jwks_url, headers={"Accept": "application/json"})
            reply.raise_for_status()
            found = reply.json()
            if not isinstance(found, dict) or not isinstance(found.get("keys"), list):
                raise ValueError("not a JSON Web Key Set")
            usable = []
            for key in found["keys"]:  # one key the platform lists that cannot be read leaves the others usable
                if isinstance(key, dict) and key.get("kty") == "RSA" and key.get("use", "sig") == "sig":
                    try:
                        usable.append(RSAKey.import_key(key))
                    except (JoseError, ValueError, TypeError):
                        continue
            keys: KeySet = KeySet(usable)
        except (httpx.HTTPError, ValueError, JoseError) as problem:
            raise LaunchRefused(
                f"The platform's public keys could not be read from {platform.jwks_url[:200]} ({_said(problem)}); "
                "try again, or ask its administrator to check the keyset URL."
            ) from None
        self.keys_kept[platform.id] = (moment, keys)
        return keys

    async def token(self, platform: Platform, scopes: list[str], key: Any) -> str:
        """An access token for ``scopes`` (Security Framework §4.1: client credentials with the tool's signed
        assertion), kept until a minute before it expires."""
        wanted = " ".join(sorted(scopes))
        kept = self.tokens.get((platform.id, wanted))
        if kept is not None and kept[0] > time.monotonic():
            return kept[1]
        body = {
            "grant_type": "client_credentials",
            "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            "client_assertion": client_assertion(platform, key),
            "scope": wanted,
        }
        try:
            async with self._client() as client:
                reply = await client.post(platform.token_url, data=body, headers={"Accept": "application/json"})
            reply.raise_for_status()
            found = reply.json()
            token = found["access_token"]
            lasts = min(86_400.0, max(60.0, float(found.get("expires_in", 3600))))
            if not isinstance(token, str) or not token or str(found.get("token_type", "")).lower() != "bearer":
                raise ValueError("no bearer token in the answer")
            if lasts != lasts:  # NaN
                raise ValueError("its expires_in is not a number")
        except (httpx.HTTPError, ValueError, KeyError, TypeError, OverflowError) as problem:
            raise ServiceFailed(f"the platform gave no access token ({_said(problem)})") from None
        self.tokens[(platform.id, wanted)] = (time.monotonic() + max(0.0, lasts - 60), token)
        return token

    async def members(self, platform: Platform, url: str, key: Any) -> list[Member]:
        """Every member of the course at ``url`` (the launch's NRPS address), following the platform's pages."""
        if not platform.owns(url):
            raise ServiceFailed("the members' address is not on the platform's host")
        token = await self.token(platform, [SCOPE_MEMBERSHIP], key)
        found: list[Member] = []
        async with self._client() as client:
            for _ in range(MOST_PAGES):
                try:
                    reply = await client.get(url, headers={"Accept": MEMBERS_TYPE, "Authorization": f"Bearer {token}"})
                    reply.raise_for_status()
                    page = reply.json()
                    for member in page["members"]:
                        roles = member.get("roles") or []
                        found.append(
                            Member(
                                subject=str(member["user_id"])[:255],
                                name=" ".join(
                                    str(
                                        member.get("name")
                                        or f"{member.get('given_name') or ''} {member.get('family_name') or ''}"
                                    ).split()
                                )[:200],
                                email=str(member.get("email") or "")[:200],
                                learner=any(str(role).endswith("#Learner") for role in roles),
                                active=member.get("status", "Active") == "Active",
                            )
                        )
                except (httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError) as problem:
                    raise ServiceFailed(f"the course's members could not be read ({_said(problem)})") from None
                following = reply.links.get("next", {}).get("url")
                if not following:
                    return found
                if not platform.owns(following):
                    raise ServiceFailed("the members' next page is not on the platform's host")
                url = following
        raise ServiceFailed(f"the course's members run to more than {MOST_PAGES} pages")

    async def line_item(
        self,
        platform: Platform,
        line_items_url: str,
        key: Any,
        label: str,
        maximum: int,
        resource_link_id: str,
        tag: str,
    ) -> str:
        """The grade column of a link (AGS 2.0 §3.2): the one the platform lists for the link, else a new one;
        its URL."""
        if not platform.owns(line_items_url):
            raise ServiceFailed("the line items' address is not on the platform's host")
        token = await self.token(platform, [SCOPE_LINE_ITEM], key)
        headers = {"Authorization": f"Bearer {token}"}
        try:
            async with self._client() as client:
                listed = await client.get(
                    line_items_url,
                    params={"resource_link_id": resource_link_id},
                    headers=headers | {"Accept": LINE_ITEMS_TYPE},
                )
                listed.raise_for_status()
                for item in listed.json():
                    if item.get("resourceLinkId") == resource_link_id and item.get("tag") == tag:
                        found = str(item["id"])
                        break
                else:
                    made = await client.post(
                        line_items_url,
                        json={
                            "scoreMaximum": maximum,
                            "label": label,
                            "resourceLinkId": resource_link_id,
                            "tag": tag,
                        },
                        headers=headers | {"Content-Type": LINE_ITEM_TYPE, "Accept": LINE_ITEM_TYPE},
                    )
                    made.raise_for_status()
                    found = str(made.json()["id"])
        except (httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError) as problem:
            raise ServiceFailed(f"the grade column could not be made ({_said(problem)})") from None
        if not platform.owns(found):
            raise ServiceFailed("the platform named a grade column that is not on its host")
        return found

    async def post_score(self, platform: Platform, line_item_url: str, body: dict[str, Any], key: Any) -> None:
        """Post a score to a grade column (AGS 2.0 §3.4: to the line item's URL with ``/scores`` added to its path);
        :class:`ServiceFailed` if the platform did not take it."""
        if not platform.owns(line_item_url):
            raise ServiceFailed("the grade column is not on the platform's host")
        token = await self.token(platform, [SCOPE_SCORE], key)
        parts = urlsplit(line_item_url)
        scores = urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/scores"))
        try:
            async with self._client() as client:
                reply = await client.post(
                    scores,
                    content=json.dumps(body),
                    headers={"Authorization": f"Bearer {token}", "Content-Type": SCORE_TYPE},
                )
            if reply.status_code == 401:  # the token is no longer good: the next try asks for a new one
                self.tokens.pop((platform.id, SCOPE_SCORE), None)
            reply.raise_for_status()
        except httpx.HTTPStatusError as problem:
            status = problem.response.status_code
            refused = 400 <= status < 500 and status not in (401, 408, 429)
            raise ServiceFailed(f"the platform did not take the score ({_said(problem)})", permanent=refused) from None
        except httpx.HTTPError as problem:
            raise ServiceFailed(f"the platform did not take the score ({_said(problem)})") from None


def _said(problem: BaseException) -> str:
    if isinstance(problem, httpx.HTTPStatusError):
        return f"HTTP {problem.response.status_code}"
    if isinstance(problem, httpx.HTTPError):
        return type(problem).__name__
    return str(problem)[:120] or type(problem).__name__


class ScoreSender:
    """Sends the queued scores to the platforms (the outbox of :meth:`~bleu_teach.classroom.store.Store.queue_scores`)
    as a task of the server's loop: at once when a score is queued in this process (:meth:`graded`), and every
    :data:`SEND_EVERY` seconds for those of other workers, those whose platform failed before, and the homeworks
    whose due time has come and the extensions that have ended (their final scores). A score is marked sent only
    once the platform took it."""

    def __init__(self, store: Any, client: PlatformClient) -> None:
        self.store = store
        self.client = client
        self.wake: asyncio.Event | None = None
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.wake = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def graded(self, session_id: int, student_id: int) -> None:
        """A student's homework answer was judged: their score is queued, and sent soon."""
        from starlette.concurrency import run_in_threadpool

        if await run_in_threadpool(self.store.queue_scores, session_id, student_id) and self.wake is not None:
            self.wake.set()

    async def _run(self) -> None:
        assert self.wake is not None
        while True:
            try:
                await self.send_due()
            except Exception as problem:  # noqa: BLE001 (the database is down: the next round tries again)
                log.warning("LTI scores: %s", str(problem).splitlines()[0][:200] if str(problem) else problem)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), SEND_EVERY)
            self.wake.clear()

    async def send_due(self) -> int:
        """Queue the final scores of homeworks now due (and of students whose extension has ended), then send what
        is due; how many were taken."""
        from starlette.concurrency import run_in_threadpool

        for session_id in await run_in_threadpool(self.store.finish_due):
            await run_in_threadpool(self.store.queue_scores, session_id, None, True)
        for session_id, student_id in await run_in_threadpool(self.store.extensions_due):
            await run_in_threadpool(self.store.queue_scores, session_id, student_id, True)
        claimed = await run_in_threadpool(self.store.claim_scores)
        if not claimed:
            return 0
        key = await run_in_threadpool(self.store.signing_key)
        taken = 0
        for row in claimed:
            try:
                platform = await run_in_threadpool(self.store.platform, row.platform_id)
                await self.client.post_score(platform, row.line_item_url, json.loads(row.body), key)
            except (ServiceFailed, LaunchRefused, LookupError) as problem:
                permanent = isinstance(problem, ServiceFailed) and problem.permanent
                await run_in_threadpool(self.store.score_failed, row.id, row.tries, str(problem), permanent)
                continue
            await run_in_threadpool(self.store.score_sent, row.id)
            taken += 1
        return taken
