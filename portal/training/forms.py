"""The form that adds a session to the training log."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import DecimalField
from wtforms.validators import NumberRange, Optional, ValidationError

from portal.core.clock import local_today
from portal.enforcement.forms import day
from portal.intake.fields import long_text, text
from portal.training.records import people


class TrainingForm(FlaskForm):
    trained_on = day("Day of the training", "Enter the day of the training.")
    topic = text(
        "What it was on",
        500,
        required="Say what the training was on, like “Spotting illicit discharges at outfalls”.",
    )
    trainees = long_text(
        "Who was trained", 4000, required="Enter who was trained: one name a line."
    )
    given_by = text("Given by", 500)
    hours = DecimalField(
        "Hours",
        [Optional(), NumberRange(min=0.1, max=100, message="Enter the hours, like 1.5.")],
        places=None,
    )

    def validate_trained_on(self, field: Any) -> None:
        if field.data and field.data > local_today():
            raise ValidationError("Enter a day that has passed (today at the latest).")

    def validate_trainees(self, field: Any) -> None:
        if field.data and not people(field.data):
            raise ValidationError("Enter who was trained: one name a line.")

    def values(self) -> dict[str, Any]:
        return {
            "trained_on": self.trained_on.data.isoformat(),
            "topic": self.topic.data,
            "trainees": "\n".join(people(self.trainees.data)),
            "given_by": self.given_by.data or None,
            "hours": float(self.hours.data) if self.hours.data is not None else None,
        }
