"""The release notification (the ordinance's release notification section): its pages (views),
forms, choices and record."""

from __future__ import annotations

from flask import Flask

# kind registers the kind of case; phone_notices adds the notices staff log to the workspace's
# pages (/staff/phone-notices/), on its blueprint, so before init_staff registers it.
from portal.notification import kind, phone_notices, views  # noqa: F401
from portal.notification.deadlines import holidays_counted
from portal.notification.duties import (
    emergency_call_outstanding,
    may_reach_system,
    record_words,
    still_to_do,
)
from portal.notification.figures import init_figures
from portal.notification.records import record_duty, state_call_missing


def init_notification(app: Flask) -> None:
    app.register_blueprint(views.bp)
    init_figures(app)
    app.jinja_env.globals["record_duty"] = record_duty
    app.jinja_env.globals["holidays_counted"] = holidays_counted
    app.jinja_env.globals["state_call_missing"] = state_call_missing
    # What the section still asks of a filer: one answer for the review, the receipt, the
    # case page and the mail (notification/duties.py).
    app.jinja_env.globals["still_to_do"] = still_to_do
    app.jinja_env.globals["emergency_call_outstanding"] = emergency_call_outstanding
    app.jinja_env.globals["may_reach_system"] = may_reach_system
    app.jinja_env.globals["record_words"] = record_words
    # The workspace's queue lists the notices waiting for their letter (its partial:
    # templates/staff/notification/_queue_notices.html).
    app.jinja_env.globals["phone_notices_waiting"] = phone_notices.waiting_now
    app.jinja_env.globals["notice_how_words"] = phone_notices.HOW_WORDS
