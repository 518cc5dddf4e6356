"""`flask --app portal check`: every setting with its value, what is missing or unsafe,
and a try of the SMTP server; exits non-zero when production would not work.

A plugin command of the `flask` tool (see pyproject.toml), so it runs even when the
portal itself refuses to start for want of a setting: saying which is its job.
"""

from __future__ import annotations

import smtplib
import ssl
from typing import Any

import click

from content_model.fields import ContentError
from portal.core.settings import SETTINGS, Problem, problems, shown


def try_smtp(config: dict[str, Any]) -> Problem | None:
    """Connect, greet, start TLS and sign in as the portal would; None if all went well."""
    server, port = config["MAIL_SERVER"], int(config["MAIL_PORT"])
    if not server:
        return None
    kind = smtplib.SMTP_SSL if config["MAIL_USE_SSL"] else smtplib.SMTP
    try:
        with kind(server, port, timeout=float(config["MAIL_TIMEOUT"])) as smtp:
            smtp.ehlo()
            if config["MAIL_USE_TLS"]:
                smtp.starttls(context=ssl.create_default_context())
                smtp.ehlo()
            if config["MAIL_USERNAME"] and config["MAIL_PASSWORD"]:
                smtp.login(config["MAIL_USERNAME"], config["MAIL_PASSWORD"])
            smtp.noop()
    except (OSError, smtplib.SMTPException) as error:
        return Problem(
            "PORTAL_MAIL_SERVER",
            True,
            f"PORTAL_MAIL_SERVER {server}:{port} did not work: {type(error).__name__}: {error}",
        )
    return None


@click.command("check")
def check_command() -> None:
    """Print every PORTAL_* setting, what is missing or unsafe, and try the SMTP server."""
    from portal import create_app

    try:
        app = create_app(require_settings=False)
    except ContentError as error:  # the content checker's list: every problem of the pack
        click.echo(f"error: {error}", err=True)
        raise SystemExit(1) from None
    config = app.config
    # create_app fills in a random key for the process; what matters is the one given.
    made_up = app.extensions["secret_key_made_up"]
    given = dict(config, SECRET_KEY=None if made_up else config["SECRET_KEY"])
    width = max(len(s.variable) for s in SETTINGS)
    click.echo("Settings (PORTAL_* environment variables; defaults in portal/core/settings.py):")
    # Unset here, but taken from content/site.yaml: say what the portal will use.
    tiles = app.extensions["map_tiles"]
    from_content = {
        "MAP_TILE_URL": tiles.url if tiles else "none: no map is offered",
        "MAP_TILE_ATTRIBUTION": tiles.attribution if tiles else None,
    }
    for setting in SETTINGS:
        value = shown(setting, given.get(setting.name))
        if given.get(setting.name) is None and from_content.get(setting.name):
            value += f" -> content/site.yaml: {from_content[setting.name]}"
        click.echo(f"  {setting.variable:<{width}}  {value}")
    found = problems(given)
    smtp = try_smtp(given)
    if smtp:
        found.append(smtp)
    elif given["MAIL_SERVER"]:
        click.echo(f"\nSMTP: {given['MAIL_SERVER']}:{given['MAIL_PORT']} answered and accepted us.")
    fatal = [p for p in found if p.fatal]
    if found:
        click.echo("")
    for problem in found:
        click.echo(f"{'error' if problem.fatal else 'warning'}: {problem.text}")
    if fatal:
        click.echo(f"\nNot ready for production: {len(fatal)} error(s).")
        raise SystemExit(1)
    click.echo("\nReady for production" + (f" ({len(found)} warning(s))." if found else "."))
