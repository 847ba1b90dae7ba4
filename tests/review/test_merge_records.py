"""What a merge keeps to undo it: edge properties survive the JSON round trip with their types."""

from neo4j.time import Date, DateTime

from apps.review.merge_records import props_decode, props_encode, record_dump, record_load


def test_temporal_values_come_back_as_the_same_types():
    props = {"first_seen": DateTime(2026, 1, 2, 3, 4, 5), "born": Date(1990, 5, 6),
             "chunks": ["a", "b"], "weight": 2}  # fmt: skip
    back = props_decode(record_load(record_dump(props_encode(props))))
    assert back == props and isinstance(back["first_seen"], DateTime)
    assert isinstance(back["born"], Date)
