"""A document's date: when what it says was true. The relations extracted from a dated document
hold from that date (not from when it was stored), and the entities it mentions existed by then
(`created_at`, the rule `e.created_at <= t` of reads at a time). The writes read the date from
the stored document (`apps.resolution.relation_writes`, `apps.ingestion.chunk_writes`); this
module checks the date an agent sends.
"""

from __future__ import annotations

import datetime as dt

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
