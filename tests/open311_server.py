"""The portal under gunicorn for the Open311 tests (tests/test_open311.py and
test_open311_letter.py share one per run): a real SMTP server, rate limits on, and keys
issued in-process (the `flask open311 keys` commands are tested on their own)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

from crashload import Gunicorn, portal_env
from mailserver import MailServer, free_port

PUBLIC_URL = "https://portal.village.test"
FILE_LIMIT = 40  # POSTs a minute per key, refused ones too
# Each test's own keys where it spends or revokes one; test_open311_letter.py files as
# "letter-tester" where test_open311.py files as "tester", so neither spends the other's limit.
KEY_NAMES = (
    "tester",
    "burst",
    "leaver",
    "second",
    "lister",
    "checker-json",
    "checker-xml",
    "letter-tester",
)


def issue_keys(database: Path, names: tuple[str, ...]) -> dict[str, str]:
    """A key for each name, added to the database file as `flask open311 keys add` does."""
    from portal import create_app
    from portal.core.db import get_db
    from portal.open311.keys import add_key

    app = create_app({"TESTING": True, "DATABASE": str(database)})
    with app.app_context():
        return {name: add_key(get_db(), name) for name in names}


@contextmanager
def open311_portal(folder: Path) -> Iterator[SimpleNamespace]:
    """The portal under gunicorn (2 workers), its SMTP server, and the issued keys."""
    mail = MailServer().start()
    env = portal_env(folder) | {
        "PORTAL_MAIL_SERVER": "127.0.0.1",
        "PORTAL_MAIL_PORT": str(mail.port),
        "PORTAL_PUBLIC_URL": PUBLIC_URL,
        "PORTAL_RATELIMIT_ENABLED": "true",
        "PORTAL_OPEN311_FILE_RATE_LIMIT": f"{FILE_LIMIT} per minute",
        "PORTAL_OPEN311_READ_RATE_LIMIT": "1000 per minute",
        "PORTAL_REPORT_RATE_LIMIT": "1000 per minute",
    }
    database = folder / "portal.sqlite3"
    keys = issue_keys(database, KEY_NAMES)
    server = Gunicorn(free_port(), env, folder)
    try:
        server.start()
        server.wait_ready()
        yield SimpleNamespace(
            url=f"{server.url}/open311/v2",
            env=env,
            keys=keys,
            mail=mail,
            server=server,
            database=database,
        )
    finally:
        server.stop()
        mail.stop()
    assert "Traceback" not in server.log(tail=0), server.log()
