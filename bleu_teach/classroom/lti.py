"""LTI 1.3 (LTI Advantage): what a learning platform (Moodle, Canvas) and this tool say to each other, checked.

Pure functions and small records, no I/O: the routes (:mod:`~bleu_teach.classroom.lti_routes`) and the services'
client (:mod:`~bleu_teach.classroom.lti_services`) hand them what came in, and the store keeps what must outlive
a request. JOSE (signatures, keys, the registered claims) is joserfc's; what is checked here is what the IMS
specifications add on top of it:

* LTI Core 1.3 (§5.1, §5.3, §5.4: the message's claims) and the IMS Security Framework 1.0 (§5.1.1: the OIDC
  third-party login; §5.1.3: validating the id_token; §4.1: the tool's client-credentials assertion);
* Deep Linking 2.0 (§4.4, §4.5: the request's settings and the tool's response).

Every refusal is a :class:`LaunchRefused` whose message says, in plain words, what was wrong.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from joserfc import jwt
from joserfc.errors import (
    BadSignatureError,
    ExpiredTokenError,
    InvalidClaimError,
    InvalidKeyIdError,
    JoseError,
    MissingClaimError,
    UnsupportedAlgorithmError,
)
from joserfc.jwk import KeySet, RSAKey
from joserfc.jws import extract_compact

#: The claims' names (LTI Core 1.3 §5.3, §5.4; NRPS 2.0 §3.6.1.1; AGS 2.0 §3.1; Deep Linking 2.0 §4.4).
LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = LTI + "message_type"
VERSION = LTI + "version"
DEPLOYMENT_ID = LTI + "deployment_id"
TARGET_LINK_URI = LTI + "target_link_uri"
RESOURCE_LINK = LTI + "resource_link"
ROLES = LTI + "roles"
CONTEXT = LTI + "context"
CUSTOM = LTI + "custom"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
DEEP_LINKING_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
DEEP_LINKING_DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data"

RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest"
DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest"
DEEP_LINKING_RESPONSE = "LtiDeepLinkingResponse"

#: The scopes this tool asks for (NRPS 2.0 §3.6.1.2, AGS 2.0 §3.1).
SCOPE_MEMBERSHIP = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
SCOPE_LINE_ITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCOPE_SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"

#: The roles (LTI Core 1.3 Appendix A.2: context roles, full URIs): who teaches and who learns in the course.
MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
TEACHING_ROLES = frozenset({MEMBERSHIP + "Instructor", MEMBERSHIP + "Administrator"})
LEARNING_ROLES = frozenset({MEMBERSHIP + "Learner"})

#: Clock skew allowed between the platform and this server (Security Framework §5.1.3: "a few minutes" at most).
LEEWAY = 60
#: How long a login's state waits for its launch, and how long an id_token may be at most (its ``iat`` to now).
STATE_SECONDS = 600
ALGORITHM = "RS256"  # the one algorithm LTI 1.3 requires (Security Framework §6.1)


class LaunchRefused(ValueError):
    """A login, launch or service message this tool will not act on; the message says why; ``status``: 403 where
    the user may not do what the launch asks, 400 where the launch itself is wrong."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Platform:
    """A learning platform as its administrator registered it with this tool (``class lti add``)."""

    id: int
    issuer: str
    client_id: str
    login_url: str  # its OIDC authorization endpoint (where the login is sent on)
    token_url: str  # its OAuth 2 token endpoint (the services' access tokens)
    jwks_url: str  # its public keys
    deployments: tuple[str, ...]  # the deployment ids it may launch from

    def owns(self, url: str) -> bool:
        """Whether ``url`` is on one of this platform's own origins (scheme, host and port of its issuer or of an
        endpoint its administrator registered): where its service endpoints may be."""
        return _origin(url) in {_origin(u) for u in (self.issuer, self.login_url, self.token_url, self.jwks_url)}


@dataclass(frozen=True)
class Launch:
    """A launch the tool checked: who, in which course and link, as what, and the services the platform offers."""

    platform: Platform
    deployment_id: str
    message_type: str
    subject: str  # the platform's stable id of the user ("sub")
    name: str  # as the platform gives it ("name", else given and family names), "" if it gives none
    email: str
    teaching: bool
    context_id: str
    context_title: str
    resource_link_id: str  # "" for a deep-linking request
    resource_link_title: str
    custom: Mapping[str, str]
    memberships_url: str  # NRPS, "" if not offered
    line_items_url: str  # AGS, "" if not offered
    line_item_url: str  # AGS: the link's own line item, "" if none
    scopes: tuple[str, ...]  # AGS scopes the platform grants
    deep_linking: Mapping[str, Any] = field(default_factory=dict)  # the request's settings (deep linking only)


def _origin(url: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(url)
        port = parts.port or {"https": 443, "http": 80}.get(parts.scheme, 0)
    except ValueError:
        return None
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.username or parts.password:
        return None
    return parts.scheme, parts.hostname, port


def new_state() -> tuple[str, str]:
    """A login's ``state`` and ``nonce`` (Security Framework §5.1.1.2): unguessable, each used once."""
    return secrets.token_urlsafe(32), secrets.token_urlsafe(32)


def login_redirect(
    platform: Platform, redirect_uri: str, login_hint: str, message_hint: str | None, state: str, nonce: str
) -> str:
    """Where the browser is sent to authenticate (Security Framework §5.1.1.2: the authentication request)."""
    from urllib.parse import urlencode

    query = {
        "scope": "openid",
        "response_type": "id_token",
        "response_mode": "form_post",
        "prompt": "none",
        "client_id": platform.client_id,
        "redirect_uri": redirect_uri,
        "login_hint": login_hint,
        "state": state,
        "nonce": nonce,
    }
    if message_hint is not None:
        query["lti_message_hint"] = message_hint
    joiner = "&" if urlsplit(platform.login_url).query else "?"
    return platform.login_url + joiner + urlencode(query)


def unverified_header(token: str) -> dict[str, Any]:
    """The JOSE header of ``token``, read but not trusted (to find which key the platform signed with)."""
    if not isinstance(token, str) or token.count(".") != 2 or len(token) > 20_000:
        raise LaunchRefused("id_token: not a signed JWT (three parts separated by dots).")
    try:
        return dict(extract_compact(token.encode("ascii")).headers())
    except (JoseError, ValueError, UnicodeError):
        raise LaunchRefused("id_token: its header cannot be read; it is not a signed JWT.") from None


def _text(claims: Mapping[str, Any], name: str, what: str, required: bool = True, most: int = 1000) -> str:
    value = claims.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value or len(value) > most:
        raise LaunchRefused(f"id_token: {what} ({name.rsplit('/', 1)[-1]}) is missing or not a short text.")
    return value


def read_launch(token: str, platform: Platform, keys: KeySet, nonce: str, now: float | None = None) -> Launch:
    """Check ``token`` (the id_token the platform posted) against ``platform``, its public ``keys`` and the
    ``nonce`` its login was given, and read it (Security Framework §5.1.3; LTI Core §5.3, §5.4; Deep Linking
    §4.4). The caller keeps the nonce from being used twice. :class:`LaunchRefused` says what was wrong."""
    header = unverified_header(token)
    if header.get("alg") != ALGORITHM:
        raise LaunchRefused(
            f"id_token: signed with {str(header.get('alg'))[:20]!r}; LTI 1.3 launches are signed with RS256."
        )
    moment = int(time.time() if now is None else now)
    try:
        decoded = jwt.decode(token, keys, algorithms=[ALGORITHM])
    except InvalidKeyIdError:
        raise LaunchRefused(
            f"id_token: signed with a key ({str(header.get('kid'))[:80]!r}) the platform {platform.issuer} does "
            "not publish."
        ) from None
    except UnsupportedAlgorithmError:
        raise LaunchRefused("id_token: not signed with RS256.") from None
    except BadSignatureError:
        raise LaunchRefused(f"id_token: its signature is not the platform's ({platform.issuer}).") from None
    except JoseError as problem:
        raise LaunchRefused(f"id_token: it cannot be read ({type(problem).__name__}).") from None
    claims = decoded.claims
    registry = jwt.JWTClaimsRegistry(
        now=moment,
        leeway=LEEWAY,
        iss={"essential": True, "value": platform.issuer},
        aud={"essential": True, "value": platform.client_id},
        exp={"essential": True},
        iat={"essential": True},
        nonce={"essential": True, "value": nonce},
        sub={"essential": False},
    )
    try:
        registry.validate(claims)
    except ExpiredTokenError:
        raise LaunchRefused("id_token: it has expired; launch again from the course page.") from None
    except MissingClaimError as problem:
        raise LaunchRefused(f"id_token: a claim it must carry is missing ({problem.claim}).") from None
    except InvalidClaimError as problem:
        said = {
            "iss": f"it was issued by another platform than {platform.issuer}",
            "aud": f"it is meant for another tool than this one (client id {platform.client_id})",
            "nonce": "it does not answer this browser's login (its nonce)",
            "iat": "it was issued in the future (check both clocks)",
            "exp": "its expiry time is not a time",
        }
        raise LaunchRefused(f"id_token: {said.get(problem.claim, f'its {problem.claim} claim is wrong')}.") from None
    if moment - claims["iat"] > STATE_SECONDS + LEEWAY:
        raise LaunchRefused("id_token: it was issued too long ago; launch again from the course page.")
    audience = claims["aud"]
    if isinstance(audience, list) and len(audience) > 1 and claims.get("azp") != platform.client_id:
        raise LaunchRefused("id_token: it names several audiences and its azp is not this tool's client id.")
    if "azp" in claims and claims["azp"] != platform.client_id:
        raise LaunchRefused("id_token: its azp (authorized party) is not this tool's client id.")
    message_type = _text(claims, MESSAGE_TYPE, "the message type")
    if message_type not in (RESOURCE_LINK_REQUEST, DEEP_LINKING_REQUEST):
        raise LaunchRefused(
            f"id_token: this tool takes resource-link and deep-linking launches, not {message_type[:60]!r}."
        )
    if claims.get(VERSION) != "1.3.0":
        raise LaunchRefused("id_token: its LTI version is not 1.3.0.")
    deployment = _text(claims, DEPLOYMENT_ID, "the deployment id", most=255)
    if deployment not in platform.deployments:
        raise LaunchRefused(
            f"id_token: it comes from a deployment ({deployment[:80]!r}) not registered for {platform.issuer}; "
            "the administrator adds it with class lti add."
        )
    subject = _text(claims, "sub", "the user's id", most=255)
    roles = claims.get(ROLES)
    if not isinstance(roles, list) or not all(isinstance(role, str) for role in roles):
        raise LaunchRefused("id_token: its roles claim is missing or not a list of roles.")
    teaching = bool(TEACHING_ROLES.intersection(roles))
    if not teaching and not LEARNING_ROLES.intersection(roles):
        raise LaunchRefused(
            "id_token: the platform gave this user neither a learner's nor an instructor's role here.", 403
        )
    context = claims.get(CONTEXT) or {}
    link = claims.get(RESOURCE_LINK) or {}
    custom = claims.get(CUSTOM) or {}
    if not isinstance(context, dict) or not isinstance(link, dict) or not isinstance(custom, dict):
        raise LaunchRefused("id_token: its context, resource link or custom claim is not an object.")
    if not (isinstance(context.get("id"), str) and context["id"]):
        # LTI Core §5.4.1 leaves the context out of launches from outside a course; the sessions chosen for a
        # course are kept by its id, so such a launch could reach another place's sessions.
        raise LaunchRefused("id_token: a launch from outside a course (no context); open the link from a course.")
    if message_type == RESOURCE_LINK_REQUEST and not (isinstance(link.get("id"), str) and link["id"]):
        raise LaunchRefused("id_token: a resource-link launch without its resource link's id.")
    settings: dict[str, Any] = {}
    if message_type == DEEP_LINKING_REQUEST:
        if not teaching:
            raise LaunchRefused("Only the course's teachers choose what a link opens (deep linking).", 403)
        settings = claims.get(DEEP_LINKING_SETTINGS) or {}
        if not isinstance(settings, dict) or not isinstance(settings.get("deep_link_return_url"), str):
            raise LaunchRefused("id_token: a deep-linking request without its return address.")
        if not platform.owns(settings["deep_link_return_url"]):
            raise LaunchRefused("id_token: its deep-linking return address is not on the platform's host.")
    services = _services(claims, platform)
    name = claims.get("name") or " ".join(str(claims.get(part) or "") for part in ("given_name", "family_name"))
    return Launch(
        platform=platform,
        deployment_id=deployment,
        message_type=message_type,
        subject=subject,
        name=" ".join(str(name).split())[:200],
        email=str(claims.get("email") or "")[:200],
        teaching=teaching,
        context_id=str(context.get("id") or "")[:255],
        context_title=str(context.get("title") or context.get("label") or "")[:200],
        resource_link_id=str(link.get("id") or "")[:255],
        resource_link_title=str(link.get("title") or "")[:200],
        custom={str(k)[:100]: str(v)[:1000] for k, v in list(custom.items())[:50]},
        deep_linking=settings,
        **services,
    )


def _services(claims: Mapping[str, Any], platform: Platform) -> dict[str, Any]:
    """The NRPS and AGS endpoints the launch offers, each on the platform's own host (or the launch is refused:
    this tool never sends a token or a grade to an address the platform's host does not serve)."""
    nrps = claims.get(NRPS) or {}
    ags = claims.get(AGS) or {}
    if not isinstance(nrps, dict) or not isinstance(ags, dict):
        raise LaunchRefused("id_token: its names-and-roles or grades claim is not an object.")
    found = {
        "memberships_url": nrps.get("context_memberships_url") or "",
        "line_items_url": ags.get("lineitems") or "",
        "line_item_url": ags.get("lineitem") or "",
    }
    for what, url in found.items():
        if not isinstance(url, str) or (url and not platform.owns(url)):
            raise LaunchRefused(
                f"id_token: its {what.replace('_', ' ')[:-4]} address is not on the platform's host "
                f"({urlsplit(str(url)).hostname or url!s:.80}); no grade or token is sent there."
            )
    scopes = ags.get("scope") or []
    if not isinstance(scopes, list) or not all(isinstance(s, str) for s in scopes):
        raise LaunchRefused("id_token: its grades claim's scope is not a list.")
    return {**found, "scopes": tuple(scopes)}


def client_assertion(platform: Platform, key: RSAKey, now: float | None = None) -> str:
    """The tool's signed request for an access token (Security Framework §4.1.1: a JWT with the tool's client id as
    issuer and subject, the token endpoint as audience, a short life and a one-time id)."""
    moment = int(time.time() if now is None else now)
    claims = {
        "iss": platform.client_id,
        "sub": platform.client_id,
        "aud": platform.token_url,
        "iat": moment,
        "exp": moment + 300,
        "jti": secrets.token_urlsafe(24),
    }
    return jwt.encode({"alg": ALGORITHM, "kid": key.kid, "typ": "JWT"}, claims, key, algorithms=[ALGORITHM])


def deep_linking_response(
    launch: Launch, key: RSAKey, items: Sequence[Mapping[str, Any]], now: float | None = None
) -> str:
    """The tool's answer to a deep-linking request (Deep Linking 2.0 §4.5): the chosen items, signed by the tool,
    for the browser to post back to the platform's return address."""
    moment = int(time.time() if now is None else now)
    claims: dict[str, Any] = {
        "iss": launch.platform.client_id,
        "aud": launch.platform.issuer,
        "iat": moment,
        "exp": moment + 600,
        "nonce": secrets.token_urlsafe(24),
        DEPLOYMENT_ID: launch.deployment_id,
        MESSAGE_TYPE: DEEP_LINKING_RESPONSE,
        VERSION: "1.3.0",
        CONTENT_ITEMS: list(items),
    }
    if "data" in launch.deep_linking:
        claims[DEEP_LINKING_DATA] = launch.deep_linking["data"]
    return jwt.encode({"alg": ALGORITHM, "kid": key.kid, "typ": "JWT"}, claims, key, algorithms=[ALGORITHM])


def new_key() -> RSAKey:
    """A new RSA key for the tool (2048 bits), with a random key id."""
    key: RSAKey = RSAKey.generate_key(2048, {"kid": secrets.token_urlsafe(12), "use": "sig", "alg": ALGORITHM})
    return key


def public_keys(keys: Sequence[RSAKey]) -> dict[str, Any]:
    """The tool's JWKS: the public halves of ``keys`` (the current one and those still published)."""
    return {"keys": [key.as_dict(private=False) for key in keys]}
