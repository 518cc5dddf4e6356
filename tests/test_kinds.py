"""A kind of case is one descriptor its package registers: a throwaway kind, added through the
registry alone (its table, its templates, its mail and status page beside it, no shared
module changed), is filed and then found everywhere a case goes."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from flask import Blueprint, redirect, render_template, url_for
from helpers import hidden_fields, sign_in
from jinja2 import ChoiceLoader, DictLoader
from sqlite_utils import Migrations
from wtforms import StringField, TextAreaField
from wtforms.validators import DataRequired

from portal import create_app
from portal.core import kinds
from portal.core.cases import new_submission_key
from portal.core.clock import local_now
from portal.core.db import get_db, transaction
from portal.core.kinds import Kind, KindError, UnknownKind
from portal.intake.forms import PublicForm
from portal.intake.storage import store_case
from portal.intake.submit import Submission
from portal.mail import outbox
from portal.web.routes import declare

own_migrations = Migrations("throwaway")


@own_migrations(name="001_throwaways")
def _table(db):
    db.execute(
        "CREATE TABLE IF NOT EXISTS throwaways (case_id INTEGER PRIMARY KEY REFERENCES cases (id),"
        " builder TEXT NOT NULL, what TEXT NOT NULL)"
    )


def _mail(db, case, token):
    outbox.enqueue(
        db,
        case_id=case["id"],
        purpose="smo",
        recipient="smo@village.test",
        subject=f"New erosion complaint {case['reference']}",
        text="See the queue.",
        html="<p>See the queue.</p>",
    )


def _status_page(db, case, token):
    details = db["throwaways"].get(case["id"])
    return render_template("throwaway_status.html", case=case, details=details)


TEMPLATES = {
    "throwaway_status.html": "<p>{{ case.reference }}: {{ details.what }}</p>",
    # Its staff partials, where every kind's are: staff/kinds/<key>_{case,print,queue}.html.
    "staff/kinds/throwaway_case.html": "<h2>Erosion</h2><p>Builder: {{ details.builder }}</p>",
    "staff/kinds/throwaway_print.html": "<p>Printed builder: {{ details.builder }}</p>",
    "staff/kinds/throwaway_queue.html": "Mud from {{ details.builder }}",
    "erosion.html": "{{ 'Expired. ' if expired }}<form>{{ form.csrf_token }}"
    "{{ form.submission_key }}{{ form.kept_photos }}{{ form.builder }}{{ form.what }}"
    "{% for field in form if field.errors %}{{ field.name }}: {{ field.errors[0] }} "
    "{% endfor %}</form>",
}

THROWAWAY = Kind(
    key="throwaway",
    prefix="CSC",
    table="throwaways",
    alias="t",
    label="Construction-site complaint",
    plural="Construction-site complaints",
    short="Erosion",
    statuses=("received", "investigating", "resolved"),
    rank=90,
    queue_mail=_mail,
    status_page=_status_page,
    export_columns=(("Builder or company", lambda row: row["builder"]),),
    search_columns=(("Builder or company", "builder"),),
    migrations=own_migrations,
    public_words=kinds.PublicWords(
        sent="This complaint was already sent.",
        sent_as="This complaint was already sent as %(reference)s, on %(when)s",
        nothing_new="No second complaint was made from it.",
        tell_more="Call %(office)s at %(number)s to add to it, or send a new complaint.",
        follow="Follow your complaint here.",
        another="Mud somewhere else?",
        start="Start a new complaint",
        form="erosion.form",
    ),
)


class ErosionForm(PublicForm):
    builder = StringField("Builder or company", validators=[DataRequired()])
    what = TextAreaField("What you saw", validators=[DataRequired()])


def _erosion_form() -> ErosionForm:
    return ErosionForm(clock=local_now)


def _redisplay(form, photos, expired=False):
    return render_template("erosion.html", form=form, expired=expired), 400 if expired else 422


# A public form of the throwaway kind, in the few lines the shared sending asks for.
EROSION = Submission(
    "throwaway",
    form=_erosion_form,
    redisplay=_redisplay,
    sent=lambda stored: redirect(url_for("status.show", token=stored.token), code=303),
)
erosion = Blueprint("erosion", __name__, url_prefix="/erosion")


@erosion.route("/", methods=["GET"])
def form():
    form = ErosionForm(formdata=None, clock=local_now)
    form.submission_key.data = new_submission_key()
    return render_template("erosion.html", form=form, expired=False)


@erosion.route("/", methods=["POST"])
@declare(on_expired=lambda: EROSION.expired())
def submit():
    case = {"service_code": "construction", "address": "12 Elm Street"}
    return EROSION.submit(
        lambda form: (case, {"builder": form.builder.data, "what": form.what.data})
    )


@pytest.fixture
def throwaway(tmp_path, build, mail_server):
    """The portal with the throwaway kind registered before it starts (as a package would)."""
    kinds.register(THROWAWAY)
    try:
        app = create_app(
            {
                "TESTING": True,
                "DATABASE": str(tmp_path / "portal.sqlite3"),
                "SITE_DIR": str(build),
                "MAIL_SERVER": "127.0.0.1",
                "MAIL_PORT": mail_server.port,
                "MAIL_TIMEOUT": 5,
                "SMO_EMAIL": "smo@village.test",
                "PUBLIC_URL": "https://portal.village.test",
                "RATELIMIT_ENABLED": False,
                "SESSION_COOKIE_SECURE": False,
            }
        )
        app.jinja_env.loader = ChoiceLoader([app.jinja_env.loader, DictLoader(TEMPLATES)])
        # As a package's init_*() would, before the app reads what its routes declare.
        app.register_blueprint(erosion)
        app.extensions.pop("declarations")
        yield app
    finally:
        kinds.unregister("throwaway")


def _file(app, builder="Hilltop Builders", what="Mud all over Elm Street"):
    with app.test_request_context():
        return store_case(
            get_db(),
            kind="throwaway",
            secret=app.secret_key,
            submission_key="k" * 24,
            case={"service_code": "construction", "address": "12 Elm Street"},
            details={"builder": builder, "what": what},
            photo_ids=[],
            now=dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.timezone(dt.timedelta(hours=-5))),
        )


def test_a_kind_added_through_the_registry_alone_is_filed_and_found_everywhere(
    throwaway, mail_server
):
    stored = _file(throwaway)
    assert stored.reference == "CSC-2026-0001"
    # Its mail goes out through the shared outbox and the courier, by its own descriptor.
    throwaway.extensions["courier"].kick()
    assert [m["Subject"] for m in mail_server.to("smo@village.test")] == [
        "New erosion complaint CSC-2026-0001"
    ]
    client = throwaway.test_client()
    # The public status page, by its token.
    assert "CSC-2026-0001: Mud all over Elm Street" in client.get(f"/status/{stored.token}/").text
    sign_in(client, throwaway)
    # The queue: its filter, its tag, its few words; the search finds its own field.
    queue = client.get("/staff/", query_string={"kind": "throwaway"}).text
    assert '<option value="throwaway" selected>Construction-site complaints</option>' in queue
    assert re.search(r">CSC-2026-0001</a> <span class=\"muted\">Erosion</span>", queue)
    assert "Mud from Hilltop Builders" in queue
    found = client.get("/staff/", query_string={"q": "hilltop"}).text
    assert ">CSC-2026-0001</a>" in found and "builder or company: “Hilltop Builders”" in found
    # The case page and its print.
    case = client.get(f"/staff/cases/{stored.case_id}/").text
    assert "Construction-site complaint" in case and "<p>Builder: Hilltop Builders</p>" in case
    printed = client.get(f"/staff/cases/{stored.case_id}/print").text
    assert "<p>Printed builder: Hilltop Builders</p>" in printed
    # Its statuses are its own: "Resolved" yes, "Allowed discharge" (a report's) no.
    assert '<option value="resolved">Resolved</option>' in case
    assert "Allowed discharge" not in case.split('id="update-heading"')[1]
    # The staff export: its own column, filled for it.
    csv = client.get(
        "/staff/exports/cases.csv", query_string={"start": "2026-12-01", "end": "2026-12-01"}
    ).text
    heading, line = csv.lstrip("\ufeff").splitlines()[:2]
    assert "Builder or company" in heading.split(",")
    assert line.startswith("CSC-2026-0001,Construction-site complaint,")
    assert "Hilltop Builders" in line


def test_a_kind_no_package_registered_is_refused_before_anything_is_stored(throwaway):
    with throwaway.test_request_context(), pytest.raises(UnknownKind):
        store_case(
            get_db(),
            kind="erosion",
            secret="s",
            submission_key="k" * 24,
            case={"service_code": "x", "address": "Elm"},
            details={},
            photo_ids=[],
            now=dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
        )
    with throwaway.app_context():
        assert get_db().execute("SELECT count(*) FROM cases").fetchone() == (0,)


def test_a_case_of_a_kind_no_longer_registered_fails_loudly_not_as_another_kind(throwaway):
    stored = _file(throwaway)
    kinds.unregister("throwaway")
    with pytest.raises(UnknownKind, match="no kind of case 'throwaway' is registered"):
        throwaway.test_client().get(f"/status/{stored.token}/")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"key": "report"}, "kind 'report' is registered already"),
        ({"prefix": "IDR"}, "prefix is kind 'report''s already"),
        ({"table": "notifications"}, "table is kind 'notification''s already"),
        ({"prefix": "csc"}, "prefix 'csc' must be 2 to 5 capitals"),
        ({"statuses": ("investigating",)}, "statuses must include 'received'"),
        ({"statuses": ("received", "lost")}, "unknown: ['lost']"),
        (
            {"export_columns": (("What was seen", lambda row: None),)},
            "export heading 'What was seen' is kind 'report''s already",
        ),
    ],
)
def test_a_kind_that_clashes_or_names_what_does_not_exist_fails_to_register(change, message):
    from dataclasses import replace

    with pytest.raises(KindError, match=re.escape(message)):
        kinds.register(replace(THROWAWAY, **change))
    assert "throwaway" not in {kind.key for kind in kinds.all_kinds()}


def test_the_built_in_kinds_are_registered_by_their_packages():
    assert [(k.key, k.prefix, k.table) for k in kinds.all_kinds()] == [
        ("report", "IDR", "reports"),
        ("notification", "REL", "notifications"),
        ("screening", "SCR", "screening_cases"),
        ("staff_found", "SF", "staff_findings"),
    ]


def test_a_kinds_table_and_search_fields_reach_a_file_made_before_it(tmp_path, build, mail_server):
    """A file made before the kind was added gets its table (its own migrations) and a search
    index that reads it, when the portal starts with the kind registered."""
    config = {"TESTING": True, "DATABASE": str(tmp_path / "portal.sqlite3"), "SITE_DIR": str(build)}
    create_app(config)
    kinds.register(THROWAWAY)
    try:
        app = create_app(config)
        stored = _file(app, builder="Ridge Excavating")
        with app.app_context(), transaction(get_db()) as db:
            found = db.execute("SELECT rowid FROM case_search WHERE case_search MATCH 'Ridge'")
            assert found.fetchall() == [(stored.case_id,)]
    finally:
        kinds.unregister("throwaway")


def test_the_staff_spreadsheet_has_no_heading_twice(app):
    from portal.staff.exports import csv_columns

    with app.app_context():  # the features' columns (track-down's) are the app's
        headings = [heading for heading, _ in csv_columns()]
    assert len(headings) == len(set(headings)) > 40
    assert "Discharge eliminated on" in headings


def test_a_new_public_form_sends_through_the_shared_steps_in_its_own_words(throwaway):
    """The form's errors, storing it once, the "already sent" page in its kind's words (not
    a report's), and the form again after its CSRF token expired, all from `Submission`."""
    client = throwaway.test_client()
    typed = {**hidden_fields(client.get("/erosion/").text), "builder": "Hilltop Builders"}
    missing = client.post("/erosion/", data=typed)
    assert missing.status_code == 422 and "what: This field is required." in missing.text
    sent = client.post("/erosion/", data={**typed, "what": "Mud on Elm Street"})
    assert sent.status_code == 303 and sent.headers["Location"].startswith("/status/")
    assert client.post("/erosion/", data={**typed, "what": "Mud on Elm Street"}).status_code == 303
    changed = client.post("/erosion/", data={**typed, "what": "Mud and gravel"})
    assert changed.status_code == 409
    page = " ".join(changed.text.split())
    assert 'This complaint was already sent as <strong class="reference-inline">CSC-' in page
    assert "No second complaint was made from it." in page
    assert '<a href="/erosion/">Start a new complaint</a>' in page
    assert f'href="{sent.headers["Location"]}"' in page
    assert "report" not in page.split("<main")[1].lower()
    with throwaway.app_context():
        assert get_db().execute("SELECT count(*) FROM cases").fetchone() == (1,)
    stale = client.post("/erosion/", data={**typed, "csrf_token": "stale", "what": "More mud"})
    assert stale.status_code == 400 and stale.text.startswith("Expired. ")
    assert "\r\nMore mud</textarea>" in stale.text, "what was typed, kept"
