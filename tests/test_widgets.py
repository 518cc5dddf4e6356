"""The portal's faster form attributes write exactly what WTForms writes."""

from __future__ import annotations

import pytest
import wtforms.widgets.core as core
from helpers import report_data
from markupsafe import Markup

from portal.intake import widgets


@pytest.mark.parametrize(
    "attributes",
    [
        {},
        {"id": "description", "name": "description", "type": "text", "value": ""},
        {"checked": True, "readonly": False, "required": True, "value": "suds"},
        {"class_": "wide", "for_": "x", "data_exempt_url": "/a?b=1&c=2", "aria_describedby": "h e"},
        {"value": 'say "hi" <b>&</b>', "maxlength": 4000, "step": 0.5, "placeholder": None},
        {"value": Markup('already <b>safe</b> "quoted"'), "title": Markup("a &amp; b")},
        {"data_x": "it's", "aria_invalid": "true", "autocomplete": "off"},
    ],
)
def test_attributes_are_written_as_wtforms_writes_them(attributes):
    expected = widgets.ORIGINAL(**attributes)
    assert widgets.html_params(**attributes) == expected
    assert widgets.html_params(**attributes) == expected, "the same when kept"
    assert isinstance(widgets.html_params(**attributes), Markup)


def test_installed_in_wtforms(app):
    assert core.html_params is widgets.html_params
    assert core.Input.html_params is widgets.html_params
    assert core.Button.html_params is widgets.html_params


def _swap(monkeypatch, function) -> None:
    monkeypatch.setattr(core, "html_params", function)
    monkeypatch.setattr("wtforms.widgets.html_params", function)
    monkeypatch.setattr(core.Input, "html_params", staticmethod(function))
    monkeypatch.setattr(core.Button, "html_params", staticmethod(function))


@pytest.mark.parametrize("typed", [None, report_data(description="", contact_email='a"b<@x')])
def test_the_report_form_renders_as_with_wtforms_own(app, monkeypatch, typed):
    """The whole page, shown fresh and shown again with errors and what was typed."""
    from flask import render_template
    from werkzeug.datastructures import MultiDict

    from portal.core.clock import local_now
    from portal.report.forms import ReportForm

    with app.test_request_context():
        form = ReportForm(clock=local_now, formdata=MultiDict(typed) if typed else None)
        if typed:
            form.validate()
        form.submission_key.data = "k" * 24

        def page() -> str:
            return render_template(
                "portal/report.html", form=form, photos=[], hints=[], expired=False
            )

        ours = page()
        _swap(monkeypatch, widgets.ORIGINAL)
        assert page() == ours
    assert ('aria-invalid="true"' in ours) == bool(typed)
