"""Episodes, entries, lessons, playbooks, handoffs and promoted knowledge."""

SCHEMA: list[str] = []
