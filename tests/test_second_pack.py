"""A second municipality's pack (tests/packs/wrenfield: a Town, Chapter 147) runs the whole
site and portal, and nothing it produces shows the default one: not its name, its phones,
"Village" or Chapter 216. Every built page, public portal page, staff page, export and
mail sent through a real SMTP server is read."""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path

import pytest
from enforcement_helpers import enforcement_pages
from helpers import (
    built_pages,
    csrf_of,
    file_notification,
    jpeg,
    notification_data,
    open_form,
    parse_page,
    report_data,
    save_case,
    sign_in,
    start_notification,
)
from law_words import overclaims
from mailserver import MailServer, body
from nuchecker import html_errors
from pack_traces import PACK, PATTERNS, traces

from content_model.loader import load_content
from portal import create_app as create_portal
from portal.accounts.accounts import set_email
from portal.core.clock import local_now
from portal.core.db import get_db
from portal.digest.morning import queue_digests
from portal.mail.outbox import send_pending
from portal.open311.keys import add_key

PACK_CONTENT = load_content(PACK)
# A spot inside the Town's service area, and a caller who names the Town's clerk.
WHERE = {"latitude": "42.94010", "longitude": "-76.04100", "address": "Mill Road culvert"}
NOTIFICATION = notification_data(
    prior_notice_to="Town Clerk", latitude="42.9402", longitude="-76.0402"
)


def assert_clean(where: str, text: str) -> None:
    found = traces(text)
    assert not found, f"{where} shows the default municipality:\n" + "\n".join(found)


@pytest.fixture
def pack_build(town_build):
    return town_build


def pack_portal(folder: Path, site: Path, mail_server: MailServer):
    """The portal with the Town's pack, its database in `folder`, mail to `mail_server`."""
    return create_portal(
        {
            "TESTING": True,
            "CONTENT_DIR": str(PACK),
            "DATABASE": str(folder / "portal.sqlite3"),
            "SITE_DIR": str(site),
            "MAIL_SERVER": "127.0.0.1",
            "MAIL_PORT": mail_server.port,
            "MAIL_TIMEOUT": 5,
            "SMO_EMAIL": "smo@wrenfield.test",
            "PUBLIC_URL": "https://portal.wrenfield.test",
            "RATELIMIT_ENABLED": False,
            "SESSION_COOKIE_SECURE": False,
        }
    )


@pytest.fixture
def pack_app(tmp_path, pack_build, mail_server):
    return pack_portal(tmp_path, pack_build, mail_server)


@pytest.fixture(scope="module")
def walked(tmp_path_factory, town_build):
    """A report and a notification filed, a note sent, and every page that shows them:
    returns [(what, text)] of pages, exports and the mail actually delivered. Walked once
    for the module, on a portal of its own: its tests read what was shown and sent."""
    with MailServer().start() as mail_server:
        return walk(
            pack_portal(tmp_path_factory.mktemp("walked"), town_build, mail_server), mail_server
        )


def walk(pack_app, mail_server: MailServer) -> list[tuple[str, str]]:
    client = pack_app.test_client()
    seen: list[tuple[str, str]] = []

    def get(url: str) -> str:
        response = client.get(url)
        assert response.status_code == 200, f"{url}: HTTP {response.status_code}"
        seen.append((url, response.get_data(as_text=True)))
        return response.get_data(as_text=True)

    get("/report/")
    sent = client.post("/report/", data={**open_form(client), **report_data(**WHERE)})
    assert sent.status_code == 303, sent.text[:500]
    thanks = get(sent.headers["Location"])
    status_url = re.search(r"/status/[\w-]+/", thanks).group(0)
    get(status_url)
    # What a phone keeps: the installable app's name and the reports kept on it.
    for url in ("/report/manifest.webmanifest", "/report/mine/", f"{status_url}status.json"):
        get(url)
    # A form with mistakes shows its messages, which must not name the default either.
    bad = client.post("/report/", data={**open_form(client), **report_data(description="")})
    seen.append(("/report/ with errors", bad.get_data(as_text=True)))
    get("/notify/")
    triage = {name: NOTIFICATION[name] for name in ("danger", "hazardous", "petroleum")}
    seen.append(("/notify/ details", start_notification(client, triage).get_data(as_text=True)))
    review, final = file_notification(client, NOTIFICATION)
    assert final is not None and final.status_code == 303, review.text[:500]
    seen.append(("/notify/ review", review.get_data(as_text=True)))
    get(final.headers["Location"])
    seen.append(("a page that is not there", client.get("/no-such-page/").get_data(as_text=True)))

    # The Open311 API: every read in both formats, a report filed through it, its errors.
    with pack_app.app_context():
        key = add_key(get_db(), "county")
    service = PACK_CONTENT.open311.services[0].service_code
    filed = client.post(
        "/open311/v2/requests.xml",
        data={
            "api_key": key,
            "service_code": service,
            "lat": WHERE["latitude"],
            "long": WHERE["longitude"],
            "description": "Grey water from the culvert",
            "email": "api.resident@wrenfield.test",
            "attribute[observed_at]": "2026-11-02T10:00:00Z",
        },
    )
    assert filed.status_code == 200, filed.text
    reference = re.search(r"IDR-\d{4}-\d{4}", filed.text).group(0)
    seen.append(("/open311/v2/requests.xml POST", filed.text))
    for fmt in ("json", "xml"):
        for path in (
            "discovery",
            "services",
            f"services/{service}",
            "requests",
            f"requests/{reference}",
        ):
            get(f"/open311/v2/{path}.{fmt}")
        for path in ("tokens/x", "services/nothing", "requests/IDR-1999-0001"):
            seen.append((f"/open311/v2/{path}.{fmt}", client.get(f"/open311/v2/{path}.{fmt}").text))
        refused = client.post(
            f"/open311/v2/requests.{fmt}",
            data={"api_key": key, "service_code": service, "attribute[odor]": "roses"},
        )
        seen.append((f"/open311/v2/requests.{fmt} refused", refused.text))

    get("/staff/login")
    sign_in(client, pack_app)
    notice = {
        "csrf_token": csrf_of(get("/staff/phone-notices/new")),
        "told_at": "2026-11-02T10:00",
        "how": "phone",
        "facility_name": "Mill Road Garage",
        "caller_name": "Sam Lee",
        "caller_phone": "(555) 555-0100",
        "material": "Diesel",
        "hazardous": "yes",
    }
    assert client.post("/staff/phone-notices/new", data=notice).status_code == 303
    queue = get("/staff/")
    get("/staff/cases/3/")  # filed through the API: names its key
    for case in (1, 2):
        page = get(f"/staff/cases/{case}/")
        get(f"/staff/cases/{case}/map")
    # The officer's desk: one save (status, public note, assignment with its mail, a
    # follow-up already due, an internal note), a site visit, the printable cases.
    with pack_app.app_context():
        set_email(get_db(), "smo", "smo-officer@town.test")
    saved = save_case(
        client,
        1,
        status="referred",
        referred_agency="NYSDEC",
        public_note="A crew comes Monday.",
        assignee="smo",
        follow_up_on="2026-11-02",
        note="Called the owner.",
    )
    assert saved.status_code == 303
    visit = {
        "csrf_token": csrf_of(page),
        "visited_at": "2026-11-20T10:30",
        "inspector": "Jo",
        "findings": "Grey water at the culvert",
        "sampled": "no",
        "photos": [(io.BytesIO(jpeg((800, 600))), "site.jpg")],
    }
    response = client.post(
        "/staff/cases/1/inspections", data=visit, content_type="multipart/form-data"
    )
    assert response.status_code == 303
    for case in (1, 2):
        get(f"/staff/cases/{case}/print")
    get("/staff/cases/1/")
    # The enforcement half: a violation, a notice issued, appealed, upheld, abated and paid.
    for url, response in enforcement_pages(client, 1).items():
        assert response.status_code < 500, url
        seen.append((f"enforcement {url}", response.get_data(as_text=True)))
    get(status_url)
    get("/staff/?q=mill")
    # The morning digest: the follow-up and the enforcement dates, in one mail.
    opens = pack_app.extensions["content"].settings.office.opens
    with pack_app.test_request_context():
        now = dt.datetime.combine(dt.date(2026, 11, 30), opens, local_now().tzinfo)
        assert queue_digests(get_db(), now) == 1
        send_pending(get_db())
    span = "?start=2000-01-01&end=2099-12-31"
    for url in (
        "/staff/exports/",
        f"/staff/exports/cases.csv{span}",
        f"/staff/exports/cases.geojson{span}",
        "/staff/annual-report/",
        "/staff/map/",
        "/staff/map/frame",
        "/staff/outbox/",
    ):
        get(url)
    assert "IDR-" in queue and "REL-" in queue and "Mill Road Garage" in queue
    for message in mail_server.messages:
        for kind in ("plain", "html"):
            seen.append((f"mail {message['Subject']!r} ({kind})", body(message, kind)))
        seen.append(
            (f"mail {message['Subject']!r} headers", f"{message['From']} {message['Subject']}")
        )
    return seen


ROOT = Path(__file__).resolve().parent.parent
CODE = ("templates", "portal", "static_site", "content_model", "static/js", "static/css")
# In code, a section is cited through the ordinance's roles, never by a number of its own.
LITERAL_SECTION = re.compile(r"§\s*\d+-\d+")


def test_code_and_templates_name_no_municipality_and_no_section():
    """Not even in a comment: what is written there gets copied into what is shown."""
    patterns = {what: p for what, p in PATTERNS.items() if not what.startswith("kind")}
    patterns |= {"Village": re.compile(r"\bVillage\b"), "a section number": LITERAL_SECTION}
    found = []
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".html", ".txt", ".js", ".css"):
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found += [
                    f"{path.relative_to(ROOT)}:{n}: {what}: {line.strip()}"
                    for what, p in patterns.items()
                    if p.search(line)
                ]
    assert not found, "\n".join(found)


def test_the_pack_is_another_municipality():
    settings, ordinance = PACK_CONTENT.settings, PACK_CONTENT.ordinance
    assert (settings.kind, ordinance.chapter) == ("Town", "147")
    assert ordinance.roles["release_notification"] == "147-12"


def test_every_built_page_is_the_towns(pack_build):
    pages = built_pages(pack_build)
    assert len(pages) >= 15
    for page in pages:
        assert_clean(str(page.relative_to(pack_build)), page.read_text(encoding="utf-8"))
    home = (pack_build / "index.html").read_text(encoding="utf-8")
    assert "Town of Wrenfield" in home and "Chapter 147" in home
    assert 'id="sec-147-12"' in (pack_build / "ordinance" / "index.html").read_text()


def test_every_portal_page_export_and_mail_is_the_towns(walked):
    kinds = {what.split(" ")[0] for what, _ in walked}
    assert {"/report/", "/notify/", "/staff/", "mail", "/open311/v2/services.xml"} <= kinds
    mails = [what for what, _ in walked if what.startswith("mail")]
    # To the officer and the reporter for the report, the receipt and the officer's copy
    # for the notification, and the note: each as text and HTML (and its sender).
    assert len(mails) >= 5 * 3, mails
    for what, text in walked:
        assert_clean(what, text)


def test_the_portal_cites_the_towns_sections_and_speaks_of_the_town(walked):
    pages = dict(walked)
    receipt = next(text for what, text in walked if what.endswith("?filed=1"))
    assert "§ 147-12" in receipt and "Town of Wrenfield" in receipt
    assert "(315) 555-0142" in pages["/notify/"] or "(315) 555-0142" in receipt
    # The Town accepts the filing as the notice (its online_filing), unlike the default.
    assert "The Town accepts this filing as the notice § 147-12 requires" in receipt
    # The Town publishes a fax number, so fax is offered; and it accepts a signed printed
    # copy of the receipt as the written confirmation (its written_confirmation).
    assert "in person, by telephone or by fax" in pages["/notify/"]
    assert "(315) 555-0143" in pages["/notify/"]
    assert "accepts a printed copy of this receipt, signed and dated" in receipt


def test_the_towns_public_pages_and_mail_say_nothing_the_law_does_not(walked, pack_build):
    # The public's pages and mail (the staff pages' words on written confirmation are tested apart).
    public = [(what, text) for what, text in walked if not what.startswith("/staff/")]
    english = built_pages(pack_build, "en")
    public += [(str(page), page.read_text(encoding="utf-8")) for page in english]
    assert len(public) >= 20
    found = {
        what: problems for what, text in public if (problems := overclaims(text, "1-800-457-7362"))
    }
    assert not found, found


def test_the_towns_spanish_pages_name_the_hotline_with_the_whole_state_rule(pack_build):
    """The English check's words are English: in Spanish, the rule's own words."""
    rule = (
        "dentro de las dos horas siguientes al descubrimiento",
        "menos de 5 galones",
        "está contenido y bajo control",
        "no ha llegado ni llegará al agua ni a ningún terreno",
        "se limpia dentro de las dos horas",
        "en la cantidad que se debe reportar o más",
    )
    for url in ("index.html", "learn/motor-oil/index.html", "contact/index.html"):
        text = parse_page(pack_build / "es" / url).text
        assert "1-800-457-7362" in text
        for words in rule:
            assert words in text, (url, words)


def test_the_towns_english_guides_carry_the_villages_fixes(pack_build):
    """Round 6's legal read, section 6: the Town's guides and exempt page say what its law
    says, as the Village's were made to (seed 99, 101, 128, 148-153)."""

    def text(*parts: str) -> str:
        return parse_page(pack_build.joinpath(*parts, "index.html")).text

    rule = "§ 147-6 says no one may discharge, or cause to be discharged, anything but stormwater"
    guides = [page.slug for page in PACK_CONTENT.pages]
    said = [slug for slug in guides if rule in text("learn", slug)]
    assert len(said) == len(guides) - 1 and "pet-waste" not in said, said
    for slug in guides:
        assert "short list" not in text("learn", slug), slug
        assert "where it finds a problem" not in text("learn", slug), slug
    exempt = text("exempt-discharges")
    assert "Can I wash my own car in the driveway? Yes, as a rule." in exempt
    assert "or the Town determines it to be a substantial contributor of pollutants" in exempt
    cars = text("learn", "car-washing")
    assert "Our reading: a fundraiser car wash or a business that washes vehicles" in cars
    assert "§ 147-11 requires the owner or operator of a commercial or industrial" in cars
    assert "lets the Town require businesses" not in cars
    oil = text("learn", "motor-oil")
    assert (
        "Small spill (known to be under 5 gallons, contained and under control, and not"
        " reaching water or any land such as soil): soak it up with cat litter or rags within"
        " two hours."
    ) in oil
    assert (
        "Emergency responders must be told immediately of a release of hazardous materials that"
        " is reaching, or may reach, the storm sewer system."
    ) in oil
    assert "any release of hazardous materials" not in oil
    soil = text("learn", "soil-and-sediment")
    assert "anyone subject to a State industrial or construction stormwater permit" in soil
    assert "before it allows discharges to the storm sewer system" in soil
    assert "at the owner's expense" not in soil and "at their own expense" in soil


def test_the_portal_counts_business_days_by_the_towns_rules(pack_app, walked):
    calendar = pack_app.extensions["calendar"]
    # 2026-11-27, the day after Thanksgiving, is a closure of the Town's only.
    assert not calendar.is_business_day(dt.date(2026, 11, 27))
    assert calendar.is_business_day(dt.date(2026, 10, 12)), "no Columbus Day in the Town"
    # Independence Day 2026 is a Saturday: the Town keeps it on Friday, July 3.
    assert not calendar.is_business_day(dt.date(2026, 7, 3))
    # And the page that explains the count says so, with the Town's closing time.
    text = " ".join(dict(walked)["/notify/"].split())
    assert (
        "a holiday on a Sunday is kept on the Monday, a holiday on a Saturday is kept on "
        "the Friday before" in text
    )
    assert "the days the Town office announces it is closed" in text and "3:30" in text


def test_the_towns_pages_are_valid_html(walked, pack_build, tmp_path):
    """The Nu HTML Checker on the pack's built pages and every portal page walked."""
    pages = built_pages(pack_build)
    documents = [text for _, text in walked if text.lstrip().lower().startswith("<!doctype html")]
    assert len(documents) >= 15
    for i, text in enumerate(documents):
        path = tmp_path / f"portal-{i}.html"
        path.write_text(text, encoding="utf-8")
        pages.append(path)
    assert html_errors(pages, tmp_path) == []
