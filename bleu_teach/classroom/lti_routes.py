"""The LTI 1.3 routes: the tool's public keys, the platform's login (OIDC third-party initiated login), the launch,
and the teacher's choice of what a course link opens (Deep Linking).

A launch is checked whole (:func:`~bleu_teach.classroom.lti.read_launch`) before anything is made: the login's
state used once, the id_token signed by the platform's published key, meant for this tool, fresh, its nonce the
login's and never used before, from a registered deployment. Then:

* a teacher's launch (the platform says Instructor or Administrator) opens the link's session's dashboard, and
  makes a live session for a link that has none yet;
* a student's launch puts them into the link's session as the platform names them (no code, no nickname typed):
  the same student at every launch from any device, a homework's questions at once;
* a deep-linking launch shows the teacher what a link can open: a new live session, the course's sessions, a
  session they hold the teacher link of, or a lesson page; each choice goes back to the platform signed by the
  tool.

The launch answers with a page, not a redirect: the platform's form posted it from another site, and a browser
sends a ``SameSite=Strict`` cookie only on a navigation this site's own page starts.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.templating import Jinja2Templates

from bleu_teach.classroom.guard import Limiter, SharedLimiter
from bleu_teach.classroom.handling import form_body
from bleu_teach.classroom.lti import (
    ALGORITHM,
    DEEP_LINKING_REQUEST,
    LEEWAY,
    SCOPE_LINE_ITEM,
    STATE_SECONDS,
    Launch,
    LaunchRefused,
    Platform,
    deep_linking_response,
    login_redirect,
    new_state,
    public_keys,
    read_launch,
    unverified_header,
)
from bleu_teach.classroom.lti_services import PlatformClient, ServiceFailed
from bleu_teach.classroom.paths import PATHS
from bleu_teach.classroom.roles import ANYONE, allowed
from bleu_teach.classroom.room import CLASS_PATH, STUDENT_COOKIE
from bleu_teach.classroom.schema import digest, now
from bleu_teach.classroom.store import Session, Store
from bleu_teach.classroom.store_lti import roster_of

log = logging.getLogger("bleu_teach.classroom")
#: Logins one address may start in a minute (each keeps a state for ten minutes): a lecture hall behind one
#: address launching at once, not a script filling the table.
LOGINS_PER_MINUTE = 600
#: The longest text a launch's id_token may be (it is a few kilobytes), and a login's hints.
MOST = 20_000
HINT = 2_000
#: What a deep-linking ticket (the tool's own signed note of the request, carried by its page's form) is meant for.
TICKET_AUDIENCE = "bleu-teach deep linking"
#: A teacher link, as pasted: the route table's path with the session's number and the secret taken out.
TEACHER_LINK = re.compile(
    re.escape(PATHS["enter"])
    .replace(re.escape("{session:id}"), r"(\d{1,9})")
    .replace(re.escape("{secret:str}"), r"([A-Za-z0-9_-]{10,200})")
)


def _field(found: Any, name: str, required: bool = True, most: int = MOST) -> str:
    value = found.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value or len(value) > most:
        raise LaunchRefused(f"{name}: the platform sent no {name.replace('_', ' ')} (or one that is not short text).")
    return value


class LtiRoutes:
    def __init__(
        self,
        store: Store,
        templates: Jinja2Templates,
        client: PlatformClient,
        site: Path | None,
        logins: Limiter | SharedLimiter | None = None,
    ) -> None:
        self.logins = logins or Limiter(LOGINS_PER_MINUTE)
        self.store = store
        self.templates = templates
        self.client = client
        self.site = site

    def _page(self, request: Request, title: str, message: str, status: int = 200, **more: Any) -> Response:
        return self.templates.TemplateResponse(
            request, "lti.html", {"title": title, "message": message, **more}, status_code=status
        )

    def _refused(self, request: Request, problem: LaunchRefused, status: int = 400) -> Response:
        return self._page(request, "The launch was refused", str(problem), status=status)

    @allowed(ANYONE)
    async def jwks(self, request: Request, _: Any) -> Response:
        """The tool's public keys (a JSON Web Key Set): platforms check the tool's signatures with them."""
        keys = await run_in_threadpool(self.store.published_keys)
        if not keys:
            keys = [await run_in_threadpool(self.store.signing_key)]
        return JSONResponse(public_keys(keys), headers={"Cache-Control": "max-age=300"})

    @allowed(ANYONE)
    async def login(self, request: Request, _: Any) -> Response:
        """OIDC third-party initiated login (Security Framework §5.1.1.1): the platform names itself and the user;
        the tool makes a state and a nonce and sends the browser to the platform to authenticate."""
        try:
            found: Any = await _form(request) if request.method == "POST" else request.query_params
            issuer = _field(found, "iss", most=1000)
            if not await self.logins.admit(_address(request)):
                return self._page(
                    request, "Too many launches", "Too many launches from this address: wait a minute.", 429
                )
            hint = _field(found, "login_hint", most=HINT)
            target = _field(found, "target_link_uri", most=HINT)
            message_hint = _field(found, "lti_message_hint", required=False, most=HINT) or None
            client_id = _field(found, "client_id", required=False, most=255) or None
            if urlsplit(target).netloc != request.url.netloc:
                raise LaunchRefused("target_link_uri: the platform asks for a launch of another tool than this one.")
            platform = await run_in_threadpool(self.store.platform_for, issuer, client_id)
            deployment = _field(found, "lti_deployment_id", required=False)
            if deployment and deployment not in platform.deployments:
                raise LaunchRefused(
                    f"lti_deployment_id: {deployment[:80]!r} is not registered for {platform.issuer}; the "
                    "administrator adds it with class lti add."
                )
            state, nonce = new_state()
            browser = secrets.token_urlsafe(32)
            await run_in_threadpool(self.store.remember_login, platform, state, nonce, browser)
        except LaunchRefused as problem:
            return self._refused(request, problem)
        where = login_redirect(platform, str(request.url_for("lti_launch")), hint, message_hint, state, nonce)
        response = Response(status_code=302, headers={"Location": where, "Cache-Control": "no-store"})
        if request.url.scheme == "https":
            # The launch must come back to this browser (no login CSRF: a launch form someone else got, sent on
            # from another browser, is refused). The platform's form posts the launch from its site: the cookie
            # goes with it only as SameSite=None, which browsers take only as Secure (over https).
            response.set_cookie(
                _browser_cookie(state),
                browser,
                max_age=STATE_SECONDS,
                path=str(request.url_for("lti_launch").path),
                secure=True,
                httponly=True,
                samesite="none",
            )
        return response

    @allowed(ANYONE)
    async def launch(self, request: Request, _: Any) -> Response:
        """The launch (Security Framework §5.1.1.3): the platform's form posts the id_token and the state."""
        try:
            form = await _form(request)
            if form.get("error"):  # the platform's authentication answered with an error instead
                raise LaunchRefused(
                    f"the platform did not authenticate the launch: {str(form.get('error'))[:80]}"
                    + (f" ({str(form.get('error_description'))[:200]})" if form.get("error_description") else "")
                )
            token = _field(form, "id_token")
            state = _field(form, "state", most=200)
            # Over https the launch's browser must be the login's; plain http (this computer, for a test platform)
            # cannot carry the cookie across sites, and is not asked for it.
            browser = request.cookies.get(_browser_cookie(state), "") if request.url.scheme == "https" else None
            platform, nonce = await run_in_threadpool(self.store.take_login, state, browser)
            keys = await self.client.keys(platform, unverified_header(token).get("kid"))
            launch = read_launch(token, platform, keys, nonce)
            await run_in_threadpool(
                self.store.use_nonce, platform, nonce, now() + timedelta(seconds=STATE_SECONDS + 2 * LEEWAY)
            )
            if launch.message_type == DEEP_LINKING_REQUEST:
                return await self._choices(request, launch)
            return await self._open(request, launch)
        except LaunchRefused as problem:
            return self._refused(request, problem, problem.status)

    async def _open(self, request: Request, launch: Launch) -> Response:
        """A resource-link launch: the link's session for its teacher (a new live one if it has none) or student."""
        platform = launch.platform
        session_id = await run_in_threadpool(self.store.linked_session, platform, launch.resource_link_id)
        if session_id is None and launch.custom.get("session"):
            chosen = launch.custom["session"]
            offered = await run_in_threadpool(self.store.offered, platform, launch.context_id)
            if not chosen.isascii() or not chosen.isdigit() or int(chosen) not in offered:
                raise LaunchRefused(
                    "This link names a session that was not chosen for this course; its teacher chooses it again "
                    "(edit the link and select the activity)."
                )
            session_id = int(chosen)
            await run_in_threadpool(
                self.store.link_session, platform, launch.resource_link_id, launch.context_id, session_id
            )
        if session_id is None and launch.teaching:
            title = (launch.resource_link_title or launch.context_title or "Class")[:120]
            session, _ = await run_in_threadpool(self.store.create_session, title, "live")
            session_id = session.id
            await run_in_threadpool(self.store.offer, platform, launch.context_id, session_id)
            await run_in_threadpool(
                self.store.link_session, platform, launch.resource_link_id, launch.context_id, session_id
            )
        if session_id is None:
            raise LaunchRefused(
                "This activity is not open yet: your teacher opens it once from the course first. Try again later."
            )
        session = await run_in_threadpool(self.store.session, session_id)
        await self._grade_column(launch, session)
        await self._roster(launch, session)
        secure = request.url.scheme == "https"
        if launch.teaching:
            secret = await run_in_threadpool(self.store.launched_teacher, session.id)
            target = str(request.url_for("dashboard", session=session.id).path)
            response = self._page(
                request, session.title, "Opening the dashboard of this session…", refresh=target, link=target
            )
            response.set_cookie(
                f"bleu_teach_session_{session.id}",
                secret,
                httponly=True,
                samesite="strict",
                secure=secure,
                path=CLASS_PATH,
            )
            return response
        if not session.open:
            raise LaunchRefused(f"{session.title}: this session is closed; ask your teacher.")
        student, token = await run_in_threadpool(
            self.store.launched_student, session, platform, launch.subject, launch.name, launch.context_id
        )
        if session.kind == "homework":
            target = str(request.url_for("homework_page").path)
            response = self._page(
                request, session.title, f"Opening your homework, {student.nickname}…", refresh=target, link=target
            )
        else:
            lessons = "/index.html" if self.site is not None else None
            response = self._page(
                request,
                session.title,
                f"You are in {session.title} as {student.nickname}. Open the lessons: the answers you check there "
                "are sent to your class.",
                link=lessons,
                link_text="Open the lessons",
            )
        response.set_cookie(
            STUDENT_COOKIE,
            f"{session.id}.{token}",
            httponly=True,
            samesite="strict",
            secure=secure,
            max_age=60 * 60 * 24 * 30,
        )
        return response

    async def _grade_column(self, launch: Launch, session: Session) -> None:
        """A homework link's grade column (AGS 2.0): the one the launch names, else one the tool makes (or finds)
        through the platform's line items service. A platform that fails here leaves the launch working: the
        scores wait until a later launch finds the column."""
        if session.kind != "homework":
            return
        platform, link = launch.platform, launch.resource_link_id
        known = await run_in_threadpool(self.store.line_item_of, platform, link)
        if launch.line_item_url:
            if known != launch.line_item_url:
                await run_in_threadpool(self.store.set_line_item, platform, link, launch.line_item_url)
            return
        if known or not launch.line_items_url or SCOPE_LINE_ITEM not in launch.scopes:
            return
        key = await run_in_threadpool(self.store.signing_key)
        questions = len(await run_in_threadpool(self.store.variant_counts, session.id))
        try:
            made = await self.client.line_item(
                platform, launch.line_items_url, key, session.title, questions, link, f"bleu-teach-{session.id}"
            )
        except ServiceFailed as problem:
            log.warning("LTI: no grade column for %s: %s", session.title[:60], problem)
            return
        await run_in_threadpool(self.store.set_line_item, platform, link, made)

    async def _roster(self, launch: Launch, session: Session) -> None:
        """A homework's roster from the course's members (NRPS 2.0), at its teacher's launch when it has none yet:
        the gradebook then lists every learner, a blank for one who never started."""
        if not (launch.teaching and session.kind == "homework" and launch.memberships_url):
            return
        if await run_in_threadpool(self.store.roster_names, session.id):
            return
        key = await run_in_threadpool(self.store.signing_key)
        try:
            members = await self.client.members(launch.platform, launch.memberships_url, key)
            alike = await run_in_threadpool(self.store.set_roster, session.id, roster_of(members))
        except (ServiceFailed, ValueError) as problem:
            log.warning("LTI: no roster from the course's members for %s: %s", session.title[:60], problem)
            return
        if alike:  # launched students are known by the platform: only a name typed on the join page is held to it
            log.info(
                "LTI: %d group(s) of the roster of %s differ only in accents, apostrophes or the order of the "
                "names: those students are found only by their name as listed when they type it",
                len(alike),
                session.title[:60],
            )

    # --- deep linking -----------------------------------------------------------------------------------------

    async def _choices(self, request: Request, launch: Launch) -> Response:
        """What the teacher may choose for the link (Deep Linking 2.0 §4.5): each a form that posts the tool's
        signed answer back to the platform."""
        key = await run_in_threadpool(self.store.signing_key)
        url = str(request.url_for("lti_launch"))
        offered = await run_in_threadpool(self.store.offered, launch.platform, launch.context_id)
        sessions = [await run_in_threadpool(self.store.session, number) for number in offered]
        items: list[tuple[str, str, dict[str, Any]]] = [
            (
                "A new live session",
                "made when you open the link yourself the first time",
                {"type": "ltiResourceLink", "title": "Live class (bleu-teach)", "url": url},
            )
        ]
        for session in sessions:
            questions = len(await run_in_threadpool(self.store.variant_counts, session.id))
            items.append((session.title, _kind(session), self._item(session, url, questions)))
        for page in self._lessons():
            address = str(request.url_for("site", path=page.name)) if self.site is not None else ""
            items.append(
                (_lesson_title(page), "a lesson page", {"type": "link", "title": _lesson_title(page), "url": address})
            )
        accepted = launch.deep_linking.get("accept_types")
        if isinstance(accepted, list):  # only what the platform takes here (Deep Linking 2.0 §4.4.1)
            items = [item for item in items if item[2]["type"] in accepted]
        return_url = launch.deep_linking["deep_link_return_url"]
        choices = [
            {"title": title, "about": about, "jwt": deep_linking_response(launch, key, [item])}
            for title, about, item in items
        ]
        ticket = jwt.encode(
            {"alg": ALGORITHM, "kid": key.kid},
            {
                "aud": TICKET_AUDIENCE,
                "exp": int(time.time()) + STATE_SECONDS,
                "platform": launch.platform.id,
                "deployment": launch.deployment_id,
                "context": launch.context_id,
                "data": launch.deep_linking.get("data"),
                "return": return_url,
            },
            key,
            algorithms=[ALGORITHM],
        )
        response = self._page(
            request,
            "Choose what this link opens",
            f"For {launch.context_title or 'this course'}: each choice goes back to the course page.",
            choices=choices,
            return_url=return_url,
            ticket=ticket,
        )
        response.headers["content-security-policy"] = _policy_for(launch.platform, return_url)
        return response

    @allowed(ANYONE)
    async def deep_link(self, request: Request, _: Any) -> Response:
        """A session the teacher holds the teacher link of, chosen for the course (their ticket from the choices
        page says which request it answers)."""
        try:
            form = await _form(request)
            keys = KeySet([*await run_in_threadpool(self.store.published_keys)])
            try:
                claims = jwt.decode(_field(form, "ticket"), keys, algorithms=[ALGORITHM]).claims
                jwt.JWTClaimsRegistry(
                    leeway=LEEWAY, aud={"essential": True, "value": TICKET_AUDIENCE}, exp={"essential": True}
                ).validate(claims)
            except JoseError:
                raise LaunchRefused(
                    "ticket: the choice page is too old or not this tool's; open it again from the course."
                ) from None
            pasted = TEACHER_LINK.search(_field(form, "teacher_link"))
            if pasted is None or not await run_in_threadpool(self.store.is_teacher, int(pasted[1]), pasted[2]):
                raise LaunchRefused(
                    "teacher_link: paste the whole teacher link of the session (the one that opens its dashboard)."
                )
            platform = await run_in_threadpool(self.store.platform, int(claims["platform"]))
            session = await run_in_threadpool(self.store.session, int(pasted[1]))
            await run_in_threadpool(self.store.offer, platform, str(claims["context"]), session.id)
        except (LaunchRefused, LookupError) as problem:
            return self._page(request, "Not chosen", str(problem), status=400)
        key = await run_in_threadpool(self.store.signing_key)
        launch = Launch(
            platform=platform,
            deployment_id=str(claims["deployment"]),
            message_type=DEEP_LINKING_REQUEST,
            subject="",
            name="",
            email="",
            teaching=True,
            context_id=str(claims["context"]),
            context_title="",
            resource_link_id="",
            resource_link_title="",
            custom={},
            memberships_url="",
            line_items_url="",
            line_item_url="",
            scopes=(),
            deep_linking={"deep_link_return_url": claims["return"]}
            | ({"data": claims["data"]} if claims.get("data") is not None else {}),
        )
        questions = len(await run_in_threadpool(self.store.variant_counts, session.id))
        item = self._item(session, str(request.url_for("lti_launch")), questions)
        response = self._page(
            request,
            "Choose what this link opens",
            f"{session.title}: send it to the course page.",
            choices=[
                {"title": session.title, "about": _kind(session), "jwt": deep_linking_response(launch, key, [item])}
            ],
            return_url=claims["return"],
        )
        response.headers["content-security-policy"] = _policy_for(platform, str(claims["return"]))
        return response

    @staticmethod
    def _item(session: Session, url: str, questions: int) -> dict[str, Any]:
        """A session as a deep-linking item (Deep Linking 2.0 §3.1); a homework's with the grade column the
        platform makes for it (its ``lineItem``: the questions are its points)."""
        item: dict[str, Any] = {
            "type": "ltiResourceLink",
            "title": session.title,
            "url": url,
            "custom": {"session": str(session.id)},
        }
        if session.kind == "homework" and questions:
            item["lineItem"] = {"scoreMaximum": questions, "label": session.title, "tag": f"bleu-teach-{session.id}"}
        return item

    def _lessons(self) -> list[Path]:
        if self.site is None:
            return []
        return sorted(self.site.glob("[0-9][0-9]_*.html"))


def _browser_cookie(state: str) -> str:
    """The name of the cookie a login leaves in its browser (one per login: two tabs may launch at once)."""
    return "bleu_teach_lti_" + digest(state)[:16]


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def _form(request: Request) -> dict[str, str]:
    try:
        return await form_body(request)
    except ValueError as problem:
        raise LaunchRefused(str(problem)) from None


def _kind(session: Session) -> str:
    if session.kind == "homework":
        due = f", due {session.due:%Y-%m-%d %H:%M} UTC" if session.due else ""
        return f"a homework{due}"
    return "a live session" + ("" if session.open else " (closed)")


def _lesson_title(page: Path) -> str:
    number, _, rest = page.stem.partition("_")
    return f"Lesson {number}: {rest.replace('_', ' ')}"


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}" + (f":{parts.port}" if parts.port else "")


def _policy_for(platform: Platform, posting_to: str | None = None) -> str:
    """The classroom's page policy for a page a platform shows: in a frame of the platform's own pages (Moodle's
    and Canvas's content selection frame the tool), its forms allowed to post to ``posting_to``'s origin (the
    platform's return address)."""
    framers = " ".join(sorted({_origin_of(u) for u in (platform.issuer, platform.login_url)}))
    posting = f" {_origin_of(posting_to)}" if posting_to else ""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        f"frame-ancestors 'self' {framers}; base-uri 'none'; form-action 'self'{posting}"
    )
