"""`{{ value|when }}`: readable relative time, exact UTC on hover, from every kind of value."""

from datetime import UTC, datetime, timedelta

from django.template import Context, Template
from django.utils import timezone


def render(value) -> str:
    return Template("{{ value|when }}").render(Context({"value": value}))


def test_iso_strings_datetimes_and_neo4j_times_read_the_same():
    moment = timezone.now() - timedelta(minutes=5, seconds=3)
    exact = moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    expected = f'<time datetime="{moment.isoformat()}" title="{exact}">5\xa0minutes ago</time>'
    assert render(moment) == expected
    assert render(moment.isoformat()) == expected
    assert render(moment.isoformat().replace("+00:00", "Z")) == expected

    class Neo4jDateTime:  # the driver's DateTime converts itself with to_native()
        def to_native(self):
            return moment

    assert render(Neo4jDateTime()) == expected


def test_now_the_future_empty_and_what_is_no_time():
    assert ">just now<" in render(timezone.now())
    assert ">in 2\xa0days<" in render(timezone.now() + timedelta(days=2, hours=1))
    assert ">3\xa0hours ago<" in render(datetime.now(UTC).replace(tzinfo=None) - timedelta(hours=3))
    assert render(None) == "—" and render("") == "—"
    # Not a time: shown as the text it is, escaped.
    assert render("<b>soon</b>") == "&lt;b&gt;soon&lt;/b&gt;"
