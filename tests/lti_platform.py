"""An LTI 1.3 platform (a learning management system's side), written for the tests from the IMS specifications,
since no Moodle or Canvas runs here:

* IMS Security Framework 1.0: §5.1.1 the OIDC third-party initiated login and the authentication request
  (§5.1.1.2: scope ``openid``, ``response_type=id_token``, ``response_mode=form_post``, ``prompt=none``, the
  registered ``client_id`` and ``redirect_uri``, a ``nonce``, the ``login_hint`` it gave); §5.1.1.3 the
  authentication response (the id_token and state posted to the redirect URI); §4.1 the token endpoint with the
  tool's JWT client assertion (RFC 7523: ``iss`` and ``sub`` the client id, ``aud`` the token endpoint, a short
  ``exp``, a ``jti`` used once, signed by a key of the tool's published JWKS);
* LTI Core 1.3: the id_token's claims (§5.3: message type, version, deployment id, target link URI, resource
  link, roles; §5.4: context, custom);
* Names and Role Provisioning Services 2.0: the membership container (§3.6), paged with ``Link: rel="next"``;
* Assignment and Grade Services 2.0: the line items container and a new line item (§3.2: ``scoreMaximum`` above
  0, a ``label``, the media types), the score (§3.4: posted to the line item's URL with ``/scores``, its media
  type, ``userId`` a member, ``scoreGiven`` from 0 with ``scoreMaximum`` above 0, the two progress values from
  their lists, a ``timestamp`` with its zone, never older than the last one taken for that user);
* Deep Linking 2.0: the request's settings (§4.4) and the tool's response posted back as ``JWT`` (§4.5),
  checked against the tool's keys.

It is strict: a request missing or misspelling what a specification requires is refused with 400 and a message,
so a tool that passes these tests speaks the specifications, not this file's leniency.
"""

from __future__ import annotations

import html
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet, RSAKey
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

ISSUER = "https://lms.example.edu"
CLIENT_ID = "bleu-teach-tool-1"
DEPLOYMENT = "deployment-1"
LTI = "https://purl.imsglobal.org/spec/lti/claim/"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
DEEP_LINKING_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
MEMBERSHIP_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
KNOWN_SCOPES = {
    MEMBERSHIP_SCOPE,
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
}


@dataclass
class User:
    sub: str
    name: str
    email: str
    roles: list[str]


@dataclass
class Platform:
    """The platform's state: its key, its users, the tool's registration, what the tool sent."""

    tool_keys: Callable[[], Any]  # the tool's JWKS, as the platform reads it from the tool's URL
    redirect_uri: str  # the tool's launch URL, as registered
    issuer: str = ISSUER  # its address (a browser test runs it on 127.0.0.1)
    key: RSAKey = field(
        default_factory=lambda: RSAKey.generate_key(2048, {"kid": "platform-key-1", "use": "sig", "alg": "RS256"})
    )
    users: dict[str, User] = field(default_factory=dict)
    course: dict[str, str] = field(default_factory=lambda: {"id": "course-7", "label": "MT501", "title": "MT 501"})
    logins: dict[str, dict[str, Any]] = field(default_factory=dict)  # login hint -> what the launch carries
    used_jti: set[str] = field(default_factory=set)
    tokens: dict[str, set[str]] = field(default_factory=dict)  # access token -> its scopes
    deep_link_returns: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # every refusal's message, for the tests to read
    page_size: int = 2
    line_items: dict[str, dict[str, Any]] = field(default_factory=dict)  # id (its URL) -> the line item
    scores: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (line item, score) as taken
    down: int = 0  # the next this many score posts answer 503 (the platform is down)

    # --- what a test sets up ----------------------------------------------------------------------------------

    def add_user(self, sub: str, name: str, role: str) -> User:
        user = User(sub, name, f"{sub}@example.edu", [role])
        self.users[sub] = user
        return user

    def claims(self, user: User, link: str = "link-1", **more: Any) -> dict[str, Any]:
        """The id_token's claims for ``user`` launching the course link ``link`` (LTI Core §5.3, §5.4)."""
        moment = int(time.time())
        return {
            "iss": self.issuer,
            "aud": CLIENT_ID,
            "sub": user.sub,
            "exp": moment + 300,
            "iat": moment,
            "name": user.name,
            "email": user.email,
            LTI + "message_type": "LtiResourceLinkRequest",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": DEPLOYMENT,
            LTI + "target_link_uri": self.redirect_uri,
            LTI + "resource_link": {"id": link, "title": "Week 3: BLEU"},
            LTI + "roles": user.roles,
            LTI + "context": dict(self.course),
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url": f"{self.issuer}/courses/7/members",
                "service_versions": ["2.0"],
            },
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
                "scope": sorted(KNOWN_SCOPES - {MEMBERSHIP_SCOPE}),
                "lineitems": f"{self.issuer}/courses/7/lineitems",
            },
            **more,
        }

    def login_for(self, user: User, **claims: Any) -> dict[str, str]:
        """The platform starts a launch of the tool for ``user``: the third-party login's parameters (§5.1.1.1),
        and what the launch will carry."""
        hint = secrets.token_urlsafe(8)
        self.logins[hint] = {"user": user, "claims": claims}
        return {
            "iss": self.issuer,
            "login_hint": hint,
            "target_link_uri": self.redirect_uri,
            "lti_message_hint": "resource-link",
            "client_id": CLIENT_ID,
            "lti_deployment_id": DEPLOYMENT,
        }

    def sign(self, claims: dict[str, Any], key: RSAKey | None = None, header: dict[str, Any] | None = None) -> str:
        used = key or self.key
        return jwt.encode(header or {"alg": "RS256", "kid": used.kid, "typ": "JWT"}, claims, used)

    # --- its endpoints ----------------------------------------------------------------------------------------

    def _refuse(self, message: str, status: int = 400) -> Response:
        self.refused.append(message)
        return JSONResponse({"error": "invalid_request", "error_description": message}, status_code=status)

    async def jwks(self, request: Request) -> Response:
        return JSONResponse({"keys": [self.key.as_dict(private=False)]})

    async def authorize(self, request: Request) -> Response:
        """The authentication request (Security Framework §5.1.1.2) and its response (§5.1.1.3)."""
        query = request.query_params
        required = {
            "scope": "openid",
            "response_type": "id_token",
            "response_mode": "form_post",
            "prompt": "none",
            "client_id": CLIENT_ID,
            "redirect_uri": self.redirect_uri,
        }
        for name, value in required.items():
            if query.get(name) != value:
                return self._refuse(f"{name} must be {value!r}, not {query.get(name)!r}")
        for name in ("login_hint", "state", "nonce"):
            if not query.get(name):
                return self._refuse(f"{name} is required")
        if len(query["nonce"]) < 16 or len(query["state"]) < 16:
            return self._refuse("nonce and state must be unguessable")
        login = self.logins.pop(query["login_hint"], None)
        if login is None:
            return self._refuse("login_hint is not one this platform gave (or it was used)")
        if query.get("lti_message_hint") != "resource-link":
            return self._refuse("lti_message_hint must be sent back as given")
        claims = self.claims(login["user"], nonce=query["nonce"])
        claims.update(login["claims"].get("extra", {}))
        for name in login["claims"].get("without", ()):
            claims.pop(name, None)
        token = login["claims"].get("token") or self.sign(claims, login["claims"].get("key"))
        if callable(token):
            token = token(claims)
        return HTMLResponse(
            f'<form method="post" action="{html.escape(self.redirect_uri)}">'
            f'<input type="hidden" name="id_token" value="{html.escape(token)}">'
            f'<input type="hidden" name="state" value="{html.escape(query["state"])}"></form>'
            "<script>document.forms[0].submit()</script>"  # as a platform's page posts it in a browser
        )

    async def course_link(self, request: Request) -> Response:
        """A course page's link, as a browser follows it: the platform starts the tool's login (§5.1.1.1) for the
        user ``?user=`` with the link's claims (``?session=`` the custom parameter, ``?link=`` its id); with
        ``?select=1``, the course editor's button that asks the tool what a new link opens (a deep-linking request,
        Deep Linking 2.0 §4.4, answered at ``/deep-link-return``)."""
        user = self.users[request.query_params["user"]]
        extra: dict[str, Any] = {
            LTI + "resource_link": {"id": request.query_params.get("link", "link-1"), "title": "Homework"}
        }
        if request.query_params.get("session"):
            extra[LTI + "custom"] = {"session": request.query_params["session"]}
        without: list[str] = []
        if request.query_params.get("select"):
            extra = {
                LTI + "message_type": "LtiDeepLinkingRequest",
                DEEP_LINKING_SETTINGS: {
                    "deep_link_return_url": f"{self.issuer}/deep-link-return",
                    "accept_types": ["ltiResourceLink", "link"],
                    "accept_presentation_document_targets": ["window", "iframe"],
                    "data": "platform-data-42",
                },
            }
            without = [LTI + "resource_link"]
        login = self.login_for(user, extra=extra, without=without)
        query = "&".join(f"{name}={quote(value, safe='')}" for name, value in login.items())
        target = self.redirect_uri.replace("/launch", "/login")
        return Response(status_code=302, headers={"Location": f"{target}?{query}"})

    def _check_assertion(self, assertion: str) -> str:
        """The tool's client assertion (Security Framework §4.1.1, RFC 7523 §3): a problem, or ""."""
        try:
            keys = KeySet.import_key_set(self.tool_keys())
            decoded = jwt.decode(assertion, keys, algorithms=["RS256"])
        except JoseError as problem:
            return f"client_assertion: not signed by a key the tool publishes ({type(problem).__name__})"
        claims = decoded.claims
        moment = time.time()
        if claims.get("iss") != CLIENT_ID or claims.get("sub") != CLIENT_ID:
            return "client_assertion: iss and sub must be the client id"
        audience = claims.get("aud")
        if audience != f"{self.issuer}/token" and not (
            isinstance(audience, list) and f"{self.issuer}/token" in audience
        ):
            return "client_assertion: aud must be the token endpoint"
        if not isinstance(claims.get("exp"), int) or claims["exp"] <= moment or claims["exp"] > moment + 3600:
            return "client_assertion: exp must be a near future time"
        if not isinstance(claims.get("iat"), int) or claims["iat"] > moment + 60:
            return "client_assertion: iat must not be in the future"
        jti = claims.get("jti")
        if not isinstance(jti, str) or not jti or jti in self.used_jti:
            return "client_assertion: jti must be given and never used before"
        self.used_jti.add(jti)
        return ""

    async def token(self, request: Request) -> Response:
        """The token endpoint (Security Framework §4.1): client credentials with the tool's signed assertion."""
        if request.headers.get("content-type", "").split(";")[0] != "application/x-www-form-urlencoded":
            return self._refuse("the token request must be a form (application/x-www-form-urlencoded)")
        form = parse_qs((await request.body()).decode())
        single = {name: values[0] for name, values in form.items() if len(values) == 1}
        if single.get("grant_type") != "client_credentials":
            return self._refuse("grant_type must be client_credentials")
        if single.get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
            return self._refuse("client_assertion_type must be the JWT bearer type")
        problem = self._check_assertion(single.get("client_assertion", ""))
        if problem:
            return self._refuse(problem, 401)
        scopes = set(single.get("scope", "").split())
        if not scopes or not scopes <= KNOWN_SCOPES:
            return self._refuse(f"scope: unknown scopes {sorted(scopes - KNOWN_SCOPES)}")
        token = secrets.token_urlsafe(24)
        self.tokens[token] = scopes
        return JSONResponse(
            {"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": " ".join(sorted(scopes))}
        )

    def _authorized(self, request: Request, scope: str) -> str:
        found = re.fullmatch(r"Bearer (\S+)", request.headers.get("authorization", ""))
        if found is None or scope not in self.tokens.get(found[1], set()):
            return f"a bearer token with the scope {scope} is required"
        return ""

    async def members(self, request: Request) -> Response:
        """The course's membership container (NRPS 2.0 §3.6), a page at a time."""
        problem = self._authorized(request, MEMBERSHIP_SCOPE)
        if problem:
            return self._refuse(problem, 401)
        if request.headers.get("accept") != "application/vnd.ims.lti-nrps.v2.membershipcontainer+json":
            return self._refuse("Accept must be the membership container's media type", 406)
        page = int(request.query_params.get("page", "1"))
        everyone = list(self.users.values())
        shown = everyone[(page - 1) * self.page_size : page * self.page_size]
        response = JSONResponse(
            {
                "id": str(request.url),
                "context": dict(self.course),
                "members": [
                    {"status": "Active", "name": u.name, "email": u.email, "user_id": u.sub, "roles": u.roles}
                    for u in shown
                ],
            },
            media_type="application/vnd.ims.lti-nrps.v2.membershipcontainer+json",
        )
        if page * self.page_size < len(everyone):
            response.headers["link"] = f'<{self.issuer}/courses/7/members?page={page + 1}>; rel="next"'
        return response

    async def line_items_container(self, request: Request) -> Response:
        """The course's line items (AGS 2.0 §3.2): listed (filtered by resource link), or a new one made."""
        problem = self._authorized(request, "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem")
        if problem:
            return self._refuse(problem, 401)
        if request.method == "GET":
            if request.headers.get("accept") != "application/vnd.ims.lis.v2.lineitemcontainer+json":
                return self._refuse("Accept must be the line item container's media type", 406)
            wanted = request.query_params.get("resource_link_id")
            shown = [item for item in self.line_items.values() if wanted in (None, item.get("resourceLinkId"))]
            return JSONResponse(shown, media_type="application/vnd.ims.lis.v2.lineitemcontainer+json")
        if request.headers.get("content-type") != "application/vnd.ims.lis.v2.lineitem+json":
            return self._refuse("a new line item must be sent as application/vnd.ims.lis.v2.lineitem+json", 415)
        item = json.loads(await request.body())
        maximum = item.get("scoreMaximum")
        if isinstance(maximum, bool) or not isinstance(maximum, (int, float)) or maximum <= 0:
            return self._refuse("scoreMaximum must be a number above 0")
        if not isinstance(item.get("label"), str) or not item["label"].strip():
            return self._refuse("label is required")
        made = f"{self.issuer}/courses/7/lineitems/{len(self.line_items) + 1}"
        self.line_items[made] = {**item, "id": made}
        return JSONResponse(
            self.line_items[made], status_code=201, media_type="application/vnd.ims.lis.v2.lineitem+json"
        )

    async def score(self, request: Request) -> Response:
        """A score posted to a line item (AGS 2.0 §3.4, §3.4.1)."""
        if self.down:
            self.down -= 1
            return JSONResponse({"error": "unavailable"}, status_code=503)
        problem = self._authorized(request, "https://purl.imsglobal.org/spec/lti-ags/scope/score")
        if problem:
            return self._refuse(problem, 401)
        if request.headers.get("content-type") != "application/vnd.ims.lis.v1.score+json":
            return self._refuse("a score must be sent as application/vnd.ims.lis.v1.score+json", 415)
        item = f"{self.issuer}/courses/7/lineitems/{request.path_params['item']}"
        if item not in self.line_items:
            return self._refuse("no such line item", 404)
        try:
            score = json.loads(await request.body())
        except ValueError:
            return self._refuse("the score is not JSON")
        if score.get("userId") not in self.users:
            return self._refuse("userId must be a member of the course")
        given, maximum = score.get("scoreGiven"), score.get("scoreMaximum")
        if given is not None:
            if isinstance(given, bool) or not isinstance(given, (int, float)) or given < 0:
                return self._refuse("scoreGiven must be a number from 0")
            if isinstance(maximum, bool) or not isinstance(maximum, (int, float)) or maximum <= 0:
                return self._refuse("scoreMaximum must be a number above 0 when scoreGiven is given")
        if score.get("activityProgress") not in ("Initialized", "Started", "InProgress", "Submitted", "Completed"):
            return self._refuse("activityProgress must be one of the five the specification lists")
        if score.get("gradingProgress") not in ("FullyGraded", "Pending", "PendingManual", "Failed", "NotReady"):
            return self._refuse("gradingProgress must be one of the five the specification lists")
        try:
            moment = datetime.fromisoformat(str(score.get("timestamp")))
        except ValueError:
            return self._refuse("timestamp must be an ISO 8601 date and time")
        if moment.tzinfo is None or "." not in str(score["timestamp"]):
            return self._refuse("timestamp must carry sub-second precision and its time zone")
        earlier = [s for i, s in self.scores if i == item and s["userId"] == score["userId"]]
        if earlier and datetime.fromisoformat(earlier[-1]["timestamp"]) > moment:
            return self._refuse("timestamp is older than the last score taken for this user", 409)
        self.scores.append((item, score))
        return Response(status_code=204)

    async def deep_link_return(self, request: Request) -> Response:
        """Where the tool's deep-linking response is posted (Deep Linking 2.0 §4.5)."""
        form = {name: values[0] for name, values in parse_qs((await request.body()).decode()).items()}
        token = form.get("JWT")
        if not isinstance(token, str):
            return self._refuse("the response must be posted as the form field JWT")
        try:
            claims = jwt.decode(token, KeySet.import_key_set(self.tool_keys()), algorithms=["RS256"]).claims
        except JoseError as problem:
            return self._refuse(f"JWT: not signed by the tool's published key ({type(problem).__name__})")
        expected = {
            "iss": CLIENT_ID,
            "aud": self.issuer,
            LTI + "deployment_id": DEPLOYMENT,
            LTI + "message_type": "LtiDeepLinkingResponse",
            LTI + "version": "1.3.0",
            "https://purl.imsglobal.org/spec/lti-dl/claim/data": "platform-data-42",
        }
        for name, value in expected.items():
            if claims.get(name) != value:
                return self._refuse(f"JWT: {name} must be {value!r}, not {claims.get(name)!r}")
        if not isinstance(claims.get("nonce"), str) or not claims["nonce"]:
            return self._refuse("JWT: a nonce is required")
        if not isinstance(claims.get("exp"), int) or claims["exp"] <= time.time():
            return self._refuse("JWT: exp must be in the future")
        items = claims.get("https://purl.imsglobal.org/spec/lti-dl/claim/content_items")
        if not isinstance(items, list) or not items:
            return self._refuse("JWT: content_items must list what was chosen")
        for item in items:
            if item.get("type") not in ("ltiResourceLink", "link") or not item.get("title"):
                return self._refuse("JWT: each item needs a known type and a title")
            if (
                item["type"] == "ltiResourceLink"
                and urlsplit(item.get("url", "")).path != urlsplit(self.redirect_uri).path
            ):
                return self._refuse("JWT: a resource link's url must be the tool's launch URL")
        self.deep_link_returns.append(claims)
        return JSONResponse({"received": len(items)})

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/jwks", self.jwks),
                Route("/course/link", self.course_link),
                Route("/auth", self.authorize),
                Route("/token", self.token, methods=["POST"]),
                Route("/courses/7/members", self.members),
                Route("/deep-link-return", self.deep_link_return, methods=["POST"]),
                Route("/courses/7/lineitems", self.line_items_container, methods=["GET", "POST"]),
                Route("/courses/7/lineitems/{item:int}/scores", self.score, methods=["POST"]),
            ]
        )


def form_fields(page: str) -> tuple[str, dict[str, str]]:
    """A page's (first) form: its action and its fields."""
    action = re.search(r'<form method="post" action="([^"]+)"', page)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    assert action is not None, page[:500]
    return html.unescape(action[1]), {name: html.unescape(value) for name, value in fields.items()}
