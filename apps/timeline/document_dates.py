"""A document's date: when what it says was true. The relations extracted from a dated document
hold from that date (not from when it was stored), and the entities it mentions existed by then
(`created_at`, the rule `e.created_at <= t` of reads at a time). The writes read the date from
the stored document (`apps.resolution.relation_writes`, `apps.ingestion.chunk_writes`); this
module checks the date an agent sends.
"""

from __future__ import annotations

import datetime as dt

from rest_framework import serializers

from apps.timeline.rows import EARLIEST, parse_time
from memoryproject.api_errors import ApplicationError

MAX_DATE_CHARS = 40


def parse_document_date(raw: object, *, field: str) -> dt.datetime:
    """A date (`2019-03-04`, midnight UTC) or an ISO 8601 time with a time zone, in UTC, cut to
    whole seconds, between 1900 and now (a document cannot say what is true after it was sent)."""
    if isinstance(raw, str) and len(raw) == 10:
        try:
            day = dt.date.fromisoformat(raw)
        except ValueError:
            raise ApplicationError("A date is YYYY-MM-DD or an ISO 8601 time with a time zone.",
                                   field=field) from None  # fmt: skip
        at = dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)
        if at < EARLIEST:
            raise ApplicationError("A date is between 1900 and now.", field=field,
                                   limit="1900-01-01/now")  # fmt: skip
    else:
        at = parse_time(raw, field=field)
    if at > dt.datetime.now(dt.UTC):
        raise ApplicationError("A document's date is not after now.", field=field, limit="now")
    return at


class DocumentDateField(serializers.CharField):
    """The API field of a date an agent sends (a document's `date`, a fact's `valid_from`):
    checked by `parse_document_date`, refusals named after the field."""

    def __init__(self, *, help_text: str, **kwargs):
        super().__init__(max_length=MAX_DATE_CHARS, required=False, help_text=help_text, **kwargs)

    def run_validation(self, data=serializers.empty):
        # The text is checked as text (its length) before it is read as a date.
        return parse_document_date(super().run_validation(data), field=self.field_name)
