"""``class lti ...``: the classroom server as an LTI 1.3 tool of a learning platform (Moodle, Canvas).

``setup`` prints what a platform's administrator enters (and the JSON a Canvas administrator pastes); ``add``
registers the platform with the values the platform then shows; ``list`` and ``remove`` show and forget
registrations; ``rotate-key`` makes a new signing key (the old one stays published for a day).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

#: What creates the database when it is missing (the others only read or change what is there).
LTI_CREATING = ("add", "rotate-key")


def add_lti_command(what: Any) -> list[argparse.ArgumentParser]:
    """The ``class lti`` command; the subcommands that open the database (each gets ``--database``)."""
    lti = what.add_parser(
        "lti",
        help="the server as an LTI 1.3 tool of Moodle or Canvas: setup, add, list, remove, rotate-key",
        description="Learning platforms (Moodle 4, Canvas) launch the classroom server as an LTI 1.3 tool: the\n"
        "platform says who the student is and takes the homework's grades. First `class lti setup\n"
        "--address https://...` prints what the platform's administrator enters; then `class lti add`\n"
        "registers the values the platform shows back (TEACHERS_GUIDE.md, step by step).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    how = lti.add_subparsers(dest="lti_command", title="what to do", metavar="WHAT")
    setup = how.add_parser("setup", help="print what a Moodle or Canvas administrator enters for this tool")
    setup.add_argument(
        "--address",
        required=True,
        metavar="URL",
        help="the server's public https address, as the platform reaches it (e.g. https://class.cs.example.edu)",
    )
    add = how.add_parser("add", help="register a platform with the values it shows for this tool")
    add.add_argument("--issuer", required=True, metavar="URL", help="the platform's issuer (Moodle: Platform ID)")
    add.add_argument("--client-id", required=True, metavar="ID", help="this tool's client id on the platform")
    add.add_argument(
        "--login-url", required=True, metavar="URL", help="the platform's authentication request URL (OIDC)"
    )
    add.add_argument("--token-url", required=True, metavar="URL", help="the platform's access token URL")
    add.add_argument("--jwks-url", required=True, metavar="URL", help="the platform's public keyset URL")
    add.add_argument(
        "--deployment",
        required=True,
        action="append",
        metavar="ID",
        help="a deployment id the platform launches from (give it again for several)",
    )
    listing = how.add_parser("list", help="the registered platforms")
    remove = how.add_parser("remove", help="forget a platform (its links stop opening sessions)")
    remove.add_argument("platform", type=int, help="the platform's number (class lti list shows them)")
    rotate = how.add_parser("rotate-key", help="a new signing key for the tool (the old one stays published a day)")
    return [add, listing, remove, rotate]


def run_lti(args: argparse.Namespace, store: Any) -> None:
    """Run ``class lti ...`` on ``store``."""
    if args.lti_command is None:
        raise ValueError("choose what to do: class lti setup, add, list, remove or rotate-key")
    if args.lti_command == "setup":
        print(setup_text(args.address))
    elif args.lti_command == "add":
        platform = store.add_platform(
            args.issuer, args.client_id, args.login_url, args.token_url, args.jwks_url, args.deployment
        )
        print(
            f"Platform {platform.id}: {platform.issuer} (client id {platform.client_id}; deployments "
            f"{', '.join(platform.deployments)}) is registered: its course links can launch this server."
        )
    elif args.lti_command == "list":
        for platform in store.platforms():
            print(
                f"{platform.id:>4}  {platform.issuer}  client id {platform.client_id}  deployments "
                f"{', '.join(platform.deployments)}"
            )
    elif args.lti_command == "remove":
        store.remove_platform(args.platform)
        print(f"Platform {args.platform} removed.")
    elif args.lti_command == "rotate-key":
        key = store.rotate_key()
        print(f"New signing key {key.kid}; the one before it stays published for a day.")


def _base(address: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    if parts.scheme != "https" or not parts.hostname or parts.path not in ("", "/") or parts.query:
        raise ValueError(
            f"--address: the server's https address alone, like https://class.cs.example.edu, not {address[:80]!r}"
        )
    return address.rstrip("/")


def setup_text(address: str) -> str:
    """What a Moodle administrator enters for the tool, and the developer key JSON a Canvas administrator pastes."""
    from bleu_teach.classroom.app import url_path
    from bleu_teach.classroom.lti import SCOPE_LINE_ITEM, SCOPE_MEMBERSHIP, SCOPE_SCORE

    base = _base(address)
    launch, login, jwks = (base + url_path(name) for name in ("lti_launch", "lti_login", "lti_jwks"))
    canvas = {
        "title": "bleu-teach",
        "description": "Learn, teach and demonstrate the BLEU metric: live class, polls and homework",
        "oidc_initiation_url": login,
        "target_link_uri": launch,
        "public_jwk_url": jwks,
        "scopes": [
            SCOPE_LINE_ITEM,
            "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
            SCOPE_SCORE,
            SCOPE_MEMBERSHIP,
        ],
        "extensions": [
            {
                "platform": "canvas.instructure.com",
                "privacy_level": "public",
                "settings": {
                    "placements": [
                        {
                            "placement": "link_selection",
                            "message_type": "LtiDeepLinkingRequest",
                            "target_link_uri": launch,
                        },
                        {
                            "placement": "assignment_selection",
                            "message_type": "LtiDeepLinkingRequest",
                            "target_link_uri": launch,
                        },
                    ]
                },
            }
        ],
        "custom_fields": {},
    }
    return (
        "Moodle 4 (Site administration > Plugins > Activity modules > External tool > Manage tools >\n"
        "configure a tool manually):\n"
        f"  Tool URL:                 {launch}\n"
        "  LTI version:              LTI 1.3\n"
        "  Public key type:          Keyset URL\n"
        f"  Public keyset:            {jwks}\n"
        f"  Initiate login URL:       {login}\n"
        f"  Redirection URI(s):       {launch}\n"
        "  Supports Deep Linking:    yes\n"
        f"  Content Selection URL:    {launch}\n"
        "  Default launch container: New window\n"
        "  Services: IMS LTI Assignment and Grade Services: use this service for grade sync and column\n"
        "            management; IMS LTI Names and Role Provisioning: use this service to retrieve members'\n"
        "            information as per privacy settings\n"
        "  Tool configuration usage: Show in activity chooser and as a preconfigured tool\n"
        "  Privacy:  share launcher's name with tool: Always; accept grades from the tool: Always\n"
        "Then open the tool's configuration details and register what it shows:\n"
        "  class lti add --issuer PLATFORM_ID --client-id CLIENT_ID --deployment DEPLOYMENT_ID \\\n"
        "    --login-url AUTHENTICATION_REQUEST_URL --token-url ACCESS_TOKEN_URL --jwks-url PUBLIC_KEYSET_URL\n"
        "\n"
        "Canvas (Admin > your account > Developer Keys > + Developer Key > LTI Key > Method: Paste JSON):\n"
        f"{json.dumps(canvas, indent=2)}\n"
        "Then turn the key on, add the app to the account or course by its client id, and register (graded\n"
        "homework: an assignment, External Tool > Find, with Load This Tool In A New Tab ticked):\n"
        "  class lti add --issuer https://canvas.instructure.com --client-id CLIENT_ID \\\n"
        "    --deployment DEPLOYMENT_ID --login-url https://sso.canvaslms.com/api/lti/authorize_redirect \\\n"
        "    --token-url https://YOUR-CANVAS/login/oauth2/token --jwks-url https://sso.canvaslms.com/api/lti/security/jwks"
    )
