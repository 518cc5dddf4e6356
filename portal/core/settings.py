"""Every `PORTAL_*` setting in one place: its default, what it is for, and what production needs.

`create_app` loads these defaults, then the `PORTAL_*` environment variables. Served from
the environment (gunicorn, the `flask` command), the portal refuses to start without the
settings production cannot do without (`require`); `flask --app portal check` prints
them all and says what is missing or unsafe (`problems`). The README's settings table
names exactly these (a test keeps the two in step).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

MB = 1024 * 1024
MAKE_A_KEY = "python3 -c 'import secrets; print(secrets.token_hex(32))'"
# Shorter than this (hex characters: 128 bits), a key could be guessed offline.
MIN_SECRET_KEY = 32


@dataclass(frozen=True)
class Setting:
    name: str  # the Flask config key; the environment variable is PORTAL_<name>
    default: Any  # or a function of the instance folder, for files kept there
    secret: bool = False  # never printed

    @property
    def variable(self) -> str:
        return f"PORTAL_{self.name}"


def _in_instance(name: str) -> Callable[[Path], str]:
    return lambda instance: str(instance / name)


SETTINGS: tuple[Setting, ...] = (
    # Signs sessions and derives status-link tokens: required, and kept across restarts.
    Setting("SECRET_KEY", None, secret=True),
    # The portal's public address; every link in mail is built on it. Required.
    Setting("PUBLIC_URL", None),
    Setting("DATABASE", _in_instance("portal.sqlite3")),
    Setting("CONTENT_DIR", None),
    # The frozen site to serve beside the portal (local runs only).
    Setting("SITE_DIR", None),
    Setting("SMO_EMAIL", None),
    Setting("MAIL_SERVER", None),
    Setting("MAIL_PORT", 25),
    Setting("MAIL_USE_TLS", False),
    Setting("MAIL_USE_SSL", False),
    Setting("MAIL_USERNAME", None),
    Setting("MAIL_PASSWORD", None, secret=True),
    Setting("MAIL_DEFAULT_SENDER", "no-reply@localhost"),
    Setting("MAIL_SUPPRESS_SEND", False),
    Setting("MAIL_TIMEOUT", 10),
    # Without a mail server, messages are written here (local runs).
    Setting("MAIL_FOLDER", _in_instance("mail")),
    # None: the tile source in content/site.yaml; "" (empty): no map at all.
    Setting("MAP_TILE_URL", None),
    Setting("MAP_TILE_ATTRIBUTION", None),
    Setting("MAP_LINK", "https://www.openstreetmap.org/?mlat={lat}&mlon={lon}#map=18/{lat}/{lon}"),
    # Three 10 MB photos rarely travel together; 25 MB keeps a hostile body small.
    Setting("MAX_CONTENT_LENGTH", 25 * MB),
    Setting("MAX_FORM_MEMORY_SIZE", 1 * MB),
    Setting("WTF_CSRF_TIME_LIMIT", 6 * 3600),
    # Reports (and release notifications) stored, per client, counted right before each is
    # stored: a form sent back to be corrected does not count (portal/web/limits.py spend()).
    Setting("REPORT_RATE_LIMIT", "30 per hour;6 per minute"),
    # Every try at those forms, corrections included.
    Setting("REPORT_TRY_RATE_LIMIT", "300 per hour;30 per minute"),
    Setting("STATUS_RATE_LIMIT", "120 per minute"),
    Setting("LOGIN_RATE_LIMIT", "10 per minute;40 per hour"),
    # Open311: reports filed per API key (or address), and reads per key or address.
    Setting("OPEN311_FILE_RATE_LIMIT", "200 per hour;20 per minute"),
    Setting("OPEN311_READ_RATE_LIMIT", "300 per minute"),
    # The public open-data file (/open-data/outfalls.geojson), per address.
    Setting("OPEN_DATA_RATE_LIMIT", "60 per minute"),
    Setting("RATELIMIT_ENABLED", True),
    # None: a SQLite file beside the database, shared by every worker (portal/web/limits.py).
    Setting("RATELIMIT_STORAGE_URI", None, secret=True),
    Setting("RATELIMIT_HEADERS_ENABLED", True),
    # How many proxies in front of the portal to trust for the client's address (ProxyFix).
    Setting("PROXY_HOPS", 0),
    Setting("SESSION_COOKIE_HTTPONLY", True),
    Setting("SESSION_COOKIE_SAMESITE", "Lax"),
    # None: Secure cookies whenever the public address is https.
    Setting("SESSION_COOKIE_SECURE", None),
    Setting("STAFF_IDLE_MINUTES", 30),
    # However active, a staff session ends this long after its sign-in.
    Setting("STAFF_SESSION_HOURS", 12),
    # Staff sign in with a one-time code as well as the password; off only for training.
    Setting("STAFF_TOTP", True),
)


def defaults(instance: Path) -> dict[str, Any]:
    """Every setting's default, with files placed in the instance folder."""
    return {s.name: s.default(instance) if callable(s.default) else s.default for s in SETTINGS}


class SettingsError(RuntimeError):
    """Production would not work with these settings (the message says how to fix it)."""


@dataclass(frozen=True)
class Problem:
    setting: str
    fatal: bool  # production would not work (else: it works, less safely)
    text: str


def problems(config: Mapping[str, Any]) -> list[Problem]:
    """What is missing or unsafe for production in a loaded configuration."""
    found = []

    def add(name: str, fatal: bool, text: str) -> None:
        found.append(Problem(f"PORTAL_{name}", fatal, f"PORTAL_{name} {text}"))

    key = config.get("SECRET_KEY")
    if not key:
        add(
            "SECRET_KEY",
            True,
            f"is not set: status links in mail are derived from it, so "
            f"set it once and keep it. Make one with: {MAKE_A_KEY}",
        )
    elif len(str(key)) < MIN_SECRET_KEY:
        add(
            "SECRET_KEY",
            True,
            f"is shorter than {MIN_SECRET_KEY} characters, "
            f"which can be guessed. Make one with: {MAKE_A_KEY}",
        )
    url = config.get("PUBLIC_URL")
    parts = urlsplit(str(url or ""))
    if not url:
        add(
            "PUBLIC_URL",
            True,
            "is not set: links in mail need the portal's public "
            "address, for example https://village.example.org",
        )
    elif parts.scheme not in ("http", "https") or not parts.netloc:
        add("PUBLIC_URL", True, f"is not an address like https://village.example.org: {url!r}")
    elif parts.scheme != "https":
        add("PUBLIC_URL", False, "is not https: cookies are sent unprotected")
    if not config.get("MAIL_SERVER"):
        add("MAIL_SERVER", True, f"is not set: mail is only written to {config.get('MAIL_FOLDER')}")
    if not config.get("SMO_EMAIL"):
        add("SMO_EMAIL", False, "is not set: new cases are not mailed to staff")
    if not config.get("STAFF_TOTP", True):
        add("STAFF_TOTP", False, "is false: staff sign in with a password alone (training only)")
    if config.get("SESSION_COOKIE_SECURE") is False and parts.scheme == "https":
        add("SESSION_COOKIE_SECURE", False, "is false on an https address")
    if str(config.get("RATELIMIT_STORAGE_URI", "")).startswith("memory:"):
        add(
            "RATELIMIT_STORAGE_URI",
            False,
            "is memory://: with several workers each counts "
            "alone, so the limits are that many times looser",
        )
    hops = config.get("PROXY_HOPS")
    if isinstance(hops, int) and not isinstance(hops, bool) and hops >= 1:
        add(
            "PROXY_HOPS",
            False,
            "is set: X-Forwarded-For is believed from whoever connects, "
            "so gunicorn must listen only where the proxy reaches it (--bind 127.0.0.1:...), "
            "or a client connecting directly picks its own address and escapes the rate "
            "limits",
        )
    if not config.get("RATELIMIT_ENABLED", True):
        add("RATELIMIT_ENABLED", False, "is false: no rate limits at all")
    folder = Path(str(config.get("DATABASE"))).resolve().parent
    if not _writable(folder):
        add("DATABASE", True, f"is in a folder the portal cannot create or write to: {folder}")
    return found


def _writable(folder: Path) -> bool:
    """The folder, or the nearest one above it that exists (the portal creates the rest)."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def require(config: Mapping[str, Any]) -> None:
    """Refuse to serve without what production cannot do without (not: merely unsafe)."""
    needed = [p for p in problems(config) if p.fatal and p.setting in REQUIRED]
    if needed:
        raise SettingsError(
            "the portal cannot start: "
            + "; ".join(p.text for p in needed)
            + ". Run `flask --app portal check` to see every setting."
        )


# Without these the portal refuses to start; the rest of `problems` only `check` reports.
REQUIRED = ("PORTAL_SECRET_KEY", "PORTAL_PUBLIC_URL")


def shown(setting: Setting, value: Any) -> str:
    """A value as `check` prints it: secrets masked, a password in a URL too."""
    if value is None or value == "":
        return "(not set)"
    if setting.secret:
        text = str(value)
        if "://" in text:  # a storage URI: only a password in it is secret
            return re.sub(r"(//[^/@:]*:)[^/@]*@", r"\1***@", text)
        return f"*** ({len(text)} characters)"
    return repr(value) if not isinstance(value, str) else value
